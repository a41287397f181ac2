//! "Analyse a game": the recent finished games and a box to paste a record; a choice opens the
//! analysis.

use crate::app::Screen;
use crate::app::navigation::NavIntent;
use crate::game::records::{self, RecentGames, RecordEntry};
use crate::game::session::Seats;
use crate::game::settings::Settings;
use crate::i18n::Lang;
use crate::players::analysis::OpenAnalysis;
use crate::ui::root_ui;
use crate::ui::widgets::{big_button, players_line, result_text, variant_key};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use ludus_rules::AnyGame;

/// The recent games and the paste box, loaded when the screen opens.
#[derive(Resource, Default)]
pub(super) struct Picker {
    doc: RecentGames,
    notice: Option<String>,
    pasted: String,
    error: Option<String>,
}

pub(super) fn open_picker(mut commands: Commands, settings: Res<Settings>) {
    let (doc, notice) = records::load(settings.lang);
    commands.insert_resource(Picker { doc, notice, ..default() });
}

pub(super) fn close_picker(mut commands: Commands) {
    commands.remove_resource::<Picker>();
}

/// One line about a recent game.
fn entry_text(lang: Lang, e: &RecordEntry) -> String {
    let variant = e.record.variant;
    let result = match e.result {
        Some(o) => result_text(lang, variant, &o),
        None => lang.t("records-unfinished").to_string(),
    };
    format!(
        "{} · {} · {}\n{} · {}",
        crate::i18n::local_date_time(lang, e.date as i64),
        lang.text(variant_key(variant)),
        lang.fmt("records-moves", [("count", e.record.moves.len().into())]),
        result,
        players_line(lang, variant, &e.seats)
    )
}

pub(super) fn records_screen(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    picker: Option<ResMut<Picker>>,
    mut nav: MessageWriter<NavIntent>,
    mut analyse: MessageWriter<OpenAnalysis>,
) -> Result {
    let Some(mut picker) = picker else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let lang = settings.lang;
    let colors = crate::ui::theme::palette(settings.theme);
    let mut chosen: Option<(AnyGame, Seats)> = None;
    egui::CentralPanel::default().show(&mut root_ui(ctx), |ui| {
        if crate::ui::widgets::screen_header(ui, lang, crate::i18n::id!("records-title")) {
            nav.write(NavIntent::Go(Screen::Title));
        }
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.set_max_width(760.0);
            let width = ui.available_width();
            if let Some(text) = picker.notice.clone() {
                egui::Frame::group(ui.style()).fill(colors.notice).show(ui, |ui| {
                    ui.set_max_width(width);
                    ui.label(egui::RichText::new(text).color(colors.on_notice));
                    if ui.button(lang.t("ui-ok")).clicked() {
                        picker.notice = None;
                    }
                });
            }
            ui.heading(lang.t("records-recent"));
            if picker.doc.games.is_empty() {
                ui.label(lang.t("records-none"));
            }
            let mut failed = None;
            for e in &picker.doc.games {
                let button = egui::Button::new(egui::RichText::new(entry_text(lang, e)))
                    .min_size(egui::vec2(width, 52.0));
                if ui.add(button).clicked() {
                    match e.game() {
                        Ok(game) => chosen = Some((game, e.seats)),
                        Err(err) => failed = Some(err.text(lang)),
                    }
                }
            }
            if let Some(err) = failed {
                picker.error = Some(err);
            }
            ui.add_space(12.0);
            ui.heading(lang.t("records-paste"));
            ui.label(egui::RichText::new(lang.t("records-paste-help")).small());
            ui.add(
                egui::TextEdit::multiline(&mut picker.pasted)
                    .code_editor()
                    .desired_rows(5)
                    .desired_width(width)
                    .hint_text("alquerque\n1. c2-c3 c4xc2 …"),
            );
            if big_button(ui, lang.t("records-open"), width.min(320.0)).clicked() {
                match records::parse_pasted(&picker.pasted) {
                    Ok(game) if game.ply() == 0 => {
                        picker.error = Some(lang.t("records-no-moves").to_string())
                    }
                    Ok(game) => chosen = Some((game, Seats::two_players())),
                    Err(e) => picker.error = Some(e.text(lang)),
                }
            }
            if let Some(e) = &picker.error {
                ui.label(
                    egui::RichText::new(lang.fmt("records-bad", [("error", e.into())])).color(colors.warn),
                );
            }
        });
    });
    if let Some((game, seats)) = chosen {
        picker.error = None;
        analyse.write(OpenAnalysis { game, seats, back: Screen::Records });
    }
    Ok(())
}

/// "Analyse a game", and the analysis of the game chosen.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        records_screen.run_if(in_state(Screen::Records)).in_set(crate::ui::UiSet::Screens),
    )
    .add_systems(OnEnter(Screen::Records), open_picker)
    .add_systems(OnExit(Screen::Records), close_picker);
}

//! A player's profile (online): their ratings and record in each game, and their last finished
//! games, each opening in the replay and analysis screen from the server's archive.

use crate::app::Screen;
use crate::app::navigation::NavIntent;
use crate::game::settings::Settings;
use crate::i18n::{Id, Lang, id};
use crate::net::intents::LobbyIntent;
use crate::net::views::{Archives, NetNotice, Profiles};
use crate::ui::widgets::{rating_text, screen_header, variant_key};
use crate::ui::{TapTargets, root_ui};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use ludus_protocol::{GameResult, ProfileView, RecentGame};

/// The message id of a game's result for the profile's player.
fn result_key(result: GameResult) -> Id {
    match result {
        GameResult::Win => id!("profile-won"),
        GameResult::Draw => id!("profile-drawn"),
        GameResult::Loss => id!("profile-lost"),
    }
}

/// One line about a recent game: when, which game, against whom, how it went, rated or not.
pub fn recent_text(lang: Lang, g: &RecentGame) -> String {
    format!(
        "{} · {} · {} · {} · {}",
        crate::i18n::local_date_time(lang, (g.ended_ms / 1000) as i64),
        lang.text(variant_key(g.variant)),
        lang.fmt(
            "profile-against",
            [("opponent", crate::i18n::player_name(lang, &g.opponent).into_owned().into())]
        ),
        lang.text(result_key(g.result)),
        if g.rated { lang.t("net-game-rated") } else { lang.t("net-game-casual") },
    )
}

/// The ratings table: a line per game.
fn ratings_grid(ui: &mut egui::Ui, lang: Lang, profile: &ProfileView) {
    egui::Grid::new("profile-ratings").striped(true).spacing([18.0, 6.0]).show(ui, |ui| {
        for text in [
            lang.t("menu-game"),
            lang.t("profile-rating"),
            lang.t("profile-games"),
            lang.t("profile-wins"),
            lang.t("profile-draws"),
            lang.t("profile-losses"),
        ] {
            ui.label(egui::RichText::new(text).strong());
        }
        ui.end_row();
        for r in &profile.ratings {
            ui.label(lang.text(variant_key(r.variant)));
            ui.label(egui::RichText::new(rating_text(&r.rating)).monospace());
            for n in [r.games, r.wins, r.draws, r.losses] {
                ui.label(egui::RichText::new(n.to_string()).monospace());
            }
            ui.end_row();
        }
    });
}

pub(super) fn profile_screen(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    views: (Res<Profiles>, Res<Archives>, Res<NetNotice>),
    mut taps: ResMut<TapTargets>,
    mut intents: MessageWriter<LobbyIntent>,
    mut nav: MessageWriter<NavIntent>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = settings.lang;
    let colors = crate::ui::theme::palette(settings.theme);
    let (profiles, archives, notice) = views;
    egui::CentralPanel::default().show(&mut root_ui(ctx), |ui| {
        if screen_header(ui, lang, crate::i18n::id!("profile-title")) {
            nav.write(NavIntent::Go(Screen::Online));
        }
        if super::lobby::notice_box(ui, lang, &colors, &notice) {
            intents.write(LobbyIntent::DismissNotice);
        }
        let Some(profile) = profiles.viewed.as_ref() else {
            ui.spinner();
            return;
        };
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.set_max_width(ui.available_width().min(760.0));
            if let Some(game) = profile_body(ui, lang, profile, archives.asked, &mut taps) {
                intents.write(LobbyIntent::AskArchive(game));
            }
        });
    });
    Ok(())
}

/// The profile: the nickname, the ratings, the recent games (a tap asks for one's archive,
/// returned).
fn profile_body(
    ui: &mut egui::Ui,
    lang: Lang,
    profile: &ProfileView,
    waiting: Option<ludus_protocol::GameId>,
    taps: &mut TapTargets,
) -> Option<ludus_protocol::GameId> {
    let width = ui.available_width();
    ui.heading(egui::RichText::new(&profile.nickname).size(26.0));
    if profile.claimed {
        ratings_grid(ui, lang, profile);
    } else {
        ui.add(egui::Label::new(lang.t("profile-not-claimed")).wrap());
    }
    ui.add_space(10.0);
    ui.heading(lang.t("profile-recent"));
    if profile.recent.is_empty() {
        ui.label(egui::RichText::new(lang.t("net-none")).italics());
    }
    let mut asked = None;
    for (i, g) in profile.recent.iter().enumerate() {
        let mut text = recent_text(lang, g);
        if waiting == Some(g.game) {
            text = format!("{text}  …");
        }
        let button = egui::Button::new(egui::RichText::new(text)).wrap().min_size(egui::vec2(width, 44.0));
        let button = ui.add_enabled(waiting.is_none(), button);
        if i == 0 {
            taps.note(ui, "recent_game", &button);
        }
        if button.clicked() {
            asked = Some(g.game);
        }
    }
    if !profile.recent.is_empty() {
        ui.add(egui::Label::new(egui::RichText::new(lang.t("profile-replay-hint")).small()).wrap());
    }
    asked
}

/// A player's profile, and the replay of a game opened from it.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        profile_screen.run_if(in_state(Screen::Profile)).in_set(crate::ui::UiSet::Screens),
    );
}

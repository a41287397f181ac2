//! A player's profile (online): their ratings and record in each game, and their last finished
//! games, each opening in the replay and analysis screen from the server's archive.

use crate::app::Screen;
use crate::game::session::{Seats, Session};
use crate::game::settings::Settings;
use crate::i18n::{Id, Lang, id};
use crate::net::connection::Net;
use crate::players::analysis;
use crate::ui::widgets::{rating_text, screen_header, variant_key};
use crate::ui::{TapTargets, root_ui};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use ludus_protocol::{ArchivedGame, GameResult, ProfileView, RecentGame};
use ludus_rules::{AnyGame, Side};

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

/// The game an archive records, with the person here on their side if they played it.
pub fn archived_game(archive: &ArchivedGame, me: Option<&str>) -> Result<(AnyGame, Seats), String> {
    let game = AnyGame::from_record(&archive.record).map_err(|e| e.to_string())?;
    let local = archive
        .players
        .iter()
        .position(|p| Some(p.as_str()) == me)
        .map(|i| if i == 0 { Side::First } else { Side::Second });
    Ok((game, Seats::online(local)))
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
    mut net: ResMut<Net>,
    mut taps: ResMut<TapTargets>,
    session: Option<Res<Session>>,
    mut next: ResMut<NextState<Screen>>,
    mut commands: Commands,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = settings.lang;
    let mut failed = None;
    egui::CentralPanel::default().show(&mut root_ui(ctx), |ui| {
        if screen_header(ui, lang, crate::i18n::id!("profile-title")) {
            next.set(Screen::Online);
        }
        super::lobby::notice_box(ui, lang, &mut net);
        let Some(profile) = net.viewed.clone() else {
            ui.spinner();
            return;
        };
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.set_max_width(ui.available_width().min(760.0));
            let width = ui.available_width();
            ui.heading(egui::RichText::new(&profile.nickname).size(26.0));
            if profile.claimed {
                ratings_grid(ui, lang, &profile);
            } else {
                ui.add(egui::Label::new(lang.t("profile-not-claimed")).wrap());
            }
            ui.add_space(10.0);
            ui.heading(lang.t("profile-recent"));
            if profile.recent.is_empty() {
                ui.label(egui::RichText::new(lang.t("net-none")).italics());
            }
            let waiting = net.archive_asked;
            for (i, g) in profile.recent.iter().enumerate() {
                let mut text = recent_text(lang, g);
                if waiting == Some(g.game) {
                    text = format!("{text}  …");
                }
                let button =
                    egui::Button::new(egui::RichText::new(text)).wrap().min_size(egui::vec2(width, 44.0));
                let button = ui.add_enabled(waiting.is_none(), button);
                if i == 0 {
                    taps.note(ui, "recent_game", &button);
                }
                if button.clicked() {
                    net.ask_archive(g.game);
                }
            }
            if !profile.recent.is_empty() {
                ui.add(egui::Label::new(egui::RichText::new(lang.t("profile-replay-hint")).small()).wrap());
            }
        });
    });
    // The archive asked for came: its replay and analysis, "Back" returning here.
    if let Some(archive) = net.archive.take() {
        match archived_game(&archive, net.nickname.as_deref()) {
            Ok((game, seats)) => {
                analysis::open(
                    &mut commands,
                    &mut next,
                    game,
                    seats,
                    Screen::Profile,
                    session.map(|s| s.clone()),
                );
            }
            Err(e) => failed = Some(e),
        }
    }
    if let Some(e) = failed {
        warn!("an archived game does not replay: {e}");
        net.notice = Some((ludus_protocol::ErrorCode::Malformed, e));
    }
    Ok(())
}

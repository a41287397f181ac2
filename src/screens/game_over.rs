//! The game-over card: the result and why, rematch, analysis, the final board, back.

use crate::app::Screen;
use crate::board::view::BoardView;
use crate::game::session::GameCommand;
use crate::net::sync::leave_game;
use crate::players::analysis;
use crate::screens::play::{GameActions, GameShown, OverCardHidden};
use crate::ui::widgets::{big_button, reason_text, result_text};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// The card over the board once the game is over and the board is still (unless hidden).
pub(super) fn game_over_card(
    mut contexts: EguiContexts,
    shown: GameShown,
    view: Res<BoardView>,
    mut hidden: ResMut<OverCardHidden>,
    mut actions: GameActions,
) -> Result {
    let Some(session) = shown.session.as_deref().filter(|s| !s.lesson) else {
        return Ok(()); // a lesson says itself how the move went
    };
    let online = shown.online();
    let ctx = contexts.ctx_mut()?;
    let lang = shown.settings.lang;
    let game = &session.game;
    let variant = game.variant();
    // The game-over card.
    if let Some(outcome) = game.outcome()
        && !hidden.0
        && view.settled(session)
    {
        let mover = game.moves().last().map(|_| !game.side_to_move());
        egui::Window::new(lang.t("over.title"))
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
            .show(ctx, |ui| {
                ui.vertical_centered(|ui| {
                    ui.label(egui::RichText::new(result_text(lang, variant, &outcome)).size(30.0).strong());
                    ui.label(egui::RichText::new(reason_text(lang, variant, &outcome, mover)).size(18.0));
                    ui.add_space(10.0);
                    if let Some(online) = online {
                        if online.rematch_offered && !online.rematch_sent {
                            ui.label(lang.t("net.rematch_offered"));
                        }
                        if online.rematch_sent {
                            ui.label(lang.t("net.rematch_sent"));
                        }
                        let can = online.local_side().is_some() && !online.rematch_sent;
                        if can && big_button(ui, lang.t("over.rematch"), 260.0).clicked() {
                            actions.game.write(GameCommand::NewGame);
                        }
                    } else if big_button(ui, lang.t("over.rematch"), 260.0).clicked() {
                        actions.game.write(GameCommand::NewGame);
                    }
                    if big_button(ui, lang.t("over.analyse"), 260.0).clicked() {
                        analysis::open(
                            &mut actions.commands,
                            &mut actions.next,
                            game.clone(),
                            session.seats,
                            Screen::Playing,
                            Some(session.clone()),
                        );
                    }
                    if big_button(ui, lang.t("over.view"), 260.0).clicked() {
                        hidden.0 = true;
                    }
                    if online.is_some() {
                        if big_button(ui, lang.t("over.back_lobby"), 260.0).clicked() {
                            leave_game(&mut actions.commands, &mut actions.net, &mut actions.next);
                        }
                    } else if big_button(ui, lang.t("over.back"), 260.0).clicked() {
                        actions.next.set(Screen::Title);
                    }
                });
            });
    }
    Ok(())
}

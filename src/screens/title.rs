//! The title screen: the main menu, the game, the opponent, resuming the unfinished game.

use crate::app::Screen;
use crate::game::Notices;
use crate::game::lessons::LessonProgress;
use crate::game::save::Resumable;
use crate::game::session::{LEVELS, Level, Seats, Session};
use crate::game::settings::Settings;
use crate::ui::root_ui;
use crate::ui::widgets::{big_button, level_key, side_name, variant_key};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use ludus_rules::{Side, Variant};

/// Starts a game and switches to the board.
pub fn start_game(commands: &mut Commands, next: &mut NextState<Screen>, session: Session) {
    commands.insert_resource(session);
    next.set(Screen::Playing);
}

pub(super) fn title_screen(
    mut contexts: EguiContexts,
    mut settings: ResMut<Settings>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut resumable: ResMut<Resumable>,
    mut notices: ResMut<Notices>,
    progress: Res<LessonProgress>,
    mut exit: MessageWriter<AppExit>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = settings.lang;
    egui::CentralPanel::default().show(&mut root_ui(ctx), |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.vertical_centered(|ui| {
                let width = ui.available_width().min(440.0);
                ui.add_space(16.0);
                ui.label(egui::RichText::new("LUDUS").size(56.0).strong());
                ui.label(egui::RichText::new(lang.t("app.subtitle")).size(18.0).italics());
                ui.add_space(12.0);
                if let Some(text) = notices.0.first() {
                    let mut close = false;
                    egui::Frame::group(ui.style()).fill(egui::Color32::from_rgb(90, 40, 30)).show(ui, |ui| {
                        ui.set_max_width(width);
                        ui.label(egui::RichText::new(text).color(egui::Color32::WHITE));
                        close = ui.button(lang.t("ui.ok")).clicked();
                    });
                    if close {
                        notices.0.remove(0);
                    }
                    ui.add_space(8.0);
                }
                if let Resumable::Game(saved) = &*resumable {
                    let label = format!(
                        "{} — {} ({})",
                        lang.t("menu.resume"),
                        lang.t(variant_key(saved.game.variant())),
                        saved.game.ply()
                    );
                    if big_button(ui, &label, width).clicked() {
                        let session = (**saved).clone();
                        *resumable = Resumable::None;
                        start_game(&mut commands, &mut next, session);
                    }
                    ui.add_space(8.0);
                }
                // A first-time player (no lesson done yet) is offered the lessons first.
                if progress.done.is_empty() {
                    ui.scope(|ui| {
                        ui.set_max_width(width);
                        ui.label(lang.t("menu.new_player"));
                    });
                    let text = egui::RichText::new(lang.t("menu.lessons")).size(20.0).strong();
                    if ui.add_sized([width, 48.0], egui::Button::new(text).selected(true)).clicked() {
                        next.set(Screen::Lessons);
                    }
                    ui.add_space(8.0);
                }
                ui.heading(lang.t("menu.game"));
                for v in Variant::ALL {
                    let selected = settings.variant == v;
                    let text = format!(
                        "{}\n{}",
                        lang.t(variant_key(v)),
                        lang.t(match v {
                            Variant::Latrunculi => "game.latrunculi.blurb",
                            Variant::LatrunculiQuick => "game.latrunculi-quick.blurb",
                            Variant::Alquerque => "game.alquerque.blurb",
                        })
                    );
                    if ui.add_sized([width, 56.0], egui::Button::selectable(selected, text)).clicked() {
                        settings.variant = v;
                    }
                }
                ui.add_space(8.0);
                ui.heading(lang.t("menu.mode"));
                ui.horizontal(|ui| {
                    ui.add_space(((ui.available_width() - width) / 2.0).max(0.0));
                    if ui
                        .add_sized(
                            [width / 2.0 - 4.0, 44.0],
                            egui::Button::selectable(settings.vs_computer, lang.t("menu.vs_computer")),
                        )
                        .clicked()
                    {
                        settings.vs_computer = true;
                    }
                    if ui
                        .add_sized(
                            [width / 2.0 - 4.0, 44.0],
                            egui::Button::selectable(!settings.vs_computer, lang.t("menu.two_players")),
                        )
                        .clicked()
                    {
                        settings.vs_computer = false;
                    }
                });
                if settings.vs_computer {
                    ui.label(lang.t("menu.play_as"));
                    ui.horizontal(|ui| {
                        ui.add_space(((ui.available_width() - width) / 2.0).max(0.0));
                        for side in [Side::First, Side::Second] {
                            let name = side_name(lang, settings.variant, side);
                            if ui
                                .add_sized(
                                    [width / 2.0 - 4.0, 44.0],
                                    egui::Button::selectable(settings.human_side == side, name),
                                )
                                .clicked()
                            {
                                settings.human_side = side;
                            }
                        }
                    });
                    ui.label(lang.t("menu.level"));
                    ui.horizontal(|ui| {
                        ui.add_space(((ui.available_width() - width) / 2.0).max(0.0));
                        for level in LEVELS {
                            if ui
                                .add_sized(
                                    [width / 3.0 - 6.0, 44.0],
                                    egui::Button::selectable(
                                        settings.level == level,
                                        lang.t(level_key(level)),
                                    ),
                                )
                                .clicked()
                            {
                                settings.level = level;
                            }
                        }
                    });
                    ui.scope(|ui| {
                        ui.set_max_width(width);
                        ui.label(egui::RichText::new(lang.t(level_about_key(settings.level))).size(15.0));
                    });
                }
                ui.add_space(12.0);
                if big_button(ui, lang.t("menu.play"), width).clicked() {
                    let seats = if settings.vs_computer {
                        Seats::versus_computer(settings.human_side, settings.level)
                    } else {
                        Seats::two_players()
                    };
                    *resumable = Resumable::None;
                    start_game(&mut commands, &mut next, Session::new(settings.variant, seats));
                }
                ui.add_space(8.0);
                if !progress.done.is_empty() && big_button(ui, lang.t("menu.lessons"), width).clicked() {
                    next.set(Screen::Lessons);
                }
                if big_button(ui, lang.t("menu.rules"), width).clicked() {
                    next.set(Screen::Rules);
                }
                if big_button(ui, lang.t("menu.settings"), width).clicked() {
                    next.set(Screen::Settings);
                }
                if big_button(ui, lang.t("menu.online"), width).clicked() {
                    next.set(Screen::Online);
                }
                if big_button(ui, lang.t("menu.analyse"), width).clicked() {
                    next.set(Screen::Records);
                }
                if !cfg!(target_arch = "wasm32") && big_button(ui, lang.t("menu.quit"), width).clicked() {
                    exit.write(AppExit::Success);
                }
            });
        });
    });
    Ok(())
}

/// The key of what a level does.
fn level_about_key(level: Level) -> &'static str {
    match level {
        Level::Easy | Level::Random => "level.easy.about",
        Level::Medium => "level.medium.about",
        Level::Hard => "level.hard.about",
    }
}

//! The screens as states, and the menu screens drawn with egui: title, settings, rules and tips.

use crate::i18n::Lang;
use crate::save::{Resumable, SaveNotice};
use crate::session::{Level, Seats, Session};
use crate::settings::{AnimSpeed, Settings, Theme};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use ludus_rules::{Side, Variant};

/// Which screen is showing.
#[derive(States, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Screen {
    /// The title and main menu.
    #[default]
    Title,
    /// Rules and tips for both games.
    Rules,
    /// Settings.
    Settings,
    /// A game on the board.
    Playing,
    /// Play online: the server, the lobby, rooms and live games.
    Online,
    /// A finished game analysed by the engine: the graph, the marked moves, any position.
    Analysis,
    /// "Analyse a game": the recent finished games and a box to paste a record.
    Records,
}

/// The name of a side in a game: Red or Black in Latrunculi, White or Black in Alquerque.
pub fn side_name(lang: Lang, variant: Variant, side: Side) -> &'static str {
    match (variant.is_latrunculi(), side) {
        (true, Side::First) => lang.t("side.red"),
        (false, Side::First) => lang.t("side.white"),
        (_, Side::Second) => lang.t("side.black"),
    }
}

/// The key of a variant's name.
pub fn variant_key(variant: Variant) -> &'static str {
    match variant {
        Variant::Latrunculi => "game.latrunculi",
        Variant::LatrunculiQuick => "game.latrunculi-quick",
        Variant::Alquerque => "game.alquerque",
    }
}

/// The key of a level's name.
pub fn level_key(level: Level) -> &'static str {
    match level {
        Level::Easy => "level.easy",
        Level::Medium => "level.medium",
        Level::Hard => "level.hard",
    }
}

/// Starts a game and switches to the board.
pub fn start_game(commands: &mut Commands, next: &mut NextState<Screen>, session: Session) {
    commands.insert_resource(session);
    next.set(Screen::Playing);
}

/// A big button for menus (touch friendly).
pub fn big_button(ui: &mut egui::Ui, text: &str, width: f32) -> egui::Response {
    ui.add_sized([width, 48.0], egui::Button::new(egui::RichText::new(text).size(20.0)))
}

fn title_screen(
    mut contexts: EguiContexts,
    mut settings: ResMut<Settings>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut resumable: ResMut<Resumable>,
    mut notice: ResMut<SaveNotice>,
    mut exit: MessageWriter<AppExit>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = settings.lang;
    egui::CentralPanel::default().show(&mut crate::hud::root_ui(ctx), |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.vertical_centered(|ui| {
                let width = ui.available_width().min(440.0);
                ui.add_space(16.0);
                ui.label(egui::RichText::new("LUDUS").size(56.0).strong());
                ui.label(egui::RichText::new(lang.t("app.subtitle")).size(18.0).italics());
                ui.add_space(12.0);
                if let Some(text) = &notice.0 {
                    let mut close = false;
                    egui::Frame::group(ui.style()).fill(egui::Color32::from_rgb(90, 40, 30)).show(ui, |ui| {
                        ui.set_max_width(width);
                        ui.label(egui::RichText::new(text).color(egui::Color32::WHITE));
                        close = ui.button("OK").clicked();
                    });
                    if close {
                        notice.0 = None;
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
                        for level in Level::ALL {
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

fn settings_screen(
    mut contexts: EguiContexts,
    mut settings: ResMut<Settings>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = settings.lang;
    let mut s = settings.clone();
    egui::CentralPanel::default().show(&mut crate::hud::root_ui(ctx), |ui| {
        ui.vertical_centered(|ui| {
            let width = ui.available_width().min(440.0);
            ui.heading(egui::RichText::new(lang.t("settings.title")).size(32.0));
            ui.add_space(12.0);
            ui.label(lang.t("settings.language"));
            for l in Lang::ALL {
                if ui
                    .add_sized([width, 44.0], egui::Button::selectable(s.lang == l, l.native_name()))
                    .clicked()
                {
                    s.lang = l;
                }
            }
            ui.add_space(8.0);
            ui.label(lang.t("settings.animation"));
            ui.horizontal(|ui| {
                ui.add_space(((ui.available_width() - width) / 2.0).max(0.0));
                for a in AnimSpeed::ALL {
                    if ui
                        .add_sized(
                            [width / 4.0 - 6.0, 44.0],
                            egui::Button::selectable(s.anim == a, lang.t(a.key())),
                        )
                        .clicked()
                    {
                        s.anim = a;
                    }
                }
            });
            ui.add_space(8.0);
            ui.label(lang.t("settings.theme"));
            ui.horizontal(|ui| {
                ui.add_space(((ui.available_width() - width) / 2.0).max(0.0));
                for t in Theme::ALL {
                    if ui
                        .add_sized(
                            [width / 3.0 - 6.0, 44.0],
                            egui::Button::selectable(s.theme == t, lang.t(t.key())),
                        )
                        .clicked()
                    {
                        s.theme = t;
                    }
                }
            });
            ui.add_space(8.0);
            ui.checkbox(&mut s.coordinates, lang.t("settings.coordinates"));
            ui.horizontal(|ui| {
                ui.add_space(((ui.available_width() - width) / 2.0).max(0.0));
                ui.add_enabled(
                    crate::sound::AVAILABLE,
                    egui::Checkbox::new(&mut s.sound, lang.t("settings.sound")),
                );
                if !crate::sound::AVAILABLE {
                    ui.label(lang.t("settings.sound.unavailable"));
                }
            });
            ui.add_space(16.0);
            if big_button(ui, lang.t("menu.back"), width).clicked() {
                next.set(Screen::Title);
            }
        });
    });
    if s != *settings {
        *settings = s;
    }
    Ok(())
}

fn rules_screen(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = settings.lang;
    egui::CentralPanel::default().show(&mut crate::hud::root_ui(ctx), |ui| {
        ui.horizontal(|ui| {
            if ui.add_sized([120.0, 44.0], egui::Button::new(lang.t("menu.back"))).clicked() {
                next.set(Screen::Title);
            }
            ui.heading(egui::RichText::new(lang.t("rules.title")).size(28.0));
        });
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.set_max_width(760.0);
            let para = |ui: &mut egui::Ui, key: &'static str| {
                ui.label(egui::RichText::new(lang.t(key)).size(17.0));
                ui.add_space(6.0);
            };
            ui.heading(egui::RichText::new(lang.t("rules.latrunculi.title")).size(24.0));
            for key in ["rules.latrunculi.setup", "rules.latrunculi.move", "rules.latrunculi.capture"] {
                para(ui, key);
            }
            crate::diagrams::sandwich(ui, lang);
            para(ui, "rules.latrunculi.king");
            crate::diagrams::immobilised_king(ui, lang);
            para(ui, "rules.latrunculi.end");
            para(ui, "rules.latrunculi.tips");
            ui.separator();
            ui.heading(egui::RichText::new(lang.t("rules.alquerque.title")).size(24.0));
            for key in ["rules.alquerque.setup", "rules.alquerque.move", "rules.alquerque.capture"] {
                para(ui, key);
            }
            crate::diagrams::chain(ui, lang);
            para(ui, "rules.alquerque.end");
            para(ui, "rules.alquerque.tips");
            ui.separator();
            para(ui, "rules.notation");
        });
    });
    Ok(())
}

pub(crate) fn plugin(app: &mut App) {
    app.init_state::<Screen>().add_systems(
        EguiPrimaryContextPass,
        (
            title_screen.run_if(in_state(Screen::Title)),
            settings_screen.run_if(in_state(Screen::Settings)),
            rules_screen.run_if(in_state(Screen::Rules)),
        ),
    );
}

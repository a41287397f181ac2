//! The settings screen: language, text size, animation speed, board theme, coordinates, sound.

use crate::app::Screen;
use crate::app::navigation::NavIntent;
use crate::game::settings::{AnimSpeed, Settings, TextSize, Theme};
use crate::i18n::Lang;
use crate::ui::root_ui;
use crate::ui::widgets::{big_button, choice};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn settings_screen(
    mut contexts: EguiContexts,
    mut settings: ResMut<Settings>,
    mut nav: MessageWriter<NavIntent>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = settings.lang;
    let mut s = settings.clone();
    egui::CentralPanel::default().show(&mut root_ui(ctx), |ui| {
        // Scrolls when a large text size makes the screen taller than the window.
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.vertical_centered(|ui| {
                let width = ui.available_width().min(440.0);
                ui.heading(egui::RichText::new(lang.t("settings-title")).size(32.0));
                ui.add_space(12.0);
                ui.label(lang.t("settings-language"));
                for l in Lang::ALL {
                    if ui.add_sized([width, 44.0], choice(s.lang == l, l.native_name())).clicked() {
                        s.lang = l;
                    }
                }
                ui.add_space(8.0);
                ui.label(lang.t("settings-text-size"));
                ui.horizontal(|ui| {
                    ui.add_space(((ui.available_width() - width) / 2.0).max(0.0));
                    for size in TextSize::ALL {
                        let text = egui::RichText::new(size.label()).size(17.0 * size.factor().min(1.5));
                        if ui
                            .add_sized([width / 4.0 - 6.0, 44.0], choice(s.text_size == size, text))
                            .clicked()
                        {
                            s.text_size = size;
                        }
                    }
                });
                ui.add_space(8.0);
                ui.label(lang.t("settings-animation"));
                ui.horizontal(|ui| {
                    ui.add_space(((ui.available_width() - width) / 2.0).max(0.0));
                    for a in AnimSpeed::ALL {
                        if ui
                            .add_sized([width / 4.0 - 6.0, 44.0], choice(s.anim == a, lang.text(a.key())))
                            .clicked()
                        {
                            s.anim = a;
                        }
                    }
                });
                ui.add_space(8.0);
                ui.label(lang.t("settings-theme"));
                ui.horizontal(|ui| {
                    ui.add_space(((ui.available_width() - width) / 2.0).max(0.0));
                    for t in Theme::ALL {
                        if ui
                            .add_sized([width / 3.0 - 6.0, 44.0], choice(s.theme == t, lang.text(t.key())))
                            .clicked()
                        {
                            s.theme = t;
                        }
                    }
                });
                ui.add_space(8.0);
                for (value, text) in [
                    (&mut s.coordinates, lang.t("settings-coordinates")),
                    (&mut s.sound, lang.t("settings-sound")),
                ] {
                    ui.horizontal(|ui| {
                        ui.add_space(((ui.available_width() - width) / 2.0).max(0.0));
                        ui.checkbox(value, text);
                    });
                }
                ui.add_space(16.0);
                if big_button(ui, lang.t("menu-back"), width).clicked() {
                    nav.write(NavIntent::Go(Screen::Title));
                }
            });
        });
    });
    if s != *settings {
        *settings = s;
    }
    Ok(())
}

/// The settings screen.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        settings_screen.run_if(in_state(Screen::Settings)).in_set(crate::ui::UiSet::Screens),
    );
}

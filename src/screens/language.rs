//! The first start's language choice: each language named in itself, the system's first and
//! highlighted; the choice is saved and never asked again.

use crate::app::Screen;
use crate::app::navigation::NavIntent;
use crate::game::settings::{FirstStart, Settings};
use crate::i18n::Lang;
use crate::ui::root_ui;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The languages in the order the choice shows them: `detected` first.
pub fn choice_order(detected: Lang) -> [Lang; 2] {
    match detected {
        Lang::Vi => [Lang::Vi, Lang::En],
        Lang::En => [Lang::En, Lang::Vi],
    }
}

pub(super) fn language_screen(
    mut contexts: EguiContexts,
    mut settings: ResMut<Settings>,
    mut first: ResMut<FirstStart>,
    mut nav: MessageWriter<NavIntent>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let detected = settings.lang;
    let mut chosen = None;
    egui::CentralPanel::default().show(&mut root_ui(ctx), |ui| {
        ui.vertical_centered(|ui| {
            let width = ui.available_width().min(440.0);
            ui.add_space((ui.available_height() * 0.2).clamp(16.0, 160.0));
            ui.label(egui::RichText::new("LUDUS").font(crate::ui::display(64.0)).strong());
            // Both languages at once: the player may read only one of them.
            ui.label(egui::RichText::new("Chọn ngôn ngữ · Choose your language").size(20.0));
            ui.add_space(24.0);
            for lang in choice_order(detected) {
                let text = egui::RichText::new(lang.native_name()).size(30.0).strong();
                let button = egui::Button::selectable(lang == detected, text);
                if ui.add_sized([width, 80.0], button).clicked() {
                    chosen = Some(lang);
                }
                ui.add_space(12.0);
            }
        });
    });
    if let Some(lang) = chosen {
        settings.lang = lang;
        settings.save();
        first.0 = false;
        nav.write(NavIntent::Go(Screen::Title));
    }
    Ok(())
}

/// The first start's language choice.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        language_screen.run_if(in_state(Screen::Language)).in_set(crate::ui::UiSet::Screens),
    );
}

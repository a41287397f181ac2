//! The rules, history and tips of both games, with small diagrams, and a few questions answered.

use crate::app::Screen;
use crate::game::settings::Settings;
use crate::screens::diagrams;
use crate::ui::root_ui;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

pub(super) fn rules_screen(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = settings.lang;
    egui::CentralPanel::default().show(&mut root_ui(ctx), |ui| {
        if crate::ui::widgets::screen_header(ui, lang, "rules.title") {
            next.set(Screen::Title);
        }
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.set_max_width(760.0);
            let para = |ui: &mut egui::Ui, key: &'static str| {
                ui.label(egui::RichText::new(lang.t(key)).size(17.0));
                ui.add_space(6.0);
            };
            ui.heading(egui::RichText::new(lang.t("rules.latrunculi.title")).size(24.0));
            for key in [
                "rules.latrunculi.history",
                "rules.latrunculi.setup",
                "rules.latrunculi.move",
                "rules.latrunculi.capture",
            ] {
                para(ui, key);
            }
            diagrams::sandwich(ui, lang);
            para(ui, "rules.latrunculi.king");
            diagrams::immobilised_king(ui, lang);
            para(ui, "rules.latrunculi.end");
            para(ui, "rules.latrunculi.tips");
            ui.separator();
            ui.heading(egui::RichText::new(lang.t("rules.alquerque.title")).size(24.0));
            for key in [
                "rules.alquerque.history",
                "rules.alquerque.setup",
                "rules.alquerque.move",
                "rules.alquerque.capture",
            ] {
                para(ui, key);
            }
            diagrams::chain(ui, lang);
            para(ui, "rules.alquerque.chain");
            para(ui, "rules.alquerque.end");
            para(ui, "rules.alquerque.tips");
            ui.separator();
            ui.heading(egui::RichText::new(lang.t("rules.faq.title")).size(24.0));
            for key in ["rules.faq.forced", "rules.faq.draw", "rules.faq.online"] {
                para(ui, key);
            }
            ui.separator();
            para(ui, "rules.notation");
        });
    });
    Ok(())
}

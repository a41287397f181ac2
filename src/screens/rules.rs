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
        if crate::ui::widgets::screen_header(ui, lang, crate::i18n::id!("rules-title")) {
            next.set(Screen::Title);
        }
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.set_max_width(760.0);
            let para = |ui: &mut egui::Ui, text: &str| {
                ui.label(egui::RichText::new(text).size(17.0));
                ui.add_space(6.0);
            };
            ui.heading(egui::RichText::new(lang.t("rules-latrunculi-title")).size(24.0));
            for text in [
                lang.t("rules-latrunculi-history"),
                lang.t("rules-latrunculi-setup"),
                lang.t("rules-latrunculi-move"),
                lang.t("rules-latrunculi-capture"),
            ] {
                para(ui, text);
            }
            diagrams::sandwich(ui, lang);
            para(ui, lang.t("rules-latrunculi-king"));
            diagrams::immobilised_king(ui, lang);
            para(ui, lang.t("rules-latrunculi-end"));
            para(ui, lang.t("rules-latrunculi-tips"));
            ui.separator();
            ui.heading(egui::RichText::new(lang.t("rules-alquerque-title")).size(24.0));
            for text in [
                lang.t("rules-alquerque-history"),
                lang.t("rules-alquerque-setup"),
                lang.t("rules-alquerque-move"),
                lang.t("rules-alquerque-capture"),
            ] {
                para(ui, text);
            }
            diagrams::chain(ui, lang);
            para(ui, lang.t("rules-alquerque-chain"));
            para(ui, lang.t("rules-alquerque-end"));
            para(ui, lang.t("rules-alquerque-tips"));
            ui.separator();
            ui.heading(egui::RichText::new(lang.t("rules-faq-title")).size(24.0));
            for text in [lang.t("rules-faq-forced"), lang.t("rules-faq-draw"), lang.t("rules-faq-online")] {
                para(ui, text);
            }
            ui.separator();
            para(ui, lang.t("rules-notation"));
        });
    });
    Ok(())
}

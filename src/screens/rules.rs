//! The rules, history and tips of both games, with small diagrams, and a few questions answered.

use crate::app::Screen;
use crate::app::navigation::NavIntent;
use crate::game::settings::Settings;
use crate::screens::diagrams;
use crate::ui::root_ui;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn rules_screen(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    mut nav: MessageWriter<NavIntent>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = settings.lang;
    let ink = diagrams::Ink::of(settings.theme);
    egui::CentralPanel::default().show(&mut root_ui(ctx), |ui| {
        if crate::ui::widgets::screen_header(ui, lang, crate::i18n::id!("rules-title")) {
            nav.write(NavIntent::Go(Screen::Title));
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
            diagrams::sandwich(ui, lang, &ink);
            para(ui, lang.t("rules-latrunculi-king"));
            diagrams::immobilised_king(ui, lang, &ink);
            para(ui, lang.t("rules-latrunculi-end"));
            tips(
                ui,
                lang,
                [
                    lang.t("rules-latrunculi-tip-king"),
                    lang.t("rules-latrunculi-tip-pairs"),
                    lang.t("rules-latrunculi-tip-between"),
                ],
            );
            ui.separator();
            ui.heading(egui::RichText::new(lang.t("rules-alquerque-title")).size(24.0));
            for text in [
                lang.t("rules-alquerque-history"),
                lang.t("rules-alquerque-solved"),
                lang.t("rules-alquerque-setup"),
                lang.t("rules-alquerque-move"),
                lang.t("rules-alquerque-capture"),
            ] {
                para(ui, text);
            }
            diagrams::chain(ui, lang, &ink);
            para(ui, lang.t("rules-alquerque-chain"));
            para(ui, lang.t("rules-alquerque-end"));
            tips(
                ui,
                lang,
                [
                    lang.t("rules-alquerque-tip-ahead"),
                    lang.t("rules-alquerque-tip-together"),
                    lang.t("rules-alquerque-tip-diagonals"),
                    lang.t("rules-alquerque-tip-no-rush"),
                    lang.t("rules-alquerque-tip-trade"),
                ],
            );
            ui.separator();
            ui.heading(egui::RichText::new(lang.t("rules-faq-title")).size(24.0));
            for text in [
                lang.t("rules-faq-forced"),
                lang.t("rules-faq-backward"),
                lang.t("rules-faq-draw"),
                lang.t("rules-faq-online"),
            ] {
                para(ui, text);
            }
            ui.separator();
            para(ui, lang.t("rules-notation"));
        });
    });
    Ok(())
}

/// A game's tips: a heading, then one bullet a tip (its first sentence, the tip's name, in bold).
fn tips<const N: usize>(ui: &mut egui::Ui, lang: crate::i18n::Lang, tips: [&str; N]) {
    ui.label(egui::RichText::new(lang.t("rules-tips-title")).size(19.0).strong());
    for tip in tips {
        let (name, why) = tip.split_once(". ").unwrap_or((tip, ""));
        ui.horizontal_wrapped(|ui| {
            ui.spacing_mut().item_spacing.x = 0.0;
            ui.label(egui::RichText::new(format!("•  {name}. ")).size(17.0).strong());
            ui.label(egui::RichText::new(why).size(17.0));
        });
        ui.add_space(4.0);
    }
    ui.add_space(4.0);
}

/// The rules page.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        rules_screen.run_if(in_state(Screen::Rules)).in_set(crate::ui::UiSet::Screens),
    );
}

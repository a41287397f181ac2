//! The rules, tips and history of both games, with small diagrams, and a few questions
//! answered: one page a game (the game last played first), the rules before the history; on a
//! wide window the rules in one column, the tips and the history in another.

use crate::app::Screen;
use crate::app::navigation::NavIntent;
use crate::game::settings::Settings;
use crate::i18n::Lang;
use crate::screens::diagrams;
use crate::ui::root_ui;
use crate::ui::widgets::choice;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use ludus_rules::Variant;

/// The rules page's parts: a game's page, or the questions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    Latrunculi,
    Alquerque,
    Questions,
}

/// From this width (logical pixels) the rules and the tips stand side by side.
const TWO_COLUMNS_FROM: f32 = 900.0;
/// The widest the page grows.
const WIDEST: f32 = 1180.0;

pub(super) fn rules_screen(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    mut nav: MessageWriter<NavIntent>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = settings.lang;
    let ink = diagrams::Ink::of(settings.theme);
    let first = if settings.variant == Variant::Alquerque { Part::Alquerque } else { Part::Latrunculi };
    egui::CentralPanel::default().show(&mut root_ui(ctx), |ui| {
        if crate::ui::widgets::screen_header(ui, lang, crate::i18n::id!("rules-title")) {
            nav.write(NavIntent::Go(Screen::Title));
        }
        // The part shown lives in egui's memory for the time the game runs.
        let key = egui::Id::new("rules-part");
        let mut part = ui.data(|d| d.get_temp::<Part>(key)).unwrap_or(first);
        crate::ui::widgets::button_row(ui, |ui| {
            for (p, text) in [
                (Part::Latrunculi, lang.t("rules-latrunculi-title")),
                (Part::Alquerque, lang.t("rules-alquerque-title")),
                (Part::Questions, lang.t("rules-faq-title")),
            ] {
                let button = ui.add(
                    choice(part == p, egui::RichText::new(text).size(18.0)).min_size(egui::vec2(0.0, 44.0)),
                );
                if button.clicked() {
                    part = p;
                }
            }
        });
        ui.data_mut(|d| d.insert_temp(key, part));
        ui.add_space(6.0);
        egui::ScrollArea::vertical().id_salt(("rules", part as u8)).show(ui, |ui| {
            ui.set_max_width(ui.available_width().min(WIDEST));
            match part {
                Part::Latrunculi => game_page(ui, lang, Variant::Latrunculi, &ink),
                Part::Alquerque => game_page(ui, lang, Variant::Alquerque, &ink),
                Part::Questions => questions(ui, lang),
            }
        });
    });
    Ok(())
}

/// A paragraph of the page.
fn para(ui: &mut egui::Ui, text: &str) {
    ui.add(egui::Label::new(egui::RichText::new(text).size(17.0)).wrap());
    ui.add_space(6.0);
}

fn section(ui: &mut egui::Ui, text: &str) {
    ui.add_space(4.0);
    ui.label(egui::RichText::new(text).size(21.0).strong());
    ui.add_space(2.0);
}

/// A game's page: how to play (with the diagrams), then the tips and the history, beside the
/// rules when the window is wide enough, under them otherwise.
fn game_page(ui: &mut egui::Ui, lang: Lang, variant: Variant, ink: &diagrams::Ink) {
    let rules = |ui: &mut egui::Ui| {
        section(ui, lang.t("rules-section-play"));
        if variant == Variant::Alquerque {
            for text in [
                lang.t("rules-alquerque-setup"),
                lang.t("rules-alquerque-move"),
                lang.t("rules-alquerque-capture"),
            ] {
                para(ui, text);
            }
            diagrams::chain(ui, lang, ink);
            para(ui, lang.t("rules-alquerque-chain"));
            para(ui, lang.t("rules-alquerque-end"));
        } else {
            for text in [
                lang.t("rules-latrunculi-setup"),
                lang.t("rules-latrunculi-move"),
                lang.t("rules-latrunculi-capture"),
            ] {
                para(ui, text);
            }
            diagrams::sandwich(ui, lang, ink);
            para(ui, lang.t("rules-latrunculi-king"));
            diagrams::immobilised_king(ui, lang, ink);
            para(ui, lang.t("rules-latrunculi-end"));
        }
    };
    let more = |ui: &mut egui::Ui| {
        if variant == Variant::Alquerque {
            tips(
                ui,
                lang,
                &[
                    lang.t("rules-alquerque-tip-ahead"),
                    lang.t("rules-alquerque-tip-together"),
                    lang.t("rules-alquerque-tip-diagonals"),
                    lang.t("rules-alquerque-tip-no-rush"),
                    lang.t("rules-alquerque-tip-trade"),
                ],
            );
            section(ui, lang.t("rules-section-history"));
            para(ui, lang.t("rules-alquerque-history"));
            para(ui, lang.t("rules-alquerque-solved"));
        } else {
            tips(
                ui,
                lang,
                &[
                    lang.t("rules-latrunculi-tip-king"),
                    lang.t("rules-latrunculi-tip-pairs"),
                    lang.t("rules-latrunculi-tip-between"),
                ],
            );
            section(ui, lang.t("rules-section-history"));
            para(ui, lang.t("rules-latrunculi-history"));
        }
        ui.separator();
        para(ui, lang.t("rules-notation"));
    };
    if ui.available_width() >= TWO_COLUMNS_FROM {
        ui.columns(2, |columns| {
            rules(&mut columns[0]);
            more(&mut columns[1]);
        });
    } else {
        rules(ui);
        ui.separator();
        more(ui);
    }
}

/// The questions players ask.
fn questions(ui: &mut egui::Ui, lang: Lang) {
    ui.set_max_width(ui.available_width().min(820.0));
    for text in [
        lang.t("rules-faq-forced"),
        lang.t("rules-faq-backward"),
        lang.t("rules-faq-draw"),
        lang.t("rules-faq-online"),
        lang.t("rules-faq-keys"),
    ] {
        para(ui, text);
    }
}

/// A game's tips: a heading, then one bullet a tip (its first sentence, the tip's name, in bold).
fn tips(ui: &mut egui::Ui, lang: Lang, tips: &[&str]) {
    section(ui, lang.t("rules-tips-title"));
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

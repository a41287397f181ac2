//! The title screen fits the window without scrolling at the four sizes of issue 19, in both
//! languages, with and without the things that come and go (an unfinished game, the lessons
//! offered to a new player, the computer's options).

use bevy_egui::egui;
use ludus::game::settings::Settings;
use ludus::i18n::Lang;
use ludus::screens::title::{TitlePanel, TitleView, title_panel};
use ludus_rules::Variant;

/// Lays the title screen out in a `width` x `height` window at 100 % text size.
fn lay_out(width: f32, height: f32, settings: &Settings, view: &TitleView) -> TitlePanel {
    let ctx = egui::Context::default();
    let input = || egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(width, height))),
        ..Default::default()
    };
    // The typeface and sizes apply from the next frame on; text and panels settle in two.
    ctx.run_ui(input(), |ui| ludus::ui::style_context(ui.ctx())).drop_without_applying_deltas();
    let mut panel = None;
    for _ in 0..3 {
        let mut settings = settings.clone();
        ctx.run_ui(input(), |ui| {
            let mut root = ludus::ui::root_ui(ui.ctx());
            panel = Some(title_panel(&mut root, &mut settings, view));
        })
        .drop_without_applying_deltas();
    }
    panel.expect("a frame")
}

const SIZES: [(f32, f32); 4] = [(1280.0, 800.0), (1024.0, 768.0), (768.0, 1024.0), (390.0, 844.0)];

#[test]
fn the_title_screen_fits_without_scrolling() {
    let mut failures = Vec::new();
    for lang in [Lang::En, Lang::Vi] {
        for (new_player, resume) in [(true, false), (false, true), (false, false), (true, true)] {
            for variant in Variant::ALL {
                for vs_computer in [true, false] {
                    let settings = Settings { lang, variant, vs_computer, ..Settings::default() };
                    let view = TitleView {
                        lang,
                        notice: None,
                        resume: resume.then(|| {
                            format!("{} — {} (24)", lang.t("menu.resume"), lang.t("game.latrunculi-quick"))
                        }),
                        new_player,
                        can_quit: true,
                    };
                    for (w, h) in SIZES {
                        let panel = lay_out(w, h, &settings, &view);
                        if !panel.fits() {
                            failures.push(format!(
                                "{w}x{h} {lang:?} {variant:?} new player {new_player} resume {resume} \
                                 computer {vs_computer}: {:?} in {:?}",
                                panel.content, panel.viewport
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "the title screen needs scrolling:\n{}", failures.join("\n"));
}

#[test]
fn a_window_too_small_is_measured_as_such() {
    // The measure is real: a window far too short for the menu is reported as needing scrolling.
    let settings = Settings::default();
    let view = TitleView { lang: Lang::En, notice: None, resume: None, new_player: true, can_quit: true };
    let small = lay_out(390.0, 400.0, &settings, &view);
    assert!(!small.fits(), "{:?} in {:?}", small.content, small.viewport);
    let phone = lay_out(390.0, 844.0, &settings, &view);
    assert!(phone.fits(), "{:?} in {:?}", phone.content, phone.viewport);
    assert!(phone.content.y > 400.0, "{:?}", phone.content);
}

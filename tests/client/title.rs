//! The title screen fits the window without scrolling at the four sizes it must fit, in both
//! languages, with and without the things that come and go (an unfinished game, the lessons
//! offered to a new player, the computer's options).

use bevy_egui::egui;
use ludus::game::settings::Settings;
use ludus::i18n::Lang;
use ludus::screens::title::{LiveBoard, TitlePanel, TitleView, title_panel};
use ludus_rules::{AnyGame, Variant};

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
                let live = variant.start();
                for vs_computer in [true, false] {
                    let settings = Settings { lang, variant, vs_computer, ..Settings::default() };
                    let view = TitleView {
                        lang,
                        notice: None,
                        resume: resume.then(|| {
                            format!("{} — {} (24)", lang.t("menu-resume"), lang.t("game-latrunculi-quick"))
                        }),
                        new_player,
                        can_quit: true,
                        // The live board is painted behind the menu and takes no room.
                        live: Some(&live),
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
    let view = TitleView {
        lang: Lang::En,
        notice: None,
        resume: None,
        new_player: true,
        can_quit: true,
        live: None,
    };
    let small = lay_out(390.0, 400.0, &settings, &view);
    assert!(!small.fits(), "{:?} in {:?}", small.content, small.viewport);
    let phone = lay_out(390.0, 844.0, &settings, &view);
    assert!(phone.fits(), "{:?} in {:?}", phone.content, phone.viewport);
    assert!(phone.content.y > 400.0, "{:?}", phone.content);
}

/// The live board behind the menu plays a move every 1.6 s in the chosen game, captures first,
/// stands still when animations are off, and starts again for another game or after its end.
#[test]
fn the_live_board_plays_slowly_in_the_chosen_game() {
    let mut live = LiveBoard::default();
    let start = live.advance(Variant::Alquerque, 0.0, true);
    assert_eq!(start, Variant::Alquerque.start());
    assert_eq!(live.advance(Variant::Alquerque, 1.5, true), start, "no move before 1.6 s");
    assert_eq!(live.advance(Variant::Alquerque, 10.0, false), start, "still when animations are off");
    let one = live.advance(Variant::Alquerque, 10.0, true);
    let mut game = AnyGame::new(Variant::Alquerque);
    let played = game.legal_moves().into_iter().find(|mv| {
        let mut g = game.clone();
        g.play(mv).is_ok() && g.position() == one
    });
    assert!(played.is_some(), "one legal move was played");
    game.play(&played.unwrap()).unwrap();
    // Alquerque's first capture comes soon: whenever one is possible, the board takes it.
    let mut now = 10.0;
    for _ in 0..40 {
        now += 1.6;
        let before = live.advance(Variant::Alquerque, now - 0.1, true);
        let g = AnyGame::from_position(before);
        let must = g.legal_moves().iter().any(|m| m.is_capture());
        let after = live.advance(Variant::Alquerque, now, true);
        if must && after != before {
            let took = g.legal_moves().into_iter().any(|m| {
                let mut h = g.clone();
                m.is_capture() && h.play(&m).is_ok() && h.position() == after
            });
            assert!(took, "a capture was possible and not taken");
        }
    }
    // Another game chosen: its start at once.
    assert_eq!(live.advance(Variant::LatrunculiQuick, now, true), Variant::LatrunculiQuick.start());
}

//! The language from the system, and the first start's choice.

use crate::{data_dir_lock, fresh_data_dir};
use ludus::game::settings::{FirstStart, Settings, TextSize};
use ludus::i18n::Lang;

#[test]
fn the_system_locale_chooses_the_language() {
    for (locales, lang) in [
        (&["vi"][..], Lang::Vi),
        (&["vi-VN"], Lang::Vi),
        (&["vi_VN.UTF-8"], Lang::Vi),
        (&["VI_vn"], Lang::Vi),
        (&["vi@latin"], Lang::Vi),
        (&["vi-VN", "en-US"], Lang::Vi),
        (&["", "vi"], Lang::Vi),
        (&["en-US"], Lang::En),
        (&["en-US", "vi-VN"], Lang::En),
        (&["fr"], Lang::En),
        (&["fr-FR", "vi"], Lang::En),
        (&["vie"], Lang::En),
        (&["C"], Lang::En),
        (&["POSIX"], Lang::En),
        (&[""], Lang::En),
        (&[], Lang::En),
    ] {
        assert_eq!(Lang::from_locales(locales), lang, "{locales:?}");
    }
}

#[test]
fn the_first_start_asks_only_without_saved_settings() {
    let _guard = data_dir_lock();
    let dir = fresh_data_dir("first-start");
    // Nothing saved: the system's language, and the choice.
    let (settings, first, notice) = Settings::start(None, Lang::Vi);
    assert_eq!((settings.lang, first, notice), (Lang::Vi, FirstStart(true), None));
    // `--lang` wins, and answers the question for this run.
    let (settings, first, _) = Settings::start(Some(Lang::En), Lang::Vi);
    assert_eq!((settings.lang, first), (Lang::En, FirstStart(false)));
    // Once saved, never asked again, whatever the system says.
    Settings { lang: Lang::En, ..Settings::default() }.save();
    let (settings, first, _) = Settings::start(None, Lang::Vi);
    assert_eq!((settings.lang, first), (Lang::En, FirstStart(false)));
    let (settings, _, _) = Settings::start(Some(Lang::Vi), Lang::En);
    assert_eq!(settings.lang, Lang::Vi);
    // Unreadable settings were saved once: no question, a message in the system's language.
    std::fs::write(dir.join("settings.json"), "{ broken").expect("write");
    let (settings, first, notice) = Settings::start(None, Lang::Vi);
    assert_eq!((settings.lang, first), (Lang::Vi, FirstStart(false)));
    assert!(notice.is_some());
}

#[test]
fn the_text_size_is_saved() {
    let _guard = data_dir_lock();
    fresh_data_dir("text-size");
    for size in TextSize::ALL {
        Settings { text_size: size, ..Settings::default() }.save();
        assert_eq!(Settings::load(Lang::En).0.text_size, size);
    }
    let factors: Vec<f32> = TextSize::ALL.iter().map(|s| s.factor()).collect();
    assert!(factors.windows(2).all(|w| w[0] < w[1]), "{factors:?}");
    assert_eq!((factors[0], factors[factors.len() - 1]), (1.0, 2.0));
}

/// Lays out a line of text in a context zoomed to `size`: its height in pixels.
fn rendered_height(size: TextSize) -> f32 {
    use bevy_egui::egui;
    let ctx = egui::Context::default();
    let input = || egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(800.0, 600.0))),
        ..Default::default()
    };
    // The game's typeface and the zoom apply from the next frame on.
    ctx.run_ui(input(), |ui| {
        ui.ctx().set_fonts(ludus::ui::font_definitions());
        ludus::ui::set_text_size(ui.ctx(), size);
    })
    .drop_without_applying_deltas();
    let mut height = 0.0;
    ctx.run_ui(input(), |ui| {
        height = ui.label("Tiếng Việt").rect.height() * ui.ctx().pixels_per_point();
    })
    .drop_without_applying_deltas();
    height
}

#[test]
fn the_text_size_scales_the_text() {
    let normal = rendered_height(TextSize::Normal);
    assert!(normal > 5.0, "{normal}");
    for size in TextSize::ALL {
        let h = rendered_height(size);
        let ratio = h / normal;
        assert!((ratio - size.factor()).abs() < 0.1, "{size:?}: {h} px against {normal} px ({ratio})");
    }
}

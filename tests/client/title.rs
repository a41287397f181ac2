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

/// The texts drawn in the last of three frames of the title screen: each galley's text and its
/// number of lines.
fn texts_drawn(width: f32, height: f32, settings: &Settings, view: &TitleView) -> Vec<(String, usize)> {
    let ctx = egui::Context::default();
    let input = || egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(width, height))),
        ..Default::default()
    };
    ctx.run_ui(input(), |ui| ludus::ui::style_context(ui.ctx())).drop_without_applying_deltas();
    let mut shapes = Vec::new();
    for _ in 0..3 {
        let mut settings = settings.clone();
        let mut out = ctx.run_ui(input(), |ui| {
            let mut root = ludus::ui::root_ui(ui.ctx());
            title_panel(&mut root, &mut settings, view);
        });
        out.textures_delta.clear();
        shapes = out.shapes.into_iter().map(|c| c.shape).collect::<Vec<_>>();
    }
    fn walk(shape: &egui::Shape, out: &mut Vec<(String, usize)>) {
        match shape {
            egui::Shape::Text(text) => out.push((text.galley.text().to_string(), text.galley.rows.len())),
            egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| walk(s, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    shapes.iter().for_each(|s| walk(s, &mut out));
    out
}

/// At the desktop sizes no button's label wraps: the level row ("Trung bình"), the opponents,
/// the sides, "Play", "resume" beside the lessons, and the menu.
#[test]
fn no_button_label_wraps_at_desktop_sizes() {
    use ludus::ui::widgets::side_name;
    let mut failures = Vec::new();
    let mut seen = 0;
    for lang in [Lang::En, Lang::Vi] {
        for variant in Variant::ALL {
            let settings = Settings { lang, variant, vs_computer: true, ..Settings::default() };
            let resume = format!("{} — {}", lang.t("menu-resume"), lang.t("title-card-latrunculi"));
            let view = TitleView {
                lang,
                notice: None,
                resume: Some(resume.clone()),
                new_player: true,
                can_quit: true,
                confirm_play: false,
                live: None,
                your_turn: 0,
            };
            let mut labels: Vec<String> = [
                "menu-play",
                "menu-vs-computer",
                "menu-two-players",
                "level-easy",
                "level-medium",
                "level-hard",
                "menu-lessons",
                "menu-rules",
                "menu-settings",
                "title-online",
                "menu-analyse",
                "menu-quit",
            ]
            .into_iter()
            .map(|k| lang.t(k).to_string())
            .collect();
            labels.push(resume);
            for side in [ludus_rules::Side::First, ludus_rules::Side::Second] {
                labels.push(side_name(lang, variant, side).to_string());
            }
            for (w, h) in [(1280.0, 800.0), (1024.0, 768.0)] {
                for (text, lines) in texts_drawn(w, h, &settings, &view) {
                    if labels.contains(&text) {
                        seen += 1;
                        if lines != 1 {
                            failures.push(format!("{w}x{h} {lang:?} {variant:?}: {text:?} in {lines} lines"));
                        }
                    }
                }
            }
        }
    }
    assert!(seen > 100, "the labels were found ({seen})");
    assert!(failures.is_empty(), "labels wrap inside their buttons:\n{}", failures.join("\n"));
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
                            format!("{} — {}", lang.t("menu-resume"), lang.t("title-card-latrunculi-quick"))
                        }),
                        new_player,
                        can_quit: true,
                        confirm_play: false,
                        // The live board is painted behind the menu and takes no room.
                        live: Some(&live),
                        your_turn: 0,
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
        confirm_play: false,
        live: None,
        your_turn: 0,
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

/// What the window shows behind the texts: every shape but the letters, drawn into pixels.
/// egui's own tessellator turns the frame's shapes into triangles; those of solid shapes (the
/// font texture's white point) are filled here with their colours, blended in order, and
/// clipped as egui clips them. The letters' triangles are left out: what they stand on is what
/// is measured.
struct Backdrop {
    width: usize,
    height: usize,
    pixels: Vec<[f32; 3]>,
}

impl Backdrop {
    fn paint(width: usize, height: usize, primitives: &[egui::ClippedPrimitive]) -> Backdrop {
        let mut pixels = vec![[0.0f32; 3]; width * height];
        for clipped in primitives {
            let egui::epaint::Primitive::Mesh(mesh) = &clipped.primitive else { continue };
            let clip = clipped.clip_rect;
            for tri in mesh.indices.chunks_exact(3) {
                let v = [0, 1, 2].map(|i| mesh.vertices[tri[i] as usize]);
                if v.iter().any(|v| v.uv != egui::epaint::WHITE_UV) {
                    continue; // a letter
                }
                let (min, max) = (
                    v.iter().fold(egui::pos2(f32::MAX, f32::MAX), |m, v| m.min(v.pos)),
                    v.iter().fold(egui::pos2(f32::MIN, f32::MIN), |m, v| m.max(v.pos)),
                );
                let x0 = min.x.max(clip.min.x).max(0.0).floor() as usize;
                let y0 = min.y.max(clip.min.y).max(0.0).floor() as usize;
                let x1 = (max.x.min(clip.max.x).ceil() as usize).min(width);
                let y1 = (max.y.min(clip.max.y).ceil() as usize).min(height);
                let (a, b, c) = (v[0].pos, v[1].pos, v[2].pos);
                let area = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y);
                if area.abs() < 1e-6 {
                    continue;
                }
                for y in y0..y1 {
                    for x in x0..x1 {
                        let p = egui::pos2(x as f32 + 0.5, y as f32 + 0.5);
                        let w0 = ((b.x - p.x) * (c.y - p.y) - (c.x - p.x) * (b.y - p.y)) / area;
                        let w1 = ((c.x - p.x) * (a.y - p.y) - (a.x - p.x) * (c.y - p.y)) / area;
                        let w2 = 1.0 - w0 - w1;
                        if w0 < 0.0 || w1 < 0.0 || w2 < 0.0 {
                            continue;
                        }
                        // Premultiplied colours, blended "over" as the GPU does.
                        let mut src = [0.0f32; 4];
                        for (w, vert) in [(w0, v[0]), (w1, v[1]), (w2, v[2])] {
                            let c = vert.color.to_array();
                            for k in 0..4 {
                                src[k] += w * f32::from(c[k]) / 255.0;
                            }
                        }
                        let dst = &mut pixels[y * width + x];
                        for k in 0..3 {
                            dst[k] = src[k] + dst[k] * (1.0 - src[3]);
                        }
                    }
                }
            }
        }
        Backdrop { width, height, pixels }
    }

    /// The lowest contrast of `text` against the pixels of `rect` (the lowest but one in fifty,
    /// so that a lone anti-aliased pixel at a rim does not decide).
    fn contrast_in(&self, rect: egui::Rect, text: egui::Color32) -> Option<f32> {
        let mut ratios = Vec::new();
        let (x0, y0) = (rect.min.x.max(0.0) as usize, rect.min.y.max(0.0) as usize);
        let (x1, y1) = ((rect.max.x as usize).min(self.width), (rect.max.y as usize).min(self.height));
        for y in y0..y1 {
            for x in x0..x1 {
                let [r, g, b] =
                    self.pixels[y * self.width + x].map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8);
                ratios.push(ludus::ui::theme::contrast(text, egui::Color32::from_rgb(r, g, b)));
            }
        }
        ratios.sort_by(f32::total_cmp);
        ratios.get(ratios.len() / 50).copied()
    }
}

/// Every text of the title screen reads against whatever is behind it, with a contrast ratio of
/// at least 4.5:1, after the live board behind the menu has played for a while: at the four
/// sizes, in both languages and the three themes.
#[test]
fn every_title_text_reads_over_the_live_board() {
    use ludus::game::settings::Theme;
    let mut failures = Vec::new();
    let mut measured = 0;
    for variant in [Variant::Latrunculi, Variant::Alquerque] {
        // The live board some moves on: pieces spread over the middle of the window.
        let mut live = LiveBoard::default();
        let mut position = live.advance(variant, 0.0, true);
        for i in 1..=14 {
            position = live.advance(variant, 1.7 * f64::from(i), true);
        }
        assert_ne!(position, variant.start(), "the live board has moved");
        for theme in [Theme::Wood, Theme::Stone, Theme::Contrast] {
            for lang in [Lang::En, Lang::Vi] {
                let settings = Settings { lang, variant, theme, vs_computer: true, ..Settings::default() };
                let view = TitleView {
                    lang,
                    notice: None,
                    resume: Some(format!("{} — {}", lang.t("menu-resume"), lang.t("title-card-alquerque"))),
                    new_player: true,
                    can_quit: true,
                    confirm_play: false,
                    live: Some(&position),
                    your_turn: 0,
                };
                for (w, h) in SIZES {
                    let ctx = egui::Context::default();
                    let input = || egui::RawInput {
                        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(w, h))),
                        ..Default::default()
                    };
                    ctx.run_ui(input(), |ui| {
                        ludus::ui::style_context(ui.ctx());
                        ludus::ui::theme::apply(ui.ctx(), theme);
                    })
                    .drop_without_applying_deltas();
                    let mut shapes = Vec::new();
                    for _ in 0..3 {
                        let mut settings = settings.clone();
                        let mut out = ctx.run_ui(input(), |ui| {
                            title_panel(&mut ludus::ui::root_ui(ui.ctx()), &mut settings, &view);
                        });
                        out.textures_delta.clear();
                        shapes = out.shapes;
                    }
                    let texts: Vec<(egui::Rect, egui::Color32, String)> = shapes
                        .iter()
                        .flat_map(|c| {
                            let mut found = Vec::new();
                            text_shapes(&c.shape, c.clip_rect, &mut found);
                            found
                        })
                        .collect();
                    let backdrop = Backdrop::paint(w as usize, h as usize, &ctx.tessellate(shapes, 1.0));
                    for (rect, color, text) in texts {
                        let Some(ratio) = backdrop.contrast_in(rect, color) else { continue };
                        measured += 1;
                        if ratio < 4.5 {
                            failures.push(format!(
                                "{w}x{h} {lang:?} {theme:?} {variant:?}: {text:?} at {ratio:.2}:1"
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(measured > 500, "texts measured: {measured}");
    assert!(failures.is_empty(), "texts below 4.5:1 over what is behind them:\n{}", failures.join("\n"));
}

/// The texts among `shape`: their boxes (inside `clip`), colours and words.
fn text_shapes(shape: &egui::Shape, clip: egui::Rect, out: &mut Vec<(egui::Rect, egui::Color32, String)>) {
    match shape {
        egui::Shape::Text(t) => {
            let rect = t.galley.rect.translate(t.pos.to_vec2()).intersect(clip);
            if rect.width() < 1.0 || rect.height() < 1.0 || t.galley.text().trim().is_empty() {
                return;
            }
            let mut colors: Vec<egui::Color32> = t
                .galley
                .job
                .sections
                .iter()
                .map(|s| {
                    if s.format.color == egui::Color32::PLACEHOLDER {
                        t.fallback_color
                    } else {
                        s.format.color
                    }
                })
                .collect();
            if let Some(c) = t.override_text_color {
                colors = vec![c];
            }
            for color in colors {
                out.push((rect, color, t.galley.text().to_string()));
            }
        }
        egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| text_shapes(s, clip, out)),
        _ => {}
    }
}

//! The analysis screen: the evaluation graph, the moves with their marks, any position with the
//! engine's move and the move played; Left/Right step, Home/End jump.

use crate::app::Screen;
use crate::board::palette::Colors;
use crate::board::view::{BoardArea, BoardLayout, BoardView};
use crate::game::session::Session;
use crate::game::settings::{Settings, Theme};
use crate::i18n::Lang;
use crate::players::analysis::{self, Analysis};
use crate::ui::root_ui;
use crate::ui::widgets::{eval_text, players_line, reason_text, result_text, side_name, variant_key};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use ludus_ai::review::{Mark, prefix};
use ludus_rules::Side;

/// Keeps the board on the selected position, the engine's move and the move played drawn.
pub(super) fn show_selected(
    analysis: Option<Res<Analysis>>,
    session: Option<ResMut<Session>>,
    mut view: ResMut<BoardView>,
) {
    // The board asks for frames until it is settled (`board::view`).
    let (Some(analysis), Some(mut session)) = (analysis, session) else { return };
    let s = analysis.selected.min(analysis.moves().len());
    if session.game.ply() != s || !session.is_review() {
        session.review_position(prefix(&analysis.game, s));
    }
    let hint = analysis.evals[s].and_then(|e| e.best);
    let played = analysis.moves().get(s).copied();
    if view.hint != hint {
        view.hint = hint;
    }
    if view.played != played {
        view.played = played;
    }
}

/// Left and Right step through the game, Home and End jump to its ends.
pub(super) fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    analysis: Option<ResMut<Analysis>>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
) {
    let Some(mut a) = analysis else { return };
    if egui.as_ref().is_some_and(|e| e.wants_keyboard_input()) {
        return;
    }
    let n = a.moves().len();
    let s = a.selected;
    let to = if keys.just_pressed(KeyCode::ArrowLeft) {
        s.saturating_sub(1)
    } else if keys.just_pressed(KeyCode::ArrowRight) {
        (s + 1).min(n)
    } else if keys.just_pressed(KeyCode::Home) {
        0
    } else if keys.just_pressed(KeyCode::End) {
        n
    } else {
        s
    };
    if to != s {
        a.selected = to;
    }
}

fn color(c: Color) -> egui::Color32 {
    let c = c.to_srgba();
    egui::Color32::from_rgba_unmultiplied(
        (c.red * 255.0) as u8,
        (c.green * 255.0) as u8,
        (c.blue * 255.0) as u8,
        (c.alpha * 255.0) as u8,
    )
}

const BLUNDER_COLOR: egui::Color32 = egui::Color32::from_rgb(230, 60, 50);
const MISTAKE_COLOR: egui::Color32 = egui::Color32::from_rgb(240, 160, 40);

/// The evaluation graph: x the ply, y the evaluation (soft clamp), each side's area in its
/// colour, blunders and mistakes marked, the position shown highlighted; a click or a drag
/// picks a position. Returns the position picked.
fn graph(ui: &mut egui::Ui, analysis: &Analysis, height: f32) -> Option<usize> {
    let width = ui.available_width();
    let (rect, response) = ui.allocate_exact_size(egui::vec2(width, height), egui::Sense::click_and_drag());
    let painter = ui.painter_at(rect);
    let variant = analysis.game.variant();
    let colors = Colors::of(Theme::Wood);
    let side_color = |side: Side| color(colors.piece(!variant.is_latrunculi(), side, false)[1]);
    painter.rect_filled(rect, 4.0, egui::Color32::from_gray(96));
    let n = analysis.moves().len().max(1) as f32;
    let inner = rect.shrink2(egui::vec2(6.0, 6.0));
    let x = |ply: usize| inner.left() + inner.width() * ply as f32 / n;
    let mid = inner.center().y;
    let y = |v: f32| mid - v * inner.height() / 2.0;
    // The first side's colour above the line, black below, on a grey between them.
    let (first, second) = (side_color(Side::First), egui::Color32::from_gray(24));
    // Each side's area, segment by segment (split where the curve crosses zero).
    let points: Vec<Option<egui::Pos2>> = analysis
        .evals
        .iter()
        .enumerate()
        .map(|(i, e)| e.map(|e| egui::pos2(x(i), y(e.eval.graph()))))
        .collect();
    // One mesh without anti-aliasing, so that neighbouring pieces leave no seams.
    let mut mesh = egui::Mesh::default();
    let mut tri = |pts: [egui::Pos2; 3], c: egui::Color32| {
        let i = mesh.vertices.len() as u32;
        for p in pts {
            mesh.colored_vertex(p, c);
        }
        mesh.add_triangle(i, i + 1, i + 2);
    };
    for w in points.windows(2) {
        let (Some(a), Some(b)) = (w[0], w[1]) else { continue };
        let (a0, b0) = (egui::pos2(a.x, mid), egui::pos2(b.x, mid));
        let above = |p: egui::Pos2| p.y <= mid;
        if above(a) == above(b) {
            let c = if above(a) { first } else { second };
            tri([a0, a, b], c);
            tri([a0, b, b0], c);
        } else {
            let t = (a.y - mid) / (a.y - b.y);
            let cross = egui::pos2(a.x + t * (b.x - a.x), mid);
            let (ca, cb) = if above(a) { (first, second) } else { (second, first) };
            tri([a0, a, cross], ca);
            tri([cross, b, b0], cb);
        }
    }
    painter.add(egui::Shape::mesh(mesh));
    painter.line_segment(
        [egui::pos2(inner.left(), mid), egui::pos2(inner.right(), mid)],
        egui::Stroke::new(1.0, egui::Color32::from_gray(150)),
    );
    for w in points.windows(2) {
        if let (Some(a), Some(b)) = (w[0], w[1]) {
            painter.line_segment([a, b], egui::Stroke::new(2.0, egui::Color32::from_rgb(235, 185, 60)));
        }
    }
    // Still to analyse: shaded.
    let done = analysis.analysed();
    if done < analysis.evals.len() {
        let from = x(done.saturating_sub(1)).max(inner.left());
        let shade = egui::Rect::from_min_max(egui::pos2(from, rect.top()), rect.max);
        painter.rect_filled(shade, 0.0, egui::Color32::from_black_alpha(90));
    }
    // The position shown.
    let sx = x(analysis.selected);
    painter.line_segment(
        [egui::pos2(sx, rect.top()), egui::pos2(sx, rect.bottom())],
        egui::Stroke::new(2.0, egui::Color32::from_rgb(90, 170, 255)),
    );
    // Marks where the move's damage shows: at the position after it.
    for k in 0..analysis.moves().len() {
        let c = match analysis.mark(k) {
            Some(Mark::Blunder) => BLUNDER_COLOR,
            Some(Mark::Mistake) => MISTAKE_COLOR,
            _ => continue,
        };
        if let Some(p) = points[k + 1] {
            painter.circle(p, 5.5, c, egui::Stroke::new(1.5, egui::Color32::WHITE));
        }
    }
    if let Some(p) = points[analysis.selected] {
        painter.circle_stroke(p, 6.0, egui::Stroke::new(2.0, egui::Color32::from_rgb(90, 170, 255)));
    }
    let picked = if response.clicked() || response.dragged() {
        response.interact_pointer_pos().map(|p| {
            let t = ((p.x - inner.left()) / inner.width()).clamp(0.0, 1.0);
            ((t * n).round() as usize).min(analysis.moves().len())
        })
    } else {
        None
    };
    picked.filter(|&p| p != analysis.selected)
}

fn mark_suffix(mark: Option<Mark>) -> (&'static str, Option<egui::Color32>) {
    match mark {
        Some(Mark::Blunder) => ("??", Some(BLUNDER_COLOR)),
        Some(Mark::Mistake) => ("?", Some(MISTAKE_COLOR)),
        _ => ("", None),
    }
}

/// What the analysis's panel asks for.
#[derive(Default)]
struct Asked {
    /// A position to show.
    pick: Option<usize>,
    /// Leaving the analysis.
    leave: bool,
    /// The game's puzzles.
    puzzles: bool,
}

/// "Puzzles from this game": looking for them, their number, or that there are none.
fn game_puzzles_button(ui: &mut egui::Ui, lang: Lang, a: &Analysis) -> bool {
    match a.game_puzzles() {
        None => {
            let text = lang.t("analysis-puzzles-looking");
            ui.add_enabled(false, egui::Button::new(text).min_size(egui::vec2(0.0, 44.0)));
            false
        }
        Some([]) => {
            ui.label(lang.t("analysis-puzzles-none"));
            false
        }
        Some(found) => {
            let text = lang.fmt("analysis-puzzles", [("count", found.len().into())]);
            ui.add(egui::Button::new(text).min_size(egui::vec2(0.0, 44.0))).clicked()
        }
    }
}

/// The panel's upper part: the game, the progress, the graph, the position shown and the
/// buttons.
fn info_panel(ui: &mut egui::Ui, lang: Lang, a: &Analysis, portrait: bool, view: &mut BoardView) -> Asked {
    let mut pick = None;
    let mut leave = false;
    let variant = a.game.variant();
    let n = a.moves().len();
    ui.horizontal(|ui| {
        if crate::ui::widgets::back_button(ui, lang) {
            leave = true;
        }
        ui.heading(format!("{} — {}", lang.t("analysis-title"), lang.text(variant_key(variant))));
    });
    ui.label(egui::RichText::new(players_line(lang, variant, &a.seats)).small());
    if let Some(outcome) = a.game.outcome() {
        let mover = a.moves().last().map(|_| !a.game.side_to_move());
        ui.label(format!(
            "{} · {}",
            result_text(lang, variant, &outcome),
            reason_text(lang, variant, &outcome, mover)
        ));
    }
    // Progress, then the graph.
    let done = a.analysed();
    if a.took.is_none() {
        let total = a.evals.len();
        ui.add(
            egui::ProgressBar::new(done as f32 / total.max(1) as f32)
                .text(lang.fmt("analysis-progress", [("done", done.into()), ("total", total.into())])),
        );
    }
    let graph_height = if portrait { 90.0 } else { 140.0 };
    if let Some(p) = graph(ui, a, graph_height) {
        pick = Some(p);
    }
    // The position shown.
    let s = a.selected;
    let eval = a.evals[s].map(|e| eval_text(lang, variant, e.eval));
    ui.horizontal_wrapped(|ui| {
        let at = if s == 0 {
            lang.t("analysis-start").to_string()
        } else {
            lang.fmt("analysis-position", [("moves", s.into())])
        };
        ui.label(egui::RichText::new(at).strong());
        ui.label(
            egui::RichText::new(eval.unwrap_or_else(|| lang.t("analysis-pending").to_string()))
                .size(20.0)
                .strong(),
        );
    });
    if let Some(value) = a.evals[s].and_then(|e| e.proven) {
        let text = match value.winner() {
            Some(side) => lang.fmt("analysis-proven-win", [("side", side_name(lang, variant, side).into())]),
            None => lang.t("analysis-proven-draw").to_string(),
        };
        ui.label(egui::RichText::new(text).color(egui::Color32::from_rgb(230, 200, 110)))
            .on_hover_text(lang.t("analysis-proven-rules"));
    }
    let pos = a.game.position_at(s);
    if let Some(mv) = a.moves().get(s) {
        let text = pos.move_to_string(mv).unwrap_or_default();
        let (suffix, c) = mark_suffix(a.mark(s));
        let word = match a.mark(s) {
            Some(Mark::Blunder) => format!(" — {}", lang.t("analysis-blunder")),
            Some(Mark::Mistake) => format!(" — {}", lang.t("analysis-mistake")),
            _ => String::new(),
        };
        let mut rt = egui::RichText::new(format!(
            "{} {text}{suffix}{word}",
            lang.fmt("analysis-played", [("side", side_name(lang, variant, pos.side_to_move()).into())])
        ));
        if let Some(c) = c {
            rt = rt.color(c);
        }
        ui.label(rt);
    }
    if let Some(best) = a.evals[s].and_then(|e| e.best)
        && a.moves().get(s) != Some(&best)
    {
        let text = pos.move_to_string(&best).unwrap_or_default();
        ui.label(
            egui::RichText::new(format!("{} {text}", lang.t("analysis-better")))
                .color(egui::Color32::from_rgb(90, 200, 120)),
        );
    }
    // Stepping.
    ui.horizontal(|ui| {
        for (label, to, enabled) in [
            ("|◀", 0, s > 0),
            ("◀", s.saturating_sub(1), s > 0),
            ("▶", (s + 1).min(n), s < n),
            ("▶|", n, s < n),
        ] {
            if ui.add_enabled(enabled, egui::Button::new(label).min_size(egui::vec2(52.0, 44.0))).clicked() {
                pick = Some(to);
            }
        }
        if ui.button(lang.t("hud-flip")).clicked() {
            view.turned = !view.turned;
        }
    });
    if a.took.is_some() {
        let t = a.tally();
        for side in [Side::First, Side::Second] {
            let [b, m] = t[side.index()];
            ui.label(lang.fmt(
                "analysis-tally",
                [
                    ("side", side_name(lang, variant, side).into()),
                    ("blunders", b.into()),
                    ("mistakes", m.into()),
                ],
            ));
        }
    }
    let puzzles = game_puzzles_button(ui, lang, a);
    Asked { pick, leave, puzzles }
}

/// The moves with their marks, in a scrolling grid; `scroll`: bring the selected one into view.
fn move_list(ui: &mut egui::Ui, a: &Analysis, scroll: bool) -> Option<usize> {
    let mut pick = None;
    let n = a.moves().len();
    let s = a.selected;
    let first_is_second = a.game.start().side_to_move() == Side::Second;
    let notation = a.game.move_strings();
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        egui::Grid::new("analysis-moves").num_columns(3).spacing([6.0, 2.0]).show(ui, |ui| {
            let mut k = 0;
            let mut number = 1;
            let mut cell = |ui: &mut egui::Ui, k: usize| {
                let (suffix, c) = mark_suffix(a.mark(k));
                let mut rt = egui::RichText::new(format!("{}{suffix}", notation[k])).monospace();
                if let Some(c) = c {
                    rt = rt.color(c);
                }
                let r = ui.add(egui::Button::selectable(s == k, rt).min_size(egui::vec2(96.0, 28.0)));
                if r.clicked() {
                    pick = Some(k);
                }
                if s == k && scroll {
                    r.scroll_to_me(Some(egui::Align::Center));
                }
            };
            while k < n {
                ui.label(egui::RichText::new(format!("{number:>3}.")).monospace());
                if k == 0 && first_is_second {
                    ui.label("…");
                } else {
                    cell(ui, k);
                    k += 1;
                }
                if k < n {
                    cell(ui, k);
                    k += 1;
                }
                number += 1;
                ui.end_row();
            }
        });
    });
    pick
}

pub(super) fn analysis_screen(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    analysis: Option<ResMut<Analysis>>,
    mut layout: ResMut<BoardLayout>,
    mut view: ResMut<BoardView>,
    mut area: ResMut<BoardArea>,
    mut next: ResMut<NextState<Screen>>,
    mut commands: Commands,
    mut scrolled: Local<Option<usize>>,
) -> Result {
    let Some(mut analysis) = analysis else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let lang = settings.lang;
    let viewport = ctx.viewport_rect();
    let portrait = super::portrait(viewport);
    let mut root = root_ui(ctx);
    let mut asked = Asked::default();
    let a = &*analysis;
    let scroll = *scrolled != Some(a.selected);
    *scrolled = Some(a.selected);
    let panel = |ui: &mut egui::Ui| {
        if portrait {
            // Two columns: the graph and the position on the left, the moves on the right.
            let (w, h) = (ui.available_width(), ui.available_height());
            ui.horizontal_top(|ui| {
                let top_down = egui::Layout::top_down(egui::Align::Min);
                ui.allocate_ui_with_layout(egui::vec2(w * 0.6, h), top_down, |ui| {
                    asked = info_panel(ui, lang, a, portrait, &mut view);
                });
                ui.separator();
                ui.allocate_ui_with_layout(egui::vec2(ui.available_width(), h), top_down, |ui| {
                    asked.pick = asked.pick.or(move_list(ui, a, scroll));
                });
            });
        } else {
            asked = info_panel(ui, lang, a, portrait, &mut view);
            ui.separator();
            asked.pick = asked.pick.or(move_list(ui, a, scroll));
        }
    };
    let sizes = (
        super::Share { share: 0.42, min: 260.0, max: 480.0 },
        super::Share { share: 0.32, min: 300.0, max: 440.0 },
    );
    super::panel_beside_board(
        &mut root,
        "analysis",
        sizes,
        (&mut area, &mut layout),
        settings.coordinates,
        panel,
    );
    if analysis.game_puzzles().is_none() {
        // The work runs in the background: the progress shows five times a second.
        ctx.request_repaint_after(std::time::Duration::from_millis(200));
    }
    if let Some(p) = asked.pick
        && p != analysis.selected
    {
        analysis.selected = p;
    }
    if asked.puzzles && super::puzzles::open_game_puzzles(&mut commands, &mut next, &mut analysis) {
        view.hint = None;
        view.played = None;
    } else if asked.leave {
        analysis::close(&mut commands, &mut next, &mut analysis);
    }
    Ok(())
}

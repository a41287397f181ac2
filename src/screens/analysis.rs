//! The analysis screen, a view: it reads the analysis (`players::analysis::Analysis`) and draws
//! the evaluation graph, the position shown with the move played and how it was judged (by the
//! book, the tables, the rules or the search), the moves with their marks; what the player does
//! becomes an [`AnalysisIntent`] that the analysis acts on. Left/Right step, Home/End jump.
//!
//! The panel sits beside the board in a wide window and under it in a tall one; every text
//! wraps, the step buttons wrap onto a second row if need be, and the moves scroll, so that it
//! fits from a phone to a desktop at every text size ([`analysis_panel`], measured by
//! `tests/client/analysis.rs`).

use crate::board::palette::Colors;
use crate::board::view::{BoardArea, BoardLayout, BoardView};
use crate::game::session::Session;
use crate::game::settings::{Settings, Theme};
use crate::i18n::{Lang, id};
use crate::players::analysis::{Analysis, AnalysisIntent};
use crate::ui::root_ui;
use crate::ui::theme::{MARKS, egui_color};
use crate::ui::widgets::{eval_text, players_line, reason_text, result_text, side_name, variant_key};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use ludus_ai::review::{Judgement, Mark, Source, prefix};
use ludus_ai::solve::Value;
use ludus_protocol::values::{PositionValueView, ValueWord};
use ludus_rules::{Side, Variant};

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
    analysis: Option<Res<Analysis>>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut intents: MessageWriter<AnalysisIntent>,
) {
    let Some(a) = analysis else { return };
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
        intents.write(AnalysisIntent::Show(to));
    }
}

/// The evaluation graph: x the ply, y the evaluation (soft clamp), each side's area in its
/// colour, blunders and mistakes marked, the position shown highlighted; a click or a drag
/// picks a position. Returns the position picked.
fn graph(ui: &mut egui::Ui, analysis: &Analysis, height: f32) -> Option<usize> {
    let width = ui.available_width();
    let (rect, response) = ui.allocate_exact_size(egui::vec2(width, height), egui::Sense::click_and_drag());
    let painter = ui.painter_at(rect);
    let variant = analysis.game.variant();
    let colors = Colors::of(Theme::Wood);
    let side_color = |side: Side| egui_color(colors.piece(!variant.is_latrunculi(), side, false)[1]);
    painter.rect_filled(rect, 4.0, MARKS.graph_well);
    let n = analysis.moves().len().max(1) as f32;
    let inner = rect.shrink2(egui::vec2(6.0, 6.0));
    let x = |ply: usize| inner.left() + inner.width() * ply as f32 / n;
    let mid = inner.center().y;
    let y = |v: f32| mid - v * inner.height() / 2.0;
    // The first side's colour above the line, black below, on a grey between them.
    let (first, second) = (side_color(Side::First), MARKS.graph_second);
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
        egui::Stroke::new(1.0, MARKS.graph_axis),
    );
    for w in points.windows(2) {
        if let (Some(a), Some(b)) = (w[0], w[1]) {
            painter.line_segment([a, b], egui::Stroke::new(2.0, MARKS.graph_curve));
        }
    }
    // Still to analyse: shaded.
    let done = analysis.analysed();
    if done < analysis.evals.len() {
        let from = x(done.saturating_sub(1)).max(inner.left());
        let shade = egui::Rect::from_min_max(egui::pos2(from, rect.top()), rect.max);
        painter.rect_filled(shade, 0.0, MARKS.graph_pending);
    }
    // The position shown.
    let sx = x(analysis.selected);
    painter.line_segment(
        [egui::pos2(sx, rect.top()), egui::pos2(sx, rect.bottom())],
        egui::Stroke::new(2.0, MARKS.graph_cursor),
    );
    // Marks where the move's damage shows: at the position after it.
    for k in 0..analysis.moves().len() {
        let c = match analysis.mark(k) {
            Some(Mark::Blunder) => MARKS.blunder,
            Some(Mark::Mistake) => MARKS.mistake,
            _ => continue,
        };
        if let Some(p) = points[k + 1] {
            painter.circle(p, 5.5, c, egui::Stroke::new(1.5, MARKS.reason));
        }
    }
    if let Some(p) = points[analysis.selected] {
        painter.circle_stroke(p, 6.0, egui::Stroke::new(2.0, MARKS.graph_cursor));
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
        Some(Mark::Blunder) => ("??", Some(MARKS.blunder)),
        Some(Mark::Mistake) => ("?", Some(MARKS.mistake)),
        _ => ("", None),
    }
}

/// What the analysis screen shows: the words' language and the analysis.
pub struct AnalysisView<'a> {
    /// The interface's language.
    pub lang: Lang,
    /// The analysis.
    pub analysis: &'a Analysis,
    /// Bring the selected move into view in the list (it changed since the last frame).
    pub scroll: bool,
}

/// The panel's sizes: under the board, a share of a tall window's height; beside it, of a wide
/// one's width (points).
const SIZES: (super::Share, super::Share) = (
    super::Share { share: 0.5, min: 260.0, max: 560.0 },
    super::Share { share: 0.34, min: 240.0, max: 460.0 },
);

/// A panel at least this tall and wide (points) keeps the position's words above the moves;
/// a smaller one keeps only the buttons and the graph in place and scrolls the rest.
const ROOMY: egui::Vec2 = egui::vec2(300.0, 480.0);

/// What [`analysis_panel`] did: the player's intents, and the rest of the window, for the board
/// (points).
pub struct AnalysisPanel {
    /// What the player asked for this frame.
    pub intents: Vec<AnalysisIntent>,
    /// Where the board goes.
    pub board: egui::Rect,
}

/// Draws the analysis's panel under the board (tall window) or beside it (wide window) and
/// returns the player's intents and the board's area: the window but the panel. No Bevy: tests
/// lay it out at any size.
pub fn analysis_panel(root: &mut egui::Ui, view: &AnalysisView) -> AnalysisPanel {
    let viewport = root.ctx().viewport_rect();
    let tall = super::portrait(viewport);
    let (under, beside) = SIZES;
    let mut intents = Vec::new();
    let panel = |ui: &mut egui::Ui| panel_contents(ui, view, &mut intents);
    let board = if tall {
        let height = (viewport.height() * under.share).clamp(under.min, under.max);
        let shown = egui::Panel::bottom("analysis").exact_size(height).show(root, panel);
        egui::Rect::from_min_max(viewport.min, egui::pos2(viewport.max.x, shown.response.rect.top()))
    } else {
        let width = (viewport.width() * beside.share).clamp(beside.min, beside.max);
        let shown = egui::Panel::right("analysis").exact_size(width).show(root, panel);
        egui::Rect::from_min_max(viewport.min, egui::pos2(shown.response.rect.left(), viewport.max.y))
    };
    AnalysisPanel { intents, board }
}

/// The panel: the buttons and the graph always in place; in a roomy panel the title, the game
/// and the position shown too, then (scrolling) the tally, the game's puzzles and the moves; in
/// a small one all but the buttons and the graph scroll.
fn panel_contents(ui: &mut egui::Ui, view: &AnalysisView, intents: &mut Vec<AnalysisIntent>) {
    let (lang, a) = (view.lang, view.analysis);
    ui.spacing_mut().item_spacing.y = 4.0;
    let roomy = ui.available_width() >= ROOMY.x && ui.available_height() >= ROOMY.y;
    if roomy {
        title(ui, lang, a, intents, true);
        about(ui, lang, a);
    } else {
        steps(ui, lang, a, intents, true);
    }
    let share = if roomy { 0.2 } else { 0.16 };
    let graph_height = (ui.available_height() * share).clamp(40.0, if roomy { 140.0 } else { 70.0 });
    if let Some(p) = graph(ui, a, graph_height) {
        intents.push(AnalysisIntent::Show(p));
    }
    if roomy {
        position(ui, lang, a);
        steps(ui, lang, a, intents, false);
    }
    ui.separator();
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        if !roomy {
            position(ui, lang, a);
            title(ui, lang, a, intents, false);
            about(ui, lang, a);
        }
        summary(ui, lang, a, intents);
        // In a small panel the position's words come first: stepping keeps them in view.
        if let Some(p) = move_list(ui, a, view.scroll && roomy) {
            intents.push(AnalysisIntent::Show(p));
        }
    });
}

/// "Back" (when `back`) and the title.
fn title(ui: &mut egui::Ui, lang: Lang, a: &Analysis, intents: &mut Vec<AnalysisIntent>, back: bool) {
    crate::ui::widgets::button_row(ui, |ui| {
        if back && crate::ui::widgets::back_button(ui, lang) {
            intents.push(AnalysisIntent::Leave);
        }
        let title = format!("{} — {}", lang.t("analysis-title"), lang.text(variant_key(a.game.variant())));
        ui.add(egui::Label::new(egui::RichText::new(title).heading()).wrap());
    });
}

/// Who played, the result and the progress.
fn about(ui: &mut egui::Ui, lang: Lang, a: &Analysis) {
    let variant = a.game.variant();
    ui.add(egui::Label::new(egui::RichText::new(players_line(lang, variant, &a.seats)).small()).wrap());
    if let Some(outcome) = a.game.outcome() {
        let mover = a.moves().last().map(|_| !a.game.side_to_move());
        let text = format!(
            "{} · {}",
            result_text(lang, variant, &outcome),
            reason_text(lang, variant, &outcome, mover)
        );
        ui.add(egui::Label::new(text).wrap());
    }
    if a.took.is_none() {
        let (done, total) = (a.analysed(), a.evals.len());
        let text = lang.fmt("analysis-progress", [("done", done.into()), ("total", total.into())]);
        ui.add(egui::ProgressBar::new(done as f32 / total.max(1) as f32));
        ui.add(egui::Label::new(egui::RichText::new(text).small()).wrap());
    }
}

/// A wrapping label, coloured if asked.
fn line(ui: &mut egui::Ui, text: impl Into<String>, color: Option<egui::Color32>) {
    let mut rt = egui::RichText::new(text.into());
    if let Some(c) = color {
        rt = rt.color(c);
    }
    ui.add(egui::Label::new(rt).wrap());
}

/// The position shown: its evaluation, its proven value, the move played with its mark and what
/// judged it, and the engine's move.
fn position(ui: &mut egui::Ui, lang: Lang, a: &Analysis) {
    let variant = a.game.variant();
    let s = a.selected;
    let at = if s == 0 {
        lang.t("analysis-start").to_string()
    } else {
        lang.fmt("analysis-position", [("moves", s.into())])
    };
    let eval = a.evals[s]
        .map_or_else(|| lang.t("analysis-pending").to_string(), |e| eval_text(lang, variant, e.eval));
    ui.add(egui::Label::new(egui::RichText::new(format!("{at} {eval}")).strong().size(18.0)).wrap());
    if let Some(value) = a.evals[s].and_then(|e| e.proven) {
        let text = match value.winner() {
            Some(side) => lang.fmt("analysis-proven-win", [("side", side_name(lang, variant, side).into())]),
            None => lang.t("analysis-proven-draw").to_string(),
        };
        ui.add(egui::Label::new(egui::RichText::new(text).color(MARKS.proven)).wrap())
            .on_hover_text(lang.t("analysis-proven-rules"));
    }
    let pos = a.game.position_at(s);
    if let Some(view) = a.served.values.get(s).and_then(Option::as_ref) {
        served_moves(ui, lang, view, a.moves().get(s).and_then(|mv| pos.move_to_string(mv)));
    }
    let judged = a.judgement(s);
    if let Some(mv) = a.moves().get(s) {
        let text = pos.move_to_string(mv).unwrap_or_default();
        let mark = judged.map(|j| j.mark);
        let (suffix, c) = mark_suffix(mark);
        let word = match mark {
            Some(Mark::Blunder) => format!(" — {}", lang.t("analysis-blunder")),
            Some(Mark::Mistake) => format!(" — {}", lang.t("analysis-mistake")),
            _ => String::new(),
        };
        let side = side_name(lang, variant, pos.side_to_move());
        line(ui, format!("{} {text}{suffix}{word}", lang.fmt("analysis-played", [("side", side.into())])), c);
    }
    if let Some(j) = judged {
        line(ui, judgement_text(lang, variant, j), None);
    }
    if let Some(best) = a.evals[s].and_then(|e| e.best)
        && a.moves().get(s) != Some(&best)
    {
        let text = pos.move_to_string(&best).unwrap_or_default();
        // A move that kept the value or was not marked has no "better" move, only another one.
        let marked = judged.is_some_and(|j| j.mark != Mark::Fine);
        let (key, c) = if marked {
            (id!("analysis-better"), MARKS.better)
        } else {
            (id!("analysis-engine-move"), MARKS.proven)
        };
        line(ui, format!("{} {text}", lang.text(key)), Some(c));
    }
}

/// Every move's proven value from the server's value service, for the side that makes it; the
/// move played in bold.
fn served_moves(ui: &mut egui::Ui, lang: Lang, view: &PositionValueView, played: Option<String>) {
    line(ui, lang.t("analysis-server-moves"), Some(MARKS.proven));
    crate::ui::widgets::button_row(ui, |ui| {
        for m in &view.moves {
            let word = lang.text(match m.value {
                ValueWord::Win => id!("analysis-value-win"),
                ValueWord::Draw => id!("analysis-value-draw"),
                ValueWord::Loss => id!("analysis-value-loss"),
                ValueWord::Unknown => id!("analysis-value-unknown"),
            });
            let value = match m.plies {
                Some(plies) => {
                    lang.fmt("analysis-value-plies", [("value", word.into()), ("plies", plies.into())])
                }
                None => word.to_string(),
            };
            let text = egui::RichText::new(format!("{} {value}", m.mv)).small();
            ui.label(if played.as_deref() == Some(m.mv.as_str()) { text.strong() } else { text });
        }
    });
}

/// What judged the move and, when an exact value did, the value it kept.
pub fn judgement_text(lang: Lang, variant: Variant, j: Judgement) -> String {
    let source = lang.text(match j.source {
        Source::Book => id!("analysis-judged-book"),
        Source::Tables => id!("analysis-judged-tables"),
        Source::Server => id!("analysis-judged-server"),
        Source::Rules => id!("analysis-judged-rules"),
        Source::Search => id!("analysis-judged-search"),
    });
    match j.kept {
        Some(Value::Draw) => format!("{} · {source}", lang.t("analysis-keeps-draw")),
        Some(v) => {
            let side = v.winner().map(|w| side_name(lang, variant, w)).unwrap_or_default();
            format!("{} · {source}", lang.fmt("analysis-keeps-win", [("side", side.into())]))
        }
        None => source.to_string(),
    }
}

/// The step buttons and "Turn the board" (and first "Back", when `back`), wrapping onto more
/// rows in a narrow panel.
fn steps(ui: &mut egui::Ui, lang: Lang, a: &Analysis, intents: &mut Vec<AnalysisIntent>, back: bool) {
    let (n, s) = (a.moves().len(), a.selected);
    crate::ui::widgets::button_row(ui, |ui| {
        if back && crate::ui::widgets::back_button(ui, lang) {
            intents.push(AnalysisIntent::Leave);
        }
        for (label, to, enabled) in [
            ("|◀", 0, s > 0),
            ("◀", s.saturating_sub(1), s > 0),
            ("▶", (s + 1).min(n), s < n),
            ("▶|", n, s < n),
        ] {
            if ui.add_enabled(enabled, egui::Button::new(label).min_size(egui::vec2(44.0, 44.0))).clicked() {
                intents.push(AnalysisIntent::Show(to));
            }
        }
        if ui.add(egui::Button::new(lang.t("hud-flip")).min_size(egui::vec2(0.0, 44.0))).clicked() {
            intents.push(AnalysisIntent::Flip);
        }
    });
}

/// Each side's blunders and mistakes (once the analysis is done) and "Puzzles from this game".
fn summary(ui: &mut egui::Ui, lang: Lang, a: &Analysis, intents: &mut Vec<AnalysisIntent>) {
    let variant = a.game.variant();
    if a.took.is_some() {
        let t = a.tally();
        for side in [Side::First, Side::Second] {
            let [b, m] = t[side.index()];
            let side = side_name(lang, variant, side);
            let tally = lang.fmt(
                "analysis-tally",
                [("side", side.into()), ("blunders", b.into()), ("mistakes", m.into())],
            );
            line(ui, tally, None);
        }
    }
    match a.game_puzzles() {
        None => {
            let text = lang.t("analysis-puzzles-looking");
            ui.add_enabled(false, egui::Button::new(text).wrap().min_size(egui::vec2(0.0, 44.0)));
        }
        Some([]) => line(ui, lang.t("analysis-puzzles-none"), None),
        Some(found) => {
            let text = lang.fmt("analysis-puzzles", [("count", found.len().into())]);
            if ui.add(egui::Button::new(text).wrap().min_size(egui::vec2(0.0, 44.0))).clicked() {
                intents.push(AnalysisIntent::Puzzles);
            }
        }
    }
}

/// The moves with their marks, flowing in rows, each side's move a button of its own (the first
/// with the move's number); `scroll`: bring the selected one into view.
fn move_list(ui: &mut egui::Ui, a: &Analysis, scroll: bool) -> Option<usize> {
    let mut pick = None;
    let s = a.selected;
    let first = a.game.start().side_to_move();
    let notation = a.game.move_strings();
    ui.horizontal_wrapped(|ui| {
        for (k, text) in notation.iter().enumerate() {
            // The number of the move, counted in pairs from the first side's.
            let pair = (k + usize::from(first == Side::Second)) / 2 + 1;
            let numbered = match (k, first) {
                (0, Side::Second) => format!("{pair}. … {text}"),
                _ if (k + usize::from(first == Side::Second)) % 2 == 0 => format!("{pair}. {text}"),
                _ => text.clone(),
            };
            let (suffix, c) = mark_suffix(a.mark(k));
            let mut rt = egui::RichText::new(format!("{numbered}{suffix}")).monospace();
            if let Some(c) = c {
                rt = rt.color(c);
            }
            let r = ui.add(egui::Button::selectable(s == k, rt).min_size(egui::vec2(0.0, 36.0)));
            if r.clicked() {
                pick = Some(k);
            }
            if s == k && scroll {
                r.scroll_to_me(Some(egui::Align::Center));
            }
        }
    });
    pick
}

pub(super) fn analysis_screen(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    analysis: Option<Res<Analysis>>,
    mut layout: ResMut<BoardLayout>,
    mut area: ResMut<BoardArea>,
    mut intents: MessageWriter<AnalysisIntent>,
    mut scrolled: Local<Option<usize>>,
) -> Result {
    let Some(analysis) = analysis else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let scroll = *scrolled != Some(analysis.selected);
    *scrolled = Some(analysis.selected);
    let view = AnalysisView { lang: settings.lang, analysis: &analysis, scroll };
    let panel = analysis_panel(&mut root_ui(ctx), &view);
    super::give_board(&mut area, &mut layout, crate::ui::logical_rect(ctx, panel.board));
    if settings.coordinates {
        crate::ui::widgets::draw_coordinates(ctx, &layout);
    }
    if analysis.game_puzzles().is_none() {
        // The work runs in the background: the progress shows five times a second.
        ctx.request_repaint_after(std::time::Duration::from_millis(200));
    }
    intents.write_batch(panel.intents);
    Ok(())
}

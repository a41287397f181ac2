//! The end of a game: first a short moment (a victory's sparks, a defeat's dark band, a draw's
//! two pieces meeting, with the result and the reason), then the card: the result and why,
//! rematch, analysis, the final board, back. The moment follows the animation speed; "Off" goes
//! straight to the card.

use crate::app::Screen;
use crate::app::navigation::NavIntent;
use crate::board::view::BoardView;
use crate::game::intent::GameIntent;
use crate::game::session::Session;
use crate::game::settings::AnimSpeed;
use crate::i18n::Lang;
use crate::net::intents::OnlineIntent;
use crate::players::analysis::OpenAnalysis;
use crate::screens::play::{GameShown, OverCardHidden, PlayIntents};
use crate::ui::theme::MARKS;
use crate::ui::widgets::{big_button, piece_colors, reason_text, result_text};
use bevy::prelude::*;
use bevy::window::RequestRedraw;
use bevy_egui::{EguiContexts, egui};
use ludus_rules::{Outcome, Side, Variant};

/// The end-of-game moment's length at the normal animation speed, in seconds.
const MOMENT_S: f64 = 1.8;

/// How long the end-of-game moment has played (seconds), once the game is over and the board
/// still. It advances by at most [`MAX_STEP_S`] a frame, so that a slow frame does not skip it.
#[derive(Resource, Default)]
pub struct EndMoment {
    played: Option<f64>,
}

/// The most the moment advances in one frame, in seconds.
const MAX_STEP_S: f64 = 0.1;

/// How the end of the game feels to the person looking at it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mood {
    /// The person here won.
    Win,
    /// The person here lost.
    Loss,
    /// Nobody won.
    Draw,
    /// Nobody here plays one side (two players on one device, a spectator): this side won.
    Winner(Side),
}

impl Mood {
    /// The mood of `outcome` for the person who plays `mine` (`None`: both sides or neither).
    pub fn of(outcome: &Outcome, mine: Option<Side>) -> Mood {
        match (outcome.winner, mine) {
            (None, _) => Mood::Draw,
            (Some(w), Some(me)) if w == me => Mood::Win,
            (Some(_), Some(_)) => Mood::Loss,
            (Some(w), None) => Mood::Winner(w),
        }
    }
}

/// The card's title for the person looking at it: "You win" or "You lose" to the person who
/// played one side (against the computer, online), the winner's side named when nobody here plays
/// one side (two players on one device, a spectator), or "Draw".
pub fn card_title(lang: Lang, variant: Variant, outcome: &Outcome, mine: Option<Side>) -> String {
    match Mood::of(outcome, mine) {
        Mood::Win => lang.t("over-you-win").to_string(),
        Mood::Loss => lang.t("over-you-lose").to_string(),
        Mood::Draw | Mood::Winner(_) => result_text(lang, variant, outcome),
    }
}

/// How far the moment has gone (0 to 1) `elapsed` seconds after it began, at `speed`; `None`
/// when it is over (or the animations are off): then the card shows.
pub fn moment_progress(elapsed: f64, speed: AnimSpeed) -> Option<f32> {
    let length = MOMENT_S * f64::from(speed.factor()?);
    (elapsed < length).then(|| (elapsed.max(0.0) / length) as f32)
}

/// Starts the moment when the game has just ended and the board is still, and advances it by
/// the frame's `delta` seconds; forgets it once the game is on again (undo, a new game). Returns
/// the moment's progress, `None` once it is over.
fn advance_moment(moment: &mut EndMoment, over_and_still: bool, delta: f64, speed: AnimSpeed) -> Option<f32> {
    if !over_and_still {
        moment.played = None;
        return None;
    }
    let played = match moment.played {
        None => 0.0,
        Some(played) => played + delta.clamp(0.0, MAX_STEP_S),
    };
    moment.played = Some(played);
    moment_progress(played, speed)
}

fn smoothstep(from: f32, to: f32, x: f32) -> f32 {
    let t = ((x - from) / (to - from)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// An overshooting ease: grows past 1 and settles back, for the title's arrival.
fn ease_out_back(t: f32) -> f32 {
    let c = 1.7;
    let u = t.clamp(0.0, 1.0) - 1.0;
    1.0 + (c + 1.0) * u * u * u + c * u * u
}

fn with_alpha(color: egui::Color32, alpha: f32) -> egui::Color32 {
    color.gamma_multiply(alpha.clamp(0.0, 1.0))
}

/// Draws the moment at progress `t` over the whole window.
fn draw_moment(
    ctx: &egui::Context,
    t: f32,
    mood: Mood,
    lang: Lang,
    variant: Variant,
    outcome: &Outcome,
    mover: Option<Side>,
) {
    let screen = ctx.viewport_rect();
    let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Foreground, egui::Id::new("end-moment")));
    let fade = smoothstep(0.0, 0.15, t) * (1.0 - smoothstep(0.85, 1.0, t));
    let center = screen.center();
    painter.rect_filled(screen, 0.0, with_alpha(MARKS.veil, fade));
    let ([band, ink], title) = match mood {
        Mood::Win => (MARKS.win, lang.t("over-moment-win").to_string()),
        Mood::Loss => (MARKS.loss, lang.t("over-moment-loss").to_string()),
        Mood::Draw => (MARKS.draw, lang.t("over-draw").to_string()),
        Mood::Winner(_) => (MARKS.winner, result_text(lang, variant, outcome)),
    };
    let band_height = 150.0_f32.min(screen.height() * 0.4);
    let band_rect = egui::Rect::from_center_size(
        center,
        egui::vec2(screen.width(), band_height * smoothstep(0.0, 0.2, t)),
    );
    painter.rect_filled(band_rect, 0.0, with_alpha(band, 0.85 * fade));
    // The winners' sparks: gold and laurel green, thrown out from the middle and falling.
    if matches!(mood, Mood::Win | Mood::Winner(_)) {
        let reach = screen.width().min(screen.height()) * 0.55;
        for i in 0..36 {
            let angle = i as f32 * 2.399_963; // the golden angle spreads them evenly
            let speed = 0.55 + 0.45 * ((i * 7 % 11) as f32 / 10.0);
            let k = smoothstep(0.05, 0.9, t);
            let dir = egui::vec2(angle.cos(), angle.sin());
            let p = center + dir * reach * speed * k + egui::vec2(0.0, 120.0 * k * k);
            let color = if i % 3 == 0 { MARKS.sparks[1] } else { MARKS.sparks[0] };
            painter.circle_filled(p, 5.0 * (1.0 - 0.7 * k), with_alpha(color, fade));
        }
    }
    // A draw: one piece of each side slides in and they meet under the title.
    if mood == Mood::Draw {
        let gap = 34.0 + (screen.width() * 0.5) * (1.0 - smoothstep(0.0, 0.45, t));
        for (side, dx) in [(Side::First, -gap), (Side::Second, gap)] {
            let [rim, body] = piece_colors(variant, side);
            let at = center + egui::vec2(dx, band_height * 0.3);
            painter.circle_filled(at, 16.0, with_alpha(rim, fade));
            painter.circle_filled(at, 13.0, with_alpha(body, fade));
        }
    }
    // The title arrives with a small overshoot; a defeat's sinks a little.
    let scale = 0.6 + 0.4 * ease_out_back(smoothstep(0.0, 0.35, t));
    let sink = if mood == Mood::Loss { 10.0 * smoothstep(0.2, 0.9, t) } else { 0.0 };
    let title_at = center + egui::vec2(0.0, -band_height * 0.18 + sink);
    painter.text(
        title_at,
        egui::Align2::CENTER_CENTER,
        title,
        crate::ui::display(58.0 * scale),
        with_alpha(ink, fade),
    );
    let reason = reason_text(lang, variant, outcome, mover);
    let reason_fade = fade * smoothstep(0.25, 0.45, t);
    let reason_at = center + egui::vec2(0.0, band_height * (if mood == Mood::Draw { 0.05 } else { 0.22 }));
    painter.text(
        reason_at,
        egui::Align2::CENTER_CENTER,
        reason,
        egui::FontId::proportional(20.0),
        with_alpha(MARKS.reason, reason_fade),
    );
}

/// Plays the end-of-game moment; [`game_over_card`] shows the card when it is over.
pub(super) fn end_moment(
    mut contexts: EguiContexts,
    shown: GameShown,
    view: Res<BoardView>,
    hidden: Res<OverCardHidden>,
    mut moment: ResMut<EndMoment>,
    mut redraw: MessageWriter<RequestRedraw>,
) -> Result {
    let session: Option<&Session> = shown.session.as_deref().filter(|s| !s.is_lesson());
    let over_and_still = session.is_some_and(|s| s.game.is_over() && view.settled(s));
    let delta = shown.time.delta_secs_f64();
    let Some(t) = advance_moment(&mut moment, over_and_still, delta, shown.settings.anim) else {
        return Ok(());
    };
    if hidden.0 {
        return Ok(());
    }
    let (Some(session), Some(outcome)) = (session, session.and_then(|s| s.game.outcome())) else {
        return Ok(());
    };
    let game = &session.game;
    let mover = game.moves().last().map(|_| !game.side_to_move());
    let mood = Mood::of(&outcome, session.seats.human_side());
    draw_moment(contexts.ctx_mut()?, t, mood, shown.settings.lang, game.variant(), &outcome, mover);
    redraw.write(RequestRedraw);
    Ok(())
}

/// The card over the board once the game is over and the board is still (unless hidden).
pub(super) fn game_over_card(
    mut contexts: EguiContexts,
    shown: GameShown,
    view: Res<BoardView>,
    mut hidden: ResMut<OverCardHidden>,
    moment: Res<EndMoment>,
    mut actions: PlayIntents,
    mut analyse: MessageWriter<OpenAnalysis>,
) -> Result {
    let Some(session) = shown.session.as_deref().filter(|s| !s.is_lesson()) else {
        return Ok(()); // a lesson says itself how the move went
    };
    let online = shown.online();
    let ctx = contexts.ctx_mut()?;
    let lang = shown.settings.lang;
    let game = &session.game;
    let variant = game.variant();
    // The game-over card.
    let moment_over =
        moment.played.is_some_and(|played| moment_progress(played, shown.settings.anim).is_none());
    if let Some(outcome) = game.outcome()
        && !hidden.0
        && view.settled(session)
        && (moment_over || shown.settings.anim == AnimSpeed::Off)
    {
        let mover = game.moves().last().map(|_| !game.side_to_move());
        egui::Window::new(lang.t("over-title"))
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
            .show(ctx, |ui| {
                ui.vertical_centered(|ui| {
                    let title = card_title(lang, variant, &outcome, session.seats.human_side());
                    ui.label(egui::RichText::new(title).size(30.0).strong());
                    ui.label(egui::RichText::new(reason_text(lang, variant, &outcome, mover)).size(18.0));
                    ui.add_space(10.0);
                    if let Some(online) = online {
                        if online.rematch_offered && !online.rematch_sent {
                            ui.label(lang.t("net-rematch-offered"));
                        }
                        if online.rematch_sent {
                            ui.label(lang.t("net-rematch-sent"));
                        }
                        let can = online.local_side().is_some() && !online.rematch_sent;
                        if can && big_button(ui, lang.t("over-rematch"), 260.0).clicked() {
                            actions.game.write(GameIntent::NewGame);
                        }
                    } else if big_button(ui, lang.t("over-rematch"), 260.0).clicked() {
                        actions.game.write(GameIntent::NewGame);
                    }
                    if big_button(ui, lang.t("over-analyse"), 260.0).clicked() {
                        analyse.write(OpenAnalysis {
                            game: game.clone(),
                            seats: session.seats,
                            back: Screen::Playing,
                        });
                    }
                    if big_button(ui, lang.t("over-view"), 260.0).clicked() {
                        hidden.0 = true;
                    }
                    if online.is_some() {
                        let back = big_button(ui, lang.t("over-back-lobby"), 260.0);
                        actions.taps.note(ui, "back_lobby", &back);
                        if back.clicked() {
                            actions.online.write(OnlineIntent::LeaveGame);
                        }
                    } else if big_button(ui, lang.t("over-back"), 260.0).clicked() {
                        actions.nav.write(NavIntent::Go(Screen::Title));
                    }
                });
            });
    }
    Ok(())
}

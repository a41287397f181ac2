//! Widgets and words shared by the screens: buttons, names of sides, games and levels, results,
//! the status line, coordinates around the board.

use crate::board::view::BoardLayout;
use crate::game::selection::Selected;
use crate::game::session::{Level, Session};
use crate::game::session::{Player, Seats};
use crate::i18n::{Lang, fill};
use crate::net::connection::{LinkFailure, LinkState, Net};
use bevy::prelude::*;
use bevy_egui::egui;
use ludus_ai::review::Eval;
use ludus_protocol::ErrorCode;
use ludus_rules::{AnyPosition, Outcome, Reason, Side, Variant};

/// The name of a side in a game: Red or Black in Latrunculi, White or Black in Alquerque.
pub fn side_name(lang: Lang, variant: Variant, side: Side) -> &'static str {
    match (variant.is_latrunculi(), side) {
        (true, Side::First) => lang.t("side.red"),
        (false, Side::First) => lang.t("side.white"),
        (_, Side::Second) => lang.t("side.black"),
    }
}

/// The key of a variant's name.
pub fn variant_key(variant: Variant) -> &'static str {
    match variant {
        Variant::Latrunculi => "game.latrunculi",
        Variant::LatrunculiQuick => "game.latrunculi-quick",
        Variant::Alquerque => "game.alquerque",
    }
}

/// The key of a level's name.
pub fn level_key(level: Level) -> &'static str {
    match level {
        Level::Easy => "level.easy",
        Level::Medium => "level.medium",
        Level::Hard => "level.hard",
        Level::Random => "level.random",
    }
}

/// A big button for menus (touch friendly).
pub fn big_button(ui: &mut egui::Ui, text: &str, width: f32) -> egui::Response {
    ui.add_sized([width, 48.0], egui::Button::new(egui::RichText::new(text).size(20.0)))
}

/// The reason an outcome happened, in words.
pub fn reason_text(
    lang: Lang,
    variant: Variant,
    outcome: &Outcome,
    last_mover: Option<Side>,
) -> &'static str {
    let latrunculi = variant.is_latrunculi();
    match outcome.reason {
        Reason::KingImmobilised if last_mover.is_some() && outcome.winner != last_mover => {
            lang.t("reason.KingImmobilised.self")
        }
        Reason::KingImmobilised => lang.t("reason.KingImmobilised"),
        Reason::OnlyKingLeft => lang.t("reason.OnlyKingLeft"),
        Reason::NoPieces => lang.t("reason.NoPieces"),
        Reason::NoLegalMove => lang.t("reason.NoLegalMove"),
        Reason::Repetition if latrunculi => lang.t("reason.Repetition.latrunculi"),
        Reason::Repetition => lang.t("reason.Repetition"),
        Reason::NoCaptureLimit if latrunculi => lang.t("reason.NoCaptureLimit.latrunculi"),
        Reason::NoCaptureLimit => lang.t("reason.NoCaptureLimit"),
        Reason::Resignation => lang.t("reason.Resignation"),
        Reason::Timeout => lang.t("reason.Timeout"),
        Reason::Abandoned => lang.t("reason.Abandoned"),
        Reason::Agreement => lang.t("reason.Agreement"),
    }
}

/// The winner line: "Red wins" or "Draw".
pub fn result_text(lang: Lang, variant: Variant, outcome: &Outcome) -> String {
    match outcome.winner {
        Some(side) => fill(lang.t("over.wins"), &[side_name(lang, variant, side)]),
        None => lang.t("over.draw").to_string(),
    }
}

/// Whose turn and why, for the status line.
pub fn status_text(lang: Lang, session: &Session, thinking: bool, selected: &Selected) -> Vec<String> {
    let game = &session.game;
    let variant = game.variant();
    let mut lines = Vec::new();
    if let Some(outcome) = game.outcome() {
        let mover = game.moves().last().map(|_| !game.side_to_move());
        lines.push(result_text(lang, variant, &outcome));
        lines.push(reason_text(lang, variant, &outcome, mover).to_string());
        return lines;
    }
    let side = game.side_to_move();
    let name = side_name(lang, variant, side);
    let pos = game.position();
    let must_capture = matches!(pos, AnyPosition::Alquerque(_))
        && game.legal_moves().first().is_some_and(|m| m.is_capture());
    if thinking {
        lines.push(lang.t("status.thinking").to_string());
    } else if must_capture {
        lines.push(fill(lang.t("status.must_capture"), &[name]));
    } else if session.seats.human_side() == Some(side) {
        lines.push(fill(lang.t("status.your_move"), &[name]));
    } else {
        lines.push(fill(lang.t("status.to_move"), &[name]));
    }
    if selected.0.as_ref().is_some_and(|s| !s.partial.is_empty()) {
        lines.push(lang.t("status.chain").to_string());
    }
    if let AnyPosition::Latrunculi(p) = pos {
        for s in [side, !side] {
            if p.king_liberties(s) == 1 {
                lines.push(fill(lang.t("status.king_danger"), &[side_name(lang, variant, s)]));
            }
        }
    }
    let (limit, clock) = match pos {
        AnyPosition::Latrunculi(_) => (ludus_rules::latrunculi::NO_CAPTURE_LIMIT, pos.clock()),
        AnyPosition::Alquerque(_) => (ludus_rules::alquerque::NO_CAPTURE_LIMIT, pos.clock()),
    };
    if clock * 5 >= limit * 3 {
        lines.push(fill(lang.t("status.clock"), &[&clock.to_string(), &limit.to_string()]));
    }
    if game.repetitions() >= 2 {
        // In Latrunculi the player who repeats a position a third time loses; in Alquerque it is a draw.
        let key = match pos {
            AnyPosition::Latrunculi(_) => "status.repetition.latrunculi",
            AnyPosition::Alquerque(_) => "status.repetition",
        };
        lines.push(lang.t(key).to_string());
    }
    lines
}

/// A side's piece colours on the wooden board (rim, body), as egui colours.
pub fn piece_colors(variant: Variant, side: Side) -> [egui::Color32; 2] {
    let colors = crate::board::palette::Colors::of(crate::game::settings::Theme::Wood);
    let [rim, body, _] = colors.piece(!variant.is_latrunculi(), side, false).map(|c| {
        let c = c.to_srgba();
        egui::Color32::from_rgb((c.red * 255.0) as u8, (c.green * 255.0) as u8, (c.blue * 255.0) as u8)
    });
    [rim, body]
}

/// A swatch of a side's colour.
pub fn side_swatch(ui: &mut egui::Ui, variant: Variant, side: Side) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(18.0, 18.0), egui::Sense::hover());
    let [rim, body] = piece_colors(variant, side);
    ui.painter().circle_filled(rect.center(), 9.0, rim);
    ui.painter().circle_filled(rect.center(), 7.5, body);
}

/// The files' letters and the ranks' numbers around the board.
pub fn draw_coordinates(ctx: &egui::Context, layout: &BoardLayout) {
    let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Background, egui::Id::new("coords")));
    let color = egui::Color32::from_gray(200);
    let z = ctx.zoom_factor();
    let font = egui::FontId::proportional((layout.cell * 0.28 / z).clamp(10.0 / z, 18.0));
    let offset = if layout.points { 0.72 } else { 0.62 };
    for f in 0..layout.width {
        let sq =
            ludus_rules::Square::new(f, if layout.flipped { layout.height - 1 } else { 0 }, layout.width);
        let p = layout.to_screen(sq) + Vec2::new(0.0, offset * layout.cell);
        painter.text(
            crate::ui::to_points(ctx, p),
            egui::Align2::CENTER_CENTER,
            ((b'a' + f) as char).to_string(),
            font.clone(),
            color,
        );
    }
    for r in 0..layout.height {
        let sq = ludus_rules::Square::new(if layout.flipped { layout.width - 1 } else { 0 }, r, layout.width);
        let p = layout.to_screen(sq) - Vec2::new(offset * layout.cell, 0.0);
        painter.text(
            crate::ui::to_points(ctx, p),
            egui::Align2::CENTER_CENTER,
            (r + 1).to_string(),
            font.clone(),
            color,
        );
    }
}

/// An evaluation as text: "+1.3", "White wins in 5" (moves of the winner), "Draw".
pub fn eval_text(lang: Lang, variant: Variant, eval: Eval) -> String {
    match eval {
        Eval::Cp(0) => "0.0".to_string(),
        Eval::Cp(cp) => format!("{:+.1}", f64::from(cp) / 100.0),
        Eval::Win { side, plies } => {
            let moves = plies.div_ceil(2).max(1);
            fill(lang.t("analysis.wins_in"), &[side_name(lang, variant, side), &moves.to_string()])
        }
        Eval::Over(Some(side)) => fill(lang.t("over.wins"), &[side_name(lang, variant, side)]),
        Eval::Over(None) => lang.t("over.draw").to_string(),
    }
}

/// What a side's player was: "you", the computer's level, someone online.
pub fn player_text(lang: Lang, seats: &Seats, side: Side) -> String {
    match seats.player(side) {
        Player::Human if seats.is_two_players() => lang.t("records.person").to_string(),
        Player::Human => lang.t("records.you").to_string(),
        Player::Computer(level) => fill(lang.t("records.computer"), &[lang.t(level_key(level))]),
        Player::Remote => lang.t("records.online").to_string(),
    }
}

/// "White: you — Black: Computer: Hard".
pub fn players_line(lang: Lang, variant: Variant, seats: &Seats) -> String {
    let one = |side| format!("{}: {}", side_name(lang, variant, side), player_text(lang, seats, side));
    format!("{} — {}", one(Side::First), one(Side::Second))
}

/// Minutes and seconds.
pub fn clock_text(ms: u64) -> String {
    let s = ms.div_ceil(1000);
    format!("{}:{:02}", s / 60, s % 60)
}

/// The text key of a server refusal.
pub fn error_key(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::Malformed => "net.err.malformed",
        // SessionExpired: the client asks for a new player's token by itself.
        ErrorCode::NotSignedIn
        | ErrorCode::AlreadySignedIn
        | ErrorCode::Internal
        | ErrorCode::SessionExpired => "net.err.internal",
        ErrorCode::SignedInElsewhere => "net.err.elsewhere",
        ErrorCode::BadNickname => "net.err.nickname",
        ErrorCode::RateLimited | ErrorCode::TooManyAttempts => "net.err.rate",
        ErrorCode::BadClock => "net.err.clock",
        ErrorCode::UnknownRoom => "net.err.unknown_room",
        ErrorCode::RoomFull => "net.err.room_full",
        ErrorCode::OwnRoom => "net.err.own_room",
        ErrorCode::Busy => "net.err.busy",
        ErrorCode::UnknownGame => "net.err.unknown_game",
        ErrorCode::NotAPlayer | ErrorCode::PlayerCannotPropose | ErrorCode::NotWatching => {
            "net.err.not_allowed"
        }
        ErrorCode::NotYourTurn | ErrorCode::WrongPly => "net.err.turn",
        ErrorCode::IllegalMove => "net.err.illegal",
        ErrorCode::GameOver => "net.err.over",
        ErrorCode::NoRematch => "net.err.no_rematch",
        ErrorCode::ServerFull => "net.err.full",
        ErrorCode::NoDrawOffer => "net.err.no_draw_offer",
        ErrorCode::DrawAlreadyOffered => "net.err.draw_offered",
        ErrorCode::ChatTooLong => "net.err.chat_too_long",
        ErrorCode::ChatBadText => "net.err.chat_bad_text",
        ErrorCode::NotInGame => "net.err.not_in_game",
        ErrorCode::ChatFull => "net.err.chat_full",
        ErrorCode::CannotMuteSelf => "net.err.mute_self",
        ErrorCode::BadPassword => "net.err.password",
        ErrorCode::BadCredentials => "net.err.credentials",
        ErrorCode::NotClaimed => "net.err.not_claimed",
        ErrorCode::UnknownPlayer => "net.err.unknown_player",
    }
}

/// The connection line shown on every online screen.
pub fn link_text(lang: Lang, net: &Net) -> (egui::Color32, String) {
    let ok = egui::Color32::from_rgb(110, 200, 110);
    let busy = egui::Color32::from_rgb(230, 190, 90);
    let bad = egui::Color32::from_rgb(230, 110, 100);
    let trying =
        matches!(net.phase, LinkState::Connecting | LinkState::Reconnecting(_) | LinkState::Failed(_));
    if trying && !crate::platform::network_available() {
        return (bad, lang.t("net.no_internet").to_string());
    }
    match &net.phase {
        LinkState::Offline => (egui::Color32::GRAY, lang.t("net.offline").to_string()),
        LinkState::Connecting => (busy, fill(lang.t("net.connecting"), &[&net.server])),
        LinkState::SignedIn => {
            (ok, fill(lang.t("net.signed_in"), &[&net.server, net.nickname.as_deref().unwrap_or("?")]))
        }
        LinkState::Reconnecting(n) => {
            (busy, fill(lang.t("net.reconnecting"), &[&net.server, &n.to_string()]))
        }
        LinkState::Failed(LinkFailure::BadAddress(e)) => {
            let (key, args) = e.text_key();
            (bad, fill(lang.t("net.bad_address"), &[&fill(lang.t(key), &args)]))
        }
        LinkState::Failed(LinkFailure::Unreachable(e)) => {
            (bad, fill(lang.t("net.unreachable"), &[&net.server, e]))
        }
        LinkState::Failed(LinkFailure::Incompatible(e)) => (bad, fill(lang.t("net.incompatible"), &[e])),
    }
}

/// A screen's header: a back button and the screen's title. Returns whether back was tapped.
pub fn screen_header(ui: &mut egui::Ui, lang: Lang, title_key: &'static str) -> bool {
    ui.horizontal(|ui| {
        let back = ui.add_sized([120.0, 44.0], egui::Button::new(lang.t("menu.back"))).clicked();
        ui.heading(egui::RichText::new(lang.t(title_key)).size(28.0));
        back
    })
    .inner
}

/// A rating as players read it: "1623", or "1500?" while it is provisional.
pub fn rating_text(rating: &ludus_protocol::RatingView) -> String {
    if rating.provisional { format!("{}?", rating.rating) } else { rating.rating.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: Side = Side::First;
    const B: Side = Side::Second;

    #[test]
    fn evaluation_texts() {
        let v = Variant::Alquerque;
        assert_eq!(eval_text(Lang::En, v, Eval::Cp(130)), "+1.3");
        assert_eq!(eval_text(Lang::En, v, Eval::Cp(-45)), "-0.5");
        assert_eq!(eval_text(Lang::En, v, Eval::Cp(0)), "0.0");
        assert_eq!(eval_text(Lang::En, v, Eval::Win { side: W, plies: 9 }), "White wins in 5");
        assert_eq!(
            eval_text(Lang::En, Variant::Latrunculi, Eval::Win { side: W, plies: 1 }),
            "Red wins in 1"
        );
        assert_eq!(eval_text(Lang::En, v, Eval::Win { side: B, plies: 4 }), "Black wins in 2");
        assert_eq!(eval_text(Lang::En, v, Eval::Over(None)), "Draw");
        assert!(eval_text(Lang::Vi, v, Eval::Win { side: B, plies: 4 }).contains('2'));
    }

    #[test]
    fn clocks_read_as_minutes() {
        assert_eq!(clock_text(300_000), "5:00");
        assert_eq!(clock_text(61_001), "1:02");
        assert_eq!(clock_text(0), "0:00");
    }
}

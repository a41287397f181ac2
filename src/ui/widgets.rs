//! Widgets and words shared by the screens: buttons, names of sides, games and levels, results,
//! the status line, coordinates around the board.

use crate::board::view::BoardLayout;
use crate::game::selection::Selected;
use crate::game::session::{Level, Session};
use crate::game::session::{Player, Seats};
use crate::i18n::{Id, Lang, id};
use crate::net::connection::{Link, LinkFailure, LinkState};
use bevy::prelude::*;
use bevy_egui::egui;
use ludus_ai::review::Eval;
use ludus_protocol::ErrorCode;
use ludus_rules::{AnyPosition, Outcome, Reason, Side, Variant};

/// The name of a side in a game: Red or Black in Latrunculi, White or Black in Alquerque.
pub fn side_name(lang: Lang, variant: Variant, side: Side) -> &'static str {
    crate::game::describe::side_word(lang, variant, side)
}

/// The message id of a variant's name.
pub fn variant_key(variant: Variant) -> Id {
    match variant {
        Variant::Latrunculi => id!("game-latrunculi"),
        Variant::LatrunculiQuick => id!("game-latrunculi-quick"),
        Variant::Alquerque => id!("game-alquerque"),
    }
}

/// The message id of a level's name.
pub fn level_key(level: Level) -> Id {
    match level {
        Level::Easy => id!("level-easy"),
        Level::Medium => id!("level-medium"),
        Level::Hard => id!("level-hard"),
        Level::Random => id!("level-random"),
    }
}

/// A choice among several: framed in every state (a bare word would not read as a button),
/// filled with the accent when chosen.
pub fn choice<'a>(selected: bool, text: impl Into<egui::WidgetText>) -> egui::Button<'a> {
    egui::Button::new(text).selected(selected)
}

/// A row of buttons that wraps to the next line where a button does not fit whole (in a
/// wrapping row egui would otherwise shrink a button's words to the space left on the line,
/// cutting them: "Tiến nướ" at 200 % text on a phone).
pub fn button_row<R>(ui: &mut egui::Ui, add_contents: impl FnOnce(&mut egui::Ui) -> R) -> R {
    ui.horizontal_wrapped(|ui| {
        ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
        add_contents(ui)
    })
    .inner
}

/// A big button for menus (touch friendly), its word in the display face.
pub fn big_button(ui: &mut egui::Ui, text: &str, width: f32) -> egui::Response {
    ui.add_sized([width, 48.0], egui::Button::new(egui::RichText::new(text).font(crate::ui::display(23.0))))
        .on_hover_cursor(egui::CursorIcon::PointingHand)
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
            lang.t("reason-king-immobilised-self")
        }
        Reason::KingImmobilised => lang.t("reason-king-immobilised"),
        Reason::OnlyKingLeft => lang.t("reason-only-king-left"),
        Reason::NoPieces => lang.t("reason-no-pieces"),
        Reason::NoLegalMove => lang.t("reason-no-legal-move"),
        Reason::Repetition if latrunculi => lang.t("reason-repetition-latrunculi"),
        Reason::Repetition => lang.t("reason-repetition"),
        Reason::NoCaptureLimit if latrunculi => lang.t("reason-no-capture-limit-latrunculi"),
        Reason::NoCaptureLimit => lang.t("reason-no-capture-limit"),
        Reason::Resignation => lang.t("reason-resignation"),
        Reason::Timeout => lang.t("reason-timeout"),
        Reason::Abandoned => lang.t("reason-abandoned"),
        Reason::Agreement => lang.t("reason-agreement"),
    }
}

/// The winner line: "Red wins" or "Draw".
pub fn result_text(lang: Lang, variant: Variant, outcome: &Outcome) -> String {
    match outcome.winner {
        Some(side) => lang.fmt("over-wins", [("side", side_name(lang, variant, side).into())]),
        None => lang.t("over-draw").to_string(),
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
    let yours = session.seats.human_side() == Some(side);
    if thinking {
        lines.push(lang.t("status-thinking").to_string());
    } else if yours {
        // Still "your move" when a capture is forced: the rule comes on the next line.
        lines.push(lang.fmt("status-your-move", [("side", name.into())]));
        if must_capture {
            lines.push(lang.t("status-capture-compulsory").to_string());
        }
    } else if must_capture {
        lines.push(lang.fmt("status-must-capture", [("side", name.into())]));
    } else {
        lines.push(lang.fmt("status-to-move", [("side", name.into())]));
    }
    if selected.0.as_ref().is_some_and(|s| !s.partial.is_empty()) {
        lines.push(lang.t("status-chain").to_string());
    }
    if let AnyPosition::Latrunculi(p) = pos {
        for s in [side, !side] {
            if p.king_liberties(s) == 1 {
                lines.push(lang.fmt("status-king-danger", [("side", side_name(lang, variant, s).into())]));
            }
        }
    }
    let (limit, clock) = match pos {
        AnyPosition::Latrunculi(_) => (ludus_rules::latrunculi::NO_CAPTURE_LIMIT, pos.clock()),
        AnyPosition::Alquerque(_) => (ludus_rules::alquerque::NO_CAPTURE_LIMIT, pos.clock()),
    };
    if clock * 5 >= limit * 3 {
        lines.push(lang.fmt("status-clock", [("plies", clock.into()), ("limit", limit.into())]));
    }
    if game.repetitions() >= 2 {
        // In Latrunculi the player who repeats a position a third time loses; in Alquerque it is a draw.
        let text = match pos {
            AnyPosition::Latrunculi(_) => lang.t("status-repetition-latrunculi"),
            AnyPosition::Alquerque(_) => lang.t("status-repetition"),
        };
        lines.push(text.to_string());
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

/// A side's swatch and a short text after it, as one item (a wrapping row keeps them together).
pub fn swatch_text(
    ui: &mut egui::Ui,
    lang: Lang,
    variant: Variant,
    side: Side,
    text: &str,
) -> egui::Response {
    let galley = egui::WidgetText::from(text).into_galley(
        ui,
        Some(egui::TextWrapMode::Extend),
        f32::INFINITY,
        egui::TextStyle::Body,
    );
    let gap = 4.0;
    let size = egui::vec2(18.0 + gap + galley.size().x, galley.size().y.max(18.0));
    let (rect, response) = ui.allocate_exact_size(size, egui::Sense::hover());
    let [rim, body] = piece_colors(variant, side);
    let center = egui::pos2(rect.left() + 9.0, rect.center().y);
    ui.painter().circle_filled(center, 9.0, rim);
    ui.painter().circle_filled(center, 7.5, body);
    let at = egui::pos2(rect.left() + 18.0 + gap, rect.center().y - galley.size().y / 2.0);
    ui.painter().galley(at, galley, ui.visuals().text_color());
    // Read as the side and the text ("Red ×3"): the swatch alone says nothing to a screen reader.
    let said = format!("{} {text}", side_name(lang, variant, side));
    response.widget_info(|| egui::WidgetInfo::labeled(egui::WidgetType::Label, true, &said));
    response
}

/// The files' letters and the ranks' numbers around the board.
pub fn draw_coordinates(ctx: &egui::Context, layout: &BoardLayout) {
    let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Background, egui::Id::new("coords")));
    // The theme's secondary text, on the surface around the board.
    let color = ctx.global_style().visuals.weak_text_color();
    let z = ctx.zoom_factor();
    let font = egui::FontId::proportional((layout.cell * 0.28 / z).clamp(10.0 / z, 18.0));
    for (p, text) in layout.coordinates() {
        painter.text(crate::ui::to_points(ctx, p), egui::Align2::CENTER_CENTER, text, font.clone(), color);
    }
}

/// An evaluation as text: "+1.3", "White wins in 5" (moves of the winner), "Draw".
pub fn eval_text(lang: Lang, variant: Variant, eval: Eval) -> String {
    match eval {
        Eval::Cp(0) => "0.0".to_string(),
        Eval::Cp(cp) => format!("{:+.1}", f64::from(cp) / 100.0),
        Eval::Win { side, plies } => {
            let moves = plies.div_ceil(2).max(1);
            lang.fmt(
                "analysis-wins-in",
                [("side", side_name(lang, variant, side).into()), ("moves", moves.into())],
            )
        }
        Eval::Over(Some(side)) => lang.fmt("over-wins", [("side", side_name(lang, variant, side).into())]),
        Eval::Over(None) => lang.t("over-draw").to_string(),
    }
}

/// What a side's player was: "you", the computer's level, someone online.
pub fn player_text(lang: Lang, seats: &Seats, side: Side) -> String {
    match seats.player(side) {
        Player::Human if seats.is_two_players() => lang.t("records-person").to_string(),
        Player::Human => lang.t("records-you").to_string(),
        Player::Computer(level) => {
            lang.fmt("records-computer", [("level", lang.text(level_key(level)).into())])
        }
        Player::Remote => lang.t("records-online").to_string(),
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

/// The message id of a server refusal.
pub fn error_key(code: ErrorCode) -> Id {
    match code {
        ErrorCode::Malformed => id!("net-err-malformed"),
        // SessionExpired: the client asks for a new player's token by itself.
        ErrorCode::NotSignedIn
        | ErrorCode::AlreadySignedIn
        | ErrorCode::Internal
        | ErrorCode::SessionExpired => id!("net-err-internal"),
        ErrorCode::SignedInElsewhere => id!("net-err-elsewhere"),
        ErrorCode::BadNickname => id!("net-err-nickname"),
        ErrorCode::RateLimited | ErrorCode::TooManyAttempts => id!("net-err-rate"),
        ErrorCode::BadClock => id!("net-err-clock"),
        ErrorCode::UnknownRoom => id!("net-err-unknown-room"),
        ErrorCode::RoomFull => id!("net-err-room-full"),
        ErrorCode::OwnRoom => id!("net-err-own-room"),
        ErrorCode::Busy => id!("net-err-busy"),
        ErrorCode::UnknownGame => id!("net-err-unknown-game"),
        ErrorCode::NotAPlayer | ErrorCode::PlayerCannotPropose | ErrorCode::NotWatching => {
            id!("net-err-not-allowed")
        }
        ErrorCode::NotYourTurn | ErrorCode::WrongPly => id!("net-err-turn"),
        ErrorCode::IllegalMove => id!("net-err-illegal"),
        ErrorCode::GameOver => id!("net-err-over"),
        ErrorCode::NoRematch => id!("net-err-no-rematch"),
        ErrorCode::ServerFull => id!("net-err-full"),
        ErrorCode::NoDrawOffer => id!("net-err-no-draw-offer"),
        ErrorCode::DrawAlreadyOffered => id!("net-err-draw-offered"),
        ErrorCode::ChatTooLong => id!("net-err-chat-too-long"),
        ErrorCode::ChatBadText => id!("net-err-chat-bad-text"),
        ErrorCode::NotInGame => id!("net-err-not-in-game"),
        ErrorCode::ChatFull => id!("net-err-chat-full"),
        ErrorCode::CannotMuteSelf => id!("net-err-mute-self"),
        ErrorCode::BadPassword => id!("net-err-password"),
        ErrorCode::BadCredentials => id!("net-err-credentials"),
        ErrorCode::NotClaimed => id!("net-err-not-claimed"),
        ErrorCode::UnknownPlayer => id!("net-err-unknown-player"),
        ErrorCode::TooManyGames => id!("net-err-too-many-games"),
        ErrorCode::TooManyChallenges => id!("net-err-too-many-challenges"),
        ErrorCode::UnknownChallenge => id!("net-err-unknown-challenge"),
        ErrorCode::OwnChallenge => id!("net-err-own-challenge"),
        ErrorCode::UnknownTournament => id!("net-err-unknown-tournament"),
        ErrorCode::AlreadyJoined => id!("net-err-already-joined"),
        ErrorCode::TournamentFull => id!("net-err-tournament-full"),
        ErrorCode::TournamentClosed => id!("net-err-tournament-closed"),
        ErrorCode::TooManyTournaments => id!("net-err-too-many-tournaments"),
        ErrorCode::NotInTournament => id!("net-err-not-in-tournament"),
        ErrorCode::BadTournament => id!("net-err-bad-tournament"),
    }
}

/// How a connection line reads: its colour in the theme's palette.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// Nothing going on.
    Quiet,
    /// Good news.
    Good,
    /// Under way.
    Busy,
    /// Something failed.
    Bad,
}

impl Tone {
    /// The tone's colour in `palette`.
    pub fn color(self, palette: &crate::ui::theme::Palette) -> egui::Color32 {
        match self {
            Tone::Quiet => palette.text_weak,
            Tone::Good => palette.good,
            Tone::Busy => palette.caution,
            Tone::Bad => palette.warn,
        }
    }
}

/// The connection line shown on every online screen, and its tone.
pub fn link_text(lang: Lang, net: &Link) -> (Tone, String) {
    let (ok, busy, bad) = (Tone::Good, Tone::Busy, Tone::Bad);
    let trying =
        matches!(net.phase, LinkState::Connecting | LinkState::Reconnecting(_) | LinkState::Failed(_));
    if trying && !crate::platform::network_available() {
        return (bad, lang.t("net-no-internet").to_string());
    }
    match &net.phase {
        LinkState::Offline => (Tone::Quiet, lang.t("net-offline").to_string()),
        LinkState::Connecting => (busy, lang.fmt("net-connecting", [("server", net.server.as_str().into())])),
        LinkState::SignedIn => (
            ok,
            lang.fmt(
                "net-signed-in",
                [
                    ("server", net.server.as_str().into()),
                    (
                        "nickname",
                        crate::i18n::player_name(lang, net.nickname.as_deref().unwrap_or("?"))
                            .into_owned()
                            .into(),
                    ),
                ],
            ),
        ),
        LinkState::Reconnecting(n) => (
            busy,
            lang.fmt("net-reconnecting", [("server", net.server.as_str().into()), ("attempt", n.into())]),
        ),
        LinkState::Failed(LinkFailure::BadAddress(e)) => {
            (bad, lang.fmt("net-bad-address", [("reason", e.text(lang).into())]))
        }
        LinkState::Failed(LinkFailure::Unreachable(_)) => {
            (bad, lang.fmt("net-unreachable", [("server", net.server.as_str().into())]))
        }
        LinkState::Failed(LinkFailure::Refused(status)) => {
            let server = net.server.as_str();
            let text = match status {
                429 => lang.fmt("net-refused-too-many", [("server", server.into())]),
                503 => lang.fmt("net-refused-busy", [("server", server.into())]),
                _ => lang.fmt("net-refused", [("server", server.into()), ("status", (*status).into())]),
            };
            (bad, text)
        }
        LinkState::Failed(LinkFailure::Incompatible(theirs)) => {
            let ours = ludus_protocol::PROTOCOL_VERSION;
            let id =
                if *theirs > ours { id!("net-incompatible-older") } else { id!("net-incompatible-newer") };
            (bad, lang.text_with(id, [("ours", ours.into()), ("theirs", (*theirs).into())]))
        }
    }
}

/// A screen's header: a back button, the screen's title in the display face, and a rule in the
/// accent's colour under both. Returns whether back was tapped.
pub fn screen_header(ui: &mut egui::Ui, lang: Lang, title: Id) -> bool {
    let back = ui
        .horizontal(|ui| {
            let back = back_button(ui, lang);
            ui.add_space(6.0);
            let color = ui.visuals().strong_text_color();
            ui.label(egui::RichText::new(lang.text(title)).font(crate::ui::display(30.0)).color(color));
            back
        })
        .inner;
    let line = ui.available_rect_before_wrap();
    let accent = ui.visuals().selection.bg_fill;
    ui.painter().hline(line.x_range(), line.top() + 3.0, egui::Stroke::new(1.5, accent.gamma_multiply(0.8)));
    ui.add_space(10.0);
    back
}

/// "Back", with a chevron pointing back drawn before the word. Returns whether it was tapped.
pub fn back_button(ui: &mut egui::Ui, lang: Lang) -> bool {
    let text = format!("     {}", lang.t("menu-back"));
    let response = ui.add_sized([124.0, 44.0], egui::Button::new(text));
    let color = ui.style().interact(&response).fg_stroke.color;
    let tip = egui::pos2(response.rect.left() + 16.0, response.rect.center().y);
    let stroke = egui::Stroke::new(2.5, color);
    ui.painter().line_segment([tip + egui::vec2(7.0, -8.0), tip], stroke);
    ui.painter().line_segment([tip, tip + egui::vec2(7.0, 8.0)], stroke);
    response.on_hover_cursor(egui::CursorIcon::PointingHand).clicked()
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

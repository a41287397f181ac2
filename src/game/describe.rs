//! The game in words, for a player who does not see the board (a screen reader reads them):
//! a square and what stands on it, a move with its captures (every landing of a chain and every
//! piece it took), the whole position, the pieces of one side, the captures that can be played.
//! Every word comes from the Fluent files, in the player's language.

use crate::i18n::Lang;
use ludus_rules::{AnyMove, AnyPosition, Piece, Side, Square, Variant};

/// A side's name ("Red", "Black", "White").
pub fn side_word(lang: Lang, variant: Variant, side: Side) -> &'static str {
    match (variant.is_latrunculi(), side) {
        (true, Side::First) => lang.t("side-red"),
        (false, Side::First) => lang.t("side-white"),
        (_, Side::Second) => lang.t("side-black"),
    }
}

/// A piece with its colour: "red soldier", "black king", "white piece".
pub fn piece_word(lang: Lang, variant: Variant, piece: Piece) -> &'static str {
    match (variant.is_latrunculi(), piece.side, piece.king) {
        (true, Side::First, false) => lang.t("a11y-red-soldier"),
        (true, Side::First, true) => lang.t("a11y-red-king"),
        (true, Side::Second, false) => lang.t("a11y-black-soldier"),
        (true, Side::Second, true) => lang.t("a11y-black-king"),
        (false, Side::First, _) => lang.t("a11y-white-piece"),
        (false, Side::Second, _) => lang.t("a11y-black-piece"),
    }
}

/// A piece without its colour: "soldier", "king", "piece".
fn kind_word(lang: Lang, variant: Variant, piece: Piece) -> &'static str {
    match (variant.is_latrunculi(), piece.king) {
        (true, false) => lang.t("a11y-soldier"),
        (true, true) => lang.t("a11y-king"),
        (false, _) => lang.t("a11y-piece"),
    }
}

/// A square's name on `pos`'s board ("d4").
pub fn square_name(pos: &AnyPosition, sq: Square) -> String {
    sq.name(pos.width())
}

/// A square and what stands on it: "d4, red soldier", "c3, empty".
pub fn square_text(lang: Lang, pos: &AnyPosition, sq: Square) -> String {
    let name = square_name(pos, sq);
    let variant = pos.variant();
    match pos.piece_at(sq) {
        Some(piece) => lang.fmt(
            "a11y-square",
            [("square", name.into()), ("piece", piece_word(lang, variant, piece).into())],
        ),
        None => lang.fmt("a11y-square-empty", [("square", name.into())]),
    }
}

/// Names joined as a list: "a1", "a1 and b2", "a1, b2 and c3".
pub fn list(lang: Lang, names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => {
            lang.fmt("a11y-list", [("items", init.join(", ").into()), ("last", last.clone().into())])
        }
    }
}

/// A move played from `before`: who moved what from where to where (every landing of a chain),
/// and what it captured. "Red moves the soldier from g2 to g5, capturing the black soldier on
/// g6." An illegal move is said as its squares only.
pub fn move_text(lang: Lang, before: &AnyPosition, mv: &AnyMove) -> String {
    let variant = before.variant();
    let side = before.side_to_move();
    let piece = before.piece_at(mv.from()).unwrap_or(Piece { side, king: false });
    let path: Vec<String> = mv.path().into_iter().map(|sq| square_name(before, sq)).collect();
    let path = match path.as_slice() {
        [one] => one.clone(),
        _ => path.join(&format!(", {} ", lang.t("a11y-then"))),
    };
    let captured: Vec<String> = mv
        .captured()
        .into_iter()
        .map(|sq| {
            let what = before.piece_at(sq).map_or("", |p| piece_word(lang, variant, p));
            lang.fmt(
                "a11y-captured-one",
                [("piece", what.into()), ("square", square_name(before, sq).into())],
            )
        })
        .collect();
    let (side, piece) = (side_word(lang, variant, side), kind_word(lang, variant, piece));
    let from = square_name(before, mv.from());
    if captured.is_empty() {
        return lang.fmt(
            "a11y-move",
            [("side", side.into()), ("piece", piece.into()), ("from", from.into()), ("to", path.into())],
        );
    }
    let list = list(lang, &captured);
    if variant.is_latrunculi() {
        lang.fmt(
            "a11y-move-capture",
            [
                ("side", side.into()),
                ("piece", piece.into()),
                ("from", from.into()),
                ("to", path.into()),
                ("list", list.into()),
            ],
        )
    } else {
        lang.fmt(
            "a11y-jump-capture",
            [
                ("side", side.into()),
                ("piece", piece.into()),
                ("from", from.into()),
                ("to", path.into()),
                ("list", list.into()),
            ],
        )
    }
}

/// One side's pieces: "Red: king g2; soldiers a1, b1, c1."
pub fn side_text(lang: Lang, pos: &AnyPosition, side: Side) -> String {
    let variant = pos.variant();
    let pieces = pos.pieces();
    let names = |king: bool| -> Vec<String> {
        pieces
            .iter()
            .filter(|(_, p)| p.side == side && p.king == king)
            .map(|(sq, _)| square_name(pos, *sq))
            .collect()
    };
    let (kings, others) = (names(true), names(false));
    let side_name = side_word(lang, variant, side);
    if kings.is_empty() && others.is_empty() {
        return lang.fmt("a11y-side-none", [("side", side_name.into())]);
    }
    let mut parts = Vec::new();
    if !kings.is_empty() {
        parts.push(lang.fmt("a11y-side-king", [("squares", list(lang, &kings).into())]));
    }
    if !others.is_empty() {
        let (count, squares) = (others.len(), list(lang, &others));
        parts.push(if variant.is_latrunculi() {
            lang.fmt("a11y-side-soldiers", [("count", count.into()), ("squares", squares.into())])
        } else {
            lang.fmt("a11y-side-pieces", [("count", count.into()), ("squares", squares.into())])
        });
    }
    lang.fmt("a11y-side", [("side", side_name.into()), ("pieces", parts.join("; ").into())])
}

/// The whole position: whose turn, then each side's pieces.
pub fn position_text(lang: Lang, pos: &AnyPosition) -> String {
    let variant = pos.variant();
    let turn = lang.fmt("a11y-turn", [("side", side_word(lang, variant, pos.side_to_move()).into())]);
    format!("{turn} {} {}", side_text(lang, pos, Side::First), side_text(lang, pos, Side::Second))
}

/// The captures the side to move can play now, each move named as it is typed with what it
/// takes: "c2xc4 captures c3." (a chain: every piece of it), or "No capture is possible."
pub fn captures_text(lang: Lang, pos: &AnyPosition) -> String {
    let lines: Vec<String> =
        pos.legal_moves()
            .iter()
            .filter(|m| m.is_capture())
            .filter_map(|mv| {
                let taken: Vec<String> = mv.captured().into_iter().map(|sq| square_name(pos, sq)).collect();
                let named = pos.move_to_string(mv)?;
                Some(lang.fmt(
                    "a11y-can-capture",
                    [("move", named.into()), ("squares", list(lang, &taken).into())],
                ))
            })
            .collect();
    if lines.is_empty() { lang.t("a11y-no-capture").to_string() } else { lines.join(" ") }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludus_rules::AnyGame;

    fn every_square(pos: &AnyPosition) -> Vec<Square> {
        (0..pos.width())
            .flat_map(|f| (0..pos.height()).map(move |r| Square::new(f, r, pos.width())))
            .collect()
    }

    #[test]
    fn every_square_of_both_boards_is_named_once_with_what_stands_on_it() {
        for variant in [Variant::Latrunculi, Variant::LatrunculiQuick, Variant::Alquerque] {
            let pos = variant.start();
            for lang in [Lang::En, Lang::Vi] {
                let texts: Vec<String> =
                    every_square(&pos).iter().map(|&sq| square_text(lang, &pos, sq)).collect();
                let names: std::collections::BTreeSet<String> =
                    texts.iter().map(|t| t.split(',').next().unwrap_or_default().to_string()).collect();
                assert_eq!(
                    names.len(),
                    usize::from(pos.width()) * usize::from(pos.height()),
                    "{variant:?} {lang:?}"
                );
                for (sq, text) in every_square(&pos).iter().zip(&texts) {
                    let piece = pos.piece_at(*sq);
                    assert!(text.starts_with(&square_name(&pos, *sq)), "{text}");
                    if let Some(p) = piece {
                        assert!(text.contains(piece_word(lang, variant, p)), "{text}");
                    }
                    assert!(!text.contains("a11y-"), "a missing text: {text}");
                }
            }
        }
        let pos = Variant::Latrunculi.start();
        assert_eq!(square_text(Lang::En, &pos, Square::new(6, 1, 12)), "g2, red king");
        assert_eq!(square_text(Lang::Vi, &pos, Square::new(6, 1, 12)), "g2, vua đỏ");
        assert_eq!(square_text(Lang::En, &pos, Square::new(3, 3, 12)), "d4, empty");
    }

    #[test]
    fn a_chain_capture_says_every_landing_and_every_piece_taken() {
        let pos = AnyPosition::parse(Variant::Alquerque, "BBBBB/1B1B1/BBB1W/WWWWW/WWWWW w").unwrap();
        let mv = pos.parse_move("c2xc4xa4").unwrap();
        let en = move_text(Lang::En, &pos, &mv);
        assert_eq!(
            en,
            "White moves the piece from c2, jumping to c4, then a4, capturing the black piece on c3 and \
             the black piece on b4."
        );
        let vi = move_text(Lang::Vi, &pos, &mv);
        for square in ["c2", "c4", "a4", "c3", "b4"] {
            assert!(vi.contains(square), "{vi}");
        }
    }

    #[test]
    fn a_latrunculi_move_and_the_position_read_aloud() {
        let mut game = AnyGame::new(Variant::LatrunculiQuick);
        let before = game.position();
        let mv = before.parse_move("a1-a6").unwrap();
        assert_eq!(move_text(Lang::En, &before, &mv), "Red moves the soldier from a1 to a6.");
        game.play(&mv).unwrap();
        let text = position_text(Lang::En, &game.position());
        assert!(text.starts_with("Black to move. Red: king on e2; 8 soldiers on b1, c1,"), "{text}");
        assert!(text.contains("h1 and a6. Black:"), "{text}");
        assert!(text.contains("Black: king on d7; 8 soldiers on"), "{text}");
        assert_eq!(captures_text(Lang::En, &game.position()), "No capture is possible.");
        let pos = AnyPosition::parse(Variant::Alquerque, "BBBBB/1B1B1/BBB1W/WWWWW/WWWWW w").unwrap();
        let text = captures_text(Lang::En, &pos);
        let captures: Vec<_> = pos.legal_moves().into_iter().filter(|m| m.is_capture()).collect();
        assert!(!captures.is_empty());
        for mv in &captures {
            let named = pos.move_to_string(mv).unwrap();
            assert!(text.contains(&format!("{named} captures ")), "{named} in {text}");
        }
        assert!(text.contains("c2xc4xa4 captures c3 and b4."), "{text}");
    }

    /// In Latrunculi the move that captures is named, not only the piece: the square it goes to
    /// is what a player needs to play it.
    #[test]
    fn the_captures_of_latrunculi_are_named_as_moves() {
        let mut game = AnyGame::new(Variant::LatrunculiQuick);
        let mut plies = 0;
        while !game.position().legal_moves().iter().any(|m| m.is_capture()) {
            let moves = game.position().legal_moves();
            game.play(&moves[plies * 7 % moves.len()]).unwrap();
            plies += 1;
            assert!(plies < 300, "no capture came");
        }
        let pos = game.position();
        let text = captures_text(Lang::En, &pos);
        for mv in pos.legal_moves().iter().filter(|m| m.is_capture()) {
            let named = pos.move_to_string(mv).unwrap();
            let taken: Vec<String> = mv.captured().into_iter().map(|sq| square_name(&pos, sq)).collect();
            assert!(
                text.contains(&format!("{named} captures {}", list(Lang::En, &taken))),
                "{named} in {text}"
            );
        }
        assert!(captures_text(Lang::Vi, &pos).contains(" ăn quân ở "));
    }
}

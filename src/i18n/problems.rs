//! The rules engine's typed errors in the player's language: a position, a move or a record
//! that cannot be read is described from its [`Problem`], never from the engine's English.

use super::{Lang, Value, id};
use ludus_rules::{Family, ParseError, Problem, RecordError, Side};

/// The name of `side` in a `family`'s games.
fn side(lang: Lang, family: Family, side: Side) -> Value<'static> {
    match (family, side) {
        (Family::Latrunculi, Side::First) => lang.t("side-red"),
        (Family::Alquerque, Side::First) => lang.t("side-white"),
        (_, Side::Second) => lang.t("side-black"),
    }
    .into()
}

/// The letters of the side to move in a family's positions.
fn side_letters(family: Family) -> (&'static str, &'static str) {
    match family {
        Family::Latrunculi => ("r", "b"),
        Family::Alquerque => ("w", "b"),
    }
}

/// What is wrong, in `lang`, with the character where it is when it is known.
pub fn parse_error(lang: Lang, error: &ParseError) -> String {
    let problem = problem(lang, &error.problem);
    match error.column {
        Some(column) => lang.fmt("parse-column", [("problem", problem.into()), ("column", column.into())]),
        None => problem,
    }
}

/// Why a record cannot be read, in `lang`.
pub fn record_error(lang: Lang, error: &RecordError) -> String {
    match error {
        RecordError::Position(e) => {
            lang.fmt("record-bad-position", [("problem", parse_error(lang, e).into())])
        }
        RecordError::Move { ply, error } => lang.fmt(
            "record-bad-move",
            [("ply", (*ply).into()), ("problem", problem(lang, &error.problem).into())],
        ),
        RecordError::MoveAfterEnd { ply } => lang.fmt("record-move-after-end", [("ply", (*ply).into())]),
        RecordError::Ending(_) => lang.t("record-bad-ending").to_string(),
    }
}

/// A [`Problem`] in `lang`.
pub fn problem(lang: Lang, problem: &Problem) -> String {
    use ludus_rules::alquerque::MAX_PIECES;
    use ludus_rules::latrunculi::{MAX_DIM, MAX_SQUARES, MIN_DIM};
    let text = |id, t: &str| lang.text_with(id, [("text", t.to_string().into())]);
    match problem {
        Problem::EmptyPosition => lang.t("parse-empty-position").into(),
        Problem::UnknownGame { text: t } => text(id!("parse-unknown-game"), t),
        Problem::UnexpectedLetter { found, family } => lang.text_with(
            match family {
                Family::Latrunculi => id!("parse-letter-latrunculi"),
                Family::Alquerque => id!("parse-letter-alquerque"),
            },
            [("found", found.to_string().into())],
        ),
        Problem::RunTooLong => lang.t("parse-run-too-long").into(),
        Problem::RunOfZero => lang.t("parse-run-zero").into(),
        Problem::RunLeadingZero { run } => lang.fmt("parse-run-leading-zero", [("run", (*run).into())]),
        Problem::RankTooLong => lang.t("parse-rank-too-long").into(),
        Problem::EmptyRank { rank } => lang.fmt("parse-empty-rank", [("rank", (*rank).into())]),
        Problem::UnevenRank { rank, squares, first } => lang.fmt(
            "parse-uneven-rank",
            [("rank", (*rank).into()), ("squares", (*squares).into()), ("first", (*first).into())],
        ),
        Problem::TooManyRanks => lang.t("parse-too-many-ranks").into(),
        Problem::TooFewRanks => lang.t("parse-too-few-ranks").into(),
        Problem::BoardSize { width, height } => lang.fmt(
            "parse-board-size",
            [
                ("width", (*width).into()),
                ("height", (*height).into()),
                ("min", MIN_DIM.into()),
                ("max", MAX_DIM.into()),
            ],
        ),
        Problem::TooManySquares { width, height } => lang.fmt(
            "parse-too-many-squares",
            [("width", (*width).into()), ("height", (*height).into()), ("max", MAX_SQUARES.into())],
        ),
        Problem::AlquerqueSize { width, height } => {
            lang.fmt("parse-alquerque-size", [("width", (*width).into()), ("height", (*height).into())])
        }
        Problem::TwoKings { side: s, square } => lang.fmt(
            "parse-two-kings",
            [("side", side(lang, Family::Latrunculi, *s)), ("square", square.as_str().into())],
        ),
        Problem::NoKing { side: s } => {
            lang.fmt("parse-no-king", [("side", side(lang, Family::Latrunculi, *s))])
        }
        Problem::TooManyPieces { side: s, count } => lang.fmt(
            "parse-too-many-pieces",
            [
                ("side", side(lang, Family::Alquerque, *s)),
                ("count", (*count).into()),
                ("max", MAX_PIECES.into()),
            ],
        ),
        Problem::MissingSide { family } => {
            let (first, second) = side_letters(*family);
            lang.fmt("parse-missing-side", [("first", first.into()), ("second", second.into())])
        }
        Problem::BadSide { text: t, family } => {
            let (first, second) = side_letters(*family);
            lang.fmt(
                "parse-bad-side",
                [("first", first.into()), ("second", second.into()), ("text", t.as_str().into())],
            )
        }
        Problem::BadClock { text: t } => text(id!("parse-bad-clock"), t),
        Problem::ClockTooLarge { text: t } => text(id!("parse-clock-too-large"), t),
        Problem::Trailing { text: t } => text(id!("parse-trailing"), t),
        Problem::NotAMove { text: t, family: Family::Latrunculi } => {
            text(id!("parse-not-a-move-latrunculi"), t)
        }
        Problem::NotAMove { text: t, family: Family::Alquerque } => {
            text(id!("parse-not-a-move-alquerque"), t)
        }
        Problem::TooManyJumps { text: t } => text(id!("parse-too-many-jumps"), t),
        Problem::NotASquare { text: t, width, height } => lang.fmt(
            "parse-not-a-square",
            [("text", t.as_str().into()), ("width", (*width).into()), ("height", (*height).into())],
        ),
        Problem::NotAPoint { text: t } => text(id!("parse-not-a-point"), t),
        Problem::NoPiece { square } => lang.fmt("parse-no-piece", [("square", square.as_str().into())]),
        Problem::NotYourPiece { square } => {
            lang.fmt("parse-not-your-piece", [("square", square.as_str().into())])
        }
        Problem::NotARookMove { text: t } => text(id!("parse-not-a-rook-move"), t),
        Problem::CaptureCompulsory { text: t } => text(id!("parse-capture-compulsory"), t),
        Problem::CaptureNotFinished { text: t } => text(id!("parse-capture-not-finished"), t),
        Problem::NotAStep { text: t } => text(id!("parse-not-a-step"), t),
        Problem::GameOver => lang.t("parse-game-over").into(),
        Problem::Illegal { notation } => lang.fmt("parse-illegal", [("notation", notation.as_str().into())]),
    }
}

//! Certificates: a proven result written as strategies that [`super::check`] can replay
//! without the search. This file is the format (reading and writing); the strategies are read
//! out of the solver's results by [`super::prove`].
//!
//! # Format (version 1): text lines
//!
//! ```text
//! ludus-alquerque-certificate 1
//! rules no-capture-counter-ignored repetition-is-draw
//! root <position>
//! claim white-wins | black-wins | draw
//! tables <pieces>
//! strategy <white|black> <win|non-losing> <nodes>
//! <position> : <move>
//! <position> = <reply> <reply> ...
//! end
//! checksum <16 hex digits>
//! ```
//!
//! Positions are written in the rules' notation without the counter (`BBBBB/BBBBB/BB1WW/WWWWW/WWWWW
//! w`), moves in the rules' move notation. A strategy of side `S` has one line per position it
//! reaches that is neither over nor covered by the tables: at `S`'s positions `:` and the one
//! move `S` plays, at the opponent's positions `=` and every legal reply. A `win` strategy
//! reaches only positions won by `S` and never comes back to a position on its way (it ends);
//! a `non-losing` one never reaches a position lost by `S` (coming back to a position is a
//! repetition, a draw). A win claim has one `win` strategy of the winner; a draw claim a
//! `non-losing` strategy of each side. `tables` is the largest piece count of the tables the
//! solver used (0: none); the checker needs tables covering the same positions. The checksum is
//! a 64-bit FNV-1a hash of every byte before the `checksum` line, so that a damaged or truncated
//! file is refused before anything else is read.

use super::value::{SolveError, Value, without_counter};
use ludus_rules::alquerque::Position;
use ludus_rules::{GamePosition, Side};
use std::fmt::Write as _;

/// The first line of every certificate of this version.
pub const FIRST_LINE: &str = "ludus-alquerque-certificate 1";
/// The rules line: what the proven values assume.
pub const RULES_LINE: &str = "rules no-capture-counter-ignored repetition-is-draw";

/// What a strategy shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Its side wins: the game ends with its win, without a repetition.
    Win,
    /// Its side never loses.
    NonLosing,
}

impl Kind {
    /// `win` or `non-losing`, as files write it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Win => "win",
            Kind::NonLosing => "non-losing",
        }
    }
}

/// What a strategy holds at one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// The strategy's side is to move: the move it plays.
    Choice(String),
    /// The opponent is to move: every legal reply.
    Replies(Vec<String>),
}

/// One side's strategy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strategy {
    /// The side that follows it.
    pub side: Side,
    /// What it shows.
    pub kind: Kind,
    /// Its positions (counter 0) with their lines, in the order written.
    pub nodes: Vec<(Position, Line)>,
}

/// A certificate (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The position solved (counter 0).
    pub root: Position,
    /// The value claimed.
    pub claim: Value,
    /// The largest piece count of the tables used as leaves (0: none).
    pub tables: u32,
    /// One strategy for a win, two for a draw.
    pub strategies: Vec<Strategy>,
}

/// The strategies a file may hold, one of each side and kind, in the order they are written.
pub const STRATEGIES: [(Side, Kind); 4] = [
    (Side::First, Kind::Win),
    (Side::First, Kind::NonLosing),
    (Side::Second, Kind::Win),
    (Side::Second, Kind::NonLosing),
];

/// The place of `side` and `kind` in [`STRATEGIES`].
pub fn slot(side: Side, kind: Kind) -> usize {
    side.index() * 2 + usize::from(kind == Kind::NonLosing)
}

pub(super) fn side_name(s: Side) -> &'static str {
    if s == Side::First { "white" } else { "black" }
}

/// 64-bit FNV-1a.
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

impl Certificate {
    /// The certificate's text, checksum included.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "{FIRST_LINE}");
        let _ = writeln!(s, "{RULES_LINE}");
        let _ = writeln!(s, "root {}", self.root);
        let _ = writeln!(s, "claim {}", self.claim.name());
        let _ = writeln!(s, "tables {}", self.tables);
        write_strategies(&mut s, &self.strategies);
        seal(s)
    }

    /// Reads a certificate's text; every problem is an error naming the line.
    pub fn parse(text: &str) -> Result<Certificate, SolveError> {
        let mut lines = Lines::open(text, "certificate", FIRST_LINE)?;
        let root = lines.field("root", "the root", "expected 'root <position>'", parse_position)?;
        const CLAIM: &str = "expected 'claim white-wins', 'claim black-wins' or 'claim draw'";
        let claim =
            lines.field("claim", "the claim", CLAIM, |c| Value::parse(c).ok_or_else(|| CLAIM.to_string()))?;
        let tables = lines.tables()?;
        let strategies = lines.strategies()?;
        Ok(Certificate { root, claim, tables, strategies })
    }
}

/// The lines of a certificate or a book's proof after its checksum has been checked, read in
/// order; every problem is an error naming the file's kind and the line.
pub(super) struct Lines<'a> {
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
    what: &'static str,
}

impl<'a> Lines<'a> {
    /// Checks `text`'s checksum, then its first line (`first`) and the rules line.
    pub(super) fn open(text: &'a str, what: &'static str, first: &str) -> Result<Lines<'a>, SolveError> {
        let mut lines = Lines { lines: checked_body(text, what)?.lines().enumerate(), what };
        let (n, l) = lines.next("the first line")?;
        if l != first {
            return Err(lines.bad(n, format!("expected '{first}' (not a {what} of this version)")));
        }
        let (n, l) = lines.next("the rules line")?;
        if l != RULES_LINE {
            return Err(lines.bad(n, format!("expected '{RULES_LINE}'")));
        }
        Ok(lines)
    }

    fn bad(&self, line: usize, e: String) -> SolveError {
        SolveError::File(format!("{} line {line}: {e}", self.what))
    }

    /// The next line and its number; `name` says what was expected if there is none.
    fn next(&mut self, name: &str) -> Result<(usize, &'a str), SolveError> {
        self.lines
            .next()
            .map(|(i, l)| (i + 1, l))
            .ok_or_else(|| SolveError::File(format!("{}: ends before {name}", self.what)))
    }

    /// The next line, `<word> <value>`, its value read by `read`: a line of another word is an
    /// error saying `expected`, a value `read` refuses one with its words. `name` says what was
    /// wanted if the file ends.
    pub(super) fn field<T>(
        &mut self,
        word: &str,
        name: &str,
        expected: &str,
        read: impl FnOnce(&'a str) -> Result<T, String>,
    ) -> Result<T, SolveError> {
        let (n, l) = self.next(name)?;
        let value =
            l.strip_prefix(word).and_then(|r| r.strip_prefix(' ')).ok_or_else(|| expected.to_string());
        value.and_then(read).map_err(|e| self.bad(n, e))
    }

    /// The `tables <pieces>` line.
    pub(super) fn tables(&mut self) -> Result<u32, SolveError> {
        const EXPECTED: &str = "expected 'tables <pieces>'";
        self.field("tables", "the tables line", EXPECTED, |t| t.parse().map_err(|_| EXPECTED.to_string()))
    }

    /// The strategy sections, to the end.
    pub(super) fn strategies(mut self) -> Result<Vec<Strategy>, SolveError> {
        let what = self.what;
        parse_strategies(&mut self.lines.by_ref().map(|(i, l)| (i + 1, l)), what)
    }
}

fn parse_position(s: &str) -> Result<Position, String> {
    Position::parse(s).map(|p| without_counter(&p)).map_err(|e| format!("bad position '{s}': {e}"))
}

/// Appends the strategies' sections (`strategy ...`, their lines, `end`).
pub(super) fn write_strategies(s: &mut String, strategies: &[Strategy]) {
    for st in strategies {
        let _ = writeln!(s, "strategy {} {} {}", side_name(st.side), st.kind.name(), st.nodes.len());
        for (pos, line) in &st.nodes {
            match line {
                Line::Choice(m) => {
                    let _ = writeln!(s, "{pos} : {m}");
                }
                Line::Replies(r) => {
                    let _ = writeln!(s, "{pos} = {}", r.join(" "));
                }
            }
        }
        let _ = writeln!(s, "end");
    }
}

/// Appends the checksum line to a file's text.
pub(super) fn seal(mut s: String) -> String {
    let sum = checksum(s.as_bytes());
    let _ = writeln!(s, "checksum {sum:016x}");
    s
}

/// The text before the last line, once the last line is a checksum of it; `what` names the
/// file in errors.
fn checked_body<'a>(text: &'a str, what: &str) -> Result<&'a str, SolveError> {
    // The checksum line is the last line; everything before it is summed.
    let body_end = text.trim_end_matches('\n').rfind('\n').map_or(0, |i| i + 1);
    let last = text[body_end..].trim_end();
    let Some(sum) = last.strip_prefix("checksum ") else {
        return Err(SolveError::File(format!(
            "{what}: no checksum line at the end (the file is truncated or not a {what})"
        )));
    };
    let sum = u64::from_str_radix(sum.trim(), 16)
        .map_err(|_| SolveError::File(format!("{what}: bad checksum '{sum}'")))?;
    let body = &text[..body_end];
    if checksum(body.as_bytes()) != sum {
        return Err(SolveError::File(format!(
            "{what}: checksum mismatch: the file is damaged or was changed"
        )));
    }
    Ok(body)
}

/// Reads strategy sections up to the end of `lines` (numbered lines of a file whose kind
/// `what` names in errors).
fn parse_strategies<'a>(
    lines: &mut impl Iterator<Item = (usize, &'a str)>,
    what: &str,
) -> Result<Vec<Strategy>, SolveError> {
    let bad = |line: usize, e: String| SolveError::File(format!("{what} line {line}: {e}"));
    let mut strategies = Vec::new();
    while let Some((n, l)) = lines.next() {
        let parts: Vec<&str> = l.split(' ').collect();
        let [word, side, kind, count] = parts[..] else {
            return Err(bad(n, "expected 'strategy <white|black> <win|non-losing> <nodes>'".into()));
        };
        if word != "strategy" {
            return Err(bad(n, "expected 'strategy <white|black> <win|non-losing> <nodes>'".into()));
        }
        let side = match side {
            "white" => Side::First,
            "black" => Side::Second,
            _ => return Err(bad(n, format!("side '{side}' is not white or black"))),
        };
        let kind = match kind {
            "win" => Kind::Win,
            "non-losing" => Kind::NonLosing,
            _ => return Err(bad(n, format!("kind '{kind}' is not win or non-losing"))),
        };
        let count: usize = count.parse().map_err(|_| bad(n, format!("bad node count '{count}'")))?;
        let mut nodes = Vec::with_capacity(count.min(1 << 20));
        loop {
            let Some((n, l)) = lines.next() else {
                return Err(SolveError::File(format!("{what}: a strategy has no 'end' line")));
            };
            if l == "end" {
                break;
            }
            let (pos, line) = if let Some((p, m)) = l.split_once(" : ") {
                (p, Line::Choice(m.trim().to_string()))
            } else if let Some((p, r)) = l.split_once(" = ") {
                (p, Line::Replies(r.split_whitespace().map(str::to_string).collect()))
            } else if let Some(p) = l.strip_suffix(" =") {
                (p, Line::Replies(Vec::new()))
            } else {
                return Err(bad(n, "expected '<position> : <move>' or '<position> = <replies>'".into()));
            };
            nodes.push((parse_position(pos).map_err(|e| bad(n, e))?, line));
        }
        if nodes.len() != count {
            return Err(SolveError::File(format!(
                "{what}: the {} strategy has {} positions, its header says {count}",
                side_name(side),
                nodes.len()
            )));
        }
        strategies.push(Strategy { side, kind, nodes });
    }
    Ok(strategies)
}

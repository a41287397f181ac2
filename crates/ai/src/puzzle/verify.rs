//! The puzzle verifier, independent of the generator: it re-checks a puzzle with the rules and
//! its own searches (deeper than the generator's), or the endgame tables where they cover a
//! position.
//!
//! Checks, in order (the first three never need a search):
//!
//! 1. Structure: the game, position and side to move read and agree; the line has 1 to
//!    [`MAX_STEPS`] player moves and ends with one; the alternatives have one list per player
//!    step (or none); `gain` is set exactly for material puzzles; the rating is in range.
//! 2. Legality: every move of the line is legal in turn and the game is not over before the
//!    last one; every alternative is legal at its step and differs from the line's move.
//! 3. Result and themes: a win ends the game with the player's win for the kind's reason; a
//!    material line wins `gain` pieces net and leaves the opponent no capture; a defence or a
//!    draw line leaves the game going; the themes are those [`themes::compute`] gives.
//! 4. The first move, by the value of every legal move (its position searched
//!    [`Config::depth`]` - 1` plies, in a win at least the plies left - 1, or the tables'
//!    value): a win's move and each alternative
//!    win within the line's plies and no other move wins at all; a material puzzle's move
//!    scores at least [`Config::margin`] more than every move not listed, and each alternative
//!    within [`ALT_TOLERANCE`] of it; a defence's move does not lose and every other move does;
//!    a draw's move holds the draw by the tables and every other move loses.
//! 5. With [`Config::deep`], every later step too (the line's move and its alternatives as
//!    good; in a win, no unlisted move that wins as fast), and every opponent reply: in a win,
//!    every reply still loses within the plies left (so the line's reply is a best defence);
//!    otherwise the line's reply scores within [`REPLY_TOLERANCE`] of the opponent's best.

use super::searches::Searches;
use super::{Kind, MAX_STEPS, Puzzle, PuzzleGame, side_letter, themes};
use crate::score::{WIN, WIN_BOUND};
use crate::tablebase::{Tablebase, Wdl};
use crate::{Level, Limits, Params, Search};
use ludus_rules::repetition::is_threefold;
use ludus_rules::{AnyGame, AnyMove, AnyPosition, Variant};
use std::collections::HashSet;
use std::sync::Arc;

/// An alternative of a material puzzle scores at least the line's move minus this.
pub const ALT_TOLERANCE: i32 = 40;
/// An opponent reply (or a later player move) of a material or defence line scores at least
/// the best minus this.
pub const REPLY_TOLERANCE: i32 = 50;
/// The deep verification's margin for material puzzles (the generator's is
/// [`super::generate::MARGIN`], at a shallower depth).
pub const MARGIN: i32 = 75;
/// The searches' seed (not the generator's).
pub const SEED: u64 = 0x5645_5249_4659;
/// The transposition table's size, in MB.
const TT_MB: usize = 8;
/// The lowest and highest rating accepted.
pub const RATING_RANGE: (u32, u32) = (100, 3500);

/// How thoroughly to verify.
#[derive(Clone)]
pub struct Config {
    /// A move's value is its position searched `depth - 1` plies deep.
    pub depth: u32,
    /// The node limit of every search.
    pub nodes: u64,
    /// Every step and reply of the line too, not only the first move.
    pub deep: bool,
    /// How much better than every unlisted move a material puzzle's first move must score.
    pub margin: i32,
    /// The Alquerque endgame tables, if any (draw puzzles need them).
    pub tablebase: Option<Arc<Tablebase>>,
}

impl Config {
    /// The deep verification: one ply deeper than the generator (12x8: 5, 8x8: 6, Alquerque:
    /// 9), a million nodes a search, every step and reply.
    pub fn deep(variant: Variant) -> Config {
        let depth = match variant {
            Variant::Latrunculi => 5,
            Variant::LatrunculiQuick => 6,
            Variant::Alquerque => 9,
        };
        Config { depth, nodes: 1_000_000, deep: true, margin: MARGIN, tablebase: None }
    }

    /// A quick check for tests: the first move only, shallow (12x8 and 8x8: 3, Alquerque: 6),
    /// 20,000 nodes a search, a margin of half a soldier.
    pub fn fast(variant: Variant) -> Config {
        let depth = if variant == Variant::Alquerque { 6 } else { 3 };
        Config { depth, nodes: 20_000, deep: false, margin: 50, tablebase: None }
    }

    /// With the endgame tables.
    pub fn with_tablebase(mut self, tb: Option<Arc<Tablebase>>) -> Config {
        self.tablebase = tb;
        self
    }
}

/// What is wrong with a puzzle (empty: it passes).
pub fn verify(p: &Puzzle, cfg: &Config) -> Vec<String> {
    let mut v = Verification::with(p, cfg, false);
    loop {
        if let Some(fails) = v.step(1 << 30) {
            return fails;
        }
    }
}

/// A verification run a slice at a time: [`verify`]'s checks, its searches run by
/// [`Verification::step`] (see [`Searches`]), for callers that must never wait long.
pub struct Verification {
    cfg: Config,
    state: State,
}

/// Where a verification is.
enum State {
    /// Finished: the problems found.
    Done(Vec<String>),
    /// The engine's checks of a Latrunculi puzzle.
    Latrunculi(Run<ludus_rules::latrunculi::Position>),
    /// The engine's checks of an Alquerque puzzle.
    Alquerque(Run<ludus_rules::alquerque::Position>),
}

/// The engine's checks (4 and 5) of a puzzle whose structure, moves and result are right.
struct Run<P: PuzzleGame> {
    start: P,
    line: Vec<P::Move>,
    alts: Vec<Vec<P::Move>>,
    kind: Kind,
    searches: Searches<P>,
    params: Params,
}

impl<P: PuzzleGame> Run<P> {
    fn new(start: P, line: Vec<P::Move>, alts: Vec<Vec<P::Move>>, kind: Kind, sliced: bool) -> Run<P> {
        let searches = if sliced { Searches::sliced(TT_MB) } else { Searches::now(TT_MB) };
        Run { start, line, alts, kind, searches, params: Level::Hard.params_fixed() }
    }

    /// Runs the search under way, then the checks again; the problems once they are through.
    fn step(&mut self, cfg: &Config, budget: u64) -> Option<Vec<String>> {
        if !self.searches.step(budget) {
            return None;
        }
        self.searches.replay();
        let mut v = Verifier { cfg, searches: &mut self.searches, params: &self.params, fails: Vec::new() };
        let through = v.check(self.start, &self.line, &self.alts, self.kind).is_some();
        let mut fails = v.fails;
        if !through {
            if self.searches.waiting() {
                return None;
            }
            fails.push("the engine's checks stopped without a search to wait for".to_string());
        }
        Some(fails)
    }
}

impl Verification {
    /// Starts verifying `p` (the checks that need no search are made at once).
    pub fn new(p: &Puzzle, cfg: &Config) -> Verification {
        Verification::with(p, cfg, true)
    }

    fn with(p: &Puzzle, cfg: &Config, sliced: bool) -> Verification {
        let state = match prepare(p, sliced) {
            Ok(state) => state,
            Err(fails) => State::Done(fails),
        };
        Verification { cfg: cfg.clone(), state }
    }

    /// Runs about `budget` nodes of search; the problems found (empty: the puzzle passes)
    /// once the verification is finished.
    pub fn step(&mut self, budget: u64) -> Option<Vec<String>> {
        let fails = match &mut self.state {
            State::Done(fails) => return Some(fails.clone()),
            State::Latrunculi(run) => run.step(&self.cfg, budget)?,
            State::Alquerque(run) => run.step(&self.cfg, budget)?,
        };
        self.state = State::Done(fails.clone());
        Some(fails)
    }
}

/// Checks 1 to 3; the engine's checks to run when they pass.
fn prepare(p: &Puzzle, sliced: bool) -> Result<State, Vec<String>> {
    let mut fails = Vec::new();
    let start = match p.position() {
        Ok(s) => s,
        Err(e) => return Err(vec![e.to_string()]),
    };
    // 1. Structure.
    if p.id.is_empty() {
        fails.push("no id".to_string());
    }
    let standard = p.game.start();
    if (start.width(), start.height()) != (standard.width(), standard.height()) {
        let (w, h) = (start.width(), start.height());
        fails.push(format!("a {w}x{h} board is not {}'s", p.game.name()));
    }
    let side = side_letter(p.game, start.side_to_move());
    if p.side != side {
        fails.push(format!("side '{}' but the position has '{side}' to move", p.side));
    }
    if crate::puzzle::puzzle_fen(&start) != p.fen {
        fails.push(format!("position '{}' is not in canonical form with a counter of 0", p.fen));
    }
    if p.line.is_empty() || p.line.len().is_multiple_of(2) || p.steps() > MAX_STEPS {
        fails.push(format!(
            "the line has {} moves: it needs 1 to {MAX_STEPS} player moves and must end with one",
            p.line.len()
        ));
    }
    if !p.alts.is_empty() && p.alts.len() != p.steps() {
        fails.push(format!("{} lists of alternatives for {} player moves", p.alts.len(), p.steps()));
    }
    if (p.kind == Kind::Material) != (p.gain > 0) {
        fails.push(format!("gain {} does not fit kind {}", p.gain, p.kind.name()));
    }
    if p.kind == Kind::Draw && p.game != Variant::Alquerque {
        fails.push("draw puzzles are Alquerque's (the endgame tables)".to_string());
    }
    if !(RATING_RANGE.0..=RATING_RANGE.1).contains(&p.rating) {
        fails.push(format!("rating {} out of range", p.rating));
    }
    if !fails.is_empty() || p.line.is_empty() {
        return Err(fails);
    }
    // 2. Legality.
    let mut game = AnyGame::from_position(start);
    if game.is_over() {
        return Err(vec!["the game is already over in the start position".to_string()]);
    }
    let mut moves = Vec::new();
    for (i, s) in p.line.iter().enumerate() {
        if game.is_over() {
            return Err(vec![format!("move {} '{s}' comes after the end of the game", i + 1)]);
        }
        match game.position().parse_move(s) {
            Ok(mv) if game.play(&mv).is_ok() => moves.push(mv),
            Ok(_) => return Err(vec![format!("move {} '{s}' cannot be played", i + 1)]),
            Err(e) => return Err(vec![format!("move {} '{s}' is illegal: {e}", i + 1)]),
        }
    }
    let mut alts: Vec<Vec<AnyMove>> = Vec::new();
    for step in 0..p.steps() {
        let pos = game.position_at(2 * step);
        let mut list = Vec::new();
        let mut seen = HashSet::new();
        for s in p.alternatives(step) {
            match pos.parse_move(s) {
                Ok(mv) if mv == moves[2 * step] => {
                    fails.push(format!("alternative '{s}' at step {} is the line's own move", step + 1))
                }
                Ok(mv) if !seen.insert(mv) => {
                    fails.push(format!("alternative '{s}' at step {} twice", step + 1))
                }
                Ok(mv) => list.push(mv),
                Err(e) => fails.push(format!("alternative '{s}' at step {} is illegal: {e}", step + 1)),
            }
        }
        alts.push(list);
    }
    // 3. Result and themes.
    let player = start.side_to_move();
    let end = game.position();
    match (p.kind, game.outcome()) {
        (k, Some(o)) if k.is_win() => {
            if Kind::of_win(o, player) != Some(k) {
                fails.push(format!("the line ends in {o}, not a {}", k.name()));
            }
        }
        (k, None) if k.is_win() => fails.push("the line does not end the game".to_string()),
        (_, Some(o)) => fails.push(format!("the line ends the game ({o})")),
        (Kind::Material, None) => {
            let balance = |pos: &AnyPosition| {
                let m = match pos {
                    AnyPosition::Latrunculi(x) => x.material(),
                    AnyPosition::Alquerque(x) => x.material(),
                };
                m[player.index()] as i32 - m[player.opponent().index()] as i32
            };
            let won = balance(&end) - balance(&start);
            if won < p.gain as i32 {
                fails.push(format!("the line wins {won} pieces, not {}", p.gain));
            }
            if let Some(c) = end.legal_moves().iter().find(|m| m.is_capture()) {
                let name = end.move_to_string(c).unwrap_or_default();
                fails.push(format!("at the end of the line the opponent can capture ({name})"));
            }
        }
        (_, None) => {}
    }
    match themes::compute(p) {
        Ok(t) if t == p.themes => {}
        Ok(t) => fails.push(format!("themes {:?}, computed {:?}", p.themes, t)),
        Err(e) => fails.push(e.to_string()),
    }
    if !fails.is_empty() {
        return Err(fails);
    }
    // 4 and 5. The engine.
    fn lat(m: &AnyMove) -> Option<ludus_rules::latrunculi::Move> {
        if let AnyMove::Latrunculi(m) = m { Some(*m) } else { None }
    }
    fn alq(m: &AnyMove) -> Option<ludus_rules::alquerque::Move> {
        if let AnyMove::Alquerque(m) = m { Some(*m) } else { None }
    }
    match start {
        AnyPosition::Latrunculi(s) => {
            let line: Vec<_> = moves.iter().filter_map(lat).collect();
            let alts: Vec<Vec<_>> = alts.iter().map(|l| l.iter().filter_map(lat).collect()).collect();
            Ok(State::Latrunculi(Run::new(s, line, alts, p.kind, sliced)))
        }
        AnyPosition::Alquerque(s) => {
            let line: Vec<_> = moves.iter().filter_map(alq).collect();
            let alts: Vec<Vec<_>> = alts.iter().map(|l| l.iter().filter_map(alq).collect()).collect();
            Ok(State::Alquerque(Run::new(s, line, alts, p.kind, sliced)))
        }
    }
}

/// Verifies a set: each failure as (puzzle id, reason), duplicate ids included.
pub fn verify_all(
    puzzles: &[Puzzle],
    cfg: &Config,
    mut each: impl FnMut(usize, &Puzzle, &[String]),
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut ids = HashSet::new();
    for (i, p) in puzzles.iter().enumerate() {
        let mut fails = verify(p, cfg);
        if !ids.insert(p.id.clone()) {
            fails.push("duplicate id".to_string());
        }
        each(i, p, &fails);
        out.extend(fails.into_iter().map(|f| (p.id.clone(), f)));
    }
    out
}

struct Verifier<'a, P: PuzzleGame> {
    cfg: &'a Config,
    searches: &'a mut Searches<P>,
    params: &'a Params,
    fails: Vec<String>,
}

/// A move's value for the mover: a win or loss in plies, or centi-soldiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Value(i32);

impl Value {
    fn wins_within(self, plies: usize) -> bool {
        self.0 >= WIN - plies as i32
    }
    fn is_win(self) -> bool {
        self.0 >= WIN_BOUND
    }
    fn is_loss(self) -> bool {
        self.0 <= -WIN_BOUND
    }
    fn loses_within(self, plies: usize) -> bool {
        self.0 <= -WIN + plies as i32
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_win() {
            write!(f, "win in {}", WIN - self.0)
        } else if self.is_loss() {
            write!(f, "loss in {}", WIN + self.0)
        } else {
            write!(f, "{:+.2}", f64::from(self.0) / 100.0)
        }
    }
}

impl<P: PuzzleGame> Verifier<'_, P> {
    fn tb(&self) -> Option<&Arc<Tablebase>> {
        self.cfg.tablebase.as_ref()
    }

    /// The value of every legal move of `line[last]` for its mover; `line` holds the
    /// positions from the puzzle's start.
    /// (`None`: a search is not finished yet.)
    fn values(&mut self, line: &[P], depth: u32) -> Option<Vec<(P::Move, Value)>> {
        let (pos, _) = line.split_last()?;
        pos.legal_moves().into_iter().map(|m| Some((m, self.value(line, &m, depth)?))).collect()
    }

    fn value(&mut self, line: &[P], mv: &P::Move, depth: u32) -> Option<Value> {
        let pos = line[line.len() - 1];
        let child = pos.play_unchecked(mv);
        let mut stack = line.to_vec();
        stack.push(child);
        if let Some(o) = child.rule_outcome(is_threefold(&stack)) {
            return Some(Value(match o.winner {
                Some(w) if w == pos.side_to_move() => WIN - 1,
                Some(_) => -WIN + 1,
                None => 0,
            }));
        }
        if let Some(tb) = self.tb()
            && let Some(probe) = child.tablebase_probe(tb)
            && probe.holds_with_clock(child.clock())
        {
            let d = i32::from(probe.plies_to_end) + 1;
            return Some(Value(match probe.wdl {
                Wdl::Win => -WIN + d,
                Wdl::Loss => WIN - d,
                Wdl::Draw => 0,
            }));
        }
        let limits = Limits {
            depth: Some(depth.saturating_sub(1).max(1)),
            nodes: Some(self.cfg.nodes),
            time_ms: None,
        };
        let (params, tb) = (self.params, self.cfg.tablebase.as_ref());
        let (r, _) = self.searches.search(|tt| {
            let mut s = Search::with_table(child, line, limits, params.clone(), SEED, tt);
            if let Some(tb) = tb {
                s.set_tablebase(tb.clone());
            }
            s
        })?;
        // The child's score is its mover's: a win in n there is a loss in n + 1 here.
        Some(Value(if r >= WIN_BOUND {
            -r + 1
        } else if r <= -WIN_BOUND {
            -r - 1
        } else {
            -r
        }))
    }

    fn name(pos: &P, mv: &P::Move) -> String {
        pos.move_to_string(mv)
    }

    /// (`None`: a search is not finished yet.)
    fn check(&mut self, start: P, line: &[P::Move], alts: &[Vec<P::Move>], kind: Kind) -> Option<()> {
        let mut positions = vec![start];
        for mv in line {
            let last = positions[positions.len() - 1];
            positions.push(last.play_unchecked(mv));
        }
        let plies = line.len();
        let last_step = if self.cfg.deep { plies } else { 1 };
        for i in 0..last_step {
            let path = &positions[..=i];
            let pos = positions[i];
            let left = plies - i;
            // A win is searched at least as deep as the plies left.
            let depth = if kind.is_win() { self.cfg.depth.max(left as u32) } else { self.cfg.depth };
            let vals = self.values(path, depth)?;
            let value_of = |m: &P::Move| vals.iter().find(|(x, _)| x == m).map(|(_, v)| *v);
            let Some(main) = value_of(&line[i]) else { continue };
            if i % 2 == 1 {
                self.check_reply(&pos, &line[i], main, &vals, left, kind, i);
                continue;
            }
            let step = i / 2;
            let listed: Vec<P::Move> = alts.get(step).cloned().unwrap_or_default();
            let at = if step == 0 { "first move".to_string() } else { format!("step {}", step + 1) };
            let mv_name = Self::name(&pos, &line[i]);
            match kind {
                k if k.is_win() => {
                    for m in std::iter::once(&line[i]).chain(&listed) {
                        let v = value_of(m).unwrap_or(Value(-WIN));
                        if !v.wins_within(left) {
                            self.fails.push(format!(
                                "{at}: {} does not win within {left} plies ({v})",
                                Self::name(&pos, m)
                            ));
                        }
                    }
                    for (m, v) in &vals {
                        if *m == line[i] || listed.contains(m) {
                            continue;
                        }
                        if (step == 0 && v.is_win()) || v.wins_within(left) {
                            self.fails.push(format!(
                                "{at}: {} also wins ({v}) and is not listed",
                                Self::name(&pos, m)
                            ));
                        }
                    }
                }
                Kind::Material => {
                    if main.is_loss() || main.is_win() {
                        self.fails.push(format!("{at}: {mv_name} scores {main}, a game end, not material"));
                    }
                    for m in &listed {
                        let v = value_of(m).unwrap_or(Value(-WIN));
                        if v.0 < main.0 - ALT_TOLERANCE {
                            self.fails.push(format!(
                                "{at}: alternative {} scores {v} against {main}",
                                Self::name(&pos, m)
                            ));
                        }
                    }
                    let others = vals.iter().filter(|(m, _)| *m != line[i] && !listed.contains(m));
                    if step == 0 {
                        for (m, v) in others {
                            if v.0 > main.0 - self.cfg.margin {
                                self.fails.push(format!(
                                    "{at}: {} scores {v}, within {} of {mv_name} ({main})",
                                    Self::name(&pos, m),
                                    self.cfg.margin
                                ));
                            }
                        }
                    } else if let Some((m, v)) = others.max_by_key(|(_, v)| *v)
                        && v.0 > main.0 + REPLY_TOLERANCE
                    {
                        self.fails.push(format!(
                            "{at}: {} scores {v}, better than {mv_name} ({main})",
                            Self::name(&pos, m)
                        ));
                    }
                }
                Kind::Defence | Kind::Draw => {
                    let have_tables = self.tb().is_some();
                    let holds =
                        |v: Value| if kind == Kind::Draw { v.0 == 0 && have_tables } else { !v.is_loss() };
                    for m in std::iter::once(&line[i]).chain(&listed) {
                        let v = value_of(m).unwrap_or(Value(-WIN));
                        if !holds(v) {
                            let what = if kind == Kind::Draw {
                                "hold the draw by the tables"
                            } else {
                                "save the game"
                            };
                            self.fails.push(format!("{at}: {} does not {what} ({v})", Self::name(&pos, m)));
                        }
                    }
                    for (m, v) in &vals {
                        if *m != line[i] && !listed.contains(m) && !v.is_loss() {
                            self.fails
                                .push(format!("{at}: {} does not lose either ({v})", Self::name(&pos, m)));
                        }
                    }
                }
                _ => {}
            }
        }
        Some(())
    }

    /// An opponent reply (position `i` of the line).
    #[allow(clippy::too_many_arguments)]
    fn check_reply(
        &mut self,
        pos: &P,
        reply: &P::Move,
        value: Value,
        vals: &[(P::Move, Value)],
        left: usize,
        kind: Kind,
        i: usize,
    ) {
        let at = format!("reply {} ({})", i.div_ceil(2), Self::name(pos, reply));
        if kind.is_win() {
            for (m, v) in vals {
                if !v.loses_within(left) {
                    self.fails.push(format!(
                        "{at}: the reply {} escapes ({v} within {left} plies)",
                        Self::name(pos, m)
                    ));
                }
            }
            return;
        }
        let Some((best_move, best)) = vals.iter().max_by_key(|(_, v)| *v) else { return };
        let worse = if kind == Kind::Draw { value < *best } else { value.0 < best.0 - REPLY_TOLERANCE };
        if worse {
            self.fails.push(format!(
                "{at}: not a best defence ({value}; {} scores {best})",
                Self::name(pos, best_move)
            ));
        }
    }
}

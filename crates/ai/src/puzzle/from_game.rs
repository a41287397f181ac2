//! Puzzles from a finished game: the positions where a person missed a win or a capture worth
//! clearly more than the move played, found by the review of the game ([`crate::review`]),
//! made into puzzles by the generator's own analysis of the position and offered only when the
//! verifier passes them.
//!
//! 1. [`candidates`] reads the review's evaluations: a position is a candidate when a person
//!    (not the computer) was to move, had two legal moves or more, and did not play the
//!    engine's move, and either the engine saw a forced win there ([`Eval::Win`] for the
//!    mover, from the search or the endgame tables) that the move played threw away, or the
//!    engine's move captures and the move played left the mover at least [`MATERIAL_DROP`]
//!    worse.
//! 2. [`Finder`] runs, a slice at a time, the generator's analysis of each candidate's
//!    position (as a puzzle's start: no history, the no-capture counter at 0) with
//!    [`game_generator`]; a forced win or material won becomes a [`Puzzle`] (its id
//!    `game-<move number>`, at the base rating: such puzzles are not rated), then
//!    [`verify::Verification`] checks it with [`game_verifier`] (every step and reply, as for
//!    the puzzles built into the game). Only the puzzles that pass come out, in the order of
//!    the game.

use super::generate::{self, Draft, Engine, Stats, analyze, flipped, puzzle_of};
use super::verify::{self, Verification};
use super::{Kind, Puzzle, PuzzleGame, puzzle_fen};
use crate::review::{DECIDED, Eval, PlyEval};
use ludus_rules::{AnyGame, AnyPosition, Side, Variant, alquerque, latrunculi};
use std::collections::VecDeque;

/// A missed capture counts when the move played left the mover this much worse than the
/// engine's capture (centi-soldiers, in the review's evaluations): a soldier.
pub const MATERIAL_DROP: i32 = generate::MARGIN;
/// The node budget of each search of the analysis and the check.
pub const NODES: u64 = 60_000;

/// What a person missed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Miss {
    /// A forced win.
    Win,
    /// A capture worth clearly more than the move played.
    Material,
}

/// A position of the game where a person missed something.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The position: after this many moves of the game.
    pub ply: usize,
    /// What was missed.
    pub miss: Miss,
}

/// A puzzle made from a position of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamePuzzle {
    /// The position: after this many moves of the game.
    pub ply: usize,
    /// The puzzle.
    pub puzzle: Puzzle,
}

impl GamePuzzle {
    /// The number of the move the player had to find, as a game's moves are counted (each
    /// side's move pairs with the other's: 1, 1, 2, 2, ...).
    pub fn move_number(&self) -> usize {
        self.ply / 2 + 1
    }
}

/// The candidates of `game` (see the module), given whether each side (`[first, second]`) was
/// played by a person and the review's evaluations of each position (before each move, then
/// the final one; `None`: not known). Evaluations missing or of another length give fewer
/// candidates, never an error.
pub fn candidates(game: &AnyGame, people: [bool; 2], evals: &[Option<PlyEval>]) -> Vec<Candidate> {
    let moves = game.moves();
    let mut out = Vec::new();
    for (ply, played) in moves.iter().enumerate() {
        let pos = game.position_at(ply);
        let mover = pos.side_to_move();
        let (Some(Some(before)), Some(Some(after))) = (evals.get(ply), evals.get(ply + 1)) else { continue };
        if !people[mover.index()] || pos.legal_moves().len() < 2 {
            continue;
        }
        let Some(best) = before.best.filter(|b| b != played) else { continue };
        if wins(before.eval, mover) && !wins(after.eval, mover) {
            out.push(Candidate { ply, miss: Miss::Win });
        } else if best.is_capture()
            && before.eval.value_for(mover) > -DECIDED
            && before.eval.value_for(mover) - after.eval.value_for(mover) >= MATERIAL_DROP
        {
            out.push(Candidate { ply, miss: Miss::Material });
        }
    }
    out
}

/// Whether an evaluation is a forced win (or a won game) for `side`.
fn wins(eval: Eval, side: Side) -> bool {
    matches!(eval, Eval::Win { side: s, .. } | Eval::Over(Some(s)) if s == side)
}

/// The generator's settings for a game's positions: its depths for `variant` (the screen as
/// deep as the rest, to see the wins the review saw), [`NODES`] a search, not rated.
pub fn game_generator(variant: Variant) -> generate::Config {
    let mut cfg = generate::Config::new(variant, 1, generate::SEED);
    cfg.screen_depth = cfg.depth;
    cfg.nodes = NODES;
    cfg.rate = false;
    cfg
}

/// The verifier's settings for a game's puzzles: its deep depths for `variant`, every step and
/// reply, [`NODES`] a search.
pub fn game_verifier(variant: Variant) -> verify::Config {
    verify::Config { nodes: NODES, ..verify::Config::deep(variant) }
}

/// The generator's analysis of one position, a slice at a time.
enum Analysis {
    Latrunculi(Engine<latrunculi::Position>, latrunculi::Position, Option<latrunculi::Position>),
    Alquerque(Engine<alquerque::Position>, alquerque::Position),
}

impl Analysis {
    fn new(pos: &AnyPosition, cfg: &generate::Config) -> Analysis {
        match (pos, flipped(pos)) {
            (AnyPosition::Latrunculi(p), Some(AnyPosition::Latrunculi(f))) => {
                Analysis::Latrunculi(Engine::sliced(cfg), *p, Some(f))
            }
            (AnyPosition::Latrunculi(p), _) => Analysis::Latrunculi(Engine::sliced(cfg), *p, None),
            (AnyPosition::Alquerque(p), _) => Analysis::Alquerque(Engine::sliced(cfg), *p),
        }
    }

    /// The draft found, once the analysis is finished (`Some(None)`: no puzzle here).
    fn step(&mut self, cfg: &generate::Config, budget: u64) -> Option<Option<Draft>> {
        fn run<P: PuzzleGame>(
            e: &mut Engine<P>,
            root: &P,
            flipped: Option<P>,
            cfg: &generate::Config,
            budget: u64,
        ) -> Option<Option<Draft>> {
            if !e.step(budget) {
                return None;
            }
            e.replay();
            let draft = analyze(root, flipped, cfg, &mut Stats::default(), e);
            (!e.waiting()).then_some(draft)
        }
        match self {
            Analysis::Latrunculi(e, root, f) => run(e, root, *f, cfg, budget),
            Analysis::Alquerque(e, root) => run(e, root, None, cfg, budget),
        }
    }
}

/// The work on one candidate.
enum Job {
    /// Making the puzzle.
    Make { ply: usize, start: AnyPosition, analysis: Analysis },
    /// Checking it.
    Check { ply: usize, puzzle: Puzzle, check: Verification },
}

/// Makes and checks the puzzles of a game's candidates, a slice at a time (no threads: the
/// caller runs [`Finder::step`] wherever it likes).
pub struct Finder {
    variant: Variant,
    make: generate::Config,
    check: verify::Config,
    /// The candidates not started yet: (ply, position).
    todo: VecDeque<(usize, AnyPosition)>,
    job: Option<Job>,
}

impl Finder {
    /// The puzzles of `game`'s candidates (see [`candidates`]), made with `make` and checked
    /// with `check`.
    pub fn new(
        game: &AnyGame,
        candidates: &[Candidate],
        make: generate::Config,
        check: verify::Config,
    ) -> Finder {
        let todo = candidates.iter().map(|c| (c.ply, game.position_at(c.ply))).collect();
        Finder { variant: game.variant(), make, check, todo, job: None }
    }

    /// With [`game_generator`] and [`game_verifier`] (and the endgame tables, if any).
    pub fn for_game(
        game: &AnyGame,
        candidates: &[Candidate],
        tb: Option<std::sync::Arc<crate::Tablebase>>,
    ) -> Finder {
        let v = game.variant();
        let make = generate::Config { tablebase: tb.clone(), ..game_generator(v) };
        Finder::new(game, candidates, make, game_verifier(v).with_tablebase(tb))
    }

    /// Whether every candidate has been looked at.
    pub fn is_done(&self) -> bool {
        self.job.is_none() && self.todo.is_empty()
    }

    /// Runs about `budget` nodes of search; a puzzle when one has passed the check.
    pub fn step(&mut self, budget: u64) -> Option<GamePuzzle> {
        match self.job.take() {
            None => {
                let (ply, pos) = self.todo.pop_front()?;
                // The puzzle's start: no history, the counter at 0.
                let start = AnyPosition::parse(self.variant, &puzzle_fen(&pos)).ok()?;
                if AnyGame::from_position(start).is_over() {
                    return None;
                }
                let analysis = Analysis::new(&start, &self.make);
                self.job = Some(Job::Make { ply, start, analysis });
                None
            }
            Some(Job::Make { ply, start, mut analysis }) => match analysis.step(&self.make, budget) {
                None => {
                    self.job = Some(Job::Make { ply, start, analysis });
                    None
                }
                Some(Some(draft)) if draft.kind.is_win() || draft.kind == Kind::Material => {
                    let id = format!("game-{}", ply / 2 + 1);
                    let puzzle = puzzle_of(id, self.variant, start, puzzle_fen(&start), draft, false)?;
                    let check = Verification::new(&puzzle, &self.check);
                    self.job = Some(Job::Check { ply, puzzle, check });
                    None
                }
                Some(_) => None,
            },
            Some(Job::Check { ply, puzzle, mut check }) => match check.step(budget) {
                None => {
                    self.job = Some(Job::Check { ply, puzzle, check });
                    None
                }
                Some(fails) if fails.is_empty() => Some(GamePuzzle { ply, puzzle }),
                Some(_) => None,
            },
        }
    }

    /// Runs to the end: every puzzle that passes.
    pub fn run_to_end(mut self) -> Vec<GamePuzzle> {
        let mut out = Vec::new();
        while !self.is_done() {
            out.extend(self.step(1 << 30));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::Analyser;

    /// The review's evaluations of every position of `game`.
    fn review(game: &AnyGame) -> Vec<Option<PlyEval>> {
        let mut a = Analyser::with_nodes(game, 20_000);
        let mut evals = vec![None; game.ply() + 1];
        while !a.is_done() {
            if let Some((ply, e)) = a.step(5_000) {
                evals[ply] = Some(e);
            }
        }
        evals
    }

    fn game(variant: Variant, fen: &str, moves: &[&str]) -> AnyGame {
        let mut g = AnyGame::from_position(AnyPosition::parse(variant, fen).unwrap());
        for m in moves {
            g.play_str(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        g
    }

    /// The 8x8 game of `moves` from `fen`, Black played by a person, and its candidates.
    fn black_missed(fen: &str, moves: &[&str]) -> (AnyGame, Vec<Candidate>) {
        let g = game(Variant::LatrunculiQuick, fen, moves);
        let found = candidates(&g, [false, true], &review(&g));
        (g, found)
    }

    /// Black to move takes Red's last soldier with f2-f6 (the red king is left alone).
    const WIN: &str = "b7/8/6rb/7b/1b5b/B2b4/3R1b2/b7 b";

    #[test]
    fn a_missed_win_gives_a_puzzle_that_starts_with_the_winning_move() {
        let g = game(Variant::LatrunculiQuick, WIN, &["a3-a2", "g6-g7"]);
        let evals = review(&g);
        let found = candidates(&g, [false, true], &evals);
        assert_eq!(found, vec![Candidate { ply: 0, miss: Miss::Win }], "{evals:?}");
        // Nobody missed anything on the computer's side.
        assert!(candidates(&g, [false, false], &evals).is_empty());
        let puzzles = Finder::for_game(&g, &found, None).run_to_end();
        assert_eq!(puzzles.len(), 1);
        let p = &puzzles[0];
        assert_eq!((p.ply, p.move_number(), p.puzzle.id.as_str()), (0, 1, "game-1"));
        assert_eq!(p.puzzle.line, ["f2-f6"]);
        assert_eq!(p.puzzle.kind, Kind::WinPieces);
        assert!(verify::verify(&p.puzzle, &game_verifier(Variant::LatrunculiQuick)).is_empty());
    }

    #[test]
    fn a_game_without_a_miss_gives_nothing() {
        let g = game(Variant::LatrunculiQuick, WIN, &["f2-f6"]);
        let evals = review(&g);
        assert!(candidates(&g, [true, true], &evals).is_empty());
        // Nor do missing or short evaluations, or none at all.
        let g = game(Variant::LatrunculiQuick, WIN, &["a3-a2", "g6-g7"]);
        assert!(candidates(&g, [true, true], &[]).is_empty());
        assert!(candidates(&g, [true, true], &evals[..1]).is_empty());
        assert!(candidates(&g, [true, true], &[None, None, None]).is_empty());
        assert!(Finder::for_game(&g, &[], None).run_to_end().is_empty());
    }

    #[test]
    fn a_missed_sandwich_capture_gives_a_material_puzzle() {
        // Black: b5-b3 sandwiches the red soldiers on c3 (against d3) and b2 (against b1) at
        // once; Black moved that soldier away instead.
        let (g, found) = black_missed("R7/8/8/1b6/8/2rb4/1r6/1b4rB b", &["b5-a5", "g1-f1"]);
        assert_eq!(found.first().map(|c| c.ply), Some(0));
        let puzzles = Finder::for_game(&g, &found[..1], None).run_to_end();
        assert_eq!(puzzles.len(), 1);
        for p in &puzzles {
            assert_eq!(p.puzzle.kind, Kind::Material);
            assert_eq!(p.puzzle.line[0], "b5-b3");
            assert!(p.puzzle.themes.contains(&crate::puzzle::Theme::Sandwich));
        }
    }

    #[test]
    fn a_second_winning_first_move_is_an_alternative_or_the_puzzle_is_refused() {
        // Black wins with c1-c4 or a3-d3: either sandwiches Red's last soldier on d4.
        let fen = "R7/8/8/3b4/3rb3/b7/8/2b4B b";
        let (g, found) = black_missed(fen, &["h1-h2", "a8-a7"]);
        assert_eq!(found, vec![Candidate { ply: 0, miss: Miss::Win }]);
        let cfg = game_verifier(Variant::LatrunculiQuick);
        let make = game_generator(Variant::LatrunculiQuick);
        let puzzles = Finder::new(&g, &found, make, cfg.clone()).run_to_end();
        assert_eq!(puzzles.len(), 1);
        for p in &puzzles {
            let mut firsts: Vec<&str> = std::iter::once(p.puzzle.line[0].as_str())
                .chain(p.puzzle.alternatives(0).iter().map(String::as_str))
                .collect();
            firsts.sort_unstable();
            assert_eq!(firsts, ["a3-d3", "c1-c4"]);
            // Without the alternative, the verifier refuses it.
            let alone = Puzzle { alts: Vec::new(), ..p.puzzle.clone() };
            assert!(!verify::verify(&alone, &cfg).is_empty());
        }
        // A puzzle that lists one winning move only never passes.
        let mut one = Puzzle {
            id: "game-1".into(),
            game: Variant::LatrunculiQuick,
            fen: fen.into(),
            side: "b".into(),
            line: vec!["c1-c4".into()],
            alts: Vec::new(),
            kind: Kind::WinPieces,
            gain: 0,
            themes: Vec::new(),
            rating: crate::puzzle::rating::BASE,
        };
        one.themes = crate::puzzle::themes::compute(&one).unwrap();
        let fails = verify::verify(&one, &cfg);
        assert!(fails.iter().any(|f| f.contains("a3-d3")), "{fails:?}");
        // The sliced verification says the same as the one straight through.
        let mut sliced = Verification::new(&one, &cfg);
        let sliced_fails = loop {
            if let Some(f) = sliced.step(500) {
                break f;
            }
        };
        assert_eq!(sliced_fails, fails);
    }
}

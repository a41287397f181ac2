//! Tactics with a known answer, solved by Medium and Hard at fixed depths (so that nothing
//! depends on the machine's speed), and the levels' promises about captures.

use ludus_ai::level::Rng;
use ludus_ai::{AnySearch, Level, Limits};
use ludus_rules::{AnyGame, AnyPosition, GamePosition, Side, Variant, alquerque, latrunculi};

fn game(variant: Variant, pos: &str) -> AnyGame {
    AnyGame::from_position(AnyPosition::parse(variant, pos).unwrap())
}

/// The move `level` plays, in notation, searching `depth` plies.
fn play(variant: Variant, pos: &str, level: Level, depth: u32) -> String {
    let g = game(variant, pos);
    let mut s = AnySearch::new(&g, level, Limits::depth(depth), 1);
    let mv = s.run_to_end().expect("a move");
    g.position().move_to_string(&mv).unwrap()
}

fn solved_by(variant: Variant, pos: &str, answers: &[&str], levels: &[(Level, u32)]) {
    for &(level, depth) in levels {
        let mv = play(variant, pos, level, depth);
        assert!(
            answers.contains(&mv.as_str()),
            "{level} at depth {depth} plays {mv} in {pos}; expected one of {answers:?}"
        );
    }
}

/// Whether the side to move can force a win within `plies` plies (odd), by the rules alone.
fn forced_win<P: GamePosition>(pos: &P, plies: u32) -> bool {
    let me = pos.side_to_move();
    pos.legal_moves().iter().any(|m| {
        let c = pos.play_unchecked(m);
        match c.rule_outcome(false) {
            Some(o) => o.winner == Some(me),
            None if plies < 3 => false,
            None => c.legal_moves().iter().all(|r| {
                let g = c.play_unchecked(r);
                match g.rule_outcome(false) {
                    Some(o) => o.winner == Some(me),
                    None => forced_win(&g, plies - 2),
                }
            }),
        }
    })
}

const BOTH: [(Level, u32); 2] = [(Level::Medium, 2), (Level::Hard, 4)];

#[test]
fn latrunculi_king_immobilised_in_one() {
    // Black's king in the corner, its own soldier on b8: a1-a7 takes its last free side.
    let pos = "Bb6/8/8/8/8/8/8/r3R2b r";
    let p = latrunculi::Position::parse(pos).unwrap();
    assert!(forced_win(&p, 1));
    solved_by(Variant::LatrunculiQuick, pos, &["a1-a7"], &BOTH);
    // The same on the standard board, with more around.
    let pos = "Bb10/12/4b7/12/12/3b8/6R5/r4rr5 r";
    solved_by(Variant::Latrunculi, pos, &["a1-a7"], &BOTH);
}

#[test]
fn latrunculi_king_immobilised_in_two() {
    // Found by brute force: Red wins in three plies whatever Black does, not in one.
    for (pos, answers) in [
        ("1b5b/4b3/8/3r4/8/7b/5rR1/b1r1r2B r", &["e1-g1"][..]),
        ("7R/8/5b2/b7/1r6/5r2/6rr/r1r3B1 r", &["c1-f1", "f3-f1"][..]),
        ("8/8/3r4/8/2r5/R7/1r1r3b/B1br4 r", &["a3-a2"][..]),
        ("8/8/3r1r1b/8/r5b1/2R2b1b/1rb5/B1rr4 r", &["a4-a2"][..]),
        ("8/8/8/6b1/8/rb3r2/1R6/B2r4 r", &["d1-b1"][..]),
        ("7B/3rrrbr/8/3b4/b7/2r5/b4Rr1/2b1b3 r", &["f7-f8"][..]),
    ] {
        let p = latrunculi::Position::parse(pos).unwrap();
        assert!(!forced_win(&p, 1) && forced_win(&p, 3), "{pos}");
        solved_by(Variant::LatrunculiQuick, pos, answers, &BOTH);
    }
}

#[test]
fn latrunculi_triple_sandwich() {
    // d1-d4 sandwiches d5, c4 and e4 at once.
    let pos = "B5bb/8/3r4/3b4/1rb1br2/8/8/3r3R r";
    let g = game(Variant::LatrunculiQuick, pos);
    let mv = g.position().parse_move("d1-d4").unwrap();
    assert_eq!(mv.captured().len(), 3);
    solved_by(Variant::LatrunculiQuick, pos, &["d1-d4"], &BOTH);
}

#[test]
fn alquerque_chain_that_wins() {
    // a1xc3xe5 takes both black pieces; c1xa3 only one.
    let pos = "5/3B1/5/1B3/W1W2 w";
    solved_by(Variant::Alquerque, pos, &["a1xc3xe5"], &BOTH);
    // A longer chain is worth more than the short one next to it.
    let pos = "3B1/2B2/5/1B2B/W3W w";
    let g = game(Variant::Alquerque, pos);
    let best = g
        .legal_moves()
        .into_iter()
        .map(|m| (m.captured().len(), g.position().move_to_string(&m).unwrap()))
        .max()
        .unwrap();
    assert!(best.0 >= 3, "{best:?}");
    for (level, depth) in BOTH {
        let mv = play(Variant::Alquerque, pos, level, depth);
        let m = g.position().parse_move(&mv).unwrap();
        assert_eq!(m.captured().len(), best.0, "{level} plays {mv}");
    }
}

#[test]
fn alquerque_sacrifice_that_wins_material() {
    // Found by brute force: a quiet move offers a piece; the compulsory capture that follows
    // lets White take more back. Only that move wins material.
    for (pos, answer) in [
        ("W4/1WBW1/2B2/1BBWB/3BB w", "d4-c5"),
        ("4W/B4/1B3/WBW2/4W w", "e5-d5"),
        ("3B1/1W3/2W1W/B1WW1/1WWBW w", "b4-c4"),
        ("1W1WW/1B3/1W1B1/BW3/2WWB w", "b5-a5"),
    ] {
        solved_by(Variant::Alquerque, pos, &[answer], &[(Level::Hard, 6)]);
    }
}

#[test]
fn alquerque_trap_is_avoided() {
    // White must not step into a double jump: a3-b3 would let c4 (or b4) take twice.
    for (pos, level, depth) in
        [("5/1BB2/W4/1W3/5 w", Level::Medium, 2), ("5/1BB2/W4/1W3/5 w", Level::Hard, 6)]
    {
        let g = game(Variant::Alquerque, pos);
        let AnyPosition::Alquerque(p) = g.position() else { unreachable!() };
        let mv = play(Variant::Alquerque, pos, level, depth);
        let m = p.parse_move(&mv).unwrap();
        let after = p.play_unchecked(&m);
        let worst = material_after(&after, 1, Side::First);
        let best = p
            .legal_moves()
            .iter()
            .map(|m| material_after(&p.play_unchecked(m), 1, Side::First))
            .max()
            .unwrap();
        assert_eq!(worst, best, "{level} plays {mv}, which loses material");
    }
}

/// The material balance for `me` that the side to move can force in `plies` plies, captures
/// (compulsory in Alquerque) followed to the end.
fn material_after<P: GamePosition + Material>(pos: &P, plies: u32, me: Side) -> i32 {
    let moves = pos.legal_moves();
    let m = pos.count();
    let bal = m[me.index()] as i32 - m[1 - me.index()] as i32;
    let forcing = P::FORCED_CAPTURES && moves.first().is_some_and(P::is_capture);
    if moves.is_empty() || (plies == 0 && !forcing) {
        return bal;
    }
    let vals = moves.iter().map(|mv| material_after(&pos.play_unchecked(mv), plies.saturating_sub(1), me));
    if pos.side_to_move() == me { vals.max().unwrap() } else { vals.min().unwrap() }
}

trait Material {
    const FORCED_CAPTURES: bool;
    fn count(&self) -> [u32; 2];
    /// Whether the position is about material only (no king in any danger).
    fn plain(&self) -> bool {
        true
    }
    fn any(self) -> AnyPosition;
}

impl Material for latrunculi::Position {
    const FORCED_CAPTURES: bool = false;
    fn count(&self) -> [u32; 2] {
        self.material()
    }
    fn any(self) -> AnyPosition {
        AnyPosition::Latrunculi(self)
    }
    fn plain(&self) -> bool {
        self.king_liberties(Side::First) >= 3 && self.king_liberties(Side::Second) >= 3
    }
}

impl Material for alquerque::Position {
    const FORCED_CAPTURES: bool = true;
    fn count(&self) -> [u32; 2] {
        self.material()
    }
    fn any(self) -> AnyPosition {
        AnyPosition::Alquerque(self)
    }
}

fn random_latrunculi(rng: &mut Rng) -> Option<latrunculi::Position> {
    let mut board = vec![None; 64];
    let mut put = |piece: char, rng: &mut Rng| loop {
        let i = rng.below(64) as usize;
        if board[i].is_none() {
            board[i] = Some(piece);
            break;
        }
    };
    put('R', rng);
    put('B', rng);
    for _ in 0..3 + rng.below(6) {
        put('r', rng);
    }
    for _ in 0..3 + rng.below(6) {
        put('b', rng);
    }
    let s = board_string(&board, 8, if rng.below(2) == 0 { "r" } else { "b" });
    let p = latrunculi::Position::parse(&s).ok()?;
    p.outcome(false).is_none().then_some(p)
}

fn random_alquerque(rng: &mut Rng) -> Option<alquerque::Position> {
    let mut board = vec![None; 25];
    for (piece, n) in [('W', 3 + rng.below(7)), ('B', 3 + rng.below(7))] {
        let mut k = 0;
        while k < n {
            let i = rng.below(25) as usize;
            if board[i].is_none() {
                board[i] = Some(piece);
                k += 1;
            }
        }
    }
    let s = board_string(&board, 5, if rng.below(2) == 0 { "w" } else { "b" });
    let p = alquerque::Position::parse(&s).ok()?;
    p.outcome(false).is_none().then_some(p)
}

fn board_string(board: &[Option<char>], width: usize, side: &str) -> String {
    let height = board.len() / width;
    let mut s = String::new();
    for rank in (0..height).rev() {
        let mut run = 0;
        for file in 0..width {
            match board[rank * width + file] {
                None => run += 1,
                Some(c) => {
                    if run > 0 {
                        s.push_str(&run.to_string());
                        run = 0;
                    }
                    s.push(c);
                }
            }
        }
        if run > 0 {
            s.push_str(&run.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s.push(' ');
    s.push_str(side);
    s
}

/// In positions where a capture wins material safely (still ahead `1 + plies` plies later
/// whatever the opponent does, captures followed to the end), Medium's move wins as much.
fn check_safe_captures<P>(positions: Vec<P>, variant: Variant, plies: u32, min_cases: usize)
where
    P: GamePosition + Material,
{
    let mut cases = 0;
    for p in positions {
        let me = p.side_to_move();
        let m = p.count();
        let now = m[me.index()] as i32 - m[1 - me.index()] as i32;
        let moves = p.legal_moves();
        if !p.plain() || moves.iter().any(|mv| p.play_unchecked(mv).rule_outcome(false).is_some()) {
            continue;
        }
        let best = moves
            .iter()
            .filter(|mv| P::is_capture(mv))
            .map(|mv| material_after(&p.play_unchecked(mv), plies, me))
            .max();
        let Some(best) = best.filter(|&b| b > now) else {
            continue;
        };
        cases += 1;
        let g = AnyGame::from_position(p.any());
        let mut search = AnySearch::new(&g, Level::Medium, Limits::NONE, 3);
        let mv = search.run_to_end().unwrap();
        if matches!(search.info().score, ludus_ai::Score::WinIn(_)) {
            // A forced win is worth more than any material.
            continue;
        }
        let idx = g.legal_moves().iter().position(|x| *x == mv).unwrap();
        let got = material_after(&p.play_unchecked(&moves[idx]), plies, me);
        assert!(
            got >= best,
            "{variant}: Medium plays {} (gain {}) in {}; a capture gains {}",
            g.position().move_to_string(&mv).unwrap(),
            got - now,
            g.position(),
            best - now
        );
    }
    assert!(cases >= min_cases, "only {cases} cases");
}

#[test]
fn medium_takes_safe_captures() {
    let mut rng = Rng::new(2024);
    let lat: Vec<latrunculi::Position> = (0..100).filter_map(|_| random_latrunculi(&mut rng)).collect();
    // Four plies: a capture that a two-move threat wins back is not safe.
    check_safe_captures(lat, Variant::LatrunculiQuick, 3, 10);
    let alq: Vec<alquerque::Position> = (0..200).filter_map(|_| random_alquerque(&mut rng)).collect();
    // Captures are compulsory, so Medium always captures; among the captures it takes the one
    // that wins most once the forced recaptures (whole chains, both sides) are over.
    check_safe_captures(alq, Variant::Alquerque, 0, 20);
}

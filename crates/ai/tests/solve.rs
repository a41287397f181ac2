//! The Alquerque solver against the endgame tables, its certificates against the checker, and
//! a stopped-and-resumed run.

use ludus_ai::solve::certificate::{self, Certificate, Line};
use ludus_ai::solve::check::{check, check_text};
use ludus_ai::solve::prove;
use ludus_ai::solve::{SolveStatus, SolvedTable, Solver, Value};
use ludus_ai::tablebase::{self, Tablebase, Wdl};
use ludus_rules::alquerque::{FULL, Position};
use ludus_rules::{GamePosition, Side};
use std::sync::{Arc, OnceLock};

fn tables(n: u32) -> Arc<Tablebase> {
    static TB: [OnceLock<Arc<Tablebase>>; 6] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    TB[n as usize].get_or_init(|| Arc::new(tablebase::generate(n, None, |_| {}).expect("generation"))).clone()
}

/// The table's value of `pos` as a solver value.
fn table_value(tb: &Tablebase, pos: &Position) -> Value {
    let p = tb.probe(pos).expect("covered");
    let side = pos.side_to_move();
    Value::from_winner(match p.wdl {
        Wdl::Win => Some(side),
        Wdl::Loss => Some(side.opponent()),
        Wdl::Draw => None,
    })
}

/// Positions with `white` and `black` pieces, picked by a fixed pseudo-random sequence, neither
/// over nor with a capture on (so that the solver has some searching to do).
fn sample(white: u32, black: u32, count: usize, seed: u64) -> Vec<Position> {
    let mut state = seed;
    let mut next = move || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 33) as u32
    };
    let mut out = Vec::new();
    while out.len() < count {
        let mut pick = |n: u32, taken: u32| {
            let mut set = 0u32;
            while set.count_ones() < n {
                let p = next() % 25;
                if (taken | set) & (1 << p) == 0 {
                    set |= 1 << p;
                }
            }
            set
        };
        let w = pick(white, 0);
        let b = pick(black, w);
        let side = if next() % 2 == 0 { Side::First } else { Side::Second };
        let pos = Position::from_bitboards(w, b, side, 0).expect("valid");
        if pos.outcome(false).is_none() && !pos.can_capture(side) {
            out.push(pos);
        }
    }
    debug_assert!(out.iter().all(|p| (p.pieces(Side::First) | p.pieces(Side::Second)) & !FULL == 0));
    out
}

fn solve(pos: &Position, tb: Arc<Tablebase>, table: SolvedTable) -> (Value, SolvedTable) {
    let mut solver = Solver::new(pos, Some(tb), table, 1 << 22);
    loop {
        match solver.step(1_000_000).expect("no table error") {
            SolveStatus::Solved(v) => return (v, solver.into_table()),
            SolveStatus::Running => {}
            SolveStatus::Full => panic!("the graph is full on {pos}"),
        }
    }
}

#[test]
fn four_pieces_with_three_piece_tables_match_the_four_piece_tables() {
    let (small, full) = (tables(3), tables(4));
    let mut table = SolvedTable::new();
    let mut seen = [0usize; 3];
    for (w, b, seed) in [(2, 2, 1), (1, 3, 2), (3, 1, 3)] {
        for pos in sample(w, b, 12, seed) {
            let (v, t) = solve(&pos, small.clone(), table);
            table = t;
            assert_eq!(v, table_value(&full, &pos), "{pos}");
            seen[match v {
                Value::WhiteWins => 0,
                Value::BlackWins => 1,
                Value::Draw => 2,
            }] += 1;
        }
    }
    // The sample has wins for both sides and draws.
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
}

#[test]
fn five_pieces_with_four_piece_tables_match_the_five_piece_tables() {
    let (small, full) = (tables(4), tables(5));
    let mut table = SolvedTable::new();
    for (w, b, seed) in [(3, 2, 11), (2, 3, 12), (4, 1, 13)] {
        for pos in sample(w, b, 4, seed) {
            let (v, t) = solve(&pos, small.clone(), table);
            table = t;
            assert_eq!(v, table_value(&full, &pos), "{pos}");
        }
    }
}

/// A solved position with its certificate (found among the sample: a win or a draw), whose
/// first strategy has a choice and a position with two replies or more.
fn certified(want_draw: bool) -> (Certificate, Arc<Tablebase>) {
    let tb = tables(3);
    let (w, b) = if want_draw { (2, 2) } else { (3, 1) };
    for pos in sample(w, b, 60, 21) {
        let (v, table) = solve(&pos, tb.clone(), SolvedTable::new());
        if (v == Value::Draw) == want_draw {
            let cert = prove::extract(&pos, v, &table, Some(&tb)).expect("a whole strategy");
            let nodes = &cert.strategies[0].nodes;
            let choice = nodes.iter().any(|(_, l)| matches!(l, Line::Choice(_)));
            let replies = nodes.iter().any(|(_, l)| matches!(l, Line::Replies(r) if r.len() >= 2));
            if choice && replies && nodes.len() >= 4 {
                return (cert, tb);
            }
        }
    }
    panic!("no suitable position in the sample");
}

#[test]
fn the_checker_accepts_genuine_certificates() {
    for want_draw in [false, true] {
        let (cert, tb) = certified(want_draw);
        let text = cert.to_text();
        let report = check_text(&text, Some(&tb)).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(report.claim, Some(cert.claim));
        assert!(report.positions >= 3);
        assert_eq!(Certificate::parse(&text).unwrap(), cert);
    }
}

#[test]
fn the_checker_refuses_corrupted_certificates() {
    for want_draw in [false, true] {
        let (cert, tb) = certified(want_draw);
        let text = cert.to_text();
        // A damaged file: the checksum catches it; a truncated one has no checksum line.
        let damaged = text.replacen(" : ", " :  ", 1);
        assert!(check_text(&damaged, Some(&tb)).unwrap_err().to_string().contains("checksum"));
        let truncated = &text[..text.len() / 2];
        assert!(check_text(truncated, Some(&tb)).is_err());
        assert!(check_text("", Some(&tb)).is_err());
        // Forged certificates with a valid checksum: a changed move, a missing reply, a missing
        // position, a wrong claim.
        let st = &cert.strategies[0];
        let (ci, cpos) = st
            .nodes
            .iter()
            .enumerate()
            .find_map(|(i, (p, l))| matches!(l, Line::Choice(_)).then_some((i, *p)))
            .expect("a choice");
        let legal = cpos.legal_moves();
        let Line::Choice(chosen) = &st.nodes[ci].1 else { unreachable!() };
        let mut changed = cert.clone();
        let other = legal.iter().map(|m| cpos.move_to_string(m)).find(|m| m != chosen);
        changed.strategies[0].nodes[ci].1 = Line::Choice(other.unwrap_or_else(|| "a1-a2".to_string()));
        let e = check(&changed, Some(&tb)).expect_err("a changed move");
        assert!(check_text(&changed.to_text(), Some(&tb)).is_err());
        println!("changed move: {e}");
        let mut bogus = cert.clone();
        bogus.strategies[0].nodes[ci].1 = Line::Choice("e5xa1".to_string());
        let e = check(&bogus, Some(&tb)).expect_err("an illegal move");
        assert!(e.to_string().contains(&cpos.to_string()), "{e}");
        let (ri, rpos) = st
            .nodes
            .iter()
            .enumerate()
            .find_map(|(i, (p, l))| matches!(l, Line::Replies(r) if r.len() >= 2).then_some((i, *p)))
            .expect("a position with two replies");
        let mut missing = cert.clone();
        if let Line::Replies(r) = &mut missing.strategies[0].nodes[ri].1 {
            r.pop();
        }
        let e = check(&missing, Some(&tb)).expect_err("a missing reply");
        assert!(e.to_string().contains("missing") && e.to_string().contains(&rpos.to_string()), "{e}");
        let mut gone = cert.clone();
        gone.strategies[0].nodes.remove(ri);
        let e = check(&gone, Some(&tb)).expect_err("a missing position");
        assert!(e.to_string().contains(&rpos.to_string()), "{e}");
        let mut claim = cert.clone();
        claim.claim = if want_draw { Value::WhiteWins } else { Value::Draw };
        assert!(check(&claim, Some(&tb)).is_err());
        // Without the tables, a certificate with table leaves does not check.
        if check(&cert, Some(&tb)).unwrap().table_leaves > 0 {
            assert!(check(&cert, None).is_err());
        }
    }
}

#[test]
fn a_cycle_in_a_win_is_refused() {
    // Each side has one piece on its far rank, which can only step sideways: White "wins" by
    // always playing its first legal move, and the play goes round for ever.
    let root = Position::parse("W4/5/5/5/4B w").unwrap();
    let zero = |p: Position| {
        Position::from_bitboards(p.pieces(Side::First), p.pieces(Side::Second), p.side_to_move(), 0).unwrap()
    };
    let mut nodes = Vec::new();
    let mut stack = vec![root];
    let mut seen = std::collections::HashSet::new();
    while let Some(p) = stack.pop() {
        if !seen.insert(p) || p.outcome(false).is_some() {
            continue;
        }
        let moves = p.legal_moves();
        if p.side_to_move() == Side::First {
            nodes.push((p, Line::Choice(p.move_to_string(&moves[0]))));
            stack.push(zero(p.play_unchecked(&moves[0])));
        } else {
            nodes.push((p, Line::Replies(moves.iter().map(|m| p.move_to_string(m)).collect())));
            stack.extend(moves.iter().map(|m| zero(p.play_unchecked(m))));
        }
    }
    let strategy = certificate::Strategy { side: Side::First, kind: certificate::Kind::Win, nodes };
    let mut cert = Certificate { root, claim: Value::WhiteWins, tables: 0, strategies: vec![strategy] };
    let e = check(&cert, None).expect_err("a cycle");
    assert!(e.to_string().contains("cycle"), "{e}");
    // The same moves are a valid non-losing strategy for White, but a draw needs Black's too.
    cert.claim = Value::Draw;
    cert.strategies[0].kind = certificate::Kind::NonLosing;
    assert!(check(&cert, None).is_err());
}

#[test]
fn a_stopped_and_resumed_run_reaches_the_same_value() {
    let tb = tables(3);
    for pos in sample(2, 2, 6, 31) {
        let (whole, _) = solve(&pos, tb.clone(), SolvedTable::new());
        // A few nodes at a time, saving and loading the state between slices.
        let mut bytes = SolvedTable::new().to_bytes(None);
        let mut slices = 0;
        let value = loop {
            let table = SolvedTable::from_bytes(&bytes, "state").expect("a valid state");
            let mut solver = Solver::new(&pos, Some(tb.clone()), table, 1 << 20);
            let status = solver.step(200).expect("no table error");
            bytes = solver.state_bytes();
            slices += 1;
            if let SolveStatus::Solved(v) = status {
                break v;
            }
            assert!(slices < 100_000, "{pos}: no progress across runs");
        };
        assert_eq!(value, whole, "{pos}");
        assert_eq!(value, table_value(&tables(4), &pos), "{pos}");
        // The final state's certificate checks.
        let table = SolvedTable::from_bytes(&bytes, "state").unwrap();
        let cert = prove::extract(&pos, value, &table, Some(&tb)).expect("a whole strategy");
        check(&cert, Some(&tb)).expect("a valid certificate");
    }
}

#[test]
fn bad_state_files_are_refused() {
    let tb = tables(3);
    let pos = sample(2, 2, 1, 41)[0];
    let (_, table) = solve(&pos, tb, SolvedTable::new());
    let bytes = table.to_bytes(None);
    assert!(SolvedTable::from_bytes(&bytes[..bytes.len() - 1], "s").is_err());
    let mut flipped = bytes.clone();
    flipped[30] ^= 1;
    assert!(SolvedTable::from_bytes(&flipped, "s").is_err());
    assert!(SolvedTable::from_bytes(b"nonsense", "s").is_err());
    assert_eq!(SolvedTable::from_bytes(&bytes, "s").unwrap().to_bytes(None), bytes);
}

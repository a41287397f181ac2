//! A development tool: how many distinct balanced Alquerque openings of each length exist
//! (equal material, a depth-4 search within half a soldier).
use ludus_ai::{Limits, Params, Score, Search};
use ludus_rules::{GamePosition, alquerque::Position};
use std::collections::HashSet;

fn walk(p: Position, d: u32, out: &mut HashSet<String>) {
    if d == 0 {
        out.insert(p.to_string());
        return;
    }
    for m in p.legal_moves() {
        let c = p.play_unchecked(&m);
        if c.outcome(false).is_none() {
            walk(c, d - 1, out);
        }
    }
}

fn main() {
    for d in 4..=10 {
        let mut all = HashSet::new();
        walk(Position::start(), d, &mut all);
        let balanced = all
            .iter()
            .filter(|s| {
                let p: Position = s.parse().unwrap();
                let m = p.material();
                if m[0] != m[1] {
                    return false;
                }
                let params = Params { tt_mb: 1, ..Params::default() };
                let mut search = Search::new(p, &[], Limits::depth(4), params, 0);
                search.run_to_end();
                matches!(search.info().score, Score::Eval(cp) if cp.abs() <= 50)
            })
            .count();
        println!("plies {d}: {} positions, {balanced} balanced", all.len());
    }
}

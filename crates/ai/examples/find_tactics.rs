//! A development tool that finds test positions by brute force: Latrunculi wins in three
//! plies (and not in one), and Alquerque sacrifices that win material through a forced capture.
//! `find_tactics <latrunculi|alquerque> <count> [seed]`

use ludus_ai::level::Rng;
use ludus_rules::{GamePosition, Side, alquerque, latrunculi};

/// Whether the side to move can force a win within `plies` plies (odd), rules only.
fn forced_win<P: GamePosition>(pos: &P, plies: u32) -> bool {
    let me = pos.side_to_move();
    for m in pos.legal_moves() {
        let c = pos.play_unchecked(&m);
        match c.rule_outcome(false) {
            Some(o) if o.winner == Some(me) => return true,
            Some(_) => continue,
            None if plies < 3 => continue,
            None => {}
        }
        let replies = c.legal_moves();
        let all = replies.iter().all(|r| {
            let g = c.play_unchecked(r);
            match g.rule_outcome(false) {
                Some(o) => o.winner == Some(me),
                None => forced_win(&g, plies - 2),
            }
        });
        if all {
            return true;
        }
    }
    false
}

fn random_latrunculi(rng: &mut Rng) -> Option<latrunculi::Position> {
    let mut cells = vec!['.'; 64];
    let place = |c: char, rng: &mut Rng, cells: &mut Vec<char>| loop {
        let i = rng.below(64) as usize;
        if cells[i] == '.' {
            cells[i] = c;
            break;
        }
    };
    place('R', rng, &mut cells);
    place('B', rng, &mut cells);
    let (nr, nb) = (2 + rng.below(5), 2 + rng.below(5));
    for _ in 0..nr {
        place('r', rng, &mut cells);
    }
    for _ in 0..nb {
        place('b', rng, &mut cells);
    }
    let mut s = String::new();
    for rank in (0..8).rev() {
        let mut run = 0;
        for file in 0..8 {
            let c = cells[rank * 8 + file];
            if c == '.' {
                run += 1;
            } else {
                if run > 0 {
                    s.push_str(&run.to_string());
                    run = 0;
                }
                s.push(c);
            }
        }
        if run > 0 {
            s.push_str(&run.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s.push_str(" r");
    let p = latrunculi::Position::parse(&s).ok()?;
    if p.outcome(false).is_some() {
        return None;
    }
    Some(p)
}

/// The best material balance (own minus enemy pieces) the side to move can force in `plies`
/// plies, capture sequences always followed to the end.
fn material<P: GamePosition>(pos: &P, plies: u32, me: Side, count: &dyn Fn(&P) -> [u32; 2]) -> i32 {
    let m = count(pos);
    let bal = m[me.index()] as i32 - m[1 - me.index()] as i32;
    let moves = pos.legal_moves();
    let forcing = moves.first().is_some_and(P::is_capture);
    if moves.is_empty() {
        return if pos.side_to_move() == me { -100 } else { 100 };
    }
    if plies == 0 && !forcing {
        return bal;
    }
    let vals = moves.iter().map(|mv| {
        let c = pos.play_unchecked(mv);
        material(&c, plies.saturating_sub(1), me, count)
    });
    if pos.side_to_move() == me { vals.max().unwrap() } else { vals.min().unwrap() }
}

fn random_alquerque(rng: &mut Rng) -> Option<alquerque::Position> {
    let mut cells = ['.'; 25];
    let (nw, nb) = (3 + rng.below(6), 3 + rng.below(6));
    for (c, n) in [('W', nw), ('B', nb)] {
        let mut k = 0;
        while k < n {
            let i = rng.below(25) as usize;
            if cells[i] == '.' {
                cells[i] = c;
                k += 1;
            }
        }
    }
    let mut s = String::new();
    for rank in (0..5).rev() {
        let mut run = 0;
        for file in 0..5 {
            let c = cells[rank * 5 + file];
            if c == '.' {
                run += 1;
            } else {
                if run > 0 {
                    s.push_str(&run.to_string());
                    run = 0;
                }
                s.push(c);
            }
        }
        if run > 0 {
            s.push_str(&run.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s.push_str(" w");
    alquerque::Position::parse(&s).ok()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count: usize = args[1].parse().unwrap();
    let mut rng = Rng::new(args.get(2).map_or(1, |s| s.parse().unwrap()));
    let mut found = 0;
    if args[0] == "latrunculi" {
        while found < count {
            let Some(p) = random_latrunculi(&mut rng) else {
                continue;
            };
            if !forced_win(&p, 1) && forced_win(&p, 3) {
                let winners: Vec<String> = p
                    .legal_moves()
                    .iter()
                    .filter(|m| {
                        let c = p.play_unchecked(m);
                        c.rule_outcome(false).is_none()
                            && c.legal_moves().iter().all(|r| {
                                let g = c.play_unchecked(r);
                                match g.rule_outcome(false) {
                                    Some(o) => o.winner == Some(Side::First),
                                    None => forced_win(&g, 1),
                                }
                            })
                    })
                    .map(|m| p.move_to_string(m))
                    .collect();
                println!("{p}  wins: {}", winners.join(" "));
                found += 1;
            }
        }
    } else {
        let count_fn = |p: &alquerque::Position| p.material();
        while found < count {
            let Some(p) = random_alquerque(&mut rng) else {
                continue;
            };
            let moves = p.legal_moves();
            if moves.is_empty() || moves[0].is_capture() {
                continue;
            }
            let base = p.material();
            let bal0 = base[0] as i32 - base[1] as i32;
            // Quiet moves that win material by force within 3 plies (and captures to the end).
            let good: Vec<String> = moves
                .iter()
                .filter(|m| {
                    let c = p.play_unchecked(m);
                    // The move offers something: the opponent must capture.
                    c.legal_moves().first().is_some_and(|r| r.is_capture())
                        && material(&c, 2, Side::First, &count_fn) > bal0
                })
                .map(|m| p.move_to_string(m))
                .collect();
            if good.len() == 1 {
                println!("{p}  wins material: {}", good.join(" "));
                found += 1;
            }
        }
    }
}

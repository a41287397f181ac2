//! A development tool: Hard (with parameter overrides from the environment, prefix A_) against
//! another level (B, overrides with prefix B_), from random openings, colours alternating.
//! `tune <game> <games> <time_ms> <b-level>`; overrides: CONTEMPT, NOISE, DEPTH, LMR, EXT,
//! and evaluation weights by name (A_ALQ_far_rank=20, A_LAT_mobility=3, ...).

use ludus_ai::level::Rng;
use ludus_ai::{AnySearch, Level, Limits, Params};
use ludus_rules::{Side, Variant};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

fn env_i32(k: &str) -> Option<i32> {
    std::env::var(k).ok().and_then(|v| v.parse().ok())
}

fn params(prefix: &str, level: Level) -> (Params, Option<u32>) {
    let mut p = level.params();
    if let Some(v) = env_i32(&format!("{prefix}CONTEMPT")) {
        p.search.contempt = v;
    }
    if let Some(v) = env_i32(&format!("{prefix}NOISE")) {
        p.search.noise = v;
    }
    if let Some(v) = env_i32(&format!("{prefix}SOFT")) {
        p.search.soft_time_percent = v as u32;
    }
    if let Some(v) = env_i32(&format!("{prefix}COMPLEX")) {
        p.search.complexity = v;
    }
    if let Some(v) = env_i32(&format!("{prefix}RFP")) {
        p.search.rfp_margin = v;
    }
    if let Some(v) = env_i32(&format!("{prefix}LMR")) {
        p.search.lmr = v != 0;
    }
    if let Some(v) = env_i32(&format!("{prefix}EXT")) {
        p.search.extensions = v != 0;
    }
    let mut a = serde_json::to_value(&p.alquerque).unwrap();
    let mut l = serde_json::to_value(&p.latrunculi).unwrap();
    for (k, v) in std::env::vars() {
        if let Some(name) = k.strip_prefix(&format!("{prefix}ALQ_")) {
            a[name] = serde_json::from_str(&v).unwrap();
        }
        if let Some(name) = k.strip_prefix(&format!("{prefix}LAT_")) {
            l[name] = serde_json::from_str(&v).unwrap();
        }
    }
    p.alquerque = serde_json::from_value(a).unwrap();
    p.latrunculi = serde_json::from_value(l).unwrap();
    p.tt_mb = p.tt_mb.min(16);
    (p, env_i32(&format!("{prefix}DEPTH")).map(|d| d as u32))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variant = Variant::parse(&args[0]).unwrap();
    let games: usize = args[1].parse().unwrap();
    let time_ms: u64 = args[2].parse().unwrap();
    let b_level = Level::parse(&args[3]).unwrap();
    let seed: u64 = env_i32("SEED").unwrap_or(1) as u64;
    let (pa, da) = params("A_", Level::Hard);
    let (pb, db) = params("B_", b_level);
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        break;
                    }
                    let mut rng = Rng::new(seed ^ (i as u64) << 8);
                    let mut game = ludus_ai::balanced_opening(
                        variant,
                        if variant.is_latrunculi() { 6 } else { 10 },
                        seed ^ ((i / 2) as u64) << 8,
                    );
                    let a_side = if i.is_multiple_of(2) { Side::First } else { Side::Second };
                    while !game.is_over() && game.ply() < 1000 {
                        let a = game.side_to_move() == a_side;
                        let (level, p, d) =
                            if a { (Level::Hard, pa.clone(), da) } else { (b_level, pb.clone(), db) };
                        let limits = Limits { time_ms: Some(time_ms), depth: d, nodes: None };
                        let mut search = AnySearch::with_params(&game, level, limits, p, rng.next_u64());
                        let Some(mv) = search.run_to_end() else { break };
                        if std::env::var("VERBOSE").is_ok() {
                            let info = search.info();
                            println!(
                                "g{i} ply {} {} {} d{} {} | {}",
                                game.ply(),
                                if a { "A" } else { "B" },
                                game.position().move_to_string(&mv).unwrap(),
                                info.depth,
                                info.score,
                                game.position()
                            );
                        }
                        game.play(&mv).unwrap();
                    }
                    let score = match game.outcome().and_then(|o| o.winner) {
                        Some(w) if w == a_side => 1.0,
                        Some(_) => 0.0,
                        None => 0.5,
                    };
                    let mut reason = game.outcome().map_or("cap", |o| o.reason.name()).to_string();
                    if score == 0.5 {
                        let diff = match game.position() {
                            ludus_rules::AnyPosition::Latrunculi(p) => {
                                let m = p.material();
                                m[a_side.index()] as i32 - m[1 - a_side.index()] as i32
                            }
                            ludus_rules::AnyPosition::Alquerque(p) => {
                                let m = p.material();
                                m[a_side.index()] as i32 - m[1 - a_side.index()] as i32
                            }
                        };
                        reason = format!("{reason}({diff:+})");
                    }
                    results.lock().unwrap().push((score, reason.to_string(), game.ply()));
                }
            });
        }
    });
    let r = results.into_inner().unwrap();
    let n = r.len() as f64;
    let w = r.iter().filter(|x| x.0 == 1.0).count();
    let d = r.iter().filter(|x| x.0 == 0.5).count();
    let l = r.iter().filter(|x| x.0 == 0.0).count();
    let mut reasons: std::collections::BTreeMap<String, usize> = Default::default();
    for x in &r {
        *reasons
            .entry(format!(
                "{}{}",
                x.1,
                if x.0 == 1.0 {
                    "+"
                } else if x.0 == 0.0 {
                    "-"
                } else {
                    "="
                }
            ))
            .or_default() += 1;
    }
    println!(
        "+{w} ={d} -{l} score {:.1}% avg plies {:.0} {:?}",
        100.0 * r.iter().map(|x| x.0).sum::<f64>() / n,
        r.iter().map(|x| x.2).sum::<usize>() as f64 / n,
        reasons
    );
}

//! Generation by retrograde analysis.
//!
//! Tables are built in order of increasing piece count. Within one count, the tables of
//! material `m`v`o` and `o`v`m` are built together: a plain step of the side to move keeps the
//! material and hands the move over, so it leads from one to the other, while a capture leads
//! into a smaller table that is already built.
//!
//! 1. Every position is looked at once, through the rules crate: if the side to move can
//!    capture (capturing is compulsory), every capture path is played and the position's value
//!    follows at once from the smaller tables (or from the rules' outcome when the capture takes
//!    the last enemy piece); if it has no legal move, the rules' outcome says it has lost
//!    (distance 0); otherwise it counts its steps.
//! 2. Then, level by level of distance `d = 0, 1, 2, ...`, each position decided at distance `d`
//!    is "unmoved": every position from which a plain step of the other side leads to it (the
//!    steps come from the rules' move generator). A loss at `d` makes such a predecessor a win
//!    at `d + 1` (the first found is the fastest); a win at `d` takes one from the
//!    predecessor's count of steps not yet known to lose, and when that count reaches 0 the
//!    predecessor is lost at `d + 1` (the last one found is the longest defence).
//! 3. Whatever is still undecided is a draw: both sides can keep the game going for ever (the
//!    no-capture counter and repetitions are ignored).

use super::index::{self, Material, flip, for_each_position, normalize, unindex};
use super::table::{Table, TableStats};
use super::{Probe, Tablebase, TbError, Wdl};
use ludus_rules::alquerque::{FULL, POINTS, Position};
use ludus_rules::{GamePosition, Side};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use web_time::Instant;

/// The most pieces [`generate`] builds tables for (the generator keeps positions' indices in
/// 32 bits, and 10 pieces already need several GB of memory).
pub const MAX_GENERATE: u32 = 10;

/// A table just built, for progress reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The table's counts and size.
    pub stats: TableStats,
    /// The material built together with this one (`o`v`m` for `m`v`o`), if any: the time is
    /// that of both.
    pub paired_with: Option<Material>,
    /// Milliseconds to build this table and its pair.
    pub millis: u64,
}

/// For each point `y`, the points from which a Black piece steps to `y` (from the rules' own
/// move generator, on an otherwise empty board).
fn black_step_sources() -> [u32; POINTS] {
    let mut src = [0u32; POINTS];
    let mut moves = Vec::new();
    for x in 0..POINTS {
        let pos = Position::from_bitboards(0, 1 << x, Side::Second, 0).expect("one piece");
        pos.generate_moves(&mut moves);
        for m in &moves {
            src[m.to().index()] |= 1 << x;
        }
    }
    src
}

/// A value as generation keeps it: 0 for a draw (or not yet decided), otherwise the distance to
/// the end in plies plus one, odd distances winning for the side to move.
type Code = u16;

fn code_of(p: Probe) -> Code {
    match p.wdl {
        Wdl::Draw => 0,
        _ => p.plies_to_end + 1,
    }
}

/// How good a code is for the side to move: fast wins, then draws, then slow losses.
#[inline]
fn goodness(c: Code) -> i32 {
    let c = i32::from(c);
    if c == 0 {
        0
    } else if c % 2 == 0 {
        100_000 - c
    } else {
        -100_000 + c
    }
}

/// The value for the side to move of a move leading to a position of value `child`.
#[inline]
fn parent_code(child: Code) -> Code {
    if child == 0 { 0 } else { child + 1 }
}

/// The value of a position reached by a capture: from the rules' outcome when the capture took
/// the last enemy piece, else from the smaller tables (which know the positions without a
/// legal move).
fn child_code(child: &Position, tables: &HashMap<Material, Arc<Table>>) -> Code {
    if let Some(outcome) = child.rule_outcome(false) {
        return match outcome.winner {
            None => 0,
            Some(w) if w == child.side_to_move() => unreachable!("a side never wins on its own move"),
            Some(_) => 1,
        };
    }
    let (m, o) = normalize(child);
    let material = Material::new(m.count_ones(), o.count_ones()).expect("both sides have pieces");
    let table = tables.get(&material).expect("smaller tables are built first");
    code_of(table.get(index::index(m, o)).expect("an index within the table"))
}

/// Builds the tables of `first` and its swapped material together.
fn generate_pair(
    first: Material,
    tables: &HashMap<Material, Arc<Table>>,
    sources: &[u32; POINTS],
) -> Vec<Table> {
    let mats: Vec<Material> =
        if first.mover == first.other { vec![first] } else { vec![first, first.swapped()] };
    let mut vals: Vec<Vec<Code>> = mats.iter().map(|m| vec![0; m.positions() as usize]).collect();
    let mut counts: Vec<Vec<u8>> = mats.iter().map(|m| vec![0; m.positions() as usize]).collect();
    let mut max_code: Code = 0;
    let mut moves = Vec::new();
    for (t, &mat) in mats.iter().enumerate() {
        let (vals_t, counts_t) = (&mut vals[t], &mut counts[t]);
        for_each_position(mat, |idx, mover, other| {
            let pos = index::position(mover, other);
            let i = idx as usize;
            if pos.can_capture(Side::First) {
                pos.generate_moves(&mut moves);
                let best = moves
                    .iter()
                    .map(|mv| parent_code(child_code(&pos.play_unchecked(mv), tables)))
                    .max_by_key(|&c| goodness(c))
                    .expect("a capture");
                vals_t[i] = best;
                max_code = max_code.max(best);
            } else {
                let steps = pos.step_count(Side::First);
                if steps == 0 {
                    let outcome = pos.outcome(false).expect("no legal move ends the game");
                    debug_assert_eq!(outcome.winner, Some(Side::Second));
                    vals_t[i] = 1;
                    max_code = max_code.max(1);
                } else {
                    counts_t[i] = steps as u8;
                }
            }
        });
    }
    // Undecided positions, one bit each: most predecessors are decided already (by a capture),
    // and this small set answers for them without touching the big arrays.
    let mut open: Vec<Vec<u64>> = counts
        .iter()
        .map(|c| {
            let mut bits = vec![0u64; c.len().div_ceil(64)];
            for (i, &n) in c.iter().enumerate() {
                if n > 0 {
                    bits[i / 64] |= 1 << (i % 64);
                }
            }
            bits
        })
        .collect();
    let mut level: Code = 1;
    let mut hits: Vec<u32> = Vec::new();
    while level <= max_code {
        let loss = level % 2 == 1;
        for t in 0..mats.len() {
            let pt = if mats.len() == 1 { 0 } else { 1 - t };
            hits.clear();
            hits.extend(vals[t].iter().enumerate().filter(|&(_, &v)| v == level).map(|(i, _)| i as u32));
            for &idx in &hits {
                let (mover, other) = unindex(u64::from(idx), mats[t]);
                let empty = FULL & !(mover | other);
                let back = flip(mover);
                let mut ys = other;
                while ys != 0 {
                    let y = ys.trailing_zeros();
                    ys &= ys - 1;
                    let mut xs = sources[y as usize] & empty;
                    while xs != 0 {
                        let x = xs.trailing_zeros();
                        xs &= xs - 1;
                        let before = other ^ (1 << y) ^ (1 << x);
                        let p = index::index(flip(before), back) as usize;
                        if open[pt][p / 64] & (1 << (p % 64)) == 0 {
                            continue;
                        }
                        if !loss {
                            counts[pt][p] -= 1;
                            if counts[pt][p] != 0 {
                                continue;
                            }
                        }
                        open[pt][p / 64] &= !(1 << (p % 64));
                        vals[pt][p] = level + 1;
                        max_code = max_code.max(level + 1);
                    }
                }
            }
        }
        level += 1;
    }
    mats.iter().zip(&vals).map(|(&m, v)| Table::from_codes(m, v)).collect()
}

/// Builds every table of 2 to `max_pieces` pieces, smallest first, writing each to `out_dir`
/// (as [`Material::file_name`]) when one is given, and calling `progress` after each. Returns
/// them all in memory.
pub fn generate(
    max_pieces: u32,
    out_dir: Option<&Path>,
    mut progress: impl FnMut(&Generated),
) -> Result<Tablebase, TbError> {
    if !(2..=MAX_GENERATE).contains(&max_pieces) {
        return Err(TbError::Invalid(format!(
            "tables can be built for 2 to {MAX_GENERATE} pieces, not {max_pieces}"
        )));
    }
    if let Some(dir) = out_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| TbError::Io(format!("cannot create {}: {e}", dir.display())))?;
    }
    let sources = black_step_sources();
    let mut tables: HashMap<Material, Arc<Table>> = HashMap::new();
    for total in 2..=max_pieces {
        for mover in 1..total {
            let other = total - mover;
            let Some(first) = Material::new(mover, other) else { continue };
            if mover > other {
                continue;
            }
            let start = Instant::now();
            let built = generate_pair(first, &tables, &sources);
            let millis = start.elapsed().as_millis() as u64;
            let pair: Vec<Material> = built.iter().map(Table::material).collect();
            for table in built {
                if let Some(dir) = out_dir {
                    table.write(&dir.join(table.material().file_name()))?;
                }
                let paired_with = pair.iter().copied().find(|&m| m != table.material());
                progress(&Generated { stats: table.stats(), paired_with, millis });
                tables.insert(table.material(), Arc::new(table));
            }
        }
    }
    Ok(Tablebase::from_arcs(tables.into_values()))
}

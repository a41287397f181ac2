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

use super::index::{self, Material, flip, for_each_position_in, normalize, unindex};
use super::table::{Table, TableStats, VERSION};
use super::{Probe, Tablebase, TbError, Wdl};
use ludus_rules::alquerque::{FULL, POINTS, Position};
use ludus_rules::{GamePosition, Side};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU64, AtomicUsize};
use web_time::Instant;

/// The most pieces [`generate`] builds tables for (10 pieces already need several GB of memory
/// and of files).
pub const MAX_GENERATE: u32 = 10;

/// A table just built, or kept from the output directory, for progress reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The table's counts and size.
    pub stats: TableStats,
    /// The material built together with this one (`o`v`m` for `m`v`o`), if any: the time is
    /// that of both.
    pub paired_with: Option<Material>,
    /// Milliseconds to build this table and its pair (or to read and check them).
    pub millis: u64,
    /// Whether the table was already in the output directory and was used (rewritten if its
    /// file was in an earlier version of the format).
    pub reused: bool,
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

/// `first` and its swapped material, built together (`first` alone when they are the same).
fn pair(first: Material) -> Vec<Material> {
    if first.mover == first.other { vec![first] } else { vec![first, first.swapped()] }
}

/// Runs `job(k)` for every `k` below `jobs`, on `threads` threads taking the next `k` in turn
/// (on the calling thread alone when `threads` is 1).
fn run_jobs(jobs: usize, threads: usize, job: impl Fn(usize) + Sync) {
    let next = AtomicUsize::new(0);
    let work = || {
        loop {
            let k = next.fetch_add(1, Relaxed);
            if k >= jobs {
                break;
            }
            job(k);
        }
    };
    if threads <= 1 || jobs <= 1 {
        work();
    } else {
        std::thread::scope(|scope| {
            for _ in 0..threads.min(jobs) {
                scope.spawn(work);
            }
        });
    }
}

/// Mover sets a job takes at a time: enough jobs for the threads to finish together.
fn mover_chunk(material: Material, threads: usize) -> u64 {
    let movers = index::binomial(POINTS as u32, u32::from(material.mover));
    movers.div_ceil(threads as u64 * 32).max(1)
}

/// Builds the tables of `first` and its swapped material together, on `threads` threads.
///
/// The threads share the arrays through atomics (relaxed: every pass ends with the threads
/// joined). Within one pass of the second step, the positions decided at `d` are read and only
/// undecided ones are written (to `d + 1`), so the threads' order changes nothing: a win is
/// claimed once through its undecided bit, and a count reaches 0 once.
fn generate_pair(
    first: Material,
    tables: &HashMap<Material, Arc<Table>>,
    sources: &[u32; POINTS],
    threads: usize,
) -> Vec<Table> {
    let mats = pair(first);
    let zeros16 = |n: u64| (0..n).map(|_| AtomicU16::new(0)).collect::<Vec<_>>();
    let zeros8 = |n: u64| (0..n).map(|_| AtomicU8::new(0)).collect::<Vec<_>>();
    let zeros64 = |n: u64| (0..n.div_ceil(64)).map(|_| AtomicU64::new(0)).collect::<Vec<_>>();
    let vals: Vec<Vec<AtomicU16>> = mats.iter().map(|m| zeros16(m.positions())).collect();
    let counts: Vec<Vec<AtomicU8>> = mats.iter().map(|m| zeros8(m.positions())).collect();
    // Undecided positions, one bit each: most predecessors are decided already (by a capture),
    // and this small set answers for them without touching the big arrays.
    let open: Vec<Vec<AtomicU64>> = mats.iter().map(|m| zeros64(m.positions())).collect();
    let max_code = AtomicU16::new(0);
    for (t, &mat) in mats.iter().enumerate() {
        let chunk = mover_chunk(mat, threads);
        let movers = index::binomial(POINTS as u32, u32::from(mat.mover));
        let (vals_t, counts_t, open_t) = (&vals[t], &counts[t], &open[t]);
        run_jobs(movers.div_ceil(chunk) as usize, threads, |k| {
            let range = k as u64 * chunk..((k as u64 + 1) * chunk).min(movers);
            let mut moves = Vec::new();
            let mut most = 0;
            for_each_position_in(mat, range, |idx, mover, other| {
                let pos = index::position(mover, other);
                let i = idx as usize;
                if pos.can_capture(Side::First) {
                    pos.generate_moves(&mut moves);
                    let best = moves
                        .iter()
                        .map(|mv| parent_code(child_code(&pos.play_unchecked(mv), tables)))
                        .max_by_key(|&c| goodness(c))
                        .expect("a capture");
                    vals_t[i].store(best, Relaxed);
                    most = most.max(best);
                } else {
                    let steps = pos.step_count(Side::First);
                    if steps == 0 {
                        let outcome = pos.outcome(false).expect("no legal move ends the game");
                        debug_assert_eq!(outcome.winner, Some(Side::Second));
                        vals_t[i].store(1, Relaxed);
                        most = most.max(1);
                    } else {
                        counts_t[i].store(steps as u8, Relaxed);
                        open_t[i / 64].fetch_or(1 << (i % 64), Relaxed);
                    }
                }
            });
            max_code.fetch_max(most, Relaxed);
        });
    }
    let mut level: Code = 1;
    while level <= max_code.load(Relaxed) {
        let loss = level % 2 == 1;
        for (t, &mat) in mats.iter().enumerate() {
            let pt = if mats.len() == 1 { 0 } else { 1 - t };
            let (vals_t, vals_pt, counts_pt, open_pt) = (&vals[t], &vals[pt], &counts[pt], &open[pt]);
            let per_job = (vals_t.len() as u64).div_ceil(threads as u64 * 32).max(1) as usize;
            run_jobs(vals_t.len().div_ceil(per_job), threads, |k| {
                let end = ((k + 1) * per_job).min(vals_t.len());
                for (idx, v) in vals_t[k * per_job..end].iter().enumerate() {
                    if v.load(Relaxed) != level {
                        continue;
                    }
                    let (mover, other) = unindex((k * per_job + idx) as u64, mat);
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
                            let bit = 1u64 << (p % 64);
                            if open_pt[p / 64].load(Relaxed) & bit == 0 {
                                continue;
                            }
                            // A step to a win takes one from the count; the last one decides.
                            if !loss && counts_pt[p].fetch_sub(1, Relaxed) != 1 {
                                continue;
                            }
                            if open_pt[p / 64].fetch_and(!bit, Relaxed) & bit != 0 {
                                vals_pt[p].store(level + 1, Relaxed);
                                max_code.fetch_max(level + 1, Relaxed);
                            }
                        }
                    }
                }
            });
        }
        level += 1;
    }
    mats.iter()
        .zip(vals)
        .map(|(&m, v)| Table::from_codes(m, &v.into_iter().map(AtomicU16::into_inner).collect::<Vec<_>>()))
        .collect()
}

/// Builds every table of 2 to `max_pieces` pieces, smallest first, on all the machine's cores
/// ([`generate_with_threads`]).
pub fn generate(
    max_pieces: u32,
    out_dir: Option<&Path>,
    progress: impl FnMut(&Generated),
) -> Result<Tablebase, TbError> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    generate_with_threads(max_pieces, out_dir, threads, progress)
}

/// Builds every table of 2 to `max_pieces` pieces, smallest first, on `threads` threads, calling
/// `progress` after each.
///
/// With an output directory, each table is written there (as [`Material::file_name`]), and a
/// table already there that passes every check of its format is used instead of being built
/// again, so that a long build that was stopped goes on where it was. The tables of
/// `max_pieces` pieces are then not kept in memory, and the result reads the directory's
/// tables as [`Tablebase::open`] does. Without one, every table is built and kept in memory.
pub fn generate_with_threads(
    max_pieces: u32,
    out_dir: Option<&Path>,
    threads: usize,
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
    let threads = threads.max(1);
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
            let kept = out_dir.and_then(|dir| existing_pair(first, dir, total < max_pieces));
            let reused = kept.is_some();
            let built = kept.unwrap_or_else(|| generate_pair(first, &tables, &sources, threads));
            let millis = start.elapsed().as_millis() as u64;
            for table in built {
                let material = table.material();
                if let Some(dir) = out_dir
                    && !reused
                {
                    table.write(&dir.join(material.file_name()))?;
                }
                let paired_with = Some(material.swapped()).filter(|&m| m != material);
                progress(&Generated { stats: table.stats(), paired_with, millis, reused });
                // The top piece count's tables, once on disk, are needed by no later table.
                if out_dir.is_none() || total < max_pieces {
                    tables.insert(material, Arc::new(table));
                }
            }
        }
    }
    match out_dir {
        Some(dir) => Tablebase::open(dir),
        None => Ok(Tablebase::from_arcs(tables.into_values())),
    }
}

/// The tables of `first` and its swapped material from `dir`, if both are there and pass every
/// check: read into memory when later tables are built from them (`in_memory`), else checked
/// and left on disk. A table in an earlier version of the format is rewritten in this one.
fn existing_pair(first: Material, dir: &Path, in_memory: bool) -> Option<Vec<Table>> {
    let stream_above = if in_memory { u64::MAX } else { 0 };
    pair(first)
        .iter()
        .map(|&m| {
            let path = dir.join(m.file_name());
            let table = Table::open(&path, stream_above).ok().filter(|t| t.material() == m)?;
            if table.version() == VERSION {
                return Some(table);
            }
            let old = Table::read(&path).ok()?;
            let codes: Vec<Code> = (0..m.positions()).map(|i| old.get(i).map_or(0, code_of)).collect();
            let table = Table::from_codes(m, &codes);
            table.write(&path).ok()?;
            Some(table)
        })
        .collect()
}

//! The Alquerque endgame tablebase against an independent solver, its own consistency, its
//! files, and the search's use of it.

use ludus_ai::tablebase::index::{self, Material};
use ludus_ai::tablebase::{self, Probe, Table, Tablebase, TbError, Wdl};
use ludus_ai::{AnySearch, Level, Limits, Score};
use ludus_rules::alquerque::{FULL, Position};
use ludus_rules::{AnyGame, AnyPosition, GamePosition, Side};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// The pieces the tests' tables go up to.
const N: u32 = 5;

fn tb() -> &'static Arc<Tablebase> {
    static TB: OnceLock<Arc<Tablebase>> = OnceLock::new();
    TB.get_or_init(|| Arc::new(tablebase::generate(N, None, |_| {}).expect("generation")))
}

/// Every `k`-subset of the points of `avail`.
fn subsets(avail: u32, k: u32) -> Vec<u32> {
    if k == 0 {
        return vec![0];
    }
    let mut out = Vec::new();
    let mut rest = avail;
    while rest != 0 {
        let p = rest.trailing_zeros();
        rest &= rest - 1;
        // Points above p only, so that each set comes once.
        for s in subsets(rest, k - 1) {
            out.push(s | 1 << p);
        }
    }
    out
}

/// Every position with both sides on the board and at most `n` pieces, both sides to move.
fn all_positions(n: u32) -> Vec<Position> {
    let mut out = Vec::new();
    for w in 1..n {
        for b in 1..=n - w {
            for ws in subsets(FULL, w) {
                for bs in subsets(FULL & !ws, b) {
                    for side in [Side::First, Side::Second] {
                        out.push(Position::from_bitboards(ws, bs, side, 0).unwrap());
                    }
                }
            }
        }
    }
    out
}

/// A value as the independent solver keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum V {
    Unknown,
    Win(u16),
    Loss(u16),
}

/// An independent solver: plain rounds of a fixed point over every position of at most `n`
/// pieces (real positions, both sides to move, no index, no symmetry), using only the rules.
/// In round `r`, a position is a win in `r` if a move leads to a loss in `r - 1`, and a loss
/// in `r` if every move leads to a win known before round `r`. Undecided at the end: a draw.
fn solve_all(n: u32) -> HashMap<(u32, u32, Side), V> {
    let positions = all_positions(n);
    let key = |p: &Position| (p.pieces(Side::First), p.pieces(Side::Second), p.side_to_move());
    let ids: HashMap<_, usize> = positions.iter().enumerate().map(|(i, p)| (key(p), i)).collect();
    // Children: Some(id), or None for a move that ends the game (the last enemy piece taken).
    const END: usize = usize::MAX;
    let mut children: Vec<Vec<usize>> = Vec::with_capacity(positions.len());
    let mut vals = vec![V::Unknown; positions.len()];
    for (i, p) in positions.iter().enumerate() {
        if let Some(o) = p.outcome(false) {
            assert_eq!(o.winner, Some(p.side_to_move().opponent()));
            vals[i] = V::Loss(0);
            children.push(Vec::new());
            continue;
        }
        let kids = p
            .legal_moves()
            .iter()
            .map(|m| {
                let c = p.play_unchecked(m);
                if c.rule_outcome(false).is_some() { END } else { ids[&key(&c)] }
            })
            .collect();
        children.push(kids);
    }
    let mut round = 1u16;
    loop {
        let before = vals.clone();
        let mut changed = false;
        for i in 0..positions.len() {
            if before[i] != V::Unknown {
                continue;
            }
            let kids = &children[i];
            let wins_now = kids.iter().any(|&c| c == END || before[c] == V::Loss(round - 1));
            let all_lose = kids.iter().all(|&c| c != END && matches!(before[c], V::Win(_)));
            if wins_now {
                vals[i] = V::Win(round);
                changed = true;
            } else if all_lose {
                vals[i] = V::Loss(round);
                changed = true;
            }
        }
        if !changed && round > 2 {
            break;
        }
        round += 1;
    }
    positions.iter().zip(vals).map(|(p, v)| (key(p), v)).collect()
}

fn as_v(p: Probe) -> V {
    match p.wdl {
        Wdl::Win => V::Win(p.plies_to_end),
        Wdl::Loss => V::Loss(p.plies_to_end),
        Wdl::Draw => V::Unknown,
    }
}

#[test]
fn agrees_with_an_independent_solver_on_every_position_of_four_pieces() {
    let solved = solve_all(4);
    // Both sides to move; the tables hold half as many (one per position and its mirror image).
    assert_eq!(solved.len(), 2 * (600 + 13_800 + 177_100));
    let mut decisive = 0;
    for (&(w, b, side), &v) in &solved {
        let pos = Position::from_bitboards(w, b, side, 0).unwrap();
        let probe = tb().probe(&pos).unwrap_or_else(|| panic!("{pos} not covered"));
        assert_eq!(as_v(probe), v, "{pos}: tablebase {probe:?}, solver {v:?}");
        decisive += usize::from(v != V::Unknown);
    }
    assert!(decisive > 100_000, "{decisive}");
}

#[test]
#[ignore = "heavier: every position of five pieces (about 11 s in the test build)"]
fn agrees_with_an_independent_solver_on_every_position_of_five_pieces() {
    for (&(w, b, side), &v) in &solve_all(5) {
        let pos = Position::from_bitboards(w, b, side, 0).unwrap();
        assert_eq!(as_v(tb().probe(&pos).unwrap()), v, "{pos}");
    }
}

/// Plain recursive minimax: the exact result when the game is decided within `depth` plies,
/// `Unknown` otherwise.
fn minimax(pos: &Position, depth: u16) -> V {
    if pos.outcome(false).is_some() {
        return V::Loss(0);
    }
    if depth == 0 {
        return V::Unknown;
    }
    let mut fastest_win = None::<u16>;
    let mut longest_loss = Some(0u16);
    for m in pos.legal_moves() {
        match minimax(&pos.play_unchecked(&m), depth - 1) {
            V::Loss(k) => fastest_win = Some(fastest_win.map_or(k + 1, |w| w.min(k + 1))),
            V::Win(k) => longest_loss = longest_loss.map(|l| l.max(k + 1)),
            V::Unknown => longest_loss = None,
        }
    }
    match (fastest_win, longest_loss) {
        (Some(w), _) => V::Win(w),
        (None, Some(l)) => V::Loss(l),
        (None, None) => V::Unknown,
    }
}

/// A small random number generator for the tests.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random position with `w` White and `b` Black pieces.
fn random_position(rng: &mut Rng, w: u32, b: u32) -> Position {
    let mut points: Vec<u32> = (0..25).collect();
    for i in 0..(w + b) as usize {
        let j = i + rng.below((25 - i) as u64) as usize;
        points.swap(i, j);
    }
    let ws = points[..w as usize].iter().fold(0, |a, p| a | 1 << p);
    let bs = points[w as usize..(w + b) as usize].iter().fold(0, |a, p| a | 1 << p);
    let side = if rng.below(2) == 0 { Side::First } else { Side::Second };
    Position::from_bitboards(ws, bs, side, 0).unwrap()
}

#[test]
fn agrees_with_plain_minimax_on_random_five_piece_positions() {
    const DEPTH: u16 = 5;
    let mut rng = Rng(5);
    let mut decided = 0;
    for i in 0..2000 {
        let w = 1 + (i % 4) as u32;
        let pos = random_position(&mut rng, w, 5 - w);
        let probe = tb().probe(&pos).unwrap();
        let expected = match as_v(probe) {
            V::Win(d) | V::Loss(d) if d > DEPTH => V::Unknown,
            v => v,
        };
        assert_eq!(minimax(&pos, DEPTH), expected, "{pos}: {probe:?}");
        decided += usize::from(expected != V::Unknown);
    }
    assert!(decided > 500, "{decided}");
}

/// Every win has a move to a loss one ply shorter and none to a faster one; every loss has only
/// moves to wins, one of them exactly one ply shorter; a draw has no move to a loss and one to
/// a draw.
fn check_consistency(tb: &Tablebase, pos: &Position) {
    let probe = tb.probe(pos).unwrap();
    let values = tb.move_values(pos).unwrap();
    if values.is_empty() {
        assert_eq!(probe, Probe { wdl: Wdl::Loss, plies_to_end: 0 }, "{pos}");
        assert!(pos.outcome(false).is_some());
        return;
    }
    let d = probe.plies_to_end;
    match probe.wdl {
        Wdl::Win => {
            assert_eq!(d % 2, 1, "{pos}");
            let wins: Vec<u16> =
                values.iter().filter(|(_, v)| v.wdl == Wdl::Win).map(|(_, v)| v.plies_to_end).collect();
            assert_eq!(wins.iter().min(), Some(&d), "{pos}: {values:?}");
        }
        Wdl::Loss => {
            assert_eq!(d % 2, 0, "{pos}");
            assert!(d > 0);
            assert!(values.iter().all(|(_, v)| v.wdl == Wdl::Loss), "{pos}: {values:?}");
            assert_eq!(values.iter().map(|(_, v)| v.plies_to_end).max(), Some(d), "{pos}");
        }
        Wdl::Draw => {
            assert_eq!(d, 0);
            assert!(values.iter().all(|(_, v)| v.wdl != Wdl::Win), "{pos}: {values:?}");
            assert!(values.iter().any(|(_, v)| v.wdl == Wdl::Draw), "{pos}: {values:?}");
        }
    }
    // The best move reaches the value.
    let best = tb.best_move(pos).unwrap();
    assert_eq!(tb.probe(&pos.play_unchecked(&best)).unwrap().before_move(), probe, "{pos}");
}

#[test]
fn every_position_of_up_to_five_pieces_is_consistent() {
    let tb = tb();
    let mut n = 0u64;
    for material in tb.materials() {
        index::for_each_position(material, |idx, mover, other| {
            // Every few positions in the big tables, all of them in the small ones.
            if material.total() < 5 || idx % 7 == 0 {
                let pos = Position::from_bitboards(mover, other, Side::First, 0).unwrap();
                check_consistency(tb, &pos);
                n += 1;
            }
        });
    }
    assert!(n > 400_000, "{n}");
}

#[test]
fn black_to_move_positions_are_consistent_too() {
    let mut rng = Rng(7);
    for i in 0..5000 {
        let w = 1 + (i % 4);
        let b = 1 + rng.below(u64::from(5 - w)) as u32;
        let mut pos = random_position(&mut rng, w, b);
        if pos.side_to_move() == Side::First {
            pos =
                Position::from_bitboards(pos.pieces(Side::First), pos.pieces(Side::Second), Side::Second, 0)
                    .unwrap();
        }
        check_consistency(tb(), &pos);
    }
}

#[test]
fn positions_without_a_table_are_not_covered() {
    let tb = tablebase::generate(3, None, |_| {}).unwrap();
    assert_eq!(tb.max_pieces(), 3);
    let four = Position::parse("5/1B3/5/1W1W1/W4 w").unwrap();
    assert_eq!(tb.probe(&four), None);
    assert_eq!(tb.best_move(&four), None);
    // A side with no pieces has lost, by the rules.
    let over = Position::parse("5/5/5/1W3/W4 b").unwrap();
    assert_eq!(tb.probe(&over), Some(Probe { wdl: Wdl::Loss, plies_to_end: 0 }));
    // The start is far beyond any table.
    assert_eq!(tb.probe(&Position::start()), None);
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ludus-tb-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn files_round_trip() {
    let dir = temp_dir("round-trip");
    let mut reported = Vec::new();
    let built = tablebase::generate(4, Some(&dir), |g| reported.push(g.stats)).unwrap();
    assert_eq!(reported.len(), 6); // 1v1; 1v2 2v1; 1v3 3v1 2v2
    let opened = Tablebase::open(&dir).unwrap();
    assert_eq!(opened.materials(), built.materials());
    for pos in all_positions(4) {
        assert_eq!(opened.try_probe(&pos).unwrap(), built.probe(&pos), "{pos}");
    }
    // From bytes, as the web build would.
    let files: Vec<Vec<u8>> =
        reported.iter().map(|s| std::fs::read(dir.join(s.material.file_name())).unwrap()).collect();
    for (bytes, stats) in files.iter().zip(&reported) {
        assert_eq!(bytes.len() as u64, stats.bytes);
        let t = Table::from_bytes(bytes).unwrap();
        assert_eq!(t.stats(), *stats);
        assert_eq!(t.as_bytes(), Some(&bytes[..]));
    }
    let from_bytes = Tablebase::from_bytes(files.iter().map(Vec::as_slice)).unwrap();
    let from_tables = Tablebase::from_tables(files.iter().map(|b| Table::from_bytes(b).unwrap()));
    let mut rng = Rng(3);
    for _ in 0..2000 {
        let pos = random_position(&mut rng, 2, 2);
        assert_eq!(from_bytes.probe(&pos), built.probe(&pos));
        assert_eq!(from_tables.probe(&pos), built.probe(&pos));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

fn corrupt_error(bytes: &[u8]) -> String {
    match Table::from_bytes(bytes) {
        Err(TbError::Corrupt(s)) => s,
        other => panic!("expected a corrupt-file error, got {other:?}"),
    }
}

#[test]
fn corrupt_and_truncated_files_give_errors() {
    let tb = tablebase::generate(4, None, |_| {}).unwrap();
    let good = tb.table(Material::new(2, 2).unwrap()).unwrap().unwrap().as_bytes().unwrap().to_vec();
    assert!(Table::from_bytes(&good).is_ok());
    // Truncated anywhere, header included.
    for len in [0, 10, 63, 64, 1000, good.len() - 1] {
        let e = corrupt_error(&good[..len]);
        assert!(e.contains("truncated"), "{len}: {e}");
    }
    let mut longer = good.clone();
    longer.push(0);
    assert!(corrupt_error(&longer).contains("too long"));
    // A flipped bit anywhere.
    for at in [0, 8, 10, 11, 13, 16, 30, 48, 60, 64, 5000, good.len() - 1] {
        let mut bad = good.clone();
        bad[at] ^= 0x10;
        let e = corrupt_error(&bad);
        assert!(!e.is_empty(), "{at}");
    }
    let mut bad = good.clone();
    bad[64 + 100] ^= 1;
    assert!(corrupt_error(&bad).contains("checksum"));
    bad = good.clone();
    bad[0] = b'X';
    assert!(corrupt_error(&bad).contains("magic"));

    // On disk: the error is reported by try_probe, probe says "not covered", nothing panics.
    let dir = temp_dir("corrupt");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("alq-2v2.ltb"), &good[..good.len() / 2]).unwrap();
    // A file whose name says another material than its header.
    std::fs::write(dir.join("alq-1v3.ltb"), &good).unwrap();
    let opened = Tablebase::open(&dir).unwrap();
    let pos = Position::parse("5/1B1B1/5/1W1W1/5 w").unwrap();
    let e = opened.try_probe(&pos).unwrap_err();
    assert!(e.to_string().contains("truncated"), "{e}");
    assert_eq!(opened.probe(&pos), None);
    let one_three = Position::parse("5/1B1B1/2B2/1W3/5 w").unwrap();
    assert!(opened.try_probe(&one_three).is_err());
    assert!(Tablebase::open(dir.join("missing")).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn streamed_tables_answer_as_tables_in_memory() {
    let dir = temp_dir("streamed");
    let built = tablebase::generate(4, Some(&dir), |_| {}).unwrap();
    // Every file is bigger than 0 bytes: every table stays on disk.
    let streamed = Tablebase::open(&dir).unwrap().stream_above(0);
    let in_memory = Tablebase::open(&dir).unwrap().stream_above(u64::MAX);
    for pos in all_positions(4) {
        let value = in_memory.try_probe(&pos).unwrap();
        assert!(value.is_some(), "{pos}");
        assert_eq!(streamed.try_probe(&pos).unwrap(), value, "{pos}");
        assert_eq!(built.try_probe(&pos).unwrap(), value, "{pos}");
    }
    for m in streamed.materials() {
        let (s, t) = (streamed.table(m).unwrap().unwrap(), in_memory.table(m).unwrap().unwrap());
        assert!(s.is_streamed() && !t.is_streamed(), "{m}");
        assert_eq!(s.stats(), t.stats());
        assert_eq!(s.as_bytes(), None);
    }

    // A damaged file is refused when it is first needed, streamed or not.
    let path = dir.join("alq-2v2.ltb");
    let good = std::fs::read(&path).unwrap();
    let pos = Position::parse("5/1B1B1/5/1W1W1/5 w").unwrap();
    for (at, what) in [(HEADER_BYTES + 3, "checksum"), (20, "positions")] {
        let mut bad = good.clone();
        bad[at] ^= 0x04;
        std::fs::write(&path, &bad).unwrap();
        let e = Tablebase::open(&dir).unwrap().stream_above(0).try_probe(&pos).unwrap_err();
        assert!(matches!(e, TbError::Corrupt(_)) && e.to_string().contains(what), "{at}: {e}");
    }
    for len in [good.len() - 1, HEADER_BYTES - 1, 0] {
        std::fs::write(&path, &good[..len]).unwrap();
        let e = Tablebase::open(&dir).unwrap().stream_above(0).try_probe(&pos).unwrap_err();
        assert!(matches!(e, TbError::Corrupt(_)) && e.to_string().contains("truncated"), "{len}: {e}");
    }

    // A file cut short after it was checked: the probes that need the lost bytes are errors,
    // never values.
    std::fs::write(&path, &good).unwrap();
    let opened = Tablebase::open(&dir).unwrap().stream_above(0);
    let two_two = Material::new(2, 2).unwrap();
    let table = opened.table(two_two).unwrap().unwrap();
    let positions = table.stats().positions;
    assert!(table.try_get(0).unwrap().is_some());
    std::fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(HEADER_BYTES as u64).unwrap();
    let e = table.try_get(positions - 1).unwrap_err();
    assert!(matches!(e, TbError::Io(_)), "{e}");
    assert_eq!(table.get(positions - 1), None);
    assert_eq!(table.try_get(positions).unwrap(), None);
    std::fs::remove_dir_all(&dir).unwrap();
}

const HEADER_BYTES: usize = tablebase::table::HEADER;

#[test]
fn files_of_format_version_1_are_read_and_a_build_rewrites_them() {
    // The 2-against-2 table as the first version of the format wrote it: a distance entry for
    // every position, no directory.
    let v1 = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/alq-2v2-version1.ltb")).unwrap();
    let old = Table::from_bytes(&v1).unwrap();
    let two_two = Material::new(2, 2).unwrap();
    let new = tb().table(two_two).unwrap().unwrap();
    assert_eq!((old.version(), new.version()), (1, tablebase::table::VERSION));
    let (o, n) = (old.stats(), new.stats());
    assert_eq!(
        (o.positions, o.wins, o.draws, o.losses, o.max_plies),
        (n.positions, n.wins, n.draws, n.losses, n.max_plies)
    );
    for i in 0..n.positions {
        assert_eq!(old.get(i), new.get(i), "{i}");
    }
    // Draws take no distance entry any more; the values are in lines of 64 bytes, a count and
    // 224 positions.
    assert_eq!(n.bytes, 64 + n.positions.div_ceil(224) * 64 + n.wins + n.losses);
    assert_eq!(o.bytes, 64 + n.positions.div_ceil(4) + n.positions);

    let dir = temp_dir("version1");
    tablebase::generate(4, Some(&dir), |_| {}).unwrap();
    let path = dir.join(two_two.file_name());
    std::fs::write(&path, &v1).unwrap();
    let streamed = Tablebase::open(&dir).unwrap().stream_above(0);
    for pos in all_positions(4) {
        assert_eq!(streamed.try_probe(&pos).unwrap(), tb().probe(&pos), "{pos}");
    }
    let mut reused = Vec::new();
    tablebase::generate(4, Some(&dir), |g| reused.push(g.reused)).unwrap();
    assert!(reused.iter().all(|&r| r));
    assert_eq!(std::fs::read(&path).unwrap(), new.as_bytes().unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn generation_on_several_threads_writes_the_same_tables() {
    let one = tablebase::generate_with_threads(5, None, 1, |_| {}).unwrap();
    let three = tablebase::generate_with_threads(5, None, 3, |_| {}).unwrap();
    assert_eq!(one.materials(), three.materials());
    for m in one.materials() {
        let (a, b) = (one.table(m).unwrap().unwrap(), three.table(m).unwrap().unwrap());
        assert!(a.as_bytes().is_some());
        assert_eq!(a.as_bytes(), b.as_bytes(), "{m}");
    }
}

#[test]
fn a_stopped_build_goes_on_with_the_tables_it_wrote() {
    let dir = temp_dir("resume");
    tablebase::generate(3, Some(&dir), |_| {}).unwrap();
    let two_one = dir.join(Material::new(2, 1).unwrap().file_name());
    let good = std::fs::read(&two_one).unwrap();
    // A damaged table is built again, with its pair.
    std::fs::write(&two_one, &good[..good.len() / 3]).unwrap();
    let mut reports = Vec::new();
    let resumed =
        tablebase::generate(4, Some(&dir), |g| reports.push((g.stats.material.to_string(), g.reused)))
            .unwrap();
    let reused: Vec<&str> = reports.iter().filter(|r| r.1).map(|r| r.0.as_str()).collect();
    let built: Vec<&str> = reports.iter().filter(|r| !r.1).map(|r| r.0.as_str()).collect();
    assert_eq!(reused, ["1v1"]);
    assert_eq!(built, ["1v2", "2v1", "1v3", "3v1", "2v2"]);
    assert_eq!(std::fs::read(&two_one).unwrap(), good);
    for pos in all_positions(4) {
        assert_eq!(resumed.try_probe(&pos).unwrap(), tb().probe(&pos), "{pos}");
    }
    // Run again, it keeps everything, the top tables included, and leaves no partial file.
    reports.clear();
    tablebase::generate(4, Some(&dir), |g| reports.push((g.stats.material.to_string(), g.reused))).unwrap();
    assert_eq!(reports.len(), 6);
    assert!(reports.iter().all(|r| r.1), "{reports:?}");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(name.ends_with(".ltb"), "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A covered position where the side to move wins and the first winning move in the rules'
/// order is not the fastest.
fn position_with_a_slow_first_win(tb: &Tablebase) -> (Position, Probe) {
    let mut rng = Rng(11);
    loop {
        let pos = random_position(&mut rng, 3, 2);
        let Some(p) = tb.probe(&pos) else { continue };
        if p.wdl != Wdl::Win || p.plies_to_end < 5 {
            continue;
        }
        let values = tb.move_values(&pos).unwrap();
        let first_win = values.iter().find(|(_, v)| v.wdl == Wdl::Win).unwrap();
        if first_win.1.plies_to_end > p.plies_to_end {
            return (pos, p);
        }
    }
}

#[test]
fn medium_and_hard_play_the_fastest_win_in_a_tablebase_position() {
    let tb = tb();
    let (pos, probe) = position_with_a_slow_first_win(tb);
    let game = AnyGame::from_position(AnyPosition::Alquerque(pos));
    // Medium at its own depth, as in the game (it has the tables too).
    for (level, limits) in [(Level::Medium, Limits::NONE), (Level::Hard, Limits::depth(6))] {
        let mut search = AnySearch::new(&game, level, limits, 1).with_tablebase(tb.clone());
        let mv = search.run_to_end().unwrap();
        let ludus_rules::AnyMove::Alquerque(mv) = mv else { panic!("an Alquerque move") };
        let after = tb.probe(&pos.play_unchecked(&mv)).unwrap().before_move();
        assert_eq!(after, probe, "{level} in {pos}: played {}", pos.move_to_string(&mv));
        let info = search.info();
        assert_eq!(info.tablebase, Some(probe), "{level}");
        assert_eq!(info.score, Score::WinIn(u32::from(probe.plies_to_end)), "{level}");
        assert_eq!(info.pv.len(), usize::from(probe.plies_to_end), "{level}: {:?}", info.pv);
    }
    assert!(probe.describe(pos.side_to_move()).contains("wins in"));
}

#[test]
fn with_the_counter_near_its_limit_hard_keeps_to_winning_moves() {
    let tb = tb();
    let (pos, probe) = position_with_a_slow_first_win(tb);
    // The same position with 48 plies since the last capture: the win may not come in time.
    let late =
        Position::from_bitboards(pos.pieces(Side::First), pos.pieces(Side::Second), pos.side_to_move(), 48)
            .unwrap();
    assert!(!probe.holds_with_clock(48));
    let game = AnyGame::from_position(AnyPosition::Alquerque(late));
    let mut search = AnySearch::new(&game, Level::Hard, Limits::depth(4), 1).with_tablebase(tb.clone());
    let ludus_rules::AnyMove::Alquerque(mv) = search.run_to_end().unwrap() else { panic!() };
    let after = tb.probe(&late.play_unchecked(&mv)).unwrap().before_move();
    assert_eq!(after.wdl, Wdl::Win, "{late}");
    assert!(search.info().depth > 0, "searched, not played from the table");
}

#[test]
fn the_search_uses_the_tables_inside_the_tree() {
    // Six pieces, beyond the tables: every capture leads into them.
    let tb = tb();
    let mut rng = Rng(13);
    let mut checked = 0;
    while checked < 20 {
        let pos = random_position(&mut rng, 3, 3);
        if pos.outcome(false).is_some() || !pos.can_capture(pos.side_to_move()) {
            continue;
        }
        // With captures compulsory, every move here leads into the tables.
        let Some(values) = tb.move_values(&pos) else { continue };
        let (_, best) = tablebase::best_of(&values).unwrap();
        let game = AnyGame::from_position(AnyPosition::Alquerque(pos));
        let mut search = AnySearch::new(&game, Level::Hard, Limits::depth(3), 1).with_tablebase(tb.clone());
        let ludus_rules::AnyMove::Alquerque(mv) = search.run_to_end().unwrap() else { panic!() };
        let played = values.iter().find(|(m, _)| *m == mv).unwrap().1;
        assert_eq!(played.wdl, best.wdl, "{pos}");
        if best.wdl != Wdl::Draw {
            assert_eq!(played, best, "{pos}");
            let expected = if best.wdl == Wdl::Win {
                Score::WinIn(u32::from(best.plies_to_end))
            } else {
                Score::LossIn(u32::from(best.plies_to_end))
            };
            assert_eq!(search.info().score, expected, "{pos}");
        }
        assert_eq!(search.info().tablebase, None);
        checked += 1;
    }
}

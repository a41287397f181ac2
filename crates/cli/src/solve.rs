//! `ludus-cli solve`: solves an Alquerque position (or each of its first moves) with the
//! proof-number solver of `ludus_ai::solve`, the endgame tables as exact leaves; prints
//! progress, saves a state file that a later run continues from, and writes a certificate of
//! every proven result. `--check FILE` checks a certificate with only the rules and the tables.
//! `--prove-book BOOK` writes the proof of a book of proven values, which `--check` checks with
//! `--compare-book BOOK`.
//!
//! The values are those of the endgame tables: a repetition, and play that never ends, are
//! draws, and the 50-ply no-capture counter is ignored.

use crate::args::thousands;
use crate::error::CliError;
use ludus_ai::solve::check::{check_book, check_text};
use ludus_ai::solve::{
    SolveStats, SolveStatus, SolvedTable, Solver, Value, book, book_proof, build, certificate, prove,
};
use ludus_ai::tablebase::Tablebase;
use ludus_rules::alquerque::Position;
use ludus_rules::{GamePosition, Side};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

const RULES_NOTE: &str = "rules as the endgame tables play them: repetition and endless play are draws; the 50-ply no-capture counter is ignored";

#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// The Alquerque position (default: the start)
    #[arg(long, value_name = "POS")]
    position: Option<String>,
    /// A directory of endgame tables (`tablebase build`) used as exact leaves (default: none)
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
    /// Stop after expanding this many nodes (for each first move with --children)
    #[arg(long, value_name = "N", default_value_t = 10_000_000)]
    max_nodes: u64,
    /// Stop after this many seconds (for each first move with --children)
    #[arg(long, value_name = "S")]
    max_seconds: Option<u64>,
    /// The most nodes in a search's graph (roughly 100 bytes each)
    #[arg(long, value_name = "N", default_value_t = 30_000_000)]
    max_graph: usize,
    /// A state file: read if it exists (the run continues from it), written every
    /// --save-every seconds and at the end
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,
    /// Seconds between two saves of the state file
    #[arg(long, value_name = "S", default_value_t = 60)]
    save_every: u64,
    /// Seconds between two progress lines
    #[arg(long, value_name = "S", default_value_t = 5)]
    progress_every: u64,
    /// Where to write the certificate of a proven result (with --children: FILE.<move> for
    /// each first move proven)
    #[arg(long, value_name = "FILE", default_value = "alquerque.cert")]
    certificate: PathBuf,
    /// Solve each first move of the side to move instead of the position
    #[arg(long)]
    children: bool,
    /// Check the certificate FILE (with the tables of --tables) instead of solving
    #[arg(long, value_name = "FILE", conflicts_with = "children")]
    check: Option<PathBuf>,
    /// With --check: also compare this book of proven values with the certificate; when the
    /// file checked is a book's proof (--prove-book), the book it must back
    #[arg(long, value_name = "FILE", requires = "check")]
    compare_book: Option<PathBuf>,
    /// Write the proof of this book of proven values to --certificate FILE instead of
    /// solving: the strategies that back each entry's value and kept moves, read from the
    /// solver's results (--state) and solving where they are missing (--book-solve-nodes);
    /// entries that cannot be backed are left out, and the book of the others is written
    /// beside the proof as FILE.lbk
    #[arg(long, value_name = "BOOK", conflicts_with_all = ["children", "check", "book", "keeping"])]
    prove_book: Option<PathBuf>,
    /// Once the position is solved, write a book of proven values from it to FILE: the
    /// positions of play in which one side keeps the value, with the moves that keep it
    #[arg(long, value_name = "FILE", conflicts_with_all = ["children", "check"])]
    book: Option<PathBuf>,
    /// Judge player A's moves in these `arena alquerque --moves` outputs instead of solving:
    /// how many keep the position's proven value (positions with one legal move left out)
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["children", "check", "book"])]
    keeping: Vec<PathBuf>,
    /// The book's deepest ply from the position
    #[arg(long, value_name = "N", default_value_t = 12)]
    book_plies: u32,
    /// The most positions in the book
    #[arg(long, value_name = "N", default_value_t = 5_000)]
    book_entries: usize,
    /// Plies the book follows a game after a side first throws the value away
    #[arg(long, value_name = "N", default_value_t = 6)]
    book_after_mistake: u32,
    /// Nodes of solving for each position of the book (or move) whose value is not known yet
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    book_solve_nodes: u64,
}

pub fn run(args: SolveArgs) -> Result<(), CliError> {
    let tb = match &args.tables {
        Some(dir) => Some(Arc::new(Tablebase::open(dir)?)),
        None => None,
    };
    if let Some(file) = &args.check {
        let text = std::fs::read_to_string(file).map_err(CliError::read(file))?;
        if text.starts_with(book_proof::FIRST_LINE) {
            let Some(path) = &args.compare_book else {
                return Err(CliError::Usage(format!(
                    "{}: a book's proof is checked against its book: give --compare-book BOOK",
                    file.display()
                )));
            };
            return check_book_proof(file, &text, path, tb.as_deref());
        }
        check(file, &text, tb.as_deref())?;
        if let Some(path) = &args.compare_book {
            compare_book(file, &text, path)?;
        }
        return Ok(());
    }
    if !args.keeping.is_empty() {
        return keeping(&args, tb);
    }
    if let Some(path) = &args.prove_book {
        return prove_book(&args, path, tb);
    }
    let root = match &args.position {
        None => Position::start(),
        Some(s) => Position::parse(s).map_err(CliError::position(s))?,
    };
    let table = match &args.state {
        Some(path) if path.exists() => {
            let t = SolvedTable::load(path)?;
            println!(
                "state {}: {} positions solved{}",
                path.display(),
                thousands(t.len() as u64),
                t.graph.as_ref().map_or(String::new(), |g| format!(
                    ", a search under way with {} positions expanded",
                    thousands(g.expanded.len() as u64)
                ))
            );
            t
        }
        _ => SolvedTable::new(),
    };
    println!("{RULES_NOTE}");
    match &tb {
        Some(t) => println!(
            "tables: {} (up to {} pieces)",
            args.tables.as_deref().map_or(String::new(), |d| d.display().to_string()),
            t.max_pieces()
        ),
        None => println!("tables: none (only game ends are leaves)"),
    }
    if !args.children {
        let (value, table) = solve_one(&args, &root, tb.clone(), table, &args.certificate)?;
        if value.is_none() {
            println!("result: unknown within the budget");
        }
        if let Some(path) = &args.book {
            write_book(&args, path, &root, tb, table)?;
        }
        return Ok(());
    }
    if root.outcome(false).is_some() {
        return Err(CliError::Failed(format!("{root}: the game is over, there are no first moves")));
    }
    let mut table = table;
    let mut results = Vec::new();
    for mv in root.legal_moves() {
        let name = root.move_to_string(&mv);
        let child = root.play_unchecked(&mv);
        println!();
        println!("first move {name}: {child}");
        let cert = PathBuf::from(format!("{}.{name}", args.certificate.display()));
        let (value, t) = solve_one(&args, &child, tb.clone(), table, &cert)?;
        table = t;
        results.push((name, value));
    }
    println!();
    println!("first moves of {root}:");
    for (name, value) in &results {
        match value {
            Some((v, nodes)) => println!("  {name:<12} {v} (proven, {} nodes)", thousands(*nodes)),
            None => println!("  {name:<12} unknown within the budget"),
        }
    }
    Ok(())
}

/// Solves `pos`; returns its value (with the nodes it took) if proven within the budget, and
/// the solved-position table for the next one.
fn solve_one(
    args: &SolveArgs,
    pos: &Position,
    tb: Option<Arc<Tablebase>>,
    table: SolvedTable,
    cert_path: &Path,
) -> Result<(Option<(Value, u64)>, SolvedTable), CliError> {
    let side = if pos.side_to_move() == Side::First { "White" } else { "Black" };
    println!("solving {pos} ({side} to move)");
    let start = Instant::now();
    let mut solver = Solver::new(pos, tb, table, args.max_graph);
    let (mut last_progress, mut last_save) = (Instant::now(), Instant::now());
    let nodes_at_start = solver.stats().nodes;
    let save = |solver: &Solver| -> Result<(), CliError> {
        match &args.state {
            Some(path) => Ok(solver.save(path)?),
            None => Ok(()),
        }
    };
    let outcome = loop {
        let left = args.max_nodes.saturating_sub(solver.stats().nodes - nodes_at_start).max(1);
        let status = solver.step(left.min(20_000))?;
        let stats = solver.stats();
        if last_progress.elapsed().as_secs() >= args.progress_every {
            progress(&solver, &stats, start);
            last_progress = Instant::now();
        }
        if last_save.elapsed().as_secs() >= args.save_every {
            save(&solver)?;
            last_save = Instant::now();
        }
        match status {
            SolveStatus::Solved(v) => break Some(v),
            SolveStatus::Full => {
                println!(
                    "the search graph was full twice in a row ({} nodes, --max-graph) without a new result",
                    thousands(args.max_graph as u64)
                );
                break None;
            }
            SolveStatus::Running => {}
        }
        let out_of_time = args.max_seconds.is_some_and(|s| start.elapsed().as_secs() >= s);
        if stats.nodes - nodes_at_start >= args.max_nodes || out_of_time {
            break None;
        }
    };
    let stats = solver.stats();
    progress(&solver, &stats, start);
    save(&solver)?;
    let Some(value) = outcome else {
        println!(
            "{pos}: unknown within the budget ({} nodes in this run, {:.1} s)",
            thousands(stats.nodes - nodes_at_start),
            start.elapsed().as_secs_f64()
        );
        return Ok((None, solver.into_table()));
    };
    println!(
        "{pos}: {value} (proven; {} nodes in this run, {:.1} s)",
        thousands(stats.nodes - nodes_at_start),
        start.elapsed().as_secs_f64()
    );
    match prove::extract(pos, value, solver.table(), solver.tablebase()) {
        Ok(cert) => {
            let lines: usize = cert.strategies.iter().map(|s| s.nodes.len()).sum();
            std::fs::write(cert_path, cert.to_text()).map_err(CliError::write(cert_path))?;
            println!("certificate: {} ({} positions)", cert_path.display(), thousands(lines as u64));
        }
        Err(e) => println!("no certificate: {e}"),
    }
    Ok((Some((value, stats.nodes - nodes_at_start)), solver.into_table()))
}

/// `--compare-book`: the book against a certificate already checked.
fn compare_book(cert: &Path, text: &str, path: &Path) -> Result<(), CliError> {
    let cert_read =
        certificate::Certificate::parse(text).map_err(|e| CliError::from(e).at(cert.display()))?;
    let book = read_book(path)?;
    let compared = book.agrees_with(&cert_read).map_err(|e| CliError::from(e).at(path.display()))?;
    println!(
        "{}: {} of its {} positions are in the strategies of {}, and agree with them",
        path.display(),
        thousands(compared),
        thousands(book.len() as u64),
        cert.display()
    );
    Ok(())
}

/// The solved-position table of `--state`, or an empty one.
fn state_or_empty(args: &SolveArgs) -> Result<SolvedTable, CliError> {
    match &args.state {
        Some(path) if path.exists() => Ok(SolvedTable::load(path)?),
        _ => Ok(SolvedTable::new()),
    }
}

/// The limits of the short solves of `--keeping` and `--prove-book` (`--book-solve-nodes`).
fn short_solves(args: &SolveArgs) -> build::BuildLimits {
    build::BuildLimits {
        max_plies: 0,
        max_entries: 0,
        after_mistake: 0,
        solve_nodes: args.book_solve_nodes,
        max_graph: args.max_graph,
    }
}

fn read_book(path: &Path) -> Result<book::Book, CliError> {
    let bytes = std::fs::read(path).map_err(CliError::read(path))?;
    Ok(book::Book::from_bytes(&bytes, &path.display().to_string())?)
}

/// `--check PROOF --compare-book BOOK`: every entry of the book backed by the proof.
fn check_book_proof(file: &Path, text: &str, path: &Path, tb: Option<&Tablebase>) -> Result<(), CliError> {
    let start = Instant::now();
    let proof = book_proof::BookProof::parse(text).map_err(|e| CliError::from(e).at(file.display()))?;
    let book = read_book(path)?;
    let report = check_book(&book, &proof, tb).map_err(|e| CliError::from(e).at(file.display()))?;
    let s = &report.strategies;
    println!("{RULES_NOTE}");
    println!(
        "{}: valid proof of {}: all {} entries backed; {} positions followed, {} game ends, {} table leaves, {} repetitions; {:.1} s",
        file.display(),
        path.display(),
        thousands(report.entries),
        thousands(s.positions),
        thousands(s.game_ends),
        thousands(s.table_leaves),
        thousands(s.repetitions),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `--prove-book`: writes the proof of a book.
fn prove_book(args: &SolveArgs, path: &Path, tb: Option<Arc<Tablebase>>) -> Result<(), CliError> {
    let book = read_book(path)?;
    let mut table = state_or_empty(args)?;
    let limits = short_solves(args);
    println!("{RULES_NOTE}");
    println!(
        "proving {} ({} entries) from {} solved positions, {} nodes of solving where a strategy is missing",
        path.display(),
        thousands(book.len() as u64),
        thousands(table.len() as u64),
        thousands(args.book_solve_nodes)
    );
    let start = Instant::now();
    let mut last = Instant::now();
    let result = prove::prove(&book, tb, &mut table, &limits, |s| {
        if last.elapsed().as_secs() >= args.progress_every {
            println!(
                "[{:7.1} s] entries {} of {} proven, {} left out, positions {}, solver runs {}",
                start.elapsed().as_secs_f64(),
                thousands(s.entries),
                thousands(book.len() as u64),
                thousands(s.left_out),
                thousands(s.positions),
                thousands(s.solves)
            );
            last = Instant::now();
        }
    });
    if let Some(state) = &args.state {
        table.save(state, None)?;
    }
    let (proof, proven, stats) = result?;
    let text = proof.to_text();
    std::fs::write(&args.certificate, &text).map_err(CliError::write(&args.certificate))?;
    if proven.len() < book.len() {
        // The proof is of the entries proven: write them as a book of their own.
        let kept = PathBuf::from(format!("{}.lbk", args.certificate.display()));
        std::fs::write(&kept, proven.to_bytes()).map_err(CliError::write(&kept))?;
        let left: Vec<String> = book
            .entries()
            .iter()
            .filter(|(k, _)| proven.entries().binary_search_by_key(k, |&(x, _)| x).is_err())
            .take(10)
            .filter_map(|&(k, e)| ludus_ai::solve::position_of(k).map(|p| format!("  {p} ({})", e.value)))
            .collect();
        println!(
            "{} entries could not be backed within the budget (the first {}):\n{}",
            thousands(stats.left_out),
            left.len(),
            left.join("\n")
        );
        println!(
            "the proof is of the other {} entries, written as the book {}",
            thousands(proven.len() as u64),
            kept.display()
        );
    }
    println!(
        "proof: {} ({} positions in {} strategies, {} bytes), {} solver runs, {:.1} s",
        args.certificate.display(),
        thousands(stats.positions),
        proof.strategies.len(),
        thousands(text.len() as u64),
        thousands(stats.solves),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `--keeping`: judges player A's moves in arena records.
fn keeping(args: &SolveArgs, tb: Option<Arc<Tablebase>>) -> Result<(), CliError> {
    let records = crate::records::read_files(&args.keeping)?;
    let mut table = state_or_empty(args)?;
    let limits = short_solves(args);
    println!("{RULES_NOTE}");
    println!(
        "{} games; player A's moves with a choice, {} nodes of solving for each position not known yet",
        records.len(),
        thousands(args.book_solve_nodes)
    );
    let start = Instant::now();
    let (mut judged, mut known, mut kept, mut unknown_move) = (0u64, 0u64, 0u64, 0u64);
    let mut lost = Vec::new();
    // Games by the value of A's first position with a known value, for A (won, drawn, lost):
    // how many, and A's points in them.
    let mut first = [(0u64, 0.0f64); 3];
    let (mut never_known, mut no_result) = (0u64, 0u64);
    for r in &records {
        let a_side = if r.a_first { Side::First } else { Side::Second };
        let mut first_seen = false;
        let mut pos = Position::start();
        for (ply, text) in r.moves.iter().enumerate() {
            let mv =
                pos.parse_move(text).map_err(|e| CliError::bad_move(Some(ply + 1), text)(e).at(&r.at))?;
            // The random opening's moves are nobody's choice.
            if ply >= r.opening && pos.side_to_move() == a_side && pos.legal_moves().len() > 1 {
                judged += 1;
                let j = build::judge(&pos, &mv, tb.clone(), &mut table, &limits)?;
                if let Some(v) = j.value {
                    known += 1;
                    if !first_seen {
                        first_seen = true;
                        let class = &mut first[match v.winner() {
                            Some(w) if w == a_side => 0,
                            None => 1,
                            Some(_) => 2,
                        }];
                        class.0 += 1;
                        match r.a_points {
                            Some(p) => class.1 += f64::from(p),
                            None => no_result += 1,
                        }
                    }
                    match j.keeps {
                        Some(true) => kept += 1,
                        Some(false) => lost.push(format!(
                            "  {} ply {}: {pos} {text}: {} -> {}",
                            r.at,
                            ply + 1,
                            j.value.map_or("?".into(), |v| v.to_string()),
                            j.after.map_or("a value not settled".into(), |v| v.to_string())
                        )),
                        None => unknown_move += 1,
                    }
                }
            }
            pos = pos.play_unchecked(&mv);
        }
        never_known += u64::from(!first_seen);
    }
    if !lost.is_empty() {
        println!("{}", lost.join("\n"));
    }
    let settled = kept + lost.len() as u64;
    println!(
        "positions judged {}: value known {} ({:.1}%); of the moves settled ({}), kept {} ({:.1}%), threw the value away {}; moves not settled {}; {:.1} s",
        thousands(judged),
        thousands(known),
        100.0 * known as f64 / judged.max(1) as f64,
        thousands(settled),
        thousands(kept),
        100.0 * kept as f64 / settled.max(1) as f64,
        lost.len(),
        thousands(unknown_move),
        start.elapsed().as_secs_f64()
    );
    let class = |(games, points): (u64, f64)| format!("{games} (A's points {points})");
    println!(
        "games by the value of A's first position with a known value (after the opening): A winning {}, drawn {}, A losing {}; never known {never_known}{}",
        class(first[0]),
        class(first[1]),
        class(first[2]),
        if no_result > 0 {
            format!("; {no_result} of them without a readable result (no points counted)")
        } else {
            String::new()
        }
    );
    Ok(())
}

/// Builds the book of `root` from the solver's results and writes it.
fn write_book(
    args: &SolveArgs,
    path: &Path,
    root: &Position,
    tb: Option<Arc<Tablebase>>,
    mut table: SolvedTable,
) -> Result<(), CliError> {
    let start = Instant::now();
    let limits = build::BuildLimits {
        max_plies: args.book_plies,
        max_entries: args.book_entries,
        after_mistake: args.book_after_mistake,
        solve_nodes: args.book_solve_nodes,
        max_graph: args.max_graph,
    };
    println!();
    println!(
        "book: up to {} plies ({} after a move that throws the value away), {} positions, {} nodes of solving for each unknown position",
        args.book_plies,
        args.book_after_mistake,
        thousands(args.book_entries as u64),
        thousands(args.book_solve_nodes)
    );
    let mut last = Instant::now();
    let (book, stats) = build::build(root, tb, &mut table, limits, |s| {
        if last.elapsed().as_secs() >= args.progress_every {
            println!(
                "[{:7.1} s] book: visited {}, written {}, unknown {}, solver runs {}, ply {}",
                start.elapsed().as_secs_f64(),
                thousands(s.visited),
                thousands(s.written),
                thousands(s.unknown),
                thousands(s.solves),
                s.deepest
            );
            last = Instant::now();
        }
    })?;
    let bytes = book.to_packed_bytes();
    std::fs::write(path, &bytes).map_err(CliError::write(path))?;
    let values = |v: Value| book.entries().iter().filter(|(_, e)| e.value == v).count() as u64;
    println!(
        "book: {} ({} positions: {} draws, {} White wins, {} Black wins; to ply {}; {} bytes), {} visited with the value unknown, {} solver runs, {:.1} s",
        path.display(),
        thousands(book.len() as u64),
        thousands(values(Value::Draw)),
        thousands(values(Value::WhiteWins)),
        thousands(values(Value::BlackWins)),
        stats.deepest,
        thousands(bytes.len() as u64),
        thousands(stats.unknown),
        thousands(stats.solves),
        start.elapsed().as_secs_f64()
    );
    if let Some(state) = &args.state {
        table.save(state, None)?;
    }
    Ok(())
}

fn progress(solver: &Solver, s: &SolveStats, start: Instant) {
    let secs = start.elapsed().as_secs_f64();
    let what = match solver.attacker() {
        Some(Side::First) => "can White force a win?",
        Some(Side::Second) => "can Black force a win?",
        None => "done",
    };
    println!(
        "[{secs:7.1} s] {what} nodes {}, graph {}{}, proven {}, disproven {}, solved table {} positions, memory ~{} MB",
        thousands(s.nodes),
        thousands(s.graph_nodes),
        match solver.restarts() {
            0 => String::new(),
            n => format!(" (graph {})", n + 1),
        },
        thousands(s.proven),
        thousands(s.disproven),
        thousands(s.table_entries),
        s.memory_bytes / 1_000_000
    );
}

fn check(file: &Path, text: &str, tb: Option<&Tablebase>) -> Result<(), CliError> {
    let report = check_text(text, tb).map_err(|e| CliError::from(e).at(file.display()))?;
    let claim = report.claim.map_or("?".to_string(), |v| v.to_string());
    println!("{RULES_NOTE}");
    println!(
        "{}: certificate valid: {claim}; {} positions followed, {} game ends, {} table leaves, {} repetitions",
        file.display(),
        thousands(report.positions),
        thousands(report.game_ends),
        thousands(report.table_leaves),
        thousands(report.repetitions)
    );
    Ok(())
}

//! `ludus-cli tune`: tunes a game's evaluation on played games (Texel's method, see
//! `ludus_ai::tune`). The games are `arena --moves` outputs (see `records.rs`), replayed from
//! the start under the rules, which give each its result. Every fifth game is held out: its error is printed beside the tuned one's, as a check that
//! the weights learned the games and not their noise.

use crate::args::{apply_sets, parse_variant};
use crate::error::CliError;
use crate::records::{Record, read_files};
use ludus_ai::eval::SearchGame;
use ludus_ai::tune::{self, Sample, Weights};
use ludus_ai::{Level, Params, Tablebase};
use ludus_rules::{AnyPosition, Game, Side, Variant};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// latrunculi, latrunculi-quick or alquerque
    #[arg(value_name = "GAME", value_parser = parse_variant)]
    variant: Variant,
    /// `arena GAME --moves` outputs of that game
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// The first plies of each game left out (the arena's random openings: each is played
    /// twice); default 6 in Latrunculi, 10 in Alquerque
    #[arg(long, value_name = "P")]
    skip_plies: Option<usize>,
    /// The first step of every weight; the search then goes on with steps of 1
    #[arg(long, value_name = "S", default_value_t = 2, value_parser = clap::value_parser!(i32).range(1..=100))]
    step: i32,
    /// The most passes over the weights for each step size (a pass that moves nothing ends it)
    #[arg(long, value_name = "N", default_value_t = 200)]
    passes: usize,
    /// Start from Hard's weights with these changed (NAME=VALUE, as `arena --set-a`)
    #[arg(long = "set", value_name = "NAME=VALUE")]
    sets: Vec<String>,
    /// Alquerque endgame tables: a position they cover is labelled with its exact value, and
    /// one before them with the value of the first position of its game that they cover (what
    /// the game was worth when it reached them, whatever the play after)
    #[arg(long, value_name = "DIR")]
    tablebase: Option<PathBuf>,
    /// Tune on the positions with more than this many pieces only (with 6, those the game's
    /// search evaluates when it has the 6-piece tables)
    #[arg(long, value_name = "N", default_value_t = 0)]
    above: u32,
}

pub fn run(args: TuneArgs) -> Result<(), CliError> {
    let records = read_files(&args.files)?;
    let mut params = Level::Hard.params();
    apply_sets(&mut params, &args.sets)?;
    let tb = match &args.tablebase {
        Some(_) if args.variant.is_latrunculi() => {
            return Err(CliError::Usage("--tablebase is for Alquerque".to_string()));
        }
        Some(dir) => Some(Tablebase::open(dir)?),
        None => None,
    };
    let skip = args.skip_plies.unwrap_or(if args.variant.is_latrunculi() { 6 } else { 10 });
    let how = Labels { skip, above: args.above, tb: tb.as_ref() };
    match args.variant.start() {
        AnyPosition::Alquerque(start) => {
            let (train, held) = samples(&records, &how, start)?;
            report(&args, &train, &held, params, tune::alquerque_weights, "alq")
        }
        AnyPosition::Latrunculi(start) => {
            let (train, held) = samples(&records, &how, start)?;
            report(&args, &train, &held, params, tune::latrunculi_weights, "lat")
        }
    }
}

/// Which positions are labelled, and how.
struct Labels<'a> {
    /// The first plies of each game left out.
    skip: usize,
    /// Only positions with more pieces than this.
    above: u32,
    /// Endgame tables for the labels, if given.
    tb: Option<&'a Tablebase>,
}

/// The quiet positions of the games after the skipped plies, labelled for their side to move
/// with the game's result, or what the tables say (see [`TuneArgs::tablebase`]): the games to
/// tune on, and every fifth game held out.
fn samples<P: SearchGame>(
    records: &[Record],
    how: &Labels,
    start: P,
) -> Result<(Vec<Sample<P>>, Vec<Sample<P>>), CliError> {
    let ctx = start.context();
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for (i, r) in records.iter().enumerate() {
        let mut game = Game::new(start);
        for mv in &r.moves {
            game.play_str(mv).map_err(|e| CliError::bad_move(None, mv)(e).at(&r.at))?;
        }
        let Some(outcome) = game.outcome() else {
            // Stopped by the arena's ply limit: no result to learn from.
            continue;
        };
        let out = if i % 5 == 4 { &mut held } else { &mut train };
        let positions = game.positions();
        // The winner with best play (`None`: a draw) of each position the tables cover.
        let probes: Vec<Option<Option<Side>>> = positions
            .iter()
            .map(|p| Some(how.tb.and_then(|tb| p.tablebase_probe(tb))?.winner(p.side_to_move())))
            .collect();
        for (ply, pos) in positions.iter().enumerate().skip(how.skip) {
            if pos.piece_count().0 <= how.above
                || pos.rule_outcome(false).is_some()
                || !tune::is_quiet(pos, &ctx)
            {
                continue;
            }
            let side = pos.side_to_move();
            let result = match probes[ply..].iter().flatten().next() {
                Some(&winner) => tune::result_of(winner, side),
                None => tune::result_for(&outcome, side),
            };
            out.push(Sample { pos: *pos, result });
        }
    }
    Ok((train, held))
}

fn report<P: SearchGame>(
    args: &TuneArgs,
    train: &[Sample<P>],
    held: &[Sample<P>],
    params: Params,
    weights: Weights,
    prefix: &str,
) -> Result<(), CliError> {
    let Some(first) = train.first() else {
        return Err(CliError::Failed("no quiet positions to tune on after the skipped plies".to_string()));
    };
    let ctx = first.pos.context();
    let k = tune::fit_k(train, &ctx, &params);
    let (before, before_held) = (tune::error(train, &ctx, &params, k), tune::error(held, &ctx, &params, k));
    println!(
        "tune {}: {} positions to tune on, {} held out; steepness {k:.3}; error {before:.6} (held out {before_held:.6})",
        args.variant.name(),
        train.len(),
        held.len()
    );
    let mut tuned = params.clone();
    let mut steps = vec![args.step];
    if args.step > 1 {
        steps.push(1);
    }
    for step in steps {
        let (p, _) = tune::tune(train, &ctx, &tuned, weights, k, step, args.passes, |pass| {
            println!(
                "step {step} pass {}: error {:.6}, {} weights moved",
                pass.number, pass.error, pass.changes
            );
        });
        tuned = p;
    }
    let (after, after_held) = (tune::error(train, &ctx, &tuned, k), tune::error(held, &ctx, &tuned, k));
    println!("tuned: error {after:.6} (held out {after_held:.6})");
    let mut old = params;
    let mut new = tuned;
    let mut sets = Vec::new();
    for ((name, a), (_, b)) in weights(&mut old).into_iter().zip(weights(&mut new)) {
        let mark = if *a == *b { "" } else { "  *" };
        println!("  {prefix}.{name:<18} {a:>5} -> {b:>5}{mark}");
        if *a != *b {
            sets.push(format!("--set-a {prefix}.{name}={b}"));
        }
    }
    println!("arena: {}", sets.join(" "));
    Ok(())
}

//! What several commands share: the parsers of game and level names, the game-and-position
//! argument, and the `--set NAME=VALUE` overrides of the AI's parameters.

use crate::error::CliError;
use ludus_ai::{Level, UnknownLevel};
use ludus_rules::{AnyPosition, ParseError, Variant};

/// Reads a game name for clap: `latrunculi`, `latrunculi-quick` or `alquerque`.
pub fn parse_variant(s: &str) -> Result<Variant, ParseError> {
    Variant::parse(s)
}

/// Reads a level name for clap: `random`, `easy`, `medium` or `hard`.
pub fn parse_level(s: &str) -> Result<Level, UnknownLevel> {
    Level::parse(s)
}

/// `<GAME> [--position POS]`: a game and the position to start from.
#[derive(clap::Args, Debug, Clone)]
pub struct GameArg {
    /// latrunculi, latrunculi-quick or alquerque
    #[arg(value_name = "GAME", value_parser = parse_variant)]
    pub variant: Variant,
    /// The start position in the rules' notation (default: the game's start)
    #[arg(long, value_name = "POS")]
    pub position: Option<String>,
}

impl GameArg {
    /// The position named.
    pub fn position(&self) -> Result<AnyPosition, CliError> {
        match &self.position {
            None => Ok(self.variant.start()),
            Some(s) => AnyPosition::parse(self.variant, s).map_err(CliError::position(s)),
        }
    }
}

/// A level's parameters with the `--set NAME=VALUE` overrides of a tuning run.
pub fn tuned_params(level: Level, sets: &[String]) -> Result<ludus_ai::Params, CliError> {
    let mut p = level.params();
    apply_sets(&mut p, sets)?;
    Ok(p)
}

/// Applies `--set NAME=VALUE` overrides (see [`SET_NAMES`]) to `p`; a bad one is a usage error.
pub fn apply_sets(p: &mut ludus_ai::Params, sets: &[String]) -> Result<(), CliError> {
    let usage = |kv: &str, what: String| CliError::Usage(format!("'{kv}': {what}"));
    for kv in sets {
        let (k, v) = kv.split_once('=').ok_or_else(|| usage(kv, "expected NAME=VALUE".into()))?;
        let v: i32 = v.parse().map_err(|_| usage(kv, "the value must be an integer".into()))?;
        let (l, a, s) = (&mut p.latrunculi, &mut p.alquerque, &mut p.search);
        match k {
            "confine" => l.confine = v,
            "hunt" => l.hunt = v,
            "progress" => l.progress = v,
            "progress_cap" => l.progress_cap = v,
            "king_edge" => l.king_edge = v,
            "region" => l.region = v,
            "region_cap" => l.region_cap = v,
            "technique_edge" => l.technique_edge = v,
            "press_king" => l.press_king = v != 0,
            "far_reduction" => l.far_reduction = v,
            "leader_only" => l.leader_only = v != 0,
            "alq_progress" => a.progress = v,
            "immune_scale" => a.immune_scale = v,
            "draw_hope" => a.draw_hope = v,
            "draw_hope_cap" if v < 0 => return Err(usage(kv, "the cap cannot be negative".into())),
            "draw_hope_cap" => a.draw_hope_cap = v,
            "counter_win" => s.counter_win = v,
            "contempt" => s.contempt = v,
            "variety" => s.variety = v,
            "opening_variety" => a.opening_variety = v,
            "opening_plies" => {
                a.opening_plies =
                    u32::try_from(v).map_err(|_| usage(kv, "plies cannot be negative".into()))?
            }
            "complexity" => s.complexity = v,
            _ => match weight(p, k) {
                Some(w) => *w = v,
                None => return Err(usage(kv, format!("unknown parameter '{k}' (known: {SET_NAMES})"))),
            },
        }
    }
    Ok(())
}

/// An evaluation weight by its tuning name: `alq.NAME` or `lat.NAME` (see
/// `AlquerqueParams::weights_mut` and `LatrunculiParams::weights_mut`).
fn weight<'a>(p: &'a mut ludus_ai::Params, name: &str) -> Option<&'a mut i32> {
    let (game, name) = name.split_once('.')?;
    let weights = match game {
        "alq" => p.alquerque.weights_mut(),
        "lat" => p.latrunculi.weights_mut(),
        _ => return None,
    };
    weights.into_iter().find(|(n, _)| *n == name).map(|(_, w)| w)
}

/// The parameters `--set` knows: Latrunculi's technique terms (confine, hunt, progress,
/// progress_cap, king_edge, region, region_cap, technique_edge, press_king and leader_only as
/// 0 or 1, far_reduction), Alquerque's (alq_progress, immune_scale, draw_hope, draw_hope_cap,
/// opening_variety, opening_plies) and the search's (counter_win, contempt, variety,
/// complexity), and every evaluation weight as `alq.NAME` or `lat.NAME` (the names `ludus-cli
/// tune` prints).
pub const SET_NAMES: &str = "confine, hunt, progress, progress_cap, king_edge, region, region_cap, technique_edge, press_king, far_reduction, leader_only, alq_progress, immune_scale, draw_hope, draw_hope_cap, counter_win, contempt, variety, opening_variety, opening_plies, complexity, and alq.NAME or lat.NAME for the evaluation's weights (as `tune` prints them)";

/// A count with commas between its thousands: `1,234,567`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_change_the_named_parameters_and_refuse_the_rest() {
        let mut p = Level::Hard.params();
        let sets = ["draw_hope_cap=80", "draw_hope=50", "alq.mobility=9"].map(String::from);
        apply_sets(&mut p, &sets).unwrap();
        assert_eq!((p.alquerque.draw_hope_cap, p.alquerque.draw_hope, p.alquerque.mobility), (80, 50, 9));
        for bad in [
            "draw_hope_cap",
            "draw_hope_cap=x",
            "draw_hope_cap=-1",
            "no_such=1",
            "alq.no_such=1",
            "opening_plies=-1",
        ] {
            let before = p.clone();
            assert!(apply_sets(&mut p, &[bad.to_string()]).is_err(), "{bad}");
            assert_eq!(p, before, "{bad}");
        }
    }
}

//! One Swiss round's pairing, Dutch-style, as a pure function of the players' records.
//!
//! Players are ranked by score, then rating, then id. A round is made under the strictest set
//! of constraints that can pair everyone, tried in this order:
//!
//! 1. no two players meet again; the bye (odd count) goes to the lowest-ranked player who has
//!    not had one, for whom the others can still be paired without a repeat; the colour limits
//!    hold: no player's colour difference (first moves minus second moves) goes beyond two, and
//!    nobody gets the same colour three times in a row;
//! 2. the same without the colour limits (the bye is not moved up for colours' sake);
//! 3. when no repeat-free round exists with any bye, repeats are allowed, colour limits first
//!    kept;
//! 4. anything.
//!
//! Within the chosen constraints, the highest-ranked unpaired player takes the first partner of
//! their preference for whom the rest of the round can still be paired (a maximum matching
//! decides it): partners of their own score group before lower groups (floating down), and
//! within that, a partner with whom both keep their colours within one of balanced before one
//! with whom a difference of two cannot be avoided; then the player halfway down their own
//! score group (top half against bottom half), then the others of the group, then lower groups
//! in rank order. Keeping score groups ranks above keeping colours within one: a leader is never
//! floated down to a lower group only to balance colours (the limits of two and of no three in
//! a row are the hard rule). So no board is given a partner that leaves a later board without
//! one.

use crate::common::{Colour, Entrant, Pairing, PlayerId, Points};
use crate::matching::Graph;
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::HashSet;

/// What the Swiss pairing knows of a player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissPlayer {
    /// Who, and the seed rating.
    pub entrant: Entrant,
    /// Points so far (byes included).
    pub score: Points,
    /// Colours of the games played, in order.
    pub colours: Vec<Colour>,
    /// Opponents met, in order.
    pub opponents: Vec<PlayerId>,
    /// Byes had.
    pub byes: u32,
    /// Withdrawn players are never paired again.
    pub withdrawn: bool,
}

impl SwissPlayer {
    /// A newcomer: no points, no games.
    pub fn new(entrant: Entrant) -> SwissPlayer {
        SwissPlayer {
            entrant,
            score: Points::ZERO,
            colours: Vec::new(),
            opponents: Vec::new(),
            byes: 0,
            withdrawn: false,
        }
    }

    /// First moves minus second moves.
    pub fn colour_difference(&self) -> i32 {
        self.colours.iter().map(|c| if *c == Colour::First { 1 } else { -1 }).sum()
    }

    /// Whether taking `colour` next keeps the colour limits: difference within two, never three
    /// times the same colour in a row.
    pub fn may_take(&self, colour: Colour) -> bool {
        self.difference_after(colour).abs() <= 2 && !self.third_in_a_row(colour)
    }

    /// Whether taking `colour` next keeps this player's colours within one of balanced (and
    /// never three times the same in a row): the colour preference, below the score groups.
    pub fn keeps_balance(&self, colour: Colour) -> bool {
        self.difference_after(colour).abs() <= 1 && !self.third_in_a_row(colour)
    }

    fn difference_after(&self, colour: Colour) -> i32 {
        self.colour_difference() + if colour == Colour::First { 1 } else { -1 }
    }

    fn third_in_a_row(&self, colour: Colour) -> bool {
        let n = self.colours.len();
        n >= 2 && self.colours[n - 1] == colour && self.colours[n - 2] == colour
    }

    /// The colour this player would rather have, and how much (the colour difference's size;
    /// 0 when only alternating from the last game).
    fn wish(&self) -> Option<(Colour, i32)> {
        let d = self.colour_difference();
        if d > 0 {
            Some((Colour::Second, d))
        } else if d < 0 {
            Some((Colour::First, -d))
        } else {
            self.colours.last().map(|c| (c.flip(), 0))
        }
    }

    fn has_met(&self, other: PlayerId) -> bool {
        self.opponents.contains(&other)
    }
}

/// Whether `a` and `b` can meet with colours that keep the colour limits for both.
pub fn colours_fit(a: &SwissPlayer, b: &SwissPlayer) -> bool {
    (a.may_take(Colour::First) && b.may_take(Colour::Second))
        || (a.may_take(Colour::Second) && b.may_take(Colour::First))
}

/// Whether `a` and `b` can meet with colours that keep both within one of balanced.
pub fn colours_balance(a: &SwissPlayer, b: &SwissPlayer) -> bool {
    (a.keeps_balance(Colour::First) && b.keeps_balance(Colour::Second))
        || (a.keeps_balance(Colour::Second) && b.keeps_balance(Colour::First))
}

/// The order pairings are made in: score, then rating, then id.
pub fn rank_order(a: &SwissPlayer, b: &SwissPlayer) -> std::cmp::Ordering {
    (Reverse(a.score), Reverse(a.entrant.rating), a.entrant.id).cmp(&(
        Reverse(b.score),
        Reverse(b.entrant.rating),
        b.entrant.id,
    ))
}

/// The colours of a game between `high` (ranked higher) and `low`, on board `board` (from 0):
/// colours that keep both within one of balanced if there are such; else colours that keep the
/// limits for both if there are such; otherwise the stronger wish first
/// (the larger colour difference, then the higher rank); without wishes, the higher-ranked
/// player alternates by board.
pub fn allocate(high: &SwissPlayer, low: &SwissPlayer, board: usize) -> Pairing {
    let as_first = |first: &SwissPlayer, second: &SwissPlayer| Pairing {
        first: first.entrant.id,
        second: second.entrant.id,
    };
    for rule in [SwissPlayer::keeps_balance, SwissPlayer::may_take] {
        let high_first = rule(high, Colour::First) && rule(low, Colour::Second);
        let high_second = rule(high, Colour::Second) && rule(low, Colour::First);
        match (high_first, high_second) {
            (true, false) => return as_first(high, low),
            (false, true) => return as_first(low, high),
            (true, true) => break,
            (false, false) => {}
        }
    }
    let high_gets = match (high.wish(), low.wish()) {
        (Some((h, _)), None) => h,
        (None, Some((l, _))) => l.flip(),
        (Some((h, hs)), Some((l, ls))) => {
            if h != l || hs >= ls {
                h
            } else {
                l.flip()
            }
        }
        (None, None) => {
            if board.is_multiple_of(2) {
                Colour::First
            } else {
                Colour::Second
            }
        }
    };
    if high_gets == Colour::First { as_first(high, low) } else { as_first(low, high) }
}

/// How strict the round's constraints were (see the module's documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Strictness {
    /// No repeat, colour limits kept.
    NoRepeatColours,
    /// No repeat; someone's colours break the limits.
    NoRepeat,
    /// A repeat could not be avoided; colour limits kept.
    Colours,
    /// Neither could be kept.
    Any,
}

/// One round's pairing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundPairing {
    /// The games, board 1 first (the highest-ranked player's).
    pub boards: Vec<Pairing>,
    /// Who sits out, with a win's points.
    pub bye: Option<PlayerId>,
    /// The constraints the round was made under.
    pub strictness: Strictness,
}

/// The players who may take the bye, most deserving first: those who have had the fewest byes
/// (none, unless everyone has had one), lowest-ranked first. `ranked` is in rank order.
pub fn bye_candidates(ranked: &[&SwissPlayer]) -> Vec<PlayerId> {
    let fewest = ranked.iter().map(|p| p.byes).min().unwrap_or(0);
    ranked.iter().rev().filter(|p| p.byes == fewest).map(|p| p.entrant.id).collect()
}

/// Pairs one round of `players` (withdrawn ones left out). `None` when fewer than two can play.
pub fn pair_round(players: &[SwissPlayer]) -> Option<RoundPairing> {
    let mut ranked: Vec<&SwissPlayer> = players.iter().filter(|p| !p.withdrawn).collect();
    ranked.sort_by(|a, b| rank_order(a, b));
    let n = ranked.len();
    if n < 2 {
        return None;
    }
    let byes: Vec<Option<usize>> = if n % 2 == 1 {
        bye_candidates(&ranked).into_iter().map(|id| ranked.iter().position(|p| p.entrant.id == id)).collect()
    } else {
        vec![None]
    };
    let graph = |repeats: bool, colours: bool| {
        let mut g = Graph::new(n);
        for a in 0..n {
            for b in a + 1..n {
                if (repeats || !ranked[a].has_met(ranked[b].entrant.id))
                    && (!colours || colours_fit(ranked[a], ranked[b]))
                {
                    g.add(a, b);
                }
            }
        }
        g
    };
    let strict = graph(false, true);
    let no_repeat = graph(false, false);
    let colours_only = graph(true, true);
    let any = graph(true, false);
    let mut plans: Vec<(Strictness, &Graph, Option<usize>)> = Vec::new();
    for &bye in &byes {
        plans.push((Strictness::NoRepeatColours, &strict, bye));
        plans.push((Strictness::NoRepeat, &no_repeat, bye));
    }
    for &bye in &byes {
        plans.push((Strictness::Colours, &colours_only, bye));
        plans.push((Strictness::Any, &any, bye));
    }
    for (strictness, g, bye) in plans {
        let mut alive = vec![true; n];
        if let Some(b) = bye {
            alive[b] = false;
        }
        let need = alive.iter().filter(|a| **a).count() / 2;
        if g.max_matching_size(&alive) < need {
            continue;
        }
        let pairs = pair_with(&ranked, g, alive, need);
        let boards =
            pairs.iter().enumerate().map(|(board, &(h, l))| allocate(ranked[h], ranked[l], board)).collect();
        return Some(RoundPairing { boards, bye: bye.map(|b| ranked[b].entrant.id), strictness });
    }
    None
}

/// Pairs every alive player of `ranked` along edges of `g`, which holds a perfect matching of
/// them (`need` pairs): the highest-ranked unpaired player takes their most preferred partner
/// that keeps a perfect matching of the rest.
fn pair_with(
    ranked: &[&SwissPlayer],
    g: &Graph,
    mut alive: Vec<bool>,
    mut need: usize,
) -> Vec<(usize, usize)> {
    let n = ranked.len();
    let mut pairs = Vec::with_capacity(need);
    while need > 0 {
        let p = (0..n).find(|&i| alive[i]).expect("an unpaired player is left");
        alive[p] = false;
        let group: Vec<usize> = (0..n).filter(|&i| alive[i] && ranked[i].score == ranked[p].score).collect();
        // The group with `p` at its top: the partner halfway down, then the rest of the bottom
        // half, then the top half from its lowest up; then the lower groups.
        let half = group.len().div_ceil(2);
        let mut order: Vec<usize> = Vec::with_capacity(n);
        if !group.is_empty() {
            order.extend(group[half - 1..].iter().copied());
            order.extend(group[..half - 1].iter().rev().copied());
        }
        let grouped: HashSet<usize> = group.iter().copied().collect();
        order.extend((0..n).filter(|&i| alive[i] && !grouped.contains(&i)));
        // Partners who do not repeat and keep the colour limits come first (the graph may allow
        // others when it has to); then the own score group; then colours within one.
        let tier = |q: usize| {
            let repeat = ranked[p].has_met(ranked[q].entrant.id);
            let fits = colours_fit(ranked[p], ranked[q]);
            let balanced = colours_balance(ranked[p], ranked[q]);
            (repeat, !fits, !grouped.contains(&q), !balanced)
        };
        order.sort_by_key(|&q| tier(q));
        let chosen = order
            .into_iter()
            .filter(|&q| g.has(p, q))
            .find(|&q| {
                alive[q] = false;
                let ok = g.max_matching_size(&alive) == need - 1;
                alive[q] = true;
                ok
            })
            .expect("a perfect matching exists, so some partner keeps one");
        alive[chosen] = false;
        pairs.push((p, chosen));
        need -= 1;
    }
    pairs
}

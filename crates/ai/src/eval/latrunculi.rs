//! Latrunculi evaluation: material, mobility, the king's free sides and the danger of its
//! immobilisation, sandwich threats and soldiers that cannot be sandwiched.
//!
//! Everything is bitboard arithmetic on the rules' `u128` boards: the masks of the board size
//! are computed once per search in [`Context`].

use super::SearchGame;
use crate::params::Params;
use ludus_rules::latrunculi::{Geometry, Move, Position};
use ludus_rules::{GamePosition, Side, Square};

/// Board masks of one board size.
pub struct Context {
    geo: &'static Geometry,
    width: u32,
    full: u128,
    not_first_file: u128,
    not_last_file: u128,
    top: u128,
    bottom: u128,
    left: u128,
    right: u128,
    corners: u128,
}

impl Context {
    /// The masks of `pos`'s board.
    pub fn new(pos: &Position) -> Context {
        let geo = pos.geometry();
        let (w, h) = (u32::from(pos.width()), u32::from(pos.height()));
        let full = geo.full();
        let mut left = 0u128;
        for r in 0..h {
            left |= 1u128 << (r * w);
        }
        let right = left << (w - 1);
        let bottom = (1u128 << w) - 1;
        let top = bottom << (w * (h - 1));
        Context {
            geo,
            width: w,
            full,
            not_first_file: full & !left,
            not_last_file: full & !right,
            top,
            bottom,
            left,
            right,
            corners: (left | right) & (top | bottom),
        }
    }

    /// Squares whose southern neighbour is in `x` (`x` moved one rank up).
    #[inline]
    fn north(&self, x: u128) -> u128 {
        (x << self.width) & self.full
    }
    /// Squares whose northern neighbour is in `x`.
    #[inline]
    fn south(&self, x: u128) -> u128 {
        x >> self.width
    }
    /// Squares whose western neighbour is in `x`.
    #[inline]
    fn east(&self, x: u128) -> u128 {
        (x << 1) & self.not_first_file
    }
    /// Squares whose eastern neighbour is in `x`.
    #[inline]
    fn west(&self, x: u128) -> u128 {
        (x >> 1) & self.not_last_file
    }

    /// Empty squares where a piece of `own` would sandwich a soldier of `enemy_soldiers`.
    #[inline]
    fn capture_targets(&self, own: u128, enemy_soldiers: u128, empty: u128) -> u128 {
        let up = self.south(enemy_soldiers & self.south(own));
        let down = self.north(enemy_soldiers & self.north(own));
        let right = self.west(enemy_soldiers & self.west(own));
        let left = self.east(enemy_soldiers & self.east(own));
        (up | down | right | left) & empty
    }

    /// Soldiers of `soldiers` that a piece of `enemy` could sandwich by sliding onto one of the
    /// `reach` squares (empty squares the enemy can slide to).
    #[inline]
    fn hanging(&self, soldiers: u128, enemy: u128, reach: u128) -> u128 {
        soldiers
            & ((self.south(enemy) & self.north(reach))
                | (self.north(enemy) & self.south(reach))
                | (self.west(enemy) & self.east(reach))
                | (self.east(enemy) & self.west(reach)))
    }

    /// Soldiers that cannot be sandwiched on either line (a friendly piece or the edge on one
    /// side of each line).
    #[inline]
    fn safe(&self, soldiers: u128, own: u128) -> u128 {
        let vertical = self.south(own) | self.north(own) | self.top | self.bottom;
        let horizontal = self.west(own) | self.east(own) | self.left | self.right;
        soldiers & vertical & horizontal
    }

    /// Whether some piece of `side` can slide onto the empty square `target`.
    #[inline]
    fn reaches(&self, pos: &Position, side: Side, target: Square) -> bool {
        let occ = pos.occupied();
        let own = pos.pieces(side);
        for d in 0..4 {
            let mut s = target;
            while let Some(t) = self.geo.step(s, d) {
                if occ & t.bit() != 0 {
                    if own & t.bit() != 0 {
                        return true;
                    }
                    break;
                }
                s = t;
            }
        }
        false
    }

    /// Pushes every move of the side to move that lands on `target`.
    fn moves_to(&self, pos: &Position, target: Square, out: &mut Vec<Move>) {
        let occ = pos.occupied();
        let own = pos.pieces(pos.side_to_move());
        for d in 0..4 {
            let mut s = target;
            while let Some(t) = self.geo.step(s, d) {
                if occ & t.bit() != 0 {
                    if own & t.bit() != 0
                        && let Some(mv) = pos.move_between(t, target)
                    {
                        out.push(mv);
                    }
                    break;
                }
                s = t;
            }
        }
    }
}

/// The squares the king of `side` can slide to.
fn king_reach(pos: &Position, ctx: &Context, side: Side) -> u32 {
    let occ = pos.occupied();
    let mut n = 0;
    for d in 0..4 {
        let mut s = pos.king(side);
        while let Some(t) = ctx.geo.step(s, d) {
            if occ & t.bit() != 0 {
                break;
            }
            n += 1;
            s = t;
        }
    }
    n
}

/// The empty squares the king of `side` can reach in any number of moves: the connected empty
/// region around it (a king sealed into a small region can be immobilised).
fn king_region(pos: &Position, ctx: &Context, side: Side) -> u128 {
    let empty = pos.empty();
    let mut region = ctx.geo.neighbours(pos.king(side)) & empty;
    loop {
        let next =
            (region | ctx.north(region) | ctx.south(region) | ctx.east(region) | ctx.west(region)) & empty;
        if next == region {
            return region;
        }
        region = next;
    }
}

/// The technique terms for the side ahead by [`LatrunculiParams::technique_edge`] soldiers or
/// more, from `us`'s point of view: confine the enemy king, bring pieces to it, and make
/// progress (the no-capture counter costs the side ahead), so that a won ending is won by
/// immobilising the king or taking the last soldiers rather than by waiting for the counter.
fn technique(pos: &Position, ctx: &Context, p: &crate::params::LatrunculiParams, us: Side) -> i32 {
    if p.technique_edge <= 0 {
        return 0;
    }
    let diff = lead(pos, us);
    let leader = if diff >= p.technique_edge {
        us
    } else if -diff >= p.technique_edge {
        !us
    } else {
        return 0;
    };
    let loser = !leader;
    let king = pos.king(loser);
    let (kx, ky) = (king.index() as i32 % ctx.width as i32, king.index() as i32 / ctx.width as i32);
    let mut close = 0;
    let mut own = pos.pieces(leader);
    while own != 0 {
        let i = own.trailing_zeros() as i32;
        own &= own - 1;
        let d = (i % ctx.width as i32 - kx).abs() + (i / ctx.width as i32 - ky).abs();
        close += (6 - d).max(0);
    }
    // When only a few enemy soldiers are left, taking them wins: bring pieces to them too.
    let mut prey = pos.soldiers(loser);
    if prey.count_ones() <= 3 {
        while prey != 0 {
            let j = prey.trailing_zeros() as i32;
            prey &= prey - 1;
            let (sx, sy) = (j % ctx.width as i32, j / ctx.width as i32);
            let mut own = pos.pieces(leader);
            let mut near = [i32::MAX; 2];
            while own != 0 {
                let i = own.trailing_zeros() as i32;
                own &= own - 1;
                let d = (i % ctx.width as i32 - sx).abs() + (i / ctx.width as i32 - sy).abs();
                if d < near[0] {
                    near = [d, near[0]];
                } else if d < near[1] {
                    near[1] = d;
                }
            }
            // A sandwich needs two pieces: the nearest two count.
            for d in near {
                if d != i32::MAX {
                    close += (6 - d).max(0);
                }
            }
        }
    }
    let height = ctx.full.count_ones() as i32 / ctx.width as i32;
    let to_edge = kx.min(ctx.width as i32 - 1 - kx).min(ky).min(height - 1 - ky);
    let t = p.hunt * close
        - p.king_edge * to_edge
        - p.confine * king_reach(pos, ctx, loser) as i32
        - progress_cost(p, pos.clock())
        - if p.region != 0 {
            p.region * (king_region(pos, ctx, loser).count_ones() as i32).min(p.region_cap)
        } else {
            0
        };
    if leader == us { t } else { -t }
}

/// How many soldiers `side` has more than the other side (negative when it has fewer).
fn lead(pos: &Position, side: Side) -> i32 {
    let m = pos.material();
    m[side.index()] as i32 - m[(!side).index()] as i32
}

/// What the no-capture counter costs the side ahead (see [`LatrunculiParams::progress_cap`]).
fn progress_cost(p: &crate::params::LatrunculiParams, clock: u16) -> i32 {
    let cost = p.progress * i32::from(clock) / 100;
    if p.progress_cap > 0 { cost.min(p.progress_cap) } else { cost }
}

struct SideTerms {
    mobility: u32,
    reach: u128,
}

fn side_terms(pos: &Position, side: Side) -> SideTerms {
    let t = pos.mobility_targets(side);
    SideTerms { mobility: t.iter().map(|b| b.count_ones()).sum(), reach: t[0] | t[1] | t[2] | t[3] }
}

impl SearchGame for Position {
    type Context = Context;
    const STAGED: bool = true;
    const REPETITION_LOSES: bool = true;

    #[inline]
    fn is_legal(&self, mv: &Move) -> bool {
        self.move_between(mv.from(), mv.to()) == Some(*mv)
    }

    fn context(&self) -> Context {
        Context::new(self)
    }

    fn evaluate(&self, ctx: &Context, params: &Params) -> i32 {
        let p = &params.latrunculi;
        let us = self.side_to_move();
        let them = !us;
        let empty = self.empty();
        let own = self.pieces(us);
        let opp = self.pieces(them);
        let own_soldiers = self.soldiers(us);
        let opp_soldiers = self.soldiers(them);
        let mine = side_terms(self, us);
        let theirs = side_terms(self, them);

        let mut score = p.tempo;
        score += p.soldier * (own_soldiers.count_ones() as i32 - opp_soldiers.count_ones() as i32);
        score += p.mobility * (mine.mobility as i32 - theirs.mobility as i32);

        // Kings: free sides, and free sides the enemy can slide onto.
        let king_term = |side: Side, enemy_reach: u128| -> (i32, bool) {
            let libs = ctx.geo.neighbours(self.king(side)) & empty;
            let n = libs.count_ones() as usize;
            let attacked = libs & enemy_reach;
            let mut pen = p.king_liberties[n.min(4)] + p.attacked_liberty * attacked.count_ones() as i32;
            let threatened = n == 1 && attacked != 0;
            if threatened {
                pen += p.king_threat;
            }
            (pen, threatened)
        };
        let (own_king, _) = king_term(us, theirs.reach);
        let (opp_king, opp_lost) = king_term(them, mine.reach);
        score -= own_king;
        score += opp_king;
        if opp_lost {
            // The side to move immobilises the enemy king next move (quiescence usually plays it).
            score += p.king_threat;
        }
        score += p.king_pressure
            * ((ctx.geo.neighbours(self.king(them)) & own).count_ones() as i32
                - (ctx.geo.neighbours(self.king(us)) & opp).count_ones() as i32);

        // Sandwich threats.
        let own_hanging = ctx.hanging(own_soldiers, opp, empty & theirs.reach).count_ones() as i32;
        let opp_hanging = ctx.hanging(opp_soldiers, own, empty & mine.reach).count_ones() as i32;
        score -= p.hanging_own * own_hanging;
        if own_hanging >= 2 {
            score -= p.hanging_many;
        }
        score += p.hanging_theirs * opp_hanging;

        // Structure.
        score += p.safe_soldier
            * (ctx.safe(own_soldiers, own).count_ones() as i32
                - ctx.safe(opp_soldiers, opp).count_ones() as i32);
        let adj_own = ctx.north(own) | ctx.south(own) | ctx.east(own) | ctx.west(own);
        let adj_opp = ctx.north(opp) | ctx.south(opp) | ctx.east(opp) | ctx.west(opp);
        score += p.connected
            * ((own_soldiers & adj_own).count_ones() as i32 - (opp_soldiers & adj_opp).count_ones() as i32);
        score + technique(self, ctx, p, us)
    }

    fn piece_count(&self) -> (u32, u32) {
        (self.occupied().count_ones(), 2 * (u32::from(self.width()) + 1))
    }

    fn generate_noisy(&self, ctx: &Context, out: &mut Vec<Move>) -> bool {
        out.clear();
        let us = self.side_to_move();
        let them = !us;
        let empty = self.empty();
        let mut targets = ctx.capture_targets(self.pieces(us), self.soldiers(them), empty);
        // The last free side of the enemy king: occupying it wins.
        let libs = ctx.geo.neighbours(self.king(them)) & empty;
        if libs.count_ones() == 1 {
            targets |= libs;
        }
        while targets != 0 {
            let t = Square(targets.trailing_zeros() as u8);
            targets &= targets - 1;
            ctx.moves_to(self, t, out);
        }
        false
    }

    fn winning_move(&self, ctx: &Context) -> Option<Move> {
        let them = !self.side_to_move();
        let libs = ctx.geo.neighbours(self.king(them)) & self.empty();
        if libs.count_ones() != 1 {
            return None;
        }
        let target = Square(libs.trailing_zeros() as u8);
        let occ = self.occupied();
        let own = self.pieces(self.side_to_move());
        for d in 0..4 {
            let mut s = target;
            while let Some(t) = ctx.geo.step(s, d) {
                if occ & t.bit() != 0 {
                    if own & t.bit() != 0
                        && let Some(mv) = self.move_between(t, target)
                        && self.play_unchecked(&mv).king_immobilised(them)
                    {
                        return Some(mv);
                    }
                    break;
                }
                s = t;
            }
        }
        None
    }

    fn in_danger(&self, ctx: &Context) -> bool {
        let us = self.side_to_move();
        let libs = ctx.geo.neighbours(self.king(us)) & self.empty();
        libs.count_ones() == 1 && ctx.reaches(self, !us, Square(libs.trailing_zeros() as u8))
    }

    fn root_params(&self, params: &mut Params) {
        let p = &mut params.latrunculi;
        if p.leader_only && -lead(self, self.side_to_move()) >= p.technique_edge {
            p.technique_edge = 0;
        }
    }

    fn press_mask(&self, ctx: &Context, params: &Params) -> u128 {
        let edge = params.latrunculi.technique_edge;
        let us = self.side_to_move();
        if edge <= 0 || !params.latrunculi.press_king || lead(self, us) < edge {
            return 0;
        }
        ctx.geo.neighbours(self.king(!us)) & self.empty()
    }

    fn near_mask(&self, ctx: &Context, params: &Params) -> (u128, i32) {
        let p = &params.latrunculi;
        let us = self.side_to_move();
        if p.technique_edge <= 0 || p.far_reduction <= 0 || lead(self, us) < p.technique_edge {
            return (0, 0);
        }
        let targets = self.king(!us).bit() | (self.soldiers(!us) & !ctx.corners);
        let one = targets | ctx.geo.adjacent(targets);
        (one | ctx.geo.adjacent(one), p.far_reduction)
    }

    #[inline]
    fn presses(mv: &Move, mask: u128) -> bool {
        mask & mv.to().bit() != 0
    }

    #[inline]
    fn capture_count(mv: &Move) -> u32 {
        mv.capture_count() as u32
    }

    #[inline]
    fn move_tag(mv: &Move) -> u32 {
        u32::from(mv.from().0) | (u32::from(mv.to().0) << 8) | (1 << 16)
    }

    #[inline]
    fn move_from_tag(&self, tag: u32) -> Option<Move> {
        if tag >> 16 != 1 {
            return None;
        }
        self.move_between(Square(tag as u8), Square((tag >> 8) as u8))
    }

    #[inline]
    fn history_index(mv: &Move) -> usize {
        mv.from().index() * 128 + mv.to().index()
    }

    fn no_capture_limit() -> u16 {
        ludus_rules::latrunculi::NO_CAPTURE_LIMIT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(s: &str) -> Position {
        s.parse().unwrap()
    }

    #[test]
    fn noisy_moves_are_the_captures_and_king_wins() {
        for s in [
            "bbbbbbbbbbbb/5B6/12/12/12/12/6R5/rrrrrrrrrrrr r",
            "8/3B4/2b5/8/2r5/8/4R3/8 r",
            "8/3B4/8/2rbr3/8/2b5/4R3/8 r",
            "8/8/8/8/8/3b4/2bBb3/2r1R3 r",
            "4r3/8/1b1b4/2b5/1r6/8/B3R3/8 r",
        ] {
            let p = pos(s);
            let ctx = p.context();
            let mut noisy = Vec::new();
            p.generate_noisy(&ctx, &mut noisy);
            let mut expected: Vec<Move> = p
                .legal_moves()
                .into_iter()
                .filter(|m| {
                    m.is_capture() || {
                        let c = p.play_unchecked(m);
                        c.king_immobilised(!p.side_to_move())
                    }
                })
                .collect();
            noisy.sort_by_key(|m| (m.from(), m.to()));
            expected.sort_by_key(|m| (m.from(), m.to()));
            // Every capture and immobilising move is there; extra moves to the king's last
            // free side are allowed.
            for m in &expected {
                assert!(noisy.contains(m), "{s}: missing {}", p.move_to_string(m));
            }
        }
    }

    #[test]
    fn evaluation_is_symmetric_at_the_start() {
        let p = Position::standard();
        let params = Params::default();
        let ctx = p.context();
        let e = p.evaluate(&ctx, &params);
        assert_eq!(e, params.latrunculi.tempo);
    }
}

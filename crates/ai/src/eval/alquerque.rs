//! Alquerque evaluation: material, mobility, pieces the opponent can jump next, structure
//! (pieces that cannot be jumped), advancement, and pieces stuck on the far rank.

use super::SearchGame;
use crate::params::Params;
use crate::tablebase::{Probe, Tablebase};
use ludus_rules::alquerque::{FULL, Move, POINTS, Position, has_diagonals};
use ludus_rules::{GamePosition, Side, Square};

/// Offsets of the eight directions N, NE, E, SE, S, SW, W, NW on the 5x5 board.
const OFFSETS: [i32; 8] = [5, 6, 1, -4, -5, -6, -1, 4];
const DF: [i32; 8] = [0, 1, 1, 1, 0, -1, -1, -1];
const DR: [i32; 8] = [1, 1, 0, -1, -1, -1, 0, 1];

/// Precomputed masks of the board of lines.
pub struct Context {
    /// `middle[d]`: points with a drawn line through them from direction `d` to its opposite
    /// (both neighbours exist): the points where a piece can be jumped along `d`.
    middle: [u32; 8],
    /// Points with diagonal lines.
    strong: u32,
    /// `line[d]`: points with a drawn line to a neighbour in direction `d`.
    line: [u32; 8],
    /// Rank masks, rank 1 first.
    ranks: [u32; 5],
}

impl Default for Context {
    fn default() -> Self {
        Context::new()
    }
}

impl Context {
    /// The masks.
    pub fn new() -> Context {
        let mut middle = [0u32; 8];
        let mut line = [0u32; 8];
        let mut strong = 0u32;
        for p in 0..POINTS as i32 {
            let (f, r) = (p % 5, p / 5);
            let diag = has_diagonals(Square(p as u8));
            if diag {
                strong |= 1 << p;
            }
            for d in 0..8 {
                if DF[d] != 0 && DR[d] != 0 && !diag {
                    continue;
                }
                let ok = |k: i32| {
                    let (ff, rr) = (f + k * DF[d], r + k * DR[d]);
                    (0..5).contains(&ff) && (0..5).contains(&rr)
                };
                if ok(1) && ok(-1) {
                    middle[d] |= 1 << p;
                }
                if ok(1) {
                    line[d] |= 1 << p;
                }
            }
        }
        let ranks = [0, 1, 2, 3, 4].map(|r| 0x1F << (5 * r));
        Context { middle, strong, line, ranks }
    }

    /// Points `x` such that `x - offset(d)` is in `b` (the set moved one step along `d`).
    #[inline]
    fn shift(b: u32, d: usize) -> u32 {
        let o = OFFSETS[d];
        (if o > 0 { b << o } else { b >> -o }) & FULL
    }

    /// The number of plain steps `side`'s pieces `own` have (forward and sideways along lines).
    #[inline]
    pub fn steps(&self, own: u32, side: Side, empty: u32) -> u32 {
        const DIRS: [[usize; 5]; 2] = [[0, 1, 2, 6, 7], [2, 3, 4, 5, 6]];
        let mut n = 0;
        for d in DIRS[side.index()] {
            n += (Self::shift(own & self.line[d], d) & empty).count_ones();
        }
        n
    }

    /// Pieces of `own` that an enemy piece could jump right now.
    #[inline]
    fn hanging(&self, own: u32, enemy: u32, empty: u32) -> u32 {
        let mut h = 0;
        for d in 0..8 {
            // An enemy behind (at x - d) and an empty landing point ahead (at x + d).
            h |= own & self.middle[d] & Self::shift(enemy, d) & Self::shift(empty, (d + 4) % 8);
        }
        h
    }

    /// Pieces of `own` that cannot be jumped along any line: on each line through them, an
    /// end of the line or a friendly neighbour.
    #[inline]
    fn safe(&self, own: u32) -> u32 {
        let mut s = own;
        for d in 0..4 {
            let guarded = Self::shift(own, d) | Self::shift(own, d + 4);
            s &= !self.middle[d] | guarded;
        }
        s
    }
}

fn side_score(pos: &Position, ctx: &Context, params: &Params, side: Side) -> i32 {
    let p = &params.alquerque;
    let own = pos.pieces(side);
    let mut score = p.piece * own.count_ones() as i32;
    let steps = ctx.steps(own, side, pos.empty());
    score += p.mobility * steps as i32;
    if steps == 0 {
        score -= p.immobile;
    }
    for (r, mask) in ctx.ranks.iter().enumerate() {
        let rank = if side == Side::First { r } else { 4 - r };
        score += p.advance[rank] * (own & mask).count_ones() as i32;
    }
    let far = if side == Side::First { ctx.ranks[4] } else { ctx.ranks[0] };
    score -= p.far_rank * (own & far).count_ones() as i32;
    score += p.strong_point * (own & ctx.strong).count_ones() as i32;
    score += p.safe_piece * ctx.safe(own).count_ones() as i32;
    score
}

/// The rank (0 to 4, rank 1 first) of the lowest and the highest of `pieces` (not empty).
#[inline]
fn rank_span(pieces: u32) -> (u32, u32) {
    (pieces.trailing_zeros() / 5, (31 - pieces.leading_zeros()) / 5)
}

/// Whether `side`'s pieces `own` include one that the enemy's `enemy` can never take: on its
/// far rank with no enemy piece on that rank, or, with `passed`, beyond every enemy piece.
#[inline]
fn immune(own: u32, enemy: u32, side: Side, passed: bool) -> bool {
    if own == 0 || enemy == 0 {
        return false;
    }
    let (own_lo, own_hi) = rank_span(own);
    let (enemy_lo, enemy_hi) = rank_span(enemy);
    match (side, passed) {
        (Side::First, true) => own_hi > enemy_hi,
        (Side::Second, true) => own_lo < enemy_lo,
        (Side::First, false) => own_hi == 4 && enemy_hi < 4,
        (Side::Second, false) => own_lo == 0 && enemy_lo > 0,
    }
}

impl SearchGame for Position {
    type Context = Context;
    const STAGED: bool = false;

    fn is_legal(&self, mv: &Move) -> bool {
        self.legal_moves().contains(mv)
    }

    #[inline]
    fn tablebase_probe(&self, tb: &Tablebase) -> Option<Probe> {
        let [w, b] = self.material();
        if w + b > tb.max_pieces() {
            return None;
        }
        tb.probe(self)
    }

    fn tablebase_moves(&self, tb: &Tablebase) -> Option<Vec<(Move, Probe)>> {
        tb.move_values(self)
    }

    fn tablebase_line(&self, tb: &Tablebase, max_plies: usize) -> Vec<Move> {
        tb.line(self, max_plies)
    }

    fn context(&self) -> Context {
        Context::new()
    }

    fn evaluate(&self, ctx: &Context, params: &Params) -> i32 {
        let p = &params.alquerque;
        let us = self.side_to_move();
        let them = !us;
        let mut score = p.tempo + side_score(self, ctx, params, us) - side_score(self, ctx, params, them);
        let hanging = ctx.hanging(self.pieces(us), self.pieces(them), self.empty()).count_ones() as i32;
        score -= p.hanging_own * hanging;
        if hanging >= 2 {
            score -= p.hanging_many;
        }
        let (mine, theirs) = (self.pieces(us).count_ones() as i32, self.pieces(them).count_ones() as i32);
        let off = 24 - mine - theirs;
        score += p.trade_down * off * (mine - theirs).signum();
        // Progress: the side ahead loses a little with every ply of the no-capture counter (at
        // 50 the game is drawn), so that it forces exchanges rather than waits.
        score -= p.progress * i32::from(self.clock()) * (mine - theirs).signum() / 100;
        // A piece that has passed every enemy piece (pieces move forward or sideways only, so
        // none can come back to it) can never be taken: the side that has one cannot lose its
        // last piece, and the game is most likely drawn. A piece on its far rank that no enemy
        // piece shares is one.
        let immune = |side: Side| immune(self.pieces(side), self.pieces(!side), side, p.immune_passed);
        if (score > 0 && immune(them)) || (score < 0 && immune(us)) {
            score = score * p.immune_scale / 100;
        }
        score
    }

    fn piece_count(&self) -> (u32, u32) {
        ((self.pieces(Side::First) | self.pieces(Side::Second)).count_ones(), 24)
    }

    fn generate_noisy(&self, _ctx: &Context, out: &mut Vec<Move>) -> bool {
        if self.can_capture(self.side_to_move()) {
            self.generate_moves(out);
            true
        } else {
            out.clear();
            false
        }
    }

    fn must_capture(&self) -> bool {
        self.can_capture(self.side_to_move())
    }

    fn has_quiet_move(&self, ctx: &Context) -> bool {
        let us = self.side_to_move();
        ctx.steps(self.pieces(us), us, self.empty()) > 0
    }

    fn in_danger(&self, _ctx: &Context) -> bool {
        false
    }

    fn draw_hope(params: &Params) -> i32 {
        params.alquerque.draw_hope
    }

    fn opening_variety(params: &Params) -> (i32, u32) {
        (params.alquerque.opening_variety, params.alquerque.opening_plies)
    }

    #[inline]
    fn capture_count(mv: &Move) -> u32 {
        mv.captured_set().count_ones()
    }

    #[inline]
    fn move_tag(mv: &Move) -> u32 {
        let mut h: u64 = u64::from(mv.from().0) + 1;
        for p in mv.path() {
            h = h.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(p.0 + 1);
        }
        h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        ((h >> 32) as u32) | 1
    }

    fn move_from_tag(&self, tag: u32) -> Option<Move> {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        moves.into_iter().find(|m| Self::move_tag(m) == tag)
    }

    #[inline]
    fn history_index(mv: &Move) -> usize {
        mv.from().index() * 128 + mv.to().index()
    }

    fn no_capture_limit() -> u16 {
        ludus_rules::alquerque::NO_CAPTURE_LIMIT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hanging_matches_the_rules() {
        let ctx = Context::new();
        for s in [
            "BBBBB/BBBBB/BB1WW/WWWWW/WWWWW w",
            "BBBBB/BBBBB/B1BWW/WWWWW/WWWW1 b",
            "5/2B2/1W3/5/5 b",
            "5/1B3/2W2/3W1/5 b",
        ] {
            let p: Position = s.parse().unwrap();
            let them = !p.side_to_move();
            let h = ctx.hanging(p.pieces(them), p.pieces(p.side_to_move()), p.empty());
            let mut expected = 0u32;
            if p.can_capture(p.side_to_move()) {
                for m in p.legal_moves() {
                    // First jumps only.
                    let first = m.captured()[0];
                    expected |= 1 << first.0;
                }
            }
            assert_eq!(h, expected, "{s}");
        }
    }

    #[test]
    fn steps_match_the_rules() {
        let ctx = Context::new();
        for s in [
            "BBBBB/BBBBB/BB1WW/WWWWW/WWWWW w",
            "BBBBB/BBBBB/B1BWW/WWWWW/WWWW1 b",
            "5/2B2/1W3/5/5 b",
            "W1W2/1B3/2W2/3W1/B3B w",
        ] {
            let p: Position = s.parse().unwrap();
            for side in [Side::First, Side::Second] {
                assert_eq!(ctx.steps(p.pieces(side), side, p.empty()), p.step_count(side), "{s} {side:?}");
            }
        }
    }

    #[test]
    fn evaluation_is_symmetric_at_the_start() {
        let p = Position::start();
        let params = Params::default();
        // The start is symmetric by a half turn.
        assert_eq!(p.evaluate(&p.context(), &params), params.alquerque.tempo);
    }
}

//! Tunable numbers: evaluation weights of each game and switches of the search. Levels
//! ([`crate::Level`]) are made of these.

use serde::{Deserialize, Serialize};

/// Evaluation weights for Latrunculi, in centi-soldiers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LatrunculiParams {
    /// One soldier.
    pub soldier: i32,
    /// Each legal slide.
    pub mobility: i32,
    /// Penalty for the king by number of free sides (0 to 4; 0 never happens in a live game).
    pub king_liberties: [i32; 5],
    /// Extra penalty for each free side of the king that an enemy piece can slide onto.
    pub attacked_liberty: i32,
    /// Extra penalty when the king has one free side and the enemy can reach it (the side to
    /// move is threatened with immediate loss).
    pub king_threat: i32,
    /// Penalty for each of the side to move's soldiers that the opponent could capture next.
    pub hanging_own: i32,
    /// Extra penalty when two or more of them hang (only one can be saved).
    pub hanging_many: i32,
    /// Bonus for each of the opponent's soldiers the side to move can capture now.
    pub hanging_theirs: i32,
    /// Bonus for each soldier that cannot be sandwiched on either line (edges, neighbours).
    pub safe_soldier: i32,
    /// Bonus for each soldier next to a friendly piece.
    pub connected: i32,
    /// Bonus for each own piece next to the enemy king.
    pub king_pressure: i32,
    /// Bonus for having the move.
    pub tempo: i32,
    /// Technique, for the side ahead by at least [`LatrunculiParams::technique_edge`] soldiers:
    /// penalty for each square the enemy king can slide to (a king confined to a few squares
    /// can be immobilised).
    #[serde(default)]
    pub confine: i32,
    /// Technique: bonus for each own piece by its closeness to the enemy king (6 minus the
    /// distance in king steps, when positive).
    #[serde(default)]
    pub hunt: i32,
    /// Technique: penalty for each ply of the no-capture counter, in hundredths of a
    /// centi-soldier per ply, so that the side ahead makes progress (captures reset it) rather
    /// than waits.
    #[serde(default)]
    pub progress: i32,
    /// Technique: the most [`LatrunculiParams::progress`] can cost, in centi-soldiers (0: no
    /// cap). Any capture resets the counter, the enemy's too: a penalty that grows past a
    /// soldier's worth makes letting a soldier be taken look like a gain.
    #[serde(default)]
    pub progress_cap: i32,
    /// Technique: penalty for each step between the enemy king and the nearest edge of the
    /// board (a king on an edge has three sides to block, in a corner two). 10 (with
    /// `leader_only`): 120 of 160 suite endings won by technique within 100 plies and 138
    /// before the no-capture counter (five runs of 32 at 50,000 to 70,000 nodes a move and
    /// other seeds), against 105 and 123 without it.
    #[serde(default)]
    pub king_edge: i32,
    /// Technique: penalty for each empty square the enemy king can reach in any number of
    /// moves (its connected empty region), counted up to [`LatrunculiParams::region_cap`]
    /// squares: nothing changes in the open, and sealing the king into a small region pays.
    /// Off (0): 6 won 32 of 96 suite endings (50,000 + 60,000 + 70,000 nodes a move) against
    /// 40 without it, before `leader_only`.
    #[serde(default)]
    pub region: i32,
    /// The most squares of the enemy king's region that [`LatrunculiParams::region`] counts.
    #[serde(default)]
    pub region_cap: i32,
    /// Technique: the quiet moves that take a free side of the enemy king are searched early
    /// and never reduced (see `SearchGame::press_mask`). Off: no gain measured, alone or with
    /// `region` and `far_reduction` (all three on top of `leader_only`: 18 of 32 suite endings
    /// at 60,000 nodes a move against 23).
    #[serde(default)]
    pub press_king: bool,
    /// Technique: the extra late-move reduction, in plies, of the side ahead's quiet moves
    /// that land more than two steps from the enemy king and from every enemy soldier not in a
    /// corner (0: none). Off: see [`LatrunculiParams::press_king`].
    #[serde(default)]
    pub far_reduction: i32,
    /// Technique: whether only the side ahead searches with the technique terms (the side
    /// behind by [`LatrunculiParams::technique_edge`] or more then defends with the plain
    /// evaluation: the terms that teach the side ahead to confine a king also teach the side
    /// behind to run). On: 63 of 96 suite endings won by technique within 100 plies (50,000 +
    /// 60,000 + 70,000 nodes a move) against 40 with the terms on both sides.
    #[serde(default)]
    pub leader_only: bool,
    /// The material edge, in soldiers, from which the technique terms apply (0 turns them off).
    #[serde(default)]
    pub technique_edge: i32,
}

impl Default for LatrunculiParams {
    fn default() -> Self {
        LatrunculiParams {
            // The middlegame weights, tuned on self-play games (`ludus-cli tune`, see
            // docs/AI.md): against the hand-set ones (mobility 2, king
            // liberties 90/30/8, attacked liberty 12, king threat 220, hanging 14 and 45, safe
            // soldier 6, connected 3, king pressure 6, tempo 8), +100 Elo on 8x8 at 50,000
            // nodes a move and +230 on 12x8 at 10,000.
            soldier: 100,
            mobility: 1,
            king_liberties: [0, 8, 13, 4, 0],
            attacked_liberty: 3,
            king_threat: 40,
            hanging_own: 13,
            hanging_many: 31,
            hanging_theirs: 0,
            safe_soldier: 8,
            connected: 1,
            king_pressure: 3,
            tempo: 3,
            confine: 4,
            hunt: 3,
            progress: 200,
            progress_cap: 0,
            king_edge: 10,
            region: 0,
            region_cap: 30,
            press_king: false,
            far_reduction: 0,
            leader_only: true,
            technique_edge: 2,
        }
    }
}

/// Evaluation weights for Alquerque, in centi-soldiers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AlquerqueParams {
    /// One piece.
    pub piece: i32,
    /// Each plain step available.
    pub mobility: i32,
    /// Penalty when a side has no plain step at all (it may soon have no move).
    pub immobile: i32,
    /// Penalty for each of the side to move's pieces the opponent could jump next.
    pub hanging_own: i32,
    /// Extra penalty when two or more hang.
    pub hanging_many: i32,
    /// Bonus by rank of advancement (0 = own back rank, 4 = far rank).
    pub advance: [i32; 5],
    /// Penalty for each piece stuck on the far rank (it can only move sideways).
    pub far_rank: i32,
    /// Bonus for a piece on a point with diagonal lines.
    pub strong_point: i32,
    /// Bonus for a piece that cannot be jumped along any line (backed or on an edge).
    pub safe_piece: i32,
    /// Bonus for having the move.
    pub tempo: i32,
    /// Bonus for the side ahead in material for each piece off the board (exchanges help the
    /// side ahead, and they reset the no-capture counter).
    pub trade_down: i32,
    /// Percentage of the evaluation kept when the side behind has a piece on its far rank
    /// that no enemy piece shares (the enemy can never come back to take it: the game is
    /// most likely a draw). 100 turns the rule off.
    pub immune_scale: i32,
    /// Whether [`AlquerqueParams::immune_scale`] applies to any piece that has passed every
    /// enemy piece (none can come back to it), not only to one on its far rank.
    #[serde(default)]
    pub immune_passed: bool,
    /// Penalty for the side ahead in material for each ply of the no-capture counter, in
    /// hundredths of a centi-soldier (the game is drawn when it reaches 50).
    #[serde(default)]
    pub progress: i32,
    /// Hope in a drawn line: a draw (by the rules or the endgame tables) is scored as the
    /// contempt plus this percentage of the drawn position's evaluation, at most
    /// [`AlquerqueParams::draw_hope_cap`] either way, so that among drawing moves the search
    /// keeps the one that leaves the opponent the most ways to go wrong (0: every draw scores
    /// the same). 100:
    /// Hard at 200,000 nodes a move scored 70% against UCT 8,000 over 120 games (+48 =72 -0;
    /// 16 draws became wins and 6 wins draws, same openings) against 65.8% (+38 =82 -0) without.
    #[serde(default)]
    pub draw_hope: i32,
    /// The most, in centi-soldiers, that [`AlquerqueParams::draw_hope`] adds to or takes from a
    /// draw (a negative cap counts as none).
    #[serde(default = "default_draw_hope_cap")]
    pub draw_hope_cap: i32,
    /// Variety in the opening: over the first [`AlquerqueParams::opening_plies`] plies of a
    /// game from the start position, the variety margin
    /// ([`crate::params::SearchParams::variety`]) is at least this for a side that is not
    /// behind by more than it (0: the usual margin throughout). The first plies of Alquerque
    /// are nearly forced and a deep search scores its first free choices far apart, so that
    /// with the usual margin alone most games followed one line for 18 plies; a side that is
    /// behind keeps the usual margin, as its alternatives are where a game is lost (see
    /// [`crate::search::Search::set_opening`]). Latrunculi has no such term: its games part
    /// from the first moves with the usual margin.
    #[serde(default)]
    pub opening_variety: i32,
    /// How many plies from the start [`AlquerqueParams::opening_variety`] lasts.
    #[serde(default)]
    pub opening_plies: u32,
}

impl Default for AlquerqueParams {
    fn default() -> Self {
        AlquerqueParams {
            piece: 100,
            mobility: 8,
            immobile: 60,
            hanging_own: 18,
            hanging_many: 50,
            advance: [0, 4, 8, 10, 6],
            far_rank: 14,
            strong_point: 4,
            safe_piece: 8,
            tempo: 6,
            trade_down: 0,
            immune_scale: 25,
            immune_passed: false,
            progress: 150,
            draw_hope: 100,
            draw_hope_cap: DRAW_HOPE_CAP,
            opening_variety: 0,
            opening_plies: 0,
        }
    }
}

impl LatrunculiParams {
    /// The evaluation's weights by name, for tuning ([`crate::tune`]) and `--set lat.NAME=V`:
    /// every term of the middlegame evaluation except the soldier, which fixes the scale.
    pub fn weights_mut(&mut self) -> Vec<(&'static str, &mut i32)> {
        let [_, k1, k2, k3, _] = &mut self.king_liberties;
        vec![
            ("mobility", &mut self.mobility),
            ("king_liberties1", k1),
            ("king_liberties2", k2),
            ("king_liberties3", k3),
            ("attacked_liberty", &mut self.attacked_liberty),
            ("king_threat", &mut self.king_threat),
            ("hanging_own", &mut self.hanging_own),
            ("hanging_many", &mut self.hanging_many),
            ("hanging_theirs", &mut self.hanging_theirs),
            ("safe_soldier", &mut self.safe_soldier),
            ("connected", &mut self.connected),
            ("king_pressure", &mut self.king_pressure),
            ("tempo", &mut self.tempo),
        ]
    }
}

impl AlquerqueParams {
    /// The evaluation's weights by name, for tuning ([`crate::tune`]) and `--set alq.NAME=V`:
    /// every term except the piece, which fixes the scale.
    pub fn weights_mut(&mut self) -> Vec<(&'static str, &mut i32)> {
        let [a0, a1, a2, a3, a4] = &mut self.advance;
        vec![
            ("mobility", &mut self.mobility),
            ("immobile", &mut self.immobile),
            ("hanging_own", &mut self.hanging_own),
            ("hanging_many", &mut self.hanging_many),
            ("advance0", a0),
            ("advance1", a1),
            ("advance2", a2),
            ("advance3", a3),
            ("advance4", a4),
            ("far_rank", &mut self.far_rank),
            ("strong_point", &mut self.strong_point),
            ("safe_piece", &mut self.safe_piece),
            ("tempo", &mut self.tempo),
            ("trade_down", &mut self.trade_down),
            ("immune_scale", &mut self.immune_scale),
            ("progress", &mut self.progress),
        ]
    }
}

/// The default of [`AlquerqueParams::draw_hope_cap`].
pub const DRAW_HOPE_CAP: i32 = 40;

fn default_draw_hope_cap() -> i32 {
    DRAW_HOPE_CAP
}

/// Search switches and margins.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchParams {
    /// Half-width of the first aspiration window (0 disables aspiration).
    pub aspiration: i32,
    /// Late move reductions of quiet moves.
    pub lmr: bool,
    /// Extensions: a single legal reply, and a Latrunculi king in danger.
    pub extensions: bool,
    /// Use the transposition table in quiescence too.
    pub qsearch_tt: bool,
    /// Quiescence search (off: the evaluation is taken at depth 0 as it is).
    pub quiescence: bool,
    /// Under a time limit, no new iteration starts after this percentage of the time (an
    /// unfinished iteration still counts: its best move so far is used).
    pub soft_time_percent: u32,
    /// Reverse futility pruning: at depth 1 to 3, a node whose static evaluation beats beta by
    /// this much per ply is cut (0 disables it).
    pub rfp_margin: i32,
    /// Score of a draw for the side that started the search, negated for the other (a positive
    /// contempt makes the engine avoid draws).
    pub contempt: i32,
    /// Bonus, for the side that started the search, of a full board over an empty one (scaled
    /// by the pieces left): a stronger player keeps pieces on the board rather than trade into
    /// a drawn ending. Like contempt, it is asymmetric (0 disables it).
    pub complexity: i32,
    /// Bonus for the capturing moves of the root (a greedy level prefers taking now to a quiet
    /// move of about the same value).
    pub root_capture_bonus: i32,
    /// Greed at the root (Medium's promise): when the side to move must capture (Alquerque),
    /// only the captures that win the most material once the forced captures that follow are
    /// over (whole chains, both sides) are searched, if one of them wins material.
    #[serde(default)]
    pub greedy_root: bool,
    /// Variety: the most, in centi-soldiers, by which the move played may score below the
    /// best one by the search's own scores. Each root move gets a bonus from 0 to this margin,
    /// fixed by the seed, so that games with different seeds differ (0: always the best move).
    #[serde(default)]
    pub variety: i32,
    /// The score of a win on material when the no-capture counter runs out (Latrunculi),
    /// below every decisive score, so that the side ahead still looks for a win by the other
    /// rules (immobilising the king, taking the last soldier) until the end; 0: such a win
    /// counts as any other. Off: 10000 gained nothing measurable in the technique suite.
    #[serde(default)]
    pub counter_win: i32,
    /// Pseudo-random noise added to each evaluation, from -noise to +noise, fixed per position
    /// and seed (so the transposition table stays consistent).
    pub noise: i32,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            aspiration: 40,
            lmr: true,
            extensions: true,
            qsearch_tt: false,
            quiescence: true,
            soft_time_percent: 50,
            rfp_margin: 0,
            contempt: 0,
            complexity: 0,
            root_capture_bonus: 0,
            greedy_root: false,
            variety: 0,
            counter_win: 0,
            noise: 0,
        }
    }
}

/// Everything a search is tuned with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Params {
    /// The search's switches.
    pub search: SearchParams,
    /// Latrunculi's evaluation.
    pub latrunculi: LatrunculiParams,
    /// Alquerque's evaluation.
    pub alquerque: AlquerqueParams,
    /// The transposition table size in MiB.
    pub tt_mb: usize,
}

impl Default for Params {
    /// Full strength, with the platform's default table size.
    fn default() -> Self {
        Params {
            search: SearchParams::default(),
            latrunculi: LatrunculiParams::default(),
            alquerque: AlquerqueParams::default(),
            tt_mb: crate::tt::DEFAULT_TT_MB,
        }
    }
}

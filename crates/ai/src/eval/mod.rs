//! What the search needs from a game beyond the rules: an evaluation, the "noisy" moves that
//! quiescence searches, and compact move identities for the tables.

pub mod alquerque;
pub mod latrunculi;

use crate::params::Params;
use crate::tablebase::{Probe, Tablebase};
use ludus_rules::GamePosition;

/// A game the engine can search: the rules' [`GamePosition`] plus evaluation and the move
/// functions the search needs. Implemented for `latrunculi::Position` and `alquerque::Position`.
pub trait SearchGame: GamePosition {
    /// Tables computed once per search from the root (board masks and the like).
    type Context: Send + Sync + 'static;

    /// Whether the search generates moves in stages (table move, captures, killers, the
    /// rest) rather than all at once: worth it when generating every move is dear.
    const STAGED: bool;

    /// Whether `mv` (a killer from another position) is legal here. Only called when
    /// [`SearchGame::STAGED`].
    fn is_legal(&self, mv: &Self::Move) -> bool;

    /// The context for searches of positions like `self` (same board size).
    fn context(&self) -> Self::Context;

    /// The static evaluation, in centi-soldiers, from the side to move's point of view. Called
    /// only on positions that are not over.
    fn evaluate(&self, ctx: &Self::Context, params: &Params) -> i32;

    /// The pieces of both sides on the board, and as many as the start has.
    fn piece_count(&self) -> (u32, u32);

    /// Fills `out` with the moves quiescence must look at and says whether the position is
    /// forcing: `true` means the side to move may not "stand pat" (Alquerque with a capture
    /// available: capturing is compulsory, so `out` holds every legal move).
    fn generate_noisy(&self, ctx: &Self::Context, out: &mut Vec<Self::Move>) -> bool;

    /// Whether the side to move must capture (its static evaluation means little then).
    fn must_capture(&self) -> bool {
        false
    }

    /// Whether the side to move is in immediate danger of losing on the opponent's next move
    /// (Latrunculi: its king has one free side that an enemy piece can reach). The search
    /// extends such nodes by a ply, as chess engines extend checks.
    fn in_danger(&self, ctx: &Self::Context) -> bool;

    /// A move that wins on the spot, if a cheap test finds one (Latrunculi: a piece can take
    /// the last free side of the enemy king). `None` does not mean there is none.
    fn winning_move(&self, _ctx: &Self::Context) -> Option<Self::Move> {
        None
    }

    /// Technique: squares where a quiet move of the side to move presses the enemy king hard
    /// enough to be searched early and never reduced (Latrunculi: the free sides of the enemy
    /// king, when the side to move is clearly ahead); 0 when none do.
    fn press_mask(&self, _ctx: &Self::Context, _params: &Params) -> u128 {
        0
    }

    /// Technique: when the side to move is clearly ahead, the squares near the enemy king and
    /// the enemy soldiers that can still be taken, with the extra reduction that the quiet moves
    /// landing elsewhere get (`(0, 0)`: no extra reduction).
    fn near_mask(&self, _ctx: &Self::Context, _params: &Params) -> (u128, i32) {
        (0, 0)
    }

    /// Whether `mv` lands on one of the squares of `mask` (see [`SearchGame::press_mask`]).
    fn presses(_mv: &Self::Move, _mask: u128) -> bool {
        false
    }

    /// Adjusts the parameters of a search of this root position (Latrunculi: the side behind
    /// may search without the technique terms, see `LatrunculiParams::leader_only`).
    fn root_params(&self, _params: &mut Params) {}

    /// The percentage of a drawn position's evaluation that its draw score keeps (0: none;
    /// see [`crate::params::AlquerqueParams::draw_hope`]).
    fn draw_hope(_params: &Params) -> i32 {
        0
    }

    /// The wider variety margin over the first plies of a game from the start, and how many
    /// plies it lasts (0 and 0: none; see [`crate::params::AlquerqueParams::opening_variety`]).
    fn opening_variety(_params: &Params) -> (i32, u32) {
        (0, 0)
    }

    /// How many pieces `mv` captures.
    fn capture_count(mv: &Self::Move) -> u32;

    /// A non-zero 32-bit identity of a move within its position, for the transposition table.
    fn move_tag(mv: &Self::Move) -> u32;

    /// The legal move of this position with the tag `tag`, if there is one (the table's move
    /// is tried before the moves are generated).
    fn move_from_tag(&self, tag: u32) -> Option<Self::Move>;

    /// Whether the side to move has a legal move, knowing that [`SearchGame::generate_noisy`]
    /// just said the position is not forcing.
    fn has_quiet_move(&self, _ctx: &Self::Context) -> bool {
        self.has_legal_move()
    }

    /// An index below [`HISTORY_SIZE`] for the history table (from and to squares).
    fn history_index(mv: &Self::Move) -> usize;

    /// The plies without capture after which the game ends.
    fn no_capture_limit() -> u16;

    /// The endgame tablebase's value of this position, if `tb` covers it (Alquerque only).
    fn tablebase_probe(&self, _tb: &Tablebase) -> Option<Probe> {
        None
    }

    /// Every legal move with its tablebase value for the side to move, if `tb` covers every
    /// position they lead to (Alquerque only).
    fn tablebase_moves(&self, _tb: &Tablebase) -> Option<Vec<(Self::Move, Probe)>> {
        None
    }

    /// The tablebase's line of best play from here, at most `max_plies` moves (Alquerque only).
    fn tablebase_line(&self, _tb: &Tablebase, _max_plies: usize) -> Vec<Self::Move> {
        Vec::new()
    }

    /// Whether a threefold repetition loses for the player who makes it (Latrunculi) rather
    /// than draws (Alquerque). Where it loses, the search also scores a line that comes back to
    /// one of its own positions as a draw (see `ludus_rules::repetition::Repetition::InLine`), so that the side
    /// ahead makes progress instead of going round in circles.
    const REPETITION_LOSES: bool = false;

    /// Whether null-window reductions of quiet moves are safe enough for this game.
    fn allow_lmr() -> bool {
        true
    }
}

/// The size of a history table: from-square x to-square on boards of up to 128 squares.
pub const HISTORY_SIZE: usize = 128 * 128;

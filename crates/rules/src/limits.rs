//! The boards' limits: what each game's positions and the errors that name them share (below
//! both games and [`crate::error`]). Each game re-exports its own.

/// Latrunculi: the smallest supported number of files or ranks.
pub const MIN_DIM: u8 = 3;
/// Latrunculi: the largest supported number of files or ranks.
pub const MAX_DIM: u8 = 16;
/// Latrunculi: the largest supported number of squares (the bitboard is a `u128`).
pub const MAX_SQUARES: u32 = 128;
/// Alquerque: the most pieces a side may have (the start has 12).
pub const MAX_PIECES: u32 = 12;

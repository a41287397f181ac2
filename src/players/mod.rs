//! The engine at work for the game: the computer player and the hint, the browser's warm-up,
//! the endgame tables, and the post-game analysis's background work.

pub mod analysis;
pub mod computer;
pub mod endgames;
pub mod warmup;

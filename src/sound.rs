//! Sound effects. Bevy's audio needs ALSA's development files on Linux, so Ludus plays sound
//! only where it builds without extra system packages (and on Linux behind the `sound` feature,
//! for those who install them). This build has none: the setting is shown disabled.

/// Whether this build can play sound.
pub const AVAILABLE: bool = false;

//! What the device gives the game: documents that survive between runs (files or the browser's
//! storage) and work off the frame (a worker pool or the page's idle time).

pub mod background;
pub mod entropy;
pub mod storage;

/// Whether this build can play sound (Bevy's audio needs ALSA's headers on Linux: there only
/// with the `sound` feature).
pub const SOUND_AVAILABLE: bool = cfg!(any(not(target_os = "linux"), feature = "sound"));

/// Whether the device says it has a network connection (the browser's `navigator.onLine`; the
/// desktop always answers yes and lets the connection attempt tell).
pub fn network_available() -> bool {
    #[cfg(target_arch = "wasm32")]
    {
        web_sys::window().is_none_or(|w| w.navigator().on_line())
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        true
    }
}

//! What the device gives the game: documents that survive between runs (files or the browser's
//! storage), work off the frame (a worker pool or the page's idle time), the system's language.

pub mod background;
pub mod entropy;
pub mod notices;
pub mod share;
pub mod storage;

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

/// The size, in the page's pixels, of the box the page gives the game's canvas (`#ludus`), if
/// it is laid out (the browser only): the window starts at that size, so that the drawing surface
/// is made once at its size. Made at a default size, the surface is made again a few frames
/// later, when the page reports the canvas's real size, and the browser then waits for
/// everything drawn before (on a software renderer, the first frames' shaders) to finish.
pub fn canvas_size() -> Option<(u32, u32)> {
    #[cfg(target_arch = "wasm32")]
    {
        let canvas = web_sys::window()?.document()?.get_element_by_id("ludus")?;
        let (w, h) = (canvas.client_width(), canvas.client_height());
        (w > 0 && h > 0).then(|| (w as u32, h as u32))
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        None
    }
}

/// The languages the system prefers, most preferred first: the operating system's locales
/// (`sys-locale`: `LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG` on Linux) on the desktop, the
/// browser's `navigator.languages` in the browser.
pub fn system_locales() -> Vec<String> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        sys_locale::get_locales().collect()
    }
    #[cfg(target_arch = "wasm32")]
    {
        let Some(navigator) = web_sys::window().map(|w| w.navigator()) else {
            return Vec::new();
        };
        let mut out: Vec<String> = navigator.languages().iter().filter_map(|l| l.as_string()).collect();
        if out.is_empty() {
            out.extend(navigator.language());
        }
        out
    }
}

/// The interface language the system asks for (see [`crate::i18n::Lang::from_locales`]).
pub fn system_lang() -> crate::i18n::Lang {
    crate::i18n::Lang::from_locales(system_locales())
}

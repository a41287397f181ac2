//! What the device gives the game: documents that survive between runs (files or the browser's
//! storage), work off the frame (a worker pool or the page's idle time), the system's language.

pub mod background;
pub mod entropy;
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

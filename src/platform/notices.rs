//! The system's notices in the browser: whether the person lets the page show them, and asking.
//! The page itself (`web/index.html`) shows "your turn" and sets the installed app's badge
//! from the count the game publishes; the desktop's notice is the window's title.

/// Whether the page may show the system's notices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticePermission {
    /// The device has none (the desktop build, or a browser without them).
    Unavailable,
    /// Not asked yet: the person may be asked.
    Ask,
    /// Allowed.
    Granted,
    /// Refused (only the browser's settings can change it).
    Denied,
}

/// What the browser says now.
pub fn permission() -> NoticePermission {
    #[cfg(target_arch = "wasm32")]
    {
        let state = notification()
            .and_then(|n| js_sys::Reflect::get(&n, &"permission".into()).ok())
            .and_then(|p| p.as_string());
        match state.as_deref() {
            Some("granted") => NoticePermission::Granted,
            Some("denied") => NoticePermission::Denied,
            Some(_) => NoticePermission::Ask,
            None => NoticePermission::Unavailable,
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        NoticePermission::Unavailable
    }
}

/// Asks the person (the browser shows its own question; it must follow a tap, so this is
/// called in the frame of one).
pub fn ask() {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsCast;
        let Some(n) = notification() else { return };
        let ask = js_sys::Reflect::get(&n, &"requestPermission".into()).ok();
        if let Some(f) = ask.and_then(|f| f.dyn_into::<js_sys::Function>().ok()) {
            let _ = f.call0(&n);
        }
    }
}

#[cfg(target_arch = "wasm32")]
fn notification() -> Option<wasm_bindgen::JsValue> {
    let window: wasm_bindgen::JsValue = web_sys::window()?.into();
    let n = js_sys::Reflect::get(&window, &"Notification".into()).ok()?;
    (!n.is_undefined()).then_some(n)
}

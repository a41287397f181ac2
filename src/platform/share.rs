//! Passing a link on: the system's share sheet where the browser has one (phones, tablets),
//! else the clipboard. The desktop build has neither (it shows the link to copy by hand).

/// Whether this device can pass a link on from the game.
pub fn can_share() -> bool {
    #[cfg(target_arch = "wasm32")]
    {
        web::navigator_has("share") || web::navigator_has("clipboard")
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        false
    }
}

/// Passes `url` on: the share sheet, else the clipboard. Whatever the browser refuses (the
/// person closed the sheet, no permission) is only logged.
pub fn share_link(url: &str) {
    #[cfg(target_arch = "wasm32")]
    web::share(url);
    #[cfg(not(target_arch = "wasm32"))]
    let _ = url;
}

#[cfg(target_arch = "wasm32")]
mod web {
    use js_sys::{Function, Object, Reflect};
    use wasm_bindgen::{JsCast, JsValue};

    fn navigator() -> Option<JsValue> {
        Some(web_sys::window()?.navigator().into())
    }

    pub(super) fn navigator_has(name: &str) -> bool {
        navigator().and_then(|n| Reflect::get(&n, &name.into()).ok()).is_some_and(|v| !v.is_undefined())
    }

    /// Calls `target.name(arg)` if it is a function.
    fn call(target: &JsValue, name: &str, arg: &JsValue) -> bool {
        let f = Reflect::get(target, &name.into()).ok().and_then(|f| f.dyn_into::<Function>().ok());
        f.is_some_and(|f| f.call1(target, arg).is_ok())
    }

    pub(super) fn share(url: &str) {
        let Some(nav) = navigator() else { return };
        let data = Object::new();
        let _ = Reflect::set(&data, &"url".into(), &url.into());
        if navigator_has("share") && call(&nav, "share", &data) {
            return;
        }
        let clipboard = Reflect::get(&nav, &"clipboard".into()).unwrap_or(JsValue::UNDEFINED);
        if !clipboard.is_undefined() && call(&clipboard, "writeText", &url.into()) {
            return;
        }
        bevy::log::warn!("the browser could not pass the link on");
    }
}

//! Small named documents that survive between runs: files in the platform's config directory
//! on the desktop, `localStorage` in the browser.

#[cfg(not(target_arch = "wasm32"))]
static OVERRIDE: std::sync::RwLock<Option<std::path::PathBuf>> = std::sync::RwLock::new(None);

/// Puts every document in `dir` instead of the usual place (`None` goes back to it).
#[cfg(not(target_arch = "wasm32"))]
pub fn set_data_dir(dir: Option<std::path::PathBuf>) {
    *OVERRIDE.write().unwrap_or_else(|e| e.into_inner()) = dir;
}

/// Where documents live on the desktop: the directory given to [`set_data_dir`], else
/// `LUDUS_DATA_DIR` if set, else `ludus` in the platform's config directory (the `directories`
/// crate: `$XDG_CONFIG_HOME/ludus` or `~/.config/ludus` on Linux, `~/Library/Application
/// Support/Ludus` on macOS, `%APPDATA%\Ludus` on Windows: where earlier versions kept them).
#[cfg(not(target_arch = "wasm32"))]
pub fn data_dir() -> Option<std::path::PathBuf> {
    if let Some(dir) = OVERRIDE.read().unwrap_or_else(|e| e.into_inner()).clone() {
        return Some(dir);
    }
    if let Some(dir) = std::env::var_os("LUDUS_DATA_DIR") {
        return Some(std::path::PathBuf::from(dir));
    }
    let name = if cfg!(any(target_os = "macos", target_os = "windows")) { "Ludus" } else { "ludus" };
    directories::BaseDirs::new().map(|dirs| dirs.config_dir().join(name))
}

/// Reads a document; `Ok(None)` if there is none.
#[cfg(not(target_arch = "wasm32"))]
pub fn read(name: &str) -> Result<Option<String>, String> {
    let Some(dir) = data_dir() else {
        return Ok(None);
    };
    match std::fs::read(dir.join(name)) {
        Ok(bytes) => String::from_utf8(bytes).map(Some).map_err(|_| "not UTF-8 text".to_string()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e.to_string()),
    }
}

/// Writes a document whole: to a temporary file, then renamed over the old one, so a crash
/// never leaves half a document.
#[cfg(not(target_arch = "wasm32"))]
pub fn write(name: &str, contents: &str) -> Result<(), String> {
    let dir = data_dir().ok_or("no data directory")?;
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let tmp = dir.join(format!("{name}.tmp"));
    std::fs::write(&tmp, contents).map_err(|e| e.to_string())?;
    std::fs::rename(&tmp, dir.join(name)).map_err(|e| e.to_string())
}

/// Removes a document (no error if it is already gone).
#[cfg(not(target_arch = "wasm32"))]
pub fn remove(name: &str) {
    if let Some(dir) = data_dir() {
        let _ = std::fs::remove_file(dir.join(name));
    }
}

/// Moves a bad document aside under a new name, which it returns.
#[cfg(not(target_arch = "wasm32"))]
pub fn set_aside(name: &str) -> Option<String> {
    let dir = data_dir()?;
    let stamp =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let new_name = format!("{name}.corrupt-{stamp}");
    std::fs::rename(dir.join(name), dir.join(&new_name)).ok()?;
    Some(dir.join(new_name).display().to_string())
}

#[cfg(target_arch = "wasm32")]
fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// Reads a document; `Ok(None)` if there is none.
#[cfg(target_arch = "wasm32")]
pub fn read(name: &str) -> Result<Option<String>, String> {
    let storage = local_storage().ok_or("localStorage is not available")?;
    storage.get_item(&format!("ludus.{name}")).map_err(|_| "localStorage refused to read".to_string())
}

/// Writes a document whole.
#[cfg(target_arch = "wasm32")]
pub fn write(name: &str, contents: &str) -> Result<(), String> {
    let storage = local_storage().ok_or("localStorage is not available")?;
    storage
        .set_item(&format!("ludus.{name}"), contents)
        .map_err(|_| "localStorage refused to write".to_string())
}

/// Removes a document.
#[cfg(target_arch = "wasm32")]
pub fn remove(name: &str) {
    if let Some(s) = local_storage() {
        let _ = s.remove_item(&format!("ludus.{name}"));
    }
}

/// Moves a bad document aside under a new name, which it returns.
#[cfg(target_arch = "wasm32")]
pub fn set_aside(name: &str) -> Option<String> {
    let s = local_storage()?;
    let key = format!("ludus.{name}");
    let value = s.get_item(&key).ok()??;
    let new_key = format!("{key}.corrupt");
    s.set_item(&new_key, &value).ok()?;
    s.remove_item(&key).ok()?;
    Some(new_key)
}

/// A JSON document the game keeps, and the text that tells the player it could not be read.
#[derive(Clone, Copy, Debug)]
pub struct Document {
    /// The file's name (the browser's storage key after `ludus.`).
    pub name: &'static str,
    /// The message that tells it: "... could not be read ... renamed { $file } ... “{ $error }”".
    pub corrupt: crate::i18n::Id,
}

impl Document {
    /// Reads the document with `parse`. Missing: `(None, None)`. A document that cannot be read
    /// or parsed is set aside (never trusted, never overwritten unseen) and reported: `(None,
    /// Some(message in the player's language))`. The one behaviour for every document.
    pub fn load<T>(
        &self,
        lang: crate::i18n::Lang,
        parse: impl FnOnce(&str) -> Result<T, String>,
    ) -> (Option<T>, Option<String>) {
        let tell = |error: &str, aside: &str| {
            lang.text_with(self.corrupt, [("error", error.into()), ("file", aside.into())])
        };
        match read(self.name) {
            Ok(None) => (None, None),
            Ok(Some(text)) => match parse(&text) {
                Ok(value) => (Some(value), None),
                Err(e) => {
                    let aside = set_aside(self.name).unwrap_or_else(|| "?".into());
                    bevy::log::warn!("unreadable {}: {e}; kept aside as {aside}", self.name);
                    (None, Some(tell(&e, &aside)))
                }
            },
            Err(e) => {
                bevy::log::warn!("{} could not be read: {e}", self.name);
                (None, Some(tell(&e, "-")))
            }
        }
    }

    /// Reads a JSON document of `T` (see [`Document::load`]).
    pub fn load_json<T: serde::de::DeserializeOwned>(
        &self,
        lang: crate::i18n::Lang,
    ) -> (Option<T>, Option<String>) {
        self.load(lang, |text| serde_json::from_str(text).map_err(|e| e.to_string()))
    }

    /// Writes `value` as pretty JSON, whole (see [`write`]).
    pub fn save_json<T: serde::Serialize>(&self, value: &T) -> Result<(), String> {
        let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
        write(self.name, &text)
    }

    /// Removes the document.
    pub fn remove(&self) {
        remove(self.name);
    }
}

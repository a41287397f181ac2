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
/// `LUDUS_DATA_DIR` if set, else the platform's config directory (`$XDG_CONFIG_HOME/ludus`,
/// `~/.config/ludus`, `~/Library/Application Support/Ludus`, `%APPDATA%\Ludus`).
#[cfg(not(target_arch = "wasm32"))]
pub fn data_dir() -> Option<std::path::PathBuf> {
    use std::path::PathBuf;
    if let Some(dir) = OVERRIDE.read().unwrap_or_else(|e| e.into_inner()).clone() {
        return Some(dir);
    }
    if let Some(dir) = std::env::var_os("LUDUS_DATA_DIR") {
        return Some(PathBuf::from(dir));
    }
    if cfg!(target_os = "windows") {
        return std::env::var_os("APPDATA").map(|d| PathBuf::from(d).join("Ludus"));
    }
    let home = std::env::var_os("HOME").map(PathBuf::from);
    if cfg!(target_os = "macos") {
        return home.map(|h| h.join("Library/Application Support/Ludus"));
    }
    match std::env::var_os("XDG_CONFIG_HOME") {
        Some(x) if !x.is_empty() => Some(PathBuf::from(x).join("ludus")),
        _ => home.map(|h| h.join(".config/ludus")),
    }
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

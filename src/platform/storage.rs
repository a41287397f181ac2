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

/// Why a document could not be read or written. Its `Display` is the technical detail, for the
/// log; [`StorageError::text`] says it to the player.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// The device gives no place for the game's documents.
    #[error("no data directory")]
    NoPlace,
    /// The document is not text.
    #[error("not UTF-8 text")]
    NotText,
    /// The system refused (the desktop's file system).
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The browser has no storage for the page (private browsing, storage turned off).
    #[error("localStorage is not available")]
    Unavailable,
    /// The browser's storage refused to read.
    #[error("localStorage refused to read")]
    ReadRefused,
    /// The browser's storage refused to write (full, most often).
    #[error("localStorage refused to write")]
    WriteRefused,
    /// The value could not be written as JSON.
    #[error("could not be encoded: {0}")]
    Encode(#[source] serde_json::Error),
}

impl StorageError {
    /// What went wrong, in `lang`: a clause to follow "could not be read:", with the system's
    /// error number where there is one.
    pub fn text(&self, lang: crate::i18n::Lang) -> String {
        use std::io::ErrorKind;
        match self {
            StorageError::NoPlace => lang.t("storage-no-place").to_string(),
            StorageError::NotText => lang.t("storage-not-text").to_string(),
            StorageError::Io(e) => {
                let what = match e.kind() {
                    ErrorKind::PermissionDenied => lang.t("storage-denied"),
                    ErrorKind::StorageFull | ErrorKind::QuotaExceeded => lang.t("storage-full"),
                    ErrorKind::ReadOnlyFilesystem => lang.t("storage-read-only"),
                    ErrorKind::NotFound => lang.t("storage-missing"),
                    ErrorKind::InvalidData => lang.t("storage-not-text"),
                    _ => lang.t("storage-system"),
                };
                match e.raw_os_error() {
                    Some(code) => lang.fmt("system-code", [("problem", what.into()), ("code", code.into())]),
                    None => what.to_string(),
                }
            }
            StorageError::Unavailable => lang.t("storage-unavailable").to_string(),
            StorageError::ReadRefused => lang.t("storage-read-refused").to_string(),
            StorageError::WriteRefused => lang.t("storage-write-refused").to_string(),
            StorageError::Encode(_) => lang.t("storage-encode").to_string(),
        }
    }
}

/// Why a document the game keeps could not be used: it could not be read, it is not JSON of the
/// expected shape, or it is of a version this game does not read. Shown with
/// [`DocumentError::text`]; its `Display` is for the log.
#[derive(Debug, thiserror::Error)]
pub enum DocumentError {
    /// The document could not be read.
    #[error(transparent)]
    Storage(#[from] StorageError),
    /// The text is not JSON of the expected shape (where the reader stopped).
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    /// A version of the document's format this game does not read.
    #[error("unknown format version {found} (this game reads {expected})")]
    Version {
        /// The version in the document.
        found: u32,
        /// The version this game writes and reads.
        expected: u32,
    },
}

impl DocumentError {
    /// What is wrong, in `lang`: a clause (where the JSON reader stopped, the system's error
    /// number...), no English of the system's or the reader's.
    pub fn text(&self, lang: crate::i18n::Lang) -> String {
        use serde_json::error::Category;
        match self {
            DocumentError::Storage(e) => e.text(lang),
            DocumentError::Json(e) => {
                let (line, column) = (e.line(), e.column());
                match e.classify() {
                    Category::Syntax => {
                        lang.fmt("document-not-json", [("line", line.into()), ("column", column.into())])
                    }
                    Category::Eof => lang.fmt("document-cut-short", [("line", line.into())]),
                    Category::Data => {
                        lang.fmt("document-wrong-shape", [("line", line.into()), ("column", column.into())])
                    }
                    Category::Io => lang.t("storage-system").to_string(),
                }
            }
            DocumentError::Version { found, expected } => {
                lang.fmt("document-version", [("found", (*found).into()), ("expected", (*expected).into())])
            }
        }
    }
}

/// What the player is told about a document's problem (see [`Document::load`]).
pub trait Explain: std::fmt::Display {
    /// The problem in `lang`, without the system's English.
    fn text(&self, lang: crate::i18n::Lang) -> String;
}

impl Explain for StorageError {
    fn text(&self, lang: crate::i18n::Lang) -> String {
        StorageError::text(self, lang)
    }
}

impl Explain for DocumentError {
    fn text(&self, lang: crate::i18n::Lang) -> String {
        DocumentError::text(self, lang)
    }
}

/// Reads a document; `Ok(None)` if there is none.
#[cfg(not(target_arch = "wasm32"))]
pub fn read(name: &str) -> Result<Option<String>, StorageError> {
    let Some(dir) = data_dir() else {
        return Ok(None);
    };
    match std::fs::read(dir.join(name)) {
        Ok(bytes) => String::from_utf8(bytes).map(Some).map_err(|_| StorageError::NotText),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// Writes a document whole: to a temporary file, then renamed over the old one, so a crash
/// never leaves half a document.
#[cfg(not(target_arch = "wasm32"))]
pub fn write(name: &str, contents: &str) -> Result<(), StorageError> {
    let dir = data_dir().ok_or(StorageError::NoPlace)?;
    std::fs::create_dir_all(&dir)?;
    let tmp = dir.join(format!("{name}.tmp"));
    std::fs::write(&tmp, contents)?;
    std::fs::rename(&tmp, dir.join(name))?;
    Ok(())
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
pub fn read(name: &str) -> Result<Option<String>, StorageError> {
    let storage = local_storage().ok_or(StorageError::Unavailable)?;
    storage.get_item(&format!("ludus.{name}")).map_err(|_| StorageError::ReadRefused)
}

/// Writes a document whole.
#[cfg(target_arch = "wasm32")]
pub fn write(name: &str, contents: &str) -> Result<(), StorageError> {
    let storage = local_storage().ok_or(StorageError::Unavailable)?;
    storage.set_item(&format!("ludus.{name}"), contents).map_err(|_| StorageError::WriteRefused)
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
    /// The message that tells it: "... could not be read: { $error }. ... renamed { $file } ...",
    /// the error in the player's words.
    pub corrupt: crate::i18n::Id,
}

impl Document {
    /// Reads the document with `parse`. Missing: `(None, None)`. A document that cannot be
    /// parsed is set aside (never trusted, never overwritten unseen) and reported: `(None,
    /// Some(message in the player's language))`; one that cannot be read is left where it is
    /// and reported. The technical detail goes to the log. The one behaviour for every document.
    pub fn load<T, E: Explain>(
        &self,
        lang: crate::i18n::Lang,
        parse: impl FnOnce(&str) -> Result<T, E>,
    ) -> (Option<T>, Option<String>) {
        let parsed = match read(self.name) {
            Ok(None) => return (None, None),
            Ok(Some(text)) => parse(&text).map_err(|e| (e.text(lang), e.to_string())),
            // Bytes that are no text never will be: set aside like a document that does not parse.
            Err(e @ StorageError::NotText) => Err((e.text(lang), e.to_string())),
            Err(e) => {
                bevy::log::warn!("{} could not be read: {e}", self.name);
                let error = e.text(lang);
                return (
                    None,
                    Some(
                        lang.fmt("storage-unreadable", [("error", error.into()), ("file", self.name.into())]),
                    ),
                );
            }
        };
        match parsed {
            Ok(value) => (Some(value), None),
            Err((text, detail)) => {
                let aside = set_aside(self.name).unwrap_or_else(|| "?".into());
                bevy::log::warn!("unreadable {}: {detail}; kept aside as {aside}", self.name);
                let told = [("error", text.into()), ("file", aside.into())];
                (None, Some(lang.text_with(self.corrupt, told)))
            }
        }
    }

    /// Reads a JSON document of `T` (see [`Document::load`]).
    pub fn load_json<T: serde::de::DeserializeOwned>(
        &self,
        lang: crate::i18n::Lang,
    ) -> (Option<T>, Option<String>) {
        self.load(lang, |text| serde_json::from_str(text).map_err(DocumentError::Json))
    }

    /// Writes `value` as pretty JSON, whole (see [`write`]).
    pub fn save_json<T: serde::Serialize>(&self, value: &T) -> Result<(), StorageError> {
        let text = serde_json::to_string_pretty(value).map_err(StorageError::Encode)?;
        write(self.name, &text)
    }

    /// Removes the document.
    pub fn remove(&self) {
        remove(self.name);
    }
}

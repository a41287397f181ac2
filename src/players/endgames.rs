//! The Alquerque endgame tablebase in the game: on the desktop it is found in the data directory
//! or built there in the background on first run (up to [`DESKTOP_PIECES`] pieces; bigger
//! tables built with `ludus-cli tablebase build` are used too); the web build carries the small
//! tables in the bundle. Medium, Hard, the hint and the status line use it.
//!
//! Beside the tables, the book of proven values (`ludus_ai::solve::book`): the shipped one
//! (`assets/books/alquerque.lbk`, the opening as the solver settled it), or on the desktop a
//! larger one built with `ludus-cli solve --book` and put in the data directory as
//! [`BOOK_FILE`]. Hard, the hint and the analysis keep its values (Medium stays fallible).

#[cfg(not(target_arch = "wasm32"))]
use crate::app::launch::Launch;
use crate::platform::background::Background;
use bevy::prelude::*;
use ludus_ai::solve::book::Book;
use ludus_ai::tablebase::{Probe, Tablebase};
use ludus_rules::AnyPosition;
use std::sync::{Arc, OnceLock};

/// Pieces up to which the desktop game builds tables itself (16 MB, a few seconds).
pub const DESKTOP_PIECES: u32 = 6;

/// The book file a desktop player may put in the data directory, used instead of the shipped
/// book.
pub const BOOK_FILE: &str = "alquerque-book.lbk";

/// The book shipped with the game.
const SHIPPED_BOOK: &[u8] = include_bytes!("../../assets/books/alquerque.lbk");

/// The tablebase, once ready, and the book of proven values.
#[derive(Resource, Default, Clone)]
pub struct Endgames {
    /// The tables (none until they are loaded or built).
    pub tb: Option<Arc<Tablebase>>,
    /// A book loaded from the data directory (desktop), used instead of the shipped one.
    pub own_book: Option<Arc<Book>>,
}

impl Endgames {
    /// The book of proven values: the data directory's, else the shipped one (read and checked
    /// the first time it is asked for, not during the start).
    pub fn book(&self) -> Option<Arc<Book>> {
        static SHIPPED: OnceLock<Option<Arc<Book>>> = OnceLock::new();
        self.own_book.clone().or_else(|| {
            SHIPPED
                .get_or_init(|| match Book::from_bytes(SHIPPED_BOOK, "the shipped book") {
                    Ok(book) => Some(Arc::new(book)),
                    Err(e) => {
                        warn!("{e}");
                        None
                    }
                })
                .clone()
        })
    }

    /// The tablebase's verdict on a position, if it covers it.
    pub fn probe(&self, pos: &AnyPosition) -> Option<Probe> {
        match (pos, &self.tb) {
            (AnyPosition::Alquerque(p), Some(tb)) => tb.probe(p),
            _ => None,
        }
    }
}

/// The background load or build of the tables (desktop), until it is over.
#[derive(Resource, Default)]
struct Loading(Option<Background<Result<Tablebase, LoadError>>>);

/// The background load of a desktop book, until it is over.
#[derive(Resource, Default)]
struct LoadingBook(Option<Background<Result<Book, LoadError>>>);

/// Why the desktop's own tables or book are not used (for the log: the game plays on without
/// them, with what it ships).
#[derive(Debug, thiserror::Error)]
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
pub enum LoadError {
    #[error("cannot read {file}: {source}")]
    Read { file: String, source: std::io::Error },
    #[error(transparent)]
    Tables(#[from] ludus_ai::tablebase::TbError),
    #[error(transparent)]
    Book(#[from] ludus_ai::solve::SolveError),
    #[error("the tables built in {0} do not load")]
    Incomplete(String),
}

/// The tables shipped in the web bundle (every material of up to four pieces).
#[cfg(target_arch = "wasm32")]
const SHIPPED: &[&[u8]] = &[
    include_bytes!("../../assets/tablebases/alq-1v1.ltb"),
    include_bytes!("../../assets/tablebases/alq-1v2.ltb"),
    include_bytes!("../../assets/tablebases/alq-2v1.ltb"),
    include_bytes!("../../assets/tablebases/alq-1v3.ltb"),
    include_bytes!("../../assets/tablebases/alq-2v2.ltb"),
    include_bytes!("../../assets/tablebases/alq-3v1.ltb"),
];

#[cfg(target_arch = "wasm32")]
fn start(mut endgames: ResMut<Endgames>) {
    match Tablebase::from_bytes(SHIPPED.iter().copied()) {
        Ok(tb) => endgames.tb = Some(Arc::new(tb)),
        Err(e) => warn!("the shipped endgame tables do not load: {e}"),
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn start(mut loading: ResMut<Loading>, mut loading_book: ResMut<LoadingBook>, launch: Option<Res<Launch>>) {
    // A screenshot run ends after one frame: no background work for it.
    if launch.is_some_and(|l| l.screenshot.is_some()) {
        return;
    }
    let Some(data) = crate::platform::storage::data_dir() else { return };
    let book = data.join(BOOK_FILE);
    if book.exists() {
        loading_book.0 = Some(Background::spawn("book", move |out| {
            out.push(
                std::fs::read(&book)
                    .map_err(|source| LoadError::Read { file: book.display().to_string(), source })
                    .and_then(|bytes| Ok(Book::from_bytes(&bytes, &book.display().to_string())?)),
            );
            true
        }));
    }
    let dir = data.join("tablebases");
    loading.0 = Some(Background::spawn("tablebase", move |out| {
        out.push(load_or_build(&dir, DESKTOP_PIECES));
        true
    }));
}

/// The tables of `dir`, every one opened and checked now, on the calling thread, so that no
/// search waits for a table's first check. When a table of up to `pieces` pieces is missing or
/// damaged, the missing and damaged ones are built first (on one thread: the game goes on
/// meanwhile; the sound ones are kept). A bigger table that fails its check is left unused,
/// with a warning.
#[cfg(not(target_arch = "wasm32"))]
pub fn load_or_build(dir: &std::path::Path, pieces: u32) -> Result<Tablebase, LoadError> {
    let complete = |tb: &Tablebase| {
        (2..=pieces).all(|total| {
            (1..total).all(|mover| {
                ludus_ai::tablebase::Material::new(mover, total - mover)
                    .is_some_and(|m| matches!(tb.table(m), Ok(Some(_))))
            })
        })
    };
    let tb = match Tablebase::open(dir) {
        Ok(tb) if complete(&tb) => tb,
        _ => {
            info!("building the endgame tables (up to {pieces} pieces) in {}", dir.display());
            let tb = ludus_ai::tablebase::generate_with_threads(pieces, Some(dir), 1, |_| {})?;
            if !complete(&tb) {
                return Err(LoadError::Incomplete(dir.display().to_string()));
            }
            tb
        }
    };
    for m in tb.materials() {
        if let Err(e) = tb.table(m) {
            warn!("the endgame table {m} is not used: {e}");
        }
    }
    Ok(tb)
}

/// The result of a finished background load, once (the load is then dropped).
fn finished<T: Send + 'static>(work: &mut Option<Background<T>>) -> Option<T> {
    let result = work.as_ref()?.take().pop()?;
    *work = None;
    Some(result)
}

fn collect(mut loading: ResMut<Loading>, mut endgames: ResMut<Endgames>) {
    match finished(&mut loading.0) {
        Some(Ok(tb)) => {
            info!("endgame tables ready: up to {} pieces", tb.max_pieces());
            endgames.tb = Some(Arc::new(tb));
        }
        Some(Err(e)) => warn!("no endgame tables: {e}"),
        None => {}
    }
}

fn collect_book(mut loading: ResMut<LoadingBook>, mut endgames: ResMut<Endgames>) {
    match finished(&mut loading.0) {
        Some(Ok(book)) => {
            info!("book of proven values: {} positions", book.len());
            endgames.own_book = Some(Arc::new(book));
        }
        // The shipped book stays.
        Some(Err(e)) => warn!("the book in the data directory is not used: {e}"),
        None => {}
    }
}

/// Loads or builds the tables, and loads a desktop book.
pub fn plugin(app: &mut App) {
    app.init_resource::<Endgames>()
        .init_resource::<Loading>()
        .init_resource::<LoadingBook>()
        .add_systems(Startup, start)
        .add_systems(Update, (collect, collect_book));
}

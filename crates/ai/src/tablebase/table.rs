//! Storage: one table per material signature, its file format, loading and probing.
//!
//! # File format (version 2), all numbers little-endian
//!
//! | bytes | what |
//! | --- | --- |
//! | 0..8 | magic `LUDUSTB` and byte 0x1A |
//! | 8..10 | format version, 2 |
//! | 10 | game: 1 = Alquerque |
//! | 11, 12 | material: pieces of the side to move, of the other side |
//! | 13 | bytes per distance entry, 1 or 2 |
//! | 14..16 | zero |
//! | 16..24 | number of positions `n`, `C(25, m) * C(25 - m, o)` |
//! | 24..48 | wins, draws, losses (three `u64`, checked against the data when loading) |
//! | 48..50 | the longest distance to the end in the table, in plies |
//! | 50..56 | zero |
//! | 56..64 | checksum: a 64-bit FNV-1a-style hash over 8-byte words of bytes 0..56 and 64.. |
//! | 64.. | WDL, in lines of 64 bytes, each of 224 positions: a `u64`, the wins and losses before the line, then 2 bits a position, four to a byte, lowest bits first: 0 draw, 1 win, 2 loss; zero bits after the last position |
//! | then | distance: one entry (1 or 2 bytes) for each win or loss, in index order: `k` for a loss in `2k` plies or a win in `2k + 1` |
//!
//! A draw has no distance: the distance of the win or loss at index `i` is entry number "wins
//! and losses before `i`", which `i`'s line gives by its count and the values before `i` in it.
//! A probe reads one line and one distance entry. The WDL part is 2.29 bits a position, the
//! distance part 8 bits (16 if a table ever has a distance of 511 plies or more) a won or lost
//! position.
//!
//! Version 1, still read (the tables of earlier builds), has plain WDL bytes and a distance
//! entry for every position, 0 for a draw, after them.
//!
//! Every check fails with a [`TbError`]: a wrong magic, version, game or material, a length that
//! does not match (a truncated file), a checksum that does not match, or data that contradicts
//! the header's counts or itself (a directory entry, a draw with a distance, bits after the last
//! position).
//!
//! # Streaming
//!
//! [`Table::open`] keeps a file larger than a given size on disk: every check above is made
//! when it is opened, reading it piece by piece, and each probe then reads the few bytes it
//! needs (the operating system's page cache keeps the parts in use). A read that fails later
//! (the file was truncated or removed) is an error, never a value.

use super::TbError;
use super::index::Material;
use super::{Probe, Wdl};
use std::path::Path;

#[cfg(any(unix, windows))]
use std::fs::File;

/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = *b"LUDUSTB\x1a";
/// The format version this code writes (it reads this one and version 1).
pub const VERSION: u16 = 2;

/// Bytes of a line of version 2's WDL part: a count, then values.
const LINE: u64 = 64;
/// Positions of a line of version 2.
const LINE_POSITIONS: u64 = (LINE - 8) * 4;
/// The game byte for Alquerque.
pub const GAME_ALQUERQUE: u8 = 1;
/// Bytes of the header.
pub const HEADER: usize = 64;

const CHECKSUM_AT: usize = 56;

/// The checksum of a file's bytes, fed in order (its own field left out).
struct Checksum(u64);

impl Checksum {
    const PRIME: u64 = 0x0000_0100_0000_01B3;

    fn new() -> Checksum {
        Checksum(0xCBF2_9CE4_8422_2325)
    }

    /// Feeds bytes; every part but the last must be a whole number of 8-byte words.
    fn feed(&mut self, part: &[u8]) {
        for chunk in part.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0 ^ u64::from_le_bytes(w)).wrapping_mul(Self::PRIME);
            self.0 ^= self.0 >> 32;
        }
    }
}

/// The checksum of a whole file's bytes.
fn checksum(bytes: &[u8]) -> u64 {
    let mut sum = Checksum::new();
    sum.feed(&bytes[..CHECKSUM_AT.min(bytes.len())]);
    sum.feed(bytes.get(HEADER..).unwrap_or(&[]));
    sum.0
}

/// Positions checked at a time (a multiple of [`LINE_POSITIONS`]: whole lines), and bytes read at
/// a time for a streamed file's checksum (a multiple of 8: whole words). Small enough that the
/// tests' tables take several pieces.
const BLOCK: u64 = LINE_POSITIONS * 256;

/// What a table holds, for reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableStats {
    /// The material signature (side to move's pieces first).
    pub material: Material,
    /// Positions in the table.
    pub positions: u64,
    /// Positions won by the side to move.
    pub wins: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Positions lost by the side to move.
    pub losses: u64,
    /// The longest distance to the end, in plies.
    pub max_plies: u16,
    /// Bytes of the file (header included).
    pub bytes: u64,
}

/// Where a table's bytes are.
enum Store {
    /// In memory, exactly as in the file.
    Memory(Vec<u8>),
    /// In a file, read at each probe.
    #[cfg(any(unix, windows))]
    File(File),
}

/// Reads `buf.len()` bytes at offset `at` of `file`.
#[cfg(any(unix, windows))]
fn read_exact_at(file: &File, buf: &mut [u8], at: u64) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_exact_at(file, buf, at)
    }
    #[cfg(windows)]
    {
        let mut done = 0;
        while done < buf.len() {
            match std::os::windows::fs::FileExt::seek_read(file, &mut buf[done..], at + done as u64) {
                Ok(0) => return Err(std::io::ErrorKind::UnexpectedEof.into()),
                Ok(n) => done += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

impl Store {
    /// Copies the bytes at `at` into `buf`.
    fn read(&self, at: u64, buf: &mut [u8]) -> Result<(), String> {
        match self {
            Store::Memory(data) => {
                let from = usize::try_from(at)
                    .ok()
                    .filter(|&a| a.checked_add(buf.len()).is_some_and(|end| end <= data.len()));
                let from = from.ok_or_else(|| format!("no bytes at {at}"))?;
                buf.copy_from_slice(&data[from..from + buf.len()]);
                Ok(())
            }
            #[cfg(any(unix, windows))]
            Store::File(file) => read_exact_at(file, buf, at)
                .map_err(|e| format!("cannot read {} bytes at {at}: {e}", buf.len())),
        }
    }
}

/// Where the parts of a file are, from its header.
#[derive(Clone, Copy, Debug)]
struct Layout {
    version: u16,
    /// Bytes per distance entry.
    width: u64,
    /// The distance part.
    dtw_at: u64,
    /// The file's length.
    len: u64,
}

impl Layout {
    fn new(version: u16, width: u64, positions: u64, decided: u64) -> Layout {
        if version == 1 {
            let dtw_at = HEADER as u64 + positions.div_ceil(4);
            Layout { version, width, dtw_at, len: dtw_at + positions * width }
        } else {
            let dtw_at = HEADER as u64 + positions.div_ceil(LINE_POSITIONS) * LINE;
            Layout { version, width, dtw_at, len: dtw_at + decided * width }
        }
    }

    /// Where the byte of position `idx`'s value is, and its shift.
    #[inline]
    fn value_at(&self, idx: u64) -> (u64, u32) {
        let shift = (idx % 4) as u32 * 2;
        if self.version == 1 {
            (HEADER as u64 + idx / 4, shift)
        } else {
            (HEADER as u64 + idx / LINE_POSITIONS * LINE + 8 + idx % LINE_POSITIONS / 4, shift)
        }
    }
}

/// Wins and losses among the positions of some bytes of the WDL part.
#[inline]
fn decided(bytes: &[u8]) -> u64 {
    let mut n = 0;
    for chunk in bytes.chunks(8) {
        let mut w = [0u8; 8];
        w[..chunk.len()].copy_from_slice(chunk);
        let word = u64::from_le_bytes(w);
        n += u64::from(((word | word >> 1) & 0x5555_5555_5555_5555).count_ones());
    }
    n
}

/// Distance entry `j` of `bytes`, entries of `width` (1 or 2) bytes.
#[inline]
fn half_at(bytes: &[u8], j: usize, width: usize) -> u16 {
    if width == 1 { u16::from(bytes[j]) } else { u16::from_le_bytes([bytes[2 * j], bytes[2 * j + 1]]) }
}

fn u64_le(bytes: &[u8]) -> u64 {
    u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes"))
}

/// One material signature's table: in memory exactly as in its file, or in its file.
pub struct Table {
    stats: TableStats,
    layout: Layout,
    store: Store,
    name: String,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table").field("stats", &self.stats).finish()
    }
}

impl Table {
    /// A table from generation's values: 0 for a draw, otherwise the distance in plies plus
    /// one (odd distances are wins for the side to move, even ones losses).
    pub(crate) fn from_codes(material: Material, codes: &[u16]) -> Table {
        let positions = codes.len() as u64;
        debug_assert_eq!(positions, material.positions());
        let max_plies = codes.iter().map(|&c| c.saturating_sub(1)).max().unwrap_or(0);
        let width = if max_plies / 2 > 255 { 2 } else { 1 };
        let draws = codes.iter().filter(|&&c| c == 0).count() as u64;
        let layout = Layout::new(VERSION, width, positions, positions - draws);
        let mut data = vec![0u8; layout.len as usize];
        let (dtw_at, width) = (layout.dtw_at as usize, width as usize);
        let (mut wins, mut losses) = (0u64, 0u64);
        for (i, &c) in codes.iter().enumerate() {
            if (i as u64).is_multiple_of(LINE_POSITIONS) {
                let at = HEADER + (i as u64 / LINE_POSITIONS * LINE) as usize;
                data[at..at + 8].copy_from_slice(&(wins + losses).to_le_bytes());
            }
            if c == 0 {
                continue;
            }
            let plies = c - 1;
            let at = dtw_at + (wins + losses) as usize * width;
            let bits = if plies % 2 == 1 {
                wins += 1;
                1u8
            } else {
                losses += 1;
                2
            };
            let (byte, shift) = layout.value_at(i as u64);
            data[byte as usize] |= bits << shift;
            let half = plies / 2;
            if width == 1 {
                data[at] = half as u8;
            } else {
                data[at..at + 2].copy_from_slice(&half.to_le_bytes());
            }
        }
        let bytes = data.len() as u64;
        let stats = TableStats { material, positions, wins, draws, losses, max_plies, bytes };
        data[..8].copy_from_slice(&MAGIC);
        data[8..10].copy_from_slice(&VERSION.to_le_bytes());
        data[10] = GAME_ALQUERQUE;
        data[11] = material.mover;
        data[12] = material.other;
        data[13] = width as u8;
        data[16..24].copy_from_slice(&positions.to_le_bytes());
        data[24..32].copy_from_slice(&wins.to_le_bytes());
        data[32..40].copy_from_slice(&draws.to_le_bytes());
        data[40..48].copy_from_slice(&losses.to_le_bytes());
        data[48..50].copy_from_slice(&max_plies.to_le_bytes());
        let sum = checksum(&data);
        data[CHECKSUM_AT..HEADER].copy_from_slice(&sum.to_le_bytes());
        Table { stats, layout, store: Store::Memory(data), name: material.file_name() }
    }

    /// Reads a table from a file's bytes, checking everything (see the module's
    /// documentation).
    pub fn from_bytes(bytes: &[u8]) -> Result<Table, TbError> {
        Table::from_vec(bytes.to_vec(), "table")
    }

    /// Like [`Table::from_bytes`], taking the bytes; `name` labels the errors.
    pub fn from_vec(data: Vec<u8>, name: &str) -> Result<Table, TbError> {
        let bad = |what: String| TbError::Corrupt(format!("{name}: {what}"));
        let header = data.get(..HEADER).ok_or_else(|| {
            bad(format!("truncated: {} bytes, shorter than the {HEADER}-byte header", data.len()))
        })?;
        let (stats, layout) = parse_header(header, data.len() as u64).map_err(bad)?;
        if checksum(&data) != u64_le(&data[CHECKSUM_AT..HEADER]) {
            return Err(bad("checksum mismatch: the file is corrupt".into()));
        }
        let table = Table { stats, layout, store: Store::Memory(data), name: name.to_string() };
        table.validate().map_err(bad)?;
        Ok(table)
    }

    /// Checks the data against the header's counts and longest distance, and itself, a block
    /// of positions at a time.
    fn validate(&self) -> Result<(), String> {
        let l = self.layout;
        let width = l.width as usize;
        let positions = self.stats.positions;
        let mut counts = [0u64; 4];
        let mut longest = 0u16;
        let (mut wdl, mut dtw) = (Vec::new(), Vec::new());
        let mut first = 0;
        while first < positions {
            let n = BLOCK.min(positions - first);
            let wdl_len = if l.version == 1 { n.div_ceil(4) } else { n.div_ceil(LINE_POSITIONS) * LINE };
            wdl.resize(wdl_len as usize, 0);
            let wdl_at = if l.version == 1 {
                HEADER as u64 + first / 4
            } else {
                HEADER as u64 + first / LINE_POSITIONS * LINE
            };
            self.store.read(wdl_at, &mut wdl)?;
            let codes = |k: usize| {
                let (at, shift) = l.value_at(first + k as u64);
                (wdl[(at - wdl_at) as usize] >> shift) & 3
            };
            let halves: Vec<u16> = if l.version == 1 {
                dtw.resize(n as usize * width, 0);
                self.store.read(l.dtw_at + first * l.width, &mut dtw)?;
                (0..n as usize).map(|k| half_at(&dtw, k, width)).collect()
            } else {
                // Each line's count, against the running count.
                let before = counts[1] + counts[2];
                let mut running = before;
                for k in 0..n as usize {
                    if (k as u64).is_multiple_of(LINE_POSITIONS) {
                        let line = k / LINE_POSITIONS as usize * LINE as usize;
                        if u64_le(&wdl[line..]) != running {
                            return Err(format!(
                                "the count of line {} is wrong",
                                (first + k as u64) / LINE_POSITIONS
                            ));
                        }
                    }
                    if codes(k) != 0 {
                        running += 1;
                    }
                }
                // Bits after the last position are zero.
                let room = n.div_ceil(LINE_POSITIONS) * LINE_POSITIONS;
                if first + n == positions
                    && let Some(k) = (n as usize..room as usize).find(|&k| codes(k) != 0)
                {
                    return Err(format!("a value after the last position, at {}", first + k as u64));
                }
                dtw.resize((running - before) as usize * width, 0);
                self.store.read(l.dtw_at + before * l.width, &mut dtw)?;
                let mut next = 0;
                (0..n as usize)
                    .map(|k| {
                        if codes(k) == 0 {
                            return 0;
                        }
                        next += 1;
                        half_at(&dtw, next - 1, width)
                    })
                    .collect()
            };
            for (k, &half) in halves.iter().enumerate() {
                let i = first + k as u64;
                let code = codes(k);
                counts[usize::from(code)] += 1;
                let plies = match code {
                    1 => 2 * half + 1,
                    2 => 2 * half,
                    0 if half == 0 => 0,
                    0 => return Err(format!("a draw at index {i} has a distance")),
                    _ => return Err(format!("invalid value at index {i}")),
                };
                longest = longest.max(plies);
            }
            first += n;
        }
        let s = &self.stats;
        if counts[..3] != [s.draws, s.wins, s.losses] {
            return Err(format!(
                "counts {} wins, {} draws, {} losses do not match the header's {}, {}, {}",
                counts[1], counts[0], counts[2], s.wins, s.draws, s.losses
            ));
        }
        if longest != s.max_plies {
            return Err(format!("longest distance {longest}, the header says {}", s.max_plies));
        }
        Ok(())
    }

    /// Reads and checks a table file, keeping it in memory.
    pub fn read(path: &Path) -> Result<Table, TbError> {
        let data =
            std::fs::read(path).map_err(|e| TbError::Io(format!("cannot read {}: {e}", path.display())))?;
        Table::from_vec(data, &path.display().to_string())
    }

    /// Opens and checks a table file: a file of at most `stream_above` bytes is read into
    /// memory ([`Table::read`]), a larger one stays on disk and is read at each probe (see the
    /// module's documentation). Where there are no files to read at an offset, the table is
    /// read into memory.
    pub fn open(path: &Path, stream_above: u64) -> Result<Table, TbError> {
        let name = path.display().to_string();
        let io = |e: std::io::Error| TbError::Io(format!("cannot read {name}: {e}"));
        #[cfg(any(unix, windows))]
        {
            let bad = |what: String| TbError::Corrupt(format!("{name}: {what}"));
            let file = File::open(path).map_err(io)?;
            let len = file.metadata().map_err(io)?.len();
            if len <= stream_above {
                return Table::read(path);
            }
            if len < HEADER as u64 {
                return Err(bad(format!("truncated: {len} bytes, shorter than the {HEADER}-byte header")));
            }
            let mut header = [0u8; HEADER];
            read_exact_at(&file, &mut header, 0).map_err(io)?;
            let (stats, layout) = parse_header(&header, len).map_err(bad)?;
            let store = Store::File(file);
            let mut sum = Checksum::new();
            sum.feed(&header[..CHECKSUM_AT]);
            let mut buf = vec![0u8; BLOCK as usize];
            let mut at = HEADER as u64;
            while at < len {
                let n = (len - at).min(buf.len() as u64) as usize;
                store.read(at, &mut buf[..n]).map_err(bad)?;
                sum.feed(&buf[..n]);
                at += n as u64;
            }
            if sum.0 != u64_le(&header[CHECKSUM_AT..]) {
                return Err(bad("checksum mismatch: the file is corrupt".into()));
            }
            let table = Table { stats, layout, store, name: name.clone() };
            table.validate().map_err(bad)?;
            Ok(table)
        }
        #[cfg(not(any(unix, windows)))]
        {
            let _ = (stream_above, io);
            Table::read(path)
        }
    }

    /// Whether the table is read from its file at each probe.
    pub fn is_streamed(&self) -> bool {
        !matches!(self.store, Store::Memory(_))
    }

    /// Writes a table held in memory to a file: first beside it, under the name with
    /// `.partial` added, then renamed, so that a stop in the middle leaves no half table under
    /// the table's name.
    pub fn write(&self, path: &Path) -> Result<(), TbError> {
        let bytes = self.as_bytes().ok_or_else(|| {
            TbError::Invalid(format!("{} is read from its file: it is not written again", self.name))
        })?;
        let mut partial = path.as_os_str().to_owned();
        partial.push(".partial");
        let partial = std::path::PathBuf::from(partial);
        std::fs::write(&partial, bytes).and_then(|()| std::fs::rename(&partial, path)).map_err(|e| {
            let _ = std::fs::remove_file(&partial);
            TbError::Io(format!("cannot write {}: {e}", path.display()))
        })
    }

    /// The file's bytes, for a table held in memory.
    pub fn as_bytes(&self) -> Option<&[u8]> {
        match &self.store {
            Store::Memory(data) => Some(data),
            #[cfg(any(unix, windows))]
            Store::File(_) => None,
        }
    }

    /// The material signature.
    pub fn material(&self) -> Material {
        self.stats.material
    }

    /// Counts and sizes.
    pub fn stats(&self) -> TableStats {
        self.stats
    }

    /// The format version of the table's file.
    pub fn version(&self) -> u16 {
        self.layout.version
    }

    /// `len` bytes at `at`: borrowed from memory, or read from the file into `buf`.
    #[inline]
    #[cfg_attr(not(any(unix, windows)), allow(unused_variables))]
    fn bytes<'a>(&'a self, at: u64, len: usize, buf: &'a mut [u8; 128]) -> Result<&'a [u8], String> {
        match &self.store {
            Store::Memory(data) => {
                // Offsets within a file held in memory fit in memory.
                let at = at as usize;
                data.get(at..at + len).ok_or_else(|| format!("no bytes at {at}"))
            }
            #[cfg(any(unix, windows))]
            Store::File(_) => {
                self.store.read(at, &mut buf[..len])?;
                Ok(&buf[..len])
            }
        }
    }

    /// The 2-bit value code and the distance entry of position `idx` (within the table).
    #[inline]
    fn entry(&self, idx: u64) -> Result<(u8, u16), String> {
        let l = &self.layout;
        let mut buf = [0u8; 128];
        let (code, slot) = if l.version == 1 {
            let (at, shift) = l.value_at(idx);
            ((self.bytes(at, 1, &mut buf)?[0] >> shift) & 3, idx)
        } else {
            // idx's line up to idx's byte, in one read: the count, then the values.
            let (at, shift) = l.value_at(idx);
            let line = HEADER as u64 + idx / LINE_POSITIONS * LINE;
            let bytes = self.bytes(line, (at - line + 1) as usize, &mut buf)?;
            let (own, before) = bytes.split_last().expect("at least the count");
            let code = (own >> shift) & 3;
            if code == 0 {
                return Ok((0, 0));
            }
            let mask = [own & ((1u8 << shift) - 1)];
            (code, u64_le(before) + decided(&before[8..]) + decided(&mask))
        };
        if code != 1 && code != 2 {
            return Ok((code, 0));
        }
        let mut half = [0u8; 128];
        let h = self.bytes(l.dtw_at + slot * l.width, l.width as usize, &mut half)?;
        Ok((code, half_at(h, 0, l.width as usize)))
    }

    /// The value of the position with index `idx` for its side to move: `Ok(None)` if `idx`
    /// is out of range, an error if the table's file can no longer be read.
    pub fn try_get(&self, idx: u64) -> Result<Option<Probe>, TbError> {
        if idx >= self.stats.positions {
            return Ok(None);
        }
        let (code, half) = self.entry(idx).map_err(|e| TbError::Io(format!("{}: {e}", self.name)))?;
        match code {
            0 => Ok(Some(Probe { wdl: Wdl::Draw, plies_to_end: 0 })),
            1 => Ok(Some(Probe { wdl: Wdl::Win, plies_to_end: 2 * half + 1 })),
            2 => Ok(Some(Probe { wdl: Wdl::Loss, plies_to_end: 2 * half })),
            _ => Err(TbError::Corrupt(format!("{}: invalid value at index {idx}", self.name))),
        }
    }

    /// The value of the position with index `idx` for its side to move (`None` if `idx` is out
    /// of range or the table's file can no longer be read).
    #[inline]
    pub fn get(&self, idx: u64) -> Option<Probe> {
        self.try_get(idx).ok().flatten()
    }

    /// Only the win/draw/loss of the position with index `idx`.
    #[inline]
    pub fn wdl(&self, idx: u64) -> Option<Wdl> {
        self.get(idx).map(|p| p.wdl)
    }
}

/// The counts and layout a header gives, checked against the file's length.
fn parse_header(header: &[u8], len: u64) -> Result<(TableStats, Layout), String> {
    let u16_at = |i: usize| u16::from_le_bytes([header[i], header[i + 1]]);
    let u64_at = |i: usize| u64_le(&header[i..]);
    if header[..8] != MAGIC {
        return Err("not a Ludus tablebase file (wrong magic)".into());
    }
    let version = u16_at(8);
    if version != 1 && version != VERSION {
        return Err(format!("format version {version}, this program reads versions 1 and {VERSION}"));
    }
    if header[10] != GAME_ALQUERQUE {
        return Err(format!("game {} is not Alquerque ({GAME_ALQUERQUE})", header[10]));
    }
    let material = Material::new(u32::from(header[11]), u32::from(header[12]))
        .ok_or_else(|| format!("material {}v{} is not valid", header[11], header[12]))?;
    let width = u64::from(header[13]);
    if width != 1 && width != 2 {
        return Err(format!("{width} bytes per distance entry (1 or 2 expected)"));
    }
    let positions = u64_at(16);
    if positions != material.positions() {
        return Err(format!(
            "{positions} positions in the header, {} for material {material}",
            material.positions()
        ));
    }
    let (wins, draws, losses, max_plies) = (u64_at(24), u64_at(32), u64_at(40), u16_at(48));
    // Counts that cannot be (checked against the data later) must not overflow the length.
    if wins.checked_add(draws).and_then(|n| n.checked_add(losses)) != Some(positions) {
        return Err(format!("{wins} wins, {draws} draws and {losses} losses are not {positions} positions"));
    }
    let layout = Layout::new(version, width, positions, wins + losses);
    if len != layout.len {
        let what = if len < layout.len { "truncated" } else { "too long" };
        return Err(format!("{what}: {len} bytes, {} expected", layout.len));
    }
    Ok((TableStats { material, positions, wins, draws, losses, max_plies, bytes: len }, layout))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 1-against-1 table (600 positions, three lines) with made-up values: a win in 3 at
    /// every fifth position, a loss in 2 at every seventh, draws elsewhere.
    fn table() -> (Table, Vec<u8>) {
        let material = Material::new(1, 1).unwrap();
        let codes: Vec<u16> = (0..material.positions())
            .map(|i| {
                if i % 5 == 0 {
                    4
                } else if i % 7 == 0 {
                    3
                } else {
                    0
                }
            })
            .collect();
        let table = Table::from_codes(material, &codes);
        let bytes = table.as_bytes().unwrap().to_vec();
        (table, bytes)
    }

    /// `bytes` with its checksum made right again: only the other checks can refuse it.
    fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
        let sum = checksum(&bytes);
        bytes[CHECKSUM_AT..HEADER].copy_from_slice(&sum.to_le_bytes());
        bytes
    }

    fn error(bytes: Vec<u8>) -> String {
        match Table::from_vec(resealed(bytes), "t") {
            Err(TbError::Corrupt(e)) => e,
            other => panic!("expected a corrupt table, got {other:?}"),
        }
    }

    #[test]
    fn every_value_reads_back() {
        let (table, bytes) = table();
        assert_eq!(bytes.len() as u64, 64 + 3 * LINE + table.stats().wins + table.stats().losses);
        for i in 0..600 {
            let expected = if i % 5 == 0 {
                Probe { wdl: Wdl::Win, plies_to_end: 3 }
            } else if i % 7 == 0 {
                Probe { wdl: Wdl::Loss, plies_to_end: 2 }
            } else {
                Probe { wdl: Wdl::Draw, plies_to_end: 0 }
            };
            assert_eq!(table.get(i), Some(expected), "{i}");
        }
        assert_eq!(table.get(600), None);
    }

    #[test]
    fn checks_that_the_checksum_does_not_cover() {
        let (_, good) = table();
        // A line's count.
        let mut bad = good.clone();
        bad[HEADER + LINE as usize] ^= 1;
        assert!(error(bad).contains("count of line 1"));
        // A value after the last position (600 = 2 * 224 + 152: the third line has room).
        let mut bad = good.clone();
        bad[HEADER + 2 * LINE as usize + 8 + 160 / 4] |= 1;
        let e = error(bad);
        assert!(e.contains("after the last position"), "{e}");
        // A draw turned into a win: the counts and the distances no longer agree.
        let mut bad = good.clone();
        bad[HEADER + 8] |= 1 << 2;
        assert!(!error(bad).is_empty());
        // The header's counts that do not add up.
        let mut bad = good.clone();
        bad[24] ^= 1;
        assert!(error(bad).contains("are not 600 positions"));
        // The untouched bytes pass.
        assert!(Table::from_vec(resealed(good), "t").is_ok());
    }
}

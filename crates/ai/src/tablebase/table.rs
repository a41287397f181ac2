//! Storage: one table per material signature, its file format, loading and probing.
//!
//! # File format (version 1), all numbers little-endian
//!
//! | bytes | what |
//! | --- | --- |
//! | 0..8 | magic `LUDUSTB` and byte 0x1A |
//! | 8..10 | format version, 1 |
//! | 10 | game: 1 = Alquerque |
//! | 11, 12 | material: pieces of the side to move, of the other side |
//! | 13 | bytes per distance entry, 1 or 2 |
//! | 14..16 | zero |
//! | 16..24 | number of positions, `C(25, m) * C(25 - m, o)` |
//! | 24..48 | wins, draws, losses (three `u64`, checked against the data when loading) |
//! | 48..50 | the longest distance to the end in the table, in plies |
//! | 50..56 | zero |
//! | 56..64 | checksum: a 64-bit FNV-1a-style hash over 8-byte words of bytes 0..56 and 64.. |
//! | 64.. | WDL: 2 bits a position, four to a byte, lowest bits first: 0 draw, 1 win, 2 loss |
//! | then | distance: one entry (1 or 2 bytes) a position: `k` for a loss in `2k` plies or a win in `2k + 1`, 0 for a draw |
//!
//! The WDL part alone is 2 bits a position; the distance part 8 bits (16 if a table ever has a
//! distance of 511 plies or more). Every check fails with a [`TbError`]: a wrong magic,
//! version, game or material, a length that does not match (a truncated file), a checksum that
//! does not match, or data that contradicts the header's counts.

use super::TbError;
use super::index::Material;
use super::{Probe, Wdl};
use std::path::Path;

/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = *b"LUDUSTB\x1a";
/// The format version this code reads and writes.
pub const VERSION: u16 = 1;
/// The game byte for Alquerque.
pub const GAME_ALQUERQUE: u8 = 1;
/// Bytes of the header.
pub const HEADER: usize = 64;

const CHECKSUM_AT: usize = 56;

/// The checksum of a file's bytes (its own field left out).
fn checksum(bytes: &[u8]) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01B3;
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    let mut word = |chunk: &[u8]| {
        let mut w = [0u8; 8];
        w[..chunk.len()].copy_from_slice(chunk);
        h = (h ^ u64::from_le_bytes(w)).wrapping_mul(PRIME);
        h ^= h >> 32;
    };
    for part in [&bytes[..CHECKSUM_AT.min(bytes.len())], bytes.get(HEADER..).unwrap_or(&[])] {
        for chunk in part.chunks(8) {
            word(chunk);
        }
    }
    h
}

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

/// One material signature's table, in memory exactly as in its file.
#[derive(Clone)]
pub struct Table {
    stats: TableStats,
    width: usize,
    dtw_at: usize,
    data: Vec<u8>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table").field("stats", &self.stats).finish()
    }
}

fn wdl_bytes(positions: u64) -> usize {
    positions.div_ceil(4) as usize
}

impl Table {
    /// A table from generation's values: 0 for a draw, otherwise the distance in plies plus
    /// one (odd distances are wins for the side to move, even ones losses).
    pub(crate) fn from_codes(material: Material, codes: &[u16]) -> Table {
        let positions = codes.len() as u64;
        debug_assert_eq!(positions, material.positions());
        let max_plies = codes.iter().map(|&c| c.saturating_sub(1)).max().unwrap_or(0);
        let width = if max_plies / 2 > 255 { 2 } else { 1 };
        let wdl_len = wdl_bytes(positions);
        let dtw_at = HEADER + wdl_len;
        let mut data = vec![0u8; dtw_at + codes.len() * width];
        let (mut wins, mut draws, mut losses) = (0, 0, 0);
        for (i, &c) in codes.iter().enumerate() {
            let (bits, half) = if c == 0 {
                draws += 1;
                (0u8, 0u16)
            } else {
                let plies = c - 1;
                if plies % 2 == 1 {
                    wins += 1;
                    (1, plies / 2)
                } else {
                    losses += 1;
                    (2, plies / 2)
                }
            };
            data[HEADER + i / 4] |= bits << ((i % 4) * 2);
            let at = dtw_at + i * width;
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
        Table { stats, width, dtw_at, data }
    }

    /// Reads a table from a file's bytes, checking everything (see the module's
    /// documentation).
    pub fn from_bytes(bytes: &[u8]) -> Result<Table, TbError> {
        Table::from_vec(bytes.to_vec(), "table")
    }

    /// Like [`Table::from_bytes`], taking the bytes; `name` labels the errors.
    pub fn from_vec(data: Vec<u8>, name: &str) -> Result<Table, TbError> {
        let bad = |what: String| TbError::Corrupt(format!("{name}: {what}"));
        if data.len() < HEADER {
            return Err(bad(format!(
                "truncated: {} bytes, shorter than the {HEADER}-byte header",
                data.len()
            )));
        }
        if data[..8] != MAGIC {
            return Err(bad("not a Ludus tablebase file (wrong magic)".into()));
        }
        let u16_at = |i: usize| u16::from_le_bytes([data[i], data[i + 1]]);
        let u64_at = |i: usize| u64::from_le_bytes(data[i..i + 8].try_into().expect("8 bytes"));
        let version = u16_at(8);
        if version != VERSION {
            return Err(bad(format!("format version {version}, this program reads version {VERSION}")));
        }
        if data[10] != GAME_ALQUERQUE {
            return Err(bad(format!("game {} is not Alquerque ({GAME_ALQUERQUE})", data[10])));
        }
        let material = Material::new(u32::from(data[11]), u32::from(data[12]))
            .ok_or_else(|| bad(format!("material {}v{} is not valid", data[11], data[12])))?;
        let width = usize::from(data[13]);
        if width != 1 && width != 2 {
            return Err(bad(format!("{width} bytes per distance entry (1 or 2 expected)")));
        }
        let positions = u64_at(16);
        if positions != material.positions() {
            return Err(bad(format!(
                "{positions} positions in the header, {} for material {material}",
                material.positions()
            )));
        }
        let dtw_at = HEADER + wdl_bytes(positions);
        let expected = dtw_at as u64 + positions * width as u64;
        if data.len() as u64 != expected {
            let what = if (data.len() as u64) < expected { "truncated" } else { "too long" };
            return Err(bad(format!("{what}: {} bytes, {expected} expected", data.len())));
        }
        let sum = u64_at(CHECKSUM_AT);
        if checksum(&data) != sum {
            return Err(bad("checksum mismatch: the file is corrupt".into()));
        }
        let (wins, draws, losses, max_plies) = (u64_at(24), u64_at(32), u64_at(40), u16_at(48));
        let stats =
            TableStats { material, positions, wins, draws, losses, max_plies, bytes: data.len() as u64 };
        let table = Table { stats, width, dtw_at, data };
        table.validate().map_err(bad)?;
        Ok(table)
    }

    /// Checks the data against the header's counts and longest distance.
    fn validate(&self) -> Result<(), String> {
        let mut counts = [0u64; 4];
        let mut longest = 0u16;
        for i in 0..self.stats.positions {
            let code = self.wdl_code(i);
            counts[usize::from(code)] += 1;
            let half = self.half(i);
            let plies = match code {
                1 => 2 * half + 1,
                2 => 2 * half,
                0 if half == 0 => 0,
                0 => return Err(format!("a draw at index {i} has a distance")),
                _ => return Err(format!("invalid value at index {i}")),
            };
            longest = longest.max(plies);
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

    /// Reads and checks a table file.
    pub fn read(path: &Path) -> Result<Table, TbError> {
        let data =
            std::fs::read(path).map_err(|e| TbError::Io(format!("cannot read {}: {e}", path.display())))?;
        Table::from_vec(data, &path.display().to_string())
    }

    /// Writes the table to a file.
    pub fn write(&self, path: &Path) -> Result<(), TbError> {
        std::fs::write(path, &self.data)
            .map_err(|e| TbError::Io(format!("cannot write {}: {e}", path.display())))
    }

    /// The file's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.data
    }

    /// The material signature.
    pub fn material(&self) -> Material {
        self.stats.material
    }

    /// Counts and sizes.
    pub fn stats(&self) -> TableStats {
        self.stats
    }

    #[inline]
    fn wdl_code(&self, idx: u64) -> u8 {
        let i = idx as usize;
        (self.data[HEADER + i / 4] >> ((i % 4) * 2)) & 3
    }

    #[inline]
    fn half(&self, idx: u64) -> u16 {
        let at = self.dtw_at + idx as usize * self.width;
        if self.width == 1 {
            u16::from(self.data[at])
        } else {
            u16::from_le_bytes([self.data[at], self.data[at + 1]])
        }
    }

    /// The value of the position with index `idx` for its side to move (`None` if `idx` is out
    /// of range).
    #[inline]
    pub fn get(&self, idx: u64) -> Option<Probe> {
        if idx >= self.stats.positions {
            return None;
        }
        match self.wdl_code(idx) {
            0 => Some(Probe { wdl: Wdl::Draw, plies_to_end: 0 }),
            1 => Some(Probe { wdl: Wdl::Win, plies_to_end: 2 * self.half(idx) + 1 }),
            2 => Some(Probe { wdl: Wdl::Loss, plies_to_end: 2 * self.half(idx) }),
            _ => None,
        }
    }

    /// Only the win/draw/loss of the position with index `idx`.
    #[inline]
    pub fn wdl(&self, idx: u64) -> Option<Wdl> {
        if idx >= self.stats.positions {
            return None;
        }
        match self.wdl_code(idx) {
            0 => Some(Wdl::Draw),
            1 => Some(Wdl::Win),
            2 => Some(Wdl::Loss),
            _ => None,
        }
    }
}

//! The transposition table: a fixed-size hash table of search results keyed by the Zobrist hash
//! of the rules crate (see [`crate::search`] for how the no-capture counter and repetitions are
//! kept out of it).
//!
//! Buckets of two entries, 32 bytes: the first keeps the deeper result (unless it is from an
//! older search), the second always takes the newest. Each entry is the full 64-bit key and a
//! packed word: move tag (32 bits), score (16), depth (8), bound (2), age (6).

/// The default size on native targets.
#[cfg(not(target_arch = "wasm32"))]
pub const DEFAULT_TT_MB: usize = 64;
/// The default size on the web.
#[cfg(target_arch = "wasm32")]
pub const DEFAULT_TT_MB: usize = 16;

/// What an entry's score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (every move failed low).
    Upper = 1,
    /// The true value is at least the score (a move failed high).
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

/// One probed entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The best (or refuting) move's tag, 0 if none.
    pub tag: u32,
    /// The score, relative to the node (see [`crate::score::to_tt`]).
    pub score: i32,
    /// The depth searched (0 for quiescence).
    pub depth: i32,
    /// How the score bounds the value.
    pub bound: Bound,
}

const WORDS_PER_BUCKET: usize = 4;
const BUCKET_BYTES: usize = 32;

/// The table.
#[derive(Clone, Debug)]
pub struct TranspositionTable {
    words: Vec<u64>,
    buckets: u64,
    age: u8,
}

#[inline]
fn pack(tag: u32, score: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    u64::from(tag)
        | (u64::from(score as i16 as u16) << 32)
        | (u64::from(depth.clamp(0, 255) as u8) << 48)
        | ((bound as u64) << 56)
        | (u64::from(age & 63) << 58)
}

#[inline]
fn unpack(data: u64) -> Option<TtEntry> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    Some(TtEntry {
        tag: data as u32,
        score: i32::from((data >> 32) as u16 as i16),
        depth: i32::from((data >> 48) as u8),
        bound,
    })
}

#[inline]
fn age_of(data: u64) -> u8 {
    ((data >> 58) & 63) as u8
}

impl Default for TranspositionTable {
    fn default() -> Self {
        TranspositionTable::new(DEFAULT_TT_MB)
    }
}

impl TranspositionTable {
    /// A table of about `mb` mebibytes (at least one bucket). The memory is zeroed by the
    /// allocator, so pages are only touched as the search uses them.
    pub fn new(mb: usize) -> TranspositionTable {
        let buckets = (mb.saturating_mul(1 << 20) / BUCKET_BYTES).max(1);
        TranspositionTable { words: vec![0u64; buckets * WORDS_PER_BUCKET], buckets: buckets as u64, age: 0 }
    }

    /// The size in bytes.
    pub fn size_bytes(&self) -> usize {
        self.words.len() * 8
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.words.fill(0);
        self.age = 0;
    }

    /// Marks the start of a new search: older entries become the first to be replaced.
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & 63;
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (((u128::from(key) * u128::from(self.buckets)) >> 64) as usize) * WORDS_PER_BUCKET
    }

    /// The entry for `key`, if the table has one.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let b = self.bucket(key);
        for slot in 0..2 {
            let i = b + slot * 2;
            if self.words[i] == key
                && let Some(e) = unpack(self.words[i + 1])
            {
                return Some(e);
            }
        }
        None
    }

    /// Stores a result. A result without a move keeps the move already stored for that key.
    #[inline]
    pub fn store(&mut self, key: u64, tag: u32, score: i32, depth: i32, bound: Bound) {
        let b = self.bucket(key);
        let age = self.age;
        // The same position: update in place.
        for slot in 0..2 {
            let i = b + slot * 2;
            if self.words[i] == key && unpack(self.words[i + 1]).is_some() {
                let old = self.words[i + 1];
                let tag = if tag == 0 { old as u32 } else { tag };
                // Keep a deeper exact-ish result of this search over a shallow bound.
                if let Some(e) = unpack(old)
                    && age_of(old) == age
                    && e.depth > depth + 2
                    && bound != Bound::Exact
                {
                    self.words[i + 1] = pack(tag, e.score, e.depth, e.bound, age);
                    return;
                }
                self.words[i + 1] = pack(tag, score, depth, bound, age);
                return;
            }
        }
        let first = self.words[b + 1];
        let replace_first = match unpack(first) {
            None => true,
            Some(e) => age_of(first) != age || depth >= e.depth,
        };
        let i = if replace_first { b } else { b + 2 };
        self.words[i] = key;
        self.words[i + 1] = pack(tag, score, depth, bound, age);
    }

    /// Permille of the first 1000 buckets' slots used by the current search.
    pub fn hashfull(&self) -> u32 {
        let n = (self.buckets as usize).min(500);
        let mut used = 0;
        for b in 0..n {
            for slot in 0..2 {
                let d = self.words[b * WORDS_PER_BUCKET + slot * 2 + 1];
                if unpack(d).is_some() && age_of(d) == self.age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (2 * n.max(1))) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let mut tt = TranspositionTable::new(1);
        assert_eq!(tt.probe(42), None);
        tt.store(42, 7, -1234, 5, Bound::Lower);
        assert_eq!(tt.probe(42), Some(TtEntry { tag: 7, score: -1234, depth: 5, bound: Bound::Lower }));
        tt.store(42, 0, 99, 6, Bound::Exact);
        let e = tt.probe(42).unwrap();
        assert_eq!((e.tag, e.score, e.depth, e.bound), (7, 99, 6, Bound::Exact));
    }
}

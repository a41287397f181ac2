//! The leaderboard, kept sorted: every claimed player with a rated game in a variant, in the
//! leaderboard's order (rating, then games played, then player number). A rating that changes
//! moves one entry (a binary search and a shift of the list); a request reads the top and finds
//! the asker's place by binary search, so it costs the loop next to nothing however many
//! players are rated (sorting them all at each request froze the loop for tens of milliseconds
//! at fifty thousand).

use super::records::StoredRating;
use ludus_protocol::PlayerId;
use ludus_rules::Variant;
use std::cmp::Ordering;
use std::collections::HashMap;

/// One player's place on a variant's leaderboard.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Entry {
    pub(super) player: PlayerId,
    pub(super) rating: StoredRating,
}

/// The leaderboard's order: higher rating first, then more games, then the lower player number.
fn order(a: &Entry, b: &Entry) -> Ordering {
    b.rating
        .rating
        .total_cmp(&a.rating.rating)
        .then(b.rating.games.cmp(&a.rating.games))
        .then(a.player.cmp(&b.player))
}

/// One variant's leaderboard.
#[derive(Default)]
struct Ranks {
    /// Sorted by [`order`].
    sorted: Vec<Entry>,
    /// Each listed player's entry (to find it in `sorted`).
    entries: HashMap<PlayerId, Entry>,
}

/// Every variant's leaderboard (real-time ratings).
#[derive(Default)]
pub(super) struct Board {
    variants: HashMap<Variant, Ranks>,
}

impl Board {
    /// `player`'s rating in `variant` is now `rating` (`None` or no rated game: not listed).
    pub(super) fn set(&mut self, player: PlayerId, variant: Variant, rating: Option<StoredRating>) {
        let ranks = self.variants.entry(variant).or_default();
        if let Some(old) = ranks.entries.remove(&player)
            && let Ok(i) = ranks.sorted.binary_search_by(|e| order(e, &old))
        {
            ranks.sorted.remove(i);
        }
        if let Some(rating) = rating.filter(|r| r.games > 0) {
            let entry = Entry { player, rating };
            let i = ranks.sorted.binary_search_by(|e| order(e, &entry)).unwrap_or_else(|i| i);
            ranks.sorted.insert(i, entry);
            ranks.entries.insert(player, entry);
        }
    }

    /// The first `n` of `variant`'s leaderboard.
    pub(super) fn top(&self, variant: Variant, n: usize) -> &[Entry] {
        self.variants.get(&variant).map_or(&[], |r| &r.sorted[..n.min(r.sorted.len())])
    }

    /// `player`'s place (from 1) and entry on `variant`'s leaderboard, if listed.
    pub(super) fn place(&self, variant: Variant, player: PlayerId) -> Option<(u32, Entry)> {
        let ranks = self.variants.get(&variant)?;
        let entry = ranks.entries.get(&player)?;
        let i = ranks.sorted.binary_search_by(|e| order(e, entry)).ok()?;
        Some((i as u32 + 1, *entry))
    }

    /// How many players `variant`'s leaderboard lists.
    #[cfg(test)]
    pub(super) fn len(&self, variant: Variant) -> usize {
        self.variants.get(&variant).map_or(0, |r| r.sorted.len())
    }
}

#[cfg(test)]
mod tests {
    use super::{Board, StoredRating};
    use ludus_protocol::PlayerId;
    use ludus_rules::Variant;

    fn rated(rating: f64, games: u32) -> StoredRating {
        StoredRating { rating, games, ..StoredRating::default() }
    }

    #[test]
    fn entries_move_when_ratings_change_and_ties_go_by_games_then_number() {
        let mut b = Board::default();
        let v = Variant::Alquerque;
        b.set(PlayerId(3), v, Some(rated(1600.0, 2)));
        b.set(PlayerId(1), v, Some(rated(1500.0, 4)));
        b.set(PlayerId(2), v, Some(rated(1500.0, 4)));
        b.set(PlayerId(4), v, Some(rated(1500.0, 9)));
        b.set(PlayerId(5), v, Some(rated(1700.0, 0))); // No rated game: not listed.
        let order = |b: &Board| b.top(v, 10).iter().map(|e| e.player.0).collect::<Vec<_>>();
        assert_eq!(order(&b), [3, 4, 1, 2]);
        b.set(PlayerId(2), v, Some(rated(1650.0, 5)));
        assert_eq!(order(&b), [2, 3, 4, 1]);
        assert_eq!(b.place(v, PlayerId(1)).map(|p| p.0), Some(4));
        b.set(PlayerId(3), v, None);
        assert_eq!(order(&b), [2, 4, 1]);
        assert_eq!(b.place(v, PlayerId(3)), None);
        assert_eq!(b.place(v, PlayerId(5)), None);
        assert_eq!(b.len(v), 3);
        assert!(b.top(Variant::Latrunculi, 10).is_empty());
    }
}

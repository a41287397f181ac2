//! What is checked when a database is opened, before anything is written to it:
//! - a SQLite file of zero bytes is refused (a truncated copy, a backup that failed halfway):
//!   starting on it would make a fresh database in its place and every player would be lost;
//! - a database whose schema is newer than this server's (written by a later release) is
//!   refused, naming both versions, rather than written with an older idea of its tables;
//! - the players whose credential went unused for the lifetime are deleted counting from the
//!   clock, believed up to a day past the newest sign-in stored ([`prune_cutoff`]): a clock set
//!   far ahead at start deletes nobody who had not (nearly) expired anyway (it is logged).

use super::{DbError, MIGRATIONS};
use std::path::Path;

/// The schema version this server writes: the last of [`MIGRATIONS`].
pub(crate) fn latest_version() -> i64 {
    MIGRATIONS.last().map_or(0, |m| m.version)
}

fn refused(message: String) -> DbError {
    DbError::Other(message.into())
}

/// Refuses a database whose schema version (`current`, the highest in `ludus_schema`) is newer
/// than this server's.
pub(crate) fn schema_version(current: i64) -> Result<(), DbError> {
    let ours = latest_version();
    if current > ours {
        return Err(refused(format!(
            "its schema is version {current}, newer than this server's version {ours}: it was \
             written by a later release of ludus-server; run that release (or a later one), or \
             restore a backup made for this one"
        )));
    }
    Ok(())
}

/// Refuses an existing SQLite file of zero bytes (a missing file is a new database).
pub(crate) fn sqlite_file(path: &Path) -> Result<(), DbError> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() && meta.len() == 0 => Err(refused(format!(
            "the file {} is empty (0 bytes), not a database: restore it from a backup, or delete \
             it to start a new, empty database",
            path.display()
        ))),
        _ => Ok(()),
    }
}

/// How far past the newest sign-in stored the clock is believed at start, for deleting players.
pub(crate) const CLOCK_TRUSTED_PAST_NEWEST_MS: u64 = 86_400_000;

/// The cutoff below which unused players are deleted: `cutoff_ms` (the clock `now_ms` less
/// the credential lifetime), but with the clock read as at most a day
/// ([`CLOCK_TRUSTED_PAST_NEWEST_MS`]) past the newest sign-in stored (`newest_seen_ms`). After
/// a long stop, players then expire a little later than they could (at a later start); a clock
/// set far ahead deletes no one who had not nearly expired anyway. A clock past every stored
/// sign-in by more than the lifetime, which would have deleted every unclaimed player, is
/// logged.
pub(crate) fn prune_cutoff(now_ms: u64, cutoff_ms: u64, newest_seen_ms: Option<i64>) -> u64 {
    let Some(newest) = newest_seen_ms.map(|n| n.max(0) as u64) else {
        return cutoff_ms;
    };
    let lifetime = now_ms.saturating_sub(cutoff_ms);
    let believed = now_ms.min(newest.saturating_add(CLOCK_TRUSTED_PAST_NEWEST_MS));
    if now_ms.saturating_sub(newest) > lifetime.max(CLOCK_TRUSTED_PAST_NEWEST_MS) {
        tracing::warn!(
            clock_ms = now_ms,
            newest_sign_in_ms = newest,
            ahead_days = (now_ms - newest) / 86_400_000,
            "the clock reads later than the newest sign-in stored by more than a credential's \
             lifetime (a long stop, or a clock set ahead): unused players are counted from a day \
             after that sign-in, not from the clock"
        );
    }
    believed.saturating_sub(lifetime)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: u64 = 86_400_000;

    #[test]
    fn expiry_counts_from_the_newest_sign_in_when_the_clock_is_later() {
        let now = 1_000 * DAY;
        let lifetime = 180 * DAY;
        // The clock agrees with the database: the usual cutoff.
        assert_eq!(prune_cutoff(now, now - lifetime, Some((now - 1000) as i64)), now - lifetime);
        assert_eq!(prune_cutoff(now, now - lifetime, Some((now + 5) as i64)), now - lifetime);
        assert_eq!(prune_cutoff(now, now - lifetime, None), now - lifetime);
        assert_eq!(prune_cutoff(now, now, Some((now - 1) as i64)), now, "a lifetime of zero");
        // A clock ten years ahead deletes only the players that had (nearly) expired anyway.
        let ahead = now + 3650 * DAY;
        assert_eq!(prune_cutoff(ahead, ahead - lifetime, Some(now as i64)), now + DAY - lifetime);
    }

    #[test]
    fn newer_schemas_and_empty_files_are_refused() {
        assert!(schema_version(latest_version()).is_ok());
        assert!(schema_version(0).is_ok());
        let message = schema_version(latest_version() + 1).unwrap_err().to_string();
        assert!(message.contains(&format!("version {}", latest_version() + 1)), "{message}");
        assert!(message.contains(&format!("version {}", latest_version())), "{message}");
        let dir = std::env::temp_dir().join(format!("ludus-checks-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("empty.sqlite3");
        std::fs::write(&file, b"").unwrap();
        assert!(sqlite_file(&file).unwrap_err().to_string().contains("empty.sqlite3"));
        assert!(sqlite_file(&dir.join("missing.sqlite3")).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

//! The password work, off the loop: Argon2id hashing and checking (the `argon2` crate's default
//! parameters: 19 MiB, 2 passes, 1 lane; a random salt from the operating system; the PHC string
//! is stored). That costs tens of milliseconds of one core, so the core never does it: it asks
//! for a [`PasswordJob`] ([`super::door::Effect::HashPassword`]), the server's password thread
//! runs it ([`run_job`]) and hands back a [`PasswordAnswer`]
//! ([`super::door::Input::Password`]), like the player lookups of the database reader. Tests run
//! the jobs in line.

use super::ConnId;
use ludus_protocol::{Password, PlayerId};

/// Work for the password thread.
#[derive(Debug)]
pub enum PasswordJob {
    /// Hash `password` for `player`'s claim of `nickname`.
    Hash { conn: ConnId, player: PlayerId, nickname: String, password: Password },
    /// Check `password` against `password_hash` (none: an unknown nickname, checked against a
    /// dummy hash so that it takes as long) for signing `conn` in as `target`.
    Verify { conn: ConnId, target: Option<PlayerId>, password_hash: Option<String>, password: Password },
}

/// What the password thread found.
#[derive(Debug)]
pub enum PasswordAnswer {
    /// The PHC string of the claim's password (`None`: hashing failed).
    Hashed { conn: ConnId, player: PlayerId, nickname: String, password_hash: Option<String> },
    /// Whether the password was right.
    Verified { conn: ConnId, target: Option<PlayerId>, ok: bool },
}

/// Hashes a password with Argon2id (default parameters, a random salt from the operating
/// system): a PHC string.
pub fn hash_password(password: &str) -> Result<String, argon2::password_hash::Error> {
    use argon2::PasswordHasher;
    use argon2::password_hash::SaltString;
    use argon2::password_hash::rand_core::OsRng;
    let salt = SaltString::generate(&mut OsRng);
    Ok(argon2::Argon2::default().hash_password(password.as_bytes(), &salt)?.to_string())
}

/// Whether `password` matches the PHC string `password_hash` (a malformed hash matches nothing).
pub fn verify_password(password_hash: &str, password: &str) -> bool {
    use argon2::PasswordVerifier;
    argon2::password_hash::PasswordHash::new(password_hash)
        .is_ok_and(|h| argon2::Argon2::default().verify_password(password.as_bytes(), &h).is_ok())
}

/// A hash no password matches, for unknown nicknames (made once).
fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| hash_password("not a password of anyone's").unwrap_or_default())
}

/// Runs a job (on the password thread, or in line in tests).
pub fn run_job(job: PasswordJob) -> PasswordAnswer {
    match job {
        PasswordJob::Hash { conn, player, nickname, password } => {
            let password_hash =
                hash_password(&password.0).map_err(|e| tracing::error!("password hashing failed: {e}")).ok();
            PasswordAnswer::Hashed { conn, player, nickname, password_hash }
        }
        PasswordJob::Verify { conn, target, password_hash, password } => {
            let ok = match &password_hash {
                Some(h) => verify_password(h, &password.0),
                None => {
                    let _ = verify_password(dummy_hash(), &password.0);
                    false
                }
            };
            PasswordAnswer::Verified { conn, target, ok }
        }
    }
}

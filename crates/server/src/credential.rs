//! The session credential as the core, the store and the token endpoint share it: its hash (what
//! is stored and looked up, never the credential) and the [`Grant`] a connect token carries to the
//! server. No I/O: the token endpoint ([`crate::tokens`]) writes grants, the loop reads them, the
//! core and the store hash credentials.

use renetcode2::NETCODE_USER_DATA_BYTES;

/// SHA-256 of a session credential, in hex: what is stored and looked up, never the credential.
pub fn credential_hash(credential: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(credential.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// Longest session credential carried in a token (the server makes 32 characters).
pub const MAX_CREDENTIAL_BYTES: usize = 64;

/// What a connect token tells the server about its connection (the token's user data).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Grant {
    /// The session credential the request came with.
    pub credential: Option<String>,
    /// The request passed the new-player limit: an unknown credential may become a new player.
    pub may_create: bool,
}

const GRANT_FORMAT: u8 = 1;

impl Grant {
    /// The token's user data.
    pub fn encode(&self) -> [u8; NETCODE_USER_DATA_BYTES] {
        let mut data = [0u8; NETCODE_USER_DATA_BYTES];
        data[0] = GRANT_FORMAT;
        data[1] = u8::from(self.may_create);
        if let Some(c) = self.credential.as_deref().filter(|c| c.len() <= MAX_CREDENTIAL_BYTES) {
            data[2] = c.len() as u8 + 1;
            data[3..3 + c.len()].copy_from_slice(c.as_bytes());
        }
        data
    }

    /// Reads a token's user data (`None`: not written by this server).
    pub fn decode(data: &[u8; NETCODE_USER_DATA_BYTES]) -> Option<Grant> {
        if data[0] != GRANT_FORMAT {
            return None;
        }
        let credential = match data[2] {
            0 => None,
            n => {
                let bytes = data.get(3..3 + usize::from(n) - 1)?;
                Some(std::str::from_utf8(bytes).ok()?.to_string())
            }
        };
        Some(Grant { credential, may_create: data[1] == 1 })
    }
}

#[cfg(test)]
mod tests {
    use super::{Grant, NETCODE_USER_DATA_BYTES};

    #[test]
    fn grants_round_trip() {
        for grant in [
            Grant { credential: None, may_create: true },
            Grant { credential: Some("0123456789abcdef0123456789abcdef".into()), may_create: false },
        ] {
            assert_eq!(Grant::decode(&grant.encode()), Some(grant));
        }
        assert_eq!(Grant::decode(&[0; NETCODE_USER_DATA_BYTES]), None);
    }
}

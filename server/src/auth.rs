//! Secrets at a table: seat tokens and invite codes. They are random, shown once, stored only
//! as SHA-256, and compared in constant time.

use rand::Rng as _;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// A seat token: 128 random bits, as 32 hex digits. Long enough that guessing is hopeless,
/// so tokens need no rate limit of their own.
pub fn new_token() -> String {
    random_hex(16)
}

/// An invite code: 64 random bits, as 16 hex digits. Short enough to paste into a chat; failed
/// joins are rate limited, so guessing one is out of reach too.
pub fn new_invite() -> String {
    random_hex(8)
}

/// A table id: 64 random bits, as 16 hex digits. Not a secret: it names the table.
pub fn new_table_id() -> String {
    random_hex(8)
}

fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rng().fill(&mut buf[..]);
    hex::encode(buf)
}

pub fn hash(secret: &str) -> [u8; 32] {
    Sha256::digest(secret.as_bytes()).into()
}

/// Whether `secret` hashes to `stored`, in time independent of where they differ.
pub fn matches(secret: &str, stored: &[u8; 32]) -> bool {
    hash(secret).ct_eq(stored).into()
}

/// A fresh 32-byte seed from the operating system's generator.
pub fn new_seed() -> [u8; 32] {
    let mut seed = [0u8; 32];
    rand::rng().fill(&mut seed);
    seed
}

/// A salt for a part not everyone may see (`tablehold_log::chain::part_bytes`): 128 random
/// bits, so its hash in a seat's export cannot be matched by guessing its content.
pub fn new_salt() -> [u8; 16] {
    let mut salt = [0u8; 16];
    rand::rng().fill(&mut salt);
    salt
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_128_bits_of_hex_and_match_only_themselves() {
        let t = new_token();
        assert_eq!(t.len(), 32);
        assert!(t.chars().all(|c| c.is_ascii_hexdigit()));
        let h = hash(&t);
        assert!(matches(&t, &h));
        assert!(!matches(&new_token(), &h));
        assert_ne!(new_token(), new_token());
    }
}

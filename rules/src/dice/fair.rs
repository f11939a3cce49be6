//! Commitments and the key of an epoch: how the server's secret seed and the seats'
//! contributions combine into the key of the [`CounterStream`](super::CounterStream).
//!
//! Like the stream, this is a public contract (`docs/FAIRNESS.md` spells it out byte by byte
//! for verifiers in other languages); a change means new domain tags, never an edit of these.
//! Every hash is SHA-256; every tag is ASCII without a terminator; `BE64` is an 8-byte
//! big-endian integer; a seat id is written as one length byte and its UTF-8 bytes.

use sha2::{Digest, Sha256};

/// 32 bytes: a seed, a contribution, a commitment or a key.
pub type Bytes32 = [u8; 32];

const SEED_TAG: &[u8] = b"tablehold-seed-v1";
const ENTROPY_TAG: &[u8] = b"tablehold-entropy-v1";
const WITHHELD_TAG: &[u8] = b"tablehold-withheld-v1";
const KEY_TAG: &[u8] = b"tablehold-key-v1";

/// Seat ids longer than this cannot be framed with one length byte; the server never issues
/// them, and a contribution from one is refused.
pub const MAX_SEAT_ID_BYTES: usize = 255;

/// `SHA-256("tablehold-seed-v1" || BE64(epoch) || seed)`: logged when the epoch opens, checked
/// against the seed revealed when it ends. The epoch is in it so one seed can never answer for
/// two epochs.
pub fn seed_commitment(epoch: u64, seed: &Bytes32) -> Bytes32 {
    let mut h = Sha256::new();
    h.update(SEED_TAG);
    h.update(epoch.to_be_bytes());
    h.update(seed);
    h.finalize().into()
}

/// `SHA-256("tablehold-entropy-v1" || BE64(epoch) || seat || entropy)`: what a seat commits to
/// before anyone reveals. The seat is in it so that nobody can copy another seat's commitment
/// and later claim its value.
pub fn entropy_commitment(epoch: u64, seat: &str, entropy: &Bytes32) -> Option<Bytes32> {
    let mut h = Sha256::new();
    h.update(ENTROPY_TAG);
    h.update(epoch.to_be_bytes());
    framed_seat(&mut h, seat)?;
    h.update(entropy);
    Some(h.finalize().into())
}

/// `SHA-256("tablehold-withheld-v1" || commitment)`: the contribution that stands in for a seat
/// that committed and then did not reveal in time. It is fixed by the commitment alone, so a
/// seat that withholds chooses only between two values it cannot steer: one bit of influence.
pub fn withheld_replacement(commitment: &Bytes32) -> Bytes32 {
    let mut h = Sha256::new();
    h.update(WITHHELD_TAG);
    h.update(commitment);
    h.finalize().into()
}

/// The key of the epoch's dice stream. With no contributions it is the seed itself; with some,
/// `SHA-256("tablehold-key-v1" || BE64(epoch) || seed || for each contribution, in ascending
/// byte order of seat id: seat || value)`.
///
/// The seed alone is already a uniformly random secret, so hashing it would add nothing; only
/// when seats add entropy must the key depend on all of it.
///
/// `contributions` may come in any order; they are sorted here. `None` if a seat id is too
/// long to frame (see [`MAX_SEAT_ID_BYTES`]).
pub fn epoch_key(epoch: u64, seed: &Bytes32, contributions: &[(&str, Bytes32)]) -> Option<Bytes32> {
    if contributions.is_empty() {
        return Some(*seed);
    }
    let mut sorted: Vec<&(&str, Bytes32)> = contributions.iter().collect();
    sorted.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let mut h = Sha256::new();
    h.update(KEY_TAG);
    h.update(epoch.to_be_bytes());
    h.update(seed);
    for (seat, value) in sorted {
        framed_seat(&mut h, seat)?;
        h.update(value);
    }
    Some(h.finalize().into())
}

fn framed_seat(h: &mut Sha256, seat: &str) -> Option<()> {
    let len = u8::try_from(seat.len()).ok()?;
    h.update([len]);
    h.update(seat.as_bytes());
    Some(())
}

/// Lower-case hex, the form every hash and seed takes in events and exports.
pub fn to_hex(bytes: &[u8]) -> String {
    hex::encode(bytes)
}

/// Parses exactly 64 hex digits (either case) into 32 bytes.
pub fn from_hex32(s: &str) -> Option<Bytes32> {
    let mut out = [0u8; 32];
    // The crate checks the length against the buffer, so 62 or 66 digits are refused too.
    hex::decode_to_slice(s, &mut out).ok()?;
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_rejects_anything_else() {
        let bytes: Bytes32 = std::array::from_fn(|i| u8::try_from(i * 7).unwrap_or(0));
        let hex = to_hex(&bytes);
        assert_eq!(&hex[..6], "00070e");
        assert_eq!(from_hex32(&hex), Some(bytes));
        assert_eq!(from_hex32(&hex.to_uppercase()), Some(bytes));
        assert_eq!(from_hex32(&hex[..62]), None);
        assert_eq!(from_hex32(&format!("{}zz", &hex[..62])), None);
    }

    #[test]
    fn contributions_are_sorted_by_seat_so_order_of_arrival_does_not_matter() {
        let seed = [1u8; 32];
        let a = epoch_key(3, &seed, &[("p1", [2; 32]), ("p2", [3; 32])]);
        let b = epoch_key(3, &seed, &[("p2", [3; 32]), ("p1", [2; 32])]);
        assert_eq!(a, b);
        // Swapping which seat gave which value changes the key.
        let c = epoch_key(3, &seed, &[("p1", [3; 32]), ("p2", [2; 32])]);
        assert_ne!(a, c);
        assert_eq!(epoch_key(3, &seed, &[]), Some(seed));
        assert_ne!(
            epoch_key(3, &seed, &[("p1", [2; 32])]),
            epoch_key(4, &seed, &[("p1", [2; 32])])
        );
    }

    #[test]
    fn commitments_bind_the_epoch_and_the_seat() {
        let e = [9u8; 32];
        assert_ne!(
            entropy_commitment(1, "p1", &e),
            entropy_commitment(2, "p1", &e)
        );
        assert_ne!(
            entropy_commitment(1, "p1", &e),
            entropy_commitment(1, "p2", &e)
        );
        assert_ne!(seed_commitment(1, &e), seed_commitment(2, &e));
        assert_eq!(entropy_commitment(1, &"x".repeat(256), &e), None);
    }
}

//! The hash chain over parts (DESIGN.md, "Dice and fairness"): each event's link hashes the
//! previous link, the event's header and each part's hash, so a seat's export can replace a
//! part it may not see by that part's hash and still be checked link by link.
//!
//! This is a public contract, spelled out in `docs/FAIRNESS.md`:
//!
//! - a part's bytes are its JSON as the server wrote it (kept verbatim in the log, never
//!   re-encoded), and its hash is their SHA-256;
//! - an event's header is the ASCII text `{"seq":S,"version":V,"at_ms":T}` in decimal, with
//!   no spaces;
//! - `link(n) = SHA-256("tablehold-chain-v1" || link(n-1) || SHA-256(header) || H(part 1) ||
//!   ... || H(part k))`, and the link before the first event is 32 zero bytes.

use serde_json::value::RawValue;
use sha2::{Digest, Sha256};
use tablehold_rules::Part;

/// The format version of the events this build writes, and the newest it reads. Stored with
/// every event and hashed into its header; `tablehold_protocol` re-exports it for the wire.
pub const EVENT_VERSION: u32 = 1;

/// One link of the chain.
pub type Link = [u8; 32];

/// The link before the first event.
pub const GENESIS: Link = [0; 32];

const CHAIN_TAG: &[u8] = b"tablehold-chain-v1";

/// The header text of an event, the exact bytes hashed into its link.
pub fn header_bytes(seq: u64, version: u32, at_ms: u64) -> String {
    format!("{{\"seq\":{seq},\"version\":{version},\"at_ms\":{at_ms}}}")
}

/// SHA-256 of a part's bytes.
pub fn part_hash(part: &[u8]) -> [u8; 32] {
    Sha256::digest(part).into()
}

/// The link of an event from the previous link, its header text and its parts' hashes.
pub fn link(prev: &Link, header: &str, part_hashes: impl IntoIterator<Item = [u8; 32]>) -> Link {
    let mut h = Sha256::new();
    h.update(CHAIN_TAG);
    h.update(prev);
    h.update(Sha256::digest(header.as_bytes()));
    for p in part_hashes {
        h.update(p);
    }
    h.finalize().into()
}

/// The log's stored form of an event's parts: a JSON array whose elements are each part's
/// bytes, written once and never re-encoded.
pub fn encode_parts(parts: &[Part]) -> Vec<u8> {
    // Plain data with string keys: serializing to a Vec cannot fail.
    serde_json::to_vec(parts).unwrap_or_default()
}

/// The exact bytes of each part of a stored event.
///
/// # Errors
///
/// When `stored` is not a JSON array.
pub fn split_parts(stored: &[u8]) -> Result<Vec<&RawValue>, serde_json::Error> {
    serde_json::from_slice(stored)
}

/// Encodes an event's parts for the log and computes its link: what the server does once per
/// event it appends.
pub fn seal(prev: &Link, seq: u64, version: u32, at_ms: u64, parts: &[Part]) -> (Vec<u8>, Link) {
    let encoded: Vec<Vec<u8>> = parts
        .iter()
        .map(|p| serde_json::to_vec(p).unwrap_or_default())
        .collect();
    let mut stored = Vec::with_capacity(encoded.iter().map(|p| p.len() + 1).sum::<usize>() + 2);
    stored.push(b'[');
    for (i, p) in encoded.iter().enumerate() {
        if i > 0 {
            stored.push(b',');
        }
        stored.extend_from_slice(p);
    }
    stored.push(b']');
    let link = link(
        prev,
        &header_bytes(seq, version, at_ms),
        encoded.iter().map(|p| part_hash(p)),
    );
    (stored, link)
}

/// The link of a stored event, from its fields and the previous link.
///
/// # Errors
///
/// When the stored parts are not a JSON array.
pub fn link_of_stored(
    prev: &Link,
    seq: u64,
    version: u32,
    at_ms: u64,
    stored_parts: &[u8],
) -> Result<Link, serde_json::Error> {
    let parts = split_parts(stored_parts)?;
    Ok(link(
        prev,
        &header_bytes(seq, version, at_ms),
        parts.iter().map(|p| part_hash(p.get().as_bytes())),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablehold_rules::{Event, Fact};

    #[test]
    fn stored_parts_split_back_into_the_bytes_of_each_part() {
        let event = Event::public(Fact::Noted {
            text: "a, \"b\"".into(),
        })
        .with(
            tablehold_rules::Audience::GmOnly,
            Fact::Ruled { text: "c".into() },
        );
        let stored = encode_parts(&event.parts);
        let split = split_parts(&stored).expect("an array");
        assert_eq!(split.len(), 2);
        for (raw, part) in split.iter().zip(&event.parts) {
            assert_eq!(
                raw.get().as_bytes(),
                serde_json::to_vec(part).expect("json").as_slice()
            );
        }
    }

    #[test]
    fn sealing_stores_what_encode_parts_stores_and_links_what_the_stored_bytes_link() {
        let event = Event::public(Fact::Noted { text: "x".into() }).with(
            tablehold_rules::Audience::GmOnly,
            Fact::Ruled { text: "y".into() },
        );
        let (stored, l) = seal(&[3; 32], 7, 1, 99, &event.parts);
        assert_eq!(stored, encode_parts(&event.parts));
        assert_eq!(
            link_of_stored(&[3; 32], 7, 1, 99, &stored).expect("array"),
            l
        );
    }

    #[test]
    fn the_header_is_fixed_text() {
        assert_eq!(
            header_bytes(12, 1, 1_700_000_000_123),
            r#"{"seq":12,"version":1,"at_ms":1700000000123}"#
        );
    }

    #[test]
    fn every_input_of_a_link_changes_it() {
        let base = link(&GENESIS, "h", [[1; 32], [2; 32]]);
        assert_ne!(base, link(&[1; 32], "h", [[1; 32], [2; 32]]));
        assert_ne!(base, link(&GENESIS, "i", [[1; 32], [2; 32]]));
        assert_ne!(base, link(&GENESIS, "h", [[2; 32], [1; 32]]));
        assert_ne!(base, link(&GENESIS, "h", [[1; 32]]));
    }
}

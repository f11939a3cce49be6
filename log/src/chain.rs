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
use tablehold_rules::{Audience, Part};

/// The format version of the events this build writes, and the newest it reads. Stored with
/// every event and hashed into its header; `tablehold_protocol` re-exports it for the wire.
/// The rules crate owns the event format and how older versions are read.
pub use tablehold_rules::upgrade::EVENT_VERSION;

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

/// A part's bytes as logged: its JSON, and for a part not everyone may see, one more field,
/// `"salt"`: 16 random bytes in hex. A seat's export stands in for a hidden part with the
/// hash of these bytes; without the salt, anyone could hash guesses of a hidden part (a target
/// number, an NPC's Condition) until one matched. Decoding a part ignores the field.
pub fn part_bytes(part: &Part, salt: Option<[u8; 16]>) -> Vec<u8> {
    // Plain data with string keys: serializing to a Vec cannot fail.
    let mut bytes = serde_json::to_vec(part).unwrap_or_default();
    if let Some(salt) = salt
        && bytes.last() == Some(&b'}')
    {
        bytes.pop();
        bytes.extend_from_slice(b",\"salt\":\"");
        bytes.extend_from_slice(hex::encode(salt).as_bytes());
        bytes.extend_from_slice(b"\"}");
    }
    bytes
}

/// Encodes an event's parts for the log, salting every part not everyone may see with bytes
/// from `salt`, and computes the event's link: what the server does once per event it
/// appends.
pub fn seal(
    prev: &Link,
    seq: u64,
    version: u32,
    at_ms: u64,
    parts: &[Part],
    salt: &mut dyn FnMut() -> [u8; 16],
) -> (Vec<u8>, Link) {
    let encoded: Vec<Vec<u8>> = parts
        .iter()
        .map(|p| {
            let salted = (p.audience != Audience::Everyone).then(&mut *salt);
            part_bytes(p, salted)
        })
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
    fn sealing_salts_the_parts_not_everyone_sees_and_links_what_it_stores() {
        let event = Event::public(Fact::Noted { text: "x".into() }).with(
            tablehold_rules::Audience::GmOnly,
            Fact::Ruled { text: "y".into() },
        );
        let mut salts = [[0xab; 16], [0xcd; 16]].into_iter();
        let (stored, l) = seal(&[3; 32], 7, 1, 99, &event.parts, &mut || {
            salts.next().unwrap_or_default()
        });
        let text = String::from_utf8(stored.clone()).expect("UTF-8");
        assert_eq!(
            text,
            format!(
                r#"[{{"audience":"everyone","fact":{{"fact":"noted","text":"x"}}}},{{"audience":"gm_only","fact":{{"fact":"ruled","text":"y"}},"salt":"{}"}}]"#,
                "ab".repeat(16)
            )
        );
        assert_eq!(
            link_of_stored(&[3; 32], 7, 1, 99, &stored).expect("array"),
            l
        );
        // The salt changes the hidden part's hash and nothing of what it says.
        let parts: Vec<Part> = serde_json::from_slice(&stored).expect("parts decode");
        assert_eq!(parts, event.parts);
        assert_ne!(
            part_hash(&part_bytes(&event.parts[1], Some([1; 16]))),
            part_hash(&part_bytes(&event.parts[1], None))
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

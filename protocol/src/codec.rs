//! Encoding and decoding frames. Decoding never panics: any byte string either is a message or
//! is a [`DecodeError`] that says why not.
//!
//! Decoding is bounded by the frame, not by what the frame claims: a length prefix (string,
//! array, map) larger than the bytes that follow fails at the first missing byte, and no
//! buffer is reserved from a prefix beyond serde's own cap (`size_hint::cautious`, 1 MiB per
//! collection). Nesting is capped at `MAX_DEPTH` so that a frame of `[[[[...]]]]` cannot
//! exhaust a task's stack. `tests.rs` pins both with hostile frames.

use std::io::Cursor;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::message::{ClientMsg, ServerMsg};

/// The largest frame either side accepts. Sheets are the largest legitimate requests (a few
/// kilobytes); 64 KiB leaves room and keeps a hostile frame cheap to refuse.
pub const MAX_FRAME_BYTES: usize = 64 * 1024;

/// The largest frame a client accepts from the server. A table's state (every combatant with
/// its sheet) can outgrow a request's limit; the server keeps single events far below this.
pub const MAX_SERVER_FRAME_BYTES: usize = 1024 * 1024;

/// The deepest nesting of MessagePack arrays and maps a frame may have. The deepest legitimate
/// message (an event adding a combatant, whose sheet holds weapons with dice) nests about a
/// dozen levels; rmp-serde's own default of 1024 is deep enough, with serde's buffering of
/// internally tagged enums, to overflow a 2 MiB thread stack in an unoptimized build.
const MAX_DEPTH: usize = 64;

/// Why bytes are not a message. Expected with a misbehaving peer; answer with
/// `bad_request` or `too_large` and keep the connection's table unaffected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The frame is longer than [`MAX_FRAME_BYTES`]; it was not parsed. Answer `too_large`.
    #[error("frame of {size} bytes is larger than the limit of {limit}")]
    TooLarge { size: usize, limit: usize },
    /// The bytes are not a message of this protocol: not MessagePack, truncated, nested too
    /// deeply, an unknown `type` or `op`, a missing field or a field of the wrong type. Answer
    /// `bad_request`; the message says where decoding stopped.
    #[error("not a Tablehold message: {0}")]
    Malformed(String),
    /// A whole message followed by this many more bytes. One frame holds exactly one message,
    /// so this is refused like any malformed frame (`bad_request`).
    #[error("{0} bytes after the end of the message")]
    Trailing(usize),
}

/// Encodes a message as MessagePack with named fields.
pub fn encode<T: Serialize>(msg: &T) -> Vec<u8> {
    // Serializing our own message types into a Vec cannot fail: every map key is a string
    // and no type has a fallible Serialize. Fall back to an empty frame rather than panic.
    rmp_serde::to_vec_named(msg).unwrap_or_default()
}

fn decode<T: DeserializeOwned>(bytes: &[u8], limit: usize) -> Result<T, DecodeError> {
    if bytes.len() > limit {
        return Err(DecodeError::TooLarge {
            size: bytes.len(),
            limit,
        });
    }
    // Serde would also take a struct as a positional array (`["hello", 1, "x"]`, rmp-serde's
    // compact `to_vec`), which breaks as soon as a field is added: refuse it at the top.
    if !bytes.first().is_some_and(|&b| is_map_marker(b)) {
        return Err(DecodeError::Malformed(
            "a frame must be one MessagePack map with named fields".into(),
        ));
    }
    // What serde would let through and the protocol does not: floats (even in a field this
    // version ignores), bin for text, extensions, keys that are not text.
    crate::shape::check(bytes, MAX_DEPTH).map_err(|e| DecodeError::Malformed(e.0))?;
    // A `Cursor` rather than `from_read_ref`: the latter's `get_ref` returns the whole input,
    // not what is left of it, so it cannot tell trailing bytes. Strings are then copied from
    // the cursor, which reads no more than the frame holds.
    let mut de = rmp_serde::Deserializer::new(Cursor::new(bytes));
    de.set_max_depth(MAX_DEPTH);
    let value = T::deserialize(&mut de).map_err(|e| DecodeError::Malformed(e.to_string()))?;
    let read = usize::try_from(de.position()).unwrap_or(usize::MAX);
    match bytes.len().saturating_sub(read) {
        0 => Ok(value),
        rest => Err(DecodeError::Trailing(rest)),
    }
}

/// fixmap, map16 or map32.
fn is_map_marker(byte: u8) -> bool {
    matches!(byte, 0x80..=0x8f | 0xde | 0xdf)
}

/// Decodes one frame a client sent. Its objects (the request's `op`, `args`, a cell) must be
/// maps: serde would take positional arrays there too.
pub fn decode_client(bytes: &[u8]) -> Result<ClientMsg, DecodeError> {
    let msg = decode(bytes, MAX_FRAME_BYTES)?;
    crate::shape::check_client_objects(bytes).map_err(|e| DecodeError::Malformed(e.0))?;
    Ok(msg)
}

/// The `id` of a request frame that could not be decoded, when the frame is a map whose `id`
/// is an unsigned integer: the error then names the request it answers.
pub fn request_id(bytes: &[u8]) -> Option<u64> {
    if bytes.len() > MAX_FRAME_BYTES {
        return None;
    }
    crate::shape::request_id(bytes)
}

/// Decodes one frame the server sent.
pub fn decode_server(bytes: &[u8]) -> Result<ServerMsg, DecodeError> {
    decode(bytes, MAX_SERVER_FRAME_BYTES)
}

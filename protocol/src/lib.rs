//! Tablehold's wire protocol: the messages a client and the server exchange over a WebSocket,
//! and their MessagePack encoding. `docs/PROTOCOL.md` describes the same for client authors in
//! any language.
//!
//! Every frame is one binary WebSocket message holding one MessagePack map (named fields, so
//! fields can be added without breaking older readers). The first frame each way is the hello
//! exchange, which fixes the protocol version.
//!
//! This crate is an API boundary: changing a message's shape is a protocol change. Golden-byte
//! tests pin the encoding.

mod codec;
mod error;
mod message;
mod shape;
#[cfg(test)]
mod tests;
pub mod view;

pub use codec::{
    DecodeError, MAX_FRAME_BYTES, MAX_SERVER_FRAME_BYTES, decode_client, decode_server, encode,
    request_id,
};
pub use error::ErrorCode;
pub use message::*;

/// The protocol version this build speaks. The server refuses a hello with another version
/// with [`ErrorCode::VersionMismatch`]; the codec itself decodes a hello of any version, so
/// that the server can say which version it speaks.
pub const PROTOCOL_VERSION: u32 = 1;

/// The version of the stored and transmitted event format ([`EventEnvelope::version`]),
/// defined beside the log's hash chain, which hashes it into every event's header.
pub use tablehold_log::chain::EVENT_VERSION;

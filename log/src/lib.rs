//! The event log as something a seat can hold: the hash chain that seals it, the file format
//! an export is written in, and the two things anyone can do with such a file without trusting
//! the server: verify every die, and replay the state at any point.
//!
//! The server uses [`chain`] to seal events as it appends them and [`file`] to write exports;
//! the `tablehold` client uses [`verify`] and [`replay`] on those files. Nothing here decides
//! or rolls: replay only applies stored events.

pub mod chain;
pub mod file;
pub mod hidden;
pub mod history;
mod json_keys;
pub mod replay;
#[cfg(test)]
mod tests;
pub mod verify;

pub use chain::{
    EVENT_VERSION, GENESIS, Link, encode_parts, header_bytes, link, link_of_stored, part_bytes,
    part_hash, seal, split_parts,
};
pub use file::{ExportedEvent, ExportedPart, LogFile, LogFileError, LogHeader, TableInfo};
pub use replay::{ReplayError, ReplayErrorKind, Replayed, replay};
pub use verify::{VerifyError, VerifyErrorKind, VerifyReport, View, verify};

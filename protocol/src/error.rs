//! Stable error codes. A program reacts to the code; a person reads the message beside it.
//! Codes are never renamed or reused: a new situation gets a new code.

use serde::{Deserialize, Serialize};

/// What went wrong, as a stable machine-readable code (serialized in snake_case).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ErrorCode {
    /// The frame is not a message of this protocol (garbage, truncated, a text frame).
    BadRequest,
    /// The first message was not a hello, or a second hello came.
    HelloFirst,
    /// The client speaks another protocol version; the message says which one the server does.
    VersionMismatch,
    /// The request needs a seat, and the connection has not joined or authenticated one.
    Unauthorized,
    /// The seat may not do this (another seat's character, a GM-only request).
    Forbidden,
    UnknownTable,
    /// An invite code or token that does not match.
    BadCredentials,
    NotYourTurn,
    OutOfRange,
    InsufficientResource,
    /// A prompt is open; only its answer (or a GM ruling) may go ahead.
    AwaitingDecision,
    /// Any other refusal by the rules; the message says which rule.
    Refused,
    /// Too many requests or failed joins; wait and retry.
    RateLimited,
    /// The frame is larger than the server accepts.
    TooLarge,
    /// The table is full: no free seat of the requested kind.
    TableFull,
    /// The server failed (storage, a bug). Nothing was applied; retrying may work.
    Internal,
    /// The server is shutting down.
    ShuttingDown,
    /// A revealed entropy does not hash to the seat's commitment.
    RevealMismatch,
    /// A commitment or reveal for an epoch that is not taking them now (too early, too late,
    /// twice, or an epoch that is not the table's).
    WrongPhase,
}

impl ErrorCode {
    /// The code for a rules refusal, keeping the specific codes clients branch on.
    pub fn for_refusal(code: &str) -> ErrorCode {
        match code {
            "not_your_turn" => ErrorCode::NotYourTurn,
            "forbidden" => ErrorCode::Forbidden,
            "out_of_range" => ErrorCode::OutOfRange,
            "insufficient_resource" => ErrorCode::InsufficientResource,
            "awaiting_decision" => ErrorCode::AwaitingDecision,
            "bad_request" => ErrorCode::BadRequest,
            _ => ErrorCode::Refused,
        }
    }
}

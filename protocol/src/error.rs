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
    /// No prompt with that id is open (answered already, timed out, or never asked).
    NoSuchPrompt,
    /// The answer is not one of the prompt's options; the message lists them.
    NotAnOption,
    /// The system has no such action (or the GM no such ruling).
    UnknownAction,
    /// No combatant with that id is at the table.
    UnknownEntity,
    /// A name the system does not know: a resource, a damage type, an attribute.
    UnknownName,
    /// The turn's economy is spent: no action, movement or auxiliary action left for this.
    NoneLeft,
    /// The character cannot act at all (dying, out cold, dead).
    CannotAct,
    /// The action needs an encounter, and none is running.
    NoEncounter,
    /// An encounter is already running.
    EncounterRunning,
    /// The server's disk is full: nothing was logged. The table goes on by itself once space
    /// is freed; retrying the same request then works.
    StorageFull,
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
            "no_such_prompt" => ErrorCode::NoSuchPrompt,
            "not_an_option" => ErrorCode::NotAnOption,
            "unknown_action" => ErrorCode::UnknownAction,
            "unknown_entity" => ErrorCode::UnknownEntity,
            "unknown_name" => ErrorCode::UnknownName,
            "none_left" => ErrorCode::NoneLeft,
            "cannot_act" => ErrorCode::CannotAct,
            "no_encounter" => ErrorCode::NoEncounter,
            "encounter_running" => ErrorCode::EncounterRunning,
            // A rule of the system (`rule`), or a refusal a later rules crate adds.
            _ => ErrorCode::Refused,
        }
    }
}

//! Refusals: a rule said no. Sent to the seat that asked, with a stable code for programs and
//! a sentence for people; nothing is applied. (Failures of storage or corruption are not
//! refusals and never reach this type.)

use serde::{Deserialize, Serialize};

use crate::ids::EntityId;

/// Why `decide` refused a command. Each variant maps to a stable wire code via [`Refusal::code`].
///
/// The message is a sentence that never starts with its code: whoever shows a refusal puts the
/// code beside it (`forbidden: ...`), and a message that repeated it would read twice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Refusal {
    /// Someone else is acting. Wait for your turn.
    #[error("it is not {actor}'s turn{}", current.as_ref().map(|c| format!(" (it is {c}'s)")).unwrap_or_default())]
    NotYourTurn {
        actor: EntityId,
        current: Option<EntityId>,
    },
    /// The seat may not do this: another seat's character, or a GM-only action.
    #[error("{reason}")]
    Forbidden { reason: String },
    #[error("{what} is {distance} {unit} away and the limit is {limit} {unit}")]
    OutOfRange {
        what: String,
        distance: i64,
        limit: i64,
        /// The system's unit of length (its `GridSpec`).
        unit: String,
    },
    #[error("not enough {resource}: needs {needed}, has {available}")]
    InsufficientResource {
        resource: String,
        needed: i64,
        available: i64,
    },
    /// A prompt is open; only its answer (or a GM ruling) may go ahead.
    #[error("waiting for an answer to prompt {prompt_id}: {question}")]
    AwaitingDecision { prompt_id: u64, question: String },
    #[error("no prompt {prompt_id} is open")]
    NoSuchPrompt { prompt_id: u64 },
    #[error("`{choice}` is not an option here; choose one of: {}", options.join(", "))]
    NotAnOption {
        choice: String,
        options: Vec<String>,
    },
    #[error("{system} has no action `{action}`")]
    UnknownAction { system: String, action: String },
    #[error("no one called `{0}` is at the table")]
    UnknownEntity(EntityId),
    #[error("`{name}` is not {what} of {system}")]
    UnknownName {
        system: String,
        what: String,
        name: String,
    },
    #[error("argument `{arg}` {reason}")]
    BadArgument { arg: String, reason: String },
    /// The turn's economy is spent: no action, movement or auxiliary action left for this.
    #[error("{actor} has no {slot} left this turn")]
    NoneLeft { actor: EntityId, slot: String },
    /// The character cannot act at all (dying, out cold, dead...).
    #[error("{actor} cannot act: {reason}")]
    CannotAct { actor: EntityId, reason: String },
    #[error("this needs an active encounter")]
    NoEncounter,
    #[error("an encounter is already running")]
    EncounterRunning,
    /// A rule of the system forbids it; the sentence says which.
    #[error("{0}")]
    Rule(String),
}

impl Refusal {
    /// The stable, machine-readable code sent on the wire.
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::NotYourTurn { .. } => "not_your_turn",
            Refusal::Forbidden { .. } => "forbidden",
            Refusal::OutOfRange { .. } => "out_of_range",
            Refusal::InsufficientResource { .. } => "insufficient_resource",
            Refusal::AwaitingDecision { .. } => "awaiting_decision",
            Refusal::NoSuchPrompt { .. } => "no_such_prompt",
            Refusal::NotAnOption { .. } => "not_an_option",
            Refusal::UnknownAction { .. } => "unknown_action",
            Refusal::UnknownEntity(_) => "unknown_entity",
            Refusal::UnknownName { .. } => "unknown_name",
            Refusal::BadArgument { .. } => "bad_request",
            Refusal::NoneLeft { .. } => "none_left",
            Refusal::CannotAct { .. } => "cannot_act",
            Refusal::NoEncounter => "no_encounter",
            Refusal::EncounterRunning => "encounter_running",
            Refusal::Rule(_) => "rule",
        }
    }

    pub fn bad_argument(arg: &str, reason: &str) -> Self {
        Refusal::BadArgument {
            arg: arg.to_owned(),
            reason: reason.to_owned(),
        }
    }

    pub fn forbidden(reason: impl Into<String>) -> Self {
        Refusal::Forbidden {
            reason: reason.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // See: issue #19 ("error lines double their code": `forbidden: forbidden: ...`).
    #[test]
    fn refusal_messages_do_not_repeat_their_code() {
        let who = || EntityId::from("aune");
        let cases = [
            Refusal::NotYourTurn {
                actor: who(),
                current: Some(EntityId::from("mara")),
            },
            Refusal::forbidden("`tn` is the GM's to give"),
            Refusal::OutOfRange {
                what: "goblin-1".into(),
                distance: 8,
                limit: 3,
                unit: "m".into(),
            },
            Refusal::InsufficientResource {
                resource: "Focus".into(),
                needed: 5,
                available: 2,
            },
            Refusal::AwaitingDecision {
                prompt_id: 3,
                question: "Who goes first?".into(),
            },
            Refusal::NoSuchPrompt { prompt_id: 3 },
            Refusal::NotAnOption {
                choice: "x".into(),
                options: vec!["yes".into(), "no".into()],
            },
            Refusal::UnknownAction {
                system: "grimwire".into(),
                action: "fly".into(),
            },
            Refusal::UnknownEntity(who()),
            Refusal::UnknownName {
                system: "grimwire".into(),
                what: "a resource".into(),
                name: "luck".into(),
            },
            Refusal::bad_argument("to", "is required"),
            Refusal::NoneLeft {
                actor: who(),
                slot: "action".into(),
            },
            Refusal::CannotAct {
                actor: who(),
                reason: "out cold".into(),
            },
            Refusal::NoEncounter,
            Refusal::EncounterRunning,
            Refusal::Rule("a character cannot attack themselves".into()),
        ];
        for r in cases {
            let message = r.to_string().to_lowercase();
            let code = r.code();
            for said in [code.to_owned(), code.replace('_', " ")] {
                assert!(!message.starts_with(&said), "{code}: {message}");
            }
        }
        assert_eq!(
            Refusal::OutOfRange {
                what: "goblin-1".into(),
                distance: 8,
                limit: 3,
                unit: "m".into(),
            }
            .to_string(),
            "goblin-1 is 8 m away and the limit is 3 m"
        );
    }
}

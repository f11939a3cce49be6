//! Mid-action decisions as data. A half-resolved action is a [`PendingStep`]: which rule step
//! it stopped at, what it has already drawn, who may decide, the choices and the default. It is
//! serializable so it lives in the state (and the log) rather than in a suspended function, and
//! a server restart or a replay resumes it exactly.
//!
//! An open step is a decision window. Several may be open at once; each says who answers it
//! ([`Answering`]), whether other actions wait for it (`blocks`), what typed arguments an
//! answer carries, and has its own deadline. Every field added after the first event format
//! has a default that is the old behaviour, so old logs read as they did: one blocking window,
//! answered by the first of its seats, with a choice and nothing else.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::action::{ArgSpec, Args};
use crate::dice::Roll;
use crate::grid::Cell;
use crate::ids::{EntityId, Seat};

/// A value carried by a pending step. A closed set of exact types (no floats, no free JSON) so
/// steps compare and digest exactly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepValue {
    Int(i64),
    Flag(bool),
    Text(String),
    Entity(EntityId),
    Entities(Vec<EntityId>),
    Cell(Cell),
    Roll(Box<Roll>),
}

/// A half-resolved action waiting for a choice (or, when deferred, for a trigger).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingStep {
    pub prompt_id: u64,
    /// The rule step to resume, namespaced by system, e.g. `grimwire.collateral.spare`.
    pub rule: String,
    /// The character whose action this is, if any.
    pub actor: Option<EntityId>,
    /// Seats that may answer. The GM may always answer in their place (an override).
    pub seats: Vec<Seat>,
    /// What to ask, in words, for the deciding seat's screen.
    pub question: String,
    pub options: Vec<String>,
    /// Applied when nobody answers in time. Always one of `options`.
    pub default: String,
    pub timeout_ms: u64,
    /// For deferred steps: the trigger that resumes them (e.g. `after_side:enemies`).
    pub trigger: Option<String>,
    pub data: BTreeMap<String, StepValue>,
    /// Who answers, and so when the window closes.
    #[serde(default, skip_serializing_if = "Answering::is_first")]
    pub answering: Answering,
    /// Whether actions wait while the window is open. A reaction window that the table plays
    /// on through (a readied action, an opening) does not block.
    #[serde(default = "blocks_by_default", skip_serializing_if = "is_true")]
    pub blocks: bool,
    /// The typed arguments an answer carries (a number of points, a target, a cell), checked
    /// as an action's are. An answer gives `options`' choice (when there are options) and
    /// these.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<ArgSpec>,
    /// The arguments a seat that did not answer in time is taken to have given.
    #[serde(default, skip_serializing_if = "Args::is_empty")]
    pub default_args: Args,
    /// Data for the GM alone, that even the deciding seats do not see: a hidden challenge
    /// number, an attack total kept secret until the dodge is chosen.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub secret: BTreeMap<String, StepValue>,
    /// The answers given so far, in a window each seat answers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<Answer>,
}

impl Default for PendingStep {
    /// An empty blocking window answered by the first of its (no) seats; systems fill in what
    /// their step needs and leave the rest.
    fn default() -> Self {
        PendingStep {
            prompt_id: 0,
            rule: String::new(),
            actor: None,
            seats: Vec::new(),
            question: String::new(),
            options: Vec::new(),
            default: String::new(),
            timeout_ms: 0,
            trigger: None,
            data: BTreeMap::new(),
            answering: Answering::First,
            blocks: true,
            args: Vec::new(),
            default_args: Args::default(),
            secret: BTreeMap::new(),
            answers: Vec::new(),
        }
    }
}

fn blocks_by_default() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

/// Who answers a window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answering {
    /// Any one of its seats; the first answer closes it.
    #[default]
    First,
    /// Each of its seats; it closes when all have answered or its time is up (those who did
    /// not answer take the default).
    Each,
    /// The GM alone, whatever its seats.
    Gm,
}

impl Answering {
    fn is_first(&self) -> bool {
        *self == Answering::First
    }
}

/// One seat's answer in a window each seat answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    pub seat: Seat,
    pub choice: String,
    #[serde(default, skip_serializing_if = "Args::is_empty")]
    pub args: Args,
    pub by: Resolver,
}

impl PendingStep {
    pub fn int(&self, key: &str) -> Option<i64> {
        match self.data.get(key) {
            Some(StepValue::Int(i)) => Some(*i),
            _ => None,
        }
    }
    pub fn flag(&self, key: &str) -> Option<bool> {
        match self.data.get(key) {
            Some(StepValue::Flag(b)) => Some(*b),
            _ => None,
        }
    }
    pub fn text(&self, key: &str) -> Option<&str> {
        match self.data.get(key) {
            Some(StepValue::Text(s)) => Some(s),
            _ => None,
        }
    }
    pub fn entity(&self, key: &str) -> Option<&EntityId> {
        match self.data.get(key) {
            Some(StepValue::Entity(e)) => Some(e),
            _ => None,
        }
    }
    pub fn entities(&self, key: &str) -> Option<&[EntityId]> {
        match self.data.get(key) {
            Some(StepValue::Entities(e)) => Some(e),
            _ => None,
        }
    }
    pub fn roll(&self, key: &str) -> Option<&Roll> {
        match self.data.get(key) {
            Some(StepValue::Roll(r)) => Some(r),
            _ => None,
        }
    }

    /// GM-only text (see `secret`), `None` when absent or of another type.
    pub fn secret_text(&self, key: &str) -> Option<&str> {
        match self.secret.get(key) {
            Some(StepValue::Text(s)) => Some(s),
            _ => None,
        }
    }

    /// GM-only data (see `secret`), `None` when absent or of another type.
    pub fn secret_int(&self, key: &str) -> Option<i64> {
        match self.secret.get(key) {
            Some(StepValue::Int(i)) => Some(*i),
            _ => None,
        }
    }

    /// Whether `seat` may answer this prompt. The GM always may: a GM override. In a window
    /// each seat answers, a seat answers once.
    pub fn may_answer(&self, seat: &Seat) -> bool {
        if seat.is_gm() {
            return true;
        }
        match self.answering {
            Answering::Gm => false,
            Answering::First => self.seats.contains(seat),
            Answering::Each => self.seats.contains(seat) && !self.has_answered(seat),
        }
    }

    pub fn has_answered(&self, seat: &Seat) -> bool {
        self.answers.iter().any(|a| &a.seat == seat)
    }

    /// The seats that still owe an answer (in a window each seat answers; otherwise all of
    /// them until one answers).
    pub fn waiting_for(&self) -> Vec<Seat> {
        self.seats
            .iter()
            .filter(|s| !self.has_answered(s))
            .cloned()
            .collect()
    }

    /// The answer `seat` gave, or the default it takes.
    pub fn answer_of(&self, seat: &Seat) -> (&str, &Args) {
        self.answers
            .iter()
            .find(|a| &a.seat == seat)
            .map(|a| (a.choice.as_str(), &a.args))
            .unwrap_or((self.default.as_str(), &self.default_args))
    }
}

/// What closed a window, as the system resumes it: the choice and the arguments, and in a
/// window each seat answers every seat's answer on the step itself (`PendingStep::answers`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Closing<'a> {
    pub choice: &'a str,
    pub args: &'a Args,
    pub by: &'a Resolver,
}

/// How a prompt was closed; logged with the choice so a replay knows who decided.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resolver {
    /// One of the eligible seats answered.
    Seat(Seat),
    /// The GM answered in an eligible seat's place.
    GmOverride,
    /// Nobody answered within the timeout; the default was applied.
    TimedOut,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::action::{ArgKind, ArgValue};

    // A window written before windows had fields reads back as it was written: no new key
    // appears in the JSON of a step that uses none (so it hashes as before), and each field
    // that differs from its default survives the round trip.
    #[test]
    fn window_fields_are_written_only_when_set_and_read_back_whole() {
        let plain = PendingStep {
            prompt_id: 2,
            rule: "sys.spare".into(),
            seats: vec![Seat::Gm],
            question: "Spare it?".into(),
            options: vec!["yes".into(), "no".into()],
            default: "no".into(),
            timeout_ms: 5_000,
            ..PendingStep::default()
        };
        let json = serde_json::to_value(&plain).unwrap();
        let keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            vec![
                "prompt_id",
                "rule",
                "actor",
                "seats",
                "question",
                "options",
                "default",
                "timeout_ms",
                "trigger",
                "data"
            ]
        );
        let ines = Seat::Player("ines".into());
        let window = PendingStep {
            answering: Answering::Each,
            blocks: false,
            args: vec![ArgSpec::new("points", ArgKind::Int, true, "").range(1, 3)],
            default_args: Args::default().with("points", ArgValue::Int(1)),
            secret: [("challenge".to_owned(), StepValue::Int(9))].into(),
            answers: vec![Answer {
                seat: ines.clone(),
                choice: "yes".into(),
                args: Args::default().with("points", ArgValue::Int(2)),
                by: Resolver::Seat(ines.clone()),
            }],
            ..plain.clone()
        };
        for step in [&plain, &window] {
            let back: PendingStep =
                serde_json::from_str(&serde_json::to_string(step).unwrap()).unwrap();
            assert_eq!(&back, step);
        }
        let json = serde_json::to_value(&window).unwrap();
        assert_eq!(json["blocks"], serde_json::json!(false));
        assert_eq!(json["answering"], serde_json::json!("each"));
    }

    #[test]
    fn who_may_answer_follows_the_answering_rule() {
        let (ines, rui) = (Seat::Player("ines".into()), Seat::Player("rui".into()));
        let eve = Seat::Spectator("eve".into());
        let first = PendingStep {
            seats: vec![ines.clone(), rui.clone()],
            ..PendingStep::default()
        };
        let each = PendingStep {
            answering: Answering::Each,
            answers: vec![Answer {
                seat: ines.clone(),
                choice: "a".into(),
                args: Args::default(),
                by: Resolver::Seat(ines.clone()),
            }],
            default: "b".into(),
            ..first.clone()
        };
        let gm = PendingStep {
            answering: Answering::Gm,
            ..first.clone()
        };
        // (window, seat, may answer)
        let cases = [
            (&first, &ines, true),
            (&first, &rui, true),
            (&first, &eve, false),
            (&first, &Seat::Gm, true),
            (&each, &ines, false),
            (&each, &rui, true),
            (&each, &Seat::Gm, true),
            (&gm, &ines, false),
            (&gm, &Seat::Gm, true),
        ];
        for (window, seat, may) in cases {
            assert_eq!(
                window.may_answer(seat),
                may,
                "{seat} in {:?}",
                window.answering
            );
        }
        assert_eq!(each.waiting_for(), vec![rui.clone()]);
        assert_eq!(each.answer_of(&ines), ("a", &Args::default()));
        assert_eq!(each.answer_of(&rui), ("b", &Args::default()));
        assert_eq!(first.waiting_for(), vec![ines, rui]);
    }
}

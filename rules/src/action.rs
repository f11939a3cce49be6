//! Commands into `decide`, and the action catalogue out of `actions`. The catalogue is data
//! (name, typed arguments, costs, help) so that clients build their commands and their help
//! from it and never name a system's action in code.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::grid::Cell;
use crate::ids::{EntityId, Seat};
use crate::refusal::Refusal;

/// The two table actions every system takes, so a client can start and end an encounter
/// without knowing the system: all else comes from the seat's catalogue.
pub const START_ENCOUNTER: &str = "start_encounter";
/// See [`START_ENCOUNTER`].
pub const END_ENCOUNTER: &str = "end_encounter";
/// Ends the acting character's turn during an encounter; every system takes it, so a client
/// can offer "then end the turn" after any action.
pub const END_TURN: &str = "end_turn";

/// The type of an action argument, for clients to parse and complete it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArgKind {
    Int,
    Flag,
    Text,
    Entity,
    Cell,
}

/// The largest magnitude of any integer argument or cell coordinate, unless the argument's
/// spec narrows it. Every sum the rules build from arguments stays far inside `i64`, so no
/// client value can overflow the arithmetic.
pub const ARG_INT_LIMIT: i64 = 1_000_000;

/// The longest text argument, in characters: ids, names and log lines, never documents.
pub const ARG_TEXT_LIMIT: usize = 1_000;

/// One argument of an action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArgSpec {
    pub name: String,
    pub kind: ArgKind,
    pub required: bool,
    pub help: String,
    /// Allowed values for text arguments (weapon ids, attributes), empty when free. Matched
    /// without regard to ASCII case.
    pub choices: Vec<String>,
    /// Bounds of an integer argument; `±ARG_INT_LIMIT` when absent.
    #[serde(default)]
    pub min: Option<i64>,
    #[serde(default)]
    pub max: Option<i64>,
    /// Only the GM may give it (target numbers, situational modifiers, hiding).
    #[serde(default)]
    pub gm_only: bool,
    /// The values it takes now, for the seat's screen (the actor's weapons, the combatants it
    /// could target): a help, not a limit; the rules still judge what is sent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub now: Vec<String>,
}

impl ArgSpec {
    pub fn new(name: &str, kind: ArgKind, required: bool, help: &str) -> Self {
        ArgSpec {
            name: name.to_owned(),
            kind,
            required,
            help: help.to_owned(),
            choices: Vec::new(),
            min: None,
            max: None,
            gm_only: false,
            now: Vec::new(),
        }
    }

    pub fn gm_only(mut self) -> Self {
        self.gm_only = true;
        self
    }

    pub fn choices(mut self, choices: &[&str]) -> Self {
        self.choices = choices.iter().map(|c| (*c).to_owned()).collect();
        self
    }

    pub fn range(mut self, min: i64, max: i64) -> Self {
        self.min = Some(min);
        self.max = Some(max);
        self
    }

    /// Checks one given value against this spec.
    fn check(&self, value: &ArgValue) -> Result<(), Refusal> {
        let bad = |reason: String| Refusal::bad_argument(&self.name, &reason);
        match (self.kind, value) {
            (ArgKind::Int, ArgValue::Int(i)) => {
                let (min, max) = (
                    self.min.unwrap_or(-ARG_INT_LIMIT),
                    self.max.unwrap_or(ARG_INT_LIMIT),
                );
                if !(min..=max).contains(i) {
                    return Err(bad(format!("must be in {min}..={max}, got {i}")));
                }
            }
            (ArgKind::Flag, ArgValue::Flag(_)) => {}
            (ArgKind::Cell, ArgValue::Cell(c)) => {
                let limit = ARG_INT_LIMIT;
                if i64::from(c.x).abs() > limit || i64::from(c.y).abs() > limit {
                    return Err(bad(format!("coordinates must be within ±{limit}")));
                }
            }
            (ArgKind::Text | ArgKind::Entity, ArgValue::Text(t)) => {
                if t.chars().count() > ARG_TEXT_LIMIT {
                    return Err(bad(format!("is longer than {ARG_TEXT_LIMIT} characters")));
                }
                if !self.choices.is_empty()
                    && !self.choices.iter().any(|c| c.eq_ignore_ascii_case(t))
                {
                    return Err(bad(format!(
                        "`{t}` must be one of {}",
                        self.choices.join(", ")
                    )));
                }
            }
            (ArgKind::Int, _) => return Err(bad("must be an integer".into())),
            (ArgKind::Flag, _) => return Err(bad("must be true or false".into())),
            (ArgKind::Cell, _) => return Err(bad("must be a cell {x, y}".into())),
            (ArgKind::Text | ArgKind::Entity, _) => return Err(bad("must be text".into())),
        }
        Ok(())
    }
}

/// One action a seat may take now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionSpec {
    pub name: String,
    pub help: String,
    /// The acting character, if the action has one (GM table actions do not).
    pub actor: Option<EntityId>,
    pub args: Vec<ArgSpec>,
    /// What it uses up, in words: `action`, `auxiliary action`, `3 Focus`.
    pub costs: Vec<String>,
}

/// A value given for an argument.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ArgValue {
    Flag(bool),
    Int(i64),
    Cell(Cell),
    Text(String),
}

/// Named argument values, with typed getters that produce a precise refusal.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Args(pub BTreeMap<String, ArgValue>);

impl Args {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn with(mut self, name: &str, value: ArgValue) -> Self {
        self.0.insert(name.to_owned(), value);
        self
    }

    pub fn int(&self, name: &str) -> Result<Option<i64>, Refusal> {
        match self.0.get(name) {
            None => Ok(None),
            Some(ArgValue::Int(i)) => Ok(Some(*i)),
            Some(_) => Err(Refusal::bad_argument(name, "must be an integer")),
        }
    }

    pub fn flag(&self, name: &str) -> Result<bool, Refusal> {
        match self.0.get(name) {
            None => Ok(false),
            Some(ArgValue::Flag(b)) => Ok(*b),
            Some(_) => Err(Refusal::bad_argument(name, "must be true or false")),
        }
    }

    pub fn text(&self, name: &str) -> Result<Option<&str>, Refusal> {
        match self.0.get(name) {
            None => Ok(None),
            Some(ArgValue::Text(s)) => Ok(Some(s)),
            Some(_) => Err(Refusal::bad_argument(name, "must be text")),
        }
    }

    pub fn entity(&self, name: &str) -> Result<Option<EntityId>, Refusal> {
        Ok(self.text(name)?.map(EntityId::from))
    }

    pub fn cell(&self, name: &str) -> Result<Option<Cell>, Refusal> {
        match self.0.get(name) {
            None => Ok(None),
            Some(ArgValue::Cell(c)) => Ok(Some(*c)),
            Some(_) => Err(Refusal::bad_argument(name, "must be a cell {x, y}")),
        }
    }

    pub fn require_text(&self, name: &str) -> Result<&str, Refusal> {
        self.text(name)?
            .ok_or_else(|| Refusal::bad_argument(name, "is required"))
    }

    pub fn require_entity(&self, name: &str) -> Result<EntityId, Refusal> {
        self.entity(name)?
            .ok_or_else(|| Refusal::bad_argument(name, "is required"))
    }

    pub fn require_int(&self, name: &str) -> Result<i64, Refusal> {
        self.int(name)?
            .ok_or_else(|| Refusal::bad_argument(name, "is required"))
    }

    /// Checks every given argument against the action's specs: no unknown names (a typo is not
    /// silently ignored), GM-only ones from the GM alone, every required one present, each of
    /// the declared kind, within its bounds and among its choices. Run before any rule reads
    /// the arguments.
    pub fn validate(&self, declared: &[ArgSpec], seat: &Seat) -> Result<(), Refusal> {
        for (name, value) in &self.0 {
            let spec = declared
                .iter()
                .find(|a| &a.name == name)
                .ok_or_else(|| Refusal::bad_argument(name, "is not an argument of this action"))?;
            if spec.gm_only && !seat.is_gm() {
                return Err(Refusal::forbidden(format!("`{name}` is the GM's to give")));
            }
            spec.check(value)?;
        }
        match declared
            .iter()
            .find(|a| a.required && !self.0.contains_key(&a.name))
        {
            Some(a) => Err(Refusal::bad_argument(&a.name, "is required")),
            None => Ok(()),
        }
    }
}

/// What a seat asks of the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Command {
    pub seat: Seat,
    pub body: CommandBody,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum CommandBody {
    /// Take an action from the catalogue, for `actor` where the action has one.
    Act {
        actor: Option<EntityId>,
        action: String,
        args: Args,
    },
    /// Answer an open window: one of its options (empty when it has none) and the typed
    /// arguments it takes.
    Answer {
        prompt_id: u64,
        choice: String,
        #[serde(default, skip_serializing_if = "Args::is_empty")]
        args: Args,
    },
    /// Built by the table task when a prompt's time is up: applies its default.
    TimeOut { prompt_id: u64 },
}

impl Command {
    pub fn act(seat: Seat, actor: Option<&str>, action: &str, args: Args) -> Self {
        Command {
            seat,
            body: CommandBody::Act {
                actor: actor.map(EntityId::from),
                action: action.to_owned(),
                args,
            },
        }
    }

    /// The timeout the table task builds when a prompt's time is up. Clients never send it:
    /// the server must not accept it from a connection, or a GM could pass an answer off as
    /// a timeout in the log.
    pub fn time_out(prompt_id: u64) -> Self {
        Command {
            seat: Seat::Gm,
            body: CommandBody::TimeOut { prompt_id },
        }
    }

    pub fn answer(seat: Seat, prompt_id: u64, choice: &str) -> Self {
        Command {
            seat,
            body: CommandBody::Answer {
                prompt_id,
                choice: choice.to_owned(),
                args: Args::default(),
            },
        }
    }
}

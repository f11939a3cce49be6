//! Projection 3, frozen: projection 2, what decision windows added to a pending step, and the
//! turn structure. The top-level object gains, after `combatants` and `encounter`:
//! - `windows`: for every pending step, then every deferred step, in stack order, its id, who
//!   answers (`first`, `each` or `gm`), whether it blocks, its argument specs, its default
//!   arguments, its GM-only data and the answers given so far;
//! - `turns`: the shape (`individual`, `group` or `spotlight`), the group, who may act now,
//!   who has acted and who holds an action.
//!
//! Projection 2's bytes are kept as they are, not rebuilt.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use super::{v1, v2};
use crate::action::{ArgKind, ArgSpec, ArgValue, Args};
use crate::decision::{Answer, Answering, PendingStep, Resolver};
use crate::state::StateView;
use crate::turns::{TurnShape, Turns};

/// What the hash starts with, before the projection's JSON.
pub const TAG: &[u8] = b"tablehold-digest-v3\n";

#[derive(Serialize)]
struct WindowV3<'a> {
    prompt_id: u64,
    answering: &'static str,
    blocks: bool,
    args: Vec<ArgSpecV3<'a>>,
    default_args: BTreeMap<&'a str, Value>,
    secret: BTreeMap<&'a str, Value>,
    answers: Vec<AnswerV3<'a>>,
}

#[derive(Serialize)]
struct TurnsV3<'a> {
    shape: &'static str,
    group: Option<&'a str>,
    now: Vec<&'a str>,
    acted: Vec<&'a str>,
    held: Vec<&'a str>,
}

fn ids(v: &[crate::ids::EntityId]) -> Vec<&str> {
    v.iter().map(|e| e.as_str()).collect()
}

fn turns(t: &Turns) -> TurnsV3<'_> {
    TurnsV3 {
        shape: match t.shape {
            TurnShape::Individual => "individual",
            TurnShape::Group => "group",
            TurnShape::Spotlight => "spotlight",
        },
        group: t.group.as_deref(),
        now: ids(&t.now),
        acted: ids(&t.acted),
        held: ids(&t.held),
    }
}

#[derive(Serialize)]
struct ArgSpecV3<'a> {
    name: &'a str,
    kind: &'static str,
    required: bool,
    help: &'a str,
    choices: &'a [String],
    min: Option<i64>,
    max: Option<i64>,
    gm_only: bool,
    now: &'a [String],
}

#[derive(Serialize)]
struct AnswerV3<'a> {
    seat: Value,
    choice: &'a str,
    args: BTreeMap<&'a str, Value>,
    by: Value,
}

fn answering(a: Answering) -> &'static str {
    match a {
        Answering::First => "first",
        Answering::Each => "each",
        Answering::Gm => "gm",
    }
}

fn kind(k: ArgKind) -> &'static str {
    match k {
        ArgKind::Int => "int",
        ArgKind::Flag => "flag",
        ArgKind::Text => "text",
        ArgKind::Entity => "entity",
        ArgKind::Cell => "cell",
    }
}

fn arg_spec(a: &ArgSpec) -> ArgSpecV3<'_> {
    ArgSpecV3 {
        name: &a.name,
        kind: kind(a.kind),
        required: a.required,
        help: &a.help,
        choices: &a.choices,
        min: a.min,
        max: a.max,
        gm_only: a.gm_only,
        now: &a.now,
    }
}

fn args(a: &Args) -> BTreeMap<&str, Value> {
    a.0.iter()
        .map(|(k, v)| {
            let value = match v {
                ArgValue::Flag(b) => Value::from(*b),
                ArgValue::Int(i) => Value::from(*i),
                ArgValue::Cell(c) => serde_json::json!({ "x": c.x, "y": c.y }),
                ArgValue::Text(t) => Value::from(t.as_str()),
            };
            (k.as_str(), value)
        })
        .collect()
}

fn resolver(r: &Resolver) -> Value {
    match r {
        Resolver::Seat(s) => serde_json::json!({ "seat": v1::seat(s) }),
        Resolver::GmOverride => Value::from("gm_override"),
        Resolver::TimedOut => Value::from("timed_out"),
    }
}

fn answer(a: &Answer) -> AnswerV3<'_> {
    AnswerV3 {
        seat: v1::seat(&a.seat),
        choice: &a.choice,
        args: args(&a.args),
        by: resolver(&a.by),
    }
}

fn window(s: &PendingStep) -> WindowV3<'_> {
    WindowV3 {
        prompt_id: s.prompt_id,
        answering: answering(s.answering),
        blocks: s.blocks,
        args: s.args.iter().map(arg_spec).collect(),
        default_args: args(&s.default_args),
        secret: s
            .secret
            .iter()
            .map(|(k, v)| (k.as_str(), v1::step_value(v)))
            .collect(),
        answers: s.answers.iter().map(answer).collect(),
    }
}

/// The projection's JSON: projection 2's object with the windows after its other fields.
pub fn projection(state: &dyn StateView) -> Vec<u8> {
    let encounter = state.encounter();
    let windows: Vec<WindowV3<'_>> = encounter
        .pending
        .iter()
        .chain(&encounter.deferred)
        .map(window)
        .collect();
    let mut bytes = v2::projection(state);
    // Projection 2 is one JSON object: its closing brace is its last byte.
    bytes.pop();
    bytes.extend_from_slice(b",\"windows\":");
    // Plain data with string keys: serializing to a Vec cannot fail.
    bytes.extend(serde_json::to_vec(&windows).unwrap_or_default());
    bytes.extend_from_slice(b",\"turns\":");
    bytes.extend(serde_json::to_vec(&turns(&encounter.turns)).unwrap_or_default());
    bytes.push(b'}');
    bytes
}

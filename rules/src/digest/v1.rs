//! Projection 1, frozen: the bytes every log written before projections had versions carries.
//!
//! Each struct here mirrors what the domain types looked like when this projection was made,
//! and is filled field by field, so that the domain types can grow (a new field, a renamed
//! variant) without changing a single byte of this projection. Never edit it: a projection that
//! needs more of the state is a new module. The sheet enters as the document the log carried
//! (see `sheet.rs`), not through a system's sheet type. Later projections build on these
//! structs (they are frozen too), adding what they need beside them.

use std::collections::BTreeMap;

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use serde_json::Value;

use crate::decision::{PendingStep, StepValue};
use crate::dice::{DieRoll, Primitive, Roll};
use crate::grid::Cell;
use crate::ids::Seat;
use crate::sheet::Sheet;
use crate::state::{Combatant, Encounter, Kind, StateView, Status};

/// What the hash starts with, before the projection's JSON.
pub const TAG: &[u8] = b"tablehold-digest-v1\n";

#[derive(Serialize)]
struct Projection<'a> {
    combatants: Vec<CombatantV1<'a>>,
    encounter: EncounterV1<'a>,
}

#[derive(Serialize)]
pub(super) struct CombatantV1<'a> {
    id: &'a str,
    name: &'a str,
    kind: &'static str,
    owner: Option<&'a str>,
    side: &'a str,
    position: Option<CellV1>,
    sheet: SheetV1<'a>,
    resources: &'a BTreeMap<String, i64>,
    statuses: BTreeMap<&'a str, StatusV1<'a>>,
    turn: &'a BTreeMap<String, i64>,
}

#[derive(Serialize)]
struct CellV1 {
    x: i32,
    y: i32,
}

#[derive(Serialize)]
struct StatusV1<'a> {
    source: &'a str,
    magnitude: i64,
    rounds_left: Option<u32>,
}

/// `{"system": ..., <the document's fields in logged order>}`.
struct SheetV1<'a>(&'a Sheet);

impl Serialize for SheetV1<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let document = self.0.document();
        let mut map = serializer.serialize_map(Some(document.len() + 1))?;
        map.serialize_entry("system", self.0.system())?;
        for (key, value) in document {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

#[derive(Serialize)]
pub(super) struct EncounterV1<'a> {
    active: bool,
    round: u32,
    order: Vec<&'a str>,
    current: Option<&'a str>,
    pending: Vec<StepV1<'a>>,
    deferred: Vec<StepV1<'a>>,
    next_prompt: u64,
    values: &'a BTreeMap<String, i64>,
}

#[derive(Serialize)]
struct StepV1<'a> {
    prompt_id: u64,
    rule: &'a str,
    actor: Option<&'a str>,
    seats: Vec<Value>,
    question: &'a str,
    options: &'a [String],
    default: &'a str,
    timeout_ms: u64,
    trigger: Option<&'a str>,
    data: BTreeMap<&'a str, Value>,
}

#[derive(Serialize)]
struct RollV1<'a> {
    expr: &'a str,
    dice: Vec<DieV1>,
    terms: &'a [i64],
    total: i64,
}

#[derive(Serialize)]
struct DieV1 {
    term: usize,
    die: String,
    face: u32,
    value: i64,
    kept: bool,
    burst: bool,
    from_burst: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    counters: Option<[u64; 2]>,
}

fn kind(k: Kind) -> &'static str {
    match k {
        Kind::Pc => "pc",
        Kind::Npc => "npc",
        Kind::Object => "object",
    }
}

fn cell(c: &Cell) -> CellV1 {
    CellV1 { x: c.x, y: c.y }
}

pub(super) fn combatant(c: &Combatant) -> CombatantV1<'_> {
    CombatantV1 {
        id: c.id.as_str(),
        name: &c.name,
        kind: kind(c.kind),
        owner: c.owner.as_ref().map(|o| o.0.as_str()),
        side: &c.side,
        position: c.position.as_ref().map(cell),
        sheet: SheetV1(&c.sheet),
        resources: &c.resources,
        statuses: c
            .statuses
            .iter()
            .map(|(k, s)| (k.as_str(), status(s)))
            .collect(),
        turn: &c.turn,
    }
}

fn status(s: &Status) -> StatusV1<'_> {
    StatusV1 {
        source: &s.source,
        magnitude: s.magnitude,
        rounds_left: s.rounds_left,
    }
}

pub(super) fn seat(s: &Seat) -> Value {
    match s {
        Seat::Gm => Value::from("gm"),
        Seat::Player(id) => serde_json::json!({ "player": id.0 }),
        Seat::Spectator(id) => serde_json::json!({ "spectator": id.0 }),
    }
}

fn die(p: Primitive) -> String {
    format!("d{}", p.sides())
}

fn roll(r: &Roll) -> RollV1<'_> {
    RollV1 {
        expr: &r.expr,
        dice: r.dice.iter().map(die_roll).collect(),
        terms: &r.terms,
        total: r.total,
    }
}

fn die_roll(d: &DieRoll) -> DieV1 {
    DieV1 {
        term: d.term,
        die: die(d.die),
        face: d.face,
        value: d.value,
        kept: d.kept,
        burst: d.burst,
        from_burst: d.from_burst,
        counters: d.counters,
    }
}

pub(super) fn step_value(v: &StepValue) -> Value {
    let (tag, value) = match v {
        StepValue::Int(i) => ("int", Value::from(*i)),
        StepValue::Flag(b) => ("flag", Value::from(*b)),
        StepValue::Text(s) => ("text", Value::from(s.as_str())),
        StepValue::Entity(e) => ("entity", Value::from(e.as_str())),
        StepValue::Entities(es) => (
            "entities",
            Value::Array(es.iter().map(|e| Value::from(e.as_str())).collect()),
        ),
        StepValue::Cell(c) => ("cell", serde_json::json!({ "x": c.x, "y": c.y })),
        // Plain data with string keys: this cannot fail.
        StepValue::Roll(r) => ("roll", serde_json::to_value(roll(r)).unwrap_or_default()),
    };
    let mut map = serde_json::Map::new();
    map.insert(tag.to_owned(), value);
    Value::Object(map)
}

fn step(s: &PendingStep) -> StepV1<'_> {
    StepV1 {
        prompt_id: s.prompt_id,
        rule: &s.rule,
        actor: s.actor.as_ref().map(|a| a.as_str()),
        seats: s.seats.iter().map(seat).collect(),
        question: &s.question,
        options: &s.options,
        default: &s.default,
        timeout_ms: s.timeout_ms,
        trigger: s.trigger.as_deref(),
        data: s
            .data
            .iter()
            .map(|(k, v)| (k.as_str(), step_value(v)))
            .collect(),
    }
}

pub(super) fn encounter(e: &Encounter) -> EncounterV1<'_> {
    EncounterV1 {
        active: e.active,
        round: e.round,
        order: e.order.iter().map(|id| id.as_str()).collect(),
        current: e.current.as_ref().map(|id| id.as_str()),
        pending: e.pending.iter().map(step).collect(),
        deferred: e.deferred.iter().map(step).collect(),
        next_prompt: e.next_prompt,
        values: &e.values,
    }
}

/// The projection's JSON: combatants in id order, then the encounter.
pub fn projection(state: &dyn StateView) -> Vec<u8> {
    let ids = state.combatant_ids();
    let combatants = ids
        .iter()
        .filter_map(|id| state.combatant(id))
        .map(combatant)
        .collect();
    let projection = Projection {
        combatants,
        encounter: encounter(state.encounter()),
    };
    // Plain data with string keys: serializing to a Vec cannot fail.
    serde_json::to_vec(&projection).unwrap_or_default()
}

//! Printing a [`Resolution`]: readable text (one line per fact) or one JSON object. Both show
//! only what the requesting seat may see: every event goes through `Event::view` first, so a
//! player's output never holds a hidden target number.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde::Serialize;
use tablehold_rules::grid::Cell;
use tablehold_rules::{
    Against, EntityId, Event, Fact, Modifier, Outcome, PendingStep, Seat, StateView, Status,
};

use super::resolve::{Resolution, StepKind};
use crate::lines;

/// A step's heading: what was done, by whom.
fn heading(what: &StepKind) -> String {
    match what {
        StepKind::Action {
            name,
            actor: Some(a),
        } => format!("{name} by {a}"),
        StepKind::Action { name, actor: None } => name.clone(),
        StepKind::Answer {
            prompt_id,
            seat,
            choice,
            args,
        } => {
            let mut given: Vec<String> = Vec::new();
            if !choice.is_empty() {
                given.push(format!("`{choice}`"));
            }
            given.extend(args.0.iter().map(|(k, v)| format!("{k}={}", arg_text(v))));
            format!(
                "answer {} to prompt {prompt_id} from {seat}",
                given.join(" ")
            )
        }
        StepKind::Timeout { prompt_id } => format!("prompt {prompt_id} times out"),
    }
}

fn arg_text(v: &tablehold_rules::ArgValue) -> String {
    match v {
        tablehold_rules::ArgValue::Flag(b) => b.to_string(),
        tablehold_rules::ArgValue::Int(i) => i.to_string(),
        tablehold_rules::ArgValue::Cell(c) => lines::cell(*c),
        tablehold_rules::ArgValue::Text(t) => t.clone(),
    }
}

/// What one step changed on one combatant, as the requesting seat may see it.
#[derive(Serialize, Default)]
struct Change {
    /// Resource: [before, after]; none for a seat that may not see the combatant's numbers.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    resources: BTreeMap<String, [i64; 2]>,
    /// What it has used of its turn (the system's turn counters): [before, after].
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    turn: BTreeMap<String, [i64; 2]>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    statuses_added: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    statuses_removed: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moved: Option<[Option<Cell>; 2]>,
}

impl Change {
    fn is_empty(&self) -> bool {
        self.resources.is_empty()
            && self.turn.is_empty()
            && self.statuses_added.is_empty()
            && self.statuses_removed.is_empty()
            && self.moved.is_none()
    }
}

/// Every combatant the step changed, and how, in id order. An NPC's numbers are left out for
/// a seat that is not the GM's, as its events leave them out.
fn changes(res: &Resolution, step: &super::resolve::Step) -> BTreeMap<EntityId, Change> {
    let mut ids: BTreeSet<&EntityId> = step.before.keys().collect();
    ids.extend(step.after.keys());
    let mut out = BTreeMap::new();
    for id in ids {
        let (before, after) = (step.before.get(id), step.after.get(id));
        let mut change = Change::default();
        let numbers = res.seat.is_gm()
            || !before
                .or(after)
                .is_some_and(tablehold_rules::redact::gm_only_numbers);
        let get = |c: Option<&tablehold_rules::Combatant>, k: &str| c.map_or(0, |c| c.resource(k));
        if numbers {
            let keys: BTreeSet<&String> = before
                .iter()
                .chain(after.iter())
                .flat_map(|c| c.resources.keys())
                .collect();
            for k in keys {
                let (b, a) = (get(before, k), get(after, k));
                if b != a {
                    change.resources.insert(k.clone(), [b, a]);
                }
            }
            let counter = |c: Option<&tablehold_rules::Combatant>, k: &str| {
                c.map_or(0, |c| c.turn_counter(k))
            };
            let keys: BTreeSet<&String> = before
                .iter()
                .chain(after.iter())
                .flat_map(|c| c.turn.keys())
                .collect();
            for k in keys {
                let (b, a) = (counter(before, k), counter(after, k));
                if b != a {
                    change.turn.insert(k.clone(), [b, a]);
                }
            }
        }
        let statuses = |c: Option<&tablehold_rules::Combatant>| -> BTreeSet<String> {
            c.map(|c| c.statuses.keys().cloned().collect())
                .unwrap_or_default()
        };
        let (sb, sa) = (statuses(before), statuses(after));
        change.statuses_added = sa.difference(&sb).cloned().collect();
        change.statuses_removed = sb.difference(&sa).cloned().collect();
        let (pb, pa) = (
            before.and_then(|c| c.position),
            after.and_then(|c| c.position),
        );
        if pb != pa {
            change.moved = Some([pb, pa]);
        }
        if !change.is_empty() {
            out.insert(id.clone(), change);
        }
    }
    out
}

fn change_text(id: &EntityId, c: &Change) -> String {
    let mut parts: Vec<String> = c
        .resources
        .iter()
        .map(|(k, [b, a])| format!("{k} {b} → {a}"))
        .collect();
    parts.extend(
        c.turn
            .iter()
            .map(|(k, [b, a])| format!("{k} (this turn) {b} → {a}")),
    );
    parts.extend(c.statuses_added.iter().map(|s| format!("+{s}")));
    parts.extend(c.statuses_removed.iter().map(|s| format!("-{s}")));
    if let Some([b, a]) = &c.moved {
        let at = |p: &Option<Cell>| p.map_or("off the grid".to_owned(), lines::cell);
        parts.push(format!("moved {} → {}", at(b), at(a)));
    }
    format!("{id}: {}", parts.join(", "))
}

/// The readable report.
pub fn text(res: &Resolution) -> String {
    let mut out = String::new();
    for step in &res.steps {
        let _ = writeln!(out, "{} (seen by {}):", heading(&step.what), res.seat);
        if step.events.is_empty() {
            let _ = writeln!(out, "  nothing happens");
        }
        for event in &step.events {
            match event.view(&res.seat) {
                Some(seen) => {
                    let measure = Some(lines::Measure {
                        diagonal: res.state.options().diagonal(),
                        grid: res.system.grid(),
                    });
                    for line in lines::event_lines(&seen, &res.seat, measure) {
                        let _ = writeln!(out, "  {line}");
                    }
                }
                None => {
                    let _ = writeln!(out, "  (an event this seat may not see)");
                }
            }
        }
        if res.stepwise {
            for (id, change) in changes(res, step) {
                let _ = writeln!(out, "  changed: {}", change_text(&id, &change));
            }
        }
    }
    let touched = touched(res);
    if !touched.is_empty() {
        let _ = writeln!(out, "after:");
        for id in &touched {
            if let Some(c) = res.state.combatants.get(id) {
                let resources: Vec<String> = c
                    .resources
                    .iter()
                    .map(|(k, v)| format!("{k} {v}"))
                    .collect();
                let mut line = format!("  {id}: {}", resources.join(", "));
                if !c.statuses.is_empty() {
                    let statuses: Vec<String> = c
                        .statuses
                        .iter()
                        .map(|(k, s)| lines::status_text(k, s))
                        .collect();
                    let _ = write!(line, "; {}", statuses.join(", "));
                }
                if let Some(p) = c.position {
                    let _ = write!(line, "; at {}", lines::cell(p));
                }
                let _ = writeln!(out, "{line}");
            }
        }
    }
    let dice: Vec<String> = res
        .dice
        .iter()
        .map(|(die, face)| format!("{die}={face}"))
        .collect();
    let _ = writeln!(
        out,
        "dice: {}",
        if dice.is_empty() {
            "none".to_owned()
        } else {
            dice.join(", ")
        }
    );
    for p in res.open_prompts() {
        let _ = writeln!(out, "waiting: {}", lines::prompt_text(p));
    }
    if res.state.encounter().active {
        let _ = writeln!(
            out,
            "turn: round {}, {}",
            res.state.encounter().round,
            tablehold_rules::toolkit::turns::describe(&res.state)
        );
    }
    out
}

/// Every combatant a visible fact names as acting or changing, in id order.
fn touched(res: &Resolution) -> BTreeSet<EntityId> {
    let mut ids = BTreeSet::new();
    for event in res
        .steps
        .iter()
        .flat_map(|s| &s.events)
        .filter_map(|e| e.view(&res.seat))
    {
        for fact in event.facts() {
            match fact {
                Fact::Rolled { by: Some(e), .. }
                | Fact::DamageResolved { target: e, .. }
                | Fact::Picked { picked: e, .. }
                | Fact::CombatantRemoved { entity: e }
                | Fact::ResourceSet { entity: e, .. }
                | Fact::StatusSet { entity: e, .. }
                | Fact::TurnCounterSet { entity: e, .. }
                | Fact::Moved { entity: e, .. } => {
                    ids.insert(e.clone());
                }
                Fact::Checked(c) => {
                    if let Some(a) = &c.actor {
                        ids.insert(a.clone());
                    }
                }
                Fact::CombatantAdded { combatant, .. } => {
                    ids.insert(combatant.id.clone());
                }
                _ => {}
            }
        }
    }
    ids
}

#[derive(Serialize)]
struct JsonReport<'a> {
    system: &'a str,
    seat: &'a Seat,
    events: Vec<Event>,
    dice: Vec<JsonDie>,
    checks: Vec<JsonCheck>,
    #[serde(rename = "final")]
    final_: BTreeMap<String, JsonFinal<'a>>,
    open_prompt: Option<&'a PendingStep>,
    /// Every window still open, oldest first (`open_prompt` is the newest).
    open_prompts: &'a [PendingStep],
    /// Each step: what it was and what it changed, combatant by combatant.
    steps: Vec<JsonStep>,
    /// Who may act when the request ends, in words; absent outside an encounter.
    #[serde(skip_serializing_if = "Option::is_none")]
    turn: Option<String>,
    unused_faces: &'a [u32],
}

#[derive(Serialize)]
struct JsonStep {
    step: String,
    changed: BTreeMap<String, Change>,
}

#[derive(Serialize)]
struct JsonDie {
    die: String,
    face: u32,
}

#[derive(Serialize)]
struct JsonCheck {
    actor: Option<String>,
    label: String,
    /// The d20 (or single die) face, when the roll was one die.
    natural: Option<u32>,
    modifiers: Vec<Modifier>,
    total: i64,
    against: Against,
    /// The hidden target number, only when this seat may see it.
    #[serde(skip_serializing_if = "Option::is_none")]
    hidden_tn: Option<i64>,
    outcome: Outcome,
    overridden_by: Option<String>,
}

#[derive(Serialize)]
struct JsonFinal<'a> {
    resources: &'a BTreeMap<String, i64>,
    statuses: &'a BTreeMap<String, Status>,
    position: Option<Cell>,
}

/// The JSON report, pretty-printed.
pub fn json(res: &Resolution) -> Result<String, serde_json::Error> {
    let events: Vec<Event> = res
        .steps
        .iter()
        .flat_map(|s| &s.events)
        .filter_map(|e| e.view(&res.seat))
        .collect();
    let mut checks = Vec::new();
    for event in &events {
        for fact in event.facts() {
            if let Fact::Checked(c) = fact {
                let hidden_tn = event.facts().find_map(|f| match f {
                    Fact::HiddenTarget { label, target, .. } if *label == c.label => Some(*target),
                    _ => None,
                });
                checks.push(JsonCheck {
                    actor: c.actor.as_ref().map(ToString::to_string),
                    label: c.label.clone(),
                    natural: c.roll.natural(),
                    modifiers: c.modifiers.clone(),
                    total: c.total,
                    against: c.against.clone(),
                    hidden_tn,
                    outcome: c.outcome,
                    overridden_by: c.overridden_by.clone(),
                });
            }
        }
    }
    let final_ = touched(res)
        .into_iter()
        .filter_map(|id| {
            let c = res.state.combatants.get(&id)?;
            Some((
                id.to_string(),
                JsonFinal {
                    resources: &c.resources,
                    statuses: &c.statuses,
                    position: c.position,
                },
            ))
        })
        .collect();
    let report = JsonReport {
        system: res.system.id(),
        seat: &res.seat,
        dice: res
            .dice
            .iter()
            .map(|(die, face)| JsonDie {
                die: die.to_string(),
                face: *face,
            })
            .collect(),
        events,
        checks,
        final_,
        open_prompt: res.open_prompt(),
        open_prompts: res.open_prompts(),
        steps: res
            .steps
            .iter()
            .map(|step| JsonStep {
                step: heading(&step.what),
                changed: changes(res, step)
                    .into_iter()
                    .map(|(id, c)| (id.to_string(), c))
                    .collect(),
            })
            .collect(),
        turn: res
            .state
            .encounter()
            .active
            .then(|| tablehold_rules::toolkit::turns::describe(&res.state)),
        unused_faces: &res.unused,
    };
    serde_json::to_string_pretty(&report)
}

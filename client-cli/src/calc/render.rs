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

/// The readable report.
pub fn text(res: &Resolution) -> String {
    let mut out = String::new();
    for step in &res.steps {
        let heading = match &step.what {
            StepKind::Action {
                name,
                actor: Some(a),
            } => format!("{name} by {a}"),
            StepKind::Action { name, actor: None } => name.clone(),
            StepKind::Answer {
                prompt_id,
                seat,
                choice,
            } => format!("answer `{choice}` to prompt {prompt_id} from {seat}"),
        };
        let _ = writeln!(out, "{heading} (seen by {}):", res.seat);
        if step.events.is_empty() {
            let _ = writeln!(out, "  nothing happens");
        }
        for event in &step.events {
            match event.view(&res.seat) {
                Some(seen) => {
                    let measure = Some(lines::Measure {
                        diagonal: res.state.options().diagonal(),
                        grid: res.system.system().grid(),
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
    if let Some(p) = res.open_prompt() {
        let _ = writeln!(out, "waiting: {}", lines::prompt_text(p));
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
    unused_faces: &'a [u32],
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
        system: res.system.as_str(),
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
        unused_faces: &res.unused,
    };
    serde_json::to_string_pretty(&report)
}

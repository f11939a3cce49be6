//! Printing a [`Resolution`]: readable text (one line per fact) or one JSON object. Both show
//! only what the requesting seat may see: every event goes through `Event::view` first, so a
//! player's output never holds a hidden target number.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde::Serialize;
use tablehold_rules::dice::Roll;
use tablehold_rules::grid::{Cell, distance};
use tablehold_rules::{
    Against, CheckRecord, EntityId, Event, Fact, Modifier, Outcome, PendingStep, Resolver, Seat,
    StateView, Status,
};

use super::resolve::{Resolution, StepKind};

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
                    for line in event_lines(res, &seen) {
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
                    let statuses: Vec<String> =
                        c.statuses.iter().map(|(k, s)| status_text(k, s)).collect();
                    let _ = write!(line, "; {}", statuses.join(", "));
                }
                if let Some(p) = c.position {
                    let _ = write!(line, "; at {}", cell(p));
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
        let _ = writeln!(out, "waiting: {}", prompt_text(p));
    }
    out
}

/// Lines for one event as the seat sees it. A GM-only `HiddenTarget` is folded into the check
/// it belongs to.
fn event_lines(res: &Resolution, event: &Event) -> Vec<String> {
    let hidden: BTreeMap<&str, i64> = event
        .facts()
        .filter_map(|f| match f {
            Fact::HiddenTarget { label, target } => Some((label.as_str(), *target)),
            _ => None,
        })
        .collect();
    let checked: BTreeSet<&str> = event
        .facts()
        .filter_map(|f| match f {
            Fact::Checked(c) => Some(c.label.as_str()),
            _ => None,
        })
        .collect();
    event
        .facts()
        .filter_map(|fact| match fact {
            Fact::HiddenTarget { label, .. } if checked.contains(label.as_str()) => None,
            Fact::Checked(c) => Some(check_text(
                c,
                &res.seat,
                hidden.get(c.label.as_str()).copied(),
            )),
            other => Some(fact_text(res, other)),
        })
        .collect()
}

fn check_text(c: &CheckRecord, seat: &Seat, hidden_tn: Option<i64>) -> String {
    let who = c
        .actor
        .as_ref()
        .map(|a| format!("{a}: "))
        .unwrap_or_default();
    let mods: String = c
        .modifiers
        .iter()
        .map(|m| format!(" +{} {}", m.label, m.value))
        .collect();
    let against = match (&c.against, hidden_tn) {
        (Against::Target(tn), _) => format!("TN {tn}"),
        (Against::Exceed(n), _) => format!("more than {n}"),
        (Against::Nothing, _) => "nothing (an open roll)".to_owned(),
        (Against::Hidden, Some(tn)) => format!("TN {tn} (hidden from players)"),
        // The GM sees every part: a hidden check without its target has none to show.
        (Against::Hidden, None) if seat.is_gm() => "no TN".to_owned(),
        (Against::Hidden, None) => "hidden TN".to_owned(),
        (Against::Opposed { entity, total }, _) => format!("{entity}'s {total}"),
    };
    let why = c
        .overridden_by
        .as_ref()
        .map(|w| format!(" ({w})"))
        .unwrap_or_default();
    format!(
        "{who}{} {}{mods} = {} vs {against} → {}{why}",
        c.label,
        roll_text(&c.roll),
        c.total,
        outcome(c.outcome)
    )
}

fn outcome(o: Outcome) -> &'static str {
    match o {
        Outcome::Success => "success",
        Outcome::Failure => "failure",
        Outcome::Unjudged => "total",
    }
}

/// `1d20=12`, `2d6=5+4`.
fn roll_text(r: &Roll) -> String {
    let faces: Vec<String> = r
        .dice
        .iter()
        .map(|d| {
            if d.kept {
                d.value.to_string()
            } else {
                format!("({})", d.value)
            }
        })
        .collect();
    if faces.is_empty() {
        r.expr.clone()
    } else {
        format!("{}={}", r.expr, faces.join("+"))
    }
}

fn cell(c: Cell) -> String {
    format!("({}, {})", c.x, c.y)
}

fn status_text(name: &str, s: &Status) -> String {
    let mut t = name.to_owned();
    if s.magnitude != 0 {
        let _ = write!(t, " {}", s.magnitude);
    }
    if let Some(r) = s.rounds_left {
        let _ = write!(t, " ({r} rounds left)");
    }
    t
}

fn seats_text(seats: &[Seat]) -> String {
    if seats.is_empty() {
        "the GM".to_owned()
    } else {
        seats
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn prompt_text(p: &PendingStep) -> String {
    format!(
        "prompt {} asks {}: {} [{}] (default {})",
        p.prompt_id,
        seats_text(&p.seats),
        p.question,
        p.options.join(", "),
        p.default
    )
}

/// `dice 4, + TOG +2 = 6, armour 1 (minimum 1) -1 = 5`: each step with the running total.
fn damage_text(steps: &[Modifier]) -> String {
    let mut running = 0i64;
    steps
        .iter()
        .enumerate()
        .map(|(i, m)| {
            running = running.saturating_add(m.value);
            if i == 0 {
                format!("{} {}", m.label, m.value)
            } else {
                format!("{} {:+} = {running}", m.label, m.value)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn fact_text(res: &Resolution, fact: &Fact) -> String {
    match fact {
        Fact::Rolled { by, purpose, roll } => {
            let who = by
                .as_ref()
                .map(|b| format!("{b} rolls"))
                .unwrap_or_else(|| "rolled".to_owned());
            format!("{who} {purpose}: {} → {}", roll_text(roll), roll.total)
        }
        Fact::Checked(c) => check_text(c, &res.seat, None),
        Fact::HiddenTarget { label, target } => format!("hidden TN of {label}: {target}"),
        Fact::DamageResolved {
            target,
            steps,
            amount,
        } if steps.is_empty() => format!("{target} takes {amount} damage"),
        Fact::DamageResolved {
            target,
            steps,
            amount,
        } => {
            format!("{target} takes {amount} damage: {}", damage_text(steps))
        }
        Fact::Picked {
            purpose,
            candidates,
            face,
            picked,
        } => {
            let c: Vec<&str> = candidates.iter().map(|c| c.as_str()).collect();
            format!(
                "{purpose}: face {face} picks {picked} from [{}]",
                c.join(", ")
            )
        }
        Fact::Noted { text } => format!("note: {text}"),
        Fact::Ruled { text } => format!("ruling: {text}"),
        Fact::CombatantAdded { combatant } => format!("{} joins the table", combatant.id),
        Fact::CombatantRemoved { entity } => format!("{entity} leaves the table"),
        Fact::ResourceSet {
            entity,
            resource,
            from,
            to,
        } => format!("{entity} {resource} {from} → {to}"),
        Fact::StatusSet {
            entity,
            status,
            from,
            to,
        } => match (from, to) {
            (_, Some(s)) if from.is_none() => {
                format!("{entity} is now {} ({})", status_text(status, s), s.source)
            }
            (Some(_), None) => format!("{entity} is no longer {status}"),
            (_, Some(s)) => format!(
                "{entity} is now {} ({}), changed",
                status_text(status, s),
                s.source
            ),
            (None, None) => format!("{entity}: {status} unchanged"),
        },
        Fact::TurnCounterSet {
            entity,
            counter,
            from,
            to,
        } => format!("{entity} {counter} (this turn) {from} → {to}"),
        Fact::Moved { entity, from, to } => match (from, to) {
            (Some(a), Some(b)) => {
                let m = distance(*a, *b, res.state.options().diagonal());
                format!("{entity} moves {} → {} ({m} m)", cell(*a), cell(*b))
            }
            (None, Some(b)) => format!("{entity} is placed at {}", cell(*b)),
            (_, None) => format!("{entity} leaves the grid"),
        },
        Fact::EncounterStarted => "the encounter starts".to_owned(),
        Fact::EncounterEnded => "the encounter ends".to_owned(),
        Fact::OrderSet { order } => {
            format!(
                "turn order: {}",
                order
                    .iter()
                    .map(|e| e.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
        Fact::EncounterValueSet { key, from, to } => format!("encounter {key} {from} → {to}"),
        Fact::RoundStarted { round } => format!("round {round} starts"),
        Fact::TurnStarted { entity: Some(e) } => format!("{e}'s turn starts"),
        Fact::TurnStarted { entity: None } => "no one's turn".to_owned(),
        Fact::DecisionRequested { step } => prompt_text(step),
        Fact::DecisionResolved {
            prompt_id,
            choice,
            by,
        } => {
            let by = match by {
                Resolver::Seat(s) => s.to_string(),
                Resolver::GmOverride => "the GM (overriding)".to_owned(),
                Resolver::TimedOut => "the timeout".to_owned(),
            };
            format!("prompt {prompt_id}: {by} chose `{choice}`")
        }
        Fact::StepDeferred { step } => format!(
            "deferred step {}: {} (resumes on {})",
            step.prompt_id,
            step.question,
            step.trigger.as_deref().unwrap_or("a GM ruling")
        ),
        Fact::DeferredResumed { prompt_id } => format!("deferred step {prompt_id} resumes"),
    }
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
                Fact::CombatantAdded { combatant } => {
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
                    Fact::HiddenTarget { label, target } if *label == c.label => Some(*target),
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

//! Readable lines for facts and events, shared by the calculator's report and the network
//! client's `log` and action output, so that one fact reads the same wherever it is shown.
//! It formats only what it is given: redaction happened before (`Event::view` offline, the
//! server's per-seat fan-out online).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use tablehold_rules::dice::Roll;
use tablehold_rules::grid::{Cell, Diagonal, distance};
use tablehold_rules::{
    Against, CheckRecord, Event, Fact, Modifier, Outcome, PendingStep, Resolver, Seat, Status,
};

/// Lines for one event as `seat` sees it. A GM-only `HiddenTarget` is folded into the check
/// it belongs to. `diagonal` measures moves; online the client does not know the table's
/// rule, so moves are shown without a distance.
pub fn event_lines(event: &Event, seat: &Seat, diagonal: Option<Diagonal>) -> Vec<String> {
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
            Fact::Checked(c) => Some(check_text(c, seat, hidden.get(c.label.as_str()).copied())),
            other => Some(fact_text(other, seat, diagonal)),
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

pub fn cell(c: Cell) -> String {
    format!("({}, {})", c.x, c.y)
}

pub fn status_text(name: &str, s: &Status) -> String {
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

pub fn prompt_text(p: &PendingStep) -> String {
    // A stand-in for a prompt that asks someone else: no options, and a question that says who.
    if p.options.is_empty() {
        return format!("prompt {}: {}", p.prompt_id, p.question);
    }
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

fn fact_text(fact: &Fact, seat: &Seat, diagonal: Option<Diagonal>) -> String {
    match fact {
        Fact::Rolled { by, purpose, roll } => {
            let who = by
                .as_ref()
                .map(|b| format!("{b} rolls"))
                .unwrap_or_else(|| "rolled".to_owned());
            format!("{who} {purpose}: {} → {}", roll_text(roll), roll.total)
        }
        Fact::Checked(c) => check_text(c, seat, None),
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
            ..
        } => {
            let c: Vec<&str> = candidates.iter().map(|c| c.as_str()).collect();
            format!(
                "{purpose}: face {face} picks {picked} from [{}]",
                c.join(", ")
            )
        }
        Fact::Noted { text } => format!("note: {text}"),
        Fact::Ruled { text } => format!("ruling: {text}"),
        Fact::CombatantAdded {
            combatant,
            replaces: false,
        } => format!("{} joins the table", combatant.id),
        Fact::CombatantAdded {
            combatant,
            replaces: true,
        } => format!("{}'s sheet is replaced", combatant.id),
        Fact::OwnerSet { entity, to, .. } => match to {
            Some(seat) => format!("{entity} is now played by {seat}"),
            None => format!("{entity} is now played by the GM"),
        },
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
            (Some(a), Some(b)) => match diagonal {
                Some(rule) => {
                    let m = distance(*a, *b, rule);
                    format!("{entity} moves {} → {} ({m} m)", cell(*a), cell(*b))
                }
                None => format!("{entity} moves {} → {}", cell(*a), cell(*b)),
            },
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
            if choice.is_empty() {
                format!("prompt {prompt_id}: decided by {by}")
            } else {
                format!("prompt {prompt_id}: {by} chose `{choice}`")
            }
        }
        Fact::StepDeferred { step } => format!(
            "deferred step {}: {} (resumes on {})",
            step.prompt_id,
            step.question,
            step.trigger.as_deref().unwrap_or("a GM ruling")
        ),
        Fact::DeferredResumed { prompt_id } => format!("deferred step {prompt_id} resumes"),
        Fact::DiceDrawn { epoch, spans } => format!(
            "dice: epoch {epoch}, counters {}",
            spans
                .iter()
                .map(|[a, b]| if b.saturating_sub(*a) == 1 {
                    a.to_string()
                } else {
                    format!("{a}..{b}")
                })
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Fact::EpochOpened {
            epoch,
            purpose,
            commitment,
            test_seed,
        } => format!(
            "dice epoch {epoch} ({purpose}) opens; seed commitment {}{}",
            short(commitment),
            if *test_seed {
                " — INSECURE TEST SEED"
            } else {
                ""
            }
        ),
        Fact::EntropyCommitted {
            epoch,
            seat,
            commitment,
        } => format!(
            "{seat} commits entropy to epoch {epoch}: {}",
            short(commitment)
        ),
        Fact::CommitmentsClosed { epoch } => {
            format!("epoch {epoch}: commitments closed, reveals open")
        }
        Fact::EntropyRevealed {
            epoch,
            seat,
            entropy,
        } => format!(
            "{seat} reveals entropy for epoch {epoch}: {}",
            short(entropy)
        ),
        Fact::EntropyWithheld {
            epoch,
            seat,
            replacement,
        } => format!(
            "{seat} did not reveal for epoch {epoch}; stand-in {}",
            short(replacement)
        ),
        Fact::EpochSealed { epoch } => format!("epoch {epoch} sealed: dice may roll"),
        Fact::EpochRevealed { epoch, seed } => {
            format!("epoch {epoch} ends; its seed is {seed}")
        }
        Fact::DigestRecorded {
            audience,
            digest,
            projection,
        } => {
            format!(
                "digest for {audience} (projection {projection}): {}",
                short(digest)
            )
        }
    }
}

/// The first 12 hex digits: enough to compare by eye.
fn short(hex: &str) -> &str {
    hex.get(..12).unwrap_or(hex)
}

//! Readable lines for facts and events, shared by the calculator's report and the network
//! client's `log` and action output, so that one fact reads the same wherever it is shown.
//! It formats only what it is given: redaction happened before (`Event::view` offline, the
//! server's per-seat fan-out online).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use tablehold_rules::dice::Roll;
use tablehold_rules::grid::{Cell, Diagonal, GridSpec, distance};
use tablehold_rules::{
    Account, Against, CheckRecord, Effect, EntityId, Event, Fact, Modifier, Outcome, PendingStep,
    Resolver, RollTold, Seat, Status,
};

/// How to measure a move: the table's diagonal rule and the system's grid. Offline (the
/// calculator) the client has both; online it knows neither, and shows moves without a length.
#[derive(Debug, Clone, Copy)]
pub struct Measure {
    pub diagonal: Diagonal,
    pub grid: GridSpec,
}

/// Lines for one event as `seat` sees it. A GM-only `HiddenTarget` is folded into the check
/// it belongs to.
pub fn event_lines(event: &Event, seat: &Seat, measure: Option<Measure>) -> Vec<String> {
    let hidden: BTreeMap<&str, i64> = event
        .facts()
        .filter_map(|f| match f {
            Fact::HiddenTarget { label, target, .. } => Some((label.as_str(), *target)),
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
    // An event that tells itself (see `tablehold_rules::account`) reads as its account; the
    // checks and damage it tells are not repeated.
    // A stand-in note (what the table hears of an NPC's damage) is told by the account too.
    let told = event.facts().any(|f| matches!(f, Fact::Told(_)));
    event
        .parts
        .iter()
        .filter(|p| !(told && p.audience.is_stand_in() && matches!(p.fact, Fact::Noted { .. })))
        .map(|p| &p.fact)
        .filter_map(|fact| match fact {
            Fact::Checked(_)
            | Fact::HiddenTarget { .. }
            | Fact::DamageResolved { .. }
            | Fact::ResourceSet { .. }
                if told =>
            {
                None
            }
            Fact::HiddenTarget { label, .. } if checked.contains(label.as_str()) => None,
            Fact::Checked(c) => Some(check_text(c, seat, hidden.get(c.label.as_str()).copied())),
            other => Some(fact_text(other, seat, measure)),
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
        (Against::Target(tn), _) => format!("target {tn}"),
        (Against::Exceed(n), _) => format!("more than {n}"),
        (Against::Nothing, _) => "nothing (an open roll)".to_owned(),
        (Against::Hidden, Some(tn)) => format!("target {tn} (hidden from players)"),
        // The GM sees every part: a hidden check without its target has none to show.
        (Against::Hidden, None) if seat.is_gm() => "no target".to_owned(),
        (Against::Hidden, None) => "hidden target".to_owned(),
        (Against::Opposed { entity, total }, _) => format!("{entity}'s {total}"),
        (Against::AtMost(n), _) => format!("{n} or under"),
        (Against::Below(n), _) => format!("under {n}"),
        (Against::Pool { name, total }, _) => format!("{name} {total}"),
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

/// The facts shown only with `--verbose` (`watch`, `replay --events`) and left out of what an
/// action prints: the fair dice's machinery (draws' counters, digests, the dice epochs' life),
/// which proves the dice fair, and a turn's own counters, which a system keeps for itself.
/// They tell no story.
pub fn is_machinery(fact: &Fact) -> bool {
    matches!(
        fact,
        Fact::DiceDrawn { .. }
            | Fact::TurnCounterSet { .. }
            | Fact::DigestRecorded { .. }
            | Fact::EpochOpened { .. }
            | Fact::EntropyCommitted { .. }
            | Fact::CommitmentsClosed { .. }
            | Fact::EntropyRevealed { .. }
            | Fact::EpochSealed { .. }
            | Fact::EpochRevealed { .. }
            | Fact::DiceOpened { .. }
    )
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

/// `goblin-2 shoots mara with a crossbow: evade 8+2=10 vs hidden TN, hit`, and for an event that
/// changes something, `; 3 - 1 armour = 2 damage (Condition 12 → 10)`: one sentence with the
/// numbers this seat was given, in the system's words.
pub fn account_text(a: &Account) -> String {
    let mut out = String::new();
    if let Some(actor) = &a.actor {
        out.push_str(actor.as_str());
        if !a.verb.is_empty() {
            let _ = write!(out, " {}", a.verb);
        }
        if let Some(target) = &a.target {
            let _ = write!(out, " {target}");
        }
        if let Some(instrument) = &a.instrument {
            let _ = write!(out, " with {}", with_article(instrument));
        }
    }
    let mut clauses = Vec::new();
    if let Some(r) = &a.roll {
        clauses.push(roll_told_text(r, a.target.as_ref()));
    }
    // With no actor, each effect names whom it befell; an actor's change to itself does not.
    let named = match &a.actor {
        Some(actor) => Some(a.target.as_ref().unwrap_or(actor)),
        None => None,
    };
    for e in &a.effects {
        clauses.push(effect_text(e, named));
    }
    if !clauses.is_empty() {
        // `aune rolls PER check ...` but `aune attacks mara with a knife: COR attack ...` and
        // `pirate tries to overcome the hinder: endurance ...`: only a plain roll runs on.
        let bare =
            a.target.is_none() && a.instrument.is_none() && a.roll.is_some() && a.verb == "rolls";
        if !out.is_empty() {
            out.push_str(if bare { " " } else { ": " });
        }
        out.push_str(&clauses.join("; "));
    }
    for b in &a.budget {
        let left: Vec<String> = b
            .left
            .iter()
            .map(|m| format!("{} {}", m.value, m.label))
            .collect();
        let _ = write!(out, " ({} has {} left)", b.entity, left.join(", "));
    }
    out
}

/// Body parts and paired things a creature fights with, said in the plural.
const PLURAL_WEAPONS: [&str; 11] = [
    "hands", "fists", "claws", "teeth", "jaws", "talons", "horns", "tusks", "fangs", "knuckles",
    "feet",
];

/// `a crossbow`, `an axe`: names read as common nouns in a sentence. A plural takes none
/// (`bare hands`, `teeth`, `darts`, `twin daggers`): its head noun (before any `of`) is one of
/// the irregular ones a creature fights with, or ends in a single `s` (not `ss`, `us`, `is`:
/// `a cutlass`, `a kris`, `a sword of kings`).
fn with_article(name: &str) -> String {
    let lower = name.to_lowercase();
    let head = lower.split(" of ").next().unwrap_or(&lower);
    let last = head.split_whitespace().last().unwrap_or("");
    let plural = PLURAL_WEAPONS.contains(&last)
        || (last.ends_with('s')
            && !last.ends_with("ss")
            && !last.ends_with("us")
            && !last.ends_with("is"));
    if plural {
        return lower;
    }
    let article = match lower.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    };
    format!("{article} {lower}")
}

/// `evade 8+2=10 vs hidden TN, hit`; an NPC's roll for a player: `COR attack 1d20=7, miss`.
fn roll_told_text(r: &RollTold, target: Option<&EntityId>) -> String {
    let mut out = String::new();
    if let Some(by) = r.by.as_ref().filter(|b| Some(*b) != target) {
        let _ = write!(out, "{by}'s ");
    }
    out.push_str(&r.label);
    let faces: Vec<String> = r
        .roll
        .dice
        .iter()
        .filter(|d| d.kept)
        .map(|d| d.value.to_string())
        .collect();
    match r.total {
        Some(total) => {
            let mods: String = r
                .modifiers
                .iter()
                .map(|m| format!("{:+}", m.value))
                .collect();
            // A roll of no dice (the numbers alone make it) starts at its first number:
            // `10+4=14`, not `+10+4=14`.
            let mods = if faces.is_empty() {
                mods.strip_prefix('+').unwrap_or(&mods).to_owned()
            } else {
                mods
            };
            let _ = write!(out, " {}{mods}={total}", faces.join("+"));
        }
        None => {
            let _ = write!(out, " {}={}", r.roll.expr, faces.join("+"));
        }
    }
    if let Some(against) = &r.against {
        // Roll-under is said, since "vs 7" reads as roll-high; beating rather than reaching a
        // number is the usual reading of an opposed roll and goes unsaid, as before.
        let side = match (against.under, against.exceed) {
            (true, false) => " or under",
            (true, true) => " (under it)",
            _ => "",
        };
        match against.value {
            Some(v) if against.hidden => {
                let _ = write!(out, " vs {} {v}{side} (hidden from players)", against.name);
            }
            Some(v) => {
                let _ = write!(out, " vs {} {v}{side}", against.name);
            }
            None => {
                let _ = write!(out, " vs hidden {}{side}", against.name);
            }
        }
    }
    if !r.result.is_empty() {
        let _ = write!(out, ", {}", r.result);
    }
    if let Some(margin) = r.margin {
        let _ = write!(out, " by {}", margin.abs());
    }
    if let Some(because) = &r.because {
        let _ = write!(out, " ({because})");
    }
    out
}

/// `3 - 1 armour = 2 damage (Condition 12 → 10)`; for a seat that may not see the numbers,
/// `damage (goblin-2 is bloodied)`.
fn effect_text(e: &Effect, target: Option<&EntityId>) -> String {
    let mut out = String::new();
    if Some(&e.entity) != target {
        let _ = write!(out, "{} takes ", e.entity);
    }
    if let Some(amount) = e.amount {
        let mut steps = e.steps.iter();
        if let Some(first) = steps.next() {
            let _ = write!(out, "{}", first.value);
            for m in steps {
                let sign = if m.value < 0 { '-' } else { '+' };
                let label = m.label.trim_start_matches(['+', '-', ' ']);
                let _ = write!(out, " {sign} {} {label}", m.value.unsigned_abs());
            }
            let _ = write!(out, " = ");
        }
        let _ = write!(out, "{amount} ");
    }
    out.push_str(&e.what);
    match (&e.resource, e.before, e.after) {
        (Some(resource), Some(before), Some(after)) => {
            let _ = write!(out, " ({resource} {before} → {after}");
            if let Some(wound) = &e.wound {
                let _ = write!(out, ", {wound}");
            }
            out.push(')');
        }
        _ => {
            if let Some(wound) = &e.wound {
                let _ = write!(out, " ({} is {wound})", e.entity);
            }
        }
    }
    out
}

fn resolver_text(by: &Resolver) -> String {
    match by {
        Resolver::Seat(s) => s.to_string(),
        Resolver::GmOverride => "the GM (overriding)".to_owned(),
        Resolver::TimedOut => "the timeout".to_owned(),
    }
}

/// `` `push` `` or `points=3`, or both: what an answer gave.
fn answer_text(choice: &str, args: &tablehold_rules::Args) -> String {
    let mut words: Vec<String> = Vec::new();
    if !choice.is_empty() {
        words.push(format!("`{choice}`"));
    }
    words.extend(
        args.0
            .iter()
            .map(|(k, v)| format!("{k}={}", arg_value_text(v))),
    );
    words.join(" ")
}

fn arg_value_text(v: &tablehold_rules::ArgValue) -> String {
    use tablehold_rules::ArgValue;
    match v {
        ArgValue::Flag(b) => b.to_string(),
        ArgValue::Int(i) => i.to_string(),
        ArgValue::Cell(c) => format!("({}, {})", c.x, c.y),
        ArgValue::Text(t) => t.clone(),
    }
}

fn step_value_text(v: &tablehold_rules::StepValue) -> String {
    use tablehold_rules::StepValue;
    match v {
        StepValue::Int(i) => i.to_string(),
        StepValue::Flag(b) => b.to_string(),
        StepValue::Text(t) => t.clone(),
        StepValue::Entity(e) => e.to_string(),
        StepValue::Entities(es) => es.iter().map(|e| e.as_str()).collect::<Vec<_>>().join(", "),
        StepValue::Cell(c) => format!("({}, {})", c.x, c.y),
        StepValue::Roll(r) => format!("{} = {}", r.expr, r.total),
    }
}

fn fact_text(fact: &Fact, seat: &Seat, measure: Option<Measure>) -> String {
    match fact {
        Fact::Told(account) => account_text(account),
        Fact::Rolled { by, purpose, roll } => {
            let who = by
                .as_ref()
                .map(|b| format!("{b} rolls"))
                .unwrap_or_else(|| "rolled".to_owned());
            // The stand-in for an NPC's check says only "a roll" and how it went.
            match purpose.strip_prefix("a roll") {
                Some(rest) => {
                    let how = rest
                        .trim()
                        .strip_prefix("that ")
                        .map(|r| format!(" ({r})"))
                        .unwrap_or_default();
                    format!("{who} {} → {}{how}", roll_text(roll), roll.total)
                }
                None => format!("{who} {purpose}: {} → {}", roll_text(roll), roll.total),
            }
        }
        Fact::Checked(c) => check_text(c, seat, None),
        Fact::HiddenTarget { label, target, .. } => format!("hidden target of {label}: {target}"),
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
        Fact::TerrainSet { cell: at, to, .. } => format!(
            "terrain at {}: {}",
            cell(*at),
            to.clone().unwrap_or_default()
        ),
        Fact::Moved { entity, from, to } => match (from, to) {
            (Some(a), Some(b)) => match measure {
                Some(m) => {
                    let length = m.grid.length(distance(*a, *b, m.diagonal));
                    format!("{entity} moves {} → {} ({length})", cell(*a), cell(*b))
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
        Fact::TurnsOpened { shape, group, now } => {
            let names = now
                .iter()
                .map(|e| e.as_str())
                .collect::<Vec<_>>()
                .join(", ");
            match (shape, group) {
                (tablehold_rules::turns::TurnShape::Spotlight, _) => {
                    format!("the spotlight passes to {names}")
                }
                (_, Some(group)) => format!("{group}' turn: {names} may act, in any order"),
                (_, None) => format!("{names} may act"),
            }
        }
        Fact::Acted { entity } => format!("{entity} has acted"),
        Fact::HoldSet {
            entity,
            holding: true,
        } => format!("{entity} holds an action back"),
        Fact::HoldSet {
            entity,
            holding: false,
        } => format!("{entity} no longer holds an action"),
        Fact::DecisionRequested { step } => prompt_text(step),
        Fact::DecisionResolved {
            prompt_id,
            choice,
            by,
            args,
        } => {
            let by = resolver_text(by);
            if choice.is_empty() && args.is_empty() {
                format!("prompt {prompt_id}: decided by {by}")
            } else {
                format!(
                    "prompt {prompt_id}: {by} chose {}",
                    answer_text(choice, args)
                )
            }
        }
        Fact::DecisionAnswered { prompt_id, answer } => {
            let who = match &answer.by {
                Resolver::Seat(s) => s.to_string(),
                other => format!("{} for {}", resolver_text(other), answer.seat),
            };
            if answer.choice.is_empty() && answer.args.is_empty() {
                format!("prompt {prompt_id}: {who} has answered")
            } else {
                format!(
                    "prompt {prompt_id}: {who} answered {}",
                    answer_text(&answer.choice, &answer.args)
                )
            }
        }
        Fact::WindowSecret { prompt_id, secret } => format!(
            "prompt {prompt_id}, hidden from the players: {}",
            secret
                .iter()
                .map(|(k, v)| format!("{k} {}", step_value_text(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Fact::StepDeferred { step } => format!(
            "deferred step {}: {} (resumes on {})",
            step.prompt_id,
            step.question,
            step.trigger.as_deref().unwrap_or("a GM ruling")
        ),
        Fact::DeferredResumed { prompt_id } => format!("deferred step {prompt_id} resumes"),
        Fact::DiceDrawn { epoch, spans, .. } => format!(
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
        // Shown to everyone, never only with --verbose: each withholding is a choice between
        // two keys, and the table should see it happen (FAIRNESS.md, section 1).
        Fact::EntropyWithheld { epoch, seat, .. } => format!(
            "{seat} did not reveal its dice entropy in time: a value fixed by its commitment \
             stands in for epoch {epoch} (one of two keys), and {seat} adds none again this \
             session unless the GM readmits it"
        ),
        Fact::SeatReadmitted { seat } => format!(
            "the GM readmits {seat}: it adds its entropy to the dice again from the next epoch"
        ),
        Fact::EpochSealed { epoch } => format!("epoch {epoch} sealed: dice may roll"),
        Fact::EpochRevealed { epoch, seed } => {
            format!("epoch {epoch} ends; its seed is {seed}")
        }
        Fact::DiceOpened {
            epoch,
            seq,
            part,
            dice,
        } => {
            let shown = match tablehold_rules::hidden_dice::OpenedDice::parse(dice) {
                Ok(opened) => opened
                    .dice
                    .iter()
                    .map(|d| format!("{} {}", d.die, d.face))
                    .collect::<Vec<_>>()
                    .join(", "),
                Err(_) => "dice this client cannot read".to_owned(),
            };
            format!("epoch {epoch} opens the hidden dice of #{seq} part {part}: {shown}")
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

#[cfg(test)]
mod account_tests {
    use tablehold_rules::dice::{DiceExpr, ScriptedDice, roll};
    use tablehold_rules::{Budget, Compared};

    use super::*;

    fn shot(tn: Option<i64>, seen_by_gm: bool) -> Account {
        let expr: DiceExpr = "1d20".parse().expect("expr");
        Account {
            actor: Some("goblin-2".into()),
            verb: "shoots".into(),
            target: Some("mara".into()),
            instrument: seen_by_gm.then(|| "Crossbow".to_owned()),
            roll: Some(RollTold {
                by: Some("mara".into()),
                label: "evade".into(),
                roll: roll(&expr, &mut ScriptedDice::new(vec![8])).expect("roll"),
                modifiers: vec![Modifier::new("AGL", 2)],
                total: Some(10),
                against: Some(Compared {
                    name: "TN".into(),
                    value: tn,
                    hidden: true,
                    exceed: false,
                    under: false,
                }),
                result: "hit".into(),
                because: None,
                margin: None,
            }),
            effects: vec![Effect {
                entity: "mara".into(),
                what: "damage".into(),
                steps: if seen_by_gm {
                    vec![Modifier::new("dice", 3), Modifier::new("armour", -1)]
                } else {
                    vec![]
                },
                amount: Some(2),
                resource: Some("Condition".into()),
                before: Some(12),
                after: Some(10),
                wound: Some("hurt".into()),
            }],
            budget: if seen_by_gm {
                vec![Budget {
                    entity: "goblin-2".into(),
                    left: vec![Modifier::new("action", 0)],
                }]
            } else {
                vec![]
            },
        }
    }

    #[test]
    fn an_account_reads_as_one_sentence_with_the_numbers_the_seat_holds() {
        assert_eq!(
            account_text(&shot(None, false)),
            "goblin-2 shoots mara: evade 8+2=10 vs hidden TN, hit; 2 damage (Condition 12 → 10, hurt)"
        );
        assert_eq!(
            account_text(&shot(Some(12), true)),
            "goblin-2 shoots mara with a crossbow: evade 8+2=10 vs TN 12 (hidden from players), \
             hit; 3 - 1 armour = 2 damage (Condition 12 → 10, hurt) (goblin-2 has 0 action left)"
        );
        // An NPC's damage for a player: only its wound level.
        let npc_hit = Account {
            actor: Some("aune".into()),
            verb: "attacks".into(),
            target: Some("goblin-1".into()),
            instrument: Some("Knife".into()),
            effects: vec![Effect {
                entity: "goblin-1".into(),
                what: "damage".into(),
                steps: vec![],
                amount: None,
                resource: Some("Condition".into()),
                before: None,
                after: None,
                wound: Some("bloodied".into()),
            }],
            ..Account::default()
        };
        assert_eq!(
            account_text(&npc_hit),
            "aune attacks goblin-1 with a knife: damage (goblin-1 is bloodied)"
        );
        // A roll-under with the margin its system reads.
        let morale = Account {
            actor: Some("goblin-2".into()),
            verb: "rolls".into(),
            roll: Some(RollTold {
                by: None,
                label: "morale".into(),
                roll: roll(
                    &"1d10".parse().expect("expr"),
                    &mut ScriptedDice::new(vec![4]),
                )
                .expect("roll"),
                modifiers: vec![],
                total: Some(4),
                against: Some(Compared {
                    name: "Morale".into(),
                    value: Some(7),
                    hidden: false,
                    exceed: false,
                    under: true,
                }),
                result: "holds".into(),
                because: None,
                margin: Some(3),
            }),
            ..Account::default()
        };
        assert_eq!(
            account_text(&morale),
            "goblin-2 rolls morale 4=4 vs Morale 7 or under, holds by 3"
        );
        // Nobody's doing: whom it befell.
        let fall = Account {
            effects: npc_hit.effects.clone(),
            ..Account::default()
        };
        assert_eq!(
            account_text(&fall),
            "goblin-1 takes damage (goblin-1 is bloodied)"
        );
    }

    #[test]
    fn a_check_of_no_fresh_dice_starts_at_its_first_number() {
        // A critical answered with an impact die: the pool's best (10) was shown before, and
        // the check adds it and the rank (4) to no new die.
        let none: DiceExpr = "0".parse().expect("expr");
        let told = RollTold {
            by: None,
            label: "melee".into(),
            roll: roll(&none, &mut ScriptedDice::new(vec![])).expect("roll"),
            modifiers: vec![
                Modifier::new("best hero die, rolled before", 10),
                Modifier::new("melee", 4),
            ],
            total: Some(14),
            against: None,
            result: "succeeds".into(),
            because: None,
            margin: None,
        };
        assert_eq!(roll_told_text(&told, None), "melee 10+4=14, succeeds");
        // Only a plain roll runs on into its numbers; any other verb takes a colon.
        let said = |verb: &str| {
            account_text(&Account {
                actor: Some("aune".into()),
                verb: verb.into(),
                roll: Some(told.clone()),
                ..Account::default()
            })
        };
        assert_eq!(said("rolls"), "aune rolls melee 10+4=14, succeeds");
        assert_eq!(
            said("tries to overcome the hinder"),
            "aune tries to overcome the hinder: melee 10+4=14, succeeds"
        );
    }

    #[test]
    fn weapons_read_with_the_article_a_person_would_use() {
        for (name, said) in [
            ("crossbow", "a crossbow"),
            ("Axe", "an axe"),
            ("bare hands", "bare hands"),
            ("claws", "claws"),
            ("cutlass", "a cutlass"),
            ("kris", "a kris"),
            ("Staff of Ages", "a staff of ages"),
            ("sword of kings", "a sword of kings"),
            ("brass knuckles", "brass knuckles"),
            ("teeth", "teeth"),
            ("darts", "darts"),
            ("twin daggers", "twin daggers"),
        ] {
            assert_eq!(with_article(name), said);
        }
    }
}

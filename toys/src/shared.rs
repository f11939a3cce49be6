//! Pieces every test system shares.

use crate::prelude::*;

// Seat control is the core's toolkit: these systems hold only their rules.
pub use tablehold_rules::action::START_ENCOUNTER;
pub use tablehold_rules::toolkit::{
    acting, check_offered, controlled, deciders, start_encounter, start_spec,
};

pub fn arg(name: &str, kind: ArgKind, help: &str, choices: Vec<String>) -> ArgSpec {
    ArgSpec {
        choices,
        ..ArgSpec::new(name, kind, true, help)
    }
}

pub fn spec(name: &str, actor: Option<&EntityId>, help: &str, args: Vec<ArgSpec>) -> ActionSpec {
    ActionSpec {
        name: name.into(),
        help: help.into(),
        actor: actor.cloned(),
        args,
        costs: vec![],
    }
}

/// The expressions here are built from constants and sheet numbers; one a sheet makes too
/// large to parse is refused, never a panic.
pub fn expr(text: &str) -> Result<DiceExpr, DecideError> {
    DiceExpr::parse(text).map_err(|e| Refusal::Rule(format!("cannot roll `{text}`: {e}")).into())
}

pub fn verdict(success: bool) -> Outcome {
    if success {
        Outcome::Success
    } else {
        Outcome::Failure
    }
}

pub fn checked(
    actor: &EntityId,
    label: &str,
    roll: Roll,
    modifiers: Vec<Modifier>,
    against: Against,
) -> CheckRecord {
    let total = roll.total + modifiers.iter().map(|m| m.value).sum::<i64>();
    // The core's verdict; a caller whose system overrides it (a natural 10) says so.
    let judged = tablehold_rules::compare::judge(total, &against);
    CheckRecord {
        actor: Some(actor.clone()),
        label: label.into(),
        roll,
        modifiers,
        total,
        against,
        outcome: judged.outcome,
        overridden_by: None,
        margin: judged.margin,
    }
}

/// A step with nothing but its rule and actor; callers fill in what their shape needs.
pub fn step(rule: &str, actor: &EntityId) -> PendingStep {
    PendingStep {
        prompt_id: 0,
        rule: rule.into(),
        actor: Some(actor.clone()),
        seats: vec![],
        question: String::new(),
        options: vec![],
        default: String::new(),
        timeout_ms: 0,
        trigger: None,
        data: BTreeMap::new(),
        ..Default::default()
    }
}

/// A step whose data is not what its own system wrote: a bug, reported as a rule refusal
/// because `DecideError` has no variant for a malformed step.
pub fn malformed(step: &PendingStep, key: &str) -> DecideError {
    DecideError::BadStep {
        prompt_id: step.prompt_id,
        rule: step.rule.clone(),
        problem: format!("no `{key}`"),
    }
}

/// Sheets are the generic shape; a system only insists on the stats its rules read.
pub fn load_sheet(
    parsed: Result<Combatant, String>,
    required: &[&str],
) -> Result<Combatant, SheetError> {
    let c = parsed.map_err(SheetError::Syntax)?;
    if c.sheet.system() != tablehold_rules::sheet::GENERIC {
        return Err(SheetError::invalid("sheet.system", "must be `generic`"));
    }
    let stats = c.sheet.document().get("stats").and_then(|s| s.as_object());
    match required
        .iter()
        .find(|k| !stats.is_some_and(|s| s.contains_key(**k)))
    {
        Some(k) => Err(SheetError::invalid(
            format!("sheet.stats.{k}"),
            "is required",
        )),
        None => Ok(c),
    }
}

pub fn from_toml(text: &str) -> Result<Combatant, String> {
    toml::from_str(text).map_err(|e| e.to_string())
}

pub fn from_json(value: &serde_json::Value) -> Result<Combatant, String> {
    serde_json::from_value(value.clone()).map_err(|e| e.to_string())
}

pub fn unknown(system: &str, action: &str) -> DecideError {
    Refusal::UnknownAction {
        system: system.into(),
        action: action.into(),
    }
    .into()
}

//! Running a request: decide each step (an action, an answer, a timeout) in order and apply
//! its events, all drawing from one `ScriptedDice`. Produces a [`Resolution`] that `render` prints; nothing
//! here writes to the terminal.

use std::collections::BTreeMap;

use anyhow::{Context, Result, anyhow, bail};
use tablehold_rules::dice::{DiceError, Primitive, ScriptedDice};
use tablehold_rules::{
    Args, Combatant, Command, CommandBody, DecideError, EntityId, Event, MemoryState, PendingStep,
    RuleSystem, Seat, StateView, apply, decide,
};

use super::request::{Planned, PlannedKind, Prepared};

/// What the request did: each step's events (unredacted; `render` views them for the seat),
/// every die drawn, the faces left over and the final state.
pub struct Resolution {
    pub system: &'static dyn RuleSystem,
    /// The requesting seat: output shows what it may see.
    pub seat: Seat,
    /// The request was written as `steps`.
    pub stepwise: bool,
    pub steps: Vec<Step>,
    pub dice: Vec<(Primitive, u32)>,
    pub unused: Vec<u32>,
    pub state: MemoryState,
}

#[derive(Debug)]
pub struct Step {
    pub what: StepKind,
    pub events: Vec<Event>,
    /// The combatants as they were before the step and after it, to tell what it changed.
    pub before: BTreeMap<EntityId, Combatant>,
    pub after: BTreeMap<EntityId, Combatant>,
}

#[derive(Debug)]
pub enum StepKind {
    Action {
        name: String,
        actor: Option<EntityId>,
    },
    Answer {
        prompt_id: u64,
        seat: Seat,
        choice: String,
        args: Args,
    },
    Timeout {
        prompt_id: u64,
    },
}

impl Resolution {
    /// The windows still waiting for an answer, oldest first.
    pub fn open_prompts(&self) -> &[PendingStep] {
        &self.state.encounter().pending
    }

    /// The newest of them, if any.
    pub fn open_prompt(&self) -> Option<&PendingStep> {
        self.state.encounter().pending.last()
    }
}

/// Resolves a prepared request with `faces` as the dice.
pub fn resolve(
    system: &'static dyn RuleSystem,
    prepared: Prepared,
    faces: Vec<u32>,
) -> Result<Resolution> {
    let Prepared {
        seat,
        mut state,
        steps: planned,
        stepwise,
    } = prepared;
    let rules = system;
    let mut dice = ScriptedDice::new(faces.clone());
    let mut steps = Vec::new();

    for step in planned {
        let Planned { where_, what } = step;
        let (command, kind) = match what {
            PlannedKind::Act(command) => {
                let kind = match &command.body {
                    CommandBody::Act { actor, action, .. } => StepKind::Action {
                        name: action.clone(),
                        actor: actor.clone(),
                    },
                    _ => bail!("internal: {where_} did not build an action"),
                };
                (command, kind)
            }
            PlannedKind::Answer {
                seat: by,
                prompt,
                choice,
                args,
            } => {
                let window = window(&state, prompt, &where_, &choice)?;
                let by = by
                    .or_else(|| window.waiting_for().first().cloned())
                    .unwrap_or(Seat::Gm);
                let command = Command {
                    seat: by.clone(),
                    body: CommandBody::Answer {
                        prompt_id: window.prompt_id,
                        choice: choice.clone(),
                        args: args.clone(),
                    },
                };
                let kind = StepKind::Answer {
                    prompt_id: window.prompt_id,
                    seat: by,
                    choice,
                    args,
                };
                (command, kind)
            }
            PlannedKind::Timeout { prompt } => {
                let window = window(&state, prompt, &where_, "")?;
                let prompt_id = window.prompt_id;
                (
                    Command::time_out(prompt_id),
                    StepKind::Timeout { prompt_id },
                )
            }
        };
        let before = state.combatants.clone();
        let ran = run(rules, &mut state, &command, &mut dice, &faces);
        let events = if where_.is_empty() {
            ran?
        } else {
            ran.with_context(|| where_.clone())?
        };
        steps.push(Step {
            what: kind,
            events,
            before,
            after: state.combatants.clone(),
        });
    }

    let drawn = dice
        .drawn()
        .iter()
        .copied()
        .zip(faces.iter().copied())
        .collect();
    Ok(Resolution {
        system,
        seat,
        stepwise,
        steps,
        dice: drawn,
        unused: dice.unused().to_vec(),
        state,
    })
}

/// The window a step answers or times out: the one named, or the newest open one.
fn window(
    state: &MemoryState,
    prompt: Option<u64>,
    where_: &str,
    choice: &str,
) -> Result<PendingStep> {
    let pending = &state.encounter().pending;
    let found = match prompt {
        Some(id) => pending.iter().find(|w| w.prompt_id == id),
        None => pending.last(),
    };
    match (found, prompt) {
        (Some(w), _) => Ok(w.clone()),
        (None, Some(id)) => bail!("{where_}: prompt {id} is not open"),
        (None, None) if choice.is_empty() => bail!("{where_}: no prompt is open"),
        (None, None) => bail!(
            "{where_}: no prompt is open to answer; the action (and any earlier answers) finished \
             without asking"
        ),
    }
}

/// Decides one command and applies its events to `state`.
fn run(
    rules: &dyn RuleSystem,
    state: &mut MemoryState,
    command: &Command,
    dice: &mut ScriptedDice,
    faces: &[u32],
) -> Result<Vec<Event>> {
    let events = decide(rules, state, command, dice).map_err(|e| decide_error(e, dice, faces))?;
    for (i, event) in events.iter().enumerate() {
        apply(state, event).with_context(|| {
            format!("internal: event {i} built by decide does not apply (a bug in the rules)")
        })?;
    }
    Ok(events)
}

fn decide_error(e: DecideError, dice: &ScriptedDice, faces: &[u32]) -> anyhow::Error {
    let so_far = || {
        let drawn: Vec<String> = dice
            .drawn()
            .iter()
            .zip(faces)
            .map(|(die, face)| format!("{die}={face}"))
            .collect();
        if drawn.is_empty() {
            "none drawn yet".to_owned()
        } else {
            format!("drawn so far: {}", drawn.join(", "))
        }
    };
    match e {
        DecideError::Dice(DiceError::Exhausted { draw, die, given }) => anyhow!(
            "--dice: ran out of faces: all {given} face(s) were used and draw #{draw} needs a {die}; \
             add more faces in draw order ({})",
            so_far()
        ),
        DecideError::Dice(DiceError::FaceOutOfRange {
            draw,
            die,
            face,
            sides,
        }) => anyhow!(
            "--dice: face #{draw} is {face}, which does not fit draw #{draw}, a {die} (faces 1..={sides}); \
             check that the faces are in draw order ({})",
            so_far()
        ),
        DecideError::Inconsistent(err) => anyhow!("internal: a bug in the rules: {err}"),
        // Refusals and malformed prompts: the rules' own message is complete.
        other => anyhow!(other),
    }
}

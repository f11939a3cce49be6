//! Running a request: decide the action, apply its events, then decide and apply each answer,
//! all drawing from one `ScriptedDice`. Produces a [`Resolution`] that `render` prints; nothing
//! here writes to the terminal.

use anyhow::{Context, Result, anyhow, bail};
use tablehold_rules::dice::{DiceError, Primitive, ScriptedDice};
use tablehold_rules::{
    Command, CommandBody, DecideError, EntityId, Event, MemoryState, PendingStep, RuleSystem, Seat,
    StateView, apply, decide,
};
use tablehold_systems::SystemId;

use super::request::Prepared;

/// What the request did: each step's events (unredacted; `render` views them for the seat),
/// every die drawn, the faces left over and the final state.
#[derive(Debug)]
pub struct Resolution {
    pub system: SystemId,
    /// The requesting seat: output shows what it may see.
    pub seat: Seat,
    pub steps: Vec<Step>,
    pub dice: Vec<(Primitive, u32)>,
    pub unused: Vec<u32>,
    pub state: MemoryState,
}

#[derive(Debug)]
pub struct Step {
    pub what: StepKind,
    pub events: Vec<Event>,
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
    },
}

impl Resolution {
    /// The prompt still waiting for an answer, if any.
    pub fn open_prompt(&self) -> Option<&PendingStep> {
        self.state.encounter().pending.last()
    }
}

/// Resolves a prepared request with `faces` as the dice.
pub fn resolve(system: SystemId, prepared: Prepared, faces: Vec<u32>) -> Result<Resolution> {
    let Prepared {
        seat,
        mut state,
        command,
        answers,
    } = prepared;
    let rules = system.system();
    let mut dice = ScriptedDice::new(faces.clone());
    let mut steps = Vec::new();

    let what = match &command.body {
        CommandBody::Act { actor, action, .. } => StepKind::Action {
            name: action.clone(),
            actor: actor.clone(),
        },
        _ => bail!("internal: the request did not build an action"),
    };
    let events = run(rules, &mut state, &command, &mut dice, &faces)?;
    steps.push(Step { what, events });

    for (i, choice) in answers.iter().enumerate() {
        let where_ = format!("answers[{i}] (`{choice}`)");
        let Some(top) = state.encounter().pending.last() else {
            bail!(
                "{where_}: no prompt is open to answer; the action (and any earlier answers) finished without asking"
            );
        };
        let prompt_id = top.prompt_id;
        let answering = top.seats.first().cloned().unwrap_or(Seat::Gm);
        let command = Command::answer(answering.clone(), prompt_id, choice);
        let events =
            run(rules, &mut state, &command, &mut dice, &faces).with_context(|| where_.clone())?;
        steps.push(Step {
            what: StepKind::Answer {
                prompt_id,
                seat: answering,
                choice: choice.clone(),
            },
            events,
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
        steps,
        dice: drawn,
        unused: dice.unused().to_vec(),
        state,
    })
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

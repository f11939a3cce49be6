//! The part of `decide` that is the same for every system: prompts (answers, timeouts, GM
//! overrides), the rule that nothing else moves while a prompt is open, the GM's generic
//! rulings, and the scratch state each system builds its events on.

use crate::action::{ActionSpec, ArgKind, ArgSpec, Args, Command, CommandBody};
use crate::apply::{ApplyError, apply};
use crate::decision::{PendingStep, Resolver};
use crate::dice::{DiceError, DiceSource};
use crate::event::{Event, Fact, Part};
use crate::ids::{EntityId, Seat};
use crate::refusal::Refusal;
use crate::state::{Scratch, StateView, Status};
use crate::system::RuleSystem;

/// Why `decide` produced no events. `Refused` goes back to the seat; the others are
/// failures of the caller (a dice script too short) or of the program.
///
/// The inner errors are part of the message and deliberately not exposed as `source()`, so
/// a `{:#}` chain prints each reason once.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecideError {
    #[error("refused ({code}): {refusal}", code = .0.code(), refusal = .0)]
    Refused(Refusal),
    /// The dice source could not supply a draw; with the fair stream this cannot happen.
    #[error("dice: {0}")]
    Dice(DiceError),
    /// An event built by `decide` did not apply to its own scratch state: a bug.
    #[error("internal: an event built by decide does not apply: {0}")]
    Inconsistent(ApplyError),
    /// A pending step lacks data its rule step needs: a bug in the system that built it (or a
    /// corrupt log), never the seat's fault. Log it; the prompt stays open.
    #[error("internal: prompt {prompt_id} ({rule}) is malformed: {problem}")]
    BadStep {
        prompt_id: u64,
        rule: String,
        problem: String,
    },
}

impl From<Refusal> for DecideError {
    fn from(r: Refusal) -> Self {
        DecideError::Refused(r)
    }
}

impl From<DiceError> for DecideError {
    fn from(e: DiceError) -> Self {
        DecideError::Dice(e)
    }
}

impl From<ApplyError> for DecideError {
    fn from(e: ApplyError) -> Self {
        DecideError::Inconsistent(e)
    }
}

/// What a system's step functions work with: the state as changed by the events built so far,
/// the events themselves, and the dice.
pub struct Ctx<'a> {
    pub state: Scratch<'a>,
    pub events: Vec<Event>,
    pub dice: &'a mut dyn DiceSource,
}

impl<'a> Ctx<'a> {
    pub fn new(state: &'a dyn StateView, dice: &'a mut dyn DiceSource) -> Self {
        Ctx {
            state: Scratch::new(state),
            events: Vec::new(),
            dice,
        }
    }

    /// Records `event` and applies it to the scratch state so later steps see its values.
    pub fn emit(&mut self, event: Event) -> Result<(), DecideError> {
        // Facts about a combatant that arrives in this very event are judged by the fact
        // itself; all others by the state so far.
        let mut event = crate::redact::hide_gm_numbers(event, &self.state);
        // The draws made since the last event belong to this one (dice are drawn only in the
        // step that uses them), and their counters are public whatever the dice's audience.
        if let Some(draws) = self.dice.take_draws() {
            event.parts.push(Part::dice_drawn(draws));
        }
        apply(&mut self.state, &event)?;
        self.events.push(event);
        Ok(())
    }

    /// A fresh prompt id (ids only grow, across prompts and deferred steps).
    pub fn next_prompt_id(&self) -> u64 {
        let enc = self.state.encounter();
        let in_use = enc
            .pending
            .iter()
            .chain(&enc.deferred)
            .map(|s| s.prompt_id + 1)
            .max();
        enc.next_prompt.max(in_use.unwrap_or(0))
    }

    /// Sets a step aside until its trigger (its `prompt_id` is assigned here). The system
    /// resumes it later by emitting [`Fact::DeferredResumed`] and resolving it itself.
    pub fn defer(&mut self, mut step: PendingStep) -> Result<u64, DecideError> {
        step.prompt_id = self.next_prompt_id();
        let id = step.prompt_id;
        self.emit(Event::public(Fact::StepDeferred {
            step: Box::new(step),
        }))?;
        Ok(id)
    }

    /// Sets an encounter-wide value (whose side acts, a shared pool), emitting nothing when it
    /// already has that value.
    pub fn set_encounter_value(&mut self, key: &str, to: i64) -> Result<(), DecideError> {
        let from = self.state.encounter().values.get(key).copied().unwrap_or(0);
        if from != to {
            self.emit(Event::public(Fact::EncounterValueSet {
                key: key.to_owned(),
                from,
                to,
            }))?;
        }
        Ok(())
    }

    /// A line for the log about `who`: public, unless it concerns a combatant whose numbers
    /// are the GM's (an NPC taking burnout says something about its state).
    pub fn note_about(&mut self, who: &EntityId, text: String) -> Result<(), DecideError> {
        let hidden = self
            .state
            .combatant(who)
            .is_some_and(crate::redact::gm_only_numbers);
        let audience = if hidden {
            crate::event::Audience::GmOnly
        } else {
            crate::event::Audience::Everyone
        };
        self.emit(Event {
            parts: vec![crate::event::Part {
                audience,
                fact: Fact::Noted { text },
            }],
        })
    }

    /// A GM ruling's sentence about `target`. It has the audience of what it describes: about a
    /// combatant whose numbers are the GM's it would say them ("deals 12 damage"), so the GM
    /// keeps the sentence and the table hears only that a ruling was made on whom.
    pub fn rule_about(&mut self, target: &EntityId, text: String) -> Result<(), DecideError> {
        let hidden = self
            .state
            .combatant(target)
            .is_some_and(crate::redact::gm_only_numbers);
        let event = if hidden {
            Event {
                parts: vec![
                    Part {
                        audience: crate::event::Audience::GmOnly,
                        fact: Fact::Ruled { text },
                    },
                    Part {
                        audience: crate::event::Audience::AllButGm,
                        fact: Fact::Ruled {
                            text: format!("the GM rules on {target}"),
                        },
                    },
                ],
            }
        } else {
            Event::public(Fact::Ruled { text })
        };
        self.emit(event)
    }

    /// Opens a prompt for `step` (its `prompt_id` is assigned here).
    pub fn ask(&mut self, mut step: PendingStep) -> Result<u64, DecideError> {
        step.prompt_id = self.next_prompt_id();
        let id = step.prompt_id;
        self.emit(Event::public(Fact::DecisionRequested {
            step: Box::new(step),
        }))?;
        Ok(id)
    }

    pub fn combatant(&self, id: &EntityId) -> Result<crate::state::Combatant, Refusal> {
        self.state
            .combatant(id)
            .cloned()
            .ok_or_else(|| Refusal::UnknownEntity(id.clone()))
    }

    /// Sets a resource to `to`, emitting nothing when it already has that value.
    pub fn set_resource(
        &mut self,
        entity: &EntityId,
        resource: &str,
        to: i64,
    ) -> Result<(), DecideError> {
        let from = self.combatant(entity)?.resource(resource);
        if from != to {
            self.emit(Event::public(Fact::ResourceSet {
                entity: entity.clone(),
                resource: resource.to_owned(),
                from,
                to,
            }))?;
        }
        Ok(())
    }

    pub fn set_turn_counter(
        &mut self,
        entity: &EntityId,
        counter: &str,
        to: i64,
    ) -> Result<(), DecideError> {
        let from = self.combatant(entity)?.turn_counter(counter);
        if from != to {
            self.emit(Event::public(Fact::TurnCounterSet {
                entity: entity.clone(),
                counter: counter.to_owned(),
                from,
                to,
            }))?;
        }
        Ok(())
    }

    /// Adds or removes a status, emitting nothing when nothing changes.
    pub fn set_status(
        &mut self,
        entity: &EntityId,
        status: &str,
        to: Option<Status>,
    ) -> Result<(), DecideError> {
        let from = self.combatant(entity)?.statuses.get(status).cloned();
        if from != to {
            self.emit(Event::public(Fact::StatusSet {
                entity: entity.clone(),
                status: status.to_owned(),
                from,
                to,
            }))?;
        }
        Ok(())
    }
}

/// Decides `command` against `state` for `system`: the one entry point the server and the
/// calculator call. Pure: the only inputs are the arguments, the only output the events.
pub fn decide(
    system: &dyn RuleSystem,
    state: &dyn StateView,
    command: &Command,
    dice: &mut dyn DiceSource,
) -> Result<Vec<Event>, DecideError> {
    let mut ctx = Ctx::new(state, dice);
    match &command.body {
        CommandBody::Answer { prompt_id, choice } => {
            let step = open_prompt(state, *prompt_id)?;
            if !step.may_answer(&command.seat) {
                return Err(Refusal::forbidden(format!(
                    "prompt {prompt_id} is not for {}",
                    command.seat
                ))
                .into());
            }
            if !step.options.iter().any(|o| o == choice) {
                return Err(Refusal::NotAnOption {
                    choice: choice.clone(),
                    options: step.options.clone(),
                }
                .into());
            }
            let by = if step.seats.contains(&command.seat) {
                Resolver::Seat(command.seat.clone())
            } else {
                Resolver::GmOverride
            };
            resolve(system, &mut ctx, &step, choice, by)?;
        }
        CommandBody::TimeOut { prompt_id } => {
            if !command.seat.is_gm() {
                return Err(Refusal::forbidden("only the table may time a prompt out").into());
            }
            let step = open_prompt(state, *prompt_id)?;
            let default = step.default.clone();
            resolve(system, &mut ctx, &step, &default, Resolver::TimedOut)?;
        }
        CommandBody::Act {
            actor,
            action,
            args,
        } => {
            if let Some(rest) = action.strip_prefix(RULING_PREFIX) {
                if !command.seat.is_gm() {
                    return Err(Refusal::forbidden("rulings are the GM's").into());
                }
                generic_ruling(system, &mut ctx, rest, args)?;
            } else {
                if let Some(top) = state.encounter().pending.last() {
                    // The refused seat hears of the prompt only what its events showed it.
                    let seen = crate::redact::prompt_seen_by(top, &command.seat);
                    return Err(Refusal::AwaitingDecision {
                        prompt_id: top.prompt_id,
                        question: seen.question,
                    }
                    .into());
                }
                system.act(&mut ctx, &command.seat, actor.as_ref(), action, args)?;
            }
        }
    }
    Ok(ctx.events)
}

/// The catalogue for `seat`: the answer to an open prompt it may answer, the system's actions,
/// and for the GM the generic rulings.
pub fn actions(system: &dyn RuleSystem, state: &dyn StateView, seat: &Seat) -> Vec<ActionSpec> {
    let mut out = Vec::new();
    if let Some(top) = state.encounter().pending.last() {
        if top.may_answer(seat) {
            out.push(ActionSpec {
                name: "answer".into(),
                help: top.question.clone(),
                actor: top.actor.clone(),
                args: vec![ArgSpec {
                    choices: top.options.clone(),
                    ..ArgSpec::new(
                        "choice",
                        ArgKind::Text,
                        true,
                        &format!("default if unanswered: {}", top.default),
                    )
                }],
                costs: vec![],
            });
        }
    } else {
        out.extend(system.actions(state, seat));
    }
    if seat.is_gm() {
        out.extend(ruling_specs());
    }
    out
}

fn open_prompt(state: &dyn StateView, prompt_id: u64) -> Result<PendingStep, Refusal> {
    match state.encounter().pending.last() {
        Some(top) if top.prompt_id == prompt_id => Ok(top.clone()),
        _ => Err(Refusal::NoSuchPrompt { prompt_id }),
    }
}

fn resolve(
    system: &dyn RuleSystem,
    ctx: &mut Ctx<'_>,
    step: &PendingStep,
    choice: &str,
    by: Resolver,
) -> Result<(), DecideError> {
    ctx.emit(Event::public(Fact::DecisionResolved {
        prompt_id: step.prompt_id,
        choice: choice.to_owned(),
        by,
    }))?;
    system.resume(ctx, step, choice)
}

/// Actions whose name starts with this are the GM's system-independent rulings.
pub const RULING_PREFIX: &str = "rule.";

pub(crate) fn ruling_specs() -> Vec<ActionSpec> {
    let arg = ArgSpec::new;
    let spec = |name: &str, help: &str, args| ActionSpec {
        name: format!("{RULING_PREFIX}{name}"),
        help: help.into(),
        actor: None,
        args,
        costs: vec![],
    };
    vec![
        spec(
            "set-resource",
            "Set a resource of a character to a value, as a ruling.",
            vec![
                arg("target", ArgKind::Entity, true, "whose resource"),
                arg(
                    "resource",
                    ArgKind::Text,
                    true,
                    "e.g. condition, focus, burnout",
                ),
                arg("value", ArgKind::Int, true, "the new value"),
                arg("reason", ArgKind::Text, false, "shown in the log"),
            ],
        ),
        spec(
            "set-status",
            "Give a character a status, as a ruling.",
            vec![
                arg("target", ArgKind::Entity, true, "who"),
                arg("status", ArgKind::Text, true, "e.g. knocked_down, stun"),
                arg(
                    "magnitude",
                    ArgKind::Int,
                    false,
                    "size, where the status has one",
                ),
                arg(
                    "rounds",
                    ArgKind::Int,
                    false,
                    "rounds until it ends by itself",
                )
                .range(0, 10_000),
                arg("reason", ArgKind::Text, false, "shown in the log"),
            ],
        ),
        spec(
            "clear-status",
            "Remove a status from a character, as a ruling.",
            vec![
                arg("target", ArgKind::Entity, true, "who"),
                arg("status", ArgKind::Text, true, "which status"),
                arg("reason", ArgKind::Text, false, "shown in the log"),
            ],
        ),
        spec(
            "move",
            "Move a token, as a ruling (no movement is spent).",
            vec![
                arg("target", ArgKind::Entity, true, "who"),
                arg("to", ArgKind::Cell, true, "destination cell"),
                arg("reason", ArgKind::Text, false, "shown in the log"),
            ],
        ),
        spec(
            "note",
            "Write a ruling into the log.",
            vec![arg("text", ArgKind::Text, true, "the ruling")],
        ),
    ]
}

fn generic_ruling(
    system: &dyn RuleSystem,
    ctx: &mut Ctx<'_>,
    name: &str,
    args: &Args,
) -> Result<(), DecideError> {
    let specs = ruling_specs();
    let Some(spec) = specs
        .iter()
        .find(|s| s.name.strip_prefix(RULING_PREFIX) == Some(name))
    else {
        return Err(Refusal::UnknownAction {
            system: "table".into(),
            action: format!("{RULING_PREFIX}{name}"),
        }
        .into());
    };
    args.validate(&spec.args, &Seat::Gm)?;
    let reason = args.text("reason")?.unwrap_or("GM ruling").to_owned();
    let ruled = |text: String| Event::public(Fact::Ruled { text });
    match name {
        "note" => ctx.emit(ruled(args.require_text("text")?.to_owned()))?,
        "set-resource" => {
            let target = args.require_entity("target")?;
            let resource = args.require_text("resource")?.to_owned();
            let value = args.require_int("value")?;
            ctx.combatant(&target)?;
            let known = system.resources();
            if !known.is_empty() {
                let spec = known.iter().find(|r| r.key == resource).ok_or_else(|| {
                    Refusal::UnknownName {
                        system: system.id().into(),
                        what: "a resource".into(),
                        name: resource.clone(),
                    }
                })?;
                if !(spec.min..=spec.max).contains(&value) {
                    return Err(Refusal::bad_argument(
                        "value",
                        &format!("{resource} must be in {}..={}", spec.min, spec.max),
                    )
                    .into());
                }
            }
            ctx.rule_about(
                &target,
                format!("{target}: {resource} set to {value} ({reason})"),
            )?;
            let from = ctx.combatant(&target)?.resource(&resource);
            ctx.set_resource(&target, &resource, value)?;
            system.resource_ruled(ctx, &target, &resource, from, value)?;
        }
        "set-status" | "clear-status" => {
            let target = args.require_entity("target")?;
            let status = args.require_text("status")?.to_owned();
            ctx.combatant(&target)?;
            let to = (name == "set-status").then(|| -> Result<Status, Refusal> {
                Ok(Status {
                    source: "ruling".into(),
                    magnitude: args.int("magnitude")?.unwrap_or(0),
                    rounds_left: args
                        .int("rounds")?
                        .map(|r| {
                            u32::try_from(r)
                                .map_err(|_| Refusal::bad_argument("rounds", "must be 0 or more"))
                        })
                        .transpose()?,
                })
            });
            let to = to.transpose()?;
            ctx.emit(ruled(format!(
                "{target}: {status} {} ({reason})",
                if to.is_some() { "set" } else { "cleared" }
            )))?;
            ctx.set_status(&target, &status, to)?;
        }
        "move" => {
            let target = args.require_entity("target")?;
            let to = args
                .cell("to")?
                .ok_or_else(|| Refusal::bad_argument("to", "is required"))?;
            let from = ctx.combatant(&target)?.position;
            ctx.emit(ruled(format!(
                "{target} moved to ({}, {}) ({reason})",
                to.x, to.y
            )))?;
            ctx.emit(Event::public(Fact::Moved {
                entity: target,
                from,
                to: Some(to),
            }))?;
        }
        _ => {
            return Err(Refusal::UnknownAction {
                system: "table".into(),
                action: name.into(),
            }
            .into());
        }
    }
    Ok(())
}

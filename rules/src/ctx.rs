//! What a system works with while it decides: the context ([`Ctx`]) that draws dice, builds
//! events on a scratch copy of the state and asks the seats, and the error a decision ends in.
//! Apart from the engine so that the system interface and the engine can both name it without
//! naming each other.

use crate::account::Telling;
use crate::apply::{ApplyError, apply};
use crate::decision::PendingStep;
use crate::dice::{DiceError, DiceSource};
use crate::event::{Event, Fact, Part};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Scratch, StateView, Status};

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

impl DecideError {
    /// `step` lacks `what`, which its rule step needs: the one wording every system's resume
    /// uses.
    pub fn malformed(step: &PendingStep, what: &str) -> DecideError {
        DecideError::BadStep {
            prompt_id: step.prompt_id,
            rule: step.rule.clone(),
            problem: format!("the step has no {what}"),
        }
    }
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

/// The state as the events emitted so far left it, for reading.
pub struct Seen<'a>(Scratch<'a>);

impl StateView for Seen<'_> {
    fn options(&self) -> &crate::options::TableOptions {
        self.0.options()
    }
    fn combatant(&self, id: &EntityId) -> Option<&crate::state::Combatant> {
        self.0.combatant(id)
    }
    fn combatant_ids(&self) -> Vec<EntityId> {
        self.0.combatant_ids()
    }
    fn encounter(&self) -> &crate::state::Encounter {
        self.0.encounter()
    }
}

/// What a system's step functions work with: the state as changed by the events built so far,
/// the events themselves, and the dice.
///
/// A system reads the state and emits events; it can do nothing else to either. The state is
/// read-only here (only `emit` applies an event to it) and the event list is private, so every
/// event a system produces has gone through the redaction in `emit`: a system cannot forget to
/// hide an NPC's numbers or a prompt's content.
pub struct Ctx<'a> {
    pub state: Seen<'a>,
    events: Vec<Event>,
    pub dice: &'a mut dyn DiceSource,
    /// The action under way, as the system tells it (see `account`).
    pub telling: Option<Telling>,
}

impl<'a> Ctx<'a> {
    pub fn new(state: &'a dyn StateView, dice: &'a mut dyn DiceSource) -> Self {
        Ctx {
            state: Seen(Scratch::new(state)),
            events: Vec::new(),
            dice,
            telling: None,
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
        apply(&mut self.state.0, &event)?;
        self.events.push(event);
        Ok(())
    }

    /// The events emitted so far, in order.
    pub fn emitted(&self) -> &[Event] {
        &self.events
    }

    /// The events the decision produced: what `decide` returns.
    pub fn into_events(self) -> Vec<Event> {
        self.events
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

    /// The fact of damage resolved on `target`, built from `steps`. The steps show the
    /// source's numbers (its weapon, its bonuses): when `source` is a combatant whose numbers
    /// are the GM's, they go to the GM alone and the other seats get the amount, as a player
    /// at a real table hears it. The target's own numbers are hidden by `redact` as any.
    pub fn damage_resolved(
        &self,
        target: &EntityId,
        steps: Vec<crate::event::Modifier>,
        amount: i64,
        source: Option<&EntityId>,
    ) -> Event {
        let fact = |steps| Fact::DamageResolved {
            target: target.clone(),
            steps,
            amount,
        };
        let hidden = |id: Option<&EntityId>| {
            id.and_then(|s| self.state.combatant(s))
                .is_some_and(crate::redact::gm_only_numbers)
        };
        // Damage to a combatant whose numbers are the GM's is redacted whole by `redact`
        // (the table hears "takes damage"), whoever dealt it.
        if !hidden(source) || hidden(Some(target)) {
            return Event::public(fact(steps));
        }
        Event {
            parts: vec![
                Part {
                    audience: crate::event::Audience::GmOnly,
                    fact: fact(steps),
                },
                Part {
                    audience: crate::event::Audience::AllButGm,
                    fact: fact(Vec::new()),
                },
            ],
        }
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

    /// The combatant a pending step names as its actor; a step without one is malformed.
    pub fn step_actor(&self, step: &PendingStep) -> Result<crate::state::Combatant, DecideError> {
        let id = step
            .actor
            .as_ref()
            .ok_or_else(|| DecideError::malformed(step, "actor"))?;
        Ok(self.combatant(id)?)
    }

    /// The combatant a pending step names under `key` in its data; a step without one is
    /// malformed.
    pub fn step_entity(
        &self,
        step: &PendingStep,
        key: &str,
    ) -> Result<crate::state::Combatant, DecideError> {
        let id = step
            .entity(key)
            .ok_or_else(|| DecideError::malformed(step, key))?;
        Ok(self.combatant(id)?)
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
        self.set_status_for(crate::event::Audience::Everyone, entity, status, to)
    }

    /// [`Ctx::set_status`] for the eyes of `audience` only: a status whose name or source
    /// says something of the GM's (an NPC's weapon and what became of it).
    pub fn set_status_for(
        &mut self,
        audience: crate::event::Audience,
        entity: &EntityId,
        status: &str,
        to: Option<Status>,
    ) -> Result<(), DecideError> {
        let from = self.combatant(entity)?.statuses.get(status).cloned();
        if from != to {
            self.emit(Event {
                parts: vec![Part {
                    audience,
                    fact: Fact::StatusSet {
                        entity: entity.clone(),
                        status: status.to_owned(),
                        from,
                        to,
                    },
                }],
            })?;
        }
        Ok(())
    }
}

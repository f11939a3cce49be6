//! Who may see a combatant's numbers, and the one pass that keeps them from everyone else.
//!
//! NPCs' and objects' numbers (resources, the modifiers their attributes add, the steps of
//! damage against their armour, their weapons' names) are the GM's by default. Systems write
//! facts without thinking about it; [`hide_gm_numbers`] runs on every event `decide` builds
//! (and on events the server builds itself) and moves such facts to a GM-only part, leaving
//! the other seats a public trace without the numbers: that a roll happened and its dice,
//! that someone took damage.

use crate::decision::PendingStep;
use crate::event::{Audience, Event, Fact, Outcome, Part};
use crate::ids::EntityId;
use crate::sheet::SystemSheet;
use crate::state::{Combatant, Kind, StateView};

/// Whether a combatant's numbers are for the GM alone.
pub fn gm_only_numbers(c: &Combatant) -> bool {
    c.kind != Kind::Pc
}

fn hidden(state: &dyn StateView, id: &EntityId) -> bool {
    state.combatant(id).is_some_and(gm_only_numbers)
}

/// What the other seats may know of a GM-only combatant: who and where it is, what ails it,
/// whose side it is on; no sheet, no resources, no turn counters. Seats then follow its
/// moves and statuses in their own state, as the table's view shows them.
pub fn without_numbers(c: &Combatant) -> Combatant {
    Combatant {
        sheet: SystemSheet::Generic {
            stats: Default::default(),
        },
        resources: Default::default(),
        turn: Default::default(),
        ..c.clone()
    }
}

/// A prompt or deferred step as the seats that may not see it hold it: its id, who answers
/// and when, so that its resolution applies to their state too, and nothing of its content.
fn withheld_step(step: &PendingStep, question: &str) -> PendingStep {
    PendingStep {
        rule: String::new(),
        actor: None,
        question: question.to_owned(),
        options: Vec::new(),
        default: String::new(),
        data: Default::default(),
        ..step.clone()
    }
}

/// Splits every public fact that would show a GM-only combatant's numbers into a GM-only part
/// with the whole fact and, where the table should still hear of it, a public part without
/// the numbers (`Audience::AllButGm`). `apply` leaves the stand-ins out of the table's state;
/// `apply_seen` puts them in a seat's, so a seat follows an NPC it knows only by name, or a
/// prompt only the GM answers, without seeing what the GM sees.
pub fn hide_gm_numbers(event: Event, state: &dyn StateView) -> Event {
    let mut parts = Vec::with_capacity(event.parts.len());
    for part in event.parts {
        if part.audience != Audience::Everyone {
            parts.push(part);
            continue;
        }
        let public_trace = match &part.fact {
            Fact::ResourceSet { entity, .. } | Fact::TurnCounterSet { entity, .. }
                if hidden(state, entity) =>
            {
                Some(None)
            }
            Fact::DamageResolved { target, .. } if hidden(state, target) => {
                Some(Some(Fact::Noted {
                    text: format!("{target} takes damage"),
                }))
            }
            Fact::Checked(c) if c.actor.as_ref().is_some_and(|a| hidden(state, a)) => {
                Some(Some(Fact::Rolled {
                    by: c.actor.clone(),
                    purpose: match c.outcome {
                        Outcome::Success => "a roll that succeeds",
                        Outcome::Failure => "a roll that fails",
                        Outcome::Unjudged => "a roll",
                    }
                    .into(),
                    roll: c.roll.clone(),
                }))
            }
            Fact::Rolled {
                by: Some(by), roll, ..
            } if hidden(state, by) => Some(Some(Fact::Rolled {
                by: Some(by.clone()),
                purpose: "a roll".into(),
                roll: roll.clone(),
            })),
            // A prompt only the GM answers, or a step an NPC set aside, is the GM's business:
            // the table only learns that the GM has something to decide.
            Fact::DecisionRequested { step } if step.seats.iter().all(|s| s.is_gm()) => {
                Some(Some(Fact::DecisionRequested {
                    step: Box::new(withheld_step(step, "the GM has a decision to make")),
                }))
            }
            Fact::StepDeferred { step }
                if step.actor.as_ref().is_some_and(|a| hidden(state, a)) =>
            {
                Some(Some(Fact::StepDeferred {
                    step: Box::new(withheld_step(step, "the GM sets something aside for later")),
                }))
            }
            Fact::CombatantAdded { combatant } if gm_only_numbers(combatant) => {
                Some(Some(Fact::CombatantAdded {
                    combatant: Box::new(without_numbers(combatant)),
                }))
            }
            _ => None,
        };
        match public_trace {
            None => parts.push(part),
            Some(trace) => {
                if let Some(fact) = trace {
                    parts.push(Part {
                        audience: Audience::AllButGm,
                        fact,
                    });
                }
                parts.push(Part {
                    audience: Audience::GmOnly,
                    fact: part.fact,
                });
            }
        }
    }
    Event { parts }
}

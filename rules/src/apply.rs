//! `apply`: the only code that changes state, written once for every system. It assigns the
//! values an event carries and makes no decision: no dice, no clock, no rule. A later fix to a
//! rule therefore never changes how an old log replays.

use crate::event::{Event, Fact};
use crate::ids::EntityId;
use crate::state::StateMut;
use crate::turns::TurnShape;

/// An event that cannot be applied to this state: the log and the state disagree. This is
/// corruption (or a bug in `decide`), never a player's mistake; the caller should stop and
/// rebuild from the log.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApplyError {
    #[error("event names entity `{0}`, which is not at the table")]
    UnknownEntity(EntityId),
    #[error("event answers prompt {0}, which is not open")]
    NotOpenPrompt(u64),
    #[error("event resumes deferred step {0}, which is not deferred")]
    NotDeferred(u64),
}

/// Applies `event` to the table's whole state (the GM's): every part but the stand-ins meant
/// for the other seats (`Audience::AllButGm`, `Audience::AllBut`), whose whole form is in a
/// part beside them.
pub fn apply(state: &mut dyn StateMut, event: &Event) -> Result<(), ApplyError> {
    for part in &event.parts {
        if !part.audience.is_stand_in() {
            apply_fact(state, &part.fact)?;
        }
    }
    Ok(())
}

/// Applies the facts of the parts a seat was shown (those its audience admits, stand-ins
/// included) to the state that seat has seen. Taking the facts, not an event, lets a caller
/// filter an event's parts in place instead of copying them into a view.
///
/// A seat's state is partial by design: it may hear that a prompt it never saw was answered,
/// or that a combatant it does not know of moved. Such a part is skipped, not an error: the
/// seat's state stays exactly what its events say, and the server and any replay of the
/// seat's export skip the same parts, so the digests of a seat's view still match.
pub fn apply_seen<'a>(state: &mut dyn StateMut, facts: impl IntoIterator<Item = &'a Fact>) {
    for fact in facts {
        let _partial_view = apply_fact(state, fact);
    }
}

fn open_window(
    state: &mut dyn StateMut,
    prompt_id: u64,
) -> Result<&mut crate::decision::PendingStep, ApplyError> {
    state
        .encounter_mut()
        .pending
        .iter_mut()
        .find(|s| s.prompt_id == prompt_id)
        .ok_or(ApplyError::NotOpenPrompt(prompt_id))
}

fn apply_fact(state: &mut dyn StateMut, fact: &Fact) -> Result<(), ApplyError> {
    let missing = |id: &EntityId| ApplyError::UnknownEntity(id.clone());
    match fact {
        Fact::Rolled { .. }
        | Fact::Checked(_)
        | Fact::HiddenTarget { .. }
        | Fact::DamageResolved { .. }
        | Fact::Picked { .. }
        | Fact::Noted { .. }
        | Fact::Told(_)
        | Fact::Ruled { .. }
        | Fact::DiceDrawn { .. }
        | Fact::EpochOpened { .. }
        | Fact::EntropyCommitted { .. }
        | Fact::CommitmentsClosed { .. }
        | Fact::EntropyRevealed { .. }
        | Fact::EntropyWithheld { .. }
        | Fact::EpochSealed { .. }
        | Fact::EpochRevealed { .. }
        | Fact::DiceOpened { .. }
        | Fact::SeatReadmitted { .. }
        | Fact::DigestRecorded { .. } => {}
        Fact::CombatantAdded { combatant, .. } => state.insert_combatant((**combatant).clone()),
        Fact::OwnerSet { entity, to, .. } => {
            state
                .combatant_mut(entity)
                .ok_or_else(|| missing(entity))?
                .owner = to.clone();
        }
        Fact::CombatantRemoved { entity } => {
            state
                .remove_combatant(entity)
                .ok_or_else(|| missing(entity))?;
        }
        Fact::ResourceSet {
            entity,
            resource,
            to,
            ..
        } => {
            let c = state.combatant_mut(entity).ok_or_else(|| missing(entity))?;
            c.resources.insert(resource.clone(), *to);
        }
        Fact::StatusSet {
            entity, status, to, ..
        } => {
            let c = state.combatant_mut(entity).ok_or_else(|| missing(entity))?;
            match to {
                Some(s) => c.statuses.insert(status.clone(), s.clone()),
                None => c.statuses.remove(status),
            };
        }
        Fact::TurnCounterSet {
            entity,
            counter,
            to,
            ..
        } => {
            let c = state.combatant_mut(entity).ok_or_else(|| missing(entity))?;
            c.turn.insert(counter.clone(), *to);
        }
        Fact::Moved { entity, to, .. } => {
            state
                .combatant_mut(entity)
                .ok_or_else(|| missing(entity))?
                .position = *to;
        }
        Fact::TerrainSet { cell, to, .. } => {
            let terrain = &mut state.encounter_mut().terrain;
            match to {
                Some(t) if !t.is_open() => {
                    terrain.insert(*cell, t.clone());
                }
                _ => {
                    terrain.remove(cell);
                }
            }
        }
        Fact::EncounterStarted => {
            let e = state.encounter_mut();
            e.active = true;
            e.round = 0;
            e.current = None;
            e.turns = Default::default();
        }
        Fact::EncounterEnded => {
            let e = state.encounter_mut();
            e.active = false;
            e.current = None;
            e.turns = Default::default();
            e.order.clear();
            e.pending.clear();
            e.deferred.clear();
            e.values.clear();
        }
        Fact::OrderSet { order } => state.encounter_mut().order = order.clone(),
        Fact::EncounterValueSet { key, to, .. } => {
            state.encounter_mut().values.insert(key.clone(), *to);
        }
        Fact::RoundStarted { round } => {
            let e = state.encounter_mut();
            e.round = *round;
            e.turns.acted.clear();
        }
        Fact::TurnStarted { entity } => {
            let e = state.encounter_mut();
            e.current = entity.clone();
            e.turns.shape = TurnShape::Individual;
            e.turns.group = None;
            e.turns.now = entity.iter().cloned().collect();
        }
        Fact::TurnsOpened { shape, group, now } => {
            let t = &mut state.encounter_mut().turns;
            if *shape == TurnShape::Group {
                t.acted.clear();
            }
            t.shape = *shape;
            t.group = group.clone();
            t.now = now.clone();
        }
        Fact::Acted { entity } => {
            let t = &mut state.encounter_mut().turns;
            t.now.retain(|e| e != entity);
            if !t.acted.contains(entity) {
                t.acted.push(entity.clone());
            }
        }
        Fact::HoldSet { entity, holding } => {
            let t = &mut state.encounter_mut().turns;
            t.held.retain(|e| e != entity);
            if *holding {
                t.held.push(entity.clone());
            }
        }
        Fact::DecisionRequested { step } => {
            let e = state.encounter_mut();
            e.next_prompt = e.next_prompt.max(step.prompt_id + 1);
            e.pending.push((**step).clone());
        }
        Fact::DecisionResolved { prompt_id, .. } => {
            let e = state.encounter_mut();
            let at = e
                .pending
                .iter()
                .position(|s| s.prompt_id == *prompt_id)
                .ok_or(ApplyError::NotOpenPrompt(*prompt_id))?;
            e.pending.remove(at);
        }
        Fact::DecisionAnswered { prompt_id, answer } => {
            open_window(state, *prompt_id)?.answers.push(answer.clone());
        }
        Fact::WindowSecret { prompt_id, secret } => {
            open_window(state, *prompt_id)?.secret = secret.clone();
        }
        Fact::StepDeferred { step } => {
            let e = state.encounter_mut();
            e.next_prompt = e.next_prompt.max(step.prompt_id + 1);
            e.deferred.push((**step).clone());
        }
        Fact::DeferredResumed { prompt_id } => {
            let e = state.encounter_mut();
            let at = e
                .deferred
                .iter()
                .position(|s| s.prompt_id == *prompt_id)
                .ok_or(ApplyError::NotDeferred(*prompt_id))?;
            e.deferred.remove(at);
        }
    }
    Ok(())
}

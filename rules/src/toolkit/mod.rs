//! What every system needs around its rules and would otherwise write again: who may act for
//! which combatant, who decides for one, and an action checked against the seat's own
//! catalogue before any rule reads it. A system module then holds only its rules.

pub mod sheets;
pub mod told;
pub mod turns;

use crate::action::{ActionSpec, Args};
use crate::ctx::{Ctx, DecideError};
use crate::event::{Event, Fact};
use crate::ids::{EntityId, Seat};
use crate::refusal::Refusal;
use crate::state::{Combatant, StateView};
use crate::system::RuleSystem;

/// Players act only for characters their seat owns; the GM for anyone; spectators for no one.
pub fn controls(seat: &Seat, c: &Combatant) -> Result<(), Refusal> {
    match seat {
        Seat::Gm => Ok(()),
        Seat::Player(s) if c.owner.as_ref() == Some(s) => Ok(()),
        Seat::Player(_) => Err(Refusal::forbidden(format!(
            "{} is not your character",
            c.id
        ))),
        Seat::Spectator(_) => Err(Refusal::forbidden("spectators do not act")),
    }
}

/// The combatant `seat` names as its actor, once it is known to exist and to be the seat's.
pub fn acting(ctx: &Ctx<'_>, seat: &Seat, actor: Option<&EntityId>) -> Result<Combatant, Refusal> {
    let who = actor.ok_or_else(|| Refusal::bad_argument("actor", "is required"))?;
    let c = ctx.combatant(who)?;
    controls(seat, &c)?;
    Ok(c)
}

/// The seats that decide for a combatant: its owner's, or the GM's for one nobody plays.
/// Naming the GM (rather than no seat) records the GM's answer as the NPC's own decision, not
/// as an override.
pub fn deciders(c: &Combatant) -> Vec<Seat> {
    match &c.owner {
        Some(s) => vec![Seat::Player(s.clone())],
        None => vec![Seat::Gm],
    }
}

/// The combatants whose actions go in `seat`'s catalogue: a player's own characters; for the
/// GM those nobody plays (the GM may act for a player's character too, but listing every
/// action twice would drown the GM's own).
pub fn controlled(state: &dyn StateView, seat: &Seat) -> Vec<Combatant> {
    state
        .combatant_ids()
        .iter()
        .filter_map(|i| state.combatant(i))
        .filter(|c| match seat {
            Seat::Gm => c.owner.is_none(),
            _ => controls(seat, c).is_ok(),
        })
        .cloned()
        .collect()
}

/// The GM's `start_encounter`, offered while no encounter runs: the catalogue entry every
/// system gives for the table action every client knows (`action::START_ENCOUNTER`).
pub fn start_spec(state: &dyn StateView, seat: &Seat) -> Option<ActionSpec> {
    (seat.is_gm() && !state.encounter().active).then(|| ActionSpec {
        name: crate::action::START_ENCOUNTER.to_owned(),
        help: "Start the encounter.".to_owned(),
        actor: None,
        args: Vec::new(),
        costs: Vec::new(),
    })
}

/// Starts the encounter, refused while one runs or with nobody to fight, and gives the
/// fighters (every combatant but objects, of those `fights` keeps) in id order: the order a
/// system draws their initiative in, so the draws are checkable. What the first turn is, the
/// system says next.
pub fn start_encounter(
    ctx: &mut Ctx<'_>,
    fights: impl Fn(&Combatant) -> bool,
) -> Result<Vec<EntityId>, DecideError> {
    if ctx.state.encounter().active {
        return Err(Refusal::EncounterRunning.into());
    }
    let fighters: Vec<EntityId> = ctx
        .state
        .combatant_ids()
        .into_iter()
        .filter(|id| {
            ctx.state
                .combatant(id)
                .is_some_and(|c| c.kind != crate::state::Kind::Object && fights(c))
        })
        .collect();
    if fighters.is_empty() {
        return Err(Refusal::Rule("nobody is at the table to fight".into()).into());
    }
    ctx.emit(Event::public(Fact::EncounterStarted))?;
    Ok(fighters)
}

/// Checks an action's arguments against the spec `system` offers `seat` for it now, so that
/// what a seat was offered is exactly what it may send: no unknown argument, none of the wrong
/// kind, none out of its bounds. The GM may act for a player's character too: then what the
/// character's own seat is offered counts.
///
/// An action not offered now (out of turn, spent, unknown) is `Ok(None)`: the system's own
/// rules then say why not, more precisely than "not in the catalogue" could.
pub fn check_offered(
    system: &dyn RuleSystem,
    state: &dyn StateView,
    seat: &Seat,
    actor: Option<&EntityId>,
    action: &str,
    args: &Args,
) -> Result<Option<ActionSpec>, Refusal> {
    let mut specs = system.actions(state, seat);
    let owner = actor
        .and_then(|a| state.combatant(a))
        .and_then(|c| c.owner.clone());
    if let (Seat::Gm, Some(owner)) = (seat, owner) {
        specs.extend(system.actions(state, &Seat::Player(owner)));
    }
    let Some(spec) = offered(&specs, actor, action) else {
        return Ok(None);
    };
    args.validate(&spec.args, seat)?;
    Ok(Some(spec.clone()))
}

/// The spec of `action` for `actor` in a catalogue.
pub fn offered<'s>(
    specs: &'s [ActionSpec],
    actor: Option<&EntityId>,
    action: &str,
) -> Option<&'s ActionSpec> {
    specs
        .iter()
        .find(|s| s.name == action && s.actor.as_ref() == actor)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::{ArgKind, ArgSpec, ArgValue};
    use crate::ids::SeatId;

    fn pc(owner: Option<&str>) -> Combatant {
        crate::testing::combatant("aune", "pc", owner, &[])
    }

    #[test]
    fn seats_control_what_they_own_and_the_gm_all() {
        let p1 = Seat::Player(SeatId::from("p1"));
        let p2 = Seat::Player(SeatId::from("p2"));
        let watcher = Seat::Spectator(SeatId::from("s1"));
        let owned = pc(Some("p1"));
        let npc = pc(None);
        assert_eq!(controls(&p1, &owned), Ok(()));
        assert_eq!(controls(&Seat::Gm, &owned), Ok(()));
        assert_eq!(controls(&Seat::Gm, &npc), Ok(()));
        assert_eq!(
            controls(&p2, &owned),
            Err(Refusal::forbidden("aune is not your character"))
        );
        assert_eq!(
            controls(&watcher, &owned),
            Err(Refusal::forbidden("spectators do not act"))
        );
        assert_eq!(deciders(&owned), vec![p1.clone()]);
        assert_eq!(deciders(&npc), vec![Seat::Gm]);
        // Whose actions a catalogue lists: a player's own; the GM's, those nobody plays.
        let mut state = crate::state::MemoryState::default();
        for (id, kind, owner) in [("aune", "pc", Some("p1")), ("gob", "npc", None)] {
            crate::state::StateMut::insert_combatant(
                &mut state,
                crate::testing::combatant(id, kind, owner, &[]),
            );
        }
        let ids = |seat: &Seat| -> Vec<String> {
            controlled(&state, seat)
                .into_iter()
                .map(|c| c.id.0)
                .collect()
        };
        assert_eq!(ids(&p1), vec!["aune"]);
        assert_eq!(ids(&Seat::Gm), vec!["gob"]);
        assert!(ids(&p2).is_empty() && ids(&watcher).is_empty());
    }

    struct Strike;

    impl RuleSystem for Strike {
        fn id(&self) -> &'static str {
            "strike"
        }
        fn options(&self) -> Vec<crate::options::OptionSpec> {
            Vec::new()
        }
        fn sheet_from_toml(&self, _: &str) -> Result<Combatant, crate::sheet::SheetError> {
            Err(crate::sheet::SheetError::Syntax("no sheets".into()))
        }
        fn sheet_from_json(
            &self,
            _: &serde_json::Value,
        ) -> Result<Combatant, crate::sheet::SheetError> {
            Err(crate::sheet::SheetError::Syntax("no sheets".into()))
        }
        /// `strike` for each of the seat's characters, with a target from 1 to 3 cells off.
        fn actions(&self, state: &dyn StateView, seat: &Seat) -> Vec<ActionSpec> {
            controlled(state, seat)
                .into_iter()
                .map(|c| ActionSpec {
                    name: "strike".into(),
                    help: String::new(),
                    actor: Some(c.id),
                    args: vec![
                        ArgSpec::new("target", ArgKind::Entity, true, "whom"),
                        ArgSpec::new("reach", ArgKind::Int, false, "cells").range(1, 3),
                    ],
                    costs: vec![],
                })
                .collect()
        }
        fn act(
            &self,
            _: &mut Ctx<'_>,
            _: &Seat,
            _: Option<&EntityId>,
            _: &str,
            _: &Args,
        ) -> Result<(), crate::ctx::DecideError> {
            Ok(())
        }
        fn resume(
            &self,
            _: &mut Ctx<'_>,
            _: &crate::decision::PendingStep,
            _: &crate::decision::Closing<'_>,
        ) -> Result<(), crate::ctx::DecideError> {
            Ok(())
        }
    }

    #[test]
    fn an_offered_action_is_checked_against_its_spec_and_the_rest_left_to_the_rules() {
        let mut state = crate::state::MemoryState::default();
        for (id, owner) in [("aune", Some("p1")), ("raider", None)] {
            crate::state::StateMut::insert_combatant(
                &mut state,
                crate::testing::combatant(
                    id,
                    if owner.is_some() { "pc" } else { "npc" },
                    owner,
                    &[],
                ),
            );
        }
        let p1 = Seat::Player(SeatId::from("p1"));
        let (aune, raider) = (EntityId::from("aune"), EntityId::from("raider"));
        let target = Args::default().with("target", ArgValue::Text("raider".into()));
        let check = |seat: &Seat, actor: &EntityId, action: &str, args: &Args| {
            check_offered(&Strike, &state, seat, Some(actor), action, args)
                .map(|spec| spec.and_then(|s| s.actor))
        };
        // Offered: checked, and the spec comes back.
        assert_eq!(check(&p1, &aune, "strike", &target), Ok(Some(aune.clone())));
        // The GM acting for Aune is checked against what p1 is offered; for the raider,
        // against the GM's own catalogue.
        assert_eq!(
            check(&Seat::Gm, &aune, "strike", &target),
            Ok(Some(aune.clone()))
        );
        assert_eq!(
            check(&Seat::Gm, &raider, "strike", &target),
            Ok(Some(raider.clone()))
        );
        // Not offered (a misspelt action, another seat's character): the rules say why.
        assert_eq!(check(&p1, &aune, "strik", &target), Ok(None));
        assert_eq!(check(&p1, &raider, "strike", &target), Ok(None));
        // Offered, but not as sent.
        let cases = [
            (
                Args::default(),
                Refusal::bad_argument("target", "is required"),
            ),
            (
                target.clone().with("targte", ArgValue::Text("x".into())),
                Refusal::bad_argument("targte", "is not an argument of this action"),
            ),
            (
                target.clone().with("reach", ArgValue::Int(4)),
                Refusal::bad_argument("reach", "must be in 1..=3, got 4"),
            ),
            (
                target.clone().with("reach", ArgValue::Text("far".into())),
                Refusal::bad_argument("reach", "must be an integer"),
            ),
        ];
        for (args, refusal) in cases {
            assert_eq!(check(&p1, &aune, "strike", &args), Err(refusal), "{args:?}");
        }
    }
}

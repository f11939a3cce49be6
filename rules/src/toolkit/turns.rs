//! Turns for systems: who may act now whatever the shape of turns, the refusal for one who
//! may not, moving turns on (a group's turn, the spotlight, an action taken, a held action),
//! each as an event so that a replay follows the same turns, and the neutral sentence of who
//! may act that any client can show.

use crate::ctx::{Ctx, DecideError};
use crate::event::{Event, Fact};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Encounter, StateView};
pub use crate::turns::{TurnShape, Turns};

/// Who may act now. An individual turn is its current combatant: logs written before turn
/// structures set only `current`.
pub fn may_act(enc: &Encounter) -> Vec<EntityId> {
    match enc.turns.shape {
        TurnShape::Individual if enc.turns.now.is_empty() => enc.current.iter().cloned().collect(),
        _ => enc.turns.now.clone(),
    }
}

/// Refuses `actor` unless it may act now.
pub fn check_turn(state: &dyn StateView, actor: &EntityId) -> Result<(), Refusal> {
    let enc = state.encounter();
    let now = may_act(enc);
    if now.contains(actor) {
        return Ok(());
    }
    Err(Refusal::NotYourTurn {
        actor: actor.clone(),
        current: now.into_iter().next(),
    })
}

/// Opens `group`'s turn: `members` may act, each once, in any order.
pub fn open_group(
    ctx: &mut Ctx<'_>,
    group: &str,
    members: Vec<EntityId>,
) -> Result<(), DecideError> {
    ctx.emit(Event::public(Fact::TurnsOpened {
        shape: TurnShape::Group,
        group: Some(group.to_owned()),
        now: members,
    }))
}

/// Hands the spotlight to `to`.
pub fn spotlight(ctx: &mut Ctx<'_>, to: &EntityId) -> Result<(), DecideError> {
    ctx.emit(Event::public(Fact::TurnsOpened {
        shape: TurnShape::Spotlight,
        group: None,
        now: vec![to.clone()],
    }))
}

/// Records that `entity` has taken its action: it may not act again until the system opens a
/// turn for it. Returns whether that left nobody to act (the group's turn is over).
pub fn acted(ctx: &mut Ctx<'_>, entity: &EntityId) -> Result<bool, DecideError> {
    ctx.emit(Event::public(Fact::Acted {
        entity: entity.clone(),
    }))?;
    Ok(ctx.state.encounter().turns.now.is_empty())
}

/// Sets aside (or releases) `entity`'s held action.
pub fn hold(ctx: &mut Ctx<'_>, entity: &EntityId, holding: bool) -> Result<(), DecideError> {
    if ctx.state.encounter().turns.held.contains(entity) == holding {
        return Ok(());
    }
    ctx.emit(Event::public(Fact::HoldSet {
        entity: entity.clone(),
        holding,
    }))
}

/// Who may act now, in words any client can show without knowing the system: `aune's turn`,
/// `players: Ana, Bo still to act`, `spotlight: Ana`, with `; holding: Cy` when someone holds
/// an action. Names are the combatants' as the state holds them (an NPC's name is public).
pub fn describe(state: &dyn StateView) -> String {
    let enc = state.encounter();
    if !enc.active {
        return "no encounter".to_owned();
    }
    let name = |id: &EntityId| {
        state
            .combatant(id)
            .map_or_else(|| id.to_string(), |c| c.name.clone())
    };
    let names = |ids: &[EntityId]| ids.iter().map(name).collect::<Vec<_>>().join(", ");
    let now = may_act(enc);
    let mut text = match (enc.turns.shape, now.as_slice()) {
        (TurnShape::Individual, []) => "no one's turn".to_owned(),
        (TurnShape::Individual, [one]) => format!("{}'s turn", name(one)),
        (TurnShape::Individual, many) => format!("{} may act", names(many)),
        (TurnShape::Group, []) => format!(
            "{}: all have acted",
            enc.turns.group.as_deref().unwrap_or("the group")
        ),
        (TurnShape::Group, members) => format!(
            "{}: {} still to act",
            enc.turns.group.as_deref().unwrap_or("the group"),
            names(members)
        ),
        (TurnShape::Spotlight, []) => "the spotlight is free".to_owned(),
        (TurnShape::Spotlight, holders) => format!("spotlight: {}", names(holders)),
    };
    if !enc.turns.held.is_empty() {
        text.push_str(&format!("; holding: {}", names(&enc.turns.held)));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{MemoryState, StateMut};

    fn state(shape: TurnShape, group: Option<&str>, now: &[&str], held: &[&str]) -> MemoryState {
        let mut s = MemoryState::default();
        for (id, kind) in [("ana", "pc"), ("bo", "pc"), ("gob", "npc")] {
            let mut c = crate::testing::combatant(id, kind, None, &[]);
            c.name = format!("{}{}", id[..1].to_uppercase(), &id[1..]);
            s.insert_combatant(c);
        }
        let e = s.encounter_mut();
        e.active = true;
        e.turns = Turns {
            shape,
            group: group.map(str::to_owned),
            now: now.iter().map(|i| EntityId::from(*i)).collect(),
            acted: Vec::new(),
            held: held.iter().map(|i| EntityId::from(*i)).collect(),
        };
        s
    }

    #[test]
    fn who_may_act_is_told_in_words_for_every_shape() {
        use TurnShape::*;
        let cases = [
            (Individual, None, &["ana"][..], &[][..], "Ana's turn"),
            (Individual, None, &[][..], &[][..], "no one's turn"),
            (
                Group,
                Some("players"),
                &["ana", "bo"][..],
                &[][..],
                "players: Ana, Bo still to act",
            ),
            (
                Group,
                Some("enemies"),
                &[][..],
                &[][..],
                "enemies: all have acted",
            ),
            (
                Spotlight,
                None,
                &["bo"][..],
                &["ana"][..],
                "spotlight: Bo; holding: Ana",
            ),
            (Spotlight, None, &[][..], &[][..], "the spotlight is free"),
        ];
        for (shape, group, now, held, text) in cases {
            assert_eq!(describe(&state(shape, group, now, held)), text);
        }
        let mut ended = state(Group, Some("players"), &["ana"], &[]);
        ended.encounter_mut().active = false;
        assert_eq!(describe(&ended), "no encounter");
    }

    #[test]
    fn only_those_who_may_act_now_pass_the_turn_check() {
        let s = state(TurnShape::Group, Some("players"), &["ana", "bo"], &[]);
        assert_eq!(check_turn(&s, &"bo".into()), Ok(()));
        assert_eq!(
            check_turn(&s, &"gob".into()),
            Err(Refusal::NotYourTurn {
                actor: "gob".into(),
                current: Some("ana".into())
            })
        );
        // A log from before turn structures: the current combatant alone.
        let mut old = MemoryState::default();
        old.encounter_mut().current = Some("gob".into());
        assert_eq!(may_act(old.encounter()), vec![EntityId::from("gob")]);
        assert_eq!(check_turn(&old, &"gob".into()), Ok(()));
    }
}

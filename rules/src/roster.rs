//! Who is at the table, as events: a sheet that brings a combatant or replaces one, and the
//! GM giving a character to another seat. The rules of it are the same for every system: a
//! player brings and edits only her own player characters, between encounters, and an edit
//! does not heal; NPCs stay with the GM. Whether a seat exists is the host's to check: this
//! module knows seats only by id.

use crate::event::{Audience, Event, Fact};
use crate::ids::{Seat, SeatId};
use crate::redact::hide_gm_numbers;
use crate::refusal::Refusal;
use crate::state::{Combatant, Kind, StateView};
use crate::system::RuleSystem;

/// The event for `sheet` sent by `by`: an arrival, or (same id) a replacement that keeps where
/// the character stands, what ails it and who plays it. A player's replacement also keeps the
/// current resources (no healing by paperwork); the GM's sets them as the sheet says. A GM
/// sheet that names another owner for a character already here is a reassignment, logged as
/// such after the new sheet. NPC numbers stay the GM's (`hide_gm_numbers`).
pub fn sheet_added(
    state: &dyn StateView,
    mut sheet: Combatant,
    by: &Seat,
) -> Result<Event, Refusal> {
    match by {
        Seat::Gm => {}
        Seat::Player(me) => {
            if sheet.kind != Kind::Pc {
                return Err(Refusal::forbidden(
                    "players add player characters; NPCs are the GM's",
                ));
            }
            if state.encounter().active {
                return Err(Refusal::forbidden(
                    "characters join or change between encounters; during one, the GM does it",
                ));
            }
            // See: issue #24. A player's sheet is for her own seat: naming another seat would
            // hand her that seat's character.
            if let Some(owner) = sheet.owner.as_ref().filter(|o| *o != me) {
                return Err(Refusal::forbidden(format!(
                    "this sheet is for seat `{owner}`; a player adds characters for her own seat, and the GM gives characters to other seats"
                )));
            }
            if let Some(old) = state.combatant(&sheet.id)
                && old.owner.as_ref() != Some(me)
            {
                return Err(Refusal::forbidden(format!(
                    "`{}` is at the table and is not your character",
                    sheet.id
                )));
            }
            sheet.owner = Some(me.clone());
        }
        Seat::Spectator(_) => return Err(Refusal::forbidden("spectators add no characters")),
    }
    if sheet.kind != Kind::Pc && sheet.owner.is_some() {
        return Err(Refusal::forbidden(
            "NPCs and objects stay with the GM: their numbers are the GM's, and an owner would play them blind",
        ));
    }
    let old = state.combatant(&sheet.id);
    let mut reassigned = None;
    if let Some(old) = old {
        sheet.position = old.position;
        sheet.statuses.extend(old.statuses.clone());
        if let Some(to) = sheet
            .owner
            .take()
            .filter(|to| old.owner.as_ref() != Some(to))
        {
            reassigned = Some(Fact::OwnerSet {
                entity: sheet.id.clone(),
                from: old.owner.clone(),
                to: Some(to),
            });
        }
        sheet.owner = old.owner.clone();
        if !by.is_gm() {
            sheet.resources = old.resources.clone();
        }
    }
    let mut event = Event::public(Fact::CombatantAdded {
        combatant: Box::new(sheet),
        replaces: old.is_some(),
    });
    if let Some(fact) = reassigned {
        event = event.with(Audience::Everyone, fact);
    }
    Ok(hide_gm_numbers(event, state))
}

/// Whether `by` may send `sheet`: a player replacing her own character is asked of the
/// system (`RuleSystem::player_edit`), so that a level earned in play is not rewritten by
/// hand. Arrivals and the GM's edits pass.
pub fn edit_allowed(
    system: &dyn RuleSystem,
    state: &dyn StateView,
    sheet: &Combatant,
    by: &Seat,
) -> Result<(), Refusal> {
    if by.is_gm() {
        return Ok(());
    }
    match state.combatant(&sheet.id) {
        Some(old) => system.player_edit(old, sheet),
        None => Ok(()),
    }
}

/// The GM gives the player character `entity` to seat `to` (`None`: the GM plays it). `None`
/// when it already has that owner: nothing to log.
pub fn owner_given(
    state: &dyn StateView,
    entity: &str,
    to: Option<SeatId>,
    by: &Seat,
) -> Result<Option<Event>, Refusal> {
    if !by.is_gm() {
        return Err(Refusal::forbidden(
            "giving a character to a seat is the GM's",
        ));
    }
    let c = state
        .combatant(&entity.into())
        .ok_or_else(|| Refusal::UnknownEntity(entity.into()))?;
    if c.kind != Kind::Pc {
        return Err(Refusal::forbidden(format!(
            "`{entity}` is not a player character; NPCs stay with the GM"
        )));
    }
    if c.owner == to {
        return Ok(None);
    }
    let event = Event::public(Fact::OwnerSet {
        entity: c.id.clone(),
        from: c.owner.clone(),
        to,
    });
    Ok(Some(hide_gm_numbers(event, state)))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::options::TableOptions;
    use crate::state::{MemoryState, StateMut};

    fn sheet(id: &str, kind: &str, owner: Option<&str>, condition_max: i64) -> Combatant {
        crate::testing::combatant(id, kind, owner, &[("condition", condition_max)])
    }

    fn state_with(cs: Vec<Combatant>) -> MemoryState {
        let mut s = MemoryState::new(TableOptions::default());
        for c in cs {
            s.insert_combatant(c);
        }
        s
    }

    fn player(id: &str) -> Seat {
        Seat::Player(id.into())
    }

    fn code(r: Result<Event, Refusal>) -> &'static str {
        match r {
            Ok(_) => "ok",
            Err(r) => r.code(),
        }
    }

    /// Who may send which sheet: (what, sheet, sender, the refusal's code or "ok").
    #[test]
    fn a_seat_adds_only_the_characters_it_may() {
        let mara = sheet("mara", "pc", Some("rui"), 14);
        let s = state_with(vec![mara.clone()]);
        let cases = [
            (
                "a player's own new PC",
                sheet("aune", "pc", None, 14),
                player("ines"),
                "ok",
            ),
            (
                "her seat named",
                sheet("aune", "pc", Some("ines"), 14),
                player("ines"),
                "ok",
            ),
            (
                "another seat named",
                sheet("aune", "pc", Some("rui"), 14),
                player("ines"),
                "forbidden",
            ),
            (
                "another seat's PC",
                sheet("mara", "pc", Some("ines"), 14),
                player("ines"),
                "forbidden",
            ),
            (
                "a player's NPC",
                sheet("gob", "npc", None, 9),
                player("ines"),
                "forbidden",
            ),
            (
                "a spectator's PC",
                sheet("eve", "pc", None, 9),
                Seat::Spectator("eve".into()),
                "forbidden",
            ),
            ("the GM's NPC", sheet("gob", "npc", None, 9), Seat::Gm, "ok"),
            (
                "an owned NPC",
                sheet("gob", "npc", Some("rui"), 9),
                Seat::Gm,
                "forbidden",
            ),
            (
                "the GM edits anyone's",
                sheet("mara", "pc", None, 20),
                Seat::Gm,
                "ok",
            ),
        ];
        for (what, c, by, want) in cases {
            assert_eq!(code(sheet_added(&s, c, &by)), want, "{what}");
        }
    }

    #[test]
    fn a_replacement_says_so_keeps_the_owner_and_a_player_edit_does_not_heal() {
        let mut mara = sheet("mara", "pc", Some("rui"), 14);
        mara.resources.insert("condition".into(), 3);
        let s = state_with(vec![mara]);
        let replaced = |e: &Event| match &e.parts[0].fact {
            Fact::CombatantAdded {
                combatant,
                replaces,
            } => (
                *replaces,
                combatant.owner.clone(),
                combatant.resource("condition"),
            ),
            other => panic!("{other:?}"),
        };
        let by_rui = sheet_added(&s, sheet("mara", "pc", None, 20), &player("rui")).unwrap();
        assert_eq!(replaced(&by_rui), (true, Some("rui".into()), 3));
        let by_gm = sheet_added(&s, sheet("mara", "pc", None, 20), &Seat::Gm).unwrap();
        assert_eq!(replaced(&by_gm), (true, Some("rui".into()), 20));
        assert_eq!(by_gm.parts.len(), 1, "no owner named, no reassignment");
        // The GM naming another owner reassigns, as its own fact after the sheet.
        let moved = sheet_added(&s, sheet("mara", "pc", Some("ines"), 20), &Seat::Gm).unwrap();
        assert_eq!(replaced(&moved).1, Some("rui".into()));
        assert!(matches!(
            &moved.parts[1].fact,
            Fact::OwnerSet { from: Some(f), to: Some(t), .. } if f.0 == "rui" && t.0 == "ines"
        ));
        let new = sheet_added(&s, sheet("aune", "pc", None, 14), &player("ines")).unwrap();
        assert_eq!(replaced(&new), (false, Some("ines".into()), 14));
    }

    #[test]
    fn only_the_gm_gives_a_pc_away_and_giving_it_to_its_owner_logs_nothing() {
        let s = state_with(vec![
            sheet("mara", "pc", Some("rui"), 14),
            sheet("gob", "npc", None, 9),
        ]);
        let to = |id: &str| Some(SeatId::from(id));
        let given = owner_given(&s, "mara", to("ines"), &Seat::Gm)
            .unwrap()
            .unwrap();
        assert!(matches!(
            &given.parts[0].fact,
            Fact::OwnerSet { from: Some(f), to: Some(t), .. } if f.0 == "rui" && t.0 == "ines"
        ));
        assert!(
            owner_given(&s, "mara", to("rui"), &Seat::Gm)
                .unwrap()
                .is_none()
        );
        let refused = |r: Result<Option<Event>, Refusal>| r.err().map(|r| r.code());
        assert_eq!(
            refused(owner_given(&s, "mara", None, &player("rui"))),
            Some("forbidden")
        );
        assert_eq!(
            refused(owner_given(&s, "gob", to("rui"), &Seat::Gm)),
            Some("forbidden")
        );
        assert_eq!(
            refused(owner_given(&s, "nobody", to("rui"), &Seat::Gm)),
            Some("unknown_entity")
        );
    }
}

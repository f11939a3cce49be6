//! One vocabulary for telling what happened, whatever the system: who did what to whom with
//! what, the roll and what it was compared with, the effects with their before and after, and
//! what each combatant has left of its turn.
//!
//! A system attaches an [`Account`] to each event that rolls or changes something, in its own
//! words (a verb such as "shoots", a roll's label such as "evade", the name of what a total is
//! compared with such as "TN" or "challenge rating", the result such as "hit"). Clients build
//! their sentence from the account alone, so they never need to know the system; the facts
//! beside it stay the record `apply` and the verifiers read.
//!
//! Redaction is generic ([`Account::without_gm_numbers`]): what a seat may not know is taken
//! out of its copy, never blurred in the text.

use serde::{Deserialize, Serialize};

use crate::dice::Roll;
use crate::ids::EntityId;
use crate::modifier::Modifier;

/// What one event did, in words a client can render without knowing the system.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Account {
    /// Who acts; `None` for what happens by itself (bleeding, a trap).
    pub actor: Option<EntityId>,
    /// The system's verb, third person: `shoots`, `attacks`, `tries`.
    pub verb: String,
    pub target: Option<EntityId>,
    /// What it is done with: a weapon's or a technique's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instrument: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roll: Option<RollTold>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<Effect>,
    /// What each combatant the event touched has left of its turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub budget: Vec<Budget>,
}

/// A roll as told: who rolled, for what, the dice, the labelled modifiers and the total, what
/// it was compared with and the result in the system's word.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollTold {
    /// Who rolled, when not the actor (the defender who evades).
    pub by: Option<EntityId>,
    /// The system's name for the roll: `evade`, `COR attack`, `initiative`.
    pub label: String,
    pub roll: Roll,
    /// Empty for a seat that may not see them (an NPC's attributes).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modifiers: Vec<Modifier>,
    /// `None` for a seat that may not see it (it would tell the modifiers).
    pub total: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub against: Option<Compared>,
    /// The result in the system's word: `hit`, `miss`, `success`, `fumble`.
    pub result: String,
    /// Why the result is not what the numbers say (`natural 20`), if so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub because: Option<String>,
    /// How far the total landed on the good side of what it was compared with, for systems
    /// whose rules read it (degrees of success, a push's size). `None` for a seat that may
    /// not see the total or the value compared with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin: Option<i64>,
}

/// What a total was compared with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Compared {
    /// The system's word for it: `TN`, `challenge rating`, `Guard`, another roller's total.
    pub name: String,
    /// `None` for a seat from whom it is hidden.
    pub value: Option<i64>,
    /// Hidden from every seat but the GM's (a GM-set target number).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hidden: bool,
    /// The total must beat it, not merely reach it (with `under`: stay below it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exceed: bool,
    /// A roll-under: the total must not go over it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub under: bool,
}

impl Compared {
    /// Which side of the value succeeds.
    pub fn direction(&self) -> crate::direction::Direction {
        use crate::direction::Direction;
        match (self.under, self.exceed) {
            (false, false) => Direction::Reach,
            (false, true) => Direction::Exceed,
            (true, false) => Direction::AtMost,
            (true, true) => Direction::Below,
        }
    }
}

/// A change to one combatant: damage, healing, a resource spent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Effect {
    pub entity: EntityId,
    /// What it is, in the system's word: `damage`, `healing`, `Focus spent`.
    pub what: String,
    /// How the amount was built: `3` then `armour -1`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<Modifier>,
    /// `None` for a seat that may not see it.
    pub amount: Option<i64>,
    /// The resource it moved, in the system's word (`Condition`), with its value before and
    /// after; `None` values for a seat that may not see them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<i64>,
    /// The state anyone at the table can see (`bloodied`, `down`): what a seat that may not
    /// see the numbers learns instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wound: Option<String>,
}

/// What one combatant has left of its turn: `1 action`, `2 attacks`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Budget {
    pub entity: EntityId,
    pub left: Vec<Modifier>,
}

/// What a system says about the action under way, so that the accounts of the events it
/// emits meanwhile name the actor, verb, target and instrument, and word the results. Kept on
/// the decision context (`Ctx::telling`), never logged.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Telling {
    pub actor: Option<EntityId>,
    pub verb: String,
    pub target: Option<EntityId>,
    pub instrument: Option<String>,
}

impl Account {
    /// Whether the account tells no more than that something happened: no roll, and no effect
    /// with an amount or a wound level. What is left of one once a seat's view has lost the
    /// numbers of an NPC's own change (its Focus spent).
    pub fn tells_nothing(&self) -> bool {
        self.roll.is_none()
            && self
                .effects
                .iter()
                .all(|e| e.amount.is_none() && e.wound.is_none())
    }

    /// The copy for seats that may not see the numbers of the combatants `hidden` says are the
    /// GM's, nor target numbers the GM keeps: those numbers are removed (wound levels stay).
    /// `None` when nothing needs removing, so the whole account can go to everyone.
    pub fn without_gm_numbers(&self, hidden: impl Fn(&EntityId) -> bool) -> Option<Account> {
        let mut seen = self.clone();
        let actor_hidden = self.actor.as_ref().is_some_and(&hidden);
        if actor_hidden {
            // What it is done with comes from its sheet (an NPC's weapon is the GM's to name).
            seen.instrument = None;
        }
        if let Some(roll) = &mut seen.roll {
            let roller = roll.by.as_ref().or(self.actor.as_ref());
            if roller.is_some_and(&hidden) {
                roll.modifiers.clear();
                roll.total = None;
                roll.margin = None;
            }
            if let Some(against) = &mut roll.against
                && against.hidden
            {
                against.value = None;
                roll.margin = None;
            }
        }
        for effect in &mut seen.effects {
            if hidden(&effect.entity) {
                effect.steps.clear();
                effect.amount = None;
                effect.before = None;
                effect.after = None;
            } else if actor_hidden {
                // The steps show the source's numbers; the amount is what anyone hears.
                effect.steps.clear();
            }
        }
        seen.budget.retain(|b| !hidden(&b.entity));
        (seen != *self).then_some(seen)
    }
}

/// "1 round", "3 rounds": a count as a sentence says it.
pub fn plural(n: i64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::dice::{DiceExpr, ScriptedDice, roll};

    fn d20(face: u32) -> Roll {
        let expr: DiceExpr = "1d20".parse().unwrap();
        roll(&expr, &mut ScriptedDice::new(vec![face])).unwrap()
    }

    fn shot() -> Account {
        Account {
            actor: Some("gob".into()),
            verb: "shoots".into(),
            target: Some("mara".into()),
            instrument: Some("crossbow".into()),
            roll: Some(RollTold {
                by: Some("mara".into()),
                label: "evade".into(),
                roll: d20(8),
                modifiers: vec![Modifier::new("AGL", 2)],
                total: Some(10),
                against: Some(Compared {
                    name: "TN".into(),
                    value: Some(12),
                    hidden: true,
                    exceed: false,
                    under: false,
                }),
                result: "hit".into(),
                because: None,
                margin: Some(-2),
            }),
            effects: vec![Effect {
                entity: "mara".into(),
                what: "damage".into(),
                steps: vec![Modifier::new("dice", 3), Modifier::new("armour", -1)],
                amount: Some(2),
                resource: Some("Condition".into()),
                before: Some(12),
                after: Some(10),
                wound: Some("hurt".into()),
            }],
            budget: vec![Budget {
                entity: "gob".into(),
                left: vec![Modifier::new("attacks", 1)],
            }],
        }
    }

    /// (what, which combatants are the GM's, what the stand-in keeps).
    #[test]
    fn the_stand_in_loses_exactly_the_numbers_a_seat_may_not_see() {
        let whole = shot();
        // An NPC shoots a PC: the hidden TN and the NPC's budget go, the PC's numbers stay,
        // and the NPC's damage steps go (they show its numbers) while the amount stays.
        let seen = whole.without_gm_numbers(|e| e.as_str() == "gob").unwrap();
        assert_eq!(seen.instrument, None, "the NPC's weapon is on its sheet");
        let roll = seen.roll.as_ref().unwrap();
        assert_eq!(roll.against.as_ref().unwrap().value, None);
        assert_eq!(roll.margin, None, "the margin would tell the hidden TN");
        assert_eq!(roll.total, Some(10));
        assert_eq!(roll.modifiers, vec![Modifier::new("AGL", 2)]);
        assert_eq!(seen.effects[0].amount, Some(2));
        assert!(seen.effects[0].steps.is_empty());
        assert_eq!(
            (seen.effects[0].before, seen.effects[0].after),
            (Some(12), Some(10))
        );
        assert!(seen.budget.is_empty());

        // A PC hits an NPC: its numbers go, its wound stays; the PC's roll stays whole.
        let mut hit = shot();
        hit.actor = Some("mara".into());
        hit.target = Some("gob".into());
        hit.roll.as_mut().unwrap().by = None;
        hit.roll.as_mut().unwrap().against.as_mut().unwrap().hidden = false;
        hit.effects[0].entity = "gob".into();
        hit.budget[0].entity = "mara".into();
        let seen = hit.without_gm_numbers(|e| e.as_str() == "gob").unwrap();
        assert_eq!(seen.roll, hit.roll);
        assert_eq!(seen.instrument.as_deref(), Some("crossbow"));
        let effect = &seen.effects[0];
        assert_eq!(
            (
                effect.amount,
                effect.before,
                effect.after,
                effect.steps.len()
            ),
            (None, None, None, 0)
        );
        assert_eq!(effect.wound.as_deref(), Some("hurt"));
        assert_eq!(seen.budget, hit.budget);

        // An NPC that rolls against an open number: no modifiers and no total for the table.
        let mut npc_roll = hit.clone();
        npc_roll.actor = Some("gob".into());
        npc_roll.effects.clear();
        npc_roll.budget.clear();
        let seen = npc_roll
            .without_gm_numbers(|e| e.as_str() == "gob")
            .unwrap();
        let roll = seen.roll.unwrap();
        assert_eq!(
            (roll.total, roll.modifiers.len(), roll.margin),
            (None, 0, None)
        );
        assert_eq!(roll.against.unwrap().value, Some(12));

        // Nothing of the GM's: no stand-in.
        let mut open = hit;
        open.effects.clear();
        assert_eq!(open.without_gm_numbers(|_| false), None);
    }
}

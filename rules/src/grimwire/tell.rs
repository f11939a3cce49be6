//! GRIMWIRE's words for the accounts its events carry (see `crate::account`): the verb of an
//! attack by weapon class, the result of an attack or an evade as `hit` or `miss`, the
//! target number as `TN`, Condition as the resource damage moves, what a character has left of
//! its turn, and a wound level for the seats that may not see an NPC's Condition.
//!
//! The wound levels are ours, not the text's (it has none): `unhurt` at full Condition, `hurt`
//! above half, `bloodied` at half or below, `down` at 0 or below, then the statuses `dying`
//! and `dead`. They are what anyone at the table could see of a body.

use crate::account::{Account, Budget, Compared, Effect, RollTold, Telling};
use crate::dice::Roll;
use crate::engine::Ctx;
use crate::event::{Audience, Event, Fact, Modifier, Outcome, Part};
use crate::ids::EntityId;
use crate::state::{Combatant, StateView};

use super::economy::{self, AUX_USED, MOVE_CLOSED, MOVED_M};
use super::sheet::{Weapon, WeaponClass};
use super::{ACTION_SPENT, CONDITION, DEAD, DYING};

/// What an attack with `weapon` is told as.
pub fn attack(who: &EntityId, target: &EntityId, weapon: &Weapon) -> Telling {
    let verb = match weapon.class {
        WeaponClass::Ranged => "shoots",
        WeaponClass::Thrown => "throws at",
        WeaponClass::Supernatural => "strikes with power at",
        _ => "attacks",
    };
    Telling {
        actor: Some(who.clone()),
        verb: verb.to_owned(),
        target: Some(target.clone()),
        instrument: Some(weapon.name.clone()),
    }
}

/// The result of a roll in GRIMWIRE's words: an attack hits or misses; an evade that succeeds
/// means the attack misses; any other check succeeds or fails.
fn result(label: &str, outcome: Outcome) -> &'static str {
    let success = outcome == Outcome::Success;
    match outcome {
        Outcome::Unjudged => "",
        _ if matches!(label, "COR attack" | "RSN attack") => {
            if success {
                "hit"
            } else {
                "miss"
            }
        }
        _ if matches!(label, "AGL evade" | "RSN evade") => {
            if success {
                "miss"
            } else {
                "hit"
            }
        }
        _ if success => "success",
        _ => "failure",
    }
}

/// What a roll came to: the dice, the labelled modifiers, the total.
pub struct Rolled<'a> {
    pub roll: &'a Roll,
    pub modifiers: &'a [Modifier],
    pub total: i64,
}

/// The account of a check `who` rolled against a target number (`None`: an open roll), which
/// `hidden` keeps from the players.
pub fn check(
    ctx: &Ctx<'_>,
    who: &EntityId,
    label: &str,
    r: Rolled<'_>,
    tn: Option<(i64, bool)>,
    outcome: Outcome,
    because: Option<String>,
) -> Account {
    let against = tn.map(|(tn, hidden)| Compared {
        name: "TN".into(),
        value: Some(tn),
        hidden,
        exceed: false,
        under: false,
    });
    told(ctx, who, label, r, against, outcome, because)
}

/// The account of an attack roll against a defender's roll.
#[allow(clippy::too_many_arguments)]
pub fn opposed(
    ctx: &Ctx<'_>,
    who: &EntityId,
    label: &str,
    r: Rolled<'_>,
    defender: &EntityId,
    d_label: &str,
    d_total: i64,
    outcome: Outcome,
    because: Option<String>,
) -> Account {
    let against = Some(Compared {
        name: format!("{defender}'s {d_label}"),
        value: Some(d_total),
        hidden: false,
        exceed: true,
        under: false,
    });
    told(ctx, who, label, r, against, outcome, because)
}

fn told(
    ctx: &Ctx<'_>,
    who: &EntityId,
    label: &str,
    r: Rolled<'_>,
    against: Option<Compared>,
    outcome: Outcome,
    because: Option<String>,
) -> Account {
    let telling = ctx.telling.clone().unwrap_or_else(|| Telling {
        actor: Some(who.clone()),
        verb: "rolls".into(),
        ..Telling::default()
    });
    let by = (telling.actor.as_ref() != Some(who)).then(|| who.clone());
    let budget = telling
        .actor
        .iter()
        .filter_map(|a| budget(ctx, a))
        .collect();
    Account {
        actor: telling.actor,
        verb: telling.verb,
        target: telling.target,
        instrument: telling.instrument,
        roll: Some(RollTold {
            by,
            label: label.to_owned(),
            roll: r.roll.clone(),
            modifiers: r.modifiers.to_vec(),
            total: Some(r.total),
            against,
            result: result(label, outcome).to_owned(),
            because,
            // GRIMWIRE's rules read no margin: a hit is a hit however far it lands.
            margin: None,
        }),
        effects: Vec::new(),
        budget,
    }
}

/// The account of `amount` damage to `target` from `source`, built by `steps`, taking its
/// Condition to `after` of `max`.
pub fn damage(
    ctx: &Ctx<'_>,
    target: &Combatant,
    source: Option<&EntityId>,
    amount: i64,
    steps: Vec<Modifier>,
    after: i64,
    max: i64,
) -> Account {
    let telling = ctx.telling.clone().unwrap_or_else(|| Telling {
        actor: source.cloned(),
        verb: if source.is_some() { "hurts" } else { "" }.into(),
        ..Telling::default()
    });
    let before = target.resource(CONDITION);
    Account {
        actor: telling.actor,
        verb: telling.verb,
        target: Some(target.id.clone()),
        instrument: telling.instrument,
        roll: None,
        effects: vec![Effect {
            entity: target.id.clone(),
            what: "damage".into(),
            steps,
            amount: Some(amount),
            resource: Some("Condition".into()),
            before: Some(before),
            after: Some(after),
            wound: Some(wound(target, after, max).to_owned()),
        }],
        budget: Vec::new(),
    }
}

/// A resource moved by something other than damage, in GRIMWIRE's word for it.
pub struct Change<'a> {
    pub key: &'a str,
    pub word: &'a str,
    pub to: i64,
}

/// Sets each of `changes` on `who` in one event that tells it: `aune uses Overclock: -4 Focus
/// (Focus 2 → -2)`. Nothing is emitted when nothing changes. Only the GM reads it of a
/// combatant whose numbers are the GM's.
pub fn resources(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    verb: String,
    changes: &[Change<'_>],
) -> Result<(), crate::engine::DecideError> {
    let c = ctx.combatant(who)?;
    let mut parts = Vec::new();
    let mut effects = Vec::new();
    for change in changes {
        let from = c.resource(change.key);
        if from == change.to {
            continue;
        }
        parts.push(Part {
            audience: Audience::Everyone,
            fact: Fact::ResourceSet {
                entity: who.clone(),
                resource: change.key.to_owned(),
                from,
                to: change.to,
            },
        });
        effects.push(Effect {
            entity: who.clone(),
            what: change.word.to_owned(),
            steps: Vec::new(),
            amount: Some(change.to - from),
            resource: Some(change.word.to_owned()),
            before: Some(from),
            after: Some(change.to),
            wound: None,
        });
    }
    if parts.is_empty() {
        return Ok(());
    }
    let account = Account {
        actor: Some(who.clone()),
        verb,
        effects,
        ..Account::default()
    };
    parts.push(Part {
        audience: Audience::Everyone,
        fact: Fact::Told(Box::new(account)),
    });
    ctx.emit(Event { parts })
}

/// The wound level anyone can see of `c` at Condition `condition` of `max`.
pub fn wound(c: &Combatant, condition: i64, max: i64) -> &'static str {
    if c.has_status(DEAD) {
        "dead"
    } else if c.has_status(DYING) {
        "dying"
    } else if condition <= 0 {
        "down"
    } else if condition * 2 <= max {
        "bloodied"
    } else if condition < max {
        "hurt"
    } else {
        "unhurt"
    }
}

/// What `who` has left of its turn during an encounter: its action, its free auxiliary action
/// and its movement in metres. `None` outside its turn.
fn budget(ctx: &Ctx<'_>, who: &EntityId) -> Option<Budget> {
    // Only a turn has a budget: not the initiative rolls, not a reaction off one's turn.
    let enc = ctx.state.encounter();
    if !enc.active || enc.current.as_ref() != Some(who) {
        return None;
    }
    let c = ctx.state.combatant(who)?;
    let action = i64::from(c.resource(ACTION_SPENT) == 0);
    let moves = if c.turn_counter(MOVE_CLOSED) != 0 {
        0
    } else {
        let allowance = economy::movement_allowance(ctx, who).ok()?;
        (allowance - c.turn_counter(MOVED_M)).max(0)
    };
    Some(Budget {
        entity: who.clone(),
        left: vec![
            Modifier::new("action", action),
            Modifier::new("auxiliary", i64::from(c.turn_counter(AUX_USED) == 0)),
            Modifier::new("m of movement", moves),
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grimwire::sheet::DamageType;

    #[test]
    fn an_attack_is_told_by_its_weapons_class() {
        let weapon = |class| Weapon {
            id: "w".into(),
            name: "W".into(),
            class,
            damage: None,
            damage_type: DamageType::Blunt,
            tog_req: 0,
            range_m: None,
            shielding: 0,
            instability: None,
        };
        for (class, verb) in [
            (WeaponClass::Light, "attacks"),
            (WeaponClass::Heavy, "attacks"),
            (WeaponClass::Unarmed, "attacks"),
            (WeaponClass::Ranged, "shoots"),
            (WeaponClass::Thrown, "throws at"),
            (WeaponClass::Supernatural, "strikes with power at"),
        ] {
            let told = attack(&"a".into(), &"b".into(), &weapon(class));
            assert_eq!(told.verb, verb, "{class:?}");
            assert_eq!(told.instrument.as_deref(), Some("W"));
        }
    }
}

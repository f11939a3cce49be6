//! The stun attack, out of combat on a target unaware of the attacker: the attacker must be
//! hidden (marked `ambusher`, by a Stealth check no one saw through or by the GM); the attack
//! is d10 + Body or Senses + bonuses + 3 (ambush) against Evade, with no dodge (the target does
//! not know it is coming). A hit deals stun damage: (weapon die + Body or Senses + bonuses) × 2,
//! then the weapon's Stunning bonus, less Toughness (`mist.stun_toughness`). No critical: the
//! doubling is the stun's own rule. If that does not bring Life to 0 or below, nothing happens
//! (no regular damage). Otherwise the target makes the consciousness check against the points
//! the stun damage went below 0, plus 5 (E13's 16): failed, it falls unconscious, its Life
//! untouched and that difficulty to revive it; passed, it loses the Life the stun damage went
//! below 0, never below 0 itself (as a passed check never leaves it below 0). A Fatigue point
//! either way, as every consciousness check gives. The attack gives the attacker away: its mark
//! goes, hit or miss.

use crate::account::{Account, Effect, Telling};
use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::event::{Event, Fact, Modifier};
use crate::refusal::Refusal;
use crate::state::{Combatant, Kind, StateView};

use super::attack;
use super::checks;
use super::options::{STUN_TOUGHNESS, UNARMED_ROUNDING, is};
use super::reload;
use super::sheet::WeaponKind;
use super::{ARMOURED, LIFE, UNCONSCIOUS, sheet_of};

pub fn stun(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    if ctx.state.encounter().active {
        return Err(Refusal::Rule(
            "a stun attack is made out of combat; in a fight a knock-out is Life below 0 and a failed consciousness check".into(),
        )
        .into());
    }
    super::able(c)?;
    if !c.has_status(super::AMBUSHER) {
        return Err(Refusal::Rule(format!(
            "{} is not hidden: a stun attack needs a target unaware of the attacker (an unspotted hider, marked `ambusher`)",
            c.id
        ))
        .into());
    }
    let t = attack::target_of(ctx, c, args)?;
    if t.kind == Kind::Object {
        return Err(
            Refusal::bad_argument("target", "is an object: it has no consciousness").into(),
        );
    }
    if t.has_status(UNCONSCIOUS) {
        return Err(Refusal::Rule(format!("{} is unconscious already", t.id)).into());
    }
    let w = attack::weapon_of(c, args)?;
    reload::fired(ctx, &c.id, &w)?;
    if w.kind == WeaponKind::Gun && !attack::powder_fires(ctx, c, &w)? {
        return super::stealth::clear_mark(ctx, c);
    }
    let extra = attack::standing_bonuses(c, &t);
    let sheet = sheet_of(c)?.clone();
    let bonuses = checks::attack_modifiers(&sheet, &w, &extra);
    let difficulty = sheet_of(&t)?.evade;
    ctx.telling = Some(Telling {
        actor: Some(c.id.clone()),
        verb: "makes a stun attack on".into(),
        target: Some(t.id.clone()),
        instrument: Some(w.name.clone()),
    });
    let (hit, _) = attack::attack_roll(ctx, c, &t, "stun attack", bonuses, difficulty)?;
    ctx.telling = None;
    super::stealth::clear_mark(ctx, c)?;
    if !hit {
        return Ok(());
    }
    let (die, _, lands) = attack::weapon_die(ctx, c, &w, "stun damage")?;
    if !lands {
        return Ok(());
    }
    let mut steps = vec![Modifier::new(
        format!("{} ({})", w.name, w.damage.word()),
        die,
    )];
    steps.extend(checks::damage_modifiers(&sheet, &w));
    let damage: i64 = steps.iter().map(|m| m.value).sum();
    steps.push(Modifier::new("stun: doubled", damage));
    if w.stunning != 0 {
        steps.push(Modifier::new("Stunning", w.stunning));
    }
    let stun = checks::stun_damage(damage, w.stunning);
    let ts = sheet_of(&t)?;
    let toughness = if is(ctx.state.options(), STUN_TOUGHNESS, "subtracts") {
        ts.toughness
    } else {
        0
    };
    let armoured = ts.armoured || t.has_status(ARMOURED);
    let halve = (w.kind == WeaponKind::Unarmed && armoured)
        .then(|| is(ctx.state.options(), UNARMED_ROUNDING, "up"));
    let taken = checks::damage_taken(stun, toughness, halve);
    if halve.is_some() {
        steps.push(Modifier::new(
            "bare hands against armour: half",
            taken + toughness - stun,
        ));
    }
    if toughness != 0 {
        steps.push(Modifier::new("Toughness", -toughness));
    }
    let life = t.resource(LIFE);
    let below = checks::stun_below_zero(taken, life);
    let account = Account {
        actor: Some(c.id.clone()),
        verb: "stuns".into(),
        target: Some(t.id.clone()),
        instrument: Some(w.name.clone()),
        roll: None,
        effects: vec![Effect {
            entity: t.id.clone(),
            what: "stun damage".into(),
            steps,
            amount: Some(taken),
            resource: None,
            before: None,
            after: None,
            wound: Some(
                if below.is_some() {
                    "stunned: a consciousness check"
                } else {
                    "not enough to stun"
                }
                .into(),
            ),
        }],
        budget: Vec::new(),
    };
    ctx.emit(Event::public(Fact::Told(Box::new(account))))?;
    let Some(below) = below else {
        return Ok(());
    };
    let difficulty = below + checks::CONSCIOUSNESS_BASE;
    if attack::consciousness_check(ctx, &t.id, difficulty)? {
        ctx.set_resource(&t.id, LIFE, (life - below).max(0).min(life))?;
    }
    Ok(())
}

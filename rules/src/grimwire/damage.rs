//! Damage: the order of operations from a hit's dice to the Condition lost, and what losing
//! Condition does (dying at 0 or below, death below -10).
//!
//! Order (the text gives none; docs/grimwire.md explains the choice): dice, + TOG for melee
//! and thrown, floor of 1, x2 for a natural 20, armour (floor 1), immunity / weakness /
//! resistance, then halving for a tied player-vs-player attack (floor 1).

use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::event::{Audience, Event, Fact, Modifier};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::StateView;

use super::burnout::{begin_dying, die};
use super::options::{self, HALF_ROUNDING};
use super::sheet::{DamageType, Sheet};
use super::{CONDITION, DEAD_BELOW, DYING, ID, sheet_of};

/// Everything that shapes one hit's damage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DamageInput {
    /// Total of the weapon's dice (0 for unarmed).
    pub dice: i64,
    /// The attacker's TOG when it applies (melee and thrown), else `None`.
    pub tog: Option<i64>,
    pub natural_20: bool,
    pub damage_type: DamageType,
    /// The target's armour value when its armour covers this damage type, else 0.
    pub armour: i64,
    pub weak: bool,
    pub resist: bool,
    pub immune: bool,
    /// A tied player-vs-player attack: the defender takes half.
    pub tie_half: bool,
    pub round_half_up: bool,
}

impl DamageInput {
    /// Fills in the target's armour, weakness, resistance and immunity for `damage_type`.
    pub fn against(
        dice: i64,
        tog: Option<i64>,
        natural_20: bool,
        damage_type: DamageType,
        target: &Sheet,
    ) -> Self {
        let armour = target
            .armour
            .as_ref()
            .filter(|a| a.types.contains(&damage_type))
            .map(|a| a.value)
            .unwrap_or(0);
        DamageInput {
            dice,
            tog,
            natural_20,
            damage_type,
            armour,
            weak: target.weak.contains(&damage_type),
            resist: target.resist.contains(&damage_type),
            immune: target.immune.contains(&damage_type),
            tie_half: false,
            round_half_up: false,
        }
    }
}

pub fn half(x: i64, up: bool) -> i64 {
    if up { (x + 1) / 2 } else { x / 2 }
}

/// Computes one hit's damage, returning each step (for the log) and the final amount.
pub fn damage_steps(d: &DamageInput) -> (Vec<Modifier>, i64) {
    let mut steps = vec![Modifier::new("dice", d.dice)];
    let mut x = d.dice;
    if let Some(tog) = d.tog {
        x += tog;
        steps.push(Modifier::new("+ TOG", tog));
    }
    if x < 1 {
        steps.push(Modifier::new("minimum 1", 1 - x));
        x = 1;
    }
    if d.natural_20 {
        steps.push(Modifier::new("natural 20: x2", x));
        x *= 2;
    }
    if d.armour > 0 {
        let after = (x - d.armour).max(1);
        steps.push(Modifier::new(
            format!("armour {} (minimum 1)", d.armour),
            after - x,
        ));
        x = after;
    }
    if d.immune {
        steps.push(Modifier::new("immune", -x));
        x = 0;
    } else if d.weak {
        steps.push(Modifier::new("weakness: x2", x));
        x *= 2;
    } else if d.resist {
        let after = half(x, d.round_half_up).max(1);
        steps.push(Modifier::new("resistance: half", after - x));
        x = after;
    }
    if d.tie_half && x > 0 {
        let after = half(x, d.round_half_up).max(1);
        steps.push(Modifier::new("tie: half", after - x));
        x = after;
    }
    (steps, x)
}

pub fn round_half_up(ctx: &Ctx<'_>) -> bool {
    options::choice_of(ctx.state.options(), HALF_ROUNDING) == "up"
}

/// Takes `amount` off the target's Condition and follows the consequences.
///
/// When `source` is a combatant whose numbers are the GM's, the steps (which show its TOG)
/// go to the GM only; the other seats see the amount, as a player at a real table hears it.
pub fn take(
    ctx: &mut Ctx<'_>,
    target: &EntityId,
    amount: i64,
    steps: Vec<Modifier>,
    source: Option<&EntityId>,
) -> Result<(), DecideError> {
    let mut steps = steps;
    let mut amount = amount;
    // Temporary Condition goes first.
    let absorbed = super::temp::absorb(ctx, target, amount)?;
    if absorbed > 0 {
        steps.push(Modifier::new("temporary Condition", -absorbed));
        amount -= absorbed;
    }
    let hurt = ctx.combatant(target)?;
    let max = sheet_of(&hurt)?.condition_max;
    let after = hurt.resource(CONDITION) - amount.max(0);
    let account = super::tell::damage(ctx, &hurt, source, amount, steps.clone(), after, max);
    let event = ctx.damage_resolved(target, steps, amount, source);
    ctx.emit(event.with(Audience::Everyone, Fact::Told(Box::new(account))))?;
    if amount <= 0 {
        return Ok(());
    }
    let c = ctx.combatant(target)?;
    let max = sheet_of(&c)?.condition_max;
    let before = c.resource(CONDITION);
    ctx.set_resource(target, CONDITION, before - amount)?;
    follow_condition(ctx, target, max, c.has_status(DYING))
}

/// What the character's Condition now means, however it got there (damage or a GM ruling):
/// below -10 death; at 0 or below, for someone not already dying, dying, out cold and the
/// level of burnout that the fall causes.
pub fn follow_condition(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    max: i64,
    was_dying: bool,
) -> Result<(), DecideError> {
    let after = ctx.combatant(who)?.resource(CONDITION);
    if after < DEAD_BELOW {
        return die(ctx, who);
    }
    if after <= 0 && !was_dying {
        begin_dying(ctx, who, max, true)?;
    }
    Ok(())
}

/// The dying character's loss of 1 Condition per turn.
pub fn dying_tick(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    let c = ctx.combatant(who)?;
    if !c.has_status(DYING) {
        return Ok(());
    }
    let after = c.resource(CONDITION) - 1;
    ctx.emit(Event::public(Fact::Noted {
        text: format!("{who} is dying and loses 1 Condition"),
    }))?;
    ctx.set_resource(who, CONDITION, after)?;
    if after < DEAD_BELOW {
        die(ctx, who)?;
    }
    Ok(())
}

/// The GM's manual damage: a ruling that still goes through armour, weakness, resistance and
/// immunity unless `ignore_armour` is set.
pub fn ruling(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    let target = args.require_entity("target")?;
    let amount = args.require_int("amount")?;
    if amount < 0 {
        return Err(Refusal::bad_argument(
            "amount",
            "must be 0 or more; use rule.set-resource to heal",
        )
        .into());
    }
    let ty = match args.text("type")? {
        Some(t) => serde_json::from_value::<DamageType>(serde_json::Value::String(t.to_owned()))
            .map_err(|_| Refusal::UnknownName {
                system: ID.into(),
                what: "a damage type".into(),
                name: t.to_owned(),
            })?,
        None => DamageType::Blunt,
    };
    let c = ctx.combatant(&target)?;
    let sheet = sheet_of(&c)?;
    let mut input = DamageInput::against(amount, None, false, ty, sheet);
    input.round_half_up = round_half_up(ctx);
    if args.flag("ignore_armour")? {
        input.armour = 0;
    }
    let ty_name = format!("{ty:?}").to_lowercase();
    ctx.rule_about(
        &target,
        format!("GM deals {amount} {ty_name} damage to {target}"),
    )?;
    let (steps, total) = if amount == 0 {
        (vec![], 0)
    } else {
        damage_steps(&input)
    };
    take(ctx, &target, total, steps, None)
}

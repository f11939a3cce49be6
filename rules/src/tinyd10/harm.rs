//! Hit points moving: damage (temporary HP first, never below 0), what 0 HP means (a
//! character lies dying for five rounds, a non-lethal blow knocks out, a monster dies as the
//! table rules), death, and healing (never past the maximum; any HP back ends dying).

use crate::engine::{Ctx, DecideError};
use crate::event::{Event, Fact, Modifier};
use crate::ids::EntityId;
use crate::state::StateView;
use crate::state::{Kind, Status};

use super::checks::{self, DYING_ROUNDS};
use super::options::{NPC_AT_ZERO, is};
use super::tell;
use super::{APPEAL, DEAD, DYING, FANGED, HP, TEMP_HP, UNCONSCIOUS, stats_of};

/// Deals `amount` to `target`, built from `steps`, by `source` (whose numbers the damage fact
/// hides when they are the GM's).
pub fn damage(
    ctx: &mut Ctx<'_>,
    target: &EntityId,
    amount: i64,
    steps: Vec<Modifier>,
    source: Option<&EntityId>,
    nonlethal: bool,
) -> Result<(), DecideError> {
    let mut amount = amount.max(0);
    let mut steps = steps;
    if let Some(src) = source
        && let Some(to) = super::turnabout::reprisal(ctx, target, src, amount)?
    {
        // Reprisal: the blow falls on the foe that struck the caster before.
        ctx.telling = None;
        ctx.note_about(
            target,
            format!("reprisal: the blow of {src} on {target} falls on {to} instead"),
        )?;
        ctx.telling = Some(crate::account::Telling {
            actor: Some(target.clone()),
            verb: "turns the blow by reprisal onto".into(),
            target: Some(to.clone()),
            instrument: None,
        });
        let turned = vec![Modifier::new("reprisal", amount)];
        damage(ctx, &to, amount, turned, None, nonlethal)?;
        ctx.telling = None;
        return Ok(());
    }
    if amount > 0 && ctx.combatant(target)?.has_status(APPEAL) {
        // Appeal to heaven: no damage while it lasts.
        steps.push(Modifier::new("appeal to heaven: no damage", -amount));
        amount = 0;
    }
    let event = ctx.damage_resolved(target, steps.clone(), amount, source);
    ctx.emit(event)?;
    let t = ctx.combatant(target)?;
    let (temp, hp) = (t.resource(TEMP_HP), t.resource(HP));
    let (temp_after, hp_after) = checks::take_damage(temp, hp, amount);
    // Told as the source's doing ("the goblin deals damage to Brenna"), or as happening to
    // the target when nothing dealt it (a ruling).
    let told = ctx.telling.take();
    ctx.telling = Some(told.clone().unwrap_or_else(|| crate::account::Telling {
        actor: source.cloned(),
        verb: "deals damage to".into(),
        target: Some(target.clone()),
        instrument: None,
    }));
    let account = tell::moved(ctx, target, "damage", "HP", steps, amount, hp, hp_after);
    ctx.telling = told;
    ctx.emit(Event::public(Fact::Told(Box::new(account))))?;
    ctx.set_resource(target, TEMP_HP, temp_after)?;
    ctx.set_resource(target, HP, hp_after)?;
    if hp > 0 && hp_after == 0 {
        at_zero(ctx, target, nonlethal)?;
    }
    if let Some(src) = source {
        fed(ctx, src, amount)?;
    }
    Ok(())
}

/// Fanged strike: the rogue whose marked blow just dealt `amount` gains as many HP (twice as
/// many with Rapid regeneration, which doubles any healing).
fn fed(ctx: &mut Ctx<'_>, rogue: &EntityId, amount: i64) -> Result<(), DecideError> {
    let r = ctx.combatant(rogue)?;
    if !r.has_status(FANGED) {
        return Ok(());
    }
    ctx.set_status(rogue, FANGED, None)?;
    if amount < 1 || r.has_status(DEAD) {
        return Ok(());
    }
    let mut steps = vec![Modifier::new("fanged strike", amount)];
    let mut gain = amount;
    if stats_of(&r)?.has_ability("rapid_regeneration") {
        steps.push(Modifier::new("rapid regeneration", amount));
        gain *= 2;
    }
    ctx.telling = None;
    heal(ctx, rogue, gain, steps)?;
    Ok(())
}

/// What 0 HP makes of `target`.
fn at_zero(ctx: &mut Ctx<'_>, target: &EntityId, nonlethal: bool) -> Result<(), DecideError> {
    let t = ctx.combatant(target)?;
    // One knocked out (a non-lethal blow, a Stunning blow) and then struck to 0 by a lethal
    // blow is dying or dead like anyone; a non-lethal blow on one already out changes nothing.
    if t.has_status(DEAD) || t.has_status(DYING) || (nonlethal && t.has_status(UNCONSCIOUS)) {
        return Ok(());
    }
    if nonlethal {
        ctx.set_status(
            target,
            UNCONSCIOUS,
            Some(Status {
                source: "a non-lethal blow".into(),
                magnitude: 0,
                rounds_left: None,
            }),
        )?;
        return ctx.note_about(target, format!("{target} is knocked out"));
    }
    if t.kind != Kind::Pc && is(ctx.state.options(), NPC_AT_ZERO, "dies") {
        return dies(ctx, target, "at 0 hit points");
    }
    let round = i64::from(ctx.state.encounter().round);
    ctx.set_status(
        target,
        DYING,
        Some(Status {
            source: "0 hit points".into(),
            magnitude: round,
            rounds_left: u32::try_from(DYING_ROUNDS).ok(),
        }),
    )?;
    ctx.note_about(
        target,
        format!("{target} falls at 0 HP: dying, immobilized, dead in {DYING_ROUNDS} rounds unless healed"),
    )
}

/// `who` dies; its side's morale may be tested.
pub fn dies(ctx: &mut Ctx<'_>, who: &EntityId, why: &str) -> Result<(), DecideError> {
    ctx.set_status(who, DYING, None)?;
    ctx.set_status(who, UNCONSCIOUS, None)?;
    ctx.set_status(
        who,
        DEAD,
        Some(Status {
            source: why.to_owned(),
            magnitude: 0,
            rounds_left: None,
        }),
    )?;
    ctx.note_about(who, format!("{who} dies {why}"))?;
    super::morale::after_death(ctx, who)
}

/// Heals `amount` HP on `target` (never past its maximum); any HP back ends dying and
/// unconsciousness. Returns the HP gained.
pub fn heal(
    ctx: &mut Ctx<'_>,
    target: &EntityId,
    amount: i64,
    steps: Vec<Modifier>,
) -> Result<i64, DecideError> {
    let t = ctx.combatant(target)?;
    if t.has_status(DEAD) {
        return Err(crate::refusal::Refusal::Rule(format!(
            "{target} is dead: healing does not reach the dead"
        ))
        .into());
    }
    let max = stats_of(&t)?.hp_max;
    let hp = t.resource(HP);
    let after = checks::healed(hp, amount, max);
    let account = tell::moved(ctx, target, "healing", "HP", steps, amount, hp, after);
    ctx.emit(Event::public(Fact::Told(Box::new(account))))?;
    ctx.set_resource(target, HP, after)?;
    if after > 0 {
        revive(ctx, target)?;
    }
    Ok(after - hp)
}

fn revive(ctx: &mut Ctx<'_>, target: &EntityId) -> Result<(), DecideError> {
    let t = ctx.combatant(target)?;
    if t.has_status(DYING) || t.has_status(UNCONSCIOUS) {
        ctx.set_status(target, DYING, None)?;
        ctx.set_status(target, UNCONSCIOUS, None)?;
        ctx.note_about(target, format!("{target} is no longer at 0 HP"))?;
    }
    Ok(())
}

/// A GM ruling moved HP: at 0 the creature falls as a blow would leave it; above, it rises.
pub fn hp_ruled(
    ctx: &mut Ctx<'_>,
    target: &EntityId,
    from: i64,
    to: i64,
) -> Result<(), DecideError> {
    if from > 0 && to == 0 {
        at_zero(ctx, target, false)?;
    } else if to > 0 && !ctx.combatant(target)?.has_status(DEAD) {
        revive(ctx, target)?;
    }
    Ok(())
}

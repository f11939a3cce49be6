//! By will alone (warrior, 2 PP): when a foe's spell with an effect reaches the warrior, its
//! seat is asked whether to resist the effect (the damage still lands). The cast waits for the
//! answer and goes on from it: the spell's effect, damage and any splash.

use std::collections::BTreeMap;

use crate::decision::{Closing, PendingStep, StepValue};
use crate::engine::{Ctx, DecideError};
use crate::refusal::Refusal;
use crate::state::{Combatant, StateView};
use crate::toolkit::deciders;

use super::areas::Named;
use super::cast::land;
use super::content::{Spell, content};
use super::lasting::Extra;
use super::rolls::spend_pp;
use super::{PP, cannot_act, stats_of};

pub const STEP_WILL: &str = "tinyd10.by_will_alone";
/// By will alone's cost.
pub const COST: i64 = 2;

/// Asks `target`'s seat, when it can resist `spell`'s effect; `false` when there is nothing to
/// ask and the cast goes straight on.
pub fn offer(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    spell: &Spell,
    target: &Combatant,
    inflict: i64,
    splash: bool,
    extra: &Extra,
) -> Result<bool, DecideError> {
    let t = ctx.combatant(&target.id)?;
    // A spell that does nothing to this target (only against the unholy, say) is not asked
    // about: 2 PP against nothing.
    let untouched = spell.only_vs.as_ref().is_some_and(|only| {
        !super::cast::is_of(
            &stats_of(&t).map(|s| s.tags.clone()).unwrap_or_default(),
            only,
        )
    });
    if spell.effect.is_none()
        || untouched
        || t.side == c.side
        || cannot_act(&t).is_some()
        || t.resource(PP) < COST
        || !stats_of(&t)?.has_ability("by_will_alone")
    {
        return Ok(false);
    }
    let data = BTreeMap::from([
        ("caster".to_owned(), StepValue::Entity(c.id.clone())),
        ("splash".to_owned(), StepValue::Flag(splash)),
    ]);
    // Which spell, and the MP an Inflict wounds was cast with, are the caster's: the GM's for
    // the GM's caster, so they stay out of what the warrior's seat is shown.
    // So are the casting's extras (the GM's list of who stands in the area, the weapon it
    // enchants): kept with the step for the answer to resume with, seen by the GM alone.
    let mut secret = BTreeMap::from([
        ("spell".to_owned(), StepValue::Text(spell.id.clone())),
        ("inflict".to_owned(), StepValue::Int(inflict)),
        (
            NAMED.to_owned(),
            StepValue::Entities(extra.named.ids.clone()),
        ),
        (AS_NAMED.to_owned(), StepValue::Flag(extra.named.as_named)),
    ]);
    if let Some(w) = &extra.weapon {
        secret.insert(WEAPON.to_owned(), StepValue::Text(w.clone()));
    }
    if let Some(to) = extra.to {
        secret.insert(TO.to_owned(), StepValue::Cell(to));
    }
    if let Some(k) = &extra.kind {
        secret.insert(KIND.to_owned(), StepValue::Text(k.clone()));
    }
    ctx.telling = None;
    ctx.ask(PendingStep {
        rule: STEP_WILL.into(),
        actor: Some(t.id.clone()),
        seats: deciders(&t),
        question: format!(
            "{}'s {} reaches {}: resist its effects by will alone (2 PP; any damage still lands) or let it work?",
            c.id,
            super::cast::spell_as_told(c, spell),
            t.id
        ),
        options: vec!["resist".into(), "let".into()],
        default: "let".into(),
        timeout_ms: ctx.state.options().decision_timeout_ms(),
        data,
        secret,
        ..PendingStep::default()
    })?;
    Ok(true)
}

/// The warrior answered: the spell lands, its effects resisted or not.
pub fn resume(
    ctx: &mut Ctx<'_>,
    step: &PendingStep,
    closing: &Closing<'_>,
) -> Result<(), DecideError> {
    let t = ctx.step_actor(step)?;
    let c = ctx.step_entity(step, "caster")?;
    let id = step
        .secret_text("spell")
        .ok_or_else(|| DecideError::malformed(step, "spell"))?;
    let data = content().map_err(|e| Refusal::Rule(e.to_string()))?;
    let spell = data
        .spell(id)
        .ok_or_else(|| DecideError::malformed(step, "spell of the text"))?;
    let willed = closing.choice == "resist";
    if willed {
        spend_pp(ctx, &t.id, COST, "by will alone")?;
    }
    ctx.telling = None;
    land(
        ctx,
        &c,
        &stats_of(&c)?,
        spell,
        &t,
        step.secret_int("inflict").unwrap_or(0),
        step.flag("splash").unwrap_or(false),
        willed,
        &extra_of(step),
    )
}

const NAMED: &str = "named";
const AS_NAMED: &str = "as_named";
const WEAPON: &str = "weapon";
const TO: &str = "to";
const KIND: &str = "kind";

/// The casting's extras as [`offer`] kept them.
fn extra_of(step: &PendingStep) -> Extra {
    let ids = match step.secret.get(NAMED) {
        Some(StepValue::Entities(ids)) => ids.clone(),
        _ => Vec::new(),
    };
    let as_named = matches!(step.secret.get(AS_NAMED), Some(StepValue::Flag(true)));
    let to = match step.secret.get(TO) {
        Some(StepValue::Cell(c)) => Some(*c),
        _ => None,
    };
    Extra {
        weapon: step.secret_text(WEAPON).map(str::to_owned),
        to,
        named: Named { ids, as_named },
        kind: step.secret_text(KIND).map(str::to_owned),
    }
}

//! Healing and reviving: the revive of an unconscious character (Survival leaves it at 0 Life,
//! Medicine at a point for each point over the difficulty its failed consciousness check set),
//! the Medicine heal out of combat (a point for each point over 10), and the rests.

use crate::account::Telling;
use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::event::{Event, Fact, Modifier};
use crate::refusal::Refusal;
use crate::state::StateView;
use crate::state::{Combatant, Kind};

use super::attack::d10;
use super::checks;
use super::options::{CHECK_TIES, is};
use super::round::{How, spend};
use super::sheet::DamageDie;
use super::tell::{self, Check};
use super::{DEAD, LIFE, UNCONSCIOUS, sheet_of};

/// The attribute `name` of `c`'s sheet, for a check whose attribute the GM names.
pub fn attribute(c: &Combatant, name: &str) -> Result<i64, Refusal> {
    let s = sheet_of(c)?;
    Ok(match name {
        "body" => s.body,
        "senses" => s.senses,
        "science" => s.science,
        "willpower" => s.willpower,
        _ => {
            return Err(Refusal::bad_argument(
                "attribute",
                "must be body, senses, science or willpower",
            ));
        }
    })
}

/// Revives an unconscious character with Medicine (Science + Medicine, as the text's example
/// rolls it) or Survival (with the attribute the GM names: the text gives none). A failure
/// leaves the patient down and the action spent.
pub fn revive(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args, how: How) -> Result<(), DecideError> {
    let patient = ctx.combatant(&args.require_entity("target")?)?;
    let Some(down) = patient.statuses.get(UNCONSCIOUS).cloned() else {
        return Err(Refusal::Rule(format!("{} is not unconscious", patient.id)).into());
    };
    if patient.has_status(DEAD) {
        return Err(Refusal::Rule(format!("{} is dead", patient.id)).into());
    }
    let medicine = args.require_text("skill")? == "medicine";
    let s = sheet_of(c)?;
    let modifiers = if medicine {
        vec![
            Modifier::new("Science", s.science),
            Modifier::new("Medicine", s.skills.medicine),
        ]
    } else {
        let name = args.text("attribute")?.ok_or_else(|| {
            Refusal::bad_argument(
                "attribute",
                "is required with Survival: the text names none, the GM does",
            )
        })?;
        vec![
            Modifier::new(name, attribute(c, name)?),
            Modifier::new("Survival", s.skills.survival),
        ]
    };
    spend(ctx, &c.id, how)?;
    let difficulty = down.magnitude;
    let roll = crate::dice::roll(&d10()?, ctx.dice)?;
    let total = tell::total(&roll, &modifiers);
    let ok = checks::passes(
        total,
        difficulty,
        is(ctx.state.options(), CHECK_TIES, "succeeds"),
    );
    ctx.telling = Some(Telling {
        actor: Some(c.id.clone()),
        verb: "tries to revive".into(),
        target: Some(patient.id.clone()),
        instrument: Some(if medicine { "Medicine" } else { "Survival" }.into()),
    });
    tell::check(
        ctx,
        Check {
            who: &c.id,
            label: "revive".into(),
            roll,
            modifiers,
            against: Some((difficulty, "revive difficulty")),
            success: Some(ok),
            words: ("revives", "fails to revive"),
            because: None,
            hidden: false,
            gm_only: false,
        },
    )?;
    ctx.telling = None;
    if ok {
        // Reviving never takes Life down: one knocked out by a stun may still have Life above
        // what the revive gives.
        let life = checks::revived_life(total, difficulty, medicine).max(patient.resource(LIFE));
        ctx.set_status(&patient.id, UNCONSCIOUS, None)?;
        ctx.set_resource(&patient.id, LIFE, life)?;
    }
    Ok(())
}

/// Heals with Medicine out of combat: difficulty 10, a point of Life for each point over it,
/// up to the maximum.
pub fn medicine_heal(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    if ctx.state.encounter().active {
        return Err(Refusal::Rule("a Medicine heal is made out of combat".into()).into());
    }
    super::able(c)?;
    let patient = ctx.combatant(&args.require_entity("target")?)?;
    if patient.has_status(DEAD) || patient.has_status(UNCONSCIOUS) {
        return Err(Refusal::Rule(format!("{} needs reviving, not healing", patient.id)).into());
    }
    let s = sheet_of(c)?;
    let modifiers = vec![
        Modifier::new("Science", s.science),
        Modifier::new("Medicine", s.skills.medicine),
    ];
    let roll = crate::dice::roll(&d10()?, ctx.dice)?;
    let total = tell::total(&roll, &modifiers);
    let gain = checks::medicine_heal(total);
    ctx.telling = Some(Telling {
        actor: Some(c.id.clone()),
        verb: "treats".into(),
        target: Some(patient.id.clone()),
        instrument: Some("Medicine".into()),
    });
    tell::check(
        ctx,
        Check {
            who: &c.id,
            label: "Medicine".into(),
            roll,
            modifiers,
            against: Some((checks::MEDICINE_HEAL, "difficulty")),
            success: Some(gain > 0),
            words: ("heals", "heals nothing"),
            because: None,
            hidden: false,
            gm_only: false,
        },
    )?;
    ctx.telling = None;
    heal(ctx, &patient, gain, "Medicine")
}

fn heal(ctx: &mut Ctx<'_>, c: &Combatant, gain: i64, what: &str) -> Result<(), DecideError> {
    let max = sheet_of(c)?.life_max;
    let before = c.resource(LIFE);
    // Healing never takes Life down, and stops at the maximum.
    let after = (before + gain).min(max).max(before);
    let account = tell::life_moved(
        ctx,
        &c.id,
        what,
        vec![Modifier::new(what, gain)],
        before,
        after,
        None,
    );
    ctx.emit(Event::public(Fact::Told(Box::new(account))))?;
    ctx.set_resource(&c.id, LIFE, after)
}

/// The GM's rest after a fight for every conscious character: `short` (D10/3 + Body), `long`
/// (D10/2 + Body) or `sleep` (half the maximum, rounded down, + Body).
pub fn rest(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    if ctx.state.encounter().active {
        return Err(Refusal::Rule("rests come after the fight".into()).into());
    }
    let kind = args.require_text("kind")?.to_owned();
    for id in ctx.state.combatant_ids() {
        let c = ctx.combatant(&id)?;
        if c.kind == Kind::Object || c.has_status(DEAD) || c.has_status(UNCONSCIOUS) {
            continue;
        }
        let s = sheet_of(&c)?.clone();
        let gain = match kind.as_str() {
            "sleep" => checks::sleep_heal(s.life_max, s.body),
            "short" | "long" => {
                let die = if kind == "short" {
                    DamageDie::Third
                } else {
                    DamageDie::Half
                };
                let expr = crate::dice::DiceExpr::parse(die.notation())
                    .map_err(|e| Refusal::Rule(e.to_string()))?;
                let roll = crate::dice::roll(&expr, ctx.dice)?;
                let v = roll.total;
                ctx.emit(Event::public(Fact::Rolled {
                    by: None,
                    purpose: format!("{id}'s {kind} rest ({})", die.word()),
                    roll,
                }))?;
                v + s.body
            }
            _ => return Err(Refusal::bad_argument("kind", "must be short, long or sleep").into()),
        };
        heal(ctx, &c, gain, &format!("{kind} rest"))?;
    }
    Ok(())
}

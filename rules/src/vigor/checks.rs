//! Checks that are not attacks: a Resistance check the GM calls for (the action die, the bonus
//! dice of the ability the effect names and any general Resistance dice, against a victory
//! sum), and Use Skill, an open roll of a skill's bonus dice that the GM reads against the
//! victory sum the situation sets.

use crate::account::Telling;
use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::event::Against;
use crate::refusal::Refusal;
use crate::state::{Combatant, StateView};

use super::bonus_dice::{Steps, action_roll, bursting};
use super::care::against_vs;
use super::round::{label, spend};
use super::tell::{self, Check};
use super::{WOUNDED, sheet_of};

pub const ABILITIES: [&str; 7] = [
    "agility", "speed", "strength", "stamina", "soul", "reason", "resolve",
];

fn steps(c: &Combatant, args: &Args) -> Result<Steps, Refusal> {
    Ok(Steps {
        charges: args.int("charges")?.unwrap_or(0),
        challenges: args.int("challenges")?.unwrap_or(0),
        wounded: c.has_status(WOUNDED),
    })
}

/// The GM's Resistance check for `target`.
pub fn resistance(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    let target = ctx.combatant(&args.require_entity("target")?)?;
    let ability = args
        .text("ability")?
        .ok_or_else(|| Refusal::bad_argument("ability", "is required"))?
        .to_ascii_lowercase();
    let vs = args
        .int("vs")?
        .ok_or_else(|| Refusal::bad_argument("vs", "is required"))?;
    let b = &sheet_of(&target)?.bonus_dice;
    let from_ability = match ability.as_str() {
        "agility" => b.agility,
        "speed" => b.speed,
        "strength" => b.strength,
        "stamina" => b.stamina,
        "soul" => b.soul,
        "reason" => b.reason,
        "resolve" => b.resolve,
        _ => {
            return Err(
                Refusal::bad_argument("ability", "must be one of the seven abilities").into(),
            );
        }
    };
    // General Resistance bonuses are always added.
    let dice = from_ability + b.resistance;
    let steps = steps(&target, args)?;
    let burst = bursting(ctx.state.options());
    let roll = crate::dice::roll(&action_roll(dice, steps.die(), burst), ctx.dice)?;
    ctx.telling = Some(Telling {
        actor: Some(target.id.clone()),
        verb: "makes a Resistance check".into(),
        target: None,
        instrument: Some(format!("{ability} Resistance")),
    });
    let against = against_vs(ctx.state.options(), vs);
    tell::check(
        ctx,
        Check {
            who: &target.id,
            label: label(&format!("{ability} Resistance"), steps, dice > 0),
            roll,
            against,
            compared: "VS".into(),
            words: ("resists", "fails"),
            because: None,
            hidden: args.flag("secret")?,
        },
    )?;
    Ok(())
}

/// Use Skill: one action, the skill's bonus dice (none for a skill the sheet lacks). With a
/// VS (the GM's to give, and to keep secret) the server judges it; without one the total is open for the GM to read. Driving,
/// navigating and piloting by sight also pay the scene's visibility on the VS (+5, +10, +15),
/// said on the check either way.
pub fn use_skill(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    let skill = args
        .text("skill")?
        .ok_or_else(|| Refusal::bad_argument("skill", "is required"))?
        .to_ascii_lowercase();
    let target = match args.text("target")? {
        Some(_) => Some(ctx.combatant(&args.require_entity("target")?)?.id),
        None => None,
    };
    let vs = args.int("vs")?;
    spend(ctx, c, 1)?;
    let dice = sheet_of(c)?.skill(&skill);
    let steps = steps(c, args)?;
    let burst = bursting(ctx.state.options());
    let roll = crate::dice::roll(&action_roll(dice, steps.die(), burst), ctx.dice)?;
    let level = ctx
        .state
        .encounter()
        .values
        .get(super::visibility::VISIBILITY)
        .copied()
        .unwrap_or(0);
    let sight = if super::visibility::by_sight(&skill) {
        super::visibility::penalty(level, None)
    } else {
        0
    };
    let because = (sight > 0).then(|| {
        format!(
            "{} visibility: {sight:+} to the VS",
            super::visibility::LEVELS
                .get(usize::try_from(level).unwrap_or(0))
                .copied()
                .unwrap_or("poor")
        )
    });
    ctx.telling = Some(Telling {
        actor: Some(c.id.clone()),
        verb: "uses a skill on".into(),
        target,
        instrument: Some(skill.clone()),
    });
    let (against, compared, words) = match vs {
        Some(vs) => (
            against_vs(ctx.state.options(), vs.saturating_add(sight)),
            "VS".to_owned(),
            ("succeeds", "fails"),
        ),
        None => (Against::Nothing, String::new(), ("", "")),
    };
    tell::check(
        ctx,
        Check {
            who: &c.id,
            label: label(&skill, steps, dice > 0),
            roll,
            against,
            compared,
            words,
            because,
            hidden: vs.is_some() && args.flag("secret")?,
        },
    )?;
    Ok(())
}

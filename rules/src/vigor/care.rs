//! Medicine in the fight: emergency aid (2 actions, Medicine (treatment) against VS 20, 1d10
//! Durability back) and stabilising a creature in Shock (Medicine or Medical Science against VS
//! 20; it stays unconscious until it has Health again). The text gives stabilising no action
//! cost; it is a Use Skill, so one action.

use crate::account::Telling;
use crate::action::Args;
use crate::dice::{DiceExpr, DiceTerm, DieKind, Primitive, Term, TermKind};
use crate::engine::{Ctx, DecideError};
use crate::event::{Against, Event, Fact, Outcome};
use crate::refusal::Refusal;
use crate::state::StateView;
use crate::state::{Combatant, Status};

use super::bonus_dice::{Steps, action_roll, bursting};
use super::options::{VS_TIE, choice_of};
use super::round::{label, spend};
use super::tell::{self, Check, Moved};
use super::{DEAD, DURABILITY, MEDICINE_VS, SHOCK, STABILISED, WOUNDED, settle, sheet_of};

/// Skill names on the sheet the medical checks read.
pub const MEDICINE: &str = "medicine";
pub const MEDICAL_SCIENCE: &str = "medical_science";

/// What a total must do against a victory sum at this table.
pub fn against_vs(options: &crate::options::TableOptions, vs: i64) -> Against {
    if choice_of(options, VS_TIE) == "succeeds" {
        Against::Target(vs)
    } else {
        Against::Exceed(vs)
    }
}

fn medical_check(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    target: &Combatant,
    verb: &str,
    dice: i64,
    args: &Args,
) -> Result<Outcome, DecideError> {
    let steps = Steps {
        charges: args.int("charges")?.unwrap_or(0),
        challenges: args.int("challenges")?.unwrap_or(0),
        wounded: c.has_status(WOUNDED),
    };
    let burst = bursting(ctx.state.options());
    let roll = crate::dice::roll(&action_roll(dice, steps.die(), burst), ctx.dice)?;
    ctx.telling = Some(Telling {
        actor: Some(c.id.clone()),
        verb: verb.into(),
        target: Some(target.id.clone()),
        instrument: None,
    });
    let against = against_vs(ctx.state.options(), MEDICINE_VS);
    tell::check(
        ctx,
        Check {
            who: &c.id,
            label: label("Medicine", steps, dice > 0),
            roll,
            against,
            compared: "VS".into(),
            words: ("success", "failure"),
            because: None,
            hidden: false,
        },
    )
}

pub fn emergency_aid(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    let target = ctx.combatant(&args.require_entity("target")?)?;
    let t_sheet = sheet_of(&target)?.clone();
    if target.has_status(DEAD) {
        return Err(Refusal::Rule(format!("{} is dead", target.id)).into());
    }
    if target.resource(DURABILITY) >= t_sheet.durability_max && !target.has_status(WOUNDED) {
        return Err(Refusal::Rule(format!(
            "{} is neither wounded nor injured: emergency aid needs a hurt creature",
            target.id
        ))
        .into());
    }
    spend(ctx, c, 2)?;
    let dice = sheet_of(c)?.skill(MEDICINE);
    if medical_check(ctx, c, &target, "gives emergency aid to", dice, args)? != Outcome::Success {
        return Ok(());
    }
    let d10 = DiceExpr {
        terms: vec![Term {
            negative: false,
            kind: TermKind::Dice(DiceTerm {
                count: 1,
                die: DieKind::Plain(Primitive::D10),
                keep: None,
                burst: false,
            }),
        }],
    };
    let roll = crate::dice::roll(&d10, ctx.dice)?;
    ctx.emit(Event::public(Fact::Rolled {
        by: Some(c.id.clone()),
        purpose: "Durability restored".into(),
        roll: roll.clone(),
    }))?;
    let before = target.resource(DURABILITY);
    let after = (before + roll.total)
        .min(t_sheet.durability_max)
        .max(before);
    let account = tell::effect(
        ctx,
        &target.id,
        "healing",
        roll.total,
        vec![crate::event::Modifier::new("1d10", roll.total)],
        &[Moved {
            word: "Durability",
            before,
            after,
        }],
        None,
    );
    ctx.emit(Event::public(Fact::Told(Box::new(account))))?;
    ctx.set_resource(&target.id, DURABILITY, after)?;
    settle(ctx, &target.id, "emergency aid")
}

pub fn stabilise(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    let target = ctx.combatant(&args.require_entity("target")?)?;
    if !target.has_status(SHOCK) {
        return Err(Refusal::Rule(format!("{} is not in shock", target.id)).into());
    }
    spend(ctx, c, 1)?;
    let sheet = sheet_of(c)?;
    let dice = sheet.skill(MEDICINE).max(sheet.skill(MEDICAL_SCIENCE));
    if medical_check(ctx, c, &target, "tries to stabilise", dice, args)? != Outcome::Success {
        return Ok(());
    }
    super::end_shock(ctx, &ctx.combatant(&target.id)?)?;
    ctx.set_status(
        &target.id,
        STABILISED,
        Some(Status {
            source: format!("stabilised by {}", c.id),
            magnitude: 0,
            rounds_left: None,
        }),
    )
}

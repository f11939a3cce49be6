//! Falling: the GM says who falls how far onto what; the table of falls gives the dice and the
//! TN of the AGL roll that breaks the fall. A broken fall takes half and keeps its feet; an
//! unbroken one takes it all and is knocked down. A jump of two stories or less that is broken
//! takes nothing. Below 45 m a soft surface or water breaks the fall by itself; from 45 m only a
//! soft surface lets the AGL roll be tried at all.

use crate::action::Args;
use crate::dice::{DiceExpr, roll};
use crate::engine::{Ctx, DecideError};
use crate::event::{Event, Fact, Modifier, Outcome};
use crate::refusal::Refusal;
use crate::state::Status;

use super::DEAD;
use super::check::check_tn;
use super::content::tables;
use super::damage::{half, round_half_up, take};
use super::sheet::Attribute;
use super::status::KNOCKED_DOWN;

/// From this height (decimetres) a soft surface is needed to try to break a fall, and water
/// breaks none.
const HIGH_DM: i64 = 450;
/// Up to this height (two stories) a broken intentional jump takes no damage.
const JUMP_DM: i64 = 90;

/// What a character lands on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Onto {
    Ground,
    Soft,
    Water,
}

pub const ONTO: [&str; 3] = ["ground", "soft", "water"];

pub fn fall(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    let who = args.require_entity("target")?;
    let height_m = args.require_int("height_m")?;
    let onto = match args.text("onto")?.unwrap_or("ground") {
        "soft" => Onto::Soft,
        "water" => Onto::Water,
        _ => Onto::Ground,
    };
    let jumped = args.flag("jumped")?;
    if ctx.combatant(&who)?.has_status(DEAD) {
        return Err(Refusal::Rule(format!("{who} is dead")).into());
    }
    let what = format!("{who} falls {height_m} m onto {}", ONTO[onto as usize]);
    let Some(row) = tables().fall(height_m.saturating_mul(10)) else {
        return ctx.note_about(&who, format!("{what}: under 4.5 m, no harm done"));
    };
    let row = row.clone();
    ctx.note_about(&who, what)?;
    let high = row.from_dm >= HIGH_DM;
    let broken = match onto {
        Onto::Soft | Onto::Water if !high => {
            ctx.note_about(&who, format!("the landing breaks {who}'s fall"))?;
            true
        }
        Onto::Ground | Onto::Water if high => {
            ctx.note_about(
                &who,
                format!("from 45 m only a soft landing lets {who} try to break the fall"),
            )?;
            false
        }
        _ => {
            let label = "AGL to break the fall";
            check_tn(ctx, &who, Attribute::AGL, &[], label, row.tn, false)? == Outcome::Success
        }
    };
    if broken && jumped && row.from_dm <= JUMP_DM {
        return ctx.note_about(&who, format!("{who} lands the jump unhurt"));
    }
    let expr = DiceExpr::parse(&row.damage)
        .map_err(|e| Refusal::Rule(format!("the fall's damage `{}`: {e}", row.damage)))?;
    let r = roll(&expr, ctx.dice)?;
    let dice = r.total;
    ctx.emit(Event::public(Fact::Rolled {
        by: Some(who.clone()),
        purpose: format!("falling damage ({})", row.damage),
        roll: r,
    }))?;
    let mut steps = vec![Modifier::new("dice", dice)];
    let mut amount = dice;
    if broken {
        amount = half(dice, round_half_up(ctx)).max(1);
        steps.push(Modifier::new("broken fall: half", amount - dice));
    }
    take(ctx, &who, amount, steps, None)?;
    if !broken && !ctx.combatant(&who)?.has_status(DEAD) {
        ctx.set_status(
            &who,
            KNOCKED_DOWN,
            Some(Status {
                source: "a fall".into(),
                magnitude: 0,
                rounds_left: None,
            }),
        )?;
    }
    Ok(())
}

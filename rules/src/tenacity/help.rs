//! Help on a quick pass/fail check: the helper spends its action; whichever of the two has the
//! higher rank rolls, with one advantage die. One helper at a time. Which of them must have a
//! rank in the skill is a table option (the text says both in one place, the helper in another).

use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::refusal::Refusal;
use crate::state::{Combatant, StateView};

use super::{options, sheet_of, spotlight};

/// Turn counter on the helped character, per skill: the helper's rank + 1 (0: no help).
pub const HELPED: &str = "helped.";

pub fn dice_key(skill: &str) -> String {
    format!("helped_dice.{skill}")
}

pub fn help(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    let ally = ctx.combatant(&args.require_entity("target")?)?;
    let skill = args.require_text("skill")?.to_ascii_lowercase();
    let rank_of = |who: &Combatant| -> Result<(i64, i64), Refusal> {
        Ok(sheet_of(who)?
            .skill(&skill)
            .map_or((0, 0), |(_, d, r)| (d, r)))
    };
    let (dice, rank) = rank_of(c)?;
    let (_, ally_rank) = rank_of(&ally)?;
    let both = options::help_needs_both(ctx.state.options());
    if rank < 1 || (both && ally_rank < 1) {
        return Err(Refusal::Rule(format!(
            "help needs a rank in {skill} from {}",
            if both {
                "both characters"
            } else {
                "the helper"
            }
        ))
        .into());
    }
    let key = format!("{HELPED}{skill}");
    if ally.turn_counter(&key) > 0 {
        return Err(Refusal::Rule(format!("{} already has a helper", ally.id)).into());
    }
    spotlight::take_action(ctx, c)?;
    ctx.set_turn_counter(&ally.id, &key, rank + 1)?;
    ctx.set_turn_counter(&ally.id, &dice_key(&skill), dice)?;
    ctx.note_about(&ally.id, format!("{} helps {} with {skill}", c.id, ally.id))
}

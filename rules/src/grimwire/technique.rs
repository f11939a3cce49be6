//! Specialty techniques: paying Focus, pushing into negative Focus (a level of burnout), and
//! the blocks (negative Focus blocks every technique, passives included; burnout 3 blocks them
//! too). What a technique does is the GM's to narrate or rule; the text lists none.

use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::ids::EntityId;
use crate::refusal::Refusal;

use super::burnout::add_level;
use super::burnout_levels::blocks_techniques;
use super::sheet::Timing;
use super::{BURNOUT, FOCUS, ID, economy, sheet_of};

pub fn use_technique(ctx: &mut Ctx<'_>, who: &EntityId, args: &Args) -> Result<(), DecideError> {
    let id = args.require_text("technique")?;
    let push = args.flag("push")?;
    let c = ctx.combatant(who)?;
    let sheet = sheet_of(&c)?;
    let technique = sheet
        .technique(id)
        .cloned()
        .ok_or_else(|| Refusal::UnknownName {
            system: ID.into(),
            what: format!("a technique on {who}'s sheet"),
            name: id.to_owned(),
        })?;
    // A technique used as the action waits for the turn before its Focus is looked at.
    if technique.timing == Timing::Action {
        economy::require_turn(ctx, who)?;
    }
    if super::frenzy::raging(&c) {
        return Err(Refusal::Rule(format!("{who} rages: no specialty techniques")).into());
    }
    let focus = c.resource(FOCUS);
    if focus < 0 {
        return Err(Refusal::Rule(format!(
            "{who} has negative Focus ({focus}): no specialty techniques until it is back to 0"
        ))
        .into());
    }
    if blocks_techniques(c.resource(BURNOUT)) {
        return Err(Refusal::Rule(format!(
            "{who} is at burnout {}: no specialty techniques",
            c.resource(BURNOUT)
        ))
        .into());
    }
    if technique.timing == Timing::Passive {
        return Err(Refusal::Rule(format!(
            "{} is passive: it applies by itself",
            technique.name
        ))
        .into());
    }
    let cost = technique.focus_cost;
    if cost > focus && !push {
        return Err(Refusal::InsufficientResource {
            resource: "Focus".into(),
            needed: cost,
            available: focus,
        }
        .into());
    }
    match technique.timing {
        Timing::Action => {
            if !super::grapple::spend_action_held(ctx, who, "a technique")? {
                return Ok(());
            }
        }
        Timing::Reaction => economy::spend_reaction(ctx, who)?,
        Timing::AuxReaction => economy::spend_auxiliary(ctx, who)?,
        Timing::Free => economy::spend_free(ctx, who)?,
        Timing::Passive => {}
    }
    let target = args
        .entity("target")?
        .map(|t| format!(" on {t}"))
        .unwrap_or_default();
    let verb = format!("uses {}{target}", technique.name);
    if cost == 0 {
        ctx.note_about(who, format!("{who} {verb} for no Focus"))?;
    }
    let spent = super::tell::Change {
        key: FOCUS,
        word: "Focus",
        to: focus - cost,
    };
    super::tell::resources(ctx, who, verb, &[spent])?;
    if focus - cost < 0 {
        add_level(ctx, who, "pushed into negative Focus", sheet.condition_max)?;
    }
    Ok(())
}

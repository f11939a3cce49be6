//! Coup de grâce: two full actions on two turns. The first starts it; until it is finished
//! with the action of the attacker's next turn, the attacker may do nothing else (no move, no
//! interaction, no defence roll), or it fails. Finished, the target perishes at the end of
//! that turn.

use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Combatant, StateView, Status};

use super::{DEAD, spotlight};

/// On the attacker: a coup de grâce under way against the source.
pub const COUP: &str = "coup_de_grace";
/// On the target: it perishes when the attacker's turn ends.
pub const PERISHING: &str = "perishing";

fn mark(source: &EntityId) -> Option<Status> {
    Some(Status {
        source: source.0.clone(),
        magnitude: 0,
        rounds_left: None,
    })
}

/// Starts or finishes a coup de grâce on `--target`.
pub fn coup(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    if !ctx.state.encounter().active {
        return Err(Refusal::NoEncounter.into());
    }
    let target = ctx.combatant(&args.require_entity("target")?)?;
    spotlight::take_action(ctx, c)?;
    match c.statuses.get(COUP) {
        Some(s) if s.source == target.id.0 => {
            ctx.set_status(&c.id, COUP, None)?;
            ctx.set_status(&target.id, PERISHING, mark(&c.id))?;
            ctx.note_about(
                &target.id,
                format!(
                    "{} completes the coup de grâce: {} perishes as the turn ends",
                    c.id, target.id
                ),
            )
        }
        _ => {
            ctx.set_status(&c.id, COUP, mark(&target.id))?;
            ctx.note_about(
                &c.id,
                format!("{} begins a coup de grâce on {}", c.id, target.id),
            )
        }
    }
}

/// Anything else the attacker does breaks a coup de grâce under way.
pub fn interrupted(ctx: &mut Ctx<'_>, c: &Combatant, action: &str) -> Result<(), DecideError> {
    if c.has_status(COUP) && action != "coup_de_grace" && action != "end_turn" {
        ctx.set_status(&c.id, COUP, None)?;
        ctx.note_about(
            &c.id,
            format!("{} does something else: the coup de grâce fails", c.id),
        )?;
    }
    Ok(())
}

/// At the end of `holder`'s turn, whoever its coup de grâce finished perishes.
pub fn turn_ends(ctx: &mut Ctx<'_>, holder: &EntityId) -> Result<(), DecideError> {
    for id in ctx.state.combatant_ids() {
        let c = ctx.combatant(&id)?;
        if c.statuses
            .get(PERISHING)
            .is_some_and(|s| s.source == holder.0)
        {
            ctx.set_status(&id, PERISHING, None)?;
            ctx.set_status(&id, DEAD, mark(holder))?;
        }
    }
    Ok(())
}

//! Commanding presence (warrior, 3 PP, the turn's ability, for the rest of the fight):
//! opponents within 30 ft of the warrior must aim their attacks at it, and it has +1 toughness
//! while facing two or more of them, +2 while facing four or more. "Facing" is read as the able
//! opponents within those 30 ft. Distances need the grid: off it the server cannot tell who is
//! near, so it forces nothing and adds nothing, and the GM judges.

use crate::engine::{Ctx, DecideError};
use crate::event::Modifier;
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Combatant, Kind, StateView, Status};

use super::moving::feet_between;
use super::round::toughness_of;
use super::{COMMANDING, cannot_act};

/// How near an opponent must be to be commanded, in feet.
pub const REACH_FT: i64 = 30;

/// Sets the presence on `c` (its cost is paid by the caller).
pub fn command(ctx: &mut Ctx<'_>, c: &Combatant) -> Result<(), DecideError> {
    ctx.set_status(
        &c.id,
        COMMANDING,
        Some(Status {
            source: "commanding presence".into(),
            magnitude: 0,
            rounds_left: None,
        }),
    )?;
    ctx.note_about(
        &c.id,
        format!(
            "{} commands the field: opponents within {REACH_FT} ft must attack it",
            c.id
        ),
    )
}

/// The able opponents of `g` within reach of it on the grid.
fn near_foes(ctx: &Ctx<'_>, g: &Combatant) -> Vec<Combatant> {
    let Some(at) = g.position else {
        return Vec::new();
    };
    ctx.state
        .combatant_ids()
        .into_iter()
        .filter_map(|id| ctx.state.combatant(&id).cloned())
        .filter(|o| {
            o.side != g.side
                && o.kind != Kind::Object
                && cannot_act(o).is_none()
                && o.position
                    .is_some_and(|p| feet_between(ctx, at, p) <= REACH_FT)
        })
        .collect()
}

/// Refuses `a`'s attack on `target` when a commanding opponent near `a` is someone else.
pub fn must_target(ctx: &Ctx<'_>, a: &Combatant, target: &EntityId) -> Result<(), Refusal> {
    super::lasting::may_attack(a, target)?;
    let commander = ctx
        .state
        .combatant_ids()
        .into_iter()
        .filter_map(|id| ctx.state.combatant(&id).cloned())
        .find(|g| {
            g.has_status(COMMANDING)
                && cannot_act(g).is_none()
                && near_foes(ctx, g).iter().any(|o| o.id == a.id)
        });
    match commander {
        Some(g) if g.id != *target => Err(Refusal::Rule(format!(
            "{}'s commanding presence: {} must attack {} while within {REACH_FT} ft of it",
            g.id, a.id, g.id
        ))),
        _ => Ok(()),
    }
}

/// The toughness an attack on `t` must reach: its own (`round::toughness_of`) and what a
/// commanding presence adds for the opponents it faces.
pub fn toughness_against(ctx: &Ctx<'_>, t: &Combatant) -> Result<i64, Refusal> {
    let (toughness, _) = toughness_of(t)?;
    Ok(toughness + bonus(ctx, t).map_or(0, |m| m.value))
}

fn bonus(ctx: &Ctx<'_>, t: &Combatant) -> Option<Modifier> {
    if !t.has_status(COMMANDING) {
        return None;
    }
    let facing = near_foes(ctx, t).len();
    let plus = match facing {
        0 | 1 => 0,
        2 | 3 => 1,
        _ => 2,
    };
    (plus > 0).then(|| Modifier::new("commanding presence", plus))
}

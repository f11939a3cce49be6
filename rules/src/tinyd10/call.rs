//! Call to battle (cleric, 2 PP, the turn's ability) and the extra attack it gives. Every
//! other able creature on the cleric's side rolls a d10 (by default the cleric is the one
//! calling, not one of its allies; `tinyd10.call_to_battle` may count it in); on 6 or more it
//! has one attack more on its next turn. The gift is a status, `called_to_battle` until that turn opens, `extra_attack`
//! during it; it goes when the turn ends, used or not. The extra attack is an attack only (no
//! spell or ability): the turn's own attack, ability or spell is spent first.

use crate::engine::{Ctx, DecideError};
use crate::event::Audience;
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Combatant, Kind, StateView, Status};

use super::faces::SIX_OR_MORE;
use super::options::{CALL_TO_BATTLE, is};
use super::rolls::{d10_for, spend_pp};
use super::round::{require_turn, spend};
use super::sheet::Stats;
use super::tell::{self, Check};
use super::{ACTION, CALLED, EXTRA_ATTACK, PP, cannot_act, stats_of};

/// The ability's id, as `ability --name` takes it.
pub const ID: &str = "call_to_battle";
/// Its cost in PP.
pub const COST: i64 = 2;

pub fn call(ctx: &mut Ctx<'_>, c: &Combatant, stats: &Stats) -> Result<(), DecideError> {
    if !stats.has_ability(ID) {
        return Err(Refusal::Rule(format!("{} does not have {ID}", c.id)).into());
    }
    if !ctx.state.encounter().active {
        return Err(Refusal::NoEncounter.into());
    }
    let have = c.resource(PP);
    if have < COST {
        return Err(Refusal::InsufficientResource {
            resource: format!("power points for {ID}"),
            needed: COST,
            available: have,
        }
        .into());
    }
    spend(ctx, c, ACTION)?;
    spend_pp(ctx, &c.id, COST, "call to battle")?;
    ctx.telling = None;
    ctx.note_about(&c.id, format!("{} calls its allies to battle", c.id))?;
    let with_caller = is(ctx.state.options(), CALL_TO_BATTLE, "with_caller");
    let allies: Vec<Combatant> = ctx
        .state
        .combatant_ids()
        .into_iter()
        .filter_map(|id| ctx.state.combatant(&id).cloned())
        .filter(|o| {
            (with_caller || o.id != c.id)
                && o.side == c.side
                && o.kind != Kind::Object
                && cannot_act(o).is_none()
        })
        .collect();
    for ally in allies {
        let a_stats = stats_of(&ally)?;
        let roll = d10_for(ctx, &ally.id, &a_stats)?;
        let modifiers = super::afflict::penalties(ctx, &ally.id, false, None)?;
        let total = tell::total(&roll, &modifiers);
        let answers = total >= SIX_OR_MORE;
        tell::check(
            ctx,
            Check {
                who: &ally.id,
                label: "call to battle: 6 or more gives an extra attack next turn".into(),
                roll,
                modifiers,
                against: Some((SIX_OR_MORE, "call to battle")),
                success: Some(answers),
                words: ("answers the call", "does not answer the call"),
                because: None,
                hidden: false,
                // Whether the GM's creature will strike twice is the GM's to know.
                gm_only: crate::redact::gm_only_numbers(&ally),
            },
        )?;
        if answers {
            mark(
                ctx,
                &ally.id,
                CALLED,
                Some(Status {
                    source: c.id.0.clone(),
                    magnitude: 1,
                    rounds_left: None,
                }),
            )?;
        }
    }
    Ok(())
}

/// `who`'s turn opens: a call answered becomes this turn's extra attack.
pub fn open_turn(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    let Some(called) = ctx.combatant(who)?.statuses.get(CALLED).cloned() else {
        return Ok(());
    };
    mark(ctx, who, CALLED, None)?;
    mark(ctx, who, EXTRA_ATTACK, Some(called))
}

/// Sets or clears a Call to battle status: on the GM's creature, for the GM's eyes only (an
/// NPC's extra attack is its plan; the table sees it strike).
pub fn mark(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    key: &str,
    to: Option<Status>,
) -> Result<(), DecideError> {
    let audience = if crate::redact::gm_only_numbers(&ctx.combatant(who)?) {
        Audience::GmOnly
    } else {
        Audience::Everyone
    };
    ctx.set_status_for(audience, who, key, to)
}

/// Takes the turn's attack: the turn's own action while it has it, then an extra attack Call
/// to battle gave; refused when neither is left.
pub fn take_attack(ctx: &mut Ctx<'_>, c: &Combatant) -> Result<(), DecideError> {
    require_turn(ctx, c)?;
    let now = ctx.combatant(&c.id)?;
    if now.resource(ACTION) < 1 && now.has_status(EXTRA_ATTACK) {
        mark(ctx, &c.id, EXTRA_ATTACK, None)?;
        return ctx.note_about(
            &c.id,
            format!("{} takes the extra attack of the call to battle", c.id),
        );
    }
    spend(ctx, c, ACTION)
}

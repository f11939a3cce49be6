//! Surprise: a side that falls on unaware enemies takes a turn each before the others get
//! any, and its first attack has +5; on enemies only on alert, one of its characters opens
//! with a turn alone, and the first attack has +2.
//!
//! The GM says so when starting the encounter (`surprise`, `by`: the surprising side,
//! `opener`: who opens against an alert side). Initiative is rolled then, as in every
//! encounter, and orders the surprising side's turns in round 1; the others' round-1 turns do
//! not come ("caught unaware"). From round 2 everyone acts in initiative order. The bonus goes
//! to the first `attack` any of the surprising side makes in the fight (not each one's first),
//! and is lost if none attacks in round 1.

use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::event::{Event, Fact};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{StateView, Status};

/// On each character who takes a turn in the surprise round.
pub const SURPRISE_TURN: &str = "surprise_turn";
/// On each of the surprising side until one of them attacks; magnitude: the bonus.
pub const AMBUSH: &str = "ambush";
pub const UNAWARE_BONUS: i64 = 5;
pub const ALERT_BONUS: i64 = 2;

fn mark(source: &str, magnitude: i64) -> Status {
    Status {
        source: source.to_owned(),
        magnitude,
        rounds_left: None,
    }
}

/// A surprise the GM declared at the start.
pub struct Plan {
    side: String,
    unaware: bool,
    opener: Option<EntityId>,
}

/// Reads the start's surprise, if any, against `fighters`: checked before any die is rolled.
pub fn plan(
    ctx: &Ctx<'_>,
    args: &Args,
    fighters: &[EntityId],
) -> Result<Option<Plan>, DecideError> {
    let Some(kind) = args.text("surprise")? else {
        if args.text("by")?.is_some() || args.entity("opener")?.is_some() {
            return Err(
                Refusal::bad_argument("surprise", "is required with `by` or `opener`").into(),
            );
        }
        return Ok(None);
    };
    let side = args
        .text("by")?
        .ok_or_else(|| {
            Refusal::bad_argument("by", "is required with `surprise`: which side surprises?")
        })?
        .to_owned();
    let mut ours = 0;
    for id in fighters {
        if ctx.combatant(id)?.side == side {
            ours += 1;
        }
    }
    if ours == 0 {
        return Err(Refusal::bad_argument(
            "by",
            &format!("no one in the fight is on side `{side}`"),
        )
        .into());
    }
    if ours == fighters.len() {
        return Err(Refusal::bad_argument(
            "by",
            &format!("everyone is on side `{side}`: whom do they surprise?"),
        )
        .into());
    }
    let unaware = kind == "unaware";
    let opener = args.entity("opener")?;
    match &opener {
        Some(_) if unaware => {
            return Err(Refusal::bad_argument(
                "opener",
                "applies to `surprise=alert` only: against the unaware, the whole side acts",
            )
            .into());
        }
        Some(o) if !fighters.contains(o) || ctx.combatant(o)?.side != side => {
            return Err(Refusal::bad_argument(
                "opener",
                &format!("{o} is not on side `{side}` in this fight"),
            )
            .into());
        }
        _ => {}
    }
    Ok(Some(Plan {
        side,
        unaware,
        opener,
    }))
}

/// Marks who acts in round 1 and who holds the first attack's bonus. `order`: the fighters
/// in initiative order (an alert side's opener is its first there unless named).
pub fn declare(ctx: &mut Ctx<'_>, plan: &Plan, order: &[EntityId]) -> Result<(), DecideError> {
    let side = &plan.side;
    let mut ours = Vec::new();
    for id in order {
        if ctx.combatant(id)?.side == *side {
            ours.push(id.clone());
        }
    }
    let (bonus, acting, how) = if plan.unaware {
        (UNAWARE_BONUS, ours.clone(), "unaware")
    } else {
        let opener = plan.opener.clone().or_else(|| ours.first().cloned());
        (ALERT_BONUS, opener.into_iter().collect(), "on alert")
    };
    for id in &ours {
        ctx.set_status(id, AMBUSH, Some(mark(side, bonus)))?;
    }
    // Magnitude 1: an opener against the alert, whose turn ends with its first attack.
    for id in &acting {
        ctx.set_status(
            id,
            SURPRISE_TURN,
            Some(mark(side, i64::from(!plan.unaware))),
        )?;
    }
    let names: Vec<&str> = acting.iter().map(EntityId::as_str).collect();
    ctx.emit(Event::public(Fact::Noted {
        text: format!(
            "{side} surprise enemies {how}: round 1 is {}'s alone, and their first attack has +{bonus}",
            names.join(", ")
        ),
    }))
}

/// Whether round 1 is a surprise round still running.
pub fn running(ctx: &Ctx<'_>) -> bool {
    let enc = ctx.state.encounter();
    enc.round == 1
        && enc.order.iter().any(|id| {
            ctx.state
                .combatant(id)
                .is_some_and(|c| c.has_status(SURPRISE_TURN))
        })
}

/// Whether `id` opened against an alert side with its first attack, so initiative takes over.
pub fn opened(ctx: &Ctx<'_>, id: &EntityId) -> bool {
    running(ctx)
        && ctx.state.combatant(id).is_some_and(|c| {
            c.statuses
                .get(SURPRISE_TURN)
                .is_some_and(|s| s.magnitude == 1)
                && c.turn_counter(super::economy::ATTACKS) > 0
        })
}

/// Whether `id`'s turn comes in the surprise round.
pub fn acts(ctx: &Ctx<'_>, id: &EntityId) -> bool {
    ctx.state
        .combatant(id)
        .is_some_and(|c| c.has_status(SURPRISE_TURN))
}

/// The surprise round is over: its marks go, and an unused bonus with them.
pub fn over(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    for id in ctx.state.combatant_ids() {
        for key in [SURPRISE_TURN, AMBUSH] {
            if ctx.combatant(&id)?.has_status(key) {
                ctx.set_status(&id, key, None)?;
            }
        }
    }
    Ok(())
}

/// The bonus `who`'s attack takes for being its side's first, if it is (and then no other
/// attack has it).
pub fn first_strike(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<i64, DecideError> {
    let Some(bonus) = ctx
        .combatant(who)?
        .statuses
        .get(AMBUSH)
        .map(|s| s.magnitude)
    else {
        return Ok(0);
    };
    for id in ctx.state.combatant_ids() {
        if ctx.combatant(&id)?.has_status(AMBUSH) {
            ctx.set_status(&id, AMBUSH, None)?;
        }
    }
    Ok(bonus)
}

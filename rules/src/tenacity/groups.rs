//! The optional group initiative: the sides take their turns one after the other, their
//! members in any order. The highest opening roller chooses which side goes first (a decision
//! for its seat; its own side if nobody answers); that order holds every round. The side that
//! goes second has an advantage die on each member's first action of the round (a turn counter
//! the first check uses up).

use crate::decision::{Closing, PendingStep};
use crate::engine::{Ctx, DecideError};
use crate::event::{Event, Fact};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Combatant, StateView};
use crate::toolkit::{deciders, turns};

pub const STEP_FIRST: &str = "tenacity.first_group";
/// Encounter value: which side goes first, as its place among the sides in name order.
const FIRST: &str = "group.first";
/// Encounter value: 1 while the second side's turn is open.
const SECOND_OPEN: &str = "group.second_open";
/// Turn counter: the second side's advantage die, not yet used this round.
pub const GROUP_DIE: &str = "group_die";

/// The sides at the table, in name order.
fn sides(state: &dyn StateView) -> Vec<String> {
    let mut out: Vec<String> = state
        .combatant_ids()
        .iter()
        .filter_map(|id| state.combatant(id).map(|c| c.side.clone()))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The members of `side` who can act.
fn members(state: &dyn StateView, side: &str) -> Vec<EntityId> {
    state
        .combatant_ids()
        .into_iter()
        .filter(|id| {
            state
                .combatant(id)
                .is_some_and(|c| c.side == side && super::cannot_act(c).is_none())
        })
        .collect()
}

/// After the opening roll: `best` chooses the first side.
pub fn choose_first(ctx: &mut Ctx<'_>, best: &Combatant) -> Result<(), DecideError> {
    let options = sides(&ctx.state);
    if options.len() < 2 {
        return open(ctx, 0, false);
    }
    ctx.ask(PendingStep {
        rule: STEP_FIRST.into(),
        actor: Some(best.id.clone()),
        seats: deciders(best),
        question: format!("{} rolled highest: which side goes first?", best.id),
        options,
        default: best.side.clone(),
        timeout_ms: ctx.state.options().decision_timeout_ms(),
        ..PendingStep::default()
    })?;
    Ok(())
}

pub fn resume_first(
    ctx: &mut Ctx<'_>,
    step: &PendingStep,
    closing: &Closing<'_>,
) -> Result<(), DecideError> {
    let all = sides(&ctx.state);
    let at = all
        .iter()
        .position(|s| s == closing.choice)
        .ok_or_else(|| DecideError::BadStep {
            prompt_id: step.prompt_id,
            rule: step.rule.clone(),
            problem: format!("no side `{}`", closing.choice),
        })?;
    ctx.set_encounter_value(FIRST, i64::try_from(at).unwrap_or(0))?;
    ctx.note_about(
        step.actor.as_ref().unwrap_or(&EntityId::from("gm")),
        format!("the {} go first", closing.choice),
    )?;
    open(ctx, at, false)
}

/// Opens the turn of the side at `at` among the sides; the second side (`second`) gets its
/// advantage dice. A side with nobody able to act is passed over.
fn open(ctx: &mut Ctx<'_>, at: usize, second: bool) -> Result<(), DecideError> {
    let all = sides(&ctx.state);
    let Some(side) = all.get(at).cloned() else {
        return turns::open_group(ctx, "nobody", Vec::new());
    };
    let now = members(&ctx.state, &side);
    ctx.set_encounter_value(SECOND_OPEN, i64::from(second))?;
    if now.is_empty() {
        return next_side(ctx);
    }
    for id in &now {
        if second {
            ctx.set_turn_counter(id, GROUP_DIE, 1)?;
        }
    }
    turns::open_group(ctx, &side, now.clone())?;
    for id in &now {
        let c = ctx.combatant(id)?;
        super::hold::lapse(ctx, &c)?;
        if c.has_status(super::FULL_DEFENCE) {
            ctx.set_status(id, super::FULL_DEFENCE, None)?;
        }
        super::conditions::turn_starts(ctx, id)?;
    }
    Ok(())
}

/// The side's turn is over: the other side's opens, or a new round with the first side.
fn next_side(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    let enc = ctx.state.encounter();
    let first = usize::try_from(enc.values.get(FIRST).copied().unwrap_or(0)).unwrap_or(0);
    let second_open = enc.values.get(SECOND_OPEN).copied().unwrap_or(0) == 1;
    let n = sides(&ctx.state).len().max(1);
    if second_open || n == 1 {
        let round = ctx.state.encounter().round + 1;
        ctx.emit(Event::public(Fact::RoundStarted { round }))?;
        open(ctx, first, false)
    } else {
        open(ctx, (first + 1) % n, true)
    }
}

/// `end_turn` in group initiative: no one is named; the member's turn is done, and when its
/// side has all acted the next side's turn opens.
pub fn end_turn(ctx: &mut Ctx<'_>, c: &Combatant, named: bool) -> Result<(), DecideError> {
    turns::check_turn(&ctx.state, &c.id)?;
    if named {
        return Err(Refusal::bad_argument(
            "next",
            "is not named in group initiative: the members of a side act in any order",
        )
        .into());
    }
    super::death::turn_ends(ctx, &c.id)?;
    if c.has_status(super::WITHDRAWING) {
        ctx.set_status(&c.id, super::WITHDRAWING, None)?;
    }
    let keys: Vec<String> = ctx.combatant(&c.id)?.turn.keys().cloned().collect();
    for k in keys {
        ctx.set_turn_counter(&c.id, &k, 0)?;
    }
    if turns::acted(ctx, &c.id)? {
        next_side(ctx)?;
    }
    Ok(())
}

/// The second side's advantage die for `c`'s first action of the round, used up by it.
pub fn advantage_die(ctx: &mut Ctx<'_>, c: &Combatant) -> Result<i64, DecideError> {
    if c.turn_counter(GROUP_DIE) > 0 {
        ctx.set_turn_counter(&c.id, GROUP_DIE, 0)?;
        return Ok(1);
    }
    Ok(0)
}

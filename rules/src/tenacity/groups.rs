//! The optional group initiative: the sides take their turns one after the other, their
//! members in any order (objects take no turns). The highest opening roller chooses which side
//! goes first (a decision for its seat; its own side if nobody answers); that side opens every
//! round, the others follow in name order. The text has two groups, the player characters and
//! those opposing them; with more sides every side after the first is "second": each member
//! has an advantage die on its first check of the round (a turn counter that check uses up).

use crate::decision::{Closing, PendingStep};
use crate::engine::{Ctx, DecideError};
use crate::event::{Event, Fact};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Combatant, Kind, StateView};
use crate::toolkit::{deciders, turns};

pub const STEP_FIRST: &str = "tenacity.first_group";
/// Encounter value: which side goes first, as its place among the sides in name order.
const FIRST: &str = "group.first";
/// Turn counter: the second side's advantage die, not yet used this round.
pub const GROUP_DIE: &str = "group_die";

/// The sides at the table (objects take no turns), in name order.
fn sides(state: &dyn StateView) -> Vec<String> {
    let mut out: Vec<String> = state
        .combatant_ids()
        .iter()
        .filter_map(|id| state.combatant(id))
        .filter(|c| c.kind != Kind::Object)
        .map(|c| c.side.clone())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The members of `side` who can act (objects take no turns).
fn members(state: &dyn StateView, side: &str) -> Vec<EntityId> {
    state
        .combatant_ids()
        .into_iter()
        .filter(|id| {
            state.combatant(id).is_some_and(|c| {
                c.side == side && c.kind != Kind::Object && super::cannot_act(c).is_none()
            })
        })
        .collect()
}

/// The sides in the round's order: the first side, then the others in name order.
fn round_order(state: &dyn StateView) -> Vec<String> {
    let all = sides(state);
    let n = all.len().max(1);
    let first =
        usize::try_from(state.encounter().values.get(FIRST).copied().unwrap_or(0)).unwrap_or(0) % n;
    all.iter()
        .cycle()
        .skip(first)
        .take(all.len())
        .cloned()
        .collect()
}

/// After the opening roll: `best` chooses the first side.
pub fn choose_first(ctx: &mut Ctx<'_>, best: &Combatant) -> Result<(), DecideError> {
    let options = sides(&ctx.state);
    if options.len() < 2 {
        return open_next(ctx, None);
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
    open_next(ctx, None)
}

/// Opens the turn of the side after `after` in the round's order (the first side when `None`),
/// a new round when the last side is done. A side with nobody able to act, or whose members
/// all fall as their turn starts, is passed over; when a whole round finds nobody, an empty
/// turn is opened and the GM ends the encounter.
fn open_next(ctx: &mut Ctx<'_>, after: Option<String>) -> Result<(), DecideError> {
    let order = round_order(&ctx.state);
    if order.is_empty() {
        return turns::open_group(ctx, "nobody", Vec::new());
    }
    let mut at = match &after {
        None => 0,
        Some(side) => order.iter().position(|s| s == side).map_or(0, |i| i + 1),
    };
    for _ in 0..=order.len() {
        if at >= order.len() {
            let round = ctx.state.encounter().round + 1;
            ctx.emit(Event::public(Fact::RoundStarted { round }))?;
            at = 0;
        }
        let Some(side) = order.get(at) else { break };
        if open(ctx, side, at > 0)? {
            return Ok(());
        }
        at += 1;
    }
    turns::open_group(ctx, "nobody", Vec::new())
}

/// Opens `side`'s turn; a side after the first (`later`) gets its advantage dice. Whether
/// anyone of it is left to act once each member's turn has started.
fn open(ctx: &mut Ctx<'_>, side: &str, later: bool) -> Result<bool, DecideError> {
    let now = members(&ctx.state, side);
    if now.is_empty() {
        return Ok(false);
    }
    for id in &now {
        if later {
            ctx.set_turn_counter(id, GROUP_DIE, 1)?;
        }
    }
    turns::open_group(ctx, side, now.clone())?;
    let mut left = false;
    for id in &now {
        let c = ctx.combatant(id)?;
        super::hold::lapse(ctx, &c)?;
        if c.has_status(super::FULL_DEFENCE) {
            ctx.set_status(id, super::FULL_DEFENCE, None)?;
        }
        super::conditions::turn_starts(ctx, id)?;
        // A damaging condition may leave it unable to act: its turn is over at once.
        if super::cannot_act(&ctx.combatant(id)?).is_some() {
            turns::acted(ctx, id)?;
        } else {
            left = true;
        }
    }
    Ok(left)
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
        let side = ctx.state.encounter().turns.group.clone();
        open_next(ctx, side)?;
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

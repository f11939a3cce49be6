//! Encounter flow: initiative (d20 + PER; ties go to the enemies; same-side ties are chosen by
//! the tied characters), rounds and turns, the per-round action reset, and the dying tick.

use std::cmp::Reverse;

use crate::action::Args;
use crate::decision::{PendingStep, StepValue};
use crate::engine::{Ctx, DecideError};
use crate::event::{Event, Fact};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::StateView;
use crate::state::Status;

use super::check::{Target, record, roll_d20};
use super::damage::dying_tick;
use super::economy::TURN_COUNTERS;
use super::options::{self, DYING_TICK, END_SPENT_TURNS, IDLE_TURNS, SAME_SIDE_TIES};
use super::sheet::Attribute;
use super::{ACTION_OWED, ACTION_SPENT, DEAD, deciding_seats, economy, status, surprise};

pub const STEP_TIE: &str = "grimwire.initiative.tie";
pub const INITIATIVE: &str = "initiative";
/// The side whose members count as "the players" for "ties go to the enemies".
pub const PLAYERS: &str = "players";

pub fn start(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    // The dead do not fight.
    let ids = crate::toolkit::start_encounter(ctx, |c| !c.has_status(DEAD))?;
    let surprise = surprise::plan(ctx, args, &ids)?;
    // Initiative dice are drawn in canonical id order, so the draw order is checkable.
    let mut rolled = Vec::new();
    for id in &ids {
        let r = roll_d20(ctx, id, Attribute::PER, &[])?;
        record(
            ctx,
            id,
            "PER initiative",
            &r,
            Target::None,
            crate::event::Outcome::Unjudged,
            None,
        )?;
        ctx.set_resource(id, INITIATIVE, r.total)?;
        let side = ctx.combatant(id)?.side;
        rolled.push((id.clone(), r.total, side));
    }
    // Highest first; on equal totals the enemies (anyone not on the players' side) first;
    // then id order, which the tied characters may change.
    rolled.sort_by_key(|(id, total, side)| (Reverse(*total), side == PLAYERS, id.clone()));
    let order: Vec<EntityId> = rolled.iter().map(|(id, ..)| id.clone()).collect();
    ctx.emit(Event::public(Fact::OrderSet {
        order: order.clone(),
    }))?;
    if let Some(plan) = &surprise {
        surprise::declare(ctx, plan, &order)?;
    }
    settle_ties_or_begin(ctx, order)
}

/// Groups of two or more adjacent characters with the same total and side. Characters who
/// cannot act (out cold, dead, stunned, asleep...) choose nothing: they are left out, and a tie of one who can
/// act with one who cannot is no tie to ask about.
fn tie_groups(ctx: &Ctx<'_>, order: &[EntityId]) -> Result<Vec<Vec<EntityId>>, DecideError> {
    let mut groups: Vec<Vec<EntityId>> = Vec::new();
    let mut last: Option<(i64, String)> = None;
    for id in order {
        let c = ctx.combatant(id)?;
        if status::unable(&c).is_some() {
            continue;
        }
        let key = (c.resource(INITIATIVE), c.side.clone());
        if last.as_ref() == Some(&key) {
            if let Some(g) = groups.last_mut() {
                g.push(id.clone());
            }
        } else {
            groups.push(vec![id.clone()]);
        }
        last = Some(key);
    }
    groups.retain(|g| g.len() > 1);
    Ok(groups)
}

fn settle_ties_or_begin(ctx: &mut Ctx<'_>, order: Vec<EntityId>) -> Result<(), DecideError> {
    let groups = if options::choice_of(ctx.state.options(), SAME_SIDE_TIES) != "fixed" {
        tie_groups(ctx, &order)?
    } else {
        vec![]
    };
    match groups.into_iter().next() {
        Some(group) => ask_tie(ctx, &order, group),
        None => begin_round(ctx, 1),
    }
}

fn ask_tie(ctx: &mut Ctx<'_>, order: &[EntityId], group: Vec<EntityId>) -> Result<(), DecideError> {
    let mut seats = Vec::new();
    for id in &group {
        for s in deciding_seats(&ctx.combatant(id)?) {
            if !seats.contains(&s) {
                seats.push(s);
            }
        }
    }
    let names: Vec<&str> = group.iter().map(EntityId::as_str).collect();
    let step = PendingStep {
        prompt_id: 0,
        rule: STEP_TIE.into(),
        actor: None,
        seats,
        question: format!(
            "Initiative tie between {}: who goes first?",
            names.join(", ")
        ),
        options: group.iter().map(|id| id.0.clone()).collect(),
        default: group.first().map(|id| id.0.clone()).unwrap_or_default(),
        timeout_ms: ctx.state.options().decision_timeout_ms(),
        trigger: None,
        data: [
            ("order".to_owned(), StepValue::Entities(order.to_vec())),
            ("group".to_owned(), StepValue::Entities(group)),
        ]
        .into(),
        ..Default::default()
    };
    ctx.ask(step).map(|_| ())
}

/// The chosen character goes first among the tied ones; the rest of the group keeps its order
/// and, if two or more remain, is asked again.
pub fn resume_tie(ctx: &mut Ctx<'_>, step: &PendingStep, choice: &str) -> Result<(), DecideError> {
    let order = step.entities("order").unwrap_or_default().to_vec();
    let group = step.entities("group").unwrap_or_default().to_vec();
    let Some(first_at) = order.iter().position(|id| group.contains(id)) else {
        return after_ties(ctx);
    };
    let chosen = EntityId::from(choice);
    let mut rest: Vec<EntityId> = group.iter().filter(|id| **id != chosen).cloned().collect();
    let mut new_order: Vec<EntityId> = order
        .iter()
        .filter(|id| !group.contains(id))
        .cloned()
        .collect();
    let mut placed = vec![chosen];
    placed.append(&mut rest.clone());
    for (i, id) in placed.into_iter().enumerate() {
        new_order.insert(first_at + i, id);
    }
    ctx.emit(Event::public(Fact::OrderSet {
        order: new_order.clone(),
    }))?;
    rest.retain(|_| true);
    if rest.len() > 1 {
        return ask_tie(ctx, &new_order, rest);
    }
    // Later groups (further down the order) are settled in turn.
    let later: Vec<Vec<EntityId>> = tie_groups(ctx, &new_order)?
        .into_iter()
        .filter(|g| new_order.iter().position(|id| *id == g[0]) > Some(first_at + group.len() - 1))
        .collect();
    match later.into_iter().next() {
        Some(g) => ask_tie(ctx, &new_order, g),
        None => after_ties(ctx),
    }
}

/// Once the ties are settled: the encounter's first round begins, or a later round, already
/// started, goes on with its first turn.
fn after_ties(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    if ctx.state.encounter().round == 0 {
        begin_round(ctx, 1)
    } else {
        advance(ctx, 0)
    }
}

/// Starts round `round`: this round's action is free again unless a reaction already spent it.
fn start_round(ctx: &mut Ctx<'_>, round: u32) -> Result<(), DecideError> {
    ctx.emit(Event::public(Fact::RoundStarted { round }))?;
    for id in ctx.state.encounter().order.clone() {
        let c = ctx.combatant(&id)?;
        let owed = c.resource(ACTION_OWED);
        ctx.set_resource(&id, ACTION_SPENT, owed)?;
        ctx.set_resource(&id, ACTION_OWED, 0)?;
    }
    Ok(())
}

/// The first round begins with the first character in the order.
fn begin_round(ctx: &mut Ctx<'_>, round: u32) -> Result<(), DecideError> {
    start_round(ctx, round)?;
    advance(ctx, 0)
}

/// Gives the turn to the first character at or after position `at` in the order who is alive
/// once their turn has started (a dying character may die of the tick at its start, and then
/// loses the turn), wrapping into new rounds. Two passes at most: if nobody can take a turn,
/// nobody gets one.
fn advance(ctx: &mut Ctx<'_>, mut at: usize) -> Result<(), DecideError> {
    let order = ctx.state.encounter().order.clone();
    let n = order.len();
    for _ in 0..=2 * n {
        if at >= n {
            // Those who passed take their turns after everyone, in their usual order.
            let waiting = |id: &&EntityId| {
                ctx.state
                    .combatant(id)
                    .is_some_and(|c| c.has_status(PASSED) && !c.has_status(DEAD))
            };
            if let Some(id) = order.iter().find(waiting) {
                let id = id.clone();
                ctx.set_status(&id, PASSED, None)?;
                ctx.set_status(
                    &id,
                    PASSED_ONCE,
                    Some(Status {
                        source: "pass".into(),
                        magnitude: 0,
                        rounds_left: Some(1),
                    }),
                )?;
                // Its turn began once this round already: what strikes at a turn's start
                // struck then.
                begin_turn(ctx, id, false)?;
                return Ok(());
            }
            at = 0;
            if surprise::running(ctx) {
                surprise::over(ctx)?;
                ctx.emit(Event::public(Fact::Noted {
                    text: "the surprise is over: from now on everyone acts in initiative order"
                        .into(),
                }))?;
            }
            let round = ctx.state.encounter().round + 1;
            start_round(ctx, round)?;
            // The text lets tied characters of one side choose again every round.
            if options::choice_of(ctx.state.options(), SAME_SIDE_TIES) == "ask"
                && let Some(group) = tie_groups(ctx, &order)?.into_iter().next()
            {
                return ask_tie(ctx, &order, group);
            }
        }
        let id = order[at].clone();
        // Caught unaware: no turn in the surprise round.
        if surprise::running(ctx) && !surprise::acts(ctx, &id) {
            at += 1;
            continue;
        }
        if !ctx.combatant(&id)?.has_status(DEAD) {
            begin_turn(ctx, id.clone(), true)?;
            let c = ctx.combatant(&id)?;
            if !c.has_status(DEAD) && !passes_by_itself(ctx, &c) {
                return Ok(());
            }
            if !c.has_status(DEAD) {
                let why = status::unable(&c).unwrap_or("idle");
                ctx.note_about(
                    &id,
                    format!("{id} is {why} and cannot act: the turn passes"),
                )?;
                if options::choice_of(ctx.state.options(), DYING_TICK) == "turn_end" {
                    dying_tick(ctx, &id)?;
                }
            }
        }
        at += 1;
    }
    ctx.emit(Event::public(Fact::TurnStarted { entity: None }))?;
    ctx.emit(Event::public(Fact::Noted {
        text: "nobody left who can take a turn".into(),
    }))
}

/// Whether `c`'s turn ends as soon as it begins: it can do nothing with it (dying, out
/// cold, stunned and the like, whose only action would be `end_turn`), the table lets such turns pass, and someone in
/// the order can act (else rounds would pass by themselves, and the dying tick on to death
/// with nobody at the table deciding anything).
fn passes_by_itself(ctx: &Ctx<'_>, c: &crate::state::Combatant) -> bool {
    let idle = |c: &crate::state::Combatant| status::unable(c).is_some();
    idle(c)
        && options::choice_of(ctx.state.options(), IDLE_TURNS) == "pass"
        && ctx.state.encounter().order.iter().any(|id| {
            ctx.state
                .combatant(id)
                .is_some_and(|o| !o.has_status(DEAD) && !idle(o))
        })
}

/// Gives `id` the turn. `first`: its first turn this round, when the dying tick and the
/// statuses' turn-start effects come (a character who passed gets a second start, without
/// them).
fn begin_turn(ctx: &mut Ctx<'_>, id: EntityId, first: bool) -> Result<(), DecideError> {
    ctx.emit(Event::public(Fact::TurnStarted {
        entity: Some(id.clone()),
    }))?;
    for counter in TURN_COUNTERS {
        ctx.set_turn_counter(&id, counter, 0)?;
    }
    if !first {
        return Ok(());
    }
    if options::choice_of(ctx.state.options(), DYING_TICK) == "turn_start" {
        dying_tick(ctx, &id)?;
    }
    status::turn_starts(ctx, &id)
}

/// Under the house rule `grimwire.end_spent_turns` (off by default: the book keeps the
/// auxiliary and free actions), the turn ends by itself once it is spent: its action taken,
/// no further attack left in it and no movement that can still be made. Run after every
/// command (the system's `after`), so whatever spent the turn, and whichever answer finished
/// it, the turn ends then; never while a window is open.
pub fn end_if_spent(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    // Against a side on alert, initiative comes right after the opening attack.
    let enc = ctx.state.encounter();
    if enc.active
        && enc.pending.is_empty()
        && let Some(id) = enc.current.clone()
        && surprise::opened(ctx, &id)
    {
        ctx.emit(Event::public(Fact::Noted {
            text: format!("{id} has made the opening attack: initiative takes over"),
        }))?;
        return end_turn(ctx, &id);
    }
    if !options::flag_of(ctx.state.options(), END_SPENT_TURNS) {
        return Ok(());
    }
    let enc = ctx.state.encounter();
    if !enc.active || !enc.pending.is_empty() {
        return Ok(());
    }
    let Some(id) = enc.current.clone() else {
        return Ok(());
    };
    let c = ctx.combatant(&id)?;
    if c.has_status(DEAD) || !spent(ctx, &c)? {
        return Ok(());
    }
    ctx.note_about(
        &id,
        format!(
            "{id} has spent the action and cannot move: the turn ends by itself (house rule \
             {END_SPENT_TURNS})"
        ),
    )?;
    end_turn(ctx, &id)
}

/// Whether all that is left of `c`'s turn is auxiliary and free actions: the action is spent,
/// no further attack is left in it (a light weapon's COR count, none after another weapon or
/// after moving on), and no movement can be made (off the grid, closed by acting after it,
/// or used up).
fn spent(ctx: &Ctx<'_>, c: &crate::state::Combatant) -> Result<bool, Refusal> {
    if c.resource(ACTION_SPENT) == 0 {
        return Ok(false);
    }
    let made = c.turn_counter(economy::ATTACKS);
    // A further attack with a light weapon, or frenzy's one more.
    let attack_left = made > 0 && super::attack::further_attack(c, true).is_ok();
    let metres_left = economy::movement_allowance(ctx, &c.id)? - c.turn_counter(economy::MOVED_M);
    let can_move =
        c.position.is_some() && c.turn_counter(economy::MOVE_CLOSED) == 0 && metres_left > 0;
    Ok(!attack_left && !can_move)
}

/// A character who passed, waiting for the end of the round.
pub const PASSED: &str = "passed";
/// A character taking a passed turn: passing again gives the turn up.
const PASSED_ONCE: &str = "passed_once";

/// Passes the turn: before doing anything, `who` chooses to act after everyone else this
/// round. Next round they are back in their usual place. A second pass in the same round
/// gives the turn up, as does ending it.
pub fn pass(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    economy::require_turn(ctx, who)?;
    let enc = ctx.state.encounter().clone();
    if !enc.active {
        return Err(Refusal::NoEncounter.into());
    }
    let c = ctx.combatant(who)?;
    let busy = economy::TURN_COUNTERS
        .iter()
        .any(|k| c.turn_counter(k) != 0);
    if busy {
        return Err(Refusal::Rule(format!(
            "{who} has already done something this turn; passing comes first"
        ))
        .into());
    }
    if c.has_status(PASSED_ONCE) {
        ctx.set_status(who, PASSED_ONCE, None)?;
        ctx.note_about(who, format!("{who} passes again and gives up the turn"))?;
    } else {
        ctx.set_status(
            who,
            PASSED,
            Some(Status {
                source: "pass".into(),
                magnitude: 0,
                rounds_left: Some(1),
            }),
        )?;
        ctx.note_about(
            who,
            format!("{who} passes, to act after everyone else this round"),
        )?;
    }
    let at = enc.order.iter().position(|id| id == who).unwrap_or(0);
    // A character taking a passed turn is already past the end of the order.
    let next = if c.has_status(PASSED_ONCE) {
        enc.order.len()
    } else {
        at + 1
    };
    advance(ctx, next)
}

/// Ends `who`'s turn and starts the next living character's, wrapping into a new round.
/// Dead characters are skipped; dying ones still get their turn, in which they lose Condition.
pub fn end_turn(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    let enc = ctx.state.encounter().clone();
    if !enc.active {
        return Err(Refusal::NoEncounter.into());
    }
    if enc.current.as_ref() != Some(who) {
        return Err(Refusal::NotYourTurn {
            actor: who.clone(),
            current: enc.current.clone(),
        }
        .into());
    }
    if options::choice_of(ctx.state.options(), DYING_TICK) == "turn_end" {
        dying_tick(ctx, who)?;
    }
    let at = enc.order.iter().position(|id| id == who).unwrap_or(0);
    // The end of a passed turn: the round's order is already behind us.
    let next = if ctx.combatant(who)?.has_status(PASSED_ONCE) {
        ctx.set_status(who, PASSED_ONCE, None)?;
        enc.order.len()
    } else {
        at + 1
    };
    advance(ctx, next)
}

/// Ends the encounter. Reaction debts, turn counters and statuses counted in rounds do not
/// outlive it.
pub fn end(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    if !ctx.state.encounter().active {
        return Err(Refusal::NoEncounter.into());
    }
    for id in ctx.state.encounter().order.clone() {
        ctx.set_resource(&id, ACTION_SPENT, 0)?;
        ctx.set_resource(&id, ACTION_OWED, 0)?;
        ctx.set_status(&id, PASSED, None)?;
        ctx.set_status(&id, PASSED_ONCE, None)?;
        for counter in TURN_COUNTERS {
            ctx.set_turn_counter(&id, counter, 0)?;
        }
        status::fight_over(ctx, &id)?;
    }
    surprise::over(ctx)?;
    super::grapple::fight_over(ctx)?;
    ctx.emit(Event::public(Fact::EncounterEnded))
}

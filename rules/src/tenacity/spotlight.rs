//! Spotlight initiative and the turn's economy. The opening roll (a skill the GM names,
//! Reaction by default) gives the spotlight to the highest; on a tie heroes go before NPCs,
//! then the table's order. A turn is one action, one interaction and one movement. Ending it
//! names who comes next, within the rule: one the turn brought into the spotlight (an
//! opposing one first), else any opposing character still to act, else anyone still to act;
//! when nobody is left the round resets and the holder names who opens the next. A character
//! who has acted and is brought back into the spotlight may pay one 10acity or Spin (a solo
//! opponent with a free response pays nothing) to answer at once with one action.

use crate::action::Args;
use crate::dice::roll;
use crate::engine::{Ctx, DecideError};
use crate::event::{Event, Fact, Modifier};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Combatant, Kind, StateView};
use crate::toolkit::turns;

use super::tell::{self, expr};
use super::{FULL_DEFENCE, SPIN, TENACITY, rules, sheet_of};

pub const ACTION: &str = "action";
pub const INTERACTION: &str = "interaction";
pub const MOVEMENT: &str = "movement";
/// An out-of-turn answer paid for and not yet used.
pub const RESPONSE: &str = "response";
/// Spaces a sprint added this turn.
pub const SPRINT: &str = "sprint";

fn brought_key(id: &EntityId) -> String {
    format!("brought.{id}")
}

/// Starts the encounter: everyone rolls the opening skill, in id order.
pub fn start(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    let skill = args
        .text("skill")?
        .unwrap_or("reaction")
        .to_ascii_lowercase();
    let fighters = crate::toolkit::start_encounter(ctx, |_| true)?;
    ctx.emit(Event::public(Fact::RoundStarted { round: 1 }))?;
    let mut best: Option<(i64, bool, EntityId)> = None;
    for id in fighters {
        let c = ctx.combatant(&id)?;
        let sheet = sheet_of(&c)?;
        let (dice, rank) = sheet.skill(&skill).map_or((1, 0), |(_, d, r)| (d, r));
        let r = roll(&expr(&format!("{dice}d10kh1"))?, ctx.dice)?;
        let total = tell::open_roll(
            ctx,
            &id,
            "rolls initiative",
            skill.clone(),
            r,
            vec![Modifier::new("rank", rank)],
        )?;
        let hero = c.kind == Kind::Pc;
        let better = match &best {
            None => true,
            Some((t, h, _)) => total > *t || (total == *t && hero && !*h),
        };
        if better {
            best = Some((total, hero, id));
        }
    }
    let first = best
        .map(|(_, _, id)| id)
        .ok_or_else(|| Refusal::Rule("nobody is at the table to fight".into()))?;
    if super::options::group_initiative(ctx.state.options()) {
        let best = ctx.combatant(&first)?;
        return super::groups::choose_first(ctx, &best);
    }
    turns::spotlight(ctx, &first)
}

fn in_encounter(ctx: &Ctx<'_>) -> bool {
    ctx.state.encounter().active
}

/// Takes the turn's action for a check (or another action): in an encounter the holder of the
/// spotlight with its action unused, or one who paid to respond. Outside one, anyone.
pub fn take_action(ctx: &mut Ctx<'_>, c: &Combatant) -> Result<(), DecideError> {
    if !in_encounter(ctx) {
        return Ok(());
    }
    if c.turn_counter(RESPONSE) > 0 {
        return ctx.set_turn_counter(&c.id, RESPONSE, 0);
    }
    turns::check_turn(&ctx.state, &c.id)?;
    if c.turn_counter(ACTION) > 0 {
        return Err(Refusal::NoneLeft {
            actor: c.id.clone(),
            slot: "action".into(),
        }
        .into());
    }
    ctx.set_turn_counter(&c.id, ACTION, 1)
}

/// Notes that the holder's action brought `target` into the spotlight.
pub fn bring(ctx: &mut Ctx<'_>, by: &EntityId, target: &EntityId) -> Result<(), DecideError> {
    if in_encounter(ctx) && by != target {
        ctx.set_turn_counter(by, &brought_key(target), 1)?;
    }
    Ok(())
}

/// The turn's interaction: one small thing (a door, drawing a weapon, a word).
pub fn interact(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    turns::check_turn(&ctx.state, &c.id)?;
    if c.turn_counter(INTERACTION) > 0 {
        return Err(Refusal::NoneLeft {
            actor: c.id.clone(),
            slot: "interaction".into(),
        }
        .into());
    }
    ctx.set_turn_counter(&c.id, INTERACTION, 1)?;
    let what = args.text("what")?.unwrap_or("something small");
    ctx.note_about(&c.id, format!("{} interacts: {what}", c.id))
}

/// The turn's movement: up to the movement speed, plus what a sprint added.
pub fn movement(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    turns::check_turn(&ctx.state, &c.id)?;
    if c.has_status(super::LOCKED) {
        return Err(Refusal::Rule(format!("{} is locked and cannot move", c.id)).into());
    }
    if c.turn_counter(MOVEMENT) > 0 {
        return Err(Refusal::NoneLeft {
            actor: c.id.clone(),
            slot: "movement".into(),
        }
        .into());
    }
    let spaces = args.require_int("spaces")?;
    let most = sheet_of(c)?.movement + c.turn_counter(SPRINT);
    if !(0..=most).contains(&spaces) {
        return Err(Refusal::bad_argument(
            "spaces",
            &format!("must be 0 to {most} (movement, plus any sprint)"),
        )
        .into());
    }
    ctx.set_turn_counter(&c.id, MOVEMENT, 1)?;
    // A grapple whose grappler is gone, dead or unconscious holds nothing back.
    let holder = c
        .statuses
        .get(super::GRAPPLED)
        .and_then(|held| ctx.combatant(&EntityId::from(held.source.as_str())).ok())
        .filter(|h| super::cannot_act(h).is_none());
    if let Some(holder) = holder {
        return grappled_move(ctx, c, &holder.id.0, spaces);
    }
    ctx.note_about(&c.id, format!("{} moves {spaces} spaces", c.id))?;
    if spaces > 0 {
        super::conditions::left_area(ctx, &c.id)?;
    }
    Ok(())
}

/// Moving while grappled: the grappled one's athletics against the grappler's; it moves as
/// many spaces as it wins by, at most the ones it asked for. The spaces asked are said before
/// the roll, so rolling again for a better result is not on offer.
fn grappled_move(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    grappler: &str,
    spaces: i64,
) -> Result<(), DecideError> {
    let holder = ctx.combatant(&EntityId::from(grappler))?;
    let (theirs, r) = super::conditions::reaction_roll(ctx, &holder, "athletics")?;
    let gm = crate::redact::gm_only_numbers(&holder);
    tell::rolled(
        ctx,
        Some(&holder.id),
        "athletics holding the grapple".to_owned(),
        r,
        gm,
    )?;
    let c = ctx.combatant(&c.id)?;
    let (mine, r) = super::conditions::reaction_roll(ctx, &c, "athletics")?;
    let rank = mine - r.total;
    let won_by = (mine - theirs).max(0);
    tell::check(
        ctx,
        tell::Check {
            who: &c.id,
            verb: "moves while grappled".into(),
            target: None,
            label: "athletics".into(),
            roll: r,
            modifiers: vec![Modifier::new("athletics", rank)],
            total: mine,
            against: theirs,
            compared: format!("{}'s athletics", holder.id),
            hidden: gm,
            because: None,
        },
    )?;
    let moved = won_by.min(spaces);
    ctx.note_about(
        &c.id,
        format!("{} moves {moved} of {spaces} spaces while grappled", c.id),
    )?;
    if moved > 0 {
        super::conditions::left_area(ctx, &c.id)?;
    }
    Ok(())
}

/// Who may take the spotlight after `holder`'s turn, and whether the round is over.
pub fn next_open(state: &dyn StateView, holder: &Combatant) -> (Vec<EntityId>, bool) {
    let enc = state.encounter();
    let everyone: Vec<Combatant> = state
        .combatant_ids()
        .iter()
        .filter_map(|id| state.combatant(id).cloned())
        .filter(|c| c.id != holder.id && c.kind != Kind::Object && super::cannot_act(c).is_none())
        .collect();
    let to_act: Vec<&Combatant> = everyone
        .iter()
        .filter(|c| !enc.turns.acted.contains(&c.id))
        .collect();
    if to_act.is_empty() {
        return (everyone.iter().map(|c| c.id.clone()).collect(), true);
    }
    let brought: Vec<&Combatant> = to_act
        .iter()
        .copied()
        .filter(|c| holder.turn_counter(&brought_key(&c.id)) > 0)
        .collect();
    let pick = |list: Vec<&Combatant>| -> Vec<EntityId> {
        let opp: Vec<EntityId> = list
            .iter()
            .filter(|c| c.side != holder.side)
            .map(|c| c.id.clone())
            .collect();
        if opp.is_empty() {
            list.iter().map(|c| c.id.clone()).collect()
        } else {
            opp
        }
    };
    if brought.is_empty() {
        (pick(to_act), false)
    } else {
        (pick(brought), false)
    }
}

/// The rule step of a brought-in character choosing who acts next.
pub const STEP_NEXT: &str = "tenacity.next";

/// The one the holder's turn brought into the spotlight, when it is the only one and has
/// already acted: by the rule it, not the holder, chooses who acts next.
fn chooser(state: &dyn StateView, holder: &Combatant) -> Option<Combatant> {
    let acted = &state.encounter().turns.acted;
    let brought: Vec<Combatant> = state
        .combatant_ids()
        .iter()
        .filter(|id| **id != holder.id && holder.turn_counter(&brought_key(id)) > 0)
        .filter_map(|id| state.combatant(id).cloned())
        .collect();
    match brought.as_slice() {
        [only] if acted.contains(&only.id) && super::cannot_act(only).is_none() => {
            Some(only.clone())
        }
        _ => None,
    }
}

/// Whom a chooser may name: anyone else still to act, or anyone at all when the round is over.
fn chooser_open(
    state: &dyn StateView,
    holder: &EntityId,
    chooser: &EntityId,
) -> (Vec<EntityId>, bool) {
    let acted = &state.encounter().turns.acted;
    let able: Vec<EntityId> = state
        .combatant_ids()
        .into_iter()
        .filter(|id| id != holder && id != chooser)
        .filter(|id| {
            state
                .combatant(id)
                .is_some_and(|c| c.kind != Kind::Object && super::cannot_act(c).is_none())
        })
        .collect();
    let to_act: Vec<EntityId> = able
        .iter()
        .filter(|id| !acted.contains(id))
        .cloned()
        .collect();
    if to_act.is_empty() {
        // The round is over: the chooser may also name itself or the holder to open the next.
        let everyone = state
            .combatant_ids()
            .into_iter()
            .filter(|id| {
                state
                    .combatant(id)
                    .is_some_and(|c| super::cannot_act(c).is_none())
            })
            .collect();
        (everyone, true)
    } else {
        (to_act, false)
    }
}

/// Ends the holder's turn and hands the spotlight to `next`, within the rule; or, when the one
/// it brought in has already acted, asks that one whom to hand it to.
pub fn end_turn(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    if super::options::group_initiative(ctx.state.options()) {
        return super::groups::end_turn(ctx, c, args.entity("next")?.is_some());
    }
    turns::check_turn(&ctx.state, &c.id)?;
    if let Some(ch) = chooser(&ctx.state, c) {
        if args.entity("next")?.is_some() {
            return Err(Refusal::Rule(format!(
                "{} was brought into the spotlight and has already acted: it chooses who acts next (end the turn without `next`)",
                ch.id
            ))
            .into());
        }
        let (open, round_over) = chooser_open(&ctx.state, &c.id, &ch.id);
        let Some(default) = open.first().cloned() else {
            return Err(Refusal::Rule("nobody is left to take the spotlight".into()).into());
        };
        finish_turn(ctx, c)?;
        ctx.ask(crate::decision::PendingStep {
            rule: STEP_NEXT.into(),
            actor: Some(ch.id.clone()),
            seats: crate::toolkit::deciders(&ch),
            question: format!("{} hands you the spotlight back: who acts next?", c.id),
            options: open.iter().map(|i| i.0.clone()).collect(),
            default: default.0,
            timeout_ms: ctx.state.options().decision_timeout_ms(),
            data: [(
                "round_over".to_owned(),
                crate::decision::StepValue::Flag(round_over),
            )]
            .into(),
            ..crate::decision::PendingStep::default()
        })?;
        return Ok(());
    }
    let next = ctx.combatant(&args.require_entity("next")?)?;
    let (open, round_over) = next_open(&ctx.state, c);
    if !open.contains(&next.id) {
        let names: Vec<String> = open.iter().map(|i| i.0.clone()).collect();
        return Err(Refusal::Rule(format!(
            "the spotlight cannot pass to {}: it may pass to {}",
            next.id,
            if names.is_empty() {
                "no one".into()
            } else {
                names.join(", ")
            }
        ))
        .into());
    }
    finish_turn(ctx, c)?;
    hand_over(ctx, &next, round_over)
}

/// The end of `c`'s turn: a coup de grâce finished in it takes effect, its turn's counters
/// clear, and it has acted this round.
fn finish_turn(ctx: &mut Ctx<'_>, c: &Combatant) -> Result<(), DecideError> {
    super::death::turn_ends(ctx, &c.id)?;
    if c.has_status(super::WITHDRAWING) {
        ctx.set_status(&c.id, super::WITHDRAWING, None)?;
    }
    let keys: Vec<String> = ctx.combatant(&c.id)?.turn.keys().cloned().collect();
    for k in keys {
        ctx.set_turn_counter(&c.id, &k, 0)?;
    }
    turns::acted(ctx, &c.id)?;
    Ok(())
}

/// `next` takes the spotlight (a new round first, when the last one is over).
fn hand_over(ctx: &mut Ctx<'_>, next: &Combatant, round_over: bool) -> Result<(), DecideError> {
    super::hold::lapse(ctx, next)?;
    // Full defence lasts until the defender's own next turn.
    if next.has_status(FULL_DEFENCE) {
        ctx.set_status(&next.id, FULL_DEFENCE, None)?;
    }
    if round_over {
        let round = ctx.state.encounter().round + 1;
        ctx.emit(Event::public(Fact::RoundStarted { round }))?;
    }
    turns::spotlight(ctx, &next.id)?;
    super::conditions::turn_starts(ctx, &next.id)
}

/// The brought-in character's choice: the one it names takes the spotlight.
pub fn resume_next(
    ctx: &mut Ctx<'_>,
    step: &crate::decision::PendingStep,
    closing: &crate::decision::Closing<'_>,
) -> Result<(), DecideError> {
    let next = ctx.combatant(&EntityId::from(closing.choice))?;
    let round_over = step.flag("round_over").unwrap_or(false);
    hand_over(ctx, &next, round_over)
}

/// Encounter value: first place was passed at the opening (it passes once).
const OPENING_PASSED: &str = "opening_passed";

/// The opening roll's winner acts first or gives first place to anyone. Only before anyone
/// has acted in the first round, by a holder who has done nothing yet this turn, and once:
/// the one who receives it acts. The passer has not acted and is still to come this round.
pub fn pass_first(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    if super::options::group_initiative(ctx.state.options()) {
        return Err(Refusal::Rule(
            "in group initiative the highest roller chooses which side goes first".into(),
        )
        .into());
    }
    turns::check_turn(&ctx.state, &c.id)?;
    let enc = ctx.state.encounter();
    let opening = enc.round == 1
        && enc.turns.acted.is_empty()
        && enc.values.get(OPENING_PASSED).copied().unwrap_or(0) == 0;
    if !opening {
        return Err(Refusal::Rule(
            "first place can be passed only at the opening, before anyone has acted, and once"
                .into(),
        )
        .into());
    }
    if c.turn.values().any(|n| *n != 0) {
        return Err(Refusal::Rule(format!(
            "{} has already begun its turn: end it to pass the spotlight",
            c.id
        ))
        .into());
    }
    let to = ctx.combatant(&args.require_entity("to")?)?;
    if to.id == c.id {
        return Err(Refusal::bad_argument("to", "names someone else").into());
    }
    if let Some(why) = super::cannot_act(&to) {
        return Err(Refusal::Rule(format!("{} cannot take first place: {why}", to.id)).into());
    }
    if to.kind == Kind::Object {
        return Err(Refusal::bad_argument("to", "names a character: objects take no turns").into());
    }
    ctx.set_encounter_value(OPENING_PASSED, 1)?;
    ctx.note_about(&c.id, format!("{} passes first place to {}", c.id, to.id))?;
    turns::spotlight(ctx, &to.id)?;
    super::conditions::turn_starts(ctx, &to.id)
}

/// A character who has acted this round, brought back into the spotlight by the holder's
/// action, pays one 10acity or Spin (nothing with a free response) to answer now.
pub fn respond(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    let enc = ctx.state.encounter();
    let holder = turns::may_act(enc)
        .into_iter()
        .next()
        .ok_or(Refusal::NoEncounter)?;
    let holder = ctx.combatant(&holder)?;
    if !enc.turns.acted.contains(&c.id) || holder.turn_counter(&brought_key(&c.id)) == 0 {
        return Err(Refusal::Rule(format!(
            "{} may respond only after acting this round and being brought back into the spotlight",
            c.id
        ))
        .into());
    }
    if !sheet_of(c)?.free_response {
        let pay = args.text("pay")?.unwrap_or("tenacity");
        let (key, have) = match pay {
            "spin" => (SPIN, rules::spendable_spin(c.resource(SPIN))),
            _ => (TENACITY, c.resource(TENACITY)),
        };
        if have < 1 {
            return Err(Refusal::InsufficientResource {
                resource: key.into(),
                needed: 1,
                available: have,
            }
            .into());
        }
        ctx.set_resource(&c.id, key, c.resource(key) - 1)?;
    }
    ctx.set_turn_counter(&c.id, RESPONSE, 1)?;
    ctx.note_about(
        &c.id,
        format!("{} steps back into the spotlight to respond", c.id),
    )
}

/// Sprint: the action spent on an Athletics check whose whole total is added to this turn's
/// movement.
pub fn sprint(ctx: &mut Ctx<'_>, c: &Combatant) -> Result<(), DecideError> {
    let (dice, rank) = sheet_of(c)?
        .skill("athletics")
        .map_or((1, 0), |(_, d, r)| (d, r));
    take_action(ctx, c)?;
    let r = roll(&expr(&format!("{dice}d10kh1"))?, ctx.dice)?;
    let total = r.total + rank;
    tell::rolled(
        ctx,
        Some(&c.id),
        format!("athletics sprint (+{rank}) = {total} spaces"),
        r,
        false,
    )?;
    ctx.set_turn_counter(&c.id, SPRINT, total)
}

/// Full defence: the action spent for an advantage die on every defence roll until the next
/// own turn.
pub fn full_defence(ctx: &mut Ctx<'_>, c: &Combatant) -> Result<(), DecideError> {
    take_action(ctx, c)?;
    ctx.set_status(
        &c.id,
        FULL_DEFENCE,
        Some(crate::state::Status {
            source: c.id.0.clone(),
            magnitude: 0,
            rounds_left: None,
        }),
    )
}

/// Withdraw: the action spent so that leaving melee this turn gives no parting actions.
pub fn withdraw(ctx: &mut Ctx<'_>, c: &Combatant) -> Result<(), DecideError> {
    take_action(ctx, c)?;
    ctx.set_status(
        &c.id,
        super::WITHDRAWING,
        Some(crate::state::Status {
            source: c.id.0.clone(),
            magnitude: 0,
            rounds_left: None,
        }),
    )
}

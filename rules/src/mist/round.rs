//! The encounter's clock: group initiative once at the start (one Speed check per group, by
//! its lowest-Body member), groups acting highest first and in any order inside a group, the
//! same order every round, groups new to the fight joining at the start of a round; one action
//! a round, which may be held as a delayed action and spent outside the group's turn.

use std::cmp::Reverse;
use std::collections::BTreeMap;

use crate::account::Telling;
use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::event::{Event, Fact, Modifier};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Kind, StateView, Status};
use crate::toolkit::turns::{self, TurnShape};

use super::options::{ENEMY_INITIATIVE, GROUP_TIES, is};
use super::tell::{self, Check};
use super::{
    ACTION, AMBUSHER, DEAD, DELAYED, IN_MIST, INITIATIVE, LIFE, UNCONSCIOUS, cannot_act, sheet_of,
};

/// The players' group.
pub const PLAYERS: &str = "players";

/// How an action is being taken: in the group's turn, or as the held delayed action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum How {
    Turn,
    Delayed,
    /// Outside any encounter (reviving after the fight).
    Free,
}

/// The trigger of steps waiting for `group`'s turn to end (aimed attacks).
pub fn after_group(group: &str) -> String {
    format!("after_group:{group}")
}

/// Who of `ids` rolls for the group: the lowest Body, the first by id among equals.
pub fn roller(ctx: &Ctx<'_>, ids: &[EntityId]) -> Result<Option<EntityId>, Refusal> {
    let mut best: Option<(i64, EntityId)> = None;
    for id in ids {
        let c = ctx.combatant(id)?;
        let body = sheet_of(&c)?.body;
        if best.as_ref().is_none_or(|(b, _)| body < *b) {
            best = Some((body, id.clone()));
        }
    }
    Ok(best.map(|(_, id)| id))
}

/// Rolls the initiative of `group`: the lowest-Body member's Speed check (d10 + Body +
/// Speed), or for a group other than the players a bare d10 when the table says so.
fn roll_group(ctx: &mut Ctx<'_>, group: &str, ids: &[EntityId]) -> Result<i64, DecideError> {
    let Some(who) = roller(ctx, ids)? else {
        return Ok(0);
    };
    let c = ctx.combatant(&who)?;
    let s = sheet_of(&c)?;
    let plain = group != PLAYERS && is(ctx.state.options(), ENEMY_INITIATIVE, "plain_d10");
    let modifiers = if plain {
        Vec::new()
    } else {
        vec![
            Modifier::new("Body", s.body),
            Modifier::new("Speed", s.skills.speed),
        ]
    };
    let roll = crate::dice::roll(&super::attack::d10()?, ctx.dice)?;
    ctx.telling = Some(Telling {
        actor: Some(who.clone()),
        verb: format!("rolls initiative for the {group}"),
        target: None,
        instrument: None,
    });
    let total = tell::check(
        ctx,
        Check {
            who: &who,
            label: "initiative".into(),
            roll,
            modifiers,
            against: None,
            success: None,
            words: ("", ""),
            because: None,
            hidden: false,
            gm_only: false,
        },
    )?;
    ctx.telling = None;
    for id in ids {
        ctx.set_resource(id, INITIATIVE, total)?;
    }
    Ok(total)
}

/// Those who fight: not objects, not dead.
fn fighters(state: &dyn StateView) -> Vec<EntityId> {
    state
        .combatant_ids()
        .into_iter()
        .filter(|id| {
            state
                .combatant(id)
                .is_some_and(|c| c.kind != Kind::Object && !c.has_status(DEAD))
        })
        .collect()
}

/// The combatants of `ids` by group, groups by name.
fn by_group(state: &dyn StateView, ids: &[EntityId]) -> BTreeMap<String, Vec<EntityId>> {
    let mut out: BTreeMap<String, Vec<EntityId>> = BTreeMap::new();
    for id in ids {
        if let Some(c) = state.combatant(id) {
            out.entry(c.side.clone()).or_default().push(id.clone());
        }
    }
    out
}

/// The groups in the order they act, as the encounter's order holds them.
pub fn group_order(state: &dyn StateView) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for id in &state.encounter().order {
        if let Some(c) = state.combatant(id)
            && !out.contains(&c.side)
        {
            out.push(c.side.clone());
        }
    }
    out
}

/// Rolls for every group of `ids` (in name order, so the draws are checkable) and sets the
/// order: the groups already in it keep their place, and each group sits by its initiative,
/// highest first, equal ones as the table rules.
fn join(ctx: &mut Ctx<'_>, ids: &[EntityId]) -> Result<(), DecideError> {
    let mut groups: Vec<(String, i64, Vec<EntityId>)> = Vec::new();
    for g in group_order(&ctx.state) {
        let members: Vec<EntityId> = ctx
            .state
            .encounter()
            .order
            .iter()
            .filter(|id| ctx.state.combatant(id).is_some_and(|c| c.side == g))
            .cloned()
            .collect();
        let init = members
            .first()
            .and_then(|id| ctx.state.combatant(id))
            .map_or(0, |c| c.resource(INITIATIVE));
        groups.push((g, init, members));
    }
    for (g, members) in by_group(&ctx.state, ids) {
        if let Some(known) = groups.iter_mut().find(|(name, ..)| *name == g) {
            // A newcomer to a group already in the fight acts with it.
            for id in &members {
                ctx.set_resource(id, INITIATIVE, known.1)?;
            }
            known.2.extend(members);
            continue;
        }
        let init = roll_group(ctx, &g, &members)?;
        groups.push((g, init, members));
    }
    let players_first = is(ctx.state.options(), GROUP_TIES, "players_first");
    groups.sort_by_key(|(g, init, _)| {
        let players = g == PLAYERS;
        (Reverse(*init), players != players_first, g.clone())
    });
    let order: Vec<EntityId> = groups.into_iter().flat_map(|(.., m)| m).collect();
    ctx.emit(Event::public(Fact::OrderSet { order }))
}

pub fn start(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    let ids = crate::toolkit::start_encounter(ctx, |c| !c.has_status(DEAD))?;
    // A fight started without `ambush` is no ambush: hiding marks go, for the eyes that saw
    // them set.
    clear_marks(ctx)?;
    first_round(ctx, &ids)
}

fn clear_marks(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    for id in ctx.state.combatant_ids() {
        let c = ctx.combatant(&id)?;
        super::stealth::clear_mark(ctx, &c)?;
    }
    Ok(())
}

fn first_round(ctx: &mut Ctx<'_>, ids: &[EntityId]) -> Result<(), DecideError> {
    join(ctx, ids)?;
    ctx.emit(Event::public(Fact::RoundStarted { round: 1 }))?;
    refresh(ctx)?;
    open_from(ctx, 0)
}

/// The ambush: the combatants the GM marked `ambusher` (hidden and unspotted) get a free turn
/// before initiative is rolled, with +3 to their attacks; when they have all acted, the mark
/// goes and the fight starts as usual, everyone rolling initiative.
pub fn ambush(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    let ambushers: Vec<EntityId> = fighters(&ctx.state)
        .into_iter()
        .filter(|id| {
            ctx.state
                .combatant(id)
                .is_some_and(|c| c.has_status(AMBUSHER) && cannot_act(c).is_none())
        })
        .collect();
    if ambushers.is_empty() {
        return Err(Refusal::Rule(
            "nobody is marked `ambusher`: the GM marks the hidden attackers first".into(),
        )
        .into());
    }
    crate::toolkit::start_encounter(ctx, |c| !c.has_status(DEAD))?;
    for id in &ambushers {
        let n = actions_of(&ctx.combatant(id)?)?;
        ctx.set_resource(id, ACTION, n)?;
    }
    turns::open_group(ctx, AMBUSH_TURN, ambushers)
}

/// The name of the ambushers' free turn, before round 1.
pub const AMBUSH_TURN: &str = "ambush";

fn end_ambush(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    clear_marks(ctx)?;
    let ids = fighters(&ctx.state);
    first_round(ctx, &ids)
}

/// Gives every fighter the round's action back; a delayed action not used lapses; minor jams
/// are cleared.
fn refresh(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    super::jam_fix::minor_jams_clear(ctx)?;
    for id in ctx.state.encounter().order.clone() {
        let c = ctx.combatant(&id)?;
        if c.has_status(DELAYED) {
            ctx.set_status(&id, DELAYED, None)?;
            turns::hold(ctx, &id, false)?;
            ctx.note_about(&id, format!("{id}'s delayed action lapses with the round"))?;
        }
        let can = if cannot_act(&c).is_none() {
            actions_of(&c)?
        } else {
            0
        };
        ctx.set_resource(&id, ACTION, can)?;
    }
    Ok(())
}

/// Opens the turn of the first group from `at` that has someone with an action left; past the
/// last group the round ends and the next begins. A group with nobody to act passes by itself.
fn open_from(ctx: &mut Ctx<'_>, mut at: usize) -> Result<(), DecideError> {
    // Two full rounds with nobody able to act end the search: the GM rules or ends the fight.
    for _ in 0..2 * (group_order(&ctx.state).len() + 1) {
        let groups = group_order(&ctx.state);
        let Some(group) = groups.get(at).cloned() else {
            new_round(ctx)?;
            at = 0;
            continue;
        };
        let members: Vec<EntityId> = ctx
            .state
            .encounter()
            .order
            .iter()
            .filter_map(|id| ctx.state.combatant(id))
            .filter(|c| c.side == group && turn_actions(c) > 0 && cannot_act(c).is_none())
            .map(|c| c.id.clone())
            .collect();
        if !members.is_empty() {
            return turns::open_group(ctx, &group, members);
        }
        group_done(ctx, &group)?;
        at += 1;
    }
    turns::open_group(ctx, "nobody", Vec::new())
}

fn new_round(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    let round = ctx.state.encounter().round + 1;
    ctx.emit(Event::public(Fact::RoundStarted { round }))?;
    let known = ctx.state.encounter().order.clone();
    let new: Vec<EntityId> = fighters(&ctx.state)
        .into_iter()
        .filter(|id| !known.contains(id))
        .collect();
    if !new.is_empty() {
        join(ctx, &new)?;
    }
    super::hold::each_round(ctx)?;
    refresh(ctx)
}

/// What follows the end of `group`'s turn: the aimed attacks declared against it fire.
fn group_done(ctx: &mut Ctx<'_>, group: &str) -> Result<(), DecideError> {
    let trigger = after_group(group);
    let due: Vec<_> = ctx
        .state
        .encounter()
        .deferred
        .iter()
        .filter(|s| s.trigger.as_ref() == Some(&trigger))
        .cloned()
        .collect();
    for step in &due {
        ctx.emit(Event::public(Fact::DeferredResumed {
            prompt_id: step.prompt_id,
        }))?;
        super::attack::fire_aimed(ctx, step)?;
    }
    Ok(())
}

/// After every command: those of the acting group who can no longer act are taken out of its
/// turn, and a group with nobody left to act hands on to the next.
pub fn follow(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    // An action declared before an interrupt window goes on once every window is closed.
    super::interrupt::declared_due(ctx)?;
    let enc = ctx.state.encounter();
    if !enc.active || enc.turns.shape != TurnShape::Group || !enc.pending.is_empty() {
        return Ok(());
    }
    for id in enc.turns.now.clone() {
        if ctx
            .state
            .combatant(&id)
            .is_none_or(|c| cannot_act(c).is_some())
        {
            turns::acted(ctx, &id)?;
        }
    }
    let enc = ctx.state.encounter();
    if !enc.turns.now.is_empty() {
        return Ok(());
    }
    let Some(group) = enc.turns.group.clone() else {
        return Ok(());
    };
    if group == "nobody" {
        return Ok(());
    }
    if group == AMBUSH_TURN && ctx.state.encounter().round == 0 {
        return end_ambush(ctx);
    }
    group_done(ctx, &group)?;
    // An aimed attack may have opened a dodge window: the next group waits for it.
    if !ctx.state.encounter().pending.is_empty() {
        return Ok(());
    }
    let at = group_order(&ctx.state)
        .iter()
        .position(|g| *g == group)
        .map_or(0, |i| i + 1);
    open_from(ctx, at)
}

/// Whether `c` may take `action` now, and how: in its group's turn, or with its delayed action.
pub fn may_act(ctx: &Ctx<'_>, c: &crate::state::Combatant, action: &str) -> Result<How, Refusal> {
    let enc = ctx.state.encounter();
    if !enc.active {
        if matches!(action, "revive" | "reload") {
            // Out of a fight too, the fallen do nothing.
            super::able(c)?;
            return Ok(How::Free);
        }
        return Err(Refusal::NoEncounter);
    }
    super::able(c)?;
    if turns::check_turn(&ctx.state, &c.id).is_ok() {
        return Ok(How::Turn);
    }
    if c.has_status(DELAYED) && action != "delay" {
        return Ok(How::Delayed);
    }
    turns::check_turn(&ctx.state, &c.id)?;
    Ok(How::Turn)
}

/// Actions a round the sheet gives (one, or more from developments).
pub fn actions_of(c: &crate::state::Combatant) -> Result<i64, Refusal> {
    Ok(sheet_of(c)?.actions)
}

/// Actions `c` has left to take in its group's turn: its actions left this round, less the one
/// it holds as a delayed action.
pub fn turn_actions(c: &crate::state::Combatant) -> i64 {
    c.resource(ACTION) - i64::from(c.has_status(DELAYED))
}

/// Spends one of the round's actions: in the group's turn (the character leaves the turn when
/// it has none left to take there), or the delayed action released.
pub fn spend(ctx: &mut Ctx<'_>, who: &EntityId, how: How) -> Result<(), DecideError> {
    let c = ctx.combatant(who)?;
    let left = (c.resource(ACTION) - 1).max(0);
    match how {
        How::Free => return Ok(()),
        How::Turn => {
            if left - i64::from(c.has_status(DELAYED)) <= 0 {
                turns::acted(ctx, who)?;
            }
        }
        How::Delayed => {
            ctx.set_status(who, DELAYED, None)?;
            turns::hold(ctx, who, false)?;
        }
    }
    ctx.set_resource(who, ACTION, left)
}

/// Holds the action as a delayed action: declared in the group's turn, spent outside it. A
/// character with several actions holds one of them (never more: the text allows one delayed
/// action) and keeps taking the others in its turn.
pub fn delay(ctx: &mut Ctx<'_>, c: &crate::state::Combatant) -> Result<(), DecideError> {
    if c.has_status(DELAYED) {
        return Err(Refusal::Rule(format!(
            "{} already holds a delayed action: one at most",
            c.id
        ))
        .into());
    }
    ctx.set_status(
        &c.id,
        DELAYED,
        Some(Status {
            source: "delay".into(),
            magnitude: 0,
            rounds_left: None,
        }),
    )?;
    turns::hold(ctx, &c.id, true)?;
    if c.resource(ACTION) <= 1 {
        turns::acted(ctx, &c.id)?;
    }
    Ok(())
}

/// Any other substantial action (standing up, using an item, reloading, climbing): the GM
/// rules its check; the server spends the action and says what it was.
pub fn other_action(
    ctx: &mut Ctx<'_>,
    c: &crate::state::Combatant,
    args: &Args,
    how: How,
) -> Result<(), DecideError> {
    let what = args.require_text("what")?.to_owned();
    spend(ctx, &c.id, how)?;
    ctx.emit(Event::public(Fact::Noted {
        text: format!("{} spends the action: {what}", c.id),
    }))
}

/// The GM ends the acting group's turn: those who have not acted lose the round's action.
pub fn end_group_turn(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    let enc = ctx.state.encounter();
    if !enc.active {
        return Err(Refusal::NoEncounter.into());
    }
    for id in enc.turns.now.clone() {
        let held = ctx.combatant(&id)?.has_status(DELAYED);
        turns::acted(ctx, &id)?;
        ctx.set_resource(&id, ACTION, i64::from(held))?;
    }
    Ok(())
}

/// Whether the fight is in the mist (regular powder fails there; hazeblast fails outside).
pub fn set_mist(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    let on = args.flag("on")?;
    ctx.set_encounter_value(IN_MIST, i64::from(on))
}

/// Ends the fight: an unconscious player character nobody revived wakes with 0 Life; an
/// unused delayed action lapses.
pub fn end(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    if !ctx.state.encounter().active {
        return Err(Refusal::NoEncounter.into());
    }
    for id in ctx.state.encounter().order.clone() {
        let c = ctx.combatant(&id)?;
        ctx.set_status(&id, DELAYED, None)?;
        ctx.set_resource(&id, ACTION, 0)?;
        if c.kind == Kind::Pc && c.has_status(UNCONSCIOUS) && !c.has_status(DEAD) {
            // Waking never takes Life down (a stun may have left it above 0).
            let life = c.resource(LIFE).max(0);
            ctx.set_status(&id, UNCONSCIOUS, None)?;
            ctx.set_resource(&id, LIFE, life)?;
            ctx.note_about(&id, format!("{id} wakes after the fight with {life} Life"))?;
        }
    }
    clear_marks(ctx)?;
    ctx.emit(Event::public(Fact::EncounterEnded))
}

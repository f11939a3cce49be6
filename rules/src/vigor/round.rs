//! The encounter's clock: initiative once at the start (the d20 alone, plus bonus dice from
//! talents and Over Watch), turns in that order every round, actions a turn (2 to begin with,
//! one in round 1 for the ambushed, one more for ambushers, none while Winded), and the
//! Recovery phase when everyone has had their turn. Also the actions that only spend the turn's
//! economy: Defend, Move and standing up.

use std::cmp::Reverse;

use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::event::{Against, Event, Fact};
use crate::grid::distance;
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::StateView;
use crate::state::{Combatant, Kind, Status};

use super::bonus_dice::{Steps, action_roll, bursting};
use super::options::{INITIATIVE_TIES, choice_of};
use super::tell::{self, Check};
use super::{
    ACTIONS, AMBUSHED, AMBUSHER, DEAD, DEFENDING, DURABILITY, GRID, HEALTH, INITIATIVE, MANA,
    OVER_WATCH, PRONE, SHOCK, SHOCK_ROUNDS, STABILISED, STAMINA_PER_VIGOR, VIGOR, WOUNDED,
    cannot_act, settle, sheet_of,
};

/// How many actions `c` has for a turn of `round`.
pub fn actions_for(c: &Combatant, round: u32) -> Result<i64, Refusal> {
    if cannot_act(c).is_some() {
        return Ok(0);
    }
    let mut n = sheet_of(c)?.actions;
    if round == 1 {
        if c.has_status(AMBUSHED) {
            n = n.min(1);
        } else if c.has_status(AMBUSHER) {
            n += 1;
        }
    }
    Ok(n)
}

/// The Vigor a Recovery phase gives `stamina`: one point for every full five.
pub fn vigor_recovered(stamina: i64) -> i64 {
    stamina.max(0) / STAMINA_PER_VIGOR
}

pub fn start(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    let ids = crate::toolkit::start_encounter(ctx, |c| !c.has_status(DEAD))?;
    let burst = bursting(ctx.state.options());
    let mut rolled = Vec::new();
    for id in &ids {
        let c = ctx.combatant(id)?;
        let sheet = sheet_of(&c)?;
        // Over Watch gives its die only when the attack comes from the expected side; from
        // any other the GM marks the watcher ambushed instead.
        let over_watch = c.has_status(OVER_WATCH) && !c.has_status(AMBUSHED);
        let dice = sheet.bonus_dice.initiative + i64::from(over_watch);
        let steps = Steps {
            wounded: c.has_status(WOUNDED),
            ..Steps::default()
        };
        let roll = crate::dice::roll(&action_roll(dice, steps.die(), burst), ctx.dice)?;
        let total = roll.total;
        ctx.telling = None;
        tell::check(
            ctx,
            Check {
                who: id,
                label: label("initiative", steps, dice > 0),
                roll,
                against: Against::Nothing,
                compared: String::new(),
                words: ("", ""),
                because: over_watch.then(|| "Over Watch: +1 bonus die".to_owned()),
                hidden: false,
            },
        )?;
        ctx.set_resource(id, INITIATIVE, total)?;
        rolled.push((id.clone(), total, c.side == "players"));
    }
    let players_first = choice_of(ctx.state.options(), INITIATIVE_TIES) == "players_first";
    rolled.sort_by_key(|(id, total, pc)| (Reverse(*total), *pc != players_first, id.clone()));
    let order: Vec<EntityId> = rolled.into_iter().map(|(id, ..)| id).collect();
    ctx.emit(Event::public(Fact::OrderSet { order }))?;
    ctx.emit(Event::public(Fact::RoundStarted { round: 1 }))?;
    advance(ctx, 0)
}

/// A roll's label: what it is for and, when it has bonus dice, what moved them.
pub fn label(what: &str, steps: Steps, has_bonus: bool) -> String {
    let moved = steps.describe();
    if has_bonus && !moved.is_empty() {
        format!("{what} ({moved}: bonus d{})", steps.die().sides())
    } else {
        what.to_owned()
    }
}

/// Opens the turn of the first creature from `at` in the order that can act; a creature that
/// cannot (Winded, in Shock, dead) has its turn pass by itself, said in the log. Past the end
/// of the order the round closes with the Recovery phase and the next begins.
fn advance(ctx: &mut Ctx<'_>, mut at: usize) -> Result<(), DecideError> {
    let order = ctx.state.encounter().order.clone();
    let n = order.len();
    // Every creature may be unable to act for a round and more: two full rounds without an
    // actor end the search, leaving nobody's turn (the GM rules or ends the encounter).
    for _ in 0..=2 * n + 1 {
        if at >= n {
            recovery(ctx)?;
            let round = ctx.state.encounter().round + 1;
            ctx.emit(Event::public(Fact::RoundStarted { round }))?;
            at = 0;
            continue;
        }
        let Some(id) = order.get(at).cloned() else {
            break;
        };
        let c = ctx.combatant(&id)?;
        ctx.set_status(&id, DEFENDING, None)?;
        super::ready::lapse(ctx, &id)?;
        let round = ctx.state.encounter().round;
        let actions = actions_for(&c, round)?;
        let actions = super::ability::carry_on(ctx, &id, actions)?;
        ctx.set_resource(&id, ACTIONS, actions)?;
        if actions > 0 {
            return ctx.emit(Event::public(Fact::TurnStarted { entity: Some(id) }));
        }
        if !c.has_status(DEAD) {
            let busy = c.has_status(super::ability::CHANNELLING);
            let why = cannot_act(&c).unwrap_or(if busy {
                "its actions go on the ability it is using"
            } else {
                "no actions"
            });
            ctx.note_about(&id, format!("{id} takes no actions this turn: {why}"))?;
        }
        at += 1;
    }
    ctx.emit(Event::public(Fact::TurnStarted { entity: None }))
}

/// The Recovery phase: Vigor back by Stamina (up to the sheet's maximum), what special
/// abilities give back, and the Shock countdown, for every creature in the order.
fn recovery(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    for id in ctx.state.encounter().order.clone() {
        let c = ctx.combatant(&id)?;
        if c.has_status(DEAD) || c.kind == Kind::Object {
            continue;
        }
        let sheet = sheet_of(&c)?.clone();
        if sheet.recovers_vigor {
            let to = (c.resource(VIGOR) + vigor_recovered(sheet.abilities.stamina))
                .min(sheet.vigor_max.max(c.resource(VIGOR)));
            ctx.set_resource(&id, VIGOR, to)?;
        }
        // Wounded creatures lose the quick recovery of Durability.
        if !c.has_status(WOUNDED) && sheet.recovery.durability > 0 {
            let to = (c.resource(DURABILITY) + sheet.recovery.durability).min(sheet.durability_max);
            ctx.set_resource(&id, DURABILITY, to.max(c.resource(DURABILITY)))?;
        }
        for (key, per_round, max) in [
            (MANA, sheet.recovery.mana, sheet.mana_max),
            (HEALTH, sheet.recovery.health, sheet.health_max),
        ] {
            if per_round > 0 {
                let now = c.resource(key);
                ctx.set_resource(&id, key, (now + per_round).min(max).max(now))?;
            }
        }
        settle(ctx, &id, "recovery")?;
        let c = ctx.combatant(&id)?;
        if let Some(shock) = c.statuses.get(SHOCK).cloned()
            && !c.has_status(STABILISED)
        {
            // The count is `shock_rounds`. A count in the status itself comes from the GM's
            // ruling (`rule.set-status --rounds`) or from a log older than the number: it
            // rules, and moves into the number now.
            let count = match (c.resource(SHOCK_ROUNDS), shock.rounds_left) {
                (_, Some(rounds)) => {
                    ctx.set_status(
                        &id,
                        SHOCK,
                        Some(Status {
                            rounds_left: None,
                            ..shock
                        }),
                    )?;
                    i64::from(rounds)
                }
                (n, _) => n,
            };
            let left = count.saturating_sub(1).max(0);
            if left == 0 {
                super::end_shock(ctx, &c)?;
                ctx.set_status(
                    &id,
                    DEAD,
                    Some(Status {
                        source: "shock".into(),
                        magnitude: 0,
                        rounds_left: None,
                    }),
                )?;
                ctx.note_about(&id, format!("{id} dies of shock"))?;
            } else {
                ctx.set_resource(&id, SHOCK_ROUNDS, left)?;
            }
        }
    }
    Ok(())
}

pub fn end_turn(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    let enc = ctx.state.encounter().clone();
    let at = enc.order.iter().position(|id| id == who).unwrap_or(0);
    ctx.set_resource(who, ACTIONS, 0)?;
    advance(ctx, at + 1)
}

pub fn end(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    if !ctx.state.encounter().active {
        return Err(Refusal::NoEncounter.into());
    }
    for id in ctx.state.encounter().order.clone() {
        ctx.set_resource(&id, ACTIONS, 0)?;
        ctx.set_status(&id, DEFENDING, None)?;
        super::ready::lapse(ctx, &id)?;
    }
    ctx.emit(Event::public(Fact::EncounterEnded))
}

/// Refuses an action outside the actor's turn.
pub fn require_current(ctx: &Ctx<'_>, c: &Combatant) -> Result<(), Refusal> {
    let enc = ctx.state.encounter();
    if !enc.active {
        return Err(Refusal::NoEncounter);
    }
    if enc.current.as_ref() != Some(&c.id) {
        return Err(Refusal::NotYourTurn {
            actor: c.id.clone(),
            current: enc.current.clone(),
        });
    }
    Ok(())
}

/// Refuses an action outside the actor's turn, or from a creature that cannot act.
pub fn require_turn(ctx: &Ctx<'_>, c: &Combatant) -> Result<(), Refusal> {
    require_current(ctx, c)?;
    if let Some(why) = cannot_act(c) {
        return Err(Refusal::CannotAct {
            actor: c.id.clone(),
            reason: why.to_owned(),
        });
    }
    Ok(())
}

/// Takes `n` actions from the turn, refused (and nothing spent) when fewer are left.
pub fn spend(ctx: &mut Ctx<'_>, c: &Combatant, n: i64) -> Result<(), DecideError> {
    let left = ctx.combatant(&c.id)?.resource(ACTIONS);
    if left < n {
        return Err(Refusal::InsufficientResource {
            resource: "actions".into(),
            needed: n,
            available: left,
        }
        .into());
    }
    ctx.set_resource(&c.id, ACTIONS, left - n)
}

pub fn defend(ctx: &mut Ctx<'_>, c: &Combatant) -> Result<(), DecideError> {
    spend(ctx, c, 1)?;
    ctx.set_status(
        &c.id,
        DEFENDING,
        Some(Status {
            source: "defend".into(),
            magnitude: super::DEFEND_DISCOUNT,
            rounds_left: None,
        }),
    )
}

/// Feet a Move action covers: the Speed score, a quarter of it (rounded down) while prone.
pub fn move_feet(speed: i64, prone: bool) -> i64 {
    if prone { speed / 4 } else { speed }
}

pub fn movement(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    let to = args
        .cell("to")?
        .ok_or_else(|| Refusal::bad_argument("to", "is required"))?;
    let from = c
        .position
        .ok_or_else(|| Refusal::Rule(format!("{} is not on the grid", c.id)))?;
    let speed = sheet_of(c)?.abilities.speed;
    let limit = move_feet(speed, c.has_status(PRONE));
    let cells = distance(from, to, ctx.state.options().diagonal());
    let feet = i64::try_from(cells)
        .unwrap_or(i64::MAX)
        .saturating_mul(i64::from(GRID.cell_size));
    if feet > limit {
        return Err(Refusal::OutOfRange {
            what: format!("cell ({}, {})", to.x, to.y),
            distance: feet,
            limit,
            unit: GRID.unit.into(),
        }
        .into());
    }
    spend(ctx, c, 1)?;
    ctx.emit(Event::public(Fact::Moved {
        entity: c.id.clone(),
        from: Some(from),
        to: Some(to),
    }))
}

pub fn stand(ctx: &mut Ctx<'_>, c: &Combatant) -> Result<(), DecideError> {
    if !c.has_status(PRONE) {
        return Err(Refusal::Rule(format!("{} is not knocked down", c.id)).into());
    }
    spend(ctx, c, 1)?;
    ctx.set_status(&c.id, PRONE, None)?;
    // Getting up gives the adjacent foes an opening.
    super::opening::offer(ctx, c, "stands up")
}

/// The GM knocks a creature down: it is prone, and knocked down in its own turn it loses the
/// action it was taking (one action, since actions here resolve whole).
pub fn knock_down(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    let c = ctx.combatant(&args.require_entity("target")?)?;
    if c.has_status(PRONE) {
        return Err(Refusal::Rule(format!("{} is already down", c.id)).into());
    }
    ctx.set_status(
        &c.id,
        PRONE,
        Some(Status {
            source: "knocked down".into(),
            magnitude: 0,
            rounds_left: None,
        }),
    )?;
    if ctx.state.encounter().current.as_ref() == Some(&c.id) {
        let left = c.resource(ACTIONS);
        ctx.set_resource(&c.id, ACTIONS, (left - 1).max(0))?;
        ctx.note_about(
            &c.id,
            format!("{} is knocked down in its turn: an action is lost", c.id),
        )?;
    }
    Ok(())
}

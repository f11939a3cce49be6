//! The encounter's clock: the order by reflex (ties rolled), a turn each in that order with
//! one attack, ability or spell and one movement sequence (moving itself is `moving`), what a
//! turn's end takes away, the end of a round (timed afflictions wear off, dying characters
//! come a round closer to death), and the toughness an attack must reach.

use std::cmp::Reverse;

use crate::engine::{Ctx, DecideError};
use crate::event::{Event, Fact, Modifier};
use crate::grid::distance;
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::StateView;
use crate::state::{Combatant, Status};

use super::checks;
use super::content::Attribute;
use super::options::{DYING_COUNT, INITIATIVE_TIES, is};
use super::tell::{self, Check};
use super::{ACTION, DEAD, DYING, GRID, MOVE, PRONE, UNCONSCIOUS, cannot_act, stats_of};

/// How many times a tie-break is rolled again while still tied (then the order is by id).
const TIE_DEPTH: usize = 10;

pub fn start(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    let ids = crate::toolkit::start_encounter(ctx, |c| !c.has_status(DEAD))?;
    let mut entries = Vec::new();
    for id in ids {
        let c = ctx.combatant(&id)?;
        entries.push((id, stats_of(&c)?.attribute(Attribute::Reflex)));
    }
    // Highest reflex first; equal reflex kept together (in id order) for the tie-break.
    entries.sort_by_key(|(id, reflex)| (Reverse(*reflex), id.clone()));
    let mut order = Vec::new();
    let mut i = 0;
    while i < entries.len() {
        let reflex = entries[i].1;
        let tied: Vec<EntityId> = entries[i..]
            .iter()
            .take_while(|(_, r)| *r == reflex)
            .map(|(id, _)| id.clone())
            .collect();
        i += tied.len();
        if tied.len() == 1 {
            order.extend(tied);
        } else {
            order.extend(tie_break(ctx, tied, 0)?);
        }
    }
    ctx.emit(Event::public(Fact::OrderSet { order }))?;
    ctx.emit(Event::public(Fact::RoundStarted { round: 1 }))?;
    advance(ctx, 0)
}

/// Orders creatures of equal reflex by a d10 each (higher or lower first, as the table
/// rules); those tied again roll again.
fn tie_break(
    ctx: &mut Ctx<'_>,
    tied: Vec<EntityId>,
    depth: usize,
) -> Result<Vec<EntityId>, DecideError> {
    if depth >= TIE_DEPTH {
        return Ok(tied);
    }
    let lower_first = is(ctx.state.options(), INITIATIVE_TIES, "lower_first");
    let mut rolled = Vec::new();
    for id in tied {
        let roll = super::dice::d10(ctx.dice)?;
        let face = roll.total;
        ctx.telling = None;
        tell::check(
            ctx,
            Check {
                who: &id,
                label: "tie-break for the combat order".into(),
                roll,
                modifiers: Vec::new(),
                against: None,
                success: None,
                words: ("", ""),
                because: None,
                hidden: false,
                gm_only: false,
            },
        )?;
        rolled.push((id, face));
    }
    rolled.sort_by_key(|(id, face)| (if lower_first { *face } else { -*face }, id.clone()));
    let mut out = Vec::new();
    let mut i = 0;
    while i < rolled.len() {
        let face = rolled[i].1;
        let same: Vec<EntityId> = rolled[i..]
            .iter()
            .take_while(|(_, f)| *f == face)
            .map(|(id, _)| id.clone())
            .collect();
        i += same.len();
        if same.len() == 1 {
            out.extend(same);
        } else {
            out.extend(tie_break(ctx, same, depth + 1)?);
        }
    }
    Ok(out)
}

/// Opens the turn of the first creature from `at` in the order that can act; one that cannot
/// (dying, unconscious, dead) is passed over. Past the end of the order the round ends and
/// the next begins.
pub fn advance(ctx: &mut Ctx<'_>, mut at: usize) -> Result<(), DecideError> {
    let order = ctx.state.encounter().order.clone();
    let n = order.len();
    for _ in 0..=2 * n + 1 {
        if at >= n {
            end_of_round(ctx)?;
            let round = ctx.state.encounter().round + 1;
            ctx.emit(Event::public(Fact::RoundStarted { round }))?;
            at = 0;
            continue;
        }
        let Some(id) = order.get(at).cloned() else {
            break;
        };
        let c = ctx.combatant(&id)?;
        if cannot_act(&c).is_none() {
            ctx.set_resource(&id, ACTION, 1)?;
            ctx.set_resource(&id, MOVE, 1)?;
            ctx.emit(Event::public(Fact::TurnStarted {
                entity: Some(id.clone()),
            }))?;
            return super::call::open_turn(ctx, &id);
        }
        at += 1;
    }
    ctx.emit(Event::public(Fact::TurnStarted { entity: None }))
}

/// The end of a round: each dying character is a round nearer death; at none left, it dies.
fn end_of_round(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    let round = i64::from(ctx.state.encounter().round);
    let counts = is(ctx.state.options(), DYING_COUNT, "drop_counts");
    // What strikes each round (holy ground, a cataclysm, serpents held) strikes before the
    // rounds wear off: the round of the casting is the first.
    super::grounds::round_end(ctx)?;
    let bites = super::turnabout::round_end(ctx)?;
    for id in ctx.state.encounter().order.clone() {
        // Time stop: time stands still for the frozen, their dying too, for every round it
        // covers (the one it wears off at the end of included).
        let frozen = ctx.combatant(&id)?.has_status(super::lasting::TIME_STOPPED);
        super::afflict::wear_off(ctx, &id)?;
        let c = ctx.combatant(&id)?;
        // A knock-out with a count (Stunning blow) wears off; one from 0 HP does not.
        if let Some(out) = c.statuses.get(UNCONSCIOUS).cloned()
            && let Some(left) = out.rounds_left
        {
            let left = left.saturating_sub(1);
            let to = (left > 0).then_some(Status {
                rounds_left: Some(left),
                ..out
            });
            ctx.set_status(&id, UNCONSCIOUS, to)?;
        }
        let Some(dying) = c.statuses.get(DYING).cloned().filter(|_| !frozen) else {
            continue;
        };
        let left = dying.rounds_left.map_or(checks::DYING_ROUNDS, i64::from);
        match checks::dying_tick(left, dying.magnitude == round, counts) {
            Some(left) => {
                let rounds_left = u32::try_from(left).ok();
                ctx.set_status(
                    &id,
                    DYING,
                    Some(Status {
                        rounds_left,
                        ..dying
                    }),
                )?;
            }
            None => super::harm::dies(ctx, &id, "after five rounds dying")?,
        }
    }
    super::turnabout::bitten(ctx, bites)?;
    // An area whose rounds ran out holds nobody now.
    super::grounds::refresh(ctx)
}

/// Refuses an action outside the actor's turn, or from a creature that cannot act.
pub fn require_turn(ctx: &Ctx<'_>, c: &Combatant) -> Result<(), Refusal> {
    let enc = ctx.state.encounter();
    if !enc.active {
        return Err(Refusal::NoEncounter);
    }
    if let Some(why) = cannot_act(c) {
        return Err(Refusal::CannotAct {
            actor: c.id.clone(),
            reason: why.to_owned(),
        });
    }
    crate::toolkit::turns::check_turn(&ctx.state, &c.id)
}

/// Takes the turn's `slot` (attack/ability/spell, or movement), refused when it is spent.
pub fn spend(ctx: &mut Ctx<'_>, c: &Combatant, slot: &str) -> Result<(), DecideError> {
    require_turn(ctx, c)?;
    if ctx.combatant(&c.id)?.resource(slot) < 1 {
        let what = if slot == ACTION {
            "attack, ability or spell"
        } else {
            "movement"
        };
        return Err(Refusal::NoneLeft {
            actor: c.id.clone(),
            slot: what.into(),
        }
        .into());
    }
    ctx.set_resource(&c.id, slot, 0)
}

/// Takes the turn's `slot` in a fight; out of one (a spell after the battle) there is no turn
/// to spend.
pub fn spend_in_combat(ctx: &mut Ctx<'_>, c: &Combatant, slot: &str) -> Result<(), DecideError> {
    if ctx.state.encounter().active {
        spend(ctx, c, slot)
    } else {
        Ok(())
    }
}

/// A creature dropped or paralyzed in its own turn by a blow it did not deal itself (a Battle
/// lock strike, a Sudden strike whose answer came later, a Defensive rush) cannot end that
/// turn, and nobody else may: once no prompt waits, the turn passes on by itself.
pub fn pass_a_fallen_turn(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    let enc = ctx.state.encounter();
    if !enc.active || !enc.pending.is_empty() {
        return Ok(());
    }
    let Some(current) = enc.current.clone() else {
        return Ok(());
    };
    let c = ctx.combatant(&current)?;
    if cannot_act(&c).is_some() {
        end_turn(ctx, &current)?;
    }
    Ok(())
}

pub fn end_turn_action(ctx: &mut Ctx<'_>, c: &Combatant) -> Result<(), DecideError> {
    require_turn(ctx, c)?;
    end_turn(ctx, &c.id)
}

pub fn end_turn(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    let at = ctx
        .state
        .encounter()
        .order
        .iter()
        .position(|id| id == who)
        .unwrap_or(0);
    ctx.set_resource(who, ACTION, 0)?;
    ctx.set_resource(who, MOVE, 0)?;
    close_turn(ctx, who)?;
    advance(ctx, at + 1)
}

/// What a turn gave and only that turn may use goes with it: an extra attack from Call to
/// battle, a Tactical retreat not taken.
fn close_turn(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    super::call::mark(ctx, who, super::EXTRA_ATTACK, None)?;
    ctx.set_status(who, super::FANGED, None)?;
    ctx.set_status(who, super::RETREAT, None)
}

pub fn end(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    if !ctx.state.encounter().active {
        return Err(Refusal::NoEncounter.into());
    }
    for id in ctx.state.encounter().order.clone() {
        ctx.set_resource(&id, ACTION, 0)?;
        ctx.set_resource(&id, MOVE, 0)?;
        close_turn(ctx, &id)?;
        super::call::mark(ctx, &id, super::CALLED, None)?;
        super::call::mark(ctx, &id, super::cast::LAST_SPELL, None)?;
        let c = ctx.combatant(&id)?;
        super::boons::fight_over(ctx, &c)?;
        super::lasting::fight_over(ctx, &id)?;
        super::imprint::fight_over(ctx, &id)?;
        super::companion::fight_over(ctx, &id)?;
    }
    // Rounds are counted only in a fight: whatever lasts so many rounds (a spell's effect, an
    // affliction, a knock-out with a count) would never wear off after it, so it goes now, on
    // every creature of the table, in the fight's order or not.
    for id in ctx.state.combatant_ids() {
        super::afflict::fight_over(ctx, &id)?;
        let c = ctx.combatant(&id)?;
        if c.statuses
            .get(UNCONSCIOUS)
            .is_some_and(|s| s.rounds_left.is_some())
        {
            ctx.set_status(&id, UNCONSCIOUS, None)?;
        }
    }
    // A cataclysm went with the fight: nobody stands in it now (holy ground lasts hours).
    super::grounds::refresh(ctx)?;
    ctx.emit(Event::public(Fact::EncounterEnded))
}

/// The toughness an attack on `t` must reach, with what changed it: prone, Magical power,
/// Prying eye, and Supernatural vitality at 1 HP.
pub fn toughness_of(t: &Combatant) -> Result<(i64, Vec<Modifier>), Refusal> {
    let stats = stats_of(t)?;
    let mut parts = vec![Modifier::new("toughness", stats.toughness)];
    if t.has_status(PRONE) {
        parts.push(Modifier::new("prone", checks::PRONE_TOUGHNESS));
    }
    for (key, label) in [
        (super::MAGICAL_POWER, "magical power"),
        (super::PRIED, "prying eye"),
    ] {
        if let Some(s) = t.statuses.get(key) {
            parts.push(Modifier::new(label, s.magnitude));
        }
    }
    parts.extend(super::lasting::toughness(t));
    if stats.has_ability("supernatural_vitality") && t.resource(super::HP) == 1 {
        parts.push(Modifier::new(
            "supernatural vitality",
            checks::VITALITY_TOUGHNESS,
        ));
    }
    Ok((parts.iter().map(|m| m.value).sum(), parts))
}

/// Refuses a shot or a spell at a target past its range, when both stand on the grid: the
/// text gives ranges and no rule for beyond them (A14), so beyond is out of reach. Off the
/// grid the GM judges.
pub fn within_range(
    ctx: &Ctx<'_>,
    a: &Combatant,
    t: &Combatant,
    range_ft: Option<i64>,
    what: &str,
) -> Result<(), Refusal> {
    let (Some(range), Some(from), Some(to)) = (range_ft, a.position, t.position) else {
        return Ok(());
    };
    let cells = distance(from, to, ctx.state.options().diagonal());
    let feet = i64::try_from(cells)
        .unwrap_or(i64::MAX)
        .saturating_mul(i64::from(GRID.cell_size));
    if feet > range {
        return Err(Refusal::OutOfRange {
            what: format!("{} for {what}", t.id),
            distance: feet,
            limit: range,
            unit: GRID.unit.into(),
        });
    }
    Ok(())
}

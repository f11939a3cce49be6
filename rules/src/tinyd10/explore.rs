//! The GM's exploration rolls between fights: the wandering monster check (1 in 5, read on the
//! dice as the table rules: `tinyd10.wandering`), a wilderness day's direction roll (a d10
//! against the terrain's odds, each party member's know nature adding 1 to the die), and time
//! passing in dungeon turns (10 minutes) or wilderness turns (4 hours). The checks and the
//! direction roll are the GM's alone: that a monster is on its way, or that the party has gone
//! astray, is the GM's to reveal. The numbers are data (`data/explore.toml`).

use std::sync::OnceLock;

use serde::Deserialize;

use crate::action::Args;
use crate::dice::Roll;
use crate::engine::{Ctx, DecideError};
use crate::event::{Audience, Event, Fact, Part};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Kind, StateView};

use super::DEAD;
use super::content::Attribute;
use super::dice::{Amount, Die, roll_amount};
use super::options::{WANDERING, d5, is};

pub(super) const DATA: &str = include_str!("data/explore.toml");

/// How long a turn lasts in one kind of place.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Turn {
    pub id: String,
    pub minutes: i64,
}

/// The two dice readings of the wandering monster check's "1 in 5".
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wandering {
    pub in_ten: u32,
    pub in_five: u32,
}

/// The bounds of the odds of losing the way, in d10 faces.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lost {
    pub least: i64,
    pub most: i64,
}

/// A trap's damage: a die amount (`1d5`) or a bare range (`2-3`, A9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub enum TrapDamage {
    Amount(Amount),
    Range(i64, i64),
}

impl TryFrom<String> for TrapDamage {
    type Error = String;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        if let Some((low, high)) = s.split_once('-') {
            let n = |t: &str| {
                t.trim()
                    .parse::<i64>()
                    .map_err(|_| format!("`{s}` is not a range (2-3)"))
            };
            let (low, high) = (n(low)?, n(high)?);
            if low < 0 || high <= low || high > 100 {
                return Err(format!(
                    "`{s}`: a range runs from a low to a higher number, 0 to 100"
                ));
            }
            // Rolled on a die as wide as the range (`tinyd10.trap_damage`), so its width must
            // be a die's: refused here, not when the trap is sprung.
            let width = u32::try_from(high - low + 1).ok();
            if width.and_then(crate::dice::Primitive::from_sides).is_none() {
                return Err(format!(
                    "`{s}`: a range is rolled on a die as wide as the range: 2, 4, 5, 6, 8, 10, 12, 20 or 100 numbers"
                ));
            }
            return Ok(TrapDamage::Range(low, high));
        }
        let amount = Amount::try_from(s.clone())?;
        if amount.plus_level {
            return Err(format!("`{s}`: a trap's damage adds no level (L)"));
        }
        Ok(TrapDamage::Amount(amount))
    }
}

impl std::fmt::Display for TrapDamage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TrapDamage::Amount(a) => a.fmt(f),
            TrapDamage::Range(l, h) => write!(f, "{l}-{h}"),
        }
    }
}

/// One of the text's example traps.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trap {
    pub id: String,
    pub name: String,
    pub toughness: i64,
    pub damage: TrapDamage,
    pub save: Attribute,
    #[serde(default)]
    pub poison: bool,
}

/// Apprentice/Familiar's numbers.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Apprentice {
    pub pact_mp: i64,
    pub extra_turn_pp: i64,
    pub toughness: i64,
    pub hp_least: i64,
    pub hp_most: i64,
}

/// The exploration data, checked.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Explore {
    pub turn: Vec<Turn>,
    pub wandering: Wandering,
    pub lost: Lost,
    pub trap: Vec<Trap>,
    pub apprentice: Apprentice,
}

impl Explore {
    pub fn turn(&self, id: &str) -> Option<&Turn> {
        self.turn.iter().find(|t| t.id == id)
    }
    pub fn trap(&self, id: &str) -> Option<&Trap> {
        self.trap.iter().find(|t| t.id == id)
    }

    fn check(&self) -> Result<(), String> {
        // Both readings of the wandering check must be the same 1 in 5.
        if self.wandering.in_ten * 5 != 10 || self.wandering.in_five * 5 != 5 {
            return Err("wandering: both readings are 1 in 5".into());
        }
        if !(1..=self.lost.most).contains(&self.lost.least) || self.lost.most > 10 {
            return Err("lost: the odds run from 1 to at most 10 faces".into());
        }
        if self.turn.iter().any(|t| t.minutes < 1) || self.turn("dungeon").is_none() {
            return Err("turn: every turn lasts a minute or more; a dungeon turn exists".into());
        }
        let a = &self.apprentice;
        if a.pact_mp < 1 || a.hp_least < 1 || a.hp_most < a.hp_least {
            return Err("apprentice: a pact costs MP, its HP bounds are in order".into());
        }
        Ok(())
    }
}

/// Reads exploration data and checks what the rules rely on.
pub(super) fn parse(text: &str) -> Result<Explore, String> {
    let e: Explore = toml::from_str(text).map_err(|e| e.to_string())?;
    e.check()?;
    Ok(e)
}

/// The shared exploration data.
///
/// # Errors
///
/// The shipped data does not load; its test loads it, so a passing build never sees this.
pub fn data() -> Result<&'static Explore, Refusal> {
    static DATA_CELL: OnceLock<Result<Explore, String>> = OnceLock::new();
    DATA_CELL
        .get_or_init(|| parse(DATA))
        .as_ref()
        .map_err(|e| Refusal::Rule(format!("tinyd10 data, explore.toml: {e}")))
}

/// Whether a wandering check's die comes up a monster: on a d10, its low `in_ten` faces; on a
/// d5, a face up to `in_five`.
pub fn monster_comes(face: i64, on_d5: bool, w: &Wandering) -> bool {
    let under = if on_d5 { w.in_five } else { w.in_ten };
    face >= 1 && face <= i64::from(under)
}

/// Whether a party loses its way: the d10 plus the party's know nature bonuses is still
/// among the `chance` losing faces. Low faces lose, as they do for morale and the wandering
/// check, so each +1 moves the roll away from them: "improves" the result.
pub fn loses_way(face: i64, know_nature: i64, chance: i64) -> bool {
    face + know_nature <= chance
}

fn gm_roll(ctx: &mut Ctx<'_>, purpose: String, roll: Roll) -> Result<(), DecideError> {
    ctx.emit(Event {
        parts: vec![Part {
            audience: Audience::GmOnly,
            fact: Fact::Rolled {
                by: None,
                purpose,
                roll,
            },
        }],
    })
}

/// One wandering monster check, told to the GM alone (`why` says what called it), and the
/// reaction of what comes when `reaction` is asked. Returns whether a monster comes.
///
/// What every seat sees of it (one event per die, each with its public `dice_drawn` counters)
/// must not depend on the answer: with `reaction` the reaction die is drawn and shown to the
/// GM whether or not a monster comes, and read only when one does.
pub fn wandering_check(ctx: &mut Ctx<'_>, why: &str, reaction: bool) -> Result<bool, DecideError> {
    let w = &data()?.wandering;
    let on_d5 = is(ctx.state.options(), WANDERING, "d5");
    let (roll, face, reads) = if on_d5 {
        let r = roll_amount(Amount::die(Die::D5), 0, d5(ctx.state.options()), ctx.dice)?;
        let roll = r
            .roll
            .ok_or_else(|| Refusal::Rule("a d5 drew no die".into()))?;
        (roll, r.value, format!("a 1 on a d5 ({why})"))
    } else {
        let r = super::dice::d10(ctx.dice)?;
        let face = r.total;
        (r, face, format!("1-{} on a d10 ({why})", w.in_ten))
    };
    let comes = monster_comes(face, on_d5, w);
    let verdict = if comes {
        "a monster comes"
    } else {
        "nothing comes"
    };
    gm_roll(
        ctx,
        format!("wandering monster check, {reads}: {face}, {verdict}"),
        roll,
    )?;
    if reaction {
        super::morale::reaction_die(ctx, comes)?;
    }
    Ok(comes)
}

/// The GM's `wander`: a wandering monster check; with `reaction`, the reaction die too, read
/// when a monster comes.
pub fn wander(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    wandering_check(ctx, "called by the GM", args.flag("reaction")?)?;
    Ok(())
}

/// The living characters, or the ones the GM names.
fn party(ctx: &Ctx<'_>, args: &Args) -> Result<Vec<EntityId>, DecideError> {
    match args.text("party")? {
        Some(list) => {
            let mut out = Vec::new();
            for id in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let c = ctx.combatant(&EntityId::from(id))?;
                if !out.contains(&c.id) {
                    out.push(c.id);
                }
            }
            Ok(out)
        }
        None => Ok(ctx
            .state
            .combatant_ids()
            .into_iter()
            .filter_map(|id| ctx.state.combatant(&id).cloned())
            .filter(|c| c.kind == Kind::Pc && !c.has_status(DEAD))
            .map(|c| c.id)
            .collect()),
    }
}

/// The GM's `lost`: at a wilderness day's start, a d10 against the terrain's `chance` (the
/// losing faces out of ten), each party member with know nature adding 1. The GM's alone.
pub fn lost(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    if ctx.state.encounter().active {
        return Err(Refusal::EncounterRunning.into());
    }
    let bounds = &data()?.lost;
    let chance = args.require_int("chance")?;
    if !(bounds.least..=bounds.most).contains(&chance) {
        return Err(Refusal::bad_argument(
            "chance",
            "the losing faces of the d10: 1 (1 in 10) to 5 (1 in 2)",
        )
        .into());
    }
    let mut knowing = Vec::new();
    for id in party(ctx, args)? {
        let c = ctx.combatant(&id)?;
        if super::stats_of(&c)?.has_skill("know_nature") {
            knowing.push(id.0);
        }
    }
    let bonus = i64::try_from(knowing.len()).unwrap_or(0);
    let r = super::dice::d10(ctx.dice)?;
    let face = r.total;
    let verdict = if loses_way(face, bonus, chance) {
        "the party loses its way"
    } else {
        "the party keeps its way"
    };
    let helped = if knowing.is_empty() {
        String::new()
    } else {
        format!(" + {bonus} know nature ({})", knowing.join(", "))
    };
    gm_roll(
        ctx,
        format!(
            "direction: {face}{helped} = {}, lost on {chance} or less: {verdict}",
            face + bonus
        ),
        r,
    )
}

/// The status Walk on water gives: its magnitude the minutes left.
pub const WALKING_ON_WATER: &str = "walk_on_water";

/// The GM's `advance_time`: `turns` exploration turns pass where the party is; minute-long
/// effects run down by the time passed; with `wander`, one wandering check a turn. The time is
/// told to everyone; the checks to the GM alone.
pub fn advance_time(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    if ctx.state.encounter().active {
        return Err(Refusal::EncounterRunning.into());
    }
    let place = args.text("where")?.unwrap_or("dungeon");
    let turn = data()?
        .turn(place)
        .ok_or_else(|| Refusal::bad_argument("where", "dungeon or wilderness"))?;
    let turns = args.int("turns")?.unwrap_or(1);
    if !(1..=100).contains(&turns) {
        return Err(Refusal::bad_argument("turns", "1 to 100").into());
    }
    let minutes = turns * turn.minutes;
    ctx.emit(Event::public(Fact::Noted {
        text: format!(
            "{turns} {place} turn{} pass{} ({minutes} minutes)",
            if turns == 1 { "" } else { "s" },
            if turns == 1 { "es" } else { "" },
        ),
    }))?;
    for id in ctx.state.combatant_ids() {
        let c = ctx.combatant(&id)?;
        if let Some(s) = c.statuses.get(WALKING_ON_WATER) {
            let left = s.magnitude - minutes;
            if left > 0 {
                let mut s = s.clone();
                s.magnitude = left;
                ctx.set_status(&id, WALKING_ON_WATER, Some(s))?;
            } else {
                ctx.set_status(&id, WALKING_ON_WATER, None)?;
                ctx.note_about(&id, format!("{id}'s walk on water ends"))?;
            }
        }
    }
    for id in ctx.state.combatant_ids() {
        let c = ctx.combatant(&id)?;
        if let Some(s) = c.statuses.get(super::grounds::CONSECRATED) {
            // Holy ground lasts hours: the caster's, the GM's alone for the GM's caster.
            let left = s.magnitude - minutes;
            let next = (left > 0).then(|| {
                let mut s = s.clone();
                s.magnitude = left;
                s
            });
            super::call::mark(ctx, &id, super::grounds::CONSECRATED, next)?;
            if left <= 0 {
                ctx.note_about(&id, format!("the ground {id} consecrated is holy no more"))?;
            }
        }
    }
    super::grounds::refresh(ctx)?;
    if args.flag("wander")? {
        for t in 1..=turns {
            wandering_check(ctx, &format!("{place} turn {t} of {turns}"), false)?;
        }
    }
    Ok(())
}

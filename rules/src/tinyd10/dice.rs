//! The amounts the text writes (`2`, `1d5`, `1d5+1`, `1d5+L`, `1d10`) and how they are rolled.
//!
//! The game assumes one physical d10, and the text never says how its 1d5 comes from it. The
//! table option `tinyd10.d5` decides: a five-sided draw of the fair stream (the default: every
//! face equally likely, one draw) or a d10 read as half its face rounded up (what a table with
//! one d10 does). Either way the draw is in the event, so `verify` re-derives it.

use std::fmt;

use serde::Deserialize;

use crate::ctx::DecideError;
use crate::dice::{DiceExpr, DiceSource, Roll, roll};
use crate::event::Modifier;
use crate::refusal::Refusal;

/// A die of the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Die {
    D5,
    D10,
}

/// An amount: an optional die, a flat part, and whether the character's level is added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub struct Amount {
    pub die: Option<Die>,
    pub flat: i64,
    pub plus_level: bool,
}

impl Amount {
    pub const fn flat(n: i64) -> Amount {
        Amount {
            die: None,
            flat: n,
            plus_level: false,
        }
    }

    pub const fn die(die: Die) -> Amount {
        Amount {
            die: Some(die),
            flat: 0,
            plus_level: false,
        }
    }
}

/// The largest flat part of an amount: far past any the text prints (its largest is a few
/// points), and small enough that no sum of amounts comes near `i64`'s limits.
pub const MAX_FLAT: i64 = 100;

impl TryFrom<String> for Amount {
    type Error = String;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        let bad = || format!("`{s}` is not an amount (2, 1d5, 1d5+1, 1d10+L)");
        let flat = |n: &str| -> Result<i64, String> {
            let too_big = || format!("`{s}`: the flat part runs from 0 to {MAX_FLAT}");
            // A run of digits too long for i64 is as out of bounds as 101.
            if !n.is_empty()
                && n.trim_start_matches('-')
                    .bytes()
                    .all(|b| b.is_ascii_digit())
            {
                let v: i64 = n.parse().map_err(|_| too_big())?;
                return if (0..=MAX_FLAT).contains(&v) {
                    Ok(v)
                } else {
                    Err(too_big())
                };
            }
            Err(bad())
        };
        let mut parts = s.split('+').map(str::trim);
        let first = parts.next().ok_or_else(bad)?;
        let mut amount = match first {
            "1d5" => Amount::die(Die::D5),
            "1d10" => Amount::die(Die::D10),
            n => Amount::flat(flat(n)?),
        };
        for p in parts {
            match p {
                "L" if !amount.plus_level => amount.plus_level = true,
                n if amount.die.is_some() && amount.flat == 0 => amount.flat = flat(n)?,
                _ => return Err(bad()),
            }
        }
        Ok(amount)
    }
}

impl fmt::Display for Amount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        match self.die {
            Some(Die::D5) => parts.push("1d5".to_owned()),
            Some(Die::D10) => parts.push("1d10".to_owned()),
            None => {}
        }
        if self.flat != 0 || self.die.is_none() {
            parts.push(self.flat.to_string());
        }
        if self.plus_level {
            parts.push("L".to_owned());
        }
        f.write_str(&parts.join("+"))
    }
}

/// How this table makes a 1d5 (the `tinyd10.d5` option).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum D5 {
    /// A five-sided draw.
    Draw,
    /// A d10, half its face rounded up.
    HalfD10,
}

/// The value a d10 face gives read as a d5: half, rounded up (1-2 → 1, ..., 9-10 → 5).
pub fn half_d10(face: u32) -> i64 {
    i64::from(face.div_ceil(2))
}

/// A rolled amount: the dice as drawn (if any) and the steps that make the value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rolled {
    pub roll: Option<Roll>,
    pub steps: Vec<Modifier>,
    pub value: i64,
}

/// Rolls `amount` for a creature of `level`.
///
/// # Errors
///
/// The dice source ran dry (a scripted test with too few faces).
pub fn roll_amount(
    amount: Amount,
    level: i64,
    d5: D5,
    dice: &mut dyn DiceSource,
) -> Result<Rolled, DecideError> {
    let mut steps = Vec::new();
    let mut value = 0;
    let mut drawn = None;
    if let Some(die) = amount.die {
        let notation = match (die, d5) {
            (Die::D5, D5::Draw) => "1d5",
            (Die::D5, D5::HalfD10) | (Die::D10, _) => "1d10",
        };
        let r = roll(&expr(notation)?, dice)?;
        let mut v = r.total;
        steps.push(Modifier::new(notation, r.total));
        if die == Die::D5 && d5 == D5::HalfD10 {
            let face = u32::try_from(r.total).unwrap_or(0);
            v = half_d10(face);
            steps.push(Modifier::new("d10 read as d5 (half, up)", v - r.total));
        }
        value = v;
        drawn = Some(r);
    }
    // Saturating: an amount read from text has a bounded flat part, but one built in code
    // need not, and a sum past i64 must not wrap into a heal.
    if amount.flat != 0 {
        steps.push(Modifier::new("flat", amount.flat));
        value = value.saturating_add(amount.flat);
    }
    if amount.plus_level {
        steps.push(Modifier::new("level", level));
        value = value.saturating_add(level);
    }
    Ok(Rolled {
        roll: drawn,
        steps,
        value,
    })
}

/// Rolls `amount` for `by` (of `level`) and tells the dice in an event of their own, right
/// where they were drawn: a draw no event shows is a roll `verify` must refuse as discarded.
///
/// # Errors
///
/// The dice source ran dry, or the event could not be recorded.
pub fn roll_told(
    ctx: &mut crate::engine::Ctx<'_>,
    by: &crate::ids::EntityId,
    purpose: &str,
    amount: Amount,
    level: i64,
) -> Result<Rolled, DecideError> {
    roll_for(ctx, by, purpose, amount, level, false)
}

/// As [`roll_told`], but the dice go to the GM alone when `gm_only`: a face that would give
/// away one of the GM's numbers (the rounds of an NPC's spell, its level under a `+L`). The
/// hidden die is still committed to in the event and opened at the epoch's reveal, so
/// `verify` re-derives it as any other.
///
/// # Errors
///
/// The dice source ran dry, or the event could not be recorded.
pub fn roll_for(
    ctx: &mut crate::engine::Ctx<'_>,
    by: &crate::ids::EntityId,
    purpose: &str,
    amount: Amount,
    level: i64,
    gm_only: bool,
) -> Result<Rolled, DecideError> {
    let d5 = super::options::d5(crate::state::StateView::options(&ctx.state));
    let r = roll_amount(amount, level, d5, ctx.dice)?;
    if let Some(roll) = &r.roll {
        let audience = if gm_only {
            crate::event::Audience::GmOnly
        } else {
            crate::event::Audience::Everyone
        };
        ctx.emit(crate::event::Event {
            parts: vec![crate::event::Part {
                audience,
                fact: crate::event::Fact::Rolled {
                    by: Some(by.clone()),
                    purpose: purpose.to_owned(),
                    roll: roll.clone(),
                },
            }],
        })?;
    }
    Ok(r)
}

/// The core's expression for a fixed notation of this module.
pub fn expr(notation: &str) -> Result<DiceExpr, Refusal> {
    DiceExpr::parse(notation).map_err(|e| Refusal::Rule(format!("dice `{notation}`: {e}")))
}

/// One d10, the die of every check.
pub fn d10(dice: &mut dyn DiceSource) -> Result<Roll, DecideError> {
    Ok(roll(&expr("1d10")?, dice)?)
}

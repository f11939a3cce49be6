//! Visibility: reduced, low or zero visibility caps the range of ranged attacks and adds to
//! what they must beat (+5, +10, +15), and the same to the VS of driving, navigating and
//! piloting. Zero visibility spares point-blank shots, under 3 m
//! (10 ft). The GM sets the level for the scene; it is kept as an encounter value.

use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::refusal::Refusal;

/// Encounter value key: 0 normal, 1 reduced, 2 low, 3 zero.
pub const VISIBILITY: &str = "visibility";
pub const LEVELS: [&str; 4] = ["normal", "reduced", "low", "zero"];
/// Feet under which zero visibility gives no penalty.
const POINT_BLANK_FT: i64 = 10;

/// The longest ranged attack at `level`, in feet (`None`: no cap).
pub fn range_cap(level: i64) -> Option<i64> {
    match level {
        1 => Some(300),
        2 => Some(150),
        3 => Some(30),
        _ => None,
    }
}

/// What a ranged attack at `feet` (if known) must add to Guard at `level`.
pub fn penalty(level: i64, feet: Option<i64>) -> i64 {
    match level {
        1 => 5,
        2 => 10,
        3 if feet.is_some_and(|f| f < POINT_BLANK_FT) => 0,
        3 => 15,
        _ => 0,
    }
}

/// Whether a skill is one the text makes pay for poor visibility: driving, navigating,
/// piloting "or similar" (the craft a creature steers by sight). Matched on the start of the
/// skill's name, so `piloting`, `pilot_starship`, `driving` and `navigation` all count.
pub fn by_sight(skill: &str) -> bool {
    let s = skill.to_ascii_lowercase();
    ["pilot", "driv", "navig", "steer", "sail"]
        .iter()
        .any(|p| s.starts_with(p))
}

pub fn set(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    let word = args
        .text("level")?
        .ok_or_else(|| Refusal::bad_argument("level", "is required"))?;
    let level = LEVELS
        .iter()
        .position(|l| l.eq_ignore_ascii_case(word))
        .ok_or_else(|| Refusal::bad_argument("level", "must be normal, reduced, low or zero"))?;
    ctx.set_encounter_value(VISIBILITY, i64::try_from(level).unwrap_or(0))?;
    ctx.emit(crate::event::Event::public(crate::event::Fact::Noted {
        text: format!("the GM sets visibility to {}", LEVELS[level]),
    }))
}

//! What each of burnout's four levels does to a character's numbers: a roll penalty, a cap on
//! Condition, techniques blocked. Pure numbers, below everything that reads them (the sheet,
//! checks, rest, techniques), apart from the rules that take a level (`burnout`).

/// Penalty to every roll at a burnout level. The levels' penalties are absolute (-1, -3, -5),
/// not cumulative: the likelier reading (docs/grimwire.md).
pub fn roll_penalty(level: i64) -> i64 {
    match level {
        i64::MIN..=0 => 0,
        1 => -1,
        2 => -3,
        _ => -5,
    }
}

/// Maximum Condition at a burnout level: x0.8 at level 2 and x0.5 at level 3, rounded down.
pub fn condition_cap(max: i64, level: i64) -> i64 {
    match level {
        2 => max.saturating_mul(4) / 5,
        l if l >= 3 => max / 2,
        _ => max,
    }
}

/// Whether specialty techniques are blocked by burnout (level 3 and up).
pub fn blocks_techniques(level: i64) -> bool {
    level >= 3
}

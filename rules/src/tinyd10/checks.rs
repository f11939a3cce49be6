//! Tiny d10's arithmetic, apart from the encounter so each rule is a function a table of cases
//! can prove: whether a check or an attack succeeds, who wins a challenge, what a save halves,
//! when morale is tested and when it falters, how a dying character's count runs, what
//! standard healing gives, and when XP reaches the next level.

use std::cmp::Ordering;

/// The standard save's toughness, and that of standard healing (an intellect check).
pub const STANDARD_SAVE: i64 = 5;
pub const HEAL_CHECK: i64 = 6;
/// A morale d10 at or under this falters.
pub const MORALE_FALTERS: u32 = 2;
/// Rounds a character lasts at 0 HP.
pub const DYING_ROUNDS: i64 = 5;
/// What prone does to toughness (the Combat advantage paragraph's example).
pub const PRONE_TOUGHNESS: i64 = -1;
/// What Supernatural vitality adds to toughness at 1 HP.
pub const VITALITY_TOUGHNESS: i64 = 2;

/// Whether a check (not an attack) of `total` against `toughness` succeeds: above always,
/// equal as the table rules it (`tinyd10.check_ties`).
pub fn passes(total: i64, toughness: i64, ties_succeed: bool) -> bool {
    match total.cmp(&toughness) {
        Ordering::Greater => true,
        Ordering::Equal => ties_succeed,
        Ordering::Less => false,
    }
}

/// Whether an attack hits: the text says "equal to or higher".
pub fn attack_hits(total: i64, toughness: i64) -> bool {
    total >= toughness
}

/// Who wins a challenge. The one who starts it (the attacker, the one trying) is first; a tie
/// goes as the table rules (`tinyd10.challenge_ties`), `None` when it is to be rolled again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Winner {
    Starter,
    Resister,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TieRule {
    /// Nothing changes: the one resisting holds.
    Resister,
    /// Both roll again.
    Reroll,
}

pub fn challenge(starter: i64, resister: i64, ties: TieRule) -> Option<Winner> {
    match starter.cmp(&resister) {
        Ordering::Greater => Some(Winner::Starter),
        Ordering::Less => Some(Winner::Resister),
        Ordering::Equal => match ties {
            TieRule::Resister => Some(Winner::Resister),
            TieRule::Reroll => None,
        },
    }
}

/// Half of `n`, rounded as the table rules (`tinyd10.halving`).
pub fn halve(n: i64, up: bool) -> i64 {
    if up { (n + 1) / 2 } else { n / 2 }
}

/// Whether a morale d10 falters.
pub fn morale_falters(face: u32) -> bool {
    face <= MORALE_FALTERS
}

/// Why a morale check is called.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoraleEvent {
    FirstSlain,
    MoreThanHalf,
}

/// The morale checks a side calls when its `slain` count rises to `slain` out of `size`
/// members, given the checks it has already had. `of_others` counts "its allies" as the
/// others of the group (size - 1) rather than the whole group (`tinyd10.morale_count`).
pub fn morale_events(
    slain: i64,
    size: i64,
    of_others: bool,
    had_first: bool,
    had_half: bool,
) -> Vec<MoraleEvent> {
    let mut out = Vec::new();
    // With nobody left standing there is no morale to test.
    if slain >= size {
        return out;
    }
    if slain >= 1 && !had_first {
        out.push(MoraleEvent::FirstSlain);
    }
    let allies = if of_others { size - 1 } else { size };
    // "More than half": strictly over, in whole creatures.
    if !had_half && allies > 0 && slain * 2 > allies {
        out.push(MoraleEvent::MoreThanHalf);
    }
    out
}

/// A dying character's count at the end of a round: one round fewer, unless it dropped in
/// this very round and the table does not count that one (`tinyd10.dying_count`). `None`:
/// the character dies.
pub fn dying_tick(left: i64, dropped_this_round: bool, drop_round_counts: bool) -> Option<i64> {
    if dropped_this_round && !drop_round_counts {
        return Some(left);
    }
    let left = left - 1;
    (left > 0).then_some(left)
}

/// HP after healing `amount`: never past the maximum (a creature already over it keeps its
/// value), never below 0.
pub fn healed(hp: i64, amount: i64, max: i64) -> i64 {
    (hp + amount).min(max.max(hp)).max(0)
}

/// Damage taken first from temporary HP, then from HP (clamped at 0): the new (temp, hp).
pub fn take_damage(temp: i64, hp: i64, amount: i64) -> (i64, i64) {
    let from_temp = amount.min(temp).max(0);
    (temp - from_temp, (hp - (amount - from_temp)).max(0))
}

/// Whether `xp` at `level` reaches the next level, whose threshold is `next`.
pub fn level_up_ready(xp: i64, next: Option<i64>) -> bool {
    next.is_some_and(|n| xp >= n)
}

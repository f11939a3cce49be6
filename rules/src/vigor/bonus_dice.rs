//! The roll every vigor action makes: the d20 action die plus bonus dice, the bonus dice on one
//! rung of the ladder d4 < d6 < d8 < d10 < d12 < d20 for the whole roll.
//!
//! Charges and challenges cancel one for one first; only what is left moves the rung, once, and
//! the rung stops at either end of the ladder. The action die is never stepped. Wounded counts
//! as one challenge on every roll, action and effect alike; other challenges reach an effect
//! roll only where their source says so (the off-hand attack does), which the callers decide.

use crate::account::plural;
use crate::dice::{DiceExpr, DiceTerm, DieKind, Primitive, Roll, STEP_LADDER, Term, TermKind};
use crate::options::TableOptions;

use super::options::{BURST, choice_of};

/// Where bonus dice start: d10, the fourth rung.
const BASE_RUNG: i64 = 3;

/// What moves a roll's bonus dice.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Steps {
    pub charges: i64,
    pub challenges: i64,
    pub wounded: bool,
}

impl Steps {
    /// Challenges in all, Wounded included.
    pub fn all_challenges(&self) -> i64 {
        self.challenges + i64::from(self.wounded)
    }

    /// The rung the bonus dice land on.
    pub fn die(&self) -> Primitive {
        let net = self.charges - self.all_challenges();
        let rung = (BASE_RUNG + net).clamp(0, 5);
        // The clamp keeps the index inside the six rungs.
        STEP_LADDER[usize::try_from(rung).unwrap_or(0)]
    }

    /// The words of what moved the dice, for the roll's label: `2 challenges, wounded`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.charges > 0 {
            parts.push(plural(self.charges, "charge"));
        }
        if self.challenges > 0 {
            parts.push(plural(self.challenges, "challenge"));
        }
        if self.wounded {
            parts.push("wounded".to_owned());
        }
        parts.join(", ")
    }
}

/// Whether bonus dice burst at this table.
pub fn bursting(options: &TableOptions) -> bool {
    choice_of(options, BURST) == "explode"
}

fn dice(count: i64, die: Primitive, burst: bool) -> Option<Term> {
    let count = u32::try_from(count).ok().filter(|c| *c > 0)?;
    Some(Term {
        negative: false,
        kind: TermKind::Dice(DiceTerm {
            count,
            die: DieKind::Plain(die),
            keep: None,
            burst,
        }),
    })
}

/// `1d20 + N bonus dice`: the action die first, then the bonus dice (term 1).
pub fn action_roll(bonus: i64, die: Primitive, burst: bool) -> DiceExpr {
    let mut terms: Vec<Term> = dice(1, Primitive::D20, false).into_iter().collect();
    terms.extend(dice(bonus, die, burst));
    DiceExpr { terms }
}

/// A damage roll: the weapon's quality dice (never stepped, never bursting) then the bonus dice.
pub fn damage_roll(
    weapon_dice: i64,
    weapon_die: Primitive,
    bonus: i64,
    die: Primitive,
    burst: bool,
) -> DiceExpr {
    let mut terms: Vec<Term> = dice(weapon_dice, weapon_die, false).into_iter().collect();
    terms.extend(dice(bonus, die, burst));
    DiceExpr { terms }
}

/// Whether a bonus die of `roll` (every term after the first) showed its highest face: a
/// burst, and on a damage roll a critical hit. Named even where the table's bursts add nothing.
pub fn burst_in(roll: &Roll) -> bool {
    roll.dice
        .iter()
        .any(|d| d.term > 0 && d.face == d.die.sides())
}

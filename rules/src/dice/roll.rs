//! Rolling a [`DiceExpr`] against a [`DiceSource`], keeping every face and what was done with it.

use serde::{Deserialize, Serialize};

use super::{
    BURST_DEPTH_CAP, DiceError, DiceExpr, DiceSource, DiceTerm, DieKind, Keep, Primitive,
    STEP_LADDER, TermKind,
};

/// One primitive draw inside a roll and what the expression did with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DieRoll {
    /// Index of the term in [`DiceExpr::terms`] this die belongs to.
    pub term: usize,
    /// The primitive actually drawn (a stepped d10+1 draws a d12; a divided die draws a d10).
    pub die: Primitive,
    /// The raw face drawn.
    pub face: u32,
    /// The value the face stands for: the face itself, or its entry in the division table.
    pub value: i64,
    /// Counted in the total (false when dropped by keep-highest/lowest).
    pub kept: bool,
    /// Showed its maximum on a bursting term and so caused the next draw.
    pub burst: bool,
    /// Was drawn because the previous die of this term burst.
    pub from_burst: bool,
    /// The fair stream's counters `[first, end)` this die used, rejected attempts included;
    /// absent for faces given by hand (the calculator, tests).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counters: Option<[u64; 2]>,
}

/// A rolled expression: every die in draw order, the subtotal of each term, and the total.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    /// The expression as written by `Display`, e.g. `3d10kh1+2`.
    pub expr: String,
    pub dice: Vec<DieRoll>,
    /// Signed contribution of each term, same order as the expression's terms.
    pub terms: Vec<i64>,
    pub total: i64,
}

impl Roll {
    /// Faces of the dice of term `term`, in draw order.
    pub fn faces_of(&self, term: usize) -> Vec<u32> {
        self.dice
            .iter()
            .filter(|d| d.term == term)
            .map(|d| d.face)
            .collect()
    }

    /// Drops the stream counters of every die, leaving what faces given by hand would produce:
    /// a verifier re-rolls the expression from the recorded faces and compares with this.
    pub fn forget_counters(&mut self) {
        for d in &mut self.dice {
            d.counters = None;
        }
    }

    /// The natural face of a roll made of exactly one primitive die, such as a d20 check.
    pub fn natural(&self) -> Option<u32> {
        match self.dice.as_slice() {
            [only] => Some(only.face),
            _ => None,
        }
    }
}

/// Rolls `expr`, drawing primitive dice from `dice` in the documented order (see the module
/// docs of `dice`).
///
/// A bursting die adds at most [`BURST_DEPTH_CAP`] extra dice. The extra die drawn at the cap
/// is not marked `burst` even when it shows its maximum, because that flag tells a reader a
/// further draw followed it, and none does.
///
/// The expression is rolled as given, even one the parser would refuse, and never panics:
/// a keep larger than the pool keeps every die, a divided die ignores `burst` (its table has
/// no maximum worth bursting on), and sums saturate at the ends of `i64`. An absurd `count`
/// is honoured, so bound it before rolling hand-built expressions from untrusted input.
///
/// # Errors
///
/// Only the source's own errors, passed on from the draw that failed: a script that is too
/// short or holds a face the die cannot show. No rule outcome is an error.
pub fn roll(expr: &DiceExpr, dice: &mut dyn DiceSource) -> Result<Roll, DiceError> {
    let mut rolled = Vec::new();
    let mut terms = Vec::with_capacity(expr.terms.len());
    for (index, term) in expr.terms.iter().enumerate() {
        let subtotal = match &term.kind {
            TermKind::Flat(value) => *value,
            TermKind::Dice(pool) => roll_pool(index, pool, dice, &mut rolled)?,
        };
        terms.push(if term.negative {
            subtotal.saturating_neg()
        } else {
            subtotal
        });
    }
    let total = terms.iter().fold(0i64, |sum, t| sum.saturating_add(*t));
    Ok(Roll {
        expr: expr.to_string(),
        dice: rolled,
        terms,
        total,
    })
}

/// Draws one term's dice into `rolled` and returns the unsigned sum of the kept ones.
fn roll_pool(
    term: usize,
    pool: &DiceTerm,
    source: &mut dyn DiceSource,
    rolled: &mut Vec<DieRoll>,
) -> Result<i64, DiceError> {
    let die = pool.die.primitive();
    let bursts = pool.burst && !matches!(pool.die, DieKind::Divided { .. });
    // One entry per original die: where its chain starts in `rolled` and the chain's sum.
    let mut chains: Vec<(usize, i64)> = Vec::new();
    for _ in 0..pool.count {
        let start = rolled.len();
        let mut sum = 0i64;
        let mut extra = 0u32;
        loop {
            let face = source.draw(die)?;
            let value = pool.die.value_of(face);
            sum = sum.saturating_add(value);
            // At the cap the chain ends even on a maximum; see `roll`'s docs.
            let burst = bursts && face == die.sides() && extra < BURST_DEPTH_CAP;
            rolled.push(DieRoll {
                term,
                die,
                face,
                value,
                kept: true,
                burst,
                from_burst: extra > 0,
                counters: source.last_counters(),
            });
            if !burst {
                break;
            }
            extra += 1;
        }
        chains.push((start, sum));
    }
    let kept = kept_chains(&chains, pool.keep);
    let mut total = 0i64;
    for (i, &(start, sum)) in chains.iter().enumerate() {
        let end = chains.get(i + 1).map_or(rolled.len(), |next| next.0);
        if kept.get(i).copied().unwrap_or(true) {
            total = total.saturating_add(sum);
        } else if let Some(chain) = rolled.get_mut(start..end) {
            for d in chain {
                d.kept = false;
            }
        }
    }
    Ok(total)
}

/// Which chains a keep rule keeps, by chain sum; among equal sums the earlier-drawn chain is
/// kept first, so the choice is the same for everyone re-deriving it from the faces.
fn kept_chains(chains: &[(usize, i64)], keep: Option<Keep>) -> Vec<bool> {
    let (n, highest) = match keep {
        None => return vec![true; chains.len()],
        Some(Keep::Highest(n)) => (n, true),
        Some(Keep::Lowest(n)) => (n, false),
    };
    let mut order: Vec<usize> = (0..chains.len()).collect();
    // A stable sort keeps draw order among ties.
    order.sort_by(|&a, &b| {
        let (sa, sb) = (chains[a].1, chains[b].1);
        if highest { sb.cmp(&sa) } else { sa.cmp(&sb) }
    });
    let mut kept = vec![false; chains.len()];
    for &i in order.iter().take(usize::try_from(n).unwrap_or(usize::MAX)) {
        if let Some(k) = kept.get_mut(i) {
            *k = true;
        }
    }
    kept
}

impl DieKind {
    /// The primitive die actually drawn for this kind: the rung a stepped die lands on after
    /// clamping, and the d10 behind a divided die.
    ///
    /// A stepped die whose base is off the ladder (only hand-built expressions have one)
    /// counts from the highest rung not above it, or from d4 for the d2.
    pub fn primitive(&self) -> Primitive {
        match *self {
            DieKind::Plain(p) => p,
            DieKind::Divided { .. } => Primitive::D10,
            DieKind::Stepped { base, steps } => {
                let rung = STEP_LADDER
                    .iter()
                    .rposition(|r| r.sides() <= base.sides())
                    .unwrap_or(0);
                let top = STEP_LADDER.len() - 1;
                // i64 so that no i32 step count can overflow before clamping.
                let moved = i64::try_from(rung)
                    .unwrap_or(0)
                    .saturating_add(i64::from(steps));
                let index = usize::try_from(moved.max(0)).unwrap_or(top).min(top);
                STEP_LADDER.get(index).copied().unwrap_or(Primitive::D20)
            }
        }
    }

    /// mist's division table: the value a d10 `face` stands for on a D10/`divisor` weapon.
    /// It is a lookup, not a formula, because the printed table gives 4 for a 9 on D10/2.
    /// `None` for a divisor other than 2, 3, 4 or a face outside 1..=10.
    pub fn divided_value(divisor: u8, face: u32) -> Option<i64> {
        const HALF: [i64; 10] = [1, 1, 2, 2, 3, 3, 4, 4, 4, 5];
        const THIRD: [i64; 10] = [1, 1, 1, 2, 2, 2, 3, 3, 3, 4];
        const QUARTER: [i64; 10] = [1, 1, 1, 1, 2, 2, 2, 2, 3, 3];
        let column = match divisor {
            2 => &HALF,
            3 => &THIRD,
            4 => &QUARTER,
            _ => return None,
        };
        let row = usize::try_from(face.checked_sub(1)?).ok()?;
        column.get(row).copied()
    }

    /// The value a drawn face stands for. A hand-built divisor outside the table has no
    /// defined value, so such a die counts its raw face rather than failing the whole roll.
    fn value_of(&self, face: u32) -> i64 {
        match *self {
            DieKind::Divided { divisor } => {
                DieKind::divided_value(divisor, face).unwrap_or(i64::from(face))
            }
            DieKind::Plain(_) | DieKind::Stepped { .. } => i64::from(face),
        }
    }
}

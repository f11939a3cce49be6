//! The dice expression tree: what `3d10kh1+2`, `d10/2` or `d8s+1!` mean, independent of how
//! they are written. Parsing and printing live in `notation.rs`; rolling lives in `roll.rs`.

use serde::{Deserialize, Serialize};

use super::Primitive;

/// A sum of signed terms, e.g. `2d6 + 1d4 - 1`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceExpr {
    pub terms: Vec<Term>,
}

/// One signed term of a [`DiceExpr`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Term {
    /// `true` when the term is subtracted.
    pub negative: bool,
    pub kind: TermKind,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TermKind {
    /// A flat modifier, always >= 0 (the sign lives on [`Term`]).
    Flat(i64),
    Dice(DiceTerm),
}

/// `count` dice of one kind, optionally keeping some and optionally bursting.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceTerm {
    /// At least 1.
    pub count: u32,
    pub die: DieKind,
    pub keep: Option<Keep>,
    /// A die showing its maximum face is rolled again and added, up to [`BURST_DEPTH_CAP`]
    /// extra dice per original die.
    pub burst: bool,
}

/// What a single die of a [`DiceTerm`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DieKind {
    /// A primitive die: its face is its value.
    Plain(Primitive),
    /// A die on the step ladder d4 d6 d8 d10 d12 d20, moved `steps` rungs from `base` (positive
    /// is up) and clamped at both ends.
    Stepped { base: Primitive, steps: i32 },
    /// mist's divided d10: a d10 is drawn and its face looked up in the division table for
    /// `divisor` (2, 3 or 4).
    Divided { divisor: u8 },
}

/// Keep the `count` highest or lowest dice of a term; the rest are still shown, marked dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Keep {
    Highest(u32),
    Lowest(u32),
}

/// How many extra dice one original die may add by bursting. The text of vigor, the only
/// system with bursting dice, sets no limit; a cap keeps a pathological stream from running
/// away, and at 1/4 per burst on a d4 the chance to reach it is 4^-20, so it never bites in play.
pub const BURST_DEPTH_CAP: u32 = 20;

/// The step ladder of stepped dice, lowest first.
pub const STEP_LADDER: [Primitive; 6] = [
    Primitive::D4,
    Primitive::D6,
    Primitive::D8,
    Primitive::D10,
    Primitive::D12,
    Primitive::D20,
];

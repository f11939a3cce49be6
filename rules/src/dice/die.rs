//! The primitive dice: the only dice a [`DiceSource`](super::DiceSource) ever draws.
//!
//! Every composite die (pools, keep-highest, bursting, stepped, divided) is built from these
//! draws, so that a log of primitive faces is enough to re-derive every total.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A die the fair stream can draw directly. Sides are fixed by DESIGN.md's "Dice and fairness".
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Primitive {
    D2,
    D4,
    D5,
    D6,
    D8,
    D10,
    D12,
    D20,
    D100,
}

impl Primitive {
    /// All primitives, smallest first.
    pub const ALL: [Primitive; 9] = [
        Primitive::D2,
        Primitive::D4,
        Primitive::D5,
        Primitive::D6,
        Primitive::D8,
        Primitive::D10,
        Primitive::D12,
        Primitive::D20,
        Primitive::D100,
    ];

    /// Number of faces; faces run from 1 to this value inclusive.
    pub const fn sides(self) -> u32 {
        match self {
            Primitive::D2 => 2,
            Primitive::D4 => 4,
            Primitive::D5 => 5,
            Primitive::D6 => 6,
            Primitive::D8 => 8,
            Primitive::D10 => 10,
            Primitive::D12 => 12,
            Primitive::D20 => 20,
            Primitive::D100 => 100,
        }
    }

    /// The primitive with this many sides, if there is one.
    pub fn from_sides(sides: u32) -> Option<Primitive> {
        Primitive::ALL.into_iter().find(|p| p.sides() == sides)
    }
}

impl fmt::Display for Primitive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "d{}", self.sides())
    }
}

/// Error for a die name that is not a primitive, e.g. `d7`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a primitive die; use one of d2 d4 d5 d6 d8 d10 d12 d20 d100")]
pub struct UnknownDie(pub String);

impl FromStr for Primitive {
    type Err = UnknownDie;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let digits = s
            .strip_prefix('d')
            .or_else(|| s.strip_prefix('D'))
            .ok_or_else(|| UnknownDie(s.to_owned()))?;
        digits
            .parse::<u32>()
            .ok()
            .and_then(Primitive::from_sides)
            .ok_or_else(|| UnknownDie(s.to_owned()))
    }
}

impl TryFrom<String> for Primitive {
    type Error = UnknownDie;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<Primitive> for String {
    fn from(p: Primitive) -> String {
        p.to_string()
    }
}

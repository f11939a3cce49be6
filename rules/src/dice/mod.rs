//! Dice: primitive draws from an injected source, and composite dice built from them.
//!
//! Draw order (the contract the calculator's `--dice` faces and the fair stream rely on):
//! terms left to right; inside a term, the original dice one after another, and each die's
//! bursts are drawn right after it, before the next original die.

mod die;
mod expr;
pub mod fair;
mod notation;
mod pick;
mod roll;
mod source;
mod stream;
#[cfg(test)]
mod tests;

pub use die::{Primitive, UnknownDie};
pub use expr::{BURST_DEPTH_CAP, DiceExpr, DiceTerm, DieKind, Keep, STEP_LADDER, Term, TermKind};
pub use notation::ParseError;
pub use pick::{pick_die, pick_index};
pub use roll::{DieRoll, Roll, roll};
pub use source::{DiceError, DiceSource, Draws, ScriptedDice};
pub use stream::CounterStream;

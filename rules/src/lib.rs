//! Pure rule logic for Tablehold: dice, sheets, checks, attacks, damage, conditions, initiative,
//! for every shipped rule system behind one interface.
//!
//! This crate does no I/O, reads no clock, owns no random generator and knows nothing of
//! tokio, bevy, SQLite or MessagePack. Dice come in through [`dice::DiceSource`]; state comes in
//! through [`state::StateView`] and changes only through [`apply::apply`].

pub mod account;
pub mod action;
pub mod apply;
pub mod compare;
pub mod ctx;
pub mod decision;
pub mod dice;
pub mod digest;
pub mod direction;
pub mod engine;
pub mod event;
pub mod free_roll;
pub mod grid;
pub mod grimwire;
pub mod hidden_dice;
pub mod ids;
pub mod mist;
pub mod modifier;
pub mod options;
pub mod redact;
pub mod refusal;
pub mod roster;
pub mod sheet;
pub mod state;
pub mod system;
pub mod tenacity;
#[cfg(test)]
mod testing;
pub mod tinyd10;
pub mod toolkit;
pub mod turns;
pub mod upgrade;
pub mod vigor;
pub mod window;

pub use account::{Account, Budget, Compared, Effect, RollTold, Telling};
pub use action::{ActionSpec, ArgKind, ArgSpec, ArgValue, Args, Command, CommandBody};
pub use apply::{ApplyError, apply, apply_seen};
pub use decision::{Answer, Answering, Closing, PendingStep, Resolver, StepValue};
pub use engine::{Ctx, DecideError, actions, decide};
pub use event::{Against, Audience, CheckRecord, Event, Fact, Modifier, Outcome, Part, SealedDice};
pub use ids::{EntityId, Seat, SeatId};
pub use refusal::Refusal;
pub use sheet::{Sheet, SheetError};
pub use state::{Combatant, Encounter, Kind, MemoryState, Scratch, StateMut, StateView, Status};
pub use system::{Happening, ResourceSpec, RuleSystem};

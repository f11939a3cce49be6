//! Three deliberately small rule systems written only against the rules crate's public API,
//! each holding one shape GRIMWIRE does not: vigor (a reaction that spends a resource in an
//! opposed contest, a window open to several seats, a move trigger, roll-under morale), mist
//! (side turns, deferred steps, a held action that interrupts, distances in feet) and 10acity
//! (a choice that decides the next dice, a push paid in points against a hidden number, the
//! spotlight, the narrator's dice).
//!
//! They are a library rather than test code so that the same systems run in the rules' own
//! tests, through the server's table task and through the calculator: one sequence, three
//! hosts, the same digests. No shipped binary lists them; their ids start with `toy-` so they
//! can never be mistaken for the real systems that will carry the plain names.

pub mod mist;
pub mod rosters;
pub mod scenarios;
pub mod shared;
pub mod tenacity;
pub mod tenacity_push;
pub mod tenacity_spotlight;
pub mod vigor;
pub mod vigor_opening;
pub mod vigor_reach;

use tablehold_rules::RuleSystem;

pub use mist::Mist;
pub use tenacity::Tenacity;
pub use vigor::Vigor;

/// Every toy, for a host that lists systems.
pub const ALL: [&'static dyn RuleSystem; 3] = [&Vigor, &Mist, &Tenacity];

/// What every toy module reads, gathered once.
mod prelude {
    pub use std::collections::BTreeMap;

    pub use tablehold_rules::dice::{DiceExpr, Roll, roll};
    pub use tablehold_rules::grid::{Cell, distance};
    pub use tablehold_rules::options::{OptionSpec, common_options};
    pub use tablehold_rules::{
        ActionSpec, Against, Answering, ArgKind, ArgSpec, ArgValue, Args, Audience, CheckRecord,
        Closing, Combatant, Ctx, DecideError, EntityId, Event, Fact, Happening, Kind, Modifier,
        Outcome, PendingStep, Refusal, RuleSystem, Seat, SeatId, Sheet, SheetError, StateView,
        Status, StepValue,
    };

    pub use crate::shared::*;
    pub use crate::tenacity_push::*;
    pub use crate::tenacity_spotlight::*;
    pub use crate::vigor_opening::*;
    pub use crate::vigor_reach::*;
}

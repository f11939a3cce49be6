//! Does the rules interface fit systems that are not built yet? The three small rule systems
//! of the `tablehold-toys` crate, written only against this crate's public API, each exercising
//! shapes the shipped system does not (this file keeps their tables and tests; the server and
//! the calculator run the same systems from that crate):
//!
//! - vigor: a reaction that spends a resource and rolls an opposed contest in which ties go to
//!   the attacker (a prompt to the defender's seat, mid-attack);
//! - mist: an attack declared now and resolved at a later trigger (a deferred step), and
//!   wasted if the target left range in the meantime;
//! - 10acity: a choice that decides which dice are drawn next (a critical's extra hero die or
//!   extra impact d4), so nothing may be drawn before the answer.
//!
//! Each system has only as much rule as its shape needs, with numbers small enough to check by
//! hand. Every command goes through the real `decide`, every event through the real `apply` on
//! a `MemoryState`, and every test ends by replaying its log onto an empty state.

#![allow(clippy::unwrap_used)]

mod mist;
mod random;
mod sheets;
mod table;
mod tenacity;
mod tenacity_push;
mod tenacity_spotlight;
mod vigor;
mod vigor_opening;
mod vigor_reach;

use std::collections::BTreeMap;

use tablehold_rules::dice::{Roll, ScriptedDice};
use tablehold_rules::grid::Cell;
use tablehold_rules::options::{TableOptions, common_options};
use tablehold_rules::{
    Against, Answering, ArgKind, ArgSpec, ArgValue, Args, CheckRecord, Combatant, Command,
    CommandBody, DecideError, EntityId, Event, Fact, Kind, MemoryState, Modifier, Outcome,
    PendingStep, Refusal, Resolver, RuleSystem, Seat, SeatId, Sheet, SheetError, StateView,
    StepValue, actions, apply, apply_seen, decide,
};

use mist::*;
use table::*;
use tablehold_toys::mist::*;
use tablehold_toys::rosters::*;
use tablehold_toys::shared::*;
use tablehold_toys::tenacity::*;
use tablehold_toys::tenacity_push::*;
use tablehold_toys::tenacity_spotlight::*;
use tablehold_toys::vigor::*;
use tablehold_toys::vigor_opening::*;
use tablehold_toys::vigor_reach::*;
use tenacity::*;
use tenacity_push::*;
use tenacity_spotlight::*;
use vigor_opening::*;
use vigor_reach::*;

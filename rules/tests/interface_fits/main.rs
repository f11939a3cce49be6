//! Does the rules interface fit systems that are not built yet? Three deliberately small rule
//! systems, written only against the crate's public API, each exercising one shape the shipped
//! system does not:
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
mod shared;
mod sheets;
mod table;
mod tenacity;
mod tenacity_push;
mod tenacity_spotlight;
mod vigor;
mod vigor_opening;
mod vigor_reach;

use std::collections::BTreeMap;

use tablehold_rules::dice::{DiceExpr, Roll, ScriptedDice, roll};
use tablehold_rules::grid::{Cell, distance};
use tablehold_rules::options::{OptionSpec, TableOptions, common_options};
use tablehold_rules::{
    ActionSpec, Against, Answering, ArgKind, ArgSpec, ArgValue, Args, Audience, CheckRecord,
    Closing, Combatant, Command, CommandBody, Ctx, DecideError, EntityId, Event, Fact, Happening,
    Kind, MemoryState, Modifier, Outcome, PendingStep, Refusal, Resolver, RuleSystem, Seat, SeatId,
    Sheet, SheetError, StateView, Status, StepValue, actions, apply, apply_seen, decide,
};

use mist::*;
use shared::*;
use table::*;
use tenacity::*;
use tenacity_push::*;
use tenacity_spotlight::*;
use vigor::*;
use vigor_opening::*;
use vigor_reach::*;

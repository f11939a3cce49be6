//! Events: what happened, in the past tense, carrying resulting values so that `apply` is
//! assignment. An event is a list of parts, each with its own audience; [`Event::view`] is the
//! one place redaction happens.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::account::Account;
use crate::action::Args;
use crate::decision::{Answer, PendingStep, Resolver, StepValue};
use crate::dice::{Draws, Primitive, Roll};
use crate::direction::Direction;
use crate::grid::{Cell, Terrain};
use crate::ids::{EntityId, Seat, SeatId};
pub use crate::modifier::Modifier;
use crate::state::{Combatant, Status};
use crate::turns::TurnShape;

/// Who may see a part. The GM sees everything.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Audience {
    Everyone,
    GmOnly,
    /// These seats and the GM.
    Seats(BTreeSet<SeatId>),
    /// Every seat but the GM's: the public stand-in for a fact whose whole form the GM has in
    /// a GM-only part of the same event, so the GM does not see it twice.
    AllButGm,
    /// Every seat but the GM's and these: the stand-in for a fact whose whole form these seats
    /// (and the GM) have in a `Seats` part of the same event, such as a prompt only they answer.
    AllBut(BTreeSet<SeatId>),
}

impl Audience {
    pub fn admits(&self, seat: &Seat) -> bool {
        match (self, seat) {
            (Audience::AllButGm | Audience::AllBut(_), Seat::Gm) => false,
            (_, Seat::Gm) | (Audience::Everyone | Audience::AllButGm, _) => true,
            (Audience::GmOnly, _) => false,
            (Audience::Seats(seats), Seat::Player(s) | Seat::Spectator(s)) => seats.contains(s),
            (Audience::AllBut(seats), Seat::Player(s) | Seat::Spectator(s)) => !seats.contains(s),
        }
    }

    /// Whether this part is a stand-in: a reduced copy, for the seats that may not see it, of
    /// a fact whose whole form is in another part of the same event. The table's own state
    /// (the GM's) takes the whole form and leaves the stand-in out.
    pub fn is_stand_in(&self) -> bool {
        matches!(self, Audience::AllButGm | Audience::AllBut(_))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Success,
    Failure,
    /// Nothing was compared (initiative, an open roll the GM reads): the total is the result.
    Unjudged,
}

/// What a check's total was compared with, as this part's audience may know it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Against {
    /// An open target number; the total must reach it (equal succeeds).
    Target(i64),
    /// An open number the total must beat (equal fails), as vigor's Guard or 10acity's
    /// challenge rating.
    Exceed(i64),
    /// No comparison: see [`Outcome::Unjudged`].
    Nothing,
    /// A target number only the GM knows; see the GM-only [`Fact::HiddenTarget`].
    Hidden,
    /// An opposed roll: the other side's total.
    Opposed { entity: EntityId, total: i64 },
    /// An open number the total must not go over (equal succeeds): a roll-under check.
    AtMost(i64),
    /// An open number the total must stay under (equal fails).
    Below(i64),
    /// An opposed roll against dice that belong to no combatant (the narrator's challenge
    /// dice), named in the system's words; the total must beat it.
    Pool { name: String, total: i64 },
}

/// A roll compared with something: every die, every modifier, the total and the verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckRecord {
    pub actor: Option<EntityId>,
    /// What was rolled, e.g. `COR attack`, `AGL evade`, `PER initiative`.
    pub label: String,
    pub roll: Roll,
    pub modifiers: Vec<Modifier>,
    pub total: i64,
    pub against: Against,
    pub outcome: Outcome,
    /// Why the outcome is not what the numbers say (`natural 20`, `natural 1`), if so.
    pub overridden_by: Option<String>,
    /// How far the total landed on the good side of what it was compared with (see
    /// `compare`); `None` when nothing was compared, when the target is hidden (the GM's
    /// [`Fact::HiddenTarget`] has it) and in records written before margins were kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin: Option<i64>,
}

/// One fact of an event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "fact", rename_all = "snake_case")]
pub enum Fact {
    /// Dice rolled for a purpose that is not a check (damage, a random pick).
    Rolled {
        by: Option<EntityId>,
        purpose: String,
        roll: Roll,
    },
    Checked(CheckRecord),
    /// The target number behind an [`Against::Hidden`] check, for the GM's eyes.
    HiddenTarget {
        label: String,
        target: i64,
        /// Which side of the target succeeds; records before directions were kept reached it.
        #[serde(default, skip_serializing_if = "is_reach")]
        direction: Direction,
        /// How far the total landed from the target, towards success.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        margin: Option<i64>,
    },
    /// How a damage figure was built, step by step, and what it came to.
    DamageResolved {
        target: EntityId,
        steps: Vec<Modifier>,
        amount: i64,
    },
    /// A random pick: the sorted candidates and the face that chose among them.
    Picked {
        purpose: String,
        candidates: Vec<EntityId>,
        face: u32,
        picked: EntityId,
        /// The die the face was drawn on, so a verifier can recompute it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        die: Option<Primitive>,
        /// The fair stream's counters `[first, end)` of that draw.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        counters: Option<[u64; 2]>,
    },
    /// What the event did, told in the system's words for any client to render (see
    /// `account`). The other facts of the event are the record; this is how it reads.
    Told(Box<Account>),
    /// A free-text line for the log.
    Noted {
        text: String,
    },
    /// A GM ruling; the facts after it in the same event carry its effect.
    Ruled {
        text: String,
    },
    /// A combatant arrives, or (`replaces`) a new sheet takes the place of one at the table.
    CombatantAdded {
        combatant: Box<Combatant>,
        /// The sheet replaces the combatant of the same id: an edit, not an arrival.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        replaces: bool,
    },
    CombatantRemoved {
        entity: EntityId,
    },
    /// The GM gave a character to another seat (`None`: to no player; the GM plays it).
    OwnerSet {
        entity: EntityId,
        from: Option<SeatId>,
        to: Option<SeatId>,
    },
    ResourceSet {
        entity: EntityId,
        resource: String,
        from: i64,
        to: i64,
    },
    StatusSet {
        entity: EntityId,
        status: String,
        from: Option<Status>,
        to: Option<Status>,
    },
    TurnCounterSet {
        entity: EntityId,
        counter: String,
        from: i64,
        to: i64,
    },
    Moved {
        entity: EntityId,
        from: Option<Cell>,
        to: Option<Cell>,
    },
    /// The GM changed a cell's terrain (`None`: open ground).
    TerrainSet {
        cell: Cell,
        from: Option<Terrain>,
        to: Option<Terrain>,
    },
    EncounterStarted,
    EncounterEnded,
    OrderSet {
        order: Vec<EntityId>,
    },
    EncounterValueSet {
        key: String,
        from: i64,
        to: i64,
    },
    RoundStarted {
        round: u32,
    },
    TurnStarted {
        entity: Option<EntityId>,
    },
    /// A turn of another shape opens: a group's (its members act in any order, each once) or
    /// the spotlight handed to one combatant. `now` is who may act.
    TurnsOpened {
        shape: TurnShape,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        group: Option<String>,
        now: Vec<EntityId>,
    },
    /// A combatant took its action for this turn of its group (or with the spotlight).
    Acted {
        entity: EntityId,
    },
    /// A combatant holds an action back to interrupt with later, or no longer does.
    HoldSet {
        entity: EntityId,
        holding: bool,
    },
    DecisionRequested {
        step: Box<PendingStep>,
    },
    /// A window closed: the choice that closes it and who made it. The window need not be
    /// the last one opened: every open window is answered by its own id.
    DecisionResolved {
        prompt_id: u64,
        choice: String,
        by: Resolver,
        /// The typed arguments of the answer, when the window takes any.
        #[serde(default, skip_serializing_if = "Args::is_empty")]
        args: Args,
    },
    /// One seat's answer in a window each seat answers; the window stays open for the others.
    DecisionAnswered {
        prompt_id: u64,
        answer: Answer,
    },
    /// The part of a window that only the GM sees (see `PendingStep::secret`), beside the
    /// request that opened it.
    WindowSecret {
        prompt_id: u64,
        secret: BTreeMap<String, StepValue>,
    },
    StepDeferred {
        step: Box<PendingStep>,
    },
    DeferredResumed {
        prompt_id: u64,
    },
    /// The counter range `[first, end)` of every draw this event used, in draw order. Always
    /// public, even when the dice are not, so every seat's copy of the log accounts for every
    /// counter of the epoch.
    DiceDrawn {
        epoch: u64,
        spans: Vec<[u64; 2]>,
        /// From format 4: a commitment to each part of this event that holds dice and is kept
        /// from some seat (see `dice::hidden`), so the seats, who cannot see those dice now,
        /// can check them once the epoch's seed is out.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        sealed: Vec<SealedDice>,
    },
    /// A dice epoch begins: the commitment to the server's secret seed (hex), and whether the
    /// seed was the insecure test seed.
    EpochOpened {
        epoch: u64,
        /// `table` (free rolls between encounters) or `encounter`.
        purpose: String,
        commitment: String,
        test_seed: bool,
    },
    /// A seat committed to the entropy it will add to the epoch's key.
    EntropyCommitted {
        epoch: u64,
        seat: String,
        commitment: String,
    },
    /// No more commitments: reveals may start. The seats that committed are the ones above.
    CommitmentsClosed {
        epoch: u64,
    },
    /// A seat revealed the entropy behind its commitment (hex).
    EntropyRevealed {
        epoch: u64,
        seat: String,
        entropy: String,
    },
    /// A seat committed but did not reveal in time: this value, fixed by its commitment,
    /// stands in for its contribution.
    EntropyWithheld {
        epoch: u64,
        seat: String,
        replacement: String,
    },
    /// The GM lets a seat that withheld its reveal take part in the dice epochs again this
    /// session (format 4). Until then the server refuses its commitments, so that a seat (or
    /// one the host invented) cannot withhold epoch after epoch, choosing a key each time.
    SeatReadmitted {
        seat: String,
    },
    /// Every contribution is in: the key is fixed and dice may be drawn.
    EpochSealed {
        epoch: u64,
    },
    /// The epoch is over: its seed (hex), so anyone can recompute every die drawn in it.
    EpochRevealed {
        epoch: u64,
        seed: String,
    },
    /// Beside an epoch's reveal, the dice of one part that was kept from some seat, as the
    /// text its commitment in `dice_drawn` covers (see `dice::hidden`): from then on every
    /// seat can check what the GM rolled in secret.
    DiceOpened {
        epoch: u64,
        seq: u64,
        /// The part's number in its event, from 1.
        part: u32,
        dice: String,
    },
    /// The digest of the state as `audience` (`gm`, `public` or `seat:<id>`) has seen it after
    /// every event before this one, recorded at the end of a turn so a replay can check itself.
    DigestRecorded {
        audience: String,
        digest: String,
        /// The digest projection it was computed with (see `digest`). Events of format 1
        /// carry none and are read as projection 1 (see `upgrade`).
        projection: u32,
    },
}

/// A commitment to the dice of one part of the event, by its number (from 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SealedDice {
    pub part: u32,
    /// Hex of `dice::hidden::commitment`.
    pub commitment: String,
}

fn is_reach(d: &Direction) -> bool {
    *d == Direction::Reach
}

/// One part of an event and who may see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    pub audience: Audience,
    pub fact: Fact,
}

/// One event: the unit the log stores and numbers.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Event {
    pub parts: Vec<Part>,
}

impl Part {
    /// The record of the draws an event used: always public, whatever the dice's audience, so
    /// that every seat's copy of the log accounts for every counter of the epoch.
    pub fn dice_drawn(draws: Draws) -> Part {
        Part {
            audience: Audience::Everyone,
            fact: Fact::DiceDrawn {
                epoch: draws.epoch,
                spans: draws.spans,
                sealed: Vec::new(),
            },
        }
    }
}

impl Event {
    pub fn public(fact: Fact) -> Self {
        Event {
            parts: vec![Part {
                audience: Audience::Everyone,
                fact,
            }],
        }
    }

    pub fn with(mut self, audience: Audience, fact: Fact) -> Self {
        self.parts.push(Part { audience, fact });
        self
    }

    /// The event as `seat` may see it: only the parts whose audience admits the seat. `None`
    /// when nothing is visible (the seat then sees a gap in the sequence, not the content).
    pub fn view(&self, seat: &Seat) -> Option<Event> {
        let parts: Vec<Part> = self
            .parts
            .iter()
            .filter(|p| p.audience.admits(seat))
            .cloned()
            .collect();
        (!parts.is_empty()).then_some(Event { parts })
    }

    pub fn facts(&self) -> impl Iterator<Item = &Fact> {
        self.parts.iter().map(|p| &p.fact)
    }
}

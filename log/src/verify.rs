//! Verifying an export without trusting the server that wrote it (DESIGN.md, "Dice and
//! fairness"; the rules are spelled out for other implementations in `docs/FAIRNESS.md`).
//!
//! One pass over the events, in order, checks:
//!
//! 1. **the chain**: sequence numbers run 1..N with no gap, each header is the canonical text,
//!    and each link recomputes from the previous one, the header and the parts' hashes (a part
//!    the viewer may not see contributes the hash the file gives for it);
//! 2. **the epochs**: each is opened once, in order, for `table` or `encounter`, and goes
//!    commit → close → reveal or withhold → seal → draws → seed reveal, with every reveal,
//!    stand-in and seed matching what was committed to before; an epoch is opened only while
//!    no other is collecting contributions and no other of its purpose is unrevealed;
//! 3. **the draws**: an event records its draws in at most one `DiceDrawn`, whose counter
//!    ranges tile its epoch's counters from 0 with no gap and no overlap, only while the epoch
//!    is sealed, and only from the current epoch (the unrevealed `encounter` epoch if there is
//!    one, else the unrevealed `table` epoch), so the host cannot keep several streams going
//!    and take each die from whichever suits it;
//! 4. **the dice**: every die a part shows names one draw of its own event, no draw is claimed by
//!    two of the viewer's dice, and (in the GM's complete view) none is left unclaimed;
//! 5. **the faces**: once an epoch's seed is public, every die drawn in it is recomputed from the
//!    epoch's key and must show the logged face on exactly the logged counters;
//! 6. **the totals**: every roll is rolled again from its faces, and every check's total is its
//!    roll plus its modifiers.
//!
//! It never applies an event: [`crate::replay`] rebuilds state and checks digests. It stops at
//! the first structural problem, and reports the earliest sequence number at which the log is
//! wrong: a face that does not match is only found when its epoch's seed is revealed, later in
//! the log, but is reported at the event that logged it.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use tablehold_rules::dice::fair::{
    Bytes32, entropy_commitment, epoch_key, from_hex32, seed_commitment, withheld_replacement,
};
use tablehold_rules::dice::{CounterStream, DiceExpr, DiceSource, Primitive, Roll, ScriptedDice};
use tablehold_rules::upgrade::{UpgradeError, part_from_json};
use tablehold_rules::{Audience, Event, Fact, Part, Seat, SeatId, digest};

use crate::chain::{GENESIS, Link, header_bytes, link, part_hash};
use crate::file::{ExportedEvent, ExportedPart, LogFile, LogHeader};
use crate::hidden::{DrawnEvent, HiddenDice};

use crate::chain::EVENT_VERSION as NEWEST_EVENT_VERSION;

/// Whose eyes a log, or a digest, is seen through: the keys `gm`, `public` and `seat:<id>`
/// of an export's `viewer` and of `DigestRecorded`'s `audience`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum View {
    Gm,
    /// A seat named in no `Seats` audience: what the whole table was shown.
    Public,
    Seat(SeatId),
}

impl View {
    /// Reads a key; `None` for anything but `gm`, `public` or `seat:<non-empty id>`.
    pub fn parse(key: &str) -> Option<View> {
        match key {
            "gm" => Some(View::Gm),
            "public" => Some(View::Public),
            _ => key
                .strip_prefix("seat:")
                .filter(|id| !id.is_empty())
                .map(|id| View::Seat(SeatId(id.to_owned()))),
        }
    }

    /// The view of a seat at the table: the GM's, or that player's or spectator's own.
    pub fn of(seat: &Seat) -> View {
        match seat {
            Seat::Gm => View::Gm,
            Seat::Player(id) | Seat::Spectator(id) => View::Seat(id.clone()),
        }
    }

    /// The seat whose [`Audience::admits`] decides what this view may see.
    pub fn seat(&self) -> Seat {
        match self {
            View::Gm => Seat::Gm,
            // No real seat has an empty id, so this one is in no `Seats` set.
            View::Public => Seat::Spectator(SeatId(String::new())),
            View::Seat(id) => Seat::Player(id.clone()),
        }
    }

    /// Whether a part with `audience` is this view's own: the parts its seat is admitted to.
    /// For the GM that is every part but the stand-ins made for the other seats, which repeat
    /// what the GM-only part beside them holds. This view's state includes exactly these
    /// parts, and their dice are the ones it accounts for: a stand-in's dice are the GM-only
    /// part's again, and would otherwise be counted twice.
    pub fn applies(&self, audience: &Audience) -> bool {
        audience.admits(&self.seat())
    }
}

impl fmt::Display for View {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            View::Gm => f.write_str("gm"),
            View::Public => f.write_str("public"),
            View::Seat(id) => write!(f, "seat:{id}"),
        }
    }
}

/// The viewer an export's header names: `gm` or `seat:<id>`.
///
/// # Errors
///
/// [`VerifyErrorKind::BadViewer`] at sequence number 0 for anything else.
pub fn viewer_of(header: &LogHeader) -> Result<View, VerifyError> {
    match View::parse(&header.viewer) {
        Some(v @ (View::Gm | View::Seat(_))) => Ok(v),
        _ => Err(VerifyError {
            seq: 0,
            kind: VerifyErrorKind::BadViewer {
                viewer: header.viewer.clone(),
            },
        }),
    }
}

/// Where a log goes wrong: the sequence number of the first event that is wrong (0 for the
/// file's header), and what is wrong with it.
///
/// A verification failure means the log cannot be trusted from that event on: it was altered,
/// cut, reordered, or the server that wrote it did not follow the rules. There is nothing to
/// retry; keep the file, and compare it with another seat's export of the same table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} {kind}", Where(*.seq))]
pub struct VerifyError {
    pub seq: u64,
    pub kind: VerifyErrorKind,
}

/// `at seq S:`, or `in the header:` for sequence number 0.
pub(crate) struct Where(pub(crate) u64);

impl fmt::Display for Where {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            0 => f.write_str("in the header:"),
            seq => write!(f, "at seq {seq}:"),
        }
    }
}

/// What is wrong, one variant per rule of a valid log. `part` numbers count from 1 among all
/// the event's parts, hidden ones included.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VerifyErrorKind {
    /// The header names a viewer other than `gm` or `seat:<id>`.
    #[error("the viewer `{viewer}` is neither `gm` nor `seat:<id>`")]
    BadViewer { viewer: String },
    /// The header text is not exactly `{"seq":S,"version":V,"at_ms":T}`.
    #[error("the event header `{header}` is not in the canonical form")]
    BadHeader { header: String },
    /// Events are missing, repeated or out of order.
    #[error(
        "expected event {expected} here but found event {found}: events are missing, repeated or out of order"
    )]
    OutOfOrder { expected: u64, found: u64 },
    /// The event's link, or a hidden part's hash, is not 64 hex digits.
    #[error("{what} is not 64 hex digits")]
    BadHash { what: String },
    /// The link does not recompute: this event or the chain before it was altered.
    #[error(
        "the hash chain breaks here: the event's link does not match its header, its parts and the link before it; the event was altered"
    )]
    LinkMismatch,
    /// The event is in a format newer than this build reads.
    #[error(
        "the event has format version {version}; this build reads up to {NEWEST_EVENT_VERSION}: upgrade Tablehold"
    )]
    NewerEvent { version: u32 },
    /// A digest was computed with a projection this build does not know.
    #[error(
        "part {part} records a state digest of projection {projection}, which a newer Tablehold \
         release computes; this build computes projections 1 to {}: upgrade Tablehold to check it",
        digest::CURRENT
    )]
    NewerProjection { part: usize, projection: u32 },
    /// A shown part is not a valid part.
    #[error("part {part} is not a valid event part: {detail}")]
    BadPart { part: usize, detail: String },
    /// A shown part holds a fact this build does not know: the log was written by a newer
    /// server, whose facts this build cannot check. Facts only grow by addition, so a newer
    /// Tablehold reads this log.
    #[error(
        "part {part} holds the fact `{fact}`, which this build does not know: the log was written by a newer Tablehold; upgrade Tablehold to verify it"
    )]
    NewerFact { part: usize, fact: String },
    /// The header announces a different number of events than the log holds.
    #[error("the header announces {announced} events, but the log holds {found}")]
    CountMismatch { announced: u64, found: u64 },
    /// An epoch fact or a draw record is not public, so not every seat can check it.
    #[error("part {part} ({fact}) must be visible to everyone")]
    NotPublic { part: usize, fact: &'static str },
    /// Epochs must be opened once each, numbered 1, 2, 3...
    #[error("epoch {found} is opened where epoch {expected} should be the next")]
    EpochOutOfOrder { expected: u64, found: u64 },
    /// An epoch is for `table` or `encounter`.
    #[error("epoch {epoch} is opened for `{purpose}`; an epoch is for `table` or `encounter`")]
    BadPurpose { epoch: u64, purpose: String },
    /// A second unrevealed epoch of one purpose: the host could keep two streams going and
    /// take each die from whichever suits it.
    #[error(
        "epoch {epoch} is opened for `{purpose}` while epoch {open}, also for `{purpose}`, is not revealed yet: a table has one unrevealed epoch of each purpose"
    )]
    PurposeStillOpen {
        epoch: u64,
        purpose: &'static str,
        open: u64,
    },
    /// An epoch is opened while another still takes commitments or reveals.
    #[error("epoch {epoch} is opened while epoch {collecting} is still collecting contributions")]
    OpenedWhileCollecting { epoch: u64, collecting: u64 },
    /// A fact names an epoch that was never opened.
    #[error("part {part} names epoch {epoch}, which was never opened")]
    UnknownEpoch { part: usize, epoch: u64 },
    /// A fact comes at a point of its epoch's life where it has no place.
    #[error("part {part} ({fact}) comes while epoch {epoch} is {phase}")]
    WrongPhase {
        part: usize,
        fact: &'static str,
        epoch: u64,
        phase: &'static str,
    },
    /// A seat committed twice to one epoch.
    #[error("{seat} commits to epoch {epoch} a second time")]
    DoubleCommitment { epoch: u64, seat: String },
    /// A reveal or a stand-in for a seat that never committed.
    #[error("{seat} did not commit to epoch {epoch}, yet a contribution is recorded for it")]
    NotCommitted { epoch: u64, seat: String },
    /// A second reveal or stand-in for one seat.
    #[error("{seat}'s contribution to epoch {epoch} is recorded a second time")]
    AlreadyContributed { epoch: u64, seat: String },
    /// Revealed entropy does not hash to the seat's commitment.
    #[error("{seat}'s revealed entropy for epoch {epoch} does not match its commitment")]
    BadReveal { epoch: u64, seat: String },
    /// A stand-in for a withheld contribution is not the one its commitment fixes.
    #[error(
        "the stand-in for {seat}'s withheld entropy in epoch {epoch} is not the value its commitment fixes"
    )]
    BadReplacement { epoch: u64, seat: String },
    /// The epoch was sealed while a committed seat had neither revealed nor been replaced.
    #[error("epoch {epoch} is sealed before {seat}'s contribution is settled")]
    SealedEarly { epoch: u64, seat: String },
    /// The revealed seed does not match the commitment logged when the epoch opened.
    #[error("the seed revealed for epoch {epoch} does not match the commitment it opened with")]
    BadSeed { epoch: u64 },
    /// A commitment, entropy, stand-in or seed is not 64 hex digits, or a seat id is too long
    /// to be framed in the key.
    #[error("part {part}: {what} is malformed")]
    BadValue { part: usize, what: String },
    /// A draw's counters skip some: dice drawn and not logged.
    #[error(
        "epoch {epoch}'s draws skip counters {expected}..{found}: dice were drawn and not logged"
    )]
    CounterGap {
        epoch: u64,
        expected: u64,
        found: u64,
    },
    /// A draw reuses counters an earlier draw used.
    #[error(
        "epoch {epoch}'s draw [{first}, {end}) reuses counters from {first}, already drawn up to {expected}: a draw is counted twice"
    )]
    CounterOverlap {
        epoch: u64,
        first: u64,
        end: u64,
        expected: u64,
    },
    /// A draw of no counters at all.
    #[error("epoch {epoch} records an empty draw [{first}, {end})")]
    EmptyDraw { epoch: u64, first: u64, end: u64 },
    /// An event records its draws in more than one `DiceDrawn`.
    #[error("part {part} is a second dice_drawn in one event: an event records its draws once")]
    SecondDiceDrawn { part: usize },
    /// Dice drawn from an epoch other than the current one: the unrevealed `encounter` epoch
    /// if there is one, else the unrevealed `table` epoch.
    #[error(
        "part {part} draws dice from epoch {epoch}, but the current epoch is {current}: dice come from the unrevealed encounter epoch if there is one, else from the unrevealed table epoch"
    )]
    NotCurrentEpoch {
        part: usize,
        epoch: u64,
        current: u64,
    },
    /// A die without the counters it was drawn on.
    #[error("part {part} shows a die without the counters it was drawn on")]
    DieWithoutCounters { part: usize },
    /// A die's counters are not one of this event's draws.
    #[error(
        "part {part} shows a die drawn on counters [{first}, {end}), which is not a draw of this event"
    )]
    DieNotDrawn { part: usize, first: u64, end: u64 },
    /// Two dice claim the same draw.
    #[error(
        "part {part} shows a die on counters [{first}, {end}) of epoch {epoch}, a draw another die of this event already shows: a draw is counted twice"
    )]
    DrawClaimedTwice {
        part: usize,
        epoch: u64,
        first: u64,
        end: u64,
    },
    /// A part that names a key twice in one object: readers may keep either value.
    #[error("part {part} names the key `{key}` twice: readers could disagree on its value")]
    RepeatedKey { part: usize, key: String },
    /// An encounter ended and the next event did not reveal its epoch's seed.
    #[error(
        "the encounter ends here, but the next event does not reveal the seed of its epoch {epoch}: its dice can never be checked"
    )]
    EncounterSeedNotRevealed { epoch: u64 },
    /// A die that takes another draw than the next one in order: the dice of a roll take
    /// consecutive draws in the roll's order, and a later part's dice take later draws.
    #[error(
        "part {part} shows a die on counters [{first}, {end}) of epoch {epoch} out of draw order: each die takes the draw after the one before it (a roll's dice consecutive, a later part's later)"
    )]
    DrawOutOfOrder {
        part: usize,
        epoch: u64,
        first: u64,
        end: u64,
    },
    /// A draw no die accounts for.
    #[error(
        "the draw [{first}, {end}) of epoch {epoch} belongs to no die of this event: a roll was discarded"
    )]
    DrawUnclaimed { epoch: u64, first: u64, end: u64 },
    /// A face a die cannot show.
    #[error("part {part} shows {face} on a {die}")]
    FaceOutOfRange {
        part: usize,
        die: Primitive,
        face: u32,
    },
    /// The fair stream gives another face, or uses other counters, than the log says.
    #[error(
        "part {part}: the {die} on counters [{first}, {end}) of epoch {epoch} shows {logged}, but the revealed seed gives {drawn}"
    )]
    FaceMismatch {
        part: usize,
        epoch: u64,
        die: Primitive,
        first: u64,
        end: u64,
        logged: u32,
        drawn: String,
    },
    /// A roll's expression does not parse.
    #[error("part {part}: the roll `{expr}` is not dice notation: {detail}")]
    BadExpression {
        part: usize,
        expr: String,
        detail: String,
    },
    /// Rolling the expression again from its faces does not give what the log says.
    #[error("part {part}: rolling `{expr}` again from its faces {faces:?} {detail}")]
    RollMismatch {
        part: usize,
        expr: String,
        faces: Vec<u32>,
        detail: String,
    },
    /// A check's total is not its roll plus its modifiers.
    #[error(
        "part {part}: the check `{label}` totals {logged}, but its roll and modifiers make {computed}"
    )]
    CheckTotalMismatch {
        part: usize,
        label: String,
        logged: i64,
        computed: String,
    },
    /// A random pick without the die and counters it was drawn on.
    #[error("part {part}: a pick without the die and counters it was drawn on")]
    PickWithoutDraw { part: usize },
    /// A random pick whose face chooses another candidate than the one logged.
    #[error(
        "part {part}: face {face} on a {die} picks {expected} among the candidates, but the log says {logged}"
    )]
    PickMismatch {
        part: usize,
        face: u32,
        die: Primitive,
        expected: String,
        logged: String,
    },
    /// A pick read with another die than its rule gives for that many candidates: the same
    /// word read as another die picks another candidate.
    #[error(
        "part {part}: a pick among {n} candidates uses a {expected}, but the log says a {logged}"
    )]
    PickWrongDie {
        part: usize,
        n: usize,
        expected: Primitive,
        logged: Primitive,
    },
    /// The commitments to hidden dice are not listed by ascending part number, or name a part
    /// the event does not have.
    #[error(
        "the dice_drawn's commitments to hidden dice must name parts of the event, each once, in order (part {part})"
    )]
    SealedOutOfOrder { part: u32 },
    /// From format 4, a seat that withheld a reveal commits again in the same session without
    /// the GM's readmission: it would choose between two keys once more.
    #[error(
        "{seat} commits to epoch {epoch}, but it withheld its reveal in epoch {withheld} this session and the GM did not readmit it"
    )]
    WithholderCommits {
        seat: String,
        epoch: u64,
        withheld: u64,
    },
    /// A seat's export shows a part that is not addressed to that seat: the server leaked it,
    /// or the file was put together from another seat's copy.
    #[error(
        "part {part} is addressed to {audience}, which does not include this export's viewer {viewer}"
    )]
    NotForViewer {
        part: usize,
        audience: String,
        viewer: String,
    },
    /// A commitment names a part the viewer sees that holds no dice kept from a seat.
    #[error("a commitment to hidden dice names part {part}, which holds no dice kept from a seat")]
    SealedWrongPart { part: u32 },
    /// From format 4, a part with dice some seat may not see has no commitment: no seat could
    /// ever check it.
    #[error(
        "part {part} holds dice kept from some seat, and the event's dice_drawn commits to no such part"
    )]
    HiddenDiceNotSealed { part: u32 },
    /// An opening that no reveal calls for here, or not the next one due.
    #[error(
        "part {part} opens the dice of seq {seq} part {of_part}, which are not the next hidden dice due"
    )]
    OpeningUnexpected { part: usize, seq: u64, of_part: u32 },
    /// The dice opened are not those the commitment fixed when they were drawn.
    #[error(
        "part {part} opens the dice of seq {seq} part {of_part} as other dice than were committed to when they were drawn"
    )]
    OpeningMismatch { part: usize, seq: u64, of_part: u32 },
    /// A reveal was not followed by the openings of the epoch's sealed dice.
    #[error(
        "epoch {epoch} is revealed, but the hidden dice of seq {seq} part {part} are never opened"
    )]
    SealedNotOpened { epoch: u64, seq: u64, part: u32 },
    /// A part the viewer sees is not the dice its opening shows.
    #[error("part {part} shows other dice than were committed to and opened for it")]
    OpenedDiffers { part: usize },
    /// A stand-in shows dice that no hidden part of its event holds.
    #[error(
        "part {part} stands in for a hidden roll, but shows other dice than any opened for its event"
    )]
    StandInDiffers { part: usize },
    /// Candidates not in sorted order, or one named twice: the order decides who is picked.
    #[error("part {part}: a pick's candidates must be sorted, each once")]
    PickCandidatesUnsorted { part: usize },
}

/// What a verified log holds.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct VerifyReport {
    /// `gm` or `seat:<id>`.
    pub viewer: String,
    pub events: u64,
    /// Epochs opened.
    pub epochs: u64,
    /// Epochs whose seed is revealed, so whose dice could be recomputed.
    pub epochs_revealed: u64,
    /// Draws recorded by `DiceDrawn`, over every epoch.
    pub draws: u64,
    /// Dice this viewer holds that were recomputed from their epoch's revealed seed.
    pub dice_checked: u64,
    /// Dice this viewer holds in epochs whose seed is not revealed yet: accounted for, but
    /// not recomputable until the epoch ends.
    pub dice_unrevealed: u64,
    /// Draws whose dice are in parts this viewer may not see (a GM's secret roll).
    pub draws_hidden: u64,
    /// Whether any epoch was opened with the insecure test seed: its dice were known in
    /// advance to whoever knew that seed.
    pub test_seed: bool,
    /// Dice this viewer was not shown when they were drawn (a GM's secret roll), opened at
    /// their epoch's reveal and recomputed.
    pub dice_opened: u64,
    /// Events of format 3 or older that hold dice kept from some seat: they carry no
    /// commitment, so no seat can check those dice.
    pub uncommitted_hidden: u64,
    /// Per epoch with any, how many contributions were withheld. Each is a choice between two
    /// keys for whoever withheld it, and the host may have invented that seat: with W of them
    /// the host could have chosen among 2^W keys.
    pub withheld: BTreeMap<u64, u32>,
}

/// The line a verifier prints for an epoch whose contributions were partly withheld, the
/// same words in `docs/verify.py`: `epoch 2: 1 withheld contribution: the host could have
/// chosen among 2 keys`.
pub fn withheld_line(epoch: u64, withheld: u32) -> String {
    let keys = 1u64
        .checked_shl(withheld)
        .filter(|_| withheld < 64)
        .map_or_else(|| format!("2^{withheld}"), |k| k.to_string());
    format!(
        "epoch {epoch}: {withheld} withheld contribution{}: the host could have chosen among {keys} keys",
        if withheld == 1 { "" } else { "s" }
    )
}

/// The lines a verifier prints about dice kept from the viewer, the same words in
/// `docs/verify.py`: how many were opened at their reveal and checked, and how many events of
/// an older format hold hidden dice no seat can check.
pub fn hidden_dice_lines(r: &VerifyReport) -> Vec<String> {
    let mut lines = Vec::new();
    if r.dice_opened > 0 {
        lines.push(format!(
            "{} hidden from this viewer when rolled, opened at the reveal and checked",
            if r.dice_opened == 1 {
                "1 die".to_owned()
            } else {
                format!("{} dice", r.dice_opened)
            }
        ));
    }
    if r.uncommitted_hidden > 0 {
        lines.push(format!(
            "{} of format 3 or older hold{} dice kept from some seat, with no commitment: no seat can check them",
            if r.uncommitted_hidden == 1 {
                "1 event".to_owned()
            } else {
                format!("{} events", r.uncommitted_hidden)
            },
            if r.uncommitted_hidden == 1 { "s" } else { "" }
        ));
    }
    lines
}

/// Checks `file` by every rule of a valid log (see the module docs).
///
/// # Errors
///
/// The first place the log is wrong; see [`VerifyErrorKind`].
pub fn verify(file: &LogFile) -> Result<VerifyReport, VerifyError> {
    let viewer = viewer_of(&file.header)?;
    let mut checker = Checker::new(viewer);
    checker.report.viewer = file.header.viewer.clone();
    let mut reader = ChainReader::new();
    for exported in &file.events {
        let outcome = reader
            .read(exported)
            .and_then(|event| checker.event(&event));
        if let Err(e) = outcome {
            return Err(checker.earliest(e));
        }
    }
    if let Some(due) = checker.hidden.finish() {
        return Err(checker.earliest(due));
    }
    if let Some((ended, epoch)) = checker.ended.take() {
        return Err(checker.earliest(VerifyError {
            seq: ended,
            kind: VerifyErrorKind::EncounterSeedNotRevealed { epoch },
        }));
    }
    if let Some(e) = checker.face_failure.take() {
        return Err(e);
    }
    let found = u64::try_from(file.events.len()).unwrap_or(u64::MAX);
    if found != file.header.event_count {
        return Err(VerifyError {
            seq: found.min(file.header.event_count).saturating_add(1),
            kind: VerifyErrorKind::CountMismatch {
                announced: file.header.event_count,
                found,
            },
        });
    }
    Ok(checker.finish())
}

// ---------------------------------------------------------------------------------------
// Reading the chain

/// One event of an export, its place in the chain checked and its shown parts decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedEvent {
    pub seq: u64,
    pub version: u32,
    pub at_ms: u64,
    /// The parts the viewer holds, in order.
    pub shown: Event,
    /// For each shown part, its number (from 1) among all the event's parts.
    pub numbers: Vec<usize>,
    /// How many parts the viewer holds only as a hash.
    pub hidden: usize,
}

/// The fields of an event's header text.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HeaderFields {
    seq: u64,
    version: u32,
    at_ms: u64,
}

/// `(seq, version, at_ms)` of a header text, if it is exactly the canonical form the chain
/// hashes (so that no two texts can stand for the same event).
pub fn parse_header(text: &str) -> Option<(u64, u32, u64)> {
    let h: HeaderFields = serde_json::from_str(text).ok()?;
    (header_bytes(h.seq, h.version, h.at_ms) == text).then_some((h.seq, h.version, h.at_ms))
}

/// Walks an export's events in order: checks each one's number and chain link, then decodes
/// the parts the viewer holds. Both verification and replay read through it, so neither can
/// act on an event the chain does not vouch for.
#[derive(Debug, Clone)]
pub struct ChainReader {
    prev: Link,
    next: u64,
}

impl Default for ChainReader {
    fn default() -> Self {
        ChainReader::new()
    }
}

impl ChainReader {
    pub fn new() -> Self {
        ChainReader {
            prev: GENESIS,
            next: 1,
        }
    }

    /// Reads the next event.
    ///
    /// # Errors
    ///
    /// At the event's expected sequence number: a bad header, an event out of order, a
    /// malformed hash, a link that does not recompute, a newer format, or a part that does
    /// not decode.
    pub fn read(&mut self, event: &ExportedEvent) -> Result<CheckedEvent, VerifyError> {
        let fail = |kind| VerifyError {
            seq: self.next,
            kind,
        };
        let (seq, version, at_ms) = parse_header(&event.header).ok_or_else(|| {
            fail(VerifyErrorKind::BadHeader {
                header: event.header.clone(),
            })
        })?;
        if seq != self.next {
            return Err(fail(VerifyErrorKind::OutOfOrder {
                expected: self.next,
                found: seq,
            }));
        }
        let mut hashes = Vec::with_capacity(event.parts.len());
        for (i, part) in event.parts.iter().enumerate() {
            hashes.push(match part {
                ExportedPart::Shown { json } => part_hash(json.as_bytes()),
                ExportedPart::Hidden { hidden } => from_hex32(hidden).ok_or_else(|| {
                    fail(VerifyErrorKind::BadHash {
                        what: format!("the hash of hidden part {}", i + 1),
                    })
                })?,
            });
        }
        let logged = from_hex32(&event.link).ok_or_else(|| {
            fail(VerifyErrorKind::BadHash {
                what: "the event's link".to_owned(),
            })
        })?;
        let computed = link(&self.prev, &event.header, hashes);
        if computed != logged {
            return Err(fail(VerifyErrorKind::LinkMismatch));
        }
        if version > NEWEST_EVENT_VERSION {
            return Err(fail(VerifyErrorKind::NewerEvent { version }));
        }
        let mut shown = Event::default();
        let mut numbers = Vec::new();
        let mut hidden = 0;
        for (i, part) in event.parts.iter().enumerate() {
            match part {
                ExportedPart::Shown { json } => {
                    if let Some(key) = crate::json_keys::repeated_key(json) {
                        return Err(fail(VerifyErrorKind::RepeatedKey { part: i + 1, key }));
                    }
                    let part: Part = part_from_json(version, json.as_bytes())
                        .map_err(|e| fail(part_error(i + 1, json, e)))?;
                    if let Fact::DigestRecorded { projection, .. } = &part.fact
                        && *projection > digest::CURRENT
                    {
                        return Err(fail(VerifyErrorKind::NewerProjection {
                            part: i + 1,
                            projection: *projection,
                        }));
                    }
                    shown.parts.push(part);
                    numbers.push(i + 1);
                }
                ExportedPart::Hidden { .. } => hidden += 1,
            }
        }
        self.prev = computed;
        self.next += 1;
        Ok(CheckedEvent {
            seq,
            version,
            at_ms,
            shown,
            numbers,
            hidden,
        })
    }
}

/// Why a shown part does not decode: a fact this build does not know (a newer server's), or
/// a malformed part.
fn part_error(part: usize, json: &str, error: UpgradeError) -> VerifyErrorKind {
    let error = match error {
        UpgradeError::Newer { version } => return VerifyErrorKind::NewerEvent { version },
        other => other,
    };
    let name = serde_json::from_str::<serde_json::Value>(json)
        .ok()
        .and_then(|v| v.get("fact")?.get("fact")?.as_str().map(str::to_owned));
    if let Some(fact) = name {
        // The name alone decodes to "unknown variant" exactly when no fact has that name
        // (a known one fails on its missing fields instead, or decodes).
        let alone = serde_json::json!({ "fact": fact });
        if serde_json::from_value::<Fact>(alone)
            .is_err_and(|e| e.to_string().starts_with("unknown variant"))
        {
            return VerifyErrorKind::NewerFact { part, fact };
        }
    }
    VerifyErrorKind::BadPart {
        part,
        detail: error.to_string(),
    }
}

// ---------------------------------------------------------------------------------------
// Epochs, draws and dice

// The purposes an epoch may have (`docs/FAIRNESS.md`, section 6).
/// The purpose of the table's free-roll epoch (between encounters).
pub const TABLE: &str = "table";
/// The purpose of an encounter's epoch.
pub const ENCOUNTER: &str = "encounter";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Committing,
    Revealing,
    Sealed,
    Revealed,
}

impl Phase {
    fn describe(self) -> &'static str {
        match self {
            Phase::Committing => "taking commitments",
            Phase::Revealing => "taking reveals",
            Phase::Sealed => "sealed",
            Phase::Revealed => "revealed",
        }
    }
}

/// One die to recompute once its epoch's seed is known.
#[derive(Debug, Clone)]
struct DieCheck {
    seq: u64,
    part: usize,
    die: Primitive,
    face: u32,
    counters: [u64; 2],
    /// Whether it is one of the viewer's own dice (see [`View::applies`]).
    counted: bool,
    /// Whether it was opened at the reveal, unseen by the viewer before.
    opened: bool,
}

#[derive(Debug)]
struct EpochTrack {
    /// [`TABLE`] or [`ENCOUNTER`].
    purpose: &'static str,
    phase: Phase,
    commitment: Bytes32,
    committed: BTreeMap<String, Bytes32>,
    contributions: BTreeMap<String, Bytes32>,
    /// The counter the next draw must start at.
    next_counter: u64,
    key: Option<Bytes32>,
    /// Dice waiting for the seed, in log order.
    waiting: Vec<DieCheck>,
    /// The stream where the last recomputed die left it, so dice in counter order need no
    /// new key schedule each.
    stream: Option<CounterStream>,
}

/// The one `DiceDrawn` of the event being checked: every die of the event was drawn from
/// its epoch, on one of its spans.
#[derive(Debug)]
struct Drawn {
    epoch: u64,
    draws: Vec<Draw>,
    sealed: Vec<tablehold_rules::SealedDice>,
    /// The draw the last counted die took: the next one must take a later draw.
    last: Option<usize>,
}

/// One draw of the event being checked.
#[derive(Debug)]
struct Draw {
    span: [u64; 2],
    /// The viewer's own die that took it: (part, die of the part).
    claimed: Option<(u32, usize)>,
}

/// The state of one verification pass.
struct Checker {
    viewer: View,
    epochs: BTreeMap<u64, EpochTrack>,
    /// The unrevealed epoch of each purpose; there is at most one.
    open: BTreeMap<&'static str, u64>,
    report: VerifyReport,
    /// The earliest face that did not recompute, kept while the pass goes on: a later
    /// structural failure must not hide it.
    face_failure: Option<VerifyError>,
    /// An encounter that just ended, as (its `encounter_ended` event, its epoch): the next
    /// event must reveal that epoch's seed.
    ended: Option<(u64, u64)>,
    hidden: HiddenDice,
    /// Seats that withheld a reveal this session, with the epoch (rule 11).
    barred: BTreeMap<String, u64>,
    /// The format version of the event being checked.
    version: u32,
}

fn fact_name(fact: &Fact) -> &'static str {
    match fact {
        Fact::EpochOpened { .. } => "epoch_opened",
        Fact::EntropyCommitted { .. } => "entropy_committed",
        Fact::CommitmentsClosed { .. } => "commitments_closed",
        Fact::EntropyRevealed { .. } => "entropy_revealed",
        Fact::EntropyWithheld { .. } => "entropy_withheld",
        Fact::EpochSealed { .. } => "epoch_sealed",
        Fact::EpochRevealed { .. } => "epoch_revealed",
        Fact::DiceDrawn { .. } => "dice_drawn",
        Fact::DiceOpened { .. } => "dice_opened",
        Fact::SeatReadmitted { .. } => "seat_readmitted",
        _ => "fact",
    }
}

impl Checker {
    fn new(viewer: View) -> Self {
        Checker {
            viewer,
            epochs: BTreeMap::new(),
            open: BTreeMap::new(),
            report: VerifyReport::default(),
            face_failure: None,
            ended: None,
            hidden: HiddenDice::default(),
            barred: BTreeMap::new(),
            version: 0,
        }
    }

    /// `structural`, unless a face failure was found at an earlier event.
    fn earliest(&mut self, structural: VerifyError) -> VerifyError {
        match self.face_failure.take() {
            Some(f) if f.seq <= structural.seq => f,
            _ => structural,
        }
    }

    fn finish(mut self) -> VerifyReport {
        for e in self.epochs.values() {
            if e.phase == Phase::Revealed {
                self.report.epochs_revealed += 1;
            } else {
                let waiting = e.waiting.iter().filter(|d| d.counted).count();
                self.report.dice_unrevealed += u64::try_from(waiting).unwrap_or(u64::MAX);
            }
        }
        self.report
    }

    fn event(&mut self, e: &CheckedEvent) -> Result<(), VerifyError> {
        let seq = e.seq;
        self.version = e.version;
        let at = |kind| VerifyError { seq, kind };
        // A seat's export holds only what that seat may see (the GM's holds everything).
        if self.viewer != View::Gm
            && let Some((p, &number)) = e
                .shown
                .parts
                .iter()
                .zip(&e.numbers)
                .find(|(p, _)| !self.viewer.applies(&p.audience))
        {
            return Err(at(VerifyErrorKind::NotForViewer {
                part: number,
                audience: serde_json::to_string(&p.audience).unwrap_or_default(),
                viewer: self.viewer.to_string(),
            }));
        }
        // The openings a reveal calls for come right after it, in events that hold nothing
        // else.
        let only_openings = e.hidden == 0
            && !e.shown.parts.is_empty()
            && e.shown
                .facts()
                .all(|f| matches!(f, Fact::DiceOpened { .. }));
        if !only_openings && let Some(due) = self.hidden.opening_due() {
            return Err(due);
        }
        // The seed of an encounter that ended is revealed in the very next event: a host who
        // keeps it back keeps every die of the encounter unverifiable for ever.
        if let Some((ended, epoch)) = self.ended.take()
            && !e
                .shown
                .facts()
                .any(|f| matches!(f, Fact::EpochRevealed { epoch: r, .. } if *r == epoch))
        {
            return Err(VerifyError {
                seq: ended,
                kind: VerifyErrorKind::EncounterSeedNotRevealed { epoch },
            });
        }
        let mut drawn = None;
        let mut revealed = Vec::new();
        for (part, &number) in e.shown.parts.iter().zip(&e.numbers) {
            self.epoch_fact(number, part, &mut drawn, &mut revealed)
                .map_err(at)?;
            match &part.fact {
                Fact::EpochRevealed { epoch, .. } => {
                    self.recompute(*epoch);
                    let key = self.epochs.get(epoch).and_then(|t| t.key);
                    if let Some(key) = key {
                        self.hidden.revealed(*epoch, key, seq);
                    }
                }
                Fact::DiceOpened { epoch, .. } => {
                    for d in self.hidden.opened(seq, number, &part.fact)? {
                        if let Some(t) = self.epochs.get_mut(epoch) {
                            t.waiting.push(DieCheck {
                                seq: d.seq,
                                part: d.part,
                                die: d.die,
                                face: d.face,
                                counters: d.counters,
                                counted: false,
                                opened: d.new_to_viewer,
                            });
                        }
                    }
                    self.recompute(*epoch);
                }
                _ => {}
            }
            self.hidden.close_if_done()?;
        }
        let ends = e.shown.facts().any(|f| matches!(f, Fact::EncounterEnded));
        if ends && let Some(&epoch) = self.open.get(ENCOUNTER) {
            self.ended = Some((seq, epoch));
        }
        for (part, &number) in e.shown.parts.iter().zip(&e.numbers) {
            self.dice_of(seq, number, part, &mut drawn).map_err(at)?;
        }
        if let Some(Drawn {
            epoch,
            draws,
            sealed,
            ..
        }) = &drawn
        {
            let mut unclaimed = 0;
            for d in draws.iter().filter(|d| d.claimed.is_none()) {
                // A seat may not see every die of an event (a GM's secret roll); the GM sees
                // all.
                if self.viewer == View::Gm || e.hidden == 0 {
                    return Err(at(VerifyErrorKind::DrawUnclaimed {
                        epoch: *epoch,
                        first: d.span[0],
                        end: d.span[1],
                    }));
                }
                self.report.draws_hidden += 1;
                unclaimed += 1;
            }
            let number = |n: &usize| u32::try_from(*n).unwrap_or(u32::MAX);
            let event = DrawnEvent {
                seq,
                version: e.version,
                epoch: *epoch,
                spans: draws.iter().map(|d| d.span).collect(),
                sealed,
                own: draws
                    .iter()
                    .enumerate()
                    .filter_map(|(at, d)| d.claimed.map(|(p, i)| (p, i, at)))
                    .collect(),
                shown: e.numbers.iter().map(number).zip(&e.shown.parts).collect(),
                total_parts: number(&(e.numbers.len() + e.hidden)),
                gm: self.viewer == View::Gm,
            };
            self.hidden.drawn(event, unclaimed)?;
        }
        for epoch in revealed {
            self.recompute(epoch);
        }
        self.report.uncommitted_hidden = self.hidden.uncommitted;
        self.report.events += 1;
        Ok(())
    }

    fn epoch(&mut self, part: usize, epoch: u64) -> Result<&mut EpochTrack, VerifyErrorKind> {
        self.epochs
            .get_mut(&epoch)
            .ok_or(VerifyErrorKind::UnknownEpoch { part, epoch })
    }

    /// Follows one epoch fact or draw record.
    fn epoch_fact(
        &mut self,
        part: usize,
        p: &Part,
        drawn: &mut Option<Drawn>,
        revealed: &mut Vec<u64>,
    ) -> Result<(), VerifyErrorKind> {
        let fact = &p.fact;
        let name = fact_name(fact);
        if name == "fact" {
            return Ok(());
        }
        if p.audience != Audience::Everyone {
            return Err(VerifyErrorKind::NotPublic { part, fact: name });
        }
        let hex = |value: &str, what: &str| {
            from_hex32(value).ok_or_else(|| VerifyErrorKind::BadValue {
                part,
                what: format!("{what} `{value}`"),
            })
        };
        let in_phase = |e: &EpochTrack, epoch: u64, want: Phase| {
            if e.phase == want {
                Ok(())
            } else {
                Err(VerifyErrorKind::WrongPhase {
                    part,
                    fact: name,
                    epoch,
                    phase: e.phase.describe(),
                })
            }
        };
        match fact {
            Fact::EpochOpened {
                epoch,
                purpose,
                commitment,
                test_seed,
            } => {
                let expected = u64::try_from(self.epochs.len()).unwrap_or(u64::MAX) + 1;
                if *epoch != expected {
                    return Err(VerifyErrorKind::EpochOutOfOrder {
                        expected,
                        found: *epoch,
                    });
                }
                let purpose = match purpose.as_str() {
                    TABLE => TABLE,
                    ENCOUNTER => ENCOUNTER,
                    other => {
                        return Err(VerifyErrorKind::BadPurpose {
                            epoch: *epoch,
                            purpose: other.to_owned(),
                        });
                    }
                };
                if let Some(&open) = self.open.get(purpose) {
                    return Err(VerifyErrorKind::PurposeStillOpen {
                        epoch: *epoch,
                        purpose,
                        open,
                    });
                }
                if let Some((&collecting, _)) = self
                    .epochs
                    .iter()
                    .find(|(_, e)| matches!(e.phase, Phase::Committing | Phase::Revealing))
                {
                    return Err(VerifyErrorKind::OpenedWhileCollecting {
                        epoch: *epoch,
                        collecting,
                    });
                }
                let commitment = hex(commitment, "the seed commitment")?;
                self.report.epochs += 1;
                self.report.test_seed |= *test_seed;
                self.open.insert(purpose, *epoch);
                self.epochs.insert(
                    *epoch,
                    EpochTrack {
                        purpose,
                        phase: Phase::Committing,
                        commitment,
                        committed: BTreeMap::new(),
                        contributions: BTreeMap::new(),
                        next_counter: 0,
                        key: None,
                        waiting: Vec::new(),
                        stream: None,
                    },
                );
            }
            Fact::EntropyCommitted {
                epoch,
                seat,
                commitment,
            } => {
                let value = hex(commitment, "the commitment")?;
                if seat.len() > tablehold_rules::dice::fair::MAX_SEAT_ID_BYTES {
                    return Err(VerifyErrorKind::BadValue {
                        part,
                        what: "a seat id longer than 255 bytes (it cannot be framed in the key)"
                            .to_owned(),
                    });
                }
                if self.version >= crate::hidden::SEALING_VERSION
                    && let Some(&withheld) = self.barred.get(seat)
                {
                    return Err(VerifyErrorKind::WithholderCommits {
                        seat: seat.clone(),
                        epoch: *epoch,
                        withheld,
                    });
                }
                let e = self.epoch(part, *epoch)?;
                in_phase(e, *epoch, Phase::Committing)?;
                if e.committed.insert(seat.clone(), value).is_some() {
                    return Err(VerifyErrorKind::DoubleCommitment {
                        epoch: *epoch,
                        seat: seat.clone(),
                    });
                }
            }
            Fact::CommitmentsClosed { epoch } => {
                let e = self.epoch(part, *epoch)?;
                in_phase(e, *epoch, Phase::Committing)?;
                e.phase = Phase::Revealing;
            }
            Fact::EntropyRevealed {
                epoch,
                seat,
                entropy: value,
            }
            | Fact::EntropyWithheld {
                epoch,
                seat,
                replacement: value,
            } => {
                let value = hex(value, "the contribution")?;
                let e = self.epoch(part, *epoch)?;
                in_phase(e, *epoch, Phase::Revealing)?;
                let Some(commitment) = e.committed.get(seat) else {
                    return Err(VerifyErrorKind::NotCommitted {
                        epoch: *epoch,
                        seat: seat.clone(),
                    });
                };
                if e.contributions.contains_key(seat) {
                    return Err(VerifyErrorKind::AlreadyContributed {
                        epoch: *epoch,
                        seat: seat.clone(),
                    });
                }
                let (epoch, seat) = (*epoch, seat.clone());
                if matches!(fact, Fact::EntropyRevealed { .. }) {
                    if entropy_commitment(epoch, &seat, &value).as_ref() != Some(commitment) {
                        return Err(VerifyErrorKind::BadReveal { epoch, seat });
                    }
                } else if withheld_replacement(commitment) != value {
                    return Err(VerifyErrorKind::BadReplacement { epoch, seat });
                }
                let withholding = matches!(fact, Fact::EntropyWithheld { .. });
                e.contributions.insert(seat.clone(), value);
                if withholding {
                    *self.report.withheld.entry(epoch).or_default() += 1;
                    self.barred.insert(seat, epoch);
                }
            }
            Fact::EpochSealed { epoch } => {
                let e = self.epoch(part, *epoch)?;
                in_phase(e, *epoch, Phase::Revealing)?;
                if let Some(seat) = e
                    .committed
                    .keys()
                    .find(|s| !e.contributions.contains_key(*s))
                {
                    return Err(VerifyErrorKind::SealedEarly {
                        epoch: *epoch,
                        seat: seat.clone(),
                    });
                }
                e.phase = Phase::Sealed;
            }
            Fact::EpochRevealed { epoch, seed } => {
                let seed = hex(seed, "the seed")?;
                let e = self.epoch(part, *epoch)?;
                in_phase(e, *epoch, Phase::Sealed)?;
                if seed_commitment(*epoch, &seed) != e.commitment {
                    return Err(VerifyErrorKind::BadSeed { epoch: *epoch });
                }
                let contributions: Vec<(&str, Bytes32)> = e
                    .contributions
                    .iter()
                    .map(|(s, v)| (s.as_str(), *v))
                    .collect();
                let key = epoch_key(*epoch, &seed, &contributions).ok_or_else(|| {
                    VerifyErrorKind::BadValue {
                        part,
                        what: "a seat id of a contribution (too long to frame)".to_owned(),
                    }
                })?;
                e.key = Some(key);
                e.phase = Phase::Revealed;
                let purpose = e.purpose;
                self.open.remove(purpose);
                revealed.push(*epoch);
                // The table's epoch ends with the session: a new one bars nobody.
                if purpose == TABLE {
                    self.barred.clear();
                }
            }
            Fact::SeatReadmitted { seat } => {
                self.barred.remove(seat);
            }
            Fact::DiceDrawn {
                epoch,
                spans,
                sealed,
            } => {
                if drawn.is_some() {
                    return Err(VerifyErrorKind::SecondDiceDrawn { part });
                }
                let current = self
                    .open
                    .get(ENCOUNTER)
                    .or_else(|| self.open.get(TABLE))
                    .copied();
                let e = self.epoch(part, *epoch)?;
                in_phase(e, *epoch, Phase::Sealed)?;
                // A sealed epoch is unrevealed, so there is a current one.
                if let Some(current) = current
                    && current != *epoch
                {
                    return Err(VerifyErrorKind::NotCurrentEpoch {
                        part,
                        epoch: *epoch,
                        current,
                    });
                }
                let mut draws = Vec::with_capacity(spans.len());
                for &[first, end] in spans {
                    if first > e.next_counter {
                        return Err(VerifyErrorKind::CounterGap {
                            epoch: *epoch,
                            expected: e.next_counter,
                            found: first,
                        });
                    }
                    if first < e.next_counter {
                        return Err(VerifyErrorKind::CounterOverlap {
                            epoch: *epoch,
                            first,
                            end,
                            expected: e.next_counter,
                        });
                    }
                    if end <= first {
                        return Err(VerifyErrorKind::EmptyDraw {
                            epoch: *epoch,
                            first,
                            end,
                        });
                    }
                    e.next_counter = end;
                    draws.push(Draw {
                        span: [first, end],
                        claimed: None,
                    });
                }
                self.report.draws += u64::try_from(spans.len()).unwrap_or(u64::MAX);
                *drawn = Some(Drawn {
                    last: None,
                    epoch: *epoch,
                    draws,
                    sealed: sealed.clone(),
                });
            }
            _ => {}
        }
        Ok(())
    }

    /// Checks the dice a part shows: their totals now, their faces once the seed is known.
    fn dice_of(
        &mut self,
        seq: u64,
        part: usize,
        p: &Part,
        drawn: &mut Option<Drawn>,
    ) -> Result<(), VerifyErrorKind> {
        let counted = self.viewer.applies(&p.audience);
        match &p.fact {
            Fact::Rolled { roll, .. } => {
                check_roll(part, roll)?;
                self.roll_dice(seq, part, counted, roll, drawn)?;
            }
            Fact::Checked(c) => {
                check_roll(part, &c.roll)?;
                let computed = c
                    .modifiers
                    .iter()
                    .try_fold(c.roll.total, |sum, m| sum.checked_add(m.value));
                if computed != Some(c.total) {
                    return Err(VerifyErrorKind::CheckTotalMismatch {
                        part,
                        label: c.label.clone(),
                        logged: c.total,
                        computed: computed
                            .map_or_else(|| "an overflow".to_owned(), |t| t.to_string()),
                    });
                }
                self.roll_dice(seq, part, counted, &c.roll, drawn)?;
            }
            Fact::Picked {
                face,
                die: Some(die),
                counters: Some(counters),
                candidates,
                picked,
                ..
            } => {
                let n = u32::try_from(candidates.len()).unwrap_or(u32::MAX);
                if !candidates.windows(2).all(|w| w[0] < w[1]) {
                    return Err(VerifyErrorKind::PickCandidatesUnsorted { part });
                }
                let expected = tablehold_rules::dice::pick_die(n);
                if *die != expected {
                    return Err(VerifyErrorKind::PickWrongDie {
                        part,
                        n: candidates.len(),
                        expected,
                        logged: *die,
                    });
                }
                let chosen = tablehold_rules::dice::pick_index(*face, n, *die)
                    .and_then(|i| candidates.get(i));
                if chosen != Some(picked) {
                    return Err(VerifyErrorKind::PickMismatch {
                        part,
                        face: *face,
                        die: *die,
                        expected: chosen.map_or_else(|| "nobody".to_owned(), ToString::to_string),
                        logged: picked.to_string(),
                    });
                }
                self.die(seq, part, counted, *die, *face, Some(*counters), drawn, 0)?;
            }
            Fact::Picked { .. } => return Err(VerifyErrorKind::PickWithoutDraw { part }),
            _ => {}
        }
        Ok(())
    }

    /// Accounts for one die against the event's draws and queues its face for recomputing.
    /// A roll's dice, in the roll's order: each after the first takes the draw right after
    /// the one before it.
    fn roll_dice(
        &mut self,
        seq: u64,
        part: usize,
        counted: bool,
        roll: &tablehold_rules::dice::Roll,
        drawn: &mut Option<Drawn>,
    ) -> Result<(), VerifyErrorKind> {
        for (i, d) in roll.dice.iter().enumerate() {
            self.die(seq, part, counted, d.die, d.face, d.counters, drawn, i)?;
        }
        Ok(())
    }

    /// The die was drawn from the epoch the event's `DiceDrawn` names, on one of its spans:
    /// it is matched by that epoch and its counters. Only the viewer's own dice (`counted`)
    /// claim their draw, in order: a later draw than the last counted die's, and the very
    /// next one when it follows that die in the same roll (`index` > 0, its place in its part) (a seat's view may skip draws a
    /// hidden part took, but only between parts). A stand-in's dice repeat a GM-only part's,
    /// and are only recomputed.
    #[allow(
        clippy::too_many_arguments,
        reason = "one die's fields, spelled out so dice of rolls and of picks share it"
    )]
    fn die(
        &mut self,
        seq: u64,
        part: usize,
        counted: bool,
        die: Primitive,
        face: u32,
        counters: Option<[u64; 2]>,
        drawn: &mut Option<Drawn>,
        index: usize,
    ) -> Result<(), VerifyErrorKind> {
        let Some(counters) = counters else {
            return Err(VerifyErrorKind::DieWithoutCounters { part });
        };
        if face == 0 || face > die.sides() {
            return Err(VerifyErrorKind::FaceOutOfRange { part, die, face });
        }
        let found = drawn.as_mut().and_then(
            |Drawn {
                 epoch, draws, last, ..
             }| {
                let at = draws.iter().position(|d| d.span == counters)?;
                Some((*epoch, at, last, draws.get_mut(at)?))
            },
        );
        let Some((epoch, at, last, draw)) = found else {
            return Err(VerifyErrorKind::DieNotDrawn {
                part,
                first: counters[0],
                end: counters[1],
            });
        };
        if counted {
            if draw.claimed.is_some() {
                return Err(VerifyErrorKind::DrawClaimedTwice {
                    part,
                    epoch,
                    first: counters[0],
                    end: counters[1],
                });
            }
            let in_order = match (*last, index > 0) {
                (None, _) => true,
                (Some(before), true) => at == before + 1,
                (Some(before), false) => at > before,
            };
            if !in_order {
                return Err(VerifyErrorKind::DrawOutOfOrder {
                    part,
                    epoch,
                    first: counters[0],
                    end: counters[1],
                });
            }
            draw.claimed = Some((u32::try_from(part).unwrap_or(u32::MAX), index));
            *last = Some(at);
        }
        let check = DieCheck {
            seq,
            part,
            die,
            face,
            counters,
            counted,
            opened: false,
        };
        if let Some(e) = self.epochs.get_mut(&epoch) {
            e.waiting.push(check);
        }
        Ok(())
    }

    /// Recomputes every waiting die of a revealed epoch. A mismatch is kept (the earliest
    /// one wins) rather than returned, so the pass goes on to find an earlier one in another
    /// epoch or a structural failure.
    fn recompute(&mut self, epoch: u64) {
        let Some(e) = self.epochs.get_mut(&epoch) else {
            return;
        };
        let Some(key) = e.key else {
            return;
        };
        for d in std::mem::take(&mut e.waiting) {
            let [first, end] = d.counters;
            let stream = match &mut e.stream {
                Some(s) if s.counter() == first => s,
                slot => slot.insert(CounterStream::at(key, epoch, first)),
            };
            let drawn = stream.draw(d.die);
            let used = stream.last_draw_counters();
            let matches = drawn == Ok(d.face) && used == (first..end);
            if matches {
                if d.counted {
                    self.report.dice_checked += 1;
                } else if d.opened {
                    self.report.dice_opened += 1;
                }
                continue;
            }
            let drawn = match drawn {
                Ok(face) if used == (first..end) => face.to_string(),
                Ok(face) => format!("{face} on counters [{}, {})", used.start, used.end),
                Err(_) => "no face (the stream is exhausted)".to_owned(),
            };
            let failure = VerifyError {
                seq: d.seq,
                kind: VerifyErrorKind::FaceMismatch {
                    part: d.part,
                    epoch,
                    die: d.die,
                    first,
                    end,
                    logged: d.face,
                    drawn,
                },
            };
            if self.face_failure.as_ref().is_none_or(|f| f.seq > d.seq) {
                self.face_failure = Some(failure);
            }
            break;
        }
    }
}

/// Rolls `roll`'s expression again with its own faces and compares with what was logged.
pub(crate) fn check_roll(part: usize, roll: &Roll) -> Result<(), VerifyErrorKind> {
    let expr = DiceExpr::parse(&roll.expr).map_err(|e| VerifyErrorKind::BadExpression {
        part,
        expr: roll.expr.clone(),
        detail: e.to_string(),
    })?;
    let faces: Vec<u32> = roll.dice.iter().map(|d| d.face).collect();
    let mismatch = |detail: String| VerifyErrorKind::RollMismatch {
        part,
        expr: roll.expr.clone(),
        faces: faces.clone(),
        detail,
    };
    let mut script = ScriptedDice::new(faces.clone());
    let again = tablehold_rules::dice::roll(&expr, &mut script)
        .map_err(|e| mismatch(format!("fails: {e}")))?;
    if !script.unused().is_empty() {
        return Err(mismatch(format!(
            "uses only {} of its {} dice",
            script.used(),
            faces.len()
        )));
    }
    let mut logged = roll.clone();
    logged.forget_counters();
    if again.total != logged.total {
        return Err(mismatch(format!(
            "totals {}, but the log says {}",
            again.total, logged.total
        )));
    }
    if again != logged {
        return Err(mismatch(
            "gives the same total but other dice, values or subtotals than the log".to_owned(),
        ));
    }
    Ok(())
}

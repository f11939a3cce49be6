//! Replaying an export: the state at any event, rebuilt from the events alone and checked
//! against the digests the table recorded (DESIGN.md, "State digest and replay").
//!
//! Replay never decides and never rolls: it reads each event through the chain
//! ([`ChainReader`]) and applies the parts its viewer may see with the rules' own `apply`.
//! A `DigestRecorded` part is checked against the state its audience had after every
//! earlier event, before the event that holds it is applied. A seat checks its own digests
//! and the public ones (everything public is in its view too); the GM, who holds every part,
//! keeps one state per audience the log names and checks them all.
//!
//! An audience other than the viewer's own whose view stops applying (an event names a
//! combatant that audience never saw arrive) is followed no further, as the server does: it
//! records no digest for such a view, so a digest for it afterwards is an error. The viewer's
//! own view failing to apply is always an error, because its state is what replay returns.

use std::collections::{BTreeMap, BTreeSet};

use tablehold_rules::apply::ApplyError;
use tablehold_rules::digest;
use tablehold_rules::options::{OptionValue, TableOptions};
use tablehold_rules::{Fact, MemoryState, apply, apply_seen};
use tablehold_systems::SystemId;

use crate::file::{LogFile, TableInfo};
use crate::verify::{
    ChainReader, CheckedEvent, VerifyError, VerifyErrorKind, View, Where, viewer_of,
};

/// Where a replay stopped: the sequence number (0 for the file's header) and why.
///
/// Every kind but `BeyondEnd` means the log or the server's digests cannot be trusted from
/// that event on; there is nothing to retry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} {kind}", Where(*.seq))]
pub struct ReplayError {
    pub seq: u64,
    pub kind: ReplayErrorKind,
}

impl From<VerifyError> for ReplayError {
    fn from(e: VerifyError) -> Self {
        ReplayError {
            seq: e.seq,
            kind: ReplayErrorKind::Log(e.kind),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayErrorKind {
    /// The chain is broken or an event does not decode: see [`VerifyErrorKind`].
    #[error("{0}")]
    Log(VerifyErrorKind),
    /// The header's table names a system this build does not ship, or options it refuses:
    /// a log from a newer release, or an edited header.
    #[error("the log's table cannot be set up: {detail}")]
    Table { detail: String },
    /// `--at` names an event after the last one. Ask for an earlier one.
    #[error("the log ends at event {last}; there is no event {at} to replay to")]
    BeyondEnd { at: u64, last: u64 },
    /// An event does not apply to the state an audience has built so far.
    #[error("the {audience} view of this event does not apply: {error}")]
    Apply { audience: String, error: ApplyError },
    /// A recorded digest differs from the state replay rebuilt for its audience.
    #[error(
        "the digest recorded for {audience} is {recorded}, but the events before it give {computed}"
    )]
    DigestMismatch {
        audience: String,
        recorded: String,
        computed: String,
    },
    /// A digest is recorded for an audience whose view stopped applying earlier.
    #[error("a digest is recorded for {audience}, whose view stopped applying at event {since}")]
    DigestOfBrokenView { audience: String, since: u64 },
    /// A digest of a projection this build does not compute (`verify` refuses such a log
    /// first; this is the replay's own check).
    #[error("{0}")]
    Projection(digest::UnknownProjection),
    /// A digest names an audience that is not `gm`, `public` or `seat:<id>`.
    #[error("a digest names the audience `{audience}`, which is not gm, public or seat:<id>")]
    BadDigestAudience { audience: String },
}

/// The state at the end of a replay, as its viewer saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replayed {
    pub viewer: View,
    pub state: MemoryState,
    /// The last event applied; 0 when none was.
    pub seq: u64,
    /// Digests checked, over every audience followed.
    pub digests_checked: u64,
    /// The digest projection of the last digest the log recorded (`None` before any): the
    /// one to compare this log's state in.
    pub projection: Option<u32>,
    /// Audiences whose view stopped applying, with the event where it did and why. Only the
    /// lenient [`check_digests`] can leave the viewer's own view in this list.
    pub broken: BTreeMap<String, (u64, ApplyError)>,
}

/// Replays `file`'s events 1..=`at` (all of them when `at` is `None`) for its viewer.
///
/// # Errors
///
/// At the first event whose link, decoding, application or recorded digest is wrong, naming
/// the audience where it is about state; see [`ReplayErrorKind`].
pub fn replay(file: &LogFile, at: Option<u64>) -> Result<Replayed, ReplayError> {
    run(file, at, true)
}

/// Checks every digest of the whole log, going on past an event that the viewer's own view
/// cannot apply (it then checks no more digests of that view, and says so in
/// [`Replayed::broken`]). This is what `tablehold verify` uses: a view the server itself could
/// not follow has no digests to check, and is not a reason to reject the dice.
///
/// # Errors
///
/// As [`replay`], except that the viewer's own view failing to apply is not one.
pub fn check_digests(file: &LogFile) -> Result<Replayed, ReplayError> {
    run(file, None, false)
}

fn run(file: &LogFile, at: Option<u64>, strict: bool) -> Result<Replayed, ReplayError> {
    let viewer = viewer_of(&file.header)?;
    let options = table_options(&file.header.table).map_err(|detail| ReplayError {
        seq: 0,
        kind: ReplayErrorKind::Table { detail },
    })?;
    let last = u64::try_from(file.events.len()).unwrap_or(u64::MAX);
    let upto = match at {
        None => file.events.len(),
        Some(at) if at <= last => usize::try_from(at).unwrap_or(usize::MAX),
        Some(at) => {
            return Err(ReplayError {
                seq: at,
                kind: ReplayErrorKind::BeyondEnd { at, last },
            });
        }
    };
    let (events, stop) = read_events(file, upto);
    let mut replay = Replay::new(options, viewer, digest_audiences(&events), strict);
    for e in &events {
        replay.step(e)?;
    }
    match stop {
        Some(e) => Err(e.into()),
        None => Ok(replay.finish()),
    }
}

/// The table options a replayed state starts with, resolved as the server resolved them.
///
/// # Errors
///
/// A readable sentence when the system is unknown or the options are refused.
pub fn table_options(table: &TableInfo) -> Result<TableOptions, String> {
    let system: SystemId = table.system.parse().map_err(|e| format!("{e}"))?;
    let given: BTreeMap<String, OptionValue> = serde_json::from_value(table.options.clone())
        .map_err(|e| format!("the table options are not an object of option values: {e}"))?;
    TableOptions::resolve(&system.system().options(), &given).map_err(|e| e.to_string())
}

/// Reads events 1..=`upto` through the chain: those read, and the error that stopped the
/// reading early, if one did. Both are returned so the caller can replay up to the broken
/// event and report a digest mismatch before it first.
pub fn read_events(file: &LogFile, upto: usize) -> (Vec<CheckedEvent>, Option<VerifyError>) {
    let mut reader = ChainReader::new();
    let mut events = Vec::with_capacity(upto.min(file.events.len()));
    for exported in file.events.iter().take(upto) {
        match reader.read(exported) {
            Ok(e) => events.push(e),
            Err(e) => return (events, Some(e)),
        }
    }
    (events, None)
}

/// Every audience key a shown `DigestRecorded` part names.
fn digest_audiences(events: &[CheckedEvent]) -> BTreeSet<String> {
    events
        .iter()
        .flat_map(|e| e.shown.facts())
        .filter_map(|f| match f {
            Fact::DigestRecorded { audience, .. } => Some(audience.clone()),
            _ => None,
        })
        .collect()
}

/// One audience's state as replay builds it.
#[derive(Debug, Clone)]
struct Tracked {
    state: MemoryState,
    /// The event where this view stopped applying, and why.
    broken: Option<(u64, ApplyError)>,
}

/// A replay in progress: the viewer's state and the others a GM's replay follows. Feed it
/// events read by a [`ChainReader`], in order. A clone is a snapshot: the replay viewer keeps
/// some, so that stepping back replays from the nearest one rather than from the start.
#[derive(Debug, Clone)]
pub struct Replay {
    viewer: View,
    views: BTreeMap<View, Tracked>,
    /// Whether the viewer's own view failing to apply ends the replay.
    strict: bool,
    seq: u64,
    digests_checked: u64,
    projection: Option<u32>,
}

impl Replay {
    /// A replay from an empty table with `options`, following the viewer and, among the
    /// audiences in `also`, those the viewer's parts are enough to rebuild: all of them for
    /// the GM, the public for a seat.
    pub fn new(
        options: TableOptions,
        viewer: View,
        also: impl IntoIterator<Item = String>,
        strict: bool,
    ) -> Self {
        let mut keys = BTreeSet::from([viewer.clone()]);
        for key in also {
            match (View::parse(&key), &viewer) {
                (Some(v), View::Gm) => {
                    keys.insert(v);
                }
                (Some(View::Public), _) => {
                    keys.insert(View::Public);
                }
                _ => {}
            }
        }
        let views = keys
            .into_iter()
            .map(|v| {
                let t = Tracked {
                    state: MemoryState::new(options.clone()),
                    broken: None,
                };
                (v, t)
            })
            .collect();
        Replay {
            viewer,
            views,
            strict,
            seq: 0,
            digests_checked: 0,
            projection: None,
        }
    }

    /// Checks the event's digests against the states so far, then applies it.
    ///
    /// # Errors
    ///
    /// A digest mismatch, a digest for a view that stopped applying, a digest audience
    /// that is not a key, or (when strict) the viewer's view of the event not applying.
    pub fn step(&mut self, event: &CheckedEvent) -> Result<(), ReplayError> {
        let seq = event.seq;
        let fail = |kind| ReplayError { seq, kind };
        for fact in event.shown.facts() {
            let Fact::DigestRecorded {
                audience,
                digest,
                projection,
            } = fact
            else {
                continue;
            };
            self.projection = Some(*projection);
            let Some(view) = View::parse(audience) else {
                if self.viewer == View::Gm {
                    return Err(fail(ReplayErrorKind::BadDigestAudience {
                        audience: audience.clone(),
                    }));
                }
                continue;
            };
            let Some(tracked) = self.views.get(&view) else {
                continue;
            };
            if let Some((since, _)) = &tracked.broken {
                return Err(fail(ReplayErrorKind::DigestOfBrokenView {
                    audience: audience.clone(),
                    since: *since,
                }));
            }
            // `verify` refused projections this build does not know; a log checked without
            // it still stops here, naming the projection.
            let computed = digest::digest(*projection, &tracked.state)
                .map_err(|e| fail(ReplayErrorKind::Projection(e)))?;
            if !computed.eq_ignore_ascii_case(digest) {
                return Err(fail(ReplayErrorKind::DigestMismatch {
                    audience: audience.clone(),
                    recorded: digest.clone(),
                    computed,
                }));
            }
            self.digests_checked += 1;
        }
        for (view, tracked) in &mut self.views {
            if tracked.broken.is_some() {
                continue;
            }
            let applied = if *view == View::Public && self.viewer != View::Gm {
                apply_public_from(&mut tracked.state, event, &self.viewer);
                Ok(())
            } else {
                apply_view(&mut tracked.state, event, view)
            };
            if let Err(error) = applied {
                if self.strict && *view == self.viewer {
                    return Err(fail(ReplayErrorKind::Apply {
                        audience: view.to_string(),
                        error,
                    }));
                }
                tracked.broken = Some((seq, error));
            }
        }
        self.seq = seq;
        Ok(())
    }

    /// The viewer's state and what was checked.
    pub fn finish(mut self) -> Replayed {
        let broken = self
            .views
            .iter()
            .filter_map(|(v, t)| t.broken.clone().map(|b| (v.to_string(), b)))
            .collect();
        let state = self
            .views
            .remove(&self.viewer)
            .map(|t| t.state)
            .unwrap_or_default();
        Replayed {
            viewer: self.viewer,
            state,
            seq: self.seq,
            digests_checked: self.digests_checked,
            projection: self.projection,
            broken,
        }
    }
}

/// Applies to the public's state what a seat's export shows of `event`: the public parts,
/// and in place of a prompt part that only the seat's deciders see, the stand-in the public
/// was given beside it (hidden in the seat's export, as every part not for the seat is).
fn apply_public_from(state: &mut MemoryState, event: &CheckedEvent, viewer: &View) {
    let mut facts = Vec::new();
    for part in &event.shown.parts {
        if View::Public.applies(&part.audience) {
            facts.push(part.fact.clone());
        } else if viewer.applies(&part.audience)
            && let Some(stand_in) = tablehold_rules::redact::stand_in_of(&part.fact)
        {
            facts.push(stand_in);
        }
    }
    apply_seen(state, facts.iter());
}

/// Applies the parts of `event` that `view` may see: the GM's whole state with the rules'
/// `apply` (which leaves out the stand-ins made for the other seats), a seat's or the
/// public's partial state with `apply_seen`, exactly as the server built the state it
/// digested.
///
/// # Errors
///
/// The rules' [`ApplyError`]: the event does not fit the GM's state. A seat's view never
/// fails: the parts it cannot place are skipped, on both sides.
pub fn apply_view(
    state: &mut MemoryState,
    event: &CheckedEvent,
    view: &View,
) -> Result<(), ApplyError> {
    if *view == View::Gm {
        return apply(state, &event.shown);
    }
    let seen = event
        .shown
        .parts
        .iter()
        .filter(|p| view.applies(&p.audience));
    apply_seen(state, seen.map(|p| &p.fact));
    Ok(())
}

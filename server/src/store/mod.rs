//! The durable log and the table records, behind the [`Store`] trait.
//!
//! The trait is the whole surface the server uses: append a batch of [`Write`]s and learn when
//! it is durable, load a table, page its events. It is batch-oriented (a store is free to
//! commit many batches together, as the SQLite store's group commit does) and async-friendly
//! (reads return futures; appends answer on a channel), so a networked store holding the log
//! of several nodes can take the embedded one's place without touching the table task. This
//! module owns the records, the errors and the contract; it must not name a database.
//!
//! - [`SqliteStore`] (`sqlite/`): the embedded store, one file, one writer thread.
//! - `contract.rs` (tests only): the behaviour every store must show, run against each store.

#[cfg(test)]
mod contract;
mod sqlite;

pub use sqlite::SqliteStore;

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::sync::oneshot;

/// What a read or a close of the store returns: boxed, so that the trait stays object-safe
/// (the server holds an `Arc<dyn Store>`), and a future, so that no read blocks the runtime.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// The answer to a submitted batch: it resolves once the batch is durable, or with the error
/// that prevented it. A receipt whose sender is gone means the store stopped before answering:
/// treat it as [`StoreError::Closed`].
pub type Receipt = oneshot::Receiver<Result<(), StoreError>>;

/// Which node holds the table's lease and since when (the lease's epoch, raised at each
/// takeover). SQLite, with one process per file, ignores it; a networked store rejects an
/// append from a stale owner, so a node that lost its lease cannot fork the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner {
    pub node: String,
    pub epoch: u64,
}

impl Owner {
    /// The owner when one process is the only writer of its store, as with the embedded store:
    /// there is no lease to hold, so there is nothing to lose.
    pub fn single_node() -> Owner {
        Owner {
            node: "local".to_owned(),
            epoch: 0,
        }
    }
}

/// A durable store of tables and their logs.
///
/// Shared by every table task as an `Arc<dyn Store>`. Appends never block: [`Store::submit`]
/// queues and answers on a [`Receipt`], which the table's pipeline awaits. Reads return a
/// [`StoreFuture`] and never wait for appends. `contract.rs` holds the tests every
/// implementation must pass.
pub trait Store: Send + Sync + fmt::Debug {
    /// Queues a batch; the receipt resolves after the commit that made it durable (or with the
    /// error that prevented it). Never blocks the caller (it is called from async tasks).
    ///
    /// The batch is all or nothing: on error none of its writes is stored. Batches are written
    /// in submission order, so a table that pipelines batches sees them land in order. An
    /// empty batch resolves once everything submitted before it is durable. An event is stored
    /// only as the next seq of its table: a seq already taken fails with
    /// [`StoreError::Conflict`] (another writer owns the table), and a gap fails too (an earlier
    /// batch of the table was lost); either way the table must reload from its log. A write for
    /// a table never created fails, as does creating a table or an epoch's seed twice; a seat
    /// or an invite replaces the one it names.
    ///
    /// `owner` is the table's lease as the caller holds it; a store that shares its log
    /// between nodes refuses the append of an owner whose lease has passed on.
    fn submit(&self, owner: &Owner, batch: Vec<Write>) -> Receipt;

    /// Everything stored about `table`, or `None` if it was never created, read in one
    /// consistent view so that the events, seats and epochs agree with each other even while
    /// appends commit. Seats come in seat id order, invites in code hash order, events in seq
    /// order, epochs in epoch order. With a [`SnapshotRecord`], the events start at the
    /// snapshot's own (so the loader can check its link) and the older ones are left to
    /// [`Store::events_after`].
    fn load_table<'a>(&'a self, table: &'a str) -> StoreFuture<'a, Option<LoadedTable>>;

    /// Events of `table` with seq > `after`, in order, at most `limit`; empty for a table that
    /// does not exist.
    ///
    /// Paging with a limit keeps a reconnecting client's catch-up from holding the store for
    /// the whole log at once.
    fn events_after<'a>(
        &'a self,
        table: &'a str,
        after: u64,
        limit: usize,
    ) -> StoreFuture<'a, Vec<EventRecord>>;

    /// Every table id, in id order: what a server can offer or preload without loading logs.
    fn table_ids(&self) -> StoreFuture<'_, Vec<String>>;

    /// The counters of this handle's appends, shared: they keep counting after this call.
    fn counters(&self) -> SharedCounters;

    /// Stops taking batches (from the call on, a submit answers [`StoreError::Closed`]) and
    /// resolves once every batch submitted before is answered and the store is released. Reads
    /// still answer until the last handle is dropped, so a table that is still running during
    /// shutdown can reload. A second close resolves at once.
    ///
    /// Dropping the last handle closes too, but only `close` reports a failure to do so.
    fn close(&self) -> StoreFuture<'_, ()>;
}

/// The on-disk format this build writes and reads. A file with a higher number was written by a
/// newer release and is refused rather than misread.
///
/// Format 1 was written only by pre-release builds, before the log was a hash chain and before
/// dice epochs had commitments; nothing in it could be verified, so it is refused by name
/// rather than upgraded.
pub const FORMAT_VERSION: u32 = 2;

/// A table's fixed facts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableRecord {
    pub id: String,
    pub system: String,
    pub name: String,
    /// The resolved table options, as JSON (an object of key to value).
    pub options_json: String,
    pub created_ms: u64,
}

/// A seat at a table. Tokens are stored only as their SHA-256.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatRecord {
    pub table: String,
    pub seat: String,
    pub name: String,
    /// `gm`, `player` or `spectator`.
    pub role: String,
    pub token_hash: [u8; 32],
    pub revoked: bool,
}

/// An unused (or used) invite. Codes are stored only as their SHA-256.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InviteRecord {
    pub table: String,
    pub code_hash: [u8; 32],
    pub role: String,
    /// The seat that claimed it, once claimed.
    pub used_by: Option<String>,
}

/// One logged event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventRecord {
    pub table: String,
    /// 1, 2, 3... per table, without gaps. The pair (table, seq) is unique: a second append of
    /// the same seq fails instead of forking the log.
    pub seq: u64,
    /// The event format version (`tablehold_protocol::EVENT_VERSION` today).
    pub version: u32,
    pub at_ms: u64,
    /// The event's parts: a JSON array of each part's bytes, kept verbatim because the hash
    /// chain is over those bytes (`tablehold_log::chain`).
    pub parts: Vec<u8>,
    /// The event's link in the hash chain.
    pub link: [u8; 32],
}

/// A dice epoch's secret seed: server-only, never an event, never exported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EpochSecret {
    pub table: String,
    pub epoch: u64,
    pub seed: [u8; 32],
    /// The seed came from `--insecure-test-seed`, not from the OS.
    pub test_seed: bool,
}

/// A table's state as of one event, so that loading it need not replay the log from the start.
/// A cache, never the truth: it is written beside the log, replaced by the next, and a build
/// that cannot use one (another release, a body it cannot read) replays the whole log instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotRecord {
    pub table: String,
    /// The event the state is as of, and its link: a snapshot names an event of its table's
    /// log exactly.
    pub seq: u64,
    pub link: [u8; 32],
    /// Which build wrote the body (its release and snapshot format): only the same one reads
    /// it.
    pub release: String,
    pub body: Vec<u8>,
}

/// One write. A batch is applied in order, all or nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Write {
    CreateTable(TableRecord),
    /// Insert or replace a seat (joins, revocations).
    Seat(SeatRecord),
    /// Insert or replace an invite (issue, claim).
    Invite(InviteRecord),
    Event(EventRecord),
    Epoch(EpochSecret),
    /// Replaces the table's snapshot. Fails the batch unless it names a logged event of the
    /// table (this batch's included) by seq and link.
    Snapshot(SnapshotRecord),
}

/// Everything the store holds about one table, for loading it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedTable {
    pub table: TableRecord,
    pub seats: Vec<SeatRecord>,
    pub invites: Vec<InviteRecord>,
    /// The latest snapshot, if one was written.
    pub snapshot: Option<SnapshotRecord>,
    /// In seq order: from the snapshot's own event on when there is a snapshot, else all.
    pub events: Vec<EventRecord>,
    /// In epoch order.
    pub epochs: Vec<EpochSecret>,
}

/// Why the store failed. Every variant names the file and says what to do.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(
        "{path}: written by a newer Tablehold (format {found}, this build reads up to {FORMAT_VERSION}); upgrade Tablehold or point --data at another file"
    )]
    NewerFormat { path: String, found: u32 },
    #[error(
        "{path}: written by a pre-release Tablehold (format {found}) whose logs cannot be verified; move it aside and start with a new --data file"
    )]
    OlderFormat { path: String, found: u32 },
    #[error(
        "{path}: not a Tablehold data file or corrupt ({detail}); restore it from a backup or point --data at another file"
    )]
    Corrupt { path: String, detail: String },
    #[error(
        "{path}: the disk is full; nothing more is logged until space is freed, and nothing acknowledged was lost"
    )]
    DiskFull { path: String },
    #[error(
        "{path}: SQLite refused `{setting}` (got `{got}`); the file system may not support WAL with full sync"
    )]
    Durability {
        path: String,
        setting: String,
        got: String,
    },
    #[error("{path}: {detail}")]
    Io { path: String, detail: String },
    /// The append collided with an existing (table, seq): another writer owns the table.
    #[error(
        "table {table}: sequence {seq} already exists; the table must be reloaded from its log"
    )]
    Conflict { table: String, seq: u64 },
    /// The writer thread has stopped (after a fatal error, or at shutdown).
    #[error("the store's writer has stopped")]
    Closed,
}

/// Counters of a store's appends, for tests and the log: how many commits, and how many events they
/// carried. Events per commit above 1 shows group commit at work.
#[derive(Debug, Default)]
pub struct Counters {
    pub commits: AtomicU64,
    pub events: AtomicU64,
    pub writes: AtomicU64,
}

impl Counters {
    pub fn snapshot(&self) -> (u64, u64) {
        (
            self.commits.load(Ordering::Relaxed),
            self.events.load(Ordering::Relaxed),
        )
    }
}

/// Shared handle to the counters.
pub type SharedCounters = Arc<Counters>;

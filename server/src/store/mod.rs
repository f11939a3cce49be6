//! The durable log and the table records, behind one writer thread with group commit.
//!
//! Every write goes through [`Store::submit`]: the writer thread takes every batch waiting (from
//! all tables), writes them in one transaction and commits once, so many events share one
//! fsync. A batch's receiver resolves only after that commit: nothing the caller does with
//! the batch's contents (ack, fan-out) may happen before. Reads ([`Store::load_table`],
//! [`Store::events_after`]) use a separate connection and never wait for the writer.
//!
//! The store is a type with a small, batch-oriented surface so that a networked database can
//! take its place later without touching the table task.

mod sqlite;

pub use sqlite::SqliteStore;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

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

/// One write. A batch is applied in order, in one transaction with every other batch waiting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Write {
    CreateTable(TableRecord),
    /// Insert or replace a seat (joins, revocations).
    Seat(SeatRecord),
    /// Insert or replace an invite (issue, claim).
    Invite(InviteRecord),
    Event(EventRecord),
    Epoch(EpochSecret),
}

/// Everything the store holds about one table, for loading it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedTable {
    pub table: TableRecord,
    pub seats: Vec<SeatRecord>,
    pub invites: Vec<InviteRecord>,
    /// In seq order.
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
    #[error("{path}: the disk is full; free space and restart (nothing acknowledged was lost)")]
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

/// Counters of the writer, for tests and the log: how many commits, and how many events they
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

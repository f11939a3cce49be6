//! The embedded store: one SQLite file, one writer thread that group-commits, one reader.
//!
//! SQLite allows one writer at a time, and with `synchronous=FULL` every commit costs an fsync.
//! Funnelling every write through one thread that commits everything waiting in one transaction
//! turns that fsync into a shared cost: under load, many events from many tables become durable
//! together. Reads take a second connection so that loading a table never queues behind a
//! commit (WAL lets them run while the writer writes).

use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::{Mutex, MutexGuard, PoisonError, mpsc};
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, OptionalExtension, Row, TransactionBehavior, ffi, params};
use tokio::sync::oneshot;

use super::{
    EpochSecret, EventRecord, FORMAT_VERSION, InviteRecord, LoadedTable, SeatRecord,
    SharedCounters, StoreError, TableRecord, Write,
};

/// How long a connection waits for a lock held by someone else (a backup tool, a second
/// process opened by mistake, a WAL checkpoint) before giving up with an error.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// A cap on the writes taken into one group, so that one commit's latency and the work redone
/// after a failed group stay bounded even when the queue is never empty.
const MAX_GROUP_WRITES: usize = 50_000;

/// The first 16 bytes of every SQLite database. Checked before SQLite touches the file, so that
/// a file of another kind is refused without SQLite ever writing to it.
const SQLITE_HEADER: &[u8; 16] = b"SQLite format 3\0";

/// `PRAGMA synchronous` reports FULL as 2.
const SYNCHRONOUS_FULL: i64 = 2;

/// The schema of format 2. STRICT tables and CHECKs make SQLite itself refuse a value of the
/// wrong type or size, so a bug elsewhere cannot store what a later read would reject; foreign
/// keys make a write for a table that was never created fail instead of leaving orphans.
const SCHEMA: &str = "
CREATE TABLE meta (
    key TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
) STRICT;
CREATE TABLE tables (
    id TEXT PRIMARY KEY NOT NULL,
    system TEXT NOT NULL,
    name TEXT NOT NULL,
    options_json TEXT NOT NULL,
    created_ms INTEGER NOT NULL CHECK (created_ms >= 0)
) STRICT;
CREATE TABLE seats (
    table_id TEXT NOT NULL REFERENCES tables (id),
    seat_id TEXT NOT NULL,
    name TEXT NOT NULL,
    role TEXT NOT NULL,
    token_hash BLOB NOT NULL CHECK (length(token_hash) = 32),
    revoked INTEGER NOT NULL CHECK (revoked IN (0, 1)),
    PRIMARY KEY (table_id, seat_id)
) STRICT;
CREATE TABLE invites (
    table_id TEXT NOT NULL REFERENCES tables (id),
    code_hash BLOB NOT NULL CHECK (length(code_hash) = 32),
    role TEXT NOT NULL,
    used_by TEXT,
    PRIMARY KEY (table_id, code_hash)
) STRICT;
CREATE TABLE events (
    table_id TEXT NOT NULL REFERENCES tables (id),
    seq INTEGER NOT NULL CHECK (seq >= 1),
    version INTEGER NOT NULL CHECK (version >= 0),
    at_ms INTEGER NOT NULL CHECK (at_ms >= 0),
    parts BLOB NOT NULL,
    link BLOB NOT NULL CHECK (length(link) = 32),
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID, STRICT;
CREATE TABLE epoch_secrets (
    table_id TEXT NOT NULL REFERENCES tables (id),
    epoch INTEGER NOT NULL CHECK (epoch >= 0),
    seed BLOB NOT NULL CHECK (length(seed) = 32),
    test_seed INTEGER NOT NULL CHECK (test_seed IN (0, 1)),
    PRIMARY KEY (table_id, epoch)
) STRICT;
";

/// Each table's columns in order, and its primary key columns in key order: what an existing
/// file must have for this build to read and write it without misreading.
const EXPECTED_TABLES: &[(&str, &[&str], &[&str])] = &[
    ("meta", &["key", "value"], &["key"]),
    (
        "tables",
        &["id", "system", "name", "options_json", "created_ms"],
        &["id"],
    ),
    (
        "seats",
        &[
            "table_id",
            "seat_id",
            "name",
            "role",
            "token_hash",
            "revoked",
        ],
        &["table_id", "seat_id"],
    ),
    (
        "invites",
        &["table_id", "code_hash", "role", "used_by"],
        &["table_id", "code_hash"],
    ),
    (
        "events",
        &["table_id", "seq", "version", "at_ms", "parts", "link"],
        &["table_id", "seq"],
    ),
    (
        "epoch_secrets",
        &["table_id", "epoch", "seed", "test_seed"],
        &["table_id", "epoch"],
    ),
];

/// One submitted batch and where its outcome goes.
struct Job {
    writes: Vec<Write>,
    reply: oneshot::Sender<Result<(), StoreError>>,
}

/// The SQLite-backed store. Share it behind an `Arc`; [`SqliteStore::close`] (or dropping the
/// last handle) lets the writer finish what is queued before the file is closed.
pub struct SqliteStore {
    /// `None` only once shutdown has begun; dropping it is what tells the writer to finish.
    writer: Option<mpsc::Sender<Job>>,
    thread: Option<JoinHandle<Result<(), StoreError>>>,
    reader: Mutex<Connection>,
    counters: SharedCounters,
    path: String,
    durability: (String, i64),
}

impl std::fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteStore")
            .field("path", &self.path)
            .field("durability", &self.durability)
            .finish_non_exhaustive()
    }
}

impl SqliteStore {
    /// Opens (creating if absent) the file, checks it, and starts the writer thread.
    ///
    /// Nothing is written to an existing file until it is known to be a Tablehold file of a
    /// format this build understands, so pointing `--data` at the wrong file cannot damage it.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let name = path.display().to_string();
        check_header(path, &name)?;

        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let mut writer = Connection::open_with_flags(path, flags).map_err(|e| map_err(&name, e))?;
        writer
            .busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| map_err(&name, e))?;
        // Switching to WAL rewrites the file header, so a foreign or newer file must be refused
        // before the pragmas run.
        inspect(&writer, &name)?;
        let durability = configure(&writer, &name)?;
        create_or_check_schema(&mut writer, &name)?;

        // Opened only now: the file exists and has the schema, so the reader never creates it.
        let reader = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| map_err(&name, e))?;
        reader
            .busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| map_err(&name, e))?;
        configure(&reader, &name)?;
        // The reader must never write: every write has to go through the writer's group commit.
        reader
            .execute_batch("PRAGMA query_only = ON")
            .map_err(|e| map_err(&name, e))?;

        let counters = SharedCounters::default();
        let (sender, receiver) = mpsc::channel();
        let thread = {
            let counters = counters.clone();
            let thread_name = name.clone();
            std::thread::Builder::new()
                .name("tablehold-store".to_owned())
                .spawn(move || run_writer(writer, receiver, &counters, &thread_name))
                .map_err(|e| StoreError::Io {
                    path: name.clone(),
                    detail: format!("cannot start the store's writer thread: {e}"),
                })?
        };

        Ok(SqliteStore {
            writer: Some(sender),
            thread: Some(thread),
            reader: Mutex::new(reader),
            counters,
            path: name,
            durability,
        })
    }

    /// Queues a batch; the receiver resolves after the commit that made it durable (or with the
    /// error that prevented it). Never blocks the caller (it is called from async tasks).
    ///
    /// The batch is all or nothing: on error none of its writes is stored. Batches are written
    /// in submission order, so a table that pipelines batches sees them land in order. An
    /// empty batch resolves once everything submitted before it is durable.
    pub fn submit(&self, batch: Vec<Write>) -> oneshot::Receiver<Result<(), StoreError>> {
        let (reply, receiver) = oneshot::channel();
        let job = Job {
            writes: batch,
            reply,
        };
        match &self.writer {
            Some(writer) => {
                if let Err(mpsc::SendError(job)) = writer.send(job) {
                    let _ = job.reply.send(Err(StoreError::Closed));
                }
            }
            None => {
                let _ = job.reply.send(Err(StoreError::Closed));
            }
        }
        receiver
    }

    /// Everything stored about `table`, read in one snapshot so that the events, seats and
    /// epochs agree with each other even while the writer commits. Seats come in seat id order,
    /// invites in code hash order.
    pub fn load_table(&self, table: &str) -> Result<Option<LoadedTable>, StoreError> {
        let path = self.path.as_str();
        let mut conn = self.reader();
        let tx = conn.transaction().map_err(|e| map_err(path, e))?;

        let record = {
            let mut stmt = tx
                .prepare_cached(
                    "SELECT id, system, name, options_json, created_ms FROM tables WHERE id = ?1",
                )
                .map_err(|e| map_err(path, e))?;
            let mut rows = stmt.query(params![table]).map_err(|e| map_err(path, e))?;
            match rows.next().map_err(|e| read_err(path, e))? {
                Some(row) => table_from_row(row, path)?,
                None => return Ok(None),
            }
        };

        let mut seats = Vec::new();
        {
            let mut stmt = tx
                .prepare_cached(
                    "SELECT table_id, seat_id, name, role, token_hash, revoked FROM seats \
                     WHERE table_id = ?1 ORDER BY seat_id",
                )
                .map_err(|e| map_err(path, e))?;
            let mut rows = stmt.query(params![table]).map_err(|e| map_err(path, e))?;
            while let Some(row) = rows.next().map_err(|e| read_err(path, e))? {
                seats.push(seat_from_row(row, path)?);
            }
        }

        let mut invites = Vec::new();
        {
            let mut stmt = tx
                .prepare_cached(
                    "SELECT table_id, code_hash, role, used_by FROM invites \
                     WHERE table_id = ?1 ORDER BY code_hash",
                )
                .map_err(|e| map_err(path, e))?;
            let mut rows = stmt.query(params![table]).map_err(|e| map_err(path, e))?;
            while let Some(row) = rows.next().map_err(|e| read_err(path, e))? {
                invites.push(invite_from_row(row, path)?);
            }
        }

        let events = query_events(&tx, path, table, 0, i64::MAX)?;

        let mut epochs = Vec::new();
        {
            let mut stmt = tx
                .prepare_cached(
                    "SELECT table_id, epoch, seed, test_seed FROM epoch_secrets \
                     WHERE table_id = ?1 ORDER BY epoch",
                )
                .map_err(|e| map_err(path, e))?;
            let mut rows = stmt.query(params![table]).map_err(|e| map_err(path, e))?;
            while let Some(row) = rows.next().map_err(|e| read_err(path, e))? {
                epochs.push(epoch_from_row(row, path)?);
            }
        }

        tx.commit().map_err(|e| map_err(path, e))?;
        Ok(Some(LoadedTable {
            table: record,
            seats,
            invites,
            events,
            epochs,
        }))
    }

    /// Events of `table` with seq > after, in order, at most `limit`.
    ///
    /// Paging with a limit keeps a reconnecting client's catch-up from holding the reader for
    /// the whole log at once.
    pub fn events_after(
        &self,
        table: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<EventRecord>, StoreError> {
        // Clamping is exact here, not a wrap: no stored seq exceeds i64::MAX, so "after a larger
        // number" and "more than i64::MAX of them" mean the same as the clamped values.
        let after = i64::try_from(after).unwrap_or(i64::MAX);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let conn = self.reader();
        query_events(&conn, &self.path, table, after, limit)
    }

    /// Every table id, in id order: what a server can offer or preload without loading logs.
    pub fn table_ids(&self) -> Result<Vec<String>, StoreError> {
        let path = self.path.as_str();
        let conn = self.reader();
        let mut stmt = conn
            .prepare_cached("SELECT id FROM tables ORDER BY id")
            .map_err(|e| map_err(path, e))?;
        let mut rows = stmt.query([]).map_err(|e| map_err(path, e))?;
        let mut ids = Vec::new();
        while let Some(row) = rows.next().map_err(|e| read_err(path, e))? {
            ids.push(row.get::<_, String>(0).map_err(|e| read_err(path, e))?);
        }
        Ok(ids)
    }

    /// The writer's counters, shared: they keep counting after this call.
    pub fn counters(&self) -> SharedCounters {
        self.counters.clone()
    }

    /// The writer connection's `journal_mode` and `synchronous` as SQLite reported them after
    /// they were set at open, so that a caller (or a test) can see what durability it got
    /// instead of trusting that the pragmas took effect. Open fails unless they are `wal`
    /// and 2 (FULL).
    pub fn durability(&self) -> (String, i64) {
        self.durability.clone()
    }

    /// The file this store writes, as it appears in error messages.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Stops accepting, lets the writer commit everything queued, joins the thread.
    ///
    /// Dropping the store does the same, but only `close` reports a failure to close the file.
    pub fn close(mut self) -> Result<(), StoreError> {
        self.shutdown()
    }

    fn shutdown(&mut self) -> Result<(), StoreError> {
        // The writer drains the queue and then sees the channel closed.
        drop(self.writer.take());
        match self.thread.take() {
            Some(thread) => match thread.join() {
                Ok(result) => result,
                Err(_) => Err(StoreError::Io {
                    path: self.path.clone(),
                    detail: "the store's writer thread panicked".to_owned(),
                }),
            },
            None => Ok(()),
        }
    }

    /// The reader connection. A panic while it was held leaves nothing half-done that matters
    /// (an open read transaction is rolled back here), so poisoning is not fatal.
    fn reader(&self) -> MutexGuard<'_, Connection> {
        let conn = self.reader.lock().unwrap_or_else(PoisonError::into_inner);
        if !conn.is_autocommit() {
            let _ = conn.execute_batch("ROLLBACK");
        }
        conn
    }
}

impl Drop for SqliteStore {
    /// Waits for the writer so that every batch already submitted is committed (and its
    /// receiver answered) before the store is gone.
    fn drop(&mut self) {
        let _ = self.shutdown();
    }
}

/// Refuses a file that is not empty and does not start like a SQLite database, before SQLite
/// opens it: SQLite would refuse it too, but only after we had asked it for a connection.
fn check_header(path: &Path, name: &str) -> Result<(), StoreError> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => {
            return Err(StoreError::Io {
                path: name.to_owned(),
                detail: format!("cannot read the file: {e}"),
            });
        }
    };
    let mut head = Vec::with_capacity(SQLITE_HEADER.len());
    file.take(SQLITE_HEADER.len() as u64)
        .read_to_end(&mut head)
        .map_err(|e| StoreError::Io {
            path: name.to_owned(),
            detail: format!("cannot read the file: {e}"),
        })?;
    if head.is_empty() || head.as_slice() == SQLITE_HEADER.as_slice() {
        Ok(())
    } else {
        Err(StoreError::Corrupt {
            path: name.to_owned(),
            detail: "it is not a SQLite database (its first bytes are not the SQLite header)"
                .to_owned(),
        })
    }
}

/// What an existing file holds, as far as opening it is concerned.
#[derive(Debug, PartialEq, Eq)]
enum FileState {
    /// No schema at all: a new or empty file, ours to initialize.
    Empty,
    /// A Tablehold file of a format this build reads.
    Tablehold,
}

/// Classifies the file without writing to it.
fn inspect(conn: &Connection, name: &str) -> Result<FileState, StoreError> {
    let corrupt = |detail: String| StoreError::Corrupt {
        path: name.to_owned(),
        detail,
    };
    let mut tables = Vec::new();
    {
        let mut stmt = conn
            .prepare(
                "SELECT name FROM sqlite_master WHERE type = 'table' \
                 AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
            )
            .map_err(|e| map_err(name, e))?;
        let mut rows = stmt.query([]).map_err(|e| map_err(name, e))?;
        while let Some(row) = rows.next().map_err(|e| read_err(name, e))? {
            tables.push(row.get::<_, String>(0).map_err(|e| read_err(name, e))?);
        }
    }
    if tables.is_empty() {
        let objects: i64 = conn
            .query_row("SELECT count(*) FROM sqlite_master", [], |row| row.get(0))
            .map_err(|e| read_err(name, e))?;
        return if objects == 0 {
            Ok(FileState::Empty)
        } else {
            Err(corrupt(
                "it holds views, indexes or triggers of another application".to_owned(),
            ))
        };
    }
    if !tables.iter().any(|t| t == "meta") {
        return Err(corrupt(format!(
            "it has no Tablehold `meta` table; it holds another application's tables ({})",
            tables.join(", ")
        )));
    }

    // The version decides how to read the rest, so it is checked before the columns.
    let version: Option<String> = conn
        .query_row(
            "SELECT value FROM meta WHERE key = 'format_version'",
            [],
            |row| row.get(0),
        )
        .optional()
        .map_err(|e| read_err(name, e))?;
    let Some(version) = version else {
        return Err(corrupt("`meta` has no format_version".to_owned()));
    };
    let found: u32 = version
        .trim()
        .parse()
        .map_err(|_| corrupt(format!("format_version `{version}` is not a number")))?;
    if found > FORMAT_VERSION {
        return Err(StoreError::NewerFormat {
            path: name.to_owned(),
            found,
        });
    }
    if found == 0 {
        return Err(corrupt("format_version 0 was never written".to_owned()));
    }
    if found < FORMAT_VERSION {
        return Err(StoreError::OlderFormat {
            path: name.to_owned(),
            found,
        });
    }

    for (table, columns, key) in EXPECTED_TABLES {
        let mut stmt = conn
            .prepare("SELECT name, pk FROM pragma_table_info(?1) ORDER BY cid")
            .map_err(|e| map_err(name, e))?;
        let mut rows = stmt.query(params![table]).map_err(|e| map_err(name, e))?;
        let mut found_columns = Vec::new();
        let mut found_key = Vec::new();
        while let Some(row) = rows.next().map_err(|e| read_err(name, e))? {
            let column: String = row.get(0).map_err(|e| read_err(name, e))?;
            let pk: i64 = row.get(1).map_err(|e| read_err(name, e))?;
            if pk > 0 {
                found_key.push((pk, column.clone()));
            }
            found_columns.push(column);
        }
        found_key.sort();
        let found_key: Vec<&str> = found_key.iter().map(|(_, c)| c.as_str()).collect();
        if found_columns.is_empty() {
            return Err(corrupt(format!("table `{table}` is missing")));
        }
        if found_columns != *columns || found_key != *key {
            return Err(corrupt(format!(
                "table `{table}` has columns ({}) with key ({}), expected ({}) with key ({})",
                found_columns.join(", "),
                found_key.join(", "),
                columns.join(", "),
                key.join(", ")
            )));
        }
    }
    Ok(FileState::Tablehold)
}

/// Sets the pragmas every connection needs and reads them back: SQLite ignores a journal mode
/// it cannot use (some network file systems) and reports the mode it kept, so only the read
/// back value says whether a commit is really durable.
fn configure(conn: &Connection, name: &str) -> Result<(String, i64), StoreError> {
    conn.execute_batch(
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;",
    )
    .map_err(|e| map_err(name, e))?;
    let journal_mode: String = conn
        .query_row("PRAGMA journal_mode", [], |row| row.get(0))
        .map_err(|e| read_err(name, e))?;
    let synchronous: i64 = conn
        .query_row("PRAGMA synchronous", [], |row| row.get(0))
        .map_err(|e| read_err(name, e))?;
    let foreign_keys: i64 = conn
        .query_row("PRAGMA foreign_keys", [], |row| row.get(0))
        .map_err(|e| read_err(name, e))?;
    let journal_mode = journal_mode.to_ascii_lowercase();
    if journal_mode != "wal" {
        return Err(StoreError::Durability {
            path: name.to_owned(),
            setting: "journal_mode=WAL".to_owned(),
            got: journal_mode,
        });
    }
    if synchronous != SYNCHRONOUS_FULL {
        return Err(StoreError::Durability {
            path: name.to_owned(),
            setting: "synchronous=FULL".to_owned(),
            got: synchronous.to_string(),
        });
    }
    if foreign_keys != 1 {
        return Err(StoreError::Io {
            path: name.to_owned(),
            detail: format!("SQLite refused `foreign_keys=ON` (got `{foreign_keys}`)"),
        });
    }
    Ok((journal_mode, synchronous))
}

/// Creates the schema in a new file, or checks it again, under the write lock: two processes
/// opening the same new file cannot both create it, and what was inspected cannot change
/// before it is used.
fn create_or_check_schema(conn: &mut Connection, name: &str) -> Result<(), StoreError> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(|e| map_err(name, e))?;
    if inspect(&tx, name)? == FileState::Empty {
        tx.execute_batch(SCHEMA).map_err(|e| map_err(name, e))?;
        tx.execute(
            "INSERT INTO meta (key, value) VALUES ('format_version', ?1)",
            params![FORMAT_VERSION.to_string()],
        )
        .map_err(|e| map_err(name, e))?;
    }
    tx.commit().map_err(|e| map_err(name, e))
}

/// The writer thread: one group per wake-up, one transaction per group.
fn run_writer(
    mut conn: Connection,
    jobs: mpsc::Receiver<Job>,
    counters: &SharedCounters,
    name: &str,
) -> Result<(), StoreError> {
    while let Ok(first) = jobs.recv() {
        let mut size = first.writes.len();
        let mut group = vec![first];
        while size < MAX_GROUP_WRITES {
            match jobs.try_recv() {
                Ok(job) => {
                    size += job.writes.len();
                    group.push(job);
                }
                Err(_) => break,
            }
        }
        commit_group(&mut conn, name, counters, group);
    }
    conn.close().map_err(|(_, e)| map_err(name, e))
}

/// Commits a group at once; if that fails, commits each batch alone so that one bad batch
/// (a conflicting seq, a missing table) fails only its own caller.
fn commit_group(conn: &mut Connection, name: &str, counters: &SharedCounters, mut group: Vec<Job>) {
    let batches: Vec<&[Write]> = group.iter().map(|job| job.writes.as_slice()).collect();
    let result = commit(conn, name, &batches);
    if result.is_ok() {
        count_commit(counters, &batches);
        for job in group {
            let _ = job.reply.send(Ok(()));
        }
        return;
    }
    if group.len() == 1 {
        // Retrying alone would only repeat the same transaction.
        if let Some(job) = group.pop() {
            let _ = job.reply.send(result);
        }
        return;
    }
    for job in group {
        let batch = [job.writes.as_slice()];
        let result = commit(conn, name, &batch);
        if result.is_ok() {
            count_commit(counters, &batch);
        }
        let _ = job.reply.send(result);
    }
}

fn count_commit(counters: &SharedCounters, batches: &[&[Write]]) {
    let writes = batches.iter().map(|b| b.len() as u64).sum::<u64>();
    let events = batches
        .iter()
        .flat_map(|b| b.iter())
        .filter(|w| matches!(w, Write::Event(_)))
        .count() as u64;
    counters.commits.fetch_add(1, Ordering::Relaxed);
    counters.events.fetch_add(events, Ordering::Relaxed);
    counters.writes.fetch_add(writes, Ordering::Relaxed);
}

/// One transaction for all `batches`: all of them are durable when this returns `Ok`, none of
/// them is stored when it returns `Err`.
fn commit(conn: &mut Connection, name: &str, batches: &[&[Write]]) -> Result<(), StoreError> {
    // A rollback that failed earlier would make BEGIN fail for every later group.
    if !conn.is_autocommit() {
        let _ = conn.execute_batch("ROLLBACK");
    }
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(|e| map_err(name, e))?;
    for write in batches.iter().flat_map(|b| b.iter()) {
        apply(&tx, name, write)?;
    }
    tx.commit().map_err(|e| map_err(name, e))
}

fn apply(conn: &Connection, name: &str, write: &Write) -> Result<(), StoreError> {
    match write {
        Write::CreateTable(t) => {
            let created_ms = to_i64(name, "created_ms", t.created_ms)?;
            conn.prepare_cached(
                "INSERT INTO tables (id, system, name, options_json, created_ms) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .and_then(|mut stmt| {
                stmt.execute(params![t.id, t.system, t.name, t.options_json, created_ms])
            })
            .map_err(|e| write_err(name, e, || format!("table {} already exists", t.id)))?;
        }
        Write::Seat(s) => {
            conn.prepare_cached(
                "INSERT OR REPLACE INTO seats (table_id, seat_id, name, role, token_hash, revoked) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )
            .and_then(|mut stmt| {
                stmt.execute(params![
                    s.table,
                    s.seat,
                    s.name,
                    s.role,
                    s.token_hash.as_slice(),
                    i64::from(s.revoked)
                ])
            })
            .map_err(|e| write_err(name, e, String::new))?;
        }
        Write::Invite(i) => {
            conn.prepare_cached(
                "INSERT OR REPLACE INTO invites (table_id, code_hash, role, used_by) \
                 VALUES (?1, ?2, ?3, ?4)",
            )
            .and_then(|mut stmt| {
                stmt.execute(params![i.table, i.code_hash.as_slice(), i.role, i.used_by])
            })
            .map_err(|e| write_err(name, e, String::new))?;
        }
        Write::Event(e) => append_event(conn, name, e)?,
        Write::Epoch(s) => {
            let epoch = to_i64(name, "epoch", s.epoch)?;
            conn.prepare_cached(
                "INSERT INTO epoch_secrets (table_id, epoch, seed, test_seed) \
                 VALUES (?1, ?2, ?3, ?4)",
            )
            .and_then(|mut stmt| {
                stmt.execute(params![
                    s.table,
                    epoch,
                    s.seed.as_slice(),
                    i64::from(s.test_seed)
                ])
            })
            .map_err(|e| {
                write_err(name, e, || {
                    format!("table {}: epoch {} already has a seed", s.table, s.epoch)
                })
            })?;
        }
    }
    Ok(())
}

/// Appends one event, refusing anything but the next seq of its table: a duplicate means
/// another writer owns the table, and a gap means an earlier batch of this table failed (its
/// task will rebuild from the log) — storing past either would fork or hole the log.
fn append_event(conn: &Connection, name: &str, e: &EventRecord) -> Result<(), StoreError> {
    let seq = to_i64(name, "seq", e.seq)?;
    let at_ms = to_i64(name, "at_ms", e.at_ms)?;
    let last: Option<i64> = conn
        .prepare_cached("SELECT max(seq) FROM events WHERE table_id = ?1")
        .and_then(|mut stmt| stmt.query_row(params![e.table], |row| row.get(0)))
        .map_err(|err| read_err(name, err))?;
    let last = last.unwrap_or(0);
    if seq <= last {
        return Err(StoreError::Conflict {
            table: e.table.clone(),
            seq: e.seq,
        });
    }
    if seq != last + 1 {
        return Err(StoreError::Io {
            path: name.to_owned(),
            detail: format!(
                "table {}: event {} would leave a gap after event {last}; the table must be \
                 reloaded from its log",
                e.table, e.seq
            ),
        });
    }
    let result = conn
        .prepare_cached(
            "INSERT INTO events (table_id, seq, version, at_ms, parts, link) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )
        .and_then(|mut stmt| {
            stmt.execute(params![
                e.table,
                seq,
                i64::from(e.version),
                at_ms,
                e.parts,
                e.link.as_slice()
            ])
        });
    match result {
        Ok(_) => Ok(()),
        Err(err) if err.sqlite_extended_error_code() == Some(ffi::SQLITE_CONSTRAINT_PRIMARYKEY) => {
            Err(StoreError::Conflict {
                table: e.table.clone(),
                seq: e.seq,
            })
        }
        Err(err) => Err(write_err(name, err, String::new)),
    }
}

/// Up to `limit` events of `table` after `after`, in seq order. Shared by paging and loading so
/// both decode (and validate) rows the same way.
fn query_events(
    conn: &Connection,
    name: &str,
    table: &str,
    after: i64,
    limit: i64,
) -> Result<Vec<EventRecord>, StoreError> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT table_id, seq, version, at_ms, parts, link FROM events \
             WHERE table_id = ?1 AND seq > ?2 ORDER BY seq LIMIT ?3",
        )
        .map_err(|e| map_err(name, e))?;
    let mut rows = stmt
        .query(params![table, after, limit])
        .map_err(|e| map_err(name, e))?;
    let mut events = Vec::new();
    while let Some(row) = rows.next().map_err(|e| read_err(name, e))? {
        events.push(event_from_row(row, name)?);
    }
    Ok(events)
}

fn table_from_row(row: &Row<'_>, name: &str) -> Result<TableRecord, StoreError> {
    let get_err = |e| read_err(name, e);
    Ok(TableRecord {
        id: row.get(0).map_err(get_err)?,
        system: row.get(1).map_err(get_err)?,
        name: row.get(2).map_err(get_err)?,
        options_json: row.get(3).map_err(get_err)?,
        created_ms: to_u64(name, "created_ms", row.get(4).map_err(get_err)?)?,
    })
}

fn seat_from_row(row: &Row<'_>, name: &str) -> Result<SeatRecord, StoreError> {
    let get_err = |e| read_err(name, e);
    Ok(SeatRecord {
        table: row.get(0).map_err(get_err)?,
        seat: row.get(1).map_err(get_err)?,
        name: row.get(2).map_err(get_err)?,
        role: row.get(3).map_err(get_err)?,
        token_hash: to_hash(name, "a seat's token hash", row.get(4).map_err(get_err)?)?,
        revoked: to_bool(name, "a seat's revoked flag", row.get(5).map_err(get_err)?)?,
    })
}

fn invite_from_row(row: &Row<'_>, name: &str) -> Result<InviteRecord, StoreError> {
    let get_err = |e| read_err(name, e);
    Ok(InviteRecord {
        table: row.get(0).map_err(get_err)?,
        code_hash: to_hash(name, "an invite's code hash", row.get(1).map_err(get_err)?)?,
        role: row.get(2).map_err(get_err)?,
        used_by: row.get(3).map_err(get_err)?,
    })
}

fn event_from_row(row: &Row<'_>, name: &str) -> Result<EventRecord, StoreError> {
    let get_err = |e| read_err(name, e);
    let version: i64 = row.get(2).map_err(get_err)?;
    Ok(EventRecord {
        table: row.get(0).map_err(get_err)?,
        seq: to_u64(name, "an event's seq", row.get(1).map_err(get_err)?)?,
        version: u32::try_from(version).map_err(|_| StoreError::Corrupt {
            path: name.to_owned(),
            detail: format!("an event's version {version} is out of range"),
        })?,
        at_ms: to_u64(name, "an event's at_ms", row.get(3).map_err(get_err)?)?,
        parts: row.get(4).map_err(get_err)?,
        link: to_hash(name, "an event's link", row.get(5).map_err(get_err)?)?,
    })
}

fn epoch_from_row(row: &Row<'_>, name: &str) -> Result<EpochSecret, StoreError> {
    let get_err = |e| read_err(name, e);
    Ok(EpochSecret {
        table: row.get(0).map_err(get_err)?,
        epoch: to_u64(name, "an epoch number", row.get(1).map_err(get_err)?)?,
        seed: to_hash(name, "an epoch seed", row.get(2).map_err(get_err)?)?,
        test_seed: to_bool(
            name,
            "an epoch's test_seed flag",
            row.get(3).map_err(get_err)?,
        )?,
    })
}

/// SQLite integers are signed; a larger value is refused rather than stored wrapped, which
/// would read back as a different (negative) number.
fn to_i64(name: &str, what: &str, value: u64) -> Result<i64, StoreError> {
    i64::try_from(value).map_err(|_| StoreError::Io {
        path: name.to_owned(),
        detail: format!(
            "{what} {value} is larger than the store can hold ({})",
            i64::MAX
        ),
    })
}

/// Every u64 was stored through [`to_i64`], so a negative value was not written by Tablehold.
fn to_u64(name: &str, what: &str, value: i64) -> Result<u64, StoreError> {
    u64::try_from(value).map_err(|_| StoreError::Corrupt {
        path: name.to_owned(),
        detail: format!("{what} is negative ({value})"),
    })
}

fn to_hash(name: &str, what: &str, value: Vec<u8>) -> Result<[u8; 32], StoreError> {
    <[u8; 32]>::try_from(value.as_slice()).map_err(|_| StoreError::Corrupt {
        path: name.to_owned(),
        detail: format!("{what} is {} bytes, expected 32", value.len()),
    })
}

fn to_bool(name: &str, what: &str, value: i64) -> Result<bool, StoreError> {
    match value {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(StoreError::Corrupt {
            path: name.to_owned(),
            detail: format!("{what} is {value}, expected 0 or 1"),
        }),
    }
}

/// Maps a SQLite failure to what the operator can act on.
fn map_err(name: &str, e: rusqlite::Error) -> StoreError {
    match e.sqlite_error_code() {
        Some(ffi::ErrorCode::DiskFull) => StoreError::DiskFull {
            path: name.to_owned(),
        },
        Some(ffi::ErrorCode::NotADatabase | ffi::ErrorCode::DatabaseCorrupt) => {
            StoreError::Corrupt {
                path: name.to_owned(),
                detail: e.to_string(),
            }
        }
        _ => StoreError::Io {
            path: name.to_owned(),
            detail: e.to_string(),
        },
    }
}

/// Like [`map_err`], but a value of the wrong type in a row we read means the file was not
/// written by this schema: that is corruption, not an I/O problem.
fn read_err(name: &str, e: rusqlite::Error) -> StoreError {
    match e {
        rusqlite::Error::InvalidColumnType(..)
        | rusqlite::Error::FromSqlConversionFailure(..)
        | rusqlite::Error::IntegralValueOutOfRange(..)
        | rusqlite::Error::Utf8Error(..) => StoreError::Corrupt {
            path: name.to_owned(),
            detail: e.to_string(),
        },
        e => map_err(name, e),
    }
}

/// Like [`map_err`], but says which write a constraint refused; `duplicate` explains a primary
/// key collision in the caller's terms when the write has one.
fn write_err(name: &str, e: rusqlite::Error, duplicate: impl FnOnce() -> String) -> StoreError {
    let detail = match e.sqlite_extended_error_code() {
        Some(ffi::SQLITE_CONSTRAINT_PRIMARYKEY) => {
            let why = duplicate();
            if why.is_empty() { e.to_string() } else { why }
        }
        Some(ffi::SQLITE_CONSTRAINT_FOREIGNKEY) => {
            format!("the write names a table that was never created ({e})")
        }
        _ => return map_err(name, e),
    };
    StoreError::Io {
        path: name.to_owned(),
        detail,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use std::sync::{Arc, Barrier};

    fn temp() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("tablehold.db");
        (dir, path)
    }

    fn write(store: &SqliteStore, batch: Vec<Write>) -> Result<(), StoreError> {
        store
            .submit(batch)
            .blocking_recv()
            .expect("the writer answers every batch")
    }

    fn hash(byte: u8) -> [u8; 32] {
        [byte; 32]
    }

    fn table(id: &str) -> TableRecord {
        TableRecord {
            id: id.to_owned(),
            system: "some-system".to_owned(),
            name: format!("{id} night"),
            options_json: r#"{"flanking":true}"#.to_owned(),
            created_ms: 1_700_000_000_000,
        }
    }

    fn seat(table: &str, seat: &str, role: &str, byte: u8) -> SeatRecord {
        SeatRecord {
            table: table.to_owned(),
            seat: seat.to_owned(),
            name: format!("{seat} name"),
            role: role.to_owned(),
            token_hash: hash(byte),
            revoked: false,
        }
    }

    fn invite(table: &str, byte: u8, used_by: Option<&str>) -> InviteRecord {
        InviteRecord {
            table: table.to_owned(),
            code_hash: hash(byte),
            role: "player".to_owned(),
            used_by: used_by.map(str::to_owned),
        }
    }

    fn event(table: &str, seq: u64) -> EventRecord {
        EventRecord {
            table: table.to_owned(),
            seq,
            version: 1,
            at_ms: 1_700_000_000_000 + seq,
            parts: format!("[{seq}]").into_bytes(),
            link: hash(seq as u8),
        }
    }

    fn epoch(table: &str, epoch: u64) -> EpochSecret {
        EpochSecret {
            table: table.to_owned(),
            epoch,
            seed: hash(0x40 + epoch as u8),
            test_seed: epoch == 2,
        }
    }

    /// A full table as its task would write it: created, seated, invited, some events.
    fn sample(id: &str) -> LoadedTable {
        LoadedTable {
            table: table(id),
            seats: vec![seat(id, "gm", "gm", 1), seat(id, "p1", "player", 2)],
            invites: vec![invite(id, 7, Some("p1")), invite(id, 9, None)],
            events: (1..=5).map(|seq| event(id, seq)).collect(),
            epochs: vec![epoch(id, 1), epoch(id, 2)],
        }
    }

    fn writes_of(t: &LoadedTable) -> Vec<Write> {
        let mut writes = vec![Write::CreateTable(t.table.clone())];
        writes.extend(t.seats.iter().cloned().map(Write::Seat));
        writes.extend(t.invites.iter().cloned().map(Write::Invite));
        writes.extend(t.epochs.iter().cloned().map(Write::Epoch));
        writes.extend(t.events.iter().cloned().map(Write::Event));
        writes
    }

    fn bytes(path: &Path) -> Vec<u8> {
        std::fs::read(path).expect("read file")
    }

    fn sibling(path: &Path, suffix: &str) -> PathBuf {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        PathBuf::from(name)
    }

    #[test]
    fn records_round_trip() {
        let (_dir, path) = temp();
        let store = SqliteStore::open(&path).expect("open");
        let expected = sample("t1");
        write(&store, writes_of(&expected)).expect("write");
        assert_eq!(store.load_table("t1").expect("load"), Some(expected));
        assert_eq!(store.load_table("nope").expect("load"), None);
        assert_eq!(store.table_ids().expect("ids"), vec!["t1".to_owned()]);
        let counters = store.counters();
        assert_eq!(counters.snapshot(), (1, 5));
        assert_eq!(counters.writes.load(Ordering::Relaxed), 12);
        store.close().expect("close");
    }

    #[test]
    fn seats_and_invites_are_replaced() {
        let (_dir, path) = temp();
        let store = SqliteStore::open(&path).expect("open");
        let mut expected = sample("t1");
        write(&store, writes_of(&expected)).expect("write");
        expected.seats[1].revoked = true;
        expected.invites[1].used_by = Some("p2".to_owned());
        write(
            &store,
            vec![
                Write::Seat(expected.seats[1].clone()),
                Write::Invite(expected.invites[1].clone()),
            ],
        )
        .expect("replace");
        assert_eq!(store.load_table("t1").expect("load"), Some(expected));
    }

    #[test]
    fn events_after_pages_in_order() {
        let (_dir, path) = temp();
        let store = SqliteStore::open(&path).expect("open");
        write(&store, vec![Write::CreateTable(table("a"))]).expect("create a");
        write(&store, vec![Write::CreateTable(table("b"))]).expect("create b");
        let a: Vec<EventRecord> = (1..=23).map(|seq| event("a", seq)).collect();
        write(&store, a.iter().cloned().map(Write::Event).collect()).expect("a");
        write(&store, vec![Write::Event(event("b", 1))]).expect("b");

        let mut paged = Vec::new();
        let mut after = 0;
        loop {
            let page = store.events_after("a", after, 10).expect("page");
            assert!(page.len() <= 10);
            let Some(last) = page.last() else { break };
            after = last.seq;
            paged.extend(page);
        }
        assert_eq!(paged, a);
        assert_eq!(store.events_after("a", 20, 100).expect("tail"), a[20..]);
        assert!(store.events_after("a", 23, 10).expect("end").is_empty());
        assert!(store.events_after("a", 0, 0).expect("none").is_empty());
        assert!(
            store
                .events_after("a", u64::MAX, 10)
                .expect("far")
                .is_empty()
        );
        assert_eq!(
            store.events_after("b", 0, usize::MAX).expect("b"),
            vec![event("b", 1)]
        );
        assert!(
            store
                .events_after("zzz", 0, 10)
                .expect("unknown")
                .is_empty()
        );
    }

    #[test]
    fn duplicate_seq_fails_only_its_own_batch() {
        let (_dir, path) = temp();
        let store = SqliteStore::open(&path).expect("open");
        write(
            &store,
            vec![
                Write::CreateTable(table("t")),
                Write::CreateTable(table("u")),
                Write::Event(event("t", 1)),
            ],
        )
        .expect("setup");
        let commits_before = store.counters().snapshot().0;

        // Hold the write lock from another connection so that the batches below queue up
        // behind a blocked writer and are drained into one group.
        let blocker = Connection::open(&path).expect("blocker");
        blocker
            .execute_batch("BEGIN IMMEDIATE")
            .expect("take write lock");
        let mut held = store.submit(vec![Write::Event(event("u", 1))]);
        std::thread::sleep(Duration::from_millis(200));
        let (good1, dup, good2, inner_dup) = std::thread::scope(|s| {
            let good1 = s.spawn(|| store.submit(vec![Write::Event(event("t", 2))]));
            let good1 = good1.join().expect("thread");
            let dup = s.spawn(|| store.submit(vec![Write::Event(event("t", 1))]));
            let dup = dup.join().expect("thread");
            let good2 = s.spawn(|| store.submit(vec![Write::Event(event("u", 2))]));
            let good2 = good2.join().expect("thread");
            // A duplicate of a seq that an earlier batch of the same group wrote.
            let inner_dup = s.spawn(|| store.submit(vec![Write::Event(event("t", 2))]));
            (good1, dup, good2, inner_dup.join().expect("thread"))
        });
        std::thread::sleep(Duration::from_millis(100));
        // The writer is still stuck on the held batch, so the four above were all queued when
        // it next drained the channel: they form one group.
        assert!(matches!(
            held.try_recv(),
            Err(oneshot::error::TryRecvError::Empty)
        ));
        blocker.execute_batch("ROLLBACK").expect("release");

        held.blocking_recv().expect("answer").expect("held batch");
        good1.blocking_recv().expect("answer").expect("good batch");
        good2.blocking_recv().expect("answer").expect("good batch");
        match dup.blocking_recv().expect("answer") {
            Err(StoreError::Conflict { table, seq }) => assert_eq!((table.as_str(), seq), ("t", 1)),
            other => panic!("expected a conflict, got {other:?}"),
        }
        match inner_dup.blocking_recv().expect("answer") {
            Err(StoreError::Conflict { table, seq }) => assert_eq!((table.as_str(), seq), ("t", 2)),
            other => panic!("expected a conflict, got {other:?}"),
        }
        // The held batch alone, then the group of four failed and was retried batch by batch:
        // two of them committed.
        assert_eq!(store.counters().snapshot().0, commits_before + 3);
        let t = store.load_table("t").expect("load").expect("t");
        assert_eq!(t.events, vec![event("t", 1), event("t", 2)]);
        let u = store.load_table("u").expect("load").expect("u");
        assert_eq!(u.events, vec![event("u", 1), event("u", 2)]);
    }

    #[test]
    fn failed_batch_stores_nothing_and_leaves_no_gap() {
        let (_dir, path) = temp();
        let store = SqliteStore::open(&path).expect("open");
        write(
            &store,
            vec![Write::CreateTable(table("t")), Write::Event(event("t", 1))],
        )
        .expect("setup");

        let mut too_big = event("t", 3);
        too_big.at_ms = u64::MAX;
        let err = write(
            &store,
            vec![Write::Event(event("t", 2)), Write::Event(too_big)],
        )
        .expect_err("u64::MAX does not fit");
        assert!(matches!(&err, StoreError::Io { detail, .. } if detail.contains("at_ms")));

        // Seq 2 was rolled back with its batch, so seq 3 would leave a hole.
        let err = write(&store, vec![Write::Event(event("t", 3))]).expect_err("gap");
        assert!(matches!(&err, StoreError::Io { detail, .. } if detail.contains("gap")));

        let err = write(&store, vec![Write::Event(event("ghost", 1))]).expect_err("no table");
        assert!(matches!(err, StoreError::Io { .. }));
        let err = write(&store, vec![Write::CreateTable(table("t"))]).expect_err("twice");
        assert!(matches!(&err, StoreError::Io { detail, .. } if detail.contains("already exists")));
        write(&store, vec![Write::Epoch(epoch("t", 1))]).expect("epoch");
        let err = write(&store, vec![Write::Epoch(epoch("t", 1))]).expect_err("epoch twice");
        assert!(matches!(&err, StoreError::Io { detail, .. } if detail.contains("epoch 1")));

        let t = store.load_table("t").expect("load").expect("t");
        assert_eq!(t.events, vec![event("t", 1)]);
        assert_eq!(t.epochs, vec![epoch("t", 1)]);
        write(&store, vec![Write::Event(event("t", 2))]).expect("the next seq still works");
    }

    #[test]
    fn concurrent_burst_is_group_committed() {
        const THREADS: usize = 8;
        const PER_THREAD: u64 = 25;
        let (_dir, path) = temp();
        let store = SqliteStore::open(&path).expect("open");
        let ids: Vec<String> = (0..THREADS).map(|i| format!("t{i}")).collect();
        write(
            &store,
            ids.iter().map(|id| Write::CreateTable(table(id))).collect(),
        )
        .expect("tables");
        let (commits_before, events_before) = store.counters().snapshot();

        let barrier = Barrier::new(THREADS);
        std::thread::scope(|s| {
            for id in &ids {
                let (store, barrier) = (&store, &barrier);
                s.spawn(move || {
                    barrier.wait();
                    let receivers: Vec<_> = (1..=PER_THREAD)
                        .map(|seq| store.submit(vec![Write::Event(event(id, seq))]))
                        .collect();
                    for receiver in receivers {
                        receiver.blocking_recv().expect("answer").expect("durable");
                    }
                });
            }
        });

        let (commits, events) = store.counters().snapshot();
        let (commits, events) = (commits - commits_before, events - events_before);
        let batches = THREADS as u64 * PER_THREAD;
        assert_eq!(events, batches);
        assert!(
            commits < batches,
            "{commits} commits for {batches} batches: no group commit"
        );
        eprintln!(
            "burst: {batches} events in {commits} commits, {:.1} events per commit",
            events as f64 / commits as f64
        );
        store.close().expect("close");

        let store = SqliteStore::open(&path).expect("reopen");
        for id in &ids {
            let events = store.events_after(id, 0, 1000).expect("events");
            assert_eq!(
                events,
                (1..=PER_THREAD)
                    .map(|seq| event(id, seq))
                    .collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn reopen_after_close_sees_everything() {
        let (_dir, path) = temp();
        let store = SqliteStore::open(&path).expect("open");
        let a = sample("a");
        let b = sample("b");
        // Submitted and not awaited: close must still commit them.
        let ra = store.submit(writes_of(&a));
        let rb = store.submit(writes_of(&b));
        store.close().expect("close");
        ra.blocking_recv().expect("answer").expect("a");
        rb.blocking_recv().expect("answer").expect("b");

        let store = SqliteStore::open(&path).expect("reopen");
        assert_eq!(store.counters().snapshot(), (0, 0));
        assert_eq!(store.table_ids().expect("ids"), vec!["a", "b"]);
        assert_eq!(store.load_table("a").expect("load"), Some(a));
        assert_eq!(store.load_table("b").expect("load"), Some(b));
        drop(store);
        // Dropping also closes: the file opens again.
        SqliteStore::open(&path).expect("reopen after drop");
    }

    #[test]
    fn durability_is_read_back() {
        let (_dir, path) = temp();
        let store = SqliteStore::open(&path).expect("open");
        assert_eq!(store.durability(), ("wal".to_owned(), 2));
        let other = Connection::open(&path).expect("connection");
        let mode: String = other
            .query_row("PRAGMA journal_mode", [], |row| row.get(0))
            .expect("journal_mode");
        assert_eq!(mode, "wal", "WAL is recorded in the file itself");
    }

    /// A fresh store's file, then marked as written in format `version`, and what opening it
    /// again says.
    fn reopened_as_format(version: &str) -> (tempfile::TempDir, PathBuf, StoreError) {
        let (dir, path) = temp();
        SqliteStore::open(&path)
            .expect("open")
            .close()
            .expect("close");
        let conn = Connection::open(&path).expect("connection");
        conn.execute(
            "UPDATE meta SET value = ?1 WHERE key = 'format_version'",
            params![version],
        )
        .expect("set the version");
        drop(conn);
        let err = SqliteStore::open(&path).expect_err("another format");
        (dir, path, err)
    }

    #[test]
    fn newer_format_is_refused() {
        let (_dir, path, err) = reopened_as_format("99");
        assert!(
            matches!(err, StoreError::NewerFormat { found: 99, .. }),
            "{err:?}"
        );
        assert!(
            err.to_string().contains(&path.display().to_string()),
            "{err}"
        );
    }

    #[test]
    fn a_pre_release_format_1_file_is_refused_by_name() {
        let (_dir, _path, err) = reopened_as_format("1");
        assert!(
            matches!(err, StoreError::OlderFormat { found: 1, .. }),
            "{err:?}"
        );
        assert!(err.to_string().contains("new --data file"), "{err}");
    }

    #[test]
    fn random_bytes_are_refused_untouched() {
        let (_dir, path) = temp();
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let noise: Vec<u8> = (0..4096)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 24) as u8
            })
            .collect();
        std::fs::write(&path, &noise).expect("write noise");
        let err = SqliteStore::open(&path).expect_err("noise");
        assert!(matches!(err, StoreError::Corrupt { .. }), "{err:?}");
        assert!(
            err.to_string().contains(&path.display().to_string()),
            "{err}"
        );
        assert_eq!(bytes(&path), noise);
    }

    #[test]
    fn foreign_sqlite_file_is_refused_untouched() {
        let (_dir, path) = temp();
        let conn = Connection::open(&path).expect("connection");
        conn.execute_batch("CREATE TABLE foo (x INTEGER); INSERT INTO foo VALUES (42);")
            .expect("foreign schema");
        drop(conn);
        let before = bytes(&path);
        let err = SqliteStore::open(&path).expect_err("foreign");
        match &err {
            StoreError::Corrupt { detail, .. } => assert!(detail.contains("foo"), "{detail}"),
            other => panic!("expected Corrupt, got {other:?}"),
        }
        assert!(
            err.to_string().contains(&path.display().to_string()),
            "{err}"
        );
        assert_eq!(bytes(&path), before);
        assert!(!sibling(&path, "-wal").exists());
    }

    #[test]
    fn incomplete_schema_is_refused() {
        let (_dir, path) = temp();
        SqliteStore::open(&path)
            .expect("open")
            .close()
            .expect("close");
        let conn = Connection::open(&path).expect("connection");
        conn.execute_batch("DROP TABLE epoch_secrets")
            .expect("drop");
        drop(conn);
        let err = SqliteStore::open(&path).expect_err("incomplete");
        assert!(
            matches!(&err, StoreError::Corrupt { detail, .. } if detail.contains("epoch_secrets")),
            "{err:?}"
        );
    }

    #[test]
    fn empty_file_gets_the_schema() {
        let (_dir, path) = temp();
        std::fs::write(&path, b"").expect("empty file");
        let store = SqliteStore::open(&path).expect("open");
        write(&store, writes_of(&sample("t"))).expect("write");
        store.close().expect("close");
        let store = SqliteStore::open(&path).expect("reopen");
        assert_eq!(store.load_table("t").expect("load"), Some(sample("t")));
    }

    #[test]
    fn short_hash_reads_as_corrupt() {
        let (_dir, path) = temp();
        let store = SqliteStore::open(&path).expect("open");
        write(&store, writes_of(&sample("t"))).expect("write");
        store.close().expect("close");
        // Only a tool that bypasses the CHECK constraints can store this.
        let conn = Connection::open(&path).expect("connection");
        conn.execute_batch(
            "PRAGMA ignore_check_constraints = ON; \
             UPDATE seats SET token_hash = x'0102' WHERE seat_id = 'gm';",
        )
        .expect("damage");
        drop(conn);
        let store = SqliteStore::open(&path).expect("reopen");
        let err = store.load_table("t").expect_err("short hash");
        assert!(
            matches!(&err, StoreError::Corrupt { detail, .. } if detail.contains("2 bytes")),
            "{err:?}"
        );
    }

    #[test]
    fn submit_after_writer_stopped_is_closed() {
        let (_dir, path) = temp();
        let mut store = SqliteStore::open(&path).expect("open");
        store.shutdown().expect("shutdown");
        let answer = store.submit(Vec::new()).blocking_recv().expect("answer");
        assert!(matches!(answer, Err(StoreError::Closed)));
        // The store is Sync, so it can be shared by table tasks.
        let shared = Arc::new(store);
        assert!(shared.table_ids().expect("reads still work").is_empty());
    }
}

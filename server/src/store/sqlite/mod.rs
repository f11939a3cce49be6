//! The embedded store: one SQLite file, one writer thread that group-commits, a few readers.
//!
//! SQLite allows one writer at a time, and with `synchronous=FULL` every commit costs an fsync.
//! Funnelling every write through one thread that commits everything waiting in one transaction
//! turns that fsync into a shared cost: under load, many events from many tables become durable
//! together. Reads take connections of their own so that loading a table never queues behind a
//! commit (WAL lets them run while the writer writes), several so that one long read does not
//! hold up the others, and run on tokio's blocking threads so that they never stall the
//! runtime.
//!
//! This file opens the store and answers the [`Store`] trait; the work is in its modules, one
//! job each:
//! - `format`: the file's header, schema and format version, and the pragmas, checked at open;
//! - `writer`: the writer thread and its group commit;
//! - `reads`: loading a table, paging events, rows back into records;
//! - `errors`: SQLite failures and out-of-range values as [`StoreError`]s.

mod errors;
mod format;
mod reads;
mod writer;

#[cfg(test)]
mod tests;

use std::path::Path;
use std::sync::Arc;

use rusqlite::{Connection, OpenFlags};

use super::{
    EventRecord, LoadedTable, Owner, Receipt, SharedCounters, Store, StoreError, StoreFuture, Write,
};
use errors::map_err;
use format::BUSY_TIMEOUT;
use reads::ReadConnection;
use writer::Writer;

/// The SQLite-backed store. Share it behind an `Arc` (as an `Arc<dyn Store>`);
/// [`Store::close`] (or dropping the last handle) lets the writer finish what is queued before
/// the file is closed.
pub struct SqliteStore {
    writer: Writer,
    reader: ReadConnection,
    counters: SharedCounters,
    /// Shared with the blocking threads that run reads, which name the file in their errors.
    path: Arc<str>,
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
    /// Opens (creating if absent) the file, checks it, and starts the writer thread. This
    /// blocks on file I/O: call it before the runtime starts or from `spawn_blocking`.
    ///
    /// Nothing is written to an existing file until it is known to be a Tablehold file of a
    /// format this build understands, so pointing `--data` at the wrong file cannot damage it.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let name = path.display().to_string();
        format::check_header(path, &name)?;

        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let mut writer = Connection::open_with_flags(path, flags).map_err(|e| map_err(&name, e))?;
        writer
            .busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| map_err(&name, e))?;
        // Switching to WAL rewrites the file header, so a foreign or newer file must be refused
        // before the pragmas run.
        format::inspect(&writer, &name)?;
        let durability = format::configure(&writer, &name)?;
        format::create_or_check_schema(&mut writer, &name)?;

        // Opened only now: the file exists and has the schema, so a reader never creates it.
        let mut readers = Vec::with_capacity(reads::READERS);
        for _ in 0..reads::READERS {
            let reader = Connection::open_with_flags(
                path,
                OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )
            .map_err(|e| map_err(&name, e))?;
            reader
                .busy_timeout(BUSY_TIMEOUT)
                .map_err(|e| map_err(&name, e))?;
            format::configure(&reader, &name)?;
            // A reader must never write: every write has to go through the writer's group
            // commit.
            reader
                .execute_batch("PRAGMA query_only = ON")
                .map_err(|e| map_err(&name, e))?;
            readers.push(reader);
        }

        let counters = SharedCounters::default();
        let writer = Writer::start(writer, counters.clone(), &name)?;
        Ok(SqliteStore {
            writer,
            reader: Arc::new(reads::ReaderPool::new(readers)),
            counters,
            path: name.into(),
            durability,
        })
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
}

impl Store for SqliteStore {
    /// SQLite ignores the owner: one process per file (the writer holds the file's write
    /// lock), so no other node can hold a lease on its tables.
    fn submit(&self, _owner: &Owner, batch: Vec<Write>) -> Receipt {
        self.writer.submit(batch)
    }

    fn load_table<'a>(&'a self, table: &'a str) -> StoreFuture<'a, Option<LoadedTable>> {
        let table = table.to_owned();
        reads::spawn(&self.reader, &self.path, move |conn, path| {
            reads::load_table(conn, path, &table)
        })
    }

    fn events_after<'a>(
        &'a self,
        table: &'a str,
        after: u64,
        limit: usize,
    ) -> StoreFuture<'a, Vec<EventRecord>> {
        let table = table.to_owned();
        reads::spawn(&self.reader, &self.path, move |conn, path| {
            reads::events_after(conn, path, &table, after, limit)
        })
    }

    fn table_ids(&self) -> StoreFuture<'_, Vec<String>> {
        reads::spawn(&self.reader, &self.path, |conn, path| {
            reads::table_ids(conn, path)
        })
    }

    fn counters(&self) -> SharedCounters {
        self.counters.clone()
    }

    fn close(&self) -> StoreFuture<'_, ()> {
        // Stopped at the call, not at the first poll: "from the call on, a submit is Closed".
        let thread = self.writer.stop();
        let path = Arc::clone(&self.path);
        Box::pin(async move {
            let Some(thread) = thread else {
                return Ok(());
            };
            let name = Arc::clone(&path);
            tokio::task::spawn_blocking(move || writer::join(thread, &name))
                .await
                .unwrap_or_else(|e| {
                    Err(StoreError::Io {
                        path: path.to_string(),
                        detail: format!("closing the store did not finish: {e}"),
                    })
                })
        })
    }
}

impl Drop for SqliteStore {
    /// Waits for the writer so that every batch already submitted is committed (and its
    /// receiver answered) before the store is gone.
    fn drop(&mut self) {
        if let Some(thread) = self.writer.stop() {
            let _ = writer::join(thread, &self.path);
        }
    }
}

//! Reads and paging: loading a table, events after a seq, the table ids, and the conversion of
//! rows back into records (which refuses a value this schema could not have written). They run
//! on the read connections, never on the writer's, and must not write: the connections are
//! `query_only`, and every write goes through the writer's group commit.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError, TryLockError};

use rusqlite::{Connection, Row, params};

use super::errors::{map_err, read_err, to_bool, to_hash, to_u64};
use crate::store::{
    EpochSecret, EventRecord, InviteRecord, LoadedTable, SeatRecord, SnapshotRecord, StoreError,
    StoreFuture, TableRecord,
};

/// The read connections, shared with the blocking threads that run the reads. More than one,
/// so that a long read (a far-behind client's backlog, paged from the log) never makes the
/// load of another table wait for it.
pub(super) type ReadConnection = Arc<ReaderPool>;

/// How many read connections a store keeps. Each is cheap (SQLite shares the page cache of a
/// WAL file's readers through the OS); a few are enough to keep one slow reader from
/// queueing the others on a 2-core host.
pub(super) const READERS: usize = 4;

pub(super) struct ReaderPool {
    conns: Vec<Mutex<Connection>>,
    next: std::sync::atomic::AtomicUsize,
}

impl ReaderPool {
    pub(super) fn new(conns: Vec<Connection>) -> ReaderPool {
        ReaderPool {
            conns: conns.into_iter().map(Mutex::new).collect(),
            next: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    /// A free connection if there is one, else the next in turn once it is free.
    fn take(&self) -> MutexGuard<'_, Connection> {
        let count = self.conns.len().max(1);
        let start = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % count;
        for i in 0..count {
            match self.conns.get((start + i) % count).map(Mutex::try_lock) {
                Some(Ok(conn)) => return settle(conn),
                // A read that panicked left nothing that `settle` does not undo.
                Some(Err(TryLockError::Poisoned(p))) => return settle(p.into_inner()),
                _ => {}
            }
        }
        // All busy: wait for this one. (The pool always holds `READERS` connections.)
        let conn = self.conns[start]
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        settle(conn)
    }
}

/// Runs `read` on a read connection on one of tokio's blocking threads: SQLite's reads block on
/// the file, and the caller is an async task. A read takes a free connection, or queues on one
/// when all are busy; none waits for the writer.
pub(super) fn spawn<T, F>(
    reader: &ReadConnection,
    path: &Arc<str>,
    read: F,
) -> StoreFuture<'static, T>
where
    T: Send + 'static,
    F: FnOnce(&mut Connection, &str) -> Result<T, StoreError> + Send + 'static,
{
    let reader = Arc::clone(reader);
    let path = Arc::clone(path);
    Box::pin(async move {
        let name = Arc::clone(&path);
        tokio::task::spawn_blocking(move || read(&mut reader.take(), &name))
            .await
            .unwrap_or_else(|e| {
                Err(StoreError::Io {
                    path: path.to_string(),
                    detail: format!("a read of the store did not finish: {e}"),
                })
            })
    })
}

/// A reader connection ready for a read. A panic while it was held leaves nothing half-done
/// that matters (an open read transaction is rolled back here), so poisoning is not fatal.
fn settle(conn: MutexGuard<'_, Connection>) -> MutexGuard<'_, Connection> {
    if !conn.is_autocommit() {
        let _ = conn.execute_batch("ROLLBACK");
    }
    conn
}

/// Everything stored about `table`, read in one snapshot so that the events, seats and
/// epochs agree with each other even while the writer commits. Seats come in seat id order,
/// invites in code hash order.
pub(super) fn load_table(
    conn: &mut Connection,
    path: &str,
    table: &str,
) -> Result<Option<LoadedTable>, StoreError> {
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

    let snapshot = {
        let mut stmt = tx
            .prepare_cached(
                "SELECT table_id, seq, link, release, body FROM snapshots WHERE table_id = ?1",
            )
            .map_err(|e| map_err(path, e))?;
        let mut rows = stmt.query(params![table]).map_err(|e| map_err(path, e))?;
        match rows.next().map_err(|e| read_err(path, e))? {
            Some(row) => Some(snapshot_from_row(row, path)?),
            None => None,
        }
    };
    // From the snapshot's own event, whose link the loader checks against the snapshot's.
    let from = snapshot
        .as_ref()
        .map_or(0, |s| i64::try_from(s.seq).unwrap_or(i64::MAX) - 1);
    let events = query_events(&tx, path, table, from, i64::MAX)?;

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
        snapshot,
        events,
        epochs,
    }))
}

/// Events of `table` with seq > after, in order, at most `limit`.
///
/// Paging with a limit keeps a reconnecting client's catch-up from holding the reader for
/// the whole log at once.
pub(super) fn events_after(
    conn: &Connection,
    path: &str,
    table: &str,
    after: u64,
    limit: usize,
) -> Result<Vec<EventRecord>, StoreError> {
    // Clamping is exact here, not a wrap: no stored seq exceeds i64::MAX, so "after a larger
    // number" and "more than i64::MAX of them" mean the same as the clamped values.
    let after = i64::try_from(after).unwrap_or(i64::MAX);
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    query_events(conn, path, table, after, limit)
}

/// Every table id, in id order: what a server can offer or preload without loading logs.
pub(super) fn table_ids(conn: &Connection, path: &str) -> Result<Vec<String>, StoreError> {
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

fn snapshot_from_row(row: &Row<'_>, name: &str) -> Result<SnapshotRecord, StoreError> {
    let get_err = |e| read_err(name, e);
    Ok(SnapshotRecord {
        table: row.get(0).map_err(get_err)?,
        seq: to_u64(name, "a snapshot's seq", row.get(1).map_err(get_err)?)?,
        link: to_hash(name, "a snapshot's link", row.get(2).map_err(get_err)?)?,
        release: row.get(3).map_err(get_err)?,
        body: row.get(4).map_err(get_err)?,
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

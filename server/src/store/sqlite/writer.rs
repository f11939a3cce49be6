//! The writer thread and its group commit. Every write of the store goes through here: the
//! thread takes every batch waiting (from all tables), writes them in one transaction and
//! commits once, so many events share one fsync; if the group fails, each batch is retried
//! alone so that one bad batch fails only its own caller. It owns the write connection and
//! the rule that an event is stored only as the next seq of its table. It must not read for
//! anyone else (that is `reads`, on another connection) nor reply before the commit.

use std::sync::atomic::Ordering;
use std::sync::{Mutex, PoisonError, RwLock, mpsc};
use std::thread::JoinHandle;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, ffi, params};
use tokio::sync::oneshot;

use super::errors::{map_err, read_err, to_i64, write_err};
use crate::store::{EventRecord, Receipt, SharedCounters, SnapshotRecord, StoreError, Write};

/// A cap on the writes taken into one group, so that one commit's latency and the work redone
/// after a failed group stay bounded even when the queue is never empty.
const MAX_GROUP_WRITES: usize = 50_000;

/// One submitted batch and where its outcome goes.
struct Job {
    writes: Vec<Write>,
    reply: oneshot::Sender<Result<(), StoreError>>,
}

/// The handle to the writer thread: where batches are queued, and the thread to join.
pub(super) struct Writer {
    /// `None` once shutdown has begun; dropping the sender is what tells the thread to finish
    /// the queue and stop. A lock rather than a plain field so that a shared store can be
    /// closed: `submit` takes it for reading only, for the instant of a send.
    sender: RwLock<Option<mpsc::Sender<Job>>>,
    thread: Mutex<Option<JoinHandle<Result<(), StoreError>>>>,
}

impl Writer {
    /// Starts the thread on `conn`, which must already have the schema.
    pub(super) fn start(
        conn: Connection,
        counters: SharedCounters,
        name: &str,
    ) -> Result<Writer, StoreError> {
        let (sender, receiver) = mpsc::channel();
        let thread_name = name.to_owned();
        let thread = std::thread::Builder::new()
            .name("tablehold-store".to_owned())
            .spawn(move || run_writer(conn, receiver, &counters, &thread_name))
            .map_err(|e| StoreError::Io {
                path: name.to_owned(),
                detail: format!("cannot start the store's writer thread: {e}"),
            })?;
        Ok(Writer {
            sender: RwLock::new(Some(sender)),
            thread: Mutex::new(Some(thread)),
        })
    }

    /// Queues a batch without blocking; once the writer has stopped, the receipt says `Closed`.
    pub(super) fn submit(&self, batch: Vec<Write>) -> Receipt {
        let (reply, receiver) = oneshot::channel();
        let job = Job {
            writes: batch,
            reply,
        };
        let sender = self.sender.read().unwrap_or_else(PoisonError::into_inner);
        match sender.as_ref() {
            Some(sender) => {
                if let Err(mpsc::SendError(job)) = sender.send(job) {
                    let _ = job.reply.send(Err(StoreError::Closed));
                }
            }
            None => {
                let _ = job.reply.send(Err(StoreError::Closed));
            }
        }
        receiver
    }

    /// Stops taking batches. The thread still commits everything queued before this call;
    /// join the returned handle (at most once: later calls return `None`) to wait for it.
    pub(super) fn stop(&self) -> Option<JoinHandle<Result<(), StoreError>>> {
        drop(
            self.sender
                .write()
                .unwrap_or_else(PoisonError::into_inner)
                .take(),
        );
        self.thread
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }
}

/// Waits for a stopped writer: its queue committed, its connection closed.
pub(super) fn join(
    thread: JoinHandle<Result<(), StoreError>>,
    name: &str,
) -> Result<(), StoreError> {
    match thread.join() {
        Ok(result) => result,
        Err(_) => Err(StoreError::Io {
            path: name.to_owned(),
            detail: "the store's writer thread panicked".to_owned(),
        }),
    }
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
        Write::Snapshot(s) => put_snapshot(conn, name, s)?,
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

/// Replaces the table's snapshot, once it is known to name a logged event of the table: a
/// snapshot of a state the log does not lead to would be loaded as if it did.
fn put_snapshot(conn: &Connection, name: &str, s: &SnapshotRecord) -> Result<(), StoreError> {
    let seq = to_i64(name, "seq", s.seq)?;
    let link: Option<Vec<u8>> = conn
        .prepare_cached("SELECT link FROM events WHERE table_id = ?1 AND seq = ?2")
        .and_then(|mut stmt| {
            stmt.query_row(params![s.table, seq], |row| row.get(0))
                .optional()
        })
        .map_err(|err| read_err(name, err))?;
    if link.as_deref() != Some(s.link.as_slice()) {
        return Err(StoreError::Io {
            path: name.to_owned(),
            detail: format!(
                "table {}: a snapshot as of event {} does not name a logged event",
                s.table, s.seq
            ),
        });
    }
    conn.prepare_cached(
        "INSERT OR REPLACE INTO snapshots (table_id, seq, link, release, body) \
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )
    .and_then(|mut stmt| stmt.execute(params![s.table, seq, s.link.as_slice(), s.release, s.body]))
    .map_err(|e| write_err(name, e, String::new))?;
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

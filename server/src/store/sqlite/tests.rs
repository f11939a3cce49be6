//! The SQLite store's tests: the store contract (`store/contract.rs`), run against SQLite one
//! test per contract function, and what only SQLite has: its file format and versions, the
//! files it refuses untouched, and durability read back from the file.

use std::any::Any;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rusqlite::{Connection, params};

use super::{SqliteStore, writer};
use crate::store::contract::{self, StoreUnderTest, sample, temp, writes_of};
use crate::store::{Owner, Store, StoreError};

/// SQLite as the contract's store under test.
struct Sqlite;

impl StoreUnderTest for Sqlite {
    fn open(&self, place: &Path) -> Arc<dyn Store> {
        Arc::new(SqliteStore::open(place).expect("open"))
    }

    fn hold_writes(&self, place: &Path) -> Box<dyn Any> {
        let blocker = Connection::open(place).expect("blocker");
        blocker
            .execute_batch("BEGIN IMMEDIATE")
            .expect("take write lock");
        // Dropping the connection rolls its transaction back, which frees the write lock.
        Box::new(blocker)
    }
}

/// One test per contract function, named as the function.
macro_rules! contract_tests {
    ($($name:ident),* $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() {
                contract::$name(&Sqlite).await;
            }
        )*
    };
}

contract_tests!(
    records_round_trip,
    seats_and_invites_are_replaced,
    a_snapshot_is_loaded_with_the_events_from_its_own,
    events_after_pages_in_order,
    duplicate_seq_fails_only_its_own_batch,
    failed_batch_stores_nothing_and_leaves_no_gap,
    concurrent_burst_is_group_committed,
    reopen_after_close_sees_everything,
    submit_after_writer_stopped_is_closed,
);

/// Closes without a runtime, reporting a failure (dropping would swallow it).
fn close(store: SqliteStore) {
    if let Some(thread) = store.writer.stop() {
        writer::join(thread, store.path()).expect("close");
    }
}

async fn write(store: &SqliteStore, batch: Vec<crate::store::Write>) {
    store
        .submit(&Owner::single_node(), batch)
        .await
        .expect("the writer answers every batch")
        .expect("write");
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
    close(SqliteStore::open(&path).expect("open"));
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
    close(SqliteStore::open(&path).expect("open"));
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

#[tokio::test]
async fn empty_file_gets_the_schema() {
    let (_dir, path) = temp();
    std::fs::write(&path, b"").expect("empty file");
    let store = SqliteStore::open(&path).expect("open");
    write(&store, writes_of(&sample("t"))).await;
    close(store);
    let store = SqliteStore::open(&path).expect("reopen");
    assert_eq!(
        store.load_table("t").await.expect("load"),
        Some(sample("t"))
    );
}

#[tokio::test]
async fn short_hash_reads_as_corrupt() {
    let (_dir, path) = temp();
    let store = SqliteStore::open(&path).expect("open");
    write(&store, writes_of(&sample("t"))).await;
    close(store);
    // Only a tool that bypasses the CHECK constraints can store this.
    let conn = Connection::open(&path).expect("connection");
    conn.execute_batch(
        "PRAGMA ignore_check_constraints = ON; \
         UPDATE seats SET token_hash = x'0102' WHERE seat_id = 'gm';",
    )
    .expect("damage");
    drop(conn);
    let store = SqliteStore::open(&path).expect("reopen");
    let err = store.load_table("t").await.expect_err("short hash");
    assert!(
        matches!(&err, StoreError::Corrupt { detail, .. } if detail.contains("2 bytes")),
        "{err:?}"
    );
}

// A format 2 file written before snapshots existed has no `snapshots` table: it opens as it
// is, keeps every record, and gains the table, so this build can snapshot its tables.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_format_2_file_from_before_snapshots_opens_and_gains_them() {
    let (_dir, path) = temp();
    let store = SqliteStore::open(&path).expect("open");
    write(&store, writes_of(&sample("t1"))).await;
    close(store);
    let conn = Connection::open(&path).expect("connection");
    conn.execute_batch("DROP TABLE snapshots")
        .expect("as an older build left it");
    drop(conn);
    let store = SqliteStore::open(&path).expect("an older file opens");
    let snapshot = crate::store::SnapshotRecord {
        table: "t1".into(),
        seq: 5,
        link: contract::hash(5),
        release: "r".into(),
        body: vec![1, 2, 3],
    };
    write(
        &store,
        vec![crate::store::Write::Snapshot(snapshot.clone())],
    )
    .await;
    let loaded = store.load_table("t1").await.expect("load").expect("t1");
    assert_eq!(loaded.snapshot, Some(snapshot));
    assert_eq!(loaded.events, sample("t1").events[4..]);
}

// A `snapshots` table of another shape would fail every snapshot and every load: the file is
// refused when opened, naming the table, instead.
#[test]
fn a_snapshots_table_of_another_shape_is_refused_at_open() {
    let (_dir, path) = temp();
    close(SqliteStore::open(&path).expect("open"));
    let conn = Connection::open(&path).expect("connection");
    conn.execute_batch("DROP TABLE snapshots; CREATE TABLE snapshots (table_id TEXT, state BLOB)")
        .expect("another shape");
    drop(conn);
    let err = SqliteStore::open(&path).expect_err("refused");
    assert!(matches!(err, StoreError::Corrupt { .. }), "{err:?}");
    assert!(
        err.to_string().contains("table `snapshots` has columns"),
        "{err}"
    );
}

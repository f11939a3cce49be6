//! A table when its store fails under it (tests only): a real SQLite store wrapped so that a
//! test can make its next append, its history reads or its snapshots fail, as a full disk or
//! a broken file would. What must hold: no acknowledged event is lost, a reload after a failed
//! append keeps every seat's view, a seat that joined is never left without its token, and a
//! snapshot that cannot be written costs a longer replay, never an event.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tablehold_protocol::{ErrorCode, Op, Reply, Role};
use tokio::sync::oneshot;

use crate::harness::{TestTable, ask, settings};
use crate::settings::Settings;
use crate::store::{
    EventRecord, LoadedTable, Owner, Receipt, SharedCounters, SqliteStore, Store, StoreError,
    StoreFuture, Write,
};
use crate::table::{SeatKey, TableMsg, WireError};

/// The real store, with failures a test switches on.
#[derive(Debug)]
struct Failing {
    inner: SqliteStore,
    /// The next batch holding an event fails as a full disk does.
    next_append: AtomicBool,
    /// Every history read fails.
    reads: AtomicBool,
    /// Every batch holding a snapshot fails.
    snapshots: AtomicBool,
}

fn refused(e: StoreError) -> Receipt {
    let (tx, rx) = oneshot::channel();
    let _ = tx.send(Err(e));
    rx
}

impl Store for Failing {
    fn submit(&self, owner: &Owner, batch: Vec<Write>) -> Receipt {
        let has = |f: fn(&Write) -> bool| batch.iter().any(f);
        if has(|w| matches!(w, Write::Event(_))) && self.next_append.swap(false, Ordering::SeqCst) {
            return refused(StoreError::DiskFull { path: "t".into() });
        }
        if has(|w| matches!(w, Write::Snapshot(_))) && self.snapshots.load(Ordering::SeqCst) {
            return refused(StoreError::Io {
                path: "t".into(),
                detail: "the snapshot row is refused".into(),
            });
        }
        self.inner.submit(owner, batch)
    }
    fn load_table<'a>(&'a self, table: &'a str) -> StoreFuture<'a, Option<LoadedTable>> {
        self.inner.load_table(table)
    }
    fn events_after<'a>(
        &'a self,
        table: &'a str,
        after: u64,
        limit: usize,
    ) -> StoreFuture<'a, Vec<EventRecord>> {
        if self.reads.load(Ordering::SeqCst) {
            return Box::pin(async {
                Err(StoreError::Io {
                    path: "t".into(),
                    detail: "the read fails".into(),
                })
            });
        }
        self.inner.events_after(table, after, limit)
    }
    fn table_ids(&self) -> StoreFuture<'_, Vec<String>> {
        self.inner.table_ids()
    }
    fn counters(&self) -> SharedCounters {
        self.inner.counters()
    }
    fn close(&self) -> StoreFuture<'_, ()> {
        self.inner.close()
    }
}

/// A harness table on the failing store.
struct Setup {
    t: TestTable,
    store: Arc<Failing>,
}

impl std::ops::Deref for Setup {
    type Target = TestTable;
    fn deref(&self) -> &TestTable {
        &self.t
    }
}

async fn setup(snapshot_every: u64) -> Setup {
    let dir = tempfile::tempdir().expect("dir");
    let store = Arc::new(Failing {
        inner: SqliteStore::open(&dir.path().join("t.db")).expect("store"),
        next_append: AtomicBool::new(false),
        reads: AtomicBool::new(false),
        snapshots: AtomicBool::new(false),
    });
    let settings = Settings {
        snapshot_every,
        ..settings()
    };
    let t = TestTable::on_store(settings, store.clone(), dir, 2).await;
    Setup { t, store }
}

impl Setup {
    async fn join(&self, name: &str) -> Result<(SeatKey, String), WireError> {
        let invite = self.invite(Role::Player).expect("a player's invite");
        let name = name.to_owned();
        ask(&self.registry, &self.id, |reply| TableMsg::Join {
            invite,
            name,
            peer: [127, 0, 0, 1].into(),
            reply,
        })
        .await
    }

    async fn request(&self, seat: &SeatKey, op: Op) -> Result<Reply, WireError> {
        let seat = seat.clone();
        ask(&self.registry, &self.id, |reply| TableMsg::Request {
            seat,
            op,
            reply,
        })
        .await
    }

    async fn roll(&self) -> Result<Reply, WireError> {
        let op = Op::Roll {
            dice: "1d20".into(),
            secret: false,
        };
        self.request(&self.gm, op).await
    }

    async fn logged(&self) -> Vec<EventRecord> {
        self.store
            .inner
            .events_after(&self.id, 0, usize::MAX)
            .await
            .expect("the log")
    }
}

fn act(actor: Option<&str>, action: &str) -> Op {
    Op::Act {
        actor: actor.map(str::to_owned),
        action: action.into(),
        args: Default::default(),
    }
}

/// How many of `events` record a digest of `seat`'s view.
fn digests_of(events: &[EventRecord], seat: &str) -> usize {
    let key = format!("\"seat:{seat}\"");
    events
        .iter()
        .filter(|e| String::from_utf8_lossy(&e.parts).contains(&key))
        .count()
}

// A seat that joined after the table's latest snapshot keeps its view when a failed append
// makes the table reload from that snapshot: its state still answers, and every turn's
// digests still hold its own.
#[tokio::test(start_paused = true)]
async fn a_reload_keeps_the_view_of_a_seat_that_joined_after_the_snapshot() {
    let t = setup(40).await;
    let npc = crate::table::world::tests::NPC;
    t.request(&t.gm, Op::AddSheet { sheet: npc.into() })
        .await
        .expect("the NPC");
    let snapshot = || async {
        let loaded = t.store.inner.load_table(&t.id).await.expect("load");
        loaded.and_then(|l| l.snapshot).map(|s| s.seq)
    };
    while snapshot().await.is_none() {
        t.roll().await.expect("a roll");
    }
    let (ines, _) = t.join("Ines").await.expect("Ines joins");
    t.request(&t.gm, act(None, "start_encounter"))
        .await
        .expect("the fight");
    let head = t.logged().await.len();
    assert!(
        snapshot().await.is_some_and(|s| s < head as u64 - 2),
        "she joined after the snapshot"
    );
    t.store.next_append.store(true, Ordering::SeqCst);
    let lost = t.request(&t.gm, act(Some("n"), "end_turn")).await;
    assert_eq!(lost.err().map(|e| e.code), Some(ErrorCode::StorageFull));
    assert_eq!(t.logged().await.len(), head, "nothing of the failed batch");
    assert!(
        t.request(&ines, Op::State).await.is_ok(),
        "her view is back"
    );
    for _ in 0..2 {
        t.request(&t.gm, act(Some("n"), "end_turn"))
            .await
            .expect("a turn");
    }
    let after: Vec<EventRecord> = t.logged().await.split_off(head);
    assert_eq!(digests_of(&after, &ines.info.id), 2, "one per turn");
}

// The seat is durable before its view is built: when the log cannot be read then, the join
// still gives the seat its token, and its view is built when it authenticates again.
#[tokio::test(start_paused = true)]
async fn a_join_whose_view_cannot_be_read_still_gives_the_seat_its_token() {
    let t = setup(1000).await;
    for _ in 0..40 {
        t.roll().await.expect("a roll");
    }
    t.store.reads.store(true, Ordering::SeqCst);
    let (ines, token) = t.join("Ines").await.expect("joined all the same");
    assert!(t.request(&ines, Op::State).await.is_err(), "no view yet");
    t.store.reads.store(false, Ordering::SeqCst);
    let (again, _) = ask(&t.registry, &t.id, |reply| TableMsg::Auth { token, reply })
        .await
        .expect("her token");
    assert_eq!(again.info.id, ines.info.id);
    assert!(
        t.request(&ines, Op::State).await.is_ok(),
        "built at her auth"
    );
}

// Snapshots the store refuses cost the table nothing it logs: every roll is acknowledged and
// logged, each time a snapshot falls due.
#[tokio::test(start_paused = true)]
async fn a_snapshot_that_cannot_be_written_costs_no_event() {
    let t = setup(5).await;
    t.store.snapshots.store(true, Ordering::SeqCst);
    // The first roll opens the dice epoch too; from then on a roll is one event.
    t.roll().await.expect("acknowledged");
    let before = t.logged().await.len();
    for _ in 0..20 {
        t.roll().await.expect("acknowledged");
    }
    assert_eq!(t.logged().await.len(), before + 20);
    let loaded = t.store.inner.load_table(&t.id).await.expect("load");
    assert_eq!(loaded.and_then(|l| l.snapshot), None);
}

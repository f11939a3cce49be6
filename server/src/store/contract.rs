//! The contract of [`Store`]: what every store must do, as test functions that take the store
//! under test. Each store's own test module runs every function here, one test each, so a
//! second store proves itself against the same suite. Only behaviour the trait promises
//! belongs here; a store's file format, settings and failure modes stay with that store.

use std::any::Any;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::oneshot;

use super::{
    EpochSecret, EventRecord, InviteRecord, LoadedTable, Owner, SeatRecord, SnapshotRecord, Store,
    StoreError, TableRecord, Write,
};

/// A store implementation as the suite sees it.
pub(super) trait StoreUnderTest {
    /// Opens the store kept at `place` (a path in a fresh temporary directory), creating it if
    /// absent; opening the same place again must see everything durable there.
    fn open(&self, place: &Path) -> Arc<dyn Store>;

    /// Stalls the store's appends until the returned guard is dropped, from outside the store
    /// (another connection holding the write lock): the next batch the store takes waits, and
    /// batches submitted meanwhile queue behind it, to be committed as one group.
    fn hold_writes(&self, place: &Path) -> Box<dyn Any>;

    /// The owner the suite appends as.
    fn owner(&self) -> Owner {
        Owner::single_node()
    }
}

/// A fresh place for a store, kept as long as the directory lives.
pub(super) fn temp() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("tablehold.db");
    (dir, path)
}

async fn write(
    s: &dyn StoreUnderTest,
    store: &dyn Store,
    batch: Vec<Write>,
) -> Result<(), StoreError> {
    store
        .submit(&s.owner(), batch)
        .await
        .expect("the store answers every batch")
}

pub(super) fn hash(byte: u8) -> [u8; 32] {
    [byte; 32]
}

pub(super) fn table(id: &str) -> TableRecord {
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

pub(super) fn event(table: &str, seq: u64) -> EventRecord {
    EventRecord {
        table: table.to_owned(),
        seq,
        version: 1,
        at_ms: 1_700_000_000_000 + seq,
        parts: format!("[{seq}]").into_bytes(),
        link: hash(seq as u8),
    }
}

pub(super) fn epoch(table: &str, epoch: u64) -> EpochSecret {
    EpochSecret {
        table: table.to_owned(),
        epoch,
        seed: hash(0x40 + epoch as u8),
        test_seed: epoch == 2,
    }
}

/// A full table as its task would write it: created, seated, invited, some events.
pub(super) fn sample(id: &str) -> LoadedTable {
    LoadedTable {
        table: table(id),
        seats: vec![seat(id, "gm", "gm", 1), seat(id, "p1", "player", 2)],
        invites: vec![invite(id, 7, Some("p1")), invite(id, 9, None)],
        snapshot: None,
        events: (1..=5).map(|seq| event(id, seq)).collect(),
        epochs: vec![epoch(id, 1), epoch(id, 2)],
    }
}

fn snapshot(table: &str, seq: u64, body: &[u8]) -> SnapshotRecord {
    SnapshotRecord {
        table: table.to_owned(),
        seq,
        link: hash(seq as u8),
        release: "test/1".to_owned(),
        body: body.to_vec(),
    }
}

pub(super) fn writes_of(t: &LoadedTable) -> Vec<Write> {
    let mut writes = vec![Write::CreateTable(t.table.clone())];
    writes.extend(t.seats.iter().cloned().map(Write::Seat));
    writes.extend(t.invites.iter().cloned().map(Write::Invite));
    writes.extend(t.epochs.iter().cloned().map(Write::Epoch));
    writes.extend(t.events.iter().cloned().map(Write::Event));
    writes
}

pub(super) async fn records_round_trip(s: &dyn StoreUnderTest) {
    let (_dir, path) = temp();
    let store = s.open(&path);
    let expected = sample("t1");
    write(s, &*store, writes_of(&expected))
        .await
        .expect("write");
    assert_eq!(store.load_table("t1").await.expect("load"), Some(expected));
    assert_eq!(store.load_table("nope").await.expect("load"), None);
    assert_eq!(store.table_ids().await.expect("ids"), vec!["t1".to_owned()]);
    let counters = store.counters();
    assert_eq!(counters.snapshot(), (1, 5));
    assert_eq!(
        counters.writes.load(std::sync::atomic::Ordering::Relaxed),
        12
    );
    store.close().await.expect("close");
}

/// A snapshot names a logged event exactly, replaces the one before, and a load returns it
/// with the events from its own on; one that names no logged event fails its whole batch.
pub(super) async fn a_snapshot_is_loaded_with_the_events_from_its_own(s: &dyn StoreUnderTest) {
    let (_dir, path) = temp();
    let store = s.open(&path);
    let mut expected = sample("t1");
    write(s, &*store, writes_of(&expected))
        .await
        .expect("write");
    write(s, &*store, vec![Write::Snapshot(snapshot("t1", 2, b"two"))])
        .await
        .expect("a snapshot of event 2");
    // The next one rides in the batch of the event it is as of.
    let sixth = event("t1", 6);
    write(
        s,
        &*store,
        vec![
            Write::Event(sixth.clone()),
            Write::Snapshot(snapshot("t1", 4, b"four")),
        ],
    )
    .await
    .expect("a later snapshot");
    expected.events.push(sixth);
    let loaded = store.load_table("t1").await.expect("load").expect("t1");
    assert_eq!(loaded.snapshot, Some(snapshot("t1", 4, b"four")));
    assert_eq!(loaded.events, expected.events[3..]);
    assert_eq!(
        (loaded.seats, loaded.invites, loaded.epochs),
        (expected.seats, expected.invites, expected.epochs)
    );
    // Past the head, or with a link the log does not have: refused, and nothing of the batch
    // is stored.
    let mut wrong_link = snapshot("t1", 5, b"bad");
    wrong_link.link = hash(99);
    for bad in [snapshot("t1", 8, b"ahead"), wrong_link] {
        let got = write(
            s,
            &*store,
            vec![Write::Event(event("t1", 7)), Write::Snapshot(bad)],
        )
        .await;
        assert!(got.is_err(), "{got:?}");
        let loaded = store.load_table("t1").await.expect("load").expect("t1");
        assert_eq!(loaded.snapshot, Some(snapshot("t1", 4, b"four")));
        assert_eq!(loaded.events.last().map(|e| e.seq), Some(6));
    }
    store.close().await.expect("close");
}

pub(super) async fn seats_and_invites_are_replaced(s: &dyn StoreUnderTest) {
    let (_dir, path) = temp();
    let store = s.open(&path);
    let mut expected = sample("t1");
    write(s, &*store, writes_of(&expected))
        .await
        .expect("write");
    expected.seats[1].revoked = true;
    expected.invites[1].used_by = Some("p2".to_owned());
    write(
        s,
        &*store,
        vec![
            Write::Seat(expected.seats[1].clone()),
            Write::Invite(expected.invites[1].clone()),
        ],
    )
    .await
    .expect("replace");
    assert_eq!(store.load_table("t1").await.expect("load"), Some(expected));
}

pub(super) async fn events_after_pages_in_order(s: &dyn StoreUnderTest) {
    let (_dir, path) = temp();
    let store = s.open(&path);
    let store = &*store;
    write(s, store, vec![Write::CreateTable(table("a"))])
        .await
        .expect("create a");
    write(s, store, vec![Write::CreateTable(table("b"))])
        .await
        .expect("create b");
    let a: Vec<EventRecord> = (1..=23).map(|seq| event("a", seq)).collect();
    write(s, store, a.iter().cloned().map(Write::Event).collect())
        .await
        .expect("a");
    write(s, store, vec![Write::Event(event("b", 1))])
        .await
        .expect("b");

    let mut paged = Vec::new();
    let mut after = 0;
    loop {
        let page = store.events_after("a", after, 10).await.expect("page");
        assert!(page.len() <= 10);
        let Some(last) = page.last() else { break };
        after = last.seq;
        paged.extend(page);
    }
    assert_eq!(paged, a);
    assert_eq!(
        store.events_after("a", 20, 100).await.expect("tail"),
        a[20..]
    );
    assert!(
        store
            .events_after("a", 23, 10)
            .await
            .expect("end")
            .is_empty()
    );
    assert!(
        store
            .events_after("a", 0, 0)
            .await
            .expect("none")
            .is_empty()
    );
    assert!(
        store
            .events_after("a", u64::MAX, 10)
            .await
            .expect("far")
            .is_empty()
    );
    assert_eq!(
        store.events_after("b", 0, usize::MAX).await.expect("b"),
        vec![event("b", 1)]
    );
    assert!(
        store
            .events_after("zzz", 0, 10)
            .await
            .expect("unknown")
            .is_empty()
    );
}

pub(super) async fn duplicate_seq_fails_only_its_own_batch(s: &dyn StoreUnderTest) {
    let (_dir, path) = temp();
    let store = s.open(&path);
    let owner = s.owner();
    write(
        s,
        &*store,
        vec![
            Write::CreateTable(table("t")),
            Write::CreateTable(table("u")),
            Write::Event(event("t", 1)),
        ],
    )
    .await
    .expect("setup");
    let (commits_before, events_before) = store.counters().snapshot();

    // Stall the appends so that the batches below queue up behind a blocked one and are
    // drained into one group.
    let hold = s.hold_writes(&path);
    let mut held = store.submit(&owner, vec![Write::Event(event("u", 1))]);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let good1 = store.submit(&owner, vec![Write::Event(event("t", 2))]);
    let dup = store.submit(&owner, vec![Write::Event(event("t", 1))]);
    let good2 = store.submit(&owner, vec![Write::Event(event("u", 2))]);
    // A duplicate of a seq that an earlier batch of the same group wrote.
    let inner_dup = store.submit(&owner, vec![Write::Event(event("t", 2))]);
    tokio::time::sleep(Duration::from_millis(100)).await;
    // The store is still stuck on the held batch, so the four above were all queued when it
    // next drained its queue: they form one group.
    assert!(matches!(
        held.try_recv(),
        Err(oneshot::error::TryRecvError::Empty)
    ));
    drop(hold);

    held.await.expect("answer").expect("held batch");
    good1.await.expect("answer").expect("good batch");
    good2.await.expect("answer").expect("good batch");
    match dup.await.expect("answer") {
        Err(StoreError::Conflict { table, seq }) => assert_eq!((table.as_str(), seq), ("t", 1)),
        other => panic!("expected a conflict, got {other:?}"),
    }
    match inner_dup.await.expect("answer") {
        Err(StoreError::Conflict { table, seq }) => assert_eq!((table.as_str(), seq), ("t", 2)),
        other => panic!("expected a conflict, got {other:?}"),
    }
    // Only what was committed counts: the held batch and the two good ones, in at most one
    // commit each.
    let (commits, events) = store.counters().snapshot();
    assert_eq!(events - events_before, 3);
    assert!((1..=3).contains(&(commits - commits_before)), "{commits}");
    let t = store.load_table("t").await.expect("load").expect("t");
    assert_eq!(t.events, vec![event("t", 1), event("t", 2)]);
    let u = store.load_table("u").await.expect("load").expect("u");
    assert_eq!(u.events, vec![event("u", 1), event("u", 2)]);
}

pub(super) async fn failed_batch_stores_nothing_and_leaves_no_gap(s: &dyn StoreUnderTest) {
    let (_dir, path) = temp();
    let store = s.open(&path);
    let store = &*store;
    write(
        s,
        store,
        vec![Write::CreateTable(table("t")), Write::Event(event("t", 1))],
    )
    .await
    .expect("setup");

    let mut too_big = event("t", 3);
    too_big.at_ms = u64::MAX;
    let err = write(
        s,
        store,
        vec![Write::Event(event("t", 2)), Write::Event(too_big)],
    )
    .await
    .expect_err("u64::MAX does not fit");
    assert!(matches!(&err, StoreError::Io { detail, .. } if detail.contains("at_ms")));

    // Seq 2 was rolled back with its batch, so seq 3 would leave a hole.
    let err = write(s, store, vec![Write::Event(event("t", 3))])
        .await
        .expect_err("gap");
    assert!(matches!(&err, StoreError::Io { detail, .. } if detail.contains("gap")));

    let err = write(s, store, vec![Write::Event(event("ghost", 1))])
        .await
        .expect_err("no table");
    assert!(matches!(err, StoreError::Io { .. }));
    let err = write(s, store, vec![Write::CreateTable(table("t"))])
        .await
        .expect_err("twice");
    assert!(matches!(&err, StoreError::Io { detail, .. } if detail.contains("already exists")));
    write(s, store, vec![Write::Epoch(epoch("t", 1))])
        .await
        .expect("epoch");
    let err = write(s, store, vec![Write::Epoch(epoch("t", 1))])
        .await
        .expect_err("epoch twice");
    assert!(matches!(&err, StoreError::Io { detail, .. } if detail.contains("epoch 1")));

    let t = store.load_table("t").await.expect("load").expect("t");
    assert_eq!(t.events, vec![event("t", 1)]);
    assert_eq!(t.epochs, vec![epoch("t", 1)]);
    write(s, store, vec![Write::Event(event("t", 2))])
        .await
        .expect("the next seq still works");
}

pub(super) async fn concurrent_burst_is_group_committed(s: &dyn StoreUnderTest) {
    const TASKS: usize = 8;
    const PER_TASK: u64 = 25;
    let (_dir, path) = temp();
    let store = s.open(&path);
    let ids: Vec<String> = (0..TASKS).map(|i| format!("t{i}")).collect();
    write(
        s,
        &*store,
        ids.iter().map(|id| Write::CreateTable(table(id))).collect(),
    )
    .await
    .expect("tables");
    let (commits_before, events_before) = store.counters().snapshot();

    let barrier = Arc::new(tokio::sync::Barrier::new(TASKS));
    let tasks: Vec<_> = ids
        .iter()
        .map(|id| {
            let (store, barrier, owner, id) =
                (store.clone(), barrier.clone(), s.owner(), id.clone());
            tokio::spawn(async move {
                barrier.wait().await;
                let receipts: Vec<_> = (1..=PER_TASK)
                    .map(|seq| store.submit(&owner, vec![Write::Event(event(&id, seq))]))
                    .collect();
                for receipt in receipts {
                    receipt.await.expect("answer").expect("durable");
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.expect("task");
    }

    let (commits, events) = store.counters().snapshot();
    let (commits, events) = (commits - commits_before, events - events_before);
    let batches = TASKS as u64 * PER_TASK;
    assert_eq!(events, batches);
    assert!(
        commits < batches,
        "{commits} commits for {batches} batches: no group commit"
    );
    eprintln!(
        "burst: {batches} events in {commits} commits, {:.1} events per commit",
        events as f64 / commits as f64
    );
    store.close().await.expect("close");
    drop(store);

    let store = s.open(&path);
    for id in &ids {
        let events = store.events_after(id, 0, 1000).await.expect("events");
        assert_eq!(
            events,
            (1..=PER_TASK).map(|seq| event(id, seq)).collect::<Vec<_>>()
        );
    }
}

pub(super) async fn reopen_after_close_sees_everything(s: &dyn StoreUnderTest) {
    let (_dir, path) = temp();
    let store = s.open(&path);
    let a = sample("a");
    let b = sample("b");
    // Submitted and not awaited: close must still commit them.
    let ra = store.submit(&s.owner(), writes_of(&a));
    let rb = store.submit(&s.owner(), writes_of(&b));
    store.close().await.expect("close");
    ra.await.expect("answer").expect("a");
    rb.await.expect("answer").expect("b");
    drop(store);

    let store = s.open(&path);
    assert_eq!(store.counters().snapshot(), (0, 0));
    assert_eq!(store.table_ids().await.expect("ids"), vec!["a", "b"]);
    assert_eq!(store.load_table("a").await.expect("load"), Some(a));
    assert_eq!(store.load_table("b").await.expect("load"), Some(b));
    drop(store);
    // Dropping the last handle also closes: the store opens again.
    s.open(&path);
}

pub(super) async fn submit_after_writer_stopped_is_closed(s: &dyn StoreUnderTest) {
    let (_dir, path) = temp();
    let store = s.open(&path);
    store.close().await.expect("close");
    let answer = store.submit(&s.owner(), Vec::new()).await.expect("answer");
    assert!(matches!(answer, Err(StoreError::Closed)));
    store
        .close()
        .await
        .expect("a second close has nothing to do");
    assert!(
        store
            .table_ids()
            .await
            .expect("reads still work")
            .is_empty()
    );
}

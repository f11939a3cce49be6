//! Snapshots (DESIGN.md, "Storage"): a table's state as of one event, written beside the log so
//! that loading a table takes the latest snapshot and the events after it instead of
//! replaying the whole log. The log stays the truth: a snapshot is a cache that names the
//! event it is as of by seq and link, and one this build cannot use (another release, a body
//! that does not read back to the digests it recorded) is set aside for a full replay.
//!
//! A snapshot holds the GM's state, every other audience's (for their digests and replies),
//! and what the dice epochs derived from the log; never a seed, which stays in the store's
//! secrets.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use tablehold_log::Link;
use tablehold_rules::options::TableOptions;
use tablehold_rules::{MemoryState, digest};

use crate::store::{EpochSecret, SnapshotRecord};

use super::audiences::Audiences;
use super::epochs::{Epochs, SavedEpochs};
use super::world::TableWorld;

/// The body's layout. Raised whenever [`Body`] or a type inside it changes shape.
const FORMAT: u32 = 1;

/// The build a snapshot body must come from to be read: the package's release, the body's
/// format and the fingerprint of the source behind every type in it (`build.rs`). A snapshot
/// from any other build is replayed past rather than trusted.
pub fn release() -> String {
    format!(
        "{}/{FORMAT}/{}",
        env!("CARGO_PKG_VERSION"),
        env!("TABLEHOLD_STATE_FINGERPRINT")
    )
}

#[derive(Serialize, Deserialize)]
struct Body {
    gm: MemoryState,
    views: Vec<(String, MemoryState)>,
    epochs: SavedEpochs,
    /// The digest of each state above when it was written (`gm` first, then each view): a body
    /// that does not read back to them is not used.
    digests: Vec<String>,
}

/// A table's state taken back from a snapshot.
pub struct Restored {
    pub world: TableWorld,
    pub audiences: Audiences,
    pub epochs: Epochs,
}

/// The snapshot of `table` as of event `seq` (whose link is `link`), with the views of the
/// public and of `seats` (the players and spectators not revoked).
pub fn take(
    table: &str,
    seq: u64,
    link: Link,
    state: (&TableWorld, &Audiences, &Epochs),
    seats: &BTreeSet<String>,
) -> Result<SnapshotRecord, String> {
    let (world, audiences, epochs) = state;
    let gm = world.to_memory();
    let views = audiences.saved(seats);
    let digests = std::iter::once(digest::current(&gm))
        .chain(views.iter().map(|(_, state)| digest::current(state)))
        .collect();
    let body = Body {
        gm,
        views,
        epochs: epochs.saved(),
        digests,
    };
    let body = rmp_serde::to_vec_named(&body).map_err(|e| e.to_string())?;
    Ok(SnapshotRecord {
        table: table.to_owned(),
        seq,
        link,
        release: release(),
        body,
    })
}

/// The state a snapshot holds, under the table's `options`, or why it cannot be used.
pub fn restore(
    record: &SnapshotRecord,
    options: &TableOptions,
    secrets: &[EpochSecret],
) -> Result<Restored, String> {
    if record.release != release() {
        return Err(format!(
            "it was written by build {}, and this one is {}",
            record.release,
            release()
        ));
    }
    let body: Body =
        rmp_serde::from_slice(&record.body).map_err(|e| format!("its body does not read: {e}"))?;
    let read_back = std::iter::once(digest::current(&body.gm))
        .chain(body.views.iter().map(|(_, state)| digest::current(state)));
    if !read_back.eq(body.digests.iter().cloned()) {
        return Err("its states do not read back to the digests it recorded".to_owned());
    }
    Ok(Restored {
        world: TableWorld::from_memory(body.gm, options.clone()),
        audiences: Audiences::restored(options.clone(), body.views)?,
        epochs: Epochs::restored(body.epochs, secrets),
    })
}

#[cfg(test)]
mod tests {
    use tablehold_protocol::{Op, Role};
    use tablehold_rules::{Args, StateView};

    use super::*;
    use crate::harness::{TestTable, settings};
    use crate::settings::Settings;
    use crate::store::{Store, Write};
    use crate::table::load::{Rebuilt, load, player_seats, rebuild, seat_records};
    use crate::table::world::tests::NPC;

    fn roll(secret: bool) -> Op {
        Op::Roll {
            dice: "1d20".into(),
            secret,
        }
    }

    fn act(actor: Option<&str>, action: &str) -> Op {
        Op::Act {
            actor: actor.map(str::to_owned),
            action: action.into(),
            args: Args::default(),
        }
    }

    /// What a table holds, for comparing two rebuilds of it.
    fn held(r: &Rebuilt) -> (String, Vec<(String, MemoryState)>, SavedEpochs, u64, Link) {
        let anyone: BTreeSet<String> = ["ines", "rui", "sam"].map(str::to_owned).into();
        (
            digest::current(&r.world),
            r.audiences.saved(&anyone),
            r.epochs.saved(),
            r.journal.head(),
            r.journal.last_link(),
        )
    }

    /// A table's full replay up to event `head`, its snapshot set aside. (Up to a given head:
    /// the table keeps running beside the test, and a window's timeout may log more.)
    async fn replayed(store: &dyn Store, id: &str, head: u64) -> Rebuilt {
        let (_, mut all) = load(store, id, &settings().systems)
            .await
            .expect("loads")
            .expect("exists");
        let up_to = usize::try_from(head).expect("small");
        all.events = store.events_after(id, 0, up_to).await.expect("log");
        all.snapshot = None;
        let system = settings()
            .systems
            .find(&all.table.system)
            .expect("a shipped system");
        rebuild(&all, system).expect("replays")
    }

    // A table loaded from its latest snapshot and the events after it holds what a replay of
    // its whole log builds: the GM's state, every view (but that of a seat that joined after
    // the snapshot, which the task builds from the log when it starts), the epochs with the
    // openings of secret rolls still to come, the head and its link. A snapshot this build
    // cannot use is replayed past, to the same result.
    #[tokio::test(start_paused = true)]
    async fn a_table_loaded_from_its_snapshot_is_the_table_a_full_replay_builds() {
        let every = 10;
        let mut t = TestTable::new(
            Settings {
                snapshot_every: every,
                ..settings()
            },
            2,
        )
        .await;
        let gm = t.gm.clone();
        let ines = t.join(Role::Player, "Ines").await;
        // A spectator who joins and is revoked: a replay gives no view to a revoked seat, and
        // a snapshot keeps none either.
        let sam = t.join(Role::Spectator, "Sam").await;
        t.request(
            &gm,
            Op::RevokeSeat {
                seat: sam.info.id.clone(),
            },
        )
        .await
        .expect("revoked");
        let mut ops = vec![Op::AddSheet { sheet: NPC.into() }];
        ops.extend((0..25).map(|i| roll(i % 5 == 0)));
        ops.push(act(None, "start_encounter"));
        ops.extend((0..3).map(|_| act(Some("n"), "end_turn")));
        for op in ops {
            t.request(&gm, op).await.expect("applied");
        }
        t.request(&ines, roll(false)).await.expect("her roll");
        // Rui joins after the latest snapshot, and fewer events follow than make the next.
        let stored = t.store.load_table(&t.id).await.expect("load").expect("t");
        let since = stored.snapshot.as_ref().map_or(0, |s| s.seq);
        let head = stored.events.last().map_or(0, |e| e.seq);
        assert!(since > 0 && head < since + every, "{since} {head}");
        let rui = t.join(Role::Player, "Rui").await;
        for i in head..since + every - 1 {
            t.request(&gm, roll(i % 2 == 0)).await.expect("applied");
        }

        let (from_snapshot, loaded) = load(&*t.store, &t.id, &settings().systems)
            .await
            .expect("loads")
            .expect("exists");
        let head = from_snapshot.journal.head();
        assert!(
            from_snapshot.snapshot_seq > 0 && head - from_snapshot.snapshot_seq < 2 * every,
            "loaded from event {} of {head}",
            from_snapshot.snapshot_seq
        );
        assert_eq!(
            loaded.events.first().map(|e| e.seq),
            Some(from_snapshot.snapshot_seq),
            "only the events from the snapshot's were read"
        );
        let full = replayed(&*t.store, &t.id, head).await;
        let seats = player_seats(&seat_records(&loaded));
        let rui_key = format!("seat:{}", rui.info.id);
        assert_eq!(from_snapshot.audiences.missing(&seats), vec![rui.info.id]);
        let mut expected = held(&full);
        expected.1.retain(|(key, _)| *key != rui_key);
        assert_eq!(held(&from_snapshot), expected);
        assert!(full.world.encounter().active, "the fight is still on");

        // A snapshot of another build is not trusted: the whole log is replayed instead. (The
        // table stops first, writing its own, so the foreign one is the last written.)
        t.stop().await;
        let full = replayed(&*t.store, &t.id, u64::MAX).await;
        let head = full.journal.head();
        let mut foreign = take(
            &t.id,
            head,
            full.journal.last_link(),
            (&full.world, &full.audiences, &full.epochs),
            &seats,
        )
        .expect("a snapshot");
        foreign.release = "0.0.0-other/1".into();
        t.store
            .submit(
                &crate::store::Owner::single_node(),
                vec![Write::Snapshot(foreign)],
            )
            .await
            .expect("answered")
            .expect("written");
        let (fallback, _) = load(&*t.store, &t.id, &settings().systems)
            .await
            .expect("loads")
            .expect("exists");
        assert_eq!(fallback.snapshot_seq, 0);
        assert_eq!(held(&fallback), held(&full));
    }
}

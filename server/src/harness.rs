//! A socket-free harness for one table (tests only): a real registry, a real SQLite file and
//! the real table task, driven through its mailbox as connections drive it, on tokio's paused
//! clock. Timeouts, entropy windows and idling are tested in virtual time: a test waits for
//! the thing itself, and the runtime jumps over the idle stretches.

use std::sync::Arc;
use std::time::Duration;

use tablehold_protocol::{Op, Reply, Role};
use tokio::sync::{Notify, mpsc, oneshot, watch};
use tokio::time::Instant;

use crate::registry::Registry;
use crate::settings::Settings;
use crate::store::{SqliteStore, Store};
use crate::table::{NewTable, Outbound, SeatKey, TableMsg, WireError};

/// The system a harness table plays unless a test names another: the one whose sheets the
/// server's tests write (`table::world::tests`).
const HOSTED: &str = "grimwire";

pub struct TestTable {
    pub registry: Registry,
    /// The table's store, for tests that read what was written.
    pub store: Arc<dyn Store>,
    pub id: String,
    pub gm: SeatKey,
    invites: Vec<tablehold_protocol::Invite>,
    next_conn: u64,
    _stop: watch::Sender<bool>,
    _dir: tempfile::TempDir,
}

impl TestTable {
    /// A new table with `players` and one spectator invite, on a fresh data file.
    pub async fn new(settings: Settings, players: u32) -> TestTable {
        TestTable::of_system(settings, HOSTED, players).await
    }

    /// [`TestTable::new`] for a table of `system`, which `settings.systems` must offer.
    pub async fn of_system(settings: Settings, system: &str, players: u32) -> TestTable {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("tablehold.db");
        let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&path).expect("store"));
        TestTable::hosting(settings, store, dir, system, players).await
    }

    /// [`TestTable::new`] on `store` (kept in `dir`), for a test that wraps the real store.
    pub async fn on_store(
        settings: Settings,
        store: Arc<dyn Store>,
        dir: tempfile::TempDir,
        players: u32,
    ) -> TestTable {
        TestTable::hosting(settings, store, dir, HOSTED, players).await
    }

    async fn hosting(
        settings: Settings,
        store: Arc<dyn Store>,
        dir: tempfile::TempDir,
        system: &str,
        players: u32,
    ) -> TestTable {
        let (stop_tx, stop) = watch::channel(false);
        // Tests never shut this registry down: the receiver is dropped at once.
        let (done, _) = mpsc::channel(1);
        let registry = Registry::new(store.clone(), Arc::new(settings), stop, done);
        let created = registry
            .create(NewTable {
                system: system.into(),
                name: "harness".into(),
                options: Default::default(),
                players,
                spectators: 1,
            })
            .await
            .expect("create");
        let Reply::TableCreated {
            table,
            gm_token,
            invites,
        } = created
        else {
            panic!("not a table: {created:?}");
        };
        let (gm, _) = ask(&registry, &table, |reply| TableMsg::Auth {
            token: gm_token,
            reply,
        })
        .await
        .expect("the GM's token");
        TestTable {
            registry,
            store,
            id: table,
            gm,
            invites,
            next_conn: 1,
            _stop: stop_tx,
            _dir: dir,
        }
    }

    /// The code of the first unused invite of `role`, left unused.
    pub fn invite(&self, role: Role) -> Option<String> {
        self.invites
            .iter()
            .find(|i| i.role == role)
            .map(|i| i.code.clone())
    }

    /// Joins with the first unused invite of `role`.
    pub async fn join(&mut self, role: Role, name: &str) -> SeatKey {
        let at = self
            .invites
            .iter()
            .position(|i| i.role == role)
            .expect("an invite of that role");
        let invite = self.invites.remove(at).code;
        let name = name.to_owned();
        let peer = std::net::IpAddr::from([127, 0, 0, 1]);
        let (seat, _) = ask(&self.registry, &self.id, |reply| TableMsg::Join {
            invite,
            name,
            peer,
            reply,
        })
        .await
        .expect("join");
        seat
    }

    pub async fn request(&self, seat: &SeatKey, op: Op) -> Result<Reply, WireError> {
        let seat = seat.clone();
        ask(&self.registry, &self.id, |reply| TableMsg::Request {
            seat,
            op,
            reply,
        })
        .await
    }

    /// Stops the table as a server shutting down does, and waits until it has settled (and
    /// written its snapshot): the store is the test's alone from then on.
    pub async fn stop(&self) {
        let running = self.registry.running(&self.id);
        let _ = self._stop.send(true);
        if let Some(handle) = running {
            let mut stopped = handle.stopped.clone();
            let _ = tokio::time::timeout(PATIENCE, stopped.wait_for(|s| *s)).await;
        }
    }

    /// Subscribes `seat` from the start: the frames it receives arrive on the returned queue.
    pub async fn subscribe(&mut self, seat: &SeatKey) -> mpsc::Receiver<Outbound> {
        let (outbox, frames) = mpsc::channel(512);
        let conn = self.next_conn;
        self.next_conn += 1;
        let seat = seat.clone();
        ask(&self.registry, &self.id, |reply| TableMsg::Subscribe {
            seat,
            conn,
            id: 0,
            after: 0,
            outbox,
            kick: Arc::new(Notify::new()),
            reply,
        })
        .await
        .expect("subscribe");
        frames
    }
}

pub(crate) async fn ask<T>(
    registry: &Registry,
    table: &str,
    make: impl FnOnce(oneshot::Sender<Result<T, WireError>>) -> TableMsg,
) -> Result<T, WireError> {
    let (tx, rx) = oneshot::channel();
    registry.send(table, make(tx)).await?;
    rx.await.expect("the table answers")
}

/// The facts of every event frame in `frames` so far.
pub fn facts(frames: &mut mpsc::Receiver<Outbound>) -> Vec<tablehold_rules::Fact> {
    let mut out = Vec::new();
    while let Ok(Outbound::Frame(f)) = frames.try_recv() {
        if let Ok(tablehold_protocol::ServerMsg::Event(e)) = tablehold_protocol::decode_server(&f) {
            out.extend(e.parts.into_iter().map(|p| p.fact));
        }
    }
    out
}

/// Settings for a harness table: the test seed, and the rest as a server has them.
pub fn settings() -> Settings {
    Settings {
        test_seed: Some([7; 32]),
        ..Settings::default()
    }
}

/// How long a virtual-time wait may take before the test gives up: far beyond any window.
pub const PATIENCE: Duration = Duration::from_secs(24 * 3600);

#[cfg(test)]
mod tests {
    use tablehold_rules::Fact;

    use super::*;

    fn roll() -> Op {
        Op::Roll {
            dice: "2d6".into(),
            secret: false,
        }
    }

    // See: issue #19 ("the idle-unload test must fail when the table did not unload").
    #[tokio::test(start_paused = true)]
    async fn an_idle_table_stops_after_its_idle_time_and_not_before() {
        let idle = Duration::from_secs(300);
        let t = TestTable::new(settings(), 1).await;
        let handle = t.registry.running(&t.id).expect("the table runs");
        let mut stopped = handle.stopped.clone();
        let since = Instant::now();
        tokio::time::timeout(PATIENCE, stopped.wait_for(|s| *s))
            .await
            .expect("the idle table stopped")
            .expect("the task reports its stop");
        let waited = since.elapsed();
        assert!(
            waited >= idle && waited < idle + Duration::from_secs(1),
            "stopped after {waited:?}, the idle time is {idle:?}"
        );
        assert!(t.registry.running(&t.id).is_none(), "and left the registry");
        // The next request loads it again.
        let again = t.request(&t.gm, Op::Seats).await;
        assert!(matches!(again, Ok(Reply::Seats { .. })), "{again:?}");
    }

    #[tokio::test(start_paused = true)]
    async fn a_roll_waits_out_the_window_of_a_seat_that_never_commits() {
        let window = Duration::from_secs(5);
        let mut t = TestTable::new(settings(), 1).await;
        let ines = t.join(Role::Player, "Ines").await;
        // Ines listens and so is awaited; she never commits.
        let mut frames = t.subscribe(&ines).await;
        let since = Instant::now();
        let reply = t.request(&t.gm, roll()).await;
        assert!(matches!(reply, Ok(Reply::Applied { .. })), "{reply:?}");
        let waited = since.elapsed();
        // Commitments close at the end of the first window; with no one to reveal, the epoch
        // seals at once and the roll is drawn.
        assert!(
            waited >= window && waited < 2 * window,
            "the roll waited {waited:?}; the window is {window:?}"
        );
        let seen = facts(&mut frames);
        let order: Vec<&str> = seen
            .iter()
            .filter_map(|f| match f {
                Fact::EpochOpened { .. } => Some("opened"),
                Fact::CommitmentsClosed { .. } => Some("closed"),
                Fact::EpochSealed { .. } => Some("sealed"),
                Fact::Rolled { .. } => Some("rolled"),
                _ => None,
            })
            .collect();
        assert_eq!(order, ["opened", "closed", "sealed", "rolled"]);
    }

    #[tokio::test(start_paused = true)]
    async fn a_roll_with_no_one_listening_goes_at_once() {
        let t = TestTable::new(settings(), 1).await;
        let since = Instant::now();
        let reply = t.request(&t.gm, roll()).await;
        assert!(matches!(reply, Ok(Reply::Applied { .. })), "{reply:?}");
        assert!(
            since.elapsed() < Duration::from_secs(1),
            "no seat to wait for: {:?}",
            since.elapsed()
        );
    }
}

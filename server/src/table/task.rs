//! The table task: the single owner of a table's state (invariant 1). It takes one message at
//! a time and hands it to the part that owns it: seating and reads (`reads.rs`), commands
//! (`commands.rs`), the dice-epoch gate (`gate.rs`), the durability pipeline (`pipeline.rs`),
//! the event stream (`stream.rs`) and prompt deadlines (`deadlines.rs`). This file holds only
//! the state they share, the loop and the dispatch.

use std::sync::Arc;

use dashmap::DashMap;
use tablehold_protocol::Op;
use tablehold_rules::RuleSystem;
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;

use crate::settings::Settings;
use crate::store::{LoadedTable, Owner, Store};

use super::audiences::Audiences;
use super::deadlines::Deadlines;
use super::epochs::Epochs;
use super::gate::{Gate, Held};
use super::journal::Journal;
use super::load::Rebuilt;
use super::pipeline::Pipeline;
use super::seating::Seating;
use super::stream::{Sink, Stream};
use super::world::TableWorld;
use super::{TableHandle, TableMsg};

/// The depth of a table's mailbox: enough for every seat to have a few requests in flight.
const MAILBOX: usize = 256;

pub(super) struct Table {
    pub(super) id: String,
    pub(super) name: String,
    pub(super) system: &'static dyn RuleSystem,
    pub(super) world: TableWorld,
    pub(super) journal: Journal,
    /// The resolved table options as stored, for export headers.
    pub(super) options_json: serde_json::Value,
    pub(super) epochs: Epochs,
    pub(super) audiences: Audiences,
    pub(super) gate: Gate,
    pub(super) seating: Seating,
    pub(super) stream: Stream,
    pub(super) deadlines: Deadlines,
    pub(super) pipeline: Pipeline,
    /// The event the latest snapshot (written or on its way) is as of.
    pub(super) snapshot_at: u64,
    /// How many times the task rebuilt itself from its log after a failed append: a decision
    /// made before a rebuild may rest on events that were lost.
    pub(super) reloads: u64,
    /// Set when the task could not rebuild itself after a failed append: it stops at once.
    pub(super) broken: bool,
    pub(super) store: Arc<dyn Store>,
    /// The lease this task appends under (see `Owner`).
    pub(super) owner: Owner,
    pub(super) settings: Arc<Settings>,
}

/// Starts the task of a table loaded from the store and registers its handle.
pub fn spawn(
    loaded: LoadedTable,
    rebuilt: Rebuilt,
    store: Arc<dyn Store>,
    settings: Arc<Settings>,
    tables: Arc<DashMap<String, TableHandle>>,
    stop: Stop,
) -> TableHandle {
    let id = loaded.table.id.clone();
    let (tx, rx) = mpsc::channel(MAILBOX);
    let mut table = Table {
        name: loaded.table.name.clone(),
        system: rebuilt.system,
        world: rebuilt.world,
        journal: rebuilt.journal,
        options_json: serde_json::from_str(&loaded.table.options_json)
            .unwrap_or(serde_json::Value::Null),
        epochs: rebuilt.epochs,
        audiences: rebuilt.audiences,
        gate: Gate::default(),
        seating: Seating::new(
            &id,
            &loaded.seats,
            loaded.invites,
            settings.max_seats,
            settings.failed_joins_per_minute,
        ),
        stream: Stream::new(&id),
        deadlines: Deadlines::default(),
        pipeline: Pipeline::default(),
        snapshot_at: rebuilt.snapshot_seq,
        reloads: 0,
        broken: false,
        id,
        store,
        owner: Owner::single_node(),
        settings,
    };
    table.track_prompt();
    table.restart_window();
    let (stopped_tx, stopped) = tokio::sync::watch::channel(false);
    let handle = TableHandle { tx, stopped };
    let mine = handle.tx.clone();
    tokio::spawn(async move {
        // Held until the task has settled: the server's shutdown waits for every one.
        let Stop { mut stop, done } = stop;
        table.run(rx, &tables, &mine, &mut stop).await;
        let _ = stopped_tx.send(true);
        drop(done);
    });
    handle
}

/// How the server stops a table: `stop` turns true at shutdown, and the server waits until
/// every `done` sender is dropped (mini-redis's pattern for its handlers).
pub struct Stop {
    pub stop: watch::Receiver<bool>,
    pub done: mpsc::Sender<()>,
}

impl Table {
    async fn run(
        &mut self,
        mut rx: mpsc::Receiver<TableMsg>,
        tables: &DashMap<String, TableHandle>,
        mine: &mpsc::Sender<TableMsg>,
        stop: &mut watch::Receiver<bool>,
    ) {
        tracing::debug!(table = %self.id, events = self.journal.head(), "table loaded");
        // A seat that joined after the snapshot this table loaded from has no view yet.
        if let Err(e) = self.track_new_seats().await {
            tracing::error!(table = %self.id, error = %e.message, "a seat's view could not be built");
        }
        loop {
            if self.broken {
                tables.remove_if(&self.id, |_, h| h.tx.same_channel(mine));
                self.stream.close(None, "the table had to stop; reconnect");
                break;
            }
            let idle = self.stream.is_empty()
                && self.pipeline.is_empty()
                && !self.gate.holding()
                && !self.gate.is_open();
            tokio::select! {
                // Durability first: it releases replies and fan-out in log order.
                biased;
                released = self.pipeline.next() => self.release(released).await,
                msg = rx.recv() => match msg {
                    Some(msg) => self.handle(msg).await,
                    None => break,
                },
                // A window's default may need dice: while a new epoch collects entropy, its
                // deadline waits with the held commands, and fires as soon as the epoch seals.
                () = sleep_until(self.deadlines.at()), if !self.gate.is_open() => {
                    self.time_out().await;
                }
                () = sleep_until(self.gate.until()) => self.advance_epochs(true).await,
                () = tokio::time::sleep(self.settings.table_idle), if idle => {
                    self.unload(&mut rx, "the table is reloading; reconnect").await;
                    tables.remove_if(&self.id, |_, h| h.tx.same_channel(mine));
                    tracing::debug!(table = %self.id, "table unloaded after idling");
                    break;
                }
                // See: issue #19. The server stops: finish what was accepted, then step aside.
                () = stopping(stop) => {
                    self.unload(&mut rx, "the server is shutting down").await;
                    tables.remove_if(&self.id, |_, h| h.tx.same_channel(mine));
                    tracing::debug!(table = %self.id, "table settled for shutdown");
                    break;
                }
            }
        }
    }

    /// Steps aside (idle, or the server stopping): refuses new messages, serves those already
    /// queued, finishes what they started, and tells its subscribers `why`. A sender refused
    /// here waits for `stopped` before loading a new task.
    async fn unload(&mut self, rx: &mut mpsc::Receiver<TableMsg>, why: &str) {
        rx.close();
        while let Some(msg) = rx.recv().await {
            self.handle(msg).await;
        }
        // A command that arrived meanwhile may be waiting for a dice epoch. The mailbox is
        // closed, so no seat can commit or reveal any more: close its windows now (each call
        // closes commitments or seals) and run it.
        while self.gate.is_open() {
            self.advance_epochs(true).await;
        }
        self.settle().await;
        // The next load starts from here rather than replaying what came since the last.
        if self.journal.head() > self.snapshot_at
            && !self.broken
            && let Some(write) = self.snapshot()
            && let Err(e) = self.durable(vec![write]).await
        {
            tracing::warn!(table = %self.id, error = %e.message, "the snapshot at unload was not written");
        }
        // Anyone still subscribed is told why the stream ends.
        self.stream.close(None, why);
    }

    async fn handle(&mut self, msg: TableMsg) {
        // Everything but a command waits until what was decided before is durable: no reply
        // may show an event that could still be lost.
        let pipelined = matches!(&msg, TableMsg::Request { op, .. } if is_command(op));
        if !pipelined {
            self.settle().await;
        }
        match msg {
            TableMsg::Join {
                invite,
                name,
                peer,
                reply,
            } => {
                let _ = reply.send(self.join(&invite, &name, peer).await);
            }
            TableMsg::Auth { token, reply } => {
                let head = self.journal.head();
                let seat = self.seating.auth(&token);
                if seat.is_ok()
                    && let Err(e) = self.track_new_seats().await
                {
                    // Its view is built at the next try; the seat may still act meanwhile.
                    tracing::error!(table = %self.id, error = %e.message, "a seat's view could not be built");
                }
                let _ = reply.send(seat.map(|seat| (seat, head)));
            }
            TableMsg::Subscribe {
                seat,
                conn,
                id,
                after,
                outbox,
                kick,
                reply,
            } => {
                let sink = Sink { conn, outbox, kick };
                let _ = reply.send(self.subscribe(&seat, sink, id, after).await);
            }
            TableMsg::Unsubscribe { conn } => self.stream.unsubscribe(conn),
            TableMsg::Backlog {
                seat,
                after,
                limit,
                reply,
            } => {
                let _ = reply.send(self.backlog(&seat, after, limit).await);
            }
            TableMsg::Request { seat, op, reply } => match self.seating.current(&seat) {
                Err(e) => {
                    let _ = reply.send(Err(e));
                }
                Ok(seat) if is_command(&op) => {
                    let held = Held { seat, op, reply };
                    if self.gate.holding() {
                        // Commands keep their order: nothing overtakes one waiting for dice.
                        self.gate.hold_back(held);
                    } else {
                        self.run_command(held).await;
                    }
                }
                Ok(seat) if is_epoch_or_session(&op) => match self.entropy(&seat, op) {
                    Ok(events) => {
                        self.commit(events, Vec::new(), Some(reply));
                        self.advance_epochs(false).await;
                    }
                    Err(e) => {
                        let _ = reply.send(Err(e));
                    }
                },
                Ok(seat) => {
                    let _ = reply.send(self.request(&seat, op).await);
                }
            },
        }
    }
}

/// Whether a request is about dice epochs or the session: logged, but not pipelined.
fn is_epoch_or_session(op: &Op) -> bool {
    matches!(
        op,
        Op::CommitEntropy { .. }
            | Op::RevealEntropy { .. }
            | Op::EndSession
            | Op::ReadmitSeat { .. }
    )
}

/// Whether a request is a command: decided and logged, and so pipelined.
pub fn is_command(op: &Op) -> bool {
    matches!(
        op,
        Op::AddSheet { .. }
            | Op::AssignCharacter { .. }
            | Op::Act { .. }
            | Op::Answer { .. }
            | Op::Roll { .. }
    )
}

/// Resolves once the server stops. (The guard `wait_for` returns is dropped here: it may not
/// live across the loop's other awaits.)
async fn stopping(stop: &mut watch::Receiver<bool>) {
    if stop.wait_for(|s| *s).await.is_err() {
        // The server dropped its sender without stopping: nothing will ever stop this table.
        std::future::pending::<()>().await;
    }
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

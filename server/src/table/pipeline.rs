//! The durability pipeline (invariant 2): batches on their way to the store, oldest first, and
//! the reply each one owes. A batch is released (its reply sent, its events fanned out) only
//! once the store says it is durable, and in log order. If one fails, it and every later one
//! fail, and the table starts again from its log. `Pipeline` is the queue; appending,
//! releasing and reloading are the `impl Table` below.

use std::collections::VecDeque;

use tablehold_protocol::{ErrorCode, Reply};
use tablehold_rules::{ApplyError, Event, Fact, Scratch, StateView, apply};
use tokio::sync::oneshot;
use tokio::time::Instant;

use crate::clock::now_ms;
use crate::store::{StoreError, Write};

use super::load::load;
use super::task::Table;
use super::{Answer, WireError};
use super::{epochs, snapshot};

/// The largest event (its encoded parts) a table logs: a sixth of the protocol's frame limit,
/// so an event frame, with its envelope, always fits.
pub(super) const MAX_EVENT_BYTES: usize = tablehold_protocol::MAX_FRAME_BYTES / 6;

type Receipt = oneshot::Receiver<Result<(), StoreError>>;

/// A batch on its way to the disk.
struct Inflight {
    receipt: Receipt,
    first: u64,
    last: u64,
    reply: Option<Answer<Reply>>,
}

/// What became of the oldest batch.
pub enum Released {
    /// Events `first..=last` are durable.
    Durable {
        first: u64,
        last: u64,
        reply: Option<Answer<Reply>>,
    },
    /// The store failed: this batch and every later one are lost, with the replies they owe.
    Failed {
        error: WireError,
        replies: Vec<Answer<Reply>>,
    },
}

#[derive(Default)]
pub struct Pipeline {
    inflight: VecDeque<Inflight>,
}

impl Pipeline {
    pub fn is_empty(&self) -> bool {
        self.inflight.is_empty()
    }

    pub fn push(&mut self, receipt: Receipt, first: u64, last: u64, reply: Option<Answer<Reply>>) {
        self.inflight.push_back(Inflight {
            receipt,
            first,
            last,
            reply,
        });
    }

    /// Waits for the oldest batch's receipt; pending forever when nothing is in flight, so it
    /// can sit in a `select!`.
    pub async fn next(&mut self) -> Released {
        let res = match self.inflight.front_mut() {
            Some(batch) => (&mut batch.receipt).await,
            None => std::future::pending().await,
        };
        let Some(batch) = self.inflight.pop_front() else {
            return std::future::pending().await;
        };
        match res {
            Ok(Ok(())) => Released::Durable {
                first: batch.first,
                last: batch.last,
                reply: batch.reply,
            },
            failed => {
                let error = match failed {
                    Ok(Err(e)) => store_error(&e),
                    _ => WireError::new(ErrorCode::Internal, "the store has stopped"),
                };
                let replies = std::iter::once(batch)
                    .chain(std::mem::take(&mut self.inflight))
                    .filter_map(|b| b.reply)
                    .collect();
                Released::Failed { error, replies }
            }
        }
    }
}

/// Whether `events` apply, in order, to `state`, tried on a scratch copy that is then dropped.
fn all_apply(state: &dyn StateView, events: &[Event]) -> Result<(), ApplyError> {
    let mut trial = Scratch::new(state);
    events.iter().try_for_each(|e| apply(&mut trial, e))
}

/// What a client is told when its request could not be made durable. A full disk has a code of
/// its own: nothing was logged, and the table goes on by itself once space is freed.
pub fn store_error(e: &StoreError) -> WireError {
    match e {
        StoreError::DiskFull { .. } => WireError::new(
            ErrorCode::StorageFull,
            "the server's disk is full: nothing was logged; the table goes on once the host frees space, so retry then",
        ),
        other => WireError::new(
            ErrorCode::Internal,
            format!("the log could not be written: {other}"),
        ),
    }
}

impl Table {
    /// Submits `events` (and `writes` with them) to the log, applies them at once (so the next
    /// command is decided on them: pipelining), and follows them with what they imply: the
    /// seed of an encounter's epoch when the encounter ends, and the digests of every audience
    /// when a turn ends. The reply and every subscriber's copy wait in the pipeline until the
    /// store says they are durable.
    pub(super) fn commit(
        &mut self,
        events: Vec<Event>,
        mut writes: Vec<Write>,
        reply: Option<Answer<Reply>>,
    ) {
        let head = self.journal.head();
        let refuse = |reply: Option<Answer<Reply>>, e: WireError| {
            if let Some(reply) = reply {
                let _ = reply.send(Err(e));
            }
        };
        if events.is_empty() {
            // Nothing happened: an empty range after the head, so no client mistakes the
            // last event for this request's.
            if let Some(reply) = reply {
                let _ = reply.send(Ok(Reply::Applied {
                    first_seq: head + 1,
                    last_seq: head,
                }));
            }
            return;
        }
        // One event must fit a frame with room to spare: a command that would log a larger one
        // (an absurd roll) is refused before anything is written.
        if events
            .iter()
            .any(|e| tablehold_log::encode_parts(&e.parts).len() > MAX_EVENT_BYTES)
        {
            let message = format!(
                "that would log an event over {} KiB; ask for less",
                MAX_EVENT_BYTES / 1024
            );
            return refuse(reply, WireError::new(ErrorCode::TooLarge, message));
        }
        // An event that does not apply is never logged: the log would then hold an event no
        // replay can get past (see: issue #19). Try the batch on a scratch copy first.
        if let Err(e) = all_apply(&self.world, &events) {
            tracing::error!(table = %self.id, error = %e, "a decided event does not apply; nothing logged");
            let message =
                format!("the table could not apply its own decision ({e}); nothing was logged");
            return refuse(reply, WireError::new(ErrorCode::Internal, message));
        }
        let at_ms = now_ms();
        let mut queue: VecDeque<Event> = events.into();
        let mut turn_ended = false;
        while let Some(event) = queue.pop_front() {
            if let Err(e) = apply(&mut self.world, &event) {
                // Only the follow-ups built below can get here (they hold no state facts);
                // the log stays the truth, and the next load says which event and why.
                tracing::error!(table = %self.id, error = %e, "a follow-up event does not apply");
            }
            let mut event = event;
            self.epochs.seal_hidden(&mut event);
            let encounter_epoch = self.epochs.open(epochs::ENCOUNTER).map(|e| e.id);
            // Recorded before the reveal below, so that this event's own sealed dice are
            // opened too.
            self.epochs.record(self.journal.head() + 1, &event.parts);
            for fact in event.facts() {
                match fact {
                    Fact::EncounterEnded => {
                        turn_ended = true;
                        if let Some(id) = encounter_epoch {
                            let reveal = self.epochs.revealing(id, MAX_EVENT_BYTES);
                            for e in reveal.into_iter().rev() {
                                queue.push_front(e);
                            }
                        }
                    }
                    // A turn passing, in whichever shape the system keeps turns: one
                    // combatant's, a group's or the spotlight's.
                    Fact::TurnStarted { .. } | Fact::TurnsOpened { .. } => turn_ended = true,
                    _ => {}
                }
            }
            self.audiences.apply(&event.parts);
            if queue.is_empty() && turn_ended {
                turn_ended = false;
                let seats = self.seating.audience_ids();
                queue.push_back(self.audiences.digest_event(&self.world, &seats));
            }
            writes.push(Write::Event(self.journal.append(event, at_ms)));
        }
        let receipt = self.store.submit(&self.owner, writes);
        // Every so many events, the state as of this batch's last, so a load replays at most
        // that many (see `snapshot.rs`). A batch of its own, right behind the events (batches
        // land in order): a snapshot that cannot be written costs a longer replay, never an
        // event.
        if self.journal.head() >= self.snapshot_at + self.settings.snapshot_every
            && let Some(write) = self.snapshot()
        {
            let written = self.store.submit(&self.owner, vec![write]);
            let table = self.id.clone();
            tokio::spawn(async move {
                if let Ok(Err(e)) = written.await {
                    tracing::warn!(%table, error = %e, "a snapshot was not written; the next load replays from an older one");
                }
            });
        }
        self.track_prompt();
        self.pipeline
            .push(receipt, head + 1, self.journal.head(), reply);
    }

    /// Waits until every in-flight batch is durable (or failed), releasing each in turn.
    pub(super) async fn settle(&mut self) {
        while !self.pipeline.is_empty() {
            let released = self.pipeline.next().await;
            self.release(released).await;
        }
    }

    /// Answers a batch the store is done with and sends its events out; on failure, fails it
    /// and everything after it and rebuilds from the log.
    pub(super) async fn release(&mut self, released: Released) {
        match released {
            Released::Durable { first, last, reply } => {
                for seq in first..=last {
                    if let Some(logged) = self.journal.get(seq) {
                        self.stream.fan_out(logged);
                    }
                }
                self.journal.forget_durable(last);
                if let Some(reply) = reply {
                    let _ = reply.send(Ok(Reply::Applied {
                        first_seq: first,
                        last_seq: last,
                    }));
                }
            }
            Released::Failed { error, replies } => {
                tracing::error!(table = %self.id, error = %error.message, "append failed; rebuilding from the log");
                for reply in replies {
                    let _ = reply.send(Err(error.clone()));
                }
                // The log is the truth: whatever this task believed, start again from it.
                self.reload().await;
            }
        }
    }

    /// The snapshot of the state as of the head, to write; `None` (said in the server's log)
    /// when it cannot be made, which only costs a longer replay at the next load.
    pub(super) fn snapshot(&mut self) -> Option<Write> {
        let head = self.journal.head();
        let link = self.journal.last_link();
        match snapshot::take(
            &self.id,
            head,
            link,
            (&self.world, &self.audiences, &self.epochs),
            &self.seating.audience_ids(),
        ) {
            Ok(record) => {
                self.snapshot_at = head;
                Some(Write::Snapshot(record))
            }
            Err(e) => {
                tracing::error!(table = %self.id, error = %e, "no snapshot could be made");
                None
            }
        }
    }

    /// Makes `writes` durable now, outside the event log (seats, invites).
    pub(super) async fn durable(&self, writes: Vec<Write>) -> Result<(), WireError> {
        match self.store.submit(&self.owner, writes).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => {
                tracing::error!(table = %self.id, error = %e, "append failed");
                Err(store_error(&e))
            }
            Err(_) => Err(WireError::new(ErrorCode::Internal, "the store has stopped")),
        }
    }

    async fn reload(&mut self) {
        let loaded = match load(&*self.store, &self.id, &self.settings.systems).await {
            Ok(Some(l)) => Ok(l),
            Ok(None) => Err("the table is gone from the store".to_owned()),
            Err(e) => Err(e),
        };
        match loaded {
            Ok((r, loaded)) => {
                self.reloads += 1;
                self.world = r.world;
                self.journal = r.journal;
                self.snapshot_at = r.snapshot_seq;
                self.epochs = r.epochs;
                self.audiences = r.audiences;
                self.seating.reload(&loaded.seats, loaded.invites);
                self.track_prompt();
                self.restart_window();
                // A seat that joined after the snapshot it loaded from has no view yet.
                if let Err(e) = self.track_new_seats().await {
                    tracing::error!(table = %self.id, error = %e.message, "a seat's view could not be built");
                }
            }
            Err(e) => {
                // What this task holds may include lost events: it must serve nothing more.
                // The next request loads the table afresh, or reports why it cannot.
                tracing::error!(table = %self.id, error = %e, "could not rebuild the table from its log; stopping it");
                self.broken = true;
            }
        }
    }

    /// Keeps every open window's deadline in step with the state.
    pub(super) fn track_prompt(&mut self) {
        let open: Vec<(u64, u64)> = self
            .world
            .encounter()
            .pending
            .iter()
            .map(|p| (p.prompt_id, p.timeout_ms))
            .collect();
        self.deadlines.track(&open, Instant::now(), now_ms());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn batches_are_released_in_order_and_a_failure_takes_every_later_one() {
        let mut p = Pipeline::default();
        let (tx1, rx1) = oneshot::channel();
        let (tx2, rx2) = oneshot::channel();
        let (tx3, rx3) = oneshot::channel();
        let (r2, mut got2) = oneshot::channel();
        let (r3, mut got3) = oneshot::channel();
        p.push(rx1, 1, 2, None);
        p.push(rx2, 3, 3, Some(r2));
        p.push(rx3, 4, 5, Some(r3));
        // The second batch's receipt comes first; nothing is released before the first's.
        let _ = tx2.send(Err(StoreError::Closed));
        let _ = tx3.send(Ok(()));
        let _ = tx1.send(Ok(()));
        match p.next().await {
            Released::Durable { first, last, .. } => assert_eq!((first, last), (1, 2)),
            Released::Failed { error, .. } => panic!("{}", error.message),
        }
        match p.next().await {
            Released::Failed { replies, .. } => {
                assert_eq!(replies.len(), 2, "the failed batch and the one after it");
                for reply in replies {
                    let _ = reply.send(Err(WireError::new(ErrorCode::Internal, "lost")));
                }
            }
            Released::Durable { .. } => panic!("the second batch failed"),
        }
        assert!(p.is_empty());
        assert!(matches!(got2.try_recv(), Ok(Err(_))));
        assert!(matches!(got3.try_recv(), Ok(Err(_))));
    }

    // See: issue #19 ("a failed apply is logged anyway"). The batch is judged whole, on a copy:
    // a later event that does not apply fails it, and the state is left as it was.
    #[test]
    fn a_batch_with_an_event_that_does_not_apply_is_refused_whole() {
        use tablehold_rules::options::TableOptions;
        use tablehold_rules::{MemoryState, StateMut};
        let mut state = MemoryState::new(TableOptions::default());
        let round = Event::public(Fact::RoundStarted { round: 3 });
        let ghost = Event::public(Fact::ResourceSet {
            entity: "nobody".into(),
            resource: "condition".into(),
            from: 1,
            to: 0,
        });
        assert!(all_apply(&state, std::slice::from_ref(&round)).is_ok());
        let got = all_apply(&state, &[round.clone(), ghost]);
        assert!(
            matches!(got, Err(ApplyError::UnknownEntity(ref id)) if id.as_str() == "nobody"),
            "{got:?}"
        );
        assert_eq!(state.encounter().round, 0, "the trial changed nothing");
        apply(&mut state, &round).expect("applies");
        assert_eq!(state.encounter_mut().round, 3);
    }

    // See: issue #19 ("a full disk is refused as `internal`").
    #[tokio::test]
    async fn a_full_disk_is_storage_full_and_says_the_table_goes_on() {
        let mut p = Pipeline::default();
        let (tx, rx) = oneshot::channel();
        p.push(rx, 1, 1, None);
        let _ = tx.send(Err(StoreError::DiskFull {
            path: "t.db".into(),
        }));
        match p.next().await {
            Released::Failed { error, .. } => {
                assert_eq!(error.code, ErrorCode::StorageFull);
                assert!(error.message.contains("goes on once"), "{}", error.message);
                assert!(!error.message.contains("restart"), "{}", error.message);
            }
            Released::Durable { .. } => panic!("the batch failed"),
        }
        let other = store_error(&StoreError::Closed);
        assert_eq!(other.code, ErrorCode::Internal);
    }
}

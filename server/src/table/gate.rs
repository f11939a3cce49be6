//! The dice-epoch gate: commands that need dice while a new epoch collects entropy wait here,
//! in arrival order, with every command after them; the contribution window says whom the
//! epoch waits for and until when. The flow that opens, advances and seals epochs is the
//! `impl Table` below; `Gate` itself is plain state, tested alone.

use std::collections::{BTreeSet, VecDeque};

use tablehold_protocol::{ErrorCode, Op, Reply, Role};
use tablehold_rules::{Event, Fact, StateView};
use tokio::time::Instant;

use crate::store::Write;

use super::epochs::{self, Epochs};
use super::load;
use super::task::Table;
use super::{Answer, SeatKey, WireError};

/// A command waiting for dice from an epoch that is not sealed yet.
pub struct Held {
    pub seat: SeatKey,
    pub op: Op,
    pub reply: Answer<Reply>,
}

/// The contribution window of an epoch collecting entropy: the seats it waits for (those
/// connected when it opened; `None` after a reload, when it waits for its end) and when it
/// stops waiting.
struct Window {
    expected: Option<BTreeSet<String>>,
    until: Instant,
}

#[derive(Default)]
pub struct Gate {
    window: Option<Window>,
    held: VecDeque<Held>,
}

impl Gate {
    /// Whether commands are waiting: a new one must queue behind them, never overtake.
    pub fn holding(&self) -> bool {
        !self.held.is_empty()
    }

    pub fn held(&self) -> usize {
        self.held.len()
    }

    pub fn hold_back(&mut self, held: Held) {
        self.held.push_back(held);
    }

    /// Puts back in front a command that has to wait again.
    pub fn hold_front(&mut self, held: Held) {
        self.held.push_front(held);
    }

    pub fn next(&mut self) -> Option<Held> {
        self.held.pop_front()
    }

    pub fn is_open(&self) -> bool {
        self.window.is_some()
    }

    /// When the open window stops waiting.
    pub fn until(&self) -> Option<Instant> {
        self.window.as_ref().map(|w| w.until)
    }

    /// The seats the open window waits for; `None` for nobody in particular.
    pub fn expected(&self) -> Option<&BTreeSet<String>> {
        self.window.as_ref().and_then(|w| w.expected.as_ref())
    }

    pub fn open(&mut self, expected: Option<BTreeSet<String>>, until: Instant) {
        self.window = Some(Window { expected, until });
    }

    /// The reveals of the open window start: they get a window of their own length.
    pub fn extend(&mut self, until: Instant) {
        if let Some(w) = &mut self.window {
            w.until = until;
        }
    }

    pub fn close(&mut self) {
        self.window = None;
    }
}

impl Table {
    /// Opens a new epoch of `purpose`: its seed goes to the server-only table with the event
    /// that commits to it. The seats connected now are the ones its window waits for.
    pub(super) async fn open_epoch(&mut self, purpose: &'static str) {
        let secret = load::new_epoch(&self.id, self.epochs.next_id(), &self.settings);
        self.epochs.add_seed(&secret);
        let opening = Epochs::opening(&secret, purpose);
        let until = Instant::now() + self.settings.entropy_window;
        // A seat barred for withholding is not waited for: it may not commit.
        let mut expected = self.stream.seat_ids();
        for seat in self.epochs.barred() {
            expected.remove(seat);
        }
        self.gate.open(Some(expected), until);
        self.commit(vec![opening], vec![Write::Epoch(secret)], None);
        self.advance_epochs(false).await;
    }

    /// Moves the collecting epoch on (closing commitments, sealing) when every awaited seat
    /// has done its part or the window is over, then runs the commands that waited for it.
    pub(super) async fn advance_epochs(&mut self, window_over: bool) {
        let expected = self.gate.expected().cloned();
        let events = self.epochs.advance(expected.as_ref(), window_over);
        if !events.is_empty() {
            let reveals_open = events.last().is_some_and(|e| {
                e.facts()
                    .any(|f| matches!(f, Fact::CommitmentsClosed { .. }))
            });
            self.commit(events, Vec::new(), None);
            if reveals_open {
                self.gate
                    .extend(Instant::now() + self.settings.entropy_window);
            }
        }
        if self.epochs.collecting().is_none() {
            self.gate.close();
            self.drain_held().await;
        } else if window_over && !self.gate.is_open() {
            self.restart_window();
        }
    }

    /// After a load, an epoch still collecting gets a fresh window and waits for nobody in
    /// particular: those who were awaited may not come back.
    pub(super) fn restart_window(&mut self) {
        if self.epochs.collecting().is_some() {
            self.gate
                .open(None, Instant::now() + self.settings.entropy_window);
        }
    }

    /// Runs the waiting commands in order until one has to wait again.
    async fn drain_held(&mut self) {
        while self.epochs.collecting().is_none() {
            let Some(next) = self.gate.next() else {
                return;
            };
            let before = self.gate.held();
            Box::pin(self.run_command(next)).await;
            if self.gate.held() > before {
                return;
            }
        }
    }

    /// A seat's entropy commitment or reveal, or the GM ending the session: each is one
    /// public event, checked here and refused (nothing logged) when it does not fit.
    pub(super) fn entropy(&mut self, seat: &SeatKey, op: Op) -> Result<Vec<Event>, WireError> {
        let id = seat.info.id.as_str();
        match op {
            Op::CommitEntropy { epoch, commitment } => {
                Ok(vec![self.epochs.commit(epoch, id, &commitment)?])
            }
            Op::RevealEntropy { epoch, entropy } => {
                Ok(vec![self.epochs.reveal(epoch, id, &entropy)?])
            }
            Op::ReadmitSeat { seat: readmitted } => {
                if seat.info.role != Role::Gm {
                    return Err(WireError::new(
                        ErrorCode::Forbidden,
                        "readmitting a seat is the GM's",
                    ));
                }
                Ok(vec![self.epochs.readmit(&readmitted)?])
            }
            Op::EndSession => {
                if seat.info.role != Role::Gm {
                    return Err(WireError::new(
                        ErrorCode::Forbidden,
                        "ending the session is the GM's",
                    ));
                }
                if self.world.encounter().active {
                    return Err(WireError::new(
                        ErrorCode::Refused,
                        "an encounter is running; end it before the session",
                    ));
                }
                if self.gate.holding() || self.epochs.collecting().is_some() {
                    return Err(WireError::new(
                        ErrorCode::WrongPhase,
                        "a dice epoch is still collecting entropy; try again in a moment",
                    ));
                }
                Ok(self
                    .epochs
                    .open(epochs::TABLE)
                    .map(|e| {
                        self.epochs
                            .revealing(e.id, super::pipeline::MAX_EVENT_BYTES)
                    })
                    .unwrap_or_default())
            }
            _ => Err(WireError::new(
                ErrorCode::Internal,
                "not an entropy request",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use tablehold_protocol::SeatInfo;
    use tokio::sync::oneshot;

    use super::*;

    fn held(n: u64) -> (Held, oneshot::Receiver<Result<Reply, WireError>>) {
        let (reply, rx) = oneshot::channel();
        let seat = SeatKey {
            table: "t".into(),
            info: SeatInfo {
                id: "gm".into(),
                name: "GM".into(),
                role: Role::Gm,
                revoked: false,
            },
        };
        let op = Op::Roll {
            dice: format!("{n}d6"),
            secret: false,
        };
        (Held { seat, op, reply }, rx)
    }

    fn dice(h: &Held) -> String {
        match &h.op {
            Op::Roll { dice, .. } => dice.clone(),
            _ => String::new(),
        }
    }

    #[test]
    fn held_commands_keep_their_order_and_one_that_waits_again_goes_first() {
        let mut gate = Gate::default();
        assert!(!gate.holding());
        let (a, _ra) = held(1);
        let (b, _rb) = held(2);
        gate.hold_back(a);
        gate.hold_back(b);
        assert!(gate.holding() && gate.held() == 2);
        let first = gate.next().expect("first");
        assert_eq!(dice(&first), "1d6");
        gate.hold_front(first);
        let order: Vec<String> = std::iter::from_fn(|| gate.next())
            .map(|h| dice(&h))
            .collect();
        assert_eq!(order, ["1d6", "2d6"]);
    }

    #[test]
    fn a_window_waits_for_its_seats_until_its_end_then_for_the_reveals() {
        let t0 = Instant::now();
        let mut gate = Gate::default();
        assert_eq!(gate.until(), None);
        let seats = BTreeSet::from(["ines".to_owned()]);
        gate.open(Some(seats.clone()), t0 + Duration::from_secs(5));
        assert_eq!(gate.expected(), Some(&seats));
        gate.extend(t0 + Duration::from_secs(9));
        assert_eq!(gate.until(), Some(t0 + Duration::from_secs(9)));
        gate.close();
        assert!(!gate.is_open() && gate.expected().is_none());
        gate.extend(t0);
        assert_eq!(gate.until(), None, "no window to extend");
    }
}

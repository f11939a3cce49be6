//! The event stream: the connections subscribed to a table, the backlog each gets, and the
//! fan-out of every durable event, each connection given its seat's view (`Event::view`)
//! encoded once. It owns the subscribers and nothing else; the log it reads is the task's.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use tablehold_protocol::{ErrorCode, EventEnvelope, Reply, ServerMsg, encode};
use tablehold_rules::{Event, Seat};
use tokio::sync::{Notify, mpsc};

use super::journal::LoggedEvent;
use super::seats::rules_seat;
use super::{Outbound, SeatKey, WireError};

type Frame = tokio_tungstenite::tungstenite::Bytes;

/// Connections subscribed to one table at most: fan-out costs the table per subscriber.
pub const MAX_SUBSCRIBERS: usize = 64;

struct Subscriber {
    seat: SeatKey,
    outbox: mpsc::Sender<Outbound>,
    kick: Arc<Notify>,
}

/// Where a subscription's frames go: its connection's outbox, and the bell that tells the
/// connection it was dropped.
pub struct Sink {
    pub conn: u64,
    pub outbox: mpsc::Sender<Outbound>,
    pub kick: Arc<Notify>,
}

pub struct Stream {
    table: String,
    subscribers: BTreeMap<u64, Subscriber>,
}

/// The event frame `seat` may receive for `e`, or `None` when no part of it is the seat's.
pub fn frame_for(table: &str, e: &LoggedEvent, seat: &Seat) -> Option<Vec<u8>> {
    let event = Event {
        parts: e.parts.clone(),
    };
    let view = event.view(seat)?;
    Some(encode(&ServerMsg::Event(EventEnvelope {
        table: table.to_owned(),
        seq: e.seq,
        // The format it was written in, as its link hashed it; the parts are current.
        version: e.version,
        at_ms: e.at_ms,
        link: hex::encode(e.link),
        parts: view.parts,
    })))
}

/// A page of the log for `seat`, after `after`, at most `limit` events examined: the frames
/// it may see and the last sequence examined.
pub fn backlog(
    table: &str,
    events: &[LoggedEvent],
    seat: &SeatKey,
    after: u64,
    limit: usize,
) -> (Vec<Vec<u8>>, u64) {
    let rules_seat = rules_seat(&seat.info);
    let start = events.partition_point(|e| e.seq <= after);
    let page = &events[start..(start + limit).min(events.len())];
    let frames = page
        .iter()
        .filter_map(|e| frame_for(table, e, &rules_seat))
        .collect();
    (frames, page.last().map(|e| e.seq).unwrap_or(after))
}

impl Stream {
    pub fn new(table: &str) -> Self {
        Stream {
            table: table.to_owned(),
            subscribers: BTreeMap::new(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.subscribers.is_empty()
    }

    /// The seats with a connection listening now: those a new dice epoch waits for.
    pub fn seat_ids(&self) -> BTreeSet<String> {
        self.subscribers
            .values()
            .map(|s| s.seat.info.id.clone())
            .collect()
    }

    /// Subscribes `sink` for `seat`: the `subscribed` response for request `id` (with the log's
    /// `head`), then `backlog` (the seat's frames of the events it asked for, in order), then
    /// every event live. The backlog must fit what the outbox has free now, all of it or none:
    /// a response followed by an error for one request would leave the client unsure what it
    /// has.
    pub fn subscribe(
        &mut self,
        seat: SeatKey,
        sink: Sink,
        id: u64,
        head: u64,
        backlog: Vec<Vec<u8>>,
    ) -> Result<(), WireError> {
        let mut frames = vec![encode(&ServerMsg::Response {
            id,
            reply: Reply::Subscribed { head },
        })];
        frames.extend(backlog);
        if !self.subscribers.contains_key(&sink.conn) && self.subscribers.len() >= MAX_SUBSCRIBERS {
            return Err(WireError::new(
                ErrorCode::TableFull,
                format!("a table streams to at most {MAX_SUBSCRIBERS} connections"),
            ));
        }
        if frames.len() > sink.outbox.capacity() {
            return Err(WireError::new(
                ErrorCode::TooLarge,
                format!(
                    "more events are waiting than this connection takes at once (at most {}); subscribe from a later sequence",
                    sink.outbox.capacity().saturating_sub(1)
                ),
            ));
        }
        for frame in frames {
            if sink.outbox.try_send(Outbound::Frame(frame.into())).is_err() {
                return Err(WireError::new(
                    ErrorCode::TooLarge,
                    "the connection cannot take the backlog",
                ));
            }
        }
        self.subscribers.insert(
            sink.conn,
            Subscriber {
                seat,
                outbox: sink.outbox,
                kick: sink.kick,
            },
        );
        Ok(())
    }

    pub fn unsubscribe(&mut self, conn: u64) {
        self.subscribers.remove(&conn);
    }

    /// Sends a durable event to every subscriber that may see some of it. A subscriber whose
    /// outbox is full is dropped and its connection told to close: one slow reader must not
    /// hold up the table.
    pub fn fan_out(&mut self, e: &LoggedEvent) {
        let mut slow = Vec::new();
        // Seats that may see the same parts get the same frame: encoded once per audience,
        // not once per connection (a table of five players and a GM has two or three).
        let mut encoded: Vec<(Vec<bool>, Option<Frame>)> = Vec::new();
        for (conn, sub) in &self.subscribers {
            let seat = rules_seat(&sub.seat.info);
            let admitted: Vec<bool> = e.parts.iter().map(|p| p.audience.admits(&seat)).collect();
            let frame = match encoded.iter().find(|(mask, _)| *mask == admitted) {
                Some((_, frame)) => frame.clone(),
                None => {
                    let frame = frame_for(&self.table, e, &seat).map(Frame::from);
                    encoded.push((admitted, frame.clone()));
                    frame
                }
            };
            let Some(frame) = frame else {
                continue;
            };
            if sub.outbox.try_send(Outbound::Frame(frame)).is_err() {
                slow.push(*conn);
            }
        }
        for conn in slow {
            if let Some(sub) = self.subscribers.remove(&conn) {
                tracing::info!(table = %self.table, conn, "dropping a subscriber that stopped reading");
                sub.kick.notify_one();
            }
        }
    }

    /// Closes the connections of `seat` (revoked), or of every seat, with `reason`.
    pub fn close(&mut self, seat: Option<&str>, reason: &str) {
        let gone: Vec<u64> = self
            .subscribers
            .iter()
            .filter(|(_, s)| seat.is_none_or(|id| s.seat.info.id == id))
            .map(|(c, _)| *c)
            .collect();
        for conn in gone {
            if let Some(s) = self.subscribers.remove(&conn) {
                let _ = s.outbox.try_send(Outbound::Close(reason.to_owned()));
                s.kick.notify_one();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use tablehold_protocol::{EVENT_VERSION, Role, SeatInfo, decode_server};
    use tablehold_rules::{Audience, Fact, Part, SeatId};

    use super::*;

    fn key(id: &str, role: Role) -> SeatKey {
        SeatKey {
            table: "t".into(),
            info: SeatInfo {
                id: id.into(),
                name: id.into(),
                role,
                revoked: false,
            },
        }
    }

    fn logged(seq: u64, audience: Audience) -> LoggedEvent {
        let parts = vec![Part {
            audience,
            fact: Fact::RoundStarted {
                round: u32::try_from(seq).unwrap_or(0),
            },
        }];
        LoggedEvent {
            seq,
            version: EVENT_VERSION,
            at_ms: 0,
            stored: Arc::from(Vec::new()),
            parts,
            link: [0; 32],
        }
    }

    fn sink(conn: u64, capacity: usize) -> (Sink, mpsc::Receiver<Outbound>) {
        let (outbox, rx) = mpsc::channel(capacity);
        let kick = Arc::new(Notify::new());
        (Sink { conn, outbox, kick }, rx)
    }

    fn seqs(rx: &mut mpsc::Receiver<Outbound>) -> Vec<u64> {
        let mut out = Vec::new();
        while let Ok(Outbound::Frame(f)) = rx.try_recv() {
            if let Ok(ServerMsg::Event(e)) = decode_server(&f) {
                out.push(e.seq);
            }
        }
        out
    }

    /// The frames `seat` is given of the events of `log` after `after`.
    fn seen(log: &[LoggedEvent], seat: &str, after: u64) -> Vec<Vec<u8>> {
        let role = if seat == "gm" { Role::Gm } else { Role::Player };
        let rules_seat = rules_seat(&key(seat, role).info);
        log.iter()
            .filter(|e| e.seq > after)
            .filter_map(|e| frame_for("t", e, &rules_seat))
            .collect()
    }

    #[test]
    fn a_subscriber_gets_its_backlog_then_live_events_as_its_seat_sees_them() {
        let only_rui = Audience::Seats(BTreeSet::from([SeatId::from("rui")]));
        let log = vec![
            logged(1, Audience::Everyone),
            logged(2, Audience::GmOnly),
            logged(3, only_rui.clone()),
        ];
        let mut stream = Stream::new("t");
        let (ines, mut ines_rx) = sink(1, 8);
        let (gm, mut gm_rx) = sink(2, 8);
        stream
            .subscribe(key("ines", Role::Player), ines, 7, 3, seen(&log, "ines", 0))
            .expect("subscribe");
        stream
            .subscribe(key("gm", Role::Gm), gm, 8, 3, seen(&log, "gm", 1))
            .expect("subscribe");
        stream.fan_out(&logged(4, only_rui));
        stream.fan_out(&logged(5, Audience::Everyone));
        assert_eq!(seqs(&mut ines_rx), [1, 5], "gaps, never hidden content");
        assert_eq!(seqs(&mut gm_rx), [2, 3, 4, 5]);
    }

    #[test]
    fn a_reader_that_stops_reading_is_dropped_and_the_others_go_on() {
        let mut stream = Stream::new("t");
        let (slow, _slow_rx) = sink(1, 2);
        let kicked = slow.kick.clone();
        let (fast, mut fast_rx) = sink(2, 8);
        stream
            .subscribe(key("ines", Role::Player), slow, 1, 0, Vec::new())
            .expect("subscribe");
        stream
            .subscribe(key("rui", Role::Player), fast, 2, 0, Vec::new())
            .expect("subscribe");
        for seq in 1..=3 {
            stream.fan_out(&logged(seq, Audience::Everyone));
        }
        assert_eq!(stream.seat_ids(), BTreeSet::from(["rui".to_owned()]));
        assert_eq!(seqs(&mut fast_rx), [1, 2, 3]);
        // The dropped connection was told (a permit is stored for its handler).
        let woke = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("runtime")
            .block_on(async {
                tokio::time::timeout(std::time::Duration::from_secs(1), kicked.notified())
                    .await
                    .is_ok()
            });
        assert!(woke);
    }

    #[test]
    fn a_backlog_larger_than_the_outbox_is_refused_whole() {
        let log: Vec<LoggedEvent> = (1..=4).map(|s| logged(s, Audience::Everyone)).collect();
        let mut stream = Stream::new("t");
        let (small, mut rx) = sink(1, 3);
        let got = stream.subscribe(
            key("ines", Role::Player),
            small,
            1,
            4,
            seen(&log, "ines", 0),
        );
        assert_eq!(got.err().map(|e| e.code), Some(ErrorCode::TooLarge));
        assert!(rx.try_recv().is_err(), "nothing was sent");
        assert!(stream.is_empty());
        let (page, last) = backlog("t", &log, &key("ines", Role::Player), 1, 2);
        assert_eq!((page.len(), last), (2, 3));
    }

    #[test]
    fn a_revoked_seat_is_closed_and_no_one_else() {
        let mut stream = Stream::new("t");
        let (ines, mut ines_rx) = sink(1, 4);
        let (rui, _rui_rx) = sink(2, 4);
        stream
            .subscribe(key("ines", Role::Player), ines, 1, 0, Vec::new())
            .expect("subscribe");
        stream
            .subscribe(key("rui", Role::Player), rui, 2, 0, Vec::new())
            .expect("subscribe");
        stream.close(Some("ines"), "your seat was revoked by the GM");
        assert_eq!(stream.seat_ids(), BTreeSet::from(["rui".to_owned()]));
        let mut closed = false;
        while let Ok(out) = ines_rx.try_recv() {
            closed |= matches!(out, Outbound::Close(r) if r.contains("revoked"));
        }
        assert!(closed);
    }
}

//! The end of the table's log in memory: its head, the link the next event chains from, and
//! the latest events as logged (decoded for fan-out, with their stored bytes and links for
//! exports, which must hash exactly what the log holds). Appending seals an event onto the
//! chain and gives the record to write.
//!
//! Only a bounded tail is kept, so a table's memory does not grow with the length of its log:
//! every event not yet durable (the pipeline fans it out from here once it is), and the last
//! [`TAIL_EVENTS`] durable ones, which serve most reconnections without a read. Anything older
//! is read back from the store (`history.rs`).

use std::collections::VecDeque;
use std::sync::Arc;

use tablehold_log::{Link, seal};
use tablehold_protocol::EVENT_VERSION;
use tablehold_rules::upgrade::parts_from_json;
use tablehold_rules::{Event, Part};

use crate::auth;
use crate::store::EventRecord;

/// How many durable events a table keeps in memory: a client back from a short drop, or a
/// newcomer to a quiet table, is served from here; a longer gap is paged from the store.
pub const TAIL_EVENTS: usize = 16;

/// One event as the table keeps it in memory: decoded for fan-out, and its stored bytes and
/// link for exports, which must hash exactly what the log holds.
#[derive(Debug, Clone)]
pub struct LoggedEvent {
    pub seq: u64,
    pub version: u32,
    pub at_ms: u64,
    pub parts: Vec<Part>,
    pub stored: Arc<[u8]>,
    pub link: Link,
}

impl LoggedEvent {
    /// A stored event decoded (through the upgrade, for an older format); refused when a newer
    /// build wrote it. Its link is the caller's to check where it matters (a load does).
    pub fn decode(record: &EventRecord) -> Result<LoggedEvent, String> {
        if record.version > EVENT_VERSION || record.version == 0 {
            return Err(format!(
                "event {} has format version {}, and this build reads up to {EVENT_VERSION}",
                record.seq, record.version
            ));
        }
        let parts = parts_from_json(record.version, &record.parts).map_err(|e| e.to_string())?;
        Ok(LoggedEvent {
            seq: record.seq,
            version: record.version,
            at_ms: record.at_ms,
            parts,
            stored: record.parts.as_slice().into(),
            link: record.link,
        })
    }
}

pub struct Journal {
    table: String,
    head: u64,
    last_link: Link,
    /// Consecutive events ending at `head`.
    tail: VecDeque<LoggedEvent>,
}

impl Journal {
    /// The journal of a table whose log ends with `events` (all durable): only the last
    /// [`TAIL_EVENTS`] are kept.
    pub fn new(table: &str, head: u64, last_link: Link, events: Vec<LoggedEvent>) -> Self {
        let skip = events.len().saturating_sub(TAIL_EVENTS);
        Journal {
            table: table.to_owned(),
            head,
            last_link,
            tail: events.into_iter().skip(skip).collect(),
        }
    }

    /// The sequence number of the last event; 0 for an empty log.
    pub fn head(&self) -> u64 {
        self.head
    }

    /// The first sequence number held in memory (`head + 1` when none is).
    pub fn first_held(&self) -> u64 {
        self.tail.front().map_or(self.head + 1, |e| e.seq)
    }

    pub fn get(&self, seq: u64) -> Option<&LoggedEvent> {
        let first = self.tail.front()?.seq;
        usize::try_from(seq.checked_sub(first)?)
            .ok()
            .and_then(|i| self.tail.get(i))
    }

    /// The events after `after`, at most `limit`, when memory holds all of them from
    /// `after + 1` on; `None` when some are only in the store.
    pub fn held_after(&self, after: u64, limit: usize) -> Option<Vec<LoggedEvent>> {
        if after.saturating_add(1) < self.first_held() {
            return None;
        }
        let skip =
            usize::try_from(after.saturating_add(1) - self.first_held()).unwrap_or(usize::MAX);
        Some(self.tail.iter().skip(skip).take(limit).cloned().collect())
    }

    /// Lets go of durable events beyond the tail: every event up to `durable` is in the store.
    pub fn forget_durable(&mut self, durable: u64) {
        while self.tail.len() > TAIL_EVENTS && self.tail.front().is_some_and(|e| e.seq <= durable) {
            self.tail.pop_front();
        }
    }

    /// The link of the last event: what the next one chains from.
    pub fn last_link(&self) -> Link {
        self.last_link
    }

    /// How many events are held in memory.
    pub fn held(&self) -> usize {
        self.tail.len()
    }

    /// Seals `event` as the next one (hidden parts get a fresh salt) and returns the record to
    /// write.
    pub fn append(&mut self, event: Event, at_ms: u64) -> EventRecord {
        let seq = self.head + 1;
        let (stored, link) = seal(
            &self.last_link,
            seq,
            EVENT_VERSION,
            at_ms,
            &event.parts,
            &mut auth::new_salt,
        );
        let record = EventRecord {
            table: self.table.clone(),
            seq,
            version: EVENT_VERSION,
            at_ms,
            parts: stored.clone(),
            link,
        };
        self.tail.push_back(LoggedEvent {
            seq,
            version: EVENT_VERSION,
            at_ms,
            parts: event.parts,
            stored: stored.into(),
            link,
        });
        self.head = seq;
        self.last_link = link;
        record
    }
}

#[cfg(test)]
mod tests {
    use tablehold_log::{GENESIS, link_of_stored};
    use tablehold_rules::Fact;

    use super::*;

    #[test]
    fn appended_events_chain_from_genesis_without_gaps() {
        let mut j = Journal::new("t", 0, GENESIS, Vec::new());
        assert_eq!(j.head(), 0);
        let mut prev = GENESIS;
        for round in 1..=3 {
            let r = j.append(Event::public(Fact::RoundStarted { round }), 5);
            assert_eq!(r.seq, u64::from(round));
            let link = link_of_stored(&prev, r.seq, r.version, r.at_ms, &r.parts).expect("link");
            assert_eq!(link, r.link, "the record's link is the chain's");
            prev = link;
        }
        assert_eq!(j.head(), 3);
        assert_eq!(j.get(2).map(|e| e.seq), Some(2));
        assert!(j.get(0).is_none() && j.get(4).is_none());
        assert_eq!(j.held_after(0, 10).map(|e| e.len()), Some(3));
    }

    // A long table keeps the same memory as a short one: durable events beyond the tail are
    // let go (the store has them), events not yet durable never are, and what is held is
    // served only when it covers the request from its start.
    #[test]
    fn only_the_tail_and_what_is_not_yet_durable_stay_in_memory() {
        let mut j = Journal::new("t", 0, GENESIS, Vec::new());
        let total = 10 * TAIL_EVENTS as u64;
        for round in 1..=total {
            j.append(
                Event::public(Fact::RoundStarted {
                    round: round as u32,
                }),
                5,
            );
        }
        assert_eq!(j.held() as u64, total, "nothing is durable yet");
        j.forget_durable(100);
        assert_eq!(j.first_held(), 101, "only durable events are let go");
        j.forget_durable(total);
        assert_eq!(j.held(), TAIL_EVENTS);
        assert_eq!(j.first_held(), total - TAIL_EVENTS as u64 + 1);
        assert_eq!(j.head(), total);
        assert!(j.held_after(0, 10).is_none(), "seq 1 is only in the store");
        assert!(j.held_after(total - TAIL_EVENTS as u64 - 1, 10).is_none());
        let from_first = j.held_after(total - TAIL_EVENTS as u64, 3).expect("held");
        assert_eq!(
            from_first.iter().map(|e| e.seq).collect::<Vec<_>>(),
            [1, 2, 3].map(|i| total - TAIL_EVENTS as u64 + i)
        );
        assert_eq!(j.held_after(total, 10).map(|e| e.len()), Some(0));
        assert_eq!(j.held_after(total + 5, 10).map(|e| e.len()), Some(0));
        // A journal built from a loaded log keeps only its tail, and chains on from its head.
        let loaded: Vec<LoggedEvent> = (1..=total).filter_map(|s| j.get(s).cloned()).collect();
        let rebuilt = Journal::new("t", total, j.last_link, loaded);
        assert_eq!(rebuilt.held(), TAIL_EVENTS);
        assert_eq!(rebuilt.head(), total);
    }
}

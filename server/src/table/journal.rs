//! The table's log in memory: every event as logged, in sequence order, with its stored bytes
//! and its link in the hash chain. Appending seals an event onto the chain and gives the record
//! to write; whether it is durable yet is the pipeline's business, not this module's.

use std::sync::Arc;

use tablehold_log::{GENESIS, Link, seal};
use tablehold_protocol::EVENT_VERSION;
use tablehold_rules::{Event, Part};

use crate::auth;
use crate::store::EventRecord;

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

pub struct Journal {
    table: String,
    events: Vec<LoggedEvent>,
}

impl Journal {
    pub fn new(table: &str, events: Vec<LoggedEvent>) -> Self {
        Journal {
            table: table.to_owned(),
            events,
        }
    }

    /// The sequence number of the last event; 0 for an empty log.
    pub fn head(&self) -> u64 {
        self.events.last().map(|e| e.seq).unwrap_or(0)
    }

    pub fn events(&self) -> &[LoggedEvent] {
        &self.events
    }

    pub fn get(&self, seq: u64) -> Option<&LoggedEvent> {
        usize::try_from(seq.checked_sub(1)?)
            .ok()
            .and_then(|i| self.events.get(i))
    }

    /// Every event as `(seq, parts)`.
    pub fn logged(&self) -> impl Iterator<Item = (u64, &[Part])> {
        self.events.iter().map(|e| (e.seq, e.parts.as_slice()))
    }

    /// Every event's parts, for building a newcomer's view of the log so far.
    pub fn history(&self) -> Vec<&[Part]> {
        self.events.iter().map(|e| e.parts.as_slice()).collect()
    }

    fn last_link(&self) -> Link {
        self.events.last().map_or(GENESIS, |e| e.link)
    }

    /// Seals `event` as the next one (hidden parts get a fresh salt) and returns the record to
    /// write.
    pub fn append(&mut self, event: Event, at_ms: u64) -> EventRecord {
        let seq = self.head() + 1;
        let (stored, link) = seal(
            &self.last_link(),
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
        self.events.push(LoggedEvent {
            seq,
            version: EVENT_VERSION,
            at_ms,
            parts: event.parts,
            stored: stored.into(),
            link,
        });
        record
    }
}

#[cfg(test)]
mod tests {
    use tablehold_log::link_of_stored;
    use tablehold_rules::Fact;

    use super::*;

    #[test]
    fn appended_events_chain_from_genesis_without_gaps() {
        let mut j = Journal::new("t", Vec::new());
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
        assert_eq!(j.history().len(), 3);
    }
}

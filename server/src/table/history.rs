//! The log behind the journal's tail: events older than what the table keeps in memory are read
//! back from the store, page by page, for the requests that need them (a long backlog, an
//! export, the view of a seat that joined late). Every event older than the tail is durable
//! (the journal lets go of nothing else), so the store and the tail together always hold the
//! whole log.

use tablehold_protocol::ErrorCode;

use super::WireError;
use super::journal::LoggedEvent;
use super::task::Table;

/// How many events one read of the store brings back.
pub const PAGE_EVENTS: usize = 256;

impl Table {
    /// The events after `after`, in order, at most `limit`: from memory when the tail holds
    /// them, else from the store. Fewer than `limit` only at the head.
    pub(super) async fn events_after(
        &self,
        after: u64,
        limit: usize,
    ) -> Result<Vec<LoggedEvent>, WireError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        if let Some(held) = self.journal.held_after(after, limit) {
            return Ok(held);
        }
        let unreadable = |e: &dyn std::fmt::Display| {
            WireError::new(
                ErrorCode::Internal,
                format!("the table's log could not be read: {e}"),
            )
        };
        // Older than the tail: those the store has, the tail's own first events after them.
        let stored_up_to = self.journal.first_held() - 1;
        let wanted = usize::try_from(stored_up_to - after)
            .unwrap_or(usize::MAX)
            .min(limit);
        let records = self
            .store
            .events_after(&self.id, after, wanted)
            .await
            .map_err(|e| unreadable(&e))?;
        let mut events = records
            .iter()
            .map(LoggedEvent::decode)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| unreadable(&e))?;
        let reached = events.last().map_or(after, |e| e.seq);
        if reached != after + u64::try_from(events.len()).unwrap_or(u64::MAX) || reached == after {
            return Err(unreadable(&format!(
                "the store has a gap after event {after} (the table holds events from {})",
                self.journal.first_held()
            )));
        }
        if events.len() < limit
            && let Some(held) = self.journal.held_after(reached, limit - events.len())
        {
            events.extend(held);
        }
        Ok(events)
    }

    /// Builds the view of every seat that has none yet (one that joined since the table
    /// loaded) from the whole log, so that its state and digests are those of the parts it
    /// was shown.
    pub(super) async fn track_new_seats(&mut self) -> Result<(), WireError> {
        let missing = self.audiences.missing(&self.seating.audience_ids());
        for seat in missing {
            let mut building = self.audiences.begin(&seat);
            let mut at = 0;
            while at < self.journal.head() {
                let page = self.events_after(at, PAGE_EVENTS).await?;
                let Some(last) = page.last() else { break };
                at = last.seq;
                for e in &page {
                    building.feed(&e.parts);
                }
            }
            self.audiences.add(building);
        }
        Ok(())
    }
}

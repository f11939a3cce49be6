//! Every open decision window's deadline: when its default applies. It follows the state's
//! open windows; a new window gets a fresh deadline from its own timeout, one still open
//! keeps the deadline it had, and a closed one is forgotten.

use std::collections::BTreeMap;
use std::time::Duration;

use tokio::time::Instant;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Deadline {
    at: Instant,
    at_ms: u64,
}

#[derive(Default)]
pub struct Deadlines {
    open: BTreeMap<u64, Deadline>,
}

impl Deadlines {
    /// Follows `open`, each open window's id and timeout. `now` and `now_ms` are the same
    /// moment on the monotonic and the wall clock.
    pub fn track(&mut self, open: &[(u64, u64)], now: Instant, now_ms: u64) {
        self.open.retain(|id, _| open.iter().any(|(o, _)| o == id));
        for (id, timeout_ms) in open {
            self.open.entry(*id).or_insert_with(|| Deadline {
                at: now + Duration::from_millis(*timeout_ms),
                at_ms: now_ms.saturating_add(*timeout_ms),
            });
        }
    }

    /// The earliest deadline of any open window.
    pub fn at(&self) -> Option<Instant> {
        self.open.values().map(|d| d.at).min()
    }

    /// Each open window's deadline in Unix milliseconds, for clients.
    pub fn at_ms(&self) -> BTreeMap<u64, u64> {
        self.open.iter().map(|(id, d)| (*id, d.at_ms)).collect()
    }

    /// The window whose deadline comes first (the one that passed, when the table wakes at
    /// [`Deadlines::at`]); it is forgotten until tracked again or put back. Ties go to the
    /// older window.
    pub fn take(&mut self) -> Option<Due> {
        let (id, deadline) = self
            .open
            .iter()
            .min_by_key(|(id, d)| (d.at, **id))
            .map(|(id, d)| (*id, *d))?;
        self.open.remove(&id);
        Some(Due { id, deadline })
    }

    /// A window taken whose default could not apply yet keeps the deadline it had: clients
    /// were told it.
    pub fn put_back(&mut self, due: Due) {
        self.open.insert(due.id, due.deadline);
    }
}

/// A window whose deadline passed, as [`Deadlines::take`] gives it.
pub struct Due {
    pub id: u64,
    deadline: Deadline,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_keeps_its_deadline_and_a_new_one_gets_its_own() {
        let t0 = Instant::now();
        let mut d = Deadlines::default();
        d.track(&[(3, 500)], t0, 1_000);
        assert_eq!(d.at(), Some(t0 + Duration::from_millis(500)));
        assert_eq!(d.at_ms(), BTreeMap::from([(3, 1_500)]));
        // The same window seen later keeps the deadline it had.
        d.track(&[(3, 500)], t0 + Duration::from_millis(400), 1_400);
        assert_eq!(d.at_ms(), BTreeMap::from([(3, 1_500)]));
        // A second window opens beside it, with a shorter timeout: both are kept, and the
        // table wakes for the earlier one.
        d.track(&[(3, 500), (4, 20)], t0 + Duration::from_millis(450), 1_450);
        assert_eq!(d.at_ms(), BTreeMap::from([(3, 1_500), (4, 1_470)]));
        assert_eq!(d.at(), Some(t0 + Duration::from_millis(470)));
        assert_eq!(d.take().map(|d| d.id), Some(4));
        let three = d.take().expect("3");
        assert_eq!(three.id, 3);
        // Put back, it keeps its deadline.
        d.put_back(three);
        assert_eq!(d.at_ms(), BTreeMap::from([(3, 1_500)]));
        assert_eq!(d.take().map(|d| d.id), Some(3));
        assert_eq!((d.at(), d.at_ms()), (None, BTreeMap::new()));
        // A window that closed is forgotten.
        d.track(&[(5, 10), (6, 10)], t0, 0);
        d.track(&[(6, 10)], t0, 0);
        assert_eq!(d.at_ms(), BTreeMap::from([(6, 10)]));
        d.track(&[], t0, 0);
        assert!(d.take().is_none());
    }

    #[test]
    fn windows_due_at_once_time_out_oldest_first() {
        let t0 = Instant::now();
        let mut d = Deadlines::default();
        d.track(&[(9, 100), (2, 100)], t0, 0);
        assert_eq!(d.take().map(|d| d.id), Some(2));
        assert_eq!(d.take().map(|d| d.id), Some(9));
    }
}

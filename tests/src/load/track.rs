//! Following each action from its send to the moment the last seat of its table received its
//! event: the latency the load generator reports.

use std::collections::HashMap;
use std::time::Instant;

use hdrhistogram::Histogram;

use super::LoadError;

/// Microseconds from 1 to 10 minutes, to 3 significant digits.
pub fn histogram() -> Result<Histogram<u64>, LoadError> {
    Histogram::new_with_bounds(1, 600_000_000, 3).map_err(|e| LoadError::Arguments(e.to_string()))
}

/// What one table's seats have received, and which actions are waiting for it.
pub struct TableTrack {
    seats: usize,
    /// Per event seq: how many seats have it, and when the last one got it.
    arrived: HashMap<u64, (usize, Instant)>,
    /// Per event seq of an acknowledged action: when it was sent.
    sent: HashMap<u64, Instant>,
    /// Actions acknowledged by the server (their event is durable).
    pub acknowledged: u64,
    /// Acknowledged actions whose event reached every seat.
    pub delivered: u64,
    /// Microseconds from send to the last seat's receipt, per delivered action.
    pub latency: Histogram<u64>,
}

impl TableTrack {
    pub fn new(seats: usize) -> Result<TableTrack, LoadError> {
        Ok(TableTrack {
            seats,
            arrived: HashMap::new(),
            sent: HashMap::new(),
            acknowledged: 0,
            delivered: 0,
            latency: histogram()?,
        })
    }

    /// A seat received event `seq`.
    pub fn arrived(&mut self, seq: u64, at: Instant) {
        let entry = self.arrived.entry(seq).or_insert((0, at));
        entry.0 += 1;
        entry.1 = entry.1.max(at);
        self.settle(seq);
    }

    /// The server acknowledged an action sent at `sent`, whose event is `seq`.
    pub fn acknowledged(&mut self, seq: u64, sent: Instant) {
        self.acknowledged += 1;
        self.sent.insert(seq, sent);
        self.settle(seq);
    }

    fn settle(&mut self, seq: u64) {
        let complete = self
            .arrived
            .get(&seq)
            .is_some_and(|(n, _)| *n >= self.seats);
        if !complete {
            return;
        }
        if let Some(sent) = self.sent.remove(&seq) {
            let last = self.arrived.get(&seq).map_or(sent, |(_, at)| *at);
            let micros = u64::try_from(last.saturating_duration_since(sent).as_micros())
                .unwrap_or(u64::MAX)
                .max(1);
            let _ = self.latency.record(micros);
            self.delivered += 1;
            self.arrived.remove(&seq);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn an_action_counts_once_every_seat_has_it_in_whichever_order_things_arrive() {
        let t0 = Instant::now();
        let ms = |n| t0 + Duration::from_millis(n);
        let mut t = TableTrack::new(3).expect("a histogram");
        // Acknowledged first, then the three seats.
        t.acknowledged(5, t0);
        t.arrived(5, ms(2));
        t.arrived(5, ms(7));
        assert_eq!(t.delivered, 0, "two of three seats");
        t.arrived(5, ms(4));
        assert_eq!((t.acknowledged, t.delivered), (1, 1));
        assert_eq!(t.latency.max() / 1000, 7, "the last seat's receipt counts");
        // Every seat before the acknowledgement.
        for at in [1, 2, 3] {
            t.arrived(6, ms(10 + at));
        }
        assert_eq!(t.delivered, 1);
        t.acknowledged(6, ms(9));
        assert_eq!(t.delivered, 2);
        // An event nobody sent (an epoch's) never counts.
        for _ in 0..3 {
            t.arrived(7, ms(20));
        }
        assert_eq!((t.acknowledged, t.delivered), (2, 2));
    }
}

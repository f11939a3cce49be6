//! The open prompt's deadline: when its default applies. It follows the state's top prompt;
//! a new prompt gets a fresh deadline from its own timeout, and the same prompt keeps its own.

use std::time::Duration;

use tokio::time::Instant;

struct Deadline {
    prompt_id: u64,
    at: Instant,
    at_ms: u64,
}

#[derive(Default)]
pub struct Deadlines {
    current: Option<Deadline>,
}

impl Deadlines {
    /// Follows `top`, the open prompt's id and timeout, if any. `now` and `now_ms` are the
    /// same moment on the monotonic and the wall clock.
    pub fn track(&mut self, top: Option<(u64, u64)>, now: Instant, now_ms: u64) {
        match (top, &self.current) {
            (None, _) => self.current = None,
            (Some((id, _)), Some(d)) if d.prompt_id == id => {}
            (Some((id, timeout_ms)), _) => {
                self.current = Some(Deadline {
                    prompt_id: id,
                    at: now + Duration::from_millis(timeout_ms),
                    at_ms: now_ms.saturating_add(timeout_ms),
                });
            }
        }
    }

    pub fn at(&self) -> Option<Instant> {
        self.current.as_ref().map(|d| d.at)
    }

    /// The deadline in Unix milliseconds, for clients; 0 when no prompt is open.
    pub fn at_ms(&self) -> u64 {
        self.current.as_ref().map(|d| d.at_ms).unwrap_or(0)
    }

    /// The prompt whose deadline passed; it is forgotten until tracked again.
    pub fn take(&mut self) -> Option<u64> {
        self.current.take().map(|d| d.prompt_id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prompt_keeps_its_deadline_and_a_new_one_gets_its_own() {
        let t0 = Instant::now();
        let mut d = Deadlines::default();
        d.track(Some((3, 500)), t0, 1_000);
        assert_eq!(d.at(), Some(t0 + Duration::from_millis(500)));
        assert_eq!(d.at_ms(), 1_500);
        // The same prompt seen later keeps the deadline it had.
        d.track(Some((3, 500)), t0 + Duration::from_millis(400), 1_400);
        assert_eq!(d.at_ms(), 1_500);
        d.track(Some((4, 200)), t0 + Duration::from_millis(450), 1_450);
        assert_eq!(d.at_ms(), 1_650);
        assert_eq!(d.take(), Some(4));
        assert_eq!((d.at(), d.at_ms()), (None, 0));
        d.track(Some((5, 10)), t0, 0);
        d.track(None, t0, 0);
        assert_eq!(d.take(), None);
    }
}

//! Wall-clock time, read only by the table task to stamp events and set prompt deadlines
//! (DESIGN.md, "Time"). No rule ever reads it.

use std::time::{SystemTime, UNIX_EPOCH};

pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

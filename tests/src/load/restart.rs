//! `--restart`: what a restart costs the tables the runs left behind. The server is killed
//! without warning (the worst case: no snapshot written at unload, so each table replays the
//! events since its last one), started again on the same data file, and each table is asked
//! for one action in turn: the time from authenticating (which loads the table) to that
//! action's answer, and the server's memory once every table is loaded.

use std::time::Instant;

use tablehold_protocol::{Op, Reply};

use super::seat::{ACTION, Conn};
use super::{LoadError, procfs, track};

/// What a restart cost.
#[derive(Debug, Clone)]
pub struct Restarted {
    pub tables: usize,
    /// Milliseconds from a table's first request after the restart to its first action's
    /// answer.
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    /// The server's RSS with every table loaded (absent without `/proc`).
    pub rss_kib: Option<u64>,
}

/// Asks each table (`(id, GM token)`) of the server at `url` for one action, one table after
/// the other, and times it.
pub async fn first_actions(
    url: &str,
    pid: Option<u32>,
    tables: &[(String, String)],
) -> Result<Restarted, LoadError> {
    let mut latency = track::histogram()?;
    // Connections stay open so that no table unloads before the memory is read.
    let mut held = Vec::with_capacity(tables.len());
    for (table, token) in tables {
        let mut gm = Conn::open(url).await?;
        let started = Instant::now();
        gm.call(Op::Auth {
            table: table.clone(),
            token: token.clone(),
        })
        .await?;
        let reply = gm
            .call(Op::Roll {
                dice: ACTION.into(),
                secret: false,
            })
            .await?;
        if !matches!(reply, Reply::Applied { .. }) {
            return Err(LoadError::Protocol(format!(
                "the first roll after the restart answered {reply:?}"
            )));
        }
        let micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
        let _ = latency.record(micros.max(1));
        held.push(gm);
    }
    let ms = |q: f64| latency.value_at_quantile(q) as f64 / 1000.0;
    Ok(Restarted {
        tables: tables.len(),
        p50_ms: ms(0.5),
        p99_ms: ms(0.99),
        max_ms: latency.max() as f64 / 1000.0,
        rss_kib: pid.and_then(procfs::read).map(|r| r.rss_kib),
    })
}

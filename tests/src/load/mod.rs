//! `tablehold-load`: N tables of M real WebSocket clients on loopback, offering free rolls at a
//! fixed total rate for a fixed time whatever the server answers (an open loop: a slow server
//! gets more work queued, never less offered), and what came of them.
//!
//! Every action is `roll 1d20` from a seat chosen in turn, which any seat may send at any time.
//! Only acknowledged actions count, and an action is delivered when its event has reached every
//! seat of its table; its latency runs from the send to that last receipt. Refusals (the
//! server's `rate_limited` under overload) are counted apart and never count as done.

mod procfs;
pub mod relay;
mod relay_seat;
pub mod restart;
mod seat;
mod server;
mod track;

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tablehold_protocol::{Op, Reply, Role};
use tokio::sync::{mpsc, watch};

pub use procfs::Reading;
pub use server::Spawned;

use seat::{Conn, Totals, Ws, lock};
use track::TableTrack;

/// Why a run could not be made. None of these is a figure: a run that fails says so.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot reach the server: {0}")]
    Connect(String),
    #[error("the server sent something unexpected: {0}")]
    Protocol(String),
    #[error("the server refused a setup request: {0}")]
    Refused(String),
    #[error("cannot start the server: {0}")]
    Spawn(String),
    #[error("{0}")]
    Arguments(String),
}

/// One run's shape.
#[derive(Debug, Clone)]
pub struct Shape {
    pub tables: usize,
    /// Seats per table, the GM included.
    pub clients: usize,
    /// Actions offered per second, over all tables.
    pub rate: f64,
    pub seconds: f64,
    /// How long to wait, once the offer stops, for answers and deliveries still on the way.
    pub grace: Duration,
}

impl Shape {
    /// Refuses shapes that cannot be run, saying why.
    pub fn check(&self) -> Result<(), LoadError> {
        let bad = |why: &str| Err(LoadError::Arguments(why.to_owned()));
        if self.tables == 0 || self.tables > 100_000 {
            return bad("--tables takes 1 to 100000");
        }
        if self.clients == 0 || self.clients > 9 {
            return bad("--clients takes 1 to 9 (the GM and up to 8 players a table)");
        }
        if !(self.rate.is_finite() && self.rate > 0.0 && self.rate <= 10_000_000.0) {
            return bad("--rate takes a number of actions per second above 0");
        }
        if !(self.seconds.is_finite() && self.seconds > 0.0 && self.seconds <= 86_400.0) {
            return bad("--seconds takes a duration above 0, at most a day");
        }
        Ok(())
    }
}

/// What one run gave.
#[derive(Debug, Clone, Default)]
pub struct Figures {
    pub offered: u64,
    pub offered_per_s: f64,
    pub acknowledged: u64,
    pub delivered: u64,
    pub delivered_per_s: f64,
    pub refused: u64,
    /// Seats the server closed during the run.
    pub dropped_seats: u64,
    /// Milliseconds from when an action was due to the last seat's receipt.
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub p999_ms: f64,
    pub max_ms: f64,
    /// The server's CPU over the run, in percent of one core; RSS at its end; bytes it
    /// caused to be written per acknowledged action (absent without `/proc`).
    pub server_cpu_pct: Option<f64>,
    pub server_rss_kib: Option<u64>,
    pub bytes_written_per_action: Option<f64>,
    /// With `--check`: acknowledged rolls not found in their table's log (0 when the log
    /// holds every one).
    pub missing_from_log: Option<u64>,
    /// The tables of the run, as `(id, GM token)`, for `--restart`.
    pub tables: Vec<(String, String)>,
}

/// What is loaded: a Tablehold server, or the bare relay of `--baseline`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Tablehold,
    Relay,
}

/// One seat, connected and ready to load.
enum Ready {
    Tablehold(Conn),
    Relay(Ws, u64),
}

/// Sets up `shape.tables` tables on the server (or relay) at `url` and offers the load once.
pub async fn run(
    url: &str,
    pid: Option<u32>,
    shape: &Shape,
    check: bool,
    target: Target,
) -> Result<Figures, LoadError> {
    shape.check()?;
    let mut seats = Vec::new();
    let mut tables = Vec::new();
    // Relay tables get fresh names on every run, so runs of one relay never share a table.
    static RUN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUN.fetch_add(1, Ordering::Relaxed);
    for t in 0..shape.tables {
        let track = Arc::new(Mutex::new(TableTrack::new(shape.clients)?));
        match target {
            Target::Tablehold => {
                let (conns, id, gm_token) = open_table(url, t, shape.clients).await?;
                for conn in conns {
                    seats.push((Ready::Tablehold(conn), Arc::clone(&track)));
                }
                tables.push((id, gm_token, track));
            }
            Target::Relay => {
                for me in 0..shape.clients {
                    let ws = relay_seat::join(url, run * 1_000_000 + t).await?;
                    seats.push((Ready::Relay(ws, me as u64), Arc::clone(&track)));
                }
                tables.push((String::new(), String::new(), track));
            }
        }
    }
    let totals = Arc::new(Totals::default());
    let (stop_tx, stop) = watch::channel(false);
    let mut senders = Vec::new();
    let mut tasks = Vec::new();
    for (ready, track) in seats {
        let (tx, rx) = mpsc::unbounded_channel();
        senders.push(tx);
        let (stop, totals) = (stop.clone(), Arc::clone(&totals));
        tasks.push(match ready {
            Ready::Tablehold(conn) => tokio::spawn(conn.run(rx, stop, track, totals)),
            Ready::Relay(ws, me) => {
                let wire = relay_seat::Relayed { me };
                tokio::spawn(seat::drive(ws, wire, 1, rx, stop, track, totals))
            }
        });
    }
    let before = pid.and_then(procfs::read);
    let started = Instant::now();
    let offered = offer(&senders, shape).await;
    drop(senders);
    let offer_time = started.elapsed().as_secs_f64();
    // Answers and deliveries still on the way, up to the grace period.
    let deadline = Instant::now() + shape.grace;
    loop {
        // Counted against what was offered, not what the seats have sent so far: an order
        // still in a seat's queue is still on the way.
        let answered = totals.answered.load(Ordering::Relaxed);
        let sent = offered.max(totals.sent.load(Ordering::Relaxed));
        let (ack, delivered) = tables.iter().fold((0, 0), |(a, d), (_, _, t)| {
            let t = lock(t);
            (a + t.acknowledged, d + t.delivered)
        });
        if (answered >= sent && delivered >= ack) || Instant::now() >= deadline {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let after = pid.and_then(procfs::read);
    let wall = started.elapsed().as_secs_f64();
    let _ = stop_tx.send(true);
    for mut task in tasks {
        // A seat still writing to a server that stopped reading is not waited for.
        match tokio::time::timeout(Duration::from_secs(2), &mut task).await {
            Ok(Ok(Err(e))) => return Err(e),
            Ok(_) => {}
            Err(_) => task.abort(),
        }
    }
    let mut figures = Figures {
        offered,
        offered_per_s: ratio(offered as f64, offer_time),
        refused: totals.refused.load(Ordering::Relaxed),
        dropped_seats: totals.dropped.load(Ordering::Relaxed),
        ..Figures::default()
    };
    let mut latency = track::histogram()?;
    for (_, _, t) in &tables {
        let t = lock(t);
        figures.acknowledged += t.acknowledged;
        figures.delivered += t.delivered;
        let _ = latency.add(&t.latency);
    }
    figures.delivered_per_s = ratio(figures.delivered as f64, offer_time);
    if target == Target::Tablehold {
        figures.tables = tables
            .iter()
            .map(|(id, token, _)| (id.clone(), token.clone()))
            .collect();
    }
    let ms = |q: f64| latency.value_at_quantile(q) as f64 / 1000.0;
    figures.p50_ms = ms(0.5);
    figures.p99_ms = ms(0.99);
    figures.p999_ms = ms(0.999);
    figures.max_ms = latency.max() as f64 / 1000.0;
    if let (Some(b), Some(a)) = (before, after) {
        figures.server_cpu_pct = Some(ratio(a.cpu_seconds - b.cpu_seconds, wall) * 100.0);
        figures.server_rss_kib = Some(a.rss_kib);
        figures.bytes_written_per_action = Some(ratio(
            a.write_bytes.saturating_sub(b.write_bytes) as f64,
            figures.acknowledged as f64,
        ));
    }
    if check && target == Target::Tablehold {
        let mut missing = 0;
        for (id, token, t) in &tables {
            let logged = logged_rolls(url, id, token).await?;
            // The warm-up roll is in the log too.
            let acknowledged = lock(t).acknowledged + 1;
            missing += acknowledged.saturating_sub(logged);
        }
        figures.missing_from_log = Some(missing);
    }
    Ok(figures)
}

fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 { a / b } else { 0.0 }
}

/// Hands out `shape.rate` actions a second, in turn over every seat, for `shape.seconds`,
/// checking the clock every millisecond: what is due is sent whatever came back. Each seat
/// gets one message a tick with the number of actions due from it, so that handing out the
/// load costs little beside what it measures. Returns how many were offered.
async fn offer(senders: &[mpsc::UnboundedSender<(u64, Instant)>], shape: &Shape) -> u64 {
    let started = Instant::now();
    let total = (shape.rate * shape.seconds).round() as u64;
    let mut offered = 0u64;
    let mut next = 0usize;
    let mut due_per_seat = vec![0u64; senders.len()];
    let mut tick = tokio::time::interval(Duration::from_millis(1));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    while offered < total && !senders.is_empty() {
        tick.tick().await;
        let now = Instant::now();
        let due = ((started.elapsed().as_secs_f64() * shape.rate) as u64).min(total);
        while offered < due {
            due_per_seat[next % senders.len()] += 1;
            next += 1;
            offered += 1;
        }
        for (tx, n) in senders.iter().zip(due_per_seat.iter_mut()) {
            if *n > 0 {
                let _ = tx.send((*n, now));
                *n = 0;
            }
        }
    }
    offered
}

/// Creates table number `n` with `clients` seats (the GM and players), connects and
/// subscribes each, and rolls once so that the table's dice epoch is open and sealed before
/// the load starts. Returns the connections, the table id and the GM's token.
async fn open_table(
    url: &str,
    n: usize,
    clients: usize,
) -> Result<(Vec<Conn>, String, String), LoadError> {
    let mut admin = Conn::open(url).await?;
    let created = admin
        .call(Op::CreateTable {
            system: "grimwire".into(),
            name: format!("load-{n}"),
            options: Default::default(),
            players: u32::try_from(clients - 1).unwrap_or(0),
            spectators: 0,
        })
        .await?;
    let Reply::TableCreated {
        table,
        gm_token,
        invites,
    } = created
    else {
        return Err(LoadError::Protocol(format!(
            "create_table answered {created:?}"
        )));
    };
    let mut conns = Vec::with_capacity(clients);
    let mut gm = Conn::open(url).await?;
    gm.call(Op::Auth {
        table: table.clone(),
        token: gm_token.clone(),
    })
    .await?;
    conns.push(gm);
    for (i, invite) in invites
        .iter()
        .filter(|i| i.role == Role::Player)
        .enumerate()
    {
        let mut c = Conn::open(url).await?;
        c.call(Op::Join {
            table: table.clone(),
            invite: invite.code.clone(),
            name: format!("p{i}"),
        })
        .await?;
        conns.push(c);
    }
    for c in &mut conns {
        c.call(Op::Subscribe { after: 0 }).await?;
    }
    if let Some(gm) = conns.first_mut() {
        gm.call(Op::Roll {
            dice: seat::ACTION.into(),
            secret: false,
        })
        .await?;
    }
    Ok((conns, table, gm_token))
}

/// How many `rolled` facts the table's log holds, from the GM's export.
async fn logged_rolls(url: &str, table: &str, token: &str) -> Result<u64, LoadError> {
    let mut gm = Conn::open(url).await?;
    gm.call(Op::Auth {
        table: table.to_owned(),
        token: token.to_owned(),
    })
    .await?;
    let mut after = 0;
    let mut rolls = 0;
    loop {
        match gm.call(Op::Export { after }).await? {
            Reply::ExportPage { events, more, .. } => {
                after += u64::try_from(events.len()).unwrap_or(0);
                for e in &events {
                    for p in &e.parts {
                        if let tablehold_log::ExportedPart::Shown { json } = p
                            && json.contains("\"fact\":\"rolled\"")
                        {
                            rolls += 1;
                        }
                    }
                }
                if !more {
                    return Ok(rolls);
                }
            }
            other => return Err(LoadError::Protocol(format!("export answered {other:?}"))),
        }
    }
}

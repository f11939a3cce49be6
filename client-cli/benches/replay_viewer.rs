//! How fast the replay viewer answers on a long log (issue 16: stepping back on a
//! 100,000-event log within 200 ms). The log is a GM's export of a generated session of at
//! least 100,000 events, built as `tablehold-log`'s own benchmarks and tests build theirs
//! (`log/benches/sample`: real commands through the real `decide` on the fair stream, epochs,
//! digests, sealed into an export). The viewer is the binary's own (`tui::replay::Player`),
//! driven by its keys:
//!
//! - `viewer/open`: reading the log and keeping its snapshots, once, printed;
//! - `viewer/step_back_from_end`: ← at the last event;
//! - `viewer/step_back_worst`: ← where the most events lie between the moment and the
//!   snapshot before it;
//! - `viewer/jump_to_middle`: the middle event's number typed, then Enter, from the end.
//!
//! `cargo bench -p tablehold --bench replay_viewer`; CI only compiles it.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use tablehold::tui::replay::Player;
use tablehold_log as log_api;

#[allow(
    dead_code,
    reason = "the log crate's tests use the parts of the sample this bench does not"
)]
#[path = "../../log/benches/sample/mod.rs"]
mod sample;

/// The log's length, as the issue asks.
const EVENTS: usize = 100_000;

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

/// Times `keys`' last key, after `reset` and the others, `iters` times.
fn timed(p: &mut Player, iters: u64, reset: u64, keys: &[KeyEvent]) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        p.go(reset).expect("the log replays");
        let Some((last, before)) = keys.split_last() else {
            break;
        };
        for k in before {
            p.on_key(*k);
        }
        let start = Instant::now();
        p.on_key(black_box(*last));
        total += start.elapsed();
    }
    total
}

fn benches(c: &mut Criterion) {
    let started = Instant::now();
    let file = sample::Session::long(EVENTS).export("gm");
    let events = file.events.len();
    eprintln!(
        "viewer: a log of {events} events generated in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let started = Instant::now();
    let mut p = Player::new(file).expect("the viewer opens the log");
    eprintln!(
        "viewer/open: {:.2} s to read {events} events and keep their snapshots",
        started.elapsed().as_secs_f64()
    );
    let last = p.at;
    let mut group = c.benchmark_group("viewer");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("step_back_from_end", |b| {
        b.iter_custom(|iters| timed(&mut p, iters, last, &[key(KeyCode::Left)]));
    });
    // A snapshot is kept after every 256 events, so the moment 256 * k - 1 lies 255 events
    // past the nearest: ← from 256 * k lands there and replays the most.
    let worst = (last / 256) * 256;
    group.bench_function("step_back_worst", |b| {
        b.iter_custom(|iters| timed(&mut p, iters, worst, &[key(KeyCode::Left)]));
    });
    let middle = last / 2;
    let mut typed: Vec<KeyEvent> = middle
        .to_string()
        .chars()
        .map(|d| key(KeyCode::Char(d)))
        .collect();
    typed.push(key(KeyCode::Enter));
    group.bench_function("jump_to_middle", |b| {
        b.iter_custom(|iters| timed(&mut p, iters, last, &typed));
    });
    group.finish();
    assert_eq!(p.at, middle, "the last jump landed in the middle");
}

criterion_group!(viewer_benches, benches);
criterion_main!(viewer_benches);

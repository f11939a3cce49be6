//! How fast a log replays: a GM's export of a long grimwire session (about 10,000 events,
//! generated as the unit tests generate theirs), measured three ways, each in events per
//! second:
//!
//! - `replay/all_audiences`: `replay` as `tablehold replay` runs it: chain, decoding, the
//!   GM's state and every audience's, every digest;
//! - `replay/stored_bytes`: decoding each part from the export's JSON text, checking the
//!   chain and applying, for the viewer's state alone;
//! - `replay/apply`: applying the already decoded events, nothing else.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tablehold_log as log_api;
use tablehold_log::replay::{Replay, read_events, replay, table_options};
use tablehold_log::verify::View;
use tablehold_rules::{Event, MemoryState, apply};

#[allow(
    dead_code,
    reason = "the unit tests use the parts of the sample the benches do not"
)]
mod sample;

/// The size of the generated session.
const EVENTS: usize = 10_000;

fn benches(c: &mut Criterion) {
    let file = sample::Session::long(EVENTS).export("gm");
    let options = table_options(&file.header.table).expect("the sample's options resolve");
    let events = u64::try_from(file.events.len()).expect("a few thousand events");
    let mut group = c.benchmark_group("replay");
    group.throughput(Throughput::Elements(events));

    group.bench_function("all_audiences", |b| {
        b.iter(|| replay(black_box(&file), None).expect("the sample replays"));
    });

    group.bench_function("stored_bytes", |b| {
        b.iter(|| {
            let (read, stop) = read_events(black_box(&file), file.events.len());
            assert!(stop.is_none(), "the sample's chain holds");
            let mut replay = Replay::new(options.clone(), View::Gm, [], true);
            for e in &read {
                replay.step(e).expect("the sample applies");
            }
            replay.finish()
        });
    });

    let (read, _) = read_events(&file, file.events.len());
    let decoded: Vec<Event> = read.into_iter().map(|e| e.shown).collect();
    group.bench_function("apply", |b| {
        b.iter(|| {
            let mut state = MemoryState::new(options.clone());
            for e in black_box(&decoded) {
                apply(&mut state, e).expect("the sample applies");
            }
            state
        });
    });
    group.finish();
}

criterion_group!(replay_benches, benches);
criterion_main!(replay_benches);

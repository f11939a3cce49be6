//! How fast a log verifies: a long grimwire session (about 10,000 events, generated as the
//! unit tests generate theirs), exported for the GM and for a seat, measured in dice
//! recomputed per second (chain, epochs, accounting and totals included).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tablehold_log as log_api;
use tablehold_log::verify;
use tablehold_rules::dice::{CounterStream, DiceSource, Primitive};

#[allow(
    dead_code,
    reason = "the unit tests use the parts of the sample the benches do not"
)]
mod sample;

/// The size of the generated session.
const EVENTS: usize = 10_000;

fn benches(c: &mut Criterion) {
    let session = sample::Session::long(EVENTS);
    let mut group = c.benchmark_group("verify");
    for viewer in ["gm", "seat:ines"] {
        let file = session.export(viewer);
        let report = verify(&file).expect("the sample verifies");
        group.throughput(Throughput::Elements(report.dice_checked));
        group.bench_function(viewer, |b| {
            b.iter(|| verify(black_box(&file)).expect("the sample verifies"));
        });
    }
    // Dice-heavy: a thousand public rolls of 100d6, so that recomputing dice, not reading
    // events, is most of the work.
    let mut heavy = sample::Session::new(false);
    let epoch = heavy.open_epoch("table", [7; 32], &[]);
    for _ in 0..1_000 {
        heavy.free_roll("100d6", false);
    }
    heavy.reveal_epoch(epoch);
    let file = heavy.export("gm");
    let report = verify(&file).expect("the heavy sample verifies");
    group.throughput(Throughput::Elements(report.dice_checked));
    group.bench_function("dice_heavy", |b| {
        b.iter(|| verify(black_box(&file)).expect("the heavy sample verifies"));
    });

    // The recomputation alone: one fair-stream draw per die, as verify makes it.
    let dice: u64 = 100_000;
    group.throughput(Throughput::Elements(dice));
    group.bench_function("faces_only", |b| {
        b.iter(|| {
            let mut stream = CounterStream::new(black_box([7; 32]), 1);
            let mut sum = 0u64;
            for _ in 0..dice {
                sum += u64::from(stream.draw(Primitive::D6).expect("never runs out"));
            }
            sum
        });
    });
    group.finish();
}

criterion_group!(verify_benches, benches);
criterion_main!(verify_benches);

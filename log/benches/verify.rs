//! How fast a log verifies: a long grimwire session (about 10,000 events, generated as the
//! unit tests generate theirs), exported for the GM and for a seat, measured in dice
//! recomputed per second (chain, epochs, accounting and totals included).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tablehold_log as log_api;
use tablehold_log::verify;

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
    group.finish();
}

criterion_group!(verify_benches, benches);
criterion_main!(verify_benches);

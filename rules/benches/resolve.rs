//! How long the rules take to resolve one GRIMWIRE attack: `decide` (rolls, checks, damage,
//! events) alone, and `decide` plus `apply` of its events. Run: `cargo bench -p tablehold-rules`.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use tablehold_rules::dice::CounterStream;
use tablehold_rules::options::TableOptions;
use tablehold_rules::{
    ArgValue, Args, Command, MemoryState, RuleSystem, Seat, StateMut, apply, decide,
};

const FIGHTER: &str = r#"
id = "fighter"
name = "Fighter"
kind = "pc"
owner = "fighter"
level = 1
condition_max = 20
focus_max = 10
attributes = { TOG = 2, AGL = 2, COR = 4, MND = 0, PER = 1, RSN = 0 }
[[weapons]]
id = "knife"
name = "Knife"
class = "light"
damage = "1d4"
damage_type = "edged"
"#;

const BRUTE: &str = r#"
id = "brute"
name = "Brute"
kind = "npc"
level = 1
condition_max = 100
focus_max = 0
attributes = { TOG = 3, AGL = 0, COR = 1, MND = 0, PER = 0, RSN = 0 }
armour = { value = 1 }
[npc]
defence_tn = 12
attack_tn = 12
"#;

fn table() -> MemoryState {
    let system = &tablehold_rules::grimwire::Grimwire;
    let options =
        TableOptions::resolve(&system.options(), &Default::default()).expect("default options");
    let mut state = MemoryState::new(options);
    for sheet in [FIGHTER, BRUTE] {
        state.insert_combatant(
            system
                .sheet_from_toml(sheet)
                .expect("bench sheets are valid"),
        );
    }
    state
}

fn attack() -> Command {
    let args = Args::default()
        .with("target", ArgValue::Text("brute".into()))
        .with("weapon", ArgValue::Text("knife".into()));
    Command::act(
        Seat::Player("fighter".into()),
        Some("fighter"),
        "attack",
        args,
    )
}

fn bench(c: &mut Criterion) {
    let system = &tablehold_rules::grimwire::Grimwire;
    let state = table();
    let cmd = attack();
    let mut dice = CounterStream::new([7; 32], 1);
    c.bench_function("grimwire attack: decide", |b| {
        b.iter(|| black_box(decide(system, &state, &cmd, &mut dice)))
    });
    // Each iteration starts from a fresh table (set up outside the timing), so the target
    // never runs out of Condition and no earlier prompt is left open.
    c.bench_function("grimwire attack: decide + apply", |b| {
        b.iter_batched(
            table,
            |mut live| {
                let events = decide(system, &live, &cmd, &mut dice).expect("attack");
                for e in &events {
                    apply(&mut live, e).expect("apply");
                }
                black_box((events.len(), live))
            },
            BatchSize::SmallInput,
        )
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);

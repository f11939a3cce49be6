//! Random sequences over every shape the toy systems hold: actions picked from the seats'
//! catalogues with arguments that fit or do not, answers to any open window (right or wrong
//! choice, right or wrong seat, typed arguments of any kind), timeouts, GM overrides and
//! commands nobody offered. None may panic; a refusal changes nothing; every accepted event
//! applies; and after every event the in-memory state, a copy-on-write store over the start
//! and a replay of the log agree digest for digest, and every seat's view still builds.

// Picks read as "one time in N" read best as remainders.
#![allow(clippy::manual_is_multiple_of)]

use super::*;
use proptest::prelude::*;
use tablehold_rules::dice::CounterStream;
use tablehold_rules::digest;
use tablehold_rules::{Scratch, StateMut};

/// One step, read against the state it meets so that most steps do something.
#[derive(Debug, Clone)]
struct Pick {
    kind: u8,
    seat: u8,
    which: u16,
    value: i64,
    cell: (i8, i8),
    text: u8,
    choice: u8,
}

fn pick() -> impl Strategy<Value = Pick> {
    (
        any::<u8>(),
        any::<u8>(),
        any::<u16>(),
        prop_oneof![3 => -2i64..12, 1 => any::<i64>()],
        (-12i8..12, -12i8..12),
        any::<u8>(),
        any::<u8>(),
    )
        .prop_map(|(kind, seat, which, value, cell, text, choice)| Pick {
            kind,
            seat,
            which,
            value,
            cell,
            text,
            choice,
        })
}

const SEATS: usize = 5;

fn seat_of(p: &Pick) -> Seat {
    match usize::from(p.seat) % SEATS {
        0 => Seat::Gm,
        1 => player("p1"),
        2 => player("p2"),
        3 => player("p3"),
        _ => Seat::Spectator(SeatId::from("s1")),
    }
}

const WORDS: [&str; 12] = [
    "beatrix", "markus", "thug", "aune", "bram", "raider", "missa", "tomas", "cultist", "door",
    "move", "",
];

fn text_of(p: &Pick, spec: &ArgSpec, at_table: &[String]) -> String {
    let pool: Vec<&str> = if !spec.choices.is_empty() && p.text % 8 != 0 {
        spec.choices.iter().map(String::as_str).collect()
    } else if !spec.now.is_empty() && p.text % 8 != 0 {
        spec.now.iter().map(String::as_str).collect()
    } else if spec.kind == ArgKind::Entity && p.text % 8 != 0 {
        at_table.iter().map(String::as_str).collect()
    } else {
        WORDS.to_vec()
    };
    pool[usize::from(p.text) % pool.len()].to_owned()
}

/// A value for `spec`: of its kind most of the time, of another kind now and then.
fn value_for(p: &Pick, spec: &ArgSpec, at_table: &[String]) -> ArgValue {
    let cell = ArgValue::Cell(Cell::new(i32::from(p.cell.0), i32::from(p.cell.1)));
    if p.choice % 11 == 0 {
        return [cell, ArgValue::Int(p.value), ArgValue::Flag(true)][usize::from(p.text) % 3]
            .clone();
    }
    match spec.kind {
        ArgKind::Int => ArgValue::Int(p.value),
        ArgKind::Flag => ArgValue::Flag(p.value % 2 == 0),
        ArgKind::Cell => cell,
        ArgKind::Text | ArgKind::Entity => ArgValue::Text(text_of(p, spec, at_table)),
    }
}

fn args_for(p: &Pick, specs: &[ArgSpec], at_table: &[String]) -> Args {
    let mut args = Args::default();
    for (i, spec) in specs.iter().enumerate() {
        // Required ones almost always, optional ones half the time.
        let give = if spec.required {
            (usize::from(p.choice) + i) % 13 != 0
        } else {
            (usize::from(p.choice) + i) % 2 == 0
        };
        if give {
            args = args.with(&spec.name, value_for(p, spec, at_table));
        }
    }
    args
}

fn command_for(system: &dyn RuleSystem, state: &dyn StateView, p: &Pick) -> Command {
    let seat = seat_of(p);
    let pending = &state.encounter().pending;
    let at_table: Vec<String> = state.combatant_ids().into_iter().map(|i| i.0).collect();
    match p.kind % 8 {
        // An answer to an open window, by any seat, with any of its options or none.
        5 | 6 if !pending.is_empty() => {
            let window = &pending[usize::from(p.which) % pending.len()];
            let choice = if window.options.is_empty() || p.text % 7 == 0 {
                WORDS[usize::from(p.text) % WORDS.len()].to_owned()
            } else {
                window.options[usize::from(p.text) % window.options.len()].clone()
            };
            Command {
                seat,
                body: CommandBody::Answer {
                    prompt_id: window.prompt_id,
                    choice,
                    args: args_for(p, &window.args, &at_table),
                },
            }
        }
        // A timeout, from the table, of an open window or of one that is not.
        7 => {
            let prompt_id = if pending.is_empty() || p.text % 5 == 0 {
                u64::from(p.which)
            } else {
                pending[usize::from(p.which) % pending.len()].prompt_id
            };
            Command {
                seat: Seat::Gm,
                body: CommandBody::TimeOut { prompt_id },
            }
        }
        // Something nobody offered: a made-up action, for anyone.
        4 => Command::act(
            seat,
            Some(WORDS[usize::from(p.which) % WORDS.len()]),
            WORDS[usize::from(p.text) % WORDS.len()],
            Args::default().with(
                "to",
                value_for(p, &ArgSpec::new("to", ArgKind::Cell, true, ""), &at_table),
            ),
        ),
        // An action from the seat's catalogue (answers included), or another seat's.
        _ => {
            let asker = if p.choice % 5 == 0 {
                seat_of(&Pick {
                    seat: p.seat.wrapping_add(1),
                    ..p.clone()
                })
            } else {
                seat.clone()
            };
            let specs = actions(system, state, &asker);
            if specs.is_empty() {
                return Command::act(seat, None, "nothing", Args::default());
            }
            let spec = &specs[usize::from(p.which) % specs.len()];
            let args = args_for(p, &spec.args, &at_table);
            if spec.name == "answer" {
                let prompt_id = spec
                    .args
                    .iter()
                    .find(|a| a.name == "prompt")
                    .and_then(|a| a.now.first())
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0);
                let mut args = args;
                let choice = match args.0.remove("choice") {
                    Some(ArgValue::Text(c)) => c,
                    _ => String::new(),
                };
                args.0.remove("prompt");
                return Command {
                    seat,
                    body: CommandBody::Answer {
                        prompt_id,
                        choice,
                        args,
                    },
                };
            }
            Command::act(
                seat,
                spec.actor.as_ref().map(EntityId::as_str),
                &spec.name,
                args,
            )
        }
    }
}

/// Runs `picks` on `table` under `system`, checking every promise of the module doc.
fn run(system: &dyn RuleSystem, mut table: Table, picks: &[Pick]) -> Result<(), TestCaseError> {
    let start = table.state.clone();
    let mut layered: Vec<Event> = Vec::new();
    let mut dice = CounterStream::new([7; 32], 1);
    for p in picks {
        let command = command_for(system, &table.state, p);
        match decide(system, &table.state, &command, &mut dice) {
            Ok(events) => {
                for event in events {
                    apply(&mut table.state, &event)
                        .map_err(|e| TestCaseError::fail(format!("{command:?}: {e}")))?;
                    table.log.push(event.clone());
                    layered.push(event);
                    // The copy-on-write store over the start agrees with the plain one.
                    let mut scratch = Scratch::new(&start);
                    for e in &layered {
                        apply(&mut scratch as &mut dyn StateMut, e)
                            .map_err(|e| TestCaseError::fail(e.to_string()))?;
                    }
                    prop_assert_eq!(digest::current(&scratch), digest::current(&table.state));
                }
            }
            Err(DecideError::Refused(_)) => {}
            Err(other) => {
                return Err(TestCaseError::fail(format!("{command:?} failed: {other}")));
            }
        }
    }
    table.assert_replays();
    for seat in [
        player("p1"),
        player("p2"),
        player("p3"),
        Seat::Spectator(SeatId::from("s1")),
    ] {
        table.seen_by(&seat);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_sequences_over_every_shape_never_panic_and_every_store_agrees(
        picks in prop::collection::vec(pick(), 1..60),
    ) {
        run(&Vigor, reach_table(), &picks)?;
        run(&Vigor, opening_table(), &picks)?;
        run(&Mist, mist_table(), &picks)?;
        run(&Tenacity, push_table(), &picks)?;
        run(&Tenacity, spotlight_table(), &picks)?;
    }
}

//! Who may see a combatant's numbers, and the one pass that keeps them from everyone else.
//!
//! NPCs' and objects' numbers (resources, the modifiers their attributes add, the steps of
//! damage against their armour, their weapons' names) are the GM's by default. Systems write
//! facts without thinking about it; [`hide_gm_numbers`] runs on every event `decide` builds
//! (and on events the server builds itself) and moves such facts to a GM-only part, leaving
//! the other seats a public trace without the numbers: that a roll happened and its dice,
//! that someone took damage. Prompts get the same treatment: their content is for the seats
//! that decide them, and a refusal while one is open quotes it as the refused seat sees it.

use std::collections::BTreeSet;

use crate::decision::{Answer, Answering, PendingStep, Resolver};
use crate::event::{Audience, Event, Fact, Outcome, Part};
use crate::ids::{EntityId, Seat, SeatId};
use crate::sheet::Sheet;
use crate::state::{Combatant, Kind, StateView};

/// Whether a combatant's numbers are for the GM alone.
pub fn gm_only_numbers(c: &Combatant) -> bool {
    c.kind != Kind::Pc
}

fn hidden(state: &dyn StateView, id: &EntityId) -> bool {
    state.combatant(id).is_some_and(gm_only_numbers)
}

/// What the other seats may know of a GM-only combatant: who and where it is, what ails it,
/// whose side it is on; no sheet, no resources, no turn counters. Seats then follow its
/// moves and statuses in their own state, as the table's view shows them.
pub fn without_numbers(c: &Combatant) -> Combatant {
    Combatant {
        sheet: Sheet::generic(Default::default()),
        resources: Default::default(),
        turn: Default::default(),
        ..c.clone()
    }
}

/// Whether `c` is the stand-in [`without_numbers`] makes: the combatant as a seat that may not
/// see its numbers holds it. Renderers show such a combatant with no numbers at all, rather
/// than with numbers that are all zero.
pub fn is_stand_in(c: &Combatant) -> bool {
    gm_only_numbers(c) && c.resources.is_empty() && c.sheet.is_empty_generic()
}

/// A prompt or deferred step as the seats that may not see it hold it: its id, who answers
/// and when, whether it blocks and who has answered already, so that its answers apply to
/// their state too, and nothing of its content.
fn withheld_step(step: &PendingStep, question: &str) -> PendingStep {
    PendingStep {
        rule: String::new(),
        actor: None,
        question: question.to_owned(),
        options: Vec::new(),
        default: String::new(),
        data: Default::default(),
        args: Vec::new(),
        default_args: Default::default(),
        secret: Default::default(),
        answers: step.answers.iter().map(withheld_answer).collect(),
        ..step.clone()
    }
}

/// An answer as the seats that do not decide the window hold it: who answered, not what.
fn withheld_answer(answer: &Answer) -> Answer {
    Answer {
        choice: String::new(),
        args: Default::default(),
        ..answer.clone()
    }
}

/// The window without what only the GM sees.
fn without_secret(step: &PendingStep) -> PendingStep {
    PendingStep {
        secret: Default::default(),
        ..step.clone()
    }
}

/// Who may see a prompt's content (its question, options, default and data): the seats it
/// asks, and the GM, who may answer any prompt. A prompt is the business of those who decide
/// it; the rest of the table learns only that someone has a decision to make.
pub fn prompt_audience(step: &PendingStep) -> Audience {
    let seats: BTreeSet<SeatId> = step
        .seats
        .iter()
        .filter_map(|s| match s {
            Seat::Gm => None,
            Seat::Player(id) | Seat::Spectator(id) => Some(id.clone()),
        })
        .collect();
    if seats.is_empty() {
        Audience::GmOnly
    } else {
        Audience::Seats(seats)
    }
}

/// The audience of the stand-in for a part whose whole form goes to `audience`: everyone else
/// but the GM (who has the whole form).
fn stand_in_audience(audience: &Audience) -> Audience {
    match audience {
        Audience::Seats(seats) => Audience::AllBut(seats.clone()),
        _ => Audience::AllButGm,
    }
}

/// A prompt split by audience: the whole prompt for those who decide it, and a stand-in with
/// no content for everyone else. The events carry exactly these two parts, and a refusal while
/// the prompt is open shows a seat the one its audience admits (see [`prompt_seen_by`]). What
/// only the GM may see (its `secret`) is in neither: [`window_parts`] adds it for the GM.
pub fn prompt_parts(step: &PendingStep) -> [Part; 2] {
    let step = &without_secret(step);
    let audience = prompt_audience(step);
    let question = match &audience {
        Audience::Seats(seats) => {
            let names: Vec<&str> = seats.iter().map(|s| s.0.as_str()).collect();
            let verb = if names.len() == 1 { "has" } else { "have" };
            format!("{} {verb} a decision to make", names.join(", "))
        }
        _ => "the GM has a decision to make".to_owned(),
    };
    [
        Part {
            audience: stand_in_audience(&audience),
            fact: Fact::DecisionRequested {
                step: Box::new(withheld_step(step, &question)),
            },
        },
        Part {
            audience,
            fact: Fact::DecisionRequested {
                step: Box::new(step.clone()),
            },
        },
    ]
}

/// The parts an opened window is written as: [`prompt_parts`], and when the window holds
/// data for the GM alone, a GM-only part with it.
pub fn window_parts(step: &PendingStep) -> Vec<Part> {
    let mut parts = prompt_parts(step).to_vec();
    if !step.secret.is_empty() {
        parts.push(Part {
            audience: Audience::GmOnly,
            fact: Fact::WindowSecret {
                prompt_id: step.prompt_id,
                secret: step.secret.clone(),
            },
        });
    }
    parts
}

/// The prompt as `seat` may see it: the very part of [`prompt_parts`] that `Event::view` would
/// give that seat. Refusals (`awaiting_decision`) quote this, never the prompt itself.
pub fn prompt_seen_by(step: &PendingStep, seat: &Seat) -> PendingStep {
    let [stand_in, whole] = prompt_parts(step);
    let part = if whole.audience.admits(seat) {
        whole
    } else {
        stand_in
    };
    match part.fact {
        Fact::DecisionRequested { step } => *step,
        _ => withheld_step(step, ""),
    }
}

/// The stand-in that the seats outside a prompt's audience hold for `fact`, a part of that
/// prompt (its request, a seat's answer, its resolution) as one of its deciders holds it.
/// A decider's export carries the whole part and not the stand-in beside it, which is made
/// for the others; from it, a decider rebuilds what the others were given, and so the
/// public's state (`tablehold_log::replay`). `None` for any other fact.
pub fn stand_in_of(fact: &Fact) -> Option<Fact> {
    match fact {
        Fact::DecisionRequested { step } => {
            let [stand_in, _] = prompt_parts(step);
            Some(stand_in.fact)
        }
        Fact::DecisionResolved { prompt_id, by, .. } => Some(Fact::DecisionResolved {
            prompt_id: *prompt_id,
            choice: String::new(),
            by: by.clone(),
            args: Default::default(),
        }),
        Fact::DecisionAnswered { prompt_id, answer } => Some(Fact::DecisionAnswered {
            prompt_id: *prompt_id,
            answer: withheld_answer(answer),
        }),
        _ => None,
    }
}

/// Who may see how the open window `prompt_id` closed, if it is open. A window each seat
/// answers closes on the last seat's answer, and that answer is the closing seat's alone (and
/// the GM's), as each answer was before it: the others learn that it closed, not with what.
fn resolution_audience(state: &dyn StateView, prompt_id: u64, by: &Resolver) -> Option<Audience> {
    let step = state
        .encounter()
        .pending
        .iter()
        .find(|s| s.prompt_id == prompt_id)?;
    Some(match (step.answering, by) {
        (Answering::Each, Resolver::Seat(Seat::Player(id) | Seat::Spectator(id))) => {
            Audience::Seats(BTreeSet::from([id.clone()]))
        }
        (Answering::Each, Resolver::Seat(Seat::Gm)) => Audience::GmOnly,
        _ => prompt_audience(step),
    })
}

/// Who decides the open window `prompt_id`, if it is open.
fn asked(state: &dyn StateView, prompt_id: u64) -> Option<Audience> {
    state
        .encounter()
        .pending
        .iter()
        .find(|s| s.prompt_id == prompt_id)
        .map(prompt_audience)
}

/// Splits every public fact that would show a GM-only combatant's numbers into a GM-only part
/// with the whole fact and, where the table should still hear of it, a public part without
/// the numbers (`Audience::AllButGm`); and every prompt, and its answer, into a part for the
/// seats that decide it and a stand-in for the others (`Audience::AllBut`). `apply` leaves the
/// stand-ins out of the table's state; `apply_seen` puts them in a seat's, so a seat follows an
/// NPC it knows only by name, or a prompt someone else answers, without seeing what they see.
pub fn hide_gm_numbers(event: Event, state: &dyn StateView) -> Event {
    let mut parts = Vec::with_capacity(event.parts.len());
    for part in event.parts {
        if part.audience != Audience::Everyone {
            parts.push(part);
            continue;
        }
        let public_trace = match &part.fact {
            Fact::ResourceSet { entity, .. } | Fact::TurnCounterSet { entity, .. }
                if hidden(state, entity) =>
            {
                Some(None)
            }
            Fact::DamageResolved { target, .. } if hidden(state, target) => {
                Some(Some(Fact::Noted {
                    text: format!("{target} takes damage"),
                }))
            }
            Fact::Checked(c) if c.actor.as_ref().is_some_and(|a| hidden(state, a)) => {
                Some(Some(Fact::Rolled {
                    by: c.actor.clone(),
                    purpose: match c.outcome {
                        Outcome::Success => "a roll that succeeds",
                        Outcome::Failure => "a roll that fails",
                        Outcome::Unjudged => "a roll",
                    }
                    .into(),
                    roll: c.roll.clone(),
                }))
            }
            Fact::Rolled {
                by: Some(by), roll, ..
            } if hidden(state, by) => Some(Some(Fact::Rolled {
                by: Some(by.clone()),
                purpose: "a roll".into(),
                roll: roll.clone(),
            })),
            // A prompt is the business of those who decide it, and so is its answer: the
            // table learns that a decision was asked for and made, not what it was.
            Fact::DecisionRequested { step } => {
                parts.extend(window_parts(step));
                continue;
            }
            Fact::DecisionResolved {
                prompt_id,
                choice,
                by,
                args,
            } => {
                if let Some(audience) = resolution_audience(state, *prompt_id, by) {
                    parts.push(Part {
                        audience: stand_in_audience(&audience),
                        fact: Fact::DecisionResolved {
                            prompt_id: *prompt_id,
                            choice: String::new(),
                            by: by.clone(),
                            args: Default::default(),
                        },
                    });
                    parts.push(Part {
                        audience,
                        fact: Fact::DecisionResolved {
                            prompt_id: *prompt_id,
                            choice: choice.clone(),
                            by: by.clone(),
                            args: args.clone(),
                        },
                    });
                    continue;
                }
                None
            }
            // One seat's answer in a window each seat answers is that seat's (and the GM's)
            // until the window closes: the others, those still to answer included, learn
            // that it has answered, not what, so nobody answers knowing another's choice.
            Fact::DecisionAnswered { prompt_id, answer } => {
                if asked(state, *prompt_id).is_some() {
                    let audience = match &answer.seat {
                        Seat::Gm => Audience::GmOnly,
                        Seat::Player(id) | Seat::Spectator(id) => {
                            Audience::Seats(BTreeSet::from([id.clone()]))
                        }
                    };
                    parts.push(Part {
                        audience: stand_in_audience(&audience),
                        fact: Fact::DecisionAnswered {
                            prompt_id: *prompt_id,
                            answer: withheld_answer(answer),
                        },
                    });
                    parts.push(Part {
                        audience,
                        fact: part.fact,
                    });
                    continue;
                }
                None
            }
            Fact::StepDeferred { step }
                if step.actor.as_ref().is_some_and(|a| hidden(state, a)) =>
            {
                Some(Some(Fact::StepDeferred {
                    step: Box::new(withheld_step(step, "the GM sets something aside for later")),
                }))
            }
            // What a step set aside keeps for the GM (a held answer's action and arguments,
            // waiting their turn) is the GM's until it is acted on, as a window's is.
            Fact::StepDeferred { step } if !step.secret.is_empty() => {
                Some(Some(Fact::StepDeferred {
                    step: Box::new(without_secret(step)),
                }))
            }
            Fact::CombatantAdded {
                combatant,
                replaces,
            } if gm_only_numbers(combatant) => Some(Some(Fact::CombatantAdded {
                combatant: Box::new(without_numbers(combatant)),
                replaces: *replaces,
            })),
            // An NPC's own roll that changes nothing reaches the table as its dice alone (the
            // stand-in of its `checked`), so its account stays the GM's: its label, its reason
            // and its very verb may carry what the GM keeps (a weapon's requirement, a search).
            Fact::Told(account)
                if account.effects.is_empty()
                    && account.roll.as_ref().is_some_and(|r| {
                        r.by.as_ref()
                            .or(account.actor.as_ref())
                            .is_some_and(|e| hidden(state, e))
                    }) =>
            {
                Some(None)
            }
            // An account that, without the GM's numbers, would only say that something
            // happened to an NPC (its Focus, its burnout) stays the GM's, as its note would.
            Fact::Told(account) => account
                .without_gm_numbers(|e| hidden(state, e))
                .map(|seen| (!seen.tells_nothing()).then(|| Fact::Told(Box::new(seen)))),
            _ => None,
        };
        match public_trace {
            None => parts.push(part),
            Some(trace) => {
                if let Some(fact) = trace {
                    parts.push(Part {
                        audience: Audience::AllButGm,
                        fact,
                    });
                }
                parts.push(Part {
                    audience: Audience::GmOnly,
                    fact: part.fact,
                });
            }
        }
    }
    Event { parts }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::options::TableOptions;
    use crate::state::MemoryState;

    fn npc() -> Combatant {
        let mut c = crate::testing::combatant("gob", "npc", None, &[("condition", 9137)]);
        c.name = "Gob".into();
        c.turn.insert("attacks".into(), 2);
        c
    }

    // See: issue #24. The stand-in the table gets for an NPC carries nothing of its numbers:
    // no sheet, no resources, no turn counters; the GM's part has all of them.
    #[test]
    fn an_npc_arrives_for_the_table_without_its_numbers() {
        let state = MemoryState::new(TableOptions::default());
        let arrived = hide_gm_numbers(
            Event::public(Fact::CombatantAdded {
                combatant: Box::new(npc()),
                replaces: false,
            }),
            &state,
        );
        let added = |audience: Audience| {
            arrived.parts.iter().find_map(|p| match &p.fact {
                Fact::CombatantAdded { combatant, .. } if p.audience == audience => {
                    Some((**combatant).clone())
                }
                _ => None,
            })
        };
        let seen = added(Audience::AllButGm).unwrap();
        assert!(is_stand_in(&seen));
        assert_eq!(seen.sheet, Sheet::generic(Default::default()));
        assert!(
            seen.resources.is_empty() && seen.turn.is_empty(),
            "{seen:?}"
        );
        assert_eq!((seen.id.as_str(), seen.name.as_str()), ("gob", "Gob"));
        let whole = added(Audience::GmOnly).unwrap();
        assert!(!is_stand_in(&whole));
        assert_eq!(whole.resource("condition"), 9137);
        assert_eq!(whole.turn_counter("attacks"), 2);
    }

    fn step(seats: Vec<Seat>) -> PendingStep {
        PendingStep {
            prompt_id: 4,
            rule: "grimwire.initiative.tie".into(),
            actor: Some("gob".into()),
            seats,
            question: "Initiative tie between gob, orc: who goes first?".into(),
            options: vec!["gob".into(), "orc".into()],
            default: "gob".into(),
            timeout_ms: 60_000,
            trigger: None,
            data: [("group".to_owned(), crate::decision::StepValue::Int(2))].into(),
            ..Default::default()
        }
    }

    // See: issue #24. A prompt's stand-in keeps only what lets a seat follow it (its id, who
    // answers, its timeout); nothing of its content, not even which rule asked.
    #[test]
    fn a_prompt_reaches_whole_only_those_it_asks() {
        let ines = Seat::Player("ines".into());
        let rui = Seat::Player("rui".into());
        let cases = [
            (
                vec![Seat::Gm],
                Audience::GmOnly,
                Audience::AllButGm,
                "the GM has a decision to make",
            ),
            (
                vec![ines.clone()],
                Audience::Seats(BTreeSet::from([SeatId::from("ines")])),
                Audience::AllBut(BTreeSet::from([SeatId::from("ines")])),
                "ines has a decision to make",
            ),
            (
                vec![ines.clone(), rui.clone(), Seat::Gm],
                Audience::Seats(BTreeSet::from([SeatId::from("ines"), SeatId::from("rui")])),
                Audience::AllBut(BTreeSet::from([SeatId::from("ines"), SeatId::from("rui")])),
                "ines, rui have a decision to make",
            ),
        ];
        for (seats, whole_to, stand_in_to, says) in cases {
            let asked = step(seats.clone());
            let [stand_in, whole] = prompt_parts(&asked);
            assert_eq!(
                (&whole.audience, &stand_in.audience),
                (&whole_to, &stand_in_to)
            );
            assert_eq!(
                whole.fact,
                Fact::DecisionRequested {
                    step: Box::new(asked.clone())
                }
            );
            let Fact::DecisionRequested { step: seen } = stand_in.fact else {
                panic!("a prompt's stand-in is a prompt");
            };
            let expected = PendingStep {
                prompt_id: 4,
                rule: String::new(),
                actor: None,
                seats,
                question: says.into(),
                options: vec![],
                default: String::new(),
                timeout_ms: 60_000,
                trigger: None,
                data: Default::default(),
                ..Default::default()
            };
            assert_eq!(*seen, expected);
            assert_eq!(prompt_seen_by(&asked, &Seat::Gm), asked);
            // Every prompt an event opens goes through the same split.
            let state = MemoryState::new(TableOptions::default());
            let opened = Event::public(Fact::DecisionRequested {
                step: Box::new(asked.clone()),
            });
            let split = Event {
                parts: prompt_parts(&asked).to_vec(),
            };
            assert_eq!(hide_gm_numbers(opened, &state), split);
            assert_eq!(
                prompt_seen_by(&asked, &Seat::Spectator("eve".into())),
                expected
            );
        }
    }

    #[test]
    fn a_real_npc_is_no_stand_in_and_a_pc_never_is() {
        let mut pc = npc();
        pc.kind = crate::state::Kind::Pc;
        let mut bare = without_numbers(&pc);
        assert!(!is_stand_in(&bare), "a PC's numbers are never hidden");
        bare.kind = crate::state::Kind::Npc;
        assert!(is_stand_in(&bare));
        let mut with_resources = bare.clone();
        with_resources.resources.insert("condition".into(), 3);
        assert!(!is_stand_in(&with_resources));
        assert!(!is_stand_in(&npc()));
    }

    /// Each fact that may show numbers, about a PC and about an NPC: which audiences its parts
    /// get after the pass, and the stand-in's wording where there is one.
    #[test]
    fn hidden_numbers_go_to_the_gm_and_the_table_hears_a_trace() {
        use crate::event::{Against, CheckRecord, Modifier};
        let mut state = MemoryState::new(TableOptions::default());
        let mut pc = npc();
        pc.id = "p".into();
        pc.kind = crate::state::Kind::Pc;
        crate::state::StateMut::insert_combatant(&mut state, pc.clone());
        crate::state::StateMut::insert_combatant(&mut state, npc());
        let roll = crate::dice::Roll {
            expr: "1d20".into(),
            dice: vec![],
            terms: vec![7],
            total: 7,
        };
        let checked = |who: &str| {
            Fact::Checked(CheckRecord {
                actor: Some(who.into()),
                label: "COR attack".into(),
                roll: roll.clone(),
                modifiers: vec![Modifier::new("COR", 3)],
                total: 10,
                against: Against::Target(9),
                outcome: crate::event::Outcome::Success,
                overridden_by: None,
                margin: Some(1),
            })
        };
        let deferred = |who: &str| Fact::StepDeferred {
            step: Box::new(PendingStep {
                actor: Some(who.into()),
                ..step(vec![Seat::Gm])
            }),
        };
        // A held answer waiting its turn: its action's arguments are the GM's until it runs.
        let waiting = |who: &str| Fact::StepDeferred {
            step: Box::new(PendingStep {
                actor: Some(who.into()),
                secret: [(
                    "arg.weapon".to_owned(),
                    crate::decision::StepValue::Text("COR club".into()),
                )]
                .into(),
                ..step(vec![Seat::Gm])
            }),
        };
        let resource = |who: &str| Fact::ResourceSet {
            entity: who.into(),
            resource: "condition".into(),
            from: 9,
            to: 4,
        };
        let counter = |who: &str| Fact::TurnCounterSet {
            entity: who.into(),
            counter: "attacks".into(),
            from: 0,
            to: 1,
        };
        let damage = |who: &str| Fact::DamageResolved {
            target: who.into(),
            steps: vec![Modifier::new("dice", 5)],
            amount: 5,
        };
        let rolled = |who: &str| Fact::Rolled {
            by: Some(who.into()),
            purpose: "damage".into(),
            roll: roll.clone(),
        };
        let added = |c: &Combatant| Fact::CombatantAdded {
            combatant: Box::new(c.clone()),
            replaces: false,
        };
        // (what, fact, the stand-in's text or "" for none, whether the fact is hidden)
        let cases: Vec<(&str, Fact, &str, bool)> = vec![
            ("a PC's resource", resource("p"), "", false),
            ("an NPC's resource", resource("gob"), "", true),
            ("a PC's turn counter", counter("p"), "", false),
            ("an NPC's turn counter", counter("gob"), "", true),
            ("damage to a PC", damage("p"), "", false),
            ("damage to an NPC", damage("gob"), "gob takes damage", true),
            ("a PC's check", checked("p"), "", false),
            (
                "an NPC's check",
                checked("gob"),
                "a roll that succeeds",
                true,
            ),
            ("a PC's roll", rolled("p"), "", false),
            ("an NPC's roll", rolled("gob"), "a roll", true),
            ("a PC's deferred step", deferred("p"), "", false),
            ("a PC's deferred step with a secret", waiting("p"), "", true),
            (
                "an NPC's deferred step",
                deferred("gob"),
                "the GM sets something aside for later",
                true,
            ),
            ("a PC arrives", added(&pc), "", false),
            ("an NPC arrives", added(&npc()), "", true),
        ];
        for (what, fact, trace, hidden) in cases {
            let out = hide_gm_numbers(Event::public(fact.clone()), &state);
            let audiences: Vec<&Audience> = out.parts.iter().map(|p| &p.audience).collect();
            if !hidden {
                assert_eq!(out, Event::public(fact), "{what}");
                continue;
            }
            let whole = out.parts.iter().find(|p| p.audience == Audience::GmOnly);
            assert_eq!(whole.map(|p| &p.fact), Some(&fact), "{what}: {audiences:?}");
            let stand_in = out.parts.iter().find(|p| p.audience == Audience::AllButGm);
            let text = stand_in.map(|p| serde_json::to_string(&p.fact).unwrap_or_default());
            match (stand_in, trace) {
                (None, "")
                    if matches!(fact, Fact::ResourceSet { .. } | Fact::TurnCounterSet { .. }) => {}
                (Some(_), "") => {}
                (Some(_), t) => assert!(
                    text.as_deref().is_some_and(|j| j.contains(t)),
                    "{what}: {text:?}"
                ),
                (None, _) => panic!("{what}: no stand-in in {audiences:?}"),
            }
            assert!(
                text.as_deref()
                    .is_none_or(|j| !j.contains("COR") && !j.contains("\"steps\":[{")),
                "{what}: {text:?}"
            );
        }
        // A part already addressed to someone is left as it is.
        let secret = Event {
            parts: vec![Part {
                audience: Audience::GmOnly,
                fact: resource("p"),
            }],
        };
        assert_eq!(hide_gm_numbers(secret.clone(), &state), secret);
    }

    // A seat's answer in a window each seat answers, with typed arguments: whole to that seat
    // and the GM; the others get who answered, with no choice and no arguments.
    #[test]
    fn one_seats_answer_reaches_whole_only_that_seat_and_the_gm() {
        use crate::action::{ArgValue, Args};
        use crate::decision::{Answer, Answering, Resolver};
        let ines = Seat::Player("ines".into());
        let rui = Seat::Player("rui".into());
        let mut state = MemoryState::new(TableOptions::default());
        crate::state::StateMut::encounter_mut(&mut state).pending = vec![PendingStep {
            answering: Answering::Each,
            ..step(vec![ines.clone(), rui.clone()])
        }];
        let answer = Answer {
            seat: ines.clone(),
            choice: "gob".into(),
            args: Args::default().with("points", ArgValue::Int(2)),
            by: Resolver::Seat(ines.clone()),
        };
        let event = hide_gm_numbers(
            Event::public(Fact::DecisionAnswered {
                prompt_id: 4,
                answer: answer.clone(),
            }),
            &state,
        );
        let seen = |seat: &Seat| -> Vec<Answer> {
            event
                .view(seat)
                .into_iter()
                .flat_map(|e| e.parts)
                .filter_map(|p| match p.fact {
                    Fact::DecisionAnswered { answer, .. } => Some(answer),
                    _ => None,
                })
                .collect()
        };
        let withheld = Answer {
            choice: String::new(),
            args: Args::default(),
            ..answer.clone()
        };
        assert_eq!(seen(&ines), vec![answer.clone()]);
        assert_eq!(seen(&Seat::Gm), vec![answer]);
        assert_eq!(seen(&rui), vec![withheld.clone()]);
        assert_eq!(seen(&Seat::Spectator("eve".into())), vec![withheld]);
    }

    // The closing answer of a window each seat answers is the last seat's own answer: whole to
    // that seat and the GM, withheld from the other deciders as their answers were. A window
    // any one of its seats answers closes for all of them with what it was answered.
    #[test]
    fn the_closing_answer_of_a_window_each_seat_answers_stays_the_closing_seats() {
        use crate::action::{ArgValue, Args};
        use crate::decision::{Answering, Resolver};
        let ines = Seat::Player("ines".into());
        let rui = Seat::Player("rui".into());
        let closed = |answering: Answering, by: Resolver| {
            let mut state = MemoryState::new(TableOptions::default());
            crate::state::StateMut::encounter_mut(&mut state).pending = vec![PendingStep {
                answering,
                ..step(vec![ines.clone(), rui.clone()])
            }];
            let event = hide_gm_numbers(
                Event::public(Fact::DecisionResolved {
                    prompt_id: 4,
                    choice: "act".into(),
                    by,
                    args: Args::default().with("target", ArgValue::Text("gob".into())),
                }),
                &state,
            );
            move |seat: &Seat| -> Vec<String> {
                event
                    .view(seat)
                    .into_iter()
                    .flat_map(|e| e.parts)
                    .filter_map(|p| match p.fact {
                        Fact::DecisionResolved { choice, args, .. } => {
                            Some(format!("{choice}{}", args.0.len()))
                        }
                        _ => None,
                    })
                    .collect()
            }
        };
        let each = closed(Answering::Each, Resolver::Seat(ines.clone()));
        assert_eq!(each(&ines), vec!["act1"]);
        assert_eq!(each(&Seat::Gm), vec!["act1"]);
        assert_eq!(each(&rui), vec!["0"]);
        assert_eq!(each(&Seat::Spectator("eve".into())), vec!["0"]);
        // The GM answering last as one of the seats asked (for an NPC) keeps it too.
        let gm_last = closed(Answering::Each, Resolver::Seat(Seat::Gm));
        assert_eq!(gm_last(&Seat::Gm), vec!["act1"]);
        assert_eq!(gm_last(&ines), vec!["0"]);
        let timed_out = closed(Answering::Each, Resolver::TimedOut);
        assert_eq!(timed_out(&rui), vec!["act1"]);
        let first = closed(Answering::First, Resolver::Seat(ines.clone()));
        assert_eq!(first(&rui), vec!["act1"]);
        assert_eq!(first(&Seat::Spectator("eve".into())), vec!["0"]);
    }
}

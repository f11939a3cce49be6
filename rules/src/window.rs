//! Decision windows, for every system: answering one by its id, with a choice and typed
//! arguments; windows every seat answers; timeouts of any open window; which windows hold
//! the table's actions back; and the answers a seat may give now, for its catalogue.

use crate::action::{ActionSpec, ArgKind, ArgSpec, Args};
use crate::ctx::{Ctx, DecideError};
use crate::decision::{Answer, Answering, Closing, PendingStep, Resolver};
use crate::event::{Event, Fact};
use crate::ids::Seat;
use crate::refusal::Refusal;
use crate::state::StateView;
use crate::system::RuleSystem;

/// The open window `prompt_id`, wherever it is in the stack.
pub fn open_window(state: &dyn StateView, prompt_id: u64) -> Result<PendingStep, Refusal> {
    state
        .encounter()
        .pending
        .iter()
        .find(|s| s.prompt_id == prompt_id)
        .cloned()
        .ok_or(Refusal::NoSuchPrompt { prompt_id })
}

/// The window that holds every action back, if one is open: the most recent blocking one.
pub fn blocking(state: &dyn StateView) -> Option<&PendingStep> {
    state.encounter().pending.iter().rev().find(|s| s.blocks)
}

/// `seat` answers window `prompt_id` with `choice` and `args`.
pub fn answer(
    system: &dyn RuleSystem,
    ctx: &mut Ctx<'_>,
    seat: &Seat,
    prompt_id: u64,
    choice: &str,
    args: &Args,
) -> Result<(), DecideError> {
    let step = open_window(&ctx.state, prompt_id)?;
    if !step.may_answer(seat) {
        let why = if step.answering == Answering::Each && step.has_answered(seat) {
            format!("{seat} has already answered prompt {prompt_id}")
        } else if step.answering == Answering::Gm {
            format!("prompt {prompt_id} is the GM's to answer")
        } else {
            format!("prompt {prompt_id} is not for {seat}")
        };
        return Err(Refusal::forbidden(why).into());
    }
    check_answer(&step, seat, choice, args)?;
    system.check_answer(ctx, &step, seat, choice, args)?;
    let by = if step.seats.contains(seat) {
        Resolver::Seat(seat.clone())
    } else {
        Resolver::GmOverride
    };
    match (step.answering, &by) {
        (Answering::Each, Resolver::Seat(_)) => {
            record(ctx, &step, seat, choice, args, by)?;
            if open_window(&ctx.state, prompt_id)?.waiting_for().is_empty() {
                close(
                    system,
                    ctx,
                    prompt_id,
                    choice,
                    args,
                    Resolver::Seat(seat.clone()),
                )?;
            }
            Ok(())
        }
        // The GM's answer in a window each seat answers is given for every seat that has not
        // answered yet, and closes it.
        (Answering::Each, _) => {
            for waiting in step.waiting_for() {
                record(ctx, &step, &waiting, choice, args, by.clone())?;
            }
            close(system, ctx, prompt_id, choice, args, by)
        }
        _ => close(system, ctx, prompt_id, choice, args, by),
    }
}

/// Window `prompt_id`'s time is up: every seat that has not answered takes the default.
pub fn time_out(
    system: &dyn RuleSystem,
    ctx: &mut Ctx<'_>,
    prompt_id: u64,
) -> Result<(), DecideError> {
    let step = open_window(&ctx.state, prompt_id)?;
    let (choice, args) = (step.default.clone(), step.default_args.clone());
    if step.answering == Answering::Each {
        for waiting in step.waiting_for() {
            record(ctx, &step, &waiting, &choice, &args, Resolver::TimedOut)?;
        }
    }
    close(system, ctx, prompt_id, &choice, &args, Resolver::TimedOut)
}

/// What an answer must be: one of the options when there are any (none otherwise), and
/// arguments that pass the window's specs.
fn check_answer(step: &PendingStep, seat: &Seat, choice: &str, args: &Args) -> Result<(), Refusal> {
    if step.options.is_empty() {
        if !choice.is_empty() {
            return Err(Refusal::bad_argument(
                "choice",
                "this prompt takes no choice, only its arguments",
            ));
        }
    } else if !step.options.iter().any(|o| o == choice) {
        return Err(Refusal::NotAnOption {
            choice: choice.to_owned(),
            options: step.options.clone(),
        });
    }
    args.validate(&step.args, seat)
}

fn record(
    ctx: &mut Ctx<'_>,
    step: &PendingStep,
    seat: &Seat,
    choice: &str,
    args: &Args,
    by: Resolver,
) -> Result<(), DecideError> {
    ctx.emit(Event::public(Fact::DecisionAnswered {
        prompt_id: step.prompt_id,
        answer: Answer {
            seat: seat.clone(),
            choice: choice.to_owned(),
            args: args.clone(),
            by,
        },
    }))
}

/// Closes the window and hands it, with every answer given, to the system.
fn close(
    system: &dyn RuleSystem,
    ctx: &mut Ctx<'_>,
    prompt_id: u64,
    choice: &str,
    args: &Args,
    by: Resolver,
) -> Result<(), DecideError> {
    let step = open_window(&ctx.state, prompt_id)?;
    ctx.emit(Event::public(Fact::DecisionResolved {
        prompt_id,
        choice: choice.to_owned(),
        by: by.clone(),
        args: args.clone(),
    }))?;
    system.resume(
        ctx,
        &step,
        &Closing {
            choice,
            args,
            by: &by,
        },
    )
}

/// The answers `seat` may give now, one entry per open window it may answer, for its
/// catalogue: the window's question, its options and its typed arguments, and its id.
pub fn answer_specs(state: &dyn StateView, seat: &Seat) -> Vec<ActionSpec> {
    state
        .encounter()
        .pending
        .iter()
        .filter(|s| s.may_answer(seat))
        .map(|step| {
            let mut args = Vec::new();
            if !step.options.is_empty() {
                args.push(ArgSpec {
                    choices: step.options.clone(),
                    ..ArgSpec::new(
                        "choice",
                        ArgKind::Text,
                        true,
                        &format!("default if unanswered: {}", step.default),
                    )
                });
            }
            args.extend(step.args.iter().cloned());
            args.push(ArgSpec {
                now: vec![step.prompt_id.to_string()],
                ..ArgSpec::new("prompt", ArgKind::Int, false, "which prompt this answers")
                    .range(clamp(step.prompt_id), clamp(step.prompt_id))
            });
            ActionSpec {
                name: "answer".into(),
                help: step.question.clone(),
                actor: step.actor.clone(),
                args,
                costs: vec![],
            }
        })
        .collect()
}

/// Prompt ids are counters, far below `i64::MAX` in any table that could exist.
fn clamp(id: u64) -> i64 {
    i64::try_from(id).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{MemoryState, StateMut};

    /// An answer entry as the test reads it: its help, and each argument's name, its values
    /// (choices, then values now) and its lower bound.
    type Entry = (String, Vec<(String, Vec<String>, Option<i64>)>);

    // Two windows open at once: the seat's catalogue has one answer entry per window it may
    // answer, each naming its window (the one value its `prompt` takes, and its only bound),
    // with the window's options as the choice and its typed arguments after.
    #[test]
    fn each_window_a_seat_may_answer_is_an_entry_that_names_it() {
        let ines = Seat::Player("ines".into());
        let rui = Seat::Player("rui".into());
        let mut state = MemoryState::default();
        state.encounter_mut().pending = vec![
            PendingStep {
                prompt_id: 4,
                seats: vec![ines.clone(), rui.clone()],
                question: "Take the opening?".into(),
                options: vec!["strike".into(), "hold".into()],
                default: "hold".into(),
                answering: Answering::Each,
                ..PendingStep::default()
            },
            PendingStep {
                prompt_id: 9,
                seats: vec![ines.clone()],
                question: "How many points?".into(),
                args: vec![ArgSpec::new("points", ArgKind::Int, true, "").range(1, 3)],
                ..PendingStep::default()
            },
        ];
        let entries = |seat: &Seat| -> Vec<Entry> {
            answer_specs(&state, seat)
                .into_iter()
                .map(|e| {
                    let args = e
                        .args
                        .iter()
                        .map(|a| {
                            (
                                a.name.clone(),
                                [a.choices.clone(), a.now.clone()].concat(),
                                a.min,
                            )
                        })
                        .collect();
                    (e.help, args)
                })
                .collect()
        };
        let opening = (
            "Take the opening?".to_owned(),
            vec![
                (
                    "choice".to_owned(),
                    vec!["strike".to_owned(), "hold".to_owned()],
                    None,
                ),
                ("prompt".to_owned(), vec!["4".to_owned()], Some(4)),
            ],
        );
        let points = (
            "How many points?".to_owned(),
            vec![
                ("points".to_owned(), vec![], Some(1)),
                ("prompt".to_owned(), vec!["9".to_owned()], Some(9)),
            ],
        );
        assert_eq!(entries(&ines), vec![opening.clone(), points.clone()]);
        assert_eq!(entries(&rui), vec![opening.clone()]);
        assert_eq!(entries(&Seat::Gm), vec![opening, points]);
        assert!(entries(&Seat::Spectator("eve".into())).is_empty());
        assert!(blocking(&state).is_some_and(|w| w.prompt_id == 9));
    }
}

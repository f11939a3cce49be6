//! vigor: Take Opening. When a foe stumbles, every player whose character stands against it
//! may strike at once: one window open to several seats, each answering for itself, with one
//! deadline, while the table plays on (the window does not block).

use super::*;

/// The raider (durability 10) against Aune, Bram and Cato (damage 2, 3 and 4), played from
/// seats p1, p2 and p3.
pub(crate) fn opening_table() -> Table {
    Table::new(&Vigor, opening_roster(), vec![5, 4, 3, 2])
}

fn raider_stumbles(table: &mut Table) -> u64 {
    let stumble = Command::act(Seat::Gm, Some("raider"), STUMBLE, Args::default());
    table.run(&Vigor, stumble, &mut ScriptedDice::new(vec![]));
    let window = table.prompt();
    assert_eq!(window.rule, VIGOR_OPENING);
    assert_eq!(window.seats, vec![player("p1"), player("p2"), player("p3")]);
    assert_eq!(window.answering, Answering::Each);
    assert!(!window.blocks);
    assert_eq!(
        window.timeout_ms, 60_000,
        "one deadline for all three seats"
    );
    window.prompt_id
}

fn answer(seat: &str, prompt: u64, choice: &str) -> Command {
    Command::answer(player(seat), prompt, choice)
}

#[test]
fn vigor_opening_is_open_to_three_seats_answered_by_two_and_timed_out_for_the_third() {
    let mut table = opening_table();
    let prompt = raider_stumbles(&mut table);
    let mut no_dice = ScriptedDice::new(vec![]);

    // Aune strikes; the window stays open for the other two.
    let events = table.run(&Vigor, answer("p1", prompt, "strike"), &mut no_dice);
    assert!(resolutions(&events).is_empty());
    // Her answer is hers and the GM's until the window closes: Bram and Cato, still to
    // answer, learn that she has answered, not what.
    let told = |seat: Seat| -> Vec<(Seat, String)> {
        events
            .iter()
            .filter_map(|e| e.view(&seat))
            .flat_map(|e| e.parts)
            .filter_map(|p| match p.fact {
                Fact::DecisionAnswered { answer, .. } => Some((answer.seat, answer.choice)),
                _ => None,
            })
            .collect()
    };
    assert_eq!(
        told(player("p1")),
        vec![(player("p1"), "strike".to_owned())]
    );
    assert_eq!(told(Seat::Gm), vec![(player("p1"), "strike".to_owned())]);
    for other in [
        player("p2"),
        player("p3"),
        Seat::Spectator(SeatId::from("s1")),
    ] {
        assert_eq!(told(other), vec![(player("p1"), String::new())]);
    }
    assert_eq!(
        table.prompt().waiting_for(),
        vec![player("p2"), player("p3")]
    );
    assert_eq!(
        table.resource("raider", "durability"),
        10,
        "nothing until it closes"
    );
    // Bram holds.
    table.run(&Vigor, answer("p2", prompt, "hold"), &mut no_dice);
    assert_eq!(table.prompt().waiting_for(), vec![player("p3")]);

    // Cato's time runs out: the default for him, then the window closes.
    let events = table.run(
        &Vigor,
        Command {
            seat: Seat::Gm,
            body: CommandBody::TimeOut { prompt_id: prompt },
        },
        &mut no_dice,
    );
    let answered: Vec<(Seat, &str, Resolver)> = facts(&events)
        .into_iter()
        .filter_map(|f| match f {
            Fact::DecisionAnswered { answer, .. } => Some((
                answer.seat.clone(),
                answer.choice.as_str(),
                answer.by.clone(),
            )),
            _ => None,
        })
        .collect();
    assert_eq!(answered, vec![(player("p3"), "hold", Resolver::TimedOut)]);
    assert_eq!(
        resolutions(&events),
        vec![(prompt, "hold", &Resolver::TimedOut)]
    );
    // Only Aune struck: 10 - 2.
    assert_eq!(table.resource("raider", "durability"), 8);
    assert!(table.state.encounter.pending.is_empty());
    assert_eq!(
        table.refuse(&Vigor, answer("p2", prompt, "strike"), &mut no_dice),
        Refusal::NoSuchPrompt { prompt_id: prompt }
    );
    table.assert_replays();
    table.hold_as_fixture("vigor-opening");
}

#[test]
fn vigor_opening_does_not_hold_the_table_and_each_seat_answers_once() {
    let mut table = opening_table();
    let prompt = raider_stumbles(&mut table);
    let mut no_dice = ScriptedDice::new(vec![]);

    // The window does not block: the seats keep their actions beside the answer.
    assert_eq!(
        action_names(&Vigor, &table.state, &player("p1")),
        vec!["answer", "attack", "step"]
    );
    assert!(action_names(&Vigor, &table.state, &Seat::Gm).contains(&"attack".to_owned()));
    table.run(&Vigor, answer("p1", prompt, "strike"), &mut no_dice);
    assert_eq!(
        action_names(&Vigor, &table.state, &player("p1")),
        vec!["attack", "step"],
        "answered: no answer left to give"
    );

    // Bad answers: each refused with its reason, nothing applied.
    let before = table.state.clone();
    let points = Command {
        seat: player("p3"),
        body: CommandBody::Answer {
            prompt_id: prompt,
            choice: "strike".into(),
            args: Args::default().with("points", ArgValue::Int(2)),
        },
    };
    let cases = [
        (
            answer("p1", prompt, "hold"),
            Refusal::forbidden(format!("player p1 has already answered prompt {prompt}")),
        ),
        (
            answer("p4", prompt, "strike"),
            Refusal::forbidden(format!("prompt {prompt} is not for player p4")),
        ),
        (
            answer("p3", prompt, "maybe"),
            Refusal::NotAnOption {
                choice: "maybe".into(),
                options: vec!["strike".into(), "hold".into()],
            },
        ),
        (
            points,
            Refusal::bad_argument("points", "is not an argument of this action"),
        ),
        (
            answer("p3", prompt + 1, "strike"),
            Refusal::NoSuchPrompt {
                prompt_id: prompt + 1,
            },
        ),
    ];
    for (command, refusal) in cases {
        assert_eq!(
            table.refuse(&Vigor, command.clone(), &mut no_dice),
            refusal,
            "{command:?}"
        );
    }
    assert_eq!(table.state, before);

    // The GM answers in the place of the two who have not: both strike, Aune struck already.
    let events = table.run(
        &Vigor,
        Command::answer(Seat::Gm, prompt, "strike"),
        &mut no_dice,
    );
    assert_eq!(
        resolutions(&events),
        vec![(prompt, "strike", &Resolver::GmOverride)]
    );
    assert_eq!(table.resource("raider", "durability"), 10 - 2 - 3 - 4);
    table.assert_replays();
    table.hold_as_fixture("vigor-opening-override");
}

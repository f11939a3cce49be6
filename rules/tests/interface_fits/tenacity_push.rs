//! 10acity: a push. The player picks how many hero points to pay, against a challenge only the
//! GM knows: a window answered with a typed number, holding data that no player's view gets.

use super::*;

/// Missa (seat p1, 3 hero points) before a door whose challenge, 9, is the GM's.
pub(crate) fn push_table() -> Table {
    Table::new(&Tenacity, push_roster(), vec![])
}

fn missa_pushes(table: &mut Table) -> u64 {
    let args = Args::default().with("obstacle", ArgValue::Text("door".into()));
    let command = Command::act(player("p1"), Some("missa"), PUSH, args);
    table.run(&Tenacity, command, &mut ScriptedDice::new(vec![]));
    let window = table.prompt();
    assert_eq!(window.rule, TENACITY_PUSH);
    assert!(window.options.is_empty());
    assert_eq!(window.secret_int("challenge"), Some(9));
    window.prompt_id
}

fn pay(seat: Seat, prompt: u64, points: ArgValue, choice: &str) -> Command {
    Command {
        seat,
        body: CommandBody::Answer {
            prompt_id: prompt,
            choice: choice.into(),
            args: Args::default().with("points", points),
        },
    }
}

// (d10 face, points paid, outcome, margin): d10 + points must beat 9; a tie fails.
#[test]
fn tenacity_push_pays_the_points_chosen_against_the_hidden_challenge() {
    let cases = [
        (8, 2, Outcome::Success, 1),
        (7, 2, Outcome::Failure, 0),
        (1, 1, Outcome::Failure, -7),
        (10, 3, Outcome::Success, 4),
    ];
    for (face, points, outcome, margin) in cases {
        let mut table = push_table();
        let prompt = missa_pushes(&mut table);
        let events = table.run(
            &Tenacity,
            pay(player("p1"), prompt, ArgValue::Int(points), ""),
            &mut ScriptedDice::new(vec![face]),
        );
        let check = checks(&events)[0];
        assert_eq!(
            (check.total, check.outcome, check.margin),
            (i64::from(face) + points, outcome, None),
            "face {face}, {points} points: the record every seat reads has no margin"
        );
        let hidden = facts(&events).into_iter().find_map(|f| match f {
            Fact::HiddenTarget { target, margin, .. } => Some((*target, *margin)),
            _ => None,
        });
        assert_eq!(
            hidden,
            Some((9, Some(margin))),
            "face {face}, {points} points"
        );
        assert_eq!(table.resource("missa", "hero_points"), 3 - points);
        table.assert_replays();
    }
}

#[test]
fn tenacity_push_challenge_is_in_no_players_view() {
    let mut table = push_table();
    let prompt = missa_pushes(&mut table);
    // While it is open, the window in the state her seat built has everything but the
    // challenge; the GM's has it; Tomas's holds only that Missa has a decision to make.
    let open = |table: &Table, seat: &Seat| table.seen_by(seat).state.encounter.pending.clone();
    let hers = open(&table, &player("p1"));
    assert_eq!(hers.len(), 1);
    assert_eq!(
        hers[0].question,
        "How many hero points does missa pay (1 to 3)?"
    );
    assert!(hers[0].secret.is_empty());
    assert_eq!(open(&table, &Seat::Gm)[0].secret_int("challenge"), Some(9));
    assert_eq!(
        open(&table, &player("p2"))[0].question,
        "p1 has a decision to make"
    );
    table.run(
        &Tenacity,
        pay(player("p1"), prompt, ArgValue::Int(2), ""),
        &mut ScriptedDice::new(vec![8]),
    );
    assert!(open(&table, &player("p1")).is_empty(), "closed for her too");
    // Everything Missa's seat was sent, and the state she built from it.
    let seen = table.seen_by(&player("p1"));
    let sent = serde_json::to_string(&seen.events).unwrap();
    for needle in ["challenge", "window_secret", "hidden_target"] {
        assert!(
            !sent.contains(needle),
            "{needle} reached the player: {sent}"
        );
    }
    let asked = seen
        .events
        .iter()
        .flat_map(|e| e.facts())
        .find_map(|f| match f {
            Fact::DecisionRequested { step } => Some(step.clone()),
            _ => None,
        });
    let asked = asked.expect("the player saw her window");
    assert_eq!(
        asked.args[0].max,
        Some(3),
        "she sees how many points she may pay"
    );
    assert!(asked.secret.is_empty());
    // The GM's copy of the window held the challenge while it was open.
    let gm = table.seen_by(&Seat::Gm);
    assert!(gm.events.iter().flat_map(|e| e.facts()).any(|f| matches!(
        f,
        Fact::WindowSecret { secret, .. } if secret.get("challenge") == Some(&StepValue::Int(9))
    )));
}

#[test]
fn tenacity_push_refuses_a_wrong_answer_and_holds_the_table_meanwhile() {
    let mut table = push_table();
    let prompt = missa_pushes(&mut table);
    let mut no_dice = ScriptedDice::new(vec![]);
    let before = table.state.clone();
    let cases = [
        (
            pay(player("p1"), prompt, ArgValue::Text("three".into()), ""),
            Refusal::bad_argument("points", "must be an integer"),
        ),
        (
            pay(player("p1"), prompt, ArgValue::Int(4), ""),
            Refusal::bad_argument("points", "must be in 1..=3, got 4"),
        ),
        (
            pay(player("p1"), prompt, ArgValue::Int(2), "yes"),
            Refusal::bad_argument("choice", "this prompt takes no choice, only its arguments"),
        ),
        (
            Command {
                seat: player("p1"),
                body: CommandBody::Answer {
                    prompt_id: prompt,
                    choice: String::new(),
                    args: Args::default(),
                },
            },
            Refusal::bad_argument("points", "is required"),
        ),
        (
            pay(player("p2"), prompt, ArgValue::Int(1), ""),
            Refusal::forbidden(format!("prompt {prompt} is not for player p2")),
        ),
        (
            missa_investigates(12),
            Refusal::AwaitingDecision {
                prompt_id: prompt,
                question: "How many hero points does missa pay (1 to 3)?".into(),
            },
        ),
    ];
    for (command, refusal) in cases {
        assert_eq!(
            table.refuse(&Tenacity, command.clone(), &mut no_dice),
            refusal,
            "{command:?}"
        );
    }
    assert_eq!(table.state, before);
    assert_eq!(no_dice.used(), 0);

    // Unanswered, it pays the default point.
    table.run(
        &Tenacity,
        Command {
            seat: Seat::Gm,
            body: CommandBody::TimeOut { prompt_id: prompt },
        },
        &mut ScriptedDice::new(vec![9]),
    );
    assert_eq!(table.resource("missa", "hero_points"), 2);
    table.assert_replays();
    table.hold_as_fixture("tenacity-push");
}

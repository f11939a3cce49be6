//! mist: side turns (each side's members act in any order, each once, and the next side's turn
//! opens by itself), the aimed attack declared now and fired by itself after the enemies' side
//! has acted, and a delayed action that interrupts an enemy's strike through a window
//! answered with an action. mist measures in feet, five to a cell.

use super::*;
use tablehold_rules::toolkit::turns;

/// Beatrix (p1) and Markus (p2) against a thug; the players' side is acting.
pub(crate) fn mist_table() -> Table {
    let table = Table::new(&Mist, mist_roster(), vec![]);
    assert_eq!(
        turns::describe(&table.state),
        "players: beatrix, markus still to act"
    );
    table
}

pub(crate) fn aim(seat: &str, who: &str, at: &str) -> Command {
    Command::act(
        player(seat),
        Some(who),
        "aim",
        Args::default().with("target", ArgValue::Text(at.into())),
    )
}

fn act_as(seat: Seat, who: &str, action: &str, args: Args) -> Command {
    Command::act(seat, Some(who), action, args)
}

fn to(x: i32, y: i32) -> Args {
    Args::default().with("to", ArgValue::Cell(Cell::new(x, y)))
}

fn at(target: &str) -> Args {
    Args::default().with("target", ArgValue::Text(target.into()))
}

pub(crate) fn end_turn_of(side: &str) -> Command {
    Command::act(
        Seat::Gm,
        None,
        "end_side_turn",
        Args::default().with("side", ArgValue::Text(side.into())),
    )
}

/// The turn as a client would show it.
fn turn(table: &Table) -> String {
    turns::describe(&table.state)
}

/// Declares Beatrix's aimed attack, checking that it draws nothing and holds nothing up.
pub(crate) fn beatrix_aims(table: &mut Table) -> u64 {
    let mut dice = ScriptedDice::new(vec![10, 10]);
    let events = table.run(&Mist, aim("p1", "beatrix", "thug"), &mut dice);
    assert_eq!(
        dice.used(),
        0,
        "an aimed attack draws nothing when declared"
    );
    let deferred: Vec<&PendingStep> = facts(&events)
        .into_iter()
        .filter_map(|f| match f {
            Fact::StepDeferred { step } => Some(&**step),
            _ => None,
        })
        .collect();
    let [step] = deferred[..] else {
        panic!("expected one StepDeferred, got {events:?}");
    };
    assert_eq!(step.rule, MIST_AIM);
    assert_eq!(step.trigger.as_deref(), Some("after_side:enemies"));
    assert_eq!(step.entity("target"), Some(&id("thug")));
    assert_eq!(table.state.encounter.deferred.len(), 1);
    // A deferred step is not a prompt: nobody answers it and the table keeps playing.
    assert!(table.state.encounter.pending.is_empty());
    assert_eq!(answer_choices(&Mist, &table.state, &player("p1")), None);
    // Beatrix has acted; Markus still may.
    assert!(action_names(&Mist, &table.state, &player("p1")).is_empty());
    assert_eq!(
        action_names(&Mist, &table.state, &player("p2")),
        vec!["aim", "move", "strike", "delay"]
    );
    assert_eq!(turn(table), "players: markus still to act");
    step.prompt_id
}

#[test]
fn mist_side_members_act_in_any_order_each_once_and_the_next_side_opens_by_itself() {
    let mut table = mist_table();
    let mut no_dice = ScriptedDice::new(vec![]);
    assert_eq!(turn(&table), "players: beatrix, markus still to act");
    // Markus first: moving leaves his action; delaying spends it.
    table.run(
        &Mist,
        act_as(player("p2"), "markus", "move", to(0, 3)),
        &mut no_dice,
    );
    assert_eq!(turn(&table), "players: beatrix, markus still to act");
    table.run(
        &Mist,
        act_as(player("p2"), "markus", "delay", Args::default()),
        &mut no_dice,
    );
    assert_eq!(
        turn(&table),
        "players: beatrix still to act; holding: markus"
    );
    let again = table.refuse(&Mist, aim("p2", "markus", "thug"), &mut no_dice);
    assert_eq!(
        again,
        Refusal::NotYourTurn {
            actor: id("markus"),
            current: Some(id("beatrix"))
        }
    );
    // The thug may not act in the players' turn.
    let early = act_as(Seat::Gm, "thug", "strike", at("beatrix"));
    assert_eq!(
        table.refuse(&Mist, early, &mut no_dice).code(),
        "not_your_turn"
    );
    // Beatrix acts last: the players' side is done and the enemies' turn opens by itself.
    let events = table.run(&Mist, aim("p1", "beatrix", "thug"), &mut no_dice);
    let opened: Vec<&Fact> = facts(&events)
        .into_iter()
        .filter(|f| matches!(f, Fact::TurnsOpened { .. }))
        .collect();
    assert_eq!(
        opened,
        vec![&Fact::TurnsOpened {
            shape: turns::TurnShape::Group,
            group: Some("enemies".into()),
            now: vec![id("thug")],
        }]
    );
    assert_eq!(turn(&table), "enemies: thug still to act; holding: markus");
    assert_eq!(
        table.state.encounter.deferred.len(),
        1,
        "the aim waits for the enemies"
    );
    table.assert_replays();
}

#[test]
fn mist_aimed_attacks_fire_by_themselves_after_the_enemies_side_in_declaration_order() {
    let mut table = mist_table();
    let beatrix = beatrix_aims(&mut table);
    let mut no_dice = ScriptedDice::new(vec![]);
    let events = table.run(&Mist, aim("p2", "markus", "thug"), &mut no_dice);
    let markus = facts(&events)
        .into_iter()
        .find_map(|f| match f {
            Fact::StepDeferred { step } => Some(step.prompt_id),
            _ => None,
        })
        .unwrap();
    assert!(markus > beatrix, "prompt ids grow across deferred steps");
    // The end of the players' own turn is not their aim's trigger.
    assert_eq!(table.state.encounter.deferred.len(), 2);
    assert_eq!(turn(&table), "enemies: thug still to act");
    // Players cannot aim in the enemies' turn.
    let refusal = table.refuse(&Mist, aim("p1", "beatrix", "thug"), &mut no_dice);
    assert_eq!(refusal.code(), "not_your_turn");

    // The thug steps to (7, 0): 7 cells from Beatrix, 7 + 2/2 = 8 from Markus, both in range.
    let events = table.run(
        &Mist,
        act_as(Seat::Gm, "thug", "move", to(7, 0)),
        &mut no_dice,
    );
    assert!(matches!(facts(&events)[..], [Fact::Moved { .. }]));
    // Its strike falls short (reach one cell): no dice, and the enemies have acted, so the
    // aims fire by themselves. Beatrix d10 4 + Senses 3 + aimed 3 = 10 hits Evade 9; Markus
    // d10 3 + 2 + 3 = 8 misses.
    let mut dice = ScriptedDice::new(vec![4, 3]);
    let events = table.run(
        &Mist,
        act_as(Seat::Gm, "thug", "strike", at("beatrix")),
        &mut dice,
    );
    assert_eq!(dice.used(), 2);
    let order: Vec<&Fact> = facts(&events)
        .into_iter()
        .filter(|f| {
            matches!(
                f,
                Fact::Noted { .. } | Fact::DeferredResumed { .. } | Fact::TurnsOpened { .. }
            )
        })
        .collect();
    assert_eq!(
        order,
        vec![
            &Fact::Noted {
                text: "thug's strike falls short: beatrix is 35 ft away".into()
            },
            &Fact::DeferredResumed { prompt_id: beatrix },
            &Fact::DeferredResumed { prompt_id: markus },
            &Fact::TurnsOpened {
                shape: turns::TurnShape::Group,
                group: Some("players".into()),
                now: vec![id("beatrix"), id("markus")],
            },
        ]
    );
    let summary: Vec<_> = checks(&events)
        .iter()
        .map(|c| {
            (
                c.actor.clone().unwrap().0,
                c.roll.natural(),
                c.total,
                c.against.clone(),
                c.outcome,
                c.margin,
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            (
                "beatrix".to_owned(),
                Some(4),
                10,
                Against::Target(9),
                Outcome::Success,
                Some(1)
            ),
            (
                "markus".to_owned(),
                Some(3),
                8,
                Against::Target(9),
                Outcome::Failure,
                Some(-1)
            ),
        ]
    );
    assert!(table.state.encounter.deferred.is_empty());
    assert_eq!(turn(&table), "players: beatrix, markus still to act");
    table.assert_replays();
    table.hold_as_fixture("mist-side-turns");
}

#[test]
fn mist_an_aimed_attack_whose_target_left_range_is_wasted_without_dice() {
    let mut table = mist_table();
    let beatrix = beatrix_aims(&mut table);
    let mut no_dice = ScriptedDice::new(vec![]);
    table.run(&Mist, end_turn_of("players"), &mut no_dice);
    assert_eq!(turn(&table), "enemies: thug still to act");

    // The GM's generic move ruling takes the thug 20 cells away, out of range 10: a ruling
    // sets nothing off, so the enemies' turn goes on.
    let ruling = Args::default()
        .with("target", ArgValue::Text("thug".into()))
        .with("to", ArgValue::Cell(Cell::new(20, 0)))
        .with("reason", ArgValue::Text("flees round the corner".into()));
    let rule_move = format!("{}move", tablehold_rules::engine::RULING_PREFIX);
    table.run(
        &Mist,
        Command::act(Seat::Gm, None, &rule_move, ruling),
        &mut no_dice,
    );
    assert_eq!(
        table.state.combatants[&id("thug")].position,
        Some(Cell::new(20, 0))
    );

    let mut dice = ScriptedDice::new(vec![10]);
    let events = table.run(&Mist, end_turn_of("enemies"), &mut dice);
    assert_eq!(dice.used(), 0, "a wasted aimed attack rolls nothing");
    assert!(checks(&events).is_empty());
    let told: Vec<&Fact> = facts(&events)
        .into_iter()
        .filter(|f| matches!(f, Fact::DeferredResumed { .. } | Fact::Noted { .. }))
        .collect();
    assert_eq!(
        told,
        vec![
            &Fact::DeferredResumed { prompt_id: beatrix },
            &Fact::Noted {
                text: "beatrix's aimed attack is wasted: thug is 100 ft away, range 50 ft".into()
            },
        ]
    );
    assert!(table.state.encounter.deferred.is_empty());
    table.assert_replays();
}

#[test]
fn mist_aim_is_refused_out_of_turn_against_allies_and_out_of_range_in_feet() {
    let mut table = mist_table();
    let mut no_dice = ScriptedDice::new(vec![]);
    assert_eq!(
        table
            .refuse(&Mist, aim("p1", "beatrix", "markus"), &mut no_dice)
            .code(),
        "rule"
    );
    assert_eq!(
        table
            .refuse(&Mist, aim("p2", "beatrix", "thug"), &mut no_dice)
            .code(),
        "forbidden"
    );
    table.run(
        &Mist,
        act_as(player("p2"), "markus", "move", to(0, 30)),
        &mut no_dice,
    );
    // 30 + 5/2 = 32 cells: 160 ft, and the range is 10 cells, 50 ft.
    assert_eq!(
        table.refuse(&Mist, aim("p2", "markus", "thug"), &mut no_dice),
        Refusal::OutOfRange {
            what: "thug".into(),
            distance: 160,
            limit: 50,
            unit: "ft".into()
        }
    );
    assert_eq!(
        table
            .refuse(&Mist, end_turn_of("enemies"), &mut no_dice)
            .code(),
        "rule"
    );
    table.assert_replays();
}

/// Beatrix delays next to the thug; Markus aims, which ends the players' side.
fn beatrix_holds_by_the_thug() -> Table {
    let mut table = mist_table();
    let mut no_dice = ScriptedDice::new(vec![]);
    table.run(
        &Mist,
        act_as(player("p1"), "beatrix", "move", to(4, 0)),
        &mut no_dice,
    );
    table.run(
        &Mist,
        act_as(player("p1"), "beatrix", "delay", Args::default()),
        &mut no_dice,
    );
    table.run(&Mist, aim("p2", "markus", "thug"), &mut no_dice);
    assert_eq!(turn(&table), "enemies: thug still to act; holding: beatrix");
    table
}

fn interrupt(prompt: u64, choice: &str, args: Args) -> Command {
    Command {
        seat: player("p1"),
        body: CommandBody::Answer {
            prompt_id: prompt,
            choice: choice.into(),
            args,
        },
    }
}

#[test]
fn mist_a_delayed_action_interrupts_the_enemys_strike_with_a_move() {
    let mut table = beatrix_holds_by_the_thug();
    let mut no_dice = ScriptedDice::new(vec![]);
    // The thug strikes: Beatrix is asked first, and nothing is drawn.
    table.run(
        &Mist,
        act_as(Seat::Gm, "thug", "strike", at("beatrix")),
        &mut no_dice,
    );
    let window = table.prompt().clone();
    assert_eq!(window.rule, MIST_INTERRUPT);
    assert_eq!(window.seats, vec![player("p1")]);
    assert!(window.blocks);
    assert_eq!(no_dice.used(), 0);
    // Answers that do not fit: each refused, nothing applied.
    let before = table.state.clone();
    let move_to = |cell: ArgValue| {
        Args::default()
            .with("action", ArgValue::Text("move".into()))
            .with("to", cell)
    };
    let cases = [
        (
            interrupt(window.prompt_id, "act", Args::default()),
            Refusal::bad_argument("action", "is required to act"),
        ),
        (
            interrupt(
                window.prompt_id,
                "act",
                Args::default().with("action", ArgValue::Text("aim".into())),
            ),
            Refusal::bad_argument("action", "`aim` must be one of move"),
        ),
        (
            interrupt(
                window.prompt_id,
                "act",
                Args::default().with("action", ArgValue::Text("move".into())),
            ),
            Refusal::bad_argument("to", "is required"),
        ),
        (
            interrupt(
                window.prompt_id,
                "act",
                move_to(ArgValue::Text("north".into())),
            ),
            Refusal::bad_argument("to", "must be a cell {x, y}"),
        ),
        (
            act_as(Seat::Gm, "thug", "move", to(9, 9)),
            Refusal::AwaitingDecision {
                prompt_id: window.prompt_id,
                question: window.question.clone(),
            },
        ),
    ];
    for (command, refusal) in cases {
        assert_eq!(
            table.refuse(&Mist, command.clone(), &mut no_dice),
            refusal,
            "{command:?}"
        );
    }
    assert_eq!(table.state, before);

    // She steps back out of reach: the strike falls short, nothing is drawn, and the enemies'
    // turn being over, the aim fires (d10 6 + 2 + 3 = 11 hits Evade 9).
    let mut dice = ScriptedDice::new(vec![6]);
    let events = table.run(
        &Mist,
        interrupt(
            window.prompt_id,
            "act",
            move_to(ArgValue::Cell(Cell::new(0, 0))),
        ),
        &mut dice,
    );
    let moved: Vec<&Fact> = facts(&events)
        .into_iter()
        .filter(|f| matches!(f, Fact::Moved { .. } | Fact::Noted { .. }))
        .collect();
    assert_eq!(
        moved,
        vec![
            &Fact::Moved {
                entity: id("beatrix"),
                from: Some(Cell::new(4, 0)),
                to: Some(Cell::new(0, 0)),
            },
            &Fact::Noted {
                text: "thug's strike falls short: beatrix is 25 ft away".into()
            },
        ]
    );
    assert_eq!(dice.used(), 1);
    assert_eq!(checks(&events)[0].actor, Some(id("markus")));
    assert!(table.state.encounter.turns.held.is_empty());
    assert_eq!(turn(&table), "players: beatrix, markus still to act");
    table.assert_replays();
    table.hold_as_fixture("mist-interrupt");
}

#[test]
fn mist_a_held_action_passed_up_lets_the_strike_land() {
    let mut table = beatrix_holds_by_the_thug();
    table.run(
        &Mist,
        act_as(Seat::Gm, "thug", "strike", at("beatrix")),
        &mut ScriptedDice::new(vec![]),
    );
    let prompt = table.prompt().prompt_id;
    // d10 8 + Senses 1 = 9 against Evade 7: a hit by 2; then the aim, d10 1 + 5 = 6, misses.
    let mut dice = ScriptedDice::new(vec![8, 1]);
    let events = table.run(&Mist, interrupt(prompt, "pass", Args::default()), &mut dice);
    let strike = checks(&events)[0];
    assert_eq!(
        (strike.total, strike.outcome, strike.margin),
        (9, Outcome::Success, Some(2))
    );
    assert_eq!(
        table.state.encounter.turns.held,
        vec![id("beatrix")],
        "still held"
    );
    table.assert_replays();
}

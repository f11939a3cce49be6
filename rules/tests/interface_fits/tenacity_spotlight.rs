//! 10acity: the spotlight, and the narrator's challenge dice. Whoever holds the spotlight acts
//! and hands it on: to someone who has not had it this round, or back to the one they acted
//! against, who may answer at once. A contest is a hero's roll against a pool of the narrator's
//! dice that belongs to no combatant; its margin is the contest's size.

use super::*;
use tablehold_rules::toolkit::turns;

/// Missa (p1), Tomas (p2) and a cultist (the GM's); Missa holds the spotlight in round 1.
pub(crate) fn spotlight_table() -> Table {
    let table = Table::new(&Tenacity, spotlight_roster(), vec![]);
    assert_eq!(turns::describe(&table.state), "spotlight: missa");
    table
}

fn hand(seat: Seat, from: &str, to: &str) -> Command {
    Command::act(
        seat,
        Some(from),
        HAND_ON,
        Args::default().with("to", ArgValue::Text(to.into())),
    )
}

fn contest_against(seat: Seat, who: &str, against: &str) -> Command {
    Command::act(
        seat,
        Some(who),
        CONTEST,
        Args::default()
            .with("against", ArgValue::Text(against.into()))
            .with("skill", ArgValue::Text("investigation".into())),
    )
}

#[test]
fn tenacity_the_spotlight_passes_on_within_the_rule_and_back_to_the_one_acted_against() {
    let mut table = spotlight_table();
    let mut dice = ScriptedDice::new(vec![6, 3, 4]);
    assert_eq!(turns::describe(&table.state), "spotlight: missa");
    // Missa contests the cultist, then hands the spotlight to it: it may answer at once.
    table.run(
        &Tenacity,
        contest_against(player("p1"), "missa", "cultist"),
        &mut dice,
    );
    table.run(&Tenacity, hand(player("p1"), "missa", "cultist"), &mut dice);
    assert_eq!(turns::describe(&table.state), "spotlight: cultist");
    assert_eq!(
        action_names(&Tenacity, &table.state, &player("p1")),
        vec!["check"],
        "Missa has had the spotlight: only the check any hero may roll is left"
    );
    // The cultist may not hand it back to Missa, who has had it and whom it did not act
    // against; nor keep it. Tomas is open.
    let refused = table.refuse(
        &Tenacity,
        hand(Seat::Gm, "cultist", "missa"),
        &mut ScriptedDice::new(vec![]),
    );
    assert_eq!(
        refused,
        Refusal::Rule(
            "the spotlight cannot pass to missa: missa has had it this round and was not acted \
             against; it may pass to tomas"
                .into()
        )
    );
    let kept = table.refuse(
        &Tenacity,
        hand(Seat::Gm, "cultist", "cultist"),
        &mut ScriptedDice::new(vec![]),
    );
    assert_eq!(kept.code(), "rule");
    // It contests Missa, and so may hand the spotlight back to her.
    let mut dice = ScriptedDice::new(vec![2, 1, 1]);
    let missa_only = table.run(
        &Tenacity,
        contest_against(Seat::Gm, "cultist", "missa"),
        &mut dice,
    );
    assert!(!checks(&missa_only).is_empty());
    table.run(&Tenacity, hand(Seat::Gm, "cultist", "missa"), &mut dice);
    assert_eq!(turns::describe(&table.state), "spotlight: missa");
    // Missa hands to Tomas, the last who has not had it: a new round begins as he takes it.
    table.run(&Tenacity, hand(player("p1"), "missa", "tomas"), &mut dice);
    assert_eq!(table.state.encounter.round, 1, "Tomas has not had it yet");
    table.run(&Tenacity, hand(player("p2"), "tomas", "cultist"), &mut dice);
    assert_eq!(table.state.encounter.round, 2);
    assert_eq!(turns::describe(&table.state), "spotlight: cultist");
    table.assert_replays();
    table.hold_as_fixture("tenacity-spotlight");
}

// (hero's d10, the narrator's 2d6, outcome, margin): 1d10 + investigation 5 must beat the pool.
#[test]
fn tenacity_a_contest_against_the_narrators_dice_has_its_margin() {
    let cases = [
        (6, [3, 4], Outcome::Success, 4),
        (2, [3, 4], Outcome::Failure, 0),
        (1, [6, 6], Outcome::Failure, -6),
        (10, [1, 1], Outcome::Success, 13),
    ];
    for (face, [a, b], outcome, margin) in cases {
        let mut table = spotlight_table();
        let mut dice = ScriptedDice::new(vec![face, a, b]);
        let events = table.run(
            &Tenacity,
            contest_against(player("p1"), "missa", "cultist"),
            &mut dice,
        );
        let check = checks(&events)[0];
        assert_eq!(
            check.against,
            Against::Pool {
                name: "challenge dice".into(),
                total: i64::from(a + b)
            }
        );
        assert_eq!(
            (check.total, check.outcome, check.margin),
            (i64::from(face) + 5, outcome, Some(margin)),
            "d10 {face} against {a}+{b}"
        );
        // The pool is the narrator's: nobody rolled it.
        let pool_by = facts(&events).into_iter().find_map(|f| match f {
            Fact::Rolled { by, purpose, .. } if purpose == "challenge dice" => Some(by.clone()),
            _ => None,
        });
        assert_eq!(pool_by, Some(None));
        table.assert_replays();
    }
}

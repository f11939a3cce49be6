//! 10acity: a natural 10 on a hero die lets the player choose what to draw next.

use super::*;

/// Missa (p1): 3 Awareness hero dice, Investigation rank 5 (so 2d4 impact). Tomas plays p2.
pub(crate) fn tenacity_table() -> Table {
    Table::new(&Tenacity, tenacity_roster(), vec![])
}

pub(crate) fn missa_investigates(cr: i64) -> Command {
    let args = Args::default()
        .with("skill", ArgValue::Text("investigation".into()))
        .with("cr", ArgValue::Int(cr));
    Command::act(player("p1"), Some("missa"), "check", args)
}

/// Rolls Missa's pool 10, 4, 7 against `cr`: a critical, so she is asked before anything is
/// compared. The script is longer than the pool to show nothing past it is drawn yet.
pub(crate) fn missa_crits(table: &mut Table, cr: i64) -> u64 {
    let mut dice = ScriptedDice::new(vec![10, 4, 7, 1, 1, 1]);
    let events = table.run(&Tenacity, missa_investigates(cr), &mut dice);
    assert_eq!(dice.used(), 3);
    assert!(
        checks(&events).is_empty(),
        "nothing is compared before the answer"
    );
    let prompt = table.prompt();
    assert_eq!(prompt.rule, TENACITY_CRITICAL);
    assert_eq!(prompt.seats, vec![player("p1")]);
    assert_eq!(prompt.default, "hero_die");
    assert_eq!(prompt.roll("pool").map(|r| r.total), Some(10));
    assert_eq!(
        answer_choices(&Tenacity, &table.state, &player("p1")),
        choices(&["hero_die", "impact_d4"])
    );
    assert_eq!(answer_choices(&Tenacity, &table.state, &player("p2")), None);
    prompt.prompt_id
}

#[test]
fn tenacity_critical_extra_hero_die_is_drawn_after_the_answer_and_added() {
    let mut table = tenacity_table();
    let prompt = missa_crits(&mut table, 16);

    // Kept 10 + rank 5 = 15 would not beat 16. The extra hero die's face is added to the total
    // (rules/tenacity.md, correction 4): 10 + 5 + 3 = 18 beats it, and impact 2d4 = 2 + 3 follows.
    let mut dice = ScriptedDice::new(vec![3, 2, 3]);
    assert_eq!(dice.used(), 0);
    let events = table.run(
        &Tenacity,
        Command::answer(player("p1"), prompt, "hero_die"),
        &mut dice,
    );
    assert_eq!(dice.used(), 3);
    assert_eq!(
        resolutions(&events),
        vec![(prompt, "hero_die", &Resolver::Seat(player("p1")))]
    );
    let check = checks(&events)[0];
    assert_eq!(check.roll.faces_of(0), vec![10, 4, 7]);
    assert_eq!(
        check.modifiers,
        vec![
            Modifier::new("investigation", 5),
            Modifier::new("extra hero die", 3)
        ]
    );
    assert_eq!(
        (check.total, &check.against, check.outcome),
        (18, &Against::Exceed(16), Outcome::Success)
    );
    let impact: Vec<&Roll> = facts(&events)
        .into_iter()
        .filter_map(|f| match f {
            Fact::Rolled { purpose, roll, .. } if purpose == "investigation impact" => Some(roll),
            _ => None,
        })
        .collect();
    assert_eq!((impact[0].expr.as_str(), impact[0].total), ("2d4", 5));
    assert_eq!(table.resource("missa", "impact"), 5);
    assert!(table.state.encounter.pending.is_empty());
    table.assert_replays();
}

#[test]
fn tenacity_critical_extra_impact_die_joins_the_impact_roll() {
    let mut table = tenacity_table();
    let prompt = missa_crits(&mut table, 14);

    // 10 + 5 = 15 beats 14; impact is 2d4 + the critical's 1d4: 2 + 3 + 4 = 9.
    let mut dice = ScriptedDice::new(vec![2, 3, 4]);
    let events = table.run(
        &Tenacity,
        Command::answer(player("p1"), prompt, "impact_d4"),
        &mut dice,
    );
    assert_eq!(dice.used(), 3);
    let check = checks(&events)[0];
    assert_eq!((check.total, check.outcome), (15, Outcome::Success));
    let impact = facts(&events)
        .into_iter()
        .find_map(|f| match f {
            Fact::Rolled { roll, .. } => Some(roll),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        (impact.expr.as_str(), impact.terms.clone(), impact.total),
        ("2d4+1d4", vec![5, 4], 9)
    );
    assert_eq!(table.resource("missa", "impact"), 9);
    table.assert_replays();
}

#[test]
fn tenacity_critical_timeout_takes_the_extra_hero_die() {
    let mut table = tenacity_table();
    let prompt = missa_crits(&mut table, 20);
    // 10 + 5 + 4 = 19 does not beat 20: a failure draws no impact.
    let mut dice = ScriptedDice::new(vec![4, 4, 4]);
    let timeout = Command {
        seat: Seat::Gm,
        body: CommandBody::TimeOut { prompt_id: prompt },
    };
    let events = table.run(&Tenacity, timeout, &mut dice);
    assert_eq!(
        resolutions(&events),
        vec![(prompt, "hero_die", &Resolver::TimedOut)]
    );
    assert_eq!(dice.used(), 1);
    let check = checks(&events)[0];
    assert_eq!((check.total, check.outcome), (19, Outcome::Failure));
    assert_eq!(table.resource("missa", "impact"), 0);
    table.assert_replays();
}

#[test]
fn tenacity_without_a_ten_there_is_nothing_to_ask() {
    let mut table = tenacity_table();
    // Keep 7 of 4, 7, 2; 7 + 5 = 12 beats 10, impact 2d4 = 1 + 4.
    let mut dice = ScriptedDice::new(vec![4, 7, 2, 1, 4]);
    let events = table.run(&Tenacity, missa_investigates(10), &mut dice);
    assert_eq!(dice.used(), 5);
    assert!(table.state.encounter.pending.is_empty());
    let check = checks(&events)[0];
    assert_eq!(
        (check.roll.total, check.total, check.outcome),
        (7, 12, Outcome::Success)
    );
    assert_eq!(table.resource("missa", "impact"), 5);
    // No prompt: her catalogue is back, with the spotlight's actions she holds.
    assert_eq!(
        action_names(&Tenacity, &table.state, &player("p1")),
        vec!["check", "contest", "hand_on"]
    );
    // A tie with the challenge number fails.
    let mut dice = ScriptedDice::new(vec![4, 7, 2]);
    let events = table.run(&Tenacity, missa_investigates(12), &mut dice);
    assert_eq!(checks(&events)[0].outcome, Outcome::Failure);
    table.assert_replays();
}

//! vigor: Dodge, a reaction costing 5 Vigor that must beat the attack.

use super::*;

/// A raider (GM) attacks Aune (seat p1); Bram (seat p2) is at the table but not attacked.
pub(crate) fn vigor_table(aune_vigor: i64) -> Table {
    Table::new(&Vigor, vigor_roster(aune_vigor), vec![5, 4, 3])
}

pub(crate) fn raider_attacks_aune() -> Command {
    Command::act(
        Seat::Gm,
        Some("raider"),
        "attack",
        Args::default().with("target", ArgValue::Text("aune".into())),
    )
}

/// The attack with faces d20 12, d10 5: 17 beats Guard 15, so Aune is asked.
pub(crate) fn open_dodge_prompt(table: &mut Table) -> u64 {
    let mut dice = ScriptedDice::new(vec![12, 5, 1, 1]);
    let events = table.run(&Vigor, raider_attacks_aune(), &mut dice);
    assert_eq!(
        dice.used(),
        2,
        "the attack alone draws; the dodge dice wait for the answer"
    );
    let attack = checks(&events)[0];
    assert_eq!(
        (attack.total, &attack.against, attack.outcome),
        (17, &Against::Exceed(15), Outcome::Success)
    );
    let prompt = table.prompt();
    assert_eq!(prompt.rule, VIGOR_DODGE);
    assert_eq!(prompt.seats, vec![player("p1")]);
    assert_eq!(prompt.options, vec!["dodge", "take"]);
    assert_eq!(prompt.default, "take");
    assert_eq!(prompt.int("attack_total"), Some(17));
    assert_eq!(prompt.timeout_ms, 60_000);
    prompt.prompt_id
}

#[test]
fn vigor_dodge_is_offered_to_the_defender_alone_and_a_tie_goes_to_the_attacker() {
    let mut table = vigor_table(12);
    let prompt = open_dodge_prompt(&mut table);

    // The answer is the deciding seat's whole catalogue while the prompt is open. The GM gets
    // it too (an override), other players and spectators get nothing.
    let options = choices(&["dodge", "take"]);
    assert_eq!(
        action_names(&Vigor, &table.state, &player("p1")),
        vec!["answer"]
    );
    assert_eq!(answer_choices(&Vigor, &table.state, &player("p1")), options);
    assert_eq!(answer_choices(&Vigor, &table.state, &Seat::Gm), options);
    assert!(actions(&Vigor, &table.state, &player("p2")).is_empty());
    assert!(actions(&Vigor, &table.state, &Seat::Spectator(SeatId::from("s1"))).is_empty());

    // Dodge: d20 9 + d10 8 = 17 ties the attack's 17, and a tie is a hit.
    let mut dice = ScriptedDice::new(vec![9, 8]);
    let events = table.run(
        &Vigor,
        Command::answer(player("p1"), prompt, "dodge"),
        &mut dice,
    );
    assert_eq!(dice.used(), 2);
    assert_eq!(
        resolutions(&events),
        vec![(prompt, "dodge", &Resolver::Seat(player("p1")))]
    );
    let dodge = checks(&events)[0];
    assert_eq!(dodge.roll.faces_of(0), vec![9]);
    assert_eq!(dodge.roll.faces_of(1), vec![8]);
    assert_eq!(dodge.total, 17);
    assert_eq!(
        dodge.against,
        Against::Opposed {
            entity: id("raider"),
            total: 17
        }
    );
    assert_eq!(dodge.outcome, Outcome::Failure);
    assert_eq!(table.resource("aune", "vigor"), 7);
    assert_eq!(table.resource("aune", "durability"), 7);
    assert!(table.state.encounter.pending.is_empty());
    // Closed: the ordinary catalogue is back.
    assert_eq!(
        action_names(&Vigor, &table.state, &player("p1")),
        vec!["attack", "step"]
    );
    table.assert_replays();
}

#[test]
fn vigor_dodge_that_beats_the_attack_avoids_the_hit() {
    let mut table = vigor_table(12);
    let prompt = open_dodge_prompt(&mut table);
    // d20 10 + d10 8 = 18 beats 17.
    let mut dice = ScriptedDice::new(vec![10, 8]);
    let events = table.run(
        &Vigor,
        Command::answer(player("p1"), prompt, "dodge"),
        &mut dice,
    );
    let dodge = checks(&events)[0];
    assert_eq!((dodge.total, dodge.outcome), (18, Outcome::Success));
    assert!(
        !facts(&events)
            .iter()
            .any(|f| matches!(f, Fact::DamageResolved { .. }))
    );
    assert_eq!(table.resource("aune", "vigor"), 7);
    assert_eq!(table.resource("aune", "durability"), 10);
    table.assert_replays();
}

#[test]
fn vigor_taking_the_hit_draws_nothing_and_costs_no_vigor() {
    let mut table = vigor_table(12);
    let prompt = open_dodge_prompt(&mut table);
    let mut dice = ScriptedDice::new(vec![20, 10]);
    table.run(
        &Vigor,
        Command::answer(player("p1"), prompt, "take"),
        &mut dice,
    );
    assert_eq!(dice.used(), 0);
    assert_eq!(table.resource("aune", "vigor"), 12);
    assert_eq!(table.resource("aune", "durability"), 7);
    table.assert_replays();
}

#[test]
fn vigor_an_attack_equal_to_guard_misses_and_asks_nothing() {
    let mut table = vigor_table(12);
    // d20 10 + d10 5 = 15, equal to Guard 15: the attack must beat it.
    let mut dice = ScriptedDice::new(vec![10, 5]);
    let events = table.run(&Vigor, raider_attacks_aune(), &mut dice);
    let attack = checks(&events)[0];
    assert_eq!((attack.total, attack.outcome), (15, Outcome::Failure));
    assert!(table.state.encounter.pending.is_empty());
    assert_eq!(answer_choices(&Vigor, &table.state, &player("p1")), None);
    table.assert_replays();
}

#[test]
fn vigor_dodge_without_enough_vigor_is_refused_and_the_prompt_stays_open() {
    let mut table = vigor_table(4);
    let prompt = open_dodge_prompt(&mut table);
    // The option is still offered; choosing it is what is refused.
    assert_eq!(
        answer_choices(&Vigor, &table.state, &player("p1")),
        choices(&["dodge", "take"])
    );
    let before = table.state.clone();
    let mut dice = ScriptedDice::new(vec![20, 10]);
    let refusal = table.refuse(
        &Vigor,
        Command::answer(player("p1"), prompt, "dodge"),
        &mut dice,
    );
    assert_eq!(
        refusal,
        Refusal::InsufficientResource {
            resource: "vigor".into(),
            needed: 5,
            available: 4
        }
    );
    assert_eq!(refusal.code(), "insufficient_resource");
    assert_eq!(dice.used(), 0);
    assert_eq!(table.state, before);
    assert_eq!(table.prompt().prompt_id, prompt);

    // The same prompt can still be answered otherwise.
    table.run(
        &Vigor,
        Command::answer(player("p1"), prompt, "take"),
        &mut ScriptedDice::new(vec![]),
    );
    assert_eq!(table.resource("aune", "vigor"), 4);
    assert_eq!(table.resource("aune", "durability"), 7);
    table.assert_replays();
}

#[test]
fn vigor_a_timeout_applies_the_default_and_only_the_table_may_send_it() {
    let mut table = vigor_table(12);
    let prompt = open_dodge_prompt(&mut table);
    let timeout = |seat| Command {
        seat,
        body: CommandBody::TimeOut { prompt_id: prompt },
    };
    let mut no_dice = ScriptedDice::new(vec![]);
    assert_eq!(
        table
            .refuse(&Vigor, timeout(player("p1")), &mut no_dice)
            .code(),
        "forbidden"
    );

    let events = table.run(&Vigor, timeout(Seat::Gm), &mut no_dice);
    assert_eq!(
        resolutions(&events),
        vec![(prompt, "take", &Resolver::TimedOut)]
    );
    assert_eq!(no_dice.used(), 0);
    assert_eq!(table.resource("aune", "durability"), 7);
    table.assert_replays();
}

#[test]
fn vigor_an_open_prompt_refuses_other_commands_and_other_seats() {
    let mut table = vigor_table(12);
    let prompt = open_dodge_prompt(&mut table);
    let mut dice = ScriptedDice::new(vec![20, 10]);

    // Another action waits for the answer, whoever sends it.
    let bram_attacks = Command::act(
        player("p2"),
        Some("bram"),
        "attack",
        Args::default().with("target", ArgValue::Text("raider".into())),
    );
    let refusal = table.refuse(&Vigor, bram_attacks, &mut dice);
    assert_eq!(refusal.code(), "awaiting_decision");
    assert!(matches!(refusal, Refusal::AwaitingDecision { prompt_id, .. } if prompt_id == prompt));
    assert_eq!(
        table
            .refuse(&Vigor, raider_attacks_aune(), &mut dice)
            .code(),
        "awaiting_decision"
    );

    // Only Aune's seat (or the GM) answers; a wrong id or a choice not offered is refused.
    assert_eq!(
        table
            .refuse(
                &Vigor,
                Command::answer(player("p2"), prompt, "take"),
                &mut dice
            )
            .code(),
        "forbidden"
    );
    let spectator = Seat::Spectator(SeatId::from("s1"));
    assert_eq!(
        table
            .refuse(
                &Vigor,
                Command::answer(spectator, prompt, "take"),
                &mut dice
            )
            .code(),
        "forbidden"
    );
    assert_eq!(
        table
            .refuse(
                &Vigor,
                Command::answer(player("p1"), prompt + 1, "take"),
                &mut dice
            )
            .code(),
        "no_such_prompt"
    );
    assert_eq!(
        table
            .refuse(
                &Vigor,
                Command::answer(player("p1"), prompt, "parry"),
                &mut dice
            )
            .code(),
        "not_an_option"
    );
    assert_eq!(dice.used(), 0);

    // A GM ruling goes ahead and leaves the prompt open.
    let note = Command::act(
        Seat::Gm,
        None,
        "rule.note",
        Args::default().with("text", ArgValue::Text("wind".into())),
    );
    table.run(&Vigor, note, &mut dice);
    assert_eq!(table.prompt().prompt_id, prompt);
    table.assert_replays();
}

#[test]
fn vigor_a_gm_answer_in_the_defenders_place_is_an_override() {
    let mut table = vigor_table(12);
    let prompt = open_dodge_prompt(&mut table);
    let mut dice = ScriptedDice::new(vec![10, 8]);
    let events = table.run(
        &Vigor,
        Command::answer(Seat::Gm, prompt, "dodge"),
        &mut dice,
    );
    assert_eq!(
        resolutions(&events),
        vec![(prompt, "dodge", &Resolver::GmOverride)]
    );
    assert_eq!(checks(&events)[0].total, 18);
    assert_eq!(table.resource("aune", "vigor"), 7);
    assert_eq!(table.resource("aune", "durability"), 10);
    table.assert_replays();
}

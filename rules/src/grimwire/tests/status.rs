//! The status effects, as scenes on the shared runner: what each takes off a roll, which take
//! the turn away, what strikes at a turn's start, and the actions that end them. The cast is
//! `scenes`'.

use crate::testing::scene::{self, S};

use super::scenes::{check, end, end_with, knife, n, play, set, start, t, to};

#[test]
fn knocked_down_takes_3_off_agl_makes_a_crawl_and_standing_takes_the_movement() {
    let mut steps = start();
    steps.extend([
        set("aune", "knocked_down", 0, None),
        // AGL 10 + 3 - 3 = 10 misses 11 (13 would make it).
        check("aune", "AGL", 11, &[10]),
        S::Said("label: \"knocked down\", value: -3"),
        S::Said("result: \"failure\""),
        // What is left of her turn: a 3 m crawl, not the 9 of base 6 + AGL 3.
        S::Said("label: \"m of movement\", value: 3"),
        S::Refused("aune", "move", vec![("to", to(0, 4))], "out_of_range"),
        S::Act("aune", "stand", vec![], &[]),
        S::Lacks("aune", "knocked_down"),
        // Standing took the movement.
        S::Refused("aune", "move", vec![("to", to(0, 1))], "none_left"),
        S::Refused("aune", "stand", vec![], "rule: aune is not knocked down"),
        // The goblin, knocked down, makes no roll: its -3 AGL eases Aune's attack, 6 + COR 3
        // + 3 = 12 reaching its defence 12 (9 would not); knife 2 + TOG 2 = 4.
        set("goblin-1", "knocked_down", 0, None),
        knife("goblin-1", &[6, 2]),
        S::Said("goblin-1: knocked down"),
        S::Res("goblin-1", "condition", 6),
        // The knife's second attack: 2 + 3 + 3 = 8 misses 12.
        knife("goblin-1", &[2]),
        S::Res("goblin-1", "condition", 6),
        end("aune"),
        // Knocked down, the goblin cannot help anyone up; Mara, 2 m from it, can, but not
        // Aune 4 m away.
        set("aune", "knocked_down", 0, None),
        S::Refused(
            "goblin-1",
            "help_up",
            vec![("target", t("aune"))],
            "rule: goblin-1 is down too",
        ),
        S::Act("goblin-1", "end_turn", vec![], &[]),
        S::Refused(
            "mara",
            "help_up",
            vec![("target", t("aune"))],
            "out_of_range",
        ),
        S::Act("mara", "help_up", vec![("target", t("goblin-1"))], &[]),
        S::Lacks("goblin-1", "knocked_down"),
        S::Said("mara helps goblin-1 up"),
    ]);
    play("knocked down", &[], steps);
}

fn said_turn_passes(line: &'static str) -> S {
    S::Check(Box::new(move |p: &scene::Played<'_>| {
        let found = p
            .last
            .iter()
            .flat_map(crate::event::Event::facts)
            .any(|f| matches!(f, crate::event::Fact::Noted { text } if text == line));
        assert!(found, "{}: no note `{line}`", p.at);
    }))
}

/// Standing takes the whole movement: after a crawl, there is none left to stand with.
#[test]
fn standing_after_crawling_is_refused() {
    let mut steps = start();
    steps.extend([
        set("aune", "knocked_down", 0, None),
        S::Act("aune", "move", vec![("to", to(0, 1))], &[]),
        S::Refused("aune", "stand", vec![], "none_left"),
        S::Has("aune", "knocked_down"),
    ]);
    play("standing after a crawl", &[], steps);
}

#[test]
fn a_stun_takes_the_turns_it_covers_fails_per_and_eases_the_attacks_on_it() {
    let mut steps = start();
    steps.extend([
        set("goblin-1", "stunned", 0, Some(1)),
        // PER fails whatever the die: 15 + 1 against 5.
        check("goblin-1", "PER", 5, &[15]),
        S::Said("result: \"failure\""),
        S::Said("stunned"),
        // Its -3 AGL makes Aune's 6 + 3 reach its defence 12 (knife 2 + TOG 2: 10 to 6).
        knife("goblin-1", &[6, 2]),
        S::Said("goblin-1: stunned"),
        S::Res("goblin-1", "condition", 6),
        // Its turn comes and goes: the stun covers it.
        end("aune"),
        said_turn_passes("goblin-1 is stunned and cannot act: the turn passes"),
        S::Turn(Some("mara")),
        S::Refused("goblin-1", "end_turn", vec![], "not_your_turn"),
        end("mara"),
        end("aune"),
        // The next turn it is itself again.
        S::Turn(Some("goblin-1")),
        S::Lacks("goblin-1", "stunned"),
        S::Said("goblin-1 is no longer stunned"),
    ]);
    play("stunned", &[], steps);
}

#[test]
fn the_paralysed_and_the_sleeping_are_hit_without_a_roll_and_fail_tog_cor_agl() {
    let mut steps = start();
    steps.extend([
        set("goblin-1", "asleep", 0, None),
        // No defence roll, no attack roll: the knife's 3 + TOG 2 = 5, 10 to 5.
        knife("goblin-1", &[3]),
        S::Said("goblin-1 is asleep and cannot defend: the attack hits"),
        S::Res("goblin-1", "condition", 5),
        S::Refused(
            "goblin-1",
            "attack",
            vec![("target", t("aune"))],
            "cannot_act",
        ),
        // The knife's second attack, on the goblin paralysed: no AGL to evade with.
        S::Gm(
            "rule.clear-status",
            vec![("target", t("goblin-1")), ("status", t("asleep"))],
            &[],
        ),
        set("goblin-1", "paralysed", 0, None),
        knife("goblin-1", &[1]),
        S::Said("goblin-1 is paralysed and cannot defend: the attack hits"),
        S::Res("goblin-1", "condition", 2),
        set("mara", "paralysed", 0, None),
        // COR, TOG and AGL fail on a 20; MND does not.
        check("mara", "COR", 5, &[20]),
        S::Said("result: \"failure\""),
        check("mara", "AGL", 5, &[20]),
        S::Said("result: \"failure\""),
        check("mara", "MND", 5, &[3]),
        S::Said("result: \"success\""),
    ]);
    play("paralysed and asleep", &[], steps);
}

#[test]
fn impaired_senses_take_5_off_per_attacks_and_evasion_and_forbid_aimed_shots() {
    let mut steps = start();
    steps.extend([
        set("goblin-1", "sensory_impaired", 0, None),
        // The goblin's -5 evasion: 4 + COR 3 + 5 = 12 reaches its 12; knife 1 + 2: 10 to 7.
        knife("goblin-1", &[4, 1]),
        S::Said("goblin-1: senses impaired"),
        S::Res("goblin-1", "condition", 7),
        set("aune", "sensory_impaired", 0, None),
        S::Refused(
            "aune",
            "attack",
            vec![("target", t("goblin-1")), ("weapon", t("pistol"))],
            "rule: aune cannot pick a target for an aimed ranged attack",
        ),
        // PER 12 + 2 - 5 = 9 misses 10.
        check("aune", "PER", 10, &[12]),
        S::Said("label: \"senses impaired\", value: -5"),
        S::Said("result: \"failure\""),
    ]);
    play("sensory impairment", &[], steps);
}

#[test]
fn burning_and_bleeding_strike_at_the_start_of_each_turn_until_put_out_or_stopped() {
    let mut steps = start();
    steps.extend([
        set("goblin-1", "burning", 0, None),
        set("aune", "bleeding", 2, None),
        set("aune", "burning", 0, None),
        // The goblin's turn: 2d6 heat (1 + 2), doubled by its weakness: 10 to 4.
        end_with("aune", &[1, 2]),
        S::Said("goblin-1 burns (2d6 heat)"),
        S::Res("goblin-1", "condition", 4),
        // The goblin's numbers are the GM's: the table hears that it burns and is hurt, not
        // by how much nor that heat is its weakness.
        S::PlayerHears("goblin-1 takes damage"),
        S::PlayerNeverHears("weakness"),
        S::PlayerNeverHears("goblin-1 burns"),
        S::Act("goblin-1", "extinguish", vec![], &[]),
        S::Lacks("goblin-1", "burning"),
        S::Refused(
            "goblin-1",
            "extinguish",
            vec![],
            "rule: goblin-1 is not burning",
        ),
        end("goblin-1"),
        // Mara is 4 m from Aune: too far to press the wound.
        S::Refused(
            "mara",
            "hold_pressure",
            vec![("target", t("aune"))],
            "out_of_range",
        ),
        end_with("mara", &[2, 2]),
    ]);
    // Round 2, Aune's turn: 2 for the bleeding, then 2d6 heat (2 + 2): 12 to 6.
    steps.extend([
        S::Turn(Some("aune")),
        S::Said("aune bleeds and loses 2 Condition"),
        S::Res("aune", "condition", 6),
        // She passes; when her turn comes back at the round's end nothing strikes again.
        S::Act("aune", "pass", vec![], &[]),
        end("goblin-1"),
        S::Act("mara", "move", vec![("to", to(1, 0))], &[]),
        S::Act("mara", "hold_pressure", vec![("target", t("aune"))], &[]),
        S::Has("aune", "wound_held"),
        // Holding the wound is all Mara does this turn.
        S::Refused("mara", "auxiliary", vec![], "none_left"),
        end("mara"),
        S::Turn(Some("aune")),
        S::Res("aune", "condition", 6),
        S::Act("aune", "extinguish", vec![], &[]),
        S::Lacks("aune", "burning"),
        // Round 3: the wound is held, no bleeding at her turn's start.
        end("aune"),
        S::Turn(Some("aune")),
        S::Res("aune", "condition", 6),
        end("aune"),
        end("goblin-1"),
        // Mara's turn: she lets go (and may hold again).
        S::Lacks("aune", "wound_held"),
        end("mara"),
        // Round 4: held no more, the wound bleeds: 6 to 4.
        S::Res("aune", "condition", 4),
        S::Said("aune bleeds and loses 2 Condition"),
    ]);
    play("burning and bleeding", &[], steps);
}

#[test]
fn terror_asks_mnd_at_the_turns_start_and_a_failure_leaves_only_cowering_or_fleeing() {
    let mut steps = start();
    steps.extend([
        set("mara", "terror", 0, None),
        end("aune"),
        // Mara's MND 5 + 2 = 7 misses 11: this turn she can only cower or flee.
        end_with("goblin-1", &[5]),
        S::Said("mara is gripped by terror"),
        S::Refused(
            "mara",
            "attack",
            vec![("target", t("goblin-1")), ("weapon", t("sledgehammer"))],
            "rule: mara is terrified this turn",
        ),
        S::Refused("mara", "pass", vec![], "rule: mara is terrified this turn"),
        // A check the GM calls is no part of her turn's choices: 10 + MND 2 reaches 5.
        check("mara", "MND", 5, &[10]),
        S::Said("result: \"success\""),
        S::Act("mara", "move", vec![("to", to(8, 0))], &[]),
        end("mara"),
        end("aune"),
        // The next turn: 9 + 2 = 11 masters it.
        end_with("goblin-1", &[9]),
        S::Said("mara masters the terror"),
        S::Lacks("mara", "terror"),
    ]);
    play("terror", &[], steps);
}

#[test]
fn drink_helps_against_terror_and_the_table_sets_terrors_tn() {
    let mut steps = start();
    steps.extend([
        set("mara", "terror", 0, None),
        set("mara", "inebriated", 0, None),
        end("aune"),
        // 6 + MND 2 + 3 (drink, against terror) = 11: mastered (6 + 2 - 3 would fail).
        end_with("goblin-1", &[6]),
        S::Said("label: \"inebriated\", value: 3"),
        S::Lacks("mara", "terror"),
        // Drink otherwise takes 3 off every attribute but TOG, which it raises by 1.
        check("mara", "MND", 1, &[10]),
        S::Said("label: \"inebriated\", value: -3"),
        check("mara", "TOG", 1, &[10]),
        S::Said("label: \"inebriated\", value: 1"),
    ]);
    play("drink and terror", &[], steps);
    let mut steps = start();
    steps.extend([
        set("mara", "terror", 0, None),
        end("aune"),
        // At TN 15, 11 + 2 = 13 fails.
        end_with("goblin-1", &[11]),
        S::Said("mara is gripped by terror"),
    ]);
    play("terror at 15", &[("grimwire.terror_tn", "15")], steps);
    // Stunned, a terrified character makes no roll (no die drawn) and stays terrified.
    let mut steps = start();
    steps.extend([
        set("mara", "terror", 0, None),
        set("mara", "stunned", 0, Some(1)),
        end("aune"),
        end("goblin-1"),
        S::Has("mara", "terror"),
    ]);
    play("terror stunned", &[], steps);
    // Falling asleep takes the terror away, and keeps it away while asleep.
    let mut steps = start();
    steps.extend([
        set("mara", "terror", 0, None),
        set("mara", "asleep", 0, None),
        S::Lacks("mara", "terror"),
        S::Said("mara is unconscious: no longer in terror"),
        set("mara", "terror", 0, None),
        S::Lacks("mara", "terror"),
        S::Said("mara is unconscious and immune to terror"),
    ]);
    play("terror asleep", &[], steps);
}

#[test]
fn knocked_out_loses_its_turns_until_woken_by_someone_within_3_m() {
    let mut steps = start();
    steps.extend([
        set("mara", "knocked_out", 0, Some(2)),
        end("aune"),
        end("goblin-1"),
        said_turn_passes("mara is knocked out and cannot act: the turn passes"),
        S::Turn(Some("aune")),
        S::Refused(
            "aune",
            "wake",
            vec![("target", t("goblin-1"))],
            "rule: goblin-1 is not asleep, knocked out or out cold",
        ),
        S::Refused("aune", "wake", vec![("target", t("mara"))], "out_of_range"),
        S::Act("aune", "move", vec![("to", to(3, 1))], &[]),
        S::Act("aune", "wake", vec![("target", t("mara"))], &[]),
        S::Lacks("mara", "knocked_out"),
        end("aune"),
        end("goblin-1"),
        S::Turn(Some("mara")),
    ]);
    play("knocked out", &[], steps);
}

#[test]
fn a_knocked_out_character_wakes_when_its_rounds_run_out_and_a_fights_end_ends_a_stun() {
    let mut steps = start();
    steps.extend([
        set("mara", "knocked_out", 0, Some(1)),
        set("goblin-1", "stunned", 0, Some(3)),
        end("aune"),
        // The goblin's turn passes (stunned), then Mara's (knocked out, her 1 round).
        said_turn_passes("mara is knocked out and cannot act: the turn passes"),
        end("aune"),
        // Round 2: the goblin still stunned, Mara awake.
        S::Turn(Some("mara")),
        S::Lacks("mara", "knocked_out"),
        S::Said("mara is no longer knocked out"),
        S::Has("goblin-1", "stunned"),
        S::Gm("end_encounter", vec![], &[]),
        S::Lacks("goblin-1", "stunned"),
    ]);
    play("knocked out for a round", &[], steps);
}

/// Knocked out with no rounds given: the book's minute, 10 of her turns lost; the 11th is hers.
#[test]
fn knocked_out_without_rounds_wakes_after_a_minute() {
    let mut steps = start();
    steps.push(set("mara", "knocked_out", 0, None));
    for _ in 0..10 {
        steps.extend([end("aune"), end("goblin-1"), S::Turn(Some("aune"))]);
    }
    steps.extend([
        end("aune"),
        end("goblin-1"),
        S::Turn(Some("mara")),
        S::Lacks("mara", "knocked_out"),
    ]);
    play("knocked out for a minute", &[], steps);
}

/// A successful stabilisation stops the bleeding too.
#[test]
fn stabilising_a_bleeding_character_stops_the_bleeding() {
    let mut steps = start();
    steps.extend([
        set("aune", "bleeding", 1, None),
        S::Gm(
            "rule.set-resource",
            vec![
                ("target", t("aune")),
                ("resource", t("condition")),
                ("value", n(-2)),
            ],
            &[],
        ),
        S::Has("aune", "dying"),
        end("aune"),
        end("goblin-1"),
        S::Act("mara", "move", vec![("to", to(1, 0))], &[]),
        // COR 15 + 1 reaches 10 + 2 (below 0) with a medkit.
        S::Act(
            "mara",
            "stabilise",
            vec![("target", t("aune")), ("method", t("medkit"))],
            &[15],
        ),
        S::Lacks("aune", "dying"),
        S::Lacks("aune", "bleeding"),
    ]);
    play("stabilised and bleeding", &[], steps);
}

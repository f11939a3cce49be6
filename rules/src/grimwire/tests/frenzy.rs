//! Temporary Condition, frenzy and amok, falling unconscious, and waking the out cold, as
//! scenes on the cast of `scenes` (Aune: level 2, Condition 12, no armour; Mara: TOG 4, COR 1,
//! a sledgehammer 2d6 she is strong enough for, Iron Skin; the goblin: defence TN 12).

use crate::testing::scene::S;

use super::scenes::{condition, end, n, play, set, start, t};

fn damage(who: &'static str, amount: i64) -> S {
    S::Gm(
        "damage",
        vec![("target", t(who)), ("amount", n(amount))],
        &[],
    )
}

fn clear(who: &'static str, status: &'static str) -> S {
    S::Gm(
        "rule.clear-status",
        vec![("target", t(who)), ("status", t(status))],
        &[],
    )
}

#[test]
fn drink_gives_3_temporary_condition_that_damage_takes_first_and_that_goes_with_the_drink() {
    let mut steps = start();
    steps.extend([
        set("aune", "inebriated", 0, None),
        S::Res("aune", "temp_condition", 3),
        // 5 blunt: 3 off the temporary pool, 2 off Condition.
        damage("aune", 5),
        S::Damage(&[("dice", 5), ("temporary Condition", -3)], 2),
        S::Res("aune", "temp_condition", 0),
        S::Res("aune", "condition", 10),
        // Sober again, nothing is left to lose.
        clear("aune", "inebriated"),
        S::Res("aune", "temp_condition", 0),
        // Drunk again: 1 damage leaves 2 of the 3, and they go with the drink.
        set("aune", "inebriated", 0, None),
        damage("aune", 1),
        S::Res("aune", "temp_condition", 2),
        S::Res("aune", "condition", 10),
        clear("aune", "inebriated"),
        S::Res("aune", "temp_condition", 0),
    ]);
    play("drink's temporary Condition", &[], steps);

    // Timed drink runs out with its rounds and takes its pool along.
    let mut steps = start();
    steps.extend([
        set("aune", "inebriated", 0, Some(1)),
        end("aune"),
        end("goblin-1"),
        end("mara"),
        S::Res("aune", "temp_condition", 3),
        end("aune"),
        end("goblin-1"),
        end("mara"),
        S::Lacks("aune", "inebriated"),
        S::Res("aune", "temp_condition", 0),
    ]);
    play("drink runs out", &[], steps);
}

#[test]
fn frenzy_gives_temporary_condition_one_more_attack_likelier_strays_and_nothing_but_melee() {
    let mut steps = start();
    steps.extend([
        // No magnitude: Aune's level, 2.
        set("aune", "frenzy", 0, None),
        S::Res("aune", "temp_condition", 2),
        S::Magnitude("aune", "frenzy", 2),
        // No techniques, no shove, no dash with the goblin 2 m away, no pistol.
        S::Refused(
            "aune",
            "technique",
            vec![("technique", t("ghost-read"))],
            "rule: aune rages: nothing but melee attacks, moving, and a dash when no one is in reach",
        ),
        S::Refused(
            "aune",
            "shove",
            vec![("target", t("goblin-1"))],
            "rule: aune rages: nothing but melee attacks, moving, and a dash when no one is in reach",
        ),
        S::Refused(
            "aune",
            "dash",
            vec![],
            "rule: aune rages with goblin-1 in reach: only a melee attack",
        ),
        S::Refused(
            "aune",
            "attack",
            vec![("target", t("goblin-1")), ("weapon", t("pistol"))],
            "rule: aune rages: melee attacks only",
        ),
        // No agony, no terror.
        set("aune", "agony", 0, None),
        S::Res("aune", "burnout", 0),
        S::Said("aune rages and feels no pain (GM ruling)"),
        set("aune", "terror", 0, None),
        S::Lacks("aune", "terror"),
        // Over, its pool goes.
        clear("aune", "frenzy"),
        S::Res("aune", "temp_condition", 0),
        end("aune"),
        end("goblin-1"),
        // Mara, frenzied (5), swings her heavy sledgehammer twice: 15 + 1 hits, 2d6 = 1 + 1
        // + TOG 4 = 6 takes the goblin to 4; then 8 + 1 misses; a third is refused.
        set("mara", "frenzy", 5, None),
        S::Res("mara", "temp_condition", 5),
        S::Act(
            "mara",
            "attack",
            vec![("target", t("goblin-1")), ("weapon", t("sledgehammer"))],
            &[15, 1, 1],
        ),
        S::Res("goblin-1", "condition", 4),
        S::Act(
            "mara",
            "attack",
            vec![("target", t("goblin-1")), ("weapon", t("sledgehammer"))],
            &[8],
        ),
        S::Refused(
            "mara",
            "attack",
            vec![("target", t("goblin-1")), ("weapon", t("sledgehammer"))],
            "none_left",
        ),
    ]);
    play("frenzy", &[], steps);

    // A natural 6 goes astray in a frenzy (1 + 5): the GM is asked about collateral damage.
    let mut steps = start();
    steps.extend([
        end("aune"),
        end("goblin-1"),
        set("mara", "frenzy", 5, None),
        S::Act(
            "mara",
            "attack",
            vec![("target", t("goblin-1")), ("weapon", t("sledgehammer"))],
            &[6],
        ),
        S::Asked("went astray"),
    ]);
    play("a frenzied stray", &[], steps);

    // Terror gives way to a frenzy.
    let mut steps = start();
    steps.extend([
        set("aune", "terror", 0, None),
        set("aune", "frenzy", 3, None),
        S::Lacks("aune", "terror"),
        S::Res("aune", "temp_condition", 3),
    ]);
    play("frenzy drives out terror", &[], steps);
}

#[test]
fn amok_attacks_the_nearest_and_falling_unconscious_ends_it() {
    let mut steps = start();
    steps.extend([
        end("aune"),
        end("goblin-1"),
        // Mara at (4, 0): the goblin at 2 m is nearer than Aune at 4 m.
        set("mara", "amok", 1, None),
        S::Refused(
            "mara",
            "attack",
            vec![("target", t("aune")), ("weapon", t("sledgehammer"))],
            "rule: mara runs amok and attacks the nearest: goblin-1",
        ),
        S::Act(
            "mara",
            "attack",
            vec![("target", t("goblin-1")), ("weapon", t("sledgehammer"))],
            &[8],
        ),
        // Knocked out, the amok is gone (and its temporary Condition with it).
        set("mara", "knocked_out", 0, None),
        S::Lacks("mara", "amok"),
        S::Said("mara is unconscious: no longer in amok"),
        S::Res("mara", "temp_condition", 0),
    ]);
    play("amok", &[], steps);

    // Off her turn, a raging Mara's Iron Skin (an auxiliary reaction) is refused too.
    let mut steps = start();
    steps.extend([
        set("mara", "frenzy", 1, None),
        S::Refused(
            "mara",
            "technique",
            vec![("technique", t("iron-skin"))],
            "rule: mara rages: no specialty techniques",
        ),
    ]);
    play("no techniques off the turn", &[], steps);
}

#[test]
fn the_out_cold_wake_after_ten_minutes_of_care_outside_a_fight_and_never_while_dying() {
    let mut steps = start();
    steps.extend([
        condition("mara", 0),
        S::Has("mara", "dying"),
        S::Place("mara", 1, 0),
        S::Refused(
            "aune",
            "wake",
            vec![("target", t("mara"))],
            "rule: mara is dying: stabilise them first, then they can be tended",
        ),
        clear("mara", "dying"),
        S::Refused(
            "aune",
            "wake",
            vec![("target", t("mara"))],
            "rule: mara is out cold: ten minutes of care, which a fight does not leave (or the GM rules it)",
        ),
        S::Gm("end_encounter", vec![], &[]),
        S::Act("aune", "wake", vec![("target", t("mara"))], &[]),
        S::Lacks("mara", "out_cold"),
        S::Said("aune tends mara for ten minutes, and mara comes round"),
    ]);
    play("out cold", &[], steps);
}

#[test]
fn frenzy_ruled_twice_or_on_the_unconscious_and_the_gms_frenzy_keep_the_pool_right() {
    let mut steps = start();
    steps.extend([
        // A second ruling replaces the first: 5, not 3 + 5.
        set("aune", "frenzy", 3, None),
        set("aune", "frenzy", 5, None),
        S::Res("aune", "temp_condition", 5),
        clear("aune", "frenzy"),
        S::Res("aune", "temp_condition", 0),
        // Knocked out, Mara is immune: the ruling is set aside, and no pool.
        set("mara", "knocked_out", 0, None),
        set("mara", "frenzy", 4, None),
        S::Lacks("mara", "frenzy"),
        S::Res("mara", "temp_condition", 0),
        S::Said("mara is unconscious and immune to frenzy"),
        // The goblin's frenzy: the table learns of it, the GM its number.
        set("goblin-1", "frenzy", 4, None),
        S::Has("goblin-1", "frenzy"),
        S::GmOnly(&["\"magnitude\":4"]),
        S::HiddenFromPlayers("goblin-1", "temp_condition"),
    ]);
    play("frenzy rulings", &[], steps);

    // A natural 7 is no stray even in a frenzy (1 + 5 = 6): 7 + 1 = 8 simply misses.
    let mut steps = start();
    steps.extend([
        end("aune"),
        end("goblin-1"),
        set("mara", "frenzy", 5, None),
        S::Act(
            "mara",
            "attack",
            vec![("target", t("goblin-1")), ("weapon", t("sledgehammer"))],
            &[7],
        ),
        S::Prompt(false),
        S::Res("goblin-1", "condition", 10),
    ]);
    play("a frenzied miss", &[], steps);

    // Amok with two at the same distance: either may be attacked (Aune moved to 2 m beyond
    // Mara, as near as the goblin).
    let mut steps = start();
    steps.extend([
        S::Place("aune", 6, 0),
        end("aune"),
        end("goblin-1"),
        set("mara", "amok", 1, None),
        S::Act(
            "mara",
            "attack",
            vec![("target", t("aune")), ("weapon", t("sledgehammer"))],
            &[8, 15],
        ),
        S::Res("mara", "action_spent", 1),
    ]);
    play("amok between two", &[], steps);
}

#[test]
fn a_frenzys_dash_waits_only_for_enemies_in_reach_and_amok_passes_over_the_dead() {
    // Frenzied Aune with Mara, a friend, beside her and the goblin far off: she may dash.
    let mut steps = start();
    steps.extend([
        S::Place("mara", 1, 0),
        S::Place("goblin-1", 9, 9),
        set("aune", "frenzy", 1, None),
        S::Act("aune", "dash", vec![], &[]),
    ]);
    play("a frenzied dash", &[], steps);
    // In amok a friend counts too: no dash with Mara beside her.
    let mut steps = start();
    steps.extend([
        S::Place("mara", 1, 0),
        S::Place("goblin-1", 9, 9),
        set("aune", "amok", 1, None),
        S::Refused(
            "aune",
            "dash",
            vec![],
            "rule: aune rages with mara in reach: only a melee attack",
        ),
    ]);
    play("an amok dash", &[], steps);
    // The dead goblin, 2 m off, nearer than Aune at 3 m, is no one to attack: Mara's amok may
    // take Aune.
    let mut steps = start();
    steps.extend([
        S::Place("aune", 1, 0),
        end("aune"),
        end("goblin-1"),
        set("goblin-1", "dead", 0, None),
        set("mara", "amok", 1, None),
        S::Act(
            "mara",
            "attack",
            vec![("target", t("aune")), ("weapon", t("sledgehammer"))],
            &[8, 15],
        ),
        S::Res("mara", "action_spent", 1),
    ]);
    play("amok past the dead", &[], steps);
}

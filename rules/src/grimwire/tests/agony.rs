//! Agony: a level of burnout for a minute (10 of the sufferer's turns), that cannot kill, and
//! burning's agony. The cast is `scenes'`: Aune has Condition 12.

use crate::testing::scene::S;

use super::scenes::{check, end, end_with, n, play, set, start, t};

fn burnout(who: &'static str, value: i64) -> S {
    S::Gm(
        "rule.set-resource",
        vec![
            ("target", t(who)),
            ("resource", t("burnout")),
            ("value", n(value)),
        ],
        &[],
    )
}

/// One full round from Aune's turn back to Aune's: the goblin's and Mara's turns pass.
fn round() -> Vec<S> {
    vec![end("aune"), end("goblin-1"), end("mara")]
}

#[test]
fn agony_is_a_level_of_burnout_for_ten_of_the_sufferers_turns_then_it_goes() {
    let mut steps = start();
    steps.extend([
        set("aune", "agony", 5, None),
        // One level, whatever magnitude the ruling names.
        S::Res("aune", "burnout", 1),
        S::Magnitude("aune", "agony", 1),
        // The level weighs on rolls: 10 + AGL 3 - 1 = 12 misses 13.
        check("aune", "AGL", 13, &[10]),
        S::Said("label: \"burnout 1\", value: -1"),
        S::Said("result: \"failure\""),
    ]);
    // Her next ten turns are in agony.
    for _ in 0..10 {
        steps.extend(round());
        steps.push(S::Res("aune", "burnout", 1));
    }
    // The eleventh begins without it.
    steps.extend(round());
    steps.extend([
        S::Res("aune", "burnout", 0),
        S::Lacks("aune", "agony"),
        S::Said("verb: \"is no longer in agony\", target: None, instrument: None, roll: None, effects: [Effect { entity: EntityId(\"aune\"), what: \"burnout\", steps: [], amount: Some(-1), resource: Some(\"burnout\"), before: Some(1), after: Some(0)"),
        S::Res("aune", "condition", 12),
    ]);
    play("agony lasts a minute", &[], steps);
}

#[test]
fn agony_keeps_what_burnout_of_its_own_already_took_and_a_second_infliction_adds_a_level() {
    let mut steps = start();
    steps.extend([
        burnout("aune", 1),
        // Level 2 caps Condition 12 at 12 x 0.8 = 9.6, so 9.
        set("aune", "agony", 0, None),
        S::Res("aune", "burnout", 2),
        S::Res("aune", "condition", 9),
        set("aune", "agony", 0, None),
        S::Res("aune", "burnout", 3),
        S::Magnitude("aune", "agony", 2),
        // Level 3 caps it at 6.
        S::Res("aune", "condition", 6),
        // Clearing the agony takes back its two levels, not the one of her own; Condition
        // stays where the caps put it.
        S::Gm(
            "rule.clear-status",
            vec![("target", t("aune")), ("status", t("agony"))],
            &[],
        ),
        S::Res("aune", "burnout", 1),
        S::Res("aune", "condition", 6),
        S::Lacks("aune", "agony"),
    ]);
    play("agony adds to burnout", &[], steps);
}

#[test]
fn a_fourth_level_with_agony_among_them_is_out_cold_not_dying() {
    let mut steps = start();
    steps.extend([
        burnout("aune", 3),
        S::Res("aune", "condition", 6),
        set("aune", "agony", 0, None),
        S::Res("aune", "burnout", 4),
        S::Has("aune", "out_cold"),
        S::Lacks("aune", "dying"),
        // No Condition lost: a real fourth level would have set it to 0.
        S::Res("aune", "condition", 6),
        S::Said("aune passes out from the pain: out cold, not dying"),
        // Agony at the last level adds nothing more.
        set("aune", "agony", 0, None),
        S::Magnitude("aune", "agony", 1),
        S::Res("aune", "burnout", 4),
        S::Said("already at the last level of burnout"),
    ]);
    // The pain passes; out cold stays out cold (her turns pass by themselves).
    steps.push(end("aune"));
    for _ in 0..11 {
        steps.extend([end("goblin-1"), end("mara")]);
    }
    steps.extend([S::Res("aune", "burnout", 3), S::Has("aune", "out_cold")]);
    play("agony at the last level", &[], steps);

    // Without agony the same fourth level is dying at Condition 0.
    let mut steps = start();
    steps.extend([
        burnout("aune", 4),
        S::Has("aune", "dying"),
        S::Res("aune", "condition", 0),
    ]);
    play("a fourth level without agony", &[], steps);
}

#[test]
fn burning_causes_one_level_of_agony_that_lasts_while_it_burns() {
    let mut steps = start();
    steps.extend([
        set("aune", "burning", 0, None),
        S::Res("aune", "burnout", 1),
        S::Magnitude("aune", "agony", 1),
        end("aune"),
        end("goblin-1"),
        // Her turn: 2d6 = 3 + 4 = 7 heat, and the same one level of agony, its minute anew.
        end_with("mara", &[3, 4]),
        S::Res("aune", "condition", 5),
        S::Res("aune", "burnout", 1),
        S::Magnitude("aune", "agony", 1),
        S::Act("aune", "extinguish", vec![], &[]),
        S::Lacks("aune", "burning"),
        S::Has("aune", "agony"),
    ]);
    // The flames out, the minute runs: ten more of her turns, and it is gone at the eleventh.
    for _ in 0..10 {
        steps.extend(round());
        steps.push(S::Res("aune", "burnout", 1));
    }
    steps.extend(round());
    steps.extend([S::Res("aune", "burnout", 0), S::Lacks("aune", "agony")]);
    play("burning's agony", &[], steps);
}

#[test]
fn agony_ends_with_the_fight() {
    let mut steps = start();
    steps.extend([
        set("aune", "agony", 0, None),
        S::Res("aune", "burnout", 1),
        S::Gm("end_encounter", vec![], &[]),
        S::Res("aune", "burnout", 0),
        S::Lacks("aune", "agony"),
    ]);
    play("agony ends with the fight", &[], steps);
}

#[test]
fn agony_outside_a_fight_passes_with_a_rest_and_burning_adds_its_own_level() {
    // Outside a fight, the next rest outlasts the minute: the agony level goes first, and the
    // long rest lowers burnout from 1, her own level, to 0.
    let steps = vec![
        burnout("aune", 1),
        set("aune", "agony", 0, None),
        S::Res("aune", "burnout", 2),
        S::Gm(
            "rest",
            vec![("target", t("aune")), ("kind", t("long"))],
            &[],
        ),
        S::Lacks("aune", "agony"),
        S::Res("aune", "burnout", 0),
    ];
    play("agony and a rest", &[], steps);

    // Catching fire while already in agony is a new pain: one more level; set burning again,
    // it is the same fire.
    let mut steps = start();
    steps.extend([
        set("aune", "agony", 0, None),
        set("aune", "burning", 0, None),
        S::Res("aune", "burnout", 2),
        S::Magnitude("aune", "agony", 2),
        set("aune", "burning", 0, None),
        S::Res("aune", "burnout", 2),
        // A ruling that lowers burnout leaves agony no more levels than there are.
        burnout("aune", 1),
        S::Magnitude("aune", "agony", 1),
        burnout("aune", 0),
        S::Lacks("aune", "agony"),
    ]);
    play("burning in agony", &[], steps);

    // The goblin's agony, like its burnout, is the GM's.
    let mut steps = start();
    steps.extend([
        set("goblin-1", "agony", 0, None),
        S::Res("goblin-1", "burnout", 1),
        S::GmOnly(&["\"source\":\"GM ruling\"", "\"resource\":\"burnout\""]),
    ]);
    play("an NPC's agony", &[], steps);
}

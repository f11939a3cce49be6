//! Attacks with an aim other than damage, and attacks that hold back, as scenes (the cast is
//! `scenes`').

use crate::testing::scene::S;

use super::scenes::{end, n, play, start, t};

/// Aune's knife on `target`, with `flag` set (`targeted`, `nonlethal`).
fn knife_with(flag: &'static str, target: &'static str, faces: &'static [u32]) -> S {
    S::Act(
        "aune",
        "attack",
        vec![
            ("target", t(target)),
            ("weapon", t("knife")),
            (flag, crate::action::ArgValue::Flag(true)),
        ],
        faces,
    )
}

fn aimed(target: &'static str, faces: &'static [u32]) -> S {
    knife_with("targeted", target, faces)
}

#[test]
fn a_targeted_attack_is_3_harder_whoever_rolls_and_its_effect_is_the_gms() {
    let mut steps = start();
    steps.extend([
        // 9 + COR 3 - 3 misses the goblin's 12 (12 untargeted would hit).
        aimed("goblin-1", &[9]),
        S::Said("label: \"targeted\", value: -3"),
        S::Res("goblin-1", "condition", 10),
        // The knife's second attack: 12 + 3 - 3 hits; 2 + TOG 2 = 4, 10 to 6.
        aimed("goblin-1", &[12, 2]),
        S::Res("goblin-1", "condition", 6),
        S::Said("aune's targeted attack lands on goblin-1: the GM rules its effect"),
        end("aune"),
        // The goblin aims at Aune: it makes no roll, so her evasion is 3 easier. TOG 15 + 1
        // lifts the cleaver; AGL 5 + 3 + 3 = 11 reaches its attack TN 11.
        S::Act(
            "goblin-1",
            "attack",
            vec![
                ("target", t("aune")),
                ("weapon", t("cleaver")),
                ("targeted", crate::action::ArgValue::Flag(true)),
            ],
            &[15, 5],
        ),
        S::Said("label: \"goblin-1: targeted\", value: 3"),
        S::Res("aune", "condition", 12),
    ]);
    play("targeted attacks", &[], steps);
}

#[test]
fn holding_back_leaves_a_target_at_1_condition_out_cold_and_not_dying() {
    let held = |faces: &'static [u32]| knife_with("nonlethal", "goblin-1", faces);
    let mut steps = start();
    steps.extend([
        // A blow that leaves it standing is a blow: 12 + 3 hits, 1 + 2 = 3, 10 to 7.
        held(&[12, 1]),
        S::Res("goblin-1", "condition", 7),
        // 4 + 2 = 6 leaves 1: no need to hold back.
        held(&[15, 4]),
        S::Res("goblin-1", "condition", 1),
        S::Lacks("goblin-1", "out_cold"),
        end("aune"),
        S::Refused(
            "goblin-1",
            "attack",
            vec![
                ("target", t("aune")),
                ("nonlethal", crate::action::ArgValue::Flag(true)),
            ],
            "rule: holding back is a player character's choice",
        ),
    ]);
    play("holding back", &[], steps);
    let mut steps = start();
    steps.extend([
        S::Gm(
            "rule.set-resource",
            vec![
                ("target", t("goblin-1")),
                ("resource", t("condition")),
                ("value", n(3)),
            ],
            &[],
        ),
        // 4 + 2 = 6 would drop it to -3: held back, it keeps 1.
        held(&[15, 4]),
        S::Damage(&[("dice", 4), ("+ TOG", 2), ("held back", -4)], 2),
        S::Res("goblin-1", "condition", 1),
        S::Has("goblin-1", "out_cold"),
        S::Lacks("goblin-1", "dying"),
        S::Res("goblin-1", "burnout", 0),
        S::Said("aune holds back: goblin-1 is left at 1 Condition, out cold"),
    ]);
    play("held back", &[], steps);
    // Exactly to 0 is a blow that would put it down: held back too.
    let mut steps = start();
    steps.extend([
        S::Gm(
            "rule.set-resource",
            vec![
                ("target", t("goblin-1")),
                ("resource", t("condition")),
                ("value", n(6)),
            ],
            &[],
        ),
        held(&[15, 4]),
        S::Res("goblin-1", "condition", 1),
        S::Has("goblin-1", "out_cold"),
    ]);
    play("held back at 0", &[], steps);
}

//! Care out of a fight: the Medicine heal (Science + Medicine against 10, a point of Life for
//! each point over, never past the maximum), the GM's rests for every conscious character, and
//! a revive with Survival on the attribute the GM names.

use crate::action::ArgValue;
use crate::testing::scene::{S, Scene};

use super::scenes::{beatrix, markus, play, t, thug};

fn life(who: &'static str, value: i64) -> S {
    S::Gm(
        "rule.set-resource",
        vec![
            ("target", t(who)),
            ("resource", t("life")),
            ("value", ArgValue::Int(value)),
        ],
        &[],
    )
}

fn heal(face: &'static [u32]) -> S {
    S::Act(
        "beatrix",
        "medicine_heal",
        vec![("target", t("markus"))],
        face,
    )
}

/// Beatrix (Science 2, Medicine 3) treats Markus (Life 10 at most): each row is his Life
/// before, her die, his Life after and whether the check says it healed.
#[test]
fn a_medicine_heal_gives_a_point_for_each_point_over_10_up_to_the_maximum() {
    let rows: [(i64, &'static [u32], i64, &str); 4] = [
        // 9 + 5 = 14: 4 over, 2 → 6.
        (2, &[9], 6, "heals"),
        // 5 + 5 = 10: nothing over.
        (2, &[5], 2, "heals nothing"),
        // 10 + 5 = 15: 5 over, 3 → 8.
        (3, &[10], 8, "heals"),
        // 15 again from 8: stops at 10.
        (8, &[10], 10, "heals"),
    ];
    for (before, face, after, words) in rows {
        let mut steps = vec![life("markus", before), heal(face), S::Said(words)];
        if words == "heals" {
            steps.push(S::PlayerNeverHears("heals nothing"));
        }
        steps.push(S::Res("markus", "life", after));
        play(Scene {
            name: "medicine heal",
            options: &[],
            cast: vec![beatrix(), markus()],
            steps,
        });
    }
}

#[test]
fn the_down_are_revived_not_healed_and_nobody_is_healed_in_a_fight() {
    for status in ["unconscious", "dead"] {
        play(Scene {
            name: "medicine heal on the down",
            options: &[],
            cast: vec![beatrix(), markus()],
            steps: vec![
                S::Give("markus", status, 7),
                S::Refused(
                    "beatrix",
                    "medicine_heal",
                    vec![("target", t("markus"))],
                    "rule: markus needs reviving, not healing",
                ),
            ],
        });
    }
    play(Scene {
        name: "medicine heal in a fight",
        options: &[],
        cast: vec![beatrix(), markus(), thug("thug-a")],
        steps: vec![
            S::Start(&[1, 9]),
            S::Refused(
                "beatrix",
                "medicine_heal",
                vec![("target", t("markus"))],
                "rule: a Medicine heal is made out of combat",
            ),
        ],
    });
}

/// The GM's rests: each row is the kind, the dice it draws, and Beatrix's and Markus's Life
/// after, from 1 and 2. Beatrix has Body 2, Markus Body 3, both Life 10 at most.
#[test]
fn a_rest_heals_every_conscious_character_by_its_kind() {
    let rows: [(&str, &'static [u32], i64, i64); 3] = [
        // Half of 10 = 5, + Body: 1 + 7 = 8 and 2 + 8 = 10.
        ("sleep", &[], 8, 10),
        // The printed division table: D10/3 of 9 = 3 + 2 = 5 → 6; of 4 = 2 + 3 = 5 → 7.
        ("short", &[9, 4], 6, 7),
        // D10/2 of 9 = 4 + 2 = 6 → 7; of 4 = 2 + 3 = 5 → 7.
        ("long", &[9, 4], 7, 7),
    ];
    for (kind, faces, b, m) in rows {
        play(Scene {
            name: "rest",
            options: &[],
            cast: vec![beatrix(), markus()],
            steps: vec![
                life("beatrix", 1),
                life("markus", 2),
                S::Gm("rest", vec![("kind", t(kind))], faces),
                S::Res("beatrix", "life", b),
                S::Res("markus", "life", m),
            ],
        });
    }
    // The unconscious and the dead are passed over: only Beatrix draws and heals.
    for status in ["unconscious", "dead"] {
        play(Scene {
            name: "rest, one down",
            options: &[],
            cast: vec![beatrix(), markus()],
            steps: vec![
                life("beatrix", 1),
                life("markus", -2),
                S::Give("markus", status, 7),
                S::Gm("rest", vec![("kind", t("short"))], &[9]),
                S::Res("beatrix", "life", 6),
                S::Res("markus", "life", -2),
            ],
        });
    }
}

/// Survival on Willpower, the attribute the GM named: Markus (Willpower 2, Survival 0)
/// brings Beatrix back, 6 + 2 = 8 against her revive difficulty 8, at 0 Life.
#[test]
fn a_survival_revive_rolls_the_attribute_the_gm_names() {
    play(Scene {
        name: "survival on willpower",
        options: &[],
        cast: vec![beatrix(), markus()],
        steps: vec![
            life("beatrix", -3),
            S::Give("beatrix", "unconscious", 8),
            S::Act(
                "markus",
                "revive",
                vec![
                    ("target", t("beatrix")),
                    ("skill", t("survival")),
                    ("attribute", t("willpower")),
                ],
                &[6],
            ),
            S::Lacks("beatrix", "unconscious"),
            S::Res("beatrix", "life", 0),
        ],
    });
}

//! Healing by items and techniques, the GM's `heal` (the cast is `scenes`': Aune has
//! Condition 12).

use crate::testing::scene::S;

use super::scenes::{condition, n, play, t};

fn heal(who: &'static str, amount: i64) -> S {
    S::Gm(
        "heal",
        vec![
            ("target", t(who)),
            ("amount", n(amount)),
            ("by", t("a medkit")),
        ],
        &[],
    )
}

#[test]
fn healing_stops_at_the_burnout_cap_and_a_dying_character_at_0() {
    play(
        "healing",
        &[],
        vec![
            condition("aune", 5),
            heal("aune", 4),
            S::Res("aune", "condition", 9),
            S::PlayerHears("a medkit restores 4 Condition to aune (5 to 9)"),
            // No higher than her 12.
            heal("aune", 10),
            S::Res("aune", "condition", 12),
            S::PlayerHears("no higher than burnout allows"),
            // Exactly to the top is no cap at work.
            condition("aune", 5),
            heal("aune", 7),
            S::Res("aune", "condition", 12),
            S::PlayerNeverHears("no higher"),
            // Burnout 2 caps her at 12 x 0.8 = 9.
            S::Gm(
                "rule.set-resource",
                vec![
                    ("target", t("aune")),
                    ("resource", t("burnout")),
                    ("value", n(2)),
                ],
                &[],
            ),
            condition("aune", 5),
            heal("aune", 10),
            S::Res("aune", "condition", 9),
            // Dying at -3: healing lifts her to 0, and she is dying still.
            condition("aune", -3),
            S::Has("aune", "dying"),
            heal("aune", 5),
            S::Res("aune", "condition", 0),
            S::Has("aune", "dying"),
            S::PlayerHears("dying, healing stops at 0 until stabilised"),
            // Healing that falls short of 0, or reaches it exactly, stops at nothing.
            condition("aune", -5),
            heal("aune", 2),
            S::Res("aune", "condition", -3),
            S::PlayerNeverHears("stops at 0"),
            heal("aune", 3),
            S::Res("aune", "condition", 0),
            S::PlayerNeverHears("stops at 0"),
            // The goblin's Condition is the GM's: the table hears only that the GM ruled.
            heal("goblin-1", 3),
            S::PlayerHears("the GM rules on goblin-1"),
            S::PlayerNeverHears("restores"),
            S::Refused(
                "aune",
                "heal",
                vec![("target", t("aune")), ("amount", n(3))],
                "forbidden",
            ),
        ],
    );
}

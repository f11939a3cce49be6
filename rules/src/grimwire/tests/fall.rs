//! Falls, by the table of falls (rules/content/grimwire/tables.toml): Aune (AGL 3, Condition 12)
//! falls from several heights onto several things. Each case starts her afresh.

use crate::testing::scene::S;

use super::scenes::{n, play, t};

fn fall(height: i64, onto: &'static str, jumped: bool, faces: &'static [u32]) -> S {
    let mut args = vec![
        ("target", t("aune")),
        ("height_m", n(height)),
        ("onto", t(onto)),
    ];
    if jumped {
        args.push(("jumped", crate::action::ArgValue::Flag(true)));
    }
    S::Gm("fall", args, faces)
}

#[test]
fn a_fall_deals_the_tables_dice_and_a_broken_one_half_without_knocking_down() {
    // (what, height, onto, jumped, faces, Condition after, knocked down)
    type Case = (
        &'static str,
        i64,
        &'static str,
        bool,
        &'static [u32],
        i64,
        bool,
    );
    let cases: [Case; 9] = [
        ("3 m: below the table", 3, "ground", false, &[], 12, false),
        // 9 m row (2d8, TN 13): AGL 10 + 3 = 13 breaks it: 5 + 6 = 11, half 5.
        ("10 m, broken", 10, "ground", false, &[10, 5, 6], 7, false),
        // 12 + 0: not broken, all 11 and down.
        ("10 m, not broken", 10, "ground", false, &[9, 5, 6], 1, true),
        // Under 45 m water breaks it with no roll: 2d12 6 + 6, half 6.
        ("20 m into water", 20, "water", false, &[6, 6], 6, false),
        // From 45 m water is no soft landing: no roll, 3d20 1 + 1 + 1, down.
        ("50 m into water", 50, "water", false, &[1, 1, 1], 9, true),
        // From 45 m a soft landing allows the roll (TN 19): 16 + 3. 2 + 2 + 2, half 3.
        (
            "50 m onto soft ground",
            50,
            "soft",
            false,
            &[16, 2, 2, 2],
            9,
            false,
        ),
        // A jump of a story, broken (7 + 3 against 10): no damage at all.
        ("a jump, broken", 5, "ground", true, &[7], 12, false),
        // Not broken (6 + 3): the whole 1d6 (4), and down.
        ("a jump, not broken", 5, "ground", true, &[6, 4], 8, true),
        // From 180 m on, the same 6d20 and TN 28, out of her reach even on a 20 (23): the
        // six 1s whole, and down.
        (
            "300 m onto soft ground",
            300,
            "soft",
            false,
            &[20, 1, 1, 1, 1, 1, 1],
            6,
            true,
        ),
    ];
    for (name, height, onto, jumped, faces, condition, down) in cases {
        play(
            name,
            &[],
            vec![
                fall(height, onto, jumped, faces),
                S::Res("aune", "condition", condition),
                if down {
                    S::Has("aune", "knocked_down")
                } else {
                    S::Lacks("aune", "knocked_down")
                },
            ],
        );
    }
    // The halving is a step of its own: 11, less 6.
    play(
        "a broken fall's steps",
        &[],
        vec![
            fall(10, "ground", false, &[10, 5, 6]),
            S::Damage(&[("dice", 11), ("broken fall: half", -6)], 5),
        ],
    );
    play(
        "refused falls",
        &[],
        vec![
            S::Refused(
                "aune",
                "fall",
                vec![("target", t("aune")), ("height_m", n(10))],
                "forbidden",
            ),
            S::GmRefused(
                "fall",
                vec![("target", t("aune")), ("height_m", n(-1))],
                "bad_request",
            ),
        ],
    );
}

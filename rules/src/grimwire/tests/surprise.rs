//! Surprise, as scenes: the cast of `scenes` in a row, initiative 10, 5 and 2 (Aune 12, the
//! goblin 6, Mara 3). Players are side `players`; the goblin, side `enemies`.

use crate::testing::scene::S;

use super::scenes::{end, play, t};

fn begin(args: Vec<(&'static str, crate::action::ArgValue)>) -> Vec<S> {
    vec![
        S::Place("aune", 0, 0),
        S::Place("goblin-1", 2, 0),
        S::Place("mara", 4, 0),
        S::Gm("start_encounter", args, &[10, 5, 2]),
        S::Order(&["aune", "goblin-1", "mara"]),
    ]
}

fn knife(faces: &'static [u32]) -> S {
    S::Act(
        "aune",
        "attack",
        vec![("target", t("goblin-1")), ("weapon", t("knife"))],
        faces,
    )
}

#[test]
fn against_the_unaware_the_surprising_side_takes_round_1_alone_and_its_first_attack_has_5() {
    let mut steps = begin(vec![("surprise", t("unaware")), ("by", t("players"))]);
    steps.extend([
        S::Said("players surprise enemies unaware: round 1 is aune, mara's alone"),
        S::Turn(Some("aune")),
        // 4 + COR 3 + 5 = 12 reaches the goblin's 12 (7 would not): knife 2 + TOG 2.
        knife(&[4, 2]),
        S::Said("label: \"surprise\", value: 5"),
        S::Res("goblin-1", "condition", 6),
        // Only the first attack: 4 + 3 = 7 misses.
        knife(&[4]),
        S::Res("goblin-1", "condition", 6),
        // The goblin, caught unaware, has no turn in round 1.
        end("aune"),
        S::Turn(Some("mara")),
        S::Round(1),
        end("mara"),
        S::Round(2),
        S::Said("the surprise is over: from now on everyone acts in initiative order"),
        S::Turn(Some("aune")),
        end("aune"),
        S::Turn(Some("goblin-1")),
    ]);
    play("unaware", &[], steps);

    // A bonus nobody used in round 1 is gone.
    let mut steps = begin(vec![("surprise", t("unaware")), ("by", t("players"))]);
    steps.extend([
        end("aune"),
        end("mara"),
        knife(&[4]),
        S::Res("goblin-1", "condition", 10),
    ]);
    play("an unused surprise", &[], steps);
}

#[test]
fn against_an_alert_side_one_opener_takes_round_1_and_its_first_attack_has_2() {
    // The goblin opens. Aune evades its unarmed blow 9 + AGL 3 - 2 = 10, missing its attack
    // TN 11 (12 would have made it): the surprise shows as the goblin's, on her evasion, and
    // its TOG 1 lands. Its opening attack made, initiative takes over.
    let mut steps = begin(vec![("surprise", t("alert")), ("by", t("enemies"))]);
    steps.extend([
        S::Said("round 1 is goblin-1's alone, and their first attack has +2"),
        S::Turn(Some("goblin-1")),
        S::Act("goblin-1", "attack", vec![("target", t("aune"))], &[9]),
        S::Said("label: \"goblin-1: surprise\", value: -2"),
        S::Res("aune", "condition", 11),
        S::Said("goblin-1 has made the opening attack: initiative takes over"),
        S::Round(2),
        S::Turn(Some("aune")),
    ]);
    play("alert", &[], steps);

    // The players name their opener: Mara, not Aune who is first in initiative.
    let mut steps = begin(vec![
        ("surprise", t("alert")),
        ("by", t("players")),
        ("opener", t("mara")),
    ]);
    steps.extend([
        S::Turn(Some("mara")),
        end("mara"),
        S::Turn(Some("aune")),
        S::Round(2),
    ]);
    play("a named opener", &[], steps);
}

#[test]
fn a_surprise_names_a_side_in_the_fight_and_its_own_opener() {
    let place = || {
        vec![
            S::Place("aune", 0, 0),
            S::Place("goblin-1", 2, 0),
            S::Place("mara", 4, 0),
        ]
    };
    type Given = Vec<(&'static str, crate::action::ArgValue)>;
    let cases: [(&str, Given, &str); 6] = [
        ("no side", vec![("surprise", t("unaware"))], "bad_request"),
        (
            "an unknown side",
            vec![("surprise", t("unaware")), ("by", t("dragons"))],
            "bad_request: argument `by` no one in the fight is on side `dragons`",
        ),
        (
            "everyone's side",
            vec![("surprise", t("unaware")), ("by", t("players"))],
            "bad_request: argument `by` everyone is on side `players`: whom do they surprise?",
        ),
        (
            "an opener of the other side",
            vec![
                ("surprise", t("alert")),
                ("by", t("players")),
                ("opener", t("goblin-1")),
            ],
            "bad_request",
        ),
        (
            "an opener against the unaware",
            vec![
                ("surprise", t("unaware")),
                ("by", t("players")),
                ("opener", t("aune")),
            ],
            "bad_request",
        ),
        (
            "a side without a surprise",
            vec![("by", t("players"))],
            "bad_request",
        ),
    ];
    for (name, args, code) in cases {
        let mut steps = place();
        if name == "everyone's side" {
            // The goblin dead, the fight is the players' alone.
            steps.push(super::scenes::set("goblin-1", "dead", 0, None));
        }
        steps.push(S::GmRefused("start_encounter", args, code));
        play(name, &[], steps);
    }
}

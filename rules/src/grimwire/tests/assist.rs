//! Assisting: the GM calls a check and names who helps (the cast is `scenes`').

use crate::testing::scene::S;

use super::scenes::{end, n, play, set, start, t};

fn assisted(helpers: &'static str, tn: i64, faces: &'static [u32]) -> S {
    S::GmAct(
        "aune",
        "check",
        vec![
            ("attribute", t("AGL")),
            ("tn", n(tn)),
            ("helpers", t(helpers)),
        ],
        faces,
    )
}

/// The last command holds a check of `who` labelled `label`.
fn rolled_by(who: &'static str, label: &'static str) -> S {
    S::Check(Box::new(move |p: &crate::testing::scene::Played<'_>| {
        let found = p.last.iter().flat_map(crate::event::Event::facts).any(|f| {
            matches!(f, crate::event::Fact::Checked(c)
                if c.label == label && c.actor.as_ref().is_some_and(|a| a.0 == who))
        });
        assert!(found, "{}: no `{label}` by {who}", p.at);
    }))
}

fn assist_args(helpers: &'static str) -> Vec<(&'static str, crate::action::ArgValue)> {
    vec![
        ("attribute", t("AGL")),
        ("tn", n(10)),
        ("helpers", t(helpers)),
    ]
}

#[test]
fn helpers_roll_with_their_own_numbers_and_the_highest_counts() {
    play(
        "assisting out of a fight",
        &[],
        vec![
            // Aune 10 + AGL 3 = 13 misses 15; Mara 14 + AGL 2 = 16 makes it.
            assisted("mara", 15, &[10, 14]),
            S::Said("mara's 16 is the highest and counts for aune's check: a success"),
            rolled_by("mara", "AGL check, helping aune"),
            rolled_by("aune", "AGL check"),
            // A tie goes to the one whose check it is: 10 + 3 and 11 + 2.
            assisted("mara", 15, &[10, 11]),
            S::Said("aune's 13 is the highest and counts for aune's check: a failure"),
            // Mara lifts with TOG: 9 + 4 = 13 against Aune's 12 + 3 = 15: Aune's counts.
            assisted("mara:TOG", 16, &[12, 9]),
            S::Said("aune's 15 is the highest and counts for aune's check: a failure"),
            S::Refused(
                "aune",
                "check",
                vec![("attribute", t("AGL")), ("helpers", t("mara"))],
                "forbidden",
            ),
            // Nobody twice, not the roller, nobody unknown, nobody who cannot act.
            S::RefusedFrom(
                "gm",
                "aune",
                "check",
                assist_args("mara, mara"),
                "bad_request: argument `helpers` names `mara` twice",
            ),
            S::RefusedFrom("gm", "aune", "check", assist_args("aune"), "bad_request"),
            S::RefusedFrom(
                "gm",
                "aune",
                "check",
                assist_args("ghost"),
                "unknown_entity",
            ),
            set("mara", "stunned", 0, None),
            S::RefusedFrom("gm", "aune", "check", assist_args("mara"), "cannot_act"),
        ],
    );
    let mut steps = start();
    steps.extend([
        // In a fight the helper gives an action: Mara, before her turn, this round's.
        assisted("mara", 15, &[10, 14]),
        S::Res("mara", "action_spent", 1),
        end("aune"),
        // The goblin helps its own check on its turn: its turn's action.
        S::GmAct(
            "goblin-1",
            "check",
            vec![
                ("attribute", t("PER")),
                ("tn", n(10)),
                ("helpers", t("aune")),
            ],
            &[3, 4],
        ),
        // A goblin's roll is among them: whose was highest is the GM's to read.
        S::PlayerNeverHears("aune's"),
        S::PlayerHears("the highest roll counts for goblin-1's check"),
        S::Refused(
            "aune",
            "check",
            vec![("attribute", t("AGL"))],
            "not_your_turn",
        ),
    ]);
    play("assisting in a fight", &[], steps);
}

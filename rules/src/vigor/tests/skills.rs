//! Skill checks: d20 plus the skill's bonus dice against a VS when one is given; driving,
//! navigating and piloting also pay the scene's visibility on that VS (+5 reduced, +10 low,
//! +15 zero), which the check says.

use crate::action::ArgValue;
use crate::testing::scene::{self, S, Scene};

use super::super::Vigor;
use super::{creature, with};

use S::*;

fn t(s: &str) -> ArgValue {
    ArgValue::Text(s.to_owned())
}

fn skill(name: &'static str, vs: Option<i64>) -> Vec<(&'static str, ArgValue)> {
    let mut v = vec![("skill", t(name))];
    if let Some(vs) = vs {
        v.push(("vs", ArgValue::Int(vs)));
    }
    v
}

fn visibility(level: &'static str) -> S {
    Gm("visibility", vec![("level", t(level))], &[])
}

#[test]
fn piloting_by_sight_pays_the_visibility_on_its_vs_and_other_skills_do_not() {
    // One bonus die (d10) in piloting and in awareness.
    let pilot = || {
        with(creature("aune", "pc"), |v| {
            v["skills"] = serde_json::json!({ "piloting": 1, "awareness": 1 });
        })
    };
    // (level, skill, vs, d20, d10, what the check says)
    type Case = (
        &'static str,
        &'static str,
        Option<i64>,
        u32,
        u32,
        &'static [&'static str],
    );
    let cases: &[Case] = &[
        // 10 + 5 = 15 beats VS 14.
        ("normal", "piloting", Some(14), 10, 5, &["succeeds"]),
        // Reduced: VS 14 + 5 = 19; 15 fails.
        (
            "reduced",
            "piloting",
            Some(14),
            10,
            5,
            &["fails", "reduced visibility: +5 to the VS"],
        ),
        // Low: 14 + 10 = 24; 18 + 5 = 23 fails, where it beat 19 in reduced.
        (
            "low",
            "piloting",
            Some(14),
            18,
            5,
            &["fails", "+10 to the VS"],
        ),
        // Zero: 13 + 15 = 28; 20 + 9 = 29 beats it.
        (
            "zero",
            "piloting",
            Some(13),
            20,
            9,
            &["succeeds", "zero visibility: +15 to the VS"],
        ),
        // Awareness is no driving: VS 14 stays 14 in zero visibility.
        ("zero", "awareness", Some(14), 10, 5, &["succeeds"]),
        // No VS: the total is open, and the GM is told what visibility adds.
        ("low", "piloting", None, 10, 5, &["+10 to the VS"]),
    ];
    for (level, name, vs, d20, d10, said) in cases {
        let mut steps = vec![Start(&[15, 5]), visibility(level)];
        let faces: &'static [u32] = Box::leak(vec![*d20, *d10].into_boxed_slice());
        // The VS is the GM's to give: the GM sends the check for Aune's player.
        steps.push(GmAct("aune", "use_skill", skill(name, *vs), faces));
        steps.extend(
            said.iter()
                .map(|s| Said(Box::leak(s.to_string().into_boxed_str()))),
        );
        if *name == "awareness" {
            steps.push(S::Check(Box::new(|p| {
                let gm = format!("{:?}", p.last);
                assert!(!gm.contains("to the VS"), "{}: {gm}", p.at);
            })));
        }
        let label = Box::leak(format!("{level} {name} {vs:?}").into_boxed_str());
        scene::play(
            &Vigor,
            "aune",
            Scene {
                name: label,
                options: &[],
                cast: vec![pilot(), creature("raider", "npc")],
                steps,
            },
        );
    }
}

#[test]
fn the_vs_of_a_skill_check_is_the_gms_to_give_and_to_keep_secret() {
    let pilot = || {
        with(creature("aune", "pc"), |v| {
            v["skills"] = serde_json::json!({ "piloting": 1 });
        })
    };
    let mut secret = skill("piloting", Some(14));
    secret.push(("secret", ArgValue::Flag(true)));
    scene::play(
        &Vigor,
        "aune",
        Scene {
            name: "the GM's VS",
            options: &[],
            cast: vec![pilot(), creature("raider", "npc")],
            steps: vec![
                Start(&[15, 5]),
                // A player cannot set her own VS, nor hide it.
                Refused("aune", "use_skill", skill("piloting", Some(1)), "forbidden"),
                // The GM's 14, shown: 10 + 5 = 15 beats it, and the table sees the 14.
                GmAct("aune", "use_skill", skill("piloting", Some(14)), &[10, 5]),
                Said("succeeds"),
                TargetSeen(true),
                // Kept secret: the table hears the verdict, not the number.
                GmAct("aune", "use_skill", secret, &[3, 2]),
                Said("fails"),
                TargetSeen(false),
            ],
        },
    );
}

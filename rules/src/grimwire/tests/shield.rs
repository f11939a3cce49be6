//! Shielding oneself, as scenes: Aune (AGL 3, Condition 12) carries a buckler (+2 shielding,
//! d20 instability) beside the cast of `scenes`. The goblin's unarmed blow (its TOG 1 in
//! damage) is evaded against its attack TN 11; Mara's against her COR roll.

use crate::testing::scene::S;

use super::scenes::{cast, end, play_cast, sheet, t};

const BUCKLER: &str = r#"
[[weapons]]
id = "buckler"
name = "Buckler"
class = "light"
damage = "1d4"
damage_type = "blunt"
shielding = 2
"#;

fn shielded_cast() -> Vec<serde_json::Value> {
    let mut cast = cast();
    let aune = format!(
        "{}{BUCKLER}",
        include_str!("../../../../docs/examples/grimwire/aune.toml")
    );
    cast[0] = sheet(&aune);
    cast
}

/// The goblin's turn, its blow at Aune evaded with `face`.
fn goblin_swings(face: &'static [u32]) -> Vec<S> {
    vec![
        S::Place("aune", 0, 0),
        S::Place("goblin-1", 2, 0),
        S::Place("mara", 4, 0),
        S::Start(&[10, 5, 2]),
        end("aune"),
        S::Act("goblin-1", "attack", vec![("target", t("aune"))], face),
    ]
}

#[test]
fn a_failed_evasion_may_raise_a_shield_whose_instability_die_decides_its_fate() {
    struct Case {
        name: &'static str,
        evade: &'static [u32],
        answer: Option<(&'static str, &'static [u32])>,
        condition: i64,
        broken: Option<i64>,
    }
    let cases = [
        // 9 + 2 = 11 reaches 11: the buckler takes it, its d20 shows 11, it holds.
        Case {
            name: "turned",
            evade: &[6],
            answer: Some(("raise", &[11])),
            condition: 12,
            broken: None,
        },
        // 7 + 2 = 9 is not enough: the blow lands (TOG 1), and no instability die.
        Case {
            name: "too little",
            evade: &[4],
            answer: Some(("raise", &[])),
            condition: 11,
            broken: None,
        },
        // 1 on the d20: turned, and broken for good.
        Case {
            name: "broken for good",
            evade: &[6],
            answer: Some(("raise", &[1])),
            condition: 12,
            broken: Some(1),
        },
        // 2: turned, broken until mended.
        Case {
            name: "broken",
            evade: &[6],
            answer: Some(("raise", &[2])),
            condition: 12,
            broken: Some(0),
        },
        // 3: it does not hold, the blow lands.
        Case {
            name: "does not hold",
            evade: &[6],
            answer: Some(("raise", &[3])),
            condition: 11,
            broken: None,
        },
        Case {
            name: "kept down",
            evade: &[6],
            answer: Some(("no", &[])),
            condition: 11,
            broken: None,
        },
        // A natural 1 fails whatever is added: nothing to ask.
        Case {
            name: "natural 1",
            evade: &[1],
            answer: None,
            condition: 11,
            broken: None,
        },
        // Evaded: nothing to ask either.
        Case {
            name: "evaded",
            evade: &[8],
            answer: None,
            condition: 12,
            broken: None,
        },
    ];
    let lines = [
        ("turned", "the Buckler holds"),
        (
            "too little",
            "aune raises the Buckler (+2): 7 + 2 = 9, not enough: the blow lands",
        ),
        (
            "broken for good",
            "the Buckler breaks for good; the blow does no harm",
        ),
        (
            "broken",
            "the Buckler breaks until mended; the blow does no harm",
        ),
        ("does not hold", "the Buckler does not hold: the blow lands"),
    ];
    for c in cases {
        let mut steps = goblin_swings(c.evade);
        if let Some((choice, faces)) = c.answer {
            steps.push(S::Asked("Raise the Buckler (+2 AGL)?"));
            // Asked by the evader, for as long as the table gives a decision.
            steps.push(S::Check(Box::new(
                |p: &crate::testing::scene::Played<'_>| {
                    let step = p.state.encounter.pending.last().expect("a question");
                    assert_eq!(
                        step.actor.as_ref().map(|a| a.as_str()),
                        Some("aune"),
                        "{}",
                        p.at
                    );
                    assert_eq!(step.timeout_ms, 60_000, "{}", p.at);
                },
            )));
            // What the evasion had to reach, and the goblin's weapon, stay the GM's.
            steps.push(S::GmOnly(&[
                "\"against\":{\"int\":11}",
                "\"weapon\":{\"text\":\"unarmed\"}",
            ]));
            steps.push(S::Answer(choice, faces));
            if let Some((_, line)) = lines.iter().find(|(n, _)| *n == c.name) {
                steps.push(S::PlayerHears(line));
            }
        } else {
            steps.push(S::Prompt(false));
        }
        steps.push(S::Res("aune", "condition", c.condition));
        if let Some(m) = c.broken {
            steps.push(S::Magnitude("aune", "broken:buckler", m));
        } else {
            steps.push(S::Lacks("aune", "broken:buckler"));
        }
        play_cast(c.name, shielded_cast(), steps);
    }

    // Broken, it is raised no more, and it strikes no more.
    let mut steps = goblin_swings(&[6]);
    steps.extend([
        S::Answer("raise", &[1]),
        end("goblin-1"),
        end("mara"),
        S::Refused(
            "aune",
            "attack",
            vec![("target", t("goblin-1")), ("weapon", t("buckler"))],
            "rule: aune's buckler is broken",
        ),
        end("aune"),
        S::Act("goblin-1", "attack", vec![("target", t("aune"))], &[6]),
        S::Prompt(false),
        S::Res("aune", "condition", 11),
    ]);
    play_cast("a broken buckler", shielded_cast(), steps);
}

#[test]
fn against_a_pcs_attack_the_shield_must_beat_the_attack_total() {
    // Mara's unarmed COR 10 + 1 = 11 beats Aune's AGL 6 + 3 = 9; raised, 9 + 2 = 11 only
    // ties, which does not turn it; 7 + 3 + 2 = 12 does.
    let opening = |faces: &'static [u32]| {
        vec![
            S::Place("aune", 0, 0),
            S::Place("goblin-1", 0, 6),
            S::Place("mara", 2, 0),
            S::Start(&[10, 5, 2]),
            end("aune"),
            end("goblin-1"),
            S::Act("mara", "attack", vec![("target", t("aune"))], faces),
        ]
    };
    let mut steps = opening(&[10, 6]);
    steps.extend([S::Answer("raise", &[]), S::Res("aune", "condition", 8)]);
    play_cast("a tie is not enough", shielded_cast(), steps);

    let mut steps = opening(&[10, 7]);
    steps.extend([S::Answer("raise", &[15]), S::Res("aune", "condition", 12)]);
    play_cast("beaten", shielded_cast(), steps);
}

#[test]
fn an_npc_raises_no_shield_and_an_item_may_name_its_own_instability_die() {
    // The goblin carries a shield; Aune holds it, so her knife is COR against its AGL, both
    // rolled: 10 + 3 = 13 against 12 + 2 - 5 = 9. No question: its defence is the GM's.
    let mut shielded_goblin = cast();
    let goblin = format!(
        "{}{}",
        include_str!("../../../../docs/examples/grimwire/goblin-1.toml"),
        BUCKLER
    );
    shielded_goblin[1] = sheet(&goblin);
    let steps = vec![
        S::Place("aune", 0, 0),
        S::Place("goblin-1", 2, 0),
        S::Place("mara", 4, 0),
        S::Start(&[10, 5, 2]),
        S::Act("aune", "grapple", vec![("target", t("goblin-1"))], &[10, 8]),
        end("aune"),
        S::Act("goblin-1", "end_turn", vec![], &[]),
        end("mara"),
        S::Act(
            "aune",
            "attack",
            vec![("target", t("goblin-1")), ("weapon", t("knife"))],
            &[10, 12, 2],
        ),
        S::Prompt(false),
        S::Res("goblin-1", "condition", 6),
    ];
    play_cast("an NPC's shield", shielded_goblin, steps);

    // A d10 buckler: its die is a d10.
    let mut d10_cast = cast();
    let aune = format!(
        "{}{}",
        include_str!("../../../../docs/examples/grimwire/aune.toml"),
        BUCKLER.replace("shielding = 2", "shielding = 2\ninstability = 10")
    );
    d10_cast[0] = sheet(&aune);
    let mut steps = goblin_swings(&[6]);
    steps.extend([
        S::Answer("raise", &[10]),
        S::Check(Box::new(|p: &crate::testing::scene::Played<'_>| {
            let d10 = p.last.iter().flat_map(crate::event::Event::facts).any(
                |f| matches!(f, crate::event::Fact::Rolled { roll, .. } if roll.expr == "1d10"),
            );
            assert!(d10, "{}: no d10 instability roll", p.at);
        })),
        S::Res("aune", "condition", 12),
    ]);
    play_cast("a d10 buckler", d10_cast, steps);
}

/// Nobody answering in time raises the shield: the question's default.
#[test]
fn a_shield_question_left_unanswered_raises_the_shield() {
    let mut steps = goblin_swings(&[6]);
    steps.extend([
        S::TimeOut(&[11]),
        S::Res("aune", "condition", 12),
        S::PlayerHears("aune raises the Buckler (+2): 9 + 2 = 11 turns the blow onto it"),
    ]);
    play_cast("an unanswered shield", shielded_cast(), steps);
}

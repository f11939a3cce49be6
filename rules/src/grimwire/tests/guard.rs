//! Shielding others, as scenes: someone within 3 m of the attacked throws themselves in the
//! way (AGL +5) before the rolls. The cast of `scenes`, with Mara (AGL 2, armour 1,
//! Condition 14) beside Aune, and the scrap warden (AGL 0, armour 3, Condition 16) beside
//! the goblin.

use crate::testing::scene::S;

use super::scenes::{cast, play_cast, sheet, t};

fn with_warden() -> Vec<serde_json::Value> {
    let mut cast = cast();
    cast.push(sheet(include_str!(
        "../../../../docs/examples/grimwire/warden.toml"
    )));
    cast
}

/// Aune at (0, 0) with Mara at (1, 1); the goblin at (2, 0) with the warden at (3, 1). Order:
/// Aune, the goblin, Mara, the warden.
fn close_ranks() -> Vec<S> {
    vec![
        S::Place("aune", 0, 0),
        S::Place("mara", 1, 1),
        S::Place("goblin-1", 2, 0),
        S::Place("warden", 3, 1),
        S::Start(&[10, 5, 2, 1]),
        S::Order(&["aune", "goblin-1", "mara", "warden"]),
    ]
}

fn with_options(
    name: &'static str,
    options: &'static [(&'static str, &'static str)],
    steps: Vec<S>,
) {
    crate::testing::scene::play(
        &super::super::Grimwire,
        "ines",
        crate::testing::scene::Scene {
            name,
            options,
            cast: with_warden(),
            steps,
        },
    );
}

fn goblin_swings_at_aune() -> Vec<S> {
    let mut steps = close_ranks();
    steps.extend([
        S::Act("aune", "end_turn", vec![], &[]),
        S::Act("goblin-1", "attack", vec![("target", t("aune"))], &[]),
        S::Asked("goblin-1 attacks aune. Throw yourself in the way"),
        S::Check(Box::new(|p: &crate::testing::scene::Played<'_>| {
            let step = p.state.encounter.pending.last().expect("a question");
            assert_eq!(step.timeout_ms, 60_000, "{}", p.at);
            assert_eq!(step.default, "none", "{}", p.at);
        })),
    ]);
    steps
}

#[test]
fn an_ally_within_3_m_may_take_an_npcs_blow_with_agl_plus_5_against_its_attack_tn() {
    // Mara's AGL 5 + 2 + 5 = 12 reaches the goblin's attack TN 11: its unarmed TOG 1 lands on
    // her, less nothing (a hit does at least 1): 14 to 13. Aune is untouched.
    let mut steps = goblin_swings_at_aune();
    steps.extend([
        S::Answer("mara", &[5]),
        S::Res("mara", "condition", 13),
        S::Res("aune", "condition", 12),
        S::PlayerHears("mara throws themselves in front of aune and takes the blow"),
        // Her auxiliary action is gone.
        S::Check(Box::new(|p: &crate::testing::scene::Played<'_>| {
            let mara = &p.state.combatants[&crate::ids::EntityId::from("mara")];
            assert_eq!(mara.turn_counter("aux_used"), 1, "{}", p.at);
        })),
    ]);
    play_cast("shielded", with_warden(), steps);

    // 2 + 2 + 5 = 9 misses: Aune evades as usual, 15 + 3 against 11.
    let mut steps = goblin_swings_at_aune();
    steps.extend([
        S::Answer("mara", &[2, 15]),
        S::PlayerHears("mara tries to shield aune, too late: aune must evade"),
        S::Res("mara", "condition", 14),
        S::Res("aune", "condition", 12),
    ]);
    play_cast("too late", with_warden(), steps);

    // Nobody: Aune evades 5 + 3 = 8 and takes the TOG 1.
    let mut steps = goblin_swings_at_aune();
    steps.extend([S::Answer("none", &[5]), S::Res("aune", "condition", 11)]);
    play_cast("no one steps in", with_warden(), steps);

    // Aune's seat cannot name Mara for her.
    let mut steps = goblin_swings_at_aune();
    steps.push(S::AnswerRefused(
        Some(crate::ids::Seat::Player("ines".into())),
        "mara",
        vec![],
        "forbidden",
    ));
    play_cast("not hers to name", with_warden(), steps);
}

#[test]
fn against_a_pc_the_shielder_must_reach_the_attack_roll_and_shields_one_attacker_a_round() {
    // Aune's knife at the goblin; the GM answers for the warden: AGL 8 + 0 + 5 = 13 reaches
    // Aune's COR 10 + 3 = 13 and it takes the knife (2 + TOG 2 = 4, less armour 3 = 1).
    let knife = |faces: &'static [u32]| {
        S::Act(
            "aune",
            "attack",
            vec![("target", t("goblin-1")), ("weapon", t("knife"))],
            faces,
        )
    };
    let mut steps = close_ranks();
    steps.extend([
        knife(&[]),
        S::Answer("warden", &[10, 8, 2]),
        S::Res("warden", "condition", 15),
        S::Res("goblin-1", "condition", 10),
        // The knife's second attack: the warden, already shielding against Aune this round,
        // may again at no new cost; 7 + 5 = 12 misses 13, and the goblin's defence 12 is hit.
        knife(&[]),
        S::Asked("aune attacks goblin-1"),
        S::Answer("warden", &[10, 7, 2]),
        S::Res("goblin-1", "condition", 6),
    ]);
    with_options(
        "the warden's body",
        &[("grimwire.shield_others", "all")],
        steps,
    );

    // By default the GM is not asked for the GM's characters: the knife goes straight.
    let mut steps = close_ranks();
    steps.extend([
        knife(&[10, 2]),
        S::Prompt(false),
        S::Res("goblin-1", "condition", 6),
    ]);
    play_cast("the GM not asked", with_warden(), steps);

    // A supernatural attack cannot be shielded, even with the GM asked for the warden: Mara's
    // hex bolt (RSN 3 + 9 = 12 against 12, 1d8 = 4) goes straight.
    let mut steps = close_ranks();
    steps.extend([
        S::Act("aune", "end_turn", vec![], &[]),
        S::Act("goblin-1", "end_turn", vec![], &[]),
        S::Act(
            "mara",
            "attack",
            vec![("target", t("goblin-1")), ("weapon", t("hex-bolt"))],
            &[9, 4],
        ),
        S::Prompt(false),
        S::Res("goblin-1", "condition", 6),
    ]);
    with_options("a hex bolt", &[("grimwire.shield_others", "all")], steps);

    // Under `grimwire.shield_others = never` Mara is not asked: Aune evades 15 + 3 at once.
    let mut steps = close_ranks();
    steps.extend([
        S::Act("aune", "end_turn", vec![], &[]),
        S::Act("goblin-1", "attack", vec![("target", t("aune"))], &[15]),
        S::Prompt(false),
        S::Res("aune", "condition", 12),
    ]);
    with_options("never asked", &[("grimwire.shield_others", "never")], steps);

    // With nobody near, nothing is asked either.
    let mut steps = close_ranks();
    steps.extend([
        S::Place("warden", 9, 9),
        knife(&[10, 2]),
        S::Prompt(false),
        S::Res("goblin-1", "condition", 6),
    ]);
    play_cast("nobody near", with_warden(), steps);
}

/// A shielder who fails to cover someone who cannot defend leaves them hit, with the attack
/// roll (made only to be reached) written once: Mara's sledgehammer at the sleeping goblin,
/// COR 4 + 1 = 5 (against a sleeper no face strays); the warden's natural 1 fails to cover it;
/// the goblin takes 2d6 = 3 + 3 + TOG 4 = 10, from 10 to 0.
#[test]
fn a_failed_shield_over_someone_defenceless_leaves_them_hit() {
    let mut steps = close_ranks();
    steps.extend([
        S::Gm(
            "rule.set-status",
            vec![("target", t("goblin-1")), ("status", t("asleep"))],
            &[],
        ),
        S::Act("aune", "end_turn", vec![], &[]),
        S::Act(
            "mara",
            "attack",
            vec![("target", t("goblin-1")), ("weapon", t("sledgehammer"))],
            &[],
        ),
        S::Answer("warden", &[4, 1, 3, 3]),
        S::Res("goblin-1", "condition", 0),
        S::Has("goblin-1", "dying"),
        S::GmOnly(&["\"overridden_by\":\"natural 1\""]),
    ]);
    with_options(
        "a sleeper unshielded",
        &[("grimwire.shield_others", "all")],
        steps,
    );
}

/// A natural 20 still doubles the blow the shielder takes: Aune's knife, 20 + 3 = 23, the
/// warden's 20 + 5 = 25 reaches it, and takes (2 + TOG 2) x 2 = 8, less armour 3: 16 to 11.
#[test]
fn a_shielder_takes_a_natural_20_doubled() {
    let mut steps = close_ranks();
    steps.extend([
        S::Act(
            "aune",
            "attack",
            vec![("target", t("goblin-1")), ("weapon", t("knife"))],
            &[],
        ),
        S::Answer("warden", &[20, 20, 2]),
        S::Res("warden", "condition", 11),
        S::Res("goblin-1", "condition", 10),
        S::Check(Box::new(|p: &crate::testing::scene::Played<'_>| {
            let twenty = p.last.iter().flat_map(crate::event::Event::facts).any(|f| {
                matches!(f, crate::event::Fact::Checked(c)
                    if c.label == "COR attack"
                        && c.overridden_by.as_deref() == Some("natural 20"))
            });
            assert!(twenty, "{}: the attack's natural 20 is not written", p.at);
        })),
    ]);
    with_options(
        "a natural 20 shielded",
        &[("grimwire.shield_others", "all")],
        steps,
    );
}

/// An NPC's shot from beyond its range is easier to stop, for the shielder as for the target:
/// the goblin's sling (18 m) from 20 m takes 5 off its attack TN, 11 - 5 = 6, which Mara's
/// AGL 2 + 2 + 5 = 9 reaches (11 it would not), and she takes the 1d4 = 3, less armour 1:
/// 14 to 12.
#[test]
fn a_shielder_against_a_shot_beyond_range_faces_the_lowered_tn() {
    let mut cast = with_warden();
    let goblin = format!(
        "{}\n[[weapons]]\nid = \"sling\"\nname = \"Sling\"\nclass = \"ranged\"\ndamage = \"1d4\"\nrange_m = 18\n",
        include_str!("../../../../docs/examples/grimwire/goblin-1.toml")
    );
    cast[1] = sheet(&goblin);
    let steps = vec![
        S::Place("aune", 0, 0),
        S::Place("mara", 1, 1),
        S::Place("goblin-1", 20, 0),
        S::Place("warden", 20, 5),
        S::Start(&[10, 5, 2, 1]),
        S::Act("aune", "end_turn", vec![], &[]),
        S::Act(
            "goblin-1",
            "attack",
            vec![("target", t("aune")), ("weapon", t("sling"))],
            &[],
        ),
        S::Answer("mara", &[2, 3]),
        S::Res("mara", "condition", 12),
        S::Res("aune", "condition", 12),
    ];
    play_cast("a long shot shielded", cast, steps);
}

/// Between players the shielder faces the attacker's own roll: Mara's sledgehammer at Aune,
/// COR 10 + 1 = 11; Bryn, a third player's character beside Aune, reaches it with AGL 3 + 5
/// + 5 = 13 and takes 2d6 = 1 + 1 + TOG 4 = 6, from 12 to 6.
#[test]
fn between_players_the_shielder_faces_the_attackers_roll() {
    let mut cast = cast();
    let bryn = include_str!("../../../../docs/examples/grimwire/aune.toml")
        .replace("id = \"aune\"", "id = \"bryn\"")
        .replace("name = \"Aune\"", "name = \"Bryn\"")
        .replace("owner = \"ines\"", "owner = \"ben\"");
    cast.push(sheet(&bryn));
    let steps = vec![
        S::Place("aune", 0, 0),
        S::Place("bryn", 1, 1),
        S::Place("mara", 2, 0),
        S::Place("goblin-1", 9, 9),
        // Initiative in id order: Aune 5 + 2, Bryn 4 + 2, the goblin 3 + 1, Mara 20 + 1.
        S::Start(&[5, 4, 3, 20]),
        S::Order(&["mara", "aune", "bryn", "goblin-1"]),
        S::Act(
            "mara",
            "attack",
            vec![("target", t("aune")), ("weapon", t("sledgehammer"))],
            &[],
        ),
        S::Asked("mara attacks aune"),
        S::Answer("bryn", &[10, 5, 1, 1]),
        S::Res("bryn", "condition", 6),
        S::Res("aune", "condition", 12),
    ];
    play_cast("a player shields a player", cast, steps);
}

//! Attacks with an aim other than damage, and attacks that hold back, as scenes (the cast is
//! `scenes`').

use crate::testing::scene::S;

use super::scenes::{condition, end, play, play_cast, set, sheet, start, t, to};

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
        condition("goblin-1", 3),
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
        condition("goblin-1", 6),
        held(&[15, 4]),
        S::Res("goblin-1", "condition", 1),
        S::Has("goblin-1", "out_cold"),
    ]);
    play("held back at 0", &[], steps);
}

/// An NPC shooting beyond its range makes no roll: the penalty eases the PC's evasion instead.
/// The crossbow reaches 18 m; at 25 m, -5: the attack TN 12 is 7, and Aune's 4 + AGL 3
/// evades (it would not against 12).
#[test]
fn an_npc_shooting_beyond_range_is_easier_to_evade() {
    play_cast(
        "beyond range",
        vec![
            sheet(include_str!("../../../../docs/examples/grimwire/aune.toml")),
            sheet(include_str!(
                "../../../../docs/examples/grimwire/goblin-2.toml"
            )),
        ],
        vec![
            S::Place("aune", 0, 0),
            S::Place("goblin-2", 25, 0),
            S::Start(&[10, 5]),
            end("aune"),
            S::Act(
                "goblin-2",
                "attack",
                vec![("target", t("aune")), ("weapon", t("crossbow"))],
                &[4],
            ),
            S::Res("aune", "condition", 12),
        ],
    );
}

/// Player against player: a defender who rolls a natural 1 is hit whatever the totals, and a
/// paralysed one cannot evade at all. Mara's sledgehammer: 2 + COR 1 = 3.
#[test]
fn a_defender_on_a_natural_1_or_paralysed_is_hit_whatever_the_totals() {
    let swing = |faces: &'static [u32]| {
        S::Act(
            "mara",
            "attack",
            vec![("target", t("aune")), ("weapon", t("sledgehammer"))],
            faces,
        )
    };
    for (paralysed, faces, hurt) in [
        // Aune's natural 1 + AGL 3 = 4 beats 3, and loses: 2d6 1 + 1, + TOG 4: 12 to 6.
        (false, &[2u32, 1, 1, 1][..], 6),
        // Paralysed, she cannot evade: no roll at all, hit for the same 6.
        (true, &[1, 1][..], 6),
    ] {
        let mut steps = start();
        steps.extend([end("aune"), end("goblin-1")]);
        if paralysed {
            steps.push(set("aune", "paralysed", 0, None));
        }
        steps.extend([
            S::Act("mara", "move", vec![("to", to(1, 0))], &[]),
            swing(faces),
            S::Res("aune", "condition", hurt),
        ]);
        play("player against player", &[], steps);
    }
}

/// A GM's creature that misfires and does not spare: the stray attack's avoid TN, 11, is no
/// secret (only a TN lowered by an NPC's COR would tell its numbers).
#[test]
fn an_npcs_unspared_stray_attack_shows_its_avoid_tn() {
    play_cast(
        "an NPC's stray attack",
        vec![
            sheet(include_str!("../../../../docs/examples/grimwire/aune.toml")),
            sheet(include_str!(
                "../../../../docs/examples/grimwire/goblin-1.toml"
            )),
            sheet(include_str!(
                "../../../../docs/examples/grimwire/goblin-2.toml"
            )),
        ],
        vec![
            S::Place("aune", 0, 0),
            S::Place("goblin-1", 2, 0),
            S::Place("goblin-2", 1, 0),
            S::Start(&[10, 5, 1]),
            end("aune"),
            // TOG 15 + 1 lifts the cleaver; a natural 2 misfires (4 or less, below its TOG).
            S::Act(
                "goblin-1",
                "attack",
                vec![("target", t("goblin-2")), ("weapon", t("cleaver"))],
                &[15, 2],
            ),
            // The GM says it strays; the pick among those within 3 m of goblin-2 falls on Aune.
            S::Answer("yes", &[1]),
            // Not spared: AGL 5 + 3 misses 11, seen by her seat; 2d6 1 + 1 + TOG 1, 12 to 9.
            S::Answer("no", &[5, 1, 1]),
            S::TargetSeen(true),
            S::Res("aune", "condition", 9),
        ],
    );
}

/// A cell of cover on the line between a ranged attacker and its target adds
/// `grimwire.cover_bonus` (2) to the target's evasion, whoever rolls; a melee blow and a
/// supernatural one ignore it.
#[test]
fn cover_between_a_shooter_and_the_target_eases_the_evasion_of_ranged_attacks_only() {
    let cover_at = |x, y| {
        S::Gm(
            "rule.terrain",
            vec![
                (
                    "cell",
                    crate::action::ArgValue::Cell(crate::grid::Cell::new(x, y)),
                ),
                ("cover", t("cover")),
            ],
            &[],
        )
    };
    let shoot = |target: &'static str, faces: &'static [u32]| {
        S::Act(
            "aune",
            "attack",
            vec![("target", t(target)), ("weapon", t("pistol"))],
            faces,
        )
    };
    struct Case {
        name: &'static str,
        cover: bool,
        options: &'static [(&'static str, &'static str)],
        step: fn() -> S,
        condition: (&'static str, i64),
    }
    let cases = [
        // 10 + COR 3 = 13 reaches the goblin's 12: 2d4 = 1 + 1.
        Case {
            name: "in the open",
            cover: false,
            options: &[],
            step: || {
                S::Act(
                    "aune",
                    "attack",
                    vec![("target", t("goblin-1")), ("weapon", t("pistol"))],
                    &[10, 1, 1],
                )
            },
            condition: ("goblin-1", 8),
        },
        // Behind cover, 13 - 2 = 11 misses it.
        Case {
            name: "behind cover",
            cover: true,
            options: &[],
            step: || {
                S::Act(
                    "aune",
                    "attack",
                    vec![("target", t("goblin-1")), ("weapon", t("pistol"))],
                    &[10],
                )
            },
            condition: ("goblin-1", 10),
        },
        // 12 + 3 - 2 = 13 still hits.
        Case {
            name: "behind cover, a better shot",
            cover: true,
            options: &[],
            step: || {
                S::Act(
                    "aune",
                    "attack",
                    vec![("target", t("goblin-1")), ("weapon", t("pistol"))],
                    &[11, 1, 1],
                )
            },
            condition: ("goblin-1", 8),
        },
        // The table's bonus of 4: 12 + 3 - 4 = 11 misses.
        Case {
            name: "deep cover",
            cover: true,
            options: &[("grimwire.cover_bonus", "4")],
            step: || {
                S::Act(
                    "aune",
                    "attack",
                    vec![("target", t("goblin-1")), ("weapon", t("pistol"))],
                    &[12],
                )
            },
            condition: ("goblin-1", 10),
        },
        // The knife ignores it: 9 + 3 = 12 hits, 2 + TOG 2 = 4.
        Case {
            name: "a blade behind cover",
            cover: true,
            options: &[],
            step: || {
                S::Act(
                    "aune",
                    "attack",
                    vec![("target", t("goblin-1")), ("weapon", t("knife"))],
                    &[9, 2],
                )
            },
            condition: ("goblin-1", 6),
        },
    ];
    for c in cases {
        let mut steps = start();
        if c.cover {
            steps.push(cover_at(1, 0));
        }
        steps.extend([
            (c.step)(),
            S::Res(c.condition.0, "condition", c.condition.1),
        ]);
        if c.cover && c.name != "a blade behind cover" {
            steps.push(S::Said("goblin-1: cover"));
        }
        play(c.name, c.options, steps);
    }

    // Mara, a PC, evades with the +2 herself: 10 + AGL 2 + 2 = 14 beats 10 + 3 = 13. The cover
    // stands at (3, 0), between Aune at (0, 0) and Mara at (4, 0), and the goblin moves away.
    let mut steps = start();
    steps.extend([
        S::Place("goblin-1", 0, 6),
        cover_at(3, 0),
        shoot("mara", &[10, 10]),
        S::Res("mara", "condition", 14),
    ]);
    play("a PC behind cover", &[], steps);
    // In the open her 12 loses to 13: 2d4 = 2 + 2, less her armour 1.
    let mut steps = start();
    steps.extend([
        S::Place("goblin-1", 0, 6),
        shoot("mara", &[10, 10, 2, 2]),
        S::Res("mara", "condition", 11),
    ]);
    play("a PC in the open", &[], steps);

    // Off the grid only the GM says so.
    let mut steps = start();
    steps.push(S::Refused(
        "aune",
        "attack",
        vec![
            ("target", t("goblin-1")),
            ("weapon", t("pistol")),
            ("cover", crate::action::ArgValue::Flag(true)),
        ],
        "forbidden",
    ));
    play("cover is the GM's to say", &[], steps);
}

/// Cover counts against a supernatural attack not at all, and on a PC's evasion of an NPC's
/// shot as +2: a goblin with a sling (1d4) shoots Aune behind a cover cell.
#[test]
fn cover_ignores_supernatural_attacks_and_helps_a_pc_evade_an_npcs_shot() {
    let cover_at = |x, y| {
        S::Gm(
            "rule.terrain",
            vec![
                (
                    "cell",
                    crate::action::ArgValue::Cell(crate::grid::Cell::new(x, y)),
                ),
                ("cover", t("cover")),
            ],
            &[],
        )
    };
    // Mara's hex bolt: RSN 3 + 9 = 12 reaches the goblin's 12 through the cover; 1d8 = 4.
    let mut steps = start();
    steps.extend([
        cover_at(3, 0),
        end("aune"),
        end("goblin-1"),
        S::Act(
            "mara",
            "attack",
            vec![("target", t("goblin-1")), ("weapon", t("hex-bolt"))],
            &[9, 4],
        ),
        S::Res("goblin-1", "condition", 6),
    ]);
    play("a hex bolt through cover", &[], steps);

    let slinger = || {
        let mut cast = super::scenes::cast();
        let goblin = format!(
            "{}\n[[weapons]]\nid = \"sling\"\nname = \"Sling\"\nclass = \"ranged\"\ndamage = \"1d4\"\nrange_m = 18\n",
            include_str!("../../../../docs/examples/grimwire/goblin-1.toml")
        );
        cast[1] = sheet(&goblin);
        cast
    };
    let shot = |cover: bool, faces: &'static [u32], after: i64| {
        let mut steps = start();
        if cover {
            steps.push(cover_at(1, 0));
        }
        steps.extend([
            end("aune"),
            S::Act(
                "goblin-1",
                "attack",
                vec![("target", t("aune")), ("weapon", t("sling"))],
                faces,
            ),
            S::Res("aune", "condition", after),
        ]);
        steps
    };
    // 7 + AGL 3 + 2 = 12 reaches its attack TN 11 behind cover; in the open 10 does not, and
    // the sling's 1d4 = 3 lands.
    play_cast("a shot at cover", slinger(), shot(true, &[7], 12));
    play_cast("a shot in the open", slinger(), shot(false, &[7, 3], 9));
}

/// A ranged attack's natural 1 strays into the 30° cone from the shooter through the target
/// (15° either side of the line), at any distance; a melee one into 3 m around the target.
#[test]
fn a_ranged_stray_lands_in_the_cone_behind_the_target_and_nowhere_else() {
    let opts: &[(&str, &str)] = &[
        ("grimwire.collateral", "always"),
        ("grimwire.collateral_pool", "without_target"),
    ];
    let shot = |mara: (i32, i32)| {
        vec![
            S::Place("aune", 0, 0),
            S::Place("goblin-1", 6, 0),
            S::Place("mara", mara.0, mara.1),
            S::Start(&[10, 5, 2]),
            S::Act(
                "aune",
                "attack",
                vec![("target", t("goblin-1")), ("weapon", t("pistol"))],
                &[1],
            ),
        ]
    };
    // Mara at (9, 1), 6° off the line: in the cone, though 3 m beyond the goblin.
    let mut steps = shot((9, 1));
    steps.push(S::Asked("Your stray attack may hit mara"));
    play("in the cone", opts, steps);
    // At (9, 3), 18° off: out of it.
    let mut steps = shot((9, 3));
    steps.extend([
        S::Prompt(false),
        S::Said("no one else is in its way: the stray attack at goblin-1 hits no one"),
    ]);
    play("beside the cone", opts, steps);
    // Behind the shooter, at (-3, 0): out of it.
    let mut steps = shot((-3, 0));
    steps.push(S::Prompt(false));
    play("behind the shooter", opts, steps);
}

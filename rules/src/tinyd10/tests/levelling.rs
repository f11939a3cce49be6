//! Levelling in play, as scenes on the shared runner: the GM awards experience, a character
//! who reaches the next level's threshold advances between fights with that level's choices,
//! and its numbers rise as a sheet written at that level would have them.
//!
//! The warrior is the `pc` shape, a human: power 2, reflex 1, aspect 1 (human), HP 5 + 2
//! (warrior) = 7, PP 5 + 1 (warrior) = 6, T 7; its sheet says it is at 3 HP.

use serde_json::{Value, json};

use crate::action::ArgValue;
use crate::testing::scene::{Played, S, Scene};

use super::scenes::{goblin, n, play, t};
use super::{pc, with};

fn warrior() -> Value {
    with(pc("warrior", "human"), |v| {
        v["owner"] = json!("p1");
        v["hp"] = json!(3);
        v["weapons"] = json!(["greatsword"]);
    })
}

/// Whether `p1`'s catalogue offers `level_up` for `who` now.
fn offered(who: &'static str, yes: bool) -> S {
    S::Check(Box::new(move |p: &Played<'_>| {
        let seat = crate::ids::Seat::Player("p1".into());
        let found = crate::system::RuleSystem::actions(&super::super::TinyD10, p.state, &seat)
            .iter()
            .any(|a| a.name == "level_up" && a.actor.as_ref().is_some_and(|x| x.0 == who));
        assert_eq!(found, yes, "{}: level_up offered for {who}", p.at);
    }))
}

/// The warrior's sheet as the table now holds it.
fn sheet_says(check: fn(&super::super::Sheet)) -> S {
    sheet_of_says("warrior", check)
}

/// `who`'s sheet as the table now holds it.
fn sheet_of_says(who: &'static str, check: fn(&super::super::Sheet)) -> S {
    S::Check(Box::new(move |p: &Played<'_>| {
        let c = crate::state::StateView::combatant(p.state, &who.into()).expect(who);
        check(
            c.sheet
                .typed::<super::super::Sheet>("tinyd10")
                .expect("sheet"),
        );
    }))
}

fn level_two_choices() -> Vec<(&'static str, ArgValue)> {
    vec![
        ("attribute", t("power")),
        ("points", t("pp")),
        ("extra", t("toughness")),
        ("ability", t("weapon_proficiency")),
        ("skill", t("listen")),
        ("proficiency", t("sword")),
        ("proficiency_bonus", t("damage")),
    ]
}

#[test]
fn the_gm_awards_experience_and_a_warrior_advances_to_level_2_between_fights() {
    play(Scene {
        name: "levelling",
        options: &[],
        cast: vec![warrior(), goblin("g1", 0)],
        steps: vec![
            S::Res("warrior", "xp", 0),
            offered("warrior", false),
            S::Gm(
                "award_xp",
                vec![
                    ("target", t("warrior")),
                    ("xp", n(30)),
                    ("what", t("routing the goblins")),
                ],
                &[],
            ),
            S::Res("warrior", "xp", 30),
            S::Said(
                "the GM awards 30 XP to warrior for routing the goblins: 30 XP of the 50 level 2 needs",
            ),
            // 30 of 50: not yet.
            S::Refused(
                "warrior",
                "level_up",
                level_two_choices(),
                "insufficient_resource: XP for level 2",
            ),
            S::Gm(
                "award_xp",
                vec![("target", t("warrior")), ("xp", n(25))],
                &[],
            ),
            // 30 + 25 = 55 >= 50.
            S::Said("the GM awards 25 XP to warrior: 55 XP, enough for level 2"),
            offered("warrior", true),
            // Level 2 offers toughness or spells, never HP: the choice is named.
            S::Refused(
                "warrior",
                "level_up",
                vec![
                    ("attribute", t("power")),
                    ("points", t("pp")),
                    ("extra", t("hp")),
                    ("ability", t("weapon_proficiency")),
                    ("skill", t("listen")),
                    ("proficiency", t("sword")),
                ],
                "bad_request: argument `extra`",
            ),
            // Only magic-users take magic points.
            S::Refused(
                "warrior",
                "level_up",
                vec![
                    ("attribute", t("power")),
                    ("points", t("mp")),
                    ("extra", t("toughness")),
                    ("ability", t("weapon_proficiency")),
                    ("skill", t("listen")),
                    ("proficiency", t("sword")),
                ],
                "bad_request: argument `points`",
            ),
            // A level brings one ability: none named is refused.
            S::Refused(
                "warrior",
                "level_up",
                vec![
                    ("attribute", t("power")),
                    ("points", t("pp")),
                    ("extra", t("toughness")),
                    ("skill", t("listen")),
                ],
                "bad_request: ability",
            ),
            // Weapon proficiency without its weapon type.
            S::Refused(
                "warrior",
                "level_up",
                vec![
                    ("attribute", t("power")),
                    ("points", t("pp")),
                    ("extra", t("toughness")),
                    ("ability", t("weapon_proficiency")),
                    ("skill", t("listen")),
                ],
                "bad_request: proficiency",
            ),
            // A weapon type is one lowercase word: refused naming the sheet's own field.
            S::Refused(
                "warrior",
                "level_up",
                vec![
                    ("attribute", t("power")),
                    ("points", t("pp")),
                    ("extra", t("toughness")),
                    ("ability", t("weapon_proficiency")),
                    ("skill", t("listen")),
                    ("proficiency", t("Long Sword")),
                ],
                "bad_request: proficiency.weapon",
            ),
            S::Act("warrior", "level_up", level_two_choices(), &[]),
            // Power 2 + 1 = 3; HP max 7 + 2 = 9 and the current 3 + 2 = 5; PP 6 + 2 = 8 (full
            // before, full after); T 7 + 1 = 8. All 55 XP are spent: the text starts it anew.
            S::Said(
                "warrior advances to level 2: power +1, HP +2 to 9, PP +2 to 8, toughness +1 to 8, the ability weapon_proficiency, the skill listen; XP starts again at 0",
            ),
            S::Res("warrior", "hp", 5),
            S::Res("warrior", "pp", 8),
            S::Res("warrior", "xp", 0),
            offered("warrior", false),
            sheet_says(|s| {
                assert_eq!(s.level, 2);
                assert_eq!(s.xp, 0);
                assert_eq!(s.advance.len(), 1);
                assert_eq!(s.advance[0].ability.as_deref(), Some("weapon_proficiency"));
                assert_eq!(
                    s.proficiency.as_ref().map(|p| p.weapon.as_str()),
                    Some("sword")
                );
                assert_eq!(
                    s.proficiency.as_ref().map(|p| p.bonus),
                    Some(super::super::sheet::ProficiencyBonus::Damage)
                );
            }),
            // The weapon type goes with its ability: named with another, refused.
            S::Gm(
                "award_xp",
                vec![("target", t("warrior")), ("xp", n(100))],
                &[],
            ),
            S::Refused(
                "warrior",
                "level_up",
                vec![
                    ("attribute", t("power")),
                    ("points", t("pp")),
                    ("extra", t("hp")),
                    ("ability", t("power_strike")),
                    ("skill", t("spot")),
                    ("proficiency", t("axe")),
                ],
                "bad_request: proficiency",
            ),
            rewritten_by_hand(),
            // A skill it has already is refused naming the argument that brought it.
            S::Refused(
                "warrior",
                "level_up",
                vec![
                    ("attribute", t("power")),
                    ("points", t("pp")),
                    ("extra", t("hp")),
                    ("ability", t("disarm")),
                    ("skill", t("spot")),
                ],
                "bad_request: argument `skill`",
            ),
            // Even with XP the GM gave it by ruling, an NPC does not level up: its sheet
            // states its numbers.
            S::Gm(
                "rule.set-resource",
                vec![("target", t("g1")), ("resource", t("xp")), ("value", n(60))],
                &[],
            ),
            S::RefusedFrom(
                "gm",
                "g1",
                "level_up",
                vec![("attribute", t("power"))],
                "rule: not a player character",
            ),
            // An NPC gains no experience; a player does not award it.
            S::GmRefused(
                "award_xp",
                vec![("target", t("g1")), ("xp", n(5))],
                "rule: not a player character",
            ),
            S::Refused(
                "warrior",
                "award_xp",
                vec![("target", t("warrior")), ("xp", n(50))],
                "forbidden",
            ),
            S::Gm(
                "award_xp",
                vec![("target", t("warrior")), ("xp", n(5))],
                &[],
            ),
            S::Said("the GM awards 5 XP to warrior: 105 XP, enough for level 3"),
            // In a fight, advancing waits.
            S::Start(&[]),
            S::Refused(
                "warrior",
                "level_up",
                vec![
                    ("attribute", t("power")),
                    ("points", t("pp")),
                    ("extra", t("hp")),
                    ("ability", t("power_strike")),
                    ("skill", t("spot")),
                ],
                "encounter_running",
            ),
        ],
    });
}

/// A level taken in play is not rewritten by the player's own sheet: sending the level 1 sheet
/// again, or the level 2 sheet with other choices, is refused for her seat and allowed for the
/// GM; the sheet as the table holds it passes.
fn rewritten_by_hand() -> S {
    S::Check(Box::new(|p: &Played<'_>| {
        use crate::ids::Seat;
        let held = crate::state::StateView::combatant(p.state, &"warrior".into()).expect("warrior");
        let sheet = |v: Value| crate::tinyd10::sheet::from_json(&v).expect("sheet");
        let other_choices = with(
            serde_json::to_value(held.sheet.document()).expect("json"),
            |v| {
                v["advance"][0]["extra"] = json!("toughness");
                v["advance"][0]["attribute"] = json!("reflex");
            },
        );
        let player = Seat::Player("p1".into());
        let tiny = &super::super::TinyD10;
        let allowed = |c: &crate::state::Combatant, by: &Seat| {
            crate::roster::edit_allowed(tiny, p.state, c, by).map_err(|r| r.code())
        };
        assert_eq!(
            allowed(&sheet(warrior()), &player),
            Err("forbidden"),
            "{}",
            p.at
        );
        assert_eq!(
            allowed(&sheet(other_choices), &player),
            Err("forbidden"),
            "{}",
            p.at
        );
        assert_eq!(allowed(&sheet(warrior()), &Seat::Gm), Ok(()), "{}", p.at);
        assert_eq!(allowed(held, &player), Ok(()), "{}", p.at);
    }))
}

/// The XP each level needs, and the top: (level, xp held, ready to advance).
#[test]
fn a_level_needs_its_threshold_and_level_5_is_the_last() {
    let cases = [
        (1, 49, false),
        (1, 50, true),
        (2, 99, false),
        (2, 100, true),
        (3, 199, false),
        (3, 200, true),
        (4, 399, false),
        (4, 400, true),
        (5, 5000, false),
    ];
    for (level, xp, ready) in cases {
        let mut c = crate::tinyd10::sheet::from_json(&with(pc("wizard", "elf"), |v| {
            v["level"] = json!(1);
        }))
        .expect("sheet");
        c.resources.insert("xp".into(), xp);
        let mut stats = crate::tinyd10::stats_of(&c).expect("stats");
        stats.level = level;
        assert_eq!(
            crate::tinyd10::levelling::ready(&c, &stats),
            ready,
            "level {level} with {xp} XP"
        );
    }
}

/// A caster's level 2 may bring two spells, named in one comma-separated argument (spaces and
/// empty entries between commas are nothing).
#[test]
fn a_wizard_learns_the_spells_its_level_brings() {
    play(Scene {
        name: "a wizard's new spells",
        options: &[],
        cast: vec![with(pc("wizard", "human"), |v| v["owner"] = json!("p1"))],
        steps: vec![
            S::Gm(
                "award_xp",
                vec![("target", t("wizard")), ("xp", n(50))],
                &[],
            ),
            S::Act(
                "wizard",
                "level_up",
                vec![
                    ("attribute", t("intellect")),
                    ("points", t("mp")),
                    ("extra", t("spells")),
                    ("ability", t("arcane_knowledge")),
                    ("skill", t("listen")),
                    ("spells", t("dumbstruck, ,mage_armour")),
                ],
                &[],
            ),
            sheet_of_says("wizard", |s| {
                assert_eq!(
                    s.spells,
                    [
                        "fireball_1",
                        "magic_missile_1",
                        "heal",
                        "dumbstruck",
                        "mage_armour"
                    ]
                );
            }),
        ],
    });
}

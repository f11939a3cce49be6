//! The edges of the attack and casting rules, where a bonus, a cost or a prompt could be read a
//! little wrong without any fight above noticing: which attacks Brawl and Raised by the sword
//! add to, what an attack's power points must cover before any roll, what the questions a hit
//! and a miss open ask and keep, what a Defensive rush is a challenge of, and what a spell's
//! cost, save and Magical disruption come to. Heroes are built as in `abilities`.

use serde_json::{Value, json};

use crate::action::ArgValue;
use crate::state::StateView;
use crate::testing::scene::{Played, S, Scene};

use super::abilities::hero;
use super::scenes::{aldric, brenna, goblin, n, play, t};
use super::{pc, with};

fn yes() -> ArgValue {
    ArgValue::Flag(true)
}

/// An NPC of `tags`, T5, 10 HP, power 1, with a rusty blade.
fn foe(id: &str, reflex: i64, tags: Value) -> Value {
    with(goblin(id, reflex), |v| {
        v["tags"] = tags;
        v["stats"]["hp_max"] = json!(10);
    })
}

fn hit(who: &'static str, target: &'static str, weapon: &'static str, faces: &'static [u32]) -> S {
    S::Act(
        who,
        "attack",
        vec![("target", t(target)), ("weapon", t(weapon))],
        faces,
    )
}

fn end(who: &'static str) -> S {
    S::Act(who, "end_turn", vec![], &[])
}

/// The open prompt's default answer and its timeout, the table's.
pub(super) fn prompt_defaults_to(default: &'static str) -> S {
    S::Check(Box::new(move |p: &Played<'_>| {
        let step = p.state.encounter().pending.last().expect(p.at);
        assert_eq!(step.default, default, "{}", p.at);
        assert_eq!(
            step.timeout_ms,
            p.state.options().decision_timeout_ms(),
            "{}",
            p.at
        );
    }))
}

#[test]
fn brawl_adds_to_bare_hands_and_raised_by_the_sword_against_sword_bearers_only() {
    play(Scene {
        name: "attack bonuses",
        options: &[],
        cast: vec![
            // Power 3 each, a flail; one with Brawl, one Raised by the sword.
            hero("warrior", "human", "power", "brawl", &["flail"]),
            with(
                hero(
                    "warrior",
                    "human",
                    "power",
                    "raised_by_the_sword",
                    &["flail"],
                ),
                |v| v["id"] = json!("sworn"),
            ),
            brenna(),
            foe("g1", -1, json!(["goblin", "evil"])),
            foe("swordsman", -2, json!(["sword"])),
        ],
        steps: vec![
            // Three at reflex 1, tie-breaks in id order: Brenna 2, Sworn 5, the warrior 8.
            S::Start(&[2, 5, 8]),
            S::Order(&["warrior", "sworn", "brenna", "g1", "swordsman"]),
            // Bare hands with Brawl: 1 + 3 + 2 = 6 reaches T5, 1 damage.
            hit("warrior", "g1", "unarmed", &[1]),
            S::Res("g1", "hp", 9),
            end("warrior"),
            // No sword on the goblin: 1 + 3 = 4 misses.
            hit("sworn", "g1", "flail", &[1]),
            S::Res("g1", "hp", 9),
            end("sworn"),
            // Brenna has neither: bare hands against the swordsman, 2 + 2 = 4 misses.
            hit("brenna", "swordsman", "unarmed", &[2]),
            S::Res("swordsman", "hp", 10),
            end("brenna"),
            end("g1"),
            end("swordsman"),
            // Brawl is not for the flail: 1 + 3 = 4 misses.
            hit("warrior", "g1", "flail", &[1]),
            S::Res("g1", "hp", 9),
            end("warrior"),
            // Against a sword: 1 + 3 + 1 = 5 reaches T5, flail 2.
            hit("sworn", "swordsman", "flail", &[1]),
            S::Res("swordsman", "hp", 8),
        ],
    });
}

#[test]
fn an_attacks_power_points_are_counted_whole_before_any_roll() {
    play(Scene {
        name: "attack costs",
        options: &[],
        // The rogue: PP 5 + 2 = 7, Feint; Brenna: PP 5, Power strike.
        cast: vec![
            with(pc("rogue", "elf"), |v| v["owner"] = json!("p1")),
            brenna(),
            goblin("g1", 0),
            // An NPC may hold both Power strike and Feint.
            json!({
                "id": "duelist", "name": "duelist", "kind": "npc",
                "abilities": ["power_strike", "feint"],
                "stats": {"power": 1, "reflex": -1, "toughness": 5, "hp_max": 3, "pp_max": 5},
                "attacks": [{"id": "rapier", "name": "rapier", "kind": "melee"}]
            }),
        ],
        steps: vec![
            S::Start(&[8, 3]),
            // 2 added, 2 for Power strike and Feint's 2: 6 of 5.
            S::Refused(
                "duelist",
                "attack",
                vec![
                    ("target", t("g1")),
                    ("pp", n(2)),
                    ("power_strike", n(2)),
                    ("feint", yes()),
                ],
                "insufficient_resource: needs 6, has 5",
            ),
            // 6 added and Feint's 2 in case of a miss: 8 of 7.
            S::Refused(
                "rogue",
                "attack",
                vec![("target", t("g1")), ("pp", n(6)), ("feint", yes())],
                "insufficient_resource: needs 8, has 7",
            ),
            // No Power strike to declare.
            S::Refused(
                "rogue",
                "attack",
                vec![("target", t("g1")), ("power_strike", n(1))],
                "rule: does not have power_strike",
            ),
            // 2 added and 4 for Power strike: 6 of 5.
            S::Refused(
                "brenna",
                "attack",
                vec![("target", t("g1")), ("pp", n(2)), ("power_strike", n(4))],
                "insufficient_resource: needs 6, has 5",
            ),
        ],
    });
}

#[test]
fn a_hits_question_and_a_misses_question_keep_the_blow_and_the_tables_timeout() {
    let warrior = with(
        hero("warrior", "human", "power", "explosive_power", &["flail"]),
        |v| v["abilities"] = json!(["defensive_rush", "withstand", "explosive_power"]),
    );
    play(Scene {
        name: "questions",
        options: &[],
        cast: vec![
            with(pc("rogue", "elf"), |v| v["owner"] = json!("p1")),
            warrior,
            goblin("g1", 3),
        ],
        steps: vec![
            // The rogue 2, the warrior 9 at reflex 1.
            S::Start(&[2, 9]),
            S::Order(&["g1", "warrior", "rogue"]),
            // Far apart: no Defensive rush between them.
            S::Place("rogue", 0, 0),
            S::Place("warrior", 20, 0),
            // 8 + 1 hits the rogue's T6.
            hit("g1", "rogue", "rusty_blade", &[8]),
            S::Asked("evade it (1 PP)"),
            prompt_defaults_to("take"),
            S::Answer("take", &[]),
            S::Damage(&[("rusty blade", 1)], 1),
            S::Res("rogue", "hp", 5),
            end("g1"),
            // The warrior misses: 1 + 3 = 4. Its seat is asked, knowing its total only.
            hit("warrior", "g1", "flail", &[1]),
            S::Asked("Explosive power"),
            prompt_defaults_to("keep"),
            S::Answer("keep", &[]),
            end("warrior"),
            end("rogue"),
            // 9 + 1 hits the warrior's T8; withstood for 1 PP: the step shows it.
            hit("g1", "warrior", "rusty_blade", &[9]),
            S::AnswerWith("withstand", vec![("points", n(1))], &[]),
            S::Damage(&[("rusty blade", 1), ("withstand", -1)], 0),
            S::Res("warrior", "pp", 7),
            end("g1"),
            // With no PP left there is nothing to ask.
            S::Gm(
                "rule.set-resource",
                vec![
                    ("target", t("warrior")),
                    ("resource", t("pp")),
                    ("value", n(0)),
                ],
                &[],
            ),
            hit("warrior", "g1", "flail", &[1]),
            S::Prompt(false),
        ],
    });
}

#[test]
fn defensive_rush_is_a_power_challenge_against_a_melee_blow_lethal_or_not() {
    play(Scene {
        name: "rush attribute",
        options: &[],
        cast: vec![brenna(), aldric(), goblin("g1", 2)],
        steps: vec![
            S::Start(&[]),
            // 6 + 1 hits Aldric's T7; Brenna rushes in: power 5 + 2 against 3 + 1.
            hit("g1", "aldric", "rusty_blade", &[6]),
            S::Answer("rush", &[5, 3]),
            S::Said("power challenge: defensive rush"),
            end("g1"),
            end("brenna"),
            end("aldric"),
            // To subdue: a hit (6 + 1) and a power challenge won (goblin 9 + 1 against Aldric
            // 1 + 1), then the rush, a power challenge again (5 + 2 against 3 + 1).
            S::Act(
                "g1",
                "attack",
                vec![
                    ("target", t("aldric")),
                    ("weapon", t("rusty_blade")),
                    ("nonlethal", yes()),
                ],
                &[6, 9, 1],
            ),
            S::Answer("rush", &[5, 3]),
            S::Said("power challenge: defensive rush"),
            S::Res("aldric", "hp", 6),
        ],
    });
}

/// A level 3 human cleric with Inflict wounds: MP 1 + 5 = 6, aspect 1.
fn priest() -> Value {
    with(pc("cleric", "human"), |v| {
        v["id"] = json!("priest");
        v["owner"] = json!("p1");
        v["level"] = json!(3);
        v["advance"] = json!([
            {"attribute": "power", "points": "pp", "extra": "toughness"},
            {"attribute": "power", "points": "pp", "extra": "toughness"}
        ]);
        v["skills"] = json!(["persuade", "spot", "listen", "survival"]);
        v["abilities"] = json!([
            "spell_casting_divine",
            "words_of_healing",
            "wrath",
            "divine_purpose"
        ]);
        v["spells"] = json!(["sword_of_the_spirit", "divine_medicine", "inflict_wounds"]);
    })
}

/// A level 2 human wizard with Magical disruption: intellect 1, MP 3 + 5 = 8, spell save
/// 2 + 1 + 3 = 6.
fn mage() -> Value {
    with(
        hero("wizard", "human", "intellect", "magical_disruption", &[]),
        |v| v["spells"] = json!(["fireball_1", "dumbstruck", "mage_armour"]),
    )
}

#[test]
fn a_spells_cost_target_save_and_disruption_are_read_as_written() {
    play(Scene {
        name: "casting",
        options: &[],
        cast: vec![mage(), priest(), brenna(), foe("g1", 0, json!(["goblin"]))],
        steps: vec![
            // Mage armour's rounds are counted in a fight only. The wizard, the priest and
            // Brenna tie at reflex 1 (Brenna 1, the priest 2, the wizard 3).
            S::Start(&[1, 2, 3]),
            S::Order(&["wizard", "priest", "brenna", "g1"]),
            // Mage armour: 2 MP on oneself, 3 on someone else.
            // Its rounds (1d5 + L) are rolled: 2 + 2.
            S::Act("wizard", "cast", vec![("spell", t("mage_armour"))], &[2]),
            S::Res("wizard", "mp", 6),
            S::Act("wizard", "end_turn", vec![], &[]),
            S::Act("priest", "end_turn", vec![], &[]),
            S::Act("brenna", "end_turn", vec![], &[]),
            S::Act("g1", "end_turn", vec![], &[]),
            S::Act(
                "wizard",
                "cast",
                // On the priest, whom nothing below attacks: its +2 toughness changes nothing.
                vec![("spell", t("mage_armour")), ("target", t("priest"))],
                &[2],
            ),
            S::Res("wizard", "mp", 3),
            // PP add to a roll: a spell that rolls nothing takes none.
            S::Refused(
                "wizard",
                "cast",
                vec![("spell", t("mage_armour")), ("pp", n(1))],
                "bad_request",
            ),
            // The rest out of a fight: no turns to wait for.
            S::Gm("end_encounter", vec![], &[]),
            // Magical disruption guards the wizard's own side, not the goblin: 4 + intellect 1
            // = 5 reaches T5; 1d5 (2) + 1 = 3.
            S::Act(
                "wizard",
                "cast",
                vec![("spell", t("fireball_1")), ("target", t("g1"))],
                &[4, 2],
            ),
            S::Res("g1", "hp", 7),
            // Dumbstruck saved (intellect 6 + 0 reaches the spell save 6): half the duration.
            S::Gm(
                "rule.set-resource",
                vec![
                    ("target", t("wizard")),
                    ("resource", t("mp")),
                    ("value", n(2)),
                ],
                &[],
            ),
            // Dumbstruck's rounds too are counted in a fight only (the same tie-break).
            S::Start(&[1, 2, 3]),
            S::Act(
                "wizard",
                "cast",
                // Then -1d5 (3) intellect, for 1d10 (7) rounds halved down to 3.
                vec![("spell", t("dumbstruck")), ("target", t("g1"))],
                &[6, 3, 7],
            ),
            S::Said("g1 is dumbstruck: -3 intellect for 3 rounds"),
            S::Said("(saved: half the duration)"),
            S::Gm("end_encounter", vec![], &[]),
            // A divine spell is not magic to a dwarf: 8 + aspect 1 + 1 - 1 (the wizard's Magical
            // disruption covers its ally) = 9 reaches Brenna's T9.
            S::Act(
                "priest",
                "cast",
                vec![("spell", t("sword_of_the_spirit")), ("target", t("brenna"))],
                &[8],
            ),
            S::Res("brenna", "hp", 8),
            // Inflict wounds: 1 damage a MP, 1 or 2 of them.
            S::Act(
                "priest",
                "cast",
                vec![
                    ("spell", t("inflict_wounds")),
                    ("target", t("g1")),
                    ("mp", n(1)),
                ],
                &[],
            ),
            S::Res("g1", "hp", 6),
            S::Act(
                "priest",
                "cast",
                vec![
                    ("spell", t("inflict_wounds")),
                    ("target", t("g1")),
                    ("mp", n(2)),
                ],
                &[],
            ),
            S::Res("g1", "hp", 4),
            S::Res("priest", "mp", 2),
        ],
    });
}

#[test]
fn splash_effect_deals_a_spells_damage_to_each_creature_within_10_ft_it_strikes() {
    let fireball = |target: &'static str, faces: &'static [u32]| {
        S::Act(
            "wizard",
            "cast",
            vec![
                ("spell", t("fireball_1")),
                ("target", t(target)),
                ("splash", yes()),
            ],
            faces,
        )
    };
    let goblin10 = |id| foe(id, 0, json!(["goblin"]));
    play(Scene {
        name: "splash-effect",
        options: &[],
        // A level 1 wizard: intellect 0, PP 5, MP 3 + 5 = 8.
        cast: vec![
            with(pc("wizard", "human"), |v| v["owner"] = json!("p1")),
            brenna(),
            goblin10("g1"),
            goblin10("g2"),
            goblin10("g3"),
            goblin10("g4"),
        ],
        // Out of a fight: no turns to wait for.
        steps: vec![
            S::Place("wizard", 4, 10),
            S::Place("g1", 10, 10),
            S::Place("g2", 11, 10),
            S::Place("g3", 12, 10),
            S::Place("g4", 13, 10),
            S::Place("brenna", 10, 12),
            S::Refused(
                "wizard",
                "cast",
                vec![("spell", t("heal")), ("splash", yes())],
                "bad_request",
            ),
            // 5 reaches g1's T5: 1d5 (3) + 1 = 4. Then, by id, those within 10 ft: Brenna (an
            // ally, T9) 2 misses; g2 (5 ft) 6 hits for 4; g3 (10 ft) 4 misses. g4 is 15 ft off.
            fireball("g1", &[5, 3, 2, 6, 4]),
            S::Res("g1", "hp", 6),
            S::Res("g2", "hp", 6),
            S::Res("g3", "hp", 10),
            S::Res("g4", "hp", 10),
            S::Res("brenna", "hp", 10),
            S::Res("wizard", "pp", 4),
            S::Res("wizard", "mp", 6),
            // A miss splashes nothing, and the point is spent with the spell.
            fireball("g3", &[1]),
            S::Res("g2", "hp", 6),
            S::Res("wizard", "pp", 3),
        ],
    });
}

//! Sheets: the shipped examples load in both formats with the totals their comments derive,
//! and each broken choice is refused with the field and the rule named.

use serde_json::{Value, json};

use crate::sheet::SheetError;
use crate::state::Kind;

use super::super::content::Attribute;
use super::super::sheet::{Sheet, from_json, from_toml};
use super::super::{HP, MP, PP, TEMP_HP};
use super::{pc, with};

const EXAMPLES: [(&str, &str); 6] = [
    (
        "brenna",
        include_str!("../../../../docs/examples/tinyd10/brenna.toml"),
    ),
    (
        "aldric",
        include_str!("../../../../docs/examples/tinyd10/aldric.toml"),
    ),
    (
        "torvald",
        include_str!("../../../../docs/examples/tinyd10/torvald.toml"),
    ),
    (
        "goblin",
        include_str!("../../../../docs/examples/tinyd10/goblin.toml"),
    ),
    (
        "goblin-archer",
        include_str!("../../../../docs/examples/tinyd10/goblin-archer.toml"),
    ),
    (
        "skeleton",
        include_str!("../../../../docs/examples/tinyd10/skeleton.toml"),
    ),
];

fn sheet_of(text: &str) -> Sheet {
    toml::from_str(text).unwrap()
}

#[test]
fn the_example_sheets_load_with_the_totals_their_comments_derive() {
    // (id, hp, pp, mp, toughness, spell save)
    let want = [
        ("brenna", 10, 5, 0, 9, None),
        ("aldric", 6, 7, 6, 7, Some(7)),
        ("torvald", 13, 8, 0, 9, None),
        ("goblin", 3, 0, 0, 5, None),
        ("goblin-archer", 2, 0, 0, 4, None),
        ("skeleton", 6, 0, 0, 7, None),
    ];
    for ((id, text), (wid, hp, pp, mp, t, save)) in EXAMPLES.into_iter().zip(want) {
        assert_eq!(id, wid);
        let c = from_toml(text).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(c.id.0, id);
        let stats = sheet_of(text).stats().unwrap();
        assert_eq!(
            (
                c.resource(HP),
                c.resource(PP),
                c.resource(MP),
                c.resource(TEMP_HP)
            ),
            (hp, pp, mp, 0),
            "{id}"
        );
        assert_eq!((stats.toughness, stats.spell_save), (t, save), "{id}");
        let json = serde_json::to_value(sheet_of(text)).unwrap();
        assert_eq!(from_json(&json).unwrap().resources, c.resources, "{id}");
    }
    let pcs = EXAMPLES
        .iter()
        .filter(|(_, t)| from_toml(t).unwrap().kind == Kind::Pc)
        .count();
    assert_eq!(
        (pcs, EXAMPLES.len() - pcs),
        (3, 3),
        "three PCs and three NPCs"
    );
}

#[test]
fn race_bonuses_come_on_top_of_the_three_points() {
    // An elf puts all 3 points in power: intellect 0 + 1 (elf) = 1, power 3; the split still
    // adds to 3, the totals to 4 (rules/tinyd10.md C1).
    let elf = with(pc("rogue", "elf"), |v| {
        v["points"] = json!({"power": 3, "hp": 5, "pp": 5});
        v["skills"] = json!([]);
    });
    let s: Sheet = serde_json::from_value(elf).unwrap();
    let stats = s.stats().unwrap();
    assert_eq!(stats.attribute(Attribute::Intellect), 1);
    assert_eq!(stats.attribute(Attribute::Power), 3);
    // Rogue: HP 5 + 1, PP 5 + 2, T 6.
    assert_eq!((stats.hp_max, stats.pp_max, stats.toughness), (6, 7, 6));
}

#[test]
fn the_magic_point_roll_gives_4_5_or_6_on_top_of_the_class() {
    // Cleric MP = 1 + (faces 1-5: 4, 6-9: 5, 10: 6); wizard 3 + the same.
    for face in 1..=10u32 {
        let band = match face {
            1..=5 => 4,
            6..=9 => 5,
            _ => 6,
        };
        for (class, base) in [("cleric", 1), ("wizard", 3)] {
            let v = with(pc(class, "dwarf"), |v| v["points"]["mp_roll"] = json!(face));
            let c = from_json(&v).unwrap_or_else(|e| panic!("{class} {face}: {e}"));
            assert_eq!(c.resource(MP), base + band, "{class} face {face}");
        }
    }
}

#[test]
fn a_level_three_wizard_is_built_from_its_advances() {
    // Points: intellect 3, hp 6 pp 4, MP roll 10 (+6). Level 2: +1 intellect, +2 MP, 2 spells
    // (+2 HP always). Level 3: +1 reflex, +2 MP, +1 toughness, 1 spell.
    // Intellect 3 + 1 = 4; reflex 1; HP 6 + 2 = 8; PP 4; MP 3 + 6 + 2 + 2 = 13;
    // T 5 + 1 = 6; spells 3 + 2 + 1 = 6; spell save 3 + 4 + 3 = 10. Two abilities past
    // level 1 and two skills (one at each level).
    let v = json!({
        "id": "mira", "name": "Mira", "kind": "pc", "owner": "p1",
        "race": "dwarf", "class": "wizard", "level": 3, "xp": 10,
        "points": {"intellect": 3, "hp": 6, "pp": 4, "mp_roll": 10},
        "advance": [
            {"attribute": "intellect", "points": "mp", "extra": "spells"},
            {"attribute": "reflex", "points": "mp", "extra": "toughness"}
        ],
        "skills": ["craft", "spot", "listen"],
        "abilities": ["prestidigitation", "spell_casting_magical", "splash_effect", "swift", "arcane_knowledge"],
        "spells": ["fireball_1", "magic_missile_1", "heal", "charm", "teleport", "ray_of_death"],
        "weapons": ["dagger"],
        "armour": "mithril"
    });
    let s: Sheet = serde_json::from_value(v).unwrap();
    let stats = s.stats().unwrap();
    // Swift adds +1 reflex on top of the level 3 raise; dwarf +3 HP at level 3; mithril +2 HP +1 T.
    assert_eq!(stats.attribute(Attribute::Intellect), 4);
    assert_eq!(stats.attribute(Attribute::Reflex), 2);
    assert_eq!(stats.hp_max, 6 + 2 + 3 + 2);
    assert_eq!((stats.pp_max, stats.mp_max), (4, 13));
    assert_eq!((stats.toughness, stats.spell_save), (5 + 1 + 1, Some(10)));
}

/// Mira's numbers moved by one choice at a time: a halfling's PP a level in place of a
/// dwarf's HP, War mage's +1 HP, PP and toughness in place of Arcane knowledge.
#[test]
fn race_and_war_mage_move_the_numbers_they_name() {
    let mira = |edit: fn(&mut Value)| {
        let v = with(
            json!({
                "id": "mira", "name": "Mira", "kind": "pc", "owner": "p1",
                "race": "dwarf", "class": "wizard", "level": 3, "xp": 10,
                "points": {"intellect": 3, "hp": 6, "pp": 4, "mp_roll": 10},
                "advance": [
                    {"attribute": "intellect", "points": "mp", "extra": "spells"},
                    {"attribute": "reflex", "points": "mp", "extra": "toughness"}
                ],
                "skills": ["craft", "spot", "listen"],
                "abilities": ["prestidigitation", "spell_casting_magical", "splash_effect", "swift", "arcane_knowledge"],
                "spells": ["fireball_1", "magic_missile_1", "heal", "charm", "teleport", "ray_of_death"],
            }),
            edit,
        );
        let s: Sheet = serde_json::from_value(v).unwrap();
        let st = s.stats().unwrap();
        (st.hp_max, st.pp_max, st.toughness)
    };
    // The dwarf: HP 6 + 2 + 3 (1 a level) = 11, PP 4, T 5 + 1.
    assert_eq!(mira(|_| {}), (11, 4, 6));
    // A halfling: no HP a level, 1 PP a level: HP 8, PP 4 + 3.
    assert_eq!(
        mira(|v| {
            v["race"] = json!("halfling");
            v["skills"] = json!(["hide", "sneak", "spot", "listen"]);
        }),
        (8, 7, 6)
    );
    assert_eq!(
        mira(|v| v["abilities"][4] = json!("war_mage")),
        (11 + 1, 4 + 1, 6 + 1)
    );
}

/// Mira, a level 5 dwarf wizard: spells at level 2, toughness at 3, an attribute at 4, and
/// War mage among her abilities.
fn mira_level_5() -> Value {
    json!({
        "id": "mira", "name": "Mira", "kind": "pc", "owner": "p1",
        "race": "dwarf", "class": "wizard", "level": 5, "xp": 10,
        "points": {"intellect": 3, "hp": 6, "pp": 4, "mp_roll": 10},
        "advance": [
            {"attribute": "intellect", "points": "mp", "extra": "spells"},
            {"attribute": "reflex", "points": "mp", "extra": "toughness"},
            {"attribute": "intellect", "extra": "attribute"},
            {"attribute": "reflex"}
        ],
        "skills": ["craft", "spot", "listen", "persuade"],
        "abilities": ["prestidigitation", "spell_casting_magical", "splash_effect", "swift", "arcane_knowledge", "war_mage"],
        "spells": ["fireball_1", "magic_missile_1", "heal", "charm", "teleport", "ray_of_death"]
    })
}

/// Levels 2 to 4 each bring a class ability; level 5 brings none, and one named there is
/// refused.
#[test]
fn a_level_5_advance_takes_no_ability() {
    let mira = |at: usize| {
        let mut v = mira_level_5();
        v["advance"][at]["ability"] = json!("war_mage");
        v
    };
    let load = |v: Value| serde_json::from_value::<Sheet>(v).unwrap().stats();
    assert!(load(mira(2)).is_ok(), "{:?}", load(mira(2)));
    match load(mira(3)) {
        Err(SheetError::Invalid { field, .. }) => assert_eq!(field, "advance[3].ability"),
        other => panic!("expected advance[3].ability refused, got {other:?}"),
    }
}

/// At least 1 HP: 0 from the split is allowed when the class, race or armour give one.
#[test]
fn a_character_with_no_hp_points_needs_one_from_elsewhere() {
    let wizard = |race: &str| {
        with(pc("wizard", race), |v| {
            v["points"]["hp"] = json!(0);
            v["points"]["pp"] = json!(10);
            if race == "dwarf" {
                v["skills"] = json!(["craft"]);
            }
        })
    };
    // A dwarf wizard: 0 + 0 + 1 (dwarf, level 1) = 1.
    let c = from_json(&wizard("dwarf")).unwrap();
    assert_eq!(c.resource(HP), 1);
    match from_json(&wizard("human")) {
        Err(SheetError::Invalid { field, .. }) => assert_eq!(field, "points.hp"),
        other => panic!("expected points.hp refused, got {other:?}"),
    }
}

/// A broken sheet: what is changed, and the field and a piece of the rule the error names.
type Case = (&'static str, fn(&mut Value), &'static str, &'static str);

#[test]
fn broken_sheets_are_refused_naming_the_field_and_the_rule() {
    let cases: [Case; 32] = [
        (
            "unknown race",
            |v| v["race"] = json!("orc"),
            "race",
            "not a race",
        ),
        (
            "no class",
            |v| v["class"] = Value::Null,
            "class",
            "has a class",
        ),
        (
            "points over 3",
            |v| v["points"]["reflex"] = json!(2),
            "points",
            "add up to 3",
        ),
        (
            "negative point",
            |v| {
                v["points"]["power"] = json!(-1);
                v["points"]["reflex"] = json!(4);
            },
            "points.power",
            "none negative",
        ),
        (
            "hp+pp not 10",
            |v| v["points"]["hp"] = json!(6),
            "points",
            "add up to 10",
        ),
        (
            "mp roll missing",
            |v| {
                v["points"]
                    .as_object_mut()
                    .unwrap()
                    .remove("mp_roll")
                    .map(drop)
                    .unwrap_or(())
            },
            "points.mp_roll",
            "rolls 1d10",
        ),
        (
            "mp roll 11",
            |v| v["points"]["mp_roll"] = json!(11),
            "points.mp_roll",
            "1 to 10",
        ),
        (
            "warrior rolls mp",
            |v| {
                v["class"] = json!("warrior");
                v["abilities"] = json!(["defensive_rush", "withstand"]);
                v["spells"] = json!([]);
            },
            "points.mp_roll",
            "only magic-users",
        ),
        (
            "race skill missing",
            |v| v["skills"] = json!([]),
            "skills",
            "has the craft skill",
        ),
        (
            "extra skill at level 1",
            |v| v["skills"] = json!(["craft", "spot"]),
            "skills",
            "0 skill(s)",
        ),
        (
            "unknown skill",
            |v| v["skills"] = json!(["craft", "juggling"]),
            "skills[1]",
            "no skill",
        ),
        (
            "both words",
            |v| {
                v["abilities"] = json!([
                    "spell_casting_divine",
                    "words_of_healing",
                    "words_of_strength"
                ])
            },
            "abilities",
            "exactly one of",
        ),
        (
            "start ability missing",
            |v| v["abilities"] = json!(["words_of_healing"]),
            "abilities",
            "starts with spell_casting_divine",
        ),
        (
            "another class's ability",
            |v| v["abilities"] = json!(["spell_casting_divine", "words_of_healing", "evade"]),
            "abilities[2]",
            "rogue ability",
        ),
        (
            "later ability at level 1",
            |v| v["abilities"] = json!(["spell_casting_divine", "words_of_healing", "smite"]),
            "abilities",
            "past level 1",
        ),
        (
            "three spells",
            |v| v["spells"] = json!(["burning_touch", "clearsight", "deathwatch"]),
            "spells",
            "at most 2",
        ),
        (
            "magical spell for a cleric",
            |v| v["spells"] = json!(["fireball_1"]),
            "spells[0]",
            "casts divine",
        ),
        (
            "advanced at level 1",
            |v| v["spells"] = json!(["sunburst"]),
            "spells[0]",
            "level 3",
        ),
        (
            "heavy weapon for a cleric",
            |v| v["weapons"] = json!(["greatsword"]),
            "weapons[0]",
            "middleweight weapons and lighter",
        ),
        (
            "heavy armour for a cleric",
            |v| v["armour"] = json!("platemail"),
            "armour",
            "middleweight armour",
        ),
        (
            "wealth not x10",
            |v| v["wealth"] = json!({"gp": 15, "sp": 10, "cp": 10}),
            "wealth.gp",
            "1d10 x 10",
        ),
        (
            "advance at level 1",
            |v| v["advance"] = json!([{"attribute": "power"}]),
            "advance",
            "one entry for each level",
        ),
        ("hp over max", |v| v["hp"] = json!(99), "hp", "the maximum"),
        (
            "favoured weapon without the ability",
            |v| v["favored_weapon"] = json!("flail"),
            "favored_weapon",
            "only a character with Favored weapon",
        ),
        (
            "proficiency without the ability",
            |v| v["proficiency"] = json!({"weapon": "sword", "bonus": "attack"}),
            "proficiency",
            "only a character with Weapon proficiency",
        ),
        (
            "favored weapon with no type",
            |v| {
                v["level"] = json!(2);
                v["advance"] =
                    json!([{"attribute": "power", "points": "pp", "extra": "toughness"}]);
                v["skills"] = json!(["craft", "spot"]);
                v["abilities"] =
                    json!(["spell_casting_divine", "words_of_healing", "favored_weapon"]);
            },
            "favored_weapon",
            "names the weapon type",
        ),
        (
            "favored weapon type not a word",
            |v| {
                v["level"] = json!(2);
                v["advance"] =
                    json!([{"attribute": "power", "points": "pp", "extra": "toughness"}]);
                v["skills"] = json!(["craft", "spot"]);
                v["abilities"] =
                    json!(["spell_casting_divine", "words_of_healing", "favored_weapon"]);
                v["favored_weapon"] = json!("Great Sword");
            },
            "favored_weapon",
            "one lowercase word",
        ),
        (
            "no owner",
            |v| {
                v.as_object_mut()
                    .unwrap()
                    .remove("owner")
                    .map(drop)
                    .unwrap_or(())
            },
            "owner",
            "names the seat",
        ),
        (
            "stated numbers",
            |v| v["stats"] = json!({"toughness": 9, "hp_max": 9}),
            "stats",
            "come from its choices",
        ),
        (
            "attacks of its own",
            |v| v["attacks"] = json!([{"id": "bite", "name": "bite", "kind": "melee"}]),
            "stats",
            "come from its choices",
        ),
        // Level 1 holds 0 to 49 XP: 50 is level 2's.
        (
            "the next level's XP",
            |v| v["xp"] = json!(50),
            "xp",
            "reaching the next threshold means advancing",
        ),
        (
            "negative XP",
            |v| v["xp"] = json!(-1),
            "xp",
            "XP starts again at 0",
        ),
    ];
    assert!(from_json(&with(pc("cleric", "dwarf"), |v| v["xp"] = json!(49))).is_ok());
    for (name, edit, field, rule) in cases {
        let v = with(pc("cleric", "dwarf"), edit);
        match from_json(&v) {
            Err(SheetError::Invalid { field: f, rule: r }) => {
                assert_eq!(f, field, "{name}: {r}");
                assert!(r.contains(rule), "{name}: `{r}` lacks `{rule}`");
            }
            other => panic!("{name}: expected a refusal of {field}, got {other:?}"),
        }
    }
}

#[test]
fn class_weight_limits_read_only_as_only() {
    // A wizard: lightweight weapons only (a dagger yes, a featherweight-free flail no), and
    // featherweight armour only (mithril yes, light leather no). A rogue: light armour only.
    let cases = [
        ("wizard", "weapons", json!(["dagger"]), true),
        ("wizard", "weapons", json!(["flail"]), false),
        ("wizard", "armour", json!("mithril"), true),
        ("wizard", "armour", json!("light_leather"), false),
        ("rogue", "armour", json!("light_leather"), true),
        ("rogue", "armour", json!("mithril"), false),
        ("rogue", "armour", json!("heavy_leather"), false),
        ("warrior", "weapons", json!(["greatsword", "polearm"]), true),
    ];
    for (class, field, value, ok) in cases {
        let v = with(pc(class, "dwarf"), |v| v[field] = value.clone());
        assert_eq!(
            from_json(&v).is_ok(),
            ok,
            "{class} {field} {value}: {:?}",
            from_json(&v).err()
        );
    }
}

#[test]
fn an_npc_states_its_numbers_and_may_not_use_creation_fields() {
    let npc =
        json!({"id": "orc", "name": "orc", "kind": "npc", "stats": {"toughness": 8, "hp_max": 7}});
    assert!(from_json(&npc).is_ok());
    let caster = |level: i64, spell: &str| {
        with(npc.clone(), |v| {
            v["level"] = json!(level);
            v["stats"]["casting"] = json!("magical");
            v["stats"]["mp_max"] = json!(10);
            v["spells"] = json!([spell]);
        })
    };
    let attack = |id: &str| json!({"id": id, "name": "a blow", "kind": "melee"});
    // Each case breaks one thing: the field the refusal names.
    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "no stats",
            json!({"id": "orc", "name": "orc", "kind": "npc"}),
            "stats",
        ),
        (
            "creation points",
            with(npc.clone(), |v| {
                v["points"] = json!({"power": 2, "reflex": 1, "hp": 5, "pp": 5})
            }),
            "points",
        ),
        (
            "a level's advance",
            with(npc.clone(), |v| {
                v["advance"] = json!([{"attribute": "power", "points": "pp", "extra": "hp"}]);
            }),
            "points",
        ),
        (
            "a race",
            with(npc.clone(), |v| v["race"] = json!("human")),
            "race",
        ),
        (
            "a class",
            with(npc.clone(), |v| v["class"] = json!("warrior")),
            "race",
        ),
        (
            "an advanced spell below level 3",
            caster(2, "fireball_2"),
            "spells[0]",
        ),
        (
            "an attack with no id",
            with(npc.clone(), |v| v["attacks"] = json!([attack(" ")])),
            "attacks[0].id",
        ),
        (
            "two attacks of one id",
            with(npc.clone(), |v| {
                v["attacks"] = json!([attack("bite"), attack("bite")]);
            }),
            "attacks[1].id",
        ),
        (
            "an attack named unarmed",
            with(npc.clone(), |v| v["attacks"] = json!([attack("unarmed")])),
            "attacks[0].id",
        ),
    ];
    for (name, sheet, field) in cases {
        match from_json(&sheet) {
            Err(SheetError::Invalid { field: got, .. }) => assert_eq!(got, field, "{name}"),
            other => panic!("{name}: expected `{field}` refused, got {other:?}"),
        }
    }
    // At level 3 the advanced spell is known.
    assert!(from_json(&caster(3, "fireball_2")).is_ok());
}

#[test]
fn prodigious_casting_adds_1_mp_a_level_from_the_one_it_was_taken_at() {
    // Mira at level 3 has 13 MP (see the level three wizard); Prodigious casting in place of
    // Arcane knowledge adds one for the level it was taken at and one for each since.
    let mira = |at: Option<usize>| {
        let mut v = json!({
            "id": "mira", "name": "Mira", "kind": "pc", "owner": "p1",
            "race": "dwarf", "class": "wizard", "level": 3,
            "points": {"intellect": 3, "hp": 6, "pp": 4, "mp_roll": 10},
            "advance": [
                {"attribute": "intellect", "points": "mp", "extra": "spells"},
                {"attribute": "reflex", "points": "mp", "extra": "toughness"}
            ],
            "skills": ["craft", "spot", "listen"],
            "abilities": ["prestidigitation", "spell_casting_magical", "splash_effect", "swift", "prodigious_casting"],
            "spells": ["fireball_1", "magic_missile_1", "heal", "charm", "teleport", "ray_of_death"]
        });
        if let Some(i) = at {
            v["advance"][i]["ability"] = json!("prodigious_casting");
        }
        v
    };
    let mp = |v: Value| {
        let s: Sheet = serde_json::from_value(v).unwrap();
        s.stats().map(|st| st.mp_max)
    };
    // Taken at level 2: levels 2 and 3. At level 3: level 3 only.
    assert_eq!(mp(mira(Some(0))).unwrap(), 13 + 2);
    assert_eq!(mp(mira(Some(1))).unwrap(), 13 + 1);
    match mp(mira(None)) {
        Err(SheetError::Invalid { field, rule }) => {
            assert_eq!(field, "advance");
            assert!(rule.contains("the one it was taken at"), "{rule}");
        }
        other => panic!("expected the advance refused, got {other:?}"),
    }
    // A level's ability must be one the sheet lists.
    let wrong = with(mira(Some(0)), |v| {
        v["advance"][1]["ability"] = json!("war_mage")
    });
    match mp(wrong) {
        Err(SheetError::Invalid { field, .. }) => assert_eq!(field, "advance[1].ability"),
        other => panic!("expected advance[1].ability refused, got {other:?}"),
    }
}

/// An NPC's own attack keeps what it is through the sheet the table stores: a bladed claw
/// stays bladed (Bloody slash reads it), a club is not, and the stored sheet says so only
/// for the claw.
#[test]
fn an_npc_attacks_blade_survives_the_stored_sheet() {
    let c = from_json(&json!({
        "id": "wolf", "name": "wolf", "kind": "npc",
        "stats": {"power": 1, "reflex": 1, "toughness": 5, "hp_max": 4},
        "attacks": [
            {"id": "claw", "name": "claw", "kind": "melee", "bladed": true},
            {"id": "club", "name": "club", "kind": "melee"}
        ]
    }))
    .unwrap();
    let stats = super::super::stats_of(&c).unwrap();
    let bladed: Vec<(&str, bool)> = stats
        .attacks
        .iter()
        .map(|a| (a.id.as_str(), a.bladed))
        .collect();
    assert!(bladed.contains(&("claw", true)), "{bladed:?}");
    assert!(bladed.contains(&("club", false)), "{bladed:?}");
    // The document the log keeps: only the claw says it is bladed, and a table rebuilt from
    // the log reads it so.
    let stored = serde_json::to_string(&c.sheet).unwrap();
    assert_eq!(stored.matches("\"bladed\":true").count(), 1, "{stored}");
    assert!(!stored.contains("\"bladed\":false"), "{stored}");
    let reloaded: crate::sheet::Sheet = serde_json::from_str(&stored).unwrap();
    let again = reloaded.typed::<Sheet>("tinyd10").unwrap().stats().unwrap();
    assert!(
        again.attacks.iter().any(|a| a.id == "claw" && a.bladed),
        "{stored}"
    );
}

/// What each level's advance may choose, by class: a case each (the sheet, then the field and
/// a piece of the rule refused, or the toughness, spells and MP it comes to).
#[test]
fn each_levels_advance_gives_what_the_text_lists_and_nothing_else() {
    // A level 4 human warrior (power 2, reflex 1): levels 2 to 4.
    let warrior = |edit: fn(&mut Value)| {
        with(
            with(pc("warrior", "human"), |v| {
                v["level"] = json!(4);
                v["advance"] = json!([
                    {"attribute": "power", "points": "pp", "extra": "toughness"},
                    {"attribute": "power", "points": "pp", "extra": "hp"},
                    {"attribute": "reflex", "extra": "attribute"}
                ]);
                v["abilities"] = json!([
                    "defensive_rush",
                    "power_strike",
                    "disarm",
                    "brawl",
                    "pummel"
                ]);
                v["skills"] = json!(["persuade", "spot", "listen", "craft", "survival"]);
            }),
            edit,
        )
    };
    // Mira, a level 5 dwarf wizard: spells at 2, toughness at 3, an attribute at 4.
    let mira = |edit: fn(&mut Value)| with(mira_level_5(), edit);
    type Want = Result<(i64, usize, i64), (&'static str, &'static str)>;
    let cases: Vec<(&str, Value, Want)> = vec![
        // T 7 (warrior) + 1 (level 2) + 1 (level 4); no spells.
        ("the warrior as built", warrior(|_| {}), Ok((9, 0, 0))),
        (
            "a warrior's MP",
            warrior(|v| v["advance"][0]["points"] = json!("mp")),
            Err(("advance[0].points", "only magic-users take magic points")),
        ),
        (
            "a warrior's spells",
            warrior(|v| v["advance"][0]["extra"] = json!("spells")),
            Err(("advance[0].extra", "level 2 gives +1 toughness")),
        ),
        (
            "a warrior's level 4 spell",
            warrior(|v| v["advance"][2] = json!({"extra": "spell"})),
            Err(("advance[2].extra", "level 4 gives +1 to an attribute")),
        ),
        // Toughness at level 3 too: 7 + 1 + 1 + 1.
        (
            "toughness at 2, 3 and 4",
            warrior(|v| v["advance"][1]["extra"] = json!("toughness")),
            Ok((10, 0, 0)),
        ),
        // T 5 + 1 (level 3) + 1 (level 4) + 1 (War mage); spells 3 + 2 + 1; MP 3 + 6 (a
        // roll of 10) + 2 + 2.
        ("Mira as built", mira(|_| {}), Ok((8, 6, 13))),
        // PP in place of MP at level 2: MP 3 + 6 + 2.
        (
            "PP at level 2",
            mira(|v| v["advance"][0]["points"] = json!("pp")),
            Ok((8, 6, 11)),
        ),
        (
            "a spell at level 4",
            mira(|v| {
                v["advance"][2] = json!({"extra": "spell"});
                v["spells"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!("dumbstruck"));
            }),
            Ok((8, 7, 13)),
        ),
        (
            "level 5's points",
            mira(|v| v["advance"][3]["points"] = json!("pp")),
            Err(("advance[3].extra", "level 5 gives +2 to an attribute")),
        ),
    ];
    for (name, v, want) in cases {
        let got = serde_json::from_value::<Sheet>(v)
            .unwrap()
            .stats()
            .map(|s| (s.toughness, s.spells.len(), s.mp_max));
        match (got, want) {
            (Ok(got), Ok(want)) => assert_eq!(got, want, "{name}"),
            (Err(SheetError::Invalid { field, rule }), Err((f, r))) => {
                assert_eq!(field, f, "{name}: {rule}");
                assert!(rule.contains(r), "{name}: `{rule}` lacks `{r}`");
            }
            (got, want) => panic!("{name}: got {got:?}, want {want:?}"),
        }
    }
}

/// Wealth is rolled at creation: once a character has earned XP or levels, any sum is its own.
/// Experience is a player character's: an NPC carries none.
#[test]
fn only_a_new_characters_wealth_is_the_roll_and_only_a_pc_counts_xp() {
    let coins = |xp: i64| {
        with(pc("cleric", "dwarf"), move |v| {
            v["xp"] = json!(xp);
            v["wealth"] = json!({"gp": 15, "sp": 10, "cp": 10});
        })
    };
    assert!(from_json(&coins(0)).is_err());
    assert!(from_json(&coins(10)).is_ok());
    let pc = from_json(&coins(10)).unwrap();
    assert_eq!(pc.resources.get("xp"), Some(&10));
    let npc = from_json(&json!({
        "id": "orc", "name": "orc", "kind": "npc", "stats": {"toughness": 8, "hp_max": 7}
    }))
    .unwrap();
    assert_eq!(npc.resources.get("xp"), None);
}

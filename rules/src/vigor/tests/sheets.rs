//! Sheets: the shipped examples load in both formats, and each broken field is refused by name.

use serde_json::json;

use crate::sheet::SheetError;
use crate::state::Kind;
use crate::system::RuleSystem;

use super::super::{DURABILITY, VIGOR, Vigor, sheet_of};
use super::{creature, with};

const EXAMPLES: [(&str, &str); 5] = [
    (
        "aune",
        include_str!("../../../../docs/examples/vigor/aune.toml"),
    ),
    (
        "bryn",
        include_str!("../../../../docs/examples/vigor/bryn.toml"),
    ),
    (
        "raider",
        include_str!("../../../../docs/examples/vigor/raider.toml"),
    ),
    (
        "warden",
        include_str!("../../../../docs/examples/vigor/warden.toml"),
    ),
    (
        "wolf",
        include_str!("../../../../docs/examples/vigor/wolf.toml"),
    ),
];

#[test]
fn the_example_sheets_load_from_toml_and_again_from_their_json() {
    for (id, text) in EXAMPLES {
        let c = Vigor
            .sheet_from_toml(text)
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(c.id.0, id);
        let sheet = sheet_of(&c).unwrap();
        // A fresh sheet starts at its maxima.
        assert_eq!(c.resource(VIGOR), sheet.vigor_max, "{id}");
        assert_eq!(c.resource(DURABILITY), sheet.durability_max, "{id}");
        let json = serde_json::to_value(sheet).unwrap();
        let again = Vigor.sheet_from_json(&json).unwrap();
        assert_eq!(again.resources, c.resources, "{id}");
    }
    let pcs = EXAMPLES
        .iter()
        .filter(|(_, t)| Vigor.sheet_from_toml(t).unwrap().kind == Kind::Pc)
        .count();
    assert_eq!(
        (pcs, EXAMPLES.len() - pcs),
        (2, 3),
        "two PCs and three NPCs"
    );
}

#[test]
fn a_sheet_that_breaks_a_limit_is_refused_naming_the_field() {
    let base = || creature("aune", "pc");
    // (edited sheet, field named)
    let cases = [
        (
            with(base(), |v| v["bonus_dice"]["agility"] = json!(-1)),
            "bonus_dice.agility",
        ),
        (
            with(base(), |v| v["abilities"]["stamina"] = json!(-5)),
            "abilities.stamina",
        ),
        (with(base(), |v| v["actions"] = json!(0)), "actions"),
        (with(base(), |v| v["vigor"] = json!(11)), "vigor"),
        (with(base(), |v| v["durability"] = json!(-1)), "durability"),
        (with(base(), |v| v["health_max"] = json!(-1)), "health_max"),
        (
            with(base(), |v| v["guard_bonus"] = json!(-3)),
            "guard_bonus",
        ),
        (
            with(base(), |v| v["weapons"][0]["damage"] = json!(0)),
            "weapons[0].damage",
        ),
        (
            with(base(), |v| v["skills"] = json!({ "medicine": 99 })),
            "skills.medicine",
        ),
        (with(base(), |v| v["id"] = json!("")), "id"),
        (
            with(base(), |v| {
                v["armour"] = json!([{ "name": "mail", "rank": -2 }])
            }),
            "armour[0].rank",
        ),
        (
            with(base(), |v| {
                v["weapons"] = json!([
                    { "id": "a", "name": "a", "damage": 1 },
                    { "id": "a", "name": "b", "damage": 1 }
                ]);
            }),
            "weapons[1].id",
        ),
        (
            with(base(), |v| {
                v["abilities_list"] = json!([{ "id": "x", "name": "x", "weapon": "bow" }]);
            }),
            "abilities_list[0].weapon",
        ),
        (
            with(base(), |v| {
                v["abilities_list"] = json!([{ "id": "x", "name": "x", "actions": 0 }]);
            }),
            "abilities_list[0].actions",
        ),
        (
            with(base(), |v| {
                v["items"] = json!([{ "id": "p", "name": "p", "count": -1 }])
            }),
            "items[0].count",
        ),
    ];
    for (sheet, field) in cases {
        match Vigor.sheet_from_json(&sheet) {
            Err(SheetError::Invalid { field: f, .. }) => assert_eq!(f, field),
            other => panic!("{field}: expected a refusal naming it, got {other:?}"),
        }
    }
    // Words the schema does not know are syntax errors: a size, a quality, a damage type.
    for edit in [
        with(base(), |v| v["size"] = json!("gigantic")),
        with(base(), |v| v["weapons"][0]["quality"] = json!("mythic")),
        with(base(), |v| {
            v["weapons"][0]["damage_type"] = json!("necrotic")
        }),
        with(base(), |v| v["vigour"] = json!(3)),
    ] {
        assert!(matches!(
            Vigor.sheet_from_json(&edit),
            Err(SheetError::Syntax(_))
        ));
    }
}

#[test]
fn a_sheet_written_at_zero_comes_with_the_conditions_its_numbers_mean() {
    // (edit, statuses it must carry)
    let cases: [(serde_json::Value, &[&str]); 3] = [
        (json!({ "durability": 0 }), &["wounded"]),
        (json!({ "vigor": 0 }), &["winded"]),
        (
            json!({ "durability": 0, "health": 0 }),
            &["shock", "unconscious", "wounded"],
        ),
    ];
    for (edit, statuses) in cases {
        let mut v = creature("aune", "pc");
        for (k, val) in edit.as_object().unwrap() {
            v[k] = val.clone();
        }
        let c = Vigor.sheet_from_json(&v).unwrap();
        let got: Vec<&str> = c.statuses.keys().map(String::as_str).collect();
        assert_eq!(got, statuses.to_vec(), "{edit}");
    }
    // Shock counts down from the Stamina score (25 here).
    let v = with(creature("aune", "pc"), |v| {
        v["durability"] = json!(0);
        v["health"] = json!(0);
    });
    let c = Vigor.sheet_from_json(&v).unwrap();
    assert_eq!(c.resource("shock_rounds"), 25);
    assert_eq!(c.statuses["shock"].rounds_left, None);
}

//! Sheets: the shipped examples load in both formats, and each broken field is refused by name.

use serde_json::json;

use crate::sheet::SheetError;
use crate::state::Kind;
use crate::system::RuleSystem;

use super::super::{SPIN, TENACITY, Tenacity, sheet_of};
use super::{character, with};

const EXAMPLES: [(&str, &str); 5] = [
    (
        "missa",
        include_str!("../../../../docs/examples/tenacity/missa.toml"),
    ),
    (
        "aune",
        include_str!("../../../../docs/examples/tenacity/aune.toml"),
    ),
    (
        "pirate",
        include_str!("../../../../docs/examples/tenacity/pirate.toml"),
    ),
    (
        "monkey",
        include_str!("../../../../docs/examples/tenacity/monkey.toml"),
    ),
    (
        "dragon",
        include_str!("../../../../docs/examples/tenacity/dragon.toml"),
    ),
];

#[test]
fn the_example_sheets_load_from_toml_and_again_from_their_json() {
    for (id, text) in EXAMPLES {
        let c = Tenacity
            .sheet_from_toml(text)
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(c.id.0, id);
        let sheet = sheet_of(&c).unwrap();
        assert_eq!(c.resource(TENACITY), sheet.tenacity, "{id}");
        assert_eq!(c.resource(SPIN), sheet.spin, "{id}");
        let json = serde_json::to_value(sheet).unwrap();
        let again = Tenacity.sheet_from_json(&json).unwrap();
        assert_eq!(again.resources, c.resources, "{id}");
    }
    let kinds: Vec<Kind> = EXAMPLES
        .iter()
        .map(|(_, t)| Tenacity.sheet_from_toml(t).unwrap().kind)
        .collect();
    assert_eq!(kinds.iter().filter(|k| **k == Kind::Pc).count(), 2);
    assert_eq!(kinds.iter().filter(|k| **k == Kind::Npc).count(), 3);
    // W6's Missa: pilot rank 1 under Dexterity.
    let missa = Tenacity.sheet_from_toml(EXAMPLES[0].1).unwrap();
    assert_eq!(
        sheet_of(&missa).unwrap().skill("pilot"),
        Some(("dexterity", 2, 1))
    );
}

#[test]
fn a_sheet_breaking_a_rule_is_refused_naming_the_field() {
    type Edit = fn(&mut serde_json::Value);
    // (edit, field named, why)
    let cases: [(Edit, &str, &str); 12] = [
        (
            |v| {
                v["attributes"].as_object_mut().unwrap().remove("craft");
            },
            "attributes",
            "six attributes",
        ),
        (
            |v| v["attributes"]["craft"]["dice"] = json!(0),
            "attributes.craft.dice",
            "at least one hero die",
        ),
        (
            |v| {
                v["attributes"]["craft"]["skills"]
                    .as_object_mut()
                    .unwrap()
                    .remove("cooking");
            },
            "attributes.craft.skills",
            "four skills each",
        ),
        (
            |v| v["attributes"]["craft"]["skills"]["cooking"] = json!(-1),
            "attributes.craft.skills.cooking",
            "no negative rank",
        ),
        (
            |v| {
                let s = v["attributes"]["craft"]["skills"].as_object_mut().unwrap();
                s.remove("cooking");
                s.insert("melee".into(), json!(1));
            },
            "attributes.strength.skills.melee",
            "a skill under one attribute",
        ),
        (|v| v["spin"] = json!(-11), "spin", "never below -10"),
        (|v| v["stress"] = json!(11), "stress", "within the maximum"),
        (
            |v| v["max_stress"] = json!(0),
            "max_stress",
            "a maximum of at least 1",
        ),
        (|v| v["wounds"] = json!(3), "wounds", "within the capacity"),
        (|v| v["size"] = json!(3), "size", "sizes double"),
        (
            |v| v["challenge"] = json!({"dice": 2, "bonus": 4}),
            "challenge.bonus",
            "+1 to +3",
        ),
        (
            |v| v["tenacity"] = json!(-1),
            "tenacity",
            "no negative 10acity",
        ),
    ];
    for (edit, field, why) in cases {
        let v = with(character("x", "npc"), edit);
        match Tenacity.sheet_from_json(&v) {
            Err(SheetError::Invalid { field: f, .. }) => assert!(
                f == field
                    || (field.starts_with("attributes.")
                        && f.starts_with("attributes.")
                        && f.ends_with(".melee")),
                "{why}: named `{f}`, expected `{field}`"
            ),
            other => panic!("{why}: {other:?}"),
        }
    }
    // An unknown field is a schema error, not silently ignored.
    let v = with(character("x", "pc"), |v| v["hp"] = json!(3));
    assert!(matches!(
        Tenacity.sheet_from_json(&v),
        Err(SheetError::Syntax(_))
    ));
}

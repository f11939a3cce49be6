//! Sheets: the shipped examples load in both formats, and each broken field is refused by name.

use serde_json::json;

use crate::sheet::SheetError;
use crate::state::Kind;
use crate::system::RuleSystem;

use super::super::{LIFE, Mist, UNCONSCIOUS, sheet_of};
use super::{creature, with};

const EXAMPLES: [(&str, &str); 5] = [
    (
        "beatrix",
        include_str!("../../../../docs/examples/mist/beatrix.toml"),
    ),
    (
        "markus",
        include_str!("../../../../docs/examples/mist/markus.toml"),
    ),
    (
        "masked-thug",
        include_str!("../../../../docs/examples/mist/masked-thug.toml"),
    ),
    (
        "gunman",
        include_str!("../../../../docs/examples/mist/gunman.toml"),
    ),
    (
        "brute",
        include_str!("../../../../docs/examples/mist/brute.toml"),
    ),
];

#[test]
fn the_example_sheets_load_from_toml_and_again_from_their_json() {
    for (id, text) in EXAMPLES {
        let c = Mist
            .sheet_from_toml(text)
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(c.id.0, id);
        let sheet = sheet_of(&c).unwrap();
        assert_eq!(
            c.resource(LIFE),
            sheet.life_max,
            "{id}: a fresh sheet is at full Life"
        );
        let json = serde_json::to_value(sheet).unwrap();
        let again = Mist.sheet_from_json(&json).unwrap();
        assert_eq!(again.resources, c.resources, "{id}");
    }
    let pcs = EXAMPLES
        .iter()
        .filter(|(_, t)| Mist.sheet_from_toml(t).unwrap().kind == Kind::Pc)
        .count();
    assert_eq!(
        (pcs, EXAMPLES.len() - pcs),
        (2, 3),
        "two PCs and three NPCs"
    );
    // The players' group and the enemies' by default.
    let b = Mist.sheet_from_toml(EXAMPLES[0].1).unwrap();
    assert_eq!(b.side, "players");
}

#[test]
fn a_sheet_that_breaks_a_limit_is_refused_naming_the_field() {
    let base = || creature("beatrix", "pc");
    let w = |v: &mut serde_json::Value, weapon: serde_json::Value| v["weapons"] = json!([weapon]);
    // (edited sheet, field named)
    let cases = [
        (with(base(), |v| v["body"] = json!(-1)), "body"),
        (with(base(), |v| v["evade"] = json!(-2)), "evade"),
        (
            with(base(), |v| v["skills"] = json!({"speed": -1})),
            "skills.speed",
        ),
        (with(base(), |v| v["life_max"] = json!(0)), "life_max"),
        (with(base(), |v| v["life"] = json!(11)), "life"),
        (with(base(), |v| v["actions"] = json!(0)), "actions"),
        (with(base(), |v| v["fatigue"] = json!(-1)), "fatigue"),
        (
            with(base(), |v| {
                v.as_object_mut().unwrap().remove("owner");
            }),
            "owner",
        ),
        (
            with(base(), |v| {
                w(
                    v,
                    json!({"id": "p", "name": "p", "kind": "gun", "damage": "d10", "reload": [1, 1, 1]}),
                )
            }),
            "weapons[0].damage",
        ),
        (
            with(base(), |v| {
                w(
                    v,
                    json!({"id": "p", "name": "p", "kind": "gun", "damage": "2d10h"}),
                )
            }),
            "weapons[0].reload",
        ),
        (
            with(base(), |v| {
                w(
                    v,
                    json!({"id": "k", "name": "k", "kind": "unarmed", "damage": "d10"}),
                )
            }),
            "weapons[0].damage",
        ),
        (
            with(base(), |v| {
                w(v, json!({"id": "s", "name": "s", "reload": [1, 1, 1]}))
            }),
            "weapons[0].reload",
        ),
        (
            with(base(), |v| {
                w(
                    v,
                    json!({"id": "p", "name": "p", "kind": "gun", "damage": "2d10h", "reload": [3, 2, 1], "reload_tier": 4}),
                )
            }),
            "weapons[0].reload_tier",
        ),
        (
            with(base(), |v| {
                w(
                    v,
                    json!({"id": "p", "name": "p", "kind": "gun", "damage": "2d10h", "reload": [3, 2, 1], "reload_tier": 0}),
                )
            }),
            "weapons[0].reload_tier",
        ),
        (
            with(base(), |v| {
                w(v, json!({"id": "s", "name": "s", "reload_tier": 2}))
            }),
            "weapons[0].reload",
        ),
        (
            with(base(), |v| w(v, json!({"id": "fists", "name": "f"}))),
            "weapons[0].id",
        ),
        (
            with(base(), |v| {
                w(
                    v,
                    json!({"id": "k", "name": "k", "kind": "thrown", "traits": ["thrown", "missing"]}),
                )
            }),
            "weapons[0].traits",
        ),
    ];
    for (sheet, field) in cases {
        match Mist.sheet_from_json(&sheet) {
            Err(SheetError::Invalid { field: f, .. }) => assert_eq!(f, field, "{sheet}"),
            other => panic!("{field}: expected a refusal, got {other:?}"),
        }
    }
    // Unknown fields and dice outside the division table are refused while reading.
    for bad in [
        with(base(), |v| v["strength"] = json!(3)),
        with(base(), |v| {
            w(v, json!({"id": "a", "name": "a", "damage": "d10/5"}))
        }),
    ] {
        assert!(
            matches!(Mist.sheet_from_json(&bad), Err(SheetError::Syntax(_))),
            "{bad}"
        );
    }
}

/// Twenty weapons is the most a sheet carries: the twentieth loads, a twenty-first is refused.
#[test]
fn a_sheet_carries_at_most_twenty_weapons() {
    let armed = |n: usize| {
        let weapons: Vec<serde_json::Value> = (0..n)
            .map(|i| json!({"id": format!("w{i}"), "name": format!("weapon {i}"), "damage": "d10"}))
            .collect();
        with(creature("beatrix", "pc"), |v| v["weapons"] = json!(weapons))
    };
    assert!(Mist.sheet_from_json(&armed(20)).is_ok());
    match Mist.sheet_from_json(&armed(21)) {
        Err(SheetError::Invalid { field, .. }) => assert_eq!(field, "weapons"),
        other => panic!("21 weapons: expected a refusal, got {other:?}"),
    }
}

#[test]
fn a_sheet_written_below_0_life_comes_unconscious_with_its_revive_difficulty() {
    // Life -3: the check it failed was 3 + 5 = 8.
    let c = Mist
        .sheet_from_json(&with(creature("markus", "pc"), |v| v["life"] = json!(-3)))
        .unwrap();
    assert_eq!(c.statuses.get(UNCONSCIOUS).map(|s| s.magnitude), Some(8));
    // At 0 Life it made no check: it comes awake.
    let c = Mist
        .sheet_from_json(&with(creature("markus", "pc"), |v| v["life"] = json!(0)))
        .unwrap();
    assert!(!c.statuses.contains_key(UNCONSCIOUS));
}

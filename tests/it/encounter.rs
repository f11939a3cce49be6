//! `tablehold encounter load FILE` against a real server: the shipped example scene's NPCs
//! join from their sheets, its terrain is set and its tokens stand where it says, as the
//! state shows them to the GM; a file with a mistake is refused whole, naming file, line and
//! field, and leaves the table as it was.

use serde_json::Value;
use tablehold_tests::workspace_root;

use crate::cli::Table;

fn position(state: &Value, id: &str) -> Value {
    state["combatants"]
        .as_array()
        .expect("combatants")
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no {id} in {state}"))["position"]
        .clone()
}

#[test]
fn an_encounter_file_sets_up_the_scene_or_says_where_it_is_wrong() {
    let t = Table::new();
    t.seat_everyone(&[]);
    t.add_everyone();
    let example = workspace_root().join("docs/examples/encounters/ambush.toml");
    let example = example.display().to_string();
    let checked = t.ok("gm", &["encounter", "load", &example, "--check"]);
    assert!(
        checked.starts_with("OK: ")
            && checked.ends_with(
                "\"The ambush at the ford\", 12x8 map, 6 terrain cell(s), 3 NPC(s), 5 token(s) \
                 placed\n"
            ),
        "{checked}"
    );

    // A mistake anywhere: nothing is sent.
    let bad = t.file(
        "bad.toml",
        "[map]\nwidth = 4\nheight = 4\n\n[[place]]\nid = \"aune\"\nat = [4, 0]\n",
    );
    let said = t.fails("gm", &["encounter", "load", &bad]);
    assert_eq!(
        said,
        format!(
            "error: {bad}:7: place[0].at: (4, 0) is off the 4x4 map (x from 0 to 3, y from 0 \
             to 3)\n"
        )
    );
    assert_eq!(position(&t.state("gm"), "aune"), Value::Null);

    // The file's goblin-1..3 join; goblin-1 and goblin-2 of `add_everyone` are replaced by the
    // example's sheets of the same ids.
    let out = t.ok("gm", &["encounter", "load", &example]);
    assert!(out.contains("goblin-3 joins the table"), "{out}");
    assert!(out.ends_with("5 token(s) placed\n"), "{out}");
    let state = t.state("gm");
    for (id, x, y) in [
        ("goblin-1", 8, 2),
        ("goblin-2", 8, 4),
        ("goblin-3", 9, 3),
        ("aune", 2, 3),
        ("mara", 2, 4),
    ] {
        assert_eq!(position(&state, id), serde_json::json!([x, y]), "{id}");
    }
    let terrain = state["terrain"].as_array().expect("terrain");
    assert_eq!(terrain.len(), 6, "{terrain:?}");
    assert!(
        terrain.contains(&serde_json::json!({"x": 6, "y": 3, "blocking": true})),
        "{terrain:?}"
    );
    assert!(
        terrain.contains(&serde_json::json!({"x": 5, "y": 5, "cover": "cover"})),
        "{terrain:?}"
    );
}

//! GRIMWIRE's turn-start effects through the real server and the `tablehold` binary: the GM
//! sets Aune burning; her agony is a level of burnout at once; at the start of her next turn
//! the server rolls 2d6 of heat, and the test reads those faces from the log and finds her
//! Condition lower by exactly their sum (she has no armour and no weakness to heat), with the
//! same one level of agony kept, not a second.

use serde_json::Value;

use crate::cli::Table;

fn aune(state: &Value) -> Value {
    state["combatants"]
        .as_array()
        .and_then(|cs| cs.iter().find(|c| c["id"] == "aune"))
        .cloned()
        .unwrap_or_else(|| panic!("no aune in {state}"))
}

fn seat_of(id: &str) -> &'static str {
    match id {
        "aune" => "ines",
        "mara" => "rui",
        _ => "gm",
    }
}

/// The faces of the burn's 2d6, from the GM's log.
fn burn_faces(t: &Table) -> Vec<i64> {
    t.ok("gm", &["log", "--jsonl"])
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("one JSON object per line"))
        .flat_map(|e| e["parts"].as_array().cloned().unwrap_or_default())
        .map(|p| p["fact"].clone())
        .filter(|f| f["fact"] == "rolled" && f["purpose"] == "aune burns (2d6 heat)")
        .flat_map(|f| f["roll"]["dice"].as_array().cloned().unwrap_or_default())
        .map(|d| d["value"].as_i64().expect("a die's value"))
        .collect()
}

#[test]
fn burning_strikes_at_the_start_of_the_turn_with_the_faces_the_log_shows_and_its_agony() {
    let t = Table::new();
    t.seat_everyone(&["decision.timeout_ms=3000", "grimwire.same_side_ties=fixed"]);
    t.add_everyone();
    t.ok("gm", &["encounter", "start"]);
    t.ok(
        "gm",
        &["act", "rule.set-status", "target=aune", "status=burning"],
    );
    let before = aune(&t.state("gm"));
    assert_eq!(before["resources"]["burnout"], 1, "{before}");
    assert!(burn_faces(&t).is_empty(), "nothing burns before her turn");
    let condition = before["resources"]["condition"]
        .as_i64()
        .expect("condition");

    // Turns pass until Aune's next one begins (her current one first, if it is hers).
    let mut started_again = false;
    for _ in 0..8 {
        let s = t.state("gm");
        let current = s["current"].as_str().expect("someone's turn").to_owned();
        t.ok(seat_of(&current), &["act", "end_turn"]);
        if t.state("gm")["current"] == "aune" {
            started_again = true;
            break;
        }
    }
    assert!(started_again, "aune's turn never came back");

    let faces = burn_faces(&t);
    assert_eq!(faces.len(), 2, "one 2d6: {faces:?}");
    assert!(faces.iter().all(|f| (1..=6).contains(f)), "{faces:?}");
    let burned: i64 = faces.iter().sum();
    let after = aune(&t.state("gm"));
    assert_eq!(
        after["resources"]["condition"].as_i64(),
        Some(condition - burned),
        "{faces:?} {after}"
    );
    // The same one level of agony, its minute begun again: not a second level.
    assert_eq!(after["resources"]["burnout"], 1, "{after}");
    let statuses: Vec<&str> = after["statuses"]
        .as_array()
        .expect("statuses")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(statuses.contains(&"agony"), "{statuses:?}");
    assert!(statuses.contains(&"burning"), "{statuses:?}");
    // The player reads it in a sentence.
    let log = t.ok("ines", &["log"]);
    assert!(log.contains("aune burns (2d6 heat)"), "{log}");
}

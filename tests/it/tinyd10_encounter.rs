//! A Tiny d10: Fantasy encounter driven only through the `tablehold` binary against a real
//! server on the test seed, by a GM and two players with the example sheets: the combat order
//! by reflex with its tie rolled, an NPC's hit on a tie with the target's toughness, a player's
//! miss against a toughness the players do not see, and the logs verified once the encounter's
//! dice are revealed. The player's copy never names the NPC's weapon.
//!
//! The faces below are what the test seed draws for these commands in this order (see
//! `cli.rs`).

use serde_json::Value;
use tablehold_tests::{stderr, stdout, workspace_root};

use crate::cli::Table;

fn example(name: &str, owner: Option<(&str, &str)>) -> String {
    let path = workspace_root().join("docs/examples/tinyd10").join(name);
    let text = std::fs::read_to_string(&path).expect("example sheet");
    match owner {
        Some((from, to)) => {
            text.replace(&format!("owner = \"{from}\""), &format!("owner = \"{to}\""))
        }
        None => text,
    }
}

fn hp(state: &Value, id: &str) -> Option<i64> {
    state["combatants"]
        .as_array()?
        .iter()
        .find(|c| c["id"] == id)?["resources"]["hp"]
        .as_i64()
}

#[test]
fn a_tinyd10_encounter_is_played_through_the_binary() {
    let t = Table::new();
    t.seat_everyone_on("tinyd10", &["decision.timeout_ms=60000"]);
    let brenna = example("brenna.toml", Some(("p1", "ines")));
    let aldric = example("aldric.toml", Some(("p2", "rui")));
    t.ok("ines", &["sheet", "add", &t.file("brenna.toml", &brenna)]);
    t.ok("rui", &["sheet", "add", &t.file("aldric.toml", &aldric)]);
    let goblin = example("goblin.toml", None);
    t.ok("gm", &["npc", "add", &t.file("goblin.toml", &goblin)]);

    // Brenna and the goblin share a reflex: a d10 each breaks the tie (4 against 6).
    let started = t.ok("gm", &["encounter", "start"]);
    assert!(
        started.contains("brenna rolls tie-break for the combat order 4=4"),
        "{started}"
    );
    let s = t.state("gm");
    assert_eq!(
        s["order"],
        serde_json::json!(["goblin", "brenna", "aldric"])
    );
    assert_eq!(s["current"], "goblin");

    // The goblin's blade: 8 + 1 = 9 reaches Brenna's toughness 9 (a tie hits); 1 damage.
    let hit = t.ok(
        "gm",
        &[
            "act",
            "attack",
            "--actor",
            "goblin",
            "target=brenna",
            "weapon=rusty_blade",
        ],
    );
    assert!(
        hit.contains("attack 8+1=9 vs toughness 9, hits by 0"),
        "{hit}"
    );
    assert_eq!(hp(&t.state("gm"), "brenna"), Some(9));
    let heard = t.ok("ines", &["log"]);
    assert!(
        heard.contains("goblin deals damage to brenna: 1 damage (HP 10 → 9)"),
        "{heard}"
    );
    assert!(!heard.contains("rusty"), "the goblin's weapon:\n{heard}");

    // Brenna's flail: 1 + 2 = 3, short of the goblin's toughness, which she is not shown.
    t.ok("gm", &["act", "end_turn", "--actor", "goblin"]);
    let missed = t.ok("ines", &["act", "attack", "target=goblin", "weapon=flail"]);
    assert!(
        missed.contains(
            "brenna attacks goblin with a flail: attack 1+2=3 vs hidden toughness, misses"
        ),
        "{missed}"
    );

    // The encounter ends, its dice are revealed, and both exports verify; they are kept for
    // `.ci/run`, which checks them again with docs/verify.py.
    t.ok("gm", &["encounter", "end"]);
    let dir = workspace_root().join("target").join("e2e-logs");
    std::fs::create_dir_all(&dir).expect("log dir");
    for seat in ["gm", "ines"] {
        let path = dir.join(format!("tinyd10-{seat}-test-seed.json"));
        let path = path.display().to_string();
        t.ok(seat, &["log", "export", "--out", &path]);
        let out = t.run(None, &["verify", "--allow-test-seed", &path]);
        assert_eq!(out.status.code(), Some(0), "{seat}: {}", stderr(&out));
        assert!(stdout(&out).starts_with("OK: "), "{}", stdout(&out));
    }
}

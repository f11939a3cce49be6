//! A 10acity Tactics encounter driven only through the `tablehold` binary against a real
//! server on the test seed, by a GM and two players with the example sheets: the opening
//! initiative, a player's failed check against an NPC's hidden defence, the spotlight handed
//! on, and the NPC's natural 10 whose extra hero die the GM picks, then the logs verified once
//! the encounter's dice are revealed.
//!
//! The faces below are what the test seed draws for these commands in this order (see
//! `cli.rs`).

use serde_json::Value;
use tablehold_tests::{stderr, stdout, workspace_root};

use crate::cli::Table;

fn example(name: &str, owner: Option<(&str, &str)>) -> String {
    let path = workspace_root().join("docs/examples/tenacity").join(name);
    let text = std::fs::read_to_string(&path).expect("example sheet");
    match owner {
        Some((from, to)) => {
            text.replace(&format!("owner = \"{from}\""), &format!("owner = \"{to}\""))
        }
        None => text,
    }
}

fn stress(state: &Value, id: &str) -> Option<i64> {
    state["combatants"]
        .as_array()?
        .iter()
        .find(|c| c["id"] == id)?["resources"]["stress"]
        .as_i64()
}

#[test]
fn a_tenacity_encounter_is_played_through_the_binary() {
    let t = Table::new();
    t.seat_everyone_on("tenacity", &["decision.timeout_ms=60000"]);
    let aune = example("aune.toml", Some(("aune", "ines")));
    let missa = example("missa.toml", Some(("missa", "rui")));
    t.ok("ines", &["sheet", "add", &t.file("aune.toml", &aune)]);
    t.ok("rui", &["sheet", "add", &t.file("missa.toml", &missa)]);
    let pirate = example("pirate.toml", None);
    t.ok("gm", &["npc", "add", &t.file("pirate.toml", &pirate)]);

    // Reaction for everyone, best hero die plus rank: Aune 6 + 2 = 8, Missa 8 + 3 = 11, the
    // pirate 9 + 2 = 11. A hero wins the tie: the spotlight opens on Missa.
    let started = t.ok("gm", &["encounter", "start"]);
    assert!(
        started.contains("aune rolls initiative reaction 6+2=8")
            && started.contains("missa rolls initiative reaction 8+3=11"),
        "{started}"
    );
    assert_eq!(t.state("gm")["may_act"], serde_json::json!(["missa"]));

    // Missa shoots: ranged 3 + 2 = 5 against the pirate's reaction roll, which the players
    // do not see: a failure. She accepts it rather than push.
    let shot = t.ok(
        "rui",
        &[
            "act",
            "check",
            "skill=ranged",
            "kind=damage",
            "target=pirate",
            "defence=reaction",
        ],
    );
    assert!(
        shot.contains(
            "missa makes a damage check against pirate: ranged 3+2=5 vs hidden pirate's reaction defence, fails"
        ),
        "{shot}"
    );
    t.ok("rui", &["answer", "accept"]);
    let passed = t.ok("rui", &["act", "end_turn", "next=pirate"]);
    assert!(
        passed.contains("the spotlight passes to pirate"),
        "{passed}"
    );

    // The pirate's cutlass: Aune defends with reaction (3, 1: 3 + 2 = 5); the pirate's pool
    // shows a natural 10, and the GM is asked; Ines learns only that the GM decides.
    t.ok(
        "gm",
        &[
            "act",
            "check",
            "--actor",
            "pirate",
            "skill=melee",
            "kind=damage",
            "target=aune",
            "defence=reaction",
        ],
    );
    let asked = t.state("ines")["prompt"].clone();
    assert_eq!(
        asked["question"], "the GM has a decision to make",
        "{asked}"
    );
    // An extra hero die (8) is added: 8 + 10 + 2 = 20 beats 5; impact 1d4 = 3 stress.
    let hit = t.ok("gm", &["answer", "hero_die"]);
    assert!(
        hit.contains("melee 8+10+2=20 vs aune's reaction defence 5, succeeds by 15"),
        "{hit}"
    );
    assert_eq!(stress(&t.state("gm"), "aune"), Some(3));
    let heard = t.ok("ines", &["log"]);
    assert!(!heard.contains("8+10+2"), "the pirate's numbers:\n{heard}");

    // The encounter ends, its dice are revealed, and both exports verify: the natural 10's
    // pool is shown once, in the event that drew it. They are kept for `.ci/run`.
    t.ok("gm", &["encounter", "end"]);
    let dir = workspace_root().join("target").join("e2e-logs");
    std::fs::create_dir_all(&dir).expect("log dir");
    for seat in ["gm", "ines"] {
        let path = dir.join(format!("tenacity-{seat}-test-seed.json"));
        let path = path.display().to_string();
        t.ok(seat, &["log", "export", "--out", &path]);
        let out = t.run(None, &["verify", "--allow-test-seed", &path]);
        assert_eq!(out.status.code(), Some(0), "{seat}: {}", stderr(&out));
        assert!(stdout(&out).starts_with("OK: "), "{}", stdout(&out));
    }
}

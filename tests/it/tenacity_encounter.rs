//! A 10acity Tactics encounter driven only through the `tablehold` binary against a real
//! server on the test seed, by a GM and two players with the example sheets: the opening
//! initiative, a player's failed check pushed into a success with Spin that hinders the NPC,
//! the spotlight passed from the attacker to the one attacked, the NPC's natural 10 whose
//! extra hero die the GM picks, a character pushed over its maximum stress choosing a wound,
//! the hinder overcome at the end of the NPC's turn, a player's natural 10 answered with the
//! extra impact die, exact state, and the logs verified once the encounter's dice are revealed.
//!
//! The faces below are what the test seed draws for these commands in this order (see
//! `cli.rs`). Free rolls of the GM come from the same fair stream as the rules' dice: the
//! GM's rolls for the weather bring the player's natural 10 onto this fixed seed.

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

/// Every part of `wanted` is in `out`.
fn says(out: &str, wanted: &[&str]) {
    for w in wanted {
        assert!(out.contains(w), "`{w}` not in:\n{out}");
    }
}

fn resources(state: &Value, id: &str) -> (Value, Value) {
    let c = state["combatants"]
        .as_array()
        .and_then(|cs| cs.iter().find(|c| c["id"] == id))
        .unwrap_or_else(|| panic!("no {id} in {state}"));
    let r = &c["resources"];
    (
        serde_json::json!([r["stress"], r["wounds"], r["spin"], r["tenacity"]]),
        c["statuses"].clone(),
    )
}

#[test]
fn a_tenacity_encounter_is_played_through_the_binary() {
    let t = Table::new();
    t.seat_everyone_on("tenacity", &["decision.timeout_ms=60000"]);
    // Aune comes in battered (stress 12 of 14); Missa with 3 Spin from an earlier scene.
    let aune = example("aune.toml", Some(("aune", "ines")))
        .replace("max_stress = 14", "max_stress = 14\nstress = 12");
    let missa = example("missa.toml", Some(("missa", "rui")))
        .replace("tenacity = 3", "tenacity = 3\nspin = 3");
    t.ok("ines", &["sheet", "add", &t.file("aune.toml", &aune)]);
    t.ok("rui", &["sheet", "add", &t.file("missa.toml", &missa)]);
    let pirate = example("pirate.toml", None);
    t.ok("gm", &["npc", "add", &t.file("pirate.toml", &pirate)]);

    // Reaction for everyone, best hero die plus rank: Aune 6 + 2 = 8, Missa 8 + 3 = 11, the
    // pirate 9 + 2 = 11. A hero wins the tie: the spotlight opens on Missa.
    let started = t.ok("gm", &["encounter", "start"]);
    says(
        &started,
        &[
            "aune rolls initiative: reaction 6+2=8",
            "missa rolls initiative: reaction 8+3=11",
        ],
    );
    assert_eq!(t.state("gm")["may_act"], serde_json::json!(["missa"]));

    // Missa tries to pin the pirate down (a hinder): ranged 3 + 2 = 5 against its reaction
    // roll, which the players do not see: a failure, which earns her a Spin (3 → 4).
    let shot = t.ok(
        "rui",
        &[
            "act",
            "check",
            "skill=ranged",
            "kind=condition",
            "condition=hinder",
            "target=pirate",
            "defence=reaction",
        ],
    );
    says(
        &shot,
        &[
            "missa makes a condition check against pirate: ranged 3+2=5 vs hidden pirate's reaction defence, fails",
            "missa spin 3 → 4",
        ],
    );
    // She pushes with her 4 Spin and, at a cost, the negative Spin still needed: 4 more
    // (4 → -4). The check succeeds; its impact d4 (1) is the hinder on the pirate.
    let pushed = t.ok("rui", &["answer", "push", "spin=4", "at_cost"]);
    says(
        &pushed,
        &[
            "missa spin 4 → -4",
            "missa pushes the check into a success: 0 10acity, 4 Spin, 4 negative Spin taken",
            "pirate is now hinder 1",
        ],
    );
    // The spotlight passes from the attacker to the one she attacked.
    says(
        &t.ok("rui", &["act", "end_turn", "next=pirate"]),
        &["the spotlight passes to pirate"],
    );

    // The pirate's cutlass, its hinder counting: Aune defends with reaction (1, 4: 4 + 2 =
    // 6); the pirate's pool shows a natural 10, and the GM is asked; Ines learns only that
    // the GM decides. (Typed the way docs/tenacity.md writes it: the short form, with
    // `--name value` for each argument and `--actor` picking the GM's character.)
    t.ok(
        "gm",
        &[
            "check",
            "--actor",
            "pirate",
            "--skill",
            "melee",
            "--kind",
            "damage",
            "--target",
            "aune",
            "--defence",
            "reaction",
            "--hindered",
        ],
    );
    let asked = t.state("ines")["prompt"].clone();
    assert_eq!(
        asked["question"], "the GM has a decision to make",
        "{asked}"
    );
    // An extra hero die (1): 1 + 10 + 2 - 1 = 12 beats 6; impact 1d4 = 4 takes Aune's stress
    // past her 14: it resets and she chooses a wound over falling unconscious.
    let hit = t.ok("gm", &["answer", "hero_die"]);
    says(
        &hit,
        &[
            "vs aune's reaction defence 6, succeeds",
            "aune stress 12 → 0",
        ],
    );
    says(
        &t.ok("ines", &["answer", "wound"]),
        &[
            "aune wounds 0 → 1",
            "aune stays conscious and marks a wound",
        ],
    );
    // At the end of its turn the pirate tries to shake the hinder off (its free try):
    // endurance 10 + 1 = 11 against a fresh roll of Missa's ranged, 5 + 2 = 7.
    let shaken = t.ok(
        "gm",
        &[
            "act",
            "overcome",
            "--actor",
            "pirate",
            "condition=hinder",
            "skill=endurance",
            "against=ranged",
        ],
    );
    says(
        &shaken,
        &[
            "missa rolls ranged holding the hinder",
            "pirate is no longer hinder",
        ],
    );
    t.ok("gm", &["act", "end_turn", "--actor", "pirate", "next=aune"]);

    // The GM rolls for the weather; then Aune swings her longsword: a natural 10 in her
    // pool, and she takes the extra impact die rather than a hero die: 10 + 4 = 14 beats the
    // pirate's defence; impact 3d4 (1, 2, 2) + sword 2 = 7 stress.
    for _ in 0..7 {
        t.ok("gm", &["roll", "1d6"]);
    }
    let cut = t.ok(
        "ines",
        &[
            "act",
            "check",
            "skill=melee",
            "kind=damage",
            "target=pirate",
            "defence=reaction",
            "item=sword",
        ],
    );
    says(&cut, &["a natural 10"]);
    let impact = t.ok("ines", &["answer", "impact_die"]);
    says(
        &impact,
        &[
            "aune makes a damage check against pirate: melee 10+4=14 vs hidden pirate's reaction defence, succeeds",
            "3d4=1+2+2",
        ],
    );

    let s = t.state("gm");
    let none = serde_json::json!([]);
    assert_eq!(
        resources(&s, "aune"),
        (serde_json::json!([0, 1, 0, 2]), none.clone())
    );
    assert_eq!(
        resources(&s, "missa"),
        (serde_json::json!([0, 0, -4, 3]), none.clone())
    );
    assert_eq!(
        resources(&s, "pirate"),
        (serde_json::json!([7, 0, 0, 0]), none)
    );
    let heard = t.ok("ines", &["log"]);
    assert!(!heard.contains("1+10+2"), "the pirate's numbers:\n{heard}");

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

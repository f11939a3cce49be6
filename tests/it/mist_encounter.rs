//! A mist d10 encounter driven only through the `tablehold` binary against a real server on the
//! test seed, by a GM and two players with the example sheets: group initiative, a player's
//! attack the GM's NPC may dodge, the NPC's attack a player dodges without seeing its total, and
//! the logs of the GM and the player verified once the encounter's dice are revealed.
//!
//! The faces below are what the test seed draws for these commands in this order (see
//! `cli.rs`); each step says the arithmetic of the text it checks.

use serde_json::Value;
use tablehold_tests::{stderr, stdout, workspace_root};

use crate::cli::Table;

fn example(name: &str, owner: Option<(&str, &str)>) -> String {
    let path = workspace_root().join("docs/examples/mist").join(name);
    let text = std::fs::read_to_string(&path).expect("example sheet");
    match owner {
        Some((from, to)) => {
            text.replace(&format!("owner = \"{from}\""), &format!("owner = \"{to}\""))
        }
        None => text,
    }
}

fn resource(state: &Value, id: &str, key: &str) -> i64 {
    state["combatants"]
        .as_array()
        .and_then(|cs| cs.iter().find(|c| c["id"] == id))
        .and_then(|c| c["resources"][key].as_i64())
        .unwrap_or_else(|| panic!("no {key} of {id} in {state}"))
}

#[test]
fn a_mist_encounter_is_played_through_the_binary() {
    let t = Table::new();
    t.seat_everyone_on("mist", &["decision.timeout_ms=60000"]);
    let beatrix = example("beatrix.toml", Some(("julia", "ines")));
    let markus = example("markus.toml", Some(("tom", "rui")));
    t.ok("ines", &["sheet", "add", &t.file("beatrix.toml", &beatrix)]);
    t.ok("rui", &["sheet", "add", &t.file("markus.toml", &markus)]);
    let thug = example("masked-thug.toml", None);
    t.ok("gm", &["npc", "add", &t.file("thug.toml", &thug)]);

    // Group initiative: the enemies' d10 4 + Body 2 + Speed 0 = 6; the players' roll is
    // Beatrix's, the lowest Body (2): 6 + 2 + Speed 3 = 11. The players' group goes first.
    let started = t.ok("gm", &["encounter", "start"]);
    assert!(
        started.contains("initiative 6+2+3=11"),
        "the players' roll: {started}"
    );
    let s = t.state("gm");
    assert_eq!(
        s["order"],
        serde_json::json!(["beatrix", "markus", "masked-thug"])
    );
    assert_eq!(s["may_act"], serde_json::json!(["beatrix", "markus"]));

    // Beatrix holds her action; Markus swings his club: 8 + Body 3 = 11 reaches Evade 7,
    // which the players do not see. The thug still has its action: the GM is asked.
    t.ok("ines", &["act", "delay"]);
    let swung = t.ok(
        "rui",
        &["act", "attack", "target=masked-thug", "weapon=club"],
    );
    assert!(
        swung.contains("attack 8+3=11 vs hidden Evade, hits"),
        "{swung}"
    );
    // The GM takes it: club 1 + Body 3 + ability 1 = 5; Life 6 → 1.
    let taken = t.ok("gm", &["answer", "take"]);
    assert!(taken.contains("5 damage (Life 6 → 1, hurt)"), "{taken}");

    // The thug's cudgel: 6 + Body 2 = 8 reaches Beatrix's Evade 6. She holds an action, so
    // she may dodge; she is told the kind of weapon, not the total or the weapon's name.
    let swung = t.ok(
        "gm",
        &[
            "act",
            "attack",
            "--actor",
            "masked-thug",
            "target=beatrix",
            "weapon=cudgel",
        ],
    );
    assert!(swung.contains("attack_total 8"), "the GM sees it: {swung}");
    let asked = t.state("ines")["prompt"].clone();
    let question = asked["question"].as_str().unwrap_or_default();
    assert!(
        question.contains("masked-thug hits beatrix with a melee weapon: dodge"),
        "{asked}"
    );
    let shown = asked.to_string();
    for secret in ["attack_total", "cudgel", "\"bonus\""] {
        assert!(!shown.contains(secret), "{secret} reaches Ines: {shown}");
    }
    // She dodges: 9 + Body 2 + Dodge 3 = 14 beats the 8 she never sees. Her held action is
    // spent, and with every group done round 2 begins.
    let dodged = t.ok("ines", &["answer", "dodge"]);
    assert!(
        dodged.contains("Dodge 9+2+3=14 vs hidden attack total, dodges"),
        "{dodged}"
    );
    let s = t.state("gm");
    assert_eq!(s["round"], 2, "{s}");
    assert_eq!(
        (
            resource(&s, "beatrix", "life"),
            resource(&s, "markus", "life"),
            resource(&s, "masked-thug", "life"),
        ),
        (9, 10, 1)
    );
    let heard = t.ok("ines", &["log"]);
    for secret in ["cudgel", "attack_total", "8+2"] {
        assert!(!heard.contains(secret), "{secret} in Ines's log:\n{heard}");
    }

    // The encounter ends, its dice are revealed, and both exports verify; they are kept for
    // `.ci/run`, which checks them again with docs/verify.py.
    t.ok("gm", &["encounter", "end"]);
    let dir = workspace_root().join("target").join("e2e-logs");
    std::fs::create_dir_all(&dir).expect("log dir");
    for seat in ["gm", "ines"] {
        let path = dir.join(format!("mist-{seat}-test-seed.json"));
        let path = path.display().to_string();
        t.ok(seat, &["log", "export", "--out", &path]);
        let out = t.run(None, &["verify", "--allow-test-seed", &path]);
        assert_eq!(out.status.code(), Some(0), "{seat}: {}", stderr(&out));
        assert!(stdout(&out).starts_with("OK: "), "{}", stdout(&out));
    }
}

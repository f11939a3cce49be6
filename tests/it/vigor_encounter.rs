//! A vigor d20 encounter driven only through the `tablehold` binary against a real server on
//! the test seed, by a GM and two players with the example sheets: initiative, an NPC's two
//! attacks (a miss, then a hit the player defends against for Vigor), damage to Durability, and
//! the logs verified once the encounter's dice are revealed. The player's copy never names the
//! NPC's weapon.
//!
//! The faces below are what the test seed draws for these commands in this order (see
//! `cli.rs`).

use serde_json::Value;
use tablehold_tests::{stderr, stdout, workspace_root};

use crate::cli::Table;

fn example(name: &str, owner: Option<(&str, &str)>) -> String {
    let path = workspace_root().join("docs/examples/vigor").join(name);
    let text = std::fs::read_to_string(&path).expect("example sheet");
    match owner {
        Some((from, to)) => {
            text.replace(&format!("owner = \"{from}\""), &format!("owner = \"{to}\""))
        }
        None => text,
    }
}

fn combatant<'a>(state: &'a Value, id: &str) -> &'a Value {
    state["combatants"]
        .as_array()
        .and_then(|cs| cs.iter().find(|c| c["id"] == id))
        .unwrap_or_else(|| panic!("no {id} in {state}"))
}

#[test]
fn a_vigor_encounter_is_played_through_the_binary() {
    let t = Table::new();
    t.seat_everyone_on("vigor", &["decision.timeout_ms=60000"]);
    let aune = example("aune.toml", Some(("p1", "ines")));
    let bryn = example("bryn.toml", Some(("p2", "rui")));
    t.ok("ines", &["sheet", "add", &t.file("aune.toml", &aune)]);
    t.ok("rui", &["sheet", "add", &t.file("bryn.toml", &bryn)]);
    let raider = example("raider.toml", None);
    t.ok("gm", &["npc", "add", &t.file("raider.toml", &raider)]);

    // Initiative d20s in id order: aune 4, bryn 6, raider 8: the raider goes first.
    t.ok("gm", &["encounter", "start"]);
    let s = t.state("gm");
    assert_eq!(s["order"], serde_json::json!(["raider", "bryn", "aune"]));
    assert_eq!(s["current"], "raider");

    // Its first swing: 1 + bonus d10 6 = 7 against Aune's Guard 17, a miss.
    let attack = ["act", "attack", "--actor", "raider", "target=aune"];
    let missed = t.ok("gm", &attack);
    assert!(
        missed.contains("attack 1+6=7 vs Guard 17, miss by 10"),
        "{missed}"
    );
    // The second: 19 + 10 + 7 (the d10 bursts) = 36 hits. Aune may defend for 5 Vigor; her
    // player is told the kind of weapon, not its name.
    let hit = t.ok("gm", &attack);
    assert!(
        hit.contains("attack 19+10+7=36 vs Guard 17, hit by 19"),
        "{hit}"
    );
    let asked = t.state("ines")["prompt"].clone();
    assert_eq!(
        asked["question"],
        "raider hits aune with a melee weapon: defend (Dodge, Deflect or Block) for 5 Vigor?"
    );
    // She defends: 11 + 3 + 3 = 17 does not beat 36; 5 Vigor spent (20 → 15). The damage
    // (21 after her armour) empties her Durability of 12 and stops there: wounded.
    let defended = t.ok("ines", &["answer", "defend"]);
    assert!(
        defended.contains("defense 11+3+3=17 vs raider's attack 36, fails by 19"),
        "{defended}"
    );
    assert!(
        defended.contains("12 damage (Durability 12 → 0, wounded)"),
        "{defended}"
    );
    t.ok("gm", &["act", "end_turn", "--actor", "raider"]);
    let s = t.state("gm");
    assert_eq!(s["current"], "bryn");
    let aune = combatant(&s, "aune");
    assert_eq!(
        (
            &aune["resources"]["vigor"],
            &aune["resources"]["durability"],
            &aune["resources"]["health"]
        ),
        (&Value::from(15), &Value::from(0), &Value::from(10))
    );
    assert_eq!(aune["statuses"], serde_json::json!(["wounded"]));
    let heard = t.ok("ines", &["log"]);
    for secret in ["axe", "heroic"] {
        assert!(!heard.contains(secret), "{secret} in Ines's log:\n{heard}");
    }

    // The encounter ends, its dice are revealed, and both exports verify; they are kept for
    // `.ci/run`, which checks them again with docs/verify.py.
    t.ok("gm", &["encounter", "end"]);
    let dir = workspace_root().join("target").join("e2e-logs");
    std::fs::create_dir_all(&dir).expect("log dir");
    for seat in ["gm", "ines"] {
        let path = dir.join(format!("vigor-{seat}-test-seed.json"));
        let path = path.display().to_string();
        t.ok(seat, &["log", "export", "--out", &path]);
        let out = t.run(None, &["verify", "--allow-test-seed", &path]);
        assert_eq!(out.status.code(), Some(0), "{seat}: {}", stderr(&out));
        assert!(stdout(&out).starts_with("OK: "), "{}", stdout(&out));
    }
}

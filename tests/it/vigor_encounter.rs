//! A vigor d20 encounter driven only through the `tablehold` binary against a real server on
//! the test seed, by a GM and two players with the example sheets: initiative, an NPC's two
//! attacks (a miss, then a hit the player tries to dodge for Vigor), Durability emptied so the
//! player is Wounded and rolls smaller bonus dice after, a player's attack with a charge and two
//! challenges, a bonus damage die that bursts, the NPC Winded at 0 Vigor after two Defenses,
//! the recovery phase at the end of the round, exact state, and the logs verified once the
//! encounter's dice are revealed. The player's copy never names the NPC's weapon.
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

/// Every part of `wanted` is in `out`.
fn says(out: &str, wanted: &[&str]) {
    for w in wanted {
        assert!(out.contains(w), "`{w}` not in:\n{out}");
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
    // The raider comes in short of breath: 10 Vigor of its 12.
    let raider =
        example("raider.toml", None).replace("vigor_max = 12", "vigor_max = 12\nvigor = 10");
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
    let heard = t.ok("ines", &["log"]);
    for secret in ["axe", "heroic"] {
        assert!(!heard.contains(secret), "{secret} in Ines's log:\n{heard}");
    }

    // The GM rolls a d6 on the side (free rolls come from the same fair stream: 3).
    says(&t.ok("gm", &["roll", "1d6"]), &["1d6=3"]);
    // Bryn shoots with one charge and two challenges: they cancel one for one, and the one
    // challenge left steps her Agility bonus die down from d10 to d8. 16 + 7 = 23 beats the
    // raider's Guard 15 (hidden from the players).
    let shot = t.ok(
        "rui",
        &[
            "act",
            "attack",
            "target=raider",
            "charges=1",
            "challenges=2",
        ],
    );
    says(
        &shot,
        &["attack (1 charge, 2 challenges: bonus d8) 16+7=23 vs hidden Guard, hit"],
    );
    // The GM lets it land. The crossbow's two d8 (1, 8) never burst; Bryn's skill bonus d10
    // shows 10 and bursts (+1): a critical hit, 1 + 8 + 10 + 1 = 20. The raider's Durability
    // of 10 is emptied and the rest stops there: Wounded.
    let landed = t.ok("gm", &["answer", "take"]);
    says(
        &landed,
        &[
            "bryn rolls damage (critical hit: a bonus die burst): 2d8+1d10!=1+8+10+1 → 20",
            "20 = 10 damage (Durability 10 → 0, wounded)",
        ],
    );
    t.ok("rui", &["act", "end_turn"]);

    // Aune, Wounded, attacks: her two Agility bonus dice are d8 now (16 + 7 + 5 = 28). The
    // raider defends for 5 Vigor (10 → 5), also Wounded (d8): 9 + 3 = 12 fails; her longsword's
    // d8 4 and Strength d8 3 are 7 off Health 8.
    let cut = ["act", "attack", "target=raider"];
    says(
        &t.ok("ines", &cut),
        &["attack (wounded: bonus d8) 16+7+5=28 vs hidden Guard, hit"],
    );
    says(
        &t.ok("gm", &["answer", "defend"]),
        &[
            "raider vigor 10 → 5",
            "defense (wounded: bonus d8) 9+3=12 vs aune's attack 28, fails by 16 (5 Vigor spent)",
            "7 = 7 damage (Health 8 → 1, wounded)",
        ],
    );
    // Again: 14 + 1 + 7 = 22; the raider's last 5 Vigor go on a Defense of 20 + 1 = 21, one
    // short. At 0 Vigor it is Winded; 2 + 2 = 4 damage, 1 of it reaching Health 1: Shock.
    says(
        &t.ok("ines", &cut),
        &["attack (wounded: bonus d8) 14+1+7=22 vs hidden Guard, hit"],
    );
    says(
        &t.ok("gm", &["answer", "defend"]),
        &[
            "raider vigor 5 → 0",
            "raider is now winded",
            "defense (wounded: bonus d8) 20+1=21 vs aune's attack 22, fails by 1",
            "(Health 1 → 0, in shock)",
        ],
    );
    // Her turn ends the round. The recovery phase gives back Stamina / 5 Vigor: Aune's 25
    // gives 5 (15 → 20), the raider's 15 gives 3 (0 → 3, still Winded: it needs 5 back), and
    // the raider's Shock countdown (its Stamina, 15 rounds) moves to 14.
    let ended = t.ok("ines", &["act", "end_turn"]);
    says(&ended, &["aune vigor 15 → 20", "round 2 starts"]);
    let s = t.state("gm");
    assert_eq!(
        (s["round"].as_i64(), &s["current"]),
        (Some(2), &Value::from("bryn"))
    );
    let numbers = |id: &str| {
        let c = combatant(&s, id);
        let r = &c["resources"];
        (
            [&r["vigor"], &r["durability"], &r["health"]].map(|v| v.as_i64().unwrap_or(-1)),
            c["statuses"].clone(),
        )
    };
    assert_eq!(
        numbers("aune"),
        ([20, 0, 10], serde_json::json!(["wounded"]))
    );
    assert_eq!(numbers("bryn"), ([15, 10, 10], serde_json::json!([])));
    assert_eq!(
        numbers("raider"),
        (
            [3, 0, 0],
            serde_json::json!(["shock", "unconscious", "winded", "wounded"])
        )
    );
    // The players see the raider's state, not its numbers, and never its weapon.
    let seen = t.state("ines");
    assert!(
        combatant(&seen, "raider")["resources"]
            .as_object()
            .is_none_or(|r| r.is_empty()),
        "{seen}"
    );
    let heard = t.ok("ines", &["log"]);
    for secret in ["axe", "heroic", "vigor 10 → 5", "Health 8 → 1"] {
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

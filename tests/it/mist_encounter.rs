//! A mist d10 encounter driven only through the `tablehold` binary against a real server on the
//! test seed, by a GM and two players with the example sheets: group initiative with the
//! players' Speed check, a club hit the GM lets land, a delayed action that interrupts the
//! gunman after winning the Speed contest, a pistol whose damage dice show a double and jam, a
//! character knocked below 0 Life who fails the consciousness check, a critical with its second
//! damage die, exact state, and the logs of the GM and the player verified once the encounter's
//! dice are revealed. The player's copy never holds an NPC's weapon, total or jam.
//!
//! The faces below are what the test seed draws for these commands in this order (see
//! `cli.rs`); each step says the arithmetic of the text it checks. Free rolls of the GM come
//! from the same fair stream as the rules' dice, so the GM's rolls for the crowd move every
//! later face: they bring the jam and the critical onto this fixed seed.

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

/// Every part of `wanted` is in `out`.
fn says(out: &str, wanted: &[&str]) {
    for w in wanted {
        assert!(out.contains(w), "`{w}` not in:\n{out}");
    }
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
    let gunman = example("gunman.toml", None);
    t.ok("gm", &["npc", "add", &t.file("gunman.toml", &gunman)]);

    // Group initiative: the enemies' d10 4 + Body 2 + Speed 0 = 6; the players' roll is
    // Beatrix's, the lowest Body (2): 6 + 2 + Speed 3 = 11. The players' group goes first.
    let started = t.ok("gm", &["encounter", "start"]);
    says(&started, &["initiative 4+2+0=6", "initiative 6+2+3=11"]);
    let s = t.state("gm");
    assert_eq!(
        s["order"],
        serde_json::json!(["beatrix", "markus", "gunman", "masked-thug"])
    );
    assert_eq!(s["may_act"], serde_json::json!(["beatrix", "markus"]));

    // Beatrix holds her action; Markus swings his club: 8 + Body 3 = 11 reaches Evade 7,
    // which the players do not see. The GM lets it land: club 1 + Body 3 + ability 1 = 5.
    t.ok("ines", &["act", "delay"]);
    let swung = t.ok(
        "rui",
        &["act", "attack", "target=masked-thug", "weapon=club"],
    );
    says(&swung, &["attack 8+3=11 vs hidden Evade, hits"]);
    says(
        &t.ok("gm", &["answer", "take"]),
        &["5 damage (Life 6 → 1, hurt)"],
    );

    // The enemies' turn. Beatrix spends her delayed action to beat the gunman to it: her
    // Speed 6 + 2 + 3 = 11 against his (the GM's); she is quicker, and her knife goes first:
    // 10 + Senses 3 + thrown 2 = 15 hits. The GM takes it: D10/2 shows 4, + Body 2 = 6.
    let quick = t.ok(
        "ines",
        &[
            "act",
            "attack",
            "target=gunman",
            "weapon=knife",
            "interrupt=gunman",
        ],
    );
    says(
        &quick,
        &[
            "beatrix makes a Speed check: Speed 6+2+3=11",
            "beatrix is quicker than gunman and acts first",
            "attack 10+3+2=15 vs hidden Evade, hits",
        ],
    );
    says(
        &t.ok("gm", &["answer", "take"]),
        &["6 damage (Life 6 → 0, hurt)"],
    );

    // The GM rolls for the crowd in the square, then the gunman fires at Markus: 6 + Senses
    // 3 = 9 reaches his Evade 7 (his action spent, he cannot dodge). The pistol's 2D10 show
    // 5 and 5: a double, so it jams: the jam table's 2 is a critical breakdown, the shot does
    // not land, and the pistol is useless until mended.
    for _ in 0..8 {
        t.ok("gm", &["roll", "1d6"]);
    }
    let shot = t.ok(
        "gm",
        &[
            "act",
            "attack",
            "--actor",
            "gunman",
            "target=markus",
            "weapon=pistol",
        ],
    );
    says(
        &shot,
        &[
            "attack 6+3=9 vs Evade 7, hits by 2",
            "2d10kh1=5+(5) → 5",
            "jams (doubles on the damage dice): critical breakdown",
            "gunman is now jam.pistol",
        ],
    );
    // The thug's cudgel: 10 + 2 = 12 against Beatrix's 6; her held action is spent, so no
    // dodge: D10/2 1 + Body 2 = 3.
    let cudgel = t.ok(
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
    says(&cudgel, &["3 damage (Life 9 → 6, hurt)", "round 2 starts"]);

    // Round 2, after six more rolls for the crowd. Markus clubs the gunman: 9 + 3 = 12 hits;
    // 4 + 3 + 1 = 8 takes Life 0 to -8. The consciousness check's difficulty is 8 below 0
    // plus 5 = 13; 5 + Willpower 1 + Pain Resistance 0 = 6 fails: unconscious.
    for _ in 0..6 {
        t.ok("gm", &["roll", "1d6"]);
    }
    says(
        &t.ok("rui", &["act", "attack", "target=gunman", "weapon=club"]),
        &["attack 9+3=12 vs hidden Evade, hits"],
    );
    says(
        &t.ok("gm", &["answer", "take"]),
        &[
            "8 damage (Life 0 → -8, below 0 Life)",
            "consciousness 5+1+0=6 vs difficulty 13, falls unconscious by 7",
        ],
    );
    // Beatrix's knife: 1 + 3 + 2 = 6 reaches Evade 6; its D10/2 shows a raw 10 (read 5): a
    // critical, so the attack is rolled again (9 + 5 = 14, a hit) and a second die is added
    // (1). An unconscious man hit for his whole Life (6) or more dies.
    let knife = t.ok("ines", &["act", "attack", "target=gunman", "weapon=knife"]);
    says(
        &knife,
        &[
            "attack 1+3+2=6 vs hidden Evade, hits",
            "1d10/2=5 → 5",
            "rolls for a critical against gunman with a throwing knife: critical attack 9+5=14",
            "critical damage with throwing knife (D10/2): 1d10/2=1 → 1",
            "gunman is now dead",
        ],
    );

    let s = t.state("gm");
    assert_eq!(s["round"], 2, "{s}");
    assert_eq!(
        (
            resource(&s, "beatrix", "life"),
            resource(&s, "markus", "life"),
            resource(&s, "masked-thug", "life"),
            resource(&s, "gunman", "life"),
        ),
        (6, 10, 1, -16)
    );
    let gunman = s["combatants"]
        .as_array()
        .and_then(|cs| cs.iter().find(|c| c["id"] == "gunman"))
        .expect("gunman");
    // The pistol fired (and jammed): it also waits for a reload.
    assert_eq!(
        gunman["statuses"],
        serde_json::json!(["dead", "jam.pistol", "unconscious", "unloaded.pistol"])
    );
    let heard = t.ok("ines", &["log"]);
    for secret in ["cudgel", "pistol", "jam", "attack_total", "difficulty 13"] {
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

//! A Tiny d10: Fantasy encounter driven only through the `tablehold` binary against a real
//! server on the test seed, by a GM and two players with the example sheets: a character
//! refused for a choice the rules forbid and then accepted, the combat order by reflex with its
//! ties rolled, a goblin's hit (with the GM's combat advantage) that drops a wounded warrior to
//! 0 HP, dying, and healed by the cleric in the same round, her attack with PP added before the
//! roll that kills the goblin and makes its side roll morale (the GM's alone), the cleric's
//! Turn undead paid in MP that the skeleton fails to save against, the warrior's Power strike
//! paid in PP on a hit, exact state, and the logs verified once the encounter's dice are
//! revealed. The player's copy never holds the NPCs' weapons, toughness or morale.
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

/// Every part of `wanted` is in `out`.
fn says(out: &str, wanted: &[&str]) {
    for w in wanted {
        assert!(out.contains(w), "`{w}` not in:\n{out}");
    }
}

fn numbers(state: &Value, id: &str) -> (Value, Value) {
    let c = state["combatants"]
        .as_array()
        .and_then(|cs| cs.iter().find(|c| c["id"] == id))
        .unwrap_or_else(|| panic!("no {id} in {state}"));
    let r = &c["resources"];
    (
        serde_json::json!([r["hp"], r["pp"], r["mp"]]),
        c["statuses"].clone(),
    )
}

#[test]
fn a_tinyd10_encounter_is_played_through_the_binary() {
    let t = Table::new();
    t.seat_everyone_on("tinyd10", &["decision.timeout_ms=60000"]);
    // Brenna, a dwarf warrior, comes in wounded (1 HP) and without her chainmail (toughness 8,
    // not 9). Four attribute points in power break the 3-point split: refused, field named.
    let brenna = example("brenna.toml", Some(("p1", "ines")))
        .replace("[points]", "hp = 1\n\n[points]")
        .replace("armour = \"chainmail\"\n", "");
    let refused = t.fails(
        "ines",
        &[
            "sheet",
            "add",
            &t.file("bad.toml", &brenna.replace("power = 2", "power = 4")),
        ],
    );
    says(&refused, &["`points.power`: must be 0 to 3", "got 4"]);
    t.ok("ines", &["sheet", "add", &t.file("brenna.toml", &brenna)]);
    // Brother Aldric, a cleric, knows Turn undead.
    let aldric = example("aldric.toml", Some(("p2", "rui")))
        .replace("\"divine_medicine\"", "\"turn_undead\"");
    t.ok("rui", &["sheet", "add", &t.file("aldric.toml", &aldric)]);
    t.ok(
        "gm",
        &[
            "npc",
            "add",
            &t.file("goblin.toml", &example("goblin.toml", None)),
        ],
    );
    t.ok(
        "gm",
        &[
            "npc",
            "add",
            &t.file("skeleton.toml", &example("skeleton.toml", None)),
        ],
    );
    // Her choices made her numbers: 5 PP (4 + the warrior's), Aldric 6 MP from his roll of 7.
    let s = t.state("gm");
    assert_eq!(numbers(&s, "brenna").0, serde_json::json!([1, 5, 0]));
    assert_eq!(numbers(&s, "aldric").0, serde_json::json!([6, 7, 6]));

    // Brenna, the goblin and the skeleton share reflex 1: a d10 each (4, 6, 8), higher first.
    let started = t.ok("gm", &["encounter", "start"]);
    says(
        &started,
        &[
            "brenna rolls tie-break for the combat order 4=4",
            "turn order: skeleton, goblin, brenna, aldric",
        ],
    );
    let swing = |who: &str, at: &str| {
        t.ok(
            "gm",
            &["act", "attack", "--actor", who, &format!("target={at}")],
        )
    };
    // The skeleton's shortsword: 1 + 2 = 3, short of Brenna's 8.
    says(
        &swing("skeleton", "brenna"),
        &["attack 1+2=3 vs toughness 8, misses by 5"],
    );
    t.ok("gm", &["act", "end_turn", "--actor", "skeleton"]);
    // The goblin strikes from the dark (the GM's combat advantage, +1): 6 + 1 + 1 = 8 reaches
    // her 8; 1 damage takes her last HP: dying, five rounds to live.
    let fall = t.ok(
        "gm",
        &[
            "act",
            "attack",
            "--actor",
            "goblin",
            "target=brenna",
            "advantage=1",
        ],
    );
    says(
        &fall,
        &[
            "attack 6+1+1=8 vs toughness 8, hits by 0",
            "1 damage (HP 1 → 0)",
            "brenna is now dying",
            "dead in 5 rounds unless healed",
        ],
    );
    t.ok("gm", &["act", "end_turn", "--actor", "goblin"]);
    // Dying, she is passed over. Aldric heals her, his whole turn: the heal skill makes it
    // sure; the d2 gives 1 HP, and she is no longer dying (round 1 of her five).
    assert_eq!(t.state("gm")["current"], "aldric");
    let healed = t.ok("rui", &["act", "heal", "target=brenna"]);
    says(
        &healed,
        &[
            "1 healing (HP 0 → 1)",
            "brenna is no longer dying",
            "round 2 starts",
        ],
    );

    // Round 2: both monsters hit Aldric (10 + 2 = 12 and 7 + 1 = 8 against his 7); Brenna
    // could rush in for 2 PP and lets each land: 1 damage each.
    says(
        &swing("skeleton", "aldric"),
        &["attack 10+2=12 vs toughness 7, hits by 5"],
    );
    says(&t.ok("ines", &["answer", "let"]), &["1 damage (HP 6 → 5)"]);
    t.ok("gm", &["act", "end_turn", "--actor", "skeleton"]);
    says(
        &swing("goblin", "aldric"),
        &["attack 7+1=8 vs toughness 7, hits by 1"],
    );
    says(&t.ok("ines", &["answer", "let"]), &["1 damage (HP 5 → 4)"]);
    t.ok("gm", &["act", "end_turn", "--actor", "goblin"]);
    // Brenna adds 2 PP before her roll: 1 + power 2 + 2 = 5 reaches the goblin's toughness 5
    // (hidden from her). Flail 2 + 1 for a dwarf against a goblin = 3: it dies, its side's
    // first loss, and with the skeleton's only ally slain its morale is rolled twice (3 and
    // 3: it holds). Only the GM hears the morale.
    let pp = t.ok("ines", &["act", "attack", "target=goblin", "pp=2"]);
    says(
        &pp,
        &[
            "brenna pp 5 → 3",
            "attack 1+2+2=5 vs hidden toughness, hits",
            "goblin is now dead",
        ],
    );
    let gm_log = t.ok("gm", &["log"]);
    says(
        &gm_log,
        &[
            "vs toughness 5 (hidden from players), hits",
            "2 + 1 race: against goblin = 3 damage (HP 3 → 0)",
            "rolls morale of enemies (its first ally slain): falters on 2 or less 3=3, holds",
            "rolls morale of enemies (more than half its allies slain): falters on 2 or less 3=3, holds",
        ],
    );
    t.ok("ines", &["act", "end_turn"]);
    // Turn undead: 2 MP (6 → 4); the skeleton's aspect save, 1 + 0 = 1, misses Aldric's
    // spell save of 7 (level 1 + aspect 3 + 3): 1 damage, and it flees Aldric for 1d5 rounds.
    let turned = t.ok(
        "rui",
        &["act", "cast", "spell=turn_undead", "target=skeleton"],
    );
    says(
        &turned,
        &["aldric mp 6 → 4", "aldric spends 2 MP on Turn undead"],
    );
    says(
        &t.ok("gm", &["log"]),
        &[
            "skeleton resists the turn undead of aldric: aspect save 1+0=1 vs spell save 7, fails to save by 6",
            "aldric casts turn undead on skeleton: 1 = 1 damage (HP 6 → 5)",
        ],
    );
    t.ok("rui", &["act", "end_turn"]);

    // Round 3: Brenna's Power strike of 1 PP hits
    // (10 + 2 = 12 against 7) and is paid (3 → 2): flail 2 + 1 = 3 (HP 5 → 2).
    // The skeleton flees Aldric (Turn undead): it may not attack him, so it gives up its turn.
    let fleeing = t.fails(
        "gm",
        &["act", "attack", "--actor", "skeleton", "target=aldric"],
    );
    says(&fleeing, &["skeleton flees aldric (turn undead)"]);
    t.ok("gm", &["act", "end_turn", "--actor", "skeleton"]);
    let strike = t.ok(
        "ines",
        &["act", "attack", "target=skeleton", "power_strike=1"],
    );
    says(
        &strike,
        &[
            "attack 10+2=12 vs hidden toughness, hits",
            "brenna pp 3 → 2",
        ],
    );
    says(
        &t.ok("gm", &["log"]),
        &["2 + 1 power strike = 3 damage (HP 5 → 2)"],
    );
    t.ok("ines", &["act", "end_turn"]);

    let s = t.state("gm");
    assert_eq!(
        (s["round"].as_i64(), &s["current"]),
        (Some(3), &Value::from("aldric"))
    );
    let none = serde_json::json!([]);
    assert_eq!(
        numbers(&s, "brenna"),
        (serde_json::json!([1, 2, 0]), none.clone())
    );
    assert_eq!(
        numbers(&s, "aldric"),
        (serde_json::json!([4, 7, 4]), none.clone())
    );
    assert_eq!(numbers(&s, "goblin").1, serde_json::json!(["dead"]));
    // Still fleeing Aldric: Turn undead's 1d5 rounds have not run out by round 3.
    assert_eq!(
        numbers(&s, "skeleton"),
        (serde_json::json!([2, 0, 0]), serde_json::json!(["fleeing"]))
    );
    let heard = t.ok("ines", &["log"]);
    for secret in [
        "rusty",
        "morale of",
        "toughness 5",
        "toughness 7 (",
        "HP 5 → 2",
    ] {
        assert!(!heard.contains(secret), "{secret} in Ines's log:\n{heard}");
    }

    // The encounter ends, its dice are revealed, and both exports verify; they are kept for
    // `.ci/run`, which checks them again with docs/verify.py.
    t.ok("gm", &["encounter", "end"]);
    // Between fights Ines may edit Brenna's sheet, but not write herself a level: that comes
    // with the GM's experience and `level_up`.
    let brenna = example("brenna.toml", Some(("p1", "ines")));
    let levelled = brenna
        .replace("level = 1", "level = 2")
        .replace("skills = [\"craft\"]", "skills = [\"craft\", \"listen\"]")
        .replace(
            "abilities = [\"defensive_rush\", \"power_strike\"]",
            "abilities = [\"defensive_rush\", \"power_strike\", \"pummel\"]",
        )
        + "\n[[advance]]\nattribute = \"power\"\npoints = \"pp\"\nextra = \"toughness\"\nability = \"pummel\"\n";
    let refused = t.fails(
        "ines",
        &["sheet", "add", &t.file("brenna-2.toml", &levelled)],
    );
    says(&refused, &["brenna is level 1", "level_up"]);
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

//! The committed fixture logs (`tests/fixtures/logs/`): real exports of a GRIMWIRE game from a
//! real server with OS-seeded epochs, a seat's entropy (revealed in the table's epoch,
//! withheld in the encounter's), salted hidden parts, a secret GM roll and attacks both ways,
//! one as the GM holds it and one as the player Ines does (the game of
//! `fairness::a_seat_adds_entropy_and_every_export_verifies_and_replays`), once in event format 3
//! and once in format 4, whose hidden dice are committed to and opened. They are never regenerated: every later release must read, verify
//! and replay them to the same figures, through the library and through the binary. Beside
//! them, one export pair per rule system from its end-to-end encounter on the test seed.

use std::path::PathBuf;

use serde_json::Value;
use tablehold_log::{LogFile, replay, verify};
use tablehold_tests::{run, stderr, stdout, workspace_root};

fn fixture(name: &str) -> PathBuf {
    workspace_root()
        .join("tests")
        .join("fixtures")
        .join("logs")
        .join(name)
}

/// What each fixture must give.
struct Figures {
    file: &'static str,
    viewer: &'static str,
    events: u64,
    dice_checked: u64,
    /// Draws hidden from the viewer.
    hidden: u64,
    /// Hidden dice opened at the reveal that the viewer had not seen (format 4).
    opened: u64,
    /// Events of format 3 holding dice no seat can check.
    uncommitted: u64,
    /// Digests checked on a full replay.
    digests: u64,
    /// The digest of the final state.
    last: &'static str,
}

/// The format-3 pair, and the format-4 pair (the same game on a later server, from
/// `fairness::a_seat_adds_entropy_and_every_export_verifies_and_replays` with its OS seeds),
/// whose hidden dice are committed to and opened (FAIRNESS.md, rule 10).
const EXPECTED: [Figures; 4] = [
    Figures {
        file: "grimwire-gm.json",
        viewer: "gm",
        events: 69,
        dice_checked: 14,
        hidden: 0,
        opened: 0,
        uncommitted: 4,
        digests: 18,
        last: "e03c99282947f449c2fe5a8e2be23646caf302de235b88805d50eaf6dc5887c0",
    },
    Figures {
        file: "grimwire-ines.json",
        viewer: "seat:ines",
        events: 69,
        dice_checked: 13,
        hidden: 1,
        opened: 0,
        uncommitted: 1,
        digests: 12,
        last: "5bbedd0b5af2eafad3ef17c90d946e22d2e5d7959f8dea5881105f003822817e",
    },
    Figures {
        file: "grimwire-v4-gm.json",
        viewer: "gm",
        events: 60,
        dice_checked: 11,
        hidden: 0,
        opened: 0,
        uncommitted: 0,
        digests: 18,
        last: "4240b0451021176d0e5fccadef9b799fb9025272c898fb15790037469fd8bbfe",
    },
    Figures {
        file: "grimwire-v4-ines.json",
        viewer: "seat:ines",
        events: 60,
        dice_checked: 10,
        hidden: 1,
        opened: 1,
        uncommitted: 0,
        digests: 12,
        last: "1df79a6464b2c8a49c065b8829d7018a1d1561a5524d858ad5451e1fd8bbc4af",
    },
];

#[test]
fn the_fixture_logs_verify_and_replay_to_their_recorded_figures() {
    for f in EXPECTED {
        let name = f.file;
        let file = LogFile::read(&fixture(name)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(file.header.viewer, f.viewer);
        let report = verify(&file).unwrap_or_else(|e| panic!("{name}: {e}"));
        let whole = replay(&file, None).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(report.events, f.events, "{name}");
        assert_eq!((report.epochs, report.epochs_revealed), (2, 2), "{name}");
        assert_eq!(report.dice_checked, f.dice_checked, "{name}");
        assert_eq!(report.draws_hidden, f.hidden, "{name}");
        assert_eq!(report.dice_opened, f.opened, "{name}");
        assert_eq!(report.uncommitted_hidden, f.uncommitted, "{name}");
        assert!(!report.test_seed, "{name}");
        assert_eq!(whole.digests_checked, f.digests, "{name}");
        assert_eq!(
            tablehold_rules::digest::digest_v1(&whole.state),
            f.last,
            "{name}"
        );
    }
}

#[test]
fn the_binary_verifies_and_replays_the_fixture_logs() {
    let gm = fixture("grimwire-gm.json").display().to_string();
    let out = run(&["verify", &gm], None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("OK: 69 events, 2 epochs (2 revealed), 14 dice checked"),
        "{}",
        stdout(&out)
    );
    // Mid-encounter, round 2, Aune's turn, as the GM saw it at event 40.
    let out = run(&["replay", &gm, "--at", "40", "--json"], None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let state: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(
        state["digest"],
        "f8f07c226834dbdde7ef28406eee544767ad44bd99401c0908fe1b9c9935bed5"
    );
    assert_eq!(state["encounter"]["round"], 2);
    assert_eq!(state["encounter"]["current"], "aune");
    // The player's copy never held the goblin's numbers.
    let ines = fixture("grimwire-ines.json").display().to_string();
    let out = run(&["replay", &ines, "--json"], None);
    let state: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    let goblin = state["combatants"]
        .as_array()
        .expect("combatants")
        .iter()
        .find(|c| c["id"] == "goblin-1")
        .expect("the goblin, by name");
    assert_eq!(goblin["resources"], serde_json::json!({}));
}

/// The lines a person reads of each fixture, as its viewer saw it (`replay --events`), pinned
/// in `tests/fixtures/lines/`. A change to how events read shows up here as a diff to review;
/// `TABLEHOLD_BLESS=1` rewrites the pinned files after a change meant to be seen.
#[test]
fn the_fixture_logs_read_the_same_to_the_gm_and_to_the_player() {
    for (name, viewer) in [("grimwire-gm", "gm"), ("grimwire-ines", "seat:ines")] {
        let log = fixture(&format!("{name}.json")).display().to_string();
        let out = run(&["replay", &log, "--events"], None);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let got = stdout(&out);
        assert!(
            got.contains(&format!("as {viewer} saw it at event 69 of 69")),
            "{got}"
        );
        let pinned = workspace_root()
            .join("tests/fixtures/lines")
            .join(format!("{name}.txt"));
        if std::env::var_os("TABLEHOLD_BLESS").is_some() {
            std::fs::write(&pinned, &got).unwrap_or_else(|e| panic!("{}: {e}", pinned.display()));
        }
        let want = std::fs::read_to_string(&pinned)
            .unwrap_or_else(|e| panic!("{}: {e} (TABLEHOLD_BLESS=1 writes it)", pinned.display()));
        assert_eq!(
            got,
            want,
            "{name}: the lines differ from {}",
            pinned.display()
        );
    }
    // The player's copy never reads the GM's hidden numbers: the goblin's TNs and weapon.
    let player =
        std::fs::read_to_string(workspace_root().join("tests/fixtures/lines/grimwire-ines.txt"))
            .unwrap_or_default();
    assert!(player.contains("vs hidden target"), "{player}");
    assert!(!player.contains("target 1"), "{player}");
    assert!(
        !player.contains("SECRET-7f3a") && !player.contains("9137"),
        "{player}"
    );
}

/// One export of a rule system's end-to-end encounter (`<system>_encounter`, test seed), and
/// what it must give: a moment of the fight as its viewer saw it, and one combatant's resource
/// there (`None`: the viewer does not hold it).
struct SystemFixture {
    file: &'static str,
    viewer: &'static str,
    events: u64,
    dice_checked: u64,
    digests: u64,
    at: u64,
    digest_at: &'static str,
    /// Whose turn it is (`None` in a system whose groups act together).
    current: Option<&'static str>,
    looked_at: (&'static str, &'static str, Option<i64>),
}

const SYSTEM_FIXTURES: [SystemFixture; 8] = [
    // vigor, just after Bryn's critical hit: the raider's Durability emptied, the GM's number.
    SystemFixture {
        file: "vigor-gm-test-seed.json",
        viewer: "gm",
        events: 83,
        dice_checked: 36,
        digests: 25,
        at: 44,
        digest_at: "35dda941ff78e0053d87a0aee6505132bdaef63d684e2b8a76bc625381c3754c",
        current: Some("bryn"),
        looked_at: ("raider", "durability", Some(0)),
    },
    SystemFixture {
        file: "vigor-ines-test-seed.json",
        viewer: "seat:ines",
        events: 83,
        dice_checked: 36,
        digests: 10,
        at: 44,
        digest_at: "1f1e652ba1ad91dd5e621f51a393fd02afa9873ead9396b5e78288879f0c770c",
        current: Some("bryn"),
        looked_at: ("raider", "durability", None),
    },
    // mist, round 2 just begun: the gunman at 0 Life with his jammed pistol, both the GM's.
    SystemFixture {
        file: "mist-gm-test-seed.json",
        viewer: "gm",
        events: 112,
        dice_checked: 35,
        digests: 25,
        at: 90,
        digest_at: "2224c3bc72c732c0c5f34fb4565caf1f19a94030070a7532ef2e12f9d0865ee8",
        current: None,
        looked_at: ("gunman", "life", Some(0)),
    },
    SystemFixture {
        file: "mist-ines-test-seed.json",
        viewer: "seat:ines",
        events: 112,
        dice_checked: 35,
        digests: 10,
        at: 90,
        digest_at: "f5f3d9968dcdb690f8139fcf45e6ddc722ee1ab89ff212ec9c04dd36df4bfbf2",
        current: None,
        looked_at: ("gunman", "life", None),
    },
    // tenacity, just after Missa's pushed check hindered the pirate: its stress the GM's.
    SystemFixture {
        file: "tenacity-gm-test-seed.json",
        viewer: "gm",
        events: 73,
        dice_checked: 36,
        digests: 20,
        at: 25,
        digest_at: "a92eb750a6c6b7c985c3336912c03e5175f3eceec56d5f56b1ed4902500b33bf",
        current: None,
        looked_at: ("pirate", "stress", Some(0)),
    },
    SystemFixture {
        file: "tenacity-ines-test-seed.json",
        viewer: "seat:ines",
        events: 73,
        dice_checked: 32,
        digests: 8,
        at: 25,
        digest_at: "58ab0aa09b41a4c55fda96c34754042dde5d1ed23aecfb1f803926a8150f3d00",
        current: None,
        looked_at: ("pirate", "stress", None),
    },
    // tinyd10, just after the goblin's blow: Brenna dying at 0 HP, seen by both; the goblin's
    // HP the GM's alone.
    SystemFixture {
        file: "tinyd10-gm-test-seed.json",
        viewer: "gm",
        events: 127,
        dice_checked: 14,
        digests: 55,
        at: 31,
        digest_at: "35aade926fe3b2370ebec43527924f631b9178a139b00ef118bc1b5beccc31ac",
        current: Some("goblin"),
        looked_at: ("goblin", "hp", Some(3)),
    },
    SystemFixture {
        file: "tinyd10-ines-test-seed.json",
        viewer: "seat:ines",
        events: 127,
        dice_checked: 12,
        digests: 22,
        at: 31,
        digest_at: "070e37603056f52acddab5ddb4370d4697778997b666d058ee9c938df701bb7c",
        current: Some("goblin"),
        looked_at: ("goblin", "hp", None),
    },
];

#[test]
fn the_system_fixture_logs_verify_and_replay_the_fight_as_each_seat_saw_it() {
    for f in SYSTEM_FIXTURES {
        let name = f.file;
        let file = LogFile::read(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(file.header.viewer, f.viewer);
        let report = verify(&file).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(report.test_seed, "{name}");
        assert_eq!(
            (report.events, report.epochs, report.dice_checked),
            (f.events, 1, f.dice_checked),
            "{name}"
        );
        let digests = replay(&file, None).map(|r| r.digests_checked).ok();
        assert_eq!(digests, Some(f.digests), "{name}");
        let at = f.at.to_string();
        let out = run(
            &[
                "replay",
                &fixture(name).display().to_string(),
                "--at",
                &at,
                "--json",
            ],
            None,
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let state: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
        assert_eq!(state["digest"], f.digest_at, "{name}");
        assert_eq!(state["encounter"]["current"].as_str(), f.current, "{name}");
        let (who, key, value) = f.looked_at;
        let c = state["combatants"]
            .as_array()
            .and_then(|cs| cs.iter().find(|c| c["id"] == who))
            .unwrap_or_else(|| panic!("{name}: no {who}"));
        assert_eq!(
            c["resources"].get(key).and_then(Value::as_i64),
            value,
            "{name}: {c}"
        );
    }
    // The tinyd10 pair at that moment: Brenna dying, for both.
    for viewer in ["gm", "ines"] {
        let log = fixture(&format!("tinyd10-{viewer}-test-seed.json"));
        let out = run(
            &["replay", &log.display().to_string(), "--at", "31", "--json"],
            None,
        );
        let state: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
        let brenna = state["combatants"]
            .as_array()
            .and_then(|cs| cs.iter().find(|c| c["id"] == "brenna"))
            .expect("brenna");
        assert_eq!(brenna["resources"]["hp"], 0, "{viewer}");
        assert!(
            brenna["statuses"].get("dying").is_some(),
            "{viewer}: {brenna}"
        );
    }
}

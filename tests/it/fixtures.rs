//! The committed fixture logs (`tests/fixtures/logs/`): real exports of a GRIMWIRE game from a
//! real server with OS-seeded epochs, a seat's entropy (revealed in the table's epoch,
//! withheld in the encounter's), salted hidden parts, a secret GM roll and attacks both ways,
//! one as the GM holds it and one as the player Ines does (the game of
//! `fairness::a_seat_adds_entropy_and_every_export_verifies_and_replays`). They are never regenerated: every later release must read, verify
//! and replay them to the same figures, through the library and through the binary.

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

/// What each fixture must give: (file, viewer, dice checked, draws hidden from the viewer,
/// digests checked on a full replay, the digest of the final state).
const EXPECTED: [(&str, &str, u64, u64, u64, &str); 2] = [
    (
        "grimwire-gm.json",
        "gm",
        14,
        0,
        18,
        "e03c99282947f449c2fe5a8e2be23646caf302de235b88805d50eaf6dc5887c0",
    ),
    (
        "grimwire-ines.json",
        "seat:ines",
        13,
        1,
        12,
        "5bbedd0b5af2eafad3ef17c90d946e22d2e5d7959f8dea5881105f003822817e",
    ),
];

#[test]
fn the_fixture_logs_verify_and_replay_to_their_recorded_figures() {
    for (name, viewer, dice, hidden, digests, last) in EXPECTED {
        let file = LogFile::read(&fixture(name)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(file.header.viewer, viewer);
        let report = verify(&file).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(report.events, 69, "{name}");
        assert_eq!((report.epochs, report.epochs_revealed), (2, 2), "{name}");
        assert_eq!(report.dice_checked, dice, "{name}");
        assert_eq!(report.draws_hidden, hidden, "{name}");
        assert!(!report.test_seed, "{name}");
        let whole = replay(&file, None).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(whole.digests_checked, digests, "{name}");
        assert_eq!(
            tablehold_rules::digest::digest_v1(&whole.state),
            last,
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

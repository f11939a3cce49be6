//! The `tablehold` client's network commands against a real server, driven only through the
//! binary: a GM, two players and a spectator sharing one config directory (one profile each,
//! picked with `--seat`), as four people testing on one machine would.
//!
//! The server runs with the test seed, so every die is known in advance: the numbers pinned
//! below are what that seed rolls for these sheets and these commands, in this order. A change
//! in what draws dice (or in the order of commands here) changes them.

use std::io::{BufRead as _, BufReader};
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use tablehold_log::{ExportedPart, LogFile, link, part_hash};
use tablehold_rules::dice::fair::{from_hex32, to_hex};

use serde_json::Value;
use tablehold_tests::server::TestServer;
use tablehold_tests::{bin, run_env, stderr, stdout, workspace_root};

/// Initiative with the test seed draws d20 faces 4, 6, 8, 1 for aune, goblin-1, goblin-2 and
/// mara (ids in order). With PER 3 and 6 the two PCs tie at 7; with PER 0 and -2 the goblins
/// tie at 6. So starting the encounter opens the players' tie prompt, and once it is answered,
/// the GM's tie prompt for the goblins.
pub(crate) const AUNE: &str = r#"
id = "aune"
name = "Aune"
kind = "pc"
level = 1
condition_max = 14
focus_max = 6
attributes = { TOG = 2, AGL = 3, COR = 3, MND = 1, PER = 3, RSN = 0 }
[[weapons]]
id = "knife"
name = "Knife"
class = "light"
damage = "1d4"
damage_type = "edged"
"#;

pub(crate) const MARA: &str = r#"
id = "mara"
name = "Mara"
kind = "pc"
level = 1
condition_max = 14
focus_max = 4
attributes = { TOG = 2, AGL = 2, COR = 1, MND = 0, PER = 6, RSN = 1 }
"#;

pub(crate) const GOBLIN_1: &str = r#"
id = "goblin-1"
name = "Goblin"
kind = "npc"
level = 1
condition_max = 6
focus_max = 0
attributes = { TOG = 1, AGL = 1, COR = 1, MND = 0, PER = 0, RSN = 0 }
[[weapons]]
id = "cleaver"
name = "Cleaver"
class = "light"
damage = "1d6"
damage_type = "edged"
[npc]
defence_tn = 10
attack_tn = 11
"#;

/// Frail on purpose (Condition 3), so that the fight below leaves it dying.
pub(crate) const GOBLIN_2: &str = r#"
id = "goblin-2"
name = "Goblin"
kind = "npc"
level = 1
condition_max = 3
focus_max = 0
attributes = { TOG = 1, AGL = 1, COR = 1, MND = 0, PER = -2, RSN = 0 }
[[weapons]]
id = "club"
name = "Club"
class = "light"
damage = "1d4"
damage_type = "blunt"
[npc]
defence_tn = 8
attack_tn = 11
"#;

/// Four people's `tablehold`, sharing one config directory and one server (also used by
/// `watch.rs`).
pub(crate) struct Table {
    pub(crate) server: TestServer,
    dir: tempfile::TempDir,
    pub(crate) config: PathBuf,
}

impl Table {
    pub(crate) fn new() -> Table {
        Table::with_server(&[])
    }

    /// A table on a server started with `flags` added.
    pub(crate) fn with_server(flags: &[&str]) -> Table {
        let server = TestServer::start(flags);
        let dir = tempfile::tempdir().expect("temp dir");
        let config = dir.path().join("config");
        Table {
            server,
            dir,
            config,
        }
    }

    /// Runs `tablehold ARGS` with this table's config directory (and `--seat SEAT` if given).
    pub(crate) fn run(&self, seat: Option<&str>, args: &[&str]) -> Output {
        let mut all: Vec<&str> = Vec::new();
        if let Some(s) = seat {
            all.extend(["--seat", s]);
        }
        all.extend(args);
        run_env(
            &all,
            None,
            &[("TABLEHOLD_CONFIG_DIR", self.config.as_os_str())],
        )
    }

    /// Runs as `seat` and expects success; returns stdout.
    pub(crate) fn ok(&self, seat: &str, args: &[&str]) -> String {
        let out = self.run(Some(seat), args);
        assert!(
            out.status.success(),
            "{seat}: tablehold {args:?} failed: {}{}",
            stdout(&out),
            stderr(&out)
        );
        stdout(&out)
    }

    /// Runs as `seat` and expects exit code 1; returns stderr.
    pub(crate) fn fails(&self, seat: &str, args: &[&str]) -> String {
        let out = self.run(Some(seat), args);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{seat}: tablehold {args:?} should fail with 1: {}{}",
            stdout(&out),
            stderr(&out)
        );
        assert!(
            stdout(&out).is_empty(),
            "nothing on stdout: {}",
            stdout(&out)
        );
        stderr(&out)
    }

    pub(crate) fn state(&self, seat: &str) -> Value {
        serde_json::from_str(&self.ok(seat, &["state", "--json"])).expect("state --json is JSON")
    }

    /// A file in the test's directory.
    pub(crate) fn file(&self, name: &str, text: &str) -> String {
        let path = self.dir.path().join(name);
        std::fs::write(&path, text).expect("write");
        path.display().to_string()
    }

    /// Creates a table as the GM (profile `gm`), then joins Ines and Rui as players and Eve
    /// as a spectator (profiles `ines`, `rui`, `eve`); returns the table id.
    pub(crate) fn seat_everyone(&self, options: &[&str]) -> String {
        self.seat_everyone_on("grimwire", options)
    }

    /// [`Table::seat_everyone`] on a table of `system`.
    pub(crate) fn seat_everyone_on(&self, system: &str, options: &[&str]) -> String {
        let mut args = vec![
            "table",
            "create",
            "--system",
            system,
            "--name",
            "friday",
            "--players",
            "2",
            "--spectators",
            "1",
            "--server",
            &self.server.url,
            "--json",
        ];
        for o in options {
            args.extend(["--option", o]);
        }
        let out = self.run(None, &args);
        assert!(out.status.success(), "create: {}", stderr(&out));
        let created: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
        assert_eq!(created["profile"], "gm");
        let table = created["table"].as_str().expect("table id").to_owned();
        let codes: Vec<(String, String)> = created["invites"]
            .as_array()
            .expect("invites")
            .iter()
            .map(|i| {
                (
                    i["role"].to_string(),
                    i["code"].as_str().expect("code").to_owned(),
                )
            })
            .collect();
        assert_eq!(codes.len(), 3);
        for ((role, code), name) in codes.iter().zip(["Ines", "Rui", "Eve"]) {
            let out = self.run(
                None,
                &[
                    "join",
                    &table,
                    "--invite",
                    code,
                    "--name",
                    name,
                    "--server",
                    &self.server.url,
                ],
            );
            assert!(out.status.success(), "join: {}", stderr(&out));
            let id = name.to_lowercase();
            let role = role.trim_matches('"');
            assert_eq!(
                stdout(&out).lines().next(),
                Some(format!("joined table {table} as {id} ({name}, {role})").as_str())
            );
        }
        table
    }

    pub(crate) fn add_everyone(&self) {
        let out = self.ok("ines", &["sheet", "add", &self.file("aune.toml", AUNE)]);
        assert_eq!(out, "#1 aune joins the table\n");
        self.ok("rui", &["sheet", "add", &self.file("mara.toml", MARA)]);
        // Several sheets in one command, in the order given.
        let out = self.ok(
            "gm",
            &[
                "npc",
                "add",
                &self.file("g1.toml", GOBLIN_1),
                &self.file("g2.toml", GOBLIN_2),
            ],
        );
        assert_eq!(
            out,
            "#3 goblin-1 joins the table\n#4 goblin-2 joins the table\n"
        );
    }
}

fn combatant<'a>(state: &'a Value, id: &str) -> &'a Value {
    state["combatants"]
        .as_array()
        .expect("combatants")
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("{id} is not at the table: {state}"))
}

fn condition(state: &Value, id: &str) -> i64 {
    combatant(state, id)["resources"]["condition"]
        .as_i64()
        .unwrap_or_else(|| panic!("no condition for {id}"))
}

fn statuses(state: &Value, id: &str) -> Vec<String> {
    combatant(state, id)["statuses"]
        .as_array()
        .expect("statuses")
        .iter()
        .map(|s| s.as_str().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn an_encounter_is_played_through_the_binary_alone() {
    let t = Table::new();
    t.seat_everyone(&[
        "decision.timeout_ms=3000",
        "grimwire.same_side_ties=ask_once",
        // The out-cold goblin's turns wait for the GM, as when this game was pinned.
        "grimwire.idle_turns=wait",
    ]);
    t.add_everyone();

    // Initiative: the PCs tie at 7 and their players are asked who goes first.
    let started = t.ok("gm", &["encounter", "start"]);
    assert!(
        started.contains("Initiative tie between aune, mara: who goes first? [aune, mara]"),
        "{started}"
    );
    // Rui picks Mara, against the default (aune). The 3 s window is far longer than one
    // run of the client, which reads the open prompt from `state` and answers it.
    let answered = t.ok("rui", &["answer", "mara"]);
    assert!(answered.contains("player rui chose `mara`"), "{answered}");
    assert!(
        answered.contains("turn order: mara, aune, goblin-1, goblin-2"),
        "{answered}"
    );
    // Then the goblins' tie goes to the GM, who lets it time out: the default applies. The
    // player only learns that the GM has something to decide; the GM sees the question.
    assert!(
        answered.contains("the GM has a decision to make"),
        "{answered}"
    );
    assert!(!answered.contains("goblin-1, goblin-2?"), "{answered}");
    let gm_log = t.ok("gm", &["log"]);
    assert!(
        gm_log.contains("asks GM: Initiative tie between goblin-1, goblin-2"),
        "{gm_log}"
    );
    // `state --json` shows it open until its 3 s are up, then gone.
    let asked = Instant::now();
    let s = loop {
        let s = t.state("eve");
        if s["prompt"].is_null() {
            break s;
        }
        assert_eq!(s["prompt"]["prompt_id"], 1, "{s}");
        assert_eq!(s["prompt"]["seats"], serde_json::json!(["gm"]));
        assert!(
            asked.elapsed() < Duration::from_secs(10),
            "the prompt never timed out"
        );
    };
    assert_eq!(s["round"], 1);
    assert_eq!(s["current"], "mara");
    assert_eq!(
        s["order"],
        serde_json::json!(["mara", "aune", "goblin-1", "goblin-2"])
    );
    // The log says how each prompt was settled, in text and as JSON lines. A prompt's answer
    // is for those it asked (and the GM): the spectator learns who settled each, not how.
    let log = t.ok("eve", &["log"]);
    assert!(
        log.contains("#22 prompt 1: decided by the timeout"),
        "{log}"
    );
    assert!(!log.contains("chose"), "{log}");
    let gm_log = t.ok("gm", &["log"]);
    assert!(
        gm_log.contains("#22 prompt 1: the timeout chose `goblin-1`"),
        "{gm_log}"
    );
    let resolved = |seat: &str| -> Vec<Value> {
        t.ok(seat, &["log", "--jsonl"])
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).expect("one JSON object per line"))
            .flat_map(|e| e["parts"].as_array().cloned().unwrap_or_default())
            .map(|p| p["fact"].clone())
            .filter(|f| f["fact"] == "decision_resolved")
            .collect()
    };
    assert_eq!(
        resolved("gm"),
        vec![
            serde_json::json!({"fact": "decision_resolved", "prompt_id": 0, "choice": "mara",
                "by": {"seat": {"player": "rui"}}}),
            serde_json::json!({"fact": "decision_resolved", "prompt_id": 1,
                "choice": "goblin-1", "by": "timed_out"}),
        ]
    );
    assert_eq!(
        resolved("eve"),
        vec![
            serde_json::json!({"fact": "decision_resolved", "prompt_id": 0, "choice": "",
                "by": {"seat": {"player": "rui"}}}),
            serde_json::json!({"fact": "decision_resolved", "prompt_id": 1,
                "choice": "", "by": "timed_out"}),
        ]
    );
    // Ines was asked about the first tie, so she sees Rui's choice; not the GM's.
    let ines = resolved("ines");
    assert_eq!(ines[0]["choice"], "mara");
    assert_eq!(ines[1]["choice"], "");

    // The fight: whoever `state` says is current attacks, then ends the turn. The players go
    // for the frail goblin-2 until it is down, then for goblin-1; the goblins attack Mara.
    let mut turns = Vec::new();
    for _ in 0..8 {
        let s = t.state("eve");
        let current = s["current"].as_str().expect("someone's turn").to_owned();
        let target = if statuses(&s, "goblin-2").is_empty() {
            "target=goblin-2"
        } else {
            "target=goblin-1"
        };
        let (seat, attack) = match current.as_str() {
            "mara" => ("rui", vec!["attack", target]),
            "aune" => ("ines", vec!["attack", target, "weapon=knife"]),
            "goblin-1" => ("gm", vec!["attack", "target=mara", "weapon=cleaver"]),
            "goblin-2" => ("gm", vec!["attack", "target=mara", "weapon=club"]),
            other => panic!("unexpected turn: {other}"),
        };
        // Out cold, a combatant can only end its turn.
        if statuses(&s, &current).is_empty() {
            t.ok(seat, &[vec!["act"], attack].concat());
        }
        t.ok(seat, &["act", "end_turn"]);
        turns.push(current);
    }
    assert_eq!(
        turns,
        [
            "mara", "aune", "goblin-1", "goblin-2", "mara", "aune", "goblin-1", "goblin-2"
        ]
    );

    // Pinned from the test seed. Round 1: Mara misses goblin-2 (d20 6), Aune's knife (19, then
    // 1d4 2 + TOG 2) takes it from 3 to -1: dying and out cold; Mara evades goblin-1 (17);
    // goblin-2 loses 1 at the start of its turn. Round 2: Mara's fists (11) and Aune's knife
    // (13, 1d4 1) take goblin-1 from 6 to 1; Mara's evade rolls a natural 1 and the cleaver
    // (1d6 6 + TOG 1) takes her from 14 to 7; goblin-2 ticks to -3. Round 3 starts with Mara.
    let s = t.state("gm");
    assert_eq!(s["round"], 3);
    assert_eq!(s["current"], "mara");
    assert!(s["prompt"].is_null());
    let conditions: Vec<i64> = ["aune", "goblin-1", "goblin-2", "mara"]
        .iter()
        .map(|id| condition(&s, id))
        .collect();
    assert_eq!(conditions, [14, 1, -3, 7]);
    let resource = |id: &str, name: &str| combatant(&s, id)["resources"][name].as_i64();
    // Falling to 0 or below cost goblin-2 a level of burnout; no one spent Focus.
    let burnout: Vec<Option<i64>> = ["aune", "goblin-1", "goblin-2", "mara"]
        .iter()
        .map(|id| resource(id, "burnout"))
        .collect();
    assert_eq!(burnout, [Some(0), Some(0), Some(1), Some(0)]);
    assert_eq!(
        (resource("aune", "focus"), resource("mara", "focus")),
        (Some(6), Some(4))
    );
    assert_eq!(statuses(&s, "goblin-2"), ["dying", "out_cold"]);
    for id in ["aune", "goblin-1", "mara"] {
        assert!(statuses(&s, id).is_empty(), "{id}: {:?}", statuses(&s, id));
    }
    // The spectator sees the same table without the goblins' numbers.
    let seen = t.state("eve");
    assert_eq!(seen["current"], "mara");
    assert!(combatant(&seen, "goblin-2")["resources"].is_null());
    assert_eq!(statuses(&seen, "goblin-2"), ["dying", "out_cold"]);
    assert_eq!(condition(&seen, "mara"), 7);
    // The text form shows the same.
    let text = t.ok("ines", &["state"]);
    assert!(text.contains("encounter: round 3, mara's turn"), "{text}");
    assert!(
        text.contains("goblin-2 (Goblin; npc, side enemies): numbers hidden; dying, out_cold"),
        "{text}"
    );

    replay_and_tamper(&t, &s);
}

/// The encounter above, exported by the GM and by Ines: both replay to the state the server
/// holds, checking every turn's digest on the way; the test seed is reported; tampered and
/// broken files are caught by name.
fn replay_and_tamper(t: &Table, gm_state: &Value) {
    let path = |name: &str| t.dir.path().join(name).display().to_string();
    for seat in ["gm", "ines"] {
        let out = t.ok(
            seat,
            &["log", "export", "--out", &path(&format!("{seat}.json"))],
        );
        assert!(out.is_empty() || out.contains("events"), "{out}");
    }
    // Made with the test seed: reported, and exit 3 unless allowed.
    let out = t.run(None, &["verify", &path("gm.json")]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("INSECURE TEST SEED"),
        "{}",
        stderr(&out)
    );
    for seat in ["gm", "ines"] {
        let out = t.run(
            None,
            &[
                "verify",
                "--allow-test-seed",
                &path(&format!("{seat}.json")),
            ],
        );
        // Taken mid-encounter: nothing is wrong, but the encounter's dice wait for its seed.
        assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
        assert!(stdout(&out).starts_with("OK: "), "{}", stdout(&out));
        assert!(
            stderr(&out).contains("not yet verifiable: ")
                && stderr(&out).contains("in epochs whose seed is not revealed yet"),
            "{}",
            stderr(&out)
        );
    }

    // Replayed to its end, each seat's file gives the state the table shows that seat, and
    // every digest the table recorded for that seat (one per turn) matches on the way.
    let turns = t
        .ok("gm", &["log", "--jsonl"])
        .lines()
        .filter(|l| l.contains("\"turn_started\""))
        .count();
    assert!(turns >= 8, "{turns}");
    let gm_replay: Value =
        serde_json::from_str(&t.ok("gm", &["replay", &path("gm.json"), "--json"]))
            .expect("replay --json is JSON");
    let ines_replay: Value =
        serde_json::from_str(&t.ok("ines", &["replay", &path("ines.json"), "--json"]))
            .expect("replay --json is JSON");
    assert_eq!(gm_replay["digest"], gm_state["digest"], "{gm_replay}");
    // The GM checks every audience's digests: GM, public, and the three seats.
    assert_eq!(gm_replay["digests_checked"], 5 * turns, "{gm_replay}");
    // A seat checks its own and the public ones.
    assert_eq!(ines_replay["digests_checked"], 2 * turns, "{ines_replay}");
    assert_eq!(ines_replay["encounter"]["round"], 3);
    assert_eq!(ines_replay["encounter"]["current"], "mara");
    let goblin = ines_replay["combatants"]
        .as_array()
        .expect("combatants")
        .iter()
        .find(|c| c["id"] == "goblin-2")
        .expect("the seat knows goblin-2 by name");
    assert_eq!(goblin["resources"], serde_json::json!({}), "{goblin}");
    // Back in time: before the first turn nobody had acted.
    let early: Value =
        serde_json::from_str(&t.ok("gm", &["replay", &path("gm.json"), "--at", "8", "--json"]))
            .expect("JSON");
    assert_eq!(early["seq"], 8);
    assert_eq!(early["encounter"]["round"], 0);

    // One digest of Ines's altered and the chain sealed again: replay stops at that event.
    let mut file = LogFile::read(Path::new(&path("ines.json"))).expect("readable");
    let (at, part) =
        file.events
            .iter()
            .enumerate()
            .skip(file.events.len() / 2)
            .find_map(|(i, e)| {
                e.parts.iter().position(|p| {
                matches!(p, ExportedPart::Shown { json } if json.contains("\"seat:ines\""))
            })
            .map(|j| (i, j))
            })
            .expect("a digest recorded for Ines");
    if let ExportedPart::Shown { json } = &mut file.events[at].parts[part] {
        let digest_at = json.find("\"digest\":\"").expect("digest field") + 10;
        let flipped = if &json[digest_at..=digest_at] == "0" {
            "1"
        } else {
            "0"
        };
        json.replace_range(digest_at..=digest_at, flipped);
    }
    reseal(&mut file, at);
    std::fs::write(path("altered.json"), file.to_json()).expect("write");
    let out = t.run(None, &["replay", &path("altered.json")]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let said = format!("{}{}", stdout(&out), stderr(&out));
    assert!(
        said.contains(&format!("seq {}", at + 1)) && said.contains("seat:ines"),
        "{said}"
    );

    // Verified on its own, the resealed file holds together until its digest; checked against
    // what Ines kept, it is caught at the event that changed. The GM's copy extends hers.
    let against = |kept: &str, file: &str| {
        t.run(
            None,
            &[
                "verify",
                "--allow-test-seed",
                "--against",
                &path(kept),
                &path(file),
            ],
        )
    };
    // What she kept: her export, and the links her client printed as the events came
    // (`log --jsonl`).
    std::fs::write(path("ines.jsonl"), t.ok("ines", &["log", "--jsonl"])).expect("write");
    for kept in ["ines.json", "ines.jsonl"] {
        let out = against(kept, "altered.json");
        assert_eq!(out.status.code(), Some(1), "{kept}: {}", stdout(&out));
        assert!(
            stdout(&out).starts_with(&format!("FAIL at seq {}: ", at + 1)),
            "{kept}: {}",
            stdout(&out)
        );
    }
    let out = against("ines.json", "gm.json");
    // The encounter still runs: extended unchanged, and not yet verifiable.
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("extends the earlier copy's"),
        "{}",
        stdout(&out)
    );

    // A flipped byte in a shown part, the chain left alone: verify names the event.
    let text = std::fs::read_to_string(path("gm.json")).expect("read");
    let at = text.find("initiative").expect("an initiative roll");
    let tampered = format!(
        "{}Initiative{}",
        &text[..at],
        &text[at + "initiative".len()..]
    );
    std::fs::write(path("flipped.json"), tampered).expect("write");
    let out = t.run(
        None,
        &["verify", "--allow-test-seed", &path("flipped.json")],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).starts_with("FAIL at seq "), "{}", stdout(&out));

    // Files that are not whole logs: exit 2 and the file named.
    let cut = &text[..text.len() / 2];
    std::fs::write(path("cut.json"), cut).expect("write");
    let newer = text.replacen("\"version\": 1", "\"version\": 9", 1);
    std::fs::write(path("newer.json"), newer).expect("write");
    for (name, says) in [("cut.json", "cut short"), ("newer.json", "newer Tablehold")] {
        let out = t.run(None, &["verify", &path(name)]);
        assert_eq!(out.status.code(), Some(2), "{name}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(name) && stderr(&out).contains(says),
            "{name}: {}",
            stderr(&out)
        );
    }
}

/// Recomputes every link from event index `from` on, as someone covering an edit would.
fn reseal(file: &mut LogFile, from: usize) {
    let mut prev = match from {
        0 => tablehold_log::GENESIS,
        i => from_hex32(&file.events[i - 1].link).expect("hex link"),
    };
    for e in &mut file.events[from..] {
        let hashes: Vec<[u8; 32]> = e
            .parts
            .iter()
            .map(|p| match p {
                ExportedPart::Shown { json } => part_hash(json.as_bytes()),
                ExportedPart::Hidden { hidden } => from_hex32(hidden).expect("hex hash"),
            })
            .collect();
        prev = link(&prev, &e.header, hashes);
        e.link = to_hex(&prev);
    }
}

#[test]
fn bad_input_through_the_binary_exits_1_with_the_servers_code() {
    let t = Table::new();
    t.seat_everyone(&["grimwire.same_side_ties=fixed"]);
    t.add_everyone();
    t.ok("gm", &["encounter", "start"]);
    let s = t.state("gm");
    let current = s["current"].as_str().expect("someone's turn").to_owned();
    // With the test seed Aune and Mara tie at 7; `fixed` keeps id order, so Aune goes first.
    assert_eq!(current, "aune");

    // Out of turn: the catalogue does not list it, so the server is asked and says why not.
    let err = t.fails("rui", &["act", "attack", "target=goblin-1"]);
    assert_eq!(
        err.lines().next(),
        Some("error: not_your_turn: it is not mara's turn (it is aune's)"),
        "{err}"
    );
    // An action no one has: the server's code, and what the seat may do instead.
    let err = t.fails("ines", &["act", "fly", "to=3,4"]);
    assert!(err.starts_with("error: unknown_action: "), "{err}");
    assert!(
        err.contains(
            "actions your seat may take now: attack, auxiliary, break_free, check, choke, dash"
        ),
        "{err}"
    );
    // Arguments checked against the catalogue: a bad kind, an unknown name, a GM-only one.
    let err = t.fails("ines", &["act", "move", "to=north"]);
    assert_eq!(
        err,
        "error: bad_request: argument `to` of `move` must be a cell X,Y, got `north`\n"
    );
    let err = t.fails("ines", &["act", "attack", "taget=goblin-1"]);
    assert!(
        err.starts_with("error: bad_request: `attack` has no argument `taget`; its arguments: target (entity), weapon (text)"),
        "{err}"
    );
    // See: issue #19: a GM-only argument is listed as such, so a player hears it is the GM's.
    let err = t.fails("ines", &["act", "attack", "target=goblin-1", "tn=3"]);
    assert_eq!(err, "error: forbidden: `tn` is the GM's to give\n");
    // The server's own argument checks come back with its code.
    let err = t.fails("ines", &["act", "check", "attribute=LUCK"]);
    assert!(err.starts_with("error: bad_request: "), "{err}");
    assert!(err.contains("LUCK"), "{err}");
    // A spectator acting, a player doing the GM's work, answering no prompt.
    let err = t.fails("eve", &["act", "attack", "target=goblin-1"]);
    assert!(err.starts_with("error: "), "{err}");
    let err = t.fails("ines", &["invite", "--role", "player"]);
    assert!(err.starts_with("error: forbidden: "), "{err}");
    let err = t.fails("ines", &["answer", "yes"]);
    assert_eq!(err, "error: no_such_prompt: no prompt is open to you\n");
    // A profile that does not exist, and a command line clap refuses (exit 2).
    let err = t.fails("nobody", &["state"]);
    assert!(err.contains("no profile `nobody`"), "{err}");
    assert!(err.contains("saved profiles: eve, gm, ines, rui"), "{err}");
    let out = t.run(Some("ines"), &["act"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    // `--seat gm revoke eve` acts as the GM on the seat named after `revoke`.
    let seats = t.ok("gm", &["revoke", "eve"]);
    assert!(seats.contains("eve"), "{seats}");
    let err = t.fails("eve", &["state"]);
    assert!(
        err.starts_with("error: bad_credentials: this seat was revoked"),
        "{err}"
    );
    // Through all this the table carried on: still Aune's turn, nothing applied.
    let after = t.state("gm");
    assert_eq!(after["current"], "aune");
    assert_eq!(after["head"], s["head"]);
    // The catalogue, with help, as `act --list` prints it.
    let list = t.ok("ines", &["act", "--list"]);
    assert!(list.contains("attack (actor aune) [costs action"), "{list}");
    assert!(
        list.contains("    target=entity  required: who is attacked"),
        "{list}"
    );
}

#[test]
fn profiles_are_private_and_never_overwritten() {
    let t = Table::new();
    let table = t.seat_everyone(&[]);
    let mode = |p: &Path| std::fs::metadata(p).expect("exists").permissions().mode() & 0o777;
    assert_eq!(mode(&t.config), 0o700);
    for name in ["gm.toml", "ines.toml", "rui.toml", "eve.toml", "default"] {
        assert_eq!(mode(&t.config.join(name)), 0o600, "{name}");
    }
    let profile = std::fs::read_to_string(t.config.join("ines.toml")).expect("profile");
    assert!(
        profile.contains(&format!("table = \"{table}\"")),
        "{profile}"
    );
    assert!(profile.contains("seat = \"ines\"\n"), "{profile}");
    assert!(profile.contains("role = \"player\"\n"), "{profile}");
    assert!(profile.contains("token = \""), "{profile}");
    // The last seat joined is the default.
    assert_eq!(
        std::fs::read_to_string(t.config.join("default")).expect("default"),
        "eve\n"
    );
    let out = t.run(None, &["seats"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "eve   spectator  Eve\ngm    gm         GM\nines  player     Ines\nrui   player     Rui\n"
    );
    // A second table does not replace the first GM's profile...
    let create = [
        "table",
        "create",
        "--system",
        "grimwire",
        "--name",
        "two",
        "--server",
        &t.server.url,
    ];
    let out = t.run(None, &create);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("profile gm-2 ("), "{}", stdout(&out));
    // ...and an explicit name that is taken is refused before the server is asked.
    let out = t.run(None, &[&create[..], &["--as", "ines"]].concat());
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("a profile `ines` already exists"),
        "{}",
        stderr(&out)
    );
    assert_eq!(mode(&t.config.join("gm-2.toml")), 0o600);
}

#[test]
fn log_follow_prints_events_as_they_happen_and_keeps_the_connection_open() {
    // The server closes connections that send nothing for 1 s; the follower sends a request
    // whenever it has been quiet for 200 ms.
    // A long entropy window: the roll below would wait it out if the follower did not take
    // part in the dice epoch by itself.
    let t = Table::with_server(&["--idle-timeout-ms", "1000", "--entropy-window-ms", "20000"]);
    t.seat_everyone(&[]);
    let entropy = "e7".repeat(32);
    let mut child = Command::new(bin("tablehold"))
        .args([
            "--seat",
            "eve",
            "log",
            "--follow",
            "--jsonl",
            "--keepalive-ms",
            "200",
            "--entropy",
            &entropy,
        ])
        .env("TABLEHOLD_CONFIG_DIR", &t.config)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start tablehold log --follow");
    let (tx, rx) = mpsc::channel();
    let pipe = child.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    // A connection that stays silent is closed by the idle timeout: once it is, the follower
    // has been connected longer than that, with nothing happening at the table.
    let closed = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(async {
            let mut silent = tablehold_tests::server::Raw::connect(&t.server.url).await;
            silent.next().await.is_none()
        });
    assert!(closed, "the server closes a silent connection");
    assert!(
        child.try_wait().expect("wait").is_none(),
        "the follower is still there"
    );
    let asked = Instant::now();
    t.ok("gm", &["roll", "1d6"]);
    assert!(
        asked.elapsed() < Duration::from_secs(10),
        "the follower committed and revealed at once, so the roll did not wait out the window"
    );
    let log = t.ok("gm", &["log"]);
    assert!(log.contains("eve commits entropy to epoch 1"), "{log}");
    assert!(
        log.contains(&format!(
            "eve reveals entropy for epoch 1: {}",
            &entropy[..12]
        )),
        "{log}"
    );
    // The dice epoch opens first (the follower takes part in it), then the roll.
    let event = loop {
        let line = rx
            .recv_timeout(Duration::from_secs(10))
            .expect("the roll, printed as it happened");
        let event: Value = serde_json::from_str(&line).expect("JSON");
        if event["parts"][0]["fact"]["fact"] == "rolled" {
            break event;
        }
    };
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(event["parts"][0]["audience"], "everyone");
    assert_eq!(event["parts"][0]["fact"]["fact"], "rolled");
    assert_eq!(event["parts"][0]["fact"]["roll"]["expr"], "1d6");
}

#[test]
fn a_wss_server_is_reached_with_the_ca_named_once() {
    let tls = workspace_root().join("tests").join("fixtures").join("tls");
    let path = |name: &str| tls.join(name).display().to_string();
    let t = Table::with_server(&[
        "--tls-cert",
        &path("server.pem"),
        "--tls-key",
        &path("server.key"),
    ]);
    assert!(t.server.url.starts_with("wss://"), "{}", t.server.url);
    let create = [
        "table",
        "create",
        "--system",
        "grimwire",
        "--name",
        "tls",
        "--server",
        &t.server.url,
    ];
    // This build bundles no root certificates: without a CA, it says so before connecting.
    let out = t.run(None, &create);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("wss:// needs --ca-cert FILE"),
        "{}",
        stderr(&out)
    );
    // A CA that did not sign the server's certificate is refused by TLS.
    let out = t.run(
        None,
        &[&["--ca-cert", &path("server.pem")][..], &create].concat(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("UnknownIssuer"), "{}", stderr(&out));
    // With the right one the profile keeps it, so later commands need not repeat it.
    let out = t.run(
        None,
        &[&["--ca-cert", &path("ca.pem")][..], &create].concat(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let rolled = t.ok("gm", &["roll", "1d6"]);
    assert!(rolled.starts_with("#4 rolled roll by GM: 1d6="), "{rolled}");
}

// See: issue #24 ("a player can take another player's character"), through the binary: a
// replaced sheet says so, and only the GM gives a character to another seat.
#[test]
fn sheets_are_replaced_and_given_away_through_the_binary() {
    let t = Table::new();
    t.seat_everyone(&[]);
    let aune = t.file("aune.toml", AUNE);
    assert_eq!(
        t.ok("ines", &["sheet", "add", &aune]),
        "#1 aune joins the table\n"
    );
    assert_eq!(
        t.ok("ines", &["sheet", "add", &aune]),
        "#2 aune's sheet is replaced\n"
    );
    let err = t.fails("ines", &["sheet", "assign", "aune", "rui"]);
    assert!(err.starts_with("error: forbidden: "), "{err}");
    assert_eq!(
        t.ok("gm", &["sheet", "assign", "aune", "rui"]),
        "#3 aune is now played by rui\n"
    );
    assert_eq!(t.ok("gm", &["sheet", "assign", "aune", "rui"]), "done\n");
    let err = t.fails("ines", &["sheet", "add", &aune]);
    assert!(
        err.starts_with("error: forbidden: `aune` is at the table and is not your character"),
        "{err}"
    );
    let err = t.fails("gm", &["sheet", "assign", "aune", "eve"]);
    assert!(
        err.starts_with("error: bad_request: no player seat `eve`"),
        "{err}"
    );
    assert_eq!(
        t.ok("gm", &["sheet", "assign", "aune", "--gm"]),
        "#4 aune is now played by the GM\n"
    );
}

#[test]
fn a_misspelt_action_or_argument_or_command_gets_what_would_work() {
    let t = Table::new();
    t.seat_everyone(&["grimwire.same_side_ties=fixed"]);
    t.add_everyone();
    t.ok("gm", &["encounter", "start"]);
    // Aune's turn (see `bad_input_through_the_binary_exits_1_with_the_servers_code`).
    assert_eq!(t.state("gm")["current"], "aune");
    // The server knows no `atack`; the seat's catalogue has `attack`.
    let err = t.fails("ines", &["act", "atack", "target=goblin-1"]);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: unknown_action: "), "{err}");
    assert!(err.contains("; did you mean `attack`?"), "{err}");
    // A slipped argument name: the one meant, with the value typed.
    let err = t.fails("ines", &["act", "attack", "taget=goblin-1", "weapon=knife"]);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.trim_end()
            .ends_with("has no argument `taget`; its arguments: target (entity), weapon (text), modifier (int), tn (int), hidden (flag), distance_m (int), cover (flag), targeted (flag), nonlethal (flag); did you mean `target=goblin-1`?"),
        "{err}"
    );
    // Nothing close: no guess, the list as before.
    let err = t.fails("ines", &["act", "fly"]);
    assert!(!err.contains("did you mean"), "{err}");
    assert!(err.contains("actions your seat may take now: "), "{err}");
    // What clap refuses, it suggests for (exit 2): a subcommand, a flag.
    for (args, tip) in [
        (&["wacth"][..], "'watch'"),
        (&["log", "--folow"][..], "'--follow'"),
    ] {
        let out = t.run(Some("ines"), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("similar") && stderr(&out).contains(tip),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    // The table carried on: nothing applied.
    assert_eq!(t.state("gm")["current"], "aune");
}

#[test]
fn a_first_run_keeps_data_out_of_the_checkout_and_says_how_to_start_a_server() {
    let dir = tempfile::tempdir().expect("temp dir");
    let home = dir.path().join("home");
    let cwd = dir.path().join("cwd");
    std::fs::create_dir_all(&cwd).expect("mkdir");
    // No --data: the tables go to the platform's data directory (here XDG_DATA_HOME), which
    // is created, private, and named in the log; nothing lands where the server was started.
    let mut server = Command::new(bin("tablehold-server"))
        .args(["--listen", "127.0.0.1:0", "--log", "info"])
        .env("HOME", &home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env_remove("TABLEHOLD_DATA")
        .current_dir(&cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tablehold-server");
    let (tx, rx) = mpsc::channel();
    let stderr_pipe = server.stderr.take().expect("stderr");
    std::thread::spawn(move || {
        for line in BufReader::new(stderr_pipe).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let mut out_lines = BufReader::new(server.stdout.take().expect("stdout")).lines();
    let listening = out_lines
        .next()
        .and_then(Result::ok)
        .and_then(|l| l.strip_prefix("listening on ").map(str::to_owned));
    let data = home.join("data").join("tablehold").join("tablehold.db");
    let said = loop {
        match rx.recv_timeout(Duration::from_secs(10)) {
            Ok(line) if line.contains("tables are kept in") => break line,
            Ok(_) => {}
            Err(_) => break String::new(),
        }
    };
    let _ = server.kill();
    let _ = server.wait();
    assert!(listening.is_some(), "the server listened");
    assert!(said.contains(&data.display().to_string()), "{said}");
    assert!(data.is_file(), "{} was created", data.display());
    let mode = std::fs::metadata(data.parent().expect("dir"))
        .expect("dir")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o700);
    assert_eq!(std::fs::read_dir(&cwd).expect("cwd").count(), 0);

    // With no server listening, the client says how to start one.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let url = format!("ws://127.0.0.1:{port}");
    let config = dir.path().join("config");
    let out = run_env(
        &[
            "table", "create", "--system", "grimwire", "--name", "x", "--server", &url,
        ],
        None,
        &[("TABLEHOLD_CONFIG_DIR", config.as_os_str())],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "error: no Tablehold server at {url}: start one with `tablehold-server` (or check \
             the address, `--server`)\n"
        )
    );
}

// See: issue #9 (the grid model). The GM marks a cell; every seat's `state` shows it, in the
// words the system gave, with the system's grid; a cover the system does not name is refused.
#[test]
fn the_gm_marks_the_terrain_and_every_seat_sees_it() {
    let t = Table::new();
    t.seat_everyone(&[]);
    let said = t.ok(
        "gm",
        &[
            "act",
            "rule.terrain",
            "cell=2,-1",
            "difficult",
            "cover=cover",
        ],
    );
    assert!(
        said.contains("the cell (2, -1) is now difficult, cover (GM ruling)"),
        "{said}"
    );
    assert!(
        said.contains("terrain at (2, -1): difficult, cover"),
        "{said}"
    );
    let err = t.fails("gm", &["act", "rule.terrain", "cell=0,0", "cover=half"]);
    assert!(err.starts_with("error: bad_request: "), "{err}");
    assert!(err.contains("cover"), "{err}");
    let err = t.fails("ines", &["act", "rule.terrain", "cell=0,0", "difficult"]);
    assert!(err.starts_with("error: "), "{err}");
    for seat in ["gm", "ines"] {
        let text = t.ok(seat, &["state"]);
        assert!(
            text.contains("terrain: (2, -1) difficult, cover"),
            "{seat}: {text}"
        );
        let state = t.state(seat);
        assert_eq!(state["grid"]["unit"], "m", "{state}");
        assert_eq!(state["grid"]["cell_size"], 1, "{state}");
        assert_eq!(
            state["terrain"],
            serde_json::json!([{"x": 2, "y": -1, "difficult": true, "cover": "cover"}])
        );
    }
}

// See: issue #11 ("act --list shows no costs, not the ids an argument takes, and the GM's list
// repeats every action for every NPC"). A player's list names the cost and the ids her
// character's arguments take now; the GM's names each NPC's actions on one line and each
// action's details once.
#[test]
fn act_list_shows_costs_the_ids_arguments_take_and_groups_the_gms_npcs() {
    let t = Table::new();
    t.seat_everyone(&[]);
    t.add_everyone();
    let ines = t.ok("ines", &["act", "--list"]);
    assert!(
        ines.contains("attack (actor aune) [costs action (light weapons: further attacks by COR in the same action)]"),
        "{ines}"
    );
    assert!(
        ines.contains("check (actor aune) [costs auxiliary action (in an encounter)]"),
        "{ines}"
    );
    // Aune's knife, and everyone else at the table as a target.
    assert!(ines.contains("        now: knife\n"), "{ines}");
    assert!(
        ines.contains("        now: goblin-1, goblin-2, mara\n"),
        "{ines}"
    );
    let gm = t.ok("gm", &["act", "--list"]);
    assert!(
        gm.contains("characters you act for (`--actor ID`):"),
        "{gm}"
    );
    assert!(gm.contains("\n  goblin-1: check, attack,"), "{gm}");
    assert!(gm.contains("\n  goblin-2: check, attack,"), "{gm}");
    // Each action's details once, with the values for each goblin.
    assert_eq!(gm.matches("\nattack (").count(), 1, "{gm}");
    assert!(gm.contains("attack (2 characters)"), "{gm}");
    assert!(gm.contains("        now for goblin-1: cleaver\n"), "{gm}");
    assert!(gm.contains("        now for goblin-2: club\n"), "{gm}");
    // Each goblin's weapon line stays once: the actions are not repeated per goblin.
    assert_eq!(gm.matches("    weapon=").count(), 1, "{gm}");
}

// See: issue #11 (short forms). An action is typed as a command, its values in the order
// `act --list` gives its arguments; a slip of the action's name gets the action meant.
#[test]
fn an_action_is_typed_as_a_command_with_its_values_in_order() {
    let t = Table::new();
    t.seat_everyone(&["grimwire.same_side_ties=fixed"]);
    t.add_everyone();
    t.ok("gm", &["encounter", "start"]);
    assert_eq!(t.state("gm")["current"], "aune");
    // Whatever the die shows, the attack is told as one sentence with the hidden TN.
    let said = t.ok("ines", &["attack", "goblin-1", "knife"]);
    assert!(
        said.contains("aune attacks goblin-1 with a knife: COR attack "),
        "{said}"
    );
    assert!(said.contains(" vs hidden TN, "), "{said}");
    // A named argument and a value in order mix: the value fills the first one not named.
    let err = t.fails("ines", &["act", "attack", "weapon=knife", "nobody"]);
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains("nobody"), "{err}");
    let err = t.fails("ines", &["atack", "goblin-1"]);
    assert!(err.starts_with("error: unknown_action: "), "{err}");
    assert!(err.contains("did you mean `attack`?"), "{err}");
    // A misspelt id gets the one the action takes now.
    let err = t.fails("ines", &["attack", "gobln-2", "knife"]);
    assert!(err.starts_with("error: unknown_entity: "), "{err}");
    assert!(err.contains("; did you mean `target=goblin-2`?"), "{err}");
    // `--end` ends the turn once the action went through: one command for a whole turn.
    let said = t.ok("ines", &["attack", "goblin-2", "knife", "--end"]);
    assert!(
        said.contains("aune attacks goblin-2 with a knife"),
        "{said}"
    );
    assert_ne!(t.state("gm")["current"], "aune", "{said}");
}

// See: issue #11 (the GM's NPC turns dominated the newcomer's fight). `--npcs` plays each
// following NPC turn with the same action, each with its own weapon, and stops at a player's.
#[test]
fn the_gm_plays_the_following_npc_turns_in_one_command() {
    let t = Table::new();
    // No prompt may stop the goblins here: ties are fixed and a natural 1 risks no one.
    t.seat_everyone(&["grimwire.same_side_ties=fixed", "grimwire.collateral=never"]);
    t.add_everyone();
    t.ok("gm", &["encounter", "start"]);
    let players = ["aune", "mara"];
    // Players end their turns until a goblin's comes.
    for _ in 0..4 {
        let current = t.state("gm")["current"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        match current.as_str() {
            "aune" => t.ok("ines", &["end_turn"]),
            "mara" => t.ok("rui", &["end_turn"]),
            _ => break,
        };
    }
    let view = t.state("gm");
    let first = view["current"]
        .as_str()
        .expect("a goblin's turn")
        .to_owned();
    assert!(!players.contains(&first.as_str()), "{view:#}");
    // The goblins whose turns come in a row from here, in the order of the round.
    let order: Vec<String> = view["order"]
        .as_array()
        .expect("order")
        .iter()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect();
    let at = order
        .iter()
        .position(|id| *id == first)
        .expect("in the order");
    // From here round after round: the order wraps into the next round.
    let in_a_row: Vec<&String> = order[at..]
        .iter()
        .chain(&order[..at])
        .take_while(|id| !players.contains(&id.as_str()))
        .collect();
    let (theirs, other) = if first == "goblin-1" {
        ("cleaver", "club")
    } else {
        ("club", "cleaver")
    };
    // Alone, another goblin's weapon is refused with the one this goblin carries.
    let err = t.fails("gm", &["attack", "aune", other]);
    assert!(err.starts_with("error: unknown_name: "), "{err}");
    assert!(
        err.trim_end()
            .ends_with(&format!("; `weapon` takes now: {theirs}")),
        "{err}"
    );
    // With `--npcs` it is a pattern: every goblin, this one too, swings its own.
    let said = t.ok("gm", &["attack", "aune", other, "--npcs"]);
    for goblin in &in_a_row {
        let theirs = if goblin.as_str() == "goblin-1" {
            "cleaver"
        } else {
            "club"
        };
        assert!(
            said.contains(&format!("{goblin} attacks aune with a {theirs}")),
            "{goblin} with its own {theirs}:\n{said}"
        );
    }
    // No goblin beyond them: the first player's turn stopped it.
    for goblin in ["goblin-1", "goblin-2"] {
        let attacked = said.contains(&format!("{goblin} attacks aune"));
        assert_eq!(
            attacked,
            in_a_row.iter().any(|g| g.as_str() == goblin),
            "{said}"
        );
    }
    // It stops at a player's turn (aune's passes by itself if the goblins put her down).
    let now = t.state("gm")["current"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(players.contains(&now.as_str()), "{now}\n{said}");
}

// A command that makes many requests on a server with a low limit waits for its bucket to
// refill instead of failing with `rate_limited`: three sheets in one `npc add` at two requests
// a second (a burst of four) all arrive.
#[test]
fn a_command_slows_down_when_the_server_asks_it_to() {
    let t = Table::with_server(&["--requests-per-second", "2"]);
    t.seat_everyone(&[]);
    let out = t.ok(
        "gm",
        &[
            "npc",
            "add",
            &t.file("g1.toml", GOBLIN_1),
            &t.file("g2.toml", GOBLIN_2),
            &t.file("g3.toml", &GOBLIN_2.replace("goblin-2", "goblin-3")),
        ],
    );
    assert_eq!(
        out,
        "#1 goblin-1 joins the table\n#2 goblin-2 joins the table\n#3 goblin-3 joins the table\n"
    );
}

// Under the house rule that ends a spent turn, `--end` after the action that spent it has
// nothing left to end: the turn ended by itself, and the command says so once, without an
// error. Aune's knife at COR 3 makes two attacks; off the grid she cannot move.
#[test]
fn end_after_a_turn_that_ended_by_itself_is_no_error() {
    let t = Table::new();
    t.seat_everyone(&[
        "grimwire.same_side_ties=fixed",
        "grimwire.end_spent_turns=true",
        "grimwire.collateral=never",
    ]);
    t.add_everyone();
    t.ok("gm", &["encounter", "start"]);
    assert_eq!(t.state("gm")["current"], "aune");
    t.ok("ines", &["attack", "goblin-1", "knife"]);
    assert_eq!(
        t.state("gm")["current"],
        "aune",
        "one attack of two: the turn goes on"
    );
    let said = t.ok("ines", &["attack", "goblin-1", "knife", "--end"]);
    assert!(
        said.contains(
            "aune has spent the action and cannot move: the turn ends by itself (house rule \
             grimwire.end_spent_turns)"
        ),
        "{said}"
    );
    assert!(!said.contains("the turn goes on"), "{said}");
    assert_ne!(t.state("gm")["current"], "aune");
}

// See: issue #11. The GM who types an NPC's action in a player's turn hears whose turn it is
// and how to act for that character, not a refusal of the player's character acting.
#[test]
fn the_gm_acting_in_a_players_turn_hears_whose_turn_it_is() {
    let t = Table::new();
    t.seat_everyone(&["grimwire.same_side_ties=fixed"]);
    t.add_everyone();
    t.ok("gm", &["encounter", "start"]);
    assert_eq!(t.state("gm")["current"], "aune");
    let err = t.fails("gm", &["attack", "mara", "cleaver", "--end"]);
    assert_eq!(
        err,
        "error: bad_request: it is aune's turn, and aune is ines's character: an NPC acts on its \
         own turn, and the GM acts for aune only by naming it (--actor aune)\n"
    );
    assert_eq!(t.state("gm")["current"], "aune", "nothing was applied");
}

/// The newcomer's setup in fewer commands: a player brings the character when joining, and the
/// GM brings the NPCs when starting the encounter.
#[test]
fn a_player_joins_with_a_character_and_the_gm_starts_with_npcs() {
    let t = Table::new();
    let out = t.run(
        None,
        &[
            "table",
            "create",
            "--system",
            "grimwire",
            "--name",
            "friday",
            "--players",
            "2",
            "--server",
            &t.server.url,
            "--json",
        ],
    );
    assert!(out.status.success(), "create: {}", stderr(&out));
    let created: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    let table = created["table"].as_str().expect("table").to_owned();
    let code = |i: usize| {
        created["invites"][i]["code"]
            .as_str()
            .expect("code")
            .to_owned()
    };
    let join = |i: usize, name: &str, sheet: &str| {
        t.run(
            None,
            &[
                "join",
                &table,
                "--invite",
                &code(i),
                "--name",
                name,
                "--server",
                &t.server.url,
                "--sheet",
                sheet,
            ],
        )
    };

    // A sheet that does not exist spends nothing: the invite still works afterwards.
    let missing = join(0, "Ines", "no-such-sheet.toml");
    assert_eq!(missing.status.code(), Some(1), "{}", stdout(&missing));
    assert!(stderr(&missing).contains("no-such-sheet.toml: cannot read the sheet"));
    let aune = t.file("aune.toml", AUNE);
    let joined = join(0, "Ines", &aune);
    assert!(joined.status.success(), "join: {}", stderr(&joined));
    let lines: Vec<String> = stdout(&joined).lines().map(str::to_owned).collect();
    assert_eq!(
        lines[0],
        format!("joined table {table} as ines (Ines, player)")
    );
    assert_eq!(
        lines.last().map(String::as_str),
        Some("#1 aune joins the table")
    );

    // A sheet the server refuses: the seat is still taken and saved, and the message says
    // how to add the sheet once fixed.
    let broken = t.file("broken.toml", "id = \"mara\"\nname = \"Mara\"\n");
    let refused = join(1, "Rui", &broken);
    assert_eq!(refused.status.code(), Some(1), "{}", stdout(&refused));
    assert!(
        stderr(&refused).contains("saved the profile rui, but the sheet was not added")
            && stderr(&refused).contains("tablehold --seat rui sheet add FILE"),
        "{}",
        stderr(&refused)
    );
    t.ok("rui", &["sheet", "add", &t.file("mara.toml", MARA)]);

    // The GM's NPCs join first, in the order given, then initiative is rolled for all four.
    let started = t.ok(
        "gm",
        &[
            "encounter",
            "start",
            &t.file("g1.toml", GOBLIN_1),
            &t.file("g2.toml", GOBLIN_2),
        ],
    );
    let g1 = started.find("goblin-1 joins the table").expect(&started);
    let g2 = started.find("goblin-2 joins the table").expect(&started);
    let round = started.find("the encounter starts").expect(&started);
    assert!(g1 < g2 && g2 < round, "{started}");
    let state = t.state("gm");
    assert_eq!(state["encounter"], true);
    assert_eq!(state["order"].as_array().map(Vec::len), Some(4), "{state}");
}

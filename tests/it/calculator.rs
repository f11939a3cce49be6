//! `tablehold rules ...`: the offline calculator, through real processes with real numbers.
//! Every example request in `docs/examples/requests/` is resolved with the faces that
//! docs/CALCULATOR.md gives it, and the documented output must be exactly what the binary
//! prints, so the page cannot go stale.

use std::path::Path;
use std::process::Output;

use serde_json::{Value, json};
use tablehold_tests::{run, stderr, stdout, workspace_root};

const REQUESTS: &str = "docs/examples/requests";
const SHEETS: &str = "docs/examples/grimwire";

fn request_path(name: &str) -> String {
    format!("{REQUESTS}/{name}.json")
}

/// An example request as JSON, to be changed by a test and sent on standard input.
fn request(name: &str) -> Value {
    let path = workspace_root().join(request_path(name));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `tablehold rules resolve --system grimwire --dice FACES [extra] FILE`.
fn resolve_file(name: &str, faces: &str, extra: &[&str]) -> Output {
    let path = request_path(name);
    let mut args = vec!["rules", "resolve", "--system", "grimwire", "--dice", faces];
    args.extend_from_slice(extra);
    args.push(&path);
    run(&args, None)
}

/// The same with the request on standard input.
fn resolve_stdin(req: &Value, faces: &str, extra: &[&str]) -> Output {
    let mut args = vec!["rules", "resolve", "--system", "grimwire", "--dice", faces];
    args.extend_from_slice(extra);
    args.push("-");
    run(&args, Some(&req.to_string()))
}

fn assert_ok(out: &Output) {
    let err = stderr(out);
    assert!(
        out.status.success(),
        "exit {:?}\nstdout:\n{}\nstderr:\n{err}",
        out.status.code(),
        stdout(out)
    );
    assert!(!err.contains("panicked"), "{err}");
}

/// `--json` output of a successful run.
fn report(out: &Output) -> Value {
    assert_ok(out);
    serde_json::from_str(&stdout(out))
        .unwrap_or_else(|e| panic!("--json output is not JSON: {e}\n{}", stdout(out)))
}

/// A failed run: exit code 1, nothing on stdout, one `error:` message naming the problem.
fn assert_fails(out: &Output, needles: &[&str]) {
    let err = stderr(out);
    assert_eq!(
        out.status.code(),
        Some(1),
        "stdout:\n{}\nstderr:\n{err}",
        stdout(out)
    );
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(stdout(out).is_empty(), "{}", stdout(out));
    for needle in needles {
        assert!(err.contains(needle), "expected `{needle}` in:\n{err}");
    }
}

fn resource(report: &Value, id: &str, name: &str) -> i64 {
    report["final"][id]["resources"][name]
        .as_i64()
        .unwrap_or_else(|| panic!("no final {name} for {id} in {:#}", report["final"]))
}

fn statuses(report: &Value, id: &str) -> Vec<String> {
    report["final"][id]["statuses"]
        .as_object()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default()
}

fn dice(report: &Value) -> Vec<(String, u64)> {
    report["dice"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|d| {
                    (
                        d["die"].as_str().unwrap_or_default().to_owned(),
                        d["face"].as_u64().unwrap_or(0),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn checks(report: &Value) -> Vec<Value> {
    report["checks"].as_array().cloned().unwrap_or_default()
}

// ---------------------------------------------------------------------------------------------
// The documented examples.

/// One `$ tablehold ...` command of a ```console block and the output printed under it.
struct DocExample {
    line: usize,
    args: Vec<String>,
    expected: String,
}

fn doc_examples() -> Vec<DocExample> {
    let path = workspace_root().join("docs/CALCULATOR.md");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut examples = Vec::new();
    let mut in_console = false;
    let mut current: Option<DocExample> = None;
    for (i, line) in text.lines().enumerate() {
        if !in_console {
            in_console = line.trim_end() == "```console";
            continue;
        }
        if line.trim_end() == "```" {
            in_console = false;
            examples.extend(current.take());
        } else if let Some(cmd) = line.strip_prefix("$ ") {
            examples.extend(current.take());
            let mut words = cmd.split_whitespace().map(str::to_owned);
            assert_eq!(
                words.next().as_deref(),
                Some("tablehold"),
                "CALCULATOR.md:{}: only tablehold commands",
                i + 1
            );
            current = Some(DocExample {
                line: i + 1,
                args: words.collect(),
                expected: String::new(),
            });
        } else if let Some(ex) = current.as_mut() {
            ex.expected.push_str(line);
            ex.expected.push('\n');
        }
    }
    examples
}

#[test]
fn documented_examples_print_exactly_what_the_page_shows() {
    let examples = doc_examples();
    assert!(
        examples.len() >= 11,
        "CALCULATOR.md has only {} console examples",
        examples.len()
    );
    for ex in examples {
        let args: Vec<&str> = ex.args.iter().map(String::as_str).collect();
        let out = run(&args, None);
        let got = format!("{}{}", stdout(&out), stderr(&out));
        assert!(!got.contains("panicked"), "{got}");
        assert_eq!(
            got,
            ex.expected,
            "CALCULATOR.md:{}: `tablehold {}` prints something else",
            ex.line,
            args.join(" ")
        );
    }
}

#[test]
fn every_example_request_is_documented_with_its_faces() {
    let documented: Vec<String> = doc_examples().into_iter().flat_map(|e| e.args).collect();
    let dir = workspace_root().join(REQUESTS);
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.map(|e| e.path()).unwrap_or_else(|e| panic!("{e}"));
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        count += 1;
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let rel = format!("{REQUESTS}/{name}");
        assert!(
            documented.contains(&rel),
            "{rel} has no `tablehold rules resolve` example in docs/CALCULATOR.md"
        );
    }
    assert!(count >= 11, "only {count} example requests");
}

#[test]
fn every_example_sheet_passes_sheet_check() {
    let dir = workspace_root().join(SHEETS);
    let mut kinds = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.map(|e| e.path()).unwrap_or_else(|e| panic!("{e}"));
        if path.extension().and_then(|e| e.to_str()) != Some("toml") {
            continue;
        }
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_owned();
        let rel = format!("{SHEETS}/{stem}.toml");
        let out = run(
            &["rules", "sheet", "check", "--system", "grimwire", &rel],
            None,
        );
        assert_ok(&out);
        let line = stdout(&out);
        assert!(line.starts_with(&format!("ok: {stem} (")), "{line}");
        kinds.push(if line.contains(", pc, level ") {
            "pc"
        } else {
            "npc"
        });
    }
    assert!(
        kinds.iter().filter(|k| **k == "pc").count() >= 2,
        "{kinds:?}"
    );
    assert!(
        kinds.iter().filter(|k| **k == "npc").count() >= 3,
        "{kinds:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Key numbers of each example.

#[test]
fn gm_called_check_with_hidden_tn_succeeds_on_15() {
    let r = report(&resolve_file("check-hidden-tn", "15", &["--json"]));
    let c = &checks(&r)[0];
    assert_eq!(c["label"], "PER check");
    assert_eq!(c["natural"], 15);
    assert_eq!(c["total"], 15, "15 + PER 2 - 2");
    assert_eq!(c["against"], "hidden");
    assert_eq!(c["hidden_tn"], 14, "the GM sees the hidden TN");
    assert_eq!(c["outcome"], "success");
}

#[test]
fn melee_attack_pc_on_npc_takes_goblin_to_condition_5() {
    let r = report(&resolve_file("melee-attack", "12,3", &["--json"]));
    let c = &checks(&r)[0];
    assert_eq!(
        (
            c["label"].as_str(),
            c["total"].as_i64(),
            c["outcome"].as_str()
        ),
        (Some("COR attack"), Some(15), Some("success"))
    );
    // The player who asked does not see the goblin's Condition: NPC numbers are the GM's.
    assert!(
        r["final"]["goblin-1"]["resources"].is_null(),
        "{:#}",
        r["final"]
    );
    assert_eq!(r["unused_faces"], json!([]));
    let mut req = request("melee-attack");
    req["seat"] = json!("gm");
    let r = report(&resolve_stdin(&req, "12,3", &["--json"]));
    assert_eq!(
        resource(&r, "goblin-1", "condition"),
        5,
        "10 - (1d4 3 + TOG 2)"
    );
}

#[test]
fn npc_attack_makes_the_pc_evade_and_armour_takes_one() {
    let r = report(&resolve_file("npc-attack", "7,4", &["--json"]));
    let c = &checks(&r)[0];
    assert_eq!(c["actor"], "mara", "the PC rolls, not the NPC");
    assert_eq!(c["label"], "AGL evade");
    assert_eq!(
        (
            c["total"].as_i64(),
            c["hidden_tn"].as_i64(),
            c["outcome"].as_str()
        ),
        (Some(9), Some(12), Some("failure"))
    );
    assert_eq!(
        resource(&r, "mara", "condition"),
        8,
        "14 - (1d6 4 + TOG 3 - armour 1)"
    );

    // A good evade: no damage die is drawn at all.
    let r = report(&resolve_file("npc-attack", "10", &["--json"]));
    assert_eq!(checks(&r)[0]["outcome"], "success");
    assert_eq!(dice(&r), vec![("d20".to_owned(), 10)]);
    assert_eq!(resource(&r, "mara", "condition"), 14);
}

#[test]
fn pc_against_pc_is_opposed_and_a_tie_halves_the_damage() {
    let r = report(&resolve_file("pc-vs-pc", "10,11,4", &["--json"]));
    let cs = checks(&r);
    assert_eq!(cs.len(), 2);
    assert_eq!(
        cs[0]["against"],
        json!({"opposed": {"entity": "mara", "total": 13}})
    );
    assert_eq!(
        cs[1]["against"],
        json!({"opposed": {"entity": "aune", "total": 13}})
    );
    assert_eq!(
        resource(&r, "mara", "condition"),
        12,
        "(4 + 2 - armour 1) = 5, halved down to 2"
    );
    let text = stdout(&resolve_file("pc-vs-pc", "10,11,4", &[]));
    assert!(text.contains("- 3 tie: half = 2 damage"), "{text}");
}

#[test]
fn ranged_attack_beyond_range_takes_minus_5() {
    let r = report(&resolve_file("ranged-beyond-range", "16,3,2", &["--json"]));
    let c = &checks(&r)[0];
    assert!(
        c["modifiers"]
            .as_array()
            .is_some_and(|m| m.contains(&json!({"label": "beyond range", "value": -5}))),
        "{c}"
    );
    assert_eq!(c["total"], 14);
    assert_eq!(
        resource(&r, "goblin-2", "condition"),
        5,
        "8 - (2d4 5 - armour 2), no TOG for ranged"
    );
}

#[test]
fn ranged_attack_far_beyond_range_takes_minus_10() {
    let mut req = request("ranged-beyond-range");
    req["positions"]["goblin-2"] = json!({"x": 30, "y": 0});
    let r = report(&resolve_stdin(&req, "16", &["--json"]));
    let c = &checks(&r)[0];
    assert_eq!(
        (c["total"].as_i64(), c["outcome"].as_str()),
        (Some(9), Some("failure")),
        "16 + 3 - 10 misses TN 13"
    );
}

#[test]
fn melee_weapon_out_of_reach_is_refused() {
    let mut req = request("melee-attack");
    req["positions"]["goblin-1"] = json!({"x": 8, "y": 0});
    assert_fails(
        &resolve_stdin(&req, "12,3", &[]),
        &["refused (out_of_range)", "8 m"],
    );
}

#[test]
fn heavy_weapon_below_tog_rolls_tog_before_the_attack() {
    let r = report(&resolve_file("heavy-weapon", "13,15,5,4", &["--json"]));
    let cs = checks(&r);
    assert_eq!(cs[0]["label"], "TOG to wield Cleaver (needs TOG 4)");
    assert_eq!(
        (cs[0]["total"].as_i64(), cs[0]["against"].clone()),
        (Some(14), json!({"target": 11}))
    );
    assert_eq!(cs[1]["label"], "COR attack");
    assert_eq!(
        resource(&r, "warden", "condition"),
        9,
        "16 - (2d6 9 + TOG 1 - armour 3)"
    );

    // A failed TOG roll ends the attack: one die drawn, the warden untouched.
    let out = resolve_file("heavy-weapon", "5", &[]);
    assert_ok(&out);
    assert!(
        stdout(&out).contains("not strong enough to swing the Cleaver"),
        "{}",
        stdout(&out)
    );

    // Below the requirement, a natural 4 goes astray (the default `requirement` rule).
    let r = report(&resolve_file("heavy-weapon", "13,4", &["--json"]));
    assert_eq!(checks(&r)[1]["overridden_by"], "natural 4");
    assert_eq!(r["open_prompt"]["options"], json!(["yes", "no"]));
}

#[test]
fn natural_one_collateral_follows_the_answers_and_draws_in_order() {
    let r = report(&resolve_file("collateral", "1,6,5,2", &["--json"]));
    let drawn: Vec<(String, u64)> = vec![
        ("d20".into(), 1),
        ("d6".into(), 6),
        ("d20".into(), 5),
        ("d4".into(), 2),
    ];
    assert_eq!(
        dice(&r),
        drawn,
        "the action's d20, the pick's d6, then the answer's d20 and d4"
    );
    let picked = r["events"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|e| e["parts"].as_array().cloned().unwrap_or_default())
        .find(|p| p["fact"]["fact"] == "picked")
        .unwrap_or_else(|| panic!("no pick in {r:#}"));
    assert_eq!(
        picked["fact"]["candidates"],
        json!(["goblin-1", "goblin-2", "mara"])
    );
    assert_eq!(picked["fact"]["picked"], "mara");
    let avoid = &checks(&r)[1];
    assert_eq!(
        (avoid["actor"].as_str(), avoid["against"].clone()),
        (Some("mara"), json!({"target": 8})),
        "AGL 11 lowered by COR 3"
    );
    assert_eq!(
        resource(&r, "mara", "condition"),
        11,
        "14 - (1d4 2 + TOG 2 - armour 1)"
    );
    assert!(r["open_prompt"].is_null());
}

#[test]
fn an_unanswered_prompt_is_reported_as_waiting() {
    let mut req = request("collateral");
    req["answers"] = json!([]);
    let out = resolve_stdin(&req, "1", &[]);
    assert_ok(&out);
    let text = stdout(&out);
    assert!(
        text.contains("waiting: prompt 0 asks GM: aune's attack on goblin-1 went astray. Does it risk hitting someone else? [yes, no] (default no)"),
        "{text}"
    );
    let r = report(&resolve_stdin(&req, "1", &["--json"]));
    assert_eq!(r["open_prompt"]["prompt_id"], 0);
}

#[test]
fn technique_pushed_past_focus_costs_a_level_of_burnout() {
    let r = report(&resolve_file("technique-push", "", &["--json"]));
    assert_eq!(resource(&r, "aune", "focus"), -2, "2 - 4");
    assert_eq!(resource(&r, "aune", "burnout"), 1);
    assert_eq!(dice(&r), vec![]);

    let mut req = request("technique-push");
    req["action"]["args"]["push"] = json!(false);
    assert_fails(
        &resolve_stdin(&req, "", &[]),
        &["refused (insufficient_resource)", "needs 4, has 2"],
    );
}

#[test]
fn stabilise_brings_the_dying_back_to_condition_1_out_cold() {
    let r = report(&resolve_file("stabilise", "14,11", &["--json"]));
    let cs = checks(&r);
    assert_eq!(
        cs[0]["against"],
        json!({"target": 13}),
        "base 10 + 3 below zero"
    );
    assert_eq!(resource(&r, "mara", "condition"), 1);
    assert_eq!(resource(&r, "mara", "focus"), 0);
    assert_eq!(resource(&r, "mara", "burnout"), 1);
    assert_eq!(statuses(&r, "mara"), vec!["out_cold".to_owned()]);
}

#[test]
fn move_puts_the_token_on_the_new_cell() {
    let r = report(&resolve_file("move", "", &["--json"]));
    assert_eq!(r["final"]["aune"]["position"], json!({"x": 4, "y": 3}));
    let text = stdout(&resolve_file("move", "", &[]));
    assert!(text.contains("aune moves (0, 0) → (4, 3) (5 m)"), "{text}");
}

#[test]
fn damage_ruling_doubles_for_weakness_and_drops_to_dying() {
    let r = report(&resolve_file("damage-ruling", "", &["--json"]));
    assert_eq!(
        resource(&r, "goblin-1", "condition"),
        -2,
        "10 - 6 x2 for heat weakness"
    );
    assert_eq!(
        statuses(&r, "goblin-1"),
        vec!["dying".to_owned(), "out_cold".to_owned()]
    );
}

#[test]
fn damage_ruling_is_the_gms() {
    let mut req = request("damage-ruling");
    req["seat"] = json!({"player": "ines"});
    assert_fails(&resolve_stdin(&req, "", &[]), &["refused (forbidden)"]);
}

// ---------------------------------------------------------------------------------------------
// What each seat sees.

#[test]
fn a_player_seat_never_sees_the_hidden_tn_but_the_gm_does() {
    let mut req = request("melee-attack");
    req["seat"] = json!({"player": "ines"});
    let player_text = stdout(&resolve_stdin(&req, "12,3", &[]));
    let player_json = stdout(&resolve_stdin(&req, "12,3", &["--json"]));
    assert!(
        player_text.contains("=15 vs hidden TN, hit"),
        "{player_text}"
    );
    assert!(!player_text.contains("TN 12"), "{player_text}");
    assert!(
        !player_json.contains("hidden_target") && !player_json.contains("hidden_tn"),
        "{player_json}"
    );

    req["seat"] = json!("gm");
    let gm_text = stdout(&resolve_stdin(&req, "12,3", &[]));
    let gm = report(&resolve_stdin(&req, "12,3", &["--json"]));
    assert!(
        gm_text.contains("=15 vs TN 12 (hidden from players), hit"),
        "{gm_text}"
    );
    assert_eq!(checks(&gm)[0]["hidden_tn"], 12);
}

// ---------------------------------------------------------------------------------------------
// Other commands.

#[test]
fn options_lists_every_option_with_default_and_values() {
    let out = run(
        &["rules", "options", "--system", "grimwire", "--json"],
        None,
    );
    let specs = report(&out);
    let keys: Vec<&str> = specs
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["key"].as_str())
        .collect();
    for key in [
        "grid.diagonal",
        "grimwire.collateral",
        "grimwire.hide_tns",
        "grimwire.heavy_tog_tn",
    ] {
        assert!(keys.contains(&key), "{key} missing from {keys:?}");
    }
    let text = stdout(&run(&["rules", "options", "--system", "grimwire"], None));
    for key in &keys {
        assert!(
            text.contains(&format!("{key}\n    default: ")),
            "{key} missing from:\n{text}"
        );
    }
    assert!(text.contains("values:  ask_gm | always | never"), "{text}");
}

#[test]
fn help_explains_each_command_with_an_example() {
    for cmd in [
        &["rules", "resolve", "--help"][..],
        &["rules", "sheet", "check", "--help"],
        &["rules", "options", "--help"],
    ] {
        let out = run(cmd, None);
        assert_ok(&out);
        assert!(
            stdout(&out).contains("Example:"),
            "{cmd:?}:\n{}",
            stdout(&out)
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Bad input: a clear error, exit 1, never a panic.

#[test]
fn not_json_names_line_and_column() {
    let out = run(
        &["rules", "resolve", "--system", "grimwire", "-"],
        Some("{\n  \"action\": nope\n}"),
    );
    assert_fails(&out, &["error: <stdin>: not JSON", "line 2 column"]);
}

#[test]
fn unknown_system_says_which_exist() {
    let out = resolve_file("move", "", &[]);
    assert_ok(&out);
    let out = run(
        &[
            "rules",
            "resolve",
            "--system",
            "chess",
            &request_path("move"),
        ],
        None,
    );
    assert_fails(
        &out,
        &["unknown rule system `chess`", "grimwire", "tinyd10"],
    );
    let out = run(&["rules", "options", "--system", "chess"], None);
    assert_fails(&out, &["unknown rule system `chess`"]);
}

#[test]
fn a_sheet_with_cor_14_is_refused_with_its_place() {
    let mut req = request("melee-attack");
    req["combatants"][1]["attributes"]["COR"] = json!(14);
    let out = resolve_stdin(&req, "12,3", &[]);
    assert_fails(
        &out,
        &[
            "error: <stdin>: combatants[1]: `attributes.COR`: is 14, but 10 is the maximum for any attribute",
        ],
    );

    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("calculator-sheets");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let good = std::fs::read_to_string(workspace_root().join(SHEETS).join("aune.toml"))
        .unwrap_or_else(|e| panic!("{e}"));
    let bad = dir.join("aune-cor-14.toml");
    std::fs::write(&bad, good.replace("COR = 3", "COR = 14")).unwrap_or_else(|e| panic!("{e}"));
    let bad = bad.to_string_lossy().into_owned();
    let out = run(
        &["rules", "sheet", "check", "--system", "grimwire", &bad],
        None,
    );
    assert_fails(&out, &[&format!("error: {bad}: `attributes.COR`: is 14")]);
}

#[test]
fn a_missing_field_is_named() {
    let mut req = request("melee-attack");
    if let Some(sheet) = req["combatants"][0].as_object_mut() {
        sheet.remove("condition_max");
    }
    assert_fails(
        &resolve_stdin(&req, "12,3", &[]),
        &["combatants[0]", "missing field `condition_max`"],
    );

    let mut req = request("melee-attack");
    if let Some(r) = req.as_object_mut() {
        r.remove("action");
    }
    assert_fails(
        &resolve_stdin(&req, "12,3", &[]),
        &["the request needs `action` (one action) or `steps`"],
    );
}

#[test]
fn an_unknown_request_field_is_refused() {
    let mut req = request("melee-attack");
    req["answer"] = json!(["yes"]);
    assert_fails(
        &resolve_stdin(&req, "12,3", &[]),
        &["unknown field `answer`"],
    );
}

#[test]
fn a_bad_option_is_named() {
    let mut req = request("melee-attack");
    req["options"] = json!({"grimwire.collateral": "sometimes"});
    assert_fails(
        &resolve_stdin(&req, "12,3", &[]),
        &["`grimwire.collateral` must be one of ask_gm, always, never"],
    );
    req["options"] = json!({"grimwire.colateral": "always"});
    assert_fails(
        &resolve_stdin(&req, "12,3", &[]),
        &["unknown table option `grimwire.colateral`"],
    );
}

#[test]
fn an_unknown_action_is_refused() {
    let mut req = request("melee-attack");
    req["action"]["name"] = json!("fireball");
    assert_fails(
        &resolve_stdin(&req, "12,3", &[]),
        &["refused (unknown_action): grimwire has no action `fireball`"],
    );
}

#[test]
fn an_unknown_attribute_is_refused() {
    let mut req = request("check-hidden-tn");
    req["action"]["args"]["attribute"] = json!("LUCK");
    assert_fails(
        &resolve_stdin(&req, "15", &[]),
        &[
            "refused (bad_request)",
            "`LUCK` must be one of TOG, AGL, COR",
        ],
    );

    let mut req = request("check-hidden-tn");
    req["combatants"][0]["attributes"]["LUCK"] = json!(3);
    assert_fails(
        &resolve_stdin(&req, "15", &[]),
        &["combatants[0]: `attributes.LUCK`: is not a GRIMWIRE attribute"],
    );
}

#[test]
fn an_argument_of_the_wrong_json_type_is_named() {
    let mut req = request("check-hidden-tn");
    req["action"]["args"]["tn"] = json!(14.5);
    assert_fails(
        &resolve_stdin(&req, "15", &[]),
        &["action.args.tn: 14.5 is not a whole number"],
    );
    req["action"]["args"]["tn"] = json!([14]);
    assert_fails(
        &resolve_stdin(&req, "15", &[]),
        &["action.args.tn", "is not an argument value"],
    );
}

#[test]
fn running_out_of_faces_says_how_many_were_used() {
    let out = resolve_file("melee-attack", "12", &[]);
    assert_fails(
        &out,
        &[
            "ran out of faces",
            "all 1 face(s) were used",
            "draw #2 needs a d4",
            "add more faces",
        ],
    );
    let out = resolve_file("collateral", "1,6", &[]);
    assert_fails(&out, &["answers[1] (`spare`)", "draw #3 needs a d20"]);
}

#[test]
fn a_face_that_does_not_fit_its_die_is_refused() {
    let out = resolve_file("melee-attack", "25,3", &[]);
    assert_fails(&out, &["face #1 is 25", "a d20 (faces 1..=20)"]);
    let out = resolve_file("melee-attack", "12,0", &[]);
    assert_fails(&out, &["face #2 is 0", "a d4"]);
}

#[test]
fn non_numeric_faces_are_refused_with_their_position() {
    let out = resolve_file("melee-attack", "12,three", &[]);
    assert_fails(&out, &["--dice: face 2 (`three`) is not a whole number"]);
    let out = resolve_file("melee-attack", "12,-3", &[]);
    assert_fails(&out, &["--dice: face 2 (`-3`)"]);
}

#[test]
fn unused_faces_are_a_warning_not_an_error() {
    let out = resolve_file("melee-attack", "12,3,5,6", &[]);
    assert_ok(&out);
    assert!(
        stderr(&out).contains("warning: 2 face(s) given but not drawn: 5,6"),
        "{}",
        stderr(&out)
    );
    let r = report(&resolve_file("melee-attack", "12,3,5,6", &["--json"]));
    assert_eq!(r["unused_faces"], json!([5, 6]));
}

#[test]
fn an_answer_without_an_open_prompt_is_an_error() {
    let mut req = request("melee-attack");
    req["answers"] = json!(["yes"]);
    assert_fails(
        &resolve_stdin(&req, "12,3", &[]),
        &["answers[0] (`yes`): no prompt is open"],
    );
}

#[test]
fn an_answer_that_is_not_an_option_is_refused() {
    let mut req = request("collateral");
    req["answers"] = json!(["maybe"]);
    assert_fails(
        &resolve_stdin(&req, "1", &[]),
        &["answers[0] (`maybe`)", "refused (not_an_option)"],
    );
}

#[test]
fn a_missing_request_file_is_named() {
    let out = run(
        &[
            "rules",
            "resolve",
            "--system",
            "grimwire",
            "docs/examples/requests/nope.json",
        ],
        None,
    );
    assert_fails(
        &out,
        &["docs/examples/requests/nope.json: cannot read the request"],
    );
}

#[test]
fn positions_for_someone_not_at_the_table_are_refused() {
    let mut req = request("move");
    req["positions"]["ghost"] = json!({"x": 1, "y": 1});
    assert_fails(
        &resolve_stdin(&req, "", &[]),
        &["positions.ghost: no combatant has the id `ghost`"],
    );
}

// ---------------------------------------------------------------------------------------------
// Whole rounds: a request that starts inside an encounter and holds a sequence of steps.

#[test]
fn a_round_reports_what_each_step_changed_and_whose_turn_it_is() {
    let report = report(&resolve_file("round", "12,3,10", &["--json"]));
    let steps = report["steps"].as_array().cloned().unwrap_or_default();
    let headings: Vec<&str> = steps.iter().filter_map(|s| s["step"].as_str()).collect();
    assert_eq!(
        headings,
        vec![
            "attack by aune",
            "end_turn by aune",
            "attack by goblin-1",
            "end_turn by goblin-1"
        ]
    );
    // Her knife: d4 3 + TOG 2 = 5, Condition 10 → 5; the goblin's attack changes only what it
    // has used; the end of its turn starts round 2 and resets what Aune had used, the 2 m she
    // had moved before the request included.
    assert_eq!(
        steps[0]["changed"]["goblin-1"]["resources"]["condition"],
        json!([10, 5])
    );
    assert_eq!(steps[1]["changed"], json!({}));
    assert_eq!(
        steps[2]["changed"]["goblin-1"]["turn"]["attacks"],
        json!([0, 1])
    );
    assert_eq!(
        steps[3]["changed"]["aune"]["turn"]["moved_m"],
        json!([2, 0])
    );
    assert_eq!(report["turn"], json!("Aune's turn"));
    assert_eq!(resource(&report, "goblin-1", "condition"), 5);
}

#[test]
fn a_player_seat_is_told_no_npc_numbers_in_what_a_step_changed() {
    let mut req = request("round");
    req["seat"] = json!({"player": "ines"});
    // Ines plays Aune; the goblin's steps are the GM's, so it is given by the GM's seat.
    req["steps"][2]["act"]["seat"] = json!("gm");
    let report = report(&resolve_stdin(&req, "12,3,10", &["--json"]));
    let steps = report["steps"].as_array().cloned().unwrap_or_default();
    assert_eq!(steps[0]["changed"].get("goblin-1"), None, "{:#}", steps[0]);
    assert_eq!(
        steps[0]["changed"]["aune"]["turn"]["attacks"],
        json!([0, 1])
    );
}

#[test]
fn a_step_that_does_not_fit_is_named() {
    let cases: Vec<(Value, &str, Vec<&str>)> = vec![
        (
            json!([{"end_turn": "aune"}, {"answer": {"choice": "yes"}}]),
            "",
            vec!["steps[1]: no prompt is open to answer"],
        ),
        (
            json!([{"timeout": {"prompt": 4}}]),
            "",
            vec!["steps[0]: prompt 4 is not open"],
        ),
        (
            json!([{"end_turn": "ghost"}]),
            "",
            vec!["steps[0].end_turn: no combatant has the id `ghost`"],
        ),
        (
            json!([{"act": {"name": "attack", "actor": "aune", "args": {"target": 1.5}}}]),
            "",
            vec!["steps[0].act.args.target"],
        ),
        (
            json!([{"wait": {}}]),
            "",
            vec!["does not match the request schema", "wait"],
        ),
    ];
    for (steps, faces, needles) in cases {
        let mut req = request("round");
        req["steps"] = steps;
        assert_fails(&resolve_stdin(&req, faces, &[]), &needles);
    }
    let mut both = request("round");
    both["action"] = json!({"name": "pass", "actor": "aune"});
    assert_fails(
        &resolve_stdin(&both, "", &[]),
        &["the request has `steps` and `action` or `answers`"],
    );
    let mut unknown = request("round");
    unknown["encounter"]["order"] = json!(["aune", "ghost"]);
    assert_fails(
        &resolve_stdin(&unknown, "", &[]),
        &["encounter.order: no combatant has the id `ghost`"],
    );
}

#[test]
fn an_open_window_in_the_request_holds_actions_and_times_out_to_its_default() {
    let mut req = request("round");
    // An initiative tie asked of the GM: who goes first, aune or goblin-1.
    req["encounter"]["current"] = Value::Null;
    req["encounter"]["windows"] = json!([{
        "prompt_id": 3, "rule": "grimwire.initiative.tie", "actor": null, "seats": ["gm"],
        "question": "Initiative tie between goblin-1, aune: who goes first?",
        "options": ["goblin-1", "aune"], "default": "goblin-1", "timeout_ms": 60000,
        "trigger": null,
        "data": {"order": {"entities": ["aune", "goblin-1"]},
                 "group": {"entities": ["aune", "goblin-1"]}}
    }]);
    req["steps"] = json!([{"act": {"name": "pass", "actor": "aune"}}]);
    assert_fails(
        &resolve_stdin(&req, "", &[]),
        &["steps[0]", "waiting for an answer to prompt 3"],
    );
    req["steps"] = json!([{"timeout": {}}]);
    let report = report(&resolve_stdin(&req, "", &["--json"]));
    assert_eq!(report["open_prompts"], json!([]));
    let order = report["events"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|e| e["parts"].as_array().cloned().unwrap_or_default())
        .find(|p| p["fact"]["fact"] == "order_set")
        .map(|p| p["fact"]["order"].clone());
    assert_eq!(order, Some(json!(["goblin-1", "aune"])));
}

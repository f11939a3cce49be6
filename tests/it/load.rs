//! The load generator against a real server, at a gentle rate: not a measurement (CI never
//! takes figures), but proof that the tool still works, so that it cannot rot between the
//! sessions that measure with it.

use serde_json::Value;
use tablehold_tests::bin;

#[test]
fn the_load_generator_delivers_every_action_to_every_seat_and_the_logs_hold_them() {
    // 2 tables x 3 clients, 50 actions/s for 2 s: 100 rolls, each to reach 3 seats.
    let out = std::process::Command::new(bin("tablehold-load"))
        .args([
            "--tables",
            "2",
            "--clients",
            "3",
            "--rate",
            "50",
            "--seconds",
            "2",
        ])
        .args(["--check", "--restart", "--json", "--server"])
        .arg(bin("tablehold-server"))
        .output()
        .expect("run tablehold-load");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON object a line"))
        .collect();
    let [run, restart] = lines.as_slice() else {
        panic!("a run and a restart: {stdout}");
    };
    // Killed and started again, the server loads both tables and each takes an action.
    assert_eq!(restart["target"], "restart", "{restart}");
    assert_eq!(restart["tables"], 2, "{restart}");
    assert!(
        restart["max_ms"].as_f64().is_some_and(|ms| ms > 0.0),
        "{restart}"
    );
    assert_eq!(run["offered"], 100, "{run}");
    assert_eq!(run["acknowledged"], 100, "{run}");
    assert_eq!(run["delivered"], 100, "every seat got every roll: {run}");
    assert_eq!(run["refused"], 0, "{run}");
    assert_eq!(run["dropped_seats"], 0, "no seat was closed: {run}");
    assert_eq!(
        run["missing_from_log"], 0,
        "every acknowledged roll is logged: {run}"
    );
    assert!(run["p50_ms"].as_f64().is_some_and(|ms| ms > 0.0), "{run}");
}

#[test]
fn the_baseline_relay_takes_the_same_load_and_each_line_says_what_it_measured() {
    // 1 table x 3 clients, 40 actions/s for 1 s, against the relay and then the server.
    let out = std::process::Command::new(bin("tablehold-load"))
        .args(["--tables", "1", "--clients", "3", "--rate", "40"])
        .args(["--seconds", "1", "--baseline", "--json", "--server"])
        .arg(bin("tablehold-server"))
        .output()
        .expect("run tablehold-load");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let runs: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON object a line"))
        .collect();
    let targets: Vec<&str> = runs.iter().filter_map(|r| r["target"].as_str()).collect();
    assert_eq!(targets, ["relay", "tablehold"], "{stdout}");
    for run in &runs {
        assert_eq!(run["offered"], 40, "{run}");
        assert_eq!(run["delivered"], 40, "every seat got every action: {run}");
    }
    // The relay writes nothing; the server writes each event durably.
    assert_eq!(runs[0]["bytes_written_per_action"], 0.0, "{stdout}");
    assert!(
        runs[1]["bytes_written_per_action"]
            .as_f64()
            .is_some_and(|b| b > 0.0),
        "{stdout}"
    );
}

#[test]
fn the_load_generator_refuses_a_shape_it_cannot_run() {
    for (flags, says) in [
        (["--clients", "0"], "--clients takes 1 to 9"),
        (
            ["--rate", "0"],
            "--rate takes a number of actions per second above 0",
        ),
        (["--tables", "0"], "--tables takes 1 to 100000"),
    ] {
        let out = std::process::Command::new(bin("tablehold-load"))
            .args(flags)
            .output()
            .expect("run tablehold-load");
        assert!(!out.status.success());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(says), "{flags:?}: {stderr}");
    }
}

//! Helpers for the end-to-end tests: find the binaries the workspace has already built and run
//! them as real processes. Tests never run cargo themselves (DESIGN.md, "Testing"): `.ci/run`
//! or `cargo build --bins` builds them once, in the profile the tests use.

pub mod load;
pub mod server;

use std::ffi::OsStr;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::thread;
use std::time::Duration;

/// How long one run of a binary may take before the test fails rather than hangs.
pub const RUN_TIMEOUT: Duration = Duration::from_secs(30);

/// The workspace root (the parent of this crate), where `docs/` lives.
pub fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}

/// The path of an already-built binary: in `TABLEHOLD_BIN_DIR` if set, else in the shared
/// `target/debug`. Panics, saying what to do, when it is not there.
pub fn bin(name: &str) -> PathBuf {
    let dir = match std::env::var_os("TABLEHOLD_BIN_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => workspace_root().join("target").join("debug"),
    };
    let path = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.is_file(),
        "binary `{name}` not found at {}: run `cargo build --bins` first (or set TABLEHOLD_BIN_DIR)",
        path.display()
    );
    path
}

/// Runs `tablehold` with `args` from the workspace root, feeding `stdin` (or nothing: standard
/// input is then closed, so a command that reads it sees an empty input instead of hanging).
pub fn run(args: &[&str], stdin: Option<&str>) -> Output {
    run_bin("tablehold", args, stdin)
}

/// Runs `tablehold` like [`run`], with `env` added to its environment: a test gives every
/// client its own `TABLEHOLD_CONFIG_DIR`, so parallel tests never share seat profiles.
pub fn run_env(args: &[&str], stdin: Option<&str>, env: &[(&str, &OsStr)]) -> Output {
    run_bin_env("tablehold", args, stdin, env)
}

/// Runs the binary `name`; see [`run`].
pub fn run_bin(name: &str, args: &[&str], stdin: Option<&str>) -> Output {
    run_bin_env(name, args, stdin, &[])
}

/// Runs the binary `name` with `env` added to its environment; see [`run`].
pub fn run_bin_env(
    name: &str,
    args: &[&str],
    stdin: Option<&str>,
    env: &[(&str, &OsStr)],
) -> Output {
    let mut child = Command::new(bin(name))
        .args(args)
        .envs(env.iter().copied())
        .current_dir(workspace_root())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
    let writer = child.stdin.take().map(|mut pipe| {
        let input = stdin.unwrap_or_default().to_owned();
        // The child may exit before reading it all (an early error); that is not a test failure.
        thread::spawn(move || {
            let _ = pipe.write_all(input.as_bytes());
        })
    });
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut buf);
            }
            buf
        })
    };
    let out = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let Some(status) = wait_exit(&mut child, RUN_TIMEOUT) else {
        panic!("{name} {args:?} did not finish within {RUN_TIMEOUT:?}");
    };
    if let Some(w) = writer {
        let _ = w.join();
    }
    Output {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    }
}

/// Standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Waits for `child` to exit, at most `limit`; past it the child is killed and `None` returned.
/// The wait itself runs on a thread of its own, so nothing polls.
pub fn wait_exit(child: &mut Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    let killer = thread::spawn(move || {
        if rx.recv_timeout(limit).is_err() {
            // Still running at the limit (or the waiter is gone): stop it so `wait` returns.
            let _ = Command::new("kill")
                .arg("-KILL")
                .arg(pid.to_string())
                .status();
            return false;
        }
        true
    });
    let status = child.wait().ok();
    let _ = tx.send(());
    let in_time = killer.join().unwrap_or(false);
    status.filter(|_| in_time)
}

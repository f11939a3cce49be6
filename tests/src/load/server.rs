//! The server under load, when the load generator starts it itself: `tablehold-server` from
//! the directory the generator was built into, on a fresh data file, on a free loopback port.

use std::io::{BufRead as _, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use super::LoadError;

/// A server this process started; killed when dropped.
pub struct Spawned {
    child: Child,
    pub url: String,
    _dir: tempfile::TempDir,
    /// How it was started, for [`Spawned::restart`].
    binary: PathBuf,
    args: Vec<std::ffi::OsString>,
}

impl Spawned {
    /// Starts `binary` (or the `tablehold-server` beside this executable) with `extra` flags.
    /// Connected load clients add no entropy, so the dice epoch's window is kept short.
    pub fn start(binary: Option<PathBuf>, extra: &[String]) -> Result<Spawned, LoadError> {
        let binary = match binary {
            Some(b) => b,
            None => std::env::current_exe()
                .map_err(|e| LoadError::Spawn(e.to_string()))?
                .with_file_name(format!("tablehold-server{}", std::env::consts::EXE_SUFFIX)),
        };
        let dir = tempfile::tempdir().map_err(|e| LoadError::Spawn(e.to_string()))?;
        let mut command = Command::new(&binary);
        command
            .args([
                "--listen",
                "127.0.0.1:0",
                "--log",
                "warn",
                "--entropy-window-ms",
                "20",
            ])
            .arg("--data")
            .arg(dir.path().join("load.db"))
            .args(extra);
        Spawned::spawn(command, &binary, dir)
    }

    /// Starts the bare relay of `--baseline`: this executable again, in its relay mode, so
    /// that its CPU and memory are its own.
    pub fn relay() -> Result<Spawned, LoadError> {
        let binary = std::env::current_exe().map_err(|e| LoadError::Spawn(e.to_string()))?;
        let dir = tempfile::tempdir().map_err(|e| LoadError::Spawn(e.to_string()))?;
        let mut command = Command::new(&binary);
        command.arg("--serve-relay");
        Spawned::spawn(command, &binary, dir)
    }

    /// Kills the server without warning (SIGKILL: nothing is flushed or snapshotted at
    /// unload) and starts it again the same way on the same data file.
    pub fn restart(&mut self) -> Result<(), LoadError> {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let mut command = Command::new(&self.binary);
        command.args(&self.args);
        let (child, url) = Spawned::launch(command, &self.binary)?;
        self.child = child;
        self.url = url;
        Ok(())
    }

    /// Runs `command` and waits for the `listening on URL` line it prints when ready.
    fn spawn(
        command: Command,
        binary: &std::path::Path,
        dir: tempfile::TempDir,
    ) -> Result<Spawned, LoadError> {
        let args = command.get_args().map(ToOwned::to_owned).collect();
        let (child, url) = Spawned::launch(command, binary)?;
        Ok(Spawned {
            child,
            url,
            _dir: dir,
            binary: binary.to_owned(),
            args,
        })
    }

    fn launch(
        mut command: Command,
        binary: &std::path::Path,
    ) -> Result<(Child, String), LoadError> {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| LoadError::Spawn(format!("{}: {e}", binary.display())))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| LoadError::Spawn("no standard output".into()))?;
        let mut lines = BufReader::new(stdout).lines();
        let url = loop {
            match lines.next() {
                Some(Ok(line)) => {
                    if let Some(url) = line.strip_prefix("listening on ") {
                        break url.to_owned();
                    }
                }
                _ => {
                    let _ = child.kill();
                    return Err(LoadError::Spawn(format!(
                        "{} exited before listening",
                        binary.display()
                    )));
                }
            }
        };
        // Keep reading its output so the server never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines.map_while(Result::ok) {});
        Ok((child, url))
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Spawned {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

//! Seat profiles: what the client remembers of each seat it took, so that later commands
//! connect as that seat without asking again.
//!
//! One TOML file per seat, `<name>.toml`, in the config directory (`--config-dir`,
//! `TABLEHOLD_CONFIG_DIR`, else `$XDG_CONFIG_HOME/tablehold`, else `~/.config/tablehold`), and
//! a file `default` holding the name of the profile used when `--seat` is not given: the last
//! one created or joined.
//!
//! A profile holds the seat's token, the only way back to the seat and as good as the seat
//! itself, so files are created with mode 0600 inside a directory created with mode 0700, and
//! written whole (a temporary file renamed over the old one) so a crash never leaves half a
//! token. A profile is never overwritten by a new seat: that would lose the old seat for good.

use std::fs::{self, OpenOptions};
use std::io::Write as _;
use std::os::unix::fs::{DirBuilderExt as _, OpenOptionsExt as _};
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};
use serde::{Deserialize, Serialize};
use tablehold_protocol::Role;

/// One saved seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Profile {
    /// The server's address, `ws://...` or `wss://...`.
    pub server: String,
    pub table: String,
    /// The seat id: the name prompts and audiences use for it.
    pub seat: String,
    /// The seat's display name.
    pub name: String,
    pub role: Role,
    /// The secret that `auth` takes.
    pub token: String,
    /// The CA a `wss://` server's certificate is checked against, as given when the seat was
    /// taken, so later commands need not repeat it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ca_cert: Option<PathBuf>,
}

/// The name of the file that names the default profile.
const DEFAULT_FILE: &str = "default";

/// The directory profiles live in.
#[derive(Debug, Clone)]
pub struct ConfigDir {
    path: PathBuf,
}

impl ConfigDir {
    /// `flag` is `--config-dir` (clap already read `TABLEHOLD_CONFIG_DIR` into it); otherwise
    /// the XDG base directory rules, with `HOME` as the fallback.
    pub fn resolve(flag: Option<&Path>) -> Result<ConfigDir> {
        if let Some(dir) = flag {
            return Ok(ConfigDir { path: dir.into() });
        }
        // XDG: a relative XDG_CONFIG_HOME is invalid and must be ignored.
        let xdg = std::env::var_os("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute());
        let home = std::env::var_os("HOME")
            .map(PathBuf::from)
            .filter(|p| !p.as_os_str().is_empty());
        match (xdg, home) {
            (Some(xdg), _) => Ok(ConfigDir {
                path: xdg.join("tablehold"),
            }),
            (None, Some(home)) => Ok(ConfigDir {
                path: home.join(".config").join("tablehold"),
            }),
            (None, None) => bail!(
                "no config directory: set HOME, XDG_CONFIG_HOME or TABLEHOLD_CONFIG_DIR, or pass \
                 --config-dir DIR"
            ),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn file(&self, name: &str) -> PathBuf {
        self.path.join(format!("{name}.toml"))
    }

    /// The saved profiles' names, sorted.
    pub fn names(&self) -> Vec<String> {
        let Ok(entries) = fs::read_dir(&self.path) else {
            return Vec::new();
        };
        let mut names: Vec<String> = entries
            .filter_map(Result::ok)
            .filter_map(|e| {
                e.file_name()
                    .to_str()
                    .and_then(|n| n.strip_suffix(".toml"))
                    .filter(|n| valid_name(n))
                    .map(str::to_owned)
            })
            .collect();
        names.sort();
        names
    }

    pub fn exists(&self, name: &str) -> bool {
        self.file(name).exists()
    }

    /// `name`, or the first of `name-2`, `name-3`... that no profile has.
    pub fn free_name(&self, name: &str) -> String {
        if !self.exists(name) {
            return name.to_owned();
        }
        (2..)
            .map(|n| format!("{name}-{n}"))
            .find(|n| !self.exists(n))
            .unwrap_or_else(|| name.to_owned())
    }

    pub fn load(&self, name: &str) -> Result<Profile> {
        check_name(name)?;
        let file = self.file(name);
        let text = match fs::read_to_string(&file) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                bail!(
                    "no profile `{name}` in {}{}",
                    self.path.display(),
                    self.known()
                )
            }
            Err(e) => {
                return Err(e).with_context(|| format!("{}: cannot read", file.display()));
            }
        };
        toml::from_str(&text).with_context(|| format!("{}: not a profile", file.display()))
    }

    /// The profile `--seat` names, or the default one.
    pub fn pick(&self, seat: Option<&str>) -> Result<(String, Profile)> {
        let name = match seat {
            Some(name) => name.to_owned(),
            None => self.default_name()?.ok_or_else(|| {
                anyhow::anyhow!(
                    "no seat: create a table (`tablehold table create`) or join one \
                     (`tablehold join`) first, or pick a profile with --seat NAME{}",
                    self.known()
                )
            })?,
        };
        let profile = self.load(&name)?;
        Ok((name, profile))
    }

    /// `; saved profiles: a, b` when there are any, for error messages.
    fn known(&self) -> String {
        let names = self.names();
        if names.is_empty() {
            String::new()
        } else {
            format!("; saved profiles: {}", names.join(", "))
        }
    }

    fn default_name(&self) -> Result<Option<String>> {
        let file = self.path.join(DEFAULT_FILE);
        match fs::read_to_string(&file) {
            Ok(text) => Ok(Some(text.trim().to_owned()).filter(|n| !n.is_empty())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e).with_context(|| format!("{}: cannot read", file.display())),
        }
    }

    /// Saves a new profile under `name` and makes it the default. Refuses to replace one.
    pub fn create(&self, name: &str, profile: &Profile) -> Result<PathBuf> {
        check_name(name)?;
        if self.exists(name) {
            bail!(
                "a profile `{name}` already exists in {}; choose another name with --as",
                self.path.display()
            );
        }
        let text = toml::to_string(profile).context("internal: the profile does not serialize")?;
        let file = self.file(name);
        self.write_private(&file, &text)?;
        self.write_private(&self.path.join(DEFAULT_FILE), &format!("{name}\n"))?;
        Ok(file)
    }

    /// Writes `text` to `file` with mode 0600, all or nothing.
    fn write_private(&self, file: &Path, text: &str) -> Result<()> {
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&self.path)
            .with_context(|| format!("{}: cannot create the directory", self.path.display()))?;
        let tmp = file.with_extension("tmp");
        // A leftover from a crash: create_new below must not fail on it.
        let _ = fs::remove_file(&tmp);
        let write = || -> std::io::Result<()> {
            let mut f = OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(&tmp)?;
            f.write_all(text.as_bytes())?;
            f.sync_all()?;
            fs::rename(&tmp, file)
        };
        write().with_context(|| format!("{}: cannot write", file.display()))
    }
}

/// Profile names become file names: keep them to characters that are safe everywhere.
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

pub fn check_name(name: &str) -> Result<()> {
    if valid_name(name) {
        Ok(())
    } else {
        bail!(
            "`{name}` cannot name a profile: use 1 to 64 letters, digits, `-`, `_` or `.`, not \
             starting with `.`"
        )
    }
}

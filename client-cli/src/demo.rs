//! `tablehold demo --system ID`: a system tried alone, in one command. It starts the server
//! beside this binary on a free port with a temporary data file, creates a table of that
//! system with a GM and one player seat (profiles in a temporary directory, so the user's own
//! are untouched), seats the system's shipped example characters, sets up a short encounter
//! with its first example NPCs through an encounter file (`encounter load`), starts it, and
//! opens the TUI holding both seats, F2 switching between them. Quitting stops the server and
//! removes the temporary directory.

use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, Stdio};
use std::str::FromStr as _;

use anyhow::{Context as _, Result, anyhow, bail};
use tablehold_systems::SystemId;

use crate::cli::{
    Command, CreateArgs, DemoArgs, EncounterArgs, EncounterCommand, GlobalArgs, JoinArgs,
    TableArgs, TableCommand,
};
use crate::examples;
use crate::profile::ConfigDir;

/// The demo's player: the name it joins under, and so its seat id.
const PLAYER: &str = "player";

/// How many example NPCs the demo's encounter holds: a short fight.
const NPCS: usize = 2;

/// The demo's temporary directory and server, cleaned up however the demo ends.
struct Scratch {
    dir: PathBuf,
    server: Option<Child>,
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Some(mut child) = self.server.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub fn run(a: &DemoArgs) -> Result<()> {
    let system = SystemId::from_str(&a.system)?;
    let dir = std::env::temp_dir().join(format!("tablehold-demo-{}", std::process::id()));
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("{}: cannot create the demo's directory", dir.display()))?;
    let mut scratch = Scratch { dir, server: None };
    let url = start_server(&mut scratch)?;
    let globals = GlobalArgs {
        config_dir: Some(scratch.dir.join("config")),
        seat: None,
        ca_cert: None,
    };
    let (pcs, npcs) = write_sheets(&scratch.dir, system)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(set_up(&globals, system, &url, &scratch.dir, &pcs, &npcs))?;
    let config = ConfigDir::resolve(globals.config_dir.as_deref())?;
    let (_, player) = config.pick(Some(PLAYER))?;
    let (_, gm) = config.pick(Some("gm"))?;
    drop(runtime);
    crate::tui::run_seats(vec![player, gm], None)
}

/// `tablehold-server` from beside this binary, on a free port: its address once it listens.
fn start_server(scratch: &mut Scratch) -> Result<String> {
    let exe = std::env::current_exe().context("cannot find this program's own path")?;
    let server = exe.with_file_name(format!("tablehold-server{}", std::env::consts::EXE_SUFFIX));
    if !server.is_file() {
        bail!(
            "{}: no tablehold-server beside tablehold; install both (README.md, Install)",
            server.display()
        );
    }
    let mut child = Process::new(&server)
        .args(["--listen", "127.0.0.1:0", "--log", "warn", "--data"])
        .arg(scratch.dir.join("tablehold.db"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("{}: cannot start the server", server.display()))?;
    let stdout = child
        .stdout
        .take()
        .ok_or_else(|| anyhow!("the server's output cannot be read"))?;
    scratch.server = Some(child);
    let mut lines = BufReader::new(stdout).lines();
    let url = loop {
        match lines.next() {
            Some(Ok(line)) => {
                if let Some(url) = line.strip_prefix("listening on ") {
                    break url.to_owned();
                }
            }
            _ => bail!("the demo's server stopped before it listened"),
        }
    };
    // The rest of its output is read and dropped, so that a full pipe never blocks it.
    std::thread::spawn(move || lines.for_each(drop));
    Ok(url)
}

/// The system's example characters written out for the player to join with, and the names
/// of the example NPCs the encounter names (`monster = "NAME"`: the encounter file finds them
/// among the same shipped examples).
fn write_sheets(dir: &Path, system: SystemId) -> Result<(Vec<PathBuf>, Vec<&'static str>)> {
    let sheets = dir.join("sheets");
    std::fs::create_dir_all(&sheets)
        .with_context(|| format!("{}: cannot create", sheets.display()))?;
    let mut pcs = Vec::new();
    let mut npcs = Vec::new();
    for example in examples::all(system) {
        if !example.pc {
            if npcs.len() < NPCS {
                npcs.push(example.name);
            }
            continue;
        }
        let path = sheets.join(example.file);
        let mut doc: toml::Table = example
            .text
            .parse()
            .with_context(|| format!("the shipped example {} does not parse", example.file))?;
        // The examples name their players' seats; the demo's one player plays them all.
        doc.insert("owner".into(), toml::Value::String(PLAYER.into()));
        std::fs::write(&path, toml::to_string(&doc)?)
            .with_context(|| format!("{}: cannot write", path.display()))?;
        pcs.push(path);
    }
    if pcs.is_empty() {
        bail!("{system} ships no example character to play");
    }
    Ok((pcs, npcs))
}

/// The table, the seats and the encounter, through the same commands a user types.
async fn set_up(
    g: &GlobalArgs,
    system: SystemId,
    url: &str,
    dir: &Path,
    pcs: &[PathBuf],
    npcs: &[&str],
) -> Result<()> {
    let mut sink = |_: &str| Ok(());
    let create = Command::Table(TableArgs {
        command: TableCommand::Create(CreateArgs {
            system: system.as_str().to_owned(),
            name: format!("{system} demo"),
            players: 1,
            spectators: 0,
            options: Vec::new(),
            server: url.to_owned(),
            as_name: Some("gm".into()),
            json: true,
            watch: false,
        }),
    });
    let created = crate::remote::run(g, &create, &mut sink).await?;
    let created: serde_json::Value = serde_json::from_str(&created.stdout)?;
    let table = created["table"].as_str().unwrap_or_default().to_owned();
    let invite = created["invites"]
        .as_array()
        .and_then(|i| i.first())
        .and_then(|i| i["code"].as_str())
        .ok_or_else(|| anyhow!("the demo's table has no player invite"))?
        .to_owned();
    let join = Command::Join(JoinArgs {
        table,
        invite,
        name: PLAYER.into(),
        server: url.to_owned(),
        as_name: Some(PLAYER.into()),
        sheets: pcs.to_vec(),
        watch: false,
    });
    crate::remote::run(g, &join, &mut sink).await?;
    let ids: Vec<String> = pcs
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .filter_map(|t| t.parse::<toml::Table>().ok())
        .filter_map(|t| t.get("id").and_then(|v| v.as_str()).map(str::to_owned))
        .collect();
    let file = dir.join("encounter.toml");
    std::fs::write(&file, encounter_file(system, &ids, npcs))
        .with_context(|| format!("{}: cannot write", file.display()))?;
    let gm = GlobalArgs {
        seat: Some("gm".into()),
        config_dir: g.config_dir.clone(),
        ca_cert: None,
    };
    for command in [
        EncounterCommand::Load { file, check: false },
        EncounterCommand::Start { npcs: Vec::new() },
    ] {
        let c = Command::Encounter(EncounterArgs { command });
        crate::remote::run(&gm, &c, &mut sink).await?;
    }
    Ok(())
}

/// A small scene: each NPC face to face with a player's character (the first blow needs no
/// move), a wall behind them and a cell of cover when the system has one. The NPCs are the
/// system's shipped examples, named as any encounter file names them.
fn encounter_file(system: SystemId, pcs: &[String], npcs: &[&str]) -> String {
    let mut out = format!(
        "name = \"the demo\"\nsystem = \"{}\"\n\n[map]\nwidth = 10\nheight = 7\n\n",
        system.as_str()
    );
    out.push_str("[[terrain]]\nat = [6, 2]\nblocking = true\n\n");
    out.push_str("[[terrain]]\nat = [6, 3]\nblocking = true\n\n");
    if let Some(cover) = system.system().grid().covers.first() {
        out.push_str(&format!(
            "[[terrain]]\nat = [5, 5]\ncover = \"{cover}\"\n\n"
        ));
    }
    for (i, name) in npcs.iter().enumerate() {
        out.push_str(&format!(
            "[[npc]]\nmonster = \"{name}\"\nat = [3, {}]\n\n",
            1 + 2 * i
        ));
    }
    for (i, id) in pcs.iter().enumerate() {
        out.push_str(&format!(
            "[[place]]\nid = \"{id}\"\nat = [2, {}]\n\n",
            1 + 2 * i
        ));
    }
    out
}

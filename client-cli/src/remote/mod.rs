//! The scriptable network commands: `table create`, `join`, `seats`, `invite`, `revoke`,
//! `sheet`, `npc`, `encounter`, `act`, `answer`, `roll`, `state`, `watch`, `log` and `log export`
//! (whose fetch `verify` and `replay` also use for a table id).
//!
//! Each command resolves its raw arguments (the profile to act as, typed option and action
//! values), opens one connection as that seat, does one thing, and returns what to print.
//! A command that changes the table prints the events it produced, as the seat sees them.
//! Nothing here prints or exits: `main` does. Errors are `anyhow` errors whose text for a
//! server refusal is `code: message` (see [`crate::net::ServerError`]).

pub(crate) mod act;
pub(crate) mod answer;
pub(crate) mod entropy;
mod export;
pub(crate) mod show;
mod watch;

pub use export::fetch;

use std::collections::{BTreeMap, VecDeque};
use std::path::PathBuf;
use std::str::FromStr as _;
use std::time::Duration;

use anyhow::{Context as _, Result, anyhow, bail};
use serde::Serialize;
use tablehold_protocol::{ErrorCode, EventEnvelope, Invite, Op, Reply, Role, TableView};
use tablehold_rules::options::{OptionKind, OptionValue};
use tablehold_rules::{Args, Seat};
use tablehold_systems::SystemId;

use crate::cli::{
    ActArgs, AnswerArgs, Command, CreateArgs, EncounterCommand, GlobalArgs, InviteArgs, InviteRole,
    JoinArgs, LogArgs, LogCommand, NpcCommand, RevokeArgs, RollArgs, StateArgs, TableCommand,
    TableSheetCommand, WATCH_KEEPALIVE_MS, WatchArgs,
};
use crate::net::{Client, NetError, ServerError};
use crate::profile::{ConfigDir, Profile, check_name};
use crate::report::Report;

/// The name of the GM's profile when `table create` is not given `--as`.
const GM_PROFILE: &str = "gm";

/// Where `log` writes as it goes (a follow never ends, so it cannot return one report).
pub type Sink<'a> = dyn FnMut(&str) -> std::io::Result<()> + 'a;

/// The global options, resolved: where profiles live, which one to use, which CA to trust.
#[derive(Clone)]
struct Globals {
    config: ConfigDir,
    seat: Option<String>,
    ca_cert: Option<PathBuf>,
}

impl Globals {
    fn resolve(g: &GlobalArgs) -> Result<Globals> {
        let ca_cert = match &g.ca_cert {
            // Saved in profiles, so it must not depend on the directory a command runs in.
            Some(p) => Some(
                std::path::absolute(p)
                    .with_context(|| format!("{}: cannot resolve the path", p.display()))?,
            ),
            None => None,
        };
        Ok(Globals {
            config: ConfigDir::resolve(g.config_dir.as_deref())?,
            seat: g.seat.clone(),
            ca_cert,
        })
    }
}

/// Runs one network command. `out` receives `log`'s lines as they come; every other command
/// returns its whole report.
pub async fn run(globals: &GlobalArgs, command: &Command, out: &mut Sink<'_>) -> Result<Report> {
    let g = Globals::resolve(globals)?;
    match command {
        Command::Rules(_) => bail!("internal: the rules calculator is not a network command"),
        Command::Demo(_) => bail!("internal: `demo` runs its own server and the TUI"),
        Command::Verify(_) | Command::Replay(_) => {
            bail!("internal: `verify` and `replay` fetch through `remote::fetch`")
        }
        Command::Table(t) => match &t.command {
            TableCommand::Create(a) => {
                let (report, profile) = create_table(&g, a).await?;
                then_watch(&g, globals, a.watch, report, &profile, out).await
            }
        },
        Command::Join(a) => {
            let (report, profile) = join(&g, a).await?;
            then_watch(&g, globals, a.watch, report, &profile, out).await
        }
        Command::Seats => {
            let mut s = Session::open(&g).await?;
            let Reply::Seats { seats } = s.request(Op::Seats).await? else {
                bail!("internal: unexpected answer to `seats`");
            };
            s.finish(show::seats_text(&seats)).await
        }
        Command::Invite(a) => invite(&g, a).await,
        Command::Revoke(a) => revoke(&g, a).await,
        Command::Readmit(a) => readmit(&g, a).await,
        Command::Sheet(a) => match &a.command {
            TableSheetCommand::Add(f) => add_sheets(&g, &f.files).await,
            TableSheetCommand::Show(a) => {
                let mut s = Session::open(&g).await?;
                let op = Op::ShowSheet {
                    entity: a.entity.clone(),
                };
                let Reply::Sheet { sheet } = s.request(op).await? else {
                    bail!("internal: unexpected answer to `show_sheet`");
                };
                s.finish(show::sheet_text(&sheet)).await
            }
            TableSheetCommand::Assign(a) => {
                let mut s = Session::open(&g).await?;
                let op = Op::AssignCharacter {
                    entity: a.entity.clone(),
                    seat: a.to.clone(),
                };
                let reply = s.request(op).await?;
                let text = s.produced(reply).await?;
                s.finish(text).await
            }
        },
        Command::Npc(a) => match &a.command {
            NpcCommand::Add(f) => add_sheets(&g, &f.files).await,
        },
        Command::Encounter(a) => {
            // The two table actions every system takes (the core names them); everything else
            // comes from the catalogue.
            let (action, npcs) = match &a.command {
                EncounterCommand::Start { npcs } => {
                    (tablehold_rules::action::START_ENCOUNTER, npcs.as_slice())
                }
                EncounterCommand::End => (tablehold_rules::action::END_ENCOUNTER, &[][..]),
                EncounterCommand::Load { file, check } => {
                    return load_encounter(&g, file, *check).await;
                }
            };
            let sheets = read_sheets(npcs)?;
            let mut s = Session::open(&g).await?;
            let mut text = s.add_sheets(sheets).await?;
            let op = Op::Act {
                actor: None,
                action: action.to_owned(),
                args: Args::default(),
            };
            let reply = s.request(op).await?;
            text.push_str(&s.produced(reply).await?);
            s.finish(text).await
        }
        Command::Act(a) => act(&g, a).await,
        Command::Short(words) => {
            let Some((action, values)) = words.split_first() else {
                bail!("no action given");
            };
            let (flags, args) = act::take_line_flags(values, &["actor", "end", "npcs"])
                .map_err(|why| anyhow!(why))?;
            let a = crate::cli::ActArgs {
                action: Some(action.clone()),
                actor: flags.actor,
                args,
                list: false,
                end: flags.end || flags.npcs,
                npcs: flags.npcs,
            };
            act(&g, &a).await
        }
        Command::Answer(a) => answer(&g, a).await,
        Command::Roll(a) => roll(&g, a).await,
        Command::State(a) => state(&g, a).await,
        Command::Watch(a) => watch(&g, globals, a, out).await,
        Command::Log(a) => match &a.action {
            Some(LogCommand::Export(x)) => export::export(&g, x).await,
            None => log(&g, a, out).await,
        },
    }
}

/// One connection, authenticated as the picked profile's seat.
struct Session {
    client: Client,
    seat: Seat,
    /// The seat's id as audiences and prompts name it (`gm` for the GM).
    seat_id: String,
    /// The profile's name, as `--seat` takes it: for commands printed for the user to type.
    profile: String,
}

impl Session {
    async fn open(g: &Globals) -> Result<Session> {
        let (name, profile) = g.config.pick(g.seat.as_deref())?;
        let ca = g.ca_cert.clone().or_else(|| profile.ca_cert.clone());
        let mut client = Client::connect(&profile.server, ca.as_deref()).await?;
        let op = Op::Auth {
            table: profile.table.clone(),
            token: profile.token.clone(),
        };
        let Reply::Authed { seat, .. } = client.request(op).await? else {
            bail!("internal: unexpected answer to `auth`");
        };
        Ok(Session {
            seat: show::rules_seat(&seat.id, seat.role),
            seat_id: seat.id,
            profile: name,
            client,
        })
    }

    async fn request(&mut self, op: Op) -> Result<Reply, NetError> {
        self.client.request(op).await
    }

    /// Adds each sheet in turn, with what each produced. A refusal stops there, after the
    /// ones before it, and keeps the `error: CODE: message` shape scripts read; the sheet's
    /// own id is in the message.
    async fn add_sheets(&mut self, sheets: Vec<String>) -> Result<String> {
        let mut text = String::new();
        for sheet in sheets {
            let reply = self.request(Op::AddSheet { sheet }).await?;
            text.push_str(&self.produced(reply).await?);
        }
        Ok(text)
    }

    async fn state(&mut self) -> Result<TableView> {
        match self.request(Op::State).await? {
            Reply::State { state } => Ok(*state),
            _ => bail!("internal: unexpected answer to `state`"),
        }
    }

    /// The events an `applied` reply names, as this seat sees them, as text. They are read
    /// back with a subscription from just before them, closed by a barrier, because some of
    /// them may be hidden from this seat and never arrive.
    async fn produced(&mut self, reply: Reply) -> Result<String> {
        let Reply::Applied {
            first_seq,
            last_seq,
        } = reply
        else {
            bail!("internal: expected `applied`");
        };
        if first_seq == 0 || last_seq < first_seq {
            return Ok("done\n".to_owned());
        }
        match self
            .request(Op::Subscribe {
                after: first_seq - 1,
            })
            .await?
        {
            Reply::Subscribed { .. } => {}
            _ => bail!("internal: unexpected answer to `subscribe`"),
        }
        self.client.barrier().await?;
        let mut events: Vec<EventEnvelope> = self
            .client
            .take_events()
            .into_iter()
            .filter(|e| (first_seq..=last_seq).contains(&e.seq))
            .collect();
        // A second command on one connection subscribes again: an event that arrived live on
        // the first subscription comes again from the replay of the second. Each once.
        events.sort_by_key(|e| e.seq);
        events.dedup_by_key(|e| e.seq);
        if events.is_empty() {
            return Ok(format!(
                "done (events #{first_seq}..#{last_seq}, hidden from this seat)\n"
            ));
        }
        // What an action did, as a person reads it: the dice machinery (draw counters,
        // digests, epochs) is `log`'s and `watch --verbose`'s to show.
        Ok(events
            .into_iter()
            .filter_map(|mut e| {
                e.parts.retain(|p| !crate::lines::is_machinery(&p.fact));
                (!e.parts.is_empty()).then(|| show::event_text(&e, &self.seat))
            })
            .collect())
    }

    /// Closes the connection and wraps `stdout` into a report, with a warning if the server
    /// sent frames this client could not read.
    async fn finish(self, stdout: String) -> Result<Report> {
        let mut report = Report::text(stdout);
        if self.client.skipped() > 0 {
            report.warnings.push(skipped_warning(self.client.skipped()));
        }
        self.client.close().await;
        Ok(report)
    }
}

fn skipped_warning(n: usize) -> String {
    format!("{n} frame(s) from the server could not be read and were skipped (a newer server?)")
}

/// `--option KEY=VALUE` words as typed option values: typed by the option's kind when this
/// client knows the system, else by how they look (the server checks them either way).
fn table_options(system: &str, words: &[String]) -> Result<BTreeMap<String, OptionValue>> {
    let specs = SystemId::from_str(system)
        .map(|s| s.system().options())
        .unwrap_or_default();
    let mut out = BTreeMap::new();
    for w in words {
        let Some((key, value)) = w.split_once('=') else {
            bail!("--option `{w}` is not KEY=VALUE");
        };
        let (key, value) = (key.trim(), value.trim());
        let kind = specs.iter().find(|s| s.key == key).map(|s| &s.kind);
        let typed =
            match kind {
                Some(OptionKind::Bool) => match value {
                    "true" => OptionValue::Bool(true),
                    "false" => OptionValue::Bool(false),
                    _ => bail!("table option `{key}` must be true or false, got `{value}`"),
                },
                Some(OptionKind::Int { .. }) => OptionValue::Int(value.parse().map_err(|_| {
                    anyhow!("table option `{key}` must be an integer, got `{value}`")
                })?),
                Some(OptionKind::Choice { .. }) => OptionValue::Choice(value.to_owned()),
                None => match (value, value.parse::<i64>()) {
                    ("true", _) => OptionValue::Bool(true),
                    ("false", _) => OptionValue::Bool(false),
                    (_, Ok(i)) => OptionValue::Int(i),
                    (v, Err(_)) => OptionValue::Choice(v.to_owned()),
                },
            };
        if out.insert(key.to_owned(), typed).is_some() {
            bail!("table option `{key}` is given twice");
        }
    }
    Ok(out)
}

/// The profile name a new seat is saved under: `--as NAME`, which must be free (checked before
/// the server is asked, so that nothing is spent on a name that cannot be saved), or the
/// default made unique.
fn new_profile_name(g: &Globals, as_name: Option<&str>) -> Result<Option<String>> {
    match as_name {
        Some(name) => {
            check_name(name)?;
            if g.config.exists(name) {
                bail!(
                    "a profile `{name}` already exists in {}; choose another name with --as",
                    g.config.path().display()
                );
            }
            Ok(Some(name.to_owned()))
        }
        None => Ok(None),
    }
}

#[derive(Serialize)]
struct Created<'a> {
    table: &'a str,
    gm_token: &'a str,
    invites: &'a [Invite],
    profile: &'a str,
    profile_file: &'a std::path::Path,
}

async fn create_table(g: &Globals, a: &CreateArgs) -> Result<(Report, String)> {
    let options = table_options(&a.system, &a.options)?;
    let chosen = new_profile_name(g, a.as_name.as_deref())?;
    let mut client = Client::connect(&a.server, g.ca_cert.as_deref()).await?;
    let op = Op::CreateTable {
        system: a.system.clone(),
        name: a.name.clone(),
        options,
        players: a.players,
        spectators: a.spectators,
    };
    let Reply::TableCreated {
        table,
        gm_token,
        invites,
    } = client.request(op).await?
    else {
        bail!("internal: unexpected answer to `create_table`");
    };
    // Authenticating once proves the token works and tells the GM seat's id and name.
    let op = Op::Auth {
        table: table.clone(),
        token: gm_token.clone(),
    };
    let Reply::Authed { seat, .. } = client.request(op).await? else {
        bail!("internal: unexpected answer to `auth`");
    };
    client.close().await;
    let name = chosen.unwrap_or_else(|| g.config.free_name(GM_PROFILE));
    let profile = Profile {
        server: a.server.clone(),
        table: table.clone(),
        seat: seat.id,
        name: seat.name,
        role: seat.role,
        token: gm_token.clone(),
        ca_cert: g.ca_cert.clone(),
    };
    let file = g.config.create(&name, &profile).with_context(|| {
        format!(
            "the table {table} was created, but its GM token {gm_token} could not be saved: keep it"
        )
    })?;
    let stdout = if a.json {
        let created = Created {
            table: &table,
            gm_token: &gm_token,
            invites: &invites,
            profile: &name,
            profile_file: &file,
        };
        let mut s = serde_json::to_string_pretty(&created)?;
        s.push('\n');
        s
    } else {
        let mut s = format!("table {table}\ngm token {gm_token}\n");
        for i in &invites {
            s.push_str(&format!("invite {} {}\n", show::role_name(i.role), i.code));
        }
        s.push_str(&format!("profile {name} ({})\n", file.display()));
        s
    };
    Ok((Report::text(stdout), name))
}

async fn join(g: &Globals, a: &JoinArgs) -> Result<(Report, String)> {
    let chosen = new_profile_name(g, a.as_name.as_deref())?;
    // Read before the invite is spent: a missing file costs nothing.
    let sheets = read_sheets(&a.sheets)?;
    let mut client = Client::connect(&a.server, g.ca_cert.as_deref()).await?;
    let op = Op::Join {
        table: a.table.clone(),
        invite: a.invite.clone(),
        name: a.name.clone(),
    };
    let Reply::Joined { table, seat, token } = client.request(op).await? else {
        bail!("internal: unexpected answer to `join`");
    };
    client.close().await;
    // Seat ids are lower-case letters, digits and dashes: always a valid profile name.
    let name = chosen.unwrap_or_else(|| g.config.free_name(&seat.id));
    let profile = Profile {
        server: a.server.clone(),
        table: table.clone(),
        seat: seat.id.clone(),
        name: seat.name.clone(),
        role: seat.role,
        token: token.clone(),
        ca_cert: g.ca_cert.clone(),
    };
    let file = g.config.create(&name, &profile).with_context(|| {
        format!(
            "joined as {}, but its token {token} could not be saved: keep it",
            seat.id
        )
    })?;
    let joined = format!(
        "joined table {table} as {} ({}, {})\nprofile {name} ({})\n",
        seat.id,
        seat.name,
        show::role_name(seat.role),
        file.display()
    );
    if sheets.is_empty() {
        return Ok((Report::text(joined), name));
    }
    // The seat is saved: a sheet refused now is added later with `sheet add`.
    let seated = Globals {
        seat: Some(name.clone()),
        ..g.clone()
    };
    let not_added = || {
        format!(
            "joined table {table} as {} and saved the profile {name}, but the sheet was not \
             added: fix it and add it with `tablehold --seat {name} sheet add FILE`",
            seat.id
        )
    };
    let mut s = Session::open(&seated).await.with_context(not_added)?;
    let added = s.add_sheets(sheets).await.with_context(not_added)?;
    Ok((s.finish(joined + &added).await?, name))
}

/// `--watch` after `table create` or `join`: what the command printed, then the table followed
/// as the new profile's seat, as `watch` follows it.
async fn then_watch(
    g: &Globals,
    globals: &GlobalArgs,
    watching: bool,
    report: Report,
    profile: &str,
    out: &mut Sink<'_>,
) -> Result<Report> {
    if !watching {
        return Ok(report);
    }
    out(&report.stdout)?;
    let seated = Globals {
        seat: Some(profile.to_owned()),
        ..g.clone()
    };
    let a = WatchArgs {
        verbose: false,
        keepalive_ms: WATCH_KEEPALIVE_MS,
        entropy: None,
    };
    watch(&seated, globals, &a, out).await
}

async fn invite(g: &Globals, a: &InviteArgs) -> Result<Report> {
    let role = match a.role {
        InviteRole::Player => Role::Player,
        InviteRole::Spectator => Role::Spectator,
    };
    let mut s = Session::open(g).await?;
    let Reply::Invited { invite } = s.request(Op::Invite { role }).await? else {
        bail!("internal: unexpected answer to `invite`");
    };
    let text = format!("invite {} {}\n", show::role_name(invite.role), invite.code);
    s.finish(text).await
}

async fn revoke(g: &Globals, a: &RevokeArgs) -> Result<Report> {
    let mut s = Session::open(g).await?;
    let op = Op::RevokeSeat {
        seat: a.target.clone(),
    };
    let Reply::Seats { seats } = s.request(op).await? else {
        bail!("internal: unexpected answer to `revoke_seat`");
    };
    s.finish(show::seats_text(&seats)).await
}

async fn readmit(g: &Globals, a: &RevokeArgs) -> Result<Report> {
    let mut s = Session::open(g).await?;
    let op = Op::ReadmitSeat {
        seat: a.target.clone(),
    };
    let Reply::Applied { .. } = s.request(op).await? else {
        bail!("internal: unexpected answer to `readmit_seat`");
    };
    s.finish(format!(
        "{} adds its entropy to the dice again from the next epoch\n",
        a.target
    ))
    .await
}

/// Adds each sheet in turn over one connection. Every file is read first, so a missing one
/// adds nothing; a sheet the server refuses stops there, after the ones before it.
async fn add_sheets(g: &Globals, files: &[std::path::PathBuf]) -> Result<Report> {
    let sheets = read_sheets(files)?;
    let mut s = Session::open(g).await?;
    let text = s.add_sheets(sheets).await?;
    s.finish(text).await
}

/// Every sheet file's text, all read before anything is sent.
/// `encounter load FILE`: the file checked whole first (nothing is sent from a file with a
/// mistake), then its NPCs added, its terrain set and its tokens placed with the core's
/// rulings, as the GM would type them, each request's events printed.
async fn load_encounter(g: &Globals, file: &std::path::Path, check: bool) -> Result<Report> {
    use tablehold_rules::ArgValue;
    use tablehold_rules::engine::RULING_PREFIX;
    let e = crate::encounter_file::load(file)?;
    let examples = e.npcs.iter().filter(|n| n.example.is_some()).count();
    let summary = format!(
        "{}: {}{}x{} map, {} terrain cell(s), {} NPC(s){}, {} token(s) placed\n",
        file.display(),
        e.name
            .as_ref()
            .map_or(String::new(), |n| format!("\"{n}\", ")),
        e.width,
        e.height,
        e.terrain.len(),
        e.npcs.len(),
        if examples > 0 {
            format!(" ({examples} from the shipped examples)")
        } else {
            String::new()
        },
        e.positions.len()
    );
    if check {
        return Ok(Report::text(format!("OK: {summary}")));
    }
    let mut s = Session::open(g).await?;
    // A file for another system is refused before anything is sent.
    if e.system.is_some() {
        let table = s.state().await?;
        e.fits_table(file, &table.system)?;
    }
    let mut text = s
        .add_sheets(e.npcs.iter().map(|n| n.sheet.clone()).collect())
        .await?;
    let mut rulings: Vec<(&str, Args)> = Vec::new();
    for t in &e.terrain {
        let mut args = Args::default().with("cell", ArgValue::Cell(t.at));
        if t.difficult {
            args = args.with("difficult", ArgValue::Flag(true));
        }
        if t.blocking {
            args = args.with("blocking", ArgValue::Flag(true));
        }
        if let Some(cover) = &t.cover {
            args = args.with("cover", ArgValue::Text(cover.clone()));
        }
        rulings.push(("terrain", args));
    }
    for (id, at) in &e.positions {
        let args = Args::default()
            .with("target", ArgValue::Text(id.clone()))
            .with("to", ArgValue::Cell(*at));
        rulings.push(("move", args));
    }
    for (ruling, args) in rulings {
        let op = Op::Act {
            actor: None,
            action: format!("{RULING_PREFIX}{ruling}"),
            args,
        };
        let reply = s.request(op).await?;
        text.push_str(&s.produced(reply).await?);
    }
    text.push_str(&format!("loaded {summary}"));
    s.finish(text).await
}

fn read_sheets(files: &[std::path::PathBuf]) -> Result<Vec<String>> {
    files
        .iter()
        .map(|file| {
            std::fs::read_to_string(file)
                .with_context(|| format!("{}: cannot read the sheet", file.display()))
        })
        .collect()
}

async fn act(g: &Globals, a: &ActArgs) -> Result<Report> {
    let mut s = Session::open(g).await?;
    let Reply::Actions { actions } = s.request(Op::Actions).await? else {
        bail!("internal: unexpected answer to `actions`");
    };
    let Some(action) = a.action.as_deref().filter(|_| !a.list) else {
        return s.finish(act::catalogue_text(&actions)).await;
    };
    // `answer` is the engine's own entry for an open window, not an action of a system: it
    // goes out as the protocol's `answer`.
    if action == "answer" && actions.iter().any(|s| s.name == "answer") {
        let text = send_answer(&mut s, &actions, &a.args, None).await?;
        return s.finish(text).await;
    }
    let req = act::resolve(&actions, action, a.actor.as_deref(), &a.args)?;
    // The GM's catalogue lists the player character whose turn it is (the GM may act for it);
    // but a GM who names no actor means one of the GM's own, so a player's character is acted
    // for only when named.
    if a.actor.is_none()
        && s.seat.is_gm()
        && let Some(id) = req.actor.as_deref()
    {
        let view = s.state().await?;
        let player = view
            .combatants
            .iter()
            .find(|c| c.id == id)
            .and_then(|c| c.owner.clone());
        if let Some(owner) = player {
            bail!(ServerError {
                code: ErrorCode::BadRequest,
                message: format!(
                    "it is {id}'s turn, and {id} is {owner}'s character: an NPC acts on its own \
                     turn, and the GM acts for {id} only by naming it (--actor {id})"
                ),
            });
        }
    }
    let template = req.args.clone();
    let mut req = req;
    // With `--npcs` the values typed are a pattern for every NPC's turn, the first one's too:
    // a value this NPC cannot use (another goblin's weapon) becomes its own.
    if a.npcs
        && let Some(spec) = actions.iter().find(|sp| {
            sp.name == req.action && sp.actor.as_ref().map(ToString::to_string) == req.actor
        })
    {
        req.args = act::fitted(spec, &template);
    }
    let listed = req.listed;
    let actor = req.actor.clone();
    let meant_value = act::closest_values(&actions, &req);
    let op = Op::Act {
        actor: req.actor,
        action: req.action,
        args: req.args,
    };
    let reply = match s.request(op).await {
        Ok(reply) => reply,
        // An action the catalogue did not list, refused as unknown or malformed: say what
        // this seat may do instead.
        Err(NetError::Server(e))
            if !listed
                && matches!(
                    e.code,
                    ErrorCode::UnknownAction | ErrorCode::Refused | ErrorCode::BadRequest
                ) =>
        {
            // A slip of the keyboard gets the one action meant; anything else the list.
            if let Some(meant) = act::closest_action(&actions, action) {
                bail!(ServerError {
                    code: e.code,
                    message: format!(
                        "{}; did you mean `{meant}`? (`tablehold act --list` shows what your \
                         seat may do now)",
                        e.message
                    ),
                });
            }
            let names = act::action_names(&actions);
            let now = if names.is_empty() {
                "none".to_owned()
            } else {
                names.join(", ")
            };
            bail!(ServerError {
                code: e.code,
                message: format!(
                    "{}; actions your seat may take now: {now} (`tablehold act --list`)",
                    e.message
                ),
            });
        }
        // A value the server knows nothing of (a misspelt id, another NPC's weapon): the one
        // meant, or the values the argument takes now.
        Err(NetError::Server(e))
            if matches!(e.code, ErrorCode::UnknownEntity | ErrorCode::UnknownName)
                && !meant_value.is_empty() =>
        {
            bail!(ServerError {
                code: e.code,
                message: format!("{}; {}", e.message, meant_value.join("; ")),
            });
        }
        Err(e) => return Err(e.into()),
    };
    let mut text = s.produced(reply).await?;
    // A turn the action itself ended (a house rule, a turn spent) needs no `end_turn`.
    let turn_over = actor.is_some() && s.state().await?.current != actor;
    if (a.end || a.npcs) && !turn_over {
        let op = Op::Act {
            actor,
            action: tablehold_rules::action::END_TURN.to_owned(),
            args: Args::default(),
        };
        // The action went through whatever comes of this: a refusal (a prompt it opened must
        // be answered first) is said after its events, not in place of them.
        match s.request(op).await {
            Ok(reply) => text.push_str(&s.produced(reply).await?),
            Err(NetError::Server(e)) => {
                text.push_str(&format!("the turn goes on: {e}\n"));
                return s.finish(text).await;
            }
            Err(e) => return Err(e.into()),
        }
    }
    if a.npcs {
        npc_turns(&mut s, action, &template, &mut text).await?;
    }
    s.finish(text).await
}

/// `--npcs`: each following turn of a character no player plays takes `action` with the
/// `template`'s values where they fit it (among the values its catalogue entry takes now)
/// and its own first ones otherwise, then ends. Stops at a player's turn, an open prompt, a
/// refusal, or after a round's worth of turns at most.
async fn npc_turns(
    s: &mut Session,
    action: &str,
    template: &Args,
    text: &mut String,
) -> Result<()> {
    for _ in 0..MAX_NPC_TURNS {
        let view = s.state().await?;
        if !view.prompts.is_empty() || view.prompt.is_some() {
            text.push_str("a prompt is open: the other turns wait for it\n");
            return Ok(());
        }
        let Some(current) = view.current.clone() else {
            return Ok(());
        };
        let npc = view
            .combatants
            .iter()
            .any(|c| c.id == current && c.owner.is_none());
        if !npc {
            return Ok(());
        }
        let Reply::Actions { actions } = s.request(Op::Actions).await? else {
            bail!("internal: unexpected answer to `actions`");
        };
        let Some(spec) = actions.iter().find(|sp| {
            sp.name == action && sp.actor.as_ref().is_some_and(|a| a.as_str() == current)
        }) else {
            text.push_str(&format!(
                "{current} cannot {action} now: its turn goes on\n"
            ));
            return Ok(());
        };
        let op = Op::Act {
            actor: Some(current.clone()),
            action: action.to_owned(),
            args: act::fitted(spec, template),
        };
        match s.request(op).await {
            Ok(reply) => text.push_str(&s.produced(reply).await?),
            Err(NetError::Server(e)) => {
                text.push_str(&format!("{current}'s turn goes on: {e}\n"));
                return Ok(());
            }
            Err(e) => return Err(e.into()),
        }
        // A turn the action itself ended (a house rule, a turn spent) needs no `end_turn`.
        if s.state().await?.current.as_ref() != Some(&current) {
            continue;
        }
        let end = Op::Act {
            actor: Some(current.clone()),
            action: tablehold_rules::action::END_TURN.to_owned(),
            args: Args::default(),
        };
        match s.request(end).await {
            Ok(reply) => text.push_str(&s.produced(reply).await?),
            Err(NetError::Server(e)) => {
                text.push_str(&format!("{current}'s turn goes on: {e}\n"));
                return Ok(());
            }
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

/// The most NPC turns one `--npcs` plays: a safeguard against a table where they would go on
/// round after round (no player able to act), far above any real encounter's NPC count.
const MAX_NPC_TURNS: usize = 64;

async fn send_answer(
    s: &mut Session,
    catalogue: &[tablehold_rules::ActionSpec],
    words: &[String],
    prompt: Option<u64>,
) -> Result<String> {
    let req = answer::resolve(catalogue, prompt, words)?;
    let reply = s
        .request(Op::Answer {
            prompt_id: req.prompt_id,
            choice: req.choice,
            args: req.args,
        })
        .await?;
    s.produced(reply).await
}

async fn answer(g: &Globals, a: &AnswerArgs) -> Result<Report> {
    let mut s = Session::open(g).await?;
    let Reply::Actions { actions } = s.request(Op::Actions).await? else {
        bail!("internal: unexpected answer to `actions`");
    };
    let text = send_answer(&mut s, &actions, &a.words, a.prompt).await?;
    s.finish(text).await
}

async fn roll(g: &Globals, a: &RollArgs) -> Result<Report> {
    let mut s = Session::open(g).await?;
    let op = Op::Roll {
        dice: a.dice.clone(),
        secret: a.secret,
    };
    let reply = s.request(op).await?;
    let text = s.produced(reply).await?;
    s.finish(text).await
}

async fn state(g: &Globals, a: &StateArgs) -> Result<Report> {
    let mut s = Session::open(g).await?;
    let view = s.state().await?;
    let text = if a.json {
        let mut j = serde_json::to_string_pretty(&view)?;
        j.push('\n');
        j
    } else {
        show::state_text(&view)
    };
    s.finish(text).await
}

async fn log(g: &Globals, a: &LogArgs, out: &mut Sink<'_>) -> Result<Report> {
    let mut s = Session::open(g).await?;
    match s.request(Op::Subscribe { after: a.after }).await? {
        Reply::Subscribed { .. } => {}
        _ => bail!("internal: unexpected answer to `subscribe`"),
    }
    let format = |e: &EventEnvelope, seat: &Seat| -> Result<String> {
        if a.jsonl {
            let mut line = show::event_json(e)?;
            line.push('\n');
            Ok(line)
        } else {
            Ok(show::event_text(e, seat))
        }
    };
    if !a.follow {
        s.client.barrier().await?;
        // Events are printed once each, in order, even if the server sent one twice.
        let mut last = a.after;
        for e in s.client.take_events() {
            if e.seq > last {
                last = e.seq;
                out(&format(&e, &s.seat)?)?;
            }
        }
        return s.finish(String::new()).await;
    }
    let keepalive = Duration::from_millis(a.keepalive_ms);
    let mut each = |e: &EventEnvelope, seat: &Seat| -> Result<()> { Ok(out(&format(e, seat)?)?) };
    follow(&mut s, a.entropy.as_deref(), keepalive, &mut each)
        .await
        .map(|never| match never {})
}

/// `watch`: the table's state now (whose turn, an open prompt), then every new event as a
/// line, through [`watch::Watcher`]. The whole log is read (silently up to the state's head),
/// so that dice epochs already open are joined as `log --follow` would.
async fn watch(
    g: &Globals,
    globals: &GlobalArgs,
    a: &WatchArgs,
    out: &mut Sink<'_>,
) -> Result<Report> {
    let mut s = Session::open(g).await?;
    let view = s.state().await?;
    let mut watcher = watch::Watcher::new(
        &view,
        &s.seat,
        answer_prefix(globals, &s.profile),
        a.verbose,
    );
    out(&watcher.start_text(&view, show::now_ms()))?;
    match s.request(Op::Subscribe { after: 0 }).await? {
        Reply::Subscribed { .. } => {}
        _ => bail!("internal: unexpected answer to `subscribe`"),
    }
    let head = view.head;
    let keepalive = Duration::from_millis(a.keepalive_ms);
    let mut each = |e: &EventEnvelope, _: &Seat| -> Result<()> {
        // Events up to the state's head are already in the view it was built from.
        if e.seq > head {
            out(&watcher.event_text(e, show::now_ms()))?;
        }
        Ok(())
    };
    follow(&mut s, a.entropy.as_deref(), keepalive, &mut each)
        .await
        .map(|never| match never {})
}

/// `tablehold --seat NAME` and the config directory when one was given on the command line
/// (an environment variable would be there for the next command too): the start of a command
/// that acts as the same seat, for the user to type.
fn answer_prefix(globals: &GlobalArgs, profile: &str) -> String {
    let mut words = vec!["tablehold".to_owned()];
    if let Some(dir) = &globals.config_dir {
        let from_env = std::env::var_os("TABLEHOLD_CONFIG_DIR").is_some_and(|v| *v == **dir);
        if !from_env {
            words.push("--config-dir".into());
            words.push(watch::shell_word(&dir.display().to_string()));
        }
    }
    words.push("--seat".into());
    words.push(watch::shell_word(profile));
    words.join(" ")
}

/// Follows a subscription made just before: reads its backlog, then its live events until the
/// connection fails, handing `each` every event once, in order. Meanwhile this seat takes part
/// in every dice epoch it sees open (entropy.rs): the one loop behind `log --follow` and
/// `watch`, so both contribute alike. Only an error ends it.
async fn follow(
    s: &mut Session,
    entropy: Option<&str>,
    keepalive: Duration,
    each: &mut dyn FnMut(&EventEnvelope, &Seat) -> Result<()>,
) -> Result<std::convert::Infallible> {
    // The backlog is read first, so that only epochs still taking commitments are joined.
    let mut contributor = entropy::Contributor::new(&s.seat_id, entropy)?;
    // The server may send an event twice around a reconnect of the subscription: once each.
    let mut last = 0;
    let mut deliver = |e: &EventEnvelope, seat: &Seat| -> Result<()> {
        if e.seq > last {
            last = e.seq;
            each(e, seat)?;
        }
        Ok(())
    };
    s.client.barrier().await?;
    for e in s.client.take_events() {
        contributor.observe(&e)?;
        deliver(&e, &s.seat)?;
    }
    let mut sends: VecDeque<Op> = contributor.go_live()?.into();
    // The server closes a connection that has sent nothing for a while (90 s by default), and
    // answering its WebSocket pings does not count: a quiet follower sends a protocol `ping`.
    let keepalive = keepalive.max(Duration::from_millis(1));
    loop {
        // A commitment or reveal the server refuses (the window closed meanwhile) only means
        // this seat adds nothing to that epoch; the follower carries on.
        if let Some(op) = sends.pop_front() {
            match s.client.request(op).await {
                Ok(_) | Err(NetError::Server(_)) => {}
                Err(e) => return Err(e.into()),
            }
            continue;
        }
        match tokio::time::timeout(keepalive, s.client.next_event()).await {
            Ok(Ok(e)) => {
                sends.extend(contributor.observe(&e)?);
                deliver(&e, &s.seat)?;
                // A follower never returns its report, so what the seat must know about its
                // own contributions goes straight to stderr, beside the events.
                for w in contributor.take_warnings() {
                    eprintln!("warning: {w}");
                }
            }
            Ok(Err(e)) => return Err(e.into()),
            // Quiet for a while: a request keeps the connection open (events that come with
            // its answer are kept and printed next).
            Err(_) => s.client.barrier().await?,
        }
    }
}

//! The command line as typed: clap's derive types and nothing else (but the list of system
//! ids, for help texts). Values stay raw here
//! (`--system` is a string, `--dice` a comma list, `act`'s arguments `NAME=VALUE` words);
//! `calc` and `remote` turn them into rules and protocol types, so that a bad value gets the
//! same precise message as a bad request field.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use tablehold_systems::SystemId;

/// Help texts name no rule system: each example says `{SYSTEM}`, filled in here with the first
/// system the rules crate ships, so that no client file names a system (DESIGN.md, "The rules
/// interface") and the examples stay runnable.
fn with_system(text: &str) -> String {
    let id = SystemId::ALL.first().map_or("ID", |s| s.as_str());
    text.replace("{SYSTEM}", id)
}

/// `--system`'s help: the ids this build knows.
fn system_help() -> String {
    let ids: Vec<&str> = SystemId::ALL.iter().map(|s| s.as_str()).collect();
    format!("Rule system id: {}", ids.join(", "))
}

/// The server a new table or seat uses when `--server` is not given: `tablehold-server`'s own
/// default address.
pub const DEFAULT_SERVER: &str = "ws://127.0.0.1:7878";

/// The Tablehold terminal client.
#[derive(Debug, Parser)]
#[command(
    name = "tablehold",
    version,
    about = "The Tablehold terminal client and offline rules calculator",
    long_about = with_system("The Tablehold terminal client.\n\n\
        At a table: `table create` (GM) or `join` (players, spectators) saves a seat profile; \
        every later command connects as that seat, does one thing and prints what happened. \
        `--seat NAME` picks another saved seat.\n\n\
        Offline: the rules calculator (`tablehold rules ...`) resolves one action with dice faces \
        you choose, checks a character sheet, or lists a system's table options. It never \
        connects to a server and never touches a table's fair dice.\n\n\
        Exit codes: 0 success (warnings may go to stderr), 1 an error (the message starts with \
        `error:`, then the server's error code when the server refused; `verify` and `replay`: \
        a log that breaks a rule), 2 a command line clap could not parse, or a log file that \
        cannot be read, 3 (`verify`) a log made with the insecure test seed.\n\n\
        Checking a table's log: `log export --out FILE` saves it; `verify` and `replay` check \
        and step through a saved file, or a table's log fetched at once.\n\n\
        Any action of your seat's catalogue is a command too, its values in the order \
        `act --list` gives: `tablehold attack goblin-1 knife --end` attacks, then ends the turn.\n\n\
        Example, a GM and a player on one machine:\n  \
        tablehold table create --system {SYSTEM} --name friday --players 1\n  \
        tablehold join TABLE --invite CODE --name Ines\n  \
        tablehold sheet add aune.toml\n  \
        tablehold --seat gm encounter start\n  \
        tablehold watch\n  \
        tablehold attack goblin-1 knife --end\n  \
        tablehold state")
)]
pub struct Cli {
    #[command(flatten)]
    pub globals: GlobalArgs,
    /// Without one, the interactive TUI for the seat.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Options every command accepts, before or after the subcommand.
#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// Where seat profiles live [default: $XDG_CONFIG_HOME/tablehold or ~/.config/tablehold].
    #[arg(long, global = true, env = "TABLEHOLD_CONFIG_DIR", value_name = "DIR")]
    pub config_dir: Option<PathBuf>,
    /// The saved seat profile to act as [default: the last one created or joined].
    #[arg(long, global = true, env = "TABLEHOLD_SEAT", value_name = "NAME")]
    pub seat: Option<String>,
    /// PEM file of the certificate authority to trust for a wss:// server (this build bundles
    /// no root certificates). Saved in the profile by `table create` and `join`.
    #[arg(long, global = true, env = "TABLEHOLD_CA_CERT", value_name = "FILE")]
    pub ca_cert: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Offline rules calculator: resolve actions, check sheets, list table options.
    Rules(RulesArgs),
    /// Try a system alone: a local server, a table, its example characters, a short fight.
    #[command(long_about = with_system("Try a rule system alone. Starts tablehold-server \
        (the one beside tablehold) on a free port with a temporary data file, creates a table \
        of the system with a GM and one player seat (profiles in a temporary directory: your \
        own are untouched), seats the system's example characters with the player, sets up a \
        short encounter with its first example NPCs and starts it, then opens the TUI holding \
        both seats: F2 switches between the player and the GM. Quitting stops the server and \
        removes everything.\n\nExample:\n  tablehold demo --system {SYSTEM}"))]
    Demo(DemoArgs),
    /// Create a table (you become its GM).
    Table(TableArgs),
    /// Take a seat at a table with an invite code, and save it as a profile.
    #[command(
        long_about = "Take a seat at a table with an invite code from its GM, and save \
        the seat as a profile named after the seat id (or `--as NAME`). The profile holds the \
        seat's token, the only way back to the seat: keep it private (the file is written \
        with mode 0600). It becomes the default profile.\n\n\
        Example:\n  tablehold join 5f3a9c1e2b7d4a60 --invite 8c1f2e3d4a5b6c7d --name Ines"
    )]
    Join(JoinArgs),
    /// List the table's seats.
    #[command(
        long_about = "List the table's seats: id, display name, role, and whether the GM \
        revoked it.\n\nExample:\n  tablehold seats"
    )]
    Seats,
    /// GM: issue one more invite code.
    #[command(
        long_about = "GM: issue one more invite code for a player or a spectator seat. \
        Prints the role and the code.\n\nExample:\n  tablehold --seat gm invite --role player"
    )]
    Invite(InviteArgs),
    /// GM: revoke a seat; its token stops working.
    #[command(
        long_about = "GM: revoke a seat. Its token stops working and its connections \
        close. Prints the seats afterwards.\n\nExample:\n  tablehold --seat gm revoke olek"
    )]
    Revoke(RevokeArgs),
    /// GM: let a seat that withheld its dice entropy contribute again this session.
    #[command(
        long_about = "GM: readmit a seat to the dice. A seat logged as withholding its \
        entropy reveal chose between two dice keys (or the server says it did), so it adds no \
        entropy again this session unless you readmit it (docs/FAIRNESS.md). The readmission is \
        logged for every seat to see.\n\nExample:\n  tablehold --seat gm readmit olek"
    )]
    Readmit(RevokeArgs),
    /// Add or show character sheets.
    Sheet(TableSheetArgs),
    /// GM: add a non-player character from its sheet.
    Npc(NpcArgs),
    /// GM: start or end the encounter.
    Encounter(EncounterArgs),
    /// Take an action from your seat's catalogue (`act --list` shows it).
    #[command(
        long_about = "Take an action. Actions and their arguments come from the table's \
        rule system: `tablehold act --list` prints what your seat may do now, with each \
        argument's type and help. Arguments are NAME=VALUE words: an int is `3`, a flag \
        `true`/`false` (or the bare NAME for true), a cell `X,Y`, text and entities as written.\n\n\
        `--actor` is needed only when the action is open to several of your characters. An \
        action your seat may not take now (not your turn, a prompt is open) still goes to the \
        server, which says why not; its arguments are then typed by how they look.\n\n\
        Values may also come in the order `act --list` lists the arguments, and the action \
        may be typed without `act`: `tablehold attack goblin-1 knife`.\n\n\
        `--end` ends the turn after the action.\n\n\
        Examples:\n  tablehold act --list\n  \
        tablehold act attack target=goblin-1 weapon=knife\n  \
        tablehold attack goblin-1 knife --end\n  \
        tablehold act move to=3,-2\n  tablehold act end_turn"
    )]
    Act(ActArgs),
    /// Answer a prompt open to you (an initiative tie, a collateral choice, a number of points...).
    #[command(
        long_about = "Answer a prompt open to you with one of its options and the arguments \
        it takes. Without `--prompt`, the only prompt open to you is answered; with several \
        open, their ids are listed. The GM may answer any prompt, overriding the seats it \
        asks.\n\nExamples:\n  tablehold answer mara\n  tablehold answer points=2 --prompt 5"
    )]
    Answer(AnswerArgs),
    /// Roll dice in the open (or, for the GM, in secret).
    #[command(
        long_about = "Roll dice with the table's fair dice: everyone sees the result, or \
        with `--secret` (GM only) only the GM does. Prints the roll.\n\n\
        Examples:\n  tablehold roll 3d6+2\n  tablehold --seat gm roll 1d20 --secret"
    )]
    Roll(RollArgs),
    /// Show the table as your seat sees it.
    #[command(
        long_about = "Show the table as your seat sees it now: the round and whose turn, \
        each combatant with resources, statuses and position (an NPC's numbers only for the GM), \
        and the open prompt. `--json` prints the protocol's TableView, for scripts.\n\n\
        Examples:\n  tablehold state\n  tablehold state --json"
    )]
    State(StateArgs),
    /// Print the table's event log as your seat may see it, or export it (`log export`).
    #[command(
        args_conflicts_with_subcommands = true,
        long_about = "Print the table's events that your seat may see, from sequence \
        number `--after` on (gaps are events hidden from your seat). Without `--follow` it exits \
        after the events recorded so far; with it, it keeps printing new ones until the server \
        closes the connection. `--jsonl` prints one JSON object per event: \
        {\"seq\", \"at_ms\", \"parts\"}.\n\n\
        `tablehold log export --out FILE` saves the whole log as your seat may hold it, in the \
        file format `verify` and `replay` read.\n\n\
        Examples:\n  tablehold log\n  tablehold log --after 40 --follow --jsonl\n  \
        tablehold log export --out friday.json"
    )]
    Log(LogArgs),
    /// Follow the table as it happens: one line per event, your turns and prompts called out.
    #[command(
        long_about = "Follow the table as it happens, as your seat sees it: one plain line \
        per event, with no colour and no drawing, so that it reads well aloud (a screen reader \
        can follow it). When a turn starts for a character your seat plays, a line says \
        `YOUR TURN: CHARACTER`. When a prompt asks your seat, a line gives the exact command \
        that answers it, its choices and the time left before its default applies; a prompt \
        that asks someone else shows only who has to decide.\n\n\
        Like `log --follow`, it adds your seat's entropy to every dice epoch. Dice counters, \
        digests and the dice epochs' own events are shown only with `--verbose`, which also \
        prefixes each line with the event's number. It runs until you stop it (Ctrl-C) or the \
        server closes the connection.\n\n\
        Examples:\n  tablehold watch\n  tablehold --seat ines watch --verbose"
    )]
    Watch(WatchArgs),
    /// Check a table's log: its hash chain, its dice epochs, and every die against the seeds.
    #[command(long_about = VERIFY_HELP)]
    Verify(VerifyArgs),
    /// Rebuild the table as your seat saw it at any event of its log, checking its digests.
    #[command(long_about = REPLAY_HELP)]
    Replay(ReplayArgs),
    /// Any other word is an action of your seat's catalogue, its values in order or named:
    /// `tablehold attack goblin-1 knife` and `tablehold attack --target goblin-1 --weapon knife`
    /// are `tablehold act attack target=goblin-1 weapon=knife` (`--actor ID` picks the character).
    #[command(external_subcommand)]
    Short(Vec<String>),
}

const VERIFY_HELP: &str = "Check a table's log without trusting the server: that no event was \
    changed, dropped or reordered (the hash chain), that every dice epoch committed to its seed \
    and to the seats' entropy before any die was drawn, that every draw is accounted for with \
    no counter skipped or used twice, that every die recomputes from its epoch's revealed seed, \
    and that every total adds up. The digests the table recorded at each turn's end are checked \
    too (see `replay`). docs/FAIRNESS.md describes every rule.\n\n\
    TABLE|FILE is an export file (`log export`; both layouts are read) when such a path exists; \
    otherwise it is a table id, whose log is fetched as your seat may see it (the seat picked by \
    `--seat`, else the default one if it sits at that table, else the only saved seat that does). \
    A seat's log hides the parts it may not see, yet still verifies: hidden dice are accounted for \
    by their counters. Dice of an epoch whose seed is not revealed yet (the encounter or session is \
    still going on) are accounted for but cannot be recomputed; the report counts them.\n\n\
    Prints `OK: N events, E epochs, D dice checked, ...`, or `FAIL at seq S: REASON` at the first \
    event that breaks a rule.\n\n\
    Exit codes:\n  \
    0  the log verifies\n  \
    1  it does not (`FAIL at seq S: ...` on stdout), or the log could not be fetched\n  \
    2  the file cannot be read as a log export (unreadable, not an export, written by a newer \
    Tablehold, cut short), or the command line does not parse\n  \
    3  the log verifies, but was made with the insecure test seed: its dice were known in advance \
    to anyone who knew that seed (`--allow-test-seed` exits 0 instead)\n\n\
    Examples:\n  tablehold verify friday.json\n  tablehold verify 5f3a9c1e2b7d4a60";

const REPLAY_HELP: &str = "Rebuild the table's state from its log alone, as the viewer of the \
    log saw it, at event `--at SEQ` (default: the last one). Replay never rolls and never \
    decides: it applies the recorded events, checking the hash chain as it goes, and compares \
    every digest the table recorded at a turn's end (a seat checks its own and the public ones, \
    the GM every audience's) with the state it rebuilt. The first mismatch stops it: it prints \
    `FAIL at seq S: ...` naming the audience, and exits 1.\n\n\
    TABLE|FILE is read as for `verify`. Without `--json` it prints a short summary: the \
    encounter, and one line per combatant the viewer knew of. `--json` prints {table, viewer, \
    seq, events, digest, digests_checked, combatants, encounter}, the combatants and encounter \
    in the rules' own form.\n\n\
    Exit codes: 0 replayed, 1 a digest mismatch, a broken chain, an event that does not apply, or \
    a log that could not be fetched, 2 a file that cannot be read as a log export (as `verify`).\n\n\
    Examples:\n  tablehold replay friday.json --at 120\n  \
    tablehold replay 5f3a9c1e2b7d4a60 --json";

#[derive(Debug, Args)]
pub struct TableArgs {
    #[command(subcommand)]
    pub command: TableCommand,
}

#[derive(Debug, Subcommand)]
pub enum TableCommand {
    /// Create a table and save its GM seat as a profile.
    #[command(
        long_about = with_system("Create a table on a server. Prints the table id, the GM's token and \
        one invite code per player and spectator seat; hand the codes out for `tablehold join`. \
        The GM seat is saved as the profile `gm` (or `--as NAME`; an existing profile is never \
        overwritten: the first free `NAME-2`, `NAME-3`... is used) and becomes the default.\n\n\
        Table options are house rules fixed at creation: `tablehold rules options --system ID` \
        lists them.\n\n\
        Example:\n  tablehold table create --system {SYSTEM} --name friday --players 3 \\\n      \
        --option decision.timeout_ms=30000")
    )]
    Create(CreateArgs),
}

#[derive(Debug, Args)]
pub struct CreateArgs {
    // Rule system id (the help lists the shipped ones).
    #[arg(long, value_name = "ID", help = system_help())]
    pub system: String,
    /// The table's name.
    #[arg(long)]
    pub name: String,
    /// How many player invites to issue now.
    #[arg(long, default_value_t = 4, value_name = "N")]
    pub players: u32,
    /// How many spectator invites to issue now.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub spectators: u32,
    /// A table option, KEY=VALUE; repeat for several.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// The server's address, ws://HOST:PORT or wss://HOST:PORT.
    #[arg(long, default_value = DEFAULT_SERVER, value_name = "URL")]
    pub server: String,
    /// Save the GM seat under this profile name instead of `gm`.
    #[arg(long = "as", value_name = "NAME")]
    pub as_name: Option<String>,
    /// Print {table, gm_token, invites, profile} as JSON.
    #[arg(long)]
    pub json: bool,
    /// Then follow the table as `watch` does, in this terminal (stop with Ctrl-C).
    #[arg(long, conflicts_with = "json")]
    pub watch: bool,
}

#[derive(Debug, Args)]
pub struct JoinArgs {
    /// The table id `table create` printed.
    #[arg(value_name = "TABLE")]
    pub table: String,
    /// The invite code from the GM.
    #[arg(long, value_name = "CODE")]
    pub invite: String,
    /// Your display name at the table; your seat id is made from it.
    #[arg(long)]
    pub name: String,
    /// The server's address, ws://HOST:PORT or wss://HOST:PORT.
    #[arg(long, default_value = DEFAULT_SERVER, value_name = "URL")]
    pub server: String,
    /// Save the seat under this profile name instead of its seat id.
    #[arg(long = "as", value_name = "NAME")]
    pub as_name: Option<String>,
    /// Bring your character: add this TOML sheet as soon as the seat is yours (`sheet add`
    /// in the same command). May be given more than once.
    #[arg(long = "sheet", value_name = "FILE")]
    pub sheets: Vec<std::path::PathBuf>,
    /// Then follow the table as `watch` does, in this terminal (stop with Ctrl-C).
    #[arg(long)]
    pub watch: bool,
}

/// The kind of seat an invite gives (the GM seat comes only with the table).
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum InviteRole {
    Player,
    Spectator,
}

#[derive(Debug, Args)]
pub struct InviteArgs {
    #[arg(long, value_enum)]
    pub role: InviteRole,
}

#[derive(Debug, Args)]
pub struct RevokeArgs {
    /// The seat id, as `tablehold seats` lists it. (Named `target` here: clap would merge a
    /// field called `seat` with the global `--seat`, and connect as the seat to revoke.)
    #[arg(value_name = "SEAT")]
    pub target: String,
}

#[derive(Debug, Args)]
pub struct TableSheetArgs {
    #[command(subcommand)]
    pub command: TableSheetCommand,
}

#[derive(Debug, Subcommand)]
pub enum TableSheetCommand {
    /// Add a character from its TOML sheet: players their own, the GM anyone's.
    #[command(
        long_about = with_system("Add a character to the table from its TOML sheet (docs/SHEETS.md). \
        A player adds their own player characters, between encounters; the GM adds anyone, \
        any time. `tablehold rules sheet check` checks a sheet offline first.\n\n\
        Example:\n  tablehold sheet add docs/examples/{SYSTEM}/aune.toml")
    )]
    Add(SheetFileArgs),
    /// Show one combatant as your seat may see it.
    #[command(
        long_about = "Show one combatant as your seat may see it: the same line as in \
        `tablehold state`, then the sheet's fixed numbers when your seat may see them (an \
        NPC's belong to the GM).\n\nExample:\n  tablehold sheet show aune"
    )]
    Show(SheetShowArgs),
    /// GM: give a player character to a player's seat, or back to the GM.
    #[command(
        long_about = "GM: give a player character to a player's seat (`tablehold seats` lists \
        them), or with --gm take it back so the GM plays it. The log records the change for \
        everyone. A player adds characters only for her own seat.\n\n\
        Examples:\n  tablehold sheet assign aune ines\n  tablehold sheet assign aune --gm"
    )]
    Assign(SheetAssignArgs),
}

#[derive(Debug, Args)]
pub struct SheetAssignArgs {
    /// The character's id, e.g. `aune`.
    #[arg(value_name = "CHARACTER")]
    pub entity: String,
    /// The player's seat id that will play it. (Not named `seat`: that is the global
    /// `--seat`, which picks the profile this command runs as.)
    #[arg(
        value_name = "SEAT",
        required_unless_present = "gm",
        conflicts_with = "gm"
    )]
    pub to: Option<String>,
    /// Take the character back: the GM plays it.
    #[arg(long)]
    pub gm: bool,
}

#[derive(Debug, Args)]
pub struct SheetFileArgs {
    /// The TOML sheets, added in the order given.
    #[arg(value_name = "FILE", required = true, num_args = 1..)]
    pub files: Vec<PathBuf>,
}

#[derive(Debug, Args)]
pub struct SheetShowArgs {
    /// The combatant's id, e.g. `goblin-1`.
    #[arg(value_name = "ENTITY")]
    pub entity: String,
}

#[derive(Debug, Args)]
pub struct NpcArgs {
    #[command(subcommand)]
    pub command: NpcCommand,
}

#[derive(Debug, Subcommand)]
pub enum NpcCommand {
    /// GM: add an NPC from its TOML sheet (`kind = "npc"`).
    #[command(
        long_about = with_system("GM: add a non-player character from its TOML sheet, with \
        `kind = \"npc\"` and the GM's numbers (`[npc]` defence and attack TNs). Players never \
        receive those numbers. This is `sheet add` under the name GMs look for.\n\n\
        Example:\n  tablehold --seat gm npc add docs/examples/{SYSTEM}/goblin-1.toml")
    )]
    Add(SheetFileArgs),
}

#[derive(Debug, Args)]
pub struct EncounterArgs {
    #[command(subcommand)]
    pub command: EncounterCommand,
}

#[derive(Debug, Subcommand)]
pub enum EncounterCommand {
    /// GM: start the encounter: everyone rolls initiative and the first turn begins.
    #[command(
        long_about = "GM: start the encounter. NPC sheets named here join the table first \
        (`npc add` in the same command); then every combatant rolls initiative, the order is \
        set and the first turn begins (a tie may first open a prompt). Prints what \
        happened.\n\nExamples:\n  tablehold --seat gm encounter start\n  tablehold --seat gm \
        encounter start goblin-1.toml goblin-2.toml"
    )]
    Start {
        /// NPC sheets (TOML) to add before the encounter starts.
        #[arg(value_name = "NPC_SHEET")]
        npcs: Vec<std::path::PathBuf>,
    },
    /// GM: end the encounter.
    #[command(long_about = "GM: end the encounter. Prints what happened.\n\n\
        Example:\n  tablehold --seat gm encounter end")]
    End,
    /// GM: set up a prepared scene from an encounter file (map, terrain, NPCs, positions).
    #[command(
        long_about = "GM: set up a scene prepared in an encounter file (TOML; docs/CLIENT.md, \
        \"Encounter files\"): its NPCs join the table from their sheets (paths relative to the \
        file), its terrain cells are set and every token it places is moved there, each as the \
        GM's ruling. The whole file is checked first, and a mistake is named with its file, \
        line and field (`ambush.toml:16: npc[0].at: (15, 3) is off the 12x8 map`); nothing \
        is sent from a file with a mistake. `--check` only checks it, without a server. Then \
        `encounter start` rolls initiative.\n\n\
        Examples:\n  tablehold encounter load ambush.toml --check\n  \
        tablehold --seat gm encounter load ambush.toml"
    )]
    Load {
        /// The encounter file.
        #[arg(value_name = "FILE")]
        file: std::path::PathBuf,
        /// Only check the file; connect to nothing.
        #[arg(long)]
        check: bool,
    },
}

#[derive(Debug, Args)]
pub struct ActArgs {
    /// The action's name, from `act --list`.
    #[arg(value_name = "ACTION", required_unless_present = "list")]
    pub action: Option<String>,
    /// Who acts, when several of your characters could.
    #[arg(long, value_name = "ID")]
    pub actor: Option<String>,
    /// The action's arguments.
    #[arg(value_name = "ARG=VALUE")]
    pub args: Vec<String>,
    /// Print the actions your seat may take now, with their arguments and help.
    #[arg(long, conflicts_with_all = ["action", "actor", "args"])]
    pub list: bool,
    /// Then end the turn (`end_turn`), when the action went through.
    #[arg(long, conflicts_with = "list")]
    pub end: bool,
    /// GM: then, for each following turn of a character no player plays, the same action and
    /// the end of its turn, with that character's own values where the typed ones do not fit
    /// it (its own weapon). Stops at a player's turn, an open prompt or a refusal.
    #[arg(long, conflicts_with = "list")]
    pub npcs: bool,
}

#[derive(Debug, Args)]
pub struct AnswerArgs {
    /// One of the prompt's options, and the arguments it takes (`points=2`, or bare values in
    /// the order `act --list` shows them).
    #[arg(value_name = "CHOICE|ARG=VALUE", required = true)]
    pub words: Vec<String>,
    /// The prompt's id [default: the only prompt open to you].
    #[arg(long, value_name = "ID")]
    pub prompt: Option<u64>,
}

#[derive(Debug, Args)]
pub struct RollArgs {
    /// Dice notation, e.g. `1d20+3`, `3d10kh1`.
    #[arg(value_name = "DICE")]
    pub dice: String,
    /// GM only: only the GM sees the result.
    #[arg(long)]
    pub secret: bool,
}

#[derive(Debug, Args)]
pub struct StateArgs {
    /// Print the protocol's TableView as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct LogArgs {
    #[command(subcommand)]
    pub action: Option<LogCommand>,
    /// Start after this sequence number.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub after: u64,
    /// Keep printing new events as they happen.
    #[arg(long)]
    pub follow: bool,
    /// One JSON object per line: {"seq", "table", "at_ms", "link", "parts"}.
    #[arg(long)]
    pub jsonl: bool,
    /// With --follow, milliseconds of quiet after which a request keeps the connection open
    /// (the server closes connections that send nothing for a while; 90 s by default).
    #[arg(long, default_value_t = WATCH_KEEPALIVE_MS, value_name = "MS", hide = true)]
    pub keepalive_ms: u64,
    /// With --follow, FOR TESTS ONLY: the 32 bytes (64 hex digits) this seat adds to every
    /// dice epoch, instead of fresh random bytes from the OS each time.
    #[arg(long, value_name = "HEX")]
    pub entropy: Option<String>,
}

/// How long `watch` lets its connection stay quiet before a request keeps it open.
pub const WATCH_KEEPALIVE_MS: u64 = 20_000;

#[derive(Debug, Args)]
pub struct WatchArgs {
    /// Also show dice counters, digests and the dice epochs' events, and number each line.
    #[arg(long)]
    pub verbose: bool,
    /// Milliseconds of quiet after which a request keeps the connection open (as `log`).
    #[arg(long, default_value_t = 20_000, value_name = "MS", hide = true)]
    pub keepalive_ms: u64,
    /// FOR TESTS ONLY: the 32 bytes (64 hex digits) this seat adds to every dice epoch,
    /// instead of fresh random bytes from the OS each time.
    #[arg(long, value_name = "HEX")]
    pub entropy: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum LogCommand {
    /// Save the whole log as your seat may hold it, for `verify` and `replay`.
    #[command(
        long_about = "Save the table's whole log as your seat may hold it: every event, \
        each part either as logged or, when your seat may not see it, only its hash, so the file \
        can be checked with `tablehold verify` and stepped through with `tablehold replay` \
        anywhere, without the server. The log is fetched page by page; FILE is replaced. \
        TABLE, when given, must be the table of the seat used (`--seat`, else the default seat \
        if it sits there, else the only saved seat that does).\n\n\
        The file is one JSON document {\"header\", \"events\"}, or with `--jsonl` the header \
        on the first line and one event per line after it (docs/FAIRNESS.md).\n\n\
        Examples:\n  tablehold log export --out friday.json\n  \
        tablehold --seat gm log export 5f3a9c1e2b7d4a60 --out friday-gm.jsonl --jsonl"
    )]
    Export(LogExportArgs),
}

#[derive(Debug, Args)]
pub struct LogExportArgs {
    /// The table id [default: the seat's table].
    #[arg(value_name = "TABLE")]
    pub table: Option<String>,
    /// Where to write the export.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Write the header and then one event per line, instead of one JSON document.
    #[arg(long)]
    pub jsonl: bool,
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// An export file, or a table id to fetch the log of.
    #[arg(value_name = "TABLE|FILE")]
    pub source: String,
    /// Accept a log made with the insecure test seed (exit 0 instead of 3).
    #[arg(long)]
    pub allow_test_seed: bool,
    /// What you kept of this table's log earlier: an export (by any seat), or the lines
    /// `tablehold log --jsonl` printed. The log must hold every kept event with the same link,
    /// or it was rewritten since (exit 1, naming the first event that changed).
    #[arg(long, value_name = "OLD_FILE")]
    pub against: Option<std::path::PathBuf>,
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// An export file, or a table id to fetch the log of.
    #[arg(value_name = "TABLE|FILE")]
    pub source: String,
    /// Replay up to and including this event [default: the last one].
    #[arg(long, value_name = "SEQ")]
    pub at: Option<u64>,
    /// Print the state as JSON.
    #[arg(long)]
    pub json: bool,
    /// Print first what happened, event by event up to SEQ, as the log's viewer saw it.
    #[arg(long, conflicts_with = "json")]
    pub events: bool,
    /// With --events: the dice machinery too (draw counters, digests, epochs).
    #[arg(long, requires = "events")]
    pub verbose: bool,
}

#[derive(Debug, Args)]
pub struct DemoArgs {
    #[arg(long, help = system_help())]
    pub system: String,
}

#[derive(Debug, Args)]
pub struct RulesArgs {
    #[command(subcommand)]
    pub command: RulesCommand,
}

#[derive(Debug, Subcommand)]
pub enum RulesCommand {
    /// Resolve one action from a JSON request with the dice faces you give.
    #[command(
        long_about = with_system("Resolve one action from a JSON request with the dice faces you give.\n\n\
        The request (a file, or standard input when REQUEST is `-` or absent) holds the table \
        options, the combatants' sheets, their grid positions, the requesting seat, the action and \
        the answers to any prompts the action opens. docs/CALCULATOR.md documents its schema.\n\n\
        The rules draw primitive dice (d20, d6, ...) one at a time; `--dice` gives their faces in \
        draw order, shared by the action and its answers. Too few faces is an error that says \
        which die was needed; faces left over are listed as a warning.\n\n\
        Example:\n  \
        tablehold rules resolve --system {SYSTEM} --dice 12,3 docs/examples/requests/melee-attack.json")
    )]
    Resolve(ResolveArgs),
    /// Check character sheets written in TOML.
    Sheet(SheetArgs),
    /// List a system's table options (house rules): key, default, accepted values, help.
    #[command(
        long_about = with_system("List every table option of a system: its key, its default, the values it \
        accepts and what it decides. These are the keys a request's `options` object may set.\n\n\
        Example:\n  tablehold rules options --system {SYSTEM}")
    )]
    Options(OptionsArgs),
}

#[derive(Debug, Args)]
pub struct ResolveArgs {
    // Rule system id (the help lists the shipped ones).
    #[arg(long, value_name = "ID", help = system_help())]
    pub system: String,
    /// Faces of the primitive dice, in draw order, separated by commas: `12,3,5`.
    #[arg(long, value_name = "FACES")]
    pub dice: Option<String>,
    /// Print one JSON object (events, dice, checks, final state, open prompt) instead of text.
    #[arg(long)]
    pub json: bool,
    /// The JSON request file; `-` or absent reads standard input.
    #[arg(value_name = "REQUEST")]
    pub request: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct SheetArgs {
    #[command(subcommand)]
    pub command: SheetCommand,
}

#[derive(Debug, Subcommand)]
pub enum SheetCommand {
    /// Validate a TOML sheet: prints `ok: ID (NAME, KIND, level N)` or what is wrong.
    #[command(
        long_about = with_system("Validate a character sheet written in TOML against a system's rules \
        (attribute limits, level and XP, techniques, gear). Prints `ok: ID (NAME, KIND, level N)`, \
        or the field that breaks a rule and exits with 1.\n\n\
        Example:\n  tablehold rules sheet check --system {SYSTEM} docs/examples/{SYSTEM}/aune.toml")
    )]
    Check(SheetCheckArgs),
}

#[derive(Debug, Args)]
pub struct SheetCheckArgs {
    // Rule system id (the help lists the shipped ones).
    #[arg(long, value_name = "ID", help = system_help())]
    pub system: String,
    /// The TOML sheet.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

#[derive(Debug, Args)]
pub struct OptionsArgs {
    // Rule system id (the help lists the shipped ones).
    #[arg(long, value_name = "ID", help = system_help())]
    pub system: String,
    /// Print the options as a JSON array.
    #[arg(long)]
    pub json: bool,
}

//! The messages. Client to server: [`ClientMsg`]. Server to client: [`ServerMsg`]. Field names
//! are the wire names; enums are tagged by a named field (`type`, `op`, `reply`) so that a
//! client in another language can dispatch on a string.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use tablehold_log::{ExportedEvent, LogHeader};
use tablehold_rules::options::OptionValue;
use tablehold_rules::{ActionSpec, ArgSpec, Args, Part};

use crate::error::ErrorCode;

/// Client to server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMsg {
    /// The first frame of a connection.
    Hello { protocol: u32, client: String },
    /// Every later frame. The response echoes `id`.
    Request { id: u64, op: Op },
}

/// What a request asks for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Op {
    /// Create a table. Needs no seat; the reply carries the GM's token and the invites.
    CreateTable {
        system: String,
        name: String,
        #[serde(default)]
        options: BTreeMap<String, OptionValue>,
        /// How many player and spectator invites to issue now (more later with `invite`).
        players: u32,
        spectators: u32,
    },
    /// Claim a seat with an invite code. The connection is then that seat.
    Join {
        table: String,
        invite: String,
        name: String,
    },
    /// Become a seat again with its token (the GM's, or one a `join` returned).
    Auth { table: String, token: String },
    /// Receive every event after `after` that this seat may see, then each new one live.
    Subscribe { after: u64 },
    /// The table's seats, revoked ones included.
    Seats,
    /// GM: issue one more invite.
    Invite { role: Role },
    /// GM: revoke a seat; its token stops working and its connections close.
    RevokeSeat { seat: String },
    /// Add a character sheet (TOML). Players add their own characters; the GM adds NPCs.
    AddSheet { sheet: String },
    /// One combatant as this seat may see it.
    ShowSheet { entity: String },
    /// GM: give a player character to a player's seat (`None`: to nobody, so the GM plays it).
    /// Logged as an `owner_set` event.
    AssignCharacter {
        entity: String,
        #[serde(default)]
        seat: Option<String>,
    },
    /// Take an action from the seat's catalogue.
    Act {
        #[serde(default)]
        actor: Option<String>,
        action: String,
        #[serde(default)]
        args: Args,
    },
    /// Answer an open decision window: one of its options (none when it has no options) and
    /// the typed arguments it takes.
    Answer {
        prompt_id: u64,
        #[serde(default)]
        choice: String,
        #[serde(default, skip_serializing_if = "Args::is_empty")]
        args: Args,
    },
    /// Roll dice in the open: anyone; in secret: the GM only.
    Roll {
        dice: String,
        #[serde(default)]
        secret: bool,
    },
    /// The table as this seat may see it.
    State,
    /// What this seat may do now.
    Actions,
    /// Answered by `pong`. WebSocket pings keep a connection alive; this one goes through
    /// the server's request path.
    Ping,
    /// Commit to this seat's entropy for a dice epoch whose commitments are open: the hex
    /// SHA-256 described in FAIRNESS.md. The `tablehold` client does this by itself.
    CommitEntropy { epoch: u64, commitment: String },
    /// Reveal the 32 bytes (hex) behind this seat's commitment, once commitments are closed.
    /// A value that does not match the commitment is refused with `reveal_mismatch`.
    RevealEntropy { epoch: u64, entropy: String },
    /// The GM ends the session: the table's free-roll epoch ends and its seed is revealed.
    EndSession,
    /// The GM lets a seat that withheld its reveal contribute to dice epochs again this
    /// session (FAIRNESS.md, rule 11). Logged as `seat_readmitted`.
    ReadmitSeat { seat: String },
    /// A page of the log as this seat may see it, for an export: events after `after`.
    Export { after: u64 },
}

/// The kind of seat an invite gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Gm,
    Player,
    Spectator,
}

/// Server to client.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[allow(
    clippy::large_enum_variant,
    reason = "a message is built to be encoded at once, never stored in bulk; boxing `reply` \
              would change the type every sender matches on"
)]
pub enum ServerMsg {
    /// The answer to a hello.
    Welcome { protocol: u32, server: String },
    /// The answer to request `id`.
    Response { id: u64, reply: Reply },
    /// A request failed (`id` set) or the connection is being refused (`id` absent).
    Error {
        id: Option<u64>,
        code: ErrorCode,
        message: String,
    },
    /// An event of a subscribed table, as this seat may see it.
    Event(EventEnvelope),
}

/// The body of a successful response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reply", rename_all = "snake_case")]
pub enum Reply {
    /// The answer to `create_table`. `auth` with `gm_token` to act as the GM.
    TableCreated {
        table: String,
        gm_token: String,
        invites: Vec<Invite>,
    },
    /// The seat is claimed; keep `token` to come back with `auth`.
    Joined {
        table: String,
        seat: SeatInfo,
        token: String,
    },
    /// The answer to `auth`.
    Authed {
        table: String,
        seat: SeatInfo,
        /// The table's latest sequence number.
        head: u64,
    },
    /// Events after the requested sequence follow as `event` frames.
    Subscribed { head: u64 },
    /// The answer to `seats`.
    Seats { seats: Vec<SeatInfo> },
    /// The answer to `invite`.
    Invited { invite: Invite },
    /// The request was applied; its events are durable and carry these sequence numbers.
    Applied { first_seq: u64, last_seq: u64 },
    /// The answer to `show_sheet`.
    Sheet { sheet: CombatantView },
    /// The answer to `state`.
    State { state: Box<TableView> },
    /// The answer to `actions`: the catalogue clients build commands and help from.
    Actions { actions: Vec<ActionSpec> },
    /// The answer to `ping`.
    Pong,
    /// A page of an export. `header.event_count` is the log's length when the page was read;
    /// ask again with the last seq until `more` is false.
    ExportPage {
        header: LogHeader,
        events: Vec<ExportedEvent>,
        more: bool,
    },
}

/// A code that claims one seat of `role` with `join`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invite {
    pub code: String,
    pub role: Role,
}

/// A seat at a table. `id` is the name audiences and prompts use for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    pub id: String,
    pub name: String,
    pub role: Role,
    pub revoked: bool,
}

/// One event of a table's log as one seat receives it: only the parts it may see. A seat's
/// sequence numbers have gaps where events hid everything from it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventEnvelope {
    pub table: String,
    pub seq: u64,
    /// The event format's version ([`crate::EVENT_VERSION`] when written today).
    pub version: u32,
    /// Wall-clock milliseconds since the Unix epoch when the table task built the event, for
    /// display only: no rule reads it.
    pub at_ms: u64,
    /// The event's link in the log's hash chain (hex), the same for every seat: a client that
    /// keeps the links it received can later check any export of the log against them, and so
    /// catch a host that rewrote history and sealed the chain again.
    #[serde(default)]
    pub link: String,
    pub parts: Vec<Part>,
}

/// A table as one seat may see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableView {
    pub table: String,
    pub name: String,
    pub system: String,
    /// The sequence number of the last event this view includes.
    pub head: u64,
    pub encounter: bool,
    pub round: u32,
    pub current: Option<String>,
    /// Who may act now, as a set: the current combatant's turn, a group's members still to
    /// act, the spotlight's holder. `[]` from an older server.
    #[serde(default)]
    pub may_act: Vec<String>,
    /// Who may act, in words any client can show: `aune's turn`, `players: Ana, Bo still to
    /// act`. Empty from an older server.
    #[serde(default)]
    pub turn: String,
    pub order: Vec<String>,
    pub combatants: Vec<CombatantView>,
    /// The open prompt, if any, whoever it is for.
    pub prompt: Option<PromptView>,
    /// Every open decision window, oldest first (`prompt` is the newest of them). `[]` from a
    /// server older than windows.
    #[serde(default)]
    pub prompts: Vec<PromptView>,
    /// For the GM: the digest of the whole state (hex) under the projection new logs record
    /// (`tablehold_rules::digest::CURRENT`), to check a state rebuilt from the log.
    #[serde(default)]
    pub digest: Option<String>,
    /// The scene's terrain: the cells that are not open ground, in cell order.
    #[serde(default)]
    pub terrain: Vec<TerrainView>,
    /// How the table's system measures the grid: the unit lengths are said in and how many of
    /// them one cell is. `None` from a server older than this field.
    #[serde(default)]
    pub grid: Option<GridView>,
}

/// One cell that is not open ground.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TerrainView {
    pub x: i32,
    pub y: i32,
    #[serde(flatten)]
    pub terrain: tablehold_rules::grid::Terrain,
}

/// A system's grid, as clients need it to say lengths.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GridView {
    pub unit: String,
    pub cell_size: u32,
    /// The covers a cell may give under the system's rules.
    pub covers: Vec<String>,
    /// How a diagonal step counts at this table (its `grid.diagonal` option), so that a
    /// client measures a distance as the rules do. The documented default from an older
    /// server.
    #[serde(default = "default_diagonal")]
    pub diagonal: tablehold_rules::grid::Diagonal,
}

fn default_diagonal() -> tablehold_rules::grid::Diagonal {
    tablehold_rules::grid::Diagonal::Alternating
}

/// A combatant as one seat may see it. NPC numbers are the GM's: other seats get `None`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatantView {
    pub id: String,
    pub name: String,
    pub kind: String,
    pub side: String,
    pub owner: Option<String>,
    /// `[x, y]` in grid cells: a two-element array, unlike the rules' `{x, y}` cells.
    pub position: Option<(i32, i32)>,
    pub statuses: Vec<String>,
    pub resources: Option<BTreeMap<String, i64>>,
    /// The sheet's fixed numbers, as TOML, for those who may see them.
    pub sheet: Option<String>,
}

/// An open decision window as the seat holds it, without its rule data. A window someone
/// else decides reaches the seat with no question, options or arguments.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PromptView {
    pub prompt_id: u64,
    pub question: String,
    pub options: Vec<String>,
    pub default: String,
    pub seats: Vec<String>,
    /// Milliseconds since the Unix epoch after which the default applies.
    pub deadline_ms: u64,
    /// Who answers: `first` (any one of `seats`), `each` (every one of them) or `gm`.
    #[serde(default = "first")]
    pub answering: String,
    /// Whether actions wait until it closes.
    #[serde(default = "yes")]
    pub blocks: bool,
    /// The typed arguments an answer carries, as an action's.
    #[serde(default)]
    pub args: Vec<ArgSpec>,
    /// The seats that still owe an answer.
    #[serde(default)]
    pub waiting: Vec<String>,
}

fn first() -> String {
    "first".to_owned()
}

fn yes() -> bool {
    true
}

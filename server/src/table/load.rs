//! Creating a table's records, and rebuilding a table from its log.

use std::collections::BTreeMap;

use tablehold_protocol::{Invite, Role};
use tablehold_rules::dice::CounterStream;
use tablehold_rules::options::{OptionValue, TableOptions};
use tablehold_rules::{Event, Part, SystemId, apply};

use crate::auth;
use crate::clock::now_ms;
use crate::settings::Settings;
use crate::store::{EpochSecret, InviteRecord, LoadedTable, SeatRecord, TableRecord, Write};

use super::WireError;
use super::world::TableWorld;
use tablehold_protocol::ErrorCode;

/// What `create_table` asks for.
pub struct NewTable {
    pub system: String,
    pub name: String,
    pub options: BTreeMap<String, OptionValue>,
    pub players: u32,
    pub spectators: u32,
}

/// The GM's seat id. There is one GM per table.
pub const GM_SEAT: &str = "gm";

/// Validates a new table and builds its records. Nothing is stored here: the caller submits
/// the writes and replies only once they are durable.
pub fn create(
    req: NewTable,
    settings: &Settings,
) -> Result<(String, String, Vec<Invite>, Vec<Write>), WireError> {
    let system: SystemId = req
        .system
        .parse()
        .map_err(|e: tablehold_rules::UnknownSystem| {
            WireError::new(ErrorCode::BadRequest, e.to_string())
        })?;
    let options = TableOptions::resolve(&system.system().options(), &req.options)
        .map_err(|e| WireError::new(ErrorCode::BadRequest, e.to_string()))?;
    let name = req.name.trim();
    if name.is_empty() || name.chars().count() > 100 {
        return Err(WireError::new(
            ErrorCode::BadRequest,
            "a table needs a name of 1 to 100 characters",
        ));
    }
    let seats = u64::from(req.players) + u64::from(req.spectators) + 1;
    if seats > u64::try_from(settings.max_seats).unwrap_or(u64::MAX) {
        return Err(WireError::new(
            ErrorCode::TableFull,
            format!(
                "a table has at most {} seats, the GM's included",
                settings.max_seats
            ),
        ));
    }
    let id = auth::new_table_id();
    let gm_token = auth::new_token();
    let options_json = serde_json::to_string(&options.0)
        .map_err(|e| WireError::new(ErrorCode::Internal, e.to_string()))?;
    let mut writes = vec![
        Write::CreateTable(TableRecord {
            id: id.clone(),
            system: system.as_str().to_owned(),
            name: name.to_owned(),
            options_json,
            created_ms: now_ms(),
        }),
        Write::Seat(SeatRecord {
            table: id.clone(),
            seat: GM_SEAT.into(),
            name: "GM".into(),
            role: role_name(Role::Gm).into(),
            token_hash: auth::hash(&gm_token),
            revoked: false,
        }),
        Write::Epoch(new_epoch(&id, 1, settings)),
    ];
    let mut invites = Vec::new();
    for (role, count) in [
        (Role::Player, req.players),
        (Role::Spectator, req.spectators),
    ] {
        for _ in 0..count {
            let (invite, write) = new_invite(&id, role);
            invites.push(invite);
            writes.push(write);
        }
    }
    Ok((id, gm_token, invites, writes))
}

pub fn new_invite(table: &str, role: Role) -> (Invite, Write) {
    let code = auth::new_invite();
    let write = Write::Invite(InviteRecord {
        table: table.to_owned(),
        code_hash: auth::hash(&code),
        role: role_name(role).into(),
        used_by: None,
    });
    (Invite { code, role }, write)
}

/// A dice epoch's seed: from the OS, or the test seed when the server was started with one.
pub fn new_epoch(table: &str, epoch: u64, settings: &Settings) -> EpochSecret {
    let (seed, test_seed) = match settings.test_seed {
        Some(seed) => (seed, true),
        None => (auth::new_seed(), false),
    };
    EpochSecret {
        table: table.to_owned(),
        epoch,
        seed,
        test_seed,
    }
}

pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::Gm => "gm",
        Role::Player => "player",
        Role::Spectator => "spectator",
    }
}

pub fn role_of(name: &str) -> Option<Role> {
    match name {
        "gm" => Some(Role::Gm),
        "player" => Some(Role::Player),
        "spectator" => Some(Role::Spectator),
        _ => None,
    }
}

/// One event as the table keeps it in memory, decoded.
#[derive(Debug, Clone)]
pub struct LoggedEvent {
    pub seq: u64,
    pub at_ms: u64,
    pub parts: Vec<Part>,
}

/// A table rebuilt from its log: the world after every event, the events, and the dice stream
/// where the log left it.
pub struct Rebuilt {
    pub system: SystemId,
    pub world: TableWorld,
    pub events: Vec<LoggedEvent>,
    pub stream: CounterStream,
    pub epoch: u64,
}

/// Replays the log onto an empty world. Replay only applies stored events: it never decides
/// and never rolls (invariant 3).
pub fn rebuild(loaded: &LoadedTable) -> Result<Rebuilt, String> {
    let system: SystemId = loaded
        .table
        .system
        .parse()
        .map_err(|e: tablehold_rules::UnknownSystem| e.to_string())?;
    let given: BTreeMap<String, OptionValue> =
        serde_json::from_str(&loaded.table.options_json).map_err(|e| format!("options: {e}"))?;
    let options =
        TableOptions::resolve(&system.system().options(), &given).map_err(|e| e.to_string())?;
    let mut world = TableWorld::new(options);
    let mut events = Vec::with_capacity(loaded.events.len());
    for record in &loaded.events {
        let parts: Vec<Part> = rmp_serde::from_slice(&record.parts)
            .map_err(|e| format!("event {}: {e}", record.seq))?;
        let event = Event { parts };
        apply(&mut world, &event).map_err(|e| format!("event {}: {e}", record.seq))?;
        events.push(LoggedEvent {
            seq: record.seq,
            at_ms: record.at_ms,
            parts: event.parts,
        });
    }
    let secret = loaded.epochs.last().ok_or("the table has no dice epoch")?;
    let counter = loaded
        .events
        .iter()
        .rev()
        .find(|e| e.epoch == secret.epoch)
        .map(|e| e.counter_after)
        .unwrap_or(0);
    let stream = CounterStream::at(secret.seed, secret.epoch, counter);
    Ok(Rebuilt {
        system,
        world,
        events,
        stream,
        epoch: secret.epoch,
    })
}

/// Encodes an event's parts for the log.
pub fn encode_parts(parts: &[Part]) -> Vec<u8> {
    rmp_serde::to_vec_named(parts).unwrap_or_default()
}

pub fn seat_records(loaded: &LoadedTable) -> BTreeMap<String, SeatRecord> {
    loaded
        .seats
        .iter()
        .map(|s| (s.seat.clone(), s.clone()))
        .collect()
}

//! Creating a table's records, and rebuilding a table from its log.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use tablehold_log::{GENESIS, link_of_stored};
use tablehold_protocol::{Invite, Role};
use tablehold_rules::options::{OptionValue, TableOptions};
use tablehold_rules::{Event, RuleSystem, apply};
use tablehold_systems::Catalogue;

use crate::auth;
use crate::clock::now_ms;
use crate::settings::Settings;
use crate::store::{EpochSecret, InviteRecord, LoadedTable, SeatRecord, Store, TableRecord, Write};

use super::WireError;
use super::audiences::Audiences;
use super::epochs::Epochs;
pub use super::journal::LoggedEvent;
use super::journal::{Journal, TAIL_EVENTS};
use super::snapshot;
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
    let system = settings
        .systems
        .find(&req.system)
        .map_err(|e| WireError::new(ErrorCode::BadRequest, e.to_string()))?;
    let options = TableOptions::resolve(&system.options(), &req.options)
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
            system: system.id().to_owned(),
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

/// A table rebuilt from its log: the world after every event, the log's end, the dice epochs
/// and each audience's view where the log left them.
pub struct Rebuilt {
    pub system: &'static dyn RuleSystem,
    pub world: TableWorld,
    pub journal: Journal,
    pub epochs: Epochs,
    pub audiences: Audiences,
    /// The event the snapshot it started from is as of; 0 when it replayed the whole log.
    pub snapshot_seq: u64,
}

/// Why a table could not be rebuilt.
#[derive(Debug)]
pub enum RebuildError {
    /// The snapshot cannot be used: the whole log is replayed instead.
    Snapshot(String),
    /// The log itself is unreadable: the table cannot load.
    Log(String),
}

impl std::fmt::Display for RebuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RebuildError::Snapshot(why) => write!(f, "its snapshot cannot be used: {why}"),
            RebuildError::Log(why) => f.write_str(why),
        }
    }
}

/// Loads `table` from `store`: its records, and its state rebuilt from the latest snapshot and
/// the events after it, or from the whole log when there is no snapshot this build can use.
/// `None` for a table that was never created. The replay runs on tokio's blocking threads: it
/// is CPU work as long as the log, and must not hold up the tasks of other tables.
pub async fn load(
    store: &dyn Store,
    table: &str,
    systems: &Catalogue,
) -> Result<Option<(Rebuilt, LoadedTable)>, String> {
    let started = std::time::Instant::now();
    let Some(loaded) = store.load_table(table).await.map_err(|e| e.to_string())? else {
        return Ok(None);
    };
    let system = systems
        .find(&loaded.table.system)
        .map_err(|e| e.to_string())?;
    let (result, mut loaded) = rebuild_blocking(loaded, system).await?;
    let rebuilt = match result {
        Ok(rebuilt) => rebuilt,
        // With a snapshot, any failure may be the snapshot's (a state the events after it do
        // not apply to): the whole log decides.
        Err(e) if loaded.snapshot.is_some() => {
            let why = e.to_string();
            tracing::warn!(table, reason = %why, "the table's snapshot cannot be used; replaying its whole log");
            loaded.events = store
                .events_after(table, 0, usize::MAX)
                .await
                .map_err(|e| e.to_string())?;
            loaded.snapshot = None;
            let (result, back) = rebuild_blocking(loaded, system).await?;
            loaded = back;
            result.map_err(|e| e.to_string())?
        }
        Err(e) => return Err(e.to_string()),
    };
    tracing::debug!(
        table,
        head = rebuilt.journal.head(),
        from_snapshot = rebuilt.snapshot_seq,
        replayed = rebuilt.journal.head() - rebuilt.snapshot_seq,
        ms = started.elapsed().as_millis() as u64,
        "table rebuilt"
    );
    Ok(Some((rebuilt, loaded)))
}

async fn rebuild_blocking(
    loaded: LoadedTable,
    system: &'static dyn RuleSystem,
) -> Result<(Result<Rebuilt, RebuildError>, LoadedTable), String> {
    tokio::task::spawn_blocking(move || (rebuild(&loaded, system), loaded))
        .await
        .map_err(|e| format!("the replay stopped: {e}"))
}

/// Rebuilds the table from its snapshot, if it has one, and the events after it, checking
/// every link of the hash chain on the way (the snapshot's own event's link against the
/// snapshot's). Replay only applies stored events: it never decides and never rolls
/// (invariant 3).
pub fn rebuild(
    loaded: &LoadedTable,
    system: &'static dyn RuleSystem,
) -> Result<Rebuilt, RebuildError> {
    let given: BTreeMap<String, OptionValue> = serde_json::from_str(&loaded.table.options_json)
        .map_err(|e| RebuildError::Log(format!("options: {e}")))?;
    let options = TableOptions::resolve(&system.options(), &given)
        .map_err(|e| RebuildError::Log(e.to_string()))?;
    let (mut world, mut epochs, mut audiences, mut prev, records, snapshot_seq) =
        match &loaded.snapshot {
            Some(snap) => {
                let restored = snapshot::restore(snap, &options, &loaded.epochs)
                    .map_err(RebuildError::Snapshot)?;
                match loaded.events.first() {
                    Some(first) if first.seq == snap.seq && first.link == snap.link => {}
                    _ => {
                        return Err(RebuildError::Snapshot(format!(
                            "the log has no event {} with its link",
                            snap.seq
                        )));
                    }
                }
                (
                    restored.world,
                    restored.epochs,
                    restored.audiences,
                    snap.link,
                    &loaded.events[1..],
                    snap.seq,
                )
            }
            None => {
                let mut audiences = Audiences::new(options.clone());
                audiences.open_at_start(&player_seats(&seat_records(loaded)));
                (
                    TableWorld::new(options.clone()),
                    Epochs::new(&loaded.epochs),
                    audiences,
                    GENESIS,
                    loaded.events.as_slice(),
                    0,
                )
            }
        };
    let mut tail = VecDeque::with_capacity(TAIL_EVENTS.min(records.len()));
    for record in records {
        let at =
            |e: &dyn std::fmt::Display| RebuildError::Log(format!("event {}: {e}", record.seq));
        // See: issue #19. An event of a newer format would be misread: say so. Older ones are
        // read through the upgrade (`tablehold_rules::upgrade`).
        if record.version > tablehold_protocol::EVENT_VERSION || record.version == 0 {
            return Err(at(&format!(
                "its format version is {}, and this build reads version {}; a newer Tablehold \
                 wrote it, so upgrade to load this table",
                record.version,
                tablehold_protocol::EVENT_VERSION
            )));
        }
        let link = link_of_stored(
            &prev,
            record.seq,
            record.version,
            record.at_ms,
            &record.parts,
        )
        .map_err(|e| at(&e))?;
        if link != record.link {
            return Err(at(
                &"its hash-chain link does not match the events before it; the \
                 log was altered outside Tablehold",
            ));
        }
        prev = link;
        let mut logged = LoggedEvent::decode(record).map_err(|e| at(&e))?;
        let event = Event {
            parts: std::mem::take(&mut logged.parts),
        };
        apply(&mut world, &event).map_err(|e| at(&e))?;
        epochs.record(record.seq, &event.parts);
        audiences.apply(&event.parts);
        logged.parts = event.parts;
        // Only the tail stays: memory must not grow with the log (see `journal.rs`).
        if tail.len() == TAIL_EVENTS {
            tail.pop_front();
        }
        tail.push_back(logged);
    }
    let head = tail.back().map_or(snapshot_seq, |e| e.seq);
    Ok(Rebuilt {
        system,
        world,
        journal: Journal::new(&loaded.table.id, head, prev, tail.into()),
        epochs,
        audiences,
        snapshot_seq,
    })
}

/// The ids of the seats that get their own digest: players and spectators not revoked.
pub fn player_seats(seats: &BTreeMap<String, SeatRecord>) -> BTreeSet<String> {
    seats
        .values()
        .filter(|s| !s.revoked && s.role != role_name(Role::Gm))
        .map(|s| s.seat.clone())
        .collect()
}

pub fn seat_records(loaded: &LoadedTable) -> BTreeMap<String, SeatRecord> {
    loaded
        .seats
        .iter()
        .map(|s| (s.seat.clone(), s.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rebuild_grimwire(loaded: &LoadedTable) -> Result<Rebuilt, String> {
        rebuild(loaded, tablehold_systems::SystemId::Grimwire.system()).map_err(|e| e.to_string())
    }
    use crate::store::{EventRecord, TableRecord};

    fn table_with(events: Vec<EventRecord>) -> LoadedTable {
        LoadedTable {
            table: TableRecord {
                id: "t".into(),
                system: "grimwire".into(),
                name: "t".into(),
                options_json: "{}".into(),
                created_ms: 0,
            },
            seats: vec![],
            invites: vec![],
            snapshot: None,
            events,
            epochs: vec![],
        }
    }

    // See: issue #19 ("`rebuild` ignores the event's version").
    #[test]
    fn a_log_with_an_event_of_another_format_says_which_and_why() {
        let parts = br#"[{"audience":"everyone","fact":{"fact":"encounter_started"}}]"#.to_vec();
        let record = |seq, version| EventRecord {
            table: "t".into(),
            seq,
            version,
            at_ms: 0,
            parts: parts.clone(),
            link: [0; 32],
        };
        let newer = tablehold_protocol::EVENT_VERSION + 1;
        let err = rebuild_grimwire(&table_with(vec![record(1, newer)]))
            .err()
            .expect("refused");
        assert!(err.starts_with("event 1: its format version is"), "{err}");
        assert!(err.contains("upgrade"), "{err}");
        // The version is checked before anything else of the event: a current one gets as far
        // as its (here wrong) link.
        let err = rebuild_grimwire(&table_with(vec![record(
            1,
            tablehold_protocol::EVENT_VERSION,
        )]))
        .err()
        .expect("refused");
        assert!(err.contains("hash-chain link"), "{err}");
    }

    // See: issue #9. A table written before digests named their projection loads: its events
    // keep their format (the link hashes it) and read as the current shape.
    #[test]
    fn a_table_of_format_1_events_loads_through_the_upgrade() {
        let parts = br#"[{"audience":"everyone","fact":{"fact":"digest_recorded","audience":"public","digest":"ab"}}]"#.to_vec();
        let link = link_of_stored(&GENESIS, 1, 1, 0, &parts).expect("a JSON array");
        let rebuilt = rebuild_grimwire(&table_with(vec![EventRecord {
            table: "t".into(),
            seq: 1,
            version: 1,
            at_ms: 0,
            parts,
            link,
        }]))
        .expect("loads");
        let event = rebuilt.journal.get(1).expect("the event is held");
        assert_eq!(event.version, 1);
        assert!(
            matches!(
                &event.parts[0].fact,
                tablehold_rules::Fact::DigestRecorded { projection: 1, digest, .. } if digest == "ab"
            ),
            "{:?}",
            event.parts
        );
    }
}

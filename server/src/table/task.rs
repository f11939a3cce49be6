//! The table task: the single owner of a table's state. It takes one message at a time,
//! decides commands through the rules, makes the resulting events durable, and only then
//! applies them, answers, and sends each subscriber its view (invariant 2).

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use dashmap::DashMap;
use tablehold_log::verify::View;
use tablehold_log::{GENESIS, Link, LogHeader, TableInfo, seal};
use tablehold_protocol::{
    EVENT_VERSION, ErrorCode, EventEnvelope, Op, Reply, Role, ServerMsg, encode,
};
use tablehold_rules::dice::{CounterStream, DiceExpr, DiceSource, roll};
use tablehold_rules::digest::digest_v1;
use tablehold_rules::redact::hide_gm_numbers;
use tablehold_rules::{
    Audience, Command, DecideError, Event, Fact, Kind, MemoryState, Part, Seat, StateView,
    SystemId, actions, apply, decide,
};
use tokio::sync::{Notify, mpsc, oneshot};
use tokio::time::Instant;

use crate::auth;
use crate::clock::now_ms;
use crate::settings::Settings;
use crate::store::{
    EventRecord, InviteRecord, LoadedTable, SeatRecord, SqliteStore, StoreError, Write,
};

use super::audiences::Audiences;
use super::epochs::{self, Epochs};
use super::export;
use super::load::{self, GM_SEAT, LoggedEvent, player_seats, rebuild};
use super::seats::{info, new_seat_id, rules_seat};
use super::view::{Header, combatant_view, table_view};
use super::world::TableWorld;
use super::{Answer, Outbound, SeatKey, TableHandle, TableMsg, WireError};

/// The depth of a table's mailbox: enough for every seat to have a few requests in flight.
const MAILBOX: usize = 256;

/// The largest event (its encoded parts) a table logs: a sixth of the protocol's frame limit,
/// so an event frame, with its envelope, always fits.
const MAX_EVENT_BYTES: usize = tablehold_protocol::MAX_FRAME_BYTES / 6;

/// Combatants a table holds at most, so a state reply stays within a server frame.
const MAX_COMBATANTS: usize = 100;

/// Connections subscribed to one table at most: fan-out costs the table per subscriber.
const MAX_SUBSCRIBERS: usize = 64;

/// Dice in one `roll` at most (and terms in its expression).
const MAX_ROLL_DICE: u64 = 100;
const MAX_ROLL_TERMS: usize = 20;

struct Subscriber {
    seat: SeatKey,
    outbox: mpsc::Sender<Outbound>,
    kick: Arc<Notify>,
}

/// The open prompt and when its default applies.
struct Deadline {
    prompt_id: u64,
    at: Instant,
    at_ms: u64,
}

/// The contribution window of an epoch collecting entropy: the seats it waits for (those
/// connected when it opened; `None` after a reload, when it waits for its end) and when it
/// stops waiting.
struct Window {
    expected: Option<BTreeSet<String>>,
    until: Instant,
}

/// A command that needs dice from an epoch that is not sealed yet: it waits, in order, with
/// every command that arrives after it.
struct Held {
    seat: SeatKey,
    op: Op,
    reply: Answer<Reply>,
}

/// What deciding a command came to.
enum Prepared {
    /// The events; the dice they drew are in their `DiceDrawn` facts, which move the epoch's
    /// counter when they are logged.
    Ready(Vec<Event>),
    /// The command needs dice from an epoch that is not sealed: open one of this purpose if
    /// none is open, then wait.
    NeedsEpoch(&'static str),
}

/// A batch on its way to the disk.
struct Inflight {
    receipt: oneshot::Receiver<Result<(), StoreError>>,
    first: u64,
    last: u64,
    reply: Option<Answer<Reply>>,
}

struct Table {
    id: String,
    name: String,
    system: SystemId,
    world: TableWorld,
    events: Vec<LoggedEvent>,
    /// The resolved table options as stored, for export headers.
    options_json: serde_json::Value,
    epochs: Epochs,
    audiences: Audiences,
    window: Option<Window>,
    held: VecDeque<Held>,
    seats: BTreeMap<String, SeatRecord>,
    invites: Vec<InviteRecord>,
    subscribers: BTreeMap<u64, Subscriber>,
    deadline: Option<Deadline>,
    /// Batches applied and submitted but not yet durable, oldest first. Their replies and
    /// fan-out wait here; the next command may already be decided on the state they made.
    inflight: VecDeque<Inflight>,
    /// Set when the task could not rebuild itself after a failed append: it stops at once.
    broken: bool,
    /// Failed joins per address in the last minute.
    failed_joins: BTreeMap<std::net::IpAddr, VecDeque<Instant>>,
    store: Arc<SqliteStore>,
    settings: Arc<Settings>,
}

/// Starts the task of a table loaded from the store and registers its handle.
pub fn spawn(
    loaded: LoadedTable,
    store: Arc<SqliteStore>,
    settings: Arc<Settings>,
    tables: Arc<DashMap<String, TableHandle>>,
) -> Result<TableHandle, String> {
    let rebuilt = rebuild(&loaded)?;
    let (tx, rx) = mpsc::channel(MAILBOX);
    let mut table = Table {
        id: loaded.table.id.clone(),
        name: loaded.table.name.clone(),
        system: rebuilt.system,
        world: rebuilt.world,
        events: rebuilt.events,
        options_json: serde_json::from_str(&loaded.table.options_json)
            .unwrap_or(serde_json::Value::Null),
        epochs: rebuilt.epochs,
        audiences: rebuilt.audiences,
        window: None,
        held: VecDeque::new(),
        seats: load::seat_records(&loaded),
        invites: loaded.invites,
        subscribers: BTreeMap::new(),
        deadline: None,
        inflight: VecDeque::new(),
        broken: false,
        failed_joins: BTreeMap::new(),
        store,
        settings,
    };
    table.track_prompt();
    table.restart_window();
    let (stopped_tx, stopped) = tokio::sync::watch::channel(false);
    let handle = TableHandle { tx, stopped };
    let mine = handle.tx.clone();
    tokio::spawn(async move {
        table.run(rx, &tables, &mine).await;
        let _ = stopped_tx.send(true);
    });
    Ok(handle)
}

fn err(code: ErrorCode, message: impl Into<String>) -> WireError {
    WireError::new(code, message)
}

impl Table {
    async fn run(
        &mut self,
        mut rx: mpsc::Receiver<TableMsg>,
        tables: &DashMap<String, TableHandle>,
        mine: &mpsc::Sender<TableMsg>,
    ) {
        tracing::debug!(table = %self.id, events = self.events.len(), "table loaded");
        loop {
            if self.broken {
                tables.remove_if(&self.id, |_, h| h.tx.same_channel(mine));
                for (_, sub) in std::mem::take(&mut self.subscribers) {
                    let _ = sub
                        .outbox
                        .try_send(Outbound::Close("the table had to stop; reconnect".into()));
                    sub.kick.notify_one();
                }
                break;
            }
            let deadline = self.deadline.as_ref().map(|d| d.at);
            let window = self.window.as_ref().map(|w| w.until);
            let idle = self.subscribers.is_empty()
                && self.inflight.is_empty()
                && self.held.is_empty()
                && self.window.is_none();
            let writing = !self.inflight.is_empty();
            tokio::select! {
                // Durability first: it releases replies and fan-out in log order.
                biased;
                res = front_receipt(&mut self.inflight), if writing => self.release(res),
                msg = rx.recv() => match msg {
                    Some(msg) => self.handle(msg).await,
                    None => break,
                },
                () = sleep_until(deadline) => self.time_out().await,
                () = sleep_until(window) => self.advance_epochs(true).await,
                () = tokio::time::sleep(self.settings.table_idle), if idle => {
                    // Refuse new messages, serve those already queued, then step aside: a
                    // sender refused here waits for `stopped` before loading a new task.
                    rx.close();
                    while let Some(msg) = rx.recv().await {
                        self.handle(msg).await;
                    }
                    // A command that arrived meanwhile may be waiting for a dice epoch. The
                    // mailbox is closed, so no seat can commit or reveal any more: close its
                    // windows now (each call closes commitments or seals) and run it.
                    while self.window.is_some() {
                        self.advance_epochs(true).await;
                    }
                    self.settle().await;
                    // Anyone who subscribed while it was draining is told to come back.
                    for (_, sub) in std::mem::take(&mut self.subscribers) {
                        let _ = sub.outbox.try_send(Outbound::Close("the table is reloading; reconnect".into()));
                        sub.kick.notify_one();
                    }
                    tables.remove_if(&self.id, |_, h| h.tx.same_channel(mine));
                    tracing::debug!(table = %self.id, "table unloaded after idling");
                    break;
                }
            }
        }
    }

    async fn handle(&mut self, msg: TableMsg) {
        // Everything but a command waits until what was decided before is durable: no reply
        // may show an event that could still be lost.
        let pipelined = matches!(&msg, TableMsg::Request { op, .. } if is_command(op));
        if !pipelined {
            self.settle().await;
        }
        match msg {
            TableMsg::Join {
                invite,
                name,
                peer,
                reply,
            } => {
                let _ = reply.send(self.join(&invite, &name, peer).await);
            }
            TableMsg::Auth { token, reply } => {
                let head = self.head();
                let _ = reply.send(self.auth(&token).map(|seat| (seat, head)));
            }
            TableMsg::Subscribe {
                seat,
                conn,
                id,
                after,
                outbox,
                kick,
                reply,
            } => {
                let _ = reply.send(self.subscribe(seat, conn, id, after, outbox, kick));
            }
            TableMsg::Unsubscribe { conn } => {
                self.subscribers.remove(&conn);
            }
            TableMsg::Backlog {
                seat,
                after,
                limit,
                reply,
            } => {
                let _ = reply.send(self.backlog(&seat, after, limit));
            }
            TableMsg::Request { seat, op, reply } => match self.current_seat(&seat) {
                Err(e) => {
                    let _ = reply.send(Err(e));
                }
                Ok(seat) if is_command(&op) => {
                    if self.held.is_empty() {
                        self.run_command(Held { seat, op, reply }).await;
                    } else {
                        // Commands keep their order: nothing overtakes one waiting for dice.
                        self.held.push_back(Held { seat, op, reply });
                    }
                }
                Ok(seat) if is_epoch_or_session(&op) => {
                    let result = self.entropy(&seat, op);
                    match result {
                        Ok(events) => {
                            self.commit(events, Vec::new(), Some(reply));
                            self.advance_epochs(false).await;
                        }
                        Err(e) => {
                            let _ = reply.send(Err(e));
                        }
                    }
                }
                Ok(seat) => {
                    let _ = reply.send(self.request(&seat, op).await);
                }
            },
        }
    }

    fn head(&self) -> u64 {
        self.events.last().map(|e| e.seq).unwrap_or(0)
    }

    /// The seat as the table knows it now: a revoked seat's connections lose their rights at once.
    fn current_seat(&self, seat: &SeatKey) -> Result<SeatKey, WireError> {
        match self.seats.get(&seat.info.id) {
            Some(r) if !r.revoked => Ok(SeatKey {
                table: self.id.clone(),
                info: info(r),
            }),
            _ => Err(err(
                ErrorCode::Unauthorized,
                "this seat was revoked by the GM",
            )),
        }
    }

    /// Seats that count against the table's limit: revoked ones free their place.
    fn live_seats(&self) -> usize {
        self.seats.values().filter(|s| !s.revoked).count()
    }

    fn join_rate_limited(&mut self, peer: std::net::IpAddr) -> bool {
        let window = Duration::from_secs(60);
        let now = Instant::now();
        // Forget addresses whose failures are all older than the window, so the map stays small.
        self.failed_joins.retain(|_, times| {
            while times
                .front()
                .is_some_and(|t| now.duration_since(*t) > window)
            {
                times.pop_front();
            }
            !times.is_empty()
        });
        self.failed_joins.get(&peer).map(VecDeque::len).unwrap_or(0)
            >= self.settings.failed_joins_per_minute
    }

    async fn join(
        &mut self,
        code: &str,
        name: &str,
        peer: std::net::IpAddr,
    ) -> Result<(SeatKey, String), WireError> {
        if self.join_rate_limited(peer) {
            return Err(err(
                ErrorCode::RateLimited,
                "too many failed joins at this table; wait a minute",
            ));
        }
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 40 {
            return Err(err(
                ErrorCode::BadRequest,
                "a display name has 1 to 40 characters",
            ));
        }
        let Some(at) = self
            .invites
            .iter()
            .position(|i| i.used_by.is_none() && auth::matches(code, &i.code_hash))
        else {
            self.failed_joins
                .entry(peer)
                .or_default()
                .push_back(Instant::now());
            return Err(err(
                ErrorCode::BadCredentials,
                "no unused invite with that code at this table",
            ));
        };
        if self.live_seats() >= self.settings.max_seats {
            return Err(err(ErrorCode::TableFull, "the table has no free seat"));
        }
        let seat_id = new_seat_id(name, &self.seats);
        let token = auth::new_token();
        let seat = SeatRecord {
            table: self.id.clone(),
            seat: seat_id.clone(),
            name: name.to_owned(),
            role: self.invites[at].role.clone(),
            token_hash: auth::hash(&token),
            revoked: false,
        };
        let mut invite = self.invites[at].clone();
        invite.used_by = Some(seat_id.clone());
        self.durable(vec![
            Write::Seat(seat.clone()),
            Write::Invite(invite.clone()),
        ])
        .await?;
        self.invites[at] = invite;
        self.seats.insert(seat_id, seat.clone());
        Ok((
            SeatKey {
                table: self.id.clone(),
                info: info(&seat),
            },
            token,
        ))
    }

    /// Tokens carry 128 bits, so guessing them is hopeless and a valid token is never refused
    /// for the table's failed joins: an attacker guessing invites cannot lock the GM out.
    fn auth(&mut self, token: &str) -> Result<SeatKey, WireError> {
        // Every seat is compared, each in constant time, so timing says nothing of which.
        let found = self
            .seats
            .values()
            .fold(None, |found, s| {
                if auth::matches(token, &s.token_hash) {
                    Some(s)
                } else {
                    found
                }
            })
            .cloned();
        match found {
            Some(s) if !s.revoked => Ok(SeatKey {
                table: self.id.clone(),
                info: info(&s),
            }),
            Some(_) => Err(err(
                ErrorCode::Unauthorized,
                "this seat was revoked by the GM",
            )),
            None => Err(err(
                ErrorCode::BadCredentials,
                "no seat at this table has that token",
            )),
        }
    }

    fn subscribe(
        &mut self,
        seat: SeatKey,
        conn: u64,
        id: u64,
        after: u64,
        outbox: mpsc::Sender<Outbound>,
        kick: Arc<Notify>,
    ) -> Result<(), WireError> {
        let seat = self.current_seat(&seat)?;
        let rules_seat = rules_seat(&seat.info);
        let mut frames = vec![encode(&ServerMsg::Response {
            id,
            reply: Reply::Subscribed { head: self.head() },
        })];
        for e in self.events.iter().filter(|e| e.seq > after) {
            if let Some(frame) = self.frame_for(e, &rules_seat) {
                frames.push(frame);
            }
        }
        if !self.subscribers.contains_key(&conn) && self.subscribers.len() >= MAX_SUBSCRIBERS {
            return Err(err(
                ErrorCode::TableFull,
                format!("a table streams to at most {MAX_SUBSCRIBERS} connections"),
            ));
        }
        // The backlog must fit what the outbox has free now, all of it or none: a response
        // followed by an error for one request would leave the client unsure what it has.
        if frames.len() > outbox.capacity() {
            return Err(err(
                ErrorCode::TooLarge,
                format!(
                    "{} events are waiting; subscribe from a later sequence (at most {} at once)",
                    frames.len() - 1,
                    outbox.capacity().saturating_sub(1)
                ),
            ));
        }
        for frame in frames {
            if outbox.try_send(Outbound::Frame(frame)).is_err() {
                return Err(err(
                    ErrorCode::TooLarge,
                    "the connection cannot take the backlog",
                ));
            }
        }
        self.subscribers
            .insert(conn, Subscriber { seat, outbox, kick });
        Ok(())
    }

    fn backlog(
        &self,
        seat: &SeatKey,
        after: u64,
        limit: usize,
    ) -> Result<(Vec<Vec<u8>>, u64, u64), WireError> {
        let seat = self.current_seat(seat)?;
        let rules_seat = rules_seat(&seat.info);
        let start = self.events.partition_point(|e| e.seq <= after);
        let page = &self.events[start..(start + limit).min(self.events.len())];
        let frames = page
            .iter()
            .filter_map(|e| self.frame_for(e, &rules_seat))
            .collect();
        let covered = page.last().map(|e| e.seq).unwrap_or(after);
        Ok((frames, covered, self.head()))
    }

    fn frame_for(&self, e: &LoggedEvent, seat: &Seat) -> Option<Vec<u8>> {
        let event = Event {
            parts: e.parts.clone(),
        };
        let view = event.view(seat)?;
        Some(encode(&ServerMsg::Event(EventEnvelope {
            table: self.id.clone(),
            seq: e.seq,
            version: EVENT_VERSION,
            at_ms: e.at_ms,
            link: tablehold_rules::dice::fair::to_hex(&e.link),
            parts: view.parts,
        })))
    }

    async fn request(&mut self, seat: &SeatKey, op: Op) -> Result<Reply, WireError> {
        let rules_seat = rules_seat(&seat.info);
        let gm = seat.info.role == Role::Gm;
        let gm_only = |what: &str| err(ErrorCode::Forbidden, format!("{what} is the GM's"));
        match op {
            Op::Ping => Ok(Reply::Pong),
            Op::Seats => Ok(Reply::Seats {
                seats: self.seats.values().map(info).collect(),
            }),
            Op::State => {
                let header = Header {
                    table: &self.id,
                    name: &self.name,
                    system: self.system.as_str(),
                    head: self.head(),
                    prompt_deadline_ms: self.deadline.as_ref().map(|d| d.at_ms).unwrap_or(0),
                    digest: gm.then(|| digest_v1(&self.world)),
                };
                let state = match seen_state(&mut self.audiences, &self.events, &rules_seat) {
                    Some(seen) => table_view(header, seen),
                    None => table_view(header, &self.world),
                };
                Ok(Reply::State { state })
            }
            Op::Actions => Ok(Reply::Actions {
                actions: actions(self.system.system(), &self.world, &rules_seat),
            }),
            Op::ShowSheet { entity } => {
                let id = entity.as_str().into();
                let c = match seen_state(&mut self.audiences, &self.events, &rules_seat) {
                    Some(seen) => seen.combatant(&id),
                    None => self.world.combatant(&id),
                }
                .ok_or_else(|| {
                    err(
                        ErrorCode::Refused,
                        format!("no one called `{entity}` is at the table"),
                    )
                })?;
                Ok(Reply::Sheet {
                    sheet: combatant_view(c),
                })
            }
            Op::Invite { role } => {
                if !gm {
                    return Err(gm_only("inviting"));
                }
                if role == Role::Gm {
                    return Err(err(ErrorCode::BadRequest, "a table has one GM"));
                }
                let open = self.invites.iter().filter(|i| i.used_by.is_none()).count();
                if self.live_seats() + open >= self.settings.max_seats {
                    return Err(err(ErrorCode::TableFull, "no room for another seat"));
                }
                let (invite, write) = load::new_invite(&self.id, role);
                self.durable(vec![write.clone()]).await?;
                if let Write::Invite(record) = write {
                    self.invites.push(record);
                }
                Ok(Reply::Invited { invite })
            }
            Op::RevokeSeat { seat: target } => {
                if !gm {
                    return Err(gm_only("revoking a seat"));
                }
                if target == GM_SEAT {
                    return Err(err(
                        ErrorCode::BadRequest,
                        "the GM's seat cannot be revoked",
                    ));
                }
                let mut record = self.seats.get(&target).cloned().ok_or_else(|| {
                    err(
                        ErrorCode::BadRequest,
                        format!("no seat `{target}` at this table"),
                    )
                })?;
                record.revoked = true;
                self.durable(vec![Write::Seat(record.clone())]).await?;
                self.seats.insert(target.clone(), record);
                let gone: Vec<u64> = self
                    .subscribers
                    .iter()
                    .filter(|(_, s)| s.seat.info.id == target)
                    .map(|(c, _)| *c)
                    .collect();
                for conn in gone {
                    if let Some(s) = self.subscribers.remove(&conn) {
                        let _ = s
                            .outbox
                            .try_send(Outbound::Close("your seat was revoked by the GM".into()));
                        s.kick.notify_one();
                    }
                }
                Ok(Reply::Seats {
                    seats: self.seats.values().map(info).collect(),
                })
            }
            Op::Export { after } => {
                let (events, more) = export::page(&self.events, after, &rules_seat);
                Ok(Reply::ExportPage {
                    header: LogHeader {
                        format: tablehold_log::file::FORMAT.to_owned(),
                        version: tablehold_log::file::FORMAT_VERSION,
                        table: TableInfo {
                            id: self.id.clone(),
                            name: self.name.clone(),
                            system: self.system.as_str().to_owned(),
                            options: self.options_json.clone(),
                        },
                        viewer: View::of(&rules_seat).to_string(),
                        exported_at_ms: now_ms(),
                        event_count: self.head(),
                    },
                    events,
                    more,
                })
            }
            Op::AddSheet { .. }
            | Op::AssignCharacter { .. }
            | Op::Act { .. }
            | Op::Answer { .. }
            | Op::Roll { .. }
            | Op::CommitEntropy { .. }
            | Op::RevealEntropy { .. }
            | Op::EndSession => Err(err(ErrorCode::Internal, "a command reached the wrong path")),
            Op::CreateTable { .. } | Op::Join { .. } | Op::Auth { .. } | Op::Subscribe { .. } => {
                Err(err(
                    ErrorCode::BadRequest,
                    "this request is not for a table's seat",
                ))
            }
        }
    }

    fn add_sheet(&self, seat: &SeatKey, text: &str) -> Result<Vec<Event>, WireError> {
        let mut c = self
            .system
            .system()
            .sheet_from_toml(text)
            .map_err(|e| err(ErrorCode::BadRequest, format!("sheet: {e}")))?;
        match seat.info.role {
            Role::Gm => {}
            Role::Player => {
                if c.kind != Kind::Pc {
                    return Err(err(
                        ErrorCode::Forbidden,
                        "players add player characters; NPCs are the GM's",
                    ));
                }
                if self.world.encounter().active {
                    return Err(err(
                        ErrorCode::Forbidden,
                        "characters join or change between encounters; during one, the GM does it",
                    ));
                }
                // See: issue #24. A player's sheet is for her own seat: naming another seat
                // would hand her that seat's character.
                if let Some(owner) = c.owner.as_ref().filter(|o| o.0 != seat.info.id) {
                    return Err(err(
                        ErrorCode::Forbidden,
                        format!(
                            "this sheet is for seat `{owner}`; a player adds characters for her own seat, and the GM gives characters to other seats"
                        ),
                    ));
                }
                c.owner = Some(tablehold_rules::SeatId(seat.info.id.clone()));
            }
            Role::Spectator => {
                return Err(err(ErrorCode::Forbidden, "spectators add no characters"));
            }
        }
        if let Some(owner) = &c.owner {
            if c.kind != Kind::Pc {
                return Err(err(
                    ErrorCode::Forbidden,
                    "NPCs and objects stay with the GM: their numbers are the GM's, and an owner would play them blind",
                ));
            }
            self.player_seat(&owner.0)?;
        }
        if self.world.combatant(&c.id).is_none()
            && self.world.combatant_ids().len() >= MAX_COMBATANTS
        {
            return Err(err(
                ErrorCode::TableFull,
                format!("a table holds at most {MAX_COMBATANTS} combatants"),
            ));
        }
        // A sheet with an id already at the table replaces it: an edit. Players may edit
        // only their own characters (and, as above, only between encounters); the GM any.
        if let Some(old) = self.world.combatant(&c.id)
            && seat.info.role != Role::Gm
            && old.owner.as_ref().map(|o| o.0.as_str()) != Some(seat.info.id.as_str())
        {
            return Err(err(
                ErrorCode::Forbidden,
                format!("`{}` is at the table and is not your character", c.id),
            ));
        }
        // An edit keeps where the character stands, what ails them, and who plays them; a
        // player's edit also keeps the current Condition, Focus and the rest (no healing by
        // paperwork); the GM's edit sets them as the sheet says. A GM's edit that names
        // another owner is a reassignment, logged as such after the new sheet.
        let old = self.world.combatant(&c.id).cloned();
        let mut reassigned = None;
        if let Some(old) = &old {
            c.position = old.position;
            c.statuses.extend(old.statuses.clone());
            if let Some(to) = c.owner.take().filter(|to| old.owner.as_ref() != Some(to)) {
                reassigned = Some(Fact::OwnerSet {
                    entity: c.id.clone(),
                    from: old.owner.clone(),
                    to: Some(to),
                });
            }
            c.owner = old.owner.clone();
            if seat.info.role != Role::Gm {
                c.resources = old.resources.clone();
            }
        }
        // Everyone learns that someone arrived, or that a sheet was replaced; an NPC's numbers
        // stay with the GM.
        let mut added = Event::public(Fact::CombatantAdded {
            combatant: Box::new(c),
            replaces: old.is_some(),
        });
        if let Some(fact) = reassigned {
            added = added.with(Audience::Everyone, fact);
        }
        let event = hide_gm_numbers(added, &self.world);
        Ok(vec![event])
    }

    /// A live player seat at this table, to own a character.
    fn player_seat(&self, id: &str) -> Result<(), WireError> {
        match self.seats.get(id) {
            Some(s) if !s.revoked && s.role == load::role_name(Role::Player) => Ok(()),
            _ => Err(err(
                ErrorCode::BadRequest,
                format!("no player seat `{id}` at this table; `tablehold seats` lists them"),
            )),
        }
    }

    /// The GM gives a player character to a player's seat, or takes it back (`to` empty).
    /// NPCs stay the GM's: their numbers are the GM's, and an owner would see them.
    fn assign(
        &self,
        seat: &SeatKey,
        entity: &str,
        to: Option<&str>,
    ) -> Result<Vec<Event>, WireError> {
        if seat.info.role != Role::Gm {
            return Err(err(
                ErrorCode::Forbidden,
                "giving a character to a seat is the GM's",
            ));
        }
        let c = self.world.combatant(&entity.into()).ok_or_else(|| {
            err(
                ErrorCode::Refused,
                format!("no one called `{entity}` is at the table"),
            )
        })?;
        if c.kind != Kind::Pc {
            return Err(err(
                ErrorCode::Forbidden,
                format!("`{entity}` is not a player character; NPCs stay with the GM"),
            ));
        }
        if let Some(id) = to {
            self.player_seat(id)?;
        }
        let to = to.map(|id| tablehold_rules::SeatId(id.to_owned()));
        if c.owner == to {
            return Ok(Vec::new());
        }
        let event = Event::public(Fact::OwnerSet {
            entity: c.id.clone(),
            from: c.owner.clone(),
            to,
        });
        Ok(vec![hide_gm_numbers(event, &self.world)])
    }

    /// Decides a command on a copy of the dice stream: a refused command draws nothing that
    /// counts, so no die escapes the log (invariant 5).
    fn decide(
        &self,
        cmd: &Command,
        mut stream: CounterStream,
    ) -> Result<(Vec<Event>, CounterStream), WireError> {
        let events = match decide(self.system.system(), &self.world, cmd, &mut stream) {
            Ok(events) => events,
            Err(DecideError::Refused(r)) => {
                return Err(err(ErrorCode::for_refusal(r.code()), r.to_string()));
            }
            Err(other) => {
                tracing::error!(table = %self.id, error = %other, "decide failed");
                return Err(err(ErrorCode::Internal, other.to_string()));
            }
        };
        Ok((events, stream))
    }

    /// The events of a command (`act`, `answer`, `roll`, `add_sheet`), decided on the state
    /// as it is now, in-flight batches included, with the current epoch's dice.
    ///
    /// Without a sealed epoch it decides on a stream of no epoch at all, only to learn whether
    /// the command draws dice (or starts an encounter, which gets an epoch of its own): those
    /// events are thrown away unseen and the command waits for its epoch. Dice are drawn for
    /// real only from a sealed epoch.
    fn prepare(&self, seat: &SeatKey, op: &Op) -> Result<Prepared, WireError> {
        let sealed = self.epochs.stream();
        let start = sealed.as_ref().map(CounterStream::counter);
        let probe = sealed
            .clone()
            .unwrap_or_else(|| CounterStream::new([0; 32], 0));
        let (events, after) = self.prepare_with(seat, op.clone(), probe)?;
        let drew = after.counter() > start.unwrap_or(0) || events.iter().any(draws_dice);
        let starts = events
            .iter()
            .any(|e| e.facts().any(|f| matches!(f, Fact::EncounterStarted)));
        if starts && self.epochs.open(epochs::ENCOUNTER).is_none() {
            return Ok(Prepared::NeedsEpoch(epochs::ENCOUNTER));
        }
        if !drew {
            return Ok(Prepared::Ready(events));
        }
        let Some(start) = start else {
            let purpose = if self.world.encounter().active {
                epochs::ENCOUNTER
            } else {
                epochs::TABLE
            };
            return Ok(Prepared::NeedsEpoch(purpose));
        };
        self.check_draws(&events, start, after.counter())?;
        Ok(Prepared::Ready(events))
    }

    /// Every counter the stream moved past, from `start` to `end`, must be in some event's
    /// record of its draws, in order: otherwise a die was drawn that the log would not
    /// account for, and nothing of it may be logged.
    fn check_draws(&self, events: &[Event], start: u64, end: u64) -> Result<(), WireError> {
        let unrecorded = || {
            tracing::error!(table = %self.id, "a command drew dice its events do not record");
            err(
                ErrorCode::Internal,
                "dice were drawn that the events do not record; nothing was logged",
            )
        };
        let mut next = start;
        for f in events.iter().flat_map(Event::facts) {
            if let Fact::DiceDrawn { spans, .. } = f {
                for [a, b] in spans {
                    if *a != next {
                        return Err(unrecorded());
                    }
                    next = *b;
                }
            }
        }
        if next == end {
            Ok(())
        } else {
            Err(unrecorded())
        }
    }

    fn prepare_with(
        &self,
        seat: &SeatKey,
        op: Op,
        stream: CounterStream,
    ) -> Result<(Vec<Event>, CounterStream), WireError> {
        let rules_seat = rules_seat(&seat.info);
        match op {
            Op::AddSheet { sheet } => Ok((self.add_sheet(seat, &sheet)?, stream)),
            Op::AssignCharacter { entity, seat: to } => {
                Ok((self.assign(seat, &entity, to.as_deref())?, stream))
            }
            Op::Act {
                actor,
                action,
                args,
            } => self.decide(
                &Command::act(rules_seat, actor.as_deref(), &action, args),
                stream,
            ),
            Op::Answer { prompt_id, choice } => {
                self.decide(&Command::answer(rules_seat, prompt_id, &choice), stream)
            }
            Op::Roll { dice, secret } => {
                if secret && seat.info.role != Role::Gm {
                    return Err(err(ErrorCode::Forbidden, "a secret roll is the GM's"));
                }
                let expr = DiceExpr::parse(&dice)
                    .map_err(|e| err(ErrorCode::BadRequest, e.to_string()))?;
                let count: u64 = expr
                    .terms
                    .iter()
                    .map(|t| match &t.kind {
                        tablehold_rules::dice::TermKind::Dice(d) => u64::from(d.count),
                        tablehold_rules::dice::TermKind::Flat(_) => 0,
                    })
                    .sum();
                if count > MAX_ROLL_DICE || expr.terms.len() > MAX_ROLL_TERMS {
                    return Err(err(
                        ErrorCode::BadRequest,
                        format!(
                            "a roll has at most {MAX_ROLL_DICE} dice in {MAX_ROLL_TERMS} terms"
                        ),
                    ));
                }
                let mut stream = stream;
                let r = roll(&expr, &mut stream)
                    .map_err(|e| err(ErrorCode::Internal, e.to_string()))?;
                let drawn = stream.take_draws();
                let fact = Fact::Rolled {
                    by: None,
                    purpose: format!("roll by {}", seat.info.name),
                    roll: r,
                };
                let audience = if secret {
                    Audience::GmOnly
                } else {
                    Audience::Everyone
                };
                let mut parts = vec![Part { audience, fact }];
                parts.extend(drawn.map(Part::dice_drawn));
                Ok((vec![Event { parts }], stream))
            }
            _ => Err(err(ErrorCode::Internal, "not a command")),
        }
    }

    /// Runs one command: decides it and logs its events, or, when it needs dice from an epoch
    /// that is not sealed, opens that epoch if need be and holds the command (in front of any
    /// other waiting) until the epoch's contributions are in.
    async fn run_command(&mut self, held: Held) {
        // A command that waited for its epoch may belong to a seat revoked meanwhile.
        let held = match self.current_seat(&held.seat) {
            Ok(seat) => Held { seat, ..held },
            Err(e) => {
                let _ = held.reply.send(Err(e));
                return;
            }
        };
        let mut prepared = self.prepare(&held.seat, &held.op);
        // A refusal tells something of the state (whose turn, an open prompt): it may only
        // speak of durable events, so decide again once they are.
        if prepared.is_err() && !self.inflight.is_empty() {
            self.settle().await;
            prepared = self.prepare(&held.seat, &held.op);
        }
        match prepared {
            Ok(Prepared::Ready(events)) => self.commit(events, Vec::new(), Some(held.reply)),
            Ok(Prepared::NeedsEpoch(purpose)) => {
                self.held.push_front(held);
                if self.epochs.collecting().is_none() {
                    self.open_epoch(purpose).await;
                }
            }
            Err(e) => {
                let _ = held.reply.send(Err(e));
            }
        }
    }

    /// Opens a new epoch of `purpose`: its seed goes to the server-only table with the event
    /// that commits to it. The seats connected now are the ones its window waits for.
    async fn open_epoch(&mut self, purpose: &'static str) {
        let secret = load::new_epoch(&self.id, self.epochs.next_id(), &self.settings);
        self.epochs.add_seed(&secret);
        let opening = Epochs::opening(&secret, purpose);
        let expected: BTreeSet<String> = self
            .subscribers
            .values()
            .map(|s| s.seat.info.id.clone())
            .collect();
        self.window = Some(Window {
            expected: Some(expected),
            until: Instant::now() + self.settings.entropy_window,
        });
        self.commit(vec![opening], vec![Write::Epoch(secret)], None);
        self.advance_epochs(false).await;
    }

    /// Moves the collecting epoch on (closing commitments, sealing) when every awaited seat
    /// has done its part or the window is over, then runs the commands that waited for it.
    async fn advance_epochs(&mut self, window_over: bool) {
        let expected = self.window.as_ref().and_then(|w| w.expected.clone());
        let events = self.epochs.advance(expected.as_ref(), window_over);
        if !events.is_empty() {
            let reveals_open = events.last().is_some_and(|e| {
                e.facts()
                    .any(|f| matches!(f, Fact::CommitmentsClosed { .. }))
            });
            self.commit(events, Vec::new(), None);
            if reveals_open && let Some(w) = &mut self.window {
                w.until = Instant::now() + self.settings.entropy_window;
            }
        }
        if self.epochs.collecting().is_none() {
            self.window = None;
            self.drain_held().await;
        } else if window_over && self.window.is_none() {
            self.restart_window();
        }
    }

    /// After a load, an epoch still collecting gets a fresh window and waits for nobody in
    /// particular: those who were awaited may not come back.
    fn restart_window(&mut self) {
        if self.epochs.collecting().is_some() {
            self.window = Some(Window {
                expected: None,
                until: Instant::now() + self.settings.entropy_window,
            });
        }
    }

    /// Runs the waiting commands in order until one has to wait again.
    async fn drain_held(&mut self) {
        while self.epochs.collecting().is_none() {
            let Some(next) = self.held.pop_front() else {
                return;
            };
            let before = self.held.len();
            Box::pin(self.run_command(next)).await;
            if self.held.len() > before {
                return;
            }
        }
    }

    /// A seat's entropy commitment or reveal, or the GM ending the session: each is one
    /// public event, checked here and refused (nothing logged) when it does not fit.
    fn entropy(&mut self, seat: &SeatKey, op: Op) -> Result<Vec<Event>, WireError> {
        let id = seat.info.id.as_str();
        match op {
            Op::CommitEntropy { epoch, commitment } => {
                Ok(vec![self.epochs.commit(epoch, id, &commitment)?])
            }
            Op::RevealEntropy { epoch, entropy } => {
                Ok(vec![self.epochs.reveal(epoch, id, &entropy)?])
            }
            Op::EndSession => {
                if seat.info.role != Role::Gm {
                    return Err(err(ErrorCode::Forbidden, "ending the session is the GM's"));
                }
                if self.world.encounter().active {
                    return Err(err(
                        ErrorCode::Refused,
                        "an encounter is running; end it before the session",
                    ));
                }
                if !self.held.is_empty() || self.epochs.collecting().is_some() {
                    return Err(err(
                        ErrorCode::WrongPhase,
                        "a dice epoch is still collecting entropy; try again in a moment",
                    ));
                }
                Ok(self
                    .epochs
                    .open(epochs::TABLE)
                    .and_then(|e| self.epochs.revealing(e.id))
                    .into_iter()
                    .collect())
            }
            _ => Err(err(ErrorCode::Internal, "not an entropy request")),
        }
    }

    fn last_link(&self) -> Link {
        self.events.last().map_or(GENESIS, |e| e.link)
    }

    /// Submits `events` (and `writes` with them) to the log, applies them at once (so the next
    /// command is decided on them: pipelining), and follows them with what they imply: the
    /// seed of an encounter's epoch when the encounter ends, and the digests of every audience
    /// when a turn ends. The reply and every subscriber's copy wait in `inflight` until the
    /// store says they are durable.
    fn commit(&mut self, events: Vec<Event>, mut writes: Vec<Write>, reply: Option<Answer<Reply>>) {
        let head = self.head();
        if events.is_empty() {
            // Nothing happened: an empty range after the head, so no client mistakes the
            // last event for this request's.
            if let Some(reply) = reply {
                let _ = reply.send(Ok(Reply::Applied {
                    first_seq: head + 1,
                    last_seq: head,
                }));
            }
            return;
        }
        // One event must fit a frame with room to spare: a command that would log a larger one
        // (an absurd roll) is refused before anything is written.
        if events
            .iter()
            .any(|e| tablehold_log::encode_parts(&e.parts).len() > MAX_EVENT_BYTES)
        {
            if let Some(reply) = reply {
                let message = format!(
                    "that would log an event over {} KiB; ask for less",
                    MAX_EVENT_BYTES / 1024
                );
                let _ = reply.send(Err(err(ErrorCode::TooLarge, message)));
            }
            return;
        }
        // A seat that joined since the last batch gets its view built from the log so far,
        // before this batch's events are applied to every view.
        let events_so_far = &self.events;
        self.audiences.track(&player_seats(&self.seats), || {
            events_so_far.iter().map(|e| e.parts.as_slice()).collect()
        });
        let at_ms = now_ms();
        let mut queue: VecDeque<Event> = events.into();
        let mut turn_ended = false;
        while let Some(event) = queue.pop_front() {
            let seq = self.head() + 1;
            let (stored, link) = seal(
                &self.last_link(),
                seq,
                EVENT_VERSION,
                at_ms,
                &event.parts,
                &mut auth::new_salt,
            );
            // `decide` applied these to a scratch over this very state, so this cannot fail
            // short of a bug; then the log is the truth and the table starts again from it.
            if let Err(e) = apply(&mut self.world, &event) {
                tracing::error!(table = %self.id, seq, error = %e, "an event does not apply");
            }
            let encounter_epoch = self.epochs.open(epochs::ENCOUNTER).map(|e| e.id);
            for fact in event.facts() {
                self.epochs.observe(fact);
                match fact {
                    Fact::EncounterEnded => {
                        turn_ended = true;
                        if let Some(reveal) =
                            encounter_epoch.and_then(|id| self.epochs.revealing(id))
                        {
                            queue.push_front(reveal);
                        }
                    }
                    Fact::TurnStarted { .. } => turn_ended = true,
                    _ => {}
                }
            }
            self.audiences.apply(&event.parts);
            if queue.is_empty() && turn_ended {
                turn_ended = false;
                let seats = player_seats(&self.seats);
                queue.push_back(self.audiences.digest_event(&self.world, &seats));
            }
            writes.push(Write::Event(EventRecord {
                table: self.id.clone(),
                seq,
                version: EVENT_VERSION,
                at_ms,
                parts: stored.clone(),
                link,
            }));
            self.events.push(LoggedEvent {
                seq,
                version: EVENT_VERSION,
                at_ms,
                parts: event.parts,
                stored: stored.into(),
                link,
            });
        }
        let receipt = self.store.submit(writes);
        self.track_prompt();
        self.inflight.push_back(Inflight {
            receipt,
            first: head + 1,
            last: self.head(),
            reply,
        });
    }

    /// Waits until every in-flight batch is durable (or failed), releasing each in turn.
    async fn settle(&mut self) {
        while !self.inflight.is_empty() {
            let res = front_receipt(&mut self.inflight).await;
            self.release(res);
        }
    }

    /// The oldest in-flight batch is durable (or failed): answer it and send its events out;
    /// on failure, fail it and everything after it and rebuild from the log.
    fn release(&mut self, res: Result<Result<(), StoreError>, oneshot::error::RecvError>) {
        let Some(batch) = self.inflight.pop_front() else {
            return;
        };
        match res {
            Ok(Ok(())) => {
                for seq in batch.first..=batch.last {
                    let logged = usize::try_from(seq - 1)
                        .ok()
                        .and_then(|i| self.events.get(i))
                        .cloned();
                    if let Some(logged) = logged {
                        self.fan_out(&logged);
                    }
                }
                if let Some(reply) = batch.reply {
                    let _ = reply.send(Ok(Reply::Applied {
                        first_seq: batch.first,
                        last_seq: batch.last,
                    }));
                }
            }
            failed => {
                let why = match failed {
                    Ok(Err(e)) => e.to_string(),
                    _ => "the store has stopped".to_owned(),
                };
                tracing::error!(table = %self.id, error = %why, "append failed; rebuilding from the log");
                let message = format!("the log could not be written: {why}");
                let later = std::mem::take(&mut self.inflight);
                for b in std::iter::once(batch).chain(later) {
                    if let Some(reply) = b.reply {
                        let _ = reply.send(Err(err(ErrorCode::Internal, message.clone())));
                    }
                }
                // The log is the truth: whatever this task believed, start again from it.
                self.reload();
            }
        }
    }

    async fn durable(&self, writes: Vec<Write>) -> Result<(), WireError> {
        let receipt = self.store.submit(writes);
        match receipt.await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => {
                tracing::error!(table = %self.id, error = %e, "append failed");
                Err(err(
                    ErrorCode::Internal,
                    format!("the log could not be written: {e}"),
                ))
            }
            Err(_) => Err(err(ErrorCode::Internal, "the store has stopped")),
        }
    }

    fn reload(&mut self) {
        match self
            .store
            .load_table(&self.id)
            .map_err(|e| e.to_string())
            .and_then(|l| {
                let l = l.ok_or_else(|| "the table is gone from the store".to_owned())?;
                Ok((rebuild(&l)?, l))
            }) {
            Ok((r, loaded)) => {
                self.world = r.world;
                self.events = r.events;
                self.epochs = r.epochs;
                self.audiences = r.audiences;
                self.seats = load::seat_records(&loaded);
                self.invites = loaded.invites;
                self.track_prompt();
                self.restart_window();
            }
            Err(e) => {
                // What this task holds may include lost events: it must serve nothing more.
                // The next request loads the table afresh, or reports why it cannot.
                tracing::error!(table = %self.id, error = %e, "could not rebuild the table from its log; stopping it");
                self.broken = true;
            }
        }
    }

    /// Sends an event to every subscriber that may see some of it. A subscriber whose outbox is
    /// full is dropped and its connection told to close: one slow reader must not hold up the
    /// table.
    fn fan_out(&mut self, e: &LoggedEvent) {
        let mut slow = Vec::new();
        for (conn, sub) in &self.subscribers {
            let Some(frame) = self.frame_for(e, &rules_seat(&sub.seat.info)) else {
                continue;
            };
            if sub.outbox.try_send(Outbound::Frame(frame)).is_err() {
                slow.push(*conn);
            }
        }
        for conn in slow {
            if let Some(sub) = self.subscribers.remove(&conn) {
                tracing::info!(table = %self.id, conn, "dropping a subscriber that stopped reading");
                sub.kick.notify_one();
            }
        }
    }

    /// Keeps the open prompt's deadline in step with the state.
    fn track_prompt(&mut self) {
        let top = self
            .world
            .encounter()
            .pending
            .last()
            .map(|p| (p.prompt_id, p.timeout_ms));
        match (top, &self.deadline) {
            (None, _) => self.deadline = None,
            (Some((id, _)), Some(d)) if d.prompt_id == id => {}
            (Some((id, timeout_ms)), _) => {
                self.deadline = Some(Deadline {
                    prompt_id: id,
                    at: Instant::now() + Duration::from_millis(timeout_ms),
                    at_ms: now_ms().saturating_add(timeout_ms),
                });
            }
        }
    }

    async fn time_out(&mut self) {
        let Some(d) = self.deadline.take() else {
            return;
        };
        let Some(stream) = self.epochs.stream() else {
            // Prompts are open only in encounters, whose epoch is sealed before they start;
            // should that ever not hold, the prompt waits for the GM.
            tracing::warn!(table = %self.id, prompt = d.prompt_id, "no sealed dice epoch; timeout not applied");
            return;
        };
        let start = stream.counter();
        let decided = self
            .decide(&Command::time_out(d.prompt_id), stream)
            .and_then(|(events, after)| {
                self.check_draws(&events, start, after.counter())?;
                Ok(events)
            });
        match decided {
            Ok(events) => self.commit(events, Vec::new(), None),
            Err(e) => {
                tracing::warn!(table = %self.id, prompt = d.prompt_id, error = %e.message, "timeout not applied");
                self.track_prompt();
            }
        }
    }
}

/// The state `seat` has seen, when it is not the GM's (the table's own state, the World).
/// Replies about the table are rendered from it, so they show a seat exactly what its events
/// showed it (invariant 6: one `view`, for events, refusals and state).
fn seen_state<'a>(
    audiences: &'a mut Audiences,
    events: &[LoggedEvent],
    seat: &Seat,
) -> Option<&'a MemoryState> {
    match seat {
        Seat::Gm => None,
        Seat::Player(id) | Seat::Spectator(id) => {
            Some(audiences.seen_by(id, || events.iter().map(|e| e.parts.as_slice()).collect()))
        }
    }
}

/// Whether a request is about dice epochs or the session: logged, but not pipelined.
fn is_epoch_or_session(op: &Op) -> bool {
    matches!(
        op,
        Op::CommitEntropy { .. } | Op::RevealEntropy { .. } | Op::EndSession
    )
}

/// Whether an event records draws.
fn draws_dice(e: &Event) -> bool {
    e.facts().any(|f| matches!(f, Fact::DiceDrawn { .. }))
}

/// Whether a request is a command: decided and logged, and so pipelined.
fn is_command(op: &Op) -> bool {
    matches!(
        op,
        Op::AddSheet { .. }
            | Op::AssignCharacter { .. }
            | Op::Act { .. }
            | Op::Answer { .. }
            | Op::Roll { .. }
    )
}

/// The receipt of the oldest in-flight batch.
async fn front_receipt(
    inflight: &mut VecDeque<Inflight>,
) -> Result<Result<(), StoreError>, oneshot::error::RecvError> {
    match inflight.front_mut() {
        Some(batch) => (&mut batch.receipt).await,
        None => std::future::pending().await,
    }
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

//! Requests that log no event: seating (join, auth, invites, revocations, whose records the
//! store makes durable first), subscriptions and backlogs, and the reads (state, actions, a
//! sheet, seats, an export page), each rendered from what the asking seat may see.

use tablehold_log::verify::View;
use tablehold_log::{LogHeader, TableInfo};
use tablehold_protocol::{ErrorCode, Op, Reply, Role};
use tablehold_rules::digest;
use tablehold_rules::{MemoryState, Seat, StateView, actions};
use tokio::time::Instant;

use crate::clock::now_ms;
use crate::store::Write;

use super::audiences::Audiences;
use super::export;
use super::history::PAGE_EVENTS;
use super::seats::rules_seat;
use super::stream::{Sink, backlog, frame_for};
use super::task::Table;
use super::view::{Header, combatant_view, table_view};
use super::{SeatKey, WireError};

/// The state `seat` has seen, when it is not the GM's (the table's own state, the World).
/// Replies about the table are rendered from it, so they show a seat exactly what its events
/// showed it (invariant 6: one `view`, for events, refusals and state).
fn seen_state<'a>(
    audiences: &'a Audiences,
    seat: &Seat,
) -> Result<Option<&'a MemoryState>, WireError> {
    match seat {
        Seat::Gm => Ok(None),
        Seat::Player(id) | Seat::Spectator(id) => match audiences.seen_by(id) {
            Some(seen) => Ok(Some(seen)),
            None => Err(WireError::new(
                ErrorCode::Internal,
                "what your seat has seen is not built yet; reconnect to have it built",
            )),
        },
    }
}

impl Table {
    pub(super) async fn join(
        &mut self,
        code: &str,
        name: &str,
        peer: std::net::IpAddr,
    ) -> Result<(SeatKey, String), WireError> {
        let claim = self.seating.claim(code, name, peer, Instant::now())?;
        self.durable(claim.writes()).await?;
        let seat = self.seating.joined(&claim);
        // The newcomer's view of the log so far, for its state and its digests. The seat is
        // durable already, so a failure here must not cost it its token: the view is built
        // again when it next authenticates.
        if let Err(e) = self.track_new_seats().await {
            tracing::error!(table = %self.id, error = %e.message, "a seat's view could not be built");
        }
        Ok((seat, claim.token))
    }

    pub(super) async fn subscribe(
        &mut self,
        seat: &SeatKey,
        sink: Sink,
        id: u64,
        after: u64,
    ) -> Result<(), WireError> {
        let seat = self.seating.current(seat)?;
        let rules_seat = rules_seat(&seat.info);
        // The backlog is read until the head, or until it holds more frames than the
        // connection could take (then the subscription is refused whole).
        let head = self.journal.head();
        let room = sink.outbox.capacity();
        let mut frames = Vec::new();
        let mut at = after;
        while at < head && frames.len() < room {
            let page = self.events_after(at, PAGE_EVENTS).await?;
            let Some(last) = page.last() else { break };
            at = last.seq;
            frames.extend(
                page.iter()
                    .filter_map(|e| frame_for(&self.id, e, &rules_seat)),
            );
        }
        self.stream.subscribe(seat, sink, id, head, frames)
    }

    pub(super) async fn backlog(
        &self,
        seat: &SeatKey,
        after: u64,
        limit: usize,
    ) -> Result<(Vec<Vec<u8>>, u64, u64), WireError> {
        let seat = self.seating.current(seat)?;
        let events = self.events_after(after, limit).await?;
        let (frames, covered) = backlog(&self.id, &events, &seat, after, limit);
        Ok((frames, covered, self.journal.head()))
    }

    pub(super) async fn request(&mut self, seat: &SeatKey, op: Op) -> Result<Reply, WireError> {
        let rules_seat = rules_seat(&seat.info);
        let gm = seat.info.role == Role::Gm;
        let gm_only = |what: &str| {
            Err(WireError::new(
                ErrorCode::Forbidden,
                format!("{what} is the GM's"),
            ))
        };
        match op {
            Op::Ping => Ok(Reply::Pong),
            Op::Seats => Ok(Reply::Seats {
                seats: self.seating.infos(),
            }),
            Op::State => {
                let header = Header {
                    table: &self.id,
                    name: &self.name,
                    system: self.system.id(),
                    head: self.journal.head(),
                    deadlines: self.deadlines.at_ms(),
                    digest: gm.then(|| digest::current(&self.world)),
                    grid: self.system.grid(),
                };
                let state = match seen_state(&self.audiences, &rules_seat)? {
                    Some(seen) => table_view(header, seen),
                    None => table_view(header, &self.world),
                };
                Ok(Reply::State {
                    state: Box::new(state),
                })
            }
            Op::Actions => Ok(Reply::Actions {
                actions: actions(self.system, &self.world, &rules_seat),
            }),
            Op::ShowSheet { entity } => {
                let id = entity.as_str().into();
                let c = match seen_state(&self.audiences, &rules_seat)? {
                    Some(seen) => seen.combatant(&id),
                    None => self.world.combatant(&id),
                }
                .ok_or_else(|| {
                    WireError::new(
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
                    return gm_only("inviting");
                }
                let (invite, record) = self.seating.invite(role)?;
                self.durable(vec![Write::Invite(record.clone())]).await?;
                self.seating.invited(record);
                Ok(Reply::Invited { invite })
            }
            Op::RevokeSeat { seat: target } => {
                if !gm {
                    return gm_only("revoking a seat");
                }
                let record = self.seating.revoke(&target)?;
                self.durable(vec![Write::Seat(record.clone())]).await?;
                self.seating.revoked(record);
                self.stream
                    .close(Some(&target), "your seat was revoked by the GM");
                Ok(Reply::Seats {
                    seats: self.seating.infos(),
                })
            }
            Op::Export { after } => {
                let held = self.events_after(after, PAGE_EVENTS).await?;
                let (events, cut) = export::page(&held, after, &rules_seat);
                let more = cut || held.last().is_some_and(|e| e.seq < self.journal.head());
                Ok(Reply::ExportPage {
                    header: LogHeader {
                        format: tablehold_log::file::FORMAT.to_owned(),
                        version: tablehold_log::file::FORMAT_VERSION,
                        table: TableInfo {
                            id: self.id.clone(),
                            name: self.name.clone(),
                            system: self.system.id().to_owned(),
                            options: self.options_json.clone(),
                        },
                        viewer: View::of(&rules_seat).to_string(),
                        exported_at_ms: now_ms(),
                        event_count: self.journal.head(),
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
            | Op::ReadmitSeat { .. }
            | Op::EndSession => Err(WireError::new(
                ErrorCode::Internal,
                "a command reached the wrong path",
            )),
            Op::CreateTable { .. } | Op::Join { .. } | Op::Auth { .. } | Op::Subscribe { .. } => {
                Err(WireError::new(
                    ErrorCode::BadRequest,
                    "this request is not for a table's seat",
                ))
            }
        }
    }
}

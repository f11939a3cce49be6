//! Who sits at a table: seats, invites and the failed joins of each address. It decides joins,
//! tokens, invites and revocations and returns the records to write; the task makes them
//! durable and only then calls the matching `*_done`, so nothing here holds a change that
//! could still be lost. It never touches the event log.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::net::IpAddr;
use std::time::Duration;

use tablehold_protocol::{ErrorCode, Invite, Role, SeatInfo};
use tokio::time::Instant;

use crate::auth;
use crate::store::{InviteRecord, SeatRecord, Write};

use super::load::{self, GM_SEAT, role_name};
use super::seats::{info, new_seat_id};
use super::{SeatKey, WireError};

/// How far back failed joins count against an address.
const FAILED_JOIN_WINDOW: Duration = Duration::from_secs(60);

pub struct Seating {
    table: String,
    seats: BTreeMap<String, SeatRecord>,
    invites: Vec<InviteRecord>,
    /// Failed joins per address in the last minute: one guesser is slowed down without
    /// locking anyone else out.
    failed_joins: BTreeMap<IpAddr, VecDeque<Instant>>,
    max_seats: usize,
    failed_joins_per_minute: usize,
}

/// A join that checks out: the records to write, and the token to hand back once they are
/// durable.
pub struct Claim {
    pub seat: SeatRecord,
    pub invite: InviteRecord,
    pub token: String,
}

impl Claim {
    pub fn writes(&self) -> Vec<Write> {
        vec![
            Write::Seat(self.seat.clone()),
            Write::Invite(self.invite.clone()),
        ]
    }
}

fn err(code: ErrorCode, message: impl Into<String>) -> WireError {
    WireError::new(code, message)
}

impl Seating {
    pub fn new(
        table: &str,
        seats: &[SeatRecord],
        invites: Vec<InviteRecord>,
        max_seats: usize,
        failed_joins_per_minute: usize,
    ) -> Self {
        Seating {
            table: table.to_owned(),
            seats: seats.iter().map(|s| (s.seat.clone(), s.clone())).collect(),
            invites,
            failed_joins: BTreeMap::new(),
            max_seats,
            failed_joins_per_minute,
        }
    }

    /// Takes the seats and invites of a table reloaded from the store, which are the truth.
    pub fn reload(&mut self, seats: &[SeatRecord], invites: Vec<InviteRecord>) {
        self.seats = seats.iter().map(|s| (s.seat.clone(), s.clone())).collect();
        self.invites = invites;
    }

    fn key(&self, record: &SeatRecord) -> SeatKey {
        SeatKey {
            table: self.table.clone(),
            info: info(record),
        }
    }

    /// The seat as the table knows it now: a revoked seat's connections lose their rights at
    /// once, and a role is always the current one.
    pub fn current(&self, seat: &SeatKey) -> Result<SeatKey, WireError> {
        match self.seats.get(&seat.info.id) {
            Some(r) if !r.revoked => Ok(self.key(r)),
            _ => Err(err(
                ErrorCode::Unauthorized,
                "this seat was revoked by the GM",
            )),
        }
    }

    pub fn infos(&self) -> Vec<SeatInfo> {
        self.seats.values().map(info).collect()
    }

    /// Players and spectators not revoked: the seats that have an audience of their own.
    pub fn audience_ids(&self) -> BTreeSet<String> {
        load::player_seats(&self.seats)
    }

    /// Seats that count against the table's limit: revoked ones free their place.
    fn live(&self) -> usize {
        self.seats.values().filter(|s| !s.revoked).count()
    }

    /// A live player seat, which may own a character.
    pub fn player_seat(&self, id: &str) -> Result<(), WireError> {
        match self.seats.get(id) {
            Some(s) if !s.revoked && s.role == role_name(Role::Player) => Ok(()),
            _ => Err(err(
                ErrorCode::BadRequest,
                format!("no player seat `{id}` at this table; `tablehold seats` lists them"),
            )),
        }
    }

    fn rate_limited(&mut self, peer: IpAddr, now: Instant) -> bool {
        // Forget addresses whose failures are all older than the window, so the map stays small.
        self.failed_joins.retain(|_, times| {
            while times
                .front()
                .is_some_and(|t| now.duration_since(*t) > FAILED_JOIN_WINDOW)
            {
                times.pop_front();
            }
            !times.is_empty()
        });
        self.failed_joins.get(&peer).map(VecDeque::len).unwrap_or(0) >= self.failed_joins_per_minute
    }

    /// Checks a join with invite `code`; a wrong code counts against `peer`.
    pub fn claim(
        &mut self,
        code: &str,
        name: &str,
        peer: IpAddr,
        now: Instant,
    ) -> Result<Claim, WireError> {
        if self.rate_limited(peer, now) {
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
        let Some(invite) = self
            .invites
            .iter()
            .find(|i| i.used_by.is_none() && auth::matches(code, &i.code_hash))
            .cloned()
        else {
            self.failed_joins.entry(peer).or_default().push_back(now);
            return Err(err(
                ErrorCode::BadCredentials,
                "no unused invite with that code at this table",
            ));
        };
        if self.live() >= self.max_seats {
            return Err(err(ErrorCode::TableFull, "the table has no free seat"));
        }
        let seat_id = new_seat_id(name, &self.seats);
        let token = auth::new_token();
        let seat = SeatRecord {
            table: self.table.clone(),
            seat: seat_id.clone(),
            name: name.to_owned(),
            role: invite.role.clone(),
            token_hash: auth::hash(&token),
            revoked: false,
        };
        let invite = InviteRecord {
            used_by: Some(seat_id),
            ..invite
        };
        Ok(Claim {
            seat,
            invite,
            token,
        })
    }

    /// The claim's records are durable: the seat is taken.
    pub fn joined(&mut self, claim: &Claim) -> SeatKey {
        if let Some(i) = self
            .invites
            .iter_mut()
            .find(|i| i.code_hash == claim.invite.code_hash)
        {
            *i = claim.invite.clone();
        }
        self.seats
            .insert(claim.seat.seat.clone(), claim.seat.clone());
        self.key(&claim.seat)
    }

    /// Tokens carry 128 bits, so guessing them is hopeless and a valid token is never refused
    /// for the table's failed joins: an attacker guessing invites cannot lock the GM out.
    pub fn auth(&self, token: &str) -> Result<SeatKey, WireError> {
        // Every seat is compared, each in constant time, so timing says nothing of which.
        let found = self.seats.values().fold(None, |found, s| {
            if auth::matches(token, &s.token_hash) {
                Some(s)
            } else {
                found
            }
        });
        match found {
            Some(s) if !s.revoked => Ok(self.key(s)),
            // As docs/PROTOCOL.md says: a token that no longer opens a seat does not match.
            Some(_) => Err(err(
                ErrorCode::BadCredentials,
                "this seat was revoked by the GM; ask the GM for a new invite",
            )),
            None => Err(err(
                ErrorCode::BadCredentials,
                "no seat at this table has that token",
            )),
        }
    }

    /// One more invite of `role`, if the table has room for its seat.
    pub fn invite(&self, role: Role) -> Result<(Invite, InviteRecord), WireError> {
        if role == Role::Gm {
            return Err(err(ErrorCode::BadRequest, "a table has one GM"));
        }
        let open = self.invites.iter().filter(|i| i.used_by.is_none()).count();
        if self.live() + open >= self.max_seats {
            return Err(err(ErrorCode::TableFull, "no room for another seat"));
        }
        match load::new_invite(&self.table, role) {
            (invite, Write::Invite(record)) => Ok((invite, record)),
            _ => Err(err(ErrorCode::Internal, "an invite without its record")),
        }
    }

    pub fn invited(&mut self, record: InviteRecord) {
        self.invites.push(record);
    }

    /// The record that revokes `target`.
    pub fn revoke(&self, target: &str) -> Result<SeatRecord, WireError> {
        if target == GM_SEAT {
            return Err(err(
                ErrorCode::BadRequest,
                "the GM's seat cannot be revoked",
            ));
        }
        let record = self.seats.get(target).cloned().ok_or_else(|| {
            err(
                ErrorCode::BadRequest,
                format!("no seat `{target}` at this table"),
            )
        })?;
        Ok(SeatRecord {
            revoked: true,
            ..record
        })
    }

    pub fn revoked(&mut self, record: SeatRecord) {
        self.seats.insert(record.seat.clone(), record);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seating(max_seats: usize) -> (Seating, Vec<String>) {
        let codes: Vec<String> = (0..3).map(|i| format!("code-{i}")).collect();
        let invites = codes
            .iter()
            .map(|c| InviteRecord {
                table: "t".into(),
                code_hash: auth::hash(c),
                role: role_name(Role::Player).into(),
                used_by: None,
            })
            .collect();
        let gm = SeatRecord {
            table: "t".into(),
            seat: GM_SEAT.into(),
            name: "GM".into(),
            role: role_name(Role::Gm).into(),
            token_hash: auth::hash("gm-token"),
            revoked: false,
        };
        (Seating::new("t", &[gm], invites, max_seats, 2), codes)
    }

    fn peer(last: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, last])
    }

    #[test]
    fn an_invite_seats_one_player_once_its_records_are_durable() {
        let (mut s, codes) = seating(16);
        let now = Instant::now();
        let claim = s.claim(&codes[0], " Ines ", peer(1), now).expect("claim");
        assert_eq!(claim.seat.seat, "ines");
        // Not taken until the task says the records are durable.
        assert!(s.auth(&claim.token).is_err());
        let key = s.joined(&claim);
        assert_eq!(key.info.role, Role::Player);
        assert_eq!(s.auth(&claim.token).expect("auth").info.id, "ines");
        let again = s.claim(&codes[0], "Rui", peer(1), now);
        assert_eq!(again.err().map(|e| e.code), Some(ErrorCode::BadCredentials));
        assert_eq!(s.audience_ids(), BTreeSet::from(["ines".to_owned()]));
    }

    #[test]
    fn failed_joins_slow_one_address_for_a_minute_and_no_other() {
        let (mut s, codes) = seating(16);
        let t0 = Instant::now();
        for _ in 0..2 {
            let got = s.claim("wrong", "X", peer(1), t0);
            assert_eq!(got.err().map(|e| e.code), Some(ErrorCode::BadCredentials));
        }
        let limited = s.claim(&codes[0], "X", peer(1), t0);
        assert_eq!(limited.err().map(|e| e.code), Some(ErrorCode::RateLimited));
        assert!(s.claim(&codes[0], "Y", peer(2), t0).is_ok());
        let later = t0 + FAILED_JOIN_WINDOW + Duration::from_millis(1);
        assert!(s.claim(&codes[0], "X", peer(1), later).is_ok());
    }

    #[test]
    fn a_revoked_seat_loses_its_rights_and_frees_its_place() {
        let (mut s, codes) = seating(2);
        let claim = s
            .claim(&codes[0], "Ines", peer(1), Instant::now())
            .expect("claim");
        let ines = s.joined(&claim);
        let full = s.claim(&codes[1], "Rui", peer(1), Instant::now());
        assert_eq!(full.err().map(|e| e.code), Some(ErrorCode::TableFull));
        assert_eq!(
            s.revoke(GM_SEAT).err().map(|e| e.code),
            Some(ErrorCode::BadRequest)
        );
        let record = s.revoke("ines").expect("revoke");
        s.revoked(record);
        assert_eq!(
            s.current(&ines).err().map(|e| e.code),
            Some(ErrorCode::Unauthorized)
        );
        assert_eq!(
            s.auth(&claim.token).err().map(|e| e.code),
            Some(ErrorCode::BadCredentials)
        );
        assert!(s.player_seat("ines").is_err());
        assert!(s.claim(&codes[1], "Rui", peer(1), Instant::now()).is_ok());
    }

    #[test]
    fn invites_stop_when_every_place_is_promised() {
        let (mut s, _) = seating(5);
        // The GM's seat and three open invites leave one place.
        let (_, record) = s.invite(Role::Spectator).expect("one more");
        s.invited(record);
        assert_eq!(
            s.invite(Role::Player).err().map(|e| e.code),
            Some(ErrorCode::TableFull)
        );
        assert_eq!(
            s.invite(Role::Gm).err().map(|e| e.code),
            Some(ErrorCode::BadRequest)
        );
    }
}

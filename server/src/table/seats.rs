//! Seats at a table: who they are, what rules seat they act as, and how a new one is named.

use std::collections::BTreeMap;

use tablehold_protocol::{Role, SeatInfo};
use tablehold_rules::{Seat, SeatId};

use crate::store::SeatRecord;

use super::load::role_of;

pub fn info(record: &SeatRecord) -> SeatInfo {
    SeatInfo {
        id: record.seat.clone(),
        name: record.name.clone(),
        role: role_of(&record.role).unwrap_or(Role::Spectator),
        revoked: record.revoked,
    }
}

/// The rules' view of a seat: the GM, a player, or a spectator.
pub fn rules_seat(info: &SeatInfo) -> Seat {
    match info.role {
        Role::Gm => Seat::Gm,
        Role::Player => Seat::Player(SeatId(info.id.clone())),
        Role::Spectator => Seat::Spectator(SeatId(info.id.clone())),
    }
}

/// A new seat's id, from its display name: lower-case letters, digits and dashes, made unique
/// with a number. Ids appear in commands (`--target`), so they should be easy to type.
pub fn new_seat_id(name: &str, taken: &BTreeMap<String, SeatRecord>) -> String {
    let mut base: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect::<String>()
        .split('-')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    base.truncate(24);
    if base.is_empty() || base == super::load::GM_SEAT {
        base = "seat".into();
    }
    if !taken.contains_key(&base) {
        return base;
    }
    (2..)
        .map(|n| format!("{base}-{n}"))
        .find(|id| !taken.contains_key(id))
        .unwrap_or(base)
}

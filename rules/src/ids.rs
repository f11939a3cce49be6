//! Domain identifiers. These are the names that appear in events and logs, so they are plain
//! strings chosen by people (`goblin-1`, `aune`), never an ECS handle or a memory address.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A character, NPC or object at the table. Sorting by it gives the canonical order used for
/// digests and for any random pick among candidates.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EntityId(pub String);

impl EntityId {
    pub fn new(id: impl Into<String>) -> Self {
        EntityId(id.into())
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for EntityId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for EntityId {
    fn from(s: &str) -> Self {
        EntityId(s.to_owned())
    }
}

/// A player or spectator seat at a table. The GM is not a `SeatId`: see [`Seat`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SeatId(pub String);

impl fmt::Display for SeatId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for SeatId {
    fn from(s: &str) -> Self {
        SeatId(s.to_owned())
    }
}

/// Who is asking. The rules need to know whether a command comes from the GM (who may rule and
/// act for NPCs) or from a player (who may act only for characters their seat owns).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    Gm,
    Player(SeatId),
    Spectator(SeatId),
}

impl Seat {
    pub fn is_gm(&self) -> bool {
        matches!(self, Seat::Gm)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Gm => f.write_str("GM"),
            Seat::Player(s) => write!(f, "player {s}"),
            Seat::Spectator(s) => write!(f, "spectator {s}"),
        }
    }
}

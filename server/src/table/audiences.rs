//! The state as each audience has seen it, for the digests a table records at the end of every
//! turn (DESIGN.md, "State digest and replay"): one for the GM (the whole state), one for the
//! public (what a seat named in no part sees), one per seat. A seat replaying its own export
//! applies exactly the parts it was shown, so its digest is of that state, not of a projection
//! of the GM's.

use std::collections::{BTreeMap, BTreeSet};

use tablehold_rules::digest::digest_v1;
use tablehold_rules::options::TableOptions;
use tablehold_rules::{
    Audience, Event, Fact, MemoryState, Part, Seat, SeatId, StateView, apply_seen,
};

/// The key of the GM's digest.
pub const GM: &str = "gm";
/// The key of the public digest.
pub const PUBLIC: &str = "public";

/// The digest key of a seat that is not the GM's.
pub fn seat_key(seat: &str) -> String {
    format!("seat:{seat}")
}

/// Each audience's state, kept in step with the log.
pub struct Audiences {
    options: TableOptions,
    views: BTreeMap<String, View>,
}

struct View {
    seat: Seat,
    state: MemoryState,
}

impl Audiences {
    pub fn new(options: TableOptions) -> Self {
        let mut a = Audiences {
            options,
            views: BTreeMap::new(),
        };
        // No real seat has an empty id, so this seat is in no `Seats` audience: the public.
        a.insert(PUBLIC.to_owned(), Seat::Spectator(SeatId(String::new())));
        a
    }

    fn insert(&mut self, key: String, seat: Seat) {
        self.views.insert(
            key,
            View {
                seat,
                state: MemoryState::new(self.options.clone()),
            },
        );
    }

    /// Makes sure every seat in `seats` (ids of players and spectators) has a view, building a
    /// newcomer's from the events so far.
    pub fn track<'a>(&mut self, seats: &BTreeSet<String>, history: impl Fn() -> Vec<&'a [Part]>) {
        let missing: Vec<&String> = seats
            .iter()
            .filter(|s| !self.views.contains_key(&seat_key(s)))
            .collect();
        if missing.is_empty() {
            return;
        }
        let events = history();
        for seat in missing {
            let key = seat_key(seat);
            self.insert(key.clone(), Seat::Player(SeatId(seat.clone())));
            if let Some(view) = self.views.get_mut(&key) {
                for parts in &events {
                    view.apply(parts);
                }
            }
        }
    }

    /// Applies each audience's view of one event.
    pub fn apply(&mut self, parts: &[Part]) {
        for view in self.views.values_mut() {
            view.apply(parts);
        }
    }

    /// The digests of every audience in `keep` (plus the public one) and of the GM's state, as
    /// one event whose parts each audience alone may see.
    pub fn digest_event(&self, gm_state: &dyn StateView, keep: &BTreeSet<String>) -> Event {
        let mut parts = vec![Part {
            audience: Audience::GmOnly,
            fact: Fact::DigestRecorded {
                audience: GM.to_owned(),
                digest: digest_v1(gm_state),
            },
        }];
        for (key, view) in &self.views {
            let audience = match &view.seat {
                _ if key == PUBLIC => Audience::Everyone,
                Seat::Player(id) | Seat::Spectator(id) if keep.contains(&id.0) => {
                    Audience::Seats(BTreeSet::from([id.clone()]))
                }
                _ => continue,
            };
            parts.push(Part {
                audience,
                fact: Fact::DigestRecorded {
                    audience: key.clone(),
                    digest: digest_v1(&view.state),
                },
            });
        }
        Event { parts }
    }
}

impl View {
    fn apply(&mut self, parts: &[Part]) {
        let event = Event {
            parts: parts
                .iter()
                .filter(|p| p.audience.admits(&self.seat))
                .cloned()
                .collect(),
        };
        apply_seen(&mut self.state, &event);
    }
}

//! The state as each audience has seen it, for the digests a table records at the end of every
//! turn (DESIGN.md, "State digest and replay"): one for the GM (the whole state), one for the
//! public (what a seat named in no part sees), one per seat. A seat replaying its own export
//! applies exactly the parts it was shown, so its digest is of that state, not of a projection
//! of the GM's.
//!
//! Audiences are the log crate's [`View`]s: the same keys, and the same rule for which parts
//! each applies, as `tablehold replay` uses to check these digests.

use std::collections::{BTreeMap, BTreeSet};

use tablehold_log::verify::View;
use tablehold_rules::digest;
use tablehold_rules::options::TableOptions;
use tablehold_rules::{Audience, Event, Fact, MemoryState, Part, SeatId, StateView, apply_seen};

/// Each audience's state but the GM's (the table's own), kept in step with the log.
pub struct Audiences {
    options: TableOptions,
    views: BTreeMap<View, MemoryState>,
}

impl Audiences {
    pub fn new(options: TableOptions) -> Self {
        let public = MemoryState::new(options.clone());
        Audiences {
            options,
            views: BTreeMap::from([(View::Public, public)]),
        }
    }

    /// The public view and those of `seats` with their keys (`public`, `seat:<id>`), for a
    /// snapshot: a revoked seat's view is left out, as a replay of the log leaves it out.
    pub fn saved(&self, seats: &BTreeSet<String>) -> Vec<(String, MemoryState)> {
        self.views
            .iter()
            .filter(|(view, _)| match view {
                View::Seat(id) => seats.contains(&id.0),
                _ => true,
            })
            .map(|(view, state)| (view.to_string(), state.clone()))
            .collect()
    }

    /// The views a snapshot kept, under the table's options.
    pub fn restored(
        options: TableOptions,
        saved: Vec<(String, MemoryState)>,
    ) -> Result<Audiences, String> {
        let mut views = BTreeMap::new();
        for (key, mut state) in saved {
            let view = View::parse(&key)
                .filter(|v| *v != View::Gm)
                .ok_or_else(|| format!("`{key}` is not the view of a seat or of the public"))?;
            state.options = options.clone();
            views.insert(view, state);
        }
        if !views.contains_key(&View::Public) {
            return Err("the public view is missing".to_owned());
        }
        Ok(Audiences { options, views })
    }

    /// Gives every seat in `seats` (ids of players and spectators) an empty view: the state
    /// at the start of a log, before any event is applied.
    pub fn open_at_start(&mut self, seats: &BTreeSet<String>) {
        for seat in seats {
            self.views
                .entry(View::Seat(SeatId(seat.clone())))
                .or_insert_with(|| MemoryState::new(self.options.clone()));
        }
    }

    /// The seats in `seats` that have no view yet: those that joined since the table loaded.
    pub fn missing(&self, seats: &BTreeSet<String>) -> Vec<String> {
        seats
            .iter()
            .filter(|s| !self.views.contains_key(&View::Seat(SeatId((*s).clone()))))
            .cloned()
            .collect()
    }

    /// A newcomer's view, to be fed the log so far (in order, page by page) and then added.
    pub fn begin(&self, seat: &str) -> Building {
        Building {
            view: View::Seat(SeatId(seat.to_owned())),
            state: MemoryState::new(self.options.clone()),
        }
    }

    pub fn add(&mut self, built: Building) {
        self.views.insert(built.view, built.state);
    }

    /// The state `seat` (a player or spectator) has seen: built from the parts its view
    /// admitted, and nothing else. `None` for a seat whose view was never built.
    pub fn seen_by(&self, seat: &SeatId) -> Option<&MemoryState> {
        self.views.get(&View::Seat(seat.clone()))
    }

    /// Applies each audience's view of one event.
    pub fn apply(&mut self, parts: &[Part]) {
        for (view, state) in &mut self.views {
            apply_view(state, view, parts);
        }
    }

    /// The digests of every audience in `keep` (plus the public one) and of the GM's state, as
    /// one event whose parts each audience alone may see.
    pub fn digest_event(&self, gm_state: &dyn StateView, keep: &BTreeSet<String>) -> Event {
        let mut parts = vec![Part {
            audience: Audience::GmOnly,
            fact: Fact::DigestRecorded {
                audience: View::Gm.to_string(),
                digest: digest::current(gm_state),
                projection: digest::CURRENT,
            },
        }];
        for (view, state) in &self.views {
            let audience = match view {
                View::Public => Audience::Everyone,
                View::Seat(id) if keep.contains(&id.0) => {
                    Audience::Seats(BTreeSet::from([id.clone()]))
                }
                _ => continue,
            };
            parts.push(Part {
                audience,
                fact: Fact::DigestRecorded {
                    audience: view.to_string(),
                    digest: digest::current(state),
                    projection: digest::CURRENT,
                },
            });
        }
        Event { parts }
    }
}

/// A seat's view while it is built from the log.
pub struct Building {
    view: View,
    state: MemoryState,
}

impl Building {
    pub fn feed(&mut self, parts: &[Part]) {
        apply_view(&mut self.state, &self.view, parts);
    }
}

/// The parts of an event `view` was shown, applied to its state without copying them.
fn apply_view(state: &mut MemoryState, view: &View, parts: &[Part]) {
    apply_seen(
        state,
        parts
            .iter()
            .filter(|p| view.applies(&p.audience))
            .map(|p| &p.fact),
    );
}

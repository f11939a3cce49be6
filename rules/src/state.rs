//! The encounter state every system reads and `apply` writes: combatants with their sheet,
//! resources, statuses, turn economy and grid position, plus the encounter's round, order,
//! current turn and the stack of half-resolved actions.
//!
//! Two stores implement it: [`MemoryState`] here (the calculator, tests, and a scratch copy
//! inside `decide`) and the server's bevy `World`. Both go through [`StateMut`], so `apply` is
//! written once.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::decision::PendingStep;
use crate::grid::{Cell, Terrain};
use crate::ids::{EntityId, SeatId};
use crate::options::TableOptions;
use crate::sheet::Sheet;
use crate::turns::Turns;

/// What kind of thing a combatant is. NPC and object stats are GM-only by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Pc,
    Npc,
    Object,
}

/// A status (condition) on a combatant: knocked down, dying, burning...
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Status {
    /// What caused it, for the log and the sheet view ("attack by goblin-1", "ruling").
    pub source: String,
    /// Its size where the status has one (bleeding 3); 0 otherwise.
    pub magnitude: i64,
    /// Rounds left, for statuses that expire on their own.
    pub rounds_left: Option<u32>,
}

/// One participant. `stats` are the sheet's fixed numbers, `resources` the ones that move in
/// play, `turn` the per-turn action economy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Combatant {
    pub id: EntityId,
    pub name: String,
    pub kind: Kind,
    /// The seat that may act for it; `None` means only the GM does.
    pub owner: Option<SeatId>,
    /// Allegiance, e.g. `players` or `enemies`; rules about "enemies first" compare sides.
    pub side: String,
    pub position: Option<Cell>,
    pub sheet: Sheet,
    pub resources: BTreeMap<String, i64>,
    pub statuses: BTreeMap<String, Status>,
    pub turn: BTreeMap<String, i64>,
}

impl Combatant {
    pub fn resource(&self, key: &str) -> i64 {
        self.resources.get(key).copied().unwrap_or(0)
    }
    pub fn turn_counter(&self, key: &str) -> i64 {
        self.turn.get(key).copied().unwrap_or(0)
    }
    pub fn has_status(&self, key: &str) -> bool {
        self.statuses.contains_key(key)
    }
}

/// The encounter clock and the decision stack.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Encounter {
    pub active: bool,
    /// 0 before the first round starts.
    pub round: u32,
    /// Turn order for the whole encounter; systems that re-roll each round rewrite it.
    pub order: Vec<EntityId>,
    pub current: Option<EntityId>,
    /// Half-resolved actions waiting for an answer; the top one is the open prompt.
    pub pending: Vec<PendingStep>,
    /// Steps declared now and resolved at a later trigger (e.g. after the enemies' turn).
    pub deferred: Vec<PendingStep>,
    /// Next prompt id to hand out; ids are never reused within a table.
    pub next_prompt: u64,
    /// Encounter-wide numbers a system keeps (the side whose turn it is, a shared pool).
    #[serde(default)]
    pub values: BTreeMap<String, i64>,
    /// The scene's terrain, cell by cell (open cells are not listed). It outlives an encounter:
    /// the room is still there when the fight ends.
    #[serde(default, with = "crate::grid::terrain_list")]
    pub terrain: BTreeMap<Cell, Terrain>,
    /// Who may act now, in the shape of turns the system uses (see `turns`).
    #[serde(default)]
    pub turns: Turns,
}

/// Read access to a table's state, as `decide` and `actions` see it.
pub trait StateView {
    fn options(&self) -> &TableOptions;
    fn combatant(&self, id: &EntityId) -> Option<&Combatant>;
    /// Every combatant id in canonical (sorted) order.
    fn combatant_ids(&self) -> Vec<EntityId>;
    fn encounter(&self) -> &Encounter;
}

/// Write access, used only by `apply`. Each method is an assignment: no rule logic here.
pub trait StateMut: StateView {
    fn insert_combatant(&mut self, combatant: Combatant);
    fn remove_combatant(&mut self, id: &EntityId) -> Option<Combatant>;
    fn combatant_mut(&mut self, id: &EntityId) -> Option<&mut Combatant>;
    fn encounter_mut(&mut self) -> &mut Encounter;
}

/// A plain in-memory table state.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct MemoryState {
    pub options: TableOptions,
    pub combatants: BTreeMap<EntityId, Combatant>,
    pub encounter: Encounter,
}

impl MemoryState {
    pub fn new(options: TableOptions) -> Self {
        MemoryState {
            options,
            ..Default::default()
        }
    }
}

impl StateView for MemoryState {
    fn options(&self) -> &TableOptions {
        &self.options
    }
    fn combatant(&self, id: &EntityId) -> Option<&Combatant> {
        self.combatants.get(id)
    }
    fn combatant_ids(&self) -> Vec<EntityId> {
        self.combatants.keys().cloned().collect()
    }
    fn encounter(&self) -> &Encounter {
        &self.encounter
    }
}

impl StateMut for MemoryState {
    fn insert_combatant(&mut self, combatant: Combatant) {
        self.combatants.insert(combatant.id.clone(), combatant);
    }
    fn remove_combatant(&mut self, id: &EntityId) -> Option<Combatant> {
        self.combatants.remove(id)
    }
    fn combatant_mut(&mut self, id: &EntityId) -> Option<&mut Combatant> {
        self.combatants.get_mut(id)
    }
    fn encounter_mut(&mut self) -> &mut Encounter {
        &mut self.encounter
    }
}

/// A copy-on-write layer over a read-only state. `decide` applies each event it builds to a
/// scratch so the next step reads the values the previous step produced, without ever
/// touching the real state.
pub struct Scratch<'a> {
    base: &'a dyn StateView,
    changed: BTreeMap<EntityId, Option<Combatant>>,
    encounter: Option<Encounter>,
}

impl<'a> Scratch<'a> {
    pub fn new(base: &'a dyn StateView) -> Self {
        Scratch {
            base,
            changed: BTreeMap::new(),
            encounter: None,
        }
    }
}

impl StateView for Scratch<'_> {
    fn options(&self) -> &TableOptions {
        self.base.options()
    }
    fn combatant(&self, id: &EntityId) -> Option<&Combatant> {
        match self.changed.get(id) {
            Some(c) => c.as_ref(),
            None => self.base.combatant(id),
        }
    }
    fn combatant_ids(&self) -> Vec<EntityId> {
        let mut ids: Vec<EntityId> = self
            .base
            .combatant_ids()
            .into_iter()
            .filter(|id| !matches!(self.changed.get(id), Some(None)))
            .collect();
        for (id, c) in &self.changed {
            if c.is_some() && !ids.contains(id) {
                ids.push(id.clone());
            }
        }
        ids.sort();
        ids
    }
    fn encounter(&self) -> &Encounter {
        self.encounter
            .as_ref()
            .unwrap_or_else(|| self.base.encounter())
    }
}

impl StateMut for Scratch<'_> {
    fn insert_combatant(&mut self, combatant: Combatant) {
        self.changed.insert(combatant.id.clone(), Some(combatant));
    }
    fn remove_combatant(&mut self, id: &EntityId) -> Option<Combatant> {
        let old = self.combatant(id).cloned();
        self.changed.insert(id.clone(), None);
        old
    }
    fn combatant_mut(&mut self, id: &EntityId) -> Option<&mut Combatant> {
        if !self.changed.contains_key(id) {
            let copy = self.base.combatant(id)?.clone();
            self.changed.insert(id.clone(), Some(copy));
        }
        self.changed.get_mut(id).and_then(Option::as_mut)
    }
    fn encounter_mut(&mut self) -> &mut Encounter {
        let base = self.base;
        self.encounter
            .get_or_insert_with(|| base.encounter().clone())
    }
}

//! The table as one seat holds it, rendered for the wire: the server's `state` reply, and the
//! client's replay viewer, which shows a past moment exactly as `state` would have shown it
//! then (so the function lives here, beside the type it builds). Nothing here decides what a
//! seat may see: the state it renders is the seat's own, built from exactly the parts `Event::view`
//! showed that seat (the GM's is the table's whole state), so a stand-in NPC arrives here with
//! no numbers and a prompt someone else decides with no content.

use crate::{CombatantView, GridView, PromptView, TableView, TerrainView};
use std::collections::BTreeMap;
use tablehold_rules::grid::GridSpec;
use tablehold_rules::redact::is_stand_in;

use tablehold_rules::{Answering, Combatant, Kind, PendingStep, Seat, StateView};

/// What a `state` reply says about the table besides the seat's state.
pub struct Header<'a> {
    pub table: &'a str,
    pub name: &'a str,
    pub system: &'a str,
    pub head: u64,
    /// Each open window's deadline in Unix milliseconds.
    pub deadlines: BTreeMap<u64, u64>,
    /// The state digest, for the GM only (it is of the whole state).
    pub digest: Option<String>,
    pub grid: GridSpec,
}

pub fn table_view(header: Header<'_>, seen: &dyn StateView) -> TableView {
    let enc = seen.encounter();
    let combatants = seen
        .combatant_ids()
        .iter()
        .filter_map(|id| seen.combatant(id))
        .map(combatant_view)
        .collect();
    let prompts: Vec<PromptView> = enc
        .pending
        .iter()
        .map(|p| prompt_view(p, header.deadlines.get(&p.prompt_id).copied()))
        .collect();
    TableView {
        table: header.table.to_owned(),
        name: header.name.to_owned(),
        system: header.system.to_owned(),
        head: header.head,
        encounter: enc.active,
        // An ended encounter keeps its last round in the state (apply leaves it, and old logs
        // must replay as they did); with no encounter there is no round to show.
        round: if enc.active { enc.round } else { 0 },
        current: enc.current.as_ref().map(|c| c.0.clone()),
        may_act: tablehold_rules::toolkit::turns::may_act(enc)
            .into_iter()
            .map(|e| e.0)
            .collect(),
        turn: tablehold_rules::toolkit::turns::describe(seen),
        order: enc.order.iter().map(|c| c.0.clone()).collect(),
        combatants,
        prompt: prompts.last().cloned(),
        prompts,
        digest: header.digest,
        terrain: enc
            .terrain
            .iter()
            .map(|(cell, terrain)| TerrainView {
                x: cell.x,
                y: cell.y,
                terrain: terrain.clone(),
            })
            .collect(),
        grid: Some(GridView {
            unit: header.grid.unit.to_owned(),
            cell_size: header.grid.cell_size,
            covers: header.grid.covers.iter().map(|c| (*c).to_owned()).collect(),
            diagonal: seen.options().diagonal(),
        }),
    }
}

/// One open window as the seat holds it (a stand-in, for a window others decide). Its deadline
/// is 0 while the table has not tracked it yet.
fn prompt_view(p: &PendingStep, deadline_ms: Option<u64>) -> PromptView {
    PromptView {
        prompt_id: p.prompt_id,
        question: p.question.clone(),
        options: p.options.clone(),
        default: p.default.clone(),
        seats: p.seats.iter().map(seat_name).collect(),
        deadline_ms: deadline_ms.unwrap_or(0),
        answering: match p.answering {
            Answering::First => "first",
            Answering::Each => "each",
            Answering::Gm => "gm",
        }
        .to_owned(),
        blocks: p.blocks,
        args: p.args.clone(),
        waiting: p.waiting_for().iter().map(seat_name).collect(),
    }
}

/// One combatant as the seat's state holds it; a stand-in has no numbers to show.
pub fn combatant_view(c: &Combatant) -> CombatantView {
    let numbers = !is_stand_in(c);
    CombatantView {
        id: c.id.0.clone(),
        name: c.name.clone(),
        kind: match c.kind {
            Kind::Pc => "pc",
            Kind::Npc => "npc",
            Kind::Object => "object",
        }
        .into(),
        side: c.side.clone(),
        owner: c.owner.as_ref().map(|o| o.0.clone()),
        position: c.position.map(|p| (p.x, p.y)),
        statuses: c.statuses.keys().cloned().collect(),
        resources: numbers.then(|| c.resources.clone()),
        sheet: if numbers { c.sheet.to_toml() } else { None },
    }
}

pub fn seat_name(seat: &Seat) -> String {
    match seat {
        Seat::Gm => "gm".into(),
        Seat::Player(s) | Seat::Spectator(s) => s.0.clone(),
    }
}

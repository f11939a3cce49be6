//! What one seat may see of the table's state. The state-side twin of `Event::view`: NPCs' and
//! objects' numbers and sheets are the GM's; everything on the map is everyone's.

use tablehold_protocol::{CombatantView, PromptView, TableView};
use tablehold_rules::digest::digest_v1;
use tablehold_rules::redact::gm_only_numbers;
use tablehold_rules::{Combatant, Kind, Seat, StateView};

use super::world::TableWorld;

pub fn table_view(
    table: &str,
    name: &str,
    system: &str,
    head: u64,
    world: &TableWorld,
    seat: &Seat,
    prompt_deadline_ms: u64,
) -> TableView {
    let enc = world.encounter();
    let combatants = world
        .combatant_ids()
        .iter()
        .filter_map(|id| world.combatant(id))
        .map(|c| combatant_view(c, seat))
        .collect();
    // A prompt only the GM answers is the GM's business, as in the events: other seats
    // learn only that the table waits for the GM.
    let prompt = enc.pending.last().map(|p| {
        let private = p.seats.iter().all(Seat::is_gm) && !seat.is_gm();
        PromptView {
            prompt_id: p.prompt_id,
            question: if private {
                "waiting for the GM".into()
            } else {
                p.question.clone()
            },
            options: if private { vec![] } else { p.options.clone() },
            default: if private {
                String::new()
            } else {
                p.default.clone()
            },
            seats: p.seats.iter().map(seat_name).collect(),
            deadline_ms: prompt_deadline_ms,
        }
    });
    TableView {
        table: table.to_owned(),
        name: name.to_owned(),
        system: system.to_owned(),
        head,
        encounter: enc.active,
        round: enc.round,
        current: enc.current.as_ref().map(|c| c.0.clone()),
        order: enc.order.iter().map(|c| c.0.clone()).collect(),
        combatants,
        prompt,
        digest: seat.is_gm().then(|| digest_v1(world)),
    }
}

/// Whether `seat` may see `c`'s numbers and sheet.
pub fn sees_numbers(c: &Combatant, seat: &Seat) -> bool {
    seat.is_gm() || !gm_only_numbers(c)
}

pub fn combatant_view(c: &Combatant, seat: &Seat) -> CombatantView {
    let open = sees_numbers(c, seat);
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
        resources: open.then(|| c.resources.clone()),
        sheet: if open { c.sheet.to_toml() } else { None },
    }
}

pub fn seat_name(seat: &Seat) -> String {
    match seat {
        Seat::Gm => "gm".into(),
        Seat::Player(s) | Seat::Spectator(s) => s.0.clone(),
    }
}

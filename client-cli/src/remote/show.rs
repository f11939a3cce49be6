//! Text for what the server sends back: the table, a combatant, the seats, events. Pure
//! functions from protocol values to strings; printing is `main`'s job.

use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;
use tablehold_protocol::{CombatantView, EventEnvelope, PromptView, Role, SeatInfo, TableView};
use tablehold_rules::{Event, Part, Seat, SeatId};

use crate::lines;

/// The rules' seat for a profile's seat: how the text of a check depends on who reads it.
pub fn rules_seat(seat: &str, role: Role) -> Seat {
    match role {
        Role::Gm => Seat::Gm,
        Role::Player => Seat::Player(SeatId(seat.to_owned())),
        Role::Spectator => Seat::Spectator(SeatId(seat.to_owned())),
    }
}

pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::Gm => "gm",
        Role::Player => "player",
        Role::Spectator => "spectator",
    }
}

/// `tablehold state`: a heading, the round and turn, one line per combatant, the prompt.
pub fn state_text(s: &TableView) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "table {} \"{}\" ({}), at event {}",
        s.table, s.name, s.system, s.head
    );
    if s.encounter {
        // An individual turn reads by id, as commands name it; any other shape of turn in the
        // server's own words (`players: Ana, Bo still to act`).
        let turn = match &s.current {
            Some(c) => format!("{c}'s turn"),
            None if !s.turn.is_empty() => s.turn.clone(),
            None => "no one's turn".to_owned(),
        };
        let _ = writeln!(out, "encounter: round {}, {turn}", s.round);
        if !s.order.is_empty() {
            let _ = writeln!(out, "order: {}", s.order.join(", "));
        }
    } else {
        let _ = writeln!(out, "no encounter");
    }
    if s.combatants.is_empty() {
        let _ = writeln!(out, "no combatants");
    }
    for c in &s.combatants {
        let marker = if s.current.as_deref() == Some(c.id.as_str()) || s.may_act.contains(&c.id) {
            "> "
        } else {
            "  "
        };
        let _ = writeln!(out, "{marker}{}", combatant_line(c));
    }
    if !s.terrain.is_empty() {
        let cells: Vec<String> = s
            .terrain
            .iter()
            .map(|t| format!("({}, {}) {}", t.x, t.y, t.terrain))
            .collect();
        let _ = writeln!(out, "terrain: {}", cells.join("; "));
    }
    // Every open window; a server older than windows sends only the newest.
    let open = if s.prompts.is_empty() {
        s.prompt.iter().collect::<Vec<_>>()
    } else {
        s.prompts.iter().collect()
    };
    for p in open {
        let _ = writeln!(out, "{}", prompt_line(p, now_ms()));
    }
    out
}

/// `aune (Aune; pc, side players, seat ines) at (0, 2): condition 9, focus 6; dying`.
pub fn combatant_line(c: &CombatantView) -> String {
    let mut line = format!("{} ({}; {}, side {}", c.id, c.name, c.kind, c.side);
    if let Some(o) = &c.owner {
        let _ = write!(line, ", seat {o}");
    }
    line.push(')');
    if let Some((x, y)) = c.position {
        let _ = write!(line, " at ({x}, {y})");
    }
    match &c.resources {
        Some(r) if !r.is_empty() => {
            let list: Vec<String> = r.iter().map(|(k, v)| format!("{k} {v}")).collect();
            let _ = write!(line, ": {}", list.join(", "));
        }
        Some(_) => {}
        None => line.push_str(": numbers hidden"),
    }
    if !c.statuses.is_empty() {
        let _ = write!(line, "; {}", c.statuses.join(", "));
    }
    line
}

/// The open prompt, with the time left as this machine's clock sees it.
pub fn prompt_line(p: &PromptView, now_ms: u64) -> String {
    let left = p.deadline_ms.saturating_sub(now_ms);
    let who = if p.seats.is_empty() {
        "the GM".to_owned()
    } else {
        p.seats.join(", ")
    };
    let who = match p.answering.as_str() {
        "each" => format!("each of {who}, waiting for {}", p.waiting.join(", ")),
        "gm" => "the GM".to_owned(),
        _ => who,
    };
    let mut takes: Vec<String> = Vec::new();
    if !p.options.is_empty() || p.args.is_empty() {
        takes.push(format!("[{}]", p.options.join(", ")));
    }
    takes.extend(p.args.iter().map(|a| {
        let bounds = match (a.min, a.max) {
            (Some(lo), Some(hi)) => format!(" {lo} to {hi}"),
            _ => String::new(),
        };
        format!("{}=<{}{bounds}>", a.name, super::act::kind_name(a.kind))
    }));
    let default = if p.options.is_empty() && !p.args.is_empty() {
        "its default".to_owned()
    } else {
        format!("default {}", p.default)
    };
    let plays_on = if p.blocks { "" } else { "; the table plays on" };
    format!(
        "prompt {} for {who}: {} {} ({default} in {}.{} s{plays_on})",
        p.prompt_id,
        p.question,
        takes.join(" "),
        left / 1000,
        (left % 1000) / 100
    )
}

pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

/// `tablehold sheet show`: the combatant's line, then its sheet when the seat may see it.
pub fn sheet_text(c: &CombatantView) -> String {
    let mut out = combatant_line(c);
    out.push('\n');
    match &c.sheet {
        Some(sheet) => {
            out.push('\n');
            out.push_str(sheet);
            if !sheet.ends_with('\n') {
                out.push('\n');
            }
        }
        None => out.push_str("(the sheet's numbers are the GM's)\n"),
    }
    out
}

/// One line per seat: id, name, role, and whether it is revoked.
pub fn seats_text(seats: &[SeatInfo]) -> String {
    let width = seats.iter().map(|s| s.id.len()).max().unwrap_or(0);
    let mut out = String::new();
    for s in seats {
        let revoked = if s.revoked { "  revoked" } else { "" };
        let _ = writeln!(
            out,
            "{:width$}  {:9}  {}{revoked}",
            s.id,
            role_name(s.role),
            s.name
        );
    }
    out
}

/// An event as text: `#SEQ` and its first fact, the other facts indented below.
pub fn event_text(e: &EventEnvelope, seat: &Seat) -> String {
    let event = Event {
        parts: e.parts.clone(),
    };
    let prefix = format!("#{} ", e.seq);
    let pad = " ".repeat(prefix.len());
    let mut out = String::new();
    for (i, line) in lines::event_lines(&event, seat, None).iter().enumerate() {
        let lead = if i == 0 { &prefix } else { &pad };
        let _ = writeln!(out, "{lead}{line}");
    }
    out
}

/// The JSON Lines form of an event: what a seat received, without the envelope's framing.
#[derive(Serialize)]
struct JsonEvent<'a> {
    seq: u64,
    table: &'a str,
    at_ms: u64,
    /// The event's hash-chain link: kept, it lets `verify --against` catch a rewritten log.
    link: &'a str,
    parts: &'a [Part],
}

pub fn event_json(e: &EventEnvelope) -> Result<String, serde_json::Error> {
    serde_json::to_string(&JsonEvent {
        seq: e.seq,
        table: &e.table,
        at_ms: e.at_ms,
        link: &e.link,
        parts: &e.parts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prompt_shows_who_what_and_the_time_left() {
        let p = PromptView {
            prompt_id: 4,
            question: "Who goes first?".into(),
            options: vec!["aune".into(), "mara".into()],
            default: "aune".into(),
            seats: vec!["ines".into(), "rui".into()],
            deadline_ms: 10_650,
            answering: "first".into(),
            blocks: true,
            args: vec![],
            waiting: vec!["ines".into(), "rui".into()],
        };
        assert_eq!(
            prompt_line(&p, 10_000),
            "prompt 4 for ines, rui: Who goes first? [aune, mara] (default aune in 0.6 s)"
        );
        // A window each seat answers, that does not hold the table.
        let opening = PromptView {
            question: "Take the opening?".into(),
            options: vec!["strike".into(), "hold".into()],
            default: "hold".into(),
            answering: "each".into(),
            blocks: false,
            waiting: vec!["rui".into()],
            ..p.clone()
        };
        assert_eq!(
            prompt_line(&opening, 10_000),
            "prompt 4 for each of ines, rui, waiting for rui: Take the opening? [strike, hold] \
             (default hold in 0.6 s; the table plays on)"
        );
        // A window answered with a number.
        let push = PromptView {
            question: "How many points?".into(),
            options: vec![],
            default: String::new(),
            seats: vec!["ines".into()],
            args: vec![
                tablehold_rules::ArgSpec::new("points", tablehold_rules::ArgKind::Int, true, "")
                    .range(1, 3),
            ],
            ..p
        };
        assert_eq!(
            prompt_line(&push, 10_000),
            "prompt 4 for ines: How many points? points=<int 1 to 3> (its default in 0.6 s)"
        );
    }
}

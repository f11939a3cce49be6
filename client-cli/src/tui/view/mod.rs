//! The screen, drawn from the model alone: `view(&Model, &mut Frame)`. Top to bottom: the
//! header (table, seat, round, connection), the call to this seat (your turn, a decision with
//! its countdown) or whose turn it is, the map beside the turn order and the selected sheet,
//! the log, the note (the answer to the last command, or Tab's candidates), the hint for the
//! line being typed, and the command line.
//!
//! Every pane takes what room it gets: at 80x24 all are there; a smaller terminal squeezes the
//! map and the sheet first, and nothing panics at any size.

mod map;
mod panes;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::command;
use super::model::{Link, Model, Tone};

/// Rows `text` takes wrapped at word boundaries on a screen `columns` wide, by display width,
/// at most six (a word wider than a row is cut into rows of its own).
fn note_rows(text: &str, columns: usize) -> u16 {
    let columns = columns.max(1);
    let mut rows = 1;
    let mut used = 0;
    for word in text.split_whitespace() {
        let len = Span::raw(word).width();
        let need = if used == 0 { len } else { used + 1 + len };
        if need <= columns {
            used = need;
        } else if len <= columns {
            rows += usize::from(used > 0);
            used = len;
        } else {
            rows += usize::from(used > 0) + (len - 1) / columns;
            used = (len - 1) % columns + 1;
        }
    }
    u16::try_from(rows.min(6)).unwrap_or(6)
}

/// Draws the whole screen.
pub fn view(m: &Model, f: &mut Frame) {
    let call = call_lines(m);
    // A long note (an action's help with its many arguments, a refusal with its hint) gets the
    // rows it needs, up to six, rather than being cut: the help is the only place a user reads
    // every argument of an action.
    let note_text = note_line(m);
    let note_rows = note_rows(&note_text.to_string(), usize::from(f.area().width));
    let [header, call_area, middle, log, note, hint, input] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(u16::try_from(call.len()).unwrap_or(1)),
        Constraint::Min(6),
        Constraint::Length(7),
        Constraint::Length(note_rows),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(f.area());
    f.render_widget(Paragraph::new(header_line(m)), header);
    f.render_widget(Paragraph::new(call), call_area);
    let [map_area, side] =
        Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(middle);
    // The turn order takes the rows its combatants need, the sheet the rest (at 80x24 with
    // many combatants, only its first lines: a taller terminal shows it whole).
    let listed = u16::try_from(super::roster::rows(m).len()).unwrap_or(u16::MAX);
    let [turns, sheet] = Layout::vertical([
        Constraint::Length(listed.saturating_add(2).max(3)),
        Constraint::Min(4),
    ])
    .areas(side);
    map::render(m, f, map_area);
    panes::turns(m, f, turns);
    panes::sheet(m, f, sheet);
    panes::log(m, f, log);
    f.render_widget(Paragraph::new(note_text).wrap(Wrap { trim: true }), note);
    let hint_text = if matches!(m.link, Link::Replay { .. }) {
        replay_hint()
    } else {
        command::hint(&m.input.text, &m.catalogue, m.seat.is_gm())
    };
    f.render_widget(
        Paragraph::new(Span::styled(hint_text, Style::new().fg(Color::DarkGray))),
        hint,
    );
    command_line(m, f, input);
}

fn replay_hint() -> String {
    "←/→ event · n/p turn · ]/[ round · Home/End · digits+Enter jump · Space play · +/- speed \
     · q quits"
        .to_owned()
}

fn header_line(m: &Model) -> Line<'static> {
    let (table, round) = match &m.scene {
        Some(s) if s.encounter => (s.name.clone(), format!("round {}", s.round)),
        Some(s) => (s.name.clone(), "no encounter".to_owned()),
        None => ("…".to_owned(), String::new()),
    };
    let (link, style) = match &m.link {
        Link::Online => ("● online".to_owned(), Style::new().fg(Color::Green)),
        // Before any event the first connection; after, a reconnection resuming from the log.
        Link::Connecting { attempt: 1 } if m.last_seq == 0 => {
            ("◌ connecting".to_owned(), Style::new().fg(Color::Yellow))
        }
        Link::Connecting { attempt } => (
            format!("◌ reconnecting (try {attempt})"),
            Style::new().fg(Color::Yellow),
        ),
        Link::Offline { reason } => (format!("✕ offline: {reason}"), Style::new().fg(Color::Red)),
        Link::Replay { at, last, playing } => (
            format!(
                "replay {at}/{last} {}{}",
                progress(*at, *last, 16),
                if *playing { " ▶ playing" } else { "" }
            ),
            Style::new().fg(Color::Cyan),
        ),
    };
    let mut spans = vec![
        Span::styled(table, Style::new().add_modifier(Modifier::BOLD)),
        Span::raw(format!(" · {} · {round} · ", m.seat)),
        Span::styled(link, style),
    ];
    if let Some(next) = &m.switch_to {
        spans.push(Span::styled(
            format!(" · F2: {next}"),
            Style::new().fg(Color::Cyan),
        ));
    }
    Line::from(spans)
}

/// `▕█████░░░░░▏`: how far into the log a replay is, in `width` cells.
fn progress(at: u64, last: u64, width: u64) -> String {
    let filled = (at.min(last) * width).checked_div(last).unwrap_or(width);
    let filled = usize::try_from(filled).unwrap_or(0);
    let empty = usize::try_from(width).unwrap_or(0).saturating_sub(filled);
    format!("▕{}{}▏", "█".repeat(filled), "░".repeat(empty))
}

/// The call to this seat: a decision asked of it (question, options, countdown) outranks
/// someone else's decision that holds every action up, which outranks its turn, which
/// outranks the plain "whose turn" line.
fn call_lines(m: &Model) -> Vec<Line<'static>> {
    let loud = Style::new()
        .fg(Color::Black)
        .bg(Color::Yellow)
        .add_modifier(Modifier::BOLD);
    let asked = m.asked();
    if !asked.is_empty() {
        let mut out = Vec::new();
        for p in asked {
            let left = m.left_ms(p).map_or_else(String::new, |ms| {
                format!(" · {}.{} s left", ms / 1000, (ms % 1000) / 100)
            });
            let default = if p.default.is_empty() {
                "its default".to_owned()
            } else {
                p.default.clone()
            };
            // The countdown first, so that a narrow terminal cuts the question, not the time.
            out.push(Line::from(Span::styled(
                format!(" A DECISION FOR YOU{left}, then {default} "),
                loud,
            )));
            out.push(Line::from(format!("  {}", p.question)));
            let mut takes: Vec<String> = p.options.clone();
            takes.extend(
                p.args
                    .iter()
                    .map(|a| format!("{}=<{}>", a.name, crate::remote::act::kind_name(a.kind))),
            );
            out.push(Line::from(format!(
                "  answer {} · prompt {}",
                takes.join(" | "),
                p.prompt_id
            )));
        }
        return out;
    }
    // Someone else's decision holds every action up: "your turn" would invite a refusal.
    // With several seats on one screen (the demo), the key that shows the other.
    if let Some(p) = m.blocked_by().first() {
        let who = if p.seats.is_empty() || p.seats.iter().all(|s| s == "gm") {
            "the GM".to_owned()
        } else {
            p.seats.join(", ")
        };
        let left = m.left_ms(p).map_or_else(String::new, |ms| {
            format!(" · {}.{} s left", ms / 1000, (ms % 1000) / 100)
        });
        let switch = m
            .switch_to
            .as_ref()
            .map_or_else(String::new, |next| format!(" · F2: {next}"));
        return vec![Line::from(Span::styled(
            format!(
                " WAITING for {who} to decide (prompt {}){left}{switch} ",
                p.prompt_id
            ),
            Style::new()
                .fg(Color::Black)
                .bg(Color::Cyan)
                .add_modifier(Modifier::BOLD),
        ))];
    }
    let mine = m.my_turn();
    if !mine.is_empty() {
        return vec![Line::from(Span::styled(
            format!(" YOUR TURN: {} ", mine.join(", ")),
            loud.bg(Color::Green),
        ))];
    }
    let turn = m.scene.as_ref().map_or(String::new(), |s| {
        if !s.encounter {
            "no encounter yet: `help` lists what you may do now".to_owned()
        } else if s.turn.is_empty() {
            s.current
                .as_ref()
                .map_or(String::new(), |c| format!("{c}'s turn"))
        } else {
            s.turn.clone()
        }
    });
    vec![Line::from(turn)]
}

fn note_line(m: &Model) -> Line<'static> {
    if !m.input.offered.is_empty() {
        return Line::from(Span::styled(
            m.input.offered.join("  "),
            Style::new().fg(Color::Cyan),
        ));
    }
    match &m.note {
        Some((text, tone)) => Line::from(Span::styled(text.clone(), tone_style(*tone))),
        None => Line::default(),
    }
}

pub(super) fn tone_style(tone: Tone) -> Style {
    match tone {
        Tone::Plain => Style::new(),
        Tone::Mine => Style::new().fg(Color::Green).add_modifier(Modifier::BOLD),
        Tone::Alert => Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
        Tone::Error => Style::new().fg(Color::Red),
        Tone::Critical => Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD),
    }
}

/// `> ` and the line, scrolled so that the cursor stays in view; the terminal's cursor sits
/// at the model's.
fn command_line(m: &Model, f: &mut Frame, area: Rect) {
    if area.width < 3 {
        return;
    }
    let room = usize::from(area.width - 2).saturating_sub(1);
    let skip = m.input.cursor.saturating_sub(room);
    let shown: String = m.input.text.chars().skip(skip).collect();
    f.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled("> ", Style::new().add_modifier(Modifier::BOLD)),
            Span::raw(shown),
        ])),
        area,
    );
    let x = area.x + 2 + u16::try_from(m.input.cursor - skip).unwrap_or(0);
    f.set_cursor_position(Position::new(x.min(area.right().saturating_sub(1)), area.y));
}

#[cfg(test)]
mod tests;

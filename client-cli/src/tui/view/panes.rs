//! The text panes: the turn order (who may act, whose characters are whose, what each has;
//! the GM's grouped by `roster`), the selected combatant's sheet, and the log.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use tablehold_protocol::CombatantView;

use super::map::{labels, side_colours};
use super::tone_style;
use crate::tui::model::Model;
use crate::tui::roster::{self, Row};
use crate::tui::sight;

/// The roster (`roster::rows`): one line per combatant, `▶` for those who may act now, `*`
/// for this seat's own, the map label in its side's colour, the id, and its numbers when the
/// seat sees them. The GM's roster groups the GM's own characters by side under a magenta
/// heading, their numbers magenta too (GM only), each line led by its place in the order.
pub fn turns(m: &Model, f: &mut Frame, area: Rect) {
    let Some(scene) = &m.scene else {
        return;
    };
    let title = if scene.encounter {
        format!(" round {} ", scene.round)
    } else {
        " combatants ".to_owned()
    };
    let labels = labels(scene);
    let colours = side_colours(scene);
    let may_act = m.may_act();
    let gm_only = Style::new().fg(Color::Magenta);
    let lines: Vec<Line> = roster::rows(m)
        .into_iter()
        .map(|row| {
            let (c, place) = match row {
                Row::GmGroup { side, count } => {
                    return Line::from(Span::styled(
                        format!("GM's {side} ({count}) · numbers GM only"),
                        gm_only.add_modifier(Modifier::BOLD),
                    ));
                }
                Row::Combatant { c, place } => (c, place),
            };
            let acts = may_act.contains(&c.id.as_str());
            let mut spans = Vec::new();
            if m.seat.is_gm() {
                spans.push(Span::raw(
                    place.map_or("  ".to_owned(), |p| format!("{p:>2}")),
                ));
            }
            spans.push(Span::raw(format!(
                "{}{}",
                if acts { "▶" } else { " " },
                if m.plays(&c.id) { "*" } else { " " }
            )));
            let mut id_style = Style::new();
            if acts {
                id_style = id_style.add_modifier(Modifier::BOLD);
            }
            if m.selected.as_deref() == Some(c.id.as_str()) {
                id_style = id_style.add_modifier(Modifier::REVERSED);
            }
            let colour = colours
                .get(c.side.as_str())
                .copied()
                .unwrap_or(Color::White);
            // The GM's own numbers, which no player sees, in the GM-only colour.
            let numbers_style = if m.seat.is_gm() && c.owner.is_none() {
                gm_only
            } else {
                Style::new().fg(Color::DarkGray)
            };
            spans.extend([
                Span::styled(
                    labels.get(c.id.as_str()).cloned().unwrap_or_default(),
                    Style::new().fg(colour),
                ),
                Span::raw(" "),
                Span::styled(c.id.clone(), id_style),
                // Who acts shows what it has left of its turn; the others their numbers.
                match m.left.get(&c.id).filter(|_| acts) {
                    Some(left) => {
                        Span::styled(format!(" {left} left"), Style::new().fg(Color::Cyan))
                    }
                    None => Span::styled(format!(" {}", numbers(c)), numbers_style),
                },
            ]);
            Line::from(spans)
        })
        .collect();
    f.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(title)),
        area,
    );
}

/// `condition 9 focus 6` from the resources; `?` for a combatant whose numbers the seat may not
/// see (a stand-in: `rules::redact::is_stand_in` on the server's side leaves them out).
fn numbers(c: &CombatantView) -> String {
    match &c.resources {
        None => "?".to_owned(),
        Some(r) => r
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// The selected combatant: who plays it, where it stands and how it stands to every other
/// token (before the numbers, which the turn order shows too: at 80x24 the lines to the
/// others are what a turn's choice needs), its resources as bars of their values, its
/// statuses; for one the seat may not see the numbers of, only what it may.
pub fn sheet(m: &Model, f: &mut Frame, area: Rect) {
    let Some(c) = m.selected.as_deref().and_then(|id| m.combatant(id)) else {
        f.render_widget(
            Paragraph::new("^N/^P or `select ID` picks a combatant")
                .block(Block::bordered().title(" sheet ")),
            area,
        );
        return;
    };
    let who = match &c.owner {
        Some(o) => format!("played by {o}"),
        None => "the GM's".to_owned(),
    };
    let at = c
        .position
        .map_or("off the map".to_owned(), |(x, y)| format!("at ({x}, {y})"));
    let mut lines = vec![
        Line::from(format!("{} · {}", c.name, c.side)),
        Line::from(format!("{who} · {at}")),
    ];
    if let Some(left) = m.left.get(&c.id) {
        lines.push(Line::from(Span::styled(
            format!("left this turn: {left}"),
            Style::new().fg(Color::Cyan),
        )));
    }
    lines.extend(
        whereabouts(m, c)
            .into_iter()
            .map(|place| Line::from(Span::styled(place, Style::new().fg(Color::Cyan)))),
    );
    match &c.resources {
        None => lines.push(Line::from(Span::styled(
            "its numbers are the GM's",
            Style::new().fg(Color::DarkGray),
        ))),
        Some(r) => {
            // The GM sees numbers the players do not: said, so that nobody reads them out.
            if m.seat.is_gm() && c.owner.is_none() {
                lines.push(Line::from(Span::styled(
                    "numbers: GM only",
                    Style::new().fg(Color::Magenta),
                )));
            }
            let maxima = maxima(c);
            let width = r.keys().map(String::len).max().unwrap_or(0);
            let room = usize::from(area.width).saturating_sub(width + 8);
            for (k, v) in r {
                let mut spans = vec![Span::raw(format!("{k:<width$} {v:>3}"))];
                if let Some(max) = maxima.get(k).copied().filter(|m| *m > 0) {
                    spans.push(Span::raw(format!("/{max:<3}")));
                    spans.push(Span::styled(
                        bar(*v, max, room.saturating_sub(4).min(20)),
                        Style::new().fg(Color::Green),
                    ));
                }
                lines.push(Line::from(spans));
            }
        }
    }
    if !c.statuses.is_empty() {
        lines.push(Line::from(Span::styled(
            c.statuses.join(", "),
            Style::new().fg(Color::Yellow),
        )));
    }
    f.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(format!(" {} ", c.id))),
        area,
    );
}

/// Where `c` stands: the cover or footing of its cell, then one line per other token on the
/// map (`sight::bearings`): how far, as the table's rules measure, and whether the line
/// between them is clear, behind cover or blocked (`3 m from aune, behind half cover`).
fn whereabouts(m: &Model, c: &CombatantView) -> Vec<String> {
    let mut said = Vec::new();
    let Some(scene) = m.scene.as_ref() else {
        return said;
    };
    if let Some((x, y)) = c.position {
        match scene.terrain.iter().find(|t| (t.x, t.y) == (x, y)) {
            // `in half cover`, `in cover`: the cover in the terrain's own words.
            Some(t) if t.terrain.cover.is_some() => {
                let cover = tablehold_rules::grid::Terrain {
                    cover: t.terrain.cover.clone(),
                    ..Default::default()
                };
                said.push(format!("in {cover}"));
            }
            Some(t) if t.terrain.difficult => said.push("on difficult ground".to_owned()),
            _ => {}
        }
    }
    said.extend(
        sight::bearings(m, c)
            .into_iter()
            .map(|b| format!("{} from {}, {}", b.length, b.id, b.line)),
    );
    said
}

/// Each resource's maximum, where the sheet gives one as `RESOURCE_max` (a sheet's own
/// convention, whatever the system): a resource without one shows as a number alone.
fn maxima(c: &CombatantView) -> std::collections::BTreeMap<String, i64> {
    let Some(sheet) = c.sheet.as_deref() else {
        return Default::default();
    };
    let Ok(doc) = sheet.parse::<toml::Table>() else {
        return Default::default();
    };
    doc.iter()
        .filter_map(|(k, v)| Some((k.strip_suffix("_max")?.to_owned(), v.as_integer()?)))
        .collect()
}

/// A bar of `width` cells filled in proportion to `value` of `max`.
fn bar(value: i64, max: i64, width: usize) -> String {
    let width_i = i64::try_from(width).unwrap_or(0);
    let filled = (value.clamp(0, max) * width_i)
        .checked_div(max)
        .unwrap_or(0);
    let filled = usize::try_from(filled).unwrap_or(0);
    format!(
        "{}{}",
        "█".repeat(filled),
        "░".repeat(width - filled.min(width))
    )
}

/// The newest sentences that fit, wrapped to the pane, scrolled back by the model's scroll.
pub fn log(m: &Model, f: &mut Frame, area: Rect) {
    let block = Block::bordered().title(if m.scroll > 0 {
        format!(" log (scrolled back {}) ", m.scroll)
    } else {
        " log ".to_owned()
    });
    let inner = block.inner(area);
    f.render_widget(block, area);
    let width = usize::from(inner.width.max(1));
    let height = usize::from(inner.height);
    let end = m.log.len().saturating_sub(m.scroll);
    let mut rows: Vec<Line> = Vec::new();
    for line in m.log[..end].iter().rev() {
        let style = tone_style(line.tone);
        let mut wrapped: Vec<Line> = wrap(&line.text, width)
            .into_iter()
            .map(|t| Line::from(Span::styled(t, style)))
            .collect();
        wrapped.reverse();
        rows.extend(wrapped);
        if rows.len() >= height {
            break;
        }
    }
    rows.truncate(height);
    rows.reverse();
    f.render_widget(Paragraph::new(rows), inner);
}

/// Breaks `text` at spaces into lines of at most `width` characters (a longer word is cut).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let len = line.chars().count();
        if len > 0 && len + 1 + word.chars().count() > width {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
        while line.chars().count() > width {
            let head: String = line.chars().take(width).collect();
            line = line.chars().skip(width).collect();
            out.push(head);
        }
    }
    if !line.is_empty() || out.is_empty() {
        out.push(line);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn wrap_breaks_at_spaces_and_cuts_long_words() {
        assert_eq!(
            super::wrap("aune hits goblin-1", 10),
            ["aune hits", "goblin-1"]
        );
        assert_eq!(super::wrap("abcdefghijkl", 5), ["abcde", "fghij", "kl"]);
        assert_eq!(super::wrap("", 5), [""]);
    }

    #[test]
    fn a_bar_fills_in_proportion_and_never_overflows() {
        assert_eq!(super::bar(9, 14, 14), "█████████░░░░░");
        assert_eq!(super::bar(20, 10, 4), "████");
        assert_eq!(super::bar(-3, 10, 4), "░░░░");
        assert_eq!(super::bar(1, 0, 4), "░░░░");
    }
}

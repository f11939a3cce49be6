//! The grid map: two columns per cell, `x` to the right and `y` downwards, each token a short
//! label of its id (`au` for aune, `g1` for goblin-1) coloured by side; those who may act now
//! are drawn reversed, the selected one underlined. Terrain shows as `▓▓` (blocking), `░░`
//! (cover) and `~~` (difficult). The view is centred on the selected combatant when the whole
//! scene does not fit.

use std::collections::BTreeMap;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use tablehold_protocol::{CombatantView, TableView};

use crate::tui::model::Model;

/// The colours of sides: the players' side first, then the others in the order first seen.
const SIDE_COLOURS: [Color; 5] = [
    Color::Red,
    Color::Magenta,
    Color::Blue,
    Color::Yellow,
    Color::White,
];

pub fn render(m: &Model, f: &mut Frame, area: Rect) {
    let Some(scene) = &m.scene else {
        f.render_widget(Paragraph::new("waiting for the table…"), area);
        return;
    };
    let block = Block::bordered().title(" map ");
    let inner = block.inner(area);
    f.render_widget(block, area);
    let placed: Vec<&CombatantView> = scene
        .combatants
        .iter()
        .filter(|c| c.position.is_some())
        .collect();
    if placed.is_empty() && scene.terrain.is_empty() {
        f.render_widget(Paragraph::new("no token is on the map yet"), inner);
        return;
    }
    let cols = i32::from(inner.width / 2);
    let rows = i32::from(inner.height);
    if cols == 0 || rows == 0 {
        return;
    }
    let (x0, y0) = origin(m, scene, &placed, cols, rows);
    let labels = labels(scene);
    let may_act = m.may_act();
    let colours = side_colours(scene);
    let mut lines = Vec::new();
    for row in 0..rows {
        let y = y0 + row;
        let mut spans = Vec::new();
        for col in 0..cols {
            let x = x0 + col;
            let token = placed.iter().find(|c| c.position == Some((x, y)));
            spans.push(match token {
                Some(c) => {
                    let mut style = Style::new()
                        .fg(colours
                            .get(c.side.as_str())
                            .copied()
                            .unwrap_or(Color::White))
                        .add_modifier(Modifier::BOLD);
                    if may_act.contains(&c.id.as_str()) {
                        style = style.add_modifier(Modifier::REVERSED);
                    }
                    if m.selected.as_deref() == Some(c.id.as_str()) {
                        style = style.add_modifier(Modifier::UNDERLINED);
                    }
                    let label = labels.get(c.id.as_str()).cloned().unwrap_or_default();
                    Span::styled(label, style)
                }
                None => terrain_span(scene, x, y),
            });
        }
        lines.push(Line::from(spans));
    }
    f.render_widget(Paragraph::new(lines), inner);
}

/// The top-left cell shown: the scene's corner when it fits, else the window that keeps the
/// selected combatant (or the first token) in the middle.
fn origin(
    m: &Model,
    scene: &TableView,
    placed: &[&CombatantView],
    cols: i32,
    rows: i32,
) -> (i32, i32) {
    let cells = placed
        .iter()
        .filter_map(|c| c.position)
        .chain(scene.terrain.iter().map(|t| (t.x, t.y)));
    let (mut lo_x, mut lo_y, mut hi_x, mut hi_y) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
    for (x, y) in cells {
        lo_x = lo_x.min(x);
        lo_y = lo_y.min(y);
        hi_x = hi_x.max(x);
        hi_y = hi_y.max(y);
    }
    let focus = m
        .selected
        .as_deref()
        .and_then(|id| m.combatant(id))
        .and_then(|c| c.position)
        .or_else(|| placed.first().and_then(|c| c.position))
        .unwrap_or((lo_x, lo_y));
    let axis = |lo: i32, hi: i32, at: i32, room: i32| {
        if hi - lo < room {
            // A margin of one cell before the scene when there is room for it.
            lo - i32::from(hi - lo + 2 <= room)
        } else {
            at - room / 2
        }
    };
    (
        axis(lo_x, hi_x, focus.0, cols),
        axis(lo_y, hi_y, focus.1, rows),
    )
}

fn terrain_span(scene: &TableView, x: i32, y: i32) -> Span<'static> {
    let dim = Style::new().fg(Color::DarkGray);
    match scene.terrain.iter().find(|t| t.x == x && t.y == y) {
        Some(t) if t.terrain.blocking => Span::styled("▓▓", dim),
        Some(t) if t.terrain.cover.is_some() => Span::styled("░░", dim),
        Some(t) if t.terrain.difficult => Span::styled("~~", dim),
        _ => Span::styled("· ", dim),
    }
}

/// Each combatant's two-character label: its first letter, then the digit its id ends with
/// (`g1`) or its second letter (`au`); a label already taken gets a digit instead.
pub fn labels(scene: &TableView) -> BTreeMap<&str, String> {
    let mut out: BTreeMap<&str, String> = BTreeMap::new();
    let mut taken: Vec<String> = Vec::new();
    for c in &scene.combatants {
        let chars: Vec<char> = c.id.chars().collect();
        let first = chars.first().copied().unwrap_or('?');
        let second = match chars.last() {
            Some(d) if d.is_ascii_digit() && chars.len() > 1 => *d,
            _ => chars.get(1).copied().unwrap_or(' '),
        };
        let mut label: String = [first, second].iter().collect();
        let mut n = 0u32;
        while taken.contains(&label) {
            n += 1;
            label = format!("{first}{}", char::from_digit(n % 10, 10).unwrap_or('#'));
            if n > 10 {
                break;
            }
        }
        taken.push(label.clone());
        out.insert(c.id.as_str(), label);
    }
    out
}

/// A colour per side: the side of the players' characters green, the others from
/// [`SIDE_COLOURS`] in the order the state lists them.
pub fn side_colours(scene: &TableView) -> BTreeMap<&str, Color> {
    let mut out = BTreeMap::new();
    for c in scene.combatants.iter().filter(|c| c.owner.is_some()) {
        out.insert(c.side.as_str(), Color::Green);
    }
    let mut next = SIDE_COLOURS.iter();
    for c in &scene.combatants {
        if !out.contains_key(c.side.as_str()) {
            out.insert(
                c.side.as_str(),
                next.next().copied().unwrap_or(Color::White),
            );
        }
    }
    out
}

//! How one token stands to the others on the map: how far, measured as the table's rules
//! measure (the grid's diagonal rule, cell size and unit), and whether the straight line
//! between them is clear, passes cover or is blocked, by the core's grid model
//! (`tablehold_rules::grid::path_clear`, the test the rules themselves use for reach), so that
//! the sheet says what the table will rule rather than a guess of the client's.
//!
//! Only reads the model; nothing here draws.

use std::collections::BTreeMap;

use tablehold_protocol::{CombatantView, TableView};
use tablehold_rules::grid::{Cell, Diagonal, Terrain, distance, path_clear};

use super::model::Model;

/// What lies on the line between two cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    Clear,
    /// It passes cells that give cover (none blocking): the covers it passes, in the words
    /// the terrain uses (`half cover`), or none named when only two covers meeting corner to
    /// corner close it.
    Cover(Vec<String>),
    /// It passes a blocking cell, or slips between two meeting corner to corner.
    Blocked,
}

impl std::fmt::Display for Line {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Line::Clear => f.write_str("clear"),
            Line::Blocked => f.write_str("blocked"),
            Line::Cover(kinds) if kinds.is_empty() => f.write_str("behind cover"),
            Line::Cover(kinds) => write!(f, "behind {}", kinds.join(", ")),
        }
    }
}

/// One other token as seen from the selected one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bearing {
    pub id: String,
    /// `3 m`, `15 ft`, or `4 cells` from a server that sends no grid.
    pub length: String,
    pub line: Line,
}

/// The scene's terrain as the core's grid model holds it.
pub fn terrain(scene: &TableView) -> BTreeMap<Cell, Terrain> {
    scene
        .terrain
        .iter()
        .map(|t| (Cell { x: t.x, y: t.y }, t.terrain.clone()))
        .collect()
}

/// What lies between `a` and `b` on `terrain`: a blocking cell outranks cover.
pub fn line(a: Cell, b: Cell, terrain: &BTreeMap<Cell, Terrain>) -> Line {
    if !path_clear(a, b, terrain, |t| t.blocking) {
        return Line::Blocked;
    }
    if path_clear(a, b, terrain, |t| t.cover.is_some()) {
        return Line::Clear;
    }
    let mut kinds: Vec<&str> = terrain
        .values()
        .filter_map(|t| t.cover.as_deref())
        .collect();
    kinds.sort_unstable();
    kinds.dedup();
    Line::Cover(
        kinds
            .into_iter()
            .filter(|k| !path_clear(a, b, terrain, |t| t.cover.as_deref() == Some(*k)))
            .map(|k| {
                // As the terrain says itself: a cover called `cover` is not `cover cover`.
                Terrain {
                    cover: Some(k.to_owned()),
                    ..Terrain::default()
                }
                .to_string()
            })
            .collect(),
    )
}

/// Every other token on the map as seen from `c`: first this seat's characters who may act
/// now (what they can do to it is the question of the moment), then the rest nearest first.
/// Empty when `c` is not on the map.
pub fn bearings(m: &Model, c: &CombatantView) -> Vec<Bearing> {
    let Some(scene) = &m.scene else {
        return Vec::new();
    };
    let Some((x, y)) = c.position else {
        return Vec::new();
    };
    let here = Cell { x, y };
    let terrain = terrain(scene);
    let diagonal = scene
        .grid
        .as_ref()
        .map_or(Diagonal::Alternating, |g| g.diagonal);
    let acting = m.my_turn();
    let mut others: Vec<(bool, u64, &CombatantView, Cell)> = scene
        .combatants
        .iter()
        .filter(|o| o.id != c.id)
        .filter_map(|o| {
            let (ox, oy) = o.position?;
            let there = Cell { x: ox, y: oy };
            let first = acting.contains(&o.id.as_str());
            Some((!first, distance(here, there, diagonal), o, there))
        })
        .collect();
    others.sort_by(|a, b| (a.0, a.1, &a.2.id).cmp(&(b.0, b.1, &b.2.id)));
    others
        .into_iter()
        .map(|(_, cells, o, there)| Bearing {
            id: o.id.clone(),
            length: match &scene.grid {
                Some(g) => format!(
                    "{} {}",
                    cells.saturating_mul(u64::from(g.cell_size)),
                    g.unit
                ),
                None => format!("{cells} cells"),
            },
            line: line(here, there, &terrain),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(marked: &[(i32, i32, Terrain)]) -> BTreeMap<Cell, Terrain> {
        marked
            .iter()
            .map(|(x, y, t)| (Cell { x: *x, y: *y }, t.clone()))
            .collect()
    }

    fn wall() -> Terrain {
        Terrain {
            blocking: true,
            ..Terrain::default()
        }
    }

    fn cover(kind: &str) -> Terrain {
        Terrain {
            cover: Some(kind.into()),
            ..Terrain::default()
        }
    }

    #[test]
    fn the_line_is_clear_behind_cover_or_blocked_as_the_grid_model_says() {
        let c = |x, y| Cell { x, y };
        let map = cells(&[
            (4, 1, cover("half")),
            (2, 3, wall()),
            (6, 6, cover("cover")),
            (7, 1, wall()),
            (7, 2, cover("half")),
            // Two covers of different kinds meeting corner to corner at (9.5, 9.5).
            (9, 10, cover("half")),
            (10, 9, cover("full")),
        ]);
        let cases = [
            // Straight through the half cover at (4, 1).
            ((2, 1), (5, 1), Line::Cover(vec!["half cover".into()])),
            // Down through the wall at (2, 3).
            ((2, 1), (2, 5), Line::Blocked),
            // A diagonal through nothing marked.
            ((2, 1), (4, 3), Line::Clear),
            // A cover called `cover` reads `cover`.
            ((5, 5), (7, 7), Line::Cover(vec!["cover".into()])),
            // Wall and cover on one line: the wall decides.
            ((7, 0), (7, 3), Line::Blocked),
            // The cells of the two ends never count: standing in cover is not behind it.
            ((4, 1), (4, 0), Line::Clear),
            // Slipping between two covers that meet at a corner: behind cover, of no one kind.
            ((9, 9), (10, 10), Line::Cover(vec![])),
        ];
        for (a, b, want) in cases {
            assert_eq!(line(c(a.0, a.1), c(b.0, b.1), &map), want, "{a:?} to {b:?}");
            // The same both ways.
            assert_eq!(line(c(b.0, b.1), c(a.0, a.1), &map), want, "{b:?} to {a:?}");
        }
        assert_eq!(Line::Cover(vec![]).to_string(), "behind cover");
        assert_eq!(
            Line::Cover(vec!["half cover".into()]).to_string(),
            "behind half cover"
        );
    }
}

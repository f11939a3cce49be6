//! The square grid: cells, the distance between them, the terrain of each cell, and how each
//! system measures it ([`GridSpec`]: the unit it counts in and how many units a cell is, such
//! as 1 m for GRIMWIRE or 5 ft for a system that counts feet). Rules work in cells; refusals and
//! outputs speak in the system's unit through [`GridSpec::length`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// How a system measures the grid and the covers its rules know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GridSpec {
    /// The unit distances are said in: `m`, `ft`.
    pub unit: &'static str,
    /// How many units one cell is.
    pub cell_size: u32,
    /// The kinds of cover a cell may give under this system's rules, in its words.
    pub covers: &'static [&'static str],
}

impl GridSpec {
    /// One cell is one metre; no named covers. What a system gets unless it says otherwise.
    pub const METRES: GridSpec = GridSpec {
        unit: "m",
        cell_size: 1,
        covers: &[],
    };

    /// `cells` as a length in the system's unit: `12 m`, `30 ft`.
    pub fn length(&self, cells: u64) -> String {
        format!(
            "{} {}",
            cells.saturating_mul(u64::from(self.cell_size)),
            self.unit
        )
    }

    /// A length in the system's unit as whole cells, rounding down (a 5-ft-cell system: 12 ft
    /// is 2 cells).
    pub fn cells(&self, length: u64) -> u64 {
        length / u64::from(self.cell_size.max(1))
    }
}

/// What a cell is like, beyond being open ground. The GM sets it; a system's rules read it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Terrain {
    /// Hard going: rubble, mud, undergrowth.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub difficult: bool,
    /// Nothing passes: a wall, a pillar.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub blocking: bool,
    /// The cover it gives, one of the system's [`GridSpec::covers`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover: Option<String>,
}

impl Terrain {
    /// Open ground: nothing to record.
    pub fn is_open(&self) -> bool {
        *self == Terrain::default()
    }
}

/// `difficult, blocking, half cover`, or `open ground`: how the log and the client say it.
impl std::fmt::Display for Terrain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut words: Vec<String> = Vec::new();
        if self.difficult {
            words.push("difficult".into());
        }
        if self.blocking {
            words.push("blocking".into());
        }
        if let Some(cover) = &self.cover {
            // A system whose one cover is called `cover` reads `cover`, not `cover cover`.
            words.push(if cover.contains("cover") {
                cover.clone()
            } else {
                format!("{cover} cover")
            });
        }
        if words.is_empty() {
            f.write_str("open ground")
        } else {
            f.write_str(&words.join(", "))
        }
    }
}

/// One cell's terrain, as the state lists it (JSON keys are strings, so the map is a list).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct TerrainCell {
    x: i32,
    y: i32,
    #[serde(flatten)]
    terrain: Terrain,
}

/// Serde for the terrain map as a list of cells in cell order.
pub mod terrain_list {
    use super::*;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(
        map: &BTreeMap<Cell, Terrain>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let cells: Vec<TerrainCell> = map
            .iter()
            .map(|(c, t)| TerrainCell {
                x: c.x,
                y: c.y,
                terrain: t.clone(),
            })
            .collect();
        cells.serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<BTreeMap<Cell, Terrain>, D::Error> {
        let cells = Vec::<TerrainCell>::deserialize(deserializer)?;
        Ok(cells
            .into_iter()
            .map(|c| (Cell::new(c.x, c.y), c.terrain))
            .collect())
    }
}

/// A grid cell. Coordinates are whole cells; negative values are allowed (maps need not start
/// at the origin).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Cell {
    pub x: i32,
    pub y: i32,
}

impl Cell {
    pub const fn new(x: i32, y: i32) -> Self {
        Cell { x, y }
    }
}

/// How a diagonal step counts. A table option (`grid.diagonal`), because groups disagree and
/// the texts rarely say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Diagonal {
    /// Every diagonal step costs one cell (Chebyshev distance): simple, but a diagonal
    /// dash covers 41% more ground than the numbers say.
    One,
    /// Diagonal steps alternate 1, 2, 1, 2... cells: within 6% of true distance with integers
    /// only. The default.
    Alternating,
    /// A diagonal costs two cells, as if moving around the corner (Manhattan distance).
    Two,
}

impl Diagonal {
    pub const KEY_VALUES: [(&'static str, Diagonal); 3] = [
        ("one", Diagonal::One),
        ("alternating", Diagonal::Alternating),
        ("two", Diagonal::Two),
    ];

    pub fn parse(s: &str) -> Option<Diagonal> {
        Self::KEY_VALUES
            .iter()
            .find(|(k, _)| *k == s)
            .map(|(_, d)| *d)
    }
}

/// Distance in cells (= metres) between two cells under a diagonal rule.
pub fn distance(a: Cell, b: Cell, rule: Diagonal) -> u64 {
    let dx = (i64::from(a.x) - i64::from(b.x)).unsigned_abs();
    let dy = (i64::from(a.y) - i64::from(b.y)).unsigned_abs();
    let (long, short) = if dx >= dy { (dx, dy) } else { (dy, dx) };
    match rule {
        Diagonal::One => long,
        Diagonal::Two => long + short,
        Diagonal::Alternating => long + short / 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_are_said_in_the_systems_unit() {
        let feet = GridSpec {
            unit: "ft",
            cell_size: 5,
            covers: &["light", "heavy"],
        };
        assert_eq!(feet.length(6), "30 ft");
        assert_eq!(feet.cells(30), 6);
        assert_eq!(feet.cells(12), 2);
        assert_eq!(GridSpec::METRES.length(12), "12 m");
        assert_eq!(GridSpec::METRES.cells(12), 12);
    }

    #[test]
    fn the_terrain_map_is_written_as_a_list_of_cells() {
        #[derive(Serialize, Deserialize, PartialEq, Debug)]
        struct Holder {
            #[serde(with = "terrain_list")]
            terrain: BTreeMap<Cell, Terrain>,
        }
        let h = Holder {
            terrain: [
                (
                    Cell::new(2, -1),
                    Terrain {
                        difficult: true,
                        ..Terrain::default()
                    },
                ),
                (
                    Cell::new(0, 0),
                    Terrain {
                        cover: Some("half".into()),
                        blocking: true,
                        ..Terrain::default()
                    },
                ),
            ]
            .into(),
        };
        let json = serde_json::to_string(&h).unwrap_or_default();
        assert_eq!(
            json,
            r#"{"terrain":[{"x":0,"y":0,"blocking":true,"cover":"half"},{"x":2,"y":-1,"difficult":true}]}"#
        );
        assert_eq!(serde_json::from_str::<Holder>(&json).ok(), Some(h));
        assert!(Terrain::default().is_open());
        let back = serde_json::from_str::<Holder>(&json).unwrap_or(Holder {
            terrain: BTreeMap::new(),
        });
        let said: Vec<String> = back.terrain.values().map(ToString::to_string).collect();
        assert_eq!(said, ["blocking, half cover", "difficult"]);
        assert_eq!(Terrain::default().to_string(), "open ground");
        let named = Terrain {
            cover: Some("cover".into()),
            ..Terrain::default()
        };
        assert_eq!(named.to_string(), "cover");
    }

    #[test]
    fn diagonal_rules_give_the_documented_distances() {
        let a = Cell::new(0, 0);
        let b = Cell::new(4, 3);
        assert_eq!(distance(a, b, Diagonal::One), 4);
        assert_eq!(distance(a, b, Diagonal::Alternating), 5);
        assert_eq!(distance(a, b, Diagonal::Two), 7);
        assert_eq!(distance(b, a, Diagonal::Alternating), 5);
        assert_eq!(distance(a, Cell::new(-6, 6), Diagonal::Alternating), 9);
        // Away from the origin: (1, 1) to (4, 3) is 3 across and 2 down.
        let c = Cell::new(1, 1);
        let d = Cell::new(4, 3);
        assert_eq!(distance(c, d, Diagonal::One), 3);
        assert_eq!(distance(c, d, Diagonal::Alternating), 4);
        assert_eq!(distance(d, c, Diagonal::Two), 5);
        for (name, rule) in Diagonal::KEY_VALUES {
            assert_eq!(Diagonal::parse(name), Some(rule));
        }
        assert_eq!(Diagonal::parse("diagonal"), None);
    }
}

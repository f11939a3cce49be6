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

/// Whether the straight line between the centres of `a` and `b` is clear of every cell that
/// `obstacle` picks out of `terrain`. The line is blocked by an obstacle it passes through
/// (more than touching its edge or corner), and by two obstacles that meet corner to corner
/// where the line slips between them: a diagonal gap between two wall cells is sealed, while a
/// creature may still reach round the corner of a single wall. The cells of `a` and `b`
/// themselves never block.
///
/// The cost is one test per marked cell, never one per cell of the line: positions are a
/// client's numbers and may be far apart, while the terrain is only what the GM has set.
pub fn path_clear(
    a: Cell,
    b: Cell,
    terrain: &BTreeMap<Cell, Terrain>,
    obstacle: impl Fn(&Terrain) -> bool,
) -> bool {
    let seg = Segment::new(a, b);
    let blocked = |c: &Cell| *c != a && *c != b && terrain.get(c).is_some_and(&obstacle);
    !terrain
        .iter()
        .any(|(c, t)| obstacle(t) && blocked(c) && (seg.enters(*c) || seg.pinched_at(*c, &blocked)))
}

/// A segment between two cell centres, in doubled coordinates so that centres are even and
/// cell corners odd: every test below is exact integer arithmetic.
struct Segment {
    from: (i128, i128),
    to: (i128, i128),
}

impl Segment {
    fn new(a: Cell, b: Cell) -> Self {
        Segment {
            from: (2 * i128::from(a.x), 2 * i128::from(a.y)),
            to: (2 * i128::from(b.x), 2 * i128::from(b.y)),
        }
    }

    fn delta(&self) -> (i128, i128) {
        (self.to.0 - self.from.0, self.to.1 - self.from.1)
    }

    /// Which side of the line a point lies on: positive, negative, or 0 on it.
    fn side(&self, p: (i128, i128)) -> i128 {
        let (dx, dy) = self.delta();
        dx * (p.1 - self.from.1) - dy * (p.0 - self.from.0)
    }

    /// Whether some point of the segment lies strictly inside the cell `c`.
    fn enters(&self, c: Cell) -> bool {
        // The parameters t in [0, 1] of the segment's points, as fractions num/den with
        // den > 0; the open square narrows [0, 1] to (lower, upper) on each axis.
        let mut lower = (0i128, 1i128);
        let mut upper = (1i128, 1i128);
        let (dx, dy) = self.delta();
        for (start, d, centre) in [
            (self.from.0, dx, 2 * i128::from(c.x)),
            (self.from.1, dy, 2 * i128::from(c.y)),
        ] {
            let (lo, hi) = (centre - 1 - start, centre + 1 - start);
            if d == 0 {
                if lo >= 0 || hi <= 0 {
                    return false;
                }
                continue;
            }
            let (t1, t2) = if d > 0 {
                ((lo, d), (hi, d))
            } else {
                ((-hi, -d), (-lo, -d))
            };
            if t1.0 * lower.1 > lower.0 * t1.1 {
                lower = t1;
            }
            if t2.0 * upper.1 < upper.0 * t2.1 {
                upper = t2;
            }
        }
        lower.0 * upper.1 < upper.0 * lower.1
    }

    /// Whether the segment passes exactly through a corner of `c` (which it only touches
    /// there) and the cell across that corner from `c` is also `blocked`.
    fn pinched_at(&self, c: Cell, blocked: &impl Fn(&Cell) -> bool) -> bool {
        let centre = (2 * i128::from(c.x), 2 * i128::from(c.y));
        if self.side(centre) == 0 {
            return false;
        }
        [(-1i32, -1i32), (-1, 1), (1, -1), (1, 1)]
            .into_iter()
            .any(|(sx, sy)| {
                let corner = (centre.0 + i128::from(sx), centre.1 + i128::from(sy));
                let within = |p: i128, a: i128, b: i128| a.min(b) < p && p < a.max(b);
                let on_segment = self.side(corner) == 0
                    && (within(corner.0, self.from.0, self.to.0)
                        || within(corner.1, self.from.1, self.to.1));
                // The cell across the corner: the centre mirrored through it.
                on_segment && blocked(&Cell::new(c.x.saturating_add(sx), c.y.saturating_add(sy)))
            })
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

    #[test]
    fn a_path_is_blocked_by_what_it_crosses_and_by_a_sealed_diagonal_only() {
        let wall = |cells: &[(i32, i32)]| -> BTreeMap<Cell, Terrain> {
            cells
                .iter()
                .map(|&(x, y)| {
                    let t = Terrain {
                        blocking: true,
                        ..Terrain::default()
                    };
                    (Cell::new(x, y), t)
                })
                .collect()
        };
        let is_wall = |t: &Terrain| t.blocking;
        // (from, to, walls, clear?)
        type Case = ((i32, i32), (i32, i32), &'static [(i32, i32)], bool);
        let cases: &[Case] = &[
            // Neighbours side by side: nothing lies between them.
            ((0, 0), (1, 0), &[(0, 1), (1, 1)], true),
            // Two cells apart with a wall in the middle.
            ((0, 0), (2, 0), &[(1, 0)], false),
            // A wall beside the line, not on it.
            ((0, 0), (2, 0), &[(1, 1)], true),
            // Diagonal neighbours round the corner of one wall: reachable.
            ((0, 0), (1, 1), &[(1, 0)], true),
            // The same with walls on both sides of the corner: sealed.
            ((0, 0), (1, 1), &[(1, 0), (0, 1)], false),
            // A long diagonal through a corner where two walls meet.
            ((0, 0), (3, 3), &[(2, 1), (1, 2)], false),
            // The line (0,0)-(3,1) crosses the cell (1,0) (at t in 0..0.5 it has y < 0.5).
            ((0, 0), (3, 1), &[(1, 0)], false),
            // ... and (2,1), but not (1,1) (y at x=1 is 1/3, not above 0.5) nor (2,0).
            ((0, 0), (3, 1), &[(2, 1)], false),
            ((0, 0), (3, 1), &[(1, 1)], true),
            ((0, 0), (3, 1), &[(2, 0)], true),
            // It slips through the corner (1.5, 0.5) that (1,1) and (2,0) share: both sealed.
            ((0, 0), (3, 1), &[(1, 1), (2, 0)], false),
            // A wall beyond the far end does not count; nor the endpoints' own cells.
            ((0, 0), (2, 0), &[(3, 0), (0, 0), (2, 0)], true),
            // Far apart, from a client's extreme coordinates: no overflow, one test per wall.
            ((i32::MIN, i32::MIN), (i32::MAX, i32::MAX), &[(0, 0)], false),
            ((i32::MIN, 0), (i32::MAX, 0), &[(0, 1)], true),
        ];
        for (from, to, walls, clear) in cases {
            let (a, b) = (Cell::new(from.0, from.1), Cell::new(to.0, to.1));
            let terrain = wall(walls);
            assert_eq!(
                path_clear(a, b, &terrain, is_wall),
                *clear,
                "{from:?} to {to:?} past {walls:?}"
            );
            assert_eq!(path_clear(b, a, &terrain, is_wall), *clear, "reversed");
        }
        // Only what the predicate picks blocks: a difficult cell is no wall.
        let mut rough = wall(&[(1, 0)]);
        if let Some(t) = rough.get_mut(&Cell::new(1, 0)) {
            t.blocking = false;
            t.difficult = true;
        }
        assert!(path_clear(
            Cell::new(0, 0),
            Cell::new(2, 0),
            &rough,
            is_wall
        ));
    }
}

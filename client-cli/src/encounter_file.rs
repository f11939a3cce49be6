//! Encounter files: the scene a GM prepares before the session, in TOML (docs/CLIENT.md,
//! "Encounter files"): the map's size, its terrain cells in the core's grid model, the NPCs
//! from their sheets and where every token stands. `tablehold encounter load FILE` reads one
//! here, checks it whole, and only then sends it to the table as the requests the GM would
//! type (`npc add`, then the core's `rule.terrain` and `rule.move` rulings).
//!
//! Pure but for reading the sheets the file names (relative to the file). Every mistake is
//! reported as `FILE:LINE: FIELD: what is wrong`, the line found from the TOML spans, so that
//! a GM can fix the file without guessing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use tablehold_rules::grid::Cell;
use toml::Spanned;

/// A file that cannot be loaded, with where and why.
#[derive(Debug, thiserror::Error)]
pub enum EncounterFileError {
    #[error("{}: cannot read the encounter file: {source}", path.display())]
    Unreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The TOML does not parse, or a field has the wrong shape or is missing.
    #[error("{}:{line}: {message}", path.display())]
    Syntax {
        path: PathBuf,
        line: usize,
        message: String,
    },
    /// The file parses but says something that cannot be: a cell off the map, a sheet
    /// missing, two tokens on one cell.
    #[error("{}:{line}: {field}: {message}", path.display())]
    Invalid {
        path: PathBuf,
        line: usize,
        field: String,
        message: String,
    },
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileDoc {
    #[serde(default)]
    name: Option<String>,
    map: Spanned<MapDoc>,
    #[serde(default)]
    terrain: Vec<Spanned<TerrainDoc>>,
    #[serde(default)]
    npc: Vec<NpcDoc>,
    #[serde(default)]
    place: Vec<PlaceDoc>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MapDoc {
    width: i32,
    height: i32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TerrainDoc {
    at: Spanned<[i32; 2]>,
    #[serde(default)]
    difficult: bool,
    #[serde(default)]
    blocking: bool,
    #[serde(default)]
    cover: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NpcDoc {
    sheet: Spanned<String>,
    at: Spanned<[i32; 2]>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlaceDoc {
    id: Spanned<String>,
    at: Spanned<[i32; 2]>,
}

/// One cell's terrain, as the `rule.terrain` ruling takes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TerrainCell {
    pub at: Cell,
    pub difficult: bool,
    pub blocking: bool,
    pub cover: Option<String>,
}

/// A checked encounter file: what to send, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Encounter {
    pub name: Option<String>,
    pub width: i32,
    pub height: i32,
    pub terrain: Vec<TerrainCell>,
    /// Each NPC's sheet (its TOML text) and its id.
    pub npcs: Vec<(String, String)>,
    /// Where each token stands: the NPCs', then the places the file gives.
    pub positions: Vec<(String, Cell)>,
}

/// Reads and checks the file at `path`.
pub fn load(path: &Path) -> Result<Encounter, EncounterFileError> {
    let text = std::fs::read_to_string(path).map_err(|source| EncounterFileError::Unreadable {
        path: path.to_owned(),
        source,
    })?;
    let base = path.parent().unwrap_or(Path::new("."));
    parse(path, &text, &|sheet| {
        std::fs::read_to_string(base.join(sheet))
    })
}

/// Checks `text` (the file at `path`), reading the sheets it names with `read`.
pub fn parse(
    path: &Path,
    text: &str,
    read: &dyn Fn(&str) -> std::io::Result<String>,
) -> Result<Encounter, EncounterFileError> {
    let line_of = |offset: usize| {
        text.get(..offset.min(text.len()))
            .unwrap_or(text)
            .matches('\n')
            .count()
            + 1
    };
    let doc: FileDoc = toml::from_str(text).map_err(|e| EncounterFileError::Syntax {
        path: path.to_owned(),
        line: e.span().map_or(1, |s| line_of(s.start)),
        message: e.message().to_owned(),
    })?;
    let invalid = |span: std::ops::Range<usize>, field: String, message: String| {
        EncounterFileError::Invalid {
            path: path.to_owned(),
            line: line_of(span.start),
            field,
            message,
        }
    };
    let map = doc.map.get_ref();
    if map.width < 1 || map.height < 1 {
        return Err(invalid(
            doc.map.span(),
            "map".into(),
            format!(
                "the map must be at least 1x1 cells, not {}x{}",
                map.width, map.height
            ),
        ));
    }
    let on_map = |at: &Spanned<[i32; 2]>, field: String| {
        let [x, y] = *at.get_ref();
        if (0..map.width).contains(&x) && (0..map.height).contains(&y) {
            Ok(Cell { x, y })
        } else {
            Err(invalid(
                at.span(),
                field,
                format!(
                    "({x}, {y}) is off the {}x{} map (x from 0 to {}, y from 0 to {})",
                    map.width,
                    map.height,
                    map.width - 1,
                    map.height - 1
                ),
            ))
        }
    };
    let mut terrain = Vec::new();
    for (i, t) in doc.terrain.iter().enumerate() {
        let field = format!("terrain[{i}]");
        let cell = t.get_ref();
        let at = on_map(&cell.at, format!("{field}.at"))?;
        if !cell.difficult && !cell.blocking && cell.cover.is_none() {
            return Err(invalid(
                t.span(),
                field,
                "says nothing of the cell: give `difficult`, `blocking` or `cover`".into(),
            ));
        }
        if terrain.iter().any(|c: &TerrainCell| c.at == at) {
            return Err(invalid(
                cell.at.span(),
                format!("{field}.at"),
                format!("({}, {}) is given twice", at.x, at.y),
            ));
        }
        terrain.push(TerrainCell {
            at,
            difficult: cell.difficult,
            blocking: cell.blocking,
            cover: cell.cover.as_ref().map(|c| c.get_ref().clone()),
        });
    }
    let mut npcs = Vec::new();
    let mut positions: Vec<(String, Cell)> = Vec::new();
    let mut taken: BTreeMap<Cell, String> = BTreeMap::new();
    let mut stand = |id: &str,
                     at: &Spanned<[i32; 2]>,
                     field: String,
                     positions: &mut Vec<(String, Cell)>|
     -> Result<(), EncounterFileError> {
        let cell = on_map(at, field.clone())?;
        if let Some(other) = taken.get(&cell) {
            return Err(invalid(
                at.span(),
                field,
                format!("({}, {}) is {other}'s already", cell.x, cell.y),
            ));
        }
        if terrain.iter().any(|t| t.at == cell && t.blocking) {
            return Err(invalid(
                at.span(),
                field,
                format!("({}, {}) is blocking terrain", cell.x, cell.y),
            ));
        }
        if positions.iter().any(|(p, _)| p == id) {
            return Err(invalid(at.span(), field, format!("`{id}` is placed twice")));
        }
        taken.insert(cell, id.to_owned());
        positions.push((id.to_owned(), cell));
        Ok(())
    };
    for (i, npc) in doc.npc.iter().enumerate() {
        let field = format!("npc[{i}]");
        let file = npc.sheet.get_ref();
        let sheet = read(file).map_err(|e| {
            invalid(
                npc.sheet.span(),
                format!("{field}.sheet"),
                format!("cannot read `{file}` (relative to the encounter file): {e}"),
            )
        })?;
        let id = sheet
            .parse::<toml::Table>()
            .ok()
            .and_then(|t| t.get("id").and_then(|v| v.as_str()).map(str::to_owned))
            .ok_or_else(|| {
                invalid(
                    npc.sheet.span(),
                    format!("{field}.sheet"),
                    format!("`{file}` is not a sheet with an `id`"),
                )
            })?;
        stand(&id, &npc.at, format!("{field}.at"), &mut positions)?;
        npcs.push((sheet, id));
    }
    for (i, place) in doc.place.iter().enumerate() {
        let id = place.id.get_ref();
        stand(id, &place.at, format!("place[{i}].at"), &mut positions)?;
    }
    Ok(Encounter {
        name: doc.name,
        width: map.width,
        height: map.height,
        terrain,
        npcs,
        positions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOBLIN: &str = "id = \"goblin-1\"\nname = \"Goblin\"\n";

    fn check(text: &str) -> Result<Encounter, String> {
        let read = |name: &str| match name {
            "goblin-1.toml" => Ok(GOBLIN.to_owned()),
            other => Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("no file {other}"),
            )),
        };
        parse(Path::new("ambush.toml"), text, &read).map_err(|e| e.to_string())
    }

    const GOOD: &str = r#"name = "The ambush"
[map]
width = 12
height = 8

[[terrain]]
at = [4, 3]
blocking = true

[[terrain]]
at = [4, 4]
cover = "cover"

[[npc]]
sheet = "goblin-1.toml"
at = [5, 3]

[[place]]
id = "aune"
at = [2, 3]
"#;

    #[test]
    fn a_good_file_becomes_the_rulings_to_send() {
        let e = check(GOOD).expect("a good file");
        assert_eq!((e.width, e.height), (12, 8));
        assert_eq!(e.name.as_deref(), Some("The ambush"));
        assert_eq!(
            e.terrain,
            [
                TerrainCell {
                    at: Cell { x: 4, y: 3 },
                    difficult: false,
                    blocking: true,
                    cover: None
                },
                TerrainCell {
                    at: Cell { x: 4, y: 4 },
                    difficult: false,
                    blocking: false,
                    cover: Some("cover".into())
                },
            ]
        );
        assert_eq!(e.npcs, [(GOBLIN.to_owned(), "goblin-1".to_owned())]);
        assert_eq!(
            e.positions,
            [
                ("goblin-1".to_owned(), Cell { x: 5, y: 3 }),
                ("aune".to_owned(), Cell { x: 2, y: 3 }),
            ]
        );
    }

    // Each case: a change to the good file, and the error naming file, line and field.
    #[test]
    fn each_mistake_names_the_file_the_line_and_the_field() {
        let cases: &[(&str, &str, &str)] = &[
            (
                "at = [5, 3]",
                "at = [15, 3]",
                "ambush.toml:16: npc[0].at: (15, 3) is off the 12x8 map (x from 0 to 11, y from 0 to 7)",
            ),
            (
                "at = [2, 3]",
                "at = [5, 3]",
                "ambush.toml:20: place[0].at: (5, 3) is goblin-1's already",
            ),
            (
                "at = [2, 3]",
                "at = [4, 3]",
                "ambush.toml:20: place[0].at: (4, 3) is blocking terrain",
            ),
            (
                "goblin-1.toml",
                "goblin-9.toml",
                "ambush.toml:15: npc[0].sheet: cannot read `goblin-9.toml` (relative to the encounter file): no file goblin-9.toml",
            ),
            (
                "cover = \"cover\"",
                "",
                "ambush.toml:10: terrain[1]: says nothing of the cell: give `difficult`, `blocking` or `cover`",
            ),
            (
                "at = [4, 4]",
                "at = [4, 3]",
                "ambush.toml:11: terrain[1].at: (4, 3) is given twice",
            ),
            (
                "width = 12",
                "width = 0",
                "ambush.toml:2: map: the map must be at least 1x1 cells, not 0x8",
            ),
            (
                "id = \"aune\"",
                "id = \"goblin-1\"",
                "ambush.toml:20: place[0].at: `goblin-1` is placed twice",
            ),
        ];
        for (from, to, said) in cases {
            let text = GOOD.replacen(from, to, 1);
            assert_eq!(check(&text).expect_err(said), *said, "{from} -> {to}");
        }
        // The parser's own: a missing field, a misspelt one, a value of the wrong kind.
        let missing = check(&GOOD.replacen("at = [5, 3]\n", "", 1)).expect_err("no at");
        assert!(
            missing.starts_with("ambush.toml:14: missing field `at`"),
            "{missing}"
        );
        let unknown = check(&GOOD.replacen("blocking", "blokcing", 1)).expect_err("misspelt");
        assert!(
            unknown.starts_with("ambush.toml:8: unknown field `blokcing`"),
            "{unknown}"
        );
        let kind = check(&GOOD.replacen("height = 8", "height = \"8\"", 1)).expect_err("text");
        assert!(kind.starts_with("ambush.toml:4: "), "{kind}");
    }
}

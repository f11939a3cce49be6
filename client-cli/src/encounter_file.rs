//! Encounter files: the scene a GM prepares before the session, in TOML (docs/CLIENT.md,
//! "Encounter files"): the map's size, its terrain cells in the core's grid model, the NPCs
//! from their sheets or from the system's shipped example NPCs (`monster = "NAME"`, through
//! `examples`), and where every token stands. `tablehold encounter load FILE` reads one
//! here, checks it whole, and only then sends it to the table as the requests the GM would
//! type (`npc add`, then the core's `rule.terrain` and `rule.move` rulings).
//!
//! Pure but for reading the sheets the file names (relative to the file); the examples are in
//! the binary. Every mistake is reported as `FILE:LINE: FIELD: what is wrong`, the line found
//! from the TOML spans, so that a GM can fix the file without guessing.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::str::FromStr as _;

use serde::Deserialize;
use tablehold_rules::grid::Cell;
use tablehold_systems::SystemId;
use toml::Spanned;

use crate::examples;

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
    /// The system the file is for: needed to name its example NPCs, and checked against the
    /// table's.
    #[serde(default)]
    system: Option<Spanned<String>>,
    map: Spanned<MapDoc>,
    #[serde(default)]
    terrain: Vec<Spanned<TerrainDoc>>,
    #[serde(default)]
    npc: Vec<Spanned<NpcDoc>>,
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
    /// A sheet file, relative to the encounter file.
    #[serde(default)]
    sheet: Option<Spanned<String>>,
    /// Or one of the system's shipped example NPCs, by name.
    #[serde(default)]
    monster: Option<Spanned<String>>,
    /// The id it joins under, instead of its sheet's (two raiders from one example).
    #[serde(default)]
    id: Option<Spanned<String>>,
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

/// One NPC to add.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Npc {
    /// Its sheet, TOML, with the id the file gives it.
    pub sheet: String,
    pub id: String,
    /// The shipped example it was made from (`monster = "NAME"`), or `None` for a sheet file.
    pub example: Option<String>,
}

/// A checked encounter file: what to send, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Encounter {
    pub name: Option<String>,
    /// The system the file says it is for, and the line that says so.
    pub system: Option<(SystemId, usize)>,
    pub width: i32,
    pub height: i32,
    pub terrain: Vec<TerrainCell>,
    pub npcs: Vec<Npc>,
    /// Where each token stands: the NPCs', then the places the file gives.
    pub positions: Vec<(String, Cell)>,
}

impl Encounter {
    /// Whether the file may be loaded at a table of `table_system` (the id its `state` names):
    /// a file that says its system must say the table's, or its example NPCs and covers would
    /// be another system's.
    pub fn fits_table(&self, path: &Path, table_system: &str) -> Result<(), EncounterFileError> {
        let Some((system, line)) = self.system else {
            return Ok(());
        };
        match SystemId::from_str(table_system) {
            Ok(table) if table == system => Ok(()),
            _ => Err(EncounterFileError::Invalid {
                path: path.to_owned(),
                line,
                field: "system".into(),
                message: format!("the file is for {system}, but the table plays {table_system}"),
            }),
        }
    }
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
    let invalid =
        |span: Range<usize>, field: String, message: String| EncounterFileError::Invalid {
            path: path.to_owned(),
            line: line_of(span.start),
            field,
            message,
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
    let system = match &doc.system {
        Some(name) => Some(
            SystemId::from_str(name.get_ref())
                .map(|s| (s, line_of(name.span().start)))
                .map_err(|e| invalid(name.span(), "system".into(), e.to_string()))?,
        ),
        None => None,
    };
    for (i, entry) in doc.npc.iter().enumerate() {
        let field = format!("npc[{i}]");
        let npc = entry.get_ref();
        let (sheet, example) = npc_sheet(npc, entry.span(), &field, system, read, &invalid)?;
        let (sheet, id) = npc_id(
            npc,
            entry.span(),
            &field,
            sheet,
            example.as_deref(),
            &invalid,
        )?;
        if npcs.iter().any(|n: &Npc| n.id == id) {
            return Err(invalid(
                entry.span(),
                field,
                format!("`{id}` joins twice: give this one an id of its own (`id = \"{id}-2\"`)"),
            ));
        }
        stand(&id, &npc.at, format!("{field}.at"), &mut positions)?;
        npcs.push(Npc { sheet, id, example });
    }
    for (i, place) in doc.place.iter().enumerate() {
        let id = place.id.get_ref();
        stand(id, &place.at, format!("place[{i}].at"), &mut positions)?;
    }
    Ok(Encounter {
        name: doc.name,
        system,
        width: map.width,
        height: map.height,
        terrain,
        npcs,
        positions,
    })
}

/// Makes the error at a span of the file, with its field and message.
type Invalid<'a> = dyn Fn(Range<usize>, String, String) -> EncounterFileError + 'a;

/// An NPC entry's sheet, as TOML text, and the shipped example's name when it names one: from
/// exactly one of `sheet` (read with `read`) and `monster` (the file's `system`'s example).
fn npc_sheet(
    npc: &NpcDoc,
    entry: Range<usize>,
    field: &str,
    system: Option<(SystemId, usize)>,
    read: &dyn Fn(&str) -> std::io::Result<String>,
    invalid: &Invalid<'_>,
) -> Result<(String, Option<String>), EncounterFileError> {
    match (&npc.sheet, &npc.monster) {
        (Some(file), None) => {
            let sheet = read(file.get_ref()).map_err(|e| {
                invalid(
                    file.span(),
                    format!("{field}.sheet"),
                    format!(
                        "cannot read `{}` (relative to the encounter file): {e}",
                        file.get_ref()
                    ),
                )
            })?;
            Ok((sheet, None))
        }
        (None, Some(monster)) => {
            let at_monster =
                |message: String| invalid(monster.span(), format!("{field}.monster"), message);
            let Some((system, _)) = system else {
                let ids: Vec<&str> = SystemId::ALL.iter().map(|s| s.as_str()).collect();
                return Err(at_monster(format!(
                    "a shipped example NPC needs the file to say its system first \
                     (`system = \"ID\"`, one of {})",
                    ids.join(", ")
                )));
            };
            let found = examples::npc(system, monster.get_ref()).map_err(at_monster)?;
            Ok((found.text.to_owned(), Some(found.name.to_owned())))
        }
        (Some(_), Some(_)) => Err(invalid(
            entry,
            field.to_owned(),
            "gives both `sheet` and `monster`: an NPC comes from one".into(),
        )),
        (None, None) => Err(invalid(
            entry,
            field.to_owned(),
            "gives neither `sheet` (a sheet file) nor `monster` (a shipped example NPC)".into(),
        )),
    }
}

/// The sheet as it joins and the id it joins under: the entry's `id` written into the sheet
/// when it gives one (the sheet's own text kept otherwise), else the sheet's own `id`.
fn npc_id(
    npc: &NpcDoc,
    entry: Range<usize>,
    field: &str,
    sheet: String,
    example: Option<&str>,
    invalid: &Invalid<'_>,
) -> Result<(String, String), EncounterFileError> {
    let (what, kind, span) = match (&npc.sheet, example) {
        (Some(file), _) => (format!("`{}`", file.get_ref()), "sheet", file.span()),
        (None, Some(name)) => (
            format!("the example `{name}`"),
            "monster",
            npc.monster.as_ref().map_or(entry, Spanned::span),
        ),
        (None, None) => ("the sheet".to_owned(), "sheet", entry),
    };
    let not_a_sheet = || {
        invalid(
            span.clone(),
            format!("{field}.{kind}"),
            format!("{what} is not a sheet with an `id`"),
        )
    };
    let mut doc = sheet.parse::<toml::Table>().map_err(|_| not_a_sheet())?;
    let Some(id) = &npc.id else {
        let id = doc
            .get("id")
            .and_then(|v| v.as_str())
            .map(str::to_owned)
            .ok_or_else(not_a_sheet)?;
        return Ok((sheet, id));
    };
    if id.get_ref().trim().is_empty() {
        return Err(invalid(
            id.span(),
            format!("{field}.id"),
            "an id cannot be empty".into(),
        ));
    }
    doc.insert("id".into(), toml::Value::String(id.get_ref().clone()));
    let renamed = toml::to_string(&doc).map_err(|e| {
        invalid(
            span.clone(),
            format!("{field}.{kind}"),
            format!("{what}: {e}"),
        )
    })?;
    Ok((renamed, id.get_ref().clone()))
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
        assert_eq!(
            e.npcs,
            [Npc {
                sheet: GOBLIN.to_owned(),
                id: "goblin-1".to_owned(),
                example: None
            }]
        );
        assert_eq!(e.system, None);
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

    // See: issue #16 (shipped monsters for encounter files). Every system's example NPCs
    // can be named; the file's ids, its system and the examples' own text come through.
    #[test]
    fn an_npc_may_be_a_shipped_example_named_by_the_system_the_file_says() {
        for system in SystemId::ALL {
            let npcs: Vec<examples::Example> = examples::all(system)
                .into_iter()
                .filter(|e| !e.pc)
                .collect();
            // The last: grimwire's first is the file's goblin-1 already.
            let first = npcs.last().expect("an example NPC");
            let text = GOOD.replacen(
                "[map]",
                &format!("system = \"{}\"\n[map]", system.as_str()),
                1,
            ) + &format!(
                "\n[[npc]]\nmonster = \"{0}\"\nat = [7, 1]\n\n[[npc]]\nmonster = \"{0}\"\nid = \"{0}-2\"\nat = [7, 2]\n",
                first.name
            );
            let e = check(&text).unwrap_or_else(|err| panic!("{system}: {err}"));
            assert_eq!(e.system, Some((system, 2)));
            let ids: Vec<&str> = e.npcs.iter().map(|n| n.id.as_str()).collect();
            let own_id = first
                .text
                .parse::<toml::Table>()
                .ok()
                .and_then(|t| t.get("id").and_then(|v| v.as_str()).map(str::to_owned))
                .expect("the example has an id");
            let renamed = format!("{}-2", first.name);
            assert_eq!(ids, ["goblin-1", own_id.as_str(), renamed.as_str()]);
            // As shipped, then as shipped but for the id the file gives it.
            assert_eq!(e.npcs[1].sheet, first.text);
            assert_eq!(e.npcs[1].example.as_deref(), Some(first.name));
            let second: toml::Table = e.npcs[2].sheet.parse().expect("still a sheet");
            let mut want: toml::Table = first.text.parse().expect("a sheet");
            want.insert("id".into(), toml::Value::String(renamed.clone()));
            assert_eq!(second, want);
            assert_eq!(
                e.positions[1..3],
                [
                    (own_id.clone(), Cell { x: 7, y: 1 }),
                    (renamed.clone(), Cell { x: 7, y: 2 })
                ]
            );
            // At the table: its own system fits, another does not (line 2 says the system).
            assert!(
                e.fits_table(Path::new("ambush.toml"), system.as_str())
                    .is_ok()
            );
            let other = SystemId::ALL
                .into_iter()
                .find(|s| *s != system)
                .expect("two systems");
            assert_eq!(
                e.fits_table(Path::new("ambush.toml"), other.as_str())
                    .expect_err("another system")
                    .to_string(),
                format!(
                    "ambush.toml:2: system: the file is for {system}, but the table plays {}",
                    other.as_str()
                )
            );
            // Each mistake names the file, the line and the field.
            let names: Vec<&str> = npcs.iter().map(|e| e.name).collect();
            let pc = examples::all(system)
                .into_iter()
                .find(|e| e.pc)
                .expect("an example character");
            let cases: Vec<(String, String)> = vec![
                (
                    text.replacen(
                        &format!("monster = \"{}\"", first.name),
                        "monster = \"nobody\"",
                        1,
                    ),
                    format!(
                        "ambush.toml:24: npc[1].monster: {system} ships no example NPC `nobody`; \
                         its example NPCs: {}",
                        names.join(", ")
                    ),
                ),
                (
                    text.replacen(
                        &format!("monster = \"{}\"", first.name),
                        &format!("monster = \"{}\"", pc.name),
                        1,
                    ),
                    format!(
                        "ambush.toml:24: npc[1].monster: `{}` is an example player character of \
                         {system}, not an NPC; its example NPCs: {}",
                        pc.name,
                        names.join(", ")
                    ),
                ),
                (
                    text.replacen(&format!("id = \"{renamed}\""), "", 1),
                    format!(
                        "ambush.toml:27: npc[2]: `{own_id}` joins twice: give this one an id of \
                         its own (`id = \"{own_id}-2\"`)"
                    ),
                ),
                (
                    text.replacen(&format!("id = \"{renamed}\""), "id = \" \"", 1),
                    "ambush.toml:29: npc[2].id: an id cannot be empty".to_owned(),
                ),
                (
                    text.replacen(
                        &format!("monster = \"{}\"", first.name),
                        &format!("monster = \"{}\"\nsheet = \"goblin-1.toml\"", first.name),
                        1,
                    ),
                    "ambush.toml:23: npc[1]: gives both `sheet` and `monster`: an NPC comes \
                     from one"
                        .to_owned(),
                ),
                (
                    text.replacen(
                        &format!("monster = \"{}\"\nat = [7, 1]", first.name),
                        "at = [7, 1]",
                        1,
                    ),
                    "ambush.toml:23: npc[1]: gives neither `sheet` (a sheet file) nor `monster` \
                     (a shipped example NPC)"
                        .to_owned(),
                ),
                (
                    text.replacen(
                        &format!("system = \"{}\"", system.as_str()),
                        "system = \"chess\"",
                        1,
                    ),
                    format!(
                        "ambush.toml:2: system: {}",
                        SystemId::from_str("chess").expect_err("no such system")
                    ),
                ),
            ];
            for (changed, said) in cases {
                assert_eq!(check(&changed).expect_err(&said), said, "{system}");
            }
            // Without the file's system, the monster cannot be found.
            let bare = text.replacen(&format!("system = \"{}\"\n", system.as_str()), "", 1);
            let err = check(&bare).expect_err("no system");
            assert!(
                err.starts_with(
                    "ambush.toml:23: npc[1].monster: a shipped example NPC needs the file to say \
                     its system first (`system = \"ID\"`, one of "
                ),
                "{err}"
            );
        }
    }
}

//! The table of gun jamming, kept as data (`data/jam.toml`) and checked when read: ten rows,
//! faces 1 to 10 in order, each saying whether the shot still lands and what the gun is after.

use serde::Deserialize;

const TABLE: &str = include_str!("data/jam.toml");

/// What a gun is after a jam.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum After {
    Fine,
    Jammed,
    Reload,
    Destroyed,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    pub face: u32,
    pub name: String,
    pub effect: String,
    pub shot: bool,
    pub out: After,
}

#[derive(Deserialize)]
struct File {
    row: Vec<Row>,
}

/// The jam table, or what is wrong with its data.
pub fn table() -> Result<Vec<Row>, String> {
    let file: File = toml::from_str(TABLE).map_err(|e| format!("jam table: {e}"))?;
    if file.row.len() != 10 {
        return Err(format!("jam table: {} rows, not 10", file.row.len()));
    }
    for (i, row) in file.row.iter().enumerate() {
        if usize::try_from(row.face).ok() != Some(i + 1) {
            return Err(format!("jam table: row {} has face {}", i + 1, row.face));
        }
    }
    Ok(file.row)
}

/// The row for `face`.
pub fn row(face: u32) -> Result<Row, String> {
    table()?
        .into_iter()
        .find(|r| r.face == face)
        .ok_or_else(|| format!("jam table: no row for face {face}"))
}

//! The calculator's request: a serde-only DTO for the JSON a user writes, and its conversion by
//! hand into rules types (a `MemoryState` and a `Command`). Every error names where it is, in
//! the request's own terms (`combatants[1]`, `action.args.to`), so a user can find the line.

use std::collections::BTreeMap;

use anyhow::{Context, Result, anyhow, bail};
use serde::Deserialize;
use serde_json::Value;
use serde_json::error::Category;
use tablehold_rules::grid::Cell;
use tablehold_rules::options::{OptionValue, TableOptions};
use tablehold_rules::{
    ArgValue, Args, Command, EntityId, MemoryState, RuleSystem, Seat, SeatId, StateMut, Status,
};

/// The request as written. `deny_unknown_fields` everywhere: a misspelt key is an error, not a
/// silently ignored setting.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RequestDto {
    /// Table options (house rules) by key; unset keys take their documented default.
    #[serde(default)]
    pub options: BTreeMap<String, Value>,
    /// Sheets in the system's sheet schema, as JSON.
    #[serde(default)]
    pub combatants: Vec<Value>,
    /// Grid cells by combatant id; a combatant without one is off the grid.
    #[serde(default)]
    pub positions: BTreeMap<String, CellDto>,
    /// Statuses a combatant already has (a sheet has none), e.g. `dying` for a stabilise.
    #[serde(default)]
    pub statuses: BTreeMap<String, BTreeMap<String, StatusDto>>,
    #[serde(default)]
    pub seat: SeatDto,
    pub action: ActionDto,
    /// Answers to the prompts the action opens, in order.
    #[serde(default)]
    pub answers: Vec<String>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellDto {
    pub x: i32,
    pub y: i32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatusDto {
    #[serde(default)]
    pub magnitude: i64,
    #[serde(default)]
    pub rounds: Option<u32>,
    #[serde(default)]
    pub source: Option<String>,
}

/// Who asks: `"gm"`, `{"player": "SEAT"}` or `{"spectator": "SEAT"}`.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatDto {
    #[default]
    Gm,
    Player(String),
    Spectator(String),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionDto {
    pub name: String,
    #[serde(default)]
    pub actor: Option<String>,
    #[serde(default)]
    pub args: BTreeMap<String, Value>,
}

/// A request turned into what `decide` takes.
#[derive(Debug)]
pub struct Prepared {
    pub seat: Seat,
    pub state: MemoryState,
    pub command: Command,
    pub answers: Vec<String>,
}

/// Parses the request text. A syntax error says "not JSON" with serde_json's line and column;
/// a shape error (unknown field, wrong type) says which field.
pub fn parse(text: &str) -> Result<RequestDto> {
    serde_json::from_str(text).map_err(|e| match e.classify() {
        Category::Syntax | Category::Eof | Category::Io => anyhow!("not JSON: {e}"),
        Category::Data => anyhow!("does not match the request schema: {e}"),
    })
}

impl RequestDto {
    /// Builds the table state and the command for `system`.
    pub fn prepare(self, system: &dyn RuleSystem) -> Result<Prepared> {
        let given = self
            .options
            .iter()
            .map(|(key, v)| {
                Ok((
                    key.clone(),
                    option_value(v).with_context(|| format!("options.{key}"))?,
                ))
            })
            .collect::<Result<BTreeMap<_, _>>>()?;
        let options = TableOptions::resolve(&system.options(), &given).context("options")?;
        let mut state = MemoryState::new(options);

        for (i, value) in self.combatants.iter().enumerate() {
            let where_ = format!("combatants[{i}]");
            let mut combatant = system
                .sheet_from_json(value)
                .with_context(|| where_.clone())?;
            if state.combatants.contains_key(&combatant.id) {
                bail!(
                    "{where_}: id `{}` is used by an earlier combatant",
                    combatant.id
                );
            }
            if let Some(cell) = self.positions.get(combatant.id.as_str()) {
                combatant.position = Some(Cell::new(cell.x, cell.y));
            }
            if let Some(statuses) = self.statuses.get(combatant.id.as_str()) {
                for (name, s) in statuses {
                    let status = Status {
                        source: s.source.clone().unwrap_or_else(|| "request".to_owned()),
                        magnitude: s.magnitude,
                        rounds_left: s.rounds,
                    };
                    combatant.statuses.insert(name.clone(), status);
                }
            }
            state.insert_combatant(combatant);
        }
        for (field, ids) in [
            ("positions", self.positions.keys().collect::<Vec<_>>()),
            ("statuses", self.statuses.keys().collect()),
        ] {
            if let Some(id) = ids
                .into_iter()
                .find(|id| !state.combatants.contains_key(&EntityId::from(id.as_str())))
            {
                bail!("{field}.{id}: no combatant has the id `{id}`");
            }
        }

        let seat = match self.seat {
            SeatDto::Gm => Seat::Gm,
            SeatDto::Player(s) => Seat::Player(SeatId(s)),
            SeatDto::Spectator(s) => Seat::Spectator(SeatId(s)),
        };
        let mut args = Args::default();
        for (name, value) in &self.action.args {
            let value = arg_value(value).with_context(|| format!("action.args.{name}"))?;
            args.0.insert(name.clone(), value);
        }
        let command = Command::act(
            seat.clone(),
            self.action.actor.as_deref(),
            &self.action.name,
            args,
        );
        Ok(Prepared {
            seat,
            state,
            command,
            answers: self.answers,
        })
    }
}

fn option_value(v: &Value) -> Result<OptionValue> {
    match v {
        Value::Bool(b) => Ok(OptionValue::Bool(*b)),
        Value::String(s) => Ok(OptionValue::Choice(s.clone())),
        Value::Number(n) => n.as_i64().map(OptionValue::Int).ok_or_else(|| {
            anyhow!("{n} is not a whole number; options take true/false, an integer or a string")
        }),
        other => {
            bail!("{other} is not an option value; options take true/false, an integer or a string")
        }
    }
}

/// JSON bool → flag, integer → int, `{"x", "y"}` → cell, string → text; nothing else.
fn arg_value(v: &Value) -> Result<ArgValue> {
    const KINDS: &str = "use true/false, an integer, a cell {\"x\": 1, \"y\": 2} or a string";
    match v {
        Value::Bool(b) => Ok(ArgValue::Flag(*b)),
        Value::String(s) => Ok(ArgValue::Text(s.clone())),
        Value::Number(n) => n
            .as_i64()
            .map(ArgValue::Int)
            .ok_or_else(|| anyhow!("{n} is not a whole number that fits 64 bits; {KINDS}")),
        Value::Object(map) => {
            let coord = |key: &str| -> Result<i32> {
                let c = map
                    .get(key)
                    .ok_or_else(|| anyhow!("a cell needs `{key}`"))?;
                c.as_i64()
                    .and_then(|c| i32::try_from(c).ok())
                    .ok_or_else(|| anyhow!("cell `{key}` is {c}, not a whole number of cells"))
            };
            if let Some(extra) = map.keys().find(|k| *k != "x" && *k != "y") {
                bail!("a cell has only `x` and `y`, not `{extra}`");
            }
            Ok(ArgValue::Cell(Cell::new(coord("x")?, coord("y")?)))
        }
        Value::Null | Value::Array(_) => bail!("{v} is not an argument value; {KINDS}"),
    }
}

/// Parses `--dice 12,3,5`. Spaces around a face are allowed; an empty list means no faces.
pub fn parse_faces(text: &str) -> Result<Vec<u32>> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    text.split(',')
        .enumerate()
        .map(|(i, item)| {
            let item = item.trim();
            item.parse::<u32>().map_err(|_| {
                if item.is_empty() {
                    anyhow!("--dice: face {} is empty; write faces like 12,3,5", i + 1)
                } else {
                    anyhow!(
                        "--dice: face {} (`{item}`) is not a whole number; write faces like 12,3,5",
                        i + 1
                    )
                }
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_parse_and_bad_ones_name_their_position() {
        assert_eq!(parse_faces("12, 3,5").ok(), Some(vec![12, 3, 5]));
        assert_eq!(parse_faces("").ok(), Some(vec![]));
        let err = parse_faces("12,x")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("face 2 (`x`)"), "{err}");
        let err = parse_faces("1,,2")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("face 2 is empty"), "{err}");
    }

    #[test]
    fn argument_values_map_by_json_type_and_others_are_refused() {
        let v = |s: &str| {
            serde_json::from_str::<Value>(s)
                .map_err(anyhow::Error::from)
                .and_then(|v| arg_value(&v))
        };
        assert_eq!(v("true").ok(), Some(ArgValue::Flag(true)));
        assert_eq!(v("14").ok(), Some(ArgValue::Int(14)));
        assert_eq!(v("\"knife\"").ok(), Some(ArgValue::Text("knife".into())));
        assert_eq!(
            v("{\"x\": 1, \"y\": -2}").ok(),
            Some(ArgValue::Cell(Cell::new(1, -2)))
        );
        for bad in [
            "1.5",
            "null",
            "[1]",
            "{\"x\": 1}",
            "{\"x\": 1, \"y\": 2, \"z\": 3}",
        ] {
            assert!(v(bad).is_err(), "{bad} should be refused");
        }
    }
}

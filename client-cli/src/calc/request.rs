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
use tablehold_rules::turns::Turns;
use tablehold_rules::{
    ArgValue, Args, Command, EntityId, MemoryState, PendingStep, RuleSystem, Seat, SeatId,
    StateMut, Status,
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
    /// One action (with `answers`), or else `steps`.
    #[serde(default)]
    pub action: Option<ActionDto>,
    /// Answers to the prompts the action opens, in order.
    #[serde(default)]
    pub answers: Vec<String>,
    /// Where the request starts inside a running encounter; absent: outside any.
    #[serde(default)]
    pub encounter: Option<EncounterDto>,
    /// A sequence of actions, answers, timeouts and turn ends, in place of `action`.
    #[serde(default)]
    pub steps: Vec<StepDto>,
}

/// A running encounter to start from: the round, the order, whose turn, what each combatant
/// has used of its turn (the system's counters), the shape of turns, open windows and the
/// encounter's own numbers.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncounterDto {
    #[serde(default = "first_round")]
    pub round: u32,
    #[serde(default)]
    pub order: Vec<String>,
    #[serde(default)]
    pub current: Option<String>,
    /// Per combatant, its turn counters as the system names them (CALCULATOR.md lists the
    /// shipped system's).
    #[serde(default)]
    pub used: BTreeMap<String, BTreeMap<String, i64>>,
    /// A turn of another shape than one combatant's: a group's, or the spotlight.
    #[serde(default)]
    pub turns: Option<Turns>,
    /// Decision windows already open, as the protocol writes a pending step.
    #[serde(default)]
    pub windows: Vec<PendingStep>,
    #[serde(default)]
    pub values: BTreeMap<String, i64>,
}

fn first_round() -> u32 {
    1
}

/// One step of a sequence: exactly one of these keys.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum StepDto {
    /// An action, as `action` is written; `seat` defaults to the request's.
    Act {
        name: String,
        #[serde(default)]
        actor: Option<String>,
        #[serde(default)]
        args: BTreeMap<String, Value>,
        #[serde(default)]
        seat: Option<SeatDto>,
    },
    /// An answer to an open window: `prompt` defaults to the newest open one, `seat` to the
    /// first seat it is still waiting for.
    Answer {
        #[serde(default)]
        prompt: Option<u64>,
        #[serde(default)]
        choice: String,
        #[serde(default)]
        args: BTreeMap<String, Value>,
        #[serde(default)]
        seat: Option<SeatDto>,
    },
    /// A window's time running out: `prompt` defaults to the newest open one.
    Timeout {
        #[serde(default)]
        prompt: Option<u64>,
    },
    /// `end_turn` for this combatant, by its seat (the GM for one nobody plays).
    EndTurn(String),
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
    pub steps: Vec<Planned>,
    /// Written as `steps`: the report then says what each step changed.
    pub stepwise: bool,
}

/// One step to run, with where it was written, for errors (empty for a request's one action).
#[derive(Debug)]
pub struct Planned {
    pub where_: String,
    pub what: PlannedKind,
}

#[derive(Debug)]
pub enum PlannedKind {
    Act(Command),
    /// Answered when it runs: which window and whose seat depend on what is open then.
    Answer {
        seat: Option<Seat>,
        prompt: Option<u64>,
        choice: String,
        args: Args,
    },
    Timeout {
        prompt: Option<u64>,
    },
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

        if let Some(enc) = self.encounter {
            start_inside(&mut state, enc)?;
        }

        let seat = seat_of(self.seat);
        let stepwise = !self.steps.is_empty();
        let steps = match (self.action, self.steps.is_empty()) {
            (Some(action), true) => {
                let args = args_of(&action.args, "action.args")?;
                // The one action's errors need no place: there is only one.
                let mut steps = vec![Planned {
                    where_: String::new(),
                    what: PlannedKind::Act(Command::act(
                        seat.clone(),
                        action.actor.as_deref(),
                        &action.name,
                        args,
                    )),
                }];
                steps.extend(
                    self.answers
                        .into_iter()
                        .enumerate()
                        .map(|(i, choice)| Planned {
                            where_: format!("answers[{i}] (`{choice}`)"),
                            what: PlannedKind::Answer {
                                seat: None,
                                prompt: None,
                                choice,
                                args: Args::default(),
                            },
                        }),
                );
                steps
            }
            (None, false) if self.answers.is_empty() => self
                .steps
                .into_iter()
                .enumerate()
                .map(|(i, step)| plan(step, i, &seat, &state))
                .collect::<Result<Vec<_>>>()?,
            (None, true) => bail!("the request needs `action` (one action) or `steps`"),
            _ => bail!(
                "the request has `steps` and `action` or `answers`: write the action and its \
                 answers as steps"
            ),
        };
        Ok(Prepared {
            seat,
            state,
            steps,
            stepwise,
        })
    }
}

fn seat_of(dto: SeatDto) -> Seat {
    match dto {
        SeatDto::Gm => Seat::Gm,
        SeatDto::Player(s) => Seat::Player(SeatId(s)),
        SeatDto::Spectator(s) => Seat::Spectator(SeatId(s)),
    }
}

fn args_of(given: &BTreeMap<String, Value>, where_: &str) -> Result<Args> {
    let mut args = Args::default();
    for (name, value) in given {
        let value = arg_value(value).with_context(|| format!("{where_}.{name}"))?;
        args.0.insert(name.clone(), value);
    }
    Ok(args)
}

/// Puts `state` inside a running encounter, as `enc` describes it.
fn start_inside(state: &mut MemoryState, enc: EncounterDto) -> Result<()> {
    let ids: Vec<EntityId> = state.combatants.keys().cloned().collect();
    let known = |id: &str, field: &str| -> Result<EntityId> {
        let id = EntityId::from(id);
        if ids.contains(&id) {
            Ok(id)
        } else {
            bail!("encounter.{field}: no combatant has the id `{id}`")
        }
    };
    let order = enc
        .order
        .iter()
        .map(|id| known(id, "order"))
        .collect::<Result<Vec<_>>>()?;
    let current = enc
        .current
        .as_deref()
        .map(|id| known(id, "current"))
        .transpose()?;
    for (id, counters) in &enc.used {
        let id = known(id, &format!("used.{id}"))?;
        if let Some(c) = state.combatants.get_mut(&id) {
            c.turn.extend(counters.iter().map(|(k, v)| (k.clone(), *v)));
        }
    }
    let turns = match enc.turns {
        Some(t) => {
            for id in t.now.iter().chain(&t.acted).chain(&t.held) {
                known(id.as_str(), "turns")?;
            }
            t
        }
        None => Turns {
            now: current.iter().cloned().collect(),
            ..Turns::default()
        },
    };
    let mut next_prompt = 0;
    for (i, w) in enc.windows.iter().enumerate() {
        if enc.windows[..i].iter().any(|o| o.prompt_id == w.prompt_id) {
            bail!(
                "encounter.windows[{i}]: prompt id {} is used by an earlier window",
                w.prompt_id
            );
        }
        next_prompt = next_prompt.max(w.prompt_id + 1);
    }
    let e = state.encounter_mut();
    e.active = true;
    e.round = enc.round;
    e.order = order;
    e.current = current;
    e.turns = turns;
    e.pending = enc.windows;
    e.next_prompt = next_prompt;
    e.values = enc.values;
    Ok(())
}

/// One written step as a planned one.
fn plan(step: StepDto, i: usize, seat: &Seat, state: &MemoryState) -> Result<Planned> {
    let where_ = format!("steps[{i}]");
    let what = match step {
        StepDto::Act {
            name,
            actor,
            args,
            seat: by,
        } => {
            let args = args_of(&args, &format!("{where_}.act.args"))?;
            let by = by.map_or_else(|| seat.clone(), seat_of);
            PlannedKind::Act(Command::act(by, actor.as_deref(), &name, args))
        }
        StepDto::Answer {
            prompt,
            choice,
            args,
            seat: by,
        } => PlannedKind::Answer {
            seat: by.map(seat_of),
            prompt,
            choice,
            args: args_of(&args, &format!("{where_}.answer.args"))?,
        },
        StepDto::Timeout { prompt } => PlannedKind::Timeout { prompt },
        StepDto::EndTurn(actor) => {
            let id = EntityId::from(actor.as_str());
            let Some(c) = state.combatants.get(&id) else {
                bail!("{where_}.end_turn: no combatant has the id `{actor}`");
            };
            let by = c.owner.clone().map_or(Seat::Gm, Seat::Player);
            PlannedKind::Act(Command::act(
                by,
                Some(&actor),
                tablehold_rules::action::END_TURN,
                Args::default(),
            ))
        }
    };
    Ok(Planned { where_, what })
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

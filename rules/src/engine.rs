//! The part of `decide` that is the same for every system: decision windows (answers,
//! timeouts, GM overrides, see `window`), the rule that nothing else moves while a blocking
//! window is open, the GM's generic rulings, and the scratch state each system builds its
//! events on.

use crate::action::{ActionSpec, ArgKind, ArgSpec, Args, Command, CommandBody};
use crate::dice::DiceSource;
use crate::event::{Audience, Event, Fact};
use crate::grid::{GridSpec, Terrain};
use crate::ids::Seat;
use crate::refusal::Refusal;
use crate::state::{StateView, Status};
use crate::system::{Happening, RuleSystem};
use crate::window;

pub use crate::ctx::{Ctx, DecideError};

/// Decides `command` against `state` for `system`: the one entry point the server and the
/// calculator call. Pure: the only inputs are the arguments, the only output the events.
pub fn decide(
    system: &dyn RuleSystem,
    state: &dyn StateView,
    command: &Command,
    dice: &mut dyn DiceSource,
) -> Result<Vec<Event>, DecideError> {
    let mut ctx = Ctx::new(state, dice);
    match &command.body {
        CommandBody::Answer {
            prompt_id,
            choice,
            args,
        } => window::answer(system, &mut ctx, &command.seat, *prompt_id, choice, args)?,
        CommandBody::TimeOut { prompt_id } => {
            if !command.seat.is_gm() {
                return Err(Refusal::forbidden("only the table may time a prompt out").into());
            }
            window::time_out(system, &mut ctx, *prompt_id)?;
        }
        CommandBody::Act {
            actor,
            action,
            args,
        } => {
            if let Some(rest) = action.strip_prefix(RULING_PREFIX) {
                if !command.seat.is_gm() {
                    return Err(Refusal::forbidden("rulings are the GM's").into());
                }
                // A ruling is the GM's word on the state: it sets nothing off (a token the GM
                // moves provokes no opportunity attack).
                generic_ruling(system, &mut ctx, rest, args)?;
                return Ok(ctx.into_events());
            } else {
                if let Some(top) = window::blocking(state) {
                    // The refused seat hears of the prompt only what its events showed it.
                    let seen = crate::redact::prompt_seen_by(top, &command.seat);
                    return Err(Refusal::AwaitingDecision {
                        prompt_id: top.prompt_id,
                        question: seen.question,
                    }
                    .into());
                }
                system.act(&mut ctx, &command.seat, actor.as_ref(), action, args)?;
            }
        }
    }
    let happened = happenings(&state.encounter().turns, ctx.emitted());
    system.after(&mut ctx, &happened)?;
    Ok(ctx.into_events())
}

/// What the events of one command made happen, for the system's triggers, from the turns as
/// they were before it. A group is done when an `acted` leaves nobody of it to act.
fn happenings(before: &crate::turns::Turns, events: &[Event]) -> Vec<Happening> {
    let mut out = Vec::new();
    let grouped = before.shape == crate::turns::TurnShape::Group;
    let mut group: Option<String> = before.group.clone().filter(|_| grouped);
    let mut left: Vec<crate::ids::EntityId> = before.now.clone();
    for fact in events
        .iter()
        .flat_map(|e| &e.parts)
        .filter(|p| !p.audience.is_stand_in())
        .map(|p| &p.fact)
    {
        match fact {
            Fact::Moved { entity, from, to } => out.push(Happening::Moved {
                entity: entity.clone(),
                from: *from,
                to: *to,
            }),
            Fact::TurnStarted { entity } => {
                group = None;
                out.push(Happening::TurnStarted {
                    entity: entity.clone(),
                });
            }
            Fact::TurnsOpened {
                shape,
                group: g,
                now,
                ..
            } => {
                group = g
                    .clone()
                    .filter(|_| *shape == crate::turns::TurnShape::Group);
                left = now.clone();
            }
            Fact::Acted { entity } => {
                out.push(Happening::Acted {
                    entity: entity.clone(),
                });
                let was_left = left.contains(entity);
                left.retain(|e| e != entity);
                if let (true, true, Some(g)) = (was_left, left.is_empty(), &group) {
                    out.push(Happening::GroupDone { group: g.clone() });
                }
            }
            _ => {}
        }
    }
    out
}

/// The catalogue for `seat`: the answers to the open windows it may answer, the system's
/// actions unless a window holds them back, and for the GM the generic rulings.
pub fn actions(system: &dyn RuleSystem, state: &dyn StateView, seat: &Seat) -> Vec<ActionSpec> {
    let mut out = window::answer_specs(state, seat);
    if window::blocking(state).is_none() {
        out.extend(system.actions(state, seat));
    }
    if seat.is_gm() {
        out.extend(ruling_specs(system.grid()));
    }
    out
}

/// Actions whose name starts with this are the GM's system-independent rulings.
pub const RULING_PREFIX: &str = "rule.";

pub(crate) fn ruling_specs(grid: GridSpec) -> Vec<ActionSpec> {
    let arg = ArgSpec::new;
    let spec = |name: &str, help: &str, args| ActionSpec {
        name: format!("{RULING_PREFIX}{name}"),
        help: help.into(),
        actor: None,
        args,
        costs: vec![],
    };
    vec![
        spec(
            "set-resource",
            "Set a resource of a character to a value, as a ruling.",
            vec![
                arg("target", ArgKind::Entity, true, "whose resource"),
                arg(
                    "resource",
                    ArgKind::Text,
                    true,
                    "e.g. condition, focus, burnout",
                ),
                arg("value", ArgKind::Int, true, "the new value"),
                arg("reason", ArgKind::Text, false, "shown in the log"),
            ],
        ),
        spec(
            "set-status",
            "Give a character a status, as a ruling.",
            vec![
                arg("target", ArgKind::Entity, true, "who"),
                arg(
                    "status",
                    ArgKind::Text,
                    true,
                    "the system's key, e.g. knocked_down",
                ),
                arg(
                    "magnitude",
                    ArgKind::Int,
                    false,
                    "size, where the status has one",
                ),
                arg(
                    "rounds",
                    ArgKind::Int,
                    false,
                    "rounds until it ends by itself",
                )
                .range(0, 10_000),
                arg("reason", ArgKind::Text, false, "shown in the log"),
            ],
        ),
        spec(
            "clear-status",
            "Remove a status from a character, as a ruling.",
            vec![
                arg("target", ArgKind::Entity, true, "who"),
                arg("status", ArgKind::Text, true, "which status"),
                arg("reason", ArgKind::Text, false, "shown in the log"),
            ],
        ),
        spec(
            "move",
            "Move a token, as a ruling (no movement is spent).",
            vec![
                arg("target", ArgKind::Entity, true, "who"),
                arg("to", ArgKind::Cell, true, "destination cell"),
                arg("reason", ArgKind::Text, false, "shown in the log"),
            ],
        ),
        spec(
            "terrain",
            "Set what a cell is like (no flag and no cover: open ground again), as a ruling.",
            vec![
                arg("cell", ArgKind::Cell, true, "which cell"),
                arg("difficult", ArgKind::Flag, false, "hard going"),
                arg("blocking", ArgKind::Flag, false, "nothing passes"),
                arg("cover", ArgKind::Text, false, "the cover it gives").choices(grid.covers),
                arg("reason", ArgKind::Text, false, "shown in the log"),
            ],
        ),
        spec(
            "note",
            "Write a ruling into the log.",
            vec![arg("text", ArgKind::Text, true, "the ruling")],
        ),
    ]
}

fn generic_ruling(
    system: &dyn RuleSystem,
    ctx: &mut Ctx<'_>,
    name: &str,
    args: &Args,
) -> Result<(), DecideError> {
    let specs = ruling_specs(system.grid());
    let Some(spec) = specs
        .iter()
        .find(|s| s.name.strip_prefix(RULING_PREFIX) == Some(name))
    else {
        return Err(Refusal::UnknownAction {
            system: "table".into(),
            action: format!("{RULING_PREFIX}{name}"),
        }
        .into());
    };
    args.validate(&spec.args, &Seat::Gm)?;
    let reason = args.text("reason")?.unwrap_or("GM ruling").to_owned();
    let ruled = |text: String| Event::public(Fact::Ruled { text });
    match name {
        "note" => ctx.emit(ruled(args.require_text("text")?.to_owned()))?,
        "set-resource" => {
            let target = args.require_entity("target")?;
            let resource = args.require_text("resource")?.to_owned();
            let value = args.require_int("value")?;
            ctx.combatant(&target)?;
            let known = system.resources();
            if !known.is_empty() {
                let spec = known.iter().find(|r| r.key == resource).ok_or_else(|| {
                    Refusal::UnknownName {
                        system: system.id().into(),
                        what: "a resource".into(),
                        name: resource.clone(),
                    }
                })?;
                if !(spec.min..=spec.max).contains(&value) {
                    return Err(Refusal::bad_argument(
                        "value",
                        &format!("{resource} must be in {}..={}", spec.min, spec.max),
                    )
                    .into());
                }
            }
            ctx.rule_about(
                &target,
                format!("{target}: {resource} set to {value} ({reason})"),
            )?;
            let from = ctx.combatant(&target)?.resource(&resource);
            ctx.set_resource(&target, &resource, value)?;
            system.resource_ruled(ctx, &target, &resource, from, value)?;
        }
        "set-status" | "clear-status" => {
            let target = args.require_entity("target")?;
            let status = args.require_text("status")?.to_owned();
            ctx.combatant(&target)?;
            let to = (name == "set-status").then(|| -> Result<Status, Refusal> {
                Ok(Status {
                    source: "ruling".into(),
                    magnitude: args.int("magnitude")?.unwrap_or(0),
                    rounds_left: args
                        .int("rounds")?
                        .map(|r| {
                            u32::try_from(r)
                                .map_err(|_| Refusal::bad_argument("rounds", "must be 0 or more"))
                        })
                        .transpose()?,
                })
            });
            let to = to.transpose()?;
            ctx.emit(ruled(format!(
                "{target}: {status} {} ({reason})",
                if to.is_some() { "set" } else { "cleared" }
            )))?;
            let from = ctx.combatant(&target)?.statuses.get(&status).cloned();
            // The magnitude of a status on a combatant whose numbers are the GM's (its
            // bleeding, its frenzy's temporary Condition) is the GM's too: the table learns the
            // status, the GM its number.
            let hidden = crate::redact::gm_only_numbers(&ctx.combatant(&target)?);
            match &to {
                Some(s) if hidden && s.magnitude != 0 => {
                    let seen = Status {
                        magnitude: 0,
                        ..s.clone()
                    };
                    ctx.set_status_for(Audience::Everyone, &target, &status, Some(seen))?;
                    ctx.set_status_for(Audience::GmOnly, &target, &status, to.clone())?;
                }
                _ => ctx.set_status(&target, &status, to.clone())?,
            }
            system.status_ruled(ctx, &target, &status, from, to)?;
        }
        "move" => {
            let target = args.require_entity("target")?;
            let to = args
                .cell("to")?
                .ok_or_else(|| Refusal::bad_argument("to", "is required"))?;
            let from = ctx.combatant(&target)?.position;
            ctx.emit(ruled(format!(
                "{target} moved to ({}, {}) ({reason})",
                to.x, to.y
            )))?;
            ctx.emit(Event::public(Fact::Moved {
                entity: target,
                from,
                to: Some(to),
            }))?;
        }
        "terrain" => {
            let cell = args
                .cell("cell")?
                .ok_or_else(|| Refusal::bad_argument("cell", "is required"))?;
            if system.grid().covers.is_empty() && args.text("cover")?.is_some() {
                return Err(
                    Refusal::bad_argument("cover", "this system names no kind of cover").into(),
                );
            }
            let to = Terrain {
                difficult: args.flag("difficult")?,
                blocking: args.flag("blocking")?,
                cover: args.text("cover")?.map(|c| c.to_ascii_lowercase()),
            };
            let from = ctx.state.encounter().terrain.get(&cell).cloned();
            if from.clone().unwrap_or_default() == to {
                return Ok(());
            }
            ctx.emit(ruled(format!(
                "the cell ({}, {}) is now {} ({reason})",
                cell.x, cell.y, to
            )))?;
            ctx.emit(Event::public(Fact::TerrainSet {
                cell,
                from,
                to: (!to.is_open()).then_some(to),
            }))?;
        }
        _ => {
            return Err(Refusal::UnknownAction {
                system: "table".into(),
                action: name.into(),
            }
            .into());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Audience, Part};
    use crate::ids::EntityId;
    use crate::turns::{TurnShape, Turns};

    fn id(s: &str) -> EntityId {
        EntityId::from(s)
    }

    fn opened(shape: TurnShape, group: Option<&str>, now: &[&str]) -> Fact {
        Fact::TurnsOpened {
            shape,
            group: group.map(str::to_owned),
            now: now.iter().map(|n| id(n)).collect(),
        }
    }

    fn acted(who: &str) -> Fact {
        Fact::Acted { entity: id(who) }
    }

    // (turns before the command, the command's facts, what happened): a group is done when
    // an action leaves nobody of it, whether the group's turn opened before the command or
    // within it; nothing is done in a spotlight or an individual turn; stand-ins are not
    // read twice.
    #[test]
    fn what_a_command_made_happen_is_read_from_its_facts() {
        let players = Turns {
            shape: TurnShape::Group,
            group: Some("players".into()),
            now: vec![id("ana"), id("bo")],
            ..Turns::default()
        };
        let done = |g: &str| Happening::GroupDone { group: g.into() };
        let did = |who: &str| Happening::Acted { entity: id(who) };
        let cases: Vec<(Turns, Vec<Fact>, Vec<Happening>)> = vec![
            (players.clone(), vec![acted("ana")], vec![did("ana")]),
            (
                players.clone(),
                vec![acted("ana"), acted("bo")],
                vec![did("ana"), did("bo"), done("players")],
            ),
            (
                players.clone(),
                vec![
                    acted("ana"),
                    acted("bo"),
                    opened(TurnShape::Group, Some("enemies"), &["gob"]),
                    acted("gob"),
                ],
                vec![
                    did("ana"),
                    did("bo"),
                    done("players"),
                    did("gob"),
                    done("enemies"),
                ],
            ),
            (
                Turns::default(),
                vec![opened(TurnShape::Spotlight, None, &["ana"]), acted("ana")],
                vec![did("ana")],
            ),
            (
                players.clone(),
                vec![
                    Fact::TurnStarted {
                        entity: Some(id("ana")),
                    },
                    acted("ana"),
                    acted("bo"),
                ],
                vec![
                    Happening::TurnStarted {
                        entity: Some(id("ana")),
                    },
                    did("ana"),
                    did("bo"),
                ],
            ),
            (
                players,
                vec![Fact::Moved {
                    entity: id("ana"),
                    from: None,
                    to: Some(crate::grid::Cell::new(1, 2)),
                }],
                vec![Happening::Moved {
                    entity: id("ana"),
                    from: None,
                    to: Some(crate::grid::Cell::new(1, 2)),
                }],
            ),
        ];
        for (before, facts, expected) in cases {
            let events: Vec<Event> = facts.iter().cloned().map(Event::public).collect();
            assert_eq!(happenings(&before, &events), expected, "{facts:?}");
        }
        // A stand-in part repeats a fact for other seats: it is not a second happening.
        let twice = Event {
            parts: vec![
                Part {
                    audience: Audience::GmOnly,
                    fact: acted("ana"),
                },
                Part {
                    audience: Audience::AllButGm,
                    fact: acted("ana"),
                },
            ],
        };
        let before = Turns {
            now: vec![id("ana")],
            ..Turns::default()
        };
        assert_eq!(happenings(&before, &[twice]), vec![did("ana")]);
    }
}

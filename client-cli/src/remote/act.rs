//! `tablehold act`: from the words typed (`attack target=goblin-1 weapon=knife`) to a typed
//! `act` request, using the seat's action catalogue as the server sent it. No action of any
//! rule system is named here: the catalogue says which actions exist, which arguments they
//! take and of what kind, so a new system or action needs no client change.
//!
//! An action in the catalogue has its arguments checked by name and parsed by kind here, so
//! a typo is caught with the list of valid names. An action *not* in the catalogue is not
//! refused here: the catalogue only lists what the seat may do *now*, and the server alone
//! can say why something else is refused (`not_your_turn`, `awaiting_decision`, an unknown
//! action...), with the stable code scripts branch on. Its arguments are then typed by how
//! they look (see [`guess`]).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use tablehold_protocol::ErrorCode;
use tablehold_rules::grid::Cell;
use tablehold_rules::{ActionSpec, ArgKind, ArgSpec, ArgValue, Args, EntityId};

use crate::net::ServerError;
use crate::suggest;

/// An `act` request ready to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActRequest {
    pub actor: Option<String>,
    pub action: String,
    pub args: Args,
    /// Whether the catalogue listed the action (then its arguments were checked here).
    pub listed: bool,
}

/// Resolves the typed action against `catalogue`. Errors carry the code the server would
/// answer with (`bad_request` for an argument), so a script sees the same code whichever
/// side caught the mistake.
pub fn resolve(
    catalogue: &[ActionSpec],
    action: &str,
    actor: Option<&str>,
    words: &[String],
) -> Result<ActRequest, ServerError> {
    let named: Vec<&ActionSpec> = catalogue.iter().filter(|s| s.name == action).collect();
    let matching: Vec<&ActionSpec> = match actor {
        Some(a) => named
            .iter()
            .copied()
            .filter(|s| s.actor.as_ref().is_some_and(|x| x.as_str() == a))
            .collect(),
        None => named.clone(),
    };
    match matching.as_slice() {
        [spec] => {
            let args = typed_args(spec, words)?;
            Ok(ActRequest {
                actor: spec.actor.as_ref().map(ToString::to_string),
                action: action.to_owned(),
                args,
                listed: true,
            })
        }
        [] => {
            let pairs = split_words(&dashed(None, words))?;
            let args = Args(
                pairs
                    .into_iter()
                    .map(|(name, value)| {
                        let v = value.map_or(ArgValue::Flag(true), guess);
                        (name, v)
                    })
                    .collect(),
            );
            Ok(ActRequest {
                actor: actor.map(str::to_owned).or_else(|| only_actor(catalogue)),
                action: action.to_owned(),
                args,
                listed: false,
            })
        }
        several => {
            let actors: Vec<String> = several
                .iter()
                .filter_map(|s| s.actor.as_ref().map(ToString::to_string))
                .collect();
            Err(bad_request(format!(
                "`{action}` is open to several characters ({}): pick one with --actor",
                actors.join(", ")
            )))
        }
    }
}

/// The one character this seat's catalogue acts for, if there is exactly one: the actor of
/// an unlisted action when `--actor` is not given (a player's own character off their turn).
fn only_actor(catalogue: &[ActionSpec]) -> Option<String> {
    let mut actors: Vec<String> = catalogue
        .iter()
        .filter_map(|s| s.actor.as_ref().map(ToString::to_string))
        .collect();
    actors.sort();
    actors.dedup();
    match actors.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

fn bad_request(message: String) -> ServerError {
    ServerError {
        code: ErrorCode::BadRequest,
        message,
    }
}

/// `NAME=VALUE` words as pairs; a bare `NAME` has no value (a flag set to true).
fn split_words(words: &[String]) -> Result<Vec<(String, Option<String>)>, ServerError> {
    let mut seen = BTreeMap::new();
    for w in words {
        let (name, value) = match w.split_once('=') {
            Some((n, v)) => (n.trim(), Some(v.to_owned())),
            None => (w.trim(), None),
        };
        if name.is_empty() {
            return Err(bad_request(format!("`{w}` is not NAME=VALUE")));
        }
        if seen.insert(name.to_owned(), value).is_some() {
            return Err(bad_request(format!("argument `{name}` is given twice")));
        }
    }
    Ok(seen.into_iter().collect())
}

/// `words` with each bare value (no `=`, not near the name of one of the action's arguments) given
/// the name of the next argument not yet named, in the order the catalogue lists them, flags
/// left out: `goblin-1 knife` for `attack` is `target=goblin-1 weapon=knife`.
fn with_names(spec: &ActionSpec, words: &[String]) -> Result<Vec<String>, ServerError> {
    let named: Vec<&str> = words
        .iter()
        .filter_map(|w| w.split_once('=').map(|(n, _)| n.trim()))
        .collect();
    let in_order: Vec<&str> = spec
        .args
        .iter()
        .filter(|a| a.kind != ArgKind::Flag)
        .map(|a| a.name.as_str())
        .collect();
    let mut open = in_order.iter().filter(|n| !named.contains(n));
    let names = || spec.args.iter().map(|a| a.name.as_str());
    words
        .iter()
        .map(|w| {
            // A bare argument name is a flag; one a slip away from a name is kept as a name,
            // so that it gets its "did you mean".
            let w_name = w.trim();
            if w.contains('=')
                || names().any(|n| n == w_name)
                || suggest::closest(w_name, names()).is_some()
            {
                return Ok(w.clone());
            }
            match open.next() {
                Some(name) => Ok(format!("{name}={w}")),
                None => Err(bad_request(format!(
                    "`{w}` is one value too many: `{}` takes its values in this order: {}",
                    spec.name,
                    in_order.join(", ")
                ))),
            }
        })
        .collect()
}

/// The client's own flags on an action's line (`--actor ID`, `--prompt N`, `--end`, `--npcs`),
/// as the shell's short form and the TUI take them: `--actor ID` or `--actor=ID`, each at most
/// once. Those not in `taken` stay among the words, where the action's arguments are read.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct LineFlags {
    pub actor: Option<String>,
    pub prompt: Option<String>,
    pub end: bool,
    pub npcs: bool,
}

/// Splits `words` into the client's flags named in `taken` and the rest; a flag given twice or
/// left without its value is refused, since a GM who names two actors meant one of them.
pub fn take_line_flags(
    words: &[String],
    taken: &[&str],
) -> Result<(LineFlags, Vec<String>), String> {
    let mut flags = LineFlags::default();
    let mut rest = Vec::new();
    let mut it = words.iter();
    while let Some(w) = it.next() {
        let (name, inline) = match w.strip_prefix("--").map(|n| n.split_once('=')) {
            Some(Some((n, v))) => (n, Some(v.to_owned())),
            Some(None) => (&w[2..], None),
            None => ("", None),
        };
        if !taken.contains(&name) {
            rest.push(w.clone());
            continue;
        }
        let slot = match name {
            "end" | "npcs" => {
                let on = if name == "end" {
                    &mut flags.end
                } else {
                    &mut flags.npcs
                };
                if inline.is_some() {
                    return Err(format!("--{name} takes no value"));
                }
                *on = true;
                continue;
            }
            "actor" => &mut flags.actor,
            _ => &mut flags.prompt,
        };
        if slot.is_some() {
            return Err(format!("--{name} is given twice"));
        }
        let value = match inline {
            Some(v) => Some(v),
            None => it.next().filter(|v| !v.starts_with("--")).cloned(),
        };
        *slot = Some(
            value
                .filter(|v| !v.is_empty())
                .ok_or_else(|| format!("--{name} needs a value"))?,
        );
    }
    Ok((flags, rest))
}

/// `words` with the shell's spelling of an argument turned into `NAME=VALUE`: `--name value`,
/// `--name=value`, and a bare `--name` for a flag (or `--name true|false`). The system pages
/// write arguments the way a command line does, so a user who copies them must not be refused;
/// `--power-strike` is `power_strike` when only that one is an argument. A `--name` the action
/// does not take keeps the next word as its value (or `true`), so the refusal names that
/// argument and its closest fit rather than blaming the next one in order.
pub fn dashed(spec: Option<&ActionSpec>, words: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(words.len());
    let mut it = words.iter().peekable();
    while let Some(w) = it.next() {
        let Some(typed) = w.strip_prefix("--").filter(|n| !n.is_empty()) else {
            out.push(w.clone());
            continue;
        };
        let (typed, inline) = match typed.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (typed, None),
        };
        let arg = |n: &str| spec.and_then(|s| s.args.iter().find(|a| a.name == n));
        let underscored = typed.replace('-', "_");
        let name = if arg(typed).is_none() && arg(&underscored).is_some() {
            underscored.as_str()
        } else {
            typed
        };
        if let Some(v) = inline {
            out.push(format!("{name}={v}"));
            continue;
        }
        let flag = arg(name).is_some_and(|a| a.kind == ArgKind::Flag);
        let value = match it.peek() {
            Some(next) if flag => ["true", "false"]
                .iter()
                .any(|b| next.eq_ignore_ascii_case(b))
                .then(|| it.next())
                .flatten(),
            Some(next) if !next.starts_with("--") && !next.contains('=') => it.next(),
            _ => None,
        };
        out.push(match value {
            Some(v) => format!("{name}={v}"),
            None if spec.is_some() && arg(name).is_none() => format!("{name}=true"),
            None => name.to_owned(),
        });
    }
    out
}

pub fn typed_args(spec: &ActionSpec, words: &[String]) -> Result<Args, ServerError> {
    let mut args = BTreeMap::new();
    let words = with_names(spec, &dashed(Some(spec), words))?;
    let pairs = split_words(&words)?;
    for (name, value) in &pairs {
        let (name, value) = (name.clone(), value.clone());
        let Some(arg) = spec.args.iter().find(|a| a.name == name) else {
            let valid = if spec.args.is_empty() {
                "it takes none".to_owned()
            } else {
                let list: Vec<String> = spec
                    .args
                    .iter()
                    .map(|a| format!("{} ({})", a.name, kind_name(a.kind)))
                    .collect();
                format!("its arguments: {}", list.join(", "))
            };
            // The closest name this action takes and that is not typed already.
            let unused = spec
                .args
                .iter()
                .map(|a| a.name.as_str())
                .filter(|n| !pairs.iter().any(|(typed, _)| typed == n));
            let hint = match (suggest::closest(&name, unused), value.as_deref()) {
                (Some(n), Some(v)) => format!("; did you mean `{n}={v}`?"),
                (Some(n), None) => format!("; did you mean `{n}`?"),
                (None, _) => String::new(),
            };
            return Err(bad_request(format!(
                "`{}` has no argument `{name}`; {valid}{hint}",
                spec.name
            )));
        };
        let v = parse(arg, value.as_deref()).map_err(|why| {
            bad_request(format!(
                "argument `{name}` of `{}` must be {why}, got `{}`",
                spec.name,
                value.as_deref().unwrap_or("")
            ))
        })?;
        args.insert(name, v);
    }
    // A required value with one choice now (an NPC's only weapon) need not be typed.
    for arg in &spec.args {
        if let ([only], true, false) = (
            arg.now.as_slice(),
            arg.required,
            args.contains_key(&arg.name),
        ) {
            args.insert(arg.name.clone(), ArgValue::Text(only.clone()));
        }
    }
    Ok(Args(args))
}

/// Parses one value by its argument's kind; the error says what was expected.
fn parse(arg: &ArgSpec, value: Option<&str>) -> Result<ArgValue, &'static str> {
    match (arg.kind, value) {
        (ArgKind::Flag, None) => Ok(ArgValue::Flag(true)),
        (ArgKind::Flag, Some(v)) => match v.to_ascii_lowercase().as_str() {
            "true" => Ok(ArgValue::Flag(true)),
            "false" => Ok(ArgValue::Flag(false)),
            _ => Err("true or false"),
        },
        (ArgKind::Int, Some(v)) => v
            .trim()
            .parse()
            .map(ArgValue::Int)
            .map_err(|_| "an integer"),
        (ArgKind::Cell, Some(v)) => cell(v).map(ArgValue::Cell).ok_or("a cell X,Y"),
        (ArgKind::Text | ArgKind::Entity, Some(v)) => Ok(ArgValue::Text(v.to_owned())),
        (ArgKind::Int, None) => Err("an integer"),
        (ArgKind::Cell, None) => Err("a cell X,Y"),
        (ArgKind::Text | ArgKind::Entity, None) => Err("a value (NAME=VALUE)"),
    }
}

/// `3,-2` as a cell.
fn cell(v: &str) -> Option<Cell> {
    let (x, y) = v.split_once(',')?;
    Some(Cell::new(x.trim().parse().ok()?, y.trim().parse().ok()?))
}

/// A value for an argument whose kind is unknown: an integer, `true`/`false`, a cell `X,Y`,
/// or else text. Only used for actions the server will refuse or judge anyway.
pub fn guess(v: String) -> ArgValue {
    if let Ok(i) = v.trim().parse() {
        ArgValue::Int(i)
    } else if v.eq_ignore_ascii_case("true") || v.eq_ignore_ascii_case("false") {
        ArgValue::Flag(v.eq_ignore_ascii_case("true"))
    } else if let Some(c) = cell(&v) {
        ArgValue::Cell(c)
    } else {
        ArgValue::Text(v)
    }
}

pub fn kind_name(kind: ArgKind) -> &'static str {
    match kind {
        ArgKind::Int => "int",
        ArgKind::Flag => "flag",
        ArgKind::Text => "text",
        ArgKind::Entity => "entity",
        ArgKind::Cell => "cell",
    }
}

/// What the seat may do now: the text of `act --list`, and the hint after a refused unlisted
/// action. Each action is one line with its cost, its arguments indented below it with the
/// values they take now. A seat acting for several characters (the GM with the NPCs) gets one
/// line per character naming its actions, then each action's details once, its values now
/// per character, instead of every action repeated for every character.
pub fn catalogue_text(catalogue: &[ActionSpec]) -> String {
    let mut out = String::new();
    if catalogue.is_empty() {
        out.push_str("no actions: nothing your seat may do now\n");
    }
    let mut actors: Vec<&EntityId> = Vec::new();
    for spec in catalogue {
        if let Some(a) = &spec.actor
            && !actors.contains(&a)
        {
            actors.push(a);
        }
    }
    if actors.len() <= 1 {
        for spec in catalogue {
            action_block(&mut out, spec, &[spec]);
        }
        return out;
    }
    for spec in catalogue.iter().filter(|s| s.actor.is_none()) {
        action_block(&mut out, spec, &[spec]);
    }
    let _ = writeln!(out, "characters you act for (`--actor ID`):");
    for actor in &actors {
        let names: Vec<&str> = catalogue
            .iter()
            .filter(|s| s.actor.as_ref() == Some(*actor))
            .map(|s| s.name.as_str())
            .collect();
        let _ = writeln!(out, "  {actor}: {}", names.join(", "));
    }
    let mut told: Vec<&str> = Vec::new();
    for spec in catalogue.iter().filter(|s| s.actor.is_some()) {
        // Each open window is an answer of its own (its prompt, its question), never merged
        // with another window's.
        if spec.name == "answer" {
            action_block(&mut out, spec, &[spec]);
            continue;
        }
        if told.contains(&spec.name.as_str()) {
            continue;
        }
        told.push(&spec.name);
        let same: Vec<&ActionSpec> = catalogue
            .iter()
            .filter(|s| s.actor.is_some() && s.name == spec.name)
            .collect();
        action_block(&mut out, spec, &same);
    }
    out
}

/// One action: its head line (name, actor when it has one and is alone, costs), its help, and
/// its arguments; `same` are this action's specs for every character it is listed for, whose
/// values now are shown per character when there are several.
fn action_block(out: &mut String, spec: &ActionSpec, same: &[&ActionSpec]) {
    let mut head = spec.name.clone();
    match (&spec.actor, same.len()) {
        (Some(a), 1) => {
            let _ = write!(head, " (actor {a})");
        }
        (Some(_), n) => {
            let _ = write!(head, " ({n} characters)");
        }
        (None, _) => {}
    }
    if !spec.costs.is_empty() {
        let _ = write!(head, " [costs {}]", spec.costs.join(", "));
    }
    let _ = writeln!(out, "{head}");
    if !spec.help.is_empty() {
        let _ = writeln!(out, "    {}", spec.help);
    }
    for (i, a) in spec.args.iter().enumerate() {
        let _ = writeln!(out, "{}", arg_line(a));
        let values: Vec<(Option<&EntityId>, &[String])> = same
            .iter()
            .filter_map(|s| s.args.get(i).map(|x| (s.actor.as_ref(), x.now.as_slice())))
            .filter(|(_, now)| !now.is_empty())
            .collect();
        match values.as_slice() {
            [] => {}
            [(_, now)] if same.len() == 1 => {
                let _ = writeln!(out, "        now: {}", now.join(", "));
            }
            many => {
                for (actor, now) in many {
                    let who = actor.map(|a| a.as_str()).unwrap_or("-");
                    let _ = writeln!(out, "        now for {who}: {}", now.join(", "));
                }
            }
        }
    }
}

/// `    weapon=text  required: the weapon`, with choices, bounds and GM-only marks.
fn arg_line(a: &ArgSpec) -> String {
    let mut line = format!(
        "    {}={}  {}",
        a.name,
        kind_name(a.kind),
        if a.required { "required" } else { "optional" }
    );
    if !a.choices.is_empty() {
        let _ = write!(line, ", one of {}", a.choices.join("|"));
    }
    match (a.min, a.max) {
        (Some(min), Some(max)) => {
            let _ = write!(line, ", {min}..={max}");
        }
        (Some(min), None) => {
            let _ = write!(line, ", at least {min}");
        }
        (None, Some(max)) => {
            let _ = write!(line, ", at most {max}");
        }
        (None, None) => {}
    }
    if a.gm_only {
        line.push_str(", GM only");
    }
    if !a.help.is_empty() {
        let _ = write!(line, ": {}", a.help);
    }
    line
}

/// `template`'s values as `spec` takes them: each kept where it fits (among the values the
/// argument takes now, or any when the catalogue lists none), else that argument's first value
/// now; a required argument not typed also gets its first value now. So one NPC's
/// `attack aune cleaver` is another's `attack aune club`.
pub fn fitted(spec: &ActionSpec, template: &Args) -> Args {
    let mut args = Args::default();
    for arg in &spec.args {
        let typed = template.0.get(&arg.name);
        let fits = |v: &ArgValue| match v {
            ArgValue::Text(t) => arg.now.is_empty() || arg.now.iter().any(|n| n == t),
            _ => true,
        };
        let value = match typed {
            Some(v) if fits(v) => Some(v.clone()),
            Some(_) => arg.now.first().map(|n| ArgValue::Text(n.clone())),
            None if arg.required => arg.now.first().map(|n| ArgValue::Text(n.clone())),
            None => None,
        };
        if let Some(v) = value {
            args.0.insert(arg.name.clone(), v);
        }
    }
    args
}

/// The action in the catalogue whose name is closest to `typed`, for a refused action that
/// was likely misspelt.
pub fn closest_action<'a>(catalogue: &'a [ActionSpec], typed: &str) -> Option<&'a str> {
    suggest::closest(typed, catalogue.iter().map(|s| s.name.as_str()))
}

/// For each value typed that is not among the ones its argument takes now, but a slip away
/// from one of them: `target=goblin-1` for a typed `target=gobin-1`. Empty when none is.
/// For each typed value that the catalogue does not offer for its argument now: the one a
/// slip away from it (`did you mean`), or else every value the argument takes now. Empty when
/// every typed value is offered, or the catalogue lists none for it.
pub fn closest_values(catalogue: &[ActionSpec], req: &ActRequest) -> Vec<String> {
    let Some(spec) = catalogue
        .iter()
        .find(|s| s.name == req.action && s.actor.as_ref().map(ToString::to_string) == req.actor)
    else {
        return Vec::new();
    };
    let mut hints = Vec::new();
    for (name, value) in &req.args.0 {
        let ArgValue::Text(typed) = value else {
            continue;
        };
        let Some(arg) = spec.args.iter().find(|a| &a.name == name) else {
            continue;
        };
        if arg.now.is_empty() || arg.now.iter().any(|v| v == typed) {
            continue;
        }
        hints.push(
            match suggest::closest(typed, arg.now.iter().map(String::as_str)) {
                Some(v) => format!("did you mean `{name}={v}`?"),
                None => format!("`{name}` takes now: {}", arg.now.join(", ")),
            },
        );
    }
    hints
}

/// The names in the catalogue, each once, for error hints.
pub fn action_names(catalogue: &[ActionSpec]) -> Vec<String> {
    let mut names: Vec<String> = catalogue.iter().map(|s| s.name.clone()).collect();
    names.sort();
    names.dedup();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str, actor: Option<&str>, args: Vec<ArgSpec>) -> ActionSpec {
        ActionSpec {
            name: name.into(),
            help: String::new(),
            actor: actor.map(Into::into),
            args,
            costs: vec![],
        }
    }

    fn words(w: &[&str]) -> Vec<String> {
        w.iter().map(|s| (*s).to_owned()).collect()
    }

    fn catalogue() -> Vec<ActionSpec> {
        vec![
            spec(
                "strike",
                Some("ann"),
                vec![
                    ArgSpec::new("target", ArgKind::Entity, true, ""),
                    ArgSpec::new("bonus", ArgKind::Int, false, ""),
                    ArgSpec::new("hidden", ArgKind::Flag, false, ""),
                    ArgSpec::new("to", ArgKind::Cell, false, ""),
                ],
            ),
            spec("wait", Some("ann"), vec![]),
            spec("wait", Some("bob"), vec![]),
        ]
    }

    /// What `strike` typed as `typed` sends, as `name=value` words, or `error: ` and why not.
    fn sent(typed: &[&str]) -> String {
        match resolve(&catalogue(), "strike", None, &words(typed)) {
            Ok(r) => r
                .args
                .0
                .iter()
                .map(|(k, v)| match v {
                    ArgValue::Flag(true) => k.clone(),
                    ArgValue::Int(i) => format!("{k}={i}"),
                    ArgValue::Text(t) => format!("{k}={t}"),
                    ArgValue::Cell(c) => format!("{k}={},{}", c.x, c.y),
                    other => format!("{k}={other:?}"),
                })
                .collect::<Vec<_>>()
                .join(" "),
            Err(e) => format!("error: {}", e.message),
        }
    }

    /// A required argument left out is filled only when it takes exactly one value now.
    #[test]
    fn a_required_value_with_one_choice_now_need_not_be_typed() {
        let with_now = |now: &[&str]| {
            vec![spec(
                "strike",
                Some("ann"),
                vec![
                    ArgSpec::new("target", ArgKind::Entity, true, ""),
                    ArgSpec {
                        now: now.iter().map(|s| (*s).to_owned()).collect(),
                        ..ArgSpec::new("weapon", ArgKind::Text, true, "")
                    },
                ],
            )]
        };
        let weapon = |now: &[&str], typed: &[&str]| {
            resolve(&with_now(now), "strike", None, &words(typed))
                .map(|r| r.args.0.get("weapon").cloned())
                .ok()
                .flatten()
        };
        let text = |s: &str| Some(ArgValue::Text(s.into()));
        assert_eq!(weapon(&["shiv"], &["x"]), text("shiv"));
        assert_eq!(weapon(&["shiv", "bow"], &["x"]), None);
        assert_eq!(weapon(&[], &["x"]), None);
        assert_eq!(weapon(&["shiv"], &["x", "bow"]), text("bow"));
    }

    /// Values without names fill the arguments in the catalogue's order, skipping flags and
    /// the ones named: (words typed, the arguments sent or the error's start).
    #[test]
    fn values_in_order_fill_the_arguments_not_named() {
        let cases: [(&[&str], &str); 6] = [
            (&["x", "2"], "bonus=2 target=x"),
            (
                &["hidden", "x", "2", "1,1"],
                "bonus=2 hidden target=x to=1,1",
            ),
            (&["bonus=5", "x", "0,-3"], "bonus=5 target=x to=0,-3"),
            (&["to=1,1", "x"], "target=x to=1,1"),
            (
                &["x", "2", "1,1", "extra"],
                "error: `extra` is one value too many: `strike` takes its values in this order: \
                 target, bonus, to",
            ),
            (&["x", "many"], "error: argument `bonus`"),
        ];
        for (typed, want) in cases {
            let got = sent(typed);
            assert!(got.starts_with(want), "{typed:?}: {got}");
        }
    }

    /// The shell's spelling of an argument, as the system pages write it, is the same request
    /// as `NAME=VALUE`: (words typed, the arguments sent or the error's start).
    #[test]
    fn dashed_names_are_the_arguments_they_spell() {
        let cases: [(&[&str], &str); 10] = [
            (&["--target", "x", "--bonus", "-2"], "bonus=-2 target=x"),
            (&["--target=x", "--hidden"], "hidden target=x"),
            // A flag takes no value but true or false: else the word after it is the next
            // value in order.
            (&["--hidden", "x"], "hidden target=x"),
            (&["x", "--hidden", "false"], "hidden=Flag(false) target=x"),
            (&["x", "--hidden", "TRUE", "2"], "bonus=2 hidden target=x"),
            // A name not taken, with no value, is refused by its own name, not the next slot.
            (
                &["x", "--sneak"],
                "error: `strike` has no argument `sneak`; its arguments:",
            ),
            (&["x", "--to", "1,1", "3"], "bonus=3 target=x to=1,1"),
            (
                &["--targte", "x"],
                "error: `strike` has no argument `targte`; its arguments: target (entity), \
                 bonus (int), hidden (flag), to (cell); did you mean `target=x`?",
            ),
            // A value-taking name left without its value gets the kind's error.
            (
                &["x", "--bonus"],
                "error: argument `bonus` of `strike` must be an integer",
            ),
            (
                &["x", "--bonus", "--hidden"],
                "error: argument `bonus` of `strike` must be an integer, got ``",
            ),
        ];
        for (typed, want) in cases {
            let got = sent(typed);
            assert!(got.starts_with(want), "{typed:?}: {got}");
        }
        // A dash for an underscore, as a page may write it, when only the latter is taken.
        let power = spec(
            "strike",
            None,
            vec![ArgSpec::new("power_strike", ArgKind::Int, false, "")],
        );
        assert_eq!(
            dashed(Some(&power), &words(&["--power-strike", "2"])),
            words(&["power_strike=2"])
        );
        assert_eq!(
            dashed(None, &words(&["--power-strike", "2"])),
            words(&["power-strike=2"])
        );
        // Off the catalogue, `--name value` still reaches the server as `name=value`.
        let r = resolve(
            &catalogue(),
            "dance",
            Some("ann"),
            &words(&["--with", "bob"]),
        )
        .expect("unlisted");
        assert_eq!(
            r.args,
            Args::default().with("with", ArgValue::Text("bob".into()))
        );
    }

    /// The client's flags on a line: (words, flags taken, the flags found or the error, the
    /// words left).
    #[test]
    fn the_clients_flags_are_taken_once_each_in_either_spelling() {
        let all: &[&str] = &["actor", "prompt", "end", "npcs"];
        type Case<'a> = (&'a [&'a str], &'a [&'a str], &'a str, &'a [&'a str]);
        let cases: [Case; 8] = [
            (&["--actor", "rui", "x"], all, "actor=rui", &["x"]),
            (&["x", "--actor=rui", "--end"], all, "actor=rui end", &["x"]),
            (&["--prompt=3", "strike"], all, "prompt=3", &["strike"]),
            (&["--npcs", "x"], &["actor", "end"], "", &["--npcs", "x"]),
            (
                &["--actor", "a", "--actor", "b"],
                all,
                "error: --actor is given twice",
                &[],
            ),
            (&["x", "--actor"], all, "error: --actor needs a value", &[]),
            (
                &["--actor", "--end"],
                all,
                "error: --actor needs a value",
                &[],
            ),
            (&["--end=yes"], all, "error: --end takes no value", &[]),
        ];
        for (words_in, taken, want, left) in cases {
            let got = take_line_flags(&words(words_in), taken);
            let (shown, rest) = match got {
                Ok((f, rest)) => {
                    let mut parts = Vec::new();
                    if let Some(a) = f.actor {
                        parts.push(format!("actor={a}"));
                    }
                    if let Some(p) = f.prompt {
                        parts.push(format!("prompt={p}"));
                    }
                    if f.end {
                        parts.push("end".to_owned());
                    }
                    if f.npcs {
                        parts.push("npcs".to_owned());
                    }
                    (parts.join(" "), rest)
                }
                Err(e) => (format!("error: {e}"), Vec::new()),
            };
            assert_eq!(shown, want, "{words_in:?}");
            assert_eq!(rest, words(left), "{words_in:?}");
        }
    }

    #[test]
    fn values_are_parsed_by_their_kind() {
        let r = resolve(
            &catalogue(),
            "strike",
            None,
            &words(&["target=x", "bonus=-2", "hidden", "to=3,-4"]),
        )
        .expect("valid");
        assert_eq!(r.actor.as_deref(), Some("ann"));
        assert!(r.listed);
        let want = Args::default()
            .with("target", ArgValue::Text("x".into()))
            .with("bonus", ArgValue::Int(-2))
            .with("hidden", ArgValue::Flag(true))
            .with("to", ArgValue::Cell(Cell::new(3, -4)));
        assert_eq!(r.args, want);
    }

    #[test]
    fn a_bad_value_or_name_is_a_bad_request_naming_the_valid_ones() {
        let e = resolve(&catalogue(), "strike", None, &words(&["bonus=lots"])).unwrap_err();
        assert_eq!(e.code, ErrorCode::BadRequest);
        assert_eq!(
            e.message,
            "argument `bonus` of `strike` must be an integer, got `lots`"
        );
        let e = resolve(&catalogue(), "strike", None, &words(&["targte=x"])).unwrap_err();
        assert_eq!(
            e.message,
            "`strike` has no argument `targte`; its arguments: target (entity), bonus (int), \
             hidden (flag), to (cell); did you mean `target=x`?"
        );
        // No hint for a name far from every argument, or close only to one already given.
        let e = resolve(&catalogue(), "strike", None, &words(&["speed=3"])).unwrap_err();
        assert!(!e.message.contains("did you mean"), "{e}");
        let e = resolve(
            &catalogue(),
            "strike",
            None,
            &words(&["target=x", "targte=y"]),
        )
        .unwrap_err();
        assert!(!e.message.contains("did you mean"), "{e}");
        let e = resolve(&catalogue(), "strike", None, &words(&["hiden"])).unwrap_err();
        assert!(e.message.ends_with("; did you mean `hidden`?"), "{e}");
        assert_eq!(closest_action(&catalogue(), "stirke"), Some("strike"));
        assert_eq!(closest_action(&catalogue(), "fly"), None);
        let e = resolve(&catalogue(), "strike", None, &words(&["to=3"])).unwrap_err();
        assert!(e.message.contains("must be a cell X,Y"), "{e}");
    }

    #[test]
    fn several_actors_need_one_picked() {
        let e = resolve(&catalogue(), "wait", None, &[]).unwrap_err();
        assert!(
            e.message.contains("(ann, bob): pick one with --actor"),
            "{e}"
        );
        let r = resolve(&catalogue(), "wait", Some("bob"), &[]).expect("picked");
        assert_eq!(r.actor.as_deref(), Some("bob"));
    }

    #[test]
    fn an_unlisted_action_goes_to_the_server_with_guessed_kinds() {
        let cat = vec![spec("wait", Some("ann"), vec![])];
        let r = resolve(
            &cat,
            "fly",
            None,
            &words(&["high=3", "far=true", "to=1,2", "x=y"]),
        )
        .expect("sent on");
        assert!(!r.listed);
        assert_eq!(r.actor.as_deref(), Some("ann"));
        let want = Args::default()
            .with("high", ArgValue::Int(3))
            .with("far", ArgValue::Flag(true))
            .with("to", ArgValue::Cell(Cell::new(1, 2)))
            .with("x", ArgValue::Text("y".into()));
        assert_eq!(r.args, want);
    }

    // Two windows open to the GM for two NPCs: each answer is listed on its own, with its
    // question and the prompt it answers, beside the NPCs' actions grouped as usual.
    #[test]
    fn each_open_window_is_listed_as_its_own_answer() {
        let answer = |actor: &str, id: &str, question: &str| ActionSpec {
            help: question.into(),
            ..spec(
                "answer",
                Some(actor),
                vec![
                    ArgSpec::new("choice", ArgKind::Text, true, "").choices(&["strike", "let_go"]),
                    ArgSpec {
                        now: vec![id.into()],
                        ..ArgSpec::new("prompt", ArgKind::Int, false, "which prompt this answers")
                    },
                ],
            )
        };
        let list = vec![
            answer("gob", "3", "aune leaves gob's reach: strike?"),
            answer("orc", "4", "aune leaves orc's reach: strike?"),
            spec("dash", Some("gob"), vec![]),
            spec("dash", Some("orc"), vec![]),
        ];
        let text = catalogue_text(&list);
        assert_eq!(text.matches("answer (actor").count(), 2, "{text}");
        assert!(text.contains("aune leaves gob's reach: strike?"), "{text}");
        assert!(text.contains("aune leaves orc's reach: strike?"), "{text}");
        assert!(
            text.contains("        now: 3\n") && text.contains("        now: 4\n"),
            "{text}"
        );
        assert_eq!(text.matches("dash (2 characters)").count(), 1, "{text}");
    }

    // One NPC's typed values as another's: a value the argument takes now for this one is
    // kept, one it does not is replaced by its first; a required argument left out gets its
    // first; an optional one left out stays out; numbers and free text are kept.
    #[test]
    fn typed_values_are_fitted_to_another_character() {
        let entry = |weapons: &[&str]| ActionSpec {
            args: vec![
                ArgSpec {
                    now: vec!["aune".into(), "mara".into()],
                    ..ArgSpec::new("target", ArgKind::Entity, true, "")
                },
                ArgSpec {
                    now: weapons.iter().map(|w| (*w).to_owned()).collect(),
                    ..ArgSpec::new("weapon", ArgKind::Text, false, "")
                },
                ArgSpec::new("modifier", ArgKind::Int, false, ""),
            ],
            ..spec("attack", Some("gob"), vec![])
        };
        let typed = |pairs: &[(&str, ArgValue)]| {
            let mut a = Args::default();
            for (k, v) in pairs {
                a = a.with(k, v.clone());
            }
            a
        };
        let t = |s: &str| ArgValue::Text(s.into());
        let cases = [
            (
                typed(&[("target", t("aune")), ("weapon", t("cleaver"))]),
                &["club"][..],
                typed(&[("target", t("aune")), ("weapon", t("club"))]),
            ),
            (
                typed(&[("target", t("aune")), ("weapon", t("cleaver"))]),
                &["cleaver", "club"][..],
                typed(&[("target", t("aune")), ("weapon", t("cleaver"))]),
            ),
            (
                typed(&[("modifier", ArgValue::Int(2))]),
                &["club"][..],
                typed(&[("target", t("aune")), ("modifier", ArgValue::Int(2))]),
            ),
            (
                typed(&[("target", t("nobody"))]),
                &[][..],
                typed(&[("target", t("aune"))]),
            ),
        ];
        for (template, weapons, want) in cases {
            assert_eq!(
                fitted(&entry(weapons), &template),
                want,
                "{template:?} {weapons:?}"
            );
        }
    }
}

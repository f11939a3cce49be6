//! The TUI's command line: from a typed line to what to do, and Tab's completions. Actions
//! and their arguments come from the seat's catalogue, exactly as `tablehold act` and
//! `tablehold answer` type them (the same resolvers), so a line means in the TUI what it
//! means in a shell: `attack goblin-1 knife`, `answer mara`, `move to=3,-2`.
//!
//! Besides the catalogue's actions the line takes a few words of the TUI's own: `help
//! [ACTION]`, `select ID` and `quit`.

use tablehold_rules::{ActionSpec, ArgKind};

use crate::remote::act::{self, ActRequest};
use crate::remote::answer::{self, AnswerRequest};
use crate::suggest;

/// The TUI's own words, offered by Tab beside the catalogue's actions.
pub const OWN_WORDS: [&str; 3] = ["help", "quit", "select"];

/// A request for the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Order {
    /// An action; with `--end` (`end`), the actor's turn ends once it went through, as
    /// `tablehold act --end` does.
    Act {
        act: ActRequest,
        end: bool,
    },
    Answer(AnswerRequest),
}

/// What a line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Send(Order),
    /// Help on one action, or on the keys and the catalogue.
    Help(Option<String>),
    Select(String),
    Quit,
}

/// Reads one line against the catalogue. The error is the one line to show: what is wrong and
/// the closest thing that would work.
pub fn parse(line: &str, catalogue: &[ActionSpec]) -> Result<Command, String> {
    let words: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
    let Some((first, rest)) = words.split_first() else {
        return Err("type an action (Tab lists them), or `help`".to_owned());
    };
    match first.as_str() {
        "quit" | "exit" => return Ok(Command::Quit),
        "help" | "?" => return Ok(Command::Help(rest.first().cloned())),
        "select" => {
            return rest
                .first()
                .map(|id| Command::Select(id.clone()))
                .ok_or_else(|| "select takes a combatant's id: `select goblin-1`".to_owned());
        }
        _ => {}
    }
    // A short form: the start of one action's name, and of no other (`att` for `attack`).
    let names = act::action_names(catalogue);
    let short: Vec<&String> = names
        .iter()
        .filter(|n| n.starts_with(first.as_str()))
        .collect();
    let first = match short.as_slice() {
        [one] if !names.contains(first) => *one,
        _ => first,
    };
    let (flags, words) = take_flags(rest)?;
    if first == "answer" {
        let prompt = match flags.prompt {
            Some(p) => Some(
                p.parse::<u64>()
                    .map_err(|_| format!("--prompt takes a prompt's number, not `{p}`"))?,
            ),
            None => None,
        };
        return answer::resolve(catalogue, prompt, &words)
            .map(|a| Command::Send(Order::Answer(a)))
            .map_err(|e| e.to_string());
    }
    let listed = catalogue.iter().any(|s| &s.name == first);
    if !listed {
        // Off the catalogue: a slip of a listed action or own word is named; anything else
        // still goes to the server, the only one that can say why it is not open now.
        let candidates = names.iter().map(String::as_str).chain(OWN_WORDS);
        if let Some(meant) = suggest::closest(first, candidates) {
            return Err(format!("no action `{first}` now; did you mean `{meant}`?"));
        }
    }
    let end = flags.end;
    act::resolve(catalogue, first, flags.actor.as_deref(), &words)
        .map(|act| Command::Send(Order::Act { act, end }))
        .map_err(|e| e.to_string())
}

/// `--actor ID`, `--prompt N` and `--end` taken out of the words, as the shell's short form
/// takes them (`act::take_line_flags`).
fn take_flags(words: &[String]) -> Result<(act::LineFlags, Vec<String>), String> {
    act::take_line_flags(words, &["actor", "prompt", "end"])
}

/// What Tab does to a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    /// The line with its last word completed as far as every candidate agrees.
    pub line: String,
    /// The candidates, when more than one is left.
    pub offered: Vec<String>,
}

/// The ids Tab may offer besides the catalogue's, from the state the seat holds.
#[derive(Debug, Clone, Default)]
pub struct Known {
    /// Every combatant, for `select`.
    pub ids: Vec<String>,
    /// The seat's own characters (a player's, the GM's those no player plays), for `--actor`.
    pub mine: Vec<String>,
}

/// Completes the last word of `line` (the word being typed, or a new one after a space):
/// the first word from the actions and the TUI's own words; an argument as `NAME=` or, at
/// the place of the next value in order, from the values it takes now (those of the actor
/// `--actor` names, when it names one); a flag after `--`; after `--actor`, the characters
/// the catalogue lists for the action and the seat's own. Arguments only the GM may give are
/// offered to the GM only.
pub fn complete(line: &str, catalogue: &[ActionSpec], known: &Known, gm: bool) -> Completion {
    let (head, partial) = match line.rfind(' ') {
        Some(i) => (&line[..=i], &line[i + 1..]),
        None => ("", line),
    };
    let words: Vec<&str> = head.split_whitespace().collect();
    let candidates: Vec<String> = match words.split_first() {
        None => {
            let mut c = act::action_names(catalogue);
            c.extend(OWN_WORDS.iter().map(|w| (*w).to_owned()));
            c
        }
        Some((&"select", _)) => known.ids.clone(),
        Some((&"help", _)) => act::action_names(catalogue),
        Some((action, typed)) => {
            let typed: Vec<String> = typed.iter().map(|w| (*w).to_owned()).collect();
            match take_flags(&typed) {
                _ if words.last() == Some(&"--actor") => actors(catalogue, action, &known.mine),
                // A flag still waiting for its value, one Tab cannot know (`--prompt`).
                Err(_) => Vec::new(),
                Ok(_) if partial.starts_with('-') => {
                    let mut names = flag_names(action);
                    names.extend(arg_flags(catalogue, action, gm));
                    names
                }
                Ok((flags, rest)) => {
                    let rest: Vec<&str> = rest.iter().map(String::as_str).collect();
                    let actor = flags.actor.as_deref();
                    arg_candidates(catalogue, action, actor, &rest, partial, gm)
                }
            }
        }
    };
    let mut fitting: Vec<String> = candidates
        .into_iter()
        .filter(|c| c.starts_with(partial))
        .collect();
    fitting.sort();
    fitting.dedup();
    match fitting.as_slice() {
        [] => Completion {
            line: line.to_owned(),
            offered: Vec::new(),
        },
        [one] => {
            // `name=` waits for its value; anything else is a whole word.
            let space = if one.ends_with('=') { "" } else { " " };
            Completion {
                line: format!("{head}{one}{space}"),
                offered: Vec::new(),
            }
        }
        several => Completion {
            line: format!("{head}{}", common_prefix(several)),
            offered: several.to_vec(),
        },
    }
}

/// Who `--actor` may name for `action`: the characters the catalogue lists it for now, and
/// the seat's own from the state (an action not open now still goes to the server, which
/// says why).
fn actors(catalogue: &[ActionSpec], action: &str, mine: &[String]) -> Vec<String> {
    catalogue
        .iter()
        .filter(|s| s.name == action)
        .filter_map(|s| s.actor.as_ref().map(ToString::to_string))
        .chain(mine.iter().cloned())
        .collect()
}

/// The flags a line takes after its first word, as `tablehold act` and `answer` take them.
fn flag_names(action: &str) -> Vec<String> {
    let flags: &[&str] = if action == "answer" {
        &["--prompt"]
    } else {
        &["--actor", "--end"]
    };
    flags.iter().map(|f| (*f).to_owned()).collect()
}

/// The action's arguments spelled as the system pages write them (`--target`), for Tab.
fn arg_flags(catalogue: &[ActionSpec], action: &str, gm: bool) -> Vec<String> {
    catalogue
        .iter()
        .filter(|s| s.name == action)
        .flat_map(|s| s.args.iter())
        .filter(|a| gm || !a.gm_only)
        .map(|a| format!("--{}", a.name))
        .collect()
}

/// The words that may come next for `action` (done by `actor`, when the line names one):
/// after `NAME=`, that argument's values now; else the values of the next argument in order,
/// and the names of those not typed yet.
fn arg_candidates(
    catalogue: &[ActionSpec],
    action: &str,
    actor: Option<&str>,
    typed: &[&str],
    partial: &str,
    gm: bool,
) -> Vec<String> {
    let specs: Vec<&ActionSpec> = catalogue
        .iter()
        .filter(|s| s.name == action)
        .filter(|s| actor.is_none_or(|a| s.actor.as_ref().is_some_and(|x| x.as_str() == a)))
        .collect();
    let mut out = Vec::new();
    for spec in specs {
        if let Some((name, _)) = partial.split_once('=') {
            if let Some(arg) = spec.args.iter().find(|a| a.name == name) {
                out.extend(values(arg).map(|v| format!("{name}={v}")));
            }
            continue;
        }
        // After `--NAME` of an argument that takes a value, that argument's values now.
        let pending = typed
            .last()
            .and_then(|w| w.strip_prefix("--"))
            .and_then(|n| spec.args.iter().find(|a| a.name == n))
            .filter(|a| a.kind != ArgKind::Flag);
        if let Some(arg) = pending {
            out.extend(values(arg).map(str::to_owned));
            continue;
        }
        let owned: Vec<String> = typed.iter().map(|w| (*w).to_owned()).collect();
        let typed = act::dashed(Some(spec), &owned);
        let named: Vec<&str> = typed
            .iter()
            .filter_map(|w| w.split_once('=').map(|(n, _)| n))
            .collect();
        // A bare word is a value in order, unless it names a flag of the action.
        let bare = typed
            .iter()
            .filter(|w| !w.contains('='))
            .filter(|w| {
                !spec
                    .args
                    .iter()
                    .any(|a| a.kind == ArgKind::Flag && a.name == **w)
            })
            .count();
        let open: Vec<&tablehold_rules::ArgSpec> = spec
            .args
            .iter()
            .filter(|a| a.kind != ArgKind::Flag && !named.contains(&a.name.as_str()))
            .collect();
        if let Some(next) = open.get(bare) {
            out.extend(values(next).map(str::to_owned));
        }
        out.extend(
            spec.args
                .iter()
                .filter(|a| gm || !a.gm_only)
                .filter(|a| !named.contains(&a.name.as_str()))
                .map(|a| format!("{}=", a.name)),
        );
    }
    out
}

/// The values an argument takes now, else its fixed choices.
fn values(arg: &tablehold_rules::ArgSpec) -> impl Iterator<Item = &str> {
    let from = if arg.now.is_empty() {
        &arg.choices
    } else {
        &arg.now
    };
    from.iter().map(String::as_str)
}

fn common_prefix(words: &[String]) -> String {
    let Some(first) = words.first() else {
        return String::new();
    };
    let mut len = first.len();
    for w in words {
        len = len.min(
            first
                .char_indices()
                .zip(w.chars())
                .take_while(|((_, a), b)| a == b)
                .map(|((i, a), _)| i + a.len_utf8())
                .last()
                .unwrap_or(0),
        );
    }
    first[..len].to_owned()
}

/// The one-line help for what the line holds: the action's arguments in order with what they
/// take now, its costs and its help; for an empty line, the keys.
pub fn hint(line: &str, catalogue: &[ActionSpec], gm: bool) -> String {
    let Some(first) = line.split_whitespace().next() else {
        return "Tab completes · Enter sends · ↑↓ history · ^N/^P select · PgUp/PgDn log · \
                `help` · ^C quits"
            .to_owned();
    };
    let Some(spec) = catalogue.iter().find(|s| s.name == first) else {
        return match first {
            "help" => "help [ACTION]: what an action takes, or every action open now".to_owned(),
            "select" => "select ID: show that combatant's sheet".to_owned(),
            "quit" | "exit" => "quit: leave the TUI (the table goes on)".to_owned(),
            _ => format!("`{first}` is not open to you now (Tab lists what is)"),
        };
    };
    usage(spec, gm)
}

/// `attack target=<entity: goblin-1|goblin-2> weapon=<text> · action · Strike with...`
pub fn usage(spec: &ActionSpec, gm: bool) -> String {
    let mut out = spec.name.clone();
    for a in spec.args.iter().filter(|a| gm || !a.gm_only) {
        let vals: Vec<&str> = values(a).collect();
        let now = if vals.is_empty() {
            String::new()
        } else {
            format!(": {}", vals.join("|"))
        };
        let (open, close) = if a.required { ("", "") } else { ("[", "]") };
        out.push_str(&format!(
            " {open}{}=<{}{now}>{close}",
            a.name,
            act::kind_name(a.kind)
        ));
    }
    if !spec.costs.is_empty() {
        out.push_str(&format!(" · {}", spec.costs.join(", ")));
    }
    if !spec.help.is_empty() {
        out.push_str(&format!(" · {}", spec.help));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablehold_rules::{ArgSpec, ArgValue, EntityId};

    fn catalogue() -> Vec<ActionSpec> {
        let mut target = ArgSpec::new("target", ArgKind::Entity, true, "who");
        target.now = vec!["goblin-1".into(), "goblin-2".into(), "mara".into()];
        let mut weapon = ArgSpec::new("weapon", ArgKind::Text, false, "with what");
        weapon.now = vec!["knife".into()];
        let mut tn = ArgSpec::new("tn", ArgKind::Int, false, "the target number");
        tn.gm_only = true;
        let attack = ActionSpec {
            name: "attack".into(),
            help: "Strike".into(),
            actor: Some(EntityId("aune".into())),
            args: vec![target, weapon, tn],
            costs: vec!["action".into()],
        };
        let end = ActionSpec {
            name: "end_turn".into(),
            help: "End the turn".into(),
            actor: Some(EntityId("aune".into())),
            args: vec![],
            costs: vec![],
        };
        vec![attack, end]
    }

    #[test]
    fn a_line_becomes_the_request_act_would_send() {
        let c = catalogue();
        let Ok(Command::Send(Order::Act { act: a, end: false })) =
            parse("attack goblin-2 knife", &c)
        else {
            panic!("attack parses");
        };
        assert_eq!(a.action, "attack");
        assert_eq!(a.actor.as_deref(), Some("aune"));
        assert_eq!(
            a.args.0.get("target"),
            Some(&ArgValue::Text("goblin-2".into()))
        );
        assert_eq!(
            a.args.0.get("weapon"),
            Some(&ArgValue::Text("knife".into()))
        );
        // `--end` anywhere ends the turn after the action; it is not a value.
        let Ok(Command::Send(Order::Act { act, end: true })) = parse("attack --end goblin-1", &c)
        else {
            panic!("--end parses");
        };
        assert_eq!(
            act.args.0.get("target"),
            Some(&ArgValue::Text("goblin-1".into()))
        );
        // A short form: the start of one action's name only.
        let Ok(Command::Send(Order::Act { act, .. })) = parse("att goblin-1", &c) else {
            panic!("a short form parses");
        };
        assert_eq!(act.action, "attack");
        assert!(parse("e", &c).is_ok_and(|c| matches!(
            c,
            Command::Send(Order::Act { act, .. }) if act.action == "end_turn"
        )));
        assert_eq!(parse("  quit ", &c), Ok(Command::Quit));
        assert_eq!(
            parse("help attack", &c),
            Ok(Command::Help(Some("attack".into())))
        );
        assert_eq!(parse("select mara", &c), Ok(Command::Select("mara".into())));
    }

    #[test]
    fn a_slip_gets_the_closest_thing_that_works() {
        let c = catalogue();
        assert_eq!(
            parse("atack goblin-1", &c),
            Err("no action `atack` now; did you mean `attack`?".into())
        );
        assert_eq!(
            parse("qiut", &c),
            Err("no action `qiut` now; did you mean `quit`?".into())
        );
        let err = parse("attack taget=goblin-1", &c).expect_err("bad name");
        assert!(err.contains("did you mean `target=goblin-1`?"), "{err}");
        // Far from anything listed: the server says why (an action not open now).
        assert!(matches!(
            parse("dodge", &c),
            Ok(Command::Send(Order::Act {
                act: ActRequest { listed: false, .. },
                ..
            }))
        ));
        assert!(parse("", &c).is_err());
        assert!(
            parse("answer", &c)
                .expect_err("none open")
                .contains("no prompt")
        );
    }

    #[test]
    fn tab_completes_actions_then_arguments_in_order() {
        let c = catalogue();
        let known = Known {
            ids: vec!["aune".to_owned(), "goblin-1".to_owned()],
            mine: vec!["aune".to_owned()],
        };
        let cases: &[(&str, &str, &[&str])] = &[
            ("at", "attack ", &[]),
            ("", "", &["attack", "end_turn", "help", "quit", "select"]),
            ("e", "end_turn ", &[]),
            ("attack g", "attack goblin-", &["goblin-1", "goblin-2"]),
            ("attack goblin-1 k", "attack goblin-1 knife ", &[]),
            ("attack w", "attack weapon=", &[]),
            ("attack weapon=", "attack weapon=knife ", &[]),
            ("select g", "select goblin-1 ", &[]),
            ("zzz", "zzz", &[]),
            // `tn=` is the GM's: not offered to a player.
            (
                "attack goblin-1 knife t",
                "attack goblin-1 knife target=",
                &[],
            ),
        ];
        for (typed, line, offered) in cases {
            let got = complete(typed, &c, &known, false);
            assert_eq!(got.line, *line, "for `{typed}`");
            let offered: Vec<String> = offered.iter().map(|s| (*s).to_owned()).collect();
            assert_eq!(got.offered, offered, "for `{typed}`");
        }
    }

    // See: issue #16 (`--actor` completion).
    #[test]
    fn tab_completes_the_actor_and_then_that_actors_values() {
        // The GM's catalogue: goblin-1 and goblin-2 may both attack now, each whom it reaches.
        let c = catalogue();
        let attack = |actor: &str, targets: &[&str]| {
            let mut a = c[0].clone();
            a.actor = Some(EntityId(actor.into()));
            a.args[0].now = targets.iter().map(|t| (*t).to_owned()).collect();
            a
        };
        let gm = vec![
            attack("goblin-1", &["aune"]),
            attack("goblin-2", &["aune", "mara"]),
            c[1].clone(),
        ];
        // The GM's own characters in the state: the two goblins and a warden who cannot
        // attack now (it still may be named: the server says why not).
        let known = Known {
            ids: ["aune", "goblin-1", "goblin-2", "mara", "warden"]
                .map(str::to_owned)
                .to_vec(),
            mine: ["goblin-1", "goblin-2", "warden"]
                .map(str::to_owned)
                .to_vec(),
        };
        let cases: &[(&str, &str, &[&str])] = &[
            ("attack --a", "attack --actor ", &[]),
            // The client's flags and the action's arguments as the pages write them (the
            // GM's `--tn` too, for the GM).
            (
                "attack --",
                "attack --",
                &["--actor", "--end", "--target", "--tn", "--weapon"],
            ),
            ("attack --w", "attack --weapon ", &[]),
            // After `--target`, the target's values (whom either goblin reaches); after it
            // and its value, the weapon's; a value after `--weapon knife` is the target.
            ("attack --target ", "attack --target ", &["aune", "mara"]),
            ("attack --target m", "attack --target mara ", &[]),
            ("attack --target mara k", "attack --target mara knife ", &[]),
            (
                "attack --weapon knife m",
                "attack --weapon knife mara ",
                &[],
            ),
            (
                "attack --actor ",
                "attack --actor ",
                &["goblin-1", "goblin-2", "warden"],
            ),
            (
                "attack --actor g",
                "attack --actor goblin-",
                &["goblin-1", "goblin-2"],
            ),
            ("attack --actor goblin-2", "attack --actor goblin-2 ", &[]),
            ("attack --actor w", "attack --actor warden ", &[]),
            // Then the values are that actor's: goblin-2 reaches mara, goblin-1 does not.
            (
                "attack --actor goblin-2 m",
                "attack --actor goblin-2 mara ",
                &[],
            ),
            (
                "attack --actor goblin-1 m",
                "attack --actor goblin-1 m",
                &[],
            ),
            // The flag and its value do not count as the first value: the weapon comes next.
            (
                "attack --actor goblin-2 mara k",
                "attack --actor goblin-2 mara knife ",
                &[],
            ),
            ("answer --", "answer --prompt ", &[]),
            ("answer --prompt ", "answer --prompt ", &[]),
        ];
        for (typed, line, offered) in cases {
            let got = complete(typed, &gm, &known, true);
            assert_eq!(got.line, *line, "for `{typed}`");
            let offered: Vec<String> = offered.iter().map(|s| (*s).to_owned()).collect();
            assert_eq!(got.offered, offered, "for `{typed}`");
        }
        // A player's: her one character, from the state, for an action the catalogue lists
        // for no one now.
        let ines = Known {
            ids: known.ids.clone(),
            mine: vec!["aune".to_owned()],
        };
        let got = complete("dodge --actor ", &gm, &ines, false);
        assert_eq!(got.line, "dodge --actor aune ");
    }

    #[test]
    fn the_hint_shows_what_the_action_takes_now() {
        let c = catalogue();
        assert_eq!(
            hint("attack gob", &c, false),
            "attack target=<entity: goblin-1|goblin-2|mara> [weapon=<text: knife>] · action · \
             Strike"
        );
        assert!(hint("attack", &c, true).contains("[tn=<int>]"));
        assert!(hint("", &c, false).contains("Tab completes"));
        assert!(hint("dance", &c, false).contains("not open to you now"));
    }
}

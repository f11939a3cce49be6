//! `tablehold watch`: the table as it happens, told in plain lines a person (or a screen
//! reader) can follow: one line per event, `YOUR TURN: CHARACTER` when a turn starts for a
//! character this seat plays, and for a prompt that asks this seat the command that answers
//! it. No colour, no drawing, nothing that needs a terminal.
//!
//! Pure: [`Watcher`] turns the state and events it is given into text, and keeps only what it
//! needs for that (who plays which character). Connecting, the dice epochs and printing are
//! `remote::watch`'s.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use tablehold_protocol::{EventEnvelope, PromptView, TableView};
use tablehold_rules::{ArgSpec, Event, Fact, Part, PendingStep, Seat};

use crate::lines;

/// What `watch` knows between events.
pub struct Watcher {
    seat: Seat,
    /// Each character's seat, `None` when the GM plays it: from the state, then from
    /// `combatant_added`, `owner_set` and `combatant_removed` facts.
    owners: BTreeMap<String, Option<String>>,
    /// `tablehold --seat NAME`: how the user acts as this seat, for the answer line.
    command: String,
    verbose: bool,
    /// The windows open to this seat that it has not answered: with more than one, an answer
    /// line names the window it answers (`--prompt ID`).
    open_to_me: BTreeSet<u64>,
}

impl Watcher {
    pub fn new(view: &TableView, seat: &Seat, command: String, verbose: bool) -> Watcher {
        Watcher {
            seat: seat.clone(),
            owners: view
                .combatants
                .iter()
                .map(|c| (c.id.clone(), c.owner.clone()))
                .collect(),
            command,
            verbose,
            open_to_me: BTreeSet::new(),
        }
        .with_open(view)
    }

    fn with_open(mut self, view: &TableView) -> Watcher {
        self.open_to_me = open_windows(view)
            .into_iter()
            .filter(|p| self.asked_by_view(p))
            .map(|p| p.prompt_id)
            .collect();
        self
    }

    /// The first lines: what is being watched, then whose turn it is and the open prompt, if
    /// they concern this seat.
    pub fn start_text(&self, view: &TableView, now_ms: u64) -> String {
        let mut out = format!(
            "watching table \"{}\" ({}) as {}; stop with Ctrl-C\n",
            view.name, view.table, self.seat
        );
        let now: Vec<&str> = if view.may_act.is_empty() {
            view.current.iter().map(String::as_str).collect()
        } else {
            view.may_act.iter().map(String::as_str).collect()
        };
        for id in now.into_iter().filter(|c| self.plays(c)) {
            let _ = writeln!(out, "YOUR TURN: {id}");
        }
        for p in open_windows(view) {
            if self.asked_by_view(p) {
                let left = p.deadline_ms.saturating_sub(now_ms);
                let mut takes = p.options.join(", ");
                for a in &p.args {
                    if !takes.is_empty() {
                        takes.push_str("; ");
                    }
                    takes.push_str(&placeholder(a));
                }
                let _ = writeln!(
                    out,
                    "prompt {} asks you: {} [{takes}]",
                    p.prompt_id, p.question
                );
                let asked = Asked {
                    prompt_id: p.prompt_id,
                    options: &p.options,
                    args: &p.args,
                    default: &p.default,
                };
                let _ = writeln!(out, "{}", self.answer_line(&asked, left));
            } else {
                let _ = writeln!(out, "prompt {}: {}", p.prompt_id, p.question);
            }
        }
        out
    }

    /// The lines for one event: the event's sentence (its facts joined, those only
    /// `--verbose` shows left out; nothing when none is left), then the calls to this seat.
    pub fn event_text(&mut self, e: &EventEnvelope, now_ms: u64) -> String {
        let parts: Vec<Part> = e
            .parts
            .iter()
            .filter(|p| self.verbose || !lines::is_machinery(&p.fact))
            .cloned()
            .collect();
        let facts: Vec<Fact> = parts.iter().map(|p| p.fact.clone()).collect();
        let sentences = lines::event_lines(&Event { parts }, &self.seat, None);
        let mut out = String::new();
        if !sentences.is_empty() {
            if self.verbose {
                let _ = write!(out, "#{} ", e.seq);
            }
            let _ = writeln!(out, "{}", sentences.join("; "));
        }
        for fact in &facts {
            self.track(fact);
            match fact {
                Fact::TurnStarted { entity: Some(id) } if self.plays(id.as_str()) => {
                    let _ = writeln!(out, "YOUR TURN: {id}");
                }
                // A group's turn or the spotlight: each of this seat's characters that may act.
                Fact::TurnsOpened { now, .. } => {
                    for id in now.iter().filter(|id| self.plays(id.as_str())) {
                        let _ = writeln!(out, "YOUR TURN: {id}");
                    }
                }
                Fact::DecisionRequested { step } if self.asked(step) => {
                    self.open_to_me.insert(step.prompt_id);
                    // The deadline runs from when the server logged the prompt; a clock
                    // behind the server's must not show more time than the prompt gives.
                    let deadline = e.at_ms.saturating_add(step.timeout_ms);
                    let left = deadline.saturating_sub(now_ms).min(step.timeout_ms);
                    let asked = Asked {
                        prompt_id: step.prompt_id,
                        options: &step.options,
                        args: &step.args,
                        default: &step.default,
                    };
                    let _ = writeln!(out, "{}", self.answer_line(&asked, left));
                }
                Fact::DecisionResolved { prompt_id, .. } => {
                    self.open_to_me.remove(prompt_id);
                }
                Fact::DecisionAnswered { prompt_id, answer } if answer.seat == self.seat => {
                    self.open_to_me.remove(prompt_id);
                }
                _ => {}
            }
        }
        out
    }

    /// `answer with: tablehold --seat ines answer CHOICE, where CHOICE is aune or mara (2.9 s
    /// left, then aune)`; for a window answered with arguments, each as `NAME=<KIND>`; with
    /// more than one window open to the seat, `--prompt ID` too.
    fn answer_line(&self, asked: &Asked<'_>, left_ms: u64) -> String {
        let mut words: Vec<String> = Vec::new();
        if !asked.options.is_empty() {
            words.push("CHOICE".into());
        }
        words.extend(asked.args.iter().filter(|a| a.required).map(placeholder));
        if self.open_to_me.len() > 1 {
            words.push(format!("--prompt {}", asked.prompt_id));
        }
        let choices: Vec<String> = asked.options.iter().map(|o| shell_word(o)).collect();
        let where_choice = match choices.as_slice() {
            [] => String::new(),
            [one] => format!(", where CHOICE is {one}"),
            [init @ .., last] => format!(", where CHOICE is {} or {last}", init.join(", ")),
        };
        let default = if asked.options.is_empty() {
            "its default".to_owned()
        } else {
            asked.default.to_owned()
        };
        format!(
            "answer with: {} answer {}{where_choice} ({}.{} s left, then {default})",
            self.command,
            words.join(" "),
            left_ms / 1000,
            (left_ms % 1000) / 100
        )
    }

    /// Whether this seat plays `entity`: a player her own characters, the GM those no player
    /// has; a spectator none.
    fn plays(&self, entity: &str) -> bool {
        let Some(owner) = self.owners.get(entity) else {
            return false;
        };
        match (&self.seat, owner) {
            (Seat::Gm, None) => true,
            (Seat::Player(me), Some(o)) => me.0 == *o,
            _ => false,
        }
    }

    /// Whether a prompt asks this seat. A stand-in (the prompt asks someone else) has no
    /// options and no arguments; the GM is asked by its own prompts (no seat, or the GM
    /// named).
    fn asked(&self, step: &PendingStep) -> bool {
        (!step.options.is_empty() || !step.args.is_empty())
            && match &self.seat {
                Seat::Gm => step.seats.is_empty() || step.seats.contains(&Seat::Gm),
                seat => step.seats.contains(seat),
            }
    }

    fn asked_by_view(&self, p: &PromptView) -> bool {
        let me = match &self.seat {
            Seat::Gm => "gm",
            Seat::Player(id) | Seat::Spectator(id) => id.0.as_str(),
        };
        let waiting = p.waiting.is_empty() || p.waiting.iter().any(|s| s == me);
        (!p.options.is_empty() || !p.args.is_empty()) && p.seats.iter().any(|s| s == me) && waiting
    }

    fn track(&mut self, fact: &Fact) {
        match fact {
            Fact::CombatantAdded { combatant, .. } => {
                let owner = combatant.owner.as_ref().map(|o| o.0.clone());
                self.owners.insert(combatant.id.as_str().to_owned(), owner);
            }
            Fact::OwnerSet { entity, to, .. } => {
                let owner = to.as_ref().map(|o| o.0.clone());
                self.owners.insert(entity.as_str().to_owned(), owner);
            }
            Fact::CombatantRemoved { entity } => {
                self.owners.remove(entity.as_str());
            }
            _ => {}
        }
    }
}

/// What a window asks, for its answer line.
struct Asked<'a> {
    prompt_id: u64,
    options: &'a [String],
    args: &'a [ArgSpec],
    default: &'a str,
}

/// The open windows a view holds; a server older than windows sends only the newest.
fn open_windows(view: &TableView) -> Vec<&PromptView> {
    if view.prompts.is_empty() {
        view.prompt.iter().collect()
    } else {
        view.prompts.iter().collect()
    }
}

/// `points=<int 1 to 3>`: an argument to type, with its kind and bounds.
fn placeholder(a: &ArgSpec) -> String {
    let bounds = match (a.min, a.max) {
        (Some(lo), Some(hi)) => format!(" {lo} to {hi}"),
        _ => String::new(),
    };
    format!("{}=<{}{bounds}>", a.name, super::act::kind_name(a.kind))
}

/// `word` as one word for a POSIX shell: as it is when it holds only characters no shell
/// treats specially, else in single quotes.
pub fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word.chars().all(|c| {
            c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | ',' | ':' | '=' | '+')
        });
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablehold_protocol::CombatantView;
    use tablehold_rules::{Audience, EntityId, SeatId};

    fn pc(id: &str, owner: Option<&str>) -> CombatantView {
        CombatantView {
            id: id.into(),
            name: id.into(),
            kind: "pc".into(),
            side: "players".into(),
            owner: owner.map(Into::into),
            position: None,
            statuses: vec![],
            resources: None,
            sheet: None,
        }
    }

    fn view(prompt: Option<PromptView>) -> TableView {
        TableView {
            table: "t1".into(),
            name: "friday".into(),
            system: "sys".into(),
            head: 4,
            encounter: true,
            round: 1,
            current: Some("aune".into()),
            may_act: vec!["aune".into()],
            turn: "aune's turn".into(),
            order: vec!["aune".into(), "mara".into()],
            combatants: vec![
                pc("aune", Some("ines")),
                pc("mara", Some("rui")),
                pc("gob", None),
            ],
            prompts: prompt.iter().cloned().collect(),
            prompt,
            digest: None,
            terrain: vec![],
            grid: None,
        }
    }

    fn ines() -> Seat {
        Seat::Player(SeatId("ines".into()))
    }

    fn event(seq: u64, at_ms: u64, facts: Vec<Fact>) -> EventEnvelope {
        EventEnvelope {
            table: "t1".into(),
            seq,
            version: 1,
            at_ms,
            link: String::new(),
            parts: facts
                .into_iter()
                .map(|fact| Part {
                    audience: Audience::Everyone,
                    fact,
                })
                .collect(),
        }
    }

    fn turn(id: &str) -> Fact {
        Fact::TurnStarted {
            entity: Some(EntityId(id.into())),
        }
    }

    fn step(seats: Vec<Seat>, question: &str, options: &[&str]) -> Box<PendingStep> {
        Box::new(PendingStep {
            prompt_id: 7,
            rule: "r".into(),
            actor: None,
            seats,
            question: question.into(),
            options: options.iter().map(|o| (*o).to_owned()).collect(),
            default: options.first().map_or(String::new(), |o| (*o).to_owned()),
            timeout_ms: 30_000,
            trigger: None,
            data: BTreeMap::new(),
            ..Default::default()
        })
    }

    fn watcher(seat: Seat, verbose: bool) -> Watcher {
        Watcher::new(&view(None), &seat, "tablehold --seat ines".into(), verbose)
    }

    #[test]
    fn a_turn_of_a_character_the_seat_plays_is_called_out() {
        let mut w = watcher(ines(), false);
        assert_eq!(
            w.event_text(&event(5, 0, vec![turn("aune")]), 0),
            "aune's turn starts\nYOUR TURN: aune\n"
        );
        assert_eq!(
            w.event_text(&event(6, 0, vec![turn("mara")]), 0),
            "mara's turn starts\n"
        );
        // The GM plays what no player does; a character given to Ines becomes hers.
        let mut gm = watcher(Seat::Gm, false);
        assert!(
            gm.event_text(&event(7, 0, vec![turn("gob")]), 0)
                .contains("YOUR TURN: gob")
        );
        let given = Fact::OwnerSet {
            entity: EntityId("gob".into()),
            from: None,
            to: Some(SeatId("ines".into())),
        };
        w.event_text(&event(8, 0, vec![given, turn("gob")]), 0);
        assert!(
            w.event_text(&event(9, 0, vec![turn("gob")]), 0)
                .contains("YOUR TURN: gob")
        );
        // A side's turn: each of her characters among those who may act is called out.
        let side = Fact::TurnsOpened {
            shape: tablehold_rules::turns::TurnShape::Group,
            group: Some("players".into()),
            now: vec!["aune".into(), "gob".into(), "mara".into()],
        };
        assert_eq!(
            w.event_text(&event(10, 0, vec![side]), 0),
            "players' turn: aune, gob, mara may act, in any order\nYOUR TURN: aune\nYOUR TURN: gob\n"
        );
    }

    #[test]
    fn a_prompt_for_the_seat_says_how_to_answer_and_one_for_others_does_not() {
        let mut w = watcher(ines(), false);
        let asks = step(
            vec![ines(), Seat::Player(SeatId("rui".into()))],
            "Who goes first?",
            &["aune", "mara"],
        );
        let text = w.event_text(
            &event(5, 1_000, vec![Fact::DecisionRequested { step: asks }]),
            3_550,
        );
        assert_eq!(
            text,
            "prompt 7 asks player ines, player rui: Who goes first? [aune, mara] (default aune)\n\
             answer with: tablehold --seat ines answer CHOICE, where CHOICE is aune or mara \
             (27.4 s left, then aune)\n"
        );
        let stand_in = step(vec![Seat::Gm], "the GM has a decision to make", &[]);
        let text = w.event_text(
            &event(6, 0, vec![Fact::DecisionRequested { step: stand_in }]),
            0,
        );
        assert_eq!(text, "prompt 7: the GM has a decision to make\n");
    }

    #[test]
    fn the_dice_machinery_shows_only_when_verbose() {
        let facts = || {
            vec![
                Fact::EpochSealed { epoch: 1 },
                Fact::Noted { text: "hi".into() },
                Fact::DiceDrawn {
                    epoch: 1,
                    spans: vec![[0, 1]],
                    sealed: Vec::new(),
                },
            ]
        };
        assert_eq!(
            watcher(ines(), false).event_text(&event(5, 0, facts()), 0),
            "note: hi\n"
        );
        assert_eq!(
            watcher(ines(), false)
                .event_text(&event(5, 0, vec![Fact::EpochSealed { epoch: 1 }]), 0),
            ""
        );
        assert_eq!(
            watcher(ines(), true).event_text(&event(5, 0, facts()), 0),
            "#5 epoch 1 sealed: dice may roll; note: hi; dice: epoch 1, counters 0\n"
        );
    }

    #[test]
    fn the_start_says_whose_turn_and_what_is_asked() {
        let prompt = PromptView {
            prompt_id: 2,
            question: "Spare?".into(),
            options: vec!["spare".into(), "strike it".into()],
            default: "spare".into(),
            seats: vec!["ines".into()],
            deadline_ms: 10_000,
            answering: "first".into(),
            blocks: true,
            args: vec![],
            waiting: vec!["ines".into()],
        };
        let v = view(Some(prompt));
        let w = Watcher::new(&v, &ines(), "tablehold --seat ines".into(), false);
        assert_eq!(
            w.start_text(&v, 9_000),
            "watching table \"friday\" (t1) as player ines; stop with Ctrl-C\n\
             YOUR TURN: aune\n\
             prompt 2 asks you: Spare? [spare, strike it]\n\
             answer with: tablehold --seat ines answer CHOICE, where CHOICE is spare or \
             'strike it' (1.0 s left, then spare)\n"
        );
        let rui = Seat::Player(SeatId("rui".into()));
        let w = Watcher::new(&v, &rui, "tablehold --seat rui".into(), false);
        assert_eq!(
            w.start_text(&v, 9_000),
            "watching table \"friday\" (t1) as player rui; stop with Ctrl-C\nprompt 2: Spare?\n"
        );
    }

    // Two windows open to Ines: each answer line names its window; one answered with a number
    // shows the argument to type. Once she has answered one, the other's line needs no id.
    #[test]
    fn with_two_windows_open_each_answer_line_names_its_window() {
        let opening = PromptView {
            prompt_id: 2,
            question: "Take the opening?".into(),
            options: vec!["strike".into(), "hold".into()],
            default: "hold".into(),
            seats: vec!["ines".into(), "rui".into()],
            deadline_ms: 12_000,
            answering: "each".into(),
            blocks: false,
            args: vec![],
            waiting: vec!["ines".into(), "rui".into()],
        };
        let push = PromptView {
            prompt_id: 3,
            question: "How many points?".into(),
            options: vec![],
            default: String::new(),
            seats: vec!["ines".into()],
            deadline_ms: 10_000,
            answering: "first".into(),
            blocks: true,
            args: vec![
                tablehold_rules::ArgSpec::new("points", tablehold_rules::ArgKind::Int, true, "")
                    .range(1, 3),
            ],
            waiting: vec!["ines".into()],
        };
        let mut v = view(None);
        v.current = None;
        v.may_act.clear();
        v.prompt = Some(push.clone());
        v.prompts = vec![opening, push];
        let mut w = Watcher::new(&v, &ines(), "tablehold --seat ines".into(), false);
        assert_eq!(
            w.start_text(&v, 9_000),
            "watching table \"friday\" (t1) as player ines; stop with Ctrl-C\n\
             prompt 2 asks you: Take the opening? [strike, hold]\n\
             answer with: tablehold --seat ines answer CHOICE --prompt 2, where CHOICE is strike \
             or hold (3.0 s left, then hold)\n\
             prompt 3 asks you: How many points? [points=<int 1 to 3>]\n\
             answer with: tablehold --seat ines answer points=<int 1 to 3> --prompt 3 (1.0 s \
             left, then its default)\n"
        );
        // Rui has answered the opening and is no longer asked by it.
        let rui = Seat::Player(SeatId("rui".into()));
        v.prompts[0].waiting = vec!["ines".into()];
        let r = Watcher::new(&v, &rui, "tablehold --seat rui".into(), false);
        assert!(!r.start_text(&v, 9_000).contains("asks you"));
        // Ines answers the opening: the push is the only window left to her.
        let answered = Fact::DecisionAnswered {
            prompt_id: 2,
            answer: tablehold_rules::Answer {
                seat: ines(),
                choice: "strike".into(),
                args: Default::default(),
                by: tablehold_rules::Resolver::Seat(ines()),
            },
        };
        w.event_text(&event(6, 9_000, vec![answered]), 9_000);
        let mut step = PendingStep {
            prompt_id: 4,
            seats: vec![ines()],
            question: "Dodge?".into(),
            options: vec!["dodge".into(), "take".into()],
            default: "take".into(),
            timeout_ms: 5_000,
            ..Default::default()
        };
        let text = w.event_text(
            &event(
                7,
                9_000,
                vec![Fact::DecisionRequested {
                    step: Box::new(step.clone()),
                }],
            ),
            9_000,
        );
        assert!(text.contains("answer CHOICE --prompt 4,"), "{text}");
        // Once the push is resolved, a new window's line needs no id.
        let resolved = Fact::DecisionResolved {
            prompt_id: 3,
            choice: String::new(),
            by: tablehold_rules::Resolver::TimedOut,
            args: Default::default(),
        };
        let closed = Fact::DecisionResolved {
            prompt_id: 4,
            choice: "take".into(),
            by: tablehold_rules::Resolver::Seat(ines()),
            args: Default::default(),
        };
        w.event_text(&event(8, 9_000, vec![resolved, closed]), 9_000);
        step.prompt_id = 5;
        let text = w.event_text(
            &event(
                9,
                9_000,
                vec![Fact::DecisionRequested {
                    step: Box::new(step),
                }],
            ),
            9_000,
        );
        assert!(
            text.contains("answer with: tablehold --seat ines answer CHOICE, where CHOICE is"),
            "{text}"
        );
    }
}

//! `tablehold watch`: the table as it happens, told in plain lines a person (or a screen
//! reader) can follow: one line per event, `YOUR TURN: CHARACTER` when a turn starts for a
//! character this seat plays, and for a prompt that asks this seat the command that answers
//! it. No colour, no drawing, nothing that needs a terminal.
//!
//! Pure: [`Watcher`] turns the state and events it is given into text, and keeps only what it
//! needs for that (who plays which character). Connecting, the dice epochs and printing are
//! `remote::watch`'s.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use tablehold_protocol::{EventEnvelope, PromptView, TableView};
use tablehold_rules::{Event, Fact, Part, PendingStep, Seat};

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
        }
    }

    /// The first lines: what is being watched, then whose turn it is and the open prompt, if
    /// they concern this seat.
    pub fn start_text(&self, view: &TableView, now_ms: u64) -> String {
        let mut out = format!(
            "watching table \"{}\" ({}) as {}; stop with Ctrl-C\n",
            view.name, view.table, self.seat
        );
        if let Some(current) = view.current.as_deref().filter(|c| self.plays(c)) {
            let _ = writeln!(out, "YOUR TURN: {current}");
        }
        if let Some(p) = &view.prompt {
            if self.asked_by_view(p) {
                let left = p.deadline_ms.saturating_sub(now_ms);
                let _ = writeln!(
                    out,
                    "prompt {} asks you: {} [{}]",
                    p.prompt_id,
                    p.question,
                    p.options.join(", ")
                );
                let _ = writeln!(out, "{}", self.answer_line(&p.options, &p.default, left));
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
                Fact::DecisionRequested { step } if self.asked(step) => {
                    // The deadline runs from when the server logged the prompt; a clock
                    // behind the server's must not show more time than the prompt gives.
                    let deadline = e.at_ms.saturating_add(step.timeout_ms);
                    let left = deadline.saturating_sub(now_ms).min(step.timeout_ms);
                    let _ = writeln!(
                        out,
                        "{}",
                        self.answer_line(&step.options, &step.default, left)
                    );
                }
                _ => {}
            }
        }
        out
    }

    /// `answer with: tablehold --seat ines answer CHOICE, where CHOICE is aune or mara (2.9 s
    /// left, then aune)`.
    fn answer_line(&self, options: &[String], default: &str, left_ms: u64) -> String {
        let choices: Vec<String> = options.iter().map(|o| shell_word(o)).collect();
        let choices = match choices.as_slice() {
            [] => String::new(),
            [one] => one.clone(),
            [init @ .., last] => format!("{} or {last}", init.join(", ")),
        };
        format!(
            "answer with: {} answer CHOICE, where CHOICE is {choices} ({}.{} s left, then {default})",
            self.command,
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
    /// options; the GM is asked by its own prompts (no seat, or the GM named).
    fn asked(&self, step: &PendingStep) -> bool {
        !step.options.is_empty()
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
        !p.options.is_empty() && p.seats.iter().any(|s| s == me)
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
            order: vec!["aune".into(), "mara".into()],
            combatants: vec![
                pc("aune", Some("ines")),
                pc("mara", Some("rui")),
                pc("gob", None),
            ],
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
}

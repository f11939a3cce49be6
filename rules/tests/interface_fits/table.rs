//! The table: a state, the log that built it, and the replay check.

use super::*;

pub(crate) fn options() -> TableOptions {
    TableOptions::resolve(&common_options(), &BTreeMap::new()).unwrap()
}

pub(crate) fn player(seat: &str) -> Seat {
    Seat::Player(SeatId::from(seat))
}

pub(crate) fn id(s: &str) -> EntityId {
    EntityId::from(s)
}

/// A table whose state is built only from its log, starting from an empty state, so that the
/// final replay check covers the setup too.
pub(crate) struct Table {
    pub(crate) state: MemoryState,
    pub(crate) log: Vec<Event>,
}

impl Table {
    /// A table as a GM sets one up: each sheet added through the roster (the server's own
    /// path, redaction included), then the system's own `start_encounter`, drawing
    /// `initiative` and nothing else. No fact is written by hand.
    pub(crate) fn new(
        system: &dyn RuleSystem,
        combatants: Vec<Combatant>,
        initiative: Vec<u32>,
    ) -> Self {
        let mut table = Table {
            state: MemoryState::new(options()),
            log: Vec::new(),
        };
        for c in combatants {
            let arrival = tablehold_rules::roster::sheet_added(&table.state, c, &Seat::Gm)
                .unwrap_or_else(|r| panic!("the GM's sheet was refused: {r}"));
            table.record(vec![arrival]);
        }
        let faces = initiative.len();
        let mut dice = ScriptedDice::new(initiative);
        let start = Command::act(
            Seat::Gm,
            None,
            tablehold_rules::action::START_ENCOUNTER,
            Args::default(),
        );
        table.run(system, start, &mut dice);
        assert_eq!(
            dice.used(),
            faces,
            "the start draws exactly the initiative given"
        );
        table
    }

    pub(crate) fn record(&mut self, events: Vec<Event>) {
        for event in events {
            apply(&mut self.state, &event).unwrap();
            self.log.push(event);
        }
    }

    /// Decides `command` and applies what it produced, as the server would.
    pub(crate) fn run(
        &mut self,
        system: &dyn RuleSystem,
        command: Command,
        dice: &mut ScriptedDice,
    ) -> Vec<Event> {
        let events = decide(system, &self.state, &command, dice)
            .unwrap_or_else(|e| panic!("{command:?} was not decided: {e}"));
        self.record(events.clone());
        events
    }

    /// Decides `command`, expecting a refusal; nothing is applied.
    pub(crate) fn refuse(
        &self,
        system: &dyn RuleSystem,
        command: Command,
        dice: &mut ScriptedDice,
    ) -> Refusal {
        match decide(system, &self.state, &command, dice) {
            Err(DecideError::Refused(refusal)) => refusal,
            other => panic!("{command:?} should have been refused, got {other:?}"),
        }
    }

    pub(crate) fn prompt(&self) -> &PendingStep {
        self.state
            .encounter
            .pending
            .last()
            .expect("a prompt is open")
    }

    pub(crate) fn resource(&self, who: &str, key: &str) -> i64 {
        self.state.combatants[&id(who)].resource(key)
    }

    /// What `seat` was sent (each event's view, where it saw anything) and the state it built
    /// from that, as a client does.
    pub(crate) fn seen_by(&self, seat: &Seat) -> SeatCopy {
        let mut state = MemoryState::new(options());
        let events: Vec<Event> = self.log.iter().filter_map(|e| e.view(seat)).collect();
        for event in &events {
            apply_seen(&mut state, event.facts());
        }
        SeatCopy { events, state }
    }

    /// Holds the log to `tests/fixtures/shapes/NAME.jsonl`, one event per line: the sequences
    /// the server's own store (the bevy `World`) must apply as the in-memory state does, which
    /// its tests replay. `TABLEHOLD_BLESS=1` writes the file; otherwise the log must equal it,
    /// so a change to what a shape produces is seen in review.
    pub(crate) fn hold_as_fixture(&self, name: &str) {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/fixtures/shapes")
            .join(format!("{name}.jsonl"));
        let text: String = self
            .log
            .iter()
            .map(|e| serde_json::to_string(e).unwrap() + "\n")
            .collect();
        if std::env::var("TABLEHOLD_BLESS").is_ok_and(|v| v == "1") {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &text).unwrap();
            return;
        }
        let held = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; run with TABLEHOLD_BLESS=1 to write it",
                path.display()
            )
        });
        assert!(
            held == text,
            "the {name} shape now logs something else than {}; if that is meant, run with \
             TABLEHOLD_BLESS=1 and review the difference",
            path.display()
        );
    }

    /// Replay never decides: the same events applied from scratch give the same state.
    pub(crate) fn assert_replays(&self) {
        let mut fresh = MemoryState::new(options());
        for event in &self.log {
            apply(&mut fresh, event).unwrap();
        }
        assert_eq!(fresh, self.state);
    }
}

/// One seat's copy of the table: the events it was sent and the state it built.
pub(crate) struct SeatCopy {
    pub(crate) events: Vec<Event>,
    pub(crate) state: MemoryState,
}

/// The facts as the table (the GM) holds them: stand-ins for the other seats left out.
pub(crate) fn facts(events: &[Event]) -> Vec<&Fact> {
    events
        .iter()
        .flat_map(|e| &e.parts)
        .filter(|p| !p.audience.is_stand_in())
        .map(|p| &p.fact)
        .collect()
}

pub(crate) fn checks(events: &[Event]) -> Vec<&CheckRecord> {
    facts(events)
        .into_iter()
        .filter_map(|f| match f {
            Fact::Checked(c) => Some(c),
            _ => None,
        })
        .collect()
}

pub(crate) fn resolutions(events: &[Event]) -> Vec<(u64, &str, &Resolver)> {
    facts(events)
        .into_iter()
        .filter_map(|f| match f {
            Fact::DecisionResolved {
                prompt_id,
                choice,
                by,
                ..
            } => Some((*prompt_id, choice.as_str(), by)),
            _ => None,
        })
        .collect()
}

/// The choices of the `answer` action in `seat`'s catalogue, if it has one.
pub(crate) fn answer_choices(
    system: &dyn RuleSystem,
    state: &dyn StateView,
    seat: &Seat,
) -> Option<Vec<String>> {
    actions(system, state, seat)
        .into_iter()
        .find(|a| a.name == "answer")
        .and_then(|a| a.args.into_iter().find(|arg| arg.name == "choice"))
        .map(|arg| arg.choices)
}

pub(crate) fn action_names(
    system: &dyn RuleSystem,
    state: &dyn StateView,
    seat: &Seat,
) -> Vec<String> {
    actions(system, state, seat)
        .into_iter()
        .map(|a| a.name)
        .collect()
}

pub(crate) fn choices(options: &[&str]) -> Option<Vec<String>> {
    Some(options.iter().map(|o| (*o).to_owned()).collect())
}

//! Encounter rules as scenarios, for every system's tests: a cast, table options and a list of
//! steps (commands with the exact dice faces they draw, and what must hold after), played by
//! [`play`] through the real `decide` and `apply`. A step that fails names its scenario and its
//! place. What is particular to one system (its turn shapes, its pools) is a [`S::Check`] the
//! system's tests build; what every system has (acting, answering, refusals, resources,
//! statuses, who hears what) is a step here, so the systems share one runner.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::action::{ArgValue, Args, Command, CommandBody};
use crate::dice::ScriptedDice;
use crate::engine::{DecideError, decide};
use crate::event::{Against, CheckRecord, Event, Fact};
use crate::grid::Cell;
use crate::ids::{EntityId, Seat};
use crate::options::{OptionValue, TableOptions};
use crate::state::{MemoryState, StateMut, StateView, Status};
use crate::system::RuleSystem;

/// An action's arguments, as pairs.
pub type Pairs = Vec<(&'static str, ArgValue)>;

/// A scenario.
pub struct Scene {
    pub name: &'static str,
    /// Table options set away from their defaults: (key, value as text: a choice, a number, a
    /// flag).
    pub options: &'static [(&'static str, &'static str)],
    /// The sheets of the combatants, as the system reads them.
    pub cast: Vec<Value>,
    pub steps: Vec<S>,
}

/// What a [`S::Check`] looks at: the table after the steps so far, the events of the last
/// command, and the step's place for its messages.
pub struct Played<'a> {
    pub state: &'a MemoryState,
    pub last: &'a [Event],
    pub at: &'a str,
}

/// One step of a scenario. Faces are the dice the step draws, every one of them used.
pub enum S {
    /// The GM starts the encounter.
    Start(&'static [u32]),
    /// A GM action with no actor.
    Gm(&'static str, Pairs, &'static [u32]),
    /// The GM acting for `actor`.
    GmAct(&'static str, &'static str, Pairs, &'static [u32]),
    /// An action by the seat that plays `actor` (the GM for an NPC).
    Act(&'static str, &'static str, Pairs, &'static [u32]),
    /// The open prompt answered by its own seat with a choice.
    Answer(&'static str, &'static [u32]),
    /// The open prompt answered by its own seat with a choice and arguments.
    AnswerWith(&'static str, Pairs, &'static [u32]),
    /// The open prompt answered by the seat that plays `actor` (a window several seats
    /// answer), with a choice and arguments.
    AnswerAs(&'static str, &'static str, Pairs, &'static [u32]),
    /// The open prompt's time runs out; its default draws these faces.
    TimeOut(&'static [u32]),
    /// An action by `actor`'s seat (`"gm"`: the GM with no actor) refused with this code
    /// (`code: words`: and a message holding the words); nothing drawn, nothing changed.
    Refused(&'static str, &'static str, Pairs, &'static str),
    /// An action sent by the seat of the first for the second, refused with this code.
    RefusedFrom(
        &'static str,
        &'static str,
        &'static str,
        Pairs,
        &'static str,
    ),
    /// A GM action with no actor, refused with this code.
    GmRefused(&'static str, Pairs, &'static str),
    /// The open prompt answered by `seat` (`None`: its own), refused with this code.
    AnswerRefused(Option<Seat>, &'static str, Pairs, &'static str),
    /// A combatant the GM brings in mid-fight.
    Join(Value),
    /// What the GM sets by ruling before it matters: a status with a magnitude, a cell.
    Give(&'static str, &'static str, i64),
    Place(&'static str, i32, i32),
    Res(&'static str, &'static str, i64),
    Has(&'static str, &'static str),
    Lacks(&'static str, &'static str),
    /// A status and its magnitude.
    Magnitude(&'static str, &'static str, i64),
    /// The initiative order.
    Order(&'static [&'static str]),
    /// Whose turn it is, in a system with one current combatant.
    Turn(Option<&'static str>),
    /// Who may act now, in a system where several may.
    Now(Vec<&'static str>),
    Round(u32),
    /// Whether a prompt is open.
    Prompt(bool),
    /// The open prompt's question, as its deciding seat reads it, says this.
    Asked(&'static str),
    /// Some sentence of the last command (an account, a roll's purpose, a note, a ruling), as the GM
    /// holds it, says this.
    Said(&'static str),
    /// A sentence of the listener's copy of the last command says this.
    PlayerHears(&'static str),
    /// No fact of the listener's copy of the last command holds this.
    PlayerNeverHears(&'static str),
    /// Words in the GM's copy of the last command that the listener's copy lacks.
    GmOnly(&'static [&'static str]),
    /// Whether the listener sees what the last command's checks were compared with; the GM
    /// always does.
    TargetSeen(bool),
    /// The last command's damage as the GM holds it: each step's label and value, and the
    /// amount taken (the breakdown a player reads for their own character).
    Damage(&'static [(&'static str, i64)], i64),
    /// No player's copy of the last command holds this combatant's resource.
    HiddenFromPlayers(&'static str, &'static str),
    /// What only one system asks of the table.
    Check(Box<dyn Fn(&Played<'_>)>),
}

/// Plays `scene` under `system`; `listener` is the player seat whose copy the hearing steps
/// read.
pub fn play(system: &dyn RuleSystem, listener: &str, scene: Scene) {
    let specs = system.options();
    // Each value read as its option's kind wants: "15" for a number, "true" for a flag.
    let read = |key: &str, text: &str| match specs.iter().find(|s| s.key == key).map(|s| &s.kind) {
        Some(crate::options::OptionKind::Int { .. }) => text
            .parse()
            .map_or_else(|_| OptionValue::Choice(text.to_owned()), OptionValue::Int),
        Some(crate::options::OptionKind::Bool) => text
            .parse()
            .map_or_else(|_| OptionValue::Choice(text.to_owned()), OptionValue::Bool),
        _ => OptionValue::Choice(text.to_owned()),
    };
    let given: BTreeMap<String, OptionValue> = scene
        .options
        .iter()
        .map(|(k, v)| ((*k).to_owned(), read(k, v)))
        .collect();
    let options = TableOptions::resolve(&specs, &given)
        .unwrap_or_else(|e| panic!("{}: options: {e}", scene.name));
    let mut table = Table {
        system,
        state: MemoryState::new(options),
        last: Vec::new(),
        listener: Seat::Player(listener.into()),
    };
    for sheet in &scene.cast {
        table.join(sheet, scene.name);
    }
    for (i, step) in scene.steps.into_iter().enumerate() {
        let at = format!("{} step {i}", scene.name);
        table.step(step, &at);
    }
}

struct Table<'s> {
    system: &'s dyn RuleSystem,
    state: MemoryState,
    last: Vec<Event>,
    listener: Seat,
}

impl Table<'_> {
    fn join(&mut self, sheet: &Value, at: &str) {
        let c = self
            .system
            .sheet_from_json(sheet)
            .unwrap_or_else(|e| panic!("{at}: sheet: {e}"));
        self.state.insert_combatant(c);
    }

    fn seat_of(&self, actor: &str) -> Seat {
        match self
            .state
            .combatant(&EntityId::from(actor))
            .and_then(|c| c.owner.clone())
        {
            Some(owner) => Seat::Player(owner),
            None => Seat::Gm,
        }
    }

    fn run(&mut self, cmd: &Command, faces: &[u32]) -> Result<Vec<Event>, DecideError> {
        run(self.system, &mut self.state, cmd, faces)
    }

    /// Runs a command that must succeed; its events become the last command's.
    fn done(&mut self, cmd: &Command, faces: &[u32], at: &str) {
        self.last = self.run(cmd, faces).unwrap_or_else(|e| panic!("{at}: {e}"));
    }

    /// Runs a command that must be refused with `expected`, changing nothing.
    fn refused(&mut self, cmd: &Command, expected: &str, at: &str) {
        let before = self.state.clone();
        match self.run(cmd, &[]) {
            // `code: words` also asks the refusal's message (what the player reads) to hold
            // the words.
            Err(DecideError::Refused(refusal)) => {
                let (code, says) = expected
                    .split_once(": ")
                    .map_or((expected, None), |(c, s)| (c, Some(s)));
                assert_eq!(refusal.code(), code, "{at}");
                if let Some(says) = says {
                    let message = refusal.to_string();
                    assert!(message.contains(says), "{at}: the refusal says {message:?}");
                }
            }
            other => panic!("{at}: expected a refusal `{expected}`, got {other:?}"),
        }
        assert_eq!(self.state, before, "{at}: a refusal changes nothing");
    }

    fn open_prompt(&self, at: &str) -> crate::decision::PendingStep {
        self.state
            .encounter()
            .pending
            .last()
            .cloned()
            .unwrap_or_else(|| panic!("{at}: no prompt is open"))
    }

    fn combatant(&self, who: &str, at: &str) -> &crate::state::Combatant {
        self.state
            .combatant(&EntityId::from(who))
            .unwrap_or_else(|| panic!("{at}: no combatant `{who}`"))
    }

    /// The sentences of the last command as `seat` holds them: its accounts, the purposes of
    /// its rolls and its notes, one per line. What a person reads, not the facts' fields.
    fn told_to(&self, seat: &Seat) -> String {
        let mut out = String::new();
        for e in self.last.iter().filter_map(|e| e.view(seat)) {
            for f in e.facts() {
                match f {
                    Fact::Told(a) => out.push_str(&format!("{a:?}\n")),
                    Fact::Rolled { purpose, .. } => out.push_str(&format!("{purpose}\n")),
                    Fact::Noted { text } | Fact::Ruled { text } => {
                        out.push_str(&format!("{text}\n"));
                    }
                    _ => {}
                }
            }
        }
        out
    }

    /// Every fact of the last command as `seat` holds it, one per line: what a seat could
    /// learn from it, for the steps that say what a seat must never learn.
    fn heard_by(&self, seat: &Seat) -> String {
        let mut out = String::new();
        for e in self.last.iter().filter_map(|e| e.view(seat)) {
            for f in e.facts() {
                out.push_str(&format!("{f:?}\n"));
            }
        }
        out
    }

    fn step(&mut self, step: S, at: &str) {
        match step {
            S::Start(faces) => {
                let cmd = Command::act(Seat::Gm, None, "start_encounter", Args::default());
                self.done(&cmd, faces, at);
            }
            S::Gm(action, a, faces) => {
                let cmd = Command::act(Seat::Gm, None, action, args(&a));
                self.done(&cmd, faces, at);
            }
            S::GmAct(actor, action, a, faces) => {
                let cmd = Command::act(Seat::Gm, Some(actor), action, args(&a));
                self.done(&cmd, faces, at);
            }
            S::Act(actor, action, a, faces) => {
                let cmd = Command::act(self.seat_of(actor), Some(actor), action, args(&a));
                self.done(&cmd, faces, at);
            }
            S::Answer(choice, faces) => self.answer(choice, Vec::new(), faces, at),
            S::AnswerWith(choice, a, faces) => self.answer(choice, a, faces, at),
            S::AnswerAs(actor, choice, a, faces) => {
                let step = self.open_prompt(at);
                let cmd = answer(self.seat_of(actor), step.prompt_id, choice, args(&a));
                self.done(&cmd, faces, at);
            }
            S::TimeOut(faces) => {
                let cmd = Command::time_out(self.open_prompt(at).prompt_id);
                self.done(&cmd, faces, at);
            }
            S::Refused(actor, action, a, expected) => {
                let (seat, actor) = if actor == "gm" {
                    (Seat::Gm, None)
                } else {
                    (self.seat_of(actor), Some(actor))
                };
                let cmd = Command::act(seat, actor, action, args(&a));
                self.refused(&cmd, expected, at);
            }
            S::RefusedFrom(by, actor, action, a, expected) => {
                let cmd = Command::act(self.seat_of(by), Some(actor), action, args(&a));
                self.refused(&cmd, expected, at);
            }
            S::GmRefused(action, a, expected) => {
                let cmd = Command::act(Seat::Gm, None, action, args(&a));
                self.refused(&cmd, expected, at);
            }
            S::AnswerRefused(seat, choice, a, expected) => {
                let step = self.open_prompt(at);
                let seat = seat.unwrap_or_else(|| step.seats[0].clone());
                let cmd = answer(seat, step.prompt_id, choice, args(&a));
                self.refused(&cmd, expected, at);
            }
            S::Join(sheet) => self.join(&sheet, at),
            S::Give(who, status, magnitude) => {
                let c = self
                    .state
                    .combatant_mut(&EntityId::from(who))
                    .unwrap_or_else(|| panic!("{at}: no combatant `{who}`"));
                c.statuses.insert(
                    status.to_owned(),
                    Status {
                        source: "ruling".into(),
                        magnitude,
                        rounds_left: None,
                    },
                );
            }
            S::Place(who, x, y) => {
                let c = self
                    .state
                    .combatant_mut(&EntityId::from(who))
                    .unwrap_or_else(|| panic!("{at}: no combatant `{who}`"));
                c.position = Some(Cell::new(x, y));
            }
            S::Res(who, key, value) => {
                let got = self.combatant(who, at).resource(key);
                assert_eq!(got, value, "{at}: {who}'s {key}");
            }
            S::Has(who, status) => {
                assert!(
                    self.combatant(who, at).has_status(status),
                    "{at}: {who} {status}"
                );
            }
            S::Lacks(who, status) => {
                assert!(
                    !self.combatant(who, at).has_status(status),
                    "{at}: {who} not {status}"
                );
            }
            S::Magnitude(who, status, m) => {
                let got = self.combatant(who, at).statuses.get(status);
                assert_eq!(got.map(|s| s.magnitude), Some(m), "{at}: {who} {status}");
            }
            S::Order(order) => {
                let got: Vec<&str> = self
                    .state
                    .encounter()
                    .order
                    .iter()
                    .map(|e| e.0.as_str())
                    .collect();
                assert_eq!(got, order.to_vec(), "{at}");
            }
            S::Turn(who) => {
                let current = self.state.encounter().current.clone();
                assert_eq!(current, who.map(EntityId::from), "{at}");
            }
            S::Now(now) => {
                let got: Vec<&str> = self
                    .state
                    .encounter()
                    .turns
                    .now
                    .iter()
                    .map(|e| e.0.as_str())
                    .collect();
                assert_eq!(got, now, "{at}");
            }
            S::Round(r) => assert_eq!(self.state.encounter().round, r, "{at}"),
            S::Prompt(open) => {
                let got = !self.state.encounter().pending.is_empty();
                assert_eq!(got, open, "{at}: a prompt open");
            }
            S::Asked(words) => {
                let step = self.open_prompt(at);
                let seen = step
                    .seats
                    .first()
                    .map(|seat| crate::redact::prompt_seen_by(&step, seat))
                    .unwrap_or(step);
                let q = &seen.question;
                assert!(
                    q.contains(words),
                    "{at}: `{words}` not in the question `{q}`"
                );
            }
            S::Said(words) => {
                let text = self.told_to(&Seat::Gm);
                assert!(text.contains(words), "{at}: `{words}` not in\n{text}");
            }
            S::PlayerHears(words) => {
                let text = self.told_to(&self.listener);
                assert!(text.contains(words), "{at}: `{words}` not in\n{text}");
            }
            S::PlayerNeverHears(words) => {
                let text = self.heard_by(&self.listener);
                assert!(!text.contains(words), "{at}: `{words}` in\n{text}");
            }
            S::GmOnly(words) => {
                let json = |seat: &Seat| {
                    let views: Vec<Event> = self.last.iter().filter_map(|e| e.view(seat)).collect();
                    serde_json::to_string(&views).unwrap_or_default()
                };
                let (player, gm) = (json(&self.listener), json(&Seat::Gm));
                for w in words {
                    assert!(
                        gm.contains(w),
                        "{at}: the GM sees `{w}`\nGM {gm}\nPLAYER {player}"
                    );
                    assert!(
                        !player.contains(w),
                        "{at}: `{w}` reaches the player: {player}"
                    );
                }
            }
            S::Damage(steps, amount) => {
                let got = self
                    .last
                    .iter()
                    .flat_map(Event::facts)
                    .find_map(|f| match f {
                        Fact::DamageResolved { steps, amount, .. } => Some((steps, *amount)),
                        _ => None,
                    });
                let Some((got_steps, got_amount)) = got else {
                    panic!("{at}: no damage in the last command");
                };
                let got_steps: Vec<(&str, i64)> = got_steps
                    .iter()
                    .map(|m| (m.label.as_str(), m.value))
                    .collect();
                assert_eq!(
                    (got_steps, got_amount),
                    (steps.to_vec(), amount),
                    "{at}: the damage"
                );
            }
            S::TargetSeen(seen) => self.target_seen(seen, at),
            S::HiddenFromPlayers(who, key) => self.hidden_from_players(who, key, at),
            S::Check(check) => check(&Played {
                state: &self.state,
                last: &self.last,
                at,
            }),
        }
    }

    fn answer(&mut self, choice: &str, a: Pairs, faces: &[u32], at: &str) {
        let step = self.open_prompt(at);
        let cmd = answer(step.seats[0].clone(), step.prompt_id, choice, args(&a));
        self.done(&cmd, faces, at);
    }

    fn target_seen(&self, seen: bool, at: &str) {
        let views: Vec<Event> = self
            .last
            .iter()
            .filter_map(|e| e.view(&self.listener))
            .collect();
        let open = views.iter().flat_map(Event::facts).any(|f| {
            matches!(
                f,
                Fact::Checked(CheckRecord {
                    against: Against::Exceed(_) | Against::Target(_),
                    ..
                })
            )
        });
        assert_eq!(open, seen, "{at}: the player sees the number compared with");
        let told = views.iter().flat_map(Event::facts).any(|f| match f {
            Fact::Told(a) => a
                .roll
                .as_ref()
                .and_then(|r| r.against.as_ref())
                .is_some_and(|c| c.value.is_some()),
            _ => false,
        });
        assert_eq!(told, seen, "{at}: the player's sentence tells the number");
        let gm_has = self.last.iter().filter_map(|e| e.view(&Seat::Gm)).any(|e| {
            e.facts().any(|f| {
                matches!(
                    f,
                    Fact::HiddenTarget { .. }
                        | Fact::Checked(CheckRecord {
                            against: Against::Exceed(_) | Against::Target(_),
                            ..
                        })
                )
            })
        });
        assert!(gm_has, "{at}: the GM sees what was compared");
    }

    fn hidden_from_players(&self, who: &str, key: &str, at: &str) {
        let shows = |seat: &Seat| {
            self.last.iter().filter_map(|e| e.view(seat)).any(|view| {
                view.facts().any(|f| {
                    matches!(f, Fact::ResourceSet { entity, resource, .. }
                        if entity.0 == who && resource == key)
                })
            })
        };
        assert!(!shows(&self.listener), "{at}: a player sees {who}'s {key}");
        assert!(shows(&Seat::Gm), "{at}: the GM sees {who}'s {key}");
    }
}

/// Decides `cmd` with exactly these faces (every one used) and applies its events.
pub fn run(
    system: &dyn RuleSystem,
    state: &mut MemoryState,
    cmd: &Command,
    faces: &[u32],
) -> Result<Vec<Event>, DecideError> {
    let mut dice = ScriptedDice::new(faces.to_vec());
    let events = decide(system, state, cmd, &mut dice)?;
    assert!(dice.unused().is_empty(), "unused faces {:?}", dice.unused());
    // Every face drawn must be shown by some die of the events, as `verify` demands of a real
    // log: a draw no event shows reads there as a discarded roll.
    let mut drawn = faces.to_vec();
    drawn.sort_unstable();
    assert_eq!(
        faces_shown(&events),
        drawn,
        "faces drawn {faces:?}, but the events' dice show others: {events:?}"
    );
    for e in &events {
        crate::apply::apply(state, e)
            .unwrap_or_else(|e| panic!("an event of decide does not apply: {e}"));
    }
    Ok(events)
}

/// The faces of the dice the events show the GM, the way a verifier of the GM's copy reads
/// them (each die of a rolled or checked roll, bursts included, and each pick), sorted: a die
/// shown twice while another is never shown does not add up to the faces drawn.
fn faces_shown(events: &[Event]) -> Vec<u32> {
    let mut faces: Vec<u32> = events
        .iter()
        .flat_map(|e| &e.parts)
        .filter(|p| p.audience.admits(&Seat::Gm))
        .flat_map(|p| match &p.fact {
            Fact::Rolled { roll, .. } => roll.dice.iter().map(|d| d.face).collect(),
            Fact::Checked(c) => c.roll.dice.iter().map(|d| d.face).collect(),
            Fact::Picked {
                die: Some(_), face, ..
            } => vec![*face],
            _ => Vec::new(),
        })
        .collect();
    faces.sort_unstable();
    faces
}

fn args(pairs: &[(&'static str, ArgValue)]) -> Args {
    Args(
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect(),
    )
}

fn answer(seat: Seat, prompt_id: u64, choice: &str, a: Args) -> Command {
    let mut cmd = Command::answer(seat, prompt_id, choice);
    if let CommandBody::Answer { args, .. } = &mut cmd.body {
        *args = a;
    }
    cmd
}

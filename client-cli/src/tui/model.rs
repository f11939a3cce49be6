//! Everything the screen shows, and nothing about how: the table as this seat sees it (the
//! server's `TableView`, or the replay's rebuilt one), the log's sentences, the command line,
//! which combatant is selected and the connection's state. Events, replies and keys change it
//! (here and in `keys`); `view` only reads it, so a test can build one from real events and
//! check the screen without a terminal.

use std::collections::BTreeMap;

use tablehold_protocol::{CombatantView, EventEnvelope, PromptView, TableView};
use tablehold_rules::{ActionSpec, Event, Fact, Part, Seat};

use crate::lines;

/// How many log lines the screen keeps.
pub const LOG_KEPT: usize = 5_000;

/// How a line of the log or a note is shown: the calls to this seat stand out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Plain,
    /// A turn of one of this seat's characters starts.
    Mine,
    /// A decision window asks this seat.
    Alert,
    /// A roll whose result is not what its numbers say: a critical or a fumble.
    Critical,
    /// A refusal or an error.
    Error,
}

/// One sentence of the log, with the event it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLine {
    pub seq: u64,
    pub text: String,
    pub tone: Tone,
}

/// The connection to the server, as the header shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    /// Connecting, or reconnecting after a drop (`attempt` counts from 1).
    Connecting {
        attempt: u32,
    },
    Online,
    /// The last try failed; the next starts by itself.
    Offline {
        reason: String,
    },
    /// Not a live table: a replayed log, at `at` of `last` events.
    Replay {
        at: u64,
        last: u64,
        playing: bool,
    },
}

/// The command line: what is typed, where the cursor is, and what was sent before.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Input {
    pub text: String,
    /// In characters, 0..=text's length.
    pub cursor: usize,
    /// Lines sent, oldest first.
    pub history: Vec<String>,
    /// While walking the history with the arrows: which entry is shown.
    pub recalled: Option<usize>,
    /// What Tab offered last, when it could not pick one.
    pub offered: Vec<String>,
}

/// The screen's whole state.
#[derive(Debug, Clone)]
pub struct Model {
    pub seat: Seat,
    /// The table as the seat sees it; `None` until the first `state` arrives.
    pub scene: Option<TableView>,
    /// What the seat may do now, as the server listed it: completion and help come from it.
    pub catalogue: Vec<ActionSpec>,
    pub log: Vec<LogLine>,
    /// How many lines the log is scrolled back from its newest.
    pub scroll: usize,
    pub input: Input,
    pub selected: Option<String>,
    /// Whether the user picked the selection (`select`, Ctrl-N/P): then it stays; else it
    /// follows the turn to the combatant who acts.
    pub pinned: bool,
    pub link: Link,
    /// The answer to the last command (done, a refusal, a help text), under the log.
    pub note: Option<(String, Tone)>,
    /// Unix milliseconds, for countdowns: the loop sets it, tests fix it.
    pub now_ms: u64,
    /// The last event applied to the log; a reconnect resumes after it.
    pub last_seq: u64,
    /// Set when a command asks to leave.
    pub quit: bool,
    /// With several seats on one screen (`tablehold demo`): the seat F2 shows next.
    pub switch_to: Option<String>,
    /// What each combatant has left of its turn, as the last account of its actions said
    /// (`1 auxiliary, 9 m of movement`); forgotten when its next turn or a round starts.
    pub left: BTreeMap<String, String>,
}

impl Model {
    pub fn new(seat: Seat, link: Link) -> Model {
        Model {
            seat,
            scene: None,
            catalogue: Vec::new(),
            log: Vec::new(),
            scroll: 0,
            input: Input::default(),
            selected: None,
            pinned: false,
            link,
            note: None,
            now_ms: 0,
            last_seq: 0,
            quit: false,
            switch_to: None,
            left: BTreeMap::new(),
        }
    }

    /// The seat's name as the server's views write it (`gm`, or the seat id).
    pub fn seat_name(&self) -> &str {
        match &self.seat {
            Seat::Gm => "gm",
            Seat::Player(id) | Seat::Spectator(id) => id.0.as_str(),
        }
    }

    /// A new state of the table. A selection the user picked stays on its combatant while it
    /// is there; else it goes to the first of this seat's characters who may act, else to
    /// whoever may act, else the first in the order.
    pub fn set_scene(&mut self, scene: TableView) {
        let keep = self.pinned
            && self
                .selected
                .as_ref()
                .is_some_and(|s| scene.combatants.iter().any(|c| &c.id == s));
        self.scene = Some(scene);
        if !keep {
            self.selected = self.default_selection();
        }
    }

    fn default_selection(&self) -> Option<String> {
        let scene = self.scene.as_ref()?;
        let mine = self.my_turn().first().map(|s| (*s).to_owned());
        mine.or_else(|| self.may_act().first().map(|s| (*s).to_owned()))
            .or_else(|| scene.order.first().cloned())
            .or_else(|| scene.combatants.first().map(|c| c.id.clone()))
    }

    /// One event as the seat received it: its sentences join the log (the dice machinery
    /// left out, as `watch` does). An event already shown (a resent backlog after a
    /// reconnect) is skipped.
    pub fn on_event(&mut self, e: &EventEnvelope) {
        if e.seq <= self.last_seq {
            return;
        }
        self.last_seq = e.seq;
        let parts: Vec<Part> = e
            .parts
            .iter()
            .filter(|p| !lines::is_machinery(&p.fact))
            .cloned()
            .collect();
        track_left(&mut self.left, &parts);
        let tone = self.tone_of(&parts);
        for text in lines::event_lines(&Event { parts }, &self.seat, None) {
            self.log.push(LogLine {
                seq: e.seq,
                text,
                tone,
            });
        }
        // New lines arrive at the bottom: a user scrolled back keeps the same lines in view.
        if self.scroll > 0 {
            self.scroll += 1;
        }
        // A long session keeps its newest lines; `tablehold log` has them all.
        if self.log.len() > LOG_KEPT {
            let extra = self.log.len() - LOG_KEPT;
            self.log.drain(..extra);
            self.scroll = self.scroll.min(LOG_KEPT.saturating_sub(1));
        }
    }

    fn tone_of(&self, parts: &[Part]) -> Tone {
        let mut tone = Tone::Plain;
        for p in parts {
            match &p.fact {
                Fact::DecisionRequested { step }
                    if !step.options.is_empty() || !step.args.is_empty() =>
                {
                    let asked = match &self.seat {
                        Seat::Gm => step.seats.is_empty() || step.seats.contains(&Seat::Gm),
                        seat => step.seats.contains(seat),
                    };
                    if asked {
                        return Tone::Alert;
                    }
                }
                Fact::Told(account)
                    if account.roll.as_ref().is_some_and(|r| r.because.is_some()) =>
                {
                    tone = Tone::Critical;
                }
                Fact::TurnStarted { entity: Some(id) } if self.plays(id.as_str()) => {
                    tone = Tone::Mine;
                }
                Fact::TurnsOpened { now, .. } if now.iter().any(|id| self.plays(id.as_str())) => {
                    tone = Tone::Mine;
                }
                _ => {}
            }
        }
        tone
    }

    pub fn combatant(&self, id: &str) -> Option<&CombatantView> {
        self.scene.as_ref()?.combatants.iter().find(|c| c.id == id)
    }

    /// Whether this seat plays `id`: a player her own characters, the GM those no player has.
    pub fn plays(&self, id: &str) -> bool {
        let Some(c) = self.combatant(id) else {
            return false;
        };
        match (&self.seat, &c.owner) {
            (Seat::Gm, None) => true,
            (Seat::Player(me), Some(o)) => me.0 == *o,
            _ => false,
        }
    }

    /// Who may act now: the set the server sends, or the current combatant from a server
    /// that sends none.
    pub fn may_act(&self) -> Vec<&str> {
        let Some(scene) = &self.scene else {
            return Vec::new();
        };
        if scene.may_act.is_empty() {
            scene.current.iter().map(String::as_str).collect()
        } else {
            scene.may_act.iter().map(String::as_str).collect()
        }
    }

    /// This seat's characters who may act now: "your turn" when not empty.
    pub fn my_turn(&self) -> Vec<&str> {
        self.may_act()
            .into_iter()
            .filter(|id| self.plays(id))
            .collect()
    }

    /// The open windows that ask this seat and still wait for its answer. A window someone
    /// else decides reaches the seat as a stand-in, with no options and no arguments.
    pub fn asked(&self) -> Vec<&PromptView> {
        let Some(scene) = &self.scene else {
            return Vec::new();
        };
        let me = self.seat_name();
        let open: Vec<&PromptView> = if scene.prompts.is_empty() {
            scene.prompt.iter().collect()
        } else {
            scene.prompts.iter().collect()
        };
        open.into_iter()
            .filter(|p| !p.options.is_empty() || !p.args.is_empty())
            .filter(|p| p.seats.iter().any(|s| s == me) || (me == "gm" && p.seats.is_empty()))
            .filter(|p| p.waiting.is_empty() || p.waiting.iter().any(|s| s == me))
            .collect()
    }

    /// The open windows that hold up every action and wait for someone else: a seat acts
    /// only once they close, whoever's turn it is.
    pub fn blocked_by(&self) -> Vec<&PromptView> {
        let Some(scene) = &self.scene else {
            return Vec::new();
        };
        let mine = self.asked();
        let open: Vec<&PromptView> = if scene.prompts.is_empty() {
            scene.prompt.iter().collect()
        } else {
            scene.prompts.iter().collect()
        };
        open.into_iter()
            .filter(|p| p.blocks && !mine.iter().any(|m| m.prompt_id == p.prompt_id))
            .collect()
    }

    /// Milliseconds left before a window's default applies, by this machine's clock; `None`
    /// when the server gave no deadline.
    pub fn left_ms(&self, p: &PromptView) -> Option<u64> {
        (p.deadline_ms > 0).then(|| p.deadline_ms.saturating_sub(self.now_ms))
    }

    /// The combatants in turn order, then those outside it (in the state's order).
    pub fn in_order(&self) -> Vec<&CombatantView> {
        let Some(scene) = &self.scene else {
            return Vec::new();
        };
        let mut out: Vec<&CombatantView> = scene
            .order
            .iter()
            .filter_map(|id| scene.combatants.iter().find(|c| &c.id == id))
            .collect();
        for c in &scene.combatants {
            if !scene.order.contains(&c.id) {
                out.push(c);
            }
        }
        out
    }

    /// Moves the selection `by` places down the roster as the pane shows it (the turn order;
    /// the GM's grouped), wrapping round.
    pub fn select_next(&mut self, by: isize) {
        let ids: Vec<String> = super::roster::combatants(self)
            .iter()
            .map(|c| c.id.clone())
            .collect();
        if ids.is_empty() {
            return;
        }
        let at = self
            .selected
            .as_ref()
            .and_then(|s| ids.iter().position(|i| i == s))
            .unwrap_or(0);
        let len = ids.len() as isize;
        let next = (at as isize + by).rem_euclid(len) as usize;
        self.selected = ids.get(next).cloned();
        self.pinned = true;
    }

    pub fn say(&mut self, text: impl Into<String>, tone: Tone) {
        self.note = Some((text.into(), tone));
    }
}

/// Keeps `left` (see [`Model::left`]) up to date with one event's facts.
pub fn track_left(left: &mut BTreeMap<String, String>, parts: &[Part]) {
    for p in parts {
        match &p.fact {
            Fact::Told(a) => {
                for b in &a.budget {
                    let said: Vec<String> = b
                        .left
                        .iter()
                        .map(|m| format!("{} {}", m.value, m.label))
                        .collect();
                    left.insert(b.entity.as_str().to_owned(), said.join(", "));
                }
            }
            Fact::TurnStarted { entity: Some(id) } => {
                left.remove(id.as_str());
            }
            Fact::TurnsOpened { now, .. } => {
                for id in now {
                    left.remove(id.as_str());
                }
            }
            Fact::RoundStarted { .. } => left.clear(),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablehold_rules::{Account, Audience, EntityId, SeatId};

    fn envelope(seq: u64, facts: Vec<Fact>) -> EventEnvelope {
        EventEnvelope {
            table: "t".into(),
            seq,
            version: 1,
            at_ms: 0,
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

    /// An attack told with a natural 20 (`because`: the result is not what the numbers say).
    fn critical(because: Option<&str>) -> Fact {
        let roll = serde_json::json!({
            "label": "COR attack",
            "roll": {"expr": "1d20", "dice": [{"term": 0, "die": "d20", "face": 20, "value": 20,
                     "kept": true, "burst": false, "from_burst": false}], "terms": [20], "total": 20},
            "total": 23,
            "result": "hit",
            "because": because,
        });
        Fact::Told(Box::new(Account {
            actor: Some(EntityId("aune".into())),
            verb: "attacks".into(),
            target: Some(EntityId("goblin-1".into())),
            roll: Some(serde_json::from_value(roll).expect("a told roll")),
            ..Default::default()
        }))
    }

    #[test]
    fn the_log_takes_each_event_once_and_marks_criticals() {
        let mut m = Model::new(Seat::Player(SeatId("ines".into())), Link::Online);
        m.on_event(&envelope(3, vec![critical(Some("natural 20"))]));
        m.on_event(&envelope(4, vec![critical(None)]));
        // A backlog sent again after a reconnect: nothing twice.
        m.on_event(&envelope(3, vec![critical(Some("natural 20"))]));
        let tones: Vec<(u64, Tone)> = m.log.iter().map(|l| (l.seq, l.tone)).collect();
        assert_eq!(tones, [(3, Tone::Critical), (4, Tone::Plain)]);
        assert!(m.log[0].text.contains("natural 20"), "{}", m.log[0].text);
        assert_eq!(m.last_seq, 4);
        // What aune has left of her turn, from the account's budget, until her next turn.
        let mut told = Account {
            actor: Some(EntityId("aune".into())),
            verb: "moves".into(),
            ..Default::default()
        };
        told.budget = vec![tablehold_rules::account::Budget {
            entity: EntityId("aune".into()),
            left: vec![
                tablehold_rules::Modifier::new("auxiliary", 1),
                tablehold_rules::Modifier::new("m of movement", 9),
            ],
        }];
        m.on_event(&envelope(5, vec![Fact::Told(Box::new(told))]));
        assert_eq!(
            m.left.get("aune").map(String::as_str),
            Some("1 auxiliary, 9 m of movement")
        );
        m.on_event(&envelope(
            6,
            vec![Fact::TurnStarted {
                entity: Some(EntityId("aune".into())),
            }],
        ));
        assert_eq!(m.left.get("aune"), None);
        m.log.clear();
        // Only the newest lines are kept.
        for seq in 7..(7 + LOG_KEPT as u64) {
            m.on_event(&envelope(seq, vec![critical(None)]));
        }
        assert_eq!(m.log.len(), LOG_KEPT);
        assert_eq!(m.log.first().map(|l| l.seq), Some(7));
    }
}

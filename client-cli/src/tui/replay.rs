//! The replay viewer: a log file's session as its viewer saw it, one moment at a time. A
//! moment is the state after event `at`, rebuilt by `tablehold_log`'s `Replay` (the code
//! behind `replay --at SEQ`, so the two never disagree) and rendered by the server's own
//! `state` renderer, with the log's sentences up to it. Keys step by event, turn or round,
//! jump to a sequence number, or play the session at a chosen speed.
//!
//! A snapshot of the replay is kept every [`SNAPSHOT_EVERY`] events, so that any moment,
//! backwards too, is at most that many events from one: a long log steps as fast as a short
//! one.

use std::collections::{BTreeMap, BTreeSet};
use std::str::FromStr as _;
use std::time::Duration;

use anyhow::{Result, anyhow};
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use tablehold_log::LogFile;
use tablehold_log::replay::Replay;
use tablehold_log::verify::CheckedEvent;
use tablehold_protocol::view::{Header, table_view};
use tablehold_protocol::{EventEnvelope, TableView};
use tablehold_rules::Fact;
use tablehold_rules::grid::GridSpec;
use tablehold_systems::SystemId;

use super::model::{Link, LogLine, Model, Tone};

/// Events between two kept snapshots of the replay.
const SNAPSHOT_EVERY: usize = 256;

/// Autoplay's speeds: the time between two events.
const SPEEDS_MS: [u64; 5] = [2000, 1000, 500, 250, 100];

/// A log file and the moment shown.
pub struct Player {
    file: LogFile,
    /// Every event as the viewer holds it, in order (index = seq - 1).
    pub events: Vec<EventEnvelope>,
    /// Every event as read through the chain, for the replay.
    checked: Vec<CheckedEvent>,
    /// `snapshots[k]`: the replay after the first `k * every` events.
    snapshots: Vec<Replay>,
    every: usize,
    /// Every sentence of the whole log, each with its event's number.
    lines: Vec<LogLine>,
    pub model: Model,
    pub at: u64,
    playing: bool,
    speed: usize,
}

impl Player {
    /// Reads every event through the hash chain, as the viewer's seat holds it, and shows the
    /// last moment.
    pub fn new(file: LogFile) -> Result<Player> {
        Player::with_snapshots(file, SNAPSHOT_EVERY)
    }

    /// As [`Player::new`], with a snapshot every `every` events (at least 1).
    fn with_snapshots(file: LogFile, every: usize) -> Result<Player> {
        let every = every.max(1);
        let seat = super::viewer_seat(&file);
        let (checked, stop) = tablehold_log::replay::read_events(&file, file.events.len());
        if let Some(e) = stop {
            return Err(anyhow!("at seq {}: {}", e.seq, e.kind));
        }
        let mut events = Vec::new();
        for (c, exported) in checked.iter().zip(&file.events) {
            events.push(EventEnvelope {
                table: file.header.table.id.clone(),
                seq: c.seq,
                version: c.version,
                at_ms: c.at_ms,
                link: exported.link.clone(),
                parts: c
                    .shown
                    .parts
                    .iter()
                    .filter(|p| p.audience.admits(&seat))
                    .cloned()
                    .collect(),
            });
        }
        let snapshots = snapshots(&file, &checked, every)?;
        let mut all = Model::new(seat.clone(), Link::Online);
        for e in &events {
            all.on_event(e);
        }
        let last = events.last().map_or(0, |e| e.seq);
        let mut player = Player {
            file,
            events,
            checked,
            snapshots,
            every,
            lines: all.log,
            model: Model::new(
                seat,
                Link::Replay {
                    at: last,
                    last,
                    playing: false,
                },
            ),
            at: last,
            playing: false,
            speed: 1,
        };
        player.go(last)?;
        Ok(player)
    }

    fn last(&self) -> u64 {
        self.events.last().map_or(0, |e| e.seq)
    }

    /// The state after event `seq` (0: before the first), as `replay --at SEQ` rebuilds it.
    pub fn scene_at(&self, seq: u64) -> Result<TableView> {
        let upto = usize::try_from(seq)
            .unwrap_or(usize::MAX)
            .min(self.checked.len());
        let k = (upto / self.every).min(self.snapshots.len().saturating_sub(1));
        let mut replay = self
            .snapshots
            .get(k)
            .cloned()
            .ok_or_else(|| anyhow!("the log has no replay to show"))?;
        for e in self.checked.iter().take(upto).skip(k * self.every) {
            replay
                .step(e)
                .map_err(|e| anyhow!("at seq {}: {}", e.seq, e.kind))?;
        }
        let replayed = replay.finish();
        let t = &self.file.header.table;
        let grid = SystemId::from_str(&t.system).map_or(GridSpec::METRES, |s| s.system().grid());
        let header = Header {
            table: &t.id,
            name: &t.name,
            system: &t.system,
            head: seq,
            deadlines: self.deadlines(seq),
            digest: None,
            grid,
        };
        Ok(table_view(header, &replayed.state))
    }

    /// Each window's deadline as the table set it: when it was logged, plus its timeout.
    fn deadlines(&self, upto: u64) -> BTreeMap<u64, u64> {
        let mut out = BTreeMap::new();
        for e in self.events.iter().take_while(|e| e.seq <= upto) {
            for p in &e.parts {
                if let Fact::DecisionRequested { step } = &p.fact {
                    out.insert(step.prompt_id, e.at_ms.saturating_add(step.timeout_ms));
                }
            }
        }
        out
    }

    /// The moment's clock: when event `at` was logged, so a countdown reads as it did then.
    pub fn moment_ms(&self) -> u64 {
        self.at
            .checked_sub(1)
            .and_then(|i| self.events.get(usize::try_from(i).ok()?))
            .map_or(0, |e| e.at_ms)
    }

    /// Shows the moment after event `seq` (clamped to the log).
    pub fn go(&mut self, seq: u64) -> Result<()> {
        let seq = seq.min(self.last());
        let scene = self.scene_at(seq)?;
        self.at = seq;
        self.model.set_scene(scene);
        self.model.log = self
            .lines
            .iter()
            .filter(|l| l.seq <= seq)
            .cloned()
            .collect();
        self.model.last_seq = seq;
        self.model.left.clear();
        for e in self.events.iter().take_while(|e| e.seq <= seq) {
            super::model::track_left(&mut self.model.left, &e.parts);
        }
        self.model.scroll = 0;
        self.model.link = Link::Replay {
            at: seq,
            last: self.last(),
            playing: self.playing,
        };
        Ok(())
    }

    fn go_or_say(&mut self, seq: u64) {
        if let Err(e) = self.go(seq) {
            self.playing = false;
            self.model.say(format!("{e:#}"), Tone::Error);
        }
    }

    /// The next event after `at` (or, backwards, the last before it) holding a fact that
    /// `marks` picks: a turn's or a round's start.
    fn find(&self, forward: bool, marks: fn(&Fact) -> bool) -> Option<u64> {
        let hit = |e: &&EventEnvelope| e.parts.iter().any(|p| marks(&p.fact));
        if forward {
            self.events
                .iter()
                .filter(|e| e.seq > self.at)
                .find(hit)
                .map(|e| e.seq)
        } else {
            self.events
                .iter()
                .rev()
                .filter(|e| e.seq < self.at)
                .find(hit)
                .map(|e| e.seq)
        }
    }

    pub fn step_every(&self) -> Duration {
        Duration::from_millis(SPEEDS_MS.get(self.speed).copied().unwrap_or(1000))
    }

    /// One event on, while playing; the end of the log stops it.
    pub fn autoplay(&mut self) {
        if !self.playing {
            return;
        }
        if self.at >= self.last() {
            self.playing = false;
        }
        self.go_or_say(self.at + 1);
    }

    /// The viewer's keys: ←/→ an event, p/n a turn, [/] a round, Home/End, digits and Enter
    /// to jump, Space to play or pause, +/- the speed, q or Ctrl-C to leave.
    pub fn on_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        let turn = |f: &Fact| matches!(f, Fact::TurnStarted { .. } | Fact::TurnsOpened { .. });
        let round = |f: &Fact| matches!(f, Fact::RoundStarted { .. });
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let target = match key.code {
            KeyCode::Char('c') if ctrl => {
                self.model.quit = true;
                None
            }
            KeyCode::Char('q') | KeyCode::Esc => {
                self.model.quit = true;
                None
            }
            KeyCode::Right => Some(self.at + 1),
            KeyCode::Left => Some(self.at.saturating_sub(1)),
            KeyCode::Char('n') => Some(self.find(true, turn).unwrap_or(self.last())),
            KeyCode::Char('p') => Some(self.find(false, turn).unwrap_or(0)),
            KeyCode::Char(']') => Some(self.find(true, round).unwrap_or(self.last())),
            KeyCode::Char('[') => Some(self.find(false, round).unwrap_or(0)),
            KeyCode::Home => Some(0),
            KeyCode::End => Some(self.last()),
            KeyCode::Char(' ') => {
                self.playing = !self.playing;
                if self.playing && self.at >= self.last() {
                    self.at = 0;
                }
                Some(self.at)
            }
            KeyCode::Char('+') => {
                self.speed = (self.speed + 1).min(SPEEDS_MS.len() - 1);
                self.say_speed();
                None
            }
            KeyCode::Char('-') => {
                self.speed = self.speed.saturating_sub(1);
                self.say_speed();
                None
            }
            KeyCode::Char(d) if d.is_ascii_digit() => {
                self.model.input.text.push(d);
                self.model.input.cursor = self.model.input.text.chars().count();
                None
            }
            KeyCode::Backspace => {
                self.model.input.text.pop();
                self.model.input.cursor = self.model.input.text.chars().count();
                None
            }
            KeyCode::Enter => {
                let typed = std::mem::take(&mut self.model.input.text);
                self.model.input.cursor = 0;
                match typed.parse::<u64>() {
                    Ok(seq) if seq <= self.last() => Some(seq),
                    _ => {
                        self.model.say(
                            format!("type an event number from 0 to {}", self.last()),
                            Tone::Error,
                        );
                        None
                    }
                }
            }
            _ => None,
        };
        if let Some(seq) = target {
            self.go_or_say(seq);
        }
    }

    fn say_speed(&mut self) {
        let ms = self.step_every().as_millis();
        self.model
            .say(format!("autoplay: one event every {ms} ms"), Tone::Plain);
    }
}

/// The replay from an empty table, and after every `every` events, following the viewer and
/// the audiences its digests name, as `replay` does.
fn snapshots(file: &LogFile, checked: &[CheckedEvent], every: usize) -> Result<Vec<Replay>> {
    let viewer =
        tablehold_log::verify::viewer_of(&file.header).map_err(|e| anyhow!("{}", e.kind))?;
    let options = tablehold_log::replay::table_options(&file.header.table)
        .map_err(|detail| anyhow!("the log's table cannot be set up: {detail}"))?;
    let audiences: BTreeSet<String> = checked
        .iter()
        .flat_map(|e| e.shown.facts())
        .filter_map(|f| match f {
            Fact::DigestRecorded { audience, .. } => Some(audience.clone()),
            _ => None,
        })
        .collect();
    let mut replay = Replay::new(options, viewer, audiences, true);
    let mut out = vec![replay.clone()];
    for (i, e) in checked.iter().enumerate() {
        replay
            .step(e)
            .map_err(|e| anyhow!("at seq {}: {}", e.seq, e.kind))?;
        if (i + 1) % every == 0 {
            out.push(replay.clone());
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> LogFile {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/fixtures/logs")
            .join(name);
        LogFile::read(&path).expect("the committed fixture reads")
    }

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    // One recorded digest of the viewer's altered and the hash chain sealed again after it:
    // the chain holds, so the viewer stops at that event and names the digest that differs.
    #[test]
    fn an_altered_digest_behind_a_resealed_chain_stops_the_viewer_at_that_event() {
        use tablehold_log::{ExportedPart, link, part_hash};
        use tablehold_rules::dice::fair::{from_hex32, to_hex};
        let mut file = fixture("grimwire-ines.json");
        let (at, part) = file
            .events
            .iter()
            .enumerate()
            .skip(file.events.len() / 2)
            .find_map(|(i, e)| {
                e.parts
                    .iter()
                    .position(|p| {
                        matches!(p, ExportedPart::Shown { json }
                            if json.contains("\"digest_recorded\"") && json.contains("\"seat:ines\""))
                    })
                    .map(|j| (i, j))
            })
            .expect("a digest recorded for Ines");
        if let ExportedPart::Shown { json } = &mut file.events[at].parts[part] {
            let d = json.find("\"digest\":\"").expect("digest field") + 10;
            let flipped = if &json[d..=d] == "0" { "1" } else { "0" };
            json.replace_range(d..=d, flipped);
        }
        let mut prev = from_hex32(&file.events[at - 1].link).expect("hex link");
        for e in &mut file.events[at..] {
            let hashes: Vec<[u8; 32]> = e
                .parts
                .iter()
                .map(|p| match p {
                    ExportedPart::Shown { json } => part_hash(json.as_bytes()),
                    ExportedPart::Hidden { hidden } => from_hex32(hidden).expect("hex hash"),
                })
                .collect();
            prev = link(&prev, &e.header, hashes);
            e.link = to_hex(&prev);
        }
        let said = match Player::new(file) {
            Ok(_) => panic!("the altered digest was not caught"),
            Err(e) => e.to_string(),
        };
        assert!(said.contains(&format!("seq {}", at + 1)), "{said}");
        assert!(said.contains("digest"), "{said}");
        assert!(!said.contains("chain") && !said.contains("link"), "{said}");
    }

    // Stepping to a seq shows the state `replay --at SEQ --json` gives: the same combatants,
    // numbers and positions, the same round and turn, from the same rebuilt state.
    #[test]
    fn stepping_to_a_seq_shows_the_state_replay_at_gives() {
        let file = fixture("grimwire-gm.json");
        for at in [5u64, 20, 40] {
            let replayed = tablehold_log::replay(&file, Some(at)).expect("replays");
            let mut p = Player::new(fixture("grimwire-gm.json")).expect("opens");
            p.go(at).expect("steps");
            let scene = p.model.scene.as_ref().expect("a scene");
            assert_eq!(scene.head, at);
            let enc = &replayed.state.encounter;
            assert_eq!(scene.encounter, enc.active, "at {at}");
            assert_eq!(scene.round, if enc.active { enc.round } else { 0 });
            assert_eq!(scene.current, enc.current.as_ref().map(|c| c.0.clone()));
            let ids: Vec<&str> = scene.combatants.iter().map(|c| c.id.as_str()).collect();
            let want: Vec<&str> = replayed
                .state
                .combatants
                .keys()
                .map(|k| k.as_str())
                .collect();
            assert_eq!(ids, want, "at {at}");
            for c in &scene.combatants {
                let r = &replayed.state.combatants[&tablehold_rules::EntityId(c.id.clone())];
                assert_eq!(c.position, r.position.map(|p| (p.x, p.y)));
                assert_eq!(c.resources.as_ref(), Some(&r.resources), "{}", c.id);
            }
            assert_eq!(p.model.log.last().map(|l| l.seq <= at), Some(true));
        }
    }

    // With a snapshot every 7 events, every moment, reached forwards or backwards, is the
    // state `replay --at SEQ` rebuilds from the start, rendered alike.
    #[test]
    fn every_moment_from_a_snapshot_is_the_one_replay_at_rebuilds() {
        for name in ["grimwire-gm.json", "grimwire-ines.json"] {
            let file = fixture(name);
            let p = Player::with_snapshots(fixture(name), 7).expect("opens");
            assert!(p.snapshots.len() > 5, "{}", p.snapshots.len());
            let last = p.last();
            for seq in (0..=last).rev() {
                let replayed = tablehold_log::replay(&file, Some(seq)).expect("replays");
                let t = &file.header.table;
                let header = Header {
                    table: &t.id,
                    name: &t.name,
                    system: &t.system,
                    head: seq,
                    deadlines: p.deadlines(seq),
                    digest: None,
                    grid: SystemId::from_str(&t.system)
                        .map_or(GridSpec::METRES, |s| s.system().grid()),
                };
                let want = table_view(header, &replayed.state);
                assert_eq!(p.scene_at(seq).expect("steps"), want, "{name} at {seq}");
            }
        }
    }

    #[test]
    fn keys_step_by_event_turn_and_round_and_jump() {
        let mut p = Player::new(fixture("grimwire-ines.json")).expect("opens");
        let last = p.last();
        assert_eq!(p.at, last);
        p.on_key(key(KeyCode::Home));
        assert_eq!(p.at, 0);
        p.on_key(key(KeyCode::Right));
        p.on_key(key(KeyCode::Right));
        assert_eq!(p.at, 2);
        p.on_key(key(KeyCode::Left));
        assert_eq!(p.at, 1);
        // The next turn's start: the first event after 1 holding one.
        p.on_key(key(KeyCode::Char('n')));
        let turn = p.at;
        let starts = |p: &Player, seq: u64| {
            p.events[usize::try_from(seq - 1).expect("small")]
                .parts
                .iter()
                .any(|x| matches!(x.fact, Fact::TurnStarted { .. } | Fact::TurnsOpened { .. }))
        };
        assert!(turn > 1 && starts(&p, turn), "n went to {turn}");
        p.on_key(key(KeyCode::Char(']')));
        let round = p.at;
        assert!(round > turn);
        p.on_key(key(KeyCode::Char('p')));
        assert!(p.at < round && starts(&p, p.at));
        for d in "12".chars() {
            p.on_key(key(KeyCode::Char(d)));
        }
        p.on_key(key(KeyCode::Enter));
        assert_eq!(p.at, 12);
        assert_eq!(p.model.last_seq, 12);
        p.on_key(key(KeyCode::Char('9')));
        p.on_key(key(KeyCode::Char('9')));
        p.on_key(key(KeyCode::Char('9')));
        p.on_key(key(KeyCode::Enter));
        assert_eq!(p.at, 12, "a number past the end does not move");
        assert!(matches!(p.model.note, Some((_, Tone::Error))));
        // Playing from the end starts over, one event per step.
        p.on_key(key(KeyCode::End));
        p.on_key(key(KeyCode::Char(' ')));
        assert_eq!(p.at, 0);
        p.autoplay();
        p.autoplay();
        assert_eq!(p.at, 2);
    }
}

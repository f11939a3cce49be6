//! A table session built the way the server builds one, for the unit tests of `verify` and
//! `replay` (`log/src/tests.rs`) and for the benchmarks: real grimwire commands go through the
//! real `decide` on a fair `CounterStream`, every event is wrapped in the epoch facts, every
//! audience's state is kept to record its digests, and the log is sealed into an export.
//!
//! The including module provides `log_api`: this crate as seen from where it is included
//! (`crate` in the unit tests, `tablehold_log` in a benchmark).

use std::collections::{BTreeMap, BTreeSet};

use tablehold_rules::dice::fair::{
    Bytes32, entropy_commitment, epoch_key, seed_commitment, to_hex, withheld_replacement,
};
use tablehold_rules::dice::{CounterStream, DiceExpr, DiceSource, roll};
use tablehold_rules::digest;
use tablehold_rules::options::TableOptions;
use tablehold_rules::redact::hide_gm_numbers;
use tablehold_rules::{
    ArgValue, Args, Audience, Command, EntityId, Event, Fact, MemoryState, Part, Seat, SeatId,
    StateView, apply, apply_seen, decide,
};
use tablehold_systems::SystemId;

use super::log_api::file::{FORMAT, FORMAT_VERSION};
use super::log_api::{
    EVENT_VERSION, ExportedEvent, ExportedPart, GENESIS, LogFile, LogHeader, TableInfo,
    header_bytes, link, part_hash, seal, split_parts,
};

/// The player's seat and character.
pub const INES: &str = "ines";
/// A second seat, which commits to entropy and then withholds it.
pub const OLEK: &str = "olek";
/// The GM's goblin: an NPC whose numbers only the GM sees.
pub const GOBLIN: &str = "goblin";

const KNIFE: &str = "[[weapons]]\nid = \"knife\"\nname = \"Knife\"\nclass = \"light\"\ndamage = \"1d4\"\ndamage_type = \"edged\"\n";

/// One audience whose digest the table records.
struct Audienced {
    key: String,
    seat: Seat,
    state: MemoryState,
}

/// A table in play, with its log so far.
pub struct Session {
    system: SystemId,
    pub options: TableOptions,
    /// The GM's state: every part applied.
    pub gm: MemoryState,
    audiences: Vec<Audienced>,
    pub events: Vec<Event>,
    /// The stream of the epoch dice come from now, once it is sealed.
    stream: Option<CounterStream>,
    seeds: BTreeMap<u64, Bytes32>,
    /// Each sealed epoch's key, to commit to hidden dice with.
    keys: BTreeMap<u64, Bytes32>,
    test_seed: bool,
}

impl Session {
    /// An empty grimwire table; `test_seed` marks every epoch as opened with the test seed.
    pub fn new(test_seed: bool) -> Self {
        let system = SystemId::Grimwire;
        let options =
            TableOptions::resolve(&system.system().options(), &BTreeMap::new()).expect("defaults");
        let audience = |key: &str, seat: Seat| Audienced {
            key: key.to_owned(),
            seat,
            state: MemoryState::new(options.clone()),
        };
        let audiences = vec![
            audience("public", Seat::Spectator(SeatId(String::new()))),
            audience("seat:ines", Seat::Player(SeatId::from(INES))),
            audience("seat:olek", Seat::Player(SeatId::from(OLEK))),
        ];
        Session {
            system,
            gm: MemoryState::new(options.clone()),
            options,
            audiences,
            events: Vec::new(),
            stream: None,
            seeds: BTreeMap::new(),
            keys: BTreeMap::new(),
            test_seed,
        }
    }

    /// Appends an event, applying it to the GM's state and to each audience's view of it.
    pub fn push(&mut self, mut event: Event) {
        // As the server does: hidden dice are committed to in the event's draw record.
        let epoch = event.facts().find_map(|f| match f {
            Fact::DiceDrawn { epoch, .. } => Some(*epoch),
            _ => None,
        });
        if let Some(key) = epoch.and_then(|e| self.keys.get(&e)) {
            tablehold_rules::hidden_dice::seal(&mut event, key);
        }
        apply(&mut self.gm, &event).expect("the GM's state applies every event");
        for a in &mut self.audiences {
            // As the server does: a seat's partial view skips what it cannot place.
            let seen = event.parts.iter().filter(|p| p.audience.admits(&a.seat));
            apply_seen(&mut a.state, seen.map(|p| &p.fact));
        }
        self.events.push(event);
    }

    fn public(&mut self, fact: Fact) {
        self.push(Event::public(fact));
    }

    /// Opens the next epoch with `seed`, collects the contributions (a seat with `Some`
    /// entropy reveals it, one with `None` commits to `[0xEE; 32]` and withholds), seals it and
    /// makes it the one dice come from. Returns its id.
    pub fn open_epoch(
        &mut self,
        purpose: &str,
        seed: Bytes32,
        seats: &[(&str, Option<Bytes32>)],
    ) -> u64 {
        let epoch = u64::try_from(self.seeds.len()).expect("few epochs") + 1;
        self.seeds.insert(epoch, seed);
        self.public(Fact::EpochOpened {
            epoch,
            purpose: purpose.to_owned(),
            commitment: to_hex(&seed_commitment(epoch, &seed)),
            test_seed: self.test_seed,
        });
        let mut commitments = Vec::new();
        for (seat, entropy) in seats {
            let value = entropy.unwrap_or([0xEE; 32]);
            let c = entropy_commitment(epoch, seat, &value).expect("a short seat id");
            commitments.push((*seat, c));
            self.public(Fact::EntropyCommitted {
                epoch,
                seat: (*seat).to_owned(),
                commitment: to_hex(&c),
            });
        }
        self.public(Fact::CommitmentsClosed { epoch });
        let mut contributions = Vec::new();
        for ((seat, entropy), (_, c)) in seats.iter().zip(&commitments) {
            match entropy {
                Some(value) => {
                    contributions.push((*seat, *value));
                    self.public(Fact::EntropyRevealed {
                        epoch,
                        seat: (*seat).to_owned(),
                        entropy: to_hex(value),
                    });
                }
                None => {
                    let stand_in = withheld_replacement(c);
                    contributions.push((*seat, stand_in));
                    self.public(Fact::EntropyWithheld {
                        epoch,
                        seat: (*seat).to_owned(),
                        replacement: to_hex(&stand_in),
                    });
                }
            }
        }
        self.public(Fact::EpochSealed { epoch });
        let key = epoch_key(epoch, &seed, &contributions).expect("short seat ids");
        self.keys.insert(epoch, key);
        self.stream = Some(CounterStream::new(key, epoch));
        epoch
    }

    /// Ends `epoch` by revealing its seed and opening its hidden dice, as the server does.
    pub fn reveal_epoch(&mut self, epoch: u64) {
        let seed = self.seeds[&epoch];
        let reveal = Event::public(Fact::EpochRevealed {
            epoch,
            seed: to_hex(&seed),
        });
        let logged = (1u64..).zip(self.events.iter().map(|e| e.parts.as_slice()));
        let events = tablehold_rules::hidden_dice::opening_events(epoch, reveal, logged, 10_000);
        for e in events {
            self.push(e);
        }
    }

    /// Makes dice come from `epoch` again (the table's epoch after an encounter's), resuming
    /// its stream where its last logged draw left it.
    pub fn resume_epoch(&mut self, epoch: u64, contributions: &[(&str, Bytes32)]) {
        let next = self
            .events
            .iter()
            .flat_map(|e| e.facts())
            .filter_map(|f| match f {
                Fact::DiceDrawn {
                    epoch: e, spans, ..
                } if *e == epoch => spans.last().map(|s| s[1]),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        let key = epoch_key(epoch, &self.seeds[&epoch], contributions).expect("short seat ids");
        self.keys.insert(epoch, key);
        self.stream = Some(CounterStream::at(key, epoch, next));
    }

    /// Adds a combatant from a grimwire TOML sheet at a cell, as the server does: one event,
    /// with an NPC's sheet kept for the GM.
    pub fn add(&mut self, toml: &str, x: i32, y: i32) {
        let mut c = self
            .system
            .system()
            .sheet_from_toml(toml)
            .expect("a valid sheet");
        c.position = Some(tablehold_rules::grid::Cell::new(x, y));
        let event = hide_gm_numbers(
            Event::public(Fact::CombatantAdded {
                replaces: false,
                combatant: Box::new(c),
            }),
            &self.gm,
        );
        self.push(event);
    }

    /// Decides `command` on the GM's state with the fair dice and logs what it produced. A
    /// refused command draws nothing: the stream is only advanced when the events are kept.
    ///
    /// # Errors
    ///
    /// The refusal, as text.
    pub fn command(&mut self, command: &Command) -> Result<usize, String> {
        let mut dice = self.stream.clone().expect("an epoch is sealed");
        let events = decide(self.system.system(), &self.gm, command, &mut dice)
            .map_err(|e| e.to_string())?;
        assert!(
            dice.take_draws().is_none(),
            "every draw belongs to an event"
        );
        self.stream = Some(dice);
        let n = events.len();
        for e in events {
            self.push(e);
        }
        Ok(n)
    }

    /// An action by `seat` for `actor`.
    pub fn act(&mut self, seat: Seat, actor: &str, action: &str, args: &[(&str, &str)]) {
        let args = Args(
            args.iter()
                .map(|(k, v)| ((*k).to_owned(), ArgValue::Text((*v).to_owned())))
                .collect(),
        );
        let cmd = Command::act(seat, Some(actor), action, args);
        self.command(&cmd)
            .unwrap_or_else(|e| panic!("{action} by {actor}: {e}"));
    }

    /// A GM action with no actor (start or end the encounter, a ruling).
    pub fn gm(&mut self, action: &str, args: &[(&str, ArgValue)]) {
        let args = Args(
            args.iter()
                .map(|(k, v)| ((*k).to_owned(), v.clone()))
                .collect(),
        );
        let cmd = Command::act(Seat::Gm, None, action, args);
        self.command(&cmd)
            .unwrap_or_else(|e| panic!("{action} by the GM: {e}"));
    }

    /// Lets any open prompt time out, as the table task does when nobody answers.
    pub fn settle_prompts(&mut self) {
        while let Some(p) = self.gm.encounter().pending.last() {
            let id = p.prompt_id;
            self.command(&Command::time_out(id))
                .unwrap_or_else(|e| panic!("time out prompt {id}: {e}"));
        }
    }

    /// A free roll outside any rule: public, or for the GM's eyes only. Its counters are
    /// public either way.
    pub fn free_roll(&mut self, expr: &str, secret: bool) {
        let stream = self.stream.as_mut().expect("an epoch is sealed");
        let expr = DiceExpr::parse(expr).expect("valid dice");
        let rolled = roll(&expr, stream).expect("the fair stream never runs out");
        let draws = stream.take_draws().expect("a roll draws");
        let audience = if secret {
            Audience::GmOnly
        } else {
            Audience::Everyone
        };
        self.push(Event {
            parts: vec![
                Part {
                    audience,
                    fact: Fact::Rolled {
                        by: None,
                        purpose: "free roll".into(),
                        roll: rolled,
                    },
                },
                Part::dice_drawn(draws),
            ],
        });
    }

    /// A random pick among `candidates`, as a system makes one: a public event with the die,
    /// its face and counters, and the candidate the face chose.
    pub fn pick(&mut self, candidates: &[&str]) {
        let stream = self.stream.as_mut().expect("an epoch is sealed");
        let n = u32::try_from(candidates.len()).expect("few");
        let die = tablehold_rules::dice::pick_die(n);
        let face = stream.draw(die).expect("the fair stream never runs out");
        let counters = stream.last_counters();
        let i = tablehold_rules::dice::pick_index(face, n, die).expect("a face of the die");
        let draws = stream.take_draws().expect("a pick draws");
        self.push(Event {
            parts: vec![
                Part {
                    audience: Audience::Everyone,
                    fact: Fact::Picked {
                        purpose: "who the lightning strikes".into(),
                        candidates: candidates.iter().map(|c| (*c).into()).collect(),
                        face,
                        picked: candidates[i].into(),
                        die: Some(die),
                        counters,
                    },
                },
                Part::dice_drawn(draws),
            ],
        });
    }

    /// One event recording every audience's digest, each part for that audience's eyes, as
    /// the table does at the end of a turn.
    pub fn record_digests(&mut self) {
        let mut parts = vec![Part {
            audience: Audience::GmOnly,
            fact: Fact::DigestRecorded {
                audience: "gm".into(),
                digest: digest::current(&self.gm),
                projection: digest::CURRENT,
            },
        }];
        for a in &self.audiences {
            let audience = match &a.seat {
                Seat::Player(id) => Audience::Seats(BTreeSet::from([id.clone()])),
                _ => Audience::Everyone,
            };
            parts.push(Part {
                audience,
                fact: Fact::DigestRecorded {
                    audience: a.key.clone(),
                    digest: digest::current(&a.state),
                    projection: digest::CURRENT,
                },
            });
        }
        self.push(Event { parts });
    }

    /// Whoever's turn it is acts, then ends the turn, and the digests are recorded. A
    /// combatant hurt is restored by a GM ruling first (no turn does enough damage to drop
    /// anyone), so the fight can go on as long as a benchmark wants.
    pub fn play_turn(&mut self) {
        self.settle_prompts();
        let Some(current) = self.gm.encounter().current.clone() else {
            return;
        };
        let (seat, target) = if current.as_str() == INES {
            (Seat::Player(SeatId::from(INES)), GOBLIN)
        } else {
            (Seat::Gm, INES)
        };
        self.act(
            seat.clone(),
            current.as_str(),
            "attack",
            &[("target", target), ("weapon", "knife")],
        );
        self.settle_prompts();
        self.act(seat, current.as_str(), "end_turn", &[]);
        self.settle_prompts();
        for (who, full) in [(INES, 20), (GOBLIN, 12)] {
            let condition = self
                .gm
                .combatant(&EntityId::from(who))
                .map_or(full, |c| c.resource("condition"));
            if condition < full {
                self.gm(
                    "rule.set-resource",
                    &[
                        ("target", ArgValue::Text(who.to_owned())),
                        ("resource", ArgValue::Text("condition".into())),
                        ("value", ArgValue::Int(full)),
                    ],
                );
            }
        }
        self.record_digests();
    }

    /// The skirmish the unit tests check: the table's epoch with one seat revealing and one
    /// withholding; a public and a secret free roll; an encounter in its own epoch (initiative
    /// and attacks both ways, digests after every turn); the encounter's seed revealed; one
    /// more free roll; the table's seed revealed at the end of the session.
    pub fn skirmish(test_seed: bool) -> Session {
        let mut s = Session::new(test_seed);
        let ines_entropy = [0x11; 32];
        let table = s.open_epoch(
            "table",
            [0xA1; 32],
            &[(INES, Some(ines_entropy)), (OLEK, None)],
        );
        s.setup_combatants();
        s.free_roll("1d20+2", false);
        s.free_roll("2d6", true);
        s.record_digests();
        s.fight(3);
        let olek = withheld_replacement(
            &entropy_commitment(table, OLEK, &[0xEE; 32]).expect("a short seat id"),
        );
        s.resume_epoch(table, &[(INES, ines_entropy), (OLEK, olek)]);
        s.free_roll("3d6kh2", false);
        s.reveal_epoch(table);
        s
    }

    /// A session of at least `events` events: one table epoch, then encounters of 50 turns,
    /// each in its own epoch, until the log is long enough.
    pub fn long(events: usize) -> Session {
        let mut s = Session::new(false);
        s.open_epoch("table", [0xB2; 32], &[(INES, Some([0x22; 32]))]);
        s.setup_combatants();
        while s.events.len() < events {
            s.fight(50);
        }
        s
    }

    fn setup_combatants(&mut self) {
        self.add(
            &format!(
                "id = \"{INES}\"\nname = \"Ines\"\nkind = \"pc\"\nowner = \"{INES}\"\nlevel = 1\ncondition_max = 20\nfocus_max = 10\nattributes = {{ TOG = 1, AGL = 2, COR = 2, MND = 0, PER = 1, RSN = 0 }}\n{KNIFE}"
            ),
            0,
            0,
        );
        self.add(
            &format!(
                "id = \"{GOBLIN}\"\nname = \"Goblin\"\nkind = \"npc\"\nlevel = 1\ncondition_max = 12\nfocus_max = 0\nattributes = {{ TOG = 0, AGL = 1, COR = 1, MND = 0, PER = 0, RSN = 0 }}\n{KNIFE}[npc]\ndefence_tn = 12\nattack_tn = 13\n"
            ),
            1,
            0,
        );
    }

    /// An encounter of `turns` turns in a fresh epoch, whose seed is revealed at its end.
    fn fight(&mut self, turns: usize) {
        let seed = [u8::try_from(self.seeds.len() % 256).unwrap_or(0) ^ 0x5C; 32];
        let epoch = self.open_epoch("encounter", seed, &[(INES, Some([0x33; 32]))]);
        self.gm("start_encounter", &[]);
        self.settle_prompts();
        for _ in 0..turns {
            self.play_turn();
        }
        self.gm("end_encounter", &[]);
        self.reveal_epoch(epoch);
    }

    /// The export `viewer` (`gm` or `seat:<id>`) would download: for the GM every part, for
    /// a seat the parts its audience admits, the others as their hash.
    pub fn export(&self, viewer: &str) -> LogFile {
        let shows = |audience: &Audience| match viewer.strip_prefix("seat:") {
            Some(id) => audience.admits(&Seat::Player(SeatId::from(id))),
            None => true,
        };
        let mut prev = GENESIS;
        let mut salts = 0u64;
        let mut events = Vec::with_capacity(self.events.len());
        for (i, event) in self.events.iter().enumerate() {
            let seq = u64::try_from(i).expect("few events") + 1;
            let header = header_bytes(seq, EVENT_VERSION, 1_700_000_000_000 + seq * 250);
            // Salts as a server makes them, but reproducible: from a counter.
            let mut salt = || {
                salts += 1;
                let mut s = [0u8; 16];
                s[..8].copy_from_slice(&salts.to_be_bytes());
                s
            };
            let (stored, sealed) = seal(
                &prev,
                seq,
                EVENT_VERSION,
                1_700_000_000_000 + seq * 250,
                &event.parts,
                &mut salt,
            );
            let raw = split_parts(&stored).expect("a JSON array");
            let hashes: Vec<[u8; 32]> = raw.iter().map(|r| part_hash(r.get().as_bytes())).collect();
            let parts = raw
                .iter()
                .zip(&event.parts)
                .zip(&hashes)
                .map(|((r, p), h)| {
                    if shows(&p.audience) {
                        ExportedPart::Shown {
                            json: r.get().to_owned(),
                        }
                    } else {
                        ExportedPart::Hidden { hidden: to_hex(h) }
                    }
                })
                .collect();
            prev = link(&prev, &header, hashes);
            debug_assert_eq!(prev, sealed);
            events.push(ExportedEvent {
                header,
                parts,
                link: to_hex(&prev),
            });
        }
        LogFile {
            header: LogHeader {
                format: FORMAT.into(),
                version: FORMAT_VERSION,
                table: TableInfo {
                    id: "5f3a9c1e2b7d4a60".into(),
                    name: "Crypt".into(),
                    system: self.system.as_str().into(),
                    options: serde_json::to_value(&self.options.0).expect("plain options"),
                },
                viewer: viewer.to_owned(),
                exported_at_ms: 1_800_000_000_000,
                event_count: u64::try_from(events.len()).expect("few events"),
            },
            events,
        }
    }
}

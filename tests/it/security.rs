//! What each seat may see, attacked from the outside (see: issue #24): sentinels in every value
//! and every text that is not a seat's business, searched for in everything that seat receives
//! (live frames, refusals, replies, a backlog from a fresh connection, its export), and a
//! player's reach over other seats' characters.

use std::collections::BTreeMap;

use serde_json::Value;
use tablehold_log::{LogFile, replay, verify};
use tablehold_protocol::{ErrorCode, Op, Reply, Role, ServerMsg};
use tablehold_rules::dice::{CounterStream, DiceSource, Primitive};
use tablehold_rules::{ArgValue, Fact};
use tablehold_tests::server::{Got, Raw, TEST_SEED, TestServer};

use crate::server::{Table, act, create_table, gm, join, state, text};

/// Numbers only the GM may know: an NPC's maximum Condition and its defence TN, a hidden
/// target number, a secret roll's bonus, the damage of a GM ruling on an NPC and the Condition
/// it leaves. Every one is a value no public fact of this scenario can take.
const HIDDEN_NUMBERS: [i64; 6] = [9137, 6803, 8311, 7411, 5501, 9137 - 5501];

/// Texts only the GM may read: an NPC's weapon name and the reason of a ruling on an NPC.
const HIDDEN_TEXTS: [&str; 2] = ["SECRET-7f3a", "SECRET-reason-52"];

fn npc(id: &str, per: i64) -> String {
    format!(
        r#"
id = "{id}"
name = "Goblin {id}"
kind = "npc"
level = 1
condition_max = 9137
focus_max = 0
attributes = {{ TOG = 1, AGL = 1, COR = 1, MND = 0, PER = {per}, RSN = 0 }}
[[weapons]]
id = "cleaver"
name = "SECRET-7f3a"
class = "light"
damage = "1d6"
damage_type = "edged"
[npc]
defence_tn = 6803
attack_tn = 11
"#
    )
}

fn pc(id: &str, owner: Option<&str>, per: i64) -> String {
    let owner = owner
        .map(|o| format!("owner = \"{o}\"\n"))
        .unwrap_or_default();
    format!(
        r#"
id = "{id}"
name = "{id}"
kind = "pc"
{owner}level = 1
condition_max = 14
focus_max = 4
attributes = {{ TOG = 2, AGL = 2, COR = 1, MND = 0, PER = {per}, RSN = 1 }}
"#
    )
}

/// The sheets of a table whose first encounter (epoch 1, keyed by the test seed alone) opens
/// two initiative ties: two goblins (the GM decides) and Rui's `d-mara` with the GM's own
/// `c-ally` (Rui decides, Ines is not asked). Initiative draws one d20 per combatant in id
/// order, so filler goblins (`0fill-NN`) take the faces that do not suit and PER makes up
/// the difference; Ines's `e-aune` draws last and is kept out of every tie. Returns
/// `(seat that adds it, sheet)`, with `None` for the GM.
fn tying_table() -> Vec<(Option<&'static str>, String)> {
    let mut seed = [0u8; 32];
    for (i, b) in seed.iter_mut().enumerate() {
        *b = u8::from_str_radix(&TEST_SEED[2 * i..2 * i + 2], 16).expect("hex seed");
    }
    let mut stream = CounterStream::new(seed, 1);
    let f: Vec<i64> = (0..60)
        .map(|_| i64::from(stream.draw(Primitive::D20).expect("draw")))
        .collect();
    let close = |a: i64, b: i64| (a - b).abs() <= 10;
    let skip = (0..50)
        .find(|&k| close(f[k], f[k + 1]) && close(f[k + 2], f[k + 3]))
        .expect("two pairs of close faces");
    let pers = |a: i64, b: i64| if a >= b { (0, a - b) } else { (b - a, 0) };
    let (pa, pb) = pers(f[skip], f[skip + 1]);
    let (pc_, pd) = pers(f[skip + 2], f[skip + 3]);
    let players_tie = f[skip + 2] + pc_;
    let pe = i64::from(f[skip + 4] == players_tie);
    let mut sheets: Vec<(Option<&str>, String)> = (0..skip)
        .map(|k| (None, npc(&format!("0fill-{k:02}"), 0)))
        .collect();
    sheets.push((None, npc("a-gob", pa)));
    sheets.push((None, npc("b-gob", pb)));
    sheets.push((None, pc("c-ally", None, pc_)));
    sheets.push((Some("rui"), pc("d-mara", Some("rui"), pd)));
    sheets.push((Some("ines"), pc("e-aune", Some("ines"), pe)));
    sheets
}

/// Everything one seat received, as bytes, in the order it came.
struct Received {
    seat: &'static str,
    frames: Vec<Vec<u8>>,
    /// The seat's export, whose frames are among `frames` too.
    log: LogFile,
}

/// Every message a frame holds, as JSON: the frame itself, and the parts of an export page
/// (stored as JSON text inside it) parsed as well.
fn decoded(frame: &[u8]) -> Vec<Value> {
    let value: Value = tablehold_protocol::decode_server(frame)
        .ok()
        .and_then(|m| serde_json::to_value(m).ok())
        .expect("the server sends valid frames");
    let mut out = vec![value.clone()];
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) if s.starts_with('{') => {
                if let Ok(inner) = serde_json::from_str::<Value>(&s) {
                    out.push(inner.clone());
                    stack.push(inner);
                }
            }
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
    out
}

/// Where `secret` shows in a decoded message: as an integer anywhere, or in the words of a
/// string (hashes and salts, long runs of hex digits, are left out: they may hold any digits).
fn find_number(v: &Value, secret: i64) -> Option<String> {
    match v {
        Value::Number(n) if n.as_i64() == Some(secret) => Some(format!("the number {secret}")),
        Value::String(s) => {
            // Hashes, salts and links are long runs of hex digits and may hold any digits; a
            // part stored as JSON text is searched in its parsed form (see `decoded`), where
            // its timestamps are numbers rather than digits in a string.
            let hex = s.len() >= 16 && s.chars().all(|c| c.is_ascii_hexdigit());
            let json = s.starts_with('{') && serde_json::from_str::<Value>(s).is_ok();
            (!hex && !json && s.contains(&secret.to_string())).then(|| format!("{secret} in {s:?}"))
        }
        Value::Array(items) => items.iter().find_map(|i| find_number(i, secret)),
        Value::Object(map) => map.values().find_map(|i| find_number(i, secret)),
        _ => None,
    }
}

/// The leaks in what a seat received: each hidden number, each hidden text (in the raw bytes
/// and in the decoded strings), and each text in `also_hidden`.
fn leaks(got: &Received, also_hidden: &[String]) -> Vec<String> {
    let texts: Vec<&str> = HIDDEN_TEXTS
        .iter()
        .copied()
        .chain(also_hidden.iter().map(String::as_str))
        .collect();
    let mut found = Vec::new();
    for frame in &got.frames {
        for t in &texts {
            if frame.windows(t.len()).any(|w| w == t.as_bytes()) {
                found.push(format!("{} got {t:?} in a frame's bytes", got.seat));
            }
        }
        for v in decoded(frame) {
            let json: String = v.to_string().chars().take(400).collect();
            for t in &texts {
                if json.contains(t) {
                    found.push(format!("{} got {t:?} in {json}", got.seat));
                }
            }
            for n in HIDDEN_NUMBERS {
                if let Some(w) = find_number(&v, n) {
                    found.push(format!("{} got {w} in {json}", got.seat));
                }
            }
        }
    }
    found
}

/// Reads everything else a seat can ask for: its state, its actions, the goblin's sheet, the
/// seats, its whole export, and the backlog a fresh connection with its token gets.
async fn collect(url: &str, t: &Table, seat: &'static str, client: Raw, token: &str) -> Received {
    let mut client = client;
    for op in [
        Op::State,
        Op::Actions,
        Op::Seats,
        Op::ShowSheet {
            entity: "a-gob".into(),
        },
    ] {
        client.request(op).await.reply();
    }
    let log = crate::fairness::export(&mut client).await;
    let mut fresh = Raw::connect(url).await;
    fresh
        .request(Op::Auth {
            table: t.id.clone(),
            token: token.to_owned(),
        })
        .await
        .reply();
    fresh.request(Op::Subscribe { after: 0 }).await.reply();
    // The table queues the whole backlog before any later reply: after this one, it is in.
    fresh.request(Op::Ping).await.reply();
    let mut frames = client.raw_frames;
    frames.extend(fresh.raw_frames);
    Received { seat, frames, log }
}

/// A table with every seat taken: the GM, players Ines and Rui, spectator Eve; each player's
/// and the spectator's connection with its seat token.
struct Seated {
    t: Table,
    gm: Raw,
    ines: (Raw, String),
    rui: (Raw, String),
    eve: (Raw, String),
}

async fn seated(url: &str) -> Seated {
    let t = create_table(url, BTreeMap::new()).await;
    Seated {
        gm: gm(url, &t).await,
        ines: join(url, &t, Role::Player, 0, "Ines").await,
        rui: join(url, &t, Role::Player, 1, "Rui").await,
        eve: join(url, &t, Role::Spectator, 0, "Eve").await,
        t,
    }
}

/// The open prompt as the GM sees it.
async fn open_prompt(gm: &mut Raw) -> tablehold_protocol::PromptView {
    state(gm.request(Op::State).await.reply())
        .prompt
        .expect("a prompt is open")
}

// See: issue #24. Every GM-only value and text, and every prompt open to another seat, never
// reaches a player or spectator by any path; the GM (and the seat a prompt asks) do get them,
// so the search is known to look in the right places.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_and_spectators_never_receive_hidden_values() {
    let server = TestServer::start(&[]);
    let url = server.url.clone();
    let Seated {
        t,
        mut gm,
        ines: (mut ines, ines_token),
        rui: (mut rui, rui_token),
        eve: (mut eve, eve_token),
    } = seated(&url).await;
    for c in [&mut gm, &mut ines, &mut rui, &mut eve] {
        c.request(Op::Subscribe { after: 0 }).await.reply();
    }
    for (by, sheet) in tying_table() {
        let client = match by {
            Some("ines") => &mut ines,
            Some(_) => &mut rui,
            None => &mut gm,
        };
        client.request(Op::AddSheet { sheet }).await.reply();
    }

    // The encounter opens with the goblins' tie, the GM's alone, then Rui's.
    gm.request(act(None, "start_encounter", &[])).await.reply();
    // What only the GM may read (the goblins' tie and its answer), and what only Rui and the
    // GM may read (his tie and his answer).
    let (mut gm_only, mut ruis) = (Vec::new(), Vec::new());
    for _ in 0..2 {
        let p = open_prompt(&mut gm).await;
        let for_rui = p.seats.contains(&"rui".to_owned());
        // Everyone else is refused while it is open; the refusal says who decides, not what.
        for (client, actor) in [(&mut ines, "e-aune"), (&mut rui, "d-mara")] {
            let got = client.request(act(Some(actor), "end_turn", &[])).await;
            assert_eq!(got.code(), Some(ErrorCode::AwaitingDecision), "{got:?}");
        }
        let got = eve.request(act(None, "end_turn", &[])).await;
        assert!(got.code().is_some(), "{got:?}");
        let seen = state(ines.request(Op::State).await.reply());
        let seen = seen.prompt.expect("Ines sees that a prompt is open");
        assert_eq!(seen.prompt_id, p.prompt_id);
        assert!(
            seen.options.is_empty() && seen.default.is_empty(),
            "{seen:?}"
        );
        // The answer is as private as the question: the non-default choice is a sentinel.
        let choice = p.options.last().expect("options").clone();
        let answer = Op::Answer {
            prompt_id: p.prompt_id,
            choice: choice.clone(),
            args: Default::default(),
        };
        let texts = [p.question.clone(), format!("\"choice\":\"{choice}\"")];
        if for_rui {
            ruis.extend(texts);
            rui.request(answer).await.reply();
        } else {
            assert_eq!(p.seats, ["gm"], "{p:?}");
            gm_only.extend(texts);
            gm.request(answer).await.reply();
        }
    }
    assert!(
        !ruis.is_empty() && !gm_only.is_empty(),
        "both ties were asked"
    );

    // The GM's rulings on a goblin, then a hidden TN and a secret roll between encounters.
    let damage = act(
        None,
        "damage",
        &[("target", text("a-gob")), ("amount", ArgValue::Int(5501))],
    );
    gm.request(damage).await.reply();
    let ruling = act(
        None,
        "rule.set-resource",
        &[
            ("target", text("b-gob")),
            ("resource", text("condition")),
            ("value", ArgValue::Int(9000)),
            ("reason", text("SECRET-reason-52")),
        ],
    );
    gm.request(ruling).await.reply();
    gm.request(act(None, "end_encounter", &[])).await.reply();
    let check = act(
        Some("e-aune"),
        "check",
        &[("attribute", text("AGL")), ("tn", ArgValue::Int(8311))],
    );
    gm.request(check).await.reply();
    gm.request(Op::Roll {
        dice: "1d20+7411".into(),
        secret: true,
    })
    .await
    .reply();

    let gm_token = t.gm_token.clone();
    let gm_got = collect(&url, &t, "gm", gm, &gm_token).await;
    let ines_got = collect(&url, &t, "ines", ines, &ines_token).await;
    let rui_got = collect(&url, &t, "rui", rui, &rui_token).await;
    let eve_got = collect(&url, &t, "eve", eve, &eve_token).await;

    // The GM receives every sentinel, and Rui his own prompt: the search looks where they
    // would be.
    let everything: Vec<String> = gm_only.iter().chain(&ruis).cloned().collect();
    let gm_found = leaks(&gm_got, &everything);
    let numbers = HIDDEN_NUMBERS.iter().map(ToString::to_string);
    let texts = HIDDEN_TEXTS.iter().map(|t| (*t).to_owned());
    for t in numbers.chain(texts).chain(everything.iter().cloned()) {
        assert!(
            gm_found.iter().any(|l| l.contains(&t)),
            "the GM should receive {t}"
        );
    }
    let rui_found = leaks(&rui_got, &ruis);
    for t in &ruis {
        assert!(
            rui_found.iter().any(|l| l.contains(t)),
            "Rui should receive {t}"
        );
    }
    // Nobody else receives any of it.
    let mut found = leaks(&ines_got, &everything);
    found.extend(leaks(&eve_got, &everything));
    found.extend(leaks(&rui_got, &gm_only));
    assert!(found.is_empty(), "{}", found.join("\n"));
    // Every seat's copy, stand-ins and all, verifies and replays to the digests the table
    // recorded for it; `.ci/run` checks them with the Python verifier too.
    for got in [&gm_got, &ines_got, &rui_got, &eve_got] {
        let report = verify(&got.log).unwrap_or_else(|e| panic!("{}: {e}", got.seat));
        assert!(
            report.test_seed && report.draws > 0,
            "{}: {report:?}",
            got.seat
        );
        let replayed = replay(&got.log, None).unwrap_or_else(|e| panic!("{}: {e}", got.seat));
        assert!(replayed.digests_checked >= 2, "{}: {replayed:?}", got.seat);
        // Exported while the table's epoch is still open: nothing wrong, not yet verifiable.
        assert!(report.dice_unrevealed > 0, "{}: {report:?}", got.seat);
        let name = format!("security-test-seed-open-{}.json", got.seat);
        crate::fairness::python_verifies(
            &crate::fairness::saved(&name, &got.log),
            &["--allow-test-seed"],
            4,
        );
    }
    // The hidden events exist: the seats see gaps, not their content.
    let seen = |r: &Received| {
        r.frames
            .iter()
            .filter(|f| {
                matches!(
                    tablehold_protocol::decode_server(f),
                    Ok(ServerMsg::Event(_))
                )
            })
            .count()
    };
    assert!(seen(&ines_got) < seen(&gm_got));
}

// See: issue #24 ("a player can take another player's character").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_cannot_take_another_players_character() {
    let server = TestServer::start(&[]);
    let url = server.url.clone();
    let Seated {
        t: _,
        mut gm,
        ines: (mut ines, _),
        rui: (mut rui, _),
        eve: (mut eve, _),
    } = seated(&url).await;
    gm.request(Op::Subscribe { after: 0 }).await.reply();
    rui.request(Op::AddSheet {
        sheet: pc("mara", None, 1),
    })
    .await
    .reply();
    let owner = |s: &tablehold_protocol::TableView, id: &str| {
        s.combatants
            .iter()
            .find(|c| c.id == id)
            .and_then(|c| c.owner.clone())
    };

    // A sheet for another seat is refused, whether the character is new or Rui's; nothing
    // changes.
    let head = state(gm.request(Op::State).await.reply()).head;
    for sheet in [pc("brand-new", Some("rui"), 1), pc("mara", Some("rui"), 9)] {
        let got = ines.request(Op::AddSheet { sheet }).await;
        assert_eq!(got.code(), Some(ErrorCode::Forbidden), "{got:?}");
    }
    let got = ines
        .request(Op::AddSheet {
            sheet: pc("mara", Some("ines"), 9),
        })
        .await;
    assert_eq!(got.code(), Some(ErrorCode::Forbidden), "{got:?}");
    let s = state(gm.request(Op::State).await.reply());
    assert_eq!(s.head, head, "a refused sheet logs nothing");
    assert_eq!(owner(&s, "mara").as_deref(), Some("rui"));
    assert!(s.combatants.iter().all(|c| c.id != "brand-new"));

    // Her own sheet, with or without her seat named, is hers; adding it again says it replaces.
    for sheet in [pc("aune", Some("ines"), 2), pc("aune", None, 3)] {
        ines.request(Op::AddSheet { sheet }).await.reply();
    }
    let added: Vec<bool> = added_facts(&mut gm, "aune").await;
    assert_eq!(added, [false, true], "an arrival, then a replacement");

    // Giving a character to another seat is the GM's, as an event; only a player's seat may
    // have one, and only a player character may be given.
    let assign = |entity: &str, seat: Option<&str>| Op::AssignCharacter {
        entity: entity.into(),
        seat: seat.map(str::to_owned),
    };
    let got = ines.request(assign("mara", Some("ines"))).await;
    assert_eq!(got.code(), Some(ErrorCode::Forbidden), "{got:?}");
    let got = gm.request(assign("aune", Some("eve"))).await;
    assert_eq!(got.code(), Some(ErrorCode::BadRequest), "{got:?}");
    let got = gm.request(assign("aune", Some("nobody"))).await;
    assert_eq!(got.code(), Some(ErrorCode::BadRequest), "{got:?}");
    let got = gm
        .request(Op::AddSheet {
            sheet: pc("stray", Some("eve"), 1),
        })
        .await;
    assert_eq!(got.code(), Some(ErrorCode::BadRequest), "{got:?}");
    let got = eve.request(assign("aune", Some("rui"))).await;
    assert_eq!(got.code(), Some(ErrorCode::Forbidden), "{got:?}");
    match gm.request(assign("aune", Some("rui"))).await.reply() {
        Reply::Applied {
            first_seq,
            last_seq,
        } => assert_eq!(first_seq, last_seq),
        other => panic!("{other:?}"),
    }
    let moved = gm
        .wait_fact(|f| match f {
            Fact::OwnerSet { entity, from, to } if entity.as_str() == "aune" => {
                Some((from.clone(), to.clone()))
            }
            _ => None,
        })
        .await;
    assert_eq!(
        moved,
        (Some("ines".into()), Some("rui".into())),
        "the log says who had it and who has it"
    );
    // The same seat again changes nothing and logs nothing.
    match gm.request(assign("aune", Some("rui"))).await.reply() {
        Reply::Applied {
            first_seq,
            last_seq,
        } => assert_eq!(last_seq + 1, first_seq, "an empty range"),
        other => panic!("{other:?}"),
    }
    let s = state(gm.request(Op::State).await.reply());
    assert_eq!(owner(&s, "aune").as_deref(), Some("rui"));
    // Now Ines may not edit it, and Rui may.
    let got = ines
        .request(Op::AddSheet {
            sheet: pc("aune", None, 4),
        })
        .await;
    assert_eq!(got.code(), Some(ErrorCode::Forbidden), "{got:?}");
    rui.request(Op::AddSheet {
        sheet: pc("aune", None, 4),
    })
    .await
    .reply();
    // The GM takes it back, and NPCs cannot be given away.
    gm.request(assign("aune", None)).await.reply();
    let s = state(gm.request(Op::State).await.reply());
    assert_eq!(owner(&s, "aune"), None);
    gm.request(Op::AddSheet {
        sheet: npc("gob", 0),
    })
    .await
    .reply();
    let got = gm.request(assign("gob", Some("rui"))).await;
    assert_eq!(got.code(), Some(ErrorCode::Forbidden), "{got:?}");
    let owned_npc = npc("gob-2", 0).replace("kind = \"npc\"", "kind = \"npc\"\nowner = \"rui\"");
    let got = gm.request(Op::AddSheet { sheet: owned_npc }).await;
    assert_eq!(got.code(), Some(ErrorCode::Forbidden), "{got:?}");
    let got = gm.request(assign("nobody-here", Some("rui"))).await;
    assert!(
        matches!(got, Got::Error(ErrorCode::UnknownEntity, _)),
        "{got:?}"
    );
}

/// The `replaces` flag of every `combatant_added` for `id` the GM has received so far.
async fn added_facts(gm: &mut Raw, id: &str) -> Vec<bool> {
    let head = state(gm.request(Op::State).await.reply()).head;
    gm.wait_seq(head).await;
    gm.events
        .iter()
        .flat_map(|e| &e.parts)
        .filter_map(|p| match &p.fact {
            Fact::CombatantAdded {
                combatant,
                replaces,
            } if combatant.id.as_str() == id => Some(*replaces),
            _ => None,
        })
        .collect()
}

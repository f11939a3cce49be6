//! A table whose log is far longer than what the table keeps in memory (the last events only):
//! whatever is older is read back from the store, so a late seat, a far-behind subscriber, an
//! export and the reveal of dice rolled long ago all see the whole log, before a restart and
//! after.

use std::collections::BTreeMap;

use tablehold_log::{ExportedPart, LogFile, replay, verify};
use tablehold_protocol::{Op, Reply, Role};
use tablehold_tests::server::{Raw, TestServer};

use crate::fairness::export;
use crate::server::{NPC_GOBLIN, PC_AUNE, act, create_table, gm, join, state};

/// Rolls before anyone joins: many times the 16 events a table keeps in memory.
const ROLLS: u64 = 300;
/// Every tenth of them is the GM's secret.
const SECRET_EVERY: u64 = 10;
/// Events between the table's snapshots.
const SNAPSHOT_EVERY: u64 = 50;

/// The number after `name=` in a log line (its colours taken out).
fn field(line: &str, name: &str) -> u64 {
    let mut plain = String::new();
    let mut escape = false;
    for c in line.chars() {
        match (escape, c) {
            (false, '\u{1b}') => escape = true,
            (true, 'm') => escape = false,
            (false, _) => plain.push(c),
            (true, _) => {}
        }
    }
    let line = plain.as_str();
    let at = line
        .find(&format!("{name}="))
        .unwrap_or_else(|| panic!("no {name} in {line}"));
    line[at + name.len() + 1..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap_or_else(|e| panic!("{name} in {line}: {e}"))
}

/// The sequence numbers of the events of `log` with a part its viewer was shown.
fn shown(log: &LogFile) -> Vec<u64> {
    (1..)
        .zip(&log.events)
        .filter(|(_, e)| {
            e.parts
                .iter()
                .any(|p| matches!(p, ExportedPart::Shown { .. }))
        })
        .map(|(seq, _)| seq)
        .collect()
}

async fn head(client: &mut Raw) -> u64 {
    state(client.request(Op::State).await.reply()).head
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_log_longer_than_the_tables_memory_is_served_whole() {
    let mut server = TestServer::start(&[
        "--requests-per-second",
        "1000",
        "--snapshot-every",
        &SNAPSHOT_EVERY.to_string(),
    ]);
    let url = server.url.clone();
    let t = create_table(&url, BTreeMap::new()).await;
    let mut gm = gm(&url, &t).await;
    gm.request(Op::AddSheet {
        sheet: NPC_GOBLIN.into(),
    })
    .await
    .reply();
    for i in 0..ROLLS {
        gm.request(Op::Roll {
            dice: "1d20".into(),
            secret: i % SECRET_EVERY == 0,
        })
        .await
        .reply();
    }

    // A player who joins now: her view is built from the whole log (the goblin came first),
    // and her subscription from the start pages the backlog out of the store.
    let (mut ines, token) = join(&url, &t, Role::Player, 0, "Ines").await;
    let seen = state(ines.request(Op::State).await.reply());
    assert!(
        seen.combatants.iter().any(|c| c.id == "goblin-1"),
        "{seen:?}"
    );
    ines.request(Op::Subscribe { after: 0 }).await.reply();
    // Her sheet and a turn: the digests of that turn include her late-built view.
    ines.request(Op::AddSheet {
        sheet: PC_AUNE.into(),
    })
    .await
    .reply();
    gm.request(act(None, "start_encounter", &[])).await.reply();
    gm.request(act(None, "end_encounter", &[])).await.reply();
    // The session's end reveals the table's seed and opens the secret rolls, all of them
    // long gone from the table's memory.
    gm.request(Op::EndSession).await.reply();

    let gm_log = export(&mut gm).await;
    let ines_log = export(&mut ines).await;
    let secrets = ROLLS.div_ceil(SECRET_EVERY);
    for (name, log) in [("gm", &gm_log), ("ines", &ines_log)] {
        assert_eq!(log.events.len() as u64, head(&mut gm).await, "{name}");
        let report = verify(log).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(report.draws >= ROLLS, "{name}: {report:?}");
        let replayed = replay(log, None).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(replayed.digests_checked >= 2, "{name}: {replayed:?}");
        if name == "ines" {
            assert_eq!(report.draws_hidden, secrets, "{report:?}");
            assert_eq!(report.dice_opened, secrets, "{report:?}");
        }
    }

    // Her stream held every event she was shown, once and in order, the oldest from the store.
    let expected = shown(&ines_log);
    ines.wait_seq(*expected.last().expect("events")).await;
    let got: Vec<u64> = ines.events.iter().map(|e| e.seq).collect();
    assert_eq!(got, expected);

    // Killed, the server comes back and the table loads from its latest snapshot and the
    // few events after it; it serves the same export, and a reconnecting seat the backlog
    // from any point.
    let data = server.data.clone();
    let _kept = server.keep_dir();
    server.kill();
    let server = TestServer::restart_with(&data, &url, &["--log", "tablehold_server::table=debug"]);
    let mut gm_again = crate::server::gm(&server.url, &t).await;
    let rebuilt = tokio::task::block_in_place(|| {
        server.wait_for_log("table rebuilt", std::time::Duration::from_secs(10))
    })
    .expect("the table says how it was rebuilt");
    assert!(field(&rebuilt, "from_snapshot") >= ROLLS, "{rebuilt}");
    assert!(
        field(&rebuilt, "replayed") < SNAPSHOT_EVERY + 10,
        "{rebuilt}"
    );
    let again = export(&mut gm_again).await;
    assert_eq!(again.events, gm_log.events);
    let mut back = Raw::connect(&server.url).await;
    match back
        .request(Op::Auth {
            table: t.id.clone(),
            token,
        })
        .await
        .reply()
    {
        Reply::Authed { .. } => {}
        other => panic!("{other:?}"),
    }
    back.request(Op::Subscribe { after: 100 }).await.reply();
    let later: Vec<u64> = expected.iter().copied().filter(|s| *s > 100).collect();
    back.wait_seq(*later.last().expect("events")).await;
    let got: Vec<u64> = back.events.iter().map(|e| e.seq).collect();
    assert_eq!(got, later);
}

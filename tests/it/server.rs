//! The server, driven at the level of protocol frames by raw clients: tables and seats, the
//! encounter flow, what each seat may see, bad input, reconnects, crashes and group commit.

use std::collections::BTreeMap;

use tablehold_protocol::{ClientMsg, ErrorCode, Invite, Op, Reply, Role, ServerMsg, encode};
use tablehold_rules::{ArgValue, Args};
use tablehold_tests::server::{Got, Raw, TestServer};

const PC_AUNE: &str = r#"
id = "aune"
name = "Aune"
kind = "pc"
level = 1
condition_max = 14
focus_max = 6
attributes = { TOG = 2, AGL = 3, COR = 3, MND = 1, PER = 2, RSN = 0 }
[[weapons]]
id = "knife"
name = "Knife"
class = "light"
damage = "1d4"
damage_type = "edged"
"#;

const PC_MARA: &str = r#"
id = "mara"
name = "Mara"
kind = "pc"
level = 1
condition_max = 14
focus_max = 4
attributes = { TOG = 2, AGL = 2, COR = 1, MND = 0, PER = 1, RSN = 1 }
"#;

/// An NPC whose hidden numbers are sentinels: 9137 (max Condition) and SECRET-7f3a (a weapon
/// name); no player or spectator frame may ever contain them.
const NPC_GOBLIN: &str = r#"
id = "goblin-1"
name = "Goblin"
kind = "npc"
level = 1
condition_max = 9137
focus_max = 0
attributes = { TOG = 1, AGL = 1, COR = 1, MND = 0, PER = 0, RSN = 0 }
[[weapons]]
id = "cleaver"
name = "SECRET-7f3a"
class = "light"
damage = "1d6"
damage_type = "edged"
[npc]
defence_tn = 12
attack_tn = 11
"#;

fn text(s: &str) -> ArgValue {
    ArgValue::Text(s.to_owned())
}

struct Table {
    id: String,
    gm_token: String,
    invites: Vec<Invite>,
}

async fn create_table(
    url: &str,
    options: BTreeMap<String, tablehold_rules::options::OptionValue>,
) -> Table {
    let mut c = Raw::connect(url).await;
    let op = Op::CreateTable {
        system: "grimwire".into(),
        name: "friday".into(),
        options,
        players: 2,
        spectators: 1,
    };
    match c.request(op).await.reply() {
        Reply::TableCreated {
            table,
            gm_token,
            invites,
        } => Table {
            id: table,
            gm_token,
            invites,
        },
        other => panic!("{other:?}"),
    }
}

async fn gm(url: &str, t: &Table) -> Raw {
    let mut c = Raw::connect(url).await;
    c.request(Op::Auth {
        table: t.id.clone(),
        token: t.gm_token.clone(),
    })
    .await
    .reply();
    c
}

/// Joins with the `n`th invite of `role`; returns the client and its seat token.
async fn join(url: &str, t: &Table, role: Role, n: usize, name: &str) -> (Raw, String) {
    let code = t
        .invites
        .iter()
        .filter(|i| i.role == role)
        .nth(n)
        .expect("an invite")
        .code
        .clone();
    let mut c = Raw::connect(url).await;
    match c
        .request(Op::Join {
            table: t.id.clone(),
            invite: code,
            name: name.into(),
        })
        .await
        .reply()
    {
        Reply::Joined { token, .. } => (c, token),
        other => panic!("{other:?}"),
    }
}

fn act(actor: Option<&str>, action: &str, args: &[(&str, ArgValue)]) -> Op {
    Op::Act {
        actor: actor.map(str::to_owned),
        action: action.into(),
        args: Args(
            args.iter()
                .map(|(k, v)| ((*k).to_owned(), v.clone()))
                .collect(),
        ),
    }
}

fn state(reply: Reply) -> tablehold_protocol::TableView {
    match reply {
        Reply::State { state } => state,
        other => panic!("{other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_is_created_joined_and_played_over_the_wire() {
    let server = TestServer::start(&[]);
    let url = server.url.clone();
    let t = create_table(&url, BTreeMap::new()).await;
    assert_eq!(t.gm_token.len(), 32);
    assert_eq!(t.invites.len(), 3);
    let mut gm = gm(&url, &t).await;
    let (mut aune, _) = join(&url, &t, Role::Player, 0, "Ines").await;
    let (mut mara, _) = join(&url, &t, Role::Player, 1, "Rui").await;
    aune.request(Op::AddSheet {
        sheet: PC_AUNE.into(),
    })
    .await
    .reply();
    mara.request(Op::AddSheet {
        sheet: PC_MARA.into(),
    })
    .await
    .reply();
    gm.request(Op::AddSheet {
        sheet: NPC_GOBLIN.into(),
    })
    .await
    .reply();
    // A player may not add an NPC, nor act for another seat's character.
    let got = mara
        .request(Op::AddSheet {
            sheet: NPC_GOBLIN.replace("goblin-1", "goblin-2"),
        })
        .await;
    assert_eq!(got.code(), Some(ErrorCode::Forbidden));
    gm.request(act(None, "start_encounter", &[])).await.reply();
    let s = state(gm.request(Op::State).await.reply());
    assert!(s.encounter);
    assert_eq!(s.round, 1);
    let current = s.current.clone().expect("someone's turn");
    // Whoever is not current is refused with not_your_turn.
    let (other_client, other) = if current == "aune" {
        (&mut mara, "mara")
    } else {
        (&mut aune, "aune")
    };
    let got = other_client.request(act(Some(other), "dash", &[])).await;
    if current != "goblin-1" {
        assert_eq!(got.code(), Some(ErrorCode::NotYourTurn), "{got:?}");
    }
    let got = aune.request(act(Some("mara"), "dash", &[])).await;
    assert_eq!(got.code(), Some(ErrorCode::Forbidden));
    // The players' view of the goblin hides its numbers.
    let seen = state(aune.request(Op::State).await.reply());
    let goblin = seen
        .combatants
        .iter()
        .find(|c| c.id == "goblin-1")
        .expect("goblin on the table");
    assert!(goblin.resources.is_none() && goblin.sheet.is_none());
    let gm_seen = state(gm.request(Op::State).await.reply());
    let goblin = gm_seen
        .combatants
        .iter()
        .find(|c| c.id == "goblin-1")
        .expect("goblin");
    assert_eq!(
        goblin.resources.as_ref().and_then(|r| r.get("condition")),
        Some(&9137)
    );
}

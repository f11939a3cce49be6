//! The screen as a user relies on it, rendered with ratatui's `TestBackend` from models built
//! out of real events: a committed fixture log replayed as its viewer saw it, then the events
//! a test adds applied by the rules' own `apply_seen` and rendered by the server's own `state`
//! renderer, as a live table would.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::Modifier;
use tablehold_log::LogFile;
use tablehold_protocol::EventEnvelope;
use tablehold_protocol::view::{Header, table_view};
use tablehold_rules::grid::{Cell, GridSpec};
use tablehold_rules::{Audience, EntityId, Fact, Part, PendingStep, Seat, SeatId};

use super::view;
use crate::tui::model::{Link, Model};
use crate::tui::replay::Player;

/// The screen as text, one line per row.
pub fn render(m: &Model, w: u16, h: u16) -> (String, Buffer) {
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("a test terminal");
    t.draw(|f| view(m, f)).expect("draws");
    let buf = t.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..h {
        for x in 0..w {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    (out, buf)
}

fn fixture(name: &str) -> LogFile {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/logs")
        .join(name);
    LogFile::read(&path).expect("the committed fixture reads")
}

/// The model of `name`'s viewer after event `at`, then `extra` facts as one more event logged
/// at `at_ms`, seen by the viewer: its state rebuilt and rendered as `state` would send it, its
/// log as the viewer read it. The clock is the new event's time plus `later_ms`.
fn moment(name: &str, at: u64, extra: Vec<Fact>, at_ms: u64, later_ms: u64) -> Model {
    let file = fixture(name);
    let mut player = Player::new(fixture(name)).expect("the fixture opens");
    player.go(at).expect("steps");
    let mut m = player.model.clone();
    m.link = Link::Online;
    let mut state = tablehold_log::replay(&file, Some(at))
        .expect("replays")
        .state;
    let parts: Vec<Part> = extra
        .into_iter()
        .map(|fact| Part {
            audience: Audience::Everyone,
            fact,
        })
        .collect();
    tablehold_rules::apply::apply_seen(&mut state, parts.iter().map(|p| &p.fact));
    let mut deadlines = std::collections::BTreeMap::new();
    for p in &parts {
        if let Fact::DecisionRequested { step } = &p.fact {
            deadlines.insert(step.prompt_id, at_ms + step.timeout_ms);
        }
    }
    let t = &file.header.table;
    let header = Header {
        table: &t.id,
        name: &t.name,
        system: &t.system,
        head: at + 1,
        deadlines,
        digest: None,
        grid: GridSpec::METRES,
    };
    m.set_scene(table_view(header, &state));
    m.on_event(&EventEnvelope {
        table: t.id.clone(),
        seq: at + 1,
        version: 1,
        at_ms,
        link: String::new(),
        parts,
    });
    m.now_ms = at_ms + later_ms;
    m
}

fn moved(id: &str, x: i32, y: i32) -> Fact {
    Fact::Moved {
        entity: EntityId(id.into()),
        from: None,
        to: Some(Cell { x, y }),
    }
}

fn row(screen: &str, y: usize) -> &str {
    screen.lines().nth(y).unwrap_or("")
}

/// Ines's screen at event 30 of her fixture (aune's turn starts), the two tokens placed.
fn ines_on_her_turn() -> Model {
    moment(
        "grimwire-ines.json",
        30,
        vec![moved("aune", 2, 1), moved("goblin-1", 5, 1)],
        1_000,
        0,
    )
}

#[test]
fn at_80x24_her_turn_the_tokens_the_order_and_the_log_are_all_there() {
    let m = ines_on_her_turn();
    let (screen, buf) = render(&m, 80, 24);
    assert!(row(&screen, 0).starts_with("friday · player ines · round 1 · ● online"));
    assert!(row(&screen, 1).starts_with(" YOUR TURN: aune "), "{screen}");
    // The map: x from 1 (a margin before the leftmost token), two columns a cell, inside the
    // border; y from 0. aune at (2, 1), goblin-1 at (5, 1).
    let cell = |x: u16, y: u16| (1 + 2 * (x - 1), 3 + y);
    let ((ax, y), (gx, _)) = (cell(2, 1), cell(5, 1));
    assert_eq!(buf[(ax, y)].symbol(), "a");
    assert_eq!(buf[(ax + 1, y)].symbol(), "u");
    assert_eq!(buf[(gx, y)].symbol(), "g");
    assert_eq!(buf[(gx + 1, y)].symbol(), "1");
    // aune may act: reversed; goblin-1 may not.
    assert!(buf[(ax, y)].modifier.contains(Modifier::REVERSED));
    assert!(!buf[(gx, y)].modifier.contains(Modifier::REVERSED));
    // The turn order: goblin-1, then aune, who may act and is Ines's.
    assert!(row(&screen, 3).contains("  g1 goblin-1 ?"), "{screen}");
    assert!(
        row(&screen, 4).contains("▶*au aune burnout 0 condition 9"),
        "{screen}"
    );
    // The log's last sentences, as `watch` words them.
    let log: Vec<&str> = screen.lines().skip(15).take(6).collect();
    assert!(
        log.iter().any(|l| l.contains("aune's turn starts")),
        "{screen}"
    );
    assert!(
        log.iter().any(|l| l.contains("aune is placed at (2, 1)")),
        "{screen}"
    );
    assert!(row(&screen, 23).starts_with("> "));
}

#[test]
fn a_combatant_whose_numbers_are_the_gms_shows_only_what_the_seat_may_see() {
    let mut m = ines_on_her_turn();
    m.selected = Some("goblin-1".into());
    let (screen, _) = render(&m, 80, 24);
    assert!(screen.contains("│Goblin · enemies"), "{screen}");
    assert!(screen.contains("│the GM's · at (5, 1)"), "{screen}");
    // Three cells from Ines's aune at (2, 1), a metre each under the fixture's system.
    assert!(screen.contains("│3 m from aune"), "{screen}");
    assert!(screen.contains("its numbers are the GM's"), "{screen}");
    assert!(!screen.contains("913"), "{screen}");
    // The GM sees the same goblin's numbers.
    let gm = moment("grimwire-gm.json", 30, vec![moved("goblin-1", 5, 1)], 0, 0);
    let mut gm = gm;
    gm.selected = Some("goblin-1".into());
    let (screen, buf) = render(&gm, 80, 24);
    assert!(screen.contains("condition"), "{screen}");
    // In the order, goblin-1's numbers are marked GM only; aune's (Ines's) are not.
    let at = |text: &str| {
        let y = screen
            .lines()
            .position(|l| l.contains(text))
            .expect("a row");
        let x = screen
            .lines()
            .nth(y)
            .and_then(|l| l.find(text))
            .expect("a column");
        let x = screen.lines().nth(y).map_or(0, |l| l[..x].chars().count());
        (
            u16::try_from(x).expect("small"),
            u16::try_from(y).expect("small"),
        )
    };
    let (gx, gy) = at("g1 goblin-1 ");
    assert_eq!(buf[(gx + 13, gy)].fg, ratatui::style::Color::Magenta);
    let (ax, ay) = at("au aune ");
    assert_eq!(buf[(ax + 9, ay)].fg, ratatui::style::Color::DarkGray);
    assert!(screen.contains("numbers: GM only"), "{screen}");
    assert!(!screen.contains("its numbers are the GM's"), "{screen}");
}

#[test]
fn a_decision_for_the_seat_shows_its_options_and_the_time_left() {
    let ines = Seat::Player(SeatId("ines".into()));
    let step = PendingStep {
        prompt_id: 4,
        seats: vec![ines],
        question: "Dodge the blow?".into(),
        options: vec!["dodge".into(), "take".into()],
        default: "take".into(),
        timeout_ms: 30_000,
        ..Default::default()
    };
    let fact = Fact::DecisionRequested {
        step: Box::new(step),
    };
    let m = moment("grimwire-ines.json", 30, vec![fact], 1_000, 2_600);
    let (screen, _) = render(&m, 80, 24);
    assert!(
        row(&screen, 1).starts_with(" A DECISION FOR YOU · 27.4 s left, then take "),
        "{screen}"
    );
    assert!(row(&screen, 2).starts_with("  Dodge the blow?"), "{screen}");
    assert!(
        row(&screen, 3).starts_with("  answer dodge | take · prompt 4"),
        "{screen}"
    );
    // The clock runs on: a second later, a second less.
    let mut later = m.clone();
    later.now_ms += 1_000;
    let (screen, _) = render(&later, 80, 24);
    assert!(row(&screen, 1).contains("26.4 s left"), "{screen}");
    // The GM does not hold Ines's decision: no call to the GM.
    let (gm_screen, _) = render(&moment("grimwire-gm.json", 30, vec![], 1_000, 0), 80, 24);
    assert!(!gm_screen.contains("A DECISION FOR YOU"), "{gm_screen}");
}

#[test]
fn the_connection_state_is_in_the_header() {
    let mut m = ines_on_her_turn();
    for (link, said) in [
        (Link::Connecting { attempt: 1 }, "◌ reconnecting (try 1)"),
        (Link::Connecting { attempt: 3 }, "◌ reconnecting (try 3)"),
        (
            Link::Offline {
                reason: "the server closed the connection".into(),
            },
            "✕ offline: the server closed the connection",
        ),
    ] {
        m.link = link;
        let (screen, _) = render(&m, 80, 24);
        assert!(row(&screen, 0).contains(said), "{screen}");
    }
    // Before any event: the first connection.
    let fresh = Model::new(m.seat.clone(), Link::Connecting { attempt: 1 });
    let (screen, _) = render(&fresh, 80, 24);
    assert!(row(&screen, 0).contains("◌ connecting"), "{screen}");
}

#[test]
fn any_size_draws_without_panicking_and_a_large_one_shows_more() {
    let m = ines_on_her_turn();
    for (w, h) in [(20, 10), (1, 1), (80, 24), (200, 60), (40, 5)] {
        render(&m, w, h);
    }
    let (screen, _) = render(&m, 120, 40);
    assert!(screen.contains("YOUR TURN: aune"));
    assert!(
        screen.contains("condition    9/14 ████████████░░░░░░░░"),
        "{screen}"
    );
}

#[test]
fn the_selection_follows_the_turn_until_the_user_picks_one() {
    let mut m = ines_on_her_turn();
    assert_eq!(
        m.selected.as_deref(),
        Some("aune"),
        "her character, whose turn it is"
    );
    let scene = m.scene.clone().expect("a scene");
    // Ctrl-N: the next in order after aune, wrapping round to goblin-1; it stays there when
    // the state comes again.
    crate::tui::keys::on_key(
        &mut m,
        crossterm::event::KeyEvent::new(
            crossterm::event::KeyCode::Char('n'),
            crossterm::event::KeyModifiers::CONTROL,
        ),
    );
    assert_eq!(m.selected.as_deref(), Some("goblin-1"));
    m.set_scene(scene.clone());
    assert_eq!(m.selected.as_deref(), Some("goblin-1"));
    let (screen, _) = render(&m, 80, 24);
    assert!(screen.contains("┌ goblin-1 "), "{screen}");
    // Not picked: a new state brings it back to who acts.
    m.pinned = false;
    m.set_scene(scene);
    assert_eq!(m.selected.as_deref(), Some("aune"));
}

#[test]
fn a_long_note_wraps_onto_a_second_row_instead_of_being_cut() {
    let mut m = ines_on_her_turn();
    let long = "open now: attack, auxiliary, check, dash, end_turn, free_action, move, pass, \
                stand, take_cover";
    m.say(long, crate::tui::model::Tone::Plain);
    let (screen, _) = render(&m, 80, 24);
    assert!(row(&screen, 20).starts_with("open now: attack"), "{screen}");
    assert!(
        row(&screen, 21).starts_with("stand, take_cover"),
        "{screen}"
    );
    assert!(row(&screen, 23).starts_with("> "), "{screen}");
}

/// The help of an action with many arguments is read whole: the note takes the rows it needs
/// (here four at 80 columns, a long list of values cut across two), so its last argument is on
/// screen above the hint and the input.
#[test]
fn an_actions_help_takes_the_rows_it_needs_up_to_six() {
    let mut m = ines_on_her_turn();
    let help = "check skill=<text> [kind=<text: pass_fail|impact|damage|advantage|condition|\
                stealth|find|social|undermine|pool|grapple>] [cr=<int>] [ability=<text>] \
                [limbs=<int>] [area] [target=<entity>] [defence=<text>] [last_one=<int>]";
    m.say(help, crate::tui::model::Tone::Plain);
    let (screen, _) = render(&m, 80, 24);
    let last = find(&screen, "[last_one=<int>]").expect("the last argument is shown");
    assert_eq!(last.1, 21, "{screen}");
    assert!(
        row(&screen, 18).starts_with("check skill=<text>"),
        "{screen}"
    );
    assert!(row(&screen, 22).starts_with("Tab completes"), "{screen}");
    assert!(row(&screen, 23).starts_with("> "), "{screen}");
    // Rows by greedy word wrap: (text, columns, rows).
    let cases: [(&str, usize, u16); 7] = [
        ("", 10, 1),
        ("abc def", 7, 1),
        ("abc defg", 7, 2),
        ("abcdefghij", 4, 3),
        ("ab abcdefghij", 4, 4),
        (&"word ".repeat(100), 10, 6),
        // Wide characters count by the columns they take: 2 each.
        ("名前名前 名前", 8, 2),
    ];
    for (text, columns, rows) in cases {
        assert_eq!(
            super::note_rows(text, columns),
            rows,
            "{text:?} on {columns}"
        );
    }
}

/// A side's turn in which three combatants may act: each is marked in the order and drawn
/// reversed on the map, and the call names the seat's two among them.
#[test]
fn a_side_turn_in_which_three_may_act_marks_each() {
    let file = fixture("grimwire-gm.json");
    let state = tablehold_log::replay(&file, Some(30))
        .expect("replays")
        .state;
    let aune = state
        .combatants
        .get(&EntityId("aune".into()))
        .expect("aune")
        .clone();
    // Two more of the players' side, one Ines's and one Rui's, arriving as a sheet arrives.
    let joined = |id: &str, owner: &str| {
        let mut c = aune.clone();
        c.id = EntityId(id.into());
        c.name = id.into();
        c.owner = Some(SeatId(owner.into()));
        Fact::CombatantAdded {
            combatant: Box::new(c),
            replaces: false,
        }
    };
    let side = Fact::TurnsOpened {
        shape: tablehold_rules::turns::TurnShape::Group,
        group: Some("players".into()),
        now: vec![
            EntityId("aune".into()),
            EntityId("bea".into()),
            EntityId("mara".into()),
        ],
    };
    let m = moment(
        "grimwire-ines.json",
        30,
        vec![
            joined("bea", "ines"),
            joined("mara", "rui"),
            moved("aune", 1, 1),
            moved("bea", 2, 1),
            moved("mara", 3, 1),
            side,
        ],
        0,
        0,
    );
    let (screen, buf) = render(&m, 80, 24);
    assert!(
        row(&screen, 1).starts_with(" YOUR TURN: aune, bea "),
        "{screen}"
    );
    for id in ["aune", "bea", "mara"] {
        assert!(
            screen
                .lines()
                .any(|l| l.contains("│▶") && l.contains(&format!(" {id} "))),
            "{id} is not marked as one who may act:\n{screen}"
        );
    }
    assert!(screen.contains("│  g1 goblin-1 ?"), "{screen}");
    // On the map (x from 0, y from 0): three reversed tokens side by side.
    for x in [1u16, 2, 3] {
        let cell = &buf[(1 + 2 * x, 3 + 1)];
        assert!(
            cell.modifier.contains(Modifier::REVERSED),
            "x = {x}:\n{screen}"
        );
    }
    assert_eq!(buf[(3, 4)].symbol(), "a");
    assert_eq!(buf[(5, 4)].symbol(), "b");
    assert_eq!(buf[(7, 4)].symbol(), "m");
}

#[test]
fn the_replay_header_shows_how_far_into_the_log() {
    let mut p = Player::new(fixture("grimwire-ines.json")).expect("opens");
    p.go(30).expect("steps");
    let (screen, _) = render(&p.model, 80, 24);
    // 30 of 69 events: 6 of 16 cells.
    assert!(
        row(&screen, 0)
            .starts_with("friday · player ines · round 1 · replay 30/69 ▕██████░░░░░░░░░░▏"),
        "{screen}"
    );
    assert!(
        row(&screen, 22).starts_with("←/→ event · n/p turn"),
        "{screen}"
    );
}

/// The whole 80x24 screen of Ines's turn, as a reviewed snapshot: any change to the layout
/// shows in review as a diff of the screen.
#[test]
fn her_turn_at_80x24_looks_as_reviewed() {
    let (screen, _) = render(&ines_on_her_turn(), 80, 24);
    insta::assert_snapshot!(screen);
}

/// The GM's view of a fight with more NPCs: goblin-1 and goblin-2 (enemies) and a warden on
/// the players' side, all the GM's, in the order goblin-1, aune, goblin-2, warden.
fn gm_with_a_crowd() -> Model {
    let file = fixture("grimwire-gm.json");
    let state = tablehold_log::replay(&file, Some(30))
        .expect("replays")
        .state;
    let goblin = state
        .combatants
        .get(&EntityId("goblin-1".into()))
        .expect("goblin-1")
        .clone();
    let joined = |id: &str, side: &str| {
        let mut c = goblin.clone();
        c.id = EntityId(id.into());
        c.name = id.into();
        c.side = side.into();
        Fact::CombatantAdded {
            combatant: Box::new(c),
            replaces: false,
        }
    };
    let order = Fact::OrderSet {
        order: ["goblin-1", "aune", "goblin-2", "warden"]
            .map(|id| EntityId(id.into()))
            .to_vec(),
    };
    moment(
        "grimwire-gm.json",
        30,
        vec![
            joined("goblin-2", "enemies"),
            joined("warden", "players"),
            order,
            moved("aune", 2, 1),
            moved("goblin-1", 5, 1),
            moved("goblin-2", 5, 3),
            moved("warden", 1, 2),
        ],
        0,
        0,
    )
}

/// Where `text` first starts on the screen, in cells.
fn find(screen: &str, text: &str) -> Option<(u16, u16)> {
    screen.lines().enumerate().find_map(|(y, l)| {
        let x = l.find(text)?;
        Some((
            u16::try_from(l[..x].chars().count()).ok()?,
            u16::try_from(y).ok()?,
        ))
    })
}

// See: issue #16 (the GM's view groups NPCs).
#[test]
fn the_gms_roster_groups_the_gms_characters_by_side_and_marks_their_numbers() {
    let m = gm_with_a_crowd();
    let (screen, buf) = render(&m, 80, 24);
    // The players' characters first (aune, 2nd in the order, whose turn it is), then the
    // GM's by side in order of first appearance, each led by its place in the order.
    let rows: Vec<&str> = (3..9)
        .map(|y| {
            let r = row(&screen, y);
            let start = r.char_indices().nth(45).map_or(r.len(), |(i, _)| i);
            r[start..].trim_end_matches('│').trim_end()
        })
        .collect();
    assert_eq!(
        rows,
        [
            " 2▶ au aune burnout 0 condition 9",
            "GM's enemies (2) · numbers GM only",
            " 1 *g1 goblin-1 action_spent 1 bur",
            " 3 *g2 goblin-2 action_spent 1 bur",
            "GM's players (1) · numbers GM only",
            " 4 *wa warden action_spent 1 burno",
        ],
        "{screen}"
    );
    // The headings and the GM's numbers are magenta; a player's character's numbers are not.
    let magenta = ratatui::style::Color::Magenta;
    let (hx, hy) = find(&screen, "GM's enemies").expect("a heading");
    assert_eq!(buf[(hx, hy)].fg, magenta);
    let (gx, gy) = find(&screen, "goblin-2 action_spent").expect("goblin-2's row");
    assert_eq!(buf[(gx + 9, gy)].fg, magenta);
    let (ax, ay) = find(&screen, "aune burnout").expect("aune's row");
    assert_eq!(buf[(ax + 5, ay)].fg, ratatui::style::Color::DarkGray);
    // The whole screen, reviewed.
    insta::assert_snapshot!("gm_roster_grouped_at_80x24", screen);
}

#[test]
fn ctrl_n_walks_the_gms_roster_as_it_is_drawn_and_a_player_keeps_the_order() {
    let mut m = gm_with_a_crowd();
    assert_eq!(m.selected.as_deref(), Some("aune"), "who may act");
    let mut walked = Vec::new();
    for _ in 0..4 {
        m.select_next(1);
        walked.push(m.selected.clone().unwrap_or_default());
    }
    assert_eq!(walked, ["goblin-1", "goblin-2", "warden", "aune"]);
    // Ines sees the order as it is, with no heading and none of the GM's numbers.
    let ines = moment(
        "grimwire-ines.json",
        30,
        vec![Fact::OrderSet {
            order: ["goblin-1", "aune"].map(|id| EntityId(id.into())).to_vec(),
        }],
        0,
        0,
    );
    let (screen, _) = render(&ines, 80, 24);
    assert!(!screen.contains("GM's"), "{screen}");
    assert!(row(&screen, 3).contains("│  g1 goblin-1 ?"), "{screen}");
    assert!(row(&screen, 4).contains("│▶*au aune burnout 0"), "{screen}");
}

fn terrain_set(x: i32, y: i32, t: tablehold_rules::grid::Terrain) -> Fact {
    Fact::TerrainSet {
        cell: Cell { x, y },
        from: None,
        to: Some(t),
    }
}

// See: issue #16 (cover between tokens from the grid model).
#[test]
fn the_sheet_says_how_far_each_token_is_and_whether_the_line_is_clear() {
    use tablehold_rules::grid::Terrain;
    let file = fixture("grimwire-gm.json");
    let state = tablehold_log::replay(&file, Some(30))
        .expect("replays")
        .state;
    let goblin = state
        .combatants
        .get(&EntityId("goblin-1".into()))
        .expect("goblin-1")
        .clone();
    let joined = |id: &str| {
        let mut c = goblin.clone();
        c.id = EntityId(id.into());
        Fact::CombatantAdded {
            combatant: Box::new(c),
            replaces: false,
        }
    };
    let half = Terrain {
        cover: Some("half".into()),
        ..Terrain::default()
    };
    let wall = Terrain {
        blocking: true,
        ..Terrain::default()
    };
    // aune at (2, 1); goblin-1 three cells east behind half cover at (4, 1); goblin-2 four
    // cells south beyond a wall at (2, 3); goblin-3 two cells down the diagonal, open ground
    // (2 + 2/2 = 3 cells under the alternating rule).
    let m = moment(
        "grimwire-ines.json",
        30,
        vec![
            joined("goblin-2"),
            joined("goblin-3"),
            terrain_set(4, 1, half.clone()),
            terrain_set(2, 3, wall),
            moved("aune", 2, 1),
            moved("goblin-1", 5, 1),
            moved("goblin-2", 2, 5),
            moved("goblin-3", 4, 3),
        ],
        0,
        0,
    );
    assert_eq!(m.selected.as_deref(), Some("aune"));
    let (screen, _) = render(&m, 100, 40);
    let said: Vec<&str> = screen
        .lines()
        .filter_map(|l| {
            let at = l.find(" from ")?;
            let start = l[..at].rfind('│')? + '│'.len_utf8();
            Some(l[start..].trim_end().trim_end_matches('│').trim_end())
        })
        .collect();
    assert_eq!(
        said,
        [
            "3 m from goblin-1, behind half cover",
            "3 m from goblin-3, clear",
            "4 m from goblin-2, blocked",
        ],
        "{screen}"
    );
    // From goblin-1: Ines's aune, who acts now, comes first; goblin-1's own cell is open.
    let mut m = m;
    m.selected = Some("goblin-1".into());
    m.pinned = true;
    let (screen, _) = render(&m, 100, 40);
    assert!(
        screen.contains("│3 m from aune, behind half cover"),
        "{screen}"
    );
    // Standing in the cover is said of the cell, and the line from there is not behind it.
    let m = moment(
        "grimwire-ines.json",
        30,
        vec![
            terrain_set(4, 1, half),
            moved("aune", 2, 1),
            moved("goblin-1", 4, 1),
        ],
        0,
        0,
    );
    let mut m = m;
    m.selected = Some("goblin-1".into());
    let (screen, _) = render(&m, 100, 40);
    assert!(screen.contains("│in half cover"), "{screen}");
    assert!(screen.contains("│2 m from aune, clear"), "{screen}");
}

// See: issue #16 (found playing the demo: a player's screen said YOUR TURN while the GM's
// decision held every action up, and the way to the GM's seat was only in the header).
#[test]
fn someone_elses_blocking_decision_replaces_your_turn_and_names_the_key_to_it() {
    let step = PendingStep {
        prompt_id: 0,
        seats: vec![Seat::Gm],
        question: "aune hits goblin-1: defend for 5 Vigor?".into(),
        options: vec!["defend".into(), "take".into()],
        default: "take".into(),
        timeout_ms: 50_000,
        ..Default::default()
    };
    let fact = Fact::DecisionRequested {
        step: Box::new(step),
    };
    let mut m = moment("grimwire-ines.json", 30, vec![fact], 1_000, 400);
    let (screen, _) = render(&m, 80, 24);
    assert!(
        row(&screen, 1).starts_with(" WAITING for the GM to decide (prompt 0) · 49.6 s left "),
        "{screen}"
    );
    assert!(!screen.contains("YOUR TURN"), "{screen}");
    // In the demo, the other seat is one key away.
    m.switch_to = Some("GM".into());
    let (screen, _) = render(&m, 80, 24);
    assert!(
        row(&screen, 1)
            .starts_with(" WAITING for the GM to decide (prompt 0) · 49.6 s left · F2: GM "),
        "{screen}"
    );
}

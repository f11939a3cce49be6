//! The TUI (`tablehold` with no subcommand) in a real terminal: tmux runs it at 80x24 against
//! a real server, the test types on its keyboard and reads its screen. A player answers the
//! decision her screen calls out, takes her turn by keyboard, and her screen shows the result;
//! the server is then killed and started again at the same address, and the TUI reconnects by
//! itself and shows what happened meanwhile, once.

use std::process::{Command, Output};
use std::time::{Duration, Instant};

use tablehold_tests::bin;
use tablehold_tests::server::TestServer;

use crate::cli::Table;

/// Who stands face to face in the demo's scene (client-cli/src/demo.rs): each character the
/// example's player plays and the NPC beside it.
const FACING: [(&str, &str); 4] = [
    ("aune", "goblin-1"),
    ("mara", "goblin-2"),
    ("goblin-1", "aune"),
    ("goblin-2", "mara"),
];

/// How long the screen may take to show what a test waits for.
const SCREEN_TIMEOUT: Duration = Duration::from_secs(20);

/// A tmux server of the test's own (its socket named after the process and the session), with
/// one window running the TUI.
struct Tui {
    socket: String,
}

impl Tui {
    fn start(t: &Table, seat: &str) -> Tui {
        let command = format!(
            "env TABLEHOLD_CONFIG_DIR='{}' '{}' --seat {seat}",
            t.config.display(),
            bin("tablehold").display()
        );
        Tui::spawn(seat, &command)
    }

    /// `command` in a fresh 80x24 tmux window of a tmux server of its own.
    fn spawn(name: &str, command: &str) -> Tui {
        let socket = format!("tablehold-tui-{}-{name}", std::process::id());
        let tui = Tui { socket };
        let out = tui.tmux(&[
            "new-session",
            "-d",
            "-x",
            "80",
            "-y",
            "24",
            "-s",
            "tui",
            command,
        ]);
        assert!(
            out.status.success(),
            "tmux: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        tui
    }

    /// Presses one key by tmux's name for it (`F2`, `Enter`).
    fn press(&self, key: &str) {
        self.tmux(&["send-keys", "-t", "tui", key]);
    }

    fn tmux(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .output()
            .expect("tmux runs (install it: apt-get install tmux)")
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.tmux(&["capture-pane", "-p", "-t", "tui"]).stdout)
            .into_owned()
    }

    /// Waits until the screen shows `what` (polling it, as a user would look), and returns it.
    fn until(&self, what: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(what) {
                return screen;
            }
            assert!(
                start.elapsed() < SCREEN_TIMEOUT,
                "the screen never showed `{what}`; it shows:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// F2, then waits until the header names the other seat (`screen` is the one before).
    fn switch_seat(&self, screen: &str) -> String {
        let next = screen
            .lines()
            .next()
            .and_then(|header| header.rsplit("F2: ").next())
            .unwrap_or_default()
            .trim()
            .to_owned();
        self.press("F2");
        self.until(&format!("demo · {next} · "))
    }

    /// Types `text` and presses Enter.
    fn type_line(&self, text: &str) {
        self.tmux(&["send-keys", "-t", "tui", "-l", text]);
        self.tmux(&["send-keys", "-t", "tui", "Enter"]);
    }
}

impl Drop for Tui {
    /// Ctrl-C first, as a user leaves, so that the TUI cleans up after itself (`demo` stops
    /// its server and removes its directory); the tmux server goes once the TUI has ended.
    fn drop(&mut self) {
        self.press("C-c");
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(5)
            && self.tmux(&["has-session", "-t", "tui"]).status.success()
        {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.tmux(&["kill-server"]);
    }
}

#[test]
fn a_player_answers_and_takes_her_turn_by_keyboard_and_the_tui_reconnects_by_itself() {
    let mut t = Table::new();
    // With the test seed Aune (Ines's) and Mara (Rui's) tie at initiative (see watch.rs).
    t.seat_everyone(&[
        "decision.timeout_ms=60000",
        "grimwire.same_side_ties=ask_once",
    ]);
    t.add_everyone();
    t.ok("gm", &["act", "rule.move", "target=aune", "to=2,3"]);
    t.ok("gm", &["act", "rule.move", "target=goblin-1", "to=5,3"]);
    t.ok("gm", &["encounter", "start"]);
    let tui = Tui::start(&t, "ines");

    // The tie asks her: the call, its options and its countdown are on the screen.
    let screen = tui.until("A DECISION FOR YOU");
    let call: Vec<&str> = screen.lines().skip(1).take(3).collect();
    assert!(call[0].ends_with(" s left, then aune"), "{screen}");
    assert_eq!(
        call[1], "  Initiative tie between aune, mara: who goes first?",
        "{screen}"
    );
    assert!(screen.contains("answer aune | mara"), "{screen}");
    assert!(
        screen
            .lines()
            .next()
            .is_some_and(|l| l.contains("● online"))
    );

    tui.type_line("answer aune");
    tui.until("player ines chose `aune`");
    t.ok("gm", &["answer", "goblin-1"]);
    let screen = tui.until("YOUR TURN: aune");
    // The map: aune at (2, 3) and goblin-1 at (5, 3), two columns a cell from x = 1, on the
    // row of y = 3 (the map's first row is y = 2).
    let row = screen.lines().nth(4).unwrap_or_else(|| panic!("{screen}"));
    assert!(row.starts_with("│· au· · g1· "), "{screen}");

    // Her turn, by keyboard: the attack, then the end of the turn.
    tui.type_line("attack goblin-1 knife");
    let screen = tui.until("aune attacks goblin-1");
    assert!(!screen.contains("error"), "{screen}");
    // What she has left of her turn, in the order and on her sheet.
    let screen = tui.until("left this turn: ");
    assert!(screen.contains("▶*au aune 0 action"), "{screen}");
    tui.type_line("end_turn");
    tui.until("mara's turn starts");

    // The server goes away: the TUI says so and keeps trying.
    let data = t.server.data.clone();
    let url = t.server.url.clone();
    let _kept = t.server.keep_dir();
    t.server.kill();
    tui.until("offline");
    // Meanwhile the table goes on (the GM ends Mara's turn from a restarted server); the TUI
    // comes back by itself and shows what it missed, once.
    t.server = TestServer::restart_at(&data, &url);
    t.ok("gm", &["act", "end_turn", "--actor", "mara"]);
    let screen = tui.until("● online");
    let screen = if screen.contains("goblin-1's turn starts") {
        screen
    } else {
        tui.until("goblin-1's turn starts")
    };
    assert_eq!(screen.matches("mara's turn starts").count(), 1, "{screen}");
}

/// `tablehold demo --system ID` as a command for tmux, with a profile directory of its own and
/// its temporary directory in one of the test's own (TMPDIR), so that another demo (a user's,
/// another test's) is never taken for one this demo left behind.
struct Demo {
    command: String,
    tmp: tempfile::TempDir,
    _config: tempfile::TempDir,
}

impl Demo {
    fn new(system: &str) -> Demo {
        let config = tempfile::tempdir().expect("temp dir");
        let tmp = tempfile::tempdir().expect("temp dir");
        let command = format!(
            "env TMPDIR='{}' TABLEHOLD_CONFIG_DIR='{}' '{}' demo --system {system}",
            tmp.path().display(),
            config.path().display(),
            bin("tablehold").display()
        );
        Demo {
            command,
            tmp,
            _config: config,
        }
    }

    /// The demo directories in the test's temporary directory.
    fn dirs(&self) -> Vec<std::path::PathBuf> {
        std::fs::read_dir(self.tmp.path())
            .expect("the demo's temp dir")
            .filter_map(Result::ok)
            .filter(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with("tablehold-demo-")
            })
            .map(|e| e.path())
            .collect()
    }
}

/// `tablehold demo` in a terminal: a server of its own, a table of the system, both seats on
/// one screen. Whoever's turn it is (the player's character or the GM's NPC, found with F2),
/// a full turn by keyboard: the attack on the one standing beside, then the end of the turn;
/// the log shows the attack and the next turn starting.
#[test]
fn the_demo_plays_a_full_turn_by_keyboard() {
    let demo = Demo::new("grimwire");
    let tui = Tui::spawn("demo", &demo.command);
    let screen = tui.until("● online · F2: GM");
    assert!(
        screen.starts_with("grimwire demo · player player · round "),
        "{screen}"
    );
    let start = Instant::now();
    loop {
        assert!(
            start.elapsed() < SCREEN_TIMEOUT,
            "no turn to play:\n{}",
            tui.screen()
        );
        let screen = tui.screen();
        let call = screen.lines().nth(1).unwrap_or_default().trim().to_owned();
        if call.starts_with("A DECISION FOR YOU") {
            // An initiative tie: the default, as offered.
            let default = call.rsplit("then ").next().unwrap_or_default().to_owned();
            tui.type_line(&format!("answer {default}"));
            tui.until("chose");
            continue;
        }
        let Some(actor) = call.strip_prefix("YOUR TURN: ") else {
            // Someone else's turn on this seat's screen: the other seat holds it.
            tui.switch_seat(&screen);
            continue;
        };
        let actor = actor
            .split(',')
            .next()
            .unwrap_or_default()
            .trim()
            .to_owned();
        let (_, target) = FACING
            .iter()
            .find(|(who, _)| *who == actor)
            .unwrap_or_else(|| panic!("{actor} is not in the demo's scene:\n{screen}"));
        tui.type_line(&format!("attack {target} --end"));
        let screen = tui.until(&format!("{actor} attacks {target}"));
        let screen = if screen.contains("turn starts") && screen.contains("done;") {
            screen
        } else {
            tui.until("done;")
        };
        assert!(!screen.contains("error"), "{screen}");
        break;
    }
    // The GM's seat groups the GM's NPCs, their numbers marked as the GM's alone.
    let mut screen = tui.screen();
    if !screen.contains("demo · GM · ") {
        screen = tui.switch_seat(&screen);
    }
    assert!(screen.contains("· numbers GM only"), "{screen}");
    // Leaving stops the demo's server and removes its directory.
    drop(tui);
    let left = demo.dirs();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// The terminal under the demo closes (the window shut: tmux goes, and with it the terminal,
/// whose processes get SIGHUP), with the demo's output still going to it: the demo still stops
/// its server and removes its directory. (It once panicked printing to the dead terminal and
/// left both behind.) The demo's temporary directory is one of the test's own (TMPDIR).
#[test]
fn closing_the_terminal_under_the_demo_still_cleans_up() {
    let demo = Demo::new("vigor");
    let tui = Tui::spawn("hangup", &demo.command);
    tui.until("● online · F2: GM");
    assert_eq!(demo.dirs().len(), 1, "the demo made its directory");
    let _ = tui.tmux(&["kill-server"]);
    let start = Instant::now();
    while !demo.dirs().is_empty() {
        assert!(
            start.elapsed() < SCREEN_TIMEOUT,
            "the demo's directory is still there after the terminal closed"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `tablehold replay FILE` in a terminal opens the viewer (piped, it prints the summary):
/// a committed fixture log, stepped through by keyboard.
#[test]
fn replay_in_a_terminal_steps_through_a_fixture_log_by_keyboard() {
    let log = tablehold_tests::workspace_root().join("tests/fixtures/logs/grimwire-ines.json");
    let command = format!(
        "'{}' replay '{}'",
        bin("tablehold").display(),
        log.display()
    );
    let tui = Tui::spawn("replay", &command);
    tui.until("replay 69/69 ▕████████████████▏");
    tui.press("Home");
    tui.until("replay 0/69");
    // The second turn's start: goblin-1's is event 21, aune's event 30.
    tui.press("n");
    tui.press("n");
    let screen = tui.until("replay 30/69");
    assert!(screen.contains(" YOUR TURN: aune"), "{screen}");
    assert!(screen.contains("aune's turn starts"), "{screen}");
    for key in ["4", "1", "Enter"] {
        tui.press(key);
    }
    let screen = tui.until("replay 41/69");
    assert!(screen.contains("goblin-1's turn starts"), "{screen}");
}

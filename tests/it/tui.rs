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

/// How long the screen may take to show what a test waits for.
const SCREEN_TIMEOUT: Duration = Duration::from_secs(20);

/// A tmux server of the test's own (its socket named after the process and the session), with
/// one window running the TUI.
struct Tui {
    socket: String,
}

impl Tui {
    fn start(t: &Table, seat: &str) -> Tui {
        let socket = format!("tablehold-tui-{}-{seat}", std::process::id());
        let tui = Tui { socket };
        let command = format!(
            "env TABLEHOLD_CONFIG_DIR='{}' '{}' --seat {seat}",
            t.config.display(),
            bin("tablehold").display()
        );
        let out = tui.tmux(&[
            "new-session",
            "-d",
            "-x",
            "80",
            "-y",
            "24",
            "-s",
            "tui",
            &command,
        ]);
        assert!(
            out.status.success(),
            "tmux: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        tui
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

    /// Types `text` and presses Enter.
    fn type_line(&self, text: &str) {
        self.tmux(&["send-keys", "-t", "tui", "-l", text]);
        self.tmux(&["send-keys", "-t", "tui", "Enter"]);
    }
}

impl Drop for Tui {
    fn drop(&mut self) {
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

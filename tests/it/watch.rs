//! `tablehold watch` against a real server: a player's watcher, run as a child process and
//! read line by line as it prints, calls out her turn and the prompts that ask her, with the
//! exact command that answers, and says nothing of a prompt that asks only someone else.

use std::io::{BufRead as _, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use tablehold_tests::bin;

use crate::cli::{AUNE, GOBLIN_1, Table};

/// How long the watcher may take to print the line a test waits for.
const LINE_TIMEOUT: Duration = Duration::from_secs(15);

/// A `tablehold watch` process and the lines it has printed, as they come.
struct Watch {
    child: Child,
    lines: mpsc::Receiver<String>,
    /// Every line read so far, for failure messages.
    seen: Vec<String>,
}

impl Watch {
    fn start(t: &Table, seat: &str) -> Watch {
        Watch::spawn(t, &["--seat", seat, "watch"])
    }

    /// `tablehold ARGS`, a command that ends by watching.
    fn spawn(t: &Table, args: &[&str]) -> Watch {
        let mut child = Command::new(bin("tablehold"))
            .args(args)
            .env("TABLEHOLD_CONFIG_DIR", &t.config)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start tablehold watch");
        let (tx, lines) = mpsc::channel();
        let pipe = child.stdout.take().expect("stdout");
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Watch {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// The lines printed from now until (and with) the first one `want` accepts.
    fn until(&mut self, what: &str, want: impl Fn(&str) -> bool) -> Vec<String> {
        let mut got = Vec::new();
        loop {
            match self.lines.recv_timeout(LINE_TIMEOUT) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    got.push(line.clone());
                    if want(&line) {
                        return got;
                    }
                }
                Err(_) => panic!(
                    "watch never printed {what}; it printed:\n{}",
                    self.seen.join("\n")
                ),
            }
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn watch_calls_out_her_turn_and_her_prompts_and_nothing_of_others() {
    let t = Table::new();
    // With the test seed Aune (Ines's) and Mara (Rui's) tie at initiative, and so do the two
    // goblins (cli.rs says how): the players' tie asks Ines and Rui, the goblins' the GM.
    let table = t.seat_everyone(&[
        "decision.timeout_ms=60000",
        "grimwire.same_side_ties=ask_once",
    ]);
    t.add_everyone();
    // The encounter starts before the watcher does: a watcher adds its seat's entropy to the
    // dice epoch an encounter opens, which would change the initiative dice from the ones the
    // test seed alone gives. The tie's prompt is then open when she starts watching.
    t.ok("gm", &["encounter", "start"]);
    let mut ines = Watch::start(&t, "ines");
    let asked = ines.until("the answer command", |l| l.starts_with("answer with: "));
    assert_eq!(
        asked.first(),
        Some(&format!(
            "watching table \"friday\" ({table}) as player ines; stop with Ctrl-C"
        )),
        "{asked:?}"
    );
    assert_eq!(
        asked.get(1).map(String::as_str),
        Some("prompt 0 asks you: Initiative tie between aune, mara: who goes first? [aune, mara]"),
        "{asked:?}"
    );
    let answer = asked.last().expect("a line");
    let (command, left) = answer
        .split_once(" (")
        .expect("the time left follows the command");
    assert_eq!(
        command,
        "answer with: tablehold --seat ines answer CHOICE, where CHOICE is aune or mara"
    );
    let seconds: f64 = left
        .strip_suffix(" s left, then aune)")
        .unwrap_or_else(|| panic!("{answer}"))
        .parse()
        .unwrap_or_else(|_| panic!("{answer}"));
    assert!(seconds > 0.0 && seconds <= 60.0, "{answer}");

    // She answers with the command she was given; the goblins' tie then asks the GM, whom
    // the GM settles, and the first turn is hers.
    let answered = t.ok("ines", &["answer", "aune"]);
    assert!(answered.contains("player ines chose `aune`"), "{answered}");
    let gm_asked = ines.until("the GM's prompt", |l| l.contains("has a decision to make"));
    let gm_prompt = gm_asked.last().expect("a line").clone();
    t.ok("gm", &["answer", "goblin-1"]);
    let turn = ines.until("her turn", |l| l.starts_with("YOUR TURN"));
    assert_eq!(turn.last().map(String::as_str), Some("YOUR TURN: aune"));
    // One line per event: the turn's start closes the line of the event that starts it.
    let started = turn.get(turn.len().wrapping_sub(2));
    assert!(
        started.is_some_and(|l| l.ends_with("aune's turn starts")),
        "{turn:?}"
    );

    // Of the GM's prompt she learnt only that the GM had to decide: no question, no options,
    // no command to answer it. And no dice epoch, counter or digest without --verbose.
    assert!(
        gm_prompt.contains("prompt 1: the GM has a decision to make"),
        "{gm_prompt}"
    );
    for line in gm_asked.iter().chain(&turn) {
        assert!(!line.contains("Initiative tie between goblin"), "{line}");
        assert!(!line.contains("[goblin-1, goblin-2]"), "{line}");
        assert!(!line.starts_with("answer with"), "{line}");
    }
    for line in &ines.seen {
        for word in ["epoch", "counters", "digest"] {
            assert!(!line.contains(word), "{line}");
        }
    }
    // Mara's turn is not hers.
    t.ok("ines", &["act", "end_turn"]);
    let next = ines.until("Mara's turn", |l| l.contains("mara's turn starts"));
    assert!(!next.iter().any(|l| l.starts_with("YOUR TURN")), "{next:?}");
}

/// `table create --watch` and `join --watch`: the command's own lines, then the table followed
/// in the same terminal, as `watch` follows it.
#[test]
fn create_and_join_can_go_on_watching() {
    let t = Table::new();
    let mut gm = Watch::spawn(
        &t,
        &[
            "table",
            "create",
            "--system",
            "grimwire",
            "--name",
            "friday",
            "--players",
            "1",
            "--server",
            &t.server.url,
            "--watch",
        ],
    );
    let created = gm.until("the GM's watching line", |l| {
        l.starts_with("watching table")
    });
    let table = created
        .iter()
        .find_map(|l| l.strip_prefix("table "))
        .expect("the table id")
        .to_owned();
    let code = created
        .iter()
        .find_map(|l| l.strip_prefix("invite player "))
        .expect("an invite")
        .to_owned();
    assert!(
        created.iter().any(|l| l.starts_with("profile gm ")),
        "{created:?}"
    );
    let sheet = t.file("aune.toml", AUNE);
    let mut ines = Watch::spawn(
        &t,
        &[
            "join",
            &table,
            "--invite",
            &code,
            "--name",
            "Ines",
            "--server",
            &t.server.url,
            "--sheet",
            &sheet,
            "--watch",
        ],
    );
    let joined = ines.until("her watching line", |l| l.starts_with("watching table"));
    assert_eq!(
        joined[0],
        format!("joined table {table} as ines (Ines, player)")
    );
    assert!(
        joined.iter().any(|l| l.ends_with("aune joins the table")),
        "{joined:?}"
    );
    // Both go on following the table: the GM's goblin reaches both.
    t.ok("gm", &["npc", "add", &t.file("g1.toml", GOBLIN_1)]);
    gm.until("the goblin", |l| l == "goblin-1 joins the table");
    ines.until("the goblin", |l| l == "goblin-1 joins the table");
}

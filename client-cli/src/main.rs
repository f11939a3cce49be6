//! `tablehold`: the terminal client. Parses the command line, runs one command and prints its
//! report. This is the only place that writes to the terminal and the only place that decides
//! the exit code: 0 success, 1 an error (printed as `error: ...` with its context chain; a
//! server's refusal reads `error: CODE: MESSAGE`) or a log that fails `verify` or `replay`,
//! 2 a command line clap refused (clap exits by itself) or a log file that cannot be read,
//! 3 a log that verifies but was made with the insecure test seed. The commands themselves
//! are the library's (`lib.rs`).

use std::io::Write as _;
use std::process::ExitCode;

use clap::Parser as _;

use tablehold::cli::{Cli, Command, RulesCommand, SheetCommand};
use tablehold::report::Report;
use tablehold::{calc, demo, logs, remote, suggest, tui};

/// A log file that cannot be read: nothing was checked, which is not the same as a failure.
const EXIT_UNREADABLE: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(code) = mistyped_command(&cli) {
        return code;
    }
    let judged = |v: logs::Verdict| (v.report, v.status);
    let Some(command) = &cli.command else {
        return finish_tui(tui::run_live(&cli.globals));
    };
    if let Command::Demo(args) = command {
        return finish_tui(demo::run(args));
    }
    if let Command::Replay(args) = command
        && logs::wants_viewer(args)
    {
        return match logs::open_for_viewer(&cli.globals, args) {
            Ok(Ok(file)) => finish_tui(tui::run_replay(file)),
            Ok(Err(verdict)) => finish(Ok((verdict.report, verdict.status))),
            Err(e) => finish(Err(e)),
        };
    }
    let result = match command {
        Command::Rules(rules) => match &rules.command {
            RulesCommand::Resolve(args) => calc::resolve(args),
            RulesCommand::Sheet(sheet) => match &sheet.command {
                SheetCommand::Check(args) => calc::sheet_check(args),
            },
            RulesCommand::Options(args) => calc::options(args),
        }
        .map(|r| (r, 0)),
        Command::Verify(args) => logs::verify(&cli.globals, args).map(judged),
        Command::Replay(args) => logs::replay(&cli.globals, args).map(judged),
        command => run_remote(&cli, command).map(|r| (r, 0)),
    };
    finish(result)
}

/// The TUI's end: nothing to print but an error.
fn finish_tui(result: anyhow::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Prints a command's report (or its error) and gives the exit code.
fn finish(result: anyhow::Result<(Report, u8)>) -> ExitCode {
    match result {
        Ok((report, status)) => {
            if let Err(e) = write_stdout(&report.stdout) {
                // A closed pipe (`| head`) is the reader's choice, not a failure.
                if e.kind() != std::io::ErrorKind::BrokenPipe {
                    eprintln!("error: cannot write the output: {e}");
                    return ExitCode::FAILURE;
                }
            }
            for w in &report.warnings {
                eprintln!("warning: {w}");
            }
            ExitCode::from(status)
        }
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) if e.downcast_ref::<logs::Unreadable>().is_some() => {
            eprintln!("error: {e:#}");
            ExitCode::from(EXIT_UNREADABLE)
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// A word that is not a command goes to the seat's catalogue as an action (`tablehold attack
/// goblin-1 knife`), unless it is a slip of a command's name: that gets clap's own answer, a
/// tip and exit status 2, without asking any server.
fn mistyped_command(cli: &Cli) -> Option<ExitCode> {
    let Some(Command::Short(words)) = &cli.command else {
        return None;
    };
    let word = words.first()?;
    let commands = <Cli as clap::CommandFactory>::command();
    let names: Vec<&str> = commands.get_subcommands().map(|c| c.get_name()).collect();
    let meant = suggest::closest(word, names)?;
    eprintln!(
        "error: unrecognized subcommand '{word}'\n\n  tip: a similar subcommand exists: \
         '{meant}'\n\nFor more information, try '--help'."
    );
    Some(ExitCode::from(2))
}

fn write_stdout(text: &str) -> std::io::Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.downcast_ref::<std::io::Error>()
        .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
}

/// A network command on a single-threaded runtime: one connection at a time needs no more.
/// `log` writes its lines as they arrive, through the sink given here.
fn run_remote(cli: &Cli, command: &Command) -> anyhow::Result<Report> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start the async runtime: {e}"))?;
    let mut sink = |text: &str| write_stdout(text);
    runtime.block_on(remote::run(&cli.globals, command, &mut sink))
}

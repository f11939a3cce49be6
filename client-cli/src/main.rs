//! `tablehold`: the terminal client. Parses the command line, runs one command and prints its
//! report. This is the only place that writes to the terminal and the only place that decides
//! the exit code: 0 success, 1 an error (printed as `error: ...` with its context chain),
//! 2 a command line clap refused (clap exits by itself).

mod calc;
mod cli;

use std::io::Write as _;
use std::process::ExitCode;

use clap::Parser as _;

use crate::cli::{Cli, Command, RulesCommand, SheetCommand};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Rules(rules) => match &rules.command {
            RulesCommand::Resolve(args) => calc::resolve(args),
            RulesCommand::Sheet(sheet) => match &sheet.command {
                SheetCommand::Check(args) => calc::sheet_check(args),
            },
            RulesCommand::Options(args) => calc::options(args),
        },
    };
    match result {
        Ok(report) => {
            let mut stdout = std::io::stdout().lock();
            if let Err(e) = stdout
                .write_all(report.stdout.as_bytes())
                .and_then(|()| stdout.flush())
            {
                // A closed pipe (`| head`) is the reader's choice, not a failure.
                if e.kind() != std::io::ErrorKind::BrokenPipe {
                    eprintln!("error: cannot write the output: {e}");
                    return ExitCode::FAILURE;
                }
            }
            for w in &report.warnings {
                eprintln!("warning: {w}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

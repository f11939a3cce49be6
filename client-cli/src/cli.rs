//! The command line as typed: clap's derive types and nothing else. Values stay raw here
//! (`--system` is a string, `--dice` a comma list); `calc` turns them into rules types, so that
//! a bad value gets the same precise message as a bad request field.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// The Tablehold terminal client.
#[derive(Debug, Parser)]
#[command(
    name = "tablehold",
    version,
    about = "The Tablehold terminal client and offline rules calculator",
    long_about = "The Tablehold terminal client.\n\n\
        Today it holds the offline rules calculator (`tablehold rules ...`): resolve one action of \
        a rule system with dice faces you choose, check a character sheet, list a system's table \
        options. It never connects to a server and never touches a table's fair dice.\n\n\
        Exit codes: 0 success (warnings may go to stderr), 1 an error (the message starts with \
        `error:`), 2 a command line clap could not parse."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Offline rules calculator: resolve actions, check sheets, list table options.
    Rules(RulesArgs),
}

#[derive(Debug, Args)]
pub struct RulesArgs {
    #[command(subcommand)]
    pub command: RulesCommand,
}

#[derive(Debug, Subcommand)]
pub enum RulesCommand {
    /// Resolve one action from a JSON request with the dice faces you give.
    #[command(
        long_about = "Resolve one action from a JSON request with the dice faces you give.\n\n\
        The request (a file, or standard input when REQUEST is `-` or absent) holds the table \
        options, the combatants' sheets, their grid positions, the requesting seat, the action and \
        the answers to any prompts the action opens. docs/CALCULATOR.md documents its schema.\n\n\
        The rules draw primitive dice (d20, d6, ...) one at a time; `--dice` gives their faces in \
        draw order, shared by the action and its answers. Too few faces is an error that says \
        which die was needed; faces left over are listed as a warning.\n\n\
        Example:\n  \
        tablehold rules resolve --system grimwire --dice 12,3 docs/examples/requests/melee-attack.json"
    )]
    Resolve(ResolveArgs),
    /// Check character sheets written in TOML.
    Sheet(SheetArgs),
    /// List a system's table options (house rules): key, default, accepted values, help.
    #[command(
        long_about = "List every table option of a system: its key, its default, the values it \
        accepts and what it decides. These are the keys a request's `options` object may set.\n\n\
        Example:\n  tablehold rules options --system grimwire"
    )]
    Options(OptionsArgs),
}

#[derive(Debug, Args)]
pub struct ResolveArgs {
    /// Rule system id, e.g. `grimwire`.
    #[arg(long, value_name = "ID")]
    pub system: String,
    /// Faces of the primitive dice, in draw order, separated by commas: `12,3,5`.
    #[arg(long, value_name = "FACES")]
    pub dice: Option<String>,
    /// Print one JSON object (events, dice, checks, final state, open prompt) instead of text.
    #[arg(long)]
    pub json: bool,
    /// The JSON request file; `-` or absent reads standard input.
    #[arg(value_name = "REQUEST")]
    pub request: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct SheetArgs {
    #[command(subcommand)]
    pub command: SheetCommand,
}

#[derive(Debug, Subcommand)]
pub enum SheetCommand {
    /// Validate a TOML sheet: prints `ok: ID (NAME, KIND, level N)` or what is wrong.
    #[command(
        long_about = "Validate a character sheet written in TOML against a system's rules \
        (attribute limits, level and XP, techniques, gear). Prints `ok: ID (NAME, KIND, level N)`, \
        or the field that breaks a rule and exits with 1.\n\n\
        Example:\n  tablehold rules sheet check --system grimwire docs/examples/grimwire/aune.toml"
    )]
    Check(SheetCheckArgs),
}

#[derive(Debug, Args)]
pub struct SheetCheckArgs {
    /// Rule system id, e.g. `grimwire`.
    #[arg(long, value_name = "ID")]
    pub system: String,
    /// The TOML sheet.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

#[derive(Debug, Args)]
pub struct OptionsArgs {
    /// Rule system id, e.g. `grimwire`.
    #[arg(long, value_name = "ID")]
    pub system: String,
    /// Print the options as a JSON array.
    #[arg(long)]
    pub json: bool,
}

//! The `tablehold` client as a library: everything the `tablehold` binary (`main.rs`) runs,
//! so that its benchmarks (`benches/`) can drive the same code, such as the replay viewer's
//! stepping. Nothing here prints or picks an exit code; `main.rs` does both.
//!
//! - `calc`: the offline rules calculator (`tablehold rules ...`).
//! - `logs`: `verify` and `replay`, over `tablehold_log`.
//! - `remote`: the network commands, over `net` (the protocol client) and `profile` (saved
//!   seats).
//! - `lines`: readable text for facts, shared by both.
//! - `suggest`: "did you mean" for a misspelt action or argument name.
//! - `demo`: `tablehold demo`, a local server and a table to try a system alone.
//! - `encounter_file`: an encounter file read and checked, for `encounter load`.
//! - `examples`: the shipped example sheets, for `demo` and an encounter file's monsters.
//! - `tui`: the interactive TUI (no subcommand) and the replay viewer (`replay FILE` in a
//!   terminal).

pub mod calc;
pub mod cli;
pub mod demo;
mod encounter_file;
mod examples;
mod lines;
pub mod logs;
mod net;
mod profile;
pub mod remote;
pub mod report;
pub mod suggest;
pub mod tui;

//! The one end-to-end test binary (`e2e`): every test here runs the real, already-built
//! binaries as processes. Run `cargo build --bins` first.

mod calculator;
mod cli;
mod encounter;
mod fairness;
mod fixtures;
mod flood;
mod grimwire_status;
mod load;
mod long_log;
mod mist_encounter;
mod security;
mod server;
mod tenacity_encounter;
mod tinyd10_encounter;
mod tui;
mod vigor_encounter;
mod watch;

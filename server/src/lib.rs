//! The Tablehold server: hosted tables with a durable, per-seat event stream.
//!
//! A connection ([`handler`]) talks to a table only through its task ([`table`]), which owns
//! the table's state and is the only code that changes it. Every event goes through the
//! store's single writer ([`store`]) and is durable before anyone hears of it.

pub mod admission;
pub mod auth;
pub mod clock;
pub mod connection;
pub mod handler;
#[cfg(test)]
mod harness;
#[cfg(test)]
mod hosted_toys;
pub mod registry;
pub mod server;
pub mod settings;
pub mod shutdown;
pub mod store;
pub mod table;
pub mod tls;

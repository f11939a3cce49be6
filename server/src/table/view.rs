//! The table as one seat holds it, rendered for the wire: the protocol crate's renderer, which
//! the client's replay viewer shares so that a past moment looks as `state` showed it.

pub use tablehold_protocol::view::{Header, combatant_view, table_view};

//! Limits and knobs shared by the listener, connections and tables. Each has a reason.

use std::time::Duration;

#[derive(Debug, Clone)]
pub struct Settings {
    /// Seed every new dice epoch from this instead of the OS (`--insecure-test-seed`): tests
    /// need exact dice. The epoch records that a test seed was used.
    pub test_seed: Option<[u8; 32]>,
    /// A table with no connections and no messages for this long stops and frees its memory;
    /// the next request loads it again from the log.
    pub table_idle: Duration,
    /// Frames a connection may have waiting to be written. A client that stays connected but
    /// stops reading fills it and is disconnected, so it cannot slow its table down.
    pub outbox_frames: usize,
    /// Requests per second a connection may make, with a burst of twice that.
    pub requests_per_second: u32,
    /// Failed joins (wrong invite) per minute per table before joins there are refused.
    pub failed_joins_per_minute: usize,
    /// Seats a table may have, the GM's included.
    pub max_seats: usize,
    /// A connection that sends nothing (not even a pong) for this long is closed.
    pub idle_timeout: Duration,
    /// How often the server pings a connection.
    pub ping_every: Duration,
    /// How long a new dice epoch waits for the connected seats' entropy commitments, and then
    /// again for their reveals, before it goes on without them.
    pub entropy_window: Duration,
    /// A new socket must finish TLS, the WebSocket upgrade and the protocol hello within this,
    /// or it is closed: a socket that never speaks would otherwise hold its slot forever.
    pub handshake_timeout: Duration,
    /// Sockets held at once, handshaking or not: the server's file descriptors and memory
    /// are finite. At the limit the oldest handshaking socket makes room; sessions never do.
    /// `main` lowers it to fit the open-file limit, since past that `accept` itself fails.
    pub max_connections: usize,
    /// Sockets one address (an IPv6 /64) may hold at once, so one host cannot fill the
    /// server. High enough for a venue whose players share one NAT address.
    pub max_connections_per_address: usize,
    /// Handshakes one address may have in progress at once: a single host opening sockets
    /// faster than it finishes them is refused at once, without evicting anyone else.
    pub max_handshakes_per_address: usize,
    /// Events a table logs between snapshots of its state: a table stopped without warning
    /// replays at most this many when it next loads (one that unloads writes a snapshot
    /// first). Each costs a write of the table's state, so not every event.
    pub snapshot_every: u64,
    /// The rule systems tables may run: the shipped ones, unless a test host adds its own.
    pub systems: tablehold_systems::Catalogue,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            test_seed: None,
            table_idle: Duration::from_secs(300),
            outbox_frames: 512,
            requests_per_second: 20,
            failed_joins_per_minute: 10,
            max_seats: 16,
            idle_timeout: Duration::from_secs(90),
            ping_every: Duration::from_secs(30),
            entropy_window: Duration::from_secs(5),
            handshake_timeout: Duration::from_secs(10),
            max_connections: 10_000,
            max_connections_per_address: 256,
            max_handshakes_per_address: 64,
            snapshot_every: 1000,
            systems: tablehold_systems::Catalogue::shipped(),
        }
    }
}

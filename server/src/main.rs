//! `tablehold-server`: runs the server until SIGINT or SIGTERM.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::Parser;
use tablehold_server::registry::Registry;
use tablehold_server::server::Listener;
use tablehold_server::settings::Settings;
use tablehold_server::shutdown::Shutdown;
use tablehold_server::store::{SqliteStore, Store};
use tokio::net::TcpListener;
use tokio::sync::{broadcast, mpsc, watch};

/// How long a stopping server waits for its connections and tables to finish.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// The Tablehold server: hosts tables for remote tabletop encounters.
///
/// With no arguments it listens on 127.0.0.1:7878 and keeps its data in the platform's data
/// directory (on Linux `$XDG_DATA_HOME/tablehold/tablehold.db`, else
/// `~/.local/share/tablehold/tablehold.db`).
#[derive(Parser, Debug)]
#[command(version, about, long_about = None)]
struct Args {
    /// Address to listen on; port 0 picks a free port (the line `listening on ...` says which).
    #[arg(long, env = "TABLEHOLD_LISTEN", default_value = "127.0.0.1:7878")]
    listen: SocketAddr,
    /// The data file (SQLite), created with its directory if absent [default: tablehold.db
    /// in the platform's data directory, e.g. ~/.local/share/tablehold/].
    #[arg(long, env = "TABLEHOLD_DATA", value_name = "FILE")]
    data: Option<PathBuf>,
    /// Log filter, e.g. `info`, `debug`, `tablehold_server=trace`.
    #[arg(long, env = "TABLEHOLD_LOG", default_value = "info")]
    log: String,
    /// PEM certificate chain, to serve wss:// (with --tls-key).
    #[arg(long, env = "TABLEHOLD_TLS_CERT", requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// PEM private key for --tls-cert.
    #[arg(long, env = "TABLEHOLD_TLS_KEY", requires = "tls_cert")]
    tls_key: Option<PathBuf>,
    /// FOR TESTS ONLY: seed every dice epoch with these 32 bytes (64 hex digits) instead of
    /// the OS, so rolls are known in advance. Logs record that a test seed was used.
    #[arg(long, value_name = "HEX")]
    insecure_test_seed: Option<String>,
    /// Milliseconds a table with no connections stays loaded.
    #[arg(long, default_value_t = 300_000, hide = true)]
    table_idle_ms: u64,
    /// Milliseconds of silence after which a connection is closed.
    #[arg(long, default_value_t = 90_000, hide = true)]
    idle_timeout_ms: u64,
    /// Milliseconds between pings.
    #[arg(long, default_value_t = 30_000, hide = true)]
    ping_ms: u64,
    /// Frames a connection may have waiting before it counts as not reading.
    #[arg(long, default_value_t = 512, hide = true)]
    outbox_frames: usize,
    /// Requests each connection may send per second, in bursts of up to twice that; more
    /// are refused with `rate_limited`. Plenty for a person at a table; raise it for bots and
    /// load tests.
    #[arg(long, default_value_t = 20)]
    requests_per_second: u32,
    /// Milliseconds a new dice epoch waits for connected seats to commit their entropy, and
    /// again for them to reveal it.
    #[arg(long, default_value_t = 5_000, env = "TABLEHOLD_ENTROPY_WINDOW_MS")]
    entropy_window_ms: u64,
    /// Milliseconds a new socket has to finish TLS, the WebSocket upgrade and its hello.
    #[arg(long, default_value_t = 10_000, hide = true)]
    handshake_timeout_ms: u64,
    /// Sockets held at once; at the limit the oldest unfinished handshake makes room.
    #[arg(long, default_value_t = 10_000, hide = true)]
    max_connections: usize,
    /// Sockets one address (an IPv6 /64) may hold at once.
    #[arg(long, default_value_t = 256, hide = true)]
    max_connections_per_address: usize,
    /// Unfinished handshakes one address may have at once.
    #[arg(long, default_value_t = 64, hide = true)]
    max_handshakes_per_address: usize,
    /// Events a table logs between snapshots of its state.
    #[arg(long, default_value_t = 1000, hide = true)]
    snapshot_every: u64,
}

/// File descriptors the server keeps for itself beyond its connections: the listener, the
/// store's files, the runtime's own.
const RESERVED_FDS: u64 = 64;

/// Raises the soft open-file limit to the hard one, so the connection limit, not the default
/// soft limit (often 1024), decides how many clients fit; returns the connection limit that
/// fits in it.
fn fit_fd_limit(max_connections: usize) -> usize {
    let wanted = u64::try_from(max_connections).unwrap_or(u64::MAX);
    let limit = match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => limit,
        Err(e) => {
            tracing::warn!(error = %e, "cannot read or raise the open-file limit");
            return max_connections;
        }
    };
    let room = limit.saturating_sub(RESERVED_FDS).max(1);
    if wanted > room {
        tracing::warn!(
            open_files = limit,
            max_connections,
            lowered_to = room,
            "the open-file limit is too low for --max-connections; raise `ulimit -Hn`"
        );
        return usize::try_from(room).unwrap_or(max_connections);
    }
    tracing::info!(open_files = limit, max_connections, "open-file limit");
    max_connections
}

fn main() -> ExitCode {
    let args = Args::parse();
    let filter = tracing_subscriber::EnvFilter::try_new(&args.log)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn parse_seed(hex_seed: &str) -> anyhow::Result<[u8; 32]> {
    let bytes = hex::decode(hex_seed).context("--insecure-test-seed must be 64 hex digits")?;
    match <[u8; 32]>::try_from(bytes.as_slice()) {
        Ok(seed) => Ok(seed),
        Err(_) => bail!(
            "--insecure-test-seed must be 32 bytes (64 hex digits), got {}",
            bytes.len()
        ),
    }
}

/// The name of the data file inside the platform's data directory.
const DATA_FILE: &str = "tablehold.db";

/// Where the tables live: `--data`, else the platform's data directory, never the current
/// directory (a server started from a checkout must not leave its tables there). The
/// directory is created if missing, private to the user: it holds every seat's token hash and
/// every table's secrets in the making.
fn data_file(flag: Option<&Path>) -> anyhow::Result<PathBuf> {
    let file = match flag {
        Some(file) => file.to_owned(),
        None => directories::ProjectDirs::from("", "", "tablehold")
            .context(
                "no data directory for this user (HOME is not set): pass --data FILE or set \
                 TABLEHOLD_DATA",
            )?
            .data_dir()
            .join(DATA_FILE),
    };
    if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder
            .create(dir)
            .with_context(|| format!("{}: cannot create the data directory", dir.display()))?;
    }
    Ok(file)
}

async fn run(args: Args) -> anyhow::Result<()> {
    let data = data_file(args.data.as_deref())?;
    let test_seed = args
        .insecure_test_seed
        .as_deref()
        .map(parse_seed)
        .transpose()?;
    if test_seed.is_some() {
        tracing::warn!("INSECURE: dice come from a test seed; never use this for a real game");
    }
    let settings = Arc::new(Settings {
        test_seed,
        table_idle: Duration::from_millis(args.table_idle_ms),
        idle_timeout: Duration::from_millis(args.idle_timeout_ms),
        ping_every: Duration::from_millis(args.ping_ms.max(1)),
        outbox_frames: args.outbox_frames.max(8),
        requests_per_second: args.requests_per_second,
        entropy_window: Duration::from_millis(args.entropy_window_ms),
        handshake_timeout: Duration::from_millis(args.handshake_timeout_ms.max(1)),
        max_connections: fit_fd_limit(args.max_connections),
        max_connections_per_address: args.max_connections_per_address,
        max_handshakes_per_address: args.max_handshakes_per_address,
        snapshot_every: args.snapshot_every.max(1),
        ..Settings::default()
    });
    let store = tokio::task::spawn_blocking({
        let path = data.clone();
        move || SqliteStore::open(&path)
    })
    .await
    .context("opening the store")??;
    let (journal, sync) = store.durability();
    tracing::info!(
        journal,
        synchronous = sync,
        "tables are kept in {}",
        data.display()
    );
    let store: Arc<dyn Store> = Arc::new(store);
    let tls = match (&args.tls_cert, &args.tls_key) {
        (Some(cert), Some(key)) => {
            Some(tablehold_server::tls::acceptor(cert, key).map_err(anyhow::Error::msg)?)
        }
        _ => None,
    };
    let listener = TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("cannot listen on {}", args.listen))?;
    let local = listener
        .local_addr()
        .context("reading the listening address")?;
    let scheme = if tls.is_some() { "wss" } else { "ws" };
    // Tests read this line to learn the port.
    println!("listening on {scheme}://{local}");
    // Every connection and every table task holds a `done` sender (through the registry):
    // once all are dropped, everything accepted is settled and the store can close.
    let (stop_tables, stop) = watch::channel(false);
    let (done, mut all_done) = mpsc::channel::<()>(1);
    let registry = Registry::new(store.clone(), settings, stop, done);
    let (notify_shutdown, _) = broadcast::channel(1);
    let server = Listener {
        listener,
        tls,
        registry,
        notify_shutdown: notify_shutdown.clone(),
    };
    let shutdown = Shutdown::new(notify_shutdown.subscribe());
    tokio::select! {
        () = server.run(shutdown) => {}
        () = signal() => tracing::info!("shutting down"),
    }
    let _ = notify_shutdown.send(());
    let _ = stop_tables.send(true);
    // Connections send their close frames and end; tables finish what they accepted (a
    // command held for a dice epoch runs, every batch becomes durable) and end.
    if tokio::time::timeout(SHUTDOWN_GRACE, all_done.recv())
        .await
        .is_err()
    {
        tracing::warn!(
            "connections or tables still busy after {SHUTDOWN_GRACE:?}; closing the store anyway"
        );
    }
    let counters = store.counters();
    let (commits, events) = counters.snapshot();
    // A stable line for tests and operators: group commit shows as events > commits.
    println!("store: {commits} commits, {events} events");
    // Closes even while a table task still holds the store: everything queued is committed
    // first, and a task's later append is refused rather than left unflushed.
    store.close().await.context("closing the store")?;
    Ok(())
}

async fn signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut term = match signal(SignalKind::terminate()) {
            Ok(s) => s,
            Err(_) => return std::future::pending().await,
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

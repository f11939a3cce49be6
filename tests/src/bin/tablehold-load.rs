//! `tablehold-load`: offers a fixed rate of free rolls from N tables x M real WebSocket clients
//! and prints what the server made of it. See `tablehold_tests::load`.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context as _, Result, bail};
use clap::Parser;
use tablehold_tests::load::{self, Figures, Shape, Spawned};

/// Load a Tablehold server and measure it: offered and delivered actions per second, latency
/// from send to the last seat's receipt, refusals, and (for a server on this machine) its CPU,
/// memory and bytes written per action.
#[derive(Debug, Parser)]
#[command(name = "tablehold-load", version)]
struct Args {
    /// Tables to open.
    #[arg(long, default_value_t = 1)]
    tables: usize,
    /// Clients per table: the GM and players, each a WebSocket of its own.
    #[arg(long, default_value_t = 5)]
    clients: usize,
    /// Actions offered per second, over all tables.
    #[arg(long, default_value_t = 100.0)]
    rate: f64,
    /// How long to offer them, in seconds.
    #[arg(long, default_value_t = 5.0)]
    seconds: f64,
    /// How many runs (each on fresh tables); min, median and max are printed after them.
    #[arg(long, default_value_t = 1)]
    repeat: usize,
    /// Milliseconds to wait, after the offer stops, for what is still on the way.
    #[arg(long, default_value_t = 5_000)]
    grace_ms: u64,
    /// A running server to load instead of starting one.
    #[arg(long)]
    url: Option<String>,
    /// The process id of the server at --url, for its CPU, memory and disk figures.
    #[arg(long, requires = "url")]
    pid: Option<u32>,
    /// The server binary to start (default: tablehold-server beside this one).
    #[arg(long, conflicts_with = "url")]
    server: Option<PathBuf>,
    /// Requests per second each connection may send to the server started here.
    #[arg(long, default_value_t = 100_000, conflicts_with = "url")]
    requests_per_second: u32,
    /// After each run, export every table's log and count acknowledged rolls missing from it.
    #[arg(long)]
    check: bool,
    /// Print one JSON object per run instead of text.
    #[arg(long)]
    json: bool,
}

fn main() -> Result<()> {
    let args = Args::parse();
    if args.repeat == 0 {
        bail!("--repeat takes 1 or more");
    }
    let shape = Shape {
        tables: args.tables,
        clients: args.clients,
        rate: args.rate,
        seconds: args.seconds,
        grace: Duration::from_millis(args.grace_ms),
    };
    shape.check()?;
    // Every client is a socket here, and one more in a server started here.
    let sockets = args.tables.saturating_mul(args.clients).saturating_add(64);
    let _ = rlimit::increase_nofile_limit(u64::try_from(sockets).unwrap_or(u64::MAX));
    // All clients come from 127.0.0.1: the per-address limits, right against a flood from one
    // host, would refuse a load generator.
    let spawned = match &args.url {
        Some(_) => None,
        None => Some(Spawned::start(
            args.server.clone(),
            &[
                "--requests-per-second".to_owned(),
                args.requests_per_second.to_string(),
                "--max-connections-per-address".to_owned(),
                sockets.to_string(),
                "--max-handshakes-per-address".to_owned(),
                sockets.to_string(),
                "--max-connections".to_owned(),
                sockets.to_string(),
            ],
        )?),
    };
    let (url, pid) = match (&spawned, &args.url) {
        (Some(s), _) => (s.url.clone(), Some(s.pid())),
        (None, Some(url)) => (url.clone(), args.pid),
        (None, None) => bail!("no server"),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let mut runs = Vec::new();
    for i in 1..=args.repeat {
        let figures = runtime.block_on(load::run(&url, pid, &shape, args.check))?;
        if args.json {
            println!("{}", json(&figures));
        } else {
            println!("run {i}: {}", text(&figures));
        }
        runs.push(figures);
    }
    if runs.len() > 1 && !args.json {
        print_spread(&runs);
    }
    Ok(())
}

fn text(f: &Figures) -> String {
    let mut line = format!(
        "offered {:.0}/s ({}), delivered {:.0}/s ({} of {} acknowledged), refused {}, latency p50 {:.2} ms p99 {:.2} ms p999 {:.2} ms max {:.2} ms",
        f.offered_per_s,
        f.offered,
        f.delivered_per_s,
        f.delivered,
        f.acknowledged,
        f.refused,
        f.p50_ms,
        f.p99_ms,
        f.p999_ms,
        f.max_ms
    );
    if let (Some(cpu), Some(rss), Some(bytes)) = (
        f.server_cpu_pct,
        f.server_rss_kib,
        f.bytes_written_per_action,
    ) {
        line.push_str(&format!(
            "; server CPU {cpu:.0}% of a core, RSS {:.1} MiB, {bytes:.0} bytes written per action",
            rss as f64 / 1024.0
        ));
    }
    if let Some(missing) = f.missing_from_log {
        line.push_str(&format!(
            "; {missing} acknowledged rolls missing from the logs"
        ));
    }
    line
}

fn json(f: &Figures) -> String {
    serde_json::json!({
        "offered": f.offered,
        "offered_per_s": f.offered_per_s,
        "acknowledged": f.acknowledged,
        "delivered": f.delivered,
        "delivered_per_s": f.delivered_per_s,
        "refused": f.refused,
        "p50_ms": f.p50_ms,
        "p99_ms": f.p99_ms,
        "p999_ms": f.p999_ms,
        "max_ms": f.max_ms,
        "server_cpu_pct": f.server_cpu_pct,
        "server_rss_kib": f.server_rss_kib,
        "bytes_written_per_action": f.bytes_written_per_action,
        "missing_from_log": f.missing_from_log,
    })
    .to_string()
}

/// Min, median and max of the figures that vary from run to run.
fn print_spread(runs: &[Figures]) {
    let spread = |name: &str, pick: &dyn Fn(&Figures) -> f64| {
        let mut v: Vec<f64> = runs.iter().map(pick).collect();
        v.sort_by(f64::total_cmp);
        let median = v[v.len() / 2];
        println!(
            "{name}: min {:.2}, median {median:.2}, max {:.2}",
            v[0],
            v[v.len() - 1]
        );
    };
    spread("delivered/s", &|f| f.delivered_per_s);
    spread("p50 ms", &|f| f.p50_ms);
    spread("p99 ms", &|f| f.p99_ms);
    spread("p999 ms", &|f| f.p999_ms);
    spread("server CPU %", &|f| f.server_cpu_pct.unwrap_or(f64::NAN));
}

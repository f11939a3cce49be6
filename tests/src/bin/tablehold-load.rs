//! `tablehold-load`: offers a fixed rate of free rolls from N tables x M real WebSocket clients
//! and prints what the server made of it. See `tablehold_tests::load`.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context as _, Result, bail};
use clap::Parser;
use tablehold_tests::load::{self, Figures, Shape, Spawned, Target};

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
    /// Also run the same load against a bare relay started here (frames forwarded undecoded,
    /// every queued frame fed before one flush), alternating with the server run by run, and
    /// print the ratios: every figure beside a baseline from the same sitting.
    #[arg(long, conflicts_with = "url")]
    baseline: bool,
    /// After the runs, kill the server started here without warning, start it again on the
    /// same data file, and time each table's first action (the table loads from its latest
    /// snapshot and the events after it); print the server's memory with every table loaded.
    #[arg(long, conflicts_with = "url")]
    restart: bool,
    /// Serve the bare relay on a free loopback port and print its URL (how --baseline starts
    /// it, as a process of its own).
    #[arg(long, hide = true)]
    serve_relay: bool,
}

fn main() -> Result<()> {
    let args = Args::parse();
    if args.serve_relay {
        return serve_relay();
    }
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
    let mut spawned = match &args.url {
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
    let relay = if args.baseline {
        Some(Spawned::relay()?)
    } else {
        None
    };
    let mut runs = Vec::new();
    let mut relay_runs = Vec::new();
    for i in 1..=args.repeat {
        if let Some(relay) = &relay {
            let run = load::run(&relay.url, Some(relay.pid()), &shape, false, Target::Relay);
            let figures = runtime.block_on(run)?;
            if args.json {
                println!("{}", json(&figures, "relay"));
            } else {
                println!("run {i}, relay: {}", text(&figures));
            }
            relay_runs.push(figures);
        }
        let run = load::run(&url, pid, &shape, args.check, Target::Tablehold);
        let figures = runtime.block_on(run)?;
        if args.json {
            println!("{}", json(&figures, "tablehold"));
        } else {
            println!("run {i}, tablehold: {}", text(&figures));
        }
        runs.push(figures);
    }
    if args.restart
        && let Some(server) = &mut spawned
    {
        let tables: Vec<(String, String)> =
            runs.iter().flat_map(|r| r.tables.iter().cloned()).collect();
        server.restart()?;
        let restarted = runtime.block_on(load::restart::first_actions(
            &server.url,
            Some(server.pid()),
            &tables,
        ))?;
        if args.json {
            println!(
                "{}",
                serde_json::json!({
                    "target": "restart",
                    "tables": restarted.tables,
                    "p50_ms": restarted.p50_ms,
                    "p99_ms": restarted.p99_ms,
                    "max_ms": restarted.max_ms,
                    "server_rss_kib": restarted.rss_kib,
                })
            );
        } else {
            println!(
                "after a restart (SIGKILL): first action of each of {} tables, p50 {:.2} ms p99 {:.2} ms max {:.2} ms; server RSS with all of them loaded {}",
                restarted.tables,
                restarted.p50_ms,
                restarted.p99_ms,
                restarted.max_ms,
                restarted.rss_kib.map_or("unknown".to_owned(), |k| format!(
                    "{:.1} MiB",
                    k as f64 / 1024.0
                ))
            );
        }
    }
    if !args.json {
        if runs.len() > 1 {
            print_spread("tablehold", &runs);
        }
        if relay_runs.len() > 1 {
            print_spread("relay", &relay_runs);
        }
        if !relay_runs.is_empty() {
            print_ratios(&runs, &relay_runs);
            for why in void(&shape, &relay_runs) {
                println!("REPORT VOID: {why}");
            }
        }
    }
    Ok(())
}

/// The relay process: serves until it is killed.
fn serve_relay() -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .context("binding a loopback port")?;
        let addr = listener.local_addr().context("the relay's address")?;
        println!("listening on ws://{addr}");
        load::relay::serve(listener).await;
        Ok(())
    })
}

fn median(runs: &[Figures], pick: &dyn Fn(&Figures) -> f64) -> f64 {
    let mut v: Vec<f64> = runs.iter().map(pick).collect();
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Tablehold's medians over the relay's, from the same sitting.
fn print_ratios(runs: &[Figures], relay: &[Figures]) {
    let ratio = |name: &str, pick: &dyn Fn(&Figures) -> f64| {
        let (t, r) = (median(runs, pick), median(relay, pick));
        println!("{name}: tablehold {t:.2}, relay {r:.2}, ratio {:.2}", t / r);
    };
    ratio("delivered/s", &|f| f.delivered_per_s);
    ratio("p50 ms", &|f| f.p50_ms);
    ratio("p99 ms", &|f| f.p99_ms);
    ratio("server CPU %", &|f| f.server_cpu_pct.unwrap_or(f64::NAN));
    ratio("RSS MiB", &|f| {
        f.server_rss_kib.map_or(f64::NAN, |k| k as f64 / 1024.0)
    });
}

/// Why a report against this relay would not stand: the bars for a real baseline on
/// this machine, for the two shapes it names.
fn void(shape: &Shape, relay: &[Figures]) -> Vec<String> {
    let mut why = Vec::new();
    if shape.tables == 1 && shape.clients == 5 && shape.rate >= 300_000.0 {
        let got = median(relay, &|f| f.delivered_per_s);
        if got < 300_000.0 {
            why.push(format!(
                "the relay delivered {got:.0} actions/s on 1 table x 5, under 300,000"
            ));
        }
    }
    if shape.tables == 1000 && shape.clients == 5 && (shape.rate - 10_000.0).abs() < 1.0 {
        let got = median(relay, &|f| f.p99_ms);
        if got > 1.5 {
            why.push(format!(
                "the relay's p99 at 1,000 x 5 @10,000/s is {got:.2} ms, over 1.5 ms"
            ));
        }
    }
    why
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
    if f.dropped_seats > 0 {
        line.push_str(&format!(
            "; {} seats closed by the server during the run",
            f.dropped_seats
        ));
    }
    if let Some(missing) = f.missing_from_log {
        line.push_str(&format!(
            "; {missing} acknowledged rolls missing from the logs"
        ));
    }
    line
}

fn json(f: &Figures, target: &str) -> String {
    serde_json::json!({
        "target": target,
        "offered": f.offered,
        "offered_per_s": f.offered_per_s,
        "acknowledged": f.acknowledged,
        "delivered": f.delivered,
        "delivered_per_s": f.delivered_per_s,
        "refused": f.refused,
        "dropped_seats": f.dropped_seats,
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
fn print_spread(target: &str, runs: &[Figures]) {
    let spread = |name: &str, pick: &dyn Fn(&Figures) -> f64| {
        let mut v: Vec<f64> = runs.iter().map(pick).collect();
        v.sort_by(f64::total_cmp);
        let median = v[v.len() / 2];
        println!(
            "{target} {name}: min {:.2}, median {median:.2}, max {:.2}",
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

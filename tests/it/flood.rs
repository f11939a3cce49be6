//! Sockets that never finish their handshake: the server closes them at its handshake
//! deadline, makes room by evicting the oldest when it is full, refuses one address more than
//! its share, and keeps serving real clients all the while, on little memory per socket.

use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tablehold_protocol::{Op, Reply};
use tablehold_rules::Fact;
use tablehold_tests::server::{Got, Raw, TestServer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::time::Instant;

use crate::server::{create_table, gm};

/// How long after its deadline a socket may still be open: the server's timers and the
/// test's reads are not instantaneous.
const MARGIN: Duration = Duration::from_secs(2);

/// Raises this process's open-file limit so it can hold the flood; panics if the hard limit
/// is too low for `needed` sockets.
fn raise_fd_limit(needed: u64) {
    let limit = rlimit::increase_nofile_limit(u64::MAX).expect("read the open-file limit");
    assert!(
        limit >= needed,
        "the open-file hard limit ({limit}) is below the {needed} this test needs"
    );
}

/// The server's resident memory in KiB.
fn rss_kib(server: &TestServer) -> u64 {
    let pid = server.pid().expect("the server runs");
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("a VmRSS line")
}

/// A TCP connection from `from` that sends nothing.
async fn open_silent(server: SocketAddr, from: Ipv4Addr) -> TcpStream {
    let socket = TcpSocket::new_v4().expect("a socket");
    socket
        .bind(SocketAddr::new(IpAddr::V4(from), 0))
        .expect("bind the source address");
    socket.connect(server).await.expect("connect")
}

/// Waits until the server closes `socket` (end of stream or an error), at most until
/// `opened + limit`; returns how long after `opened` that was, or `None` if it stayed open.
async fn closed_after(mut socket: TcpStream, opened: Instant, limit: Duration) -> Option<Duration> {
    let mut buf = [0u8; 256];
    loop {
        match tokio::time::timeout_at(opened + limit, socket.read(&mut buf)).await {
            Err(_) => return None,
            Ok(Ok(0) | Err(_)) => return Some(opened.elapsed()),
            Ok(Ok(_)) => continue,
        }
    }
}

/// Whether the server still holds `socket` open: nothing to read yet and no end of stream.
fn still_open(socket: &TcpStream) -> bool {
    let mut buf = [0u8; 1];
    matches!(socket.try_read(&mut buf), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock)
}

/// Asserts that the server still serves `c`: a ping from a connection with no seat is
/// answered, which proves the session is alive and past its hello.
async fn assert_served(c: &mut Raw) {
    assert_eq!(c.request(Op::Ping).await, Got::Reply(Reply::Pong));
}

/// What a real client does: create a table, become its GM, subscribe, roll `1d6` and see the
/// roll arrive as an event.
async fn play_a_roll(url: &str) {
    let t = create_table(url, BTreeMap::new()).await;
    let mut gm = gm(url, &t).await;
    gm.request(Op::Subscribe { after: 0 }).await.reply();
    let got = gm
        .request(Op::Roll {
            dice: "1d6".into(),
            secret: false,
        })
        .await
        .reply();
    assert!(matches!(got, Reply::Applied { .. }), "{got:?}");
    gm.wait_fact(|f| matches!(f, Fact::Rolled { .. }).then_some(()))
        .await;
}

/// The attack that found the fault: thousands of sockets that never start the WebSocket
/// handshake used to keep a new client's upgrade waiting, were never closed, and cost memory.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_connections_do_not_lock_out_a_real_client() {
    const FLOOD: usize = 5_000;
    const ADDRESSES: usize = 50;
    const DEADLINE: Duration = Duration::from_millis(3_000);
    raise_fd_limit(FLOOD as u64 + 256);
    // Each source address opens FLOOD / ADDRESSES = 100 sockets: under both per-address
    // limits, so only the global limit and the deadline act on the flood.
    let server = TestServer::start(&[
        "--max-connections",
        "500",
        "--handshake-timeout-ms",
        "3000",
        "--max-connections-per-address",
        "128",
        "--max-handshakes-per-address",
        "128",
        // The dice epoch's wait for entropy is a deliberate pause, not service time.
        "--entropy-window-ms",
        "50",
    ]);
    let url = server.url.clone();
    let addr = server.addr();
    // A first game warms the server up (its first table, store pages, allocator arenas), so
    // the memory measured below is what the flood costs.
    let warm = Instant::now();
    play_a_roll(&url).await;
    let warm = warm.elapsed();
    let rss_before = rss_kib(&server);

    let open = Arc::new(AtomicUsize::new(0));
    let flood_start = Instant::now();
    let mut watchers = Vec::with_capacity(FLOOD);
    for i in 0..FLOOD {
        let from = Ipv4Addr::new(127, 0, 0, 2 + (i % ADDRESSES) as u8);
        let socket = open_silent(addr, from).await;
        let opened = Instant::now();
        open.fetch_add(1, Ordering::SeqCst);
        let open = open.clone();
        watchers.push(tokio::spawn(async move {
            let closed = closed_after(socket, opened, DEADLINE + MARGIN).await;
            open.fetch_sub(1, Ordering::SeqCst);
            closed.map(|after| (after, opened + after))
        }));
    }
    let flood_opened = flood_start.elapsed();
    let open_at_client = open.load(Ordering::SeqCst);
    let rss_flooded = rss_kib(&server);

    // While the flood is held open, a real client plays within a second of its connect.
    let start = Instant::now();
    tokio::time::timeout(Duration::from_secs(10), play_a_roll(&url))
        .await
        .expect("the real client is served while the flood is open");
    let client = start.elapsed();
    let rss_after = rss_kib(&server);
    let open_after_client = open.load(Ordering::SeqCst);
    assert!(
        open_after_client > 0,
        "the flood was still open while the real client played"
    );

    let mut last_close = Duration::ZERO;
    let mut longest = Duration::ZERO;
    let mut evicted = 0;
    for (i, w) in watchers.into_iter().enumerate() {
        let closed = w.await.expect("watcher");
        let Some((after, at)) = closed else {
            panic!(
                "silent socket {i} was still open {:?} after it was opened",
                DEADLINE + MARGIN
            );
        };
        longest = longest.max(after);
        last_close = last_close.max(at.duration_since(flood_start));
        if after < DEADLINE {
            evicted += 1;
        }
    }
    let growth = rss_after.saturating_sub(rss_before);
    eprintln!(
        "flood: {FLOOD} silent sockets from {ADDRESSES} addresses opened in {flood_opened:?}; \
         {open_at_client} not yet closed when the real client connected, {open_after_client} \
         when it was done; real client {client:?} (warm-up game {warm:?}); RSS {rss_before} KiB \
         -> {rss_flooded} KiB once the flood was open -> {rss_after} KiB after the real client \
         (+{growth} KiB); {evicted} closed before the deadline (evicted); \
         longest-lived silent socket {longest:?}; last one closed {last_close:?} after the \
         flood began"
    );
    assert!(
        client <= Duration::from_secs(1),
        "the real client took {client:?} under the flood"
    );
    assert!(
        growth <= FLOOD as u64 * 4,
        "RSS grew by {growth} KiB for {FLOOD} silent sockets (at most 4 KiB each)"
    );
    assert!(longest <= DEADLINE + MARGIN, "{longest:?}");
}

/// One address gets a bounded share: handshakes beyond its limit, and connections beyond its
/// limit, are closed at once, while the sockets it already has and other addresses carry on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_is_refused_beyond_its_share_while_others_play() {
    let server = TestServer::start(&[
        "--max-handshakes-per-address",
        "4",
        "--max-connections-per-address",
        "6",
    ]);
    let (url, addr) = (server.url.clone(), server.addr());
    // The default deadline (10 s) is far beyond "at once".
    let at_once = Duration::from_secs(1);

    let crowd = Ipv4Addr::new(127, 0, 0, 2);
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(open_silent(addr, crowd).await);
    }
    for n in 0..3 {
        let excess = open_silent(addr, crowd).await;
        let closed = closed_after(excess, Instant::now(), at_once).await;
        assert!(
            closed.is_some(),
            "handshake {} from one address is closed at once",
            5 + n
        );
    }
    // The server accepts in order, so the first four were kept before the excess was refused.
    assert!(held.iter().all(still_open), "the first four are kept");

    let sessions_from = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 3));
    let mut sessions = Vec::new();
    for _ in 0..6 {
        let mut c = Raw::connect_from(&url, addr, sessions_from).await;
        // An answer proves the hello was taken: the session no longer counts as a handshake.
        assert_served(&mut c).await;
        sessions.push(c);
    }
    let seventh = open_silent(addr, Ipv4Addr::new(127, 0, 0, 3)).await;
    assert!(
        closed_after(seventh, Instant::now(), at_once)
            .await
            .is_some(),
        "a seventh connection from one address is closed at once"
    );
    for c in &mut sessions {
        assert_served(c).await;
    }

    // Another address plays as usual.
    tokio::time::timeout(Duration::from_secs(10), play_a_roll(&url))
        .await
        .expect("a client from another address plays");
    assert!(
        held.iter().all(still_open),
        "the held handshakes wait for the deadline"
    );
}

/// The deadline covers the hello too: a client that upgrades and then says nothing gets a
/// close frame at the deadline, as does a socket that sends half an HTTP request; a client
/// that said hello in time is not touched.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_handshake_unfinished_at_the_deadline_is_closed() {
    let deadline = Duration::from_millis(1_000);
    let server = TestServer::start(&["--handshake-timeout-ms", "1000"]);
    let (url, addr) = (server.url.clone(), server.addr());
    // Connected first, so its own deadline has passed by the time the others are closed.
    let mut talker = Raw::connect(&url).await;

    let start = Instant::now();
    let mut half = open_silent(addr, Ipv4Addr::LOCALHOST).await;
    half.write_all(b"GET / HTTP/1.1\r\nHost: tablehold\r\n")
        .await
        .expect("send half a request");
    let half = tokio::spawn(closed_after(half, start, deadline + MARGIN));
    let mut mute = Raw::connect_silent(&url).await;

    let (code, reason) = mute.close_frame().await.expect("a close frame");
    let mute_after = start.elapsed();
    assert_eq!(code, 1008, "policy violation: {reason}");
    assert!(reason.contains("hello"), "{reason}");
    assert!(
        mute_after >= deadline && mute_after <= deadline + MARGIN,
        "closed {mute_after:?} after connecting; the deadline is {deadline:?}"
    );
    let half_after = half
        .await
        .expect("watcher")
        .expect("half an HTTP request is closed by the deadline");
    assert!(half_after >= deadline, "{half_after:?}");

    assert_served(&mut talker).await;
}

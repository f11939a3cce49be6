//! A real `tablehold-server` process on a free port with its own data file, and a raw protocol
//! client that speaks MessagePack over WebSocket with no help from the `tablehold` client, so
//! tests see exactly the frames a seat receives.

use std::io::{BufRead, BufReader};
use std::net::IpAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tablehold_protocol::{
    ClientMsg, ErrorCode, Op, PROTOCOL_VERSION, Reply, ServerMsg, decode_server, encode,
};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::bin;

/// The seed every test server uses, so that its dice are the same on every run.
pub const TEST_SEED: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

/// How long a test waits for any one frame.
pub const FRAME_TIMEOUT: Duration = Duration::from_secs(10);

pub struct TestServer {
    child: Option<Child>,
    pub url: String,
    pub data: PathBuf,
    _dir: Option<tempfile::TempDir>,
    /// Collects what the server prints after `listening on`, until its stdout closes.
    stdout_rest: Option<std::thread::JoinHandle<Vec<String>>>,
    /// The server's log lines, when it was started with a `--log` filter of the test's.
    log: std::sync::mpsc::Receiver<String>,
}

impl TestServer {
    /// Starts a server on a fresh data file with the test seed and `extra` flags.
    pub fn start(extra: &[&str]) -> TestServer {
        let dir = tempfile::tempdir().expect("temp dir");
        let data = dir.path().join("tablehold.db");
        let mut s = TestServer::start_on(&data, extra);
        s._dir = Some(dir);
        s
    }

    /// Starts a server on an existing data file (restart after a crash).
    pub fn start_on(data: &std::path::Path, extra: &[&str]) -> TestServer {
        TestServer::launch(data, Some(TEST_SEED), extra)
    }

    /// Starts a server on a fresh data file whose dice come from the OS, as in a real game.
    pub fn start_with_os_seed(extra: &[&str]) -> TestServer {
        let dir = tempfile::tempdir().expect("temp dir");
        let data = dir.path().join("tablehold.db");
        let mut s = TestServer::launch(&data, None, extra);
        s._dir = Some(dir);
        s
    }

    /// Starts a server on an existing data file at the address another one used (`url`, the
    /// old server's): a restart that clients which saved the address can reconnect to.
    pub fn restart_at(data: &std::path::Path, url: &str) -> TestServer {
        TestServer::restart_with(data, url, &[])
    }

    /// [`TestServer::restart_at`] with flags of its own (a `--log` filter, say).
    pub fn restart_with(data: &std::path::Path, url: &str, extra: &[&str]) -> TestServer {
        let addr = url.strip_prefix("ws://").unwrap_or(url);
        TestServer::launch_at(data, Some(TEST_SEED), addr, extra)
    }

    fn launch(data: &std::path::Path, seed: Option<&str>, extra: &[&str]) -> TestServer {
        TestServer::launch_at(data, seed, "127.0.0.1:0", extra)
    }

    fn launch_at(
        data: &std::path::Path,
        seed: Option<&str>,
        listen: &str,
        extra: &[&str],
    ) -> TestServer {
        let mut cmd = Command::new(bin("tablehold-server"));
        cmd.arg("--listen").arg(listen).arg("--data").arg(data);
        // A test that waits for a log line sets its own filter; the others keep stderr quiet.
        let logging = extra.contains(&"--log");
        if !logging {
            cmd.arg("--log").arg("warn");
        }
        if let Some(seed) = seed {
            cmd.arg("--insecure-test-seed").arg(seed);
        }
        // Connected test clients rarely add entropy: a short window keeps rolls quick.
        if !extra.contains(&"--entropy-window-ms") {
            cmd.arg("--entropy-window-ms").arg("200");
        }
        let mut child = cmd
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(if logging {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .spawn()
            .expect("start tablehold-server (run `cargo build --bins` first)");
        let (log_tx, log) = std::sync::mpsc::channel();
        if let Some(stderr) = child.stderr.take() {
            std::thread::spawn(move || {
                for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                    if log_tx.send(line).is_err() {
                        break;
                    }
                }
            });
        }
        let stdout = child.stdout.take().expect("stdout");
        let mut lines = BufReader::new(stdout).lines();
        let url = loop {
            match lines.next() {
                Some(Ok(line)) => {
                    if let Some(url) = line.strip_prefix("listening on ") {
                        break url.to_owned();
                    }
                }
                _ => {
                    let _ = child.kill();
                    panic!("the server exited before listening");
                }
            }
        };
        let rest = std::thread::spawn(move || lines.map_while(Result::ok).collect());
        TestServer {
            child: Some(child),
            url,
            data: data.to_owned(),
            _dir: None,
            stdout_rest: Some(rest),
            log,
        }
    }

    /// SIGKILL: no chance to flush anything.
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// SIGTERM, then wait for a clean exit; returns the lines it printed after `listening on`.
    pub fn stop(&mut self) -> Vec<String> {
        if let Some(mut c) = self.child.take() {
            let pid = c.id().to_string();
            let _ = Command::new("kill").arg("-TERM").arg(&pid).status();
            if crate::wait_exit(&mut c, Duration::from_secs(15)).is_none() {
                panic!("the server did not stop within 15 s of SIGTERM");
            }
        }
        // Its stdout is closed once it exited: the reader has every line.
        self.stdout_rest
            .take()
            .and_then(|r| r.join().ok())
            .unwrap_or_default()
    }

    /// Waits for a log line containing `needle`, at most `limit`; the server must have been
    /// started with a `--log` filter that lets it through.
    pub fn wait_for_log(&self, needle: &str, limit: Duration) -> Option<String> {
        let until = std::time::Instant::now() + limit;
        loop {
            let left = until.checked_duration_since(std::time::Instant::now())?;
            match self.log.recv_timeout(left) {
                Ok(line) if line.contains(needle) => return Some(line),
                Ok(_) => {}
                Err(_) => return None,
            }
        }
    }

    /// The server process's id, to read its memory from `/proc` (`None` once stopped).
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    /// The address the server listens on, for tests that open raw TCP sockets.
    pub fn addr(&self) -> std::net::SocketAddr {
        let host = self
            .url
            .split_once("://")
            .map_or(self.url.as_str(), |(_, rest)| rest);
        host.parse().expect("the server listens on an IP address")
    }

    /// Takes the data directory so it outlives this server (for a restart on the same file).
    pub fn keep_dir(&mut self) -> Option<tempfile::TempDir> {
        self._dir.take()
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A protocol client at the level of frames.
pub struct Raw {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    next_id: u64,
    /// Events received while waiting for a response, in order.
    pub events: Vec<tablehold_protocol::EventEnvelope>,
    /// Every frame received, raw, for tests that inspect bytes.
    pub raw_frames: Vec<Vec<u8>>,
}

/// What a request got back.
#[derive(Debug, Clone, PartialEq)]
#[allow(
    clippy::large_enum_variant,
    reason = "a test value, built once per request"
)]
pub enum Got {
    Reply(Reply),
    Error(ErrorCode, String),
}

impl Got {
    pub fn reply(self) -> Reply {
        match self {
            Got::Reply(r) => r,
            Got::Error(code, m) => panic!("expected a reply, got {code:?}: {m}"),
        }
    }
    pub fn code(&self) -> Option<ErrorCode> {
        match self {
            Got::Error(code, _) => Some(*code),
            Got::Reply(_) => None,
        }
    }
}

impl Raw {
    /// Connects and says hello.
    pub async fn connect(url: &str) -> Raw {
        Raw::connect_silent(url).await.hello().await
    }

    /// Says hello and expects the welcome.
    async fn hello(mut self) -> Raw {
        self.send(&ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            client: "e2e".into(),
        })
        .await;
        match self.next().await {
            Some(ServerMsg::Welcome { .. }) => self,
            other => panic!("expected welcome, got {other:?}"),
        }
    }

    /// Connects without the hello.
    pub async fn connect_silent(url: &str) -> Raw {
        let (ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("connect");
        Raw {
            ws,
            next_id: 1,
            events: Vec::new(),
            raw_frames: Vec::new(),
        }
    }

    /// Connects from the local address `from` (say 127.0.0.3; any 127.x address works on
    /// Linux) and says hello: for tests of what the server allows one address.
    pub async fn connect_from(url: &str, server: std::net::SocketAddr, from: IpAddr) -> Raw {
        let socket = match from {
            IpAddr::V4(_) => TcpSocket::new_v4(),
            IpAddr::V6(_) => TcpSocket::new_v6(),
        }
        .expect("a socket");
        socket
            .bind((from, 0).into())
            .expect("bind the source address");
        let stream = socket.connect(server).await.expect("connect");
        let (ws, _) = tokio_tungstenite::client_async(url, MaybeTlsStream::Plain(stream))
            .await
            .expect("upgrade");
        let raw = Raw {
            ws,
            next_id: 1,
            events: Vec::new(),
            raw_frames: Vec::new(),
        };
        raw.hello().await
    }

    /// Waits for the server's close frame, skipping other frames; returns its code and
    /// reason, or `None` if the connection ended without one.
    pub async fn close_frame(&mut self) -> Option<(u16, String)> {
        loop {
            let item = tokio::time::timeout(FRAME_TIMEOUT, self.ws.next())
                .await
                .expect("a frame within the timeout")?;
            match item {
                Ok(Message::Close(frame)) => {
                    return frame.map(|f| (u16::from(f.code), f.reason.to_string()));
                }
                Err(_) => return None,
                Ok(_) => continue,
            }
        }
    }

    pub async fn send(&mut self, msg: &ClientMsg) {
        self.send_bytes(encode(msg)).await;
    }

    pub async fn send_bytes(&mut self, bytes: Vec<u8>) {
        self.ws
            .send(Message::Binary(bytes.into()))
            .await
            .expect("send");
    }

    pub async fn send_text(&mut self, text: &str) {
        self.ws
            .send(Message::Text(text.into()))
            .await
            .expect("send");
    }

    /// The next protocol message, or `None` when the connection closed.
    pub async fn next(&mut self) -> Option<ServerMsg> {
        loop {
            let item = tokio::time::timeout(FRAME_TIMEOUT, self.ws.next())
                .await
                .expect("a frame within the timeout")?;
            match item {
                Ok(Message::Binary(b)) => {
                    self.raw_frames.push(b.to_vec());
                    return Some(decode_server(&b).expect("the server sends valid frames"));
                }
                Ok(Message::Close(_)) | Err(_) => return None,
                Ok(_) => continue,
            }
        }
    }

    /// Sends a request and waits for its response, keeping events that arrive meanwhile.
    pub async fn request(&mut self, op: Op) -> Got {
        let id = self.send_request(op).await;
        self.response(id).await
    }

    /// Sends a request without waiting: for a command the table holds (one waiting for a
    /// dice epoch) while the test does something else. Collect it with [`Raw::response`].
    pub async fn send_request(&mut self, op: Op) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&ClientMsg::Request { id, op }).await;
        id
    }

    /// Waits for the response to request `id`, keeping events that arrive meanwhile.
    pub async fn response(&mut self, id: u64) -> Got {
        loop {
            match self.next().await {
                Some(ServerMsg::Response { id: rid, reply }) if rid == id => {
                    return Got::Reply(reply);
                }
                Some(ServerMsg::Error {
                    id: Some(rid),
                    code,
                    message,
                }) if rid == id => return Got::Error(code, message),
                Some(ServerMsg::Event(e)) => self.events.push(e),
                Some(other) => panic!("unexpected frame while waiting for {id}: {other:?}"),
                None => panic!("connection closed while waiting for response {id}"),
            }
        }
    }

    /// Waits until an event has a fact that `pick` maps to a value, looking at events already
    /// received first, and returns that value.
    pub async fn wait_fact<T>(&mut self, pick: impl Fn(&tablehold_rules::Fact) -> Option<T>) -> T {
        let mut seen = 0;
        loop {
            for e in &self.events[seen..] {
                if let Some(v) = e.parts.iter().find_map(|p| pick(&p.fact)) {
                    return v;
                }
            }
            seen = self.events.len();
            match self.next().await {
                Some(ServerMsg::Event(e)) => self.events.push(e),
                Some(_) => {}
                None => panic!("closed before the awaited fact"),
            }
        }
    }

    /// Waits until an event with `seq >= at_least` has arrived.
    pub async fn wait_seq(&mut self, at_least: u64) {
        while self.events.last().map(|e| e.seq).unwrap_or(0) < at_least {
            match self.next().await {
                Some(ServerMsg::Event(e)) => self.events.push(e),
                Some(_) => {}
                None => panic!("closed before seq {at_least}"),
            }
        }
    }
}

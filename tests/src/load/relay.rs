//! The bare relay the load generator measures Tablehold against (`--baseline`): a WebSocket
//! server that knows nothing of the protocol. A client joins table `T` by connecting to
//! `/T`; every binary frame a member sends goes, undecoded, to every member of its table (the
//! sender too, which is its acknowledgement). Each connection's writer feeds every frame
//! already queued before one flush, as a server built for throughput would. No store, no
//! rules: what is left is the cost of moving the bytes, the floor any server pays.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use futures_util::{SinkExt as _, StreamExt as _};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::handshake::server::{Request, Response};

/// The members of each table: one outbox per connection, by connection number.
type Tables = Arc<Mutex<HashMap<String, HashMap<u64, mpsc::UnboundedSender<Message>>>>>;

/// The frame a member gets once it is in its table, so a client knows its frames will be
/// forwarded before it sends any.
pub const JOINED: &[u8] = b"joined";

/// Serves the relay on `listener` until the process ends.
pub async fn serve(listener: TcpListener) {
    let tables: Tables = Arc::default();
    let mut next = 0u64;
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let _ = stream.set_nodelay(true);
        next += 1;
        tokio::spawn(member(stream, next, Arc::clone(&tables)));
    }
}

fn lock(
    tables: &Tables,
) -> std::sync::MutexGuard<'_, HashMap<String, HashMap<u64, mpsc::UnboundedSender<Message>>>> {
    tables
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

// The handshake callback's error type is tungstenite's own response, large by its design.
#[allow(clippy::result_large_err)]
async fn member(stream: TcpStream, conn: u64, tables: Tables) {
    let mut path = String::new();
    let callback = |req: &Request, resp: Response| {
        path = req.uri().path().trim_start_matches('/').to_owned();
        Ok(resp)
    };
    let Ok(ws) = tokio_tungstenite::accept_hdr_async(stream, callback).await else {
        return;
    };
    let table = path;
    let (mut sink, mut stream) = ws.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<Message>();
    let _ = tx.send(Message::Binary(JOINED.into()));
    lock(&tables)
        .entry(table.clone())
        .or_default()
        .insert(conn, tx);
    let writer = tokio::spawn(async move {
        while let Some(first) = rx.recv().await {
            if sink.feed(first).await.is_err() {
                return;
            }
            while let Ok(more) = rx.try_recv() {
                if sink.feed(more).await.is_err() {
                    return;
                }
            }
            if sink.flush().await.is_err() {
                return;
            }
        }
    });
    while let Some(Ok(msg)) = stream.next().await {
        if let Message::Binary(bytes) = msg {
            let members = lock(&tables);
            for out in members.get(&table).into_iter().flat_map(HashMap::values) {
                let _ = out.send(Message::Binary(bytes.clone()));
            }
        }
    }
    if let Some(members) = lock(&tables).get_mut(&table) {
        members.remove(&conn);
    }
    writer.abort();
}

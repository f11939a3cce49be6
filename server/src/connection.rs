//! One WebSocket connection as frames of the protocol: hides tungstenite and MessagePack from
//! the handler. Reading gives a decoded `ClientMsg` or a reason it is not one; writing happens
//! on a task of its own, fed by the connection's bounded outbox.

use std::time::Duration;

use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use tablehold_protocol::{ClientMsg, DecodeError, ErrorCode, decode_client, request_id};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use crate::table::Outbound;

/// What reading one frame gave.
pub enum Incoming {
    Msg(ClientMsg),
    /// Not a message; answer with this code (and the request's id, when the frame still
    /// shows one) and go on reading.
    Bad(Option<u64>, ErrorCode, String),
    /// A frame too large even to read whole: the stream cannot go on after it. Answer, then
    /// close.
    Overflow(String),
    /// The peer closed, or the connection broke.
    Closed,
    /// A ping or pong: nothing to answer, but the peer is alive (keeps the idle timer off).
    Alive,
}

pub struct Reader<S> {
    stream: SplitStream<WebSocketStream<S>>,
}

impl<S: AsyncRead + AsyncWrite + Unpin> Reader<S> {
    pub async fn read(&mut self) -> Incoming {
        loop {
            let Some(item) = self.stream.next().await else {
                return Incoming::Closed;
            };
            return match item {
                Ok(Message::Binary(bytes)) => match decode_client(&bytes) {
                    Ok(msg) => Incoming::Msg(msg),
                    Err(e @ DecodeError::TooLarge { .. }) => {
                        Incoming::Bad(None, ErrorCode::TooLarge, e.to_string())
                    }
                    Err(e) => {
                        Incoming::Bad(request_id(&bytes), ErrorCode::BadRequest, e.to_string())
                    }
                },
                Ok(Message::Text(_)) => Incoming::Bad(
                    None,
                    ErrorCode::BadRequest,
                    "text frames are not part of the protocol: send MessagePack in binary frames"
                        .into(),
                ),
                // Pings are answered by tungstenite; pongs only prove the peer is alive.
                Ok(Message::Ping(_) | Message::Pong(_)) => Incoming::Alive,
                Ok(Message::Frame(_)) => continue,
                Ok(Message::Close(_)) => Incoming::Closed,
                Err(tokio_tungstenite::tungstenite::Error::Capacity(e)) => {
                    Incoming::Overflow(format!("frame refused: {e}"))
                }
                Err(_) => Incoming::Closed,
            };
        }
    }
}

/// Splits a WebSocket into its reader and a writer task draining `outbox`. The task pings every
/// `ping_every` and ends after a close frame, or when every outbox sender is gone.
pub fn split<S>(
    ws: WebSocketStream<S>,
    mut outbox: mpsc::Receiver<Outbound>,
    ping_every: Duration,
) -> (Reader<S>, tokio::task::JoinHandle<()>)
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (sink, stream) = ws.split();
    let writer = tokio::spawn(async move {
        let mut sink: SplitSink<WebSocketStream<S>, Message> = sink;
        let mut ping = tokio::time::interval(ping_every);
        ping.tick().await;
        loop {
            tokio::select! {
                out = outbox.recv() => match out {
                    Some(Outbound::Frame(bytes)) => {
                        // Every frame already queued goes out with this one, in one flush: a
                        // busy table's events leave in few writes, not one syscall each.
                        let mut next = Some(Outbound::Frame(bytes));
                        let mut closing = None;
                        while let Some(out) = next.take() {
                            match out {
                                Outbound::Frame(bytes) => {
                                    if sink.feed(Message::Binary(bytes)).await.is_err() {
                                        return;
                                    }
                                }
                                close => {
                                    closing = Some(close);
                                    break;
                                }
                            }
                            next = outbox.try_recv().ok();
                        }
                        if sink.flush().await.is_err() {
                            break;
                        }
                        if let Some(Outbound::Close(reason)) = closing {
                            let frame = CloseFrame { code: CloseCode::Policy, reason: reason.into() };
                            let _ = sink.send(Message::Close(Some(frame))).await;
                            break;
                        }
                    }
                    Some(Outbound::Close(reason)) => {
                        let frame = CloseFrame { code: CloseCode::Policy, reason: reason.into() };
                        let _ = sink.send(Message::Close(Some(frame))).await;
                        break;
                    }
                    None => {
                        let frame = CloseFrame { code: CloseCode::Normal, reason: "".into() };
                        let _ = sink.send(Message::Close(Some(frame))).await;
                        break;
                    }
                },
                _ = ping.tick() => {
                    if sink.send(Message::Ping(Vec::new().into())).await.is_err() {
                        break;
                    }
                }
            }
        }
        let _ = sink.close().await;
    });
    (Reader { stream }, writer)
}

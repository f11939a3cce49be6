//! A seat of the bare relay (`--baseline`): the same scheduler, tracking and batching as a
//! Tablehold seat, with opaque frames the size of a roll's event. A frame says who sent it
//! and its number; the relay sends it back to its sender too, which is the acknowledgement.

use futures_util::StreamExt as _;
use tokio_tungstenite::tungstenite::Message;

use super::LoadError;
use super::relay::JOINED;
use super::seat::{Answer, Seen, Wire, Ws};

/// The size of a roll's event as Tablehold delivers it (the measure: about 360 bytes).
pub const FRAME_BYTES: usize = 360;

/// Seat `me` of a relay table.
pub struct Relayed {
    pub me: u64,
}

impl Relayed {
    /// The event number of action `id` of seat `from`: unique in its table.
    fn seq(from: u64, id: u64) -> u64 {
        (from << 40) | id
    }
}

impl Wire for Relayed {
    fn action(&mut self, id: u64) -> Message {
        let mut frame = vec![0u8; FRAME_BYTES];
        frame[..8].copy_from_slice(&self.me.to_be_bytes());
        frame[8..16].copy_from_slice(&id.to_be_bytes());
        Message::Binary(frame.into())
    }

    fn seen(&self, frame: &[u8]) -> Result<Seen, LoadError> {
        let word = |at: usize| {
            frame
                .get(at..at + 8)
                .and_then(|b| <[u8; 8]>::try_from(b).ok())
                .map(u64::from_be_bytes)
                .ok_or_else(|| {
                    LoadError::Protocol(format!("a relay frame of {} bytes", frame.len()))
                })
        };
        let (from, id) = (word(0)?, word(8)?);
        let seq = Relayed::seq(from, id);
        Ok(Seen {
            arrived: Some(seq),
            answer: (from == self.me).then_some(Answer::Done { id, seq }),
        })
    }
}

/// Connects seat `me` to relay table `table` and waits until the relay has it in the table.
pub async fn join(url: &str, table: usize) -> Result<Ws, LoadError> {
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("{url}/{table}"))
        .await
        .map_err(|e| LoadError::Connect(e.to_string()))?;
    match ws.next().await {
        Some(Ok(Message::Binary(b))) if b.as_ref() == JOINED => Ok(ws),
        other => Err(LoadError::Protocol(format!(
            "the relay did not admit the seat: {other:?}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_is_an_event_for_everyone_and_an_acknowledgement_for_its_sender() {
        let mut alice = Relayed { me: 1 };
        let bob = Relayed { me: 2 };
        let Message::Binary(frame) = alice.action(7) else {
            panic!("a binary frame");
        };
        assert_eq!(frame.len(), FRAME_BYTES);
        let seq = (1 << 40) | 7;
        assert_eq!(
            alice.seen(&frame).ok(),
            Some(Seen {
                arrived: Some(seq),
                answer: Some(Answer::Done { id: 7, seq })
            })
        );
        assert_eq!(
            bob.seen(&frame).ok(),
            Some(Seen {
                arrived: Some(seq),
                answer: None
            })
        );
        assert!(bob.seen(&frame[..10]).is_err(), "a short frame is refused");
    }
}

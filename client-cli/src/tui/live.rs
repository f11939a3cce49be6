//! The TUI's connection to its table: one task that connects as the profile's seat, follows
//! the table and sends the user's orders, and that reconnects by itself when the connection
//! drops, resuming after the last event it passed on (so nothing is missed or shown twice).
//! It takes part in the dice epochs as `watch` does. The screen hears from it only through
//! [`FromNet`] messages.

use std::path::PathBuf;
use std::time::Duration;

use tablehold_protocol::{EventEnvelope, Op, Reply, TableView};
use tablehold_rules::{ActionSpec, Seat};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};

use super::command::Order;
use super::model::Link;
use crate::net::{Client, NetError};
use crate::profile::Profile;
use crate::remote::entropy::Contributor;
use crate::remote::{act, show};

/// What the connection tells the screen.
#[derive(Debug)]
pub enum FromNet {
    Link(Link),
    /// Who the profile's token sits as, once authenticated.
    Seat(Seat),
    State(Box<TableView>),
    Catalogue(Vec<ActionSpec>),
    Event(Box<EventEnvelope>),
    /// The outcome of an order: `Ok` when applied (its events come as events), or the
    /// refusal's one line.
    Done(Result<String, String>),
}

/// A quiet connection sends a `ping` this often: the server closes silent ones.
const KEEPALIVE: Duration = Duration::from_secs(20);
/// The longest wait between two tries to reconnect.
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// Runs until the screen hangs up (its end of `orders` closes).
pub async fn connection(
    profile: Profile,
    ca: Option<PathBuf>,
    tx: UnboundedSender<FromNet>,
    mut orders: UnboundedReceiver<Order>,
) {
    let mut last_seq = 0u64;
    let mut attempt = 0u32;
    loop {
        attempt += 1;
        if tx
            .send(FromNet::Link(Link::Connecting { attempt }))
            .is_err()
        {
            return;
        }
        let reason = match follow(&profile, ca.as_deref(), &tx, &mut orders, &mut last_seq).await {
            Ended::Hangup => return,
            Ended::Failed { reason, was_online } => {
                if was_online {
                    attempt = 0;
                }
                reason
            }
        };
        if tx.send(FromNet::Link(Link::Offline { reason })).is_err() {
            return;
        }
        let wait = Duration::from_millis(250 * 2u64.pow(attempt.min(5))).min(MAX_BACKOFF);
        let sleep = tokio::time::sleep(wait);
        tokio::pin!(sleep);
        // Orders typed while offline are answered at once rather than kept for later: the
        // table may have moved on by the time the connection is back.
        loop {
            tokio::select! {
                () = &mut sleep => break,
                order = orders.recv() => match order {
                    None => return,
                    Some(_) => {
                        let _ = tx.send(FromNet::Done(Err(
                            "not connected: the order was not sent; it reconnects by itself"
                                .to_owned(),
                        )));
                    }
                },
            }
        }
    }
}

enum Ended {
    Hangup,
    Failed { reason: String, was_online: bool },
}

/// One connection's life: authenticate, subscribe after `last_seq`, pass the backlog on, then
/// events and orders until something breaks.
async fn follow(
    profile: &Profile,
    ca: Option<&std::path::Path>,
    tx: &UnboundedSender<FromNet>,
    orders: &mut UnboundedReceiver<Order>,
    last_seq: &mut u64,
) -> Ended {
    let failed = |e: NetError, was_online: bool| Ended::Failed {
        reason: e.to_string(),
        was_online,
    };
    let mut client = match Client::connect(&profile.server, ca).await {
        Ok(c) => c,
        Err(e) => return failed(e, false),
    };
    let op = Op::Auth {
        table: profile.table.clone(),
        token: profile.token.clone(),
    };
    let seat_id = match client.request(op).await {
        Ok(Reply::Authed { seat, .. }) => {
            let _ = tx.send(FromNet::Seat(show::rules_seat(&seat.id, seat.role)));
            seat.id
        }
        Ok(_) => {
            return failed(
                NetError::Closed("unexpected answer to `auth`".into()),
                false,
            );
        }
        Err(e) => return failed(e, false),
    };
    if let Err(e) = client.request(Op::Subscribe { after: *last_seq }).await {
        return failed(e, false);
    }
    let mut contributor = match Contributor::new(&seat_id, None) {
        Ok(c) => c,
        Err(e) => {
            return Ended::Failed {
                reason: format!("{e:#}"),
                was_online: false,
            };
        }
    };
    let mut sends: Vec<Op> = Vec::new();
    if let Err(e) = client.barrier().await {
        return failed(e, false);
    }
    for e in client.take_events() {
        pass_on(&e, last_seq, tx, &mut contributor, &mut sends);
    }
    sends.extend(contributor.go_live().unwrap_or_default());
    if let Err(e) = refresh(&mut client, tx).await {
        return failed(e, false);
    }
    let _ = tx.send(FromNet::Link(Link::Online));
    loop {
        // Dice epochs first: a commitment late is a commitment lost. A refusal only means the
        // window closed meanwhile.
        while let Some(op) = sends.pop() {
            match client.request(op).await {
                Ok(_) | Err(NetError::Server(_)) => {}
                Err(e) => return failed(e, true),
            }
        }
        let mut changed = false;
        tokio::select! {
            got = tokio::time::timeout(KEEPALIVE, client.next_event()) => match got {
                Ok(Ok(e)) => {
                    pass_on(&e, last_seq, tx, &mut contributor, &mut sends);
                    changed = true;
                }
                Ok(Err(e)) => return failed(e, true),
                Err(_) => {
                    if let Err(e) = client.barrier().await {
                        return failed(e, true);
                    }
                }
            },
            order = orders.recv() => {
                let Some(order) = order else {
                    client.close().await;
                    return Ended::Hangup;
                };
                let catalogue = match client.request(Op::Actions).await {
                    Ok(Reply::Actions { actions }) => actions,
                    _ => Vec::new(),
                };
                match send(&mut client, &order).await {
                    Ok(said) => {
                        let _ = tx.send(FromNet::Done(Ok(said)));
                    }
                    Err(NetError::Server(e)) => {
                        let _ = tx.send(FromNet::Done(Err(refusal(&e, &order, &catalogue))));
                    }
                    Err(e) => return failed(e, true),
                }
                changed = true;
            }
        }
        // Events that came with the answers, then the state and catalogue they leave.
        for e in client.take_events() {
            pass_on(&e, last_seq, tx, &mut contributor, &mut sends);
            changed = true;
        }
        if changed && let Err(e) = refresh(&mut client, tx).await {
            return failed(e, true);
        }
    }
}

/// Hands an event on once (a resubscription may send one again) and lets the seat take part
/// in its dice epoch.
fn pass_on(
    e: &EventEnvelope,
    last_seq: &mut u64,
    tx: &UnboundedSender<FromNet>,
    contributor: &mut Contributor,
    sends: &mut Vec<Op>,
) {
    if e.seq <= *last_seq {
        return;
    }
    *last_seq = e.seq;
    sends.extend(contributor.observe(e).unwrap_or_default());
    let _ = tx.send(FromNet::Event(Box::new(e.clone())));
}

/// The state and the catalogue as they are now.
async fn refresh(client: &mut Client, tx: &UnboundedSender<FromNet>) -> Result<(), NetError> {
    if let Reply::State { state } = client.request(Op::State).await? {
        let _ = tx.send(FromNet::State(state));
    }
    if let Reply::Actions { actions } = client.request(Op::Actions).await? {
        let _ = tx.send(FromNet::Catalogue(actions));
    }
    Ok(())
}

/// Sends an order; for an action with `--end`, then the end of the actor's turn, unless the
/// action itself ended it (a house rule, a turn spent), as `tablehold act --end` does. A
/// refused end of turn (a window the action opened must be answered first) is said after
/// the action's success, not in place of it.
async fn send(client: &mut Client, order: &Order) -> Result<String, NetError> {
    client.request(op_of(order)).await?;
    let Order::Act { act, end: true } = order else {
        return Ok("done".to_owned());
    };
    if act.actor.is_some()
        && let Reply::State { state } = client.request(Op::State).await?
        && state.current != act.actor
    {
        return Ok("done; the turn ended by itself".to_owned());
    }
    let op = Op::Act {
        actor: act.actor.clone(),
        action: tablehold_rules::action::END_TURN.to_owned(),
        args: Default::default(),
    };
    match client.request(op).await {
        Ok(_) => Ok("done; turn ended".to_owned()),
        Err(NetError::Server(e)) => Ok(format!("done; the turn goes on: {e}")),
        Err(e) => Err(e),
    }
}

fn op_of(order: &Order) -> Op {
    match order {
        Order::Act { act: a, .. } => Op::Act {
            actor: a.actor.clone(),
            action: a.action.clone(),
            args: a.args.clone(),
        },
        Order::Answer(a) => Op::Answer {
            prompt_id: a.prompt_id,
            choice: a.choice.clone(),
            args: a.args.clone(),
        },
    }
}

/// A refusal's line, with the closest action or value that would work, as `act` says it.
fn refusal(e: &crate::net::ServerError, order: &Order, catalogue: &[ActionSpec]) -> String {
    let mut line = e.to_string();
    if let Order::Act { act: a, .. } = order {
        let hints = act::closest_values(catalogue, a);
        if let Some(h) = hints.first() {
            line.push_str(&format!("; {h}"));
        } else if let Some(meant) = act::closest_action(catalogue, &a.action)
            && meant != a.action
        {
            line.push_str(&format!("; did you mean `{meant}`?"));
        }
    }
    line
}

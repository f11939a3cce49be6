//! The interactive TUI (`tablehold` with no subcommand) and the replay viewer (`tablehold
//! replay FILE` in a terminal). Both are one loop over one [`model::Model`]: events, replies,
//! keys and the clock change the model, and [`view::view`] draws it whole after each change.
//!
//! - `model`: what the screen shows; `keys`: keys to model changes; `command`: the command
//!   line's parsing, completion and help, over the seat's catalogue.
//! - `roster`: the combatants as the turn-order pane lists them (the GM's grouped by side).
//! - `sight`: how far each token is from another and whether the line between them is clear.
//! - `view`: the screen, a pure function of the model.
//! - `live`: the connection task (reconnects, resumes after the last event seen).
//! - `replay`: stepping through a log file, as its viewer saw it.

mod command;
mod keys;
mod live;
mod model;
pub mod replay;
mod roster;
mod sight;
mod view;

use std::time::Duration;

use anyhow::{Context as _, Result};
use crossterm::event::{Event as TermEvent, KeyCode, KeyEvent, KeyEventKind};
use ratatui::DefaultTerminal;
use tablehold_log::LogFile;
use tablehold_rules::{Seat, SeatId};
use tokio::sync::mpsc;

use crate::cli::GlobalArgs;
use crate::profile::{ConfigDir, Profile};
use crate::remote::show;
use live::FromNet;
use model::{Link, Model, Tone};

/// How often the screen redraws with nothing happening: the countdowns tick.
const TICK: Duration = Duration::from_millis(200);

/// `tablehold`: the TUI for the picked profile's seat, until the user quits.
pub fn run_live(globals: &GlobalArgs) -> Result<()> {
    let config = ConfigDir::resolve(globals.config_dir.as_deref())?;
    let (_, profile) = config.pick(globals.seat.as_deref())?;
    let ca = globals.ca_cert.clone().or_else(|| profile.ca_cert.clone());
    run_seats(vec![profile], ca)
}

/// The TUI for several seats at once (`tablehold demo`: the GM's and a player's), one
/// connection and one model each; F2 shows the next seat. Orders go from the seat shown.
pub fn run_seats(profiles: Vec<Profile>, ca: Option<std::path::PathBuf>) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    with_terminal(|terminal| {
        runtime.block_on(async {
            let (net_tx, mut net_rx) = mpsc::unbounded_channel::<(usize, FromNet)>();
            let mut seats = Vec::new();
            for (i, profile) in profiles.into_iter().enumerate() {
                let (tx, mut rx) = mpsc::unbounded_channel();
                let (order_tx, order_rx) = mpsc::unbounded_channel();
                let seat = show::rules_seat(&profile.seat, profile.role);
                tokio::spawn(live::connection(profile, ca.clone(), tx, order_rx));
                let all = net_tx.clone();
                tokio::spawn(async move {
                    while let Some(msg) = rx.recv().await {
                        if all.send((i, msg)).is_err() {
                            return;
                        }
                    }
                });
                seats.push((Model::new(seat, Link::Connecting { attempt: 1 }), order_tx));
            }
            drop(net_tx);
            let mut shown = 0usize;
            let mut keys_rx = key_reader();
            let mut tick = tokio::time::interval(TICK);
            let stop = stop_signal();
            tokio::pin!(stop);
            loop {
                let names: Vec<String> = seats.iter().map(|(m, _)| m.seat.to_string()).collect();
                let Some((m, orders)) = seats.get_mut(shown) else {
                    break;
                };
                if m.quit {
                    break;
                }
                m.now_ms = show::now_ms();
                m.switch_to = (names.len() > 1).then(|| names[(shown + 1) % names.len()].clone());
                terminal.draw(|f| view::view(m, f))?;
                tokio::select! {
                    msg = net_rx.recv() => match msg {
                        Some((i, msg)) => {
                            if let Some((m, _)) = seats.get_mut(i) {
                                on_net(m, msg);
                            }
                        }
                        None => break,
                    },
                    key = keys_rx.recv() => match key {
                        Some(key) if key.code == KeyCode::F(2) && key.kind != KeyEventKind::Release => {
                            shown = (shown + 1) % seats.len().max(1);
                        }
                        Some(key) => {
                            if let Some(order) = keys::on_key(m, key)
                                && orders.send(order).is_err()
                            {
                                m.say("the connection task has stopped", Tone::Error);
                            }
                        }
                        None => break,
                    },
                    _ = tick.tick() => {}
                    () = &mut stop => break,
                }
            }
            Ok(())
        })
    })
}

/// Resolves when the process is asked to stop (SIGHUP: the terminal closed; SIGTERM), so that
/// the loop ends as on Ctrl-C and what the TUI holds is cleaned up (`demo` stops its server
/// and removes its directory). Never resolves where there are no such signals.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let (Ok(mut hangup), Ok(mut term)) = (
            signal(SignalKind::hangup()),
            signal(SignalKind::terminate()),
        ) {
            tokio::select! {
                _ = hangup.recv() => return,
                _ = term.recv() => return,
            }
        }
    }
    std::future::pending::<()>().await;
}

/// What the connection said, into the model.
fn on_net(m: &mut Model, msg: FromNet) {
    match msg {
        FromNet::Link(link) => m.link = link,
        FromNet::Seat(seat) => m.seat = seat,
        FromNet::State(state) => m.set_scene(*state),
        FromNet::Catalogue(c) => m.catalogue = c,
        FromNet::Event(e) => m.on_event(&e),
        FromNet::Done(Ok(text)) => m.say(text, Tone::Plain),
        FromNet::Done(Err(text)) => m.say(text, Tone::Error),
    }
}

/// `tablehold replay FILE` in a terminal: the viewer, from the log's last event back. The log
/// was checked whole before (digests included), so every step shows a state the log vouches for.
pub fn run_replay(file: LogFile) -> Result<()> {
    let mut player = replay::Player::new(file)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    with_terminal(|terminal| {
        runtime.block_on(async {
            let mut keys_rx = key_reader();
            let mut tick = tokio::time::interval(TICK);
            let mut since_step = Duration::ZERO;
            while !player.model.quit {
                player.model.now_ms = player.moment_ms();
                terminal.draw(|f| view::view(&player.model, f))?;
                tokio::select! {
                    key = keys_rx.recv() => match key {
                        Some(key) => player.on_key(key),
                        None => break,
                    },
                    _ = tick.tick() => {
                        since_step += TICK;
                        if since_step >= player.step_every() {
                            since_step = Duration::ZERO;
                            player.autoplay();
                        }
                    }
                }
            }
            Ok(())
        })
    })
}

/// Runs `body` with the terminal in raw mode on the alternate screen, and puts the terminal
/// back afterwards, whatever `body` returned (ratatui's panic hook does it on a panic).
fn with_terminal(body: impl FnOnce(&mut DefaultTerminal) -> Result<()>) -> Result<()> {
    let mut terminal = ratatui::try_init()
        .context("the TUI needs a terminal (for scripts: `tablehold state`, `watch`, `act`)")?;
    let result = body(&mut terminal);
    // Not `ratatui::restore`: when the terminal has closed (the window shut, SIGHUP) it prints
    // its failure to that same dead terminal, and a failed `eprintln!` panics, which aborted
    // the process before `demo` could stop its server and remove its directory.
    let _ = ratatui::try_restore();
    result
}

/// Key presses from a thread of their own (crossterm's read blocks), as a channel. Resizes
/// need nothing: every loop turn redraws at the terminal's size.
fn key_reader() -> mpsc::UnboundedReceiver<KeyEvent> {
    let (tx, rx) = mpsc::unbounded_channel();
    std::thread::spawn(move || {
        loop {
            match crossterm::event::read() {
                Ok(TermEvent::Key(k)) => {
                    if tx.send(k).is_err() {
                        return;
                    }
                }
                // A resize: an empty redraw is what it needs, which any key-less turn gives.
                Ok(_) => {}
                Err(_) => return,
            }
        }
    });
    rx
}

/// The seat a log file was written for, from its header's viewer (`gm`, `player:ines`...).
fn viewer_seat(file: &LogFile) -> Seat {
    tablehold_log::verify::viewer_of(&file.header)
        .map(|v| v.seat())
        .unwrap_or_else(|_| Seat::Spectator(SeatId(file.header.viewer.clone())))
}

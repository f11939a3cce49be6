//! Keys to model changes. The command line has the focus: letters type, Enter sends, Tab
//! completes, the arrows walk the history; the control keys move the selection and scroll
//! the log. What reaches the server comes back as an [`Order`]; the rest changes the model only.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::command::{self, Command, Order};
use super::model::{Model, Tone};

/// How many log lines PgUp and PgDn move.
const PAGE: usize = 5;

/// Applies one key to the model; an order for the server when Enter sent one.
pub fn on_key(m: &mut Model, key: KeyEvent) -> Option<Order> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Char('c' | 'd') if ctrl => m.quit = true,
        KeyCode::Char('n') if ctrl => m.select_next(1),
        KeyCode::Char('p') if ctrl => m.select_next(-1),
        KeyCode::Char('u') if ctrl => {
            m.input.text.clear();
            m.input.cursor = 0;
        }
        KeyCode::Char(c) if !ctrl => {
            let at = byte_at(&m.input.text, m.input.cursor);
            m.input.text.insert(at, c);
            m.input.cursor += 1;
            m.input.recalled = None;
        }
        KeyCode::Backspace if m.input.cursor > 0 => {
            m.input.cursor -= 1;
            let at = byte_at(&m.input.text, m.input.cursor);
            m.input.text.remove(at);
        }
        KeyCode::Delete if m.input.cursor < m.input.text.chars().count() => {
            let at = byte_at(&m.input.text, m.input.cursor);
            m.input.text.remove(at);
        }
        KeyCode::Left => m.input.cursor = m.input.cursor.saturating_sub(1),
        KeyCode::Right => {
            m.input.cursor = (m.input.cursor + 1).min(m.input.text.chars().count());
        }
        KeyCode::Home => m.input.cursor = 0,
        KeyCode::End => m.input.cursor = m.input.text.chars().count(),
        KeyCode::Up => recall(m, -1),
        KeyCode::Down => recall(m, 1),
        KeyCode::PageUp => m.scroll = (m.scroll + PAGE).min(m.log.len().saturating_sub(1)),
        KeyCode::PageDown => m.scroll = m.scroll.saturating_sub(PAGE),
        KeyCode::Esc => {
            m.input.text.clear();
            m.input.cursor = 0;
            m.input.offered.clear();
            m.note = None;
        }
        KeyCode::Tab => {
            let listed = m.in_order();
            let known = command::Known {
                ids: listed.iter().map(|c| c.id.clone()).collect(),
                mine: listed
                    .iter()
                    .filter(|c| m.plays(&c.id))
                    .map(|c| c.id.clone())
                    .collect(),
            };
            let done = command::complete(&m.input.text, &m.catalogue, &known, m.seat.is_gm());
            m.input.cursor = done.line.chars().count();
            m.input.text = done.line;
            m.input.offered = done.offered;
        }
        KeyCode::Enter => return submit(m),
        KeyCode::F(1) => help(m, None),
        _ => {}
    }
    if key.code != KeyCode::Tab {
        m.input.offered.clear();
    }
    None
}

/// The byte index of the `chars`-th character.
fn byte_at(text: &str, chars: usize) -> usize {
    text.char_indices()
        .nth(chars)
        .map_or(text.len(), |(i, _)| i)
}

/// Up (`-1`) and Down (`1`) through the lines sent, newest first; Down past the newest
/// leaves an empty line.
fn recall(m: &mut Model, dir: isize) {
    let len = m.input.history.len();
    if len == 0 {
        return;
    }
    let next = match (m.input.recalled, dir) {
        (None, d) if d < 0 => Some(len - 1),
        (None, _) => None,
        (Some(0), d) if d < 0 => Some(0),
        (Some(i), d) if d < 0 => Some(i - 1),
        (Some(i), _) if i + 1 < len => Some(i + 1),
        (Some(_), _) => None,
    };
    m.input.recalled = next;
    m.input.text = next
        .and_then(|i| m.input.history.get(i).cloned())
        .unwrap_or_default();
    m.input.cursor = m.input.text.chars().count();
}

/// Enter: the line is read against the catalogue; an order goes out (its answer comes later
/// as a note), anything else is done here. A line that does not parse stays, with why.
fn submit(m: &mut Model) -> Option<Order> {
    let line = m.input.text.trim().to_owned();
    if line.is_empty() {
        return None;
    }
    match command::parse(&line, &m.catalogue) {
        Err(why) => {
            m.say(why, Tone::Error);
            None
        }
        Ok(cmd) => {
            if m.input.history.last() != Some(&line) {
                m.input.history.push(line);
            }
            m.input.text.clear();
            m.input.cursor = 0;
            m.input.recalled = None;
            match cmd {
                Command::Quit => {
                    m.quit = true;
                    None
                }
                Command::Help(about) => {
                    help(m, about.as_deref());
                    None
                }
                Command::Select(id) => {
                    if m.combatant(&id).is_some() {
                        m.selected = Some(id);
                        m.pinned = true;
                        m.note = None;
                    } else {
                        let ids: Vec<String> = m.in_order().iter().map(|c| c.id.clone()).collect();
                        let hint = crate::suggest::closest(&id, ids.iter().map(String::as_str))
                            .map_or_else(
                                || format!("; combatants: {}", ids.join(", ")),
                                |c| format!("; did you mean `{c}`?"),
                            );
                        m.say(format!("no combatant `{id}`{hint}"), Tone::Error);
                    }
                    None
                }
                Command::Send(order) => {
                    m.say("sent…", Tone::Plain);
                    Some(order)
                }
            }
        }
    }
}

/// `help`: one action's usage, or the actions open now and the keys.
fn help(m: &mut Model, about: Option<&str>) {
    let text = match about {
        Some(name) => match m.catalogue.iter().find(|s| s.name == name) {
            Some(spec) => command::usage(spec, m.seat.is_gm()),
            None => format!("`{name}` is not open to you now"),
        },
        None => {
            let names = crate::remote::act::action_names(&m.catalogue);
            let open = if names.is_empty() {
                "nothing is open to you now".to_owned()
            } else {
                format!("open now: {}", names.join(", "))
            };
            format!(
                "{open} · `help ACTION` for one · Tab completes · ^N/^P select · PgUp/PgDn \
                 scroll the log · ^C quits"
            )
        }
    };
    m.say(text, Tone::Plain);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::model::Link;
    use tablehold_rules::Seat;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn typed(m: &mut Model, text: &str) {
        for c in text.chars() {
            on_key(m, key(KeyCode::Char(c)));
        }
    }

    fn model() -> Model {
        Model::new(Seat::Gm, Link::Online)
    }

    // Each case: keys from an empty line with two lines in the history, then the line and
    // the cursor.
    #[test]
    fn editing_keys_change_the_line_as_a_shell_does() {
        use KeyCode::*;
        let cases: &[(&[KeyCode], &str, usize)] = &[
            (&[Char('a'), Char('b')], "ab", 2),
            (&[Char('a'), Char('b'), Left, Char('x')], "axb", 2),
            (&[Char('a'), Char('b'), Home, Delete], "b", 0),
            (&[Char('a'), Backspace, Backspace], "", 0),
            (&[Up], "roll 1d6", 8),
            (&[Up, Up], "help", 4),
            (&[Up, Up, Up], "help", 4),
            (&[Up, Up, Down], "roll 1d6", 8),
            (&[Up, Down], "", 0),
            (&[Char('é'), Char('t'), Left, Backspace], "t", 0),
            (&[Char('a'), Esc], "", 0),
        ];
        for (keys, line, cursor) in cases {
            let mut m = model();
            m.input.history = vec!["help".into(), "roll 1d6".into()];
            for k in *keys {
                on_key(&mut m, key(*k));
            }
            assert_eq!(
                (m.input.text.as_str(), m.input.cursor),
                (*line, *cursor),
                "{keys:?}"
            );
        }
    }

    // Each case: keys on a model with 20 log lines and an empty line; then the scroll, the
    // line and what Tab offered.
    #[test]
    fn scrolling_and_tab_change_the_log_and_the_line() {
        use KeyCode::*;
        let cases: &[(&[KeyCode], usize, &str, &[&str])] = &[
            (&[PageUp], 5, "", &[]),
            (&[PageUp, PageUp, PageDown], 5, "", &[]),
            (&[PageDown], 0, "", &[]),
            (&[PageUp, PageUp, PageUp, PageUp, PageUp], 19, "", &[]),
            (&[Char('q'), Tab], 0, "quit ", &[]),
            (&[Char('s'), Char('e'), Tab], 0, "select ", &[]),
            (&[Tab], 0, "", &["help", "quit", "select"]),
            (&[Tab, Char('h')], 0, "h", &[]),
        ];
        for (keys, scroll, line, offered) in cases {
            let mut m = model();
            m.log = (1..=20)
                .map(|seq| crate::tui::model::LogLine {
                    seq,
                    text: format!("line {seq}"),
                    tone: Tone::Plain,
                })
                .collect();
            for k in *keys {
                on_key(&mut m, key(*k));
            }
            assert_eq!(m.scroll, *scroll, "{keys:?}");
            assert_eq!(m.input.text, *line, "{keys:?}");
            let offered: Vec<String> = offered.iter().map(|s| (*s).to_owned()).collect();
            assert_eq!(m.input.offered, offered, "{keys:?}");
        }
    }

    #[test]
    fn enter_sends_a_known_line_keeps_a_bad_one_and_says_why() {
        let mut m = model();
        typed(&mut m, "qiut");
        assert_eq!(on_key(&mut m, key(KeyCode::Enter)), None);
        assert_eq!(m.input.text, "qiut");
        assert_eq!(
            m.note,
            Some((
                "no action `qiut` now; did you mean `quit`?".to_owned(),
                Tone::Error
            ))
        );
        assert!(!m.quit);
        on_key(&mut m, key(KeyCode::Esc));
        typed(&mut m, "quit");
        on_key(&mut m, key(KeyCode::Enter));
        assert!(m.quit);
        assert_eq!(m.input.history, vec!["quit".to_owned()]);
        let mut m = model();
        on_key(
            &mut m,
            KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL),
        );
        assert!(m.quit);
        assert_eq!(m.input.text, "");
    }
}

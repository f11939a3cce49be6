//! `tablehold answer`: from the words typed (`spare`, `points=2`, `2`) to an `answer` request
//! for one open decision window, typed by the window's own entry in the seat's catalogue
//! (its options and its arguments, as the server listed them).
//!
//! Which window: `--prompt ID`, or else the only one open to this seat. With several open to
//! it the user is told their ids and questions and asked to pick; with none, that none is.

use tablehold_protocol::ErrorCode;
use tablehold_rules::{ActionSpec, ArgValue, Args};

use super::act;
use crate::net::ServerError;

/// An `answer` request ready to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnswerRequest {
    pub prompt_id: u64,
    pub choice: String,
    pub args: Args,
}

/// The window an answer entry answers: its `prompt` argument's one value now.
pub fn prompt_of(spec: &ActionSpec) -> Option<u64> {
    let arg = spec.args.iter().find(|a| a.name == "prompt")?;
    arg.now.first()?.parse().ok()
}

/// Types `words` as an answer to the window `prompt` names, or to the only one open to the
/// seat, from the catalogue's answer entries.
pub fn resolve(
    catalogue: &[ActionSpec],
    prompt: Option<u64>,
    words: &[String],
) -> Result<AnswerRequest, ServerError> {
    let open: Vec<&ActionSpec> = catalogue.iter().filter(|s| s.name == "answer").collect();
    let spec = match prompt {
        Some(id) => match open.iter().find(|s| prompt_of(s) == Some(id)) {
            Some(spec) => *spec,
            // Not one this seat may answer: the server says why (closed, someone else's).
            None => return Ok(untyped(id, words)),
        },
        None => match open.as_slice() {
            [one] => *one,
            [] => {
                return Err(ServerError {
                    code: ErrorCode::NoSuchPrompt,
                    message: "no prompt is open to you".into(),
                });
            }
            several => {
                let list: Vec<String> = several
                    .iter()
                    .map(|s| {
                        let id = prompt_of(s).map_or("?".to_owned(), |i| i.to_string());
                        format!("{id} ({})", s.help)
                    })
                    .collect();
                return Err(ServerError {
                    code: ErrorCode::BadRequest,
                    message: format!(
                        "several prompts are open to you: {}; pick one with --prompt ID",
                        list.join(", ")
                    ),
                });
            }
        },
    };
    let prompt_id = prompt_of(spec).ok_or_else(|| ServerError {
        code: ErrorCode::Internal,
        message: "the server's answer entry names no prompt".into(),
    })?;
    // The id is known by now: it is not one of the words to type.
    let without_id: Vec<String> = words
        .iter()
        .filter(|w| !w.starts_with("prompt="))
        .cloned()
        .collect();
    let mut args = act::typed_args(spec, &without_id)?;
    let choice = match args.0.remove("choice") {
        Some(ArgValue::Text(c)) => c,
        _ => String::new(),
    };
    args.0.remove("prompt");
    Ok(AnswerRequest {
        prompt_id,
        choice,
        args,
    })
}

/// An answer to a window the catalogue does not list: the first bare word is the choice, the
/// `NAME=VALUE` words its arguments typed by how they look.
fn untyped(prompt_id: u64, words: &[String]) -> AnswerRequest {
    let choice = words
        .iter()
        .find(|w| !w.contains('='))
        .cloned()
        .unwrap_or_default();
    let args = Args(
        words
            .iter()
            .filter_map(|w| w.split_once('='))
            .filter(|(n, _)| *n != "prompt")
            .map(|(n, v)| (n.to_owned(), act::guess(v.to_owned())))
            .collect(),
    );
    AnswerRequest {
        prompt_id,
        choice,
        args,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablehold_rules::{ArgKind, ArgSpec};

    fn entry(id: u64, help: &str, options: &[&str], args: Vec<ArgSpec>) -> ActionSpec {
        let mut all = Vec::new();
        if !options.is_empty() {
            all.push(ArgSpec::new("choice", ArgKind::Text, true, "").choices(options));
        }
        all.extend(args);
        all.push(ArgSpec {
            now: vec![id.to_string()],
            ..ArgSpec::new("prompt", ArgKind::Int, false, "")
        });
        ActionSpec {
            name: "answer".into(),
            help: help.into(),
            actor: None,
            args: all,
            costs: vec![],
        }
    }

    fn words(w: &[&str]) -> Vec<String> {
        w.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn the_only_open_window_is_answered_by_choice_or_by_typed_arguments() {
        let spare = entry(3, "Spare?", &["spare", "strike"], vec![]);
        let push = entry(
            5,
            "How many points?",
            &[],
            vec![ArgSpec::new("points", ArgKind::Int, true, "").range(1, 3)],
        );
        assert_eq!(
            resolve(std::slice::from_ref(&spare), None, &words(&["strike"])),
            Ok(AnswerRequest {
                prompt_id: 3,
                choice: "strike".into(),
                args: Args::default()
            })
        );
        // A bare value fills the next argument: `2` is `points=2`.
        for typed in [&["points=2"][..], &["2"][..]] {
            assert_eq!(
                resolve(std::slice::from_ref(&push), None, &words(typed)),
                Ok(AnswerRequest {
                    prompt_id: 5,
                    choice: String::new(),
                    args: Args::default().with("points", ArgValue::Int(2))
                })
            );
        }
        let wrong = resolve(std::slice::from_ref(&push), None, &words(&["points=two"]));
        assert_eq!(wrong.map_err(|e| e.code), Err(ErrorCode::BadRequest));
    }

    #[test]
    fn with_several_open_the_prompt_is_picked_by_id() {
        let both = vec![
            entry(3, "Spare?", &["spare", "strike"], vec![]),
            entry(4, "Take the opening?", &["strike", "hold"], vec![]),
        ];
        let err = resolve(&both, None, &words(&["strike"])).unwrap_err();
        assert_eq!(
            err.message,
            "several prompts are open to you: 3 (Spare?), 4 (Take the opening?); pick one with \
             --prompt ID"
        );
        assert_eq!(
            resolve(&both, Some(4), &words(&["hold"])).map(|r| r.prompt_id),
            Ok(4)
        );
        // The options themselves are the server's to judge (`not_an_option` lists them).
        assert_eq!(
            resolve(&both, Some(4), &words(&["spare"])).map(|r| r.choice),
            Ok("spare".to_owned())
        );
        // An id the catalogue does not list goes to the server as typed, which says why not.
        assert_eq!(
            resolve(&both, Some(9), &words(&["spare"])),
            Ok(AnswerRequest {
                prompt_id: 9,
                choice: "spare".into(),
                args: Args::default()
            })
        );
        assert_eq!(
            resolve(&[], None, &words(&["spare"])).map_err(|e| e.code),
            Err(ErrorCode::NoSuchPrompt)
        );
    }
}

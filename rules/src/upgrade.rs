//! Reading events of every format version this build knows: the one place an old event is
//! brought up to the current shape.
//!
//! Every stored or exported event carries the format version it was written in. A reader hands
//! the part's JSON and that version here and gets a current [`Part`]; the stored bytes are never
//! rewritten (the hash chain covers them).
//!
//! | version | what differs from the next                                                      |
//! |---------|---------------------------------------------------------------------------------|
//! | 1       | `digest_recorded` has no `projection`: its digest is of projection 1; no `told` |
//! | 2       | no decision windows: no `decision_answered` or `window_secret`, steps without   |
//! |         | window fields; read as it is, every new field having the old meaning by default |
//! | 3       | no commitments to hidden dice: `dice_drawn` without `sealed`, no `dice_opened`;  |
//! |         | read as it is                                                                   |
//! | 4       | current                                                                         |

use serde_json::Value;

use crate::event::Part;

/// The format version of the events this build writes, and the newest it reads.
pub const EVENT_VERSION: u32 = 4;

/// Why a stored part could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UpgradeError {
    #[error(
        "the event has format version {version}; this build reads versions 1 to {EVENT_VERSION}: \
         a newer Tablehold wrote it, so upgrade Tablehold to read it"
    )]
    Newer { version: u32 },
    #[error("the event has format version 0, which no Tablehold writes")]
    Zero,
    /// The JSON is not a part of this version; the parser's words.
    #[error("{0}")]
    Malformed(String),
}

/// One part's JSON, written in format `version`, as a current part.
///
/// # Errors
///
/// An unknown version, or JSON that is not a part of that version.
pub fn part_from_json(version: u32, json: &[u8]) -> Result<Part, UpgradeError> {
    let malformed = |e: serde_json::Error| UpgradeError::Malformed(e.to_string());
    match version {
        0 => Err(UpgradeError::Zero),
        1 => {
            let mut value: Value = serde_json::from_slice(json).map_err(malformed)?;
            from_v1(&mut value);
            serde_json::from_value(value).map_err(malformed)
        }
        2..=EVENT_VERSION => serde_json::from_slice(json).map_err(malformed),
        version => Err(UpgradeError::Newer { version }),
    }
}

/// An event's parts (a JSON array, as stored), written in format `version`.
///
/// # Errors
///
/// As [`part_from_json`], for the first part that fails.
pub fn parts_from_json(version: u32, json: &[u8]) -> Result<Vec<Part>, UpgradeError> {
    let malformed = |e: serde_json::Error| UpgradeError::Malformed(e.to_string());
    match version {
        0 => Err(UpgradeError::Zero),
        2..=EVENT_VERSION => serde_json::from_slice(json).map_err(malformed),
        version if version > EVENT_VERSION => Err(UpgradeError::Newer { version }),
        _ => {
            let raw: Vec<&serde_json::value::RawValue> =
                serde_json::from_slice(json).map_err(malformed)?;
            raw.iter()
                .map(|r| part_from_json(version, r.get().as_bytes()))
                .collect()
        }
    }
}

/// Version 1 to 2: a digest without a projection is of projection 1.
fn from_v1(part: &mut Value) {
    let Some(fact) = part.get_mut("fact").and_then(Value::as_object_mut) else {
        return;
    };
    if fact.get("fact").and_then(Value::as_str) == Some("digest_recorded")
        && !fact.contains_key("projection")
    {
        fact.insert("projection".into(), Value::from(1));
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::event::{Audience, Fact};

    const V1_DIGEST: &str = r#"{"audience":"everyone","fact":{"fact":"digest_recorded","audience":"public","digest":"ab"}}"#;

    #[test]
    fn a_version_1_digest_reads_as_projection_1_and_version_2_must_say_its_own() {
        let part = part_from_json(1, V1_DIGEST.as_bytes()).unwrap();
        assert_eq!(part.audience, Audience::Everyone);
        assert_eq!(
            part.fact,
            Fact::DigestRecorded {
                audience: "public".into(),
                digest: "ab".into(),
                projection: 1,
            }
        );
        // Version 2 writes the projection; a part without one is not a version 2 part.
        assert!(matches!(
            part_from_json(2, V1_DIGEST.as_bytes()),
            Err(UpgradeError::Malformed(_))
        ));
        let v2 = serde_json::to_vec(&part).unwrap();
        assert_eq!(part_from_json(2, &v2).unwrap(), part);
        // A version 1 part that says its projection keeps it.
        let named = r#"{"audience":"everyone","fact":{"fact":"digest_recorded","audience":"public","digest":"ab","projection":2}}"#;
        assert!(matches!(
            part_from_json(1, named.as_bytes()).unwrap().fact,
            Fact::DigestRecorded { projection: 2, .. }
        ));
        // Other facts are read as they are.
        let noted = r#"{"audience":"everyone","fact":{"fact":"noted","text":"hi"}}"#;
        assert_eq!(
            part_from_json(1, noted.as_bytes()).unwrap().fact,
            Fact::Noted { text: "hi".into() }
        );
        let array = format!("[{V1_DIGEST},{V1_DIGEST}]");
        assert_eq!(
            parts_from_json(1, array.as_bytes()).unwrap(),
            vec![part.clone(), part]
        );
    }

    #[test]
    fn an_unknown_version_is_named_and_nothing_is_read() {
        let err = part_from_json(5, V1_DIGEST.as_bytes()).unwrap_err();
        assert_eq!(err, UpgradeError::Newer { version: 5 });
        assert_eq!(
            err.to_string(),
            "the event has format version 5; this build reads versions 1 to 4: a newer \
             Tablehold wrote it, so upgrade Tablehold to read it"
        );
        assert_eq!(part_from_json(0, b"{}"), Err(UpgradeError::Zero));
        assert_eq!(parts_from_json(0, b"[]"), Err(UpgradeError::Zero));
        assert!(parts_from_json(5, b"[]").is_err());
        // Format 2 is read as it is: a prompt without window fields is a blocking window
        // answered by the first of its seats.
        let v2_prompt = br#"{"audience":"everyone","fact":{"fact":"decision_requested","step":{
            "prompt_id":3,"rule":"r","actor":null,"seats":["gm"],"question":"q","options":["a"],
            "default":"a","timeout_ms":5,"trigger":null,"data":{}}}}"#;
        match part_from_json(2, v2_prompt).map(|p| p.fact) {
            Ok(crate::event::Fact::DecisionRequested { step }) => {
                assert!(step.blocks);
                assert_eq!(step.answering, crate::decision::Answering::First);
                assert!(step.args.is_empty() && step.secret.is_empty() && step.answers.is_empty());
            }
            other => panic!("{other:?}"),
        }
    }
}

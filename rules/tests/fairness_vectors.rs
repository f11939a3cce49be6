//! The test vectors of `docs/FAIRNESS.md`, held in `docs/fairness-vectors.json`, checked against
//! this crate's fair dice, and against the page itself so the two cannot drift apart.
//!
//! Besides the crate's functions, the test recomputes the byte layouts the page documents (the
//! key's preimage, the 33-byte HMAC message, the chain's link) with SHA-256 and HMAC directly,
//! so a wrong sentence on the page about bytes fails here too, not only a wrong face.

use std::collections::BTreeMap;
use std::path::PathBuf;

use hmac::{Hmac, Mac};
use serde_json::Value;
use sha2::{Digest, Sha256};
use tablehold_rules::dice::fair::{
    Bytes32, entropy_commitment, epoch_key, from_hex32, seed_commitment, to_hex,
    withheld_replacement,
};
use tablehold_rules::dice::{CounterStream, DiceExpr, DiceSource, Primitive, roll};
use tablehold_rules::{Fact, Part};

fn docs() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs")
}

fn vectors() -> Value {
    let path = docs().join("fairness-vectors.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).expect("fairness-vectors.json is JSON")
}

fn page() -> String {
    let path = docs().join("FAIRNESS.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

fn s<'a>(v: &'a Value, field: &str) -> &'a str {
    v[field]
        .as_str()
        .unwrap_or_else(|| panic!("`{field}` is not a string in {v}"))
}

fn n(v: &Value, field: &str) -> u64 {
    v[field]
        .as_u64()
        .unwrap_or_else(|| panic!("`{field}` is not an unsigned integer in {v}"))
}

fn arr<'a>(v: &'a Value, field: &str) -> &'a Vec<Value> {
    v[field]
        .as_array()
        .unwrap_or_else(|| panic!("`{field}` is not an array in {v}"))
}

fn h32(v: &Value, field: &str) -> Bytes32 {
    from_hex32(s(v, field)).unwrap_or_else(|| panic!("`{field}` is not 64 hex digits in {v}"))
}

fn hex(text: &str) -> Vec<u8> {
    assert!(text.len().is_multiple_of(2), "odd hex length: {text}");
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).expect("hex"))
        .collect()
}

fn die(name: &str) -> Primitive {
    name.parse().expect("a primitive die")
}

fn pair(v: &Value) -> [u64; 2] {
    let a = v.as_array().expect("a [first, end) pair");
    assert_eq!(a.len(), 2, "{v}");
    [
        a[0].as_u64().expect("counter"),
        a[1].as_u64().expect("counter"),
    ]
}

fn sha(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// Step 2 of the stream, written from the page: the first four bytes of the HMAC block.
fn block(key: &Bytes32, epoch: u64, counter: u64) -> Vec<u8> {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("any key length");
    mac.update(&dice_message(epoch, counter));
    mac.finalize().into_bytes().to_vec()
}

fn dice_message(epoch: u64, counter: u64) -> Vec<u8> {
    let mut m = b"tablehold-dice-v1".to_vec();
    m.extend(epoch.to_be_bytes());
    m.extend(counter.to_be_bytes());
    m
}

fn word(key: &Bytes32, epoch: u64, counter: u64) -> u64 {
    let b = block(key, epoch, counter);
    u64::from(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
}

fn limit(sides: u64) -> u64 {
    (1u64 << 32) / sides * sides
}

fn framed(seat: &str) -> Vec<u8> {
    let mut v = vec![u8::try_from(seat.len()).expect("short seat id")];
    v.extend(seat.as_bytes());
    v
}

#[test]
fn the_file_is_the_version_this_test_reads() {
    let v = vectors();
    assert_eq!(s(&v, "format"), "tablehold-fairness-vectors");
    assert_eq!(n(&v, "version"), 1);
    let dice: Vec<&str> = arr(&v, "dice")
        .iter()
        .map(|d| d.as_str().expect("die"))
        .collect();
    let all: Vec<String> = Primitive::ALL.iter().map(ToString::to_string).collect();
    assert_eq!(dice, all);
}

#[test]
fn limits_are_the_largest_multiple_of_the_sides_below_two_to_the_32() {
    for row in arr(&vectors(), "limits") {
        let sides = n(row, "sides");
        assert_eq!(u64::from(die(s(row, "die")).sides()), sides);
        assert_eq!(n(row, "limit"), limit(sides), "{row}");
        assert_eq!(
            n(row, "rejected_words"),
            (1u64 << 32) - limit(sides),
            "{row}"
        );
    }
}

#[test]
fn commitments_replacements_and_keys() {
    for case in arr(&vectors(), "cases") {
        let epoch = n(case, "epoch");
        let seed = h32(case, "seed");
        assert_eq!(
            to_hex(&seed_commitment(epoch, &seed)),
            s(case, "seed_commitment")
        );

        let mut contributions: Vec<(&str, Bytes32)> = Vec::new();
        let mut preimage = b"tablehold-key-v1".to_vec();
        preimage.extend(epoch.to_be_bytes());
        preimage.extend(seed);
        let mut previous: Option<&str> = None;
        for seat in arr(case, "seats") {
            let id = s(seat, "seat");
            // The file lists the seats in key order: ascending bytes of the seat id.
            assert!(
                previous.is_none_or(|p| p.as_bytes() < id.as_bytes()),
                "{id} out of order"
            );
            previous = Some(id);
            assert_eq!(hex(s(seat, "framed_seat")), framed(id));
            let entropy = h32(seat, "entropy");
            let commitment = entropy_commitment(epoch, id, &entropy).expect("short seat id");
            assert_eq!(to_hex(&commitment), s(seat, "commitment"));
            let value = match s(seat, "outcome") {
                "revealed" => entropy,
                "withheld" => {
                    let r = withheld_replacement(&commitment);
                    assert_eq!(to_hex(&r), s(seat, "replacement"));
                    r
                }
                other => panic!("unknown outcome {other}"),
            };
            assert_eq!(to_hex(&value), s(seat, "contribution"));
            contributions.push((id, value));
            preimage.extend(framed(id));
            preimage.extend(value);
        }
        // Any order of arrival gives the same key: hand them over backwards.
        contributions.reverse();
        let key = epoch_key(epoch, &seed, &contributions).expect("short seat ids");
        assert_eq!(to_hex(&key), s(case, "key"));
        if contributions.is_empty() {
            // No seat contributed: the key is the seed itself, and nothing is hashed.
            assert_eq!(key, seed);
            assert!(
                case.get("key_preimage").is_none(),
                "no preimage without contributions"
            );
        } else {
            assert_eq!(to_hex(&preimage), s(case, "key_preimage"));
            assert_eq!(sha(&preimage), key);
        }
    }
}

#[test]
fn words_and_first_faces_of_a_fresh_stream_for_each_die() {
    let v = vectors();
    let dice: Vec<Primitive> = arr(&v, "dice")
        .iter()
        .map(|d| die(d.as_str().expect("die")))
        .collect();
    for case in arr(&v, "cases") {
        let epoch = n(case, "epoch");
        let key = h32(case, "key");
        let message = dice_message(epoch, 0);
        assert_eq!(message.len(), 33);
        assert_eq!(to_hex(&message), s(case, "first_message"));
        assert_eq!(to_hex(&block(&key, epoch, 0)), s(case, "first_block"));

        let rows = arr(case, "words");
        for (i, row) in rows.iter().enumerate() {
            let counter = n(row, "counter");
            assert_eq!(
                counter,
                u64::try_from(i).expect("small"),
                "rows start at counter 0"
            );
            let w = word(&key, epoch, counter);
            assert_eq!(n(row, "word"), w, "word at counter {counter}");
            let faces = arr(row, "faces");
            assert_eq!(faces.len(), dice.len());
            for (d, face) in dice.iter().zip(faces) {
                let sides = u64::from(d.sides());
                assert!(w < limit(sides), "the table holds no rejection");
                assert_eq!(
                    face.as_u64(),
                    Some(w % sides + 1),
                    "{d} at counter {counter}"
                );
            }
        }
        // Each column is the first faces of a fresh stream drawing only that die.
        for (column, d) in dice.iter().enumerate() {
            let mut stream = CounterStream::new(key, epoch);
            for (i, row) in rows.iter().enumerate() {
                let face = stream.draw(*d).expect("a face");
                assert_eq!(Some(u64::from(face)), arr(row, "faces")[column].as_u64());
                let i = u64::try_from(i).expect("small");
                assert_eq!(stream.last_counters(), Some([i, i + 1]));
            }
        }
    }
}

#[test]
fn one_stream_drawing_mixed_dice() {
    let v = vectors();
    let case = &arr(&v, "cases")[0];
    let mut stream = CounterStream::new(h32(case, "key"), n(case, "epoch"));
    let mut spans = Vec::new();
    for draw in arr(case, "sequence") {
        let face = stream.draw(die(s(draw, "die"))).expect("a face");
        assert_eq!(u64::from(face), n(draw, "face"), "{draw}");
        assert_eq!(
            stream.last_counters(),
            Some(pair(&draw["counters"])),
            "{draw}"
        );
        spans.push(pair(&draw["counters"]));
    }
    let drawn = stream.take_draws().expect("draws");
    assert_eq!(drawn.epoch, n(case, "epoch"));
    assert_eq!(drawn.spans, spans);
}

#[test]
fn composite_rolls_from_the_stream() {
    let v = vectors();
    let case = &arr(&v, "cases")[0];
    for expected in arr(case, "rolls") {
        let expr = DiceExpr::parse(s(expected, "expr")).expect("valid notation");
        let mut stream =
            CounterStream::at(h32(case, "key"), n(case, "epoch"), n(expected, "start"));
        let rolled = serde_json::to_value(roll(&expr, &mut stream).expect("a roll")).expect("json");
        for field in ["expr", "dice", "terms", "total"] {
            assert_eq!(
                rolled[field], expected[field],
                "{field} of {}",
                expected["expr"]
            );
        }
    }
}

#[test]
fn a_rejected_attempt_uses_a_counter() {
    let r = &vectors()["rejection"];
    let epoch = n(r, "epoch");
    let key = h32(r, "key");
    let d = die(s(r, "die"));
    let bound = limit(u64::from(d.sides()));
    let start = n(r, "start");
    let attempts = arr(r, "attempts");
    assert_eq!(attempts.len(), 2);
    for (i, attempt) in attempts.iter().enumerate() {
        let counter = n(attempt, "counter");
        assert_eq!(counter, start + u64::try_from(i).expect("small"));
        let w = word(&key, epoch, counter);
        assert_eq!(n(attempt, "word"), w);
        assert_eq!(attempt["accepted"].as_bool(), Some(w < bound), "{attempt}");
    }
    let mut stream = CounterStream::at(key, epoch, start);
    assert_eq!(u64::from(stream.draw(d).expect("a face")), n(r, "face"));
    assert_eq!(stream.last_counters(), Some(pair(&r["counters"])));
    // The same word is not rejected on a d20: rejection depends on the die.
    let mut other = CounterStream::at(key, epoch, start);
    let face = other.draw(Primitive::D20).expect("a face");
    assert_eq!(u64::from(face), n(r, "same_counter_on_d20"));
    assert_eq!(other.last_counters(), Some([start, start + 1]));
}

/// Checks one die of a shown or hidden part against the stream, returning its counters.
fn check_die(key: Bytes32, epoch: u64, d: Primitive, face: u32, counters: [u64; 2]) -> [u64; 2] {
    let mut stream = CounterStream::at(key, epoch, counters[0]);
    assert_eq!(stream.draw(d).expect("a face"), face, "{d} at {counters:?}");
    assert_eq!(stream.last_counters(), Some(counters));
    counters
}

#[test]
fn the_example_export_chains_and_its_dice_come_from_the_stream() {
    let v = vectors();
    // The export's epochs are the cases of the same epoch id.
    let case_of = |epoch: u64| {
        arr(&v, "cases")
            .iter()
            .find(|c| n(c, "epoch") == epoch)
            .unwrap_or_else(|| panic!("no case for epoch {epoch}"))
    };
    let export = &v["example_export"];
    let header = &export["header"];
    assert_eq!(s(header, "format"), "tablehold-log");
    assert_eq!(n(header, "version"), 1);
    let events = arr(export, "events");
    assert_eq!(
        n(header, "event_count"),
        u64::try_from(events.len()).expect("small")
    );

    let mut prev = [0u8; 32];
    let mut next_counter: BTreeMap<u64, u64> = BTreeMap::new();
    for (i, event) in events.iter().enumerate() {
        let text = s(event, "header");
        let fields: Value = serde_json::from_str(text).expect("header JSON");
        assert_eq!(n(&fields, "seq"), u64::try_from(i + 1).expect("small"));
        assert_eq!(
            text,
            format!(
                "{{\"seq\":{},\"version\":{},\"at_ms\":{}}}",
                n(&fields, "seq"),
                n(&fields, "version"),
                n(&fields, "at_ms")
            )
        );
        let mut preimage = b"tablehold-chain-v1".to_vec();
        preimage.extend(prev);
        preimage.extend(sha(text.as_bytes()));
        let mut parts = Vec::new();
        for part in arr(event, "parts") {
            let json = match (part["json"].as_str(), part["hidden"].as_str()) {
                (Some(json), None) => json,
                (None, Some(hash)) => arr(&v, "hidden_parts")
                    .iter()
                    .find(|h| s(h, "hash") == hash)
                    .map(|h| s(h, "json"))
                    .expect("the text behind a hidden part"),
                _ => panic!("a part is either json or hidden: {part}"),
            };
            let hash = sha(json.as_bytes());
            if let Some(hidden) = part["hidden"].as_str() {
                assert_eq!(to_hex(&hash), hidden);
            }
            preimage.extend(hash);
            // The page's JSON shapes are the crate's: a part reads back to the very same text.
            let parsed: Part = serde_json::from_str(json).expect("a part");
            assert_eq!(serde_json::to_string(&parsed).expect("json"), json);
            parts.push(parsed);
        }
        prev = sha(&preimage);
        assert_eq!(to_hex(&prev), s(event, "link"), "link of seq {}", i + 1);

        let drawn: Vec<(u64, &Vec<[u64; 2]>)> = parts
            .iter()
            .filter_map(|p| match &p.fact {
                Fact::DiceDrawn { epoch, spans, .. } => Some((*epoch, spans)),
                _ => None,
            })
            .collect();
        assert!(drawn.len() <= 1, "one dice_drawn per event at most");
        let mut used: Vec<[u64; 2]> = Vec::new();
        for part in &parts {
            let (epoch, key) = drawn
                .first()
                .map_or((0, [0; 32]), |d| (d.0, h32(case_of(d.0), "key")));
            match &part.fact {
                Fact::Rolled { roll, .. } => {
                    for d in &roll.dice {
                        let c = d.counters.expect("counters");
                        used.push(check_die(key, epoch, d.die, d.face, c));
                    }
                }
                Fact::Picked {
                    face,
                    die: Some(d),
                    counters: Some(c),
                    ..
                } => used.push(check_die(key, epoch, *d, *face, *c)),
                Fact::EpochOpened {
                    epoch, commitment, ..
                } => assert_eq!(commitment, s(case_of(*epoch), "seed_commitment")),
                Fact::EpochRevealed { epoch, seed } => assert_eq!(seed, s(case_of(*epoch), "seed")),
                _ => {}
            }
        }
        if let Some((epoch, spans)) = drawn.first() {
            let next = next_counter.entry(*epoch).or_insert(0);
            for span in spans.iter() {
                assert_eq!(span[0], *next, "spans tile the epoch in order");
                *next = span[1];
            }
            assert!(
                used.iter().all(|c| spans.contains(c)),
                "dice use the event's spans"
            );
        }
        assert!(
            used.is_empty() || !drawn.is_empty(),
            "dice need a dice_drawn"
        );
    }
    assert_eq!(
        next_counter.into_iter().collect::<Vec<_>>(),
        [(1, 1), (2, 4)]
    );
}

/// Every string of a JSON value, at any depth, but for the `about` note.
fn strings<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
    match v {
        Value::String(text) => out.push(text),
        Value::Array(items) => items.iter().for_each(|i| strings(i, out)),
        Value::Object(fields) => fields
            .iter()
            .filter(|(k, _)| k.as_str() != "about")
            .for_each(|(_, x)| strings(x, out)),
        _ => {}
    }
}

/// How the page writes one die of a composite roll in its table.
fn die_cell(d: &Value) -> String {
    let mut cell = format!("{} {}", s(d, "die"), n(d, "face"));
    if d["value"] != d["face"] {
        cell.push_str(&format!(" counts {}", d["value"]));
    }
    if d["kept"] == false {
        cell.push_str(" dropped");
    }
    if d["burst"] == true {
        cell.push_str(" bursts");
    }
    if d["from_burst"] == true {
        cell.push_str(" from burst");
    }
    cell
}

#[test]
fn the_page_shows_every_value_of_the_file() {
    let v = vectors();
    let page = page();
    let missing = |what: &str| !page.contains(what);

    let mut texts = Vec::new();
    strings(&v, &mut texts);
    let absent: Vec<&&str> = texts.iter().filter(|t| missing(t)).collect();
    assert!(
        absent.is_empty(),
        "FAIRNESS.md lacks these strings: {absent:?}"
    );

    let mut rows = Vec::new();
    for l in arr(&v, "limits") {
        rows.push(format!(
            "| {} | {} | {} |",
            s(l, "die"),
            n(l, "limit"),
            n(l, "rejected_words")
        ));
    }
    for case in arr(&v, "cases") {
        for w in arr(case, "words") {
            let faces: Vec<String> = arr(w, "faces").iter().map(ToString::to_string).collect();
            rows.push(format!(
                "| {} | {:08x} | {} | {} |",
                n(w, "counter"),
                n(w, "word"),
                n(w, "word"),
                faces.join(" | ")
            ));
        }
        for (i, d) in case["sequence"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            let [a, b] = pair(&d["counters"]);
            rows.push(format!(
                "| {} | {} | [{a}, {b}) | {} |",
                i + 1,
                s(d, "die"),
                n(d, "face")
            ));
        }
        for r in case["rolls"].as_array().into_iter().flatten() {
            let dice: Vec<String> = arr(r, "dice").iter().map(die_cell).collect();
            rows.push(format!(
                "| `{}` | {} | {} | {} |",
                s(r, "expr"),
                n(r, "start"),
                dice.join("; "),
                r["total"]
            ));
        }
    }
    let r = &v["rejection"];
    for key in ["start", "face", "same_counter_on_d20"] {
        rows.push(n(r, key).to_string());
    }
    for a in arr(r, "attempts") {
        rows.push(format!("| {} | {} |", n(a, "counter"), n(a, "word")));
    }
    let absent: Vec<&String> = rows.iter().filter(|row| missing(row)).collect();
    assert!(
        absent.is_empty(),
        "FAIRNESS.md lacks these rows: {absent:#?}"
    );
}

#[test]
fn the_hidden_dice_vector_is_the_commitment_the_server_makes() {
    let v = vectors();
    let h = &v["hidden_dice"];
    let text = s(h, "text");
    let key = h32(h, "key");
    let commitment = tablehold_rules::hidden_dice::commitment(&key, n(h, "epoch"), text);
    assert_eq!(to_hex(&commitment), s(h, "commitment"));
    let opened = tablehold_rules::hidden_dice::OpenedDice::parse(text).expect("dice");
    assert_eq!(opened.text(), text, "the server writes this very text");
    assert!(page().contains("tablehold-hidden-dice-v1"));
}

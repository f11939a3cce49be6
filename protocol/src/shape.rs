//! The shape a frame must have before serde sees it. Serde is lenient where the protocol is
//! not: it takes a struct as a positional array, bytes where text belongs, and ignores a float
//! in a field it does not know. This walk over the raw MessagePack refuses those, so the
//! server refuses exactly what `docs/PROTOCOL.md` says it refuses, and it finds a request's
//! `id` even in a frame serde will not decode, so the error can echo it.

/// What the walk refuses, with a sentence for the `bad_request` message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShapeError(pub String);

struct Walker<'a> {
    bytes: &'a [u8],
    at: usize,
    max_depth: usize,
}

fn malformed(what: &str) -> ShapeError {
    ShapeError(what.to_owned())
}

impl Walker<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], ShapeError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&end| end <= self.bytes.len())
            .ok_or_else(|| malformed("the frame ends inside a value"))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn uint(&mut self, width: usize) -> Result<u64, ShapeError> {
        Ok(self
            .take(width)?
            .iter()
            .fold(0u64, |acc, b| (acc << 8) | u64::from(*b)))
    }

    fn len(&mut self, width: usize) -> Result<usize, ShapeError> {
        usize::try_from(self.uint(width)?).map_err(|_| malformed("a length beyond this machine"))
    }

    /// Skips one value, checking it; `Some(text)` when it was a string (for map keys).
    fn value(&mut self, depth: usize) -> Result<Option<String>, ShapeError> {
        if depth > self.max_depth {
            return Err(malformed("values nested too deeply"));
        }
        let marker = self.take(1)?[0];
        match marker {
            0x00..=0x7f | 0xe0..=0xff | 0xc0 | 0xc2 | 0xc3 => Ok(None),
            0xcc..=0xcf => self.skip(1 << (marker - 0xcc)),
            0xd0..=0xd3 => self.skip(1 << (marker - 0xd0)),
            0xa0..=0xbf => self.text(usize::from(marker - 0xa0)),
            0xd9 => {
                let n = self.len(1)?;
                self.text(n)
            }
            0xda => {
                let n = self.len(2)?;
                self.text(n)
            }
            0xdb => {
                let n = self.len(4)?;
                self.text(n)
            }
            0x80..=0x8f => self.map(usize::from(marker - 0x80), depth),
            0xde => {
                let n = self.len(2)?;
                self.map(n, depth)
            }
            0xdf => {
                let n = self.len(4)?;
                self.map(n, depth)
            }
            0x90..=0x9f => self.array(usize::from(marker - 0x90), depth),
            0xdc => {
                let n = self.len(2)?;
                self.array(n, depth)
            }
            0xdd => {
                let n = self.len(4)?;
                self.array(n, depth)
            }
            0xca | 0xcb => Err(malformed(
                "a float is never valid: every number of the protocol is an integer",
            )),
            0xc4..=0xc6 => Err(malformed("text is sent as str, never as bin")),
            0xc7..=0xc9 | 0xd4..=0xd8 => Err(malformed("extension types are not used")),
            _ => Err(malformed("0xc1 is not MessagePack")),
        }
    }

    fn skip(&mut self, n: usize) -> Result<Option<String>, ShapeError> {
        self.take(n)?;
        Ok(None)
    }

    fn text(&mut self, n: usize) -> Result<Option<String>, ShapeError> {
        let raw = self.take(n)?;
        let text = std::str::from_utf8(raw).map_err(|_| malformed("a str that is not UTF-8"))?;
        Ok(Some(text.to_owned()))
    }

    fn map(&mut self, pairs: usize, depth: usize) -> Result<Option<String>, ShapeError> {
        for _ in 0..pairs {
            if self.value(depth + 1)?.is_none() {
                return Err(malformed("map keys are field names: str"));
            }
            self.value(depth + 1)?;
        }
        Ok(None)
    }

    fn array(&mut self, items: usize, depth: usize) -> Result<Option<String>, ShapeError> {
        for _ in 0..items {
            self.value(depth + 1)?;
        }
        Ok(None)
    }
}

/// Checks every value of `bytes` (one MessagePack value, nested at most `max_depth` deep): no
/// float, no bin, no extension, str keys only.
pub fn check(bytes: &[u8], max_depth: usize) -> Result<(), ShapeError> {
    let mut w = Walker {
        bytes,
        at: 0,
        max_depth,
    };
    w.value(0).map(|_| ())
}

fn is_map(marker: u8) -> bool {
    matches!(marker, 0x80..=0x8f | 0xde | 0xdf)
}

fn is_array(marker: u8) -> bool {
    matches!(marker, 0x90..=0x9f | 0xdc | 0xdd)
}

impl Walker<'_> {
    /// The pairs of the map that starts here, or `None` if what starts here is not a map.
    fn map_len(&mut self) -> Result<Option<usize>, ShapeError> {
        let marker = *self
            .bytes
            .get(self.at)
            .ok_or_else(|| malformed("the frame is empty"))?;
        if !is_map(marker) {
            return Ok(None);
        }
        self.at += 1;
        Ok(Some(match marker {
            0xde => self.len(2)?,
            0xdf => self.len(4)?,
            m => usize::from(m - 0x80),
        }))
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    /// Calls `field` with each key of the map that starts here; `field` reads its value.
    fn fields(
        &mut self,
        what: &str,
        mut field: impl FnMut(&mut Self, &str) -> Result<(), ShapeError>,
    ) -> Result<(), ShapeError> {
        let Some(pairs) = self.map_len()? else {
            return Err(ShapeError(format!(
                "{what} is an object: send it as a map with named fields, not a positional array"
            )));
        };
        for _ in 0..pairs {
            let key = self.value(1)?.unwrap_or_default();
            field(self, &key)?;
        }
        Ok(())
    }
}

/// The places where serde would take a positional array for an object in a client frame: the
/// frame itself, a request's `op`, its `args`, and an argument (a cell is `{x, y}`). Lists in
/// fields this version does not know are left alone: later versions may add them.
pub fn check_client_objects(bytes: &[u8]) -> Result<(), ShapeError> {
    let mut w = Walker {
        bytes,
        at: 0,
        max_depth: usize::MAX,
    };
    w.fields("a frame", |w, key| match key {
        "op" => w.fields("`op`", |w, key| match key {
            "args" => w.fields("`args`", |w, name| {
                if w.peek().is_some_and(is_array) {
                    return Err(ShapeError(format!(
                        "argument `{name}` is an array; a cell is a map {{x, y}}"
                    )));
                }
                w.value(3).map(|_| ())
            }),
            _ => w.value(2).map(|_| ()),
        }),
        _ => w.value(1).map(|_| ()),
    })
}

/// The `id` of a request frame, read without decoding the rest: a frame that is a map whose
/// `id` key holds an unsigned integer. Lets a refusal of a mistyped request echo its id.
pub fn request_id(bytes: &[u8]) -> Option<u64> {
    let mut w = Walker {
        bytes,
        at: 0,
        max_depth: usize::MAX,
    };
    let marker = *w.take(1).ok()?.first()?;
    let pairs = match marker {
        0x80..=0x8f => usize::from(marker - 0x80),
        0xde => w.len(2).ok()?,
        0xdf => w.len(4).ok()?,
        _ => return None,
    };
    for _ in 0..pairs {
        let key = w.value(1).ok()?;
        if key.as_deref() == Some("id") {
            let m = *w.take(1).ok()?.first()?;
            return match m {
                0x00..=0x7f => Some(u64::from(m)),
                0xcc..=0xcf => w.uint(1 << (m - 0xcc)).ok(),
                _ => None,
            };
        }
        w.value(1).ok()?;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        hex::decode(s.split_whitespace().collect::<String>()).unwrap_or_default()
    }

    #[test]
    fn the_walk_refuses_what_serde_would_let_through() {
        // (what, the frame, the start of the refusal or "" for none)
        let cases = [
            ("a map of str keys", "81 a1 61 01", ""),
            (
                "ints of every width",
                "84 a161 cc ff a162 cd ffff a163 d3 8000000000000000 a164 ff",
                "",
            ),
            ("a float", "81 a1 61 cb 3ff0000000000000", "a float"),
            ("a float32", "81 a1 61 ca 3f800000", "a float"),
            ("bin for text", "81 a1 61 c4 01 61", "text is sent as str"),
            ("an ext", "81 a1 61 d4 01 00", "extension"),
            ("an int key", "81 01 01", "map keys"),
            ("a list", "81 a1 61 91 01", ""),
            ("cut short", "82 a1 61 01", "the frame ends"),
            ("not UTF-8", "81 a1 ff 01", "a str that is not UTF-8"),
            ("0xc1", "81 a1 61 c1", "0xc1"),
        ];
        for (what, frame, want) in cases {
            let got = check(&hex(frame), 8);
            match got {
                Ok(()) => assert_eq!(want, "", "{what}"),
                Err(ShapeError(m)) => {
                    assert!(!want.is_empty() && m.starts_with(want), "{what}: {m}")
                }
            }
        }
        let deep = format!("{}01", "81a161".repeat(10));
        assert!(check(&hex(&deep), 8).is_err());
        assert!(check(&hex(&deep), 10).is_ok());
    }

    #[test]
    fn objects_of_a_request_are_maps_and_unknown_lists_are_left_alone() {
        // {"type":"request","id":1,"op":...} with `op` spliced in.
        let request = |op: &str| {
            hex(&format!(
                "83 a474797065 a772657175657374 a26964 01 a26f70 {op}"
            ))
        };
        let cases = [
            // {"op":"ping"}
            ("a map op", request("81 a26f70 a470696e67"), ""),
            (
                "an array op",
                request("92 a470696e67 01"),
                "`op` is an object",
            ),
            // {"op":"act","args":{"to":{"x":1,"y":2}}}
            (
                "a cell as a map",
                request("82 a26f70 a3616374 a461726773 81 a2746f 82 a178 01 a179 02"),
                "",
            ),
            (
                "a cell as an array",
                request("82 a26f70 a3616374 a461726773 81 a2746f 92 01 02"),
                "argument `to`",
            ),
            (
                "args as an array",
                request("82 a26f70 a3616374 a461726773 91 01"),
                "`args` is an object",
            ),
            // {"op":"ping","later":[1,2]}: a field of a later version.
            (
                "an unknown list",
                request("82 a26f70 a470696e67 a56c61746572 92 01 02"),
                "",
            ),
            (
                "a frame as an array",
                hex("92 01 02"),
                "a frame is an object",
            ),
        ];
        for (what, frame, want) in cases {
            match check_client_objects(&frame) {
                Ok(()) => assert_eq!(want, "", "{what}"),
                Err(ShapeError(m)) => {
                    assert!(!want.is_empty() && m.starts_with(want), "{what}: {m}")
                }
            }
        }
    }

    #[test]
    fn a_request_id_is_found_in_a_frame_serde_refuses() {
        // {"type": "request", "id": 300, "op": {"op": 1.5}}
        let frame =
            hex("83 a474797065 a772657175657374 a26964 cd012c a26f70 81 a26f70 cb3ff8000000000000");
        assert_eq!(request_id(&frame), Some(300));
        assert_eq!(request_id(&hex("81 a26964 07")), Some(7));
        assert_eq!(
            request_id(&hex("81 a26964 a131")),
            None,
            "an id that is text"
        );
        assert_eq!(request_id(&hex("91 07")), None);
        assert_eq!(
            request_id(&hex("82 a26f70 c1 a26964 07")),
            None,
            "garbage before it"
        );
    }
}

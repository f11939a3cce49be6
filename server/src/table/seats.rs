//! Seats at a table: who they are, what rules seat they act as, and how a new one is named.

use std::collections::BTreeMap;

use tablehold_protocol::{Role, SeatInfo};
use tablehold_rules::{Seat, SeatId};

use crate::store::SeatRecord;

use super::load::role_of;

pub fn info(record: &SeatRecord) -> SeatInfo {
    SeatInfo {
        id: record.seat.clone(),
        name: record.name.clone(),
        role: role_of(&record.role).unwrap_or(Role::Spectator),
        revoked: record.revoked,
    }
}

/// The rules' view of a seat: the GM, a player, or a spectator.
pub fn rules_seat(info: &SeatInfo) -> Seat {
    match info.role {
        Role::Gm => Seat::Gm,
        Role::Player => Seat::Player(SeatId(info.id.clone())),
        Role::Spectator => Seat::Spectator(SeatId(info.id.clone())),
    }
}

/// The longest seat id made from a name, before any numbering suffix: ids are typed often.
const SEAT_ID_MAX: usize = 24;

/// A new seat's id, from its display name: lower-case ASCII letters, digits and dashes, made
/// unique with a number (`ines`, `ines-2`). Ids appear in commands (`revoke ines`,
/// `--seat ines`), so they must be easy to type on any keyboard: letters beyond ASCII are
/// folded to their closest ASCII spelling by `deunicode` ("Inés García" is `ines-garcia`,
/// "Łukasz" `lukasz`, "Straße" `strasse`, other scripts are transliterated), rather than
/// dropped, which would split a name into pieces (`in-s-garc-a`). What has no ASCII spelling
/// separates words like a space. A name left with nothing, or one that would be the GM's id,
/// becomes `seat`.
pub fn new_seat_id(name: &str, taken: &BTreeMap<String, SeatRecord>) -> String {
    let folded = deunicode::deunicode_with_tofu(name, "-");
    let mut base: String = folded
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect::<String>()
        .split('-')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    base.truncate(SEAT_ID_MAX);
    // Cut in the middle of a word pair, the id must not end with its dash.
    let trimmed = base.trim_end_matches('-').len();
    base.truncate(trimmed);
    if base.is_empty() || base == super::load::GM_SEAT {
        base = "seat".into();
    }
    if !taken.contains_key(&base) {
        return base;
    }
    (2..)
        .map(|n| format!("{base}-{n}"))
        .find(|id| !taken.contains_key(id))
        .unwrap_or(base)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seats(ids: &[&str]) -> BTreeMap<String, SeatRecord> {
        ids.iter()
            .map(|id| {
                let record = SeatRecord {
                    table: "t".into(),
                    seat: (*id).into(),
                    name: (*id).into(),
                    role: "player".into(),
                    token_hash: [0; 32],
                    revoked: false,
                };
                ((*id).to_owned(), record)
            })
            .collect()
    }

    #[test]
    fn names_fold_to_ascii_ids() {
        let none = seats(&[]);
        for (name, id) in [
            ("Ines", "ines"),
            ("Inés García", "ines-garcia"),
            ("  Zoë  O'Brien ", "zoe-o-brien"),
            ("Łukasz Żółć", "lukasz-zolc"),
            ("Straße", "strasse"),
            ("Ærøskøbing", "aeroskobing"),
            ("Çağla Şahin", "cagla-sahin"),
            ("Дмитрий", "dmitrii"),
            ("Ἀλέξανδρος", "alexandros"),
            ("rui_2", "rui-2"),
            ("GM", "seat"),
            ("", "seat"),
            ("!!!", "seat"),
            (
                "Maximiliane Wolkenstein-Rodeneck",
                "maximiliane-wolkenstein",
            ),
        ] {
            assert_eq!(new_seat_id(name, &none), id, "{name:?}");
        }
    }

    #[test]
    fn ids_never_collide() {
        let taken = seats(&["ines", "ines-2", "seat"]);
        assert_eq!(new_seat_id("Inés", &taken), "ines-3");
        assert_eq!(new_seat_id("INES", &seats(&["ines"])), "ines-2");
        assert_eq!(new_seat_id("gm", &taken), "seat-2");
        // A name that spells a numbered id still gets an id of its own.
        assert_eq!(new_seat_id("Ines 2", &taken), "ines-2-2");
    }
}

//! Sheets.

use super::*;

#[test]
fn generic_sheets_load_through_each_system() {
    let aune = combatant(
        "aune",
        Some("p1"),
        "players",
        Some(Cell::new(1, 2)),
        &[("guard", 15)],
        &[("vigor", 12)],
    );
    let json = serde_json::to_value(&aune).unwrap();
    assert_eq!(Vigor.sheet_from_json(&json), Ok(aune.clone()));
    let toml_text = toml::to_string(&aune).unwrap();
    assert_eq!(Vigor.sheet_from_toml(&toml_text), Ok(aune));
    // The same sheet lacks what mist and 10acity read.
    assert_eq!(
        Mist.sheet_from_json(&json),
        Err(SheetError::invalid("sheet.stats.evade", "is required"))
    );
    assert_eq!(
        Tenacity.sheet_from_toml(&toml_text),
        Err(SheetError::invalid("sheet.stats.awareness", "is required"))
    );
    assert!(matches!(
        Vigor.sheet_from_toml("id = 3"),
        Err(SheetError::Syntax(_))
    ));
}

#[test]
fn a_10acity_obstacle_needs_its_challenge_and_no_awareness() {
    let door = push_roster().pop().unwrap();
    assert_eq!(door.kind, Kind::Object);
    let text = toml::to_string(&door).unwrap();
    assert_eq!(Tenacity.sheet_from_toml(&text), Ok(door.clone()));
    let mut bare = door;
    bare.sheet = Sheet::generic(BTreeMap::new());
    assert_eq!(
        Tenacity.sheet_from_toml(&toml::to_string(&bare).unwrap()),
        Err(SheetError::invalid("sheet.stats.challenge", "is required"))
    );
}

//! What every system's sheet does the same way: read from TOML or JSON, checked against its
//! system's limits, and brought to the table as a combatant with the identity fields every
//! sheet opens with. A system's sheet module then holds only its own fields and limits.

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;

use crate::ids::{EntityId, SeatId};
use crate::sheet::{Sheet, SheetError};
use crate::state::{Combatant, Kind, Status};

/// A system's typed sheet.
pub trait SystemSheet: DeserializeOwned {
    /// Every limit of the system the sheet must respect; the error names the field and rule.
    fn validate(&self) -> Result<(), SheetError>;
    /// The combatant the sheet brings, once valid.
    fn into_combatant(self) -> Result<Combatant, SheetError>;
}

/// A sheet of type `T` from its TOML text, validated.
pub fn from_toml<T: SystemSheet>(text: &str) -> Result<Combatant, SheetError> {
    let sheet: T = toml::from_str(text).map_err(|e| SheetError::Syntax(e.to_string()))?;
    sheet.validate()?;
    sheet.into_combatant()
}

/// A sheet of type `T` from JSON (the protocol's form), validated.
pub fn from_json<T: SystemSheet>(value: &serde_json::Value) -> Result<Combatant, SheetError> {
    let sheet: T =
        serde_json::from_value(value.clone()).map_err(|e| SheetError::Syntax(e.to_string()))?;
    sheet.validate()?;
    sheet.into_combatant()
}

/// Who a sheet says its combatant is: the fields every system's sheet opens with.
pub struct Identity {
    pub id: String,
    pub name: String,
    pub kind: Kind,
    pub owner: Option<String>,
    /// `None`: the side of its kind, `players` for a PC and `enemies` for anything else.
    pub side: Option<String>,
}

impl Identity {
    /// The combatant as it arrives: off the map, with no turn counters yet.
    pub fn arrive(
        self,
        sheet: Sheet,
        resources: BTreeMap<String, i64>,
        statuses: BTreeMap<String, Status>,
    ) -> Combatant {
        let side = self.side.unwrap_or_else(|| match self.kind {
            Kind::Pc => "players".into(),
            _ => "enemies".into(),
        });
        Combatant {
            id: EntityId(self.id),
            name: self.name,
            kind: self.kind,
            owner: self.owner.map(SeatId),
            side,
            position: None,
            resources,
            statuses,
            turn: BTreeMap::new(),
            sheet,
        }
    }
}

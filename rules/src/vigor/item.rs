//! Use Item: one action, one use of something carried. What it does is the GM's to rule (the
//! text lists no items); the server counts what is left.

use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::refusal::Refusal;
use crate::state::Combatant;

use super::round::spend;
use super::sheet::item_key;
use super::sheet_of;

pub fn use_item(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    let id = args
        .text("item")?
        .ok_or_else(|| Refusal::bad_argument("item", "is required"))?;
    let item = sheet_of(c)?
        .items
        .iter()
        .find(|i| i.id == id)
        .cloned()
        .ok_or_else(|| Refusal::UnknownName {
            system: super::ID.into(),
            what: format!("an item {} carries", c.id),
            name: id.to_owned(),
        })?;
    let key = item_key(&item.id);
    let left = c.resource(&key);
    if left < 1 {
        return Err(Refusal::InsufficientResource {
            resource: item.name.clone(),
            needed: 1,
            available: left,
        }
        .into());
    }
    spend(ctx, c, 1)?;
    ctx.set_resource(&c.id, &key, left - 1)?;
    ctx.note_about(
        &c.id,
        format!(
            "{} uses {} ({} left); the GM rules what it does",
            c.id,
            item.name,
            left - 1
        ),
    )
}

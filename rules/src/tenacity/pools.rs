//! Shared impact pools: every succeeding character of an exploration, a cooperation, a
//! crafting project or a timed task adds its impact to one named pool. The narrator spends an
//! exploration's pool on the options it offers; a task is done once its pool passes the
//! requirement (or reaches it, by table option).

use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::refusal::Refusal;
use crate::state::StateView;

use super::check::Pending;
use super::{options, rules};

fn pool_key(name: &str) -> String {
    format!("pool.{name}")
}
fn task_key(name: &str) -> String {
    format!("task.{name}")
}

/// A success adds its impact to the pool, and says when a task it serves is done.
pub fn add(ctx: &mut Ctx<'_>, p: &Pending, amount: i64) -> Result<(), DecideError> {
    let name = p.shared_pool.clone().unwrap_or_default();
    let values = &ctx.state.encounter().values;
    let now = values.get(&pool_key(&name)).copied().unwrap_or(0) + amount;
    let requirement = values.get(&task_key(&name)).copied();
    ctx.set_encounter_value(&pool_key(&name), now)?;
    ctx.note_about(
        &p.actor,
        format!("{} adds {amount} to {name}: {now}", p.actor),
    )?;
    if let Some(r) = requirement
        && rules::task_done(now, r, options::task_over(ctx.state.options()))
    {
        ctx.note_about(&p.actor, format!("{name} is done ({now} of {r})"))?;
    }
    Ok(())
}

/// The narrator spends `cost` from the pool on an option; refused if the pool is short.
pub fn spend(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    let name = args.require_text("pool")?.to_owned();
    let cost = args.require_int("cost")?;
    let have = ctx
        .state
        .encounter()
        .values
        .get(&pool_key(&name))
        .copied()
        .unwrap_or(0);
    let left = rules::spend_pool(have, &[cost]).ok_or(Refusal::InsufficientResource {
        resource: format!("impact in {name}"),
        needed: cost,
        available: have,
    })?;
    ctx.set_encounter_value(&pool_key(&name), left)
}

/// Sets the impact a task's pool needs.
pub fn task(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    let name = args.require_text("pool")?.to_owned();
    let r = args.require_int("requirement")?;
    ctx.set_encounter_value(&task_key(&name), r)
}

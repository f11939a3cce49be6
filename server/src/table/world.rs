//! A table's state as a bevy `World`: one entity per combatant, the encounter and the options
//! as resources, and a domain-id index. It implements the rules' `StateView` and `StateMut`, so
//! the rules' `apply` writes it directly and nothing else needs to know it is an ECS.
//!
//! Only the table task owns a `TableWorld` (invariant 1); nothing here is `Sync`-shared.

use std::collections::BTreeMap;

use bevy_ecs::prelude::{Component, Entity, Resource, World};
use tablehold_rules::options::TableOptions;
use tablehold_rules::{Combatant, Encounter, EntityId, StateMut, StateView};

/// A combatant's data. One component today: the rules read a combatant as a whole, and the
/// server has no per-field systems yet that would gain from splitting it.
#[derive(Component)]
struct Body(Combatant);

#[derive(Resource, Default)]
struct Index(BTreeMap<EntityId, Entity>);

#[derive(Resource, Default)]
struct EncounterRes(Encounter);

#[derive(Resource, Default)]
struct OptionsRes(TableOptions);

pub struct TableWorld {
    world: World,
}

impl TableWorld {
    pub fn new(options: TableOptions) -> Self {
        let mut world = World::new();
        world.insert_resource(Index::default());
        world.insert_resource(EncounterRes::default());
        world.insert_resource(OptionsRes(options));
        TableWorld { world }
    }

    fn index(&self) -> &BTreeMap<EntityId, Entity> {
        // The resource is inserted in `new` and never removed.
        static EMPTY: BTreeMap<EntityId, Entity> = BTreeMap::new();
        self.world
            .get_resource::<Index>()
            .map(|i| &i.0)
            .unwrap_or(&EMPTY)
    }
}

impl StateView for TableWorld {
    fn options(&self) -> &TableOptions {
        static DEFAULT: std::sync::OnceLock<TableOptions> = std::sync::OnceLock::new();
        self.world
            .get_resource::<OptionsRes>()
            .map(|o| &o.0)
            .unwrap_or_else(|| DEFAULT.get_or_init(TableOptions::default))
    }

    fn combatant(&self, id: &EntityId) -> Option<&Combatant> {
        let entity = *self.index().get(id)?;
        self.world.get::<Body>(entity).map(|b| &b.0)
    }

    fn combatant_ids(&self) -> Vec<EntityId> {
        self.index().keys().cloned().collect()
    }

    fn encounter(&self) -> &Encounter {
        static DEFAULT: std::sync::OnceLock<Encounter> = std::sync::OnceLock::new();
        self.world
            .get_resource::<EncounterRes>()
            .map(|e| &e.0)
            .unwrap_or_else(|| DEFAULT.get_or_init(Encounter::default))
    }
}

impl StateMut for TableWorld {
    fn insert_combatant(&mut self, combatant: Combatant) {
        let id = combatant.id.clone();
        if let Some(&entity) = self.index().get(&id)
            && let Some(mut body) = self.world.get_mut::<Body>(entity)
        {
            body.0 = combatant;
            return;
        }
        let entity = self.world.spawn(Body(combatant)).id();
        if let Some(mut index) = self.world.get_resource_mut::<Index>() {
            index.0.insert(id, entity);
        }
    }

    fn remove_combatant(&mut self, id: &EntityId) -> Option<Combatant> {
        let entity = self.world.get_resource_mut::<Index>()?.0.remove(id)?;
        let mut e = self.world.get_entity_mut(entity).ok()?;
        let body = e.take::<Body>();
        e.despawn();
        body.map(|b| b.0)
    }

    fn combatant_mut(&mut self, id: &EntityId) -> Option<&mut Combatant> {
        let entity = *self.index().get(id)?;
        self.world
            .get_mut::<Body>(entity)
            .map(|b| &mut b.into_inner().0)
    }

    fn encounter_mut(&mut self) -> &mut Encounter {
        if self.world.get_resource::<EncounterRes>().is_none() {
            self.world.insert_resource(EncounterRes::default());
        }
        &mut self.world.resource_mut::<EncounterRes>().into_inner().0
    }
}

//! A table's state as a bevy `World`: one entity per combatant, the encounter and the options
//! as resources, and a domain-id index. It implements the rules' `StateView` and `StateMut`, so
//! the rules' `apply` writes it directly and nothing else needs to know it is an ECS.
//!
//! Only the table task owns a `TableWorld` (invariant 1); nothing here is `Sync`-shared.

use std::collections::BTreeMap;

use bevy_ecs::prelude::{Component, Entity, Resource, World};
use tablehold_rules::options::TableOptions;
use tablehold_rules::{Combatant, Encounter, EntityId, MemoryState, StateMut, StateView};

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

    /// The state as a plain value, for a snapshot.
    pub fn to_memory(&self) -> MemoryState {
        MemoryState {
            options: self.options().clone(),
            combatants: self
                .index()
                .keys()
                .filter_map(|id| Some((id.clone(), self.combatant(id)?.clone())))
                .collect(),
            encounter: self.encounter().clone(),
        }
    }

    /// A world holding `state`, under `options` (the table's, not the snapshot's).
    pub fn from_memory(state: MemoryState, options: TableOptions) -> Self {
        let mut world = TableWorld::new(options);
        for combatant in state.combatants.into_values() {
            world.insert_combatant(combatant);
        }
        *world.encounter_mut() = state.encounter;
        world
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

#[cfg(test)]
pub(crate) mod tests {
    use proptest::prelude::*;
    use tablehold_rules::dice::CounterStream;
    use tablehold_rules::digest::current as digest_now;
    use tablehold_rules::options::TableOptions;
    use tablehold_rules::{ArgValue, Args, Command, MemoryState, Seat, apply, decide};
    use tablehold_systems::SystemId;

    use super::*;

    const PC: &str = "id = \"p\"\nname = \"P\"\nkind = \"pc\"\nowner = \"p\"\nlevel = 1\ncondition_max = 12\nfocus_max = 6\nattributes = { TOG = 2, AGL = 1, COR = 3, MND = 0, PER = 2, RSN = 0 }\n[[weapons]]\nid = \"knife\"\nname = \"Knife\"\nclass = \"light\"\ndamage = \"1d4\"\ndamage_type = \"edged\"\n";
    pub(crate) const NPC: &str = "id = \"n\"\nname = \"N\"\nkind = \"npc\"\nlevel = 1\ncondition_max = 9\nfocus_max = 0\nattributes = { TOG = 1, AGL = 0, COR = 2, MND = 0, PER = 1, RSN = 0 }\n[[weapons]]\nid = \"club\"\nname = \"Club\"\nclass = \"light\"\ndamage = \"1d6\"\ndamage_type = \"blunt\"\n[npc]\ndefence_tn = 11\nattack_tn = 12\n";

    /// The commands of a small fight, picked by index; many are refused at a given moment,
    /// which is part of the point.
    fn command(i: u8) -> Command {
        let text = |s: &str| ArgValue::Text(s.to_owned());
        let attack = |target: &str, weapon: &str| {
            Args::default()
                .with("target", text(target))
                .with("weapon", text(weapon))
        };
        match i % 6 {
            0 => Command::act(
                Seat::Player("p".into()),
                Some("p"),
                "attack",
                attack("n", "knife"),
            ),
            1 => Command::act(Seat::Gm, Some("n"), "attack", attack("p", "club")),
            2 => Command::act(
                Seat::Player("p".into()),
                Some("p"),
                "end_turn",
                Args::default(),
            ),
            3 => Command::act(Seat::Gm, Some("n"), "end_turn", Args::default()),
            4 => Command::time_out(0),
            _ => Command::act(Seat::Gm, None, "start_encounter", Args::default()),
        }
    }

    /// The shapes the coming systems need (windows each seat answers, GM-only window data,
    /// typed answers, group turns and held actions, the spotlight, triggers), as the rules'
    /// interface tests log them (`tests/fixtures/shapes`): the `World` applies every event as
    /// the in-memory state does, digest for digest after each, and so does each seat's view.
    #[test]
    fn the_world_follows_every_shape_as_the_memory_state_does() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/shapes");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .expect("the shapes' logs")
            .map(|e| e.expect("entry").path())
            .collect();
        files.sort();
        assert!(files.len() >= 7, "{files:?}");
        let seats = [
            Seat::Player("p1".into()),
            Seat::Player("p2".into()),
            Seat::Player("p3".into()),
            Seat::Spectator("s1".into()),
        ];
        for path in files {
            let text = std::fs::read_to_string(&path).expect("read");
            let mut memory = MemoryState::new(TableOptions::default());
            let mut world = TableWorld::new(TableOptions::default());
            let mut seen: Vec<(MemoryState, TableWorld)> = seats
                .iter()
                .map(|_| {
                    (
                        MemoryState::new(TableOptions::default()),
                        TableWorld::new(TableOptions::default()),
                    )
                })
                .collect();
            for (n, line) in text.lines().enumerate() {
                let event: tablehold_rules::Event = serde_json::from_str(line).expect("an event");
                apply(&mut memory, &event).expect("memory");
                apply(&mut world, &event).expect("world");
                assert_eq!(
                    digest_now(&memory),
                    digest_now(&world),
                    "{}: event {n}",
                    path.display()
                );
                for (seat, (m, w)) in seats.iter().zip(&mut seen) {
                    if let Some(view) = event.view(seat) {
                        tablehold_rules::apply_seen(m, view.facts());
                        tablehold_rules::apply_seen(w, view.facts());
                    }
                    assert_eq!(
                        digest_now(m),
                        digest_now(w),
                        "{}: event {n}, {seat}",
                        path.display()
                    );
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Every event applied to the bevy `World` and to the rules' in-memory state gives the
        /// same `DigestV1` after each event: `apply` is the same through both stores.
        #[test]
        fn the_world_and_the_memory_state_agree_after_every_event(
            key in any::<[u8; 32]>(),
            picks in prop::collection::vec(any::<u8>(), 1..40),
        ) {
            let system = SystemId::Grimwire.system();
            let options = TableOptions::resolve(&system.options(), &Default::default()).expect("defaults");
            let mut memory = MemoryState::new(options.clone());
            let mut world = TableWorld::new(options);
            for sheet in [PC, NPC] {
                let c = system.sheet_from_toml(sheet).expect("sheet");
                memory.insert_combatant(c.clone());
                world.insert_combatant(c);
            }
            prop_assert_eq!(digest_now(&memory), digest_now(&world));
            let mut dice = CounterStream::new(key, 1);
            for pick in picks {
                let mut cmd = command(pick);
                if let tablehold_rules::CommandBody::TimeOut { prompt_id } = &mut cmd.body {
                    *prompt_id = memory.encounter.pending.last().map(|p| p.prompt_id).unwrap_or(0);
                }
                let Ok(events) = decide(system, &memory, &cmd, &mut dice) else { continue };
                for e in &events {
                    apply(&mut memory, e).expect("memory");
                    apply(&mut world, e).expect("world");
                    prop_assert_eq!(digest_now(&memory), digest_now(&world));
                }
            }
        }
    }
}

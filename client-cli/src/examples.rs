//! The example sheets a shipped system carries (docs/examples/ID/, embedded in the binary by
//! the systems registry, `SystemId::examples`), as the client uses them: example content to
//! try a system with, not part of its rules. `tablehold demo` seats the example characters,
//! and an encounter file names an example NPC by its name (`monster = "NAME"`, the file's
//! name without `.toml`). The one place the client reads them, so the two never disagree.

use tablehold_systems::SystemId;

/// One shipped example sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Example {
    /// The file's name without `.toml`: what an encounter file calls it.
    pub name: &'static str,
    /// The file's name, `NAME.toml`.
    pub file: &'static str,
    /// The sheet, TOML.
    pub text: &'static str,
    /// A player character (`kind = "pc"`), not an NPC.
    pub pc: bool,
}

/// Every example sheet of `system`, in the registry's order.
pub fn all(system: SystemId) -> Vec<Example> {
    system
        .examples()
        .iter()
        .map(|(file, text)| Example {
            name: file.strip_suffix(".toml").unwrap_or(file),
            file,
            text,
            pc: text
                .parse::<toml::Table>()
                .ok()
                .and_then(|doc| doc.get("kind").and_then(|k| k.as_str()).map(|k| k == "pc"))
                .unwrap_or(false),
        })
        .collect()
}

/// The example NPC `name` of `system`; else what it is not, with the names there are.
pub fn npc(system: SystemId, name: &str) -> Result<Example, String> {
    let all = all(system);
    let npcs: Vec<&str> = all.iter().filter(|e| !e.pc).map(|e| e.name).collect();
    match all.iter().find(|e| e.name == name) {
        Some(e) if !e.pc => Ok(*e),
        Some(_) => Err(format!(
            "`{name}` is an example player character of {system}, not an NPC; its example \
             NPCs: {}",
            npcs.join(", ")
        )),
        None => Err(format!(
            "{system} ships no example NPC `{name}`; its example NPCs: {}",
            npcs.join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Every system ships example NPCs an encounter file can name, each found by its name,
    // and a player character is not one of them.
    #[test]
    fn each_systems_example_npcs_are_found_by_name_and_its_characters_are_not() {
        for system in SystemId::ALL {
            let all = all(system);
            let npcs: Vec<&Example> = all.iter().filter(|e| !e.pc).collect();
            assert!(!npcs.is_empty(), "{system} ships no example NPC");
            for e in &npcs {
                assert_eq!(npc(system, e.name), Ok(**e));
            }
            let pc = all.iter().find(|e| e.pc).expect("an example character");
            let refused = npc(system, pc.name).expect_err("a character is not an NPC");
            assert!(refused.contains("not an NPC"), "{refused}");
            let unknown = npc(system, "nobody").expect_err("no such NPC");
            assert!(unknown.ends_with(&npcs.iter().map(|e| e.name).collect::<Vec<_>>().join(", ")));
        }
    }
}

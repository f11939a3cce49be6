//! Where a rule system may be named. The rules crate's core reaches systems only through the
//! `RuleSystem` trait, and the crates that serve, store, carry and show tables reach them only
//! through this registry, by an id read at run time. These tests read the source to hold that:
//! a new import or a system's name in generic code fails them.

use std::fs;
use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text of `source` before its comments start on each line.
fn code_lines(source: &str) -> impl Iterator<Item = (usize, &str)> {
    source
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.split("//").next().unwrap_or("")))
}

/// The modules of the rules crate that are systems: a folder under `rules/src` whose files
/// implement `RuleSystem` outside their tests (the core's own tests may define a system to
/// test against, as the toolkit's do).
fn system_modules(src: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let Ok(entries) = fs::read_dir(src) else {
        return found;
    };
    for entry in entries.filter_map(Result::ok) {
        let dir = entry.path();
        if !dir.is_dir() {
            continue;
        }
        let mut files = Vec::new();
        rust_files(&dir, &mut files);
        if files.iter().any(|f| {
            let text = read(f);
            // An inline test module comes last in its file.
            let code = text.split("#[cfg(test)]\nmod tests {").next().unwrap_or("");
            code.contains("impl RuleSystem for")
        }) && let Some(name) = dir.file_name().and_then(|n| n.to_str())
        {
            found.push(name.to_owned());
        }
    }
    found.sort();
    found
}

#[test]
fn no_file_of_the_rules_core_imports_a_system_module() {
    let src = workspace().join("rules/src");
    let systems = system_modules(&src);
    assert!(
        systems.iter().any(|s| s == "grimwire"),
        "the scan finds the shipped system: {systems:?}"
    );
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut found = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap_or(file);
        for system in &systems {
            if rel.starts_with(system) {
                continue;
            }
            let source = read(file);
            for (n, code) in code_lines(&source) {
                if code.contains(&format!("{system}::")) {
                    found.push(format!("rules/src/{}:{n}: {}", rel.display(), code.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "the core imports a system:\n{}",
        found.join("\n")
    );
}

/// Files compiled only for tests: `#[cfg(test)] mod name;` declares one.
fn test_only_modules(file: &Path, source: &str) -> Vec<PathBuf> {
    let dir = file.parent().unwrap_or(Path::new("."));
    let lines: Vec<&str> = source.lines().map(str::trim).collect();
    lines
        .windows(2)
        .filter(|w| w[0] == "#[cfg(test)]")
        .filter_map(|w| {
            let name = w[1]
                .trim_start_matches("pub ")
                .trim_start_matches("pub(crate) ")
                .strip_prefix("mod ")?
                .strip_suffix(';')?;
            Some([
                dir.join(format!("{name}.rs")),
                dir.join(name).join("mod.rs"),
            ])
        })
        .flatten()
        .collect()
}

/// `source` without the items marked `#[cfg(test)]` (a test module, a test-only function).
fn without_test_items(source: &str) -> String {
    let mut kept = String::new();
    let mut lines = source.lines();
    while let Some(line) = lines.next() {
        if line.trim() != "#[cfg(test)]" {
            kept.push_str(line);
            kept.push('\n');
            continue;
        }
        // Skip the item that follows: up to its `;` if it has no body, else to its closing brace.
        let mut depth = 0i64;
        let mut opened = false;
        for item in lines.by_ref() {
            for c in item.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if (opened && depth <= 0) || (!opened && item.trim_end().ends_with(';')) {
                break;
            }
        }
    }
    kept
}

fn names_a_system(code: &str, spellings: &[&str]) -> Option<String> {
    let lower = code.to_lowercase();
    spellings.iter().find_map(|word| {
        lower.match_indices(word).find_map(|(at, _)| {
            let before = lower[..at].chars().next_back();
            let after = lower[at + word.len()..].chars().next();
            let edge = |c: Option<char>| !c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            (edge(before) && edge(after)).then(|| (*word).to_owned())
        })
    })
}

#[test]
fn the_crates_that_serve_store_carry_and_show_tables_name_no_system() {
    let spellings = tablehold_systems::spellings();
    // The word test itself: a word is a system's name only on its own.
    assert_eq!(names_a_system("a mistake", &spellings), None);
    assert_eq!(names_a_system("x.mist_cap", &spellings), None);
    assert_eq!(
        names_a_system("\"mist\".into()", &spellings).as_deref(),
        Some("mist")
    );
    assert_eq!(
        names_a_system("GRIMWIRE's TN", &spellings).as_deref(),
        Some("grimwire")
    );

    let root = workspace();
    let mut found = Vec::new();
    let mut scanned = 0;
    for krate in ["server", "client-cli", "protocol", "log"] {
        let src = root.join(krate).join("src");
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        let mut skip: Vec<PathBuf> = Vec::new();
        for file in &files {
            skip.extend(test_only_modules(file, &read(file)));
        }
        for file in &files {
            let is_tests = file.file_name().is_some_and(|n| n == "tests.rs")
                || file.components().any(|c| c.as_os_str() == "tests");
            if is_tests || skip.contains(file) {
                continue;
            }
            scanned += 1;
            let source = without_test_items(&read(file));
            for (n, line) in source.lines().enumerate() {
                if let Some(word) = names_a_system(line, &spellings) {
                    let rel = file.strip_prefix(&root).unwrap_or(file);
                    found.push(format!(
                        "{}:{}: `{word}` in {}",
                        rel.display(),
                        n + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(
        scanned > 40,
        "the scan reads the crates' sources ({scanned} files)"
    );
    assert!(
        found.is_empty(),
        "generic code names a system:\n{}",
        found.join("\n")
    );
}

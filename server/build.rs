//! Fingerprints the source of everything a table snapshot holds (the rules' state types, the
//! table's epochs, audiences and world, the log's view keys) and the locked dependencies that
//! serialize it. A snapshot records the fingerprint of the build that wrote it and is read only
//! by a build with the same one: any change to that code, even one that still deserializes,
//! sends tables back to a full replay once instead of restoring a state the new code might
//! not have built.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

const SOURCES: [&str; 5] = [
    "../rules/src",
    "../log/src",
    "src/table",
    "../Cargo.lock",
    "Cargo.toml",
];

fn files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        if let Ok(entries) = std::fs::read_dir(path) {
            for entry in entries.flatten() {
                files(&entry.path(), out);
            }
        }
    } else if path.is_file() {
        out.push(path.to_owned());
    }
}

fn main() {
    let mut all = Vec::new();
    for source in SOURCES {
        println!("cargo:rerun-if-changed={source}");
        files(Path::new(source), &mut all);
    }
    all.sort();
    let mut hash = Sha256::new();
    for file in &all {
        hash.update(file.to_string_lossy().as_bytes());
        hash.update([0]);
        hash.update(std::fs::read(file).unwrap_or_default());
        hash.update([0]);
    }
    let digest = hash.finalize();
    let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    println!("cargo:rustc-env=TABLEHOLD_STATE_FINGERPRINT={hex}");
}

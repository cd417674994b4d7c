//! Checks XML files: every `.xml` file under the given files and folders is parsed (DTDs allowed),
//! each bad one is reported with its error, and the exit code is 1 when any file is bad.
//!
//! Usage: cargo run --example xmlcheck -- PATH...

use std::fs;
use std::path::{Path, PathBuf};
use std::process;

/// Collects the `.xml` files under `path`, in name order (read_dir's order depends on the file system).
fn xml_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = match fs::read_dir(path) {
            Ok(dir) => dir.filter_map(|e| e.ok()).map(|e| e.path()).collect(),
            Err(e) => {
                eprintln!("{}: {}", path.display(), e);
                return;
            }
        };
        entries.sort();
        for entry in entries {
            xml_files(&entry, out);
        }
    } else if path.extension().map_or(false, |e| e == "xml") {
        out.push(path.to_path_buf());
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        eprintln!("usage: xmlcheck PATH...");
        process::exit(2);
    }

    let mut files = Vec::new();
    for arg in &args {
        xml_files(Path::new(arg), &mut files);
    }

    let opt = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    let mut parsed = Vec::new();
    let mut bad = 0;
    for file in &files {
        let text = match fs::read_to_string(file) {
            Ok(text) => text,
            Err(e) => {
                println!("{}: {}", file.display(), e);
                bad += 1;
                continue;
            }
        };
        match roxmltree::Document::parse_with_options(&text, opt) {
            Ok(doc) => parsed.push((file, doc)),
            Err(e) => {
                println!("{}: {}", file.display(), e);
                bad += 1;
            }
        }
    }

    for (file, doc) in &parsed {
        let elements = doc.descendants().filter(|n| n.is_element()).count();
        println!("{}: ok, {} elements", file.display(), elements);
    }
    println!("{} files checked, {} with errors", files.len(), bad);
    process::exit(if bad > 0 { 1 } else { 0 });
}

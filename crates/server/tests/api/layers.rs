//! The server's modules are layered one way: each names only modules on floors
//! below its own, read from its source. `routes` (and the other handlers) call
//! `sessions` and `jobs`, which call `thinking`; nothing calls back up.

use std::collections::BTreeSet;
use std::path::Path;

/// Every module of `crates/server/src` and its floor; the crate root
/// (`lib.rs`) stands above them all. A new module must be given its floor here.
const FLOORS: &[(&str, u32)] = &[
    ("error", 0),
    ("memory", 0),
    ("compression", 0),
    ("own_answers", 0),
    ("request_body", 0),
    ("limits", 1),
    ("settings", 1),
    ("connections", 1),
    ("thinking", 2),
    ("sessions", 3),
    ("jobs", 3),
    ("routes", 4),
    ("game_assets", 4),
    ("web", 4),
    ("guard", 4),
];

/// The lowest floor whose modules may name the shared state of the handlers
/// (`crate::AppState`, which holds the sessions, the jobs and the pools).
const STATE_FLOOR: u32 = 3;

fn floor(module: &str) -> Option<u32> {
    FLOORS.iter().find(|(m, _)| *m == module).map(|(_, f)| *f)
}

/// The names right after each `crate::` of `code` (each name of a
/// `crate::{a, b::c}` group), outside comments and the file's test module.
/// `super::` in a module's own file (`top_level`) is the crate root too.
fn names_from_root(code: &str, top_level: bool) -> BTreeSet<String> {
    let mut text = String::new();
    for line in code.lines() {
        let line = line.trim_start();
        if line.starts_with("#[cfg(test)]") {
            break;
        }
        if !line.starts_with("//") {
            text.push_str(line);
            text.push('\n');
        }
    }
    if top_level {
        text = text.replace("super::", "crate::");
    }
    let mut names = BTreeSet::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        let body = match rest.strip_prefix('{') {
            Some(group) => &group[..group.find('}').unwrap_or(group.len())],
            None => rest,
        };
        let first_only = !rest.starts_with('{');
        for item in body.split(',') {
            let name: String = item
                .trim()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                names.insert(name);
            }
            if first_only {
                break;
            }
        }
    }
    names
}

/// What a module names against the floors, in words (empty: nothing wrong).
fn faults(module: &str, names: &BTreeSet<String>) -> Vec<String> {
    let Some(own) = floor(module) else {
        return vec![format!("the module {module} has no floor in FLOORS")];
    };
    let mut out = Vec::new();
    for name in names {
        if name == "routes" {
            out.push(format!(
                "{module} names crate::routes (only the crate root may)"
            ));
        } else if let Some(theirs) = floor(name) {
            if theirs >= own {
                out.push(format!(
                    "{module} (floor {own}) names {name} (floor {theirs}): not below it"
                ));
            }
        } else if name == "AppState" && own < STATE_FLOOR {
            out.push(format!(
                "{module} (floor {own}) names the handlers' AppState (floor {STATE_FLOOR} and up)"
            ));
        }
    }
    out
}

#[test]
fn no_module_names_one_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    let mut edges = BTreeSet::new();
    let mut dirs = vec![src.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().and_then(|e| e.to_str()) != Some("rs") {
                continue;
            }
            let relative = path.strip_prefix(&src).unwrap();
            let top_level = relative.components().count() == 1;
            let module = relative
                .components()
                .next()
                .unwrap()
                .as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string();
            if module == "lib" {
                continue;
            }
            seen.insert(module.clone());
            let names = names_from_root(&std::fs::read_to_string(&path).unwrap(), top_level);
            for name in &names {
                edges.insert((module.clone(), name.clone()));
            }
            problems.extend(faults(&module, &names));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The reading found the imports every layer makes (it is not blind).
    for (from, to) in [
        ("routes", "thinking"),
        ("sessions", "thinking"),
        ("jobs", "thinking"),
    ] {
        assert!(
            edges.contains(&(from.to_string(), to.to_string())),
            "{from} -> {to} not found in {edges:?}"
        );
    }
    for (module, _) in FLOORS {
        assert!(seen.contains(*module), "{module} in FLOORS has no file");
    }
}

#[test]
fn a_call_back_up_is_found() {
    let names = names_from_root(
        "use crate::error::ApiError;\nuse crate::{routes::blocking, AppState};\n\
         // crate::jobs in a comment\nfn f() { crate::sessions::x(); }\n\
         #[cfg(test)]\nmod tests { use crate::routes; }\n",
        true,
    );
    let expected: BTreeSet<String> = ["error", "routes", "AppState", "sessions"]
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(names, expected);
    let found = faults("thinking", &names);
    assert_eq!(found.len(), 3, "{found:?}");
    assert!(found.iter().any(|f| f.contains("AppState")));
    assert!(found.iter().any(|f| f.contains("crate::routes")));
    assert!(found.iter().any(|f| f.contains("sessions (floor 3)")));
    assert!(
        !names_from_root("use super::Thing;\n", false).contains("Thing"),
        "super:: inside a module's folder is the module itself"
    );
    assert!(names_from_root("use super::routes;\n", true).contains("routes"));
}

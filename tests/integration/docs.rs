//! The project's documents stand on their own: someone who clones the repository can
//! follow every one of them. They cite the original works by title and author
//! (docs/SOURCES.md), never by files outside the repository, every relative link leads
//! to a file (and heading) that exists, and every game crate holds its own two pages.

use std::path::{Path, PathBuf};

/// The repository's root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The Markdown files of README.md, docs/ and every crate's docs/ folder.
fn documents() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    let mut markdown_in = |dir: &Path| {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    };
    markdown_in(&root().join("docs"));
    for krate in crate_dirs() {
        markdown_in(&krate.join("docs"));
    }
    files.sort();
    files
}

/// Every crate's folder: the shared crates under crates/, the games under crates/games/.
fn crate_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = ["crates", "crates/games"]
        .iter()
        .flat_map(|folder| std::fs::read_dir(root().join(folder)).unwrap().flatten())
        .map(|e| e.path())
        .filter(|p| p.join("Cargo.toml").exists())
        .collect();
    dirs.sort();
    dirs
}

/// A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown file's headings (lines in code blocks are not headings).
fn anchors(text: &str) -> Vec<String> {
    let mut in_code = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            out.push(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

/// The targets of the inline links `[text](target)` of a Markdown text.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        if let Some(end) = rest.find(')') {
            let target = &rest[..end];
            if !target.contains(char::is_whitespace) {
                out.push(target.to_string());
            }
        }
    }
    out
}

#[test]
fn documents_cite_works_by_title_never_by_outside_files() {
    let mut problems = Vec::new();
    for file in documents() {
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            let numbered_seed = (0..10).any(|d| lower.contains(&format!("seed 00{d}")));
            if numbered_seed || lower.contains("../shared") || lower.contains("shared/seeds") {
                problems.push(format!("{}:{}: {line}", file.display(), n + 1));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "documents point outside the repository:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_relative_link_leads_to_a_file_and_heading_that_exist() {
    let mut problems = Vec::new();
    for file in documents() {
        let text = std::fs::read_to_string(&file).unwrap();
        for target in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, heading) = target.split_once('#').unwrap_or((&target, ""));
            let linked = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            if !linked.exists() {
                problems.push(format!("{}: {target}: no such file", file.display()));
                continue;
            }
            if !heading.is_empty() {
                let linked_text = std::fs::read_to_string(&linked).unwrap_or_default();
                if !anchors(&linked_text).iter().any(|a| a == heading) {
                    problems.push(format!("{}: {target}: no such heading", file.display()));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_game_crate_holds_its_rules_page_and_its_programmers_page() {
    let mut games = 0;
    for krate in crate_dirs()
        .into_iter()
        .filter(|k| k.starts_with(root().join("crates/games")))
    {
        let name = krate.file_name().unwrap().to_str().unwrap().to_string();
        games += 1;
        for page in [
            krate.join("docs/rules.md"),
            krate.join(format!("docs/{name}.md")),
        ] {
            let text = std::fs::read_to_string(&page)
                .unwrap_or_else(|e| panic!("{}: {e}", page.display()));
            assert!(text.starts_with("# "), "{} has no title", page.display());
        }
    }
    assert!(games >= 9, "only {games} game crates found");
    assert!(!root().join("docs/rules").exists() && !root().join("docs/games").exists());
}

#[test]
fn anchors_follow_github() {
    assert_eq!(
        anchor(" Stenger's \"Associative Arrays\""),
        "stengers-associative-arrays"
    );
    assert_eq!(anchor("The 2006 blog"), "the-2006-blog");
    assert_eq!(
        links("see [a](b.md#c) and [d](http://e)"),
        ["b.md#c", "http://e"]
    );
}

/// The repository paths a Markdown text quotes in backticks (`crates/x/src/y.rs`,
/// `docs/JSON.md:12`, `scripts/test --slow`), without line numbers or arguments.
/// Only quotes that start at one of the repository's top folders are paths.
fn quoted_paths(text: &str) -> Vec<String> {
    const TOP: [&str; 10] = [
        "crates/",
        "docs/",
        "tests/",
        "src/",
        "scripts/",
        "examples/",
        "web/",
        "python/",
        ".ci/",
        "benches/",
    ];
    let mut out = Vec::new();
    for (i, quote) in text.split('`').enumerate() {
        // Odd pieces are inside backticks.
        if i % 2 == 0 || !TOP.iter().any(|top| quote.starts_with(top)) {
            continue;
        }
        let path = quote.split_whitespace().next().unwrap_or("");
        let path = path.split([':', '#']).next().unwrap_or("");
        // `crates/games/NAME/docs/NAME.md` stands for every game's file.
        let placeholder = path.contains(['<', '>', '*', '{', '}', '$', '…', '[', '('])
            || path.split('/').any(|part| {
                let stem = part.split('.').next().unwrap_or("");
                !stem.is_empty() && stem.chars().all(|c| c.is_ascii_uppercase())
            });
        if path.is_empty() || placeholder || path.contains("...") {
            continue;
        }
        out.push(path.trim_end_matches(['.', ',']).to_string());
    }
    out
}

#[test]
fn every_path_quoted_in_backticks_exists() {
    let mut problems = Vec::new();
    for file in documents() {
        let text = std::fs::read_to_string(&file).unwrap();
        // A crate's pages may quote paths from the crate's folder, and the guide to
        // adding a game quotes one game crate's files that way.
        let crates = crate_dirs();
        // Folders the tests make (screenshots, corpora) are listed in .gitignore.
        let ignored: Vec<String> = std::fs::read_to_string(root().join(".gitignore"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.strip_prefix('/'))
            .map(|l| l.trim_end_matches('/').to_string())
            .collect();
        for path in quoted_paths(&text) {
            if ignored
                .iter()
                .any(|i| path.trim_end_matches('/').starts_with(i.as_str()))
            {
                continue;
            }
            let in_a_crate = crates.iter().any(|c| c.join(&path).exists());
            if !root().join(&path).exists() && !in_a_crate {
                problems.push(format!("{}: `{path}`: no such file", file.display()));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "documents quote paths that do not exist:\n{}",
        problems.join("\n")
    );
}

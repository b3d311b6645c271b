//! What the documentation names exists: every path, example, command and
//! link in `README.md`, `docs/*.md` and `adapters/*.md`.
//!
//! # The checks
//!
//! - **Paths** ([`path_errors`]): a word in inline code, in a code block or
//!   in a link that starts with one of the repository's top-level entries
//!   (`src/`, `crates/`, `tests/`, `docs/`, `adapters/`, `fuzz/`, `.ci/`,
//!   `.clusterfuzzlite/`, `README.md`, `Cargo.toml`, ...: whatever the
//!   repository's root holds, but `.git` and `target`) and looks like a path
//!   (it has a `/`, or is a top-level file) exists. Words are cut at spaces,
//!   quotes, brackets, `=`, `,` and `:` (so `exec:tests/impls/pyny.py` and
//!   `lib/punycode.c:427` name their files).
//! - **Examples and benches** ([`cargo_target_errors`]): every `cargo run
//!   ... --example NAME` and `cargo bench ... --bench NAME` names a file of
//!   the package it selects (`-p NAME`), or of a default member of the
//!   workspace without `-p`, as cargo looks for it.
//! - **Commands** ([`command_errors`]): every `punycheck SUBCOMMAND
//!   --flag ...` in a code block or in inline code (also written `cargo run
//!   --release -- ...` or `target/release/punycheck ...`) uses a subcommand
//!   that `punycheck SUBCOMMAND --help` knows, and flags that its help
//!   lists. The built binary is asked, once per subcommand.
//! - **Links** ([`link_errors`]): every relative link `[..](path#anchor)`
//!   resolves, from the file it is written in, to a file or directory, and
//!   an anchor to a heading of that file (GitHub's anchors: lowercase,
//!   punctuation dropped, spaces as `-`).
//!
//! # Placeholders
//!
//! A path may stand for a family of files: [`PLACEHOLDERS`] lists the
//! words that may, each standing for any name in its place, and the path
//! must still match at least one file (`adapters/gates/NAME.toml` does). A
//! path under `adapters/build/` is made by `adapters/install.sh`, not kept
//! in the repository: [`GENERATED`] names where each is made, and the
//! script must make it. Nothing else is excused, and no file is skipped.
//!
//! The tests at the end show that each check finds what it is for, on a
//! small text with one thing wrong.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The binary under test.
const BIN: &str = env!("CARGO_BIN_EXE_punycheck");

/// Words that stand for any name in a path, and what they are for. A path
/// with one is a pattern that must match at least one file.
const PLACEHOLDERS: &[(&str, &str)] = &[
    ("NAME", "one of a family: adapters/gates/NAME.toml"),
    ("*", "a glob: crates/punycheck/vectors/*.toml"),
];

/// Paths that a script makes and the repository does not hold: the prefix,
/// the script, and what the script must contain for the file after the
/// prefix (its first component replaces `{}`).
const GENERATED: &[(&str, &str, &str)] = &[("adapters/build/", "adapters/install.sh", "$build/{}")];

/// The project's root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The documents checked: `README.md`, `docs/*.md` and `adapters/*.md`,
/// each with its path from the root and its text.
fn documents() -> Vec<(String, String)> {
    let mut names = vec!["README.md".to_string()];
    for dir in ["docs", "adapters"] {
        let mut found: Vec<String> = fs::read_dir(root().join(dir))
            .unwrap_or_else(|e| panic!("{dir}/: {e}"))
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".md"))
            .map(|n| format!("{dir}/{n}"))
            .collect();
        found.sort();
        names.extend(found);
    }
    names
        .into_iter()
        .map(|n| {
            let text = fs::read_to_string(root().join(&n)).unwrap_or_else(|e| panic!("{n}: {e}"));
            (n, text)
        })
        .collect()
}

/// The repository's top-level entries: what its root holds, but `.git`
/// and `target` (the build's output).
fn top_level(root: &Path) -> BTreeSet<String> {
    fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != ".git" && n != "target")
        .collect()
}

/// A piece of a document that may name paths or commands.
#[derive(Debug, Clone, PartialEq)]
enum Piece {
    /// Inline code, its text.
    Span(String),
    /// A line of a fenced code block, and the block's language.
    CodeLine(String, String),
    /// The target of a link or image, as written.
    Link(String),
}

/// A document's inline code, code block lines and link targets, each with
/// its line number; and its headings' anchors.
#[derive(Debug, Default)]
struct Parsed {
    pieces: Vec<(usize, Piece)>,
    anchors: BTreeSet<String>,
}

/// GitHub's anchor of a heading: lowercase, every character that is not a
/// letter, digit, space, `-` or `_` dropped, spaces as `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Reads `text` as Markdown, as far as these checks need.
fn parse(text: &str) -> Parsed {
    let mut parsed = Parsed::default();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut fence: Option<(String, String)> = None; // (marker, language)
    // Prose, with each line's number, for spans and links.
    let mut prose: Vec<(usize, &str)> = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let number = k + 1;
        let trimmed = line.trim_start();
        if let Some((marker, language)) = &fence {
            if trimmed.starts_with(marker.as_str()) && trimmed.trim_start_matches('`').is_empty() {
                fence = None;
            } else {
                parsed
                    .pieces
                    .push((number, Piece::CodeLine(line.to_string(), language.clone())));
            }
            continue;
        }
        if trimmed.starts_with("```") {
            let marker: String = trimmed.chars().take_while(|&c| c == '`').collect();
            let language = trimmed[marker.len()..].trim().to_string();
            fence = Some((marker, language));
            continue;
        }
        if let Some(heading) = trimmed.strip_prefix('#') {
            let heading = heading.trim_start_matches('#');
            if heading.starts_with(' ') {
                let base = anchor(heading);
                let count = seen.entry(base.clone()).or_insert(0);
                parsed.anchors.insert(if *count == 0 {
                    base.clone()
                } else {
                    format!("{base}-{count}")
                });
                *count += 1;
            }
        }
        prose.push((number, line));
    }
    scan_prose(&prose, &mut parsed.pieces);
    parsed
}

/// The inline code spans and link targets of prose lines: a run of
/// backticks opens a span that the next run of the same length closes,
/// within the paragraph; a link is `](target)` outside spans.
fn scan_prose(lines: &[(usize, &str)], pieces: &mut Vec<(usize, Piece)>) {
    // Paragraphs, joined with '\n', with the line number of each byte's line.
    let mut paragraphs: Vec<Vec<(usize, &str)>> = vec![Vec::new()];
    // A blank line or a code block (lines left out) ends a paragraph.
    let mut previous = 0;
    for &(number, line) in lines {
        if line.trim().is_empty() || number != previous + 1 {
            paragraphs.push(Vec::new());
        }
        if !line.trim().is_empty() {
            paragraphs.last_mut().unwrap().push((number, line));
        }
        previous = number;
    }
    for paragraph in paragraphs.iter().filter(|p| !p.is_empty()) {
        let text: String = paragraph
            .iter()
            .map(|(_, l)| *l)
            .collect::<Vec<_>>()
            .join("\n");
        let line_at = |offset: usize| paragraph[0].0 + text[..offset].matches('\n').count();
        let bytes = text.as_bytes();
        let mut k = 0;
        while k < bytes.len() {
            if bytes[k] == b'`' {
                let run = bytes[k..].iter().take_while(|&&b| b == b'`').count();
                let fence = &text[k..k + run];
                let after = k + run;
                let close = text[after..].match_indices(fence).find(|(at, _)| {
                    let end = after + at + run;
                    (end >= bytes.len() || bytes[end] != b'`')
                        && (after + at == 0 || bytes[after + at - 1] != b'`')
                });
                match close {
                    Some((at, _)) => {
                        let inner = text[after..after + at].replace('\n', " ");
                        pieces.push((line_at(k), Piece::Span(inner.trim().to_string())));
                        k = after + at + run;
                    }
                    None => k = after,
                }
            } else if bytes[k..].starts_with(b"](") {
                let start = k + 2;
                let end = text[start..].find(')').map_or(bytes.len(), |e| start + e);
                let target = text[start..end].split_whitespace().next().unwrap_or("");
                pieces.push((line_at(k), Piece::Link(target.to_string())));
                k = end;
            } else {
                k += 1;
            }
        }
    }
}

/// The path-like words of a piece of code: cut at spaces, quotes,
/// brackets, `=`, `,`, `;`, `:` and `|`, with a leading `./` and trailing
/// sentence punctuation removed.
fn words(code: &str) -> Vec<String> {
    code.split(|c: char| c.is_whitespace() || "'\"()[]{}<>=,;:|`".contains(c))
        .map(|w| w.trim_start_matches("./").trim_end_matches(['.', ',', ';']))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Whether `pattern`, a path with [`PLACEHOLDERS`] in it, matches a file
/// or directory under `root`.
fn matches_something(root: &Path, pattern: &str) -> bool {
    fn component_matches(pattern: &str, name: &str) -> bool {
        // Each placeholder stands for any run of characters.
        let mut pieces = vec![pattern.to_string()];
        for (word, _) in PLACEHOLDERS {
            pieces = pieces
                .iter()
                .flat_map(|p| p.split(word).map(str::to_string).collect::<Vec<_>>())
                .collect();
        }
        let (first, rest) = pieces.split_first().unwrap();
        let Some(mut remaining) = name.strip_prefix(first.as_str()) else {
            return false;
        };
        for (k, piece) in rest.iter().enumerate() {
            if k + 1 == rest.len() {
                return remaining.len() >= piece.len() && remaining.ends_with(piece.as_str());
            }
            match remaining.find(piece.as_str()) {
                Some(at) => remaining = &remaining[at + piece.len()..],
                None => return false,
            }
        }
        remaining.is_empty()
    }
    let components: Vec<&str> = pattern.trim_end_matches('/').split('/').collect();
    let mut places = vec![root.to_path_buf()];
    for component in components {
        let mut next = Vec::new();
        for place in &places {
            if PLACEHOLDERS.iter().any(|(w, _)| component.contains(w)) {
                let Ok(entries) = fs::read_dir(place) else {
                    continue;
                };
                for entry in entries {
                    let name = entry.unwrap().file_name().to_string_lossy().into_owned();
                    if component_matches(component, &name) {
                        next.push(place.join(name));
                    }
                }
            } else if place.join(component).exists() {
                next.push(place.join(component));
            }
        }
        places = next;
    }
    !places.is_empty()
}

/// What is wrong with the paths that `pieces` (of the document `file`)
/// name, against the repository at `root`.
fn path_errors(root: &Path, file: &str, pieces: &[(usize, Piece)]) -> Vec<String> {
    let top = top_level(root);
    let mut errors = Vec::new();
    for (line, piece) in pieces {
        let code = match piece {
            Piece::Span(s) | Piece::CodeLine(s, _) => s,
            Piece::Link(_) => continue, // relative to the file: link_errors
        };
        for word in words(code) {
            let first = word.split('/').next().unwrap();
            if !top.contains(first) || !(word.contains('/') || root.join(first).is_file()) {
                continue;
            }
            if let Some((prefix, script, must)) =
                GENERATED.iter().find(|(p, _, _)| word.starts_with(p))
            {
                let name = word[prefix.len()..].split('/').next().unwrap();
                let made = fs::read_to_string(root.join(script)).unwrap_or_default();
                if !made.contains(&must.replace("{}", name)) {
                    errors.push(format!(
                        "{file}:{line}: `{word}` is not kept in the repository, and {script} does not make it"
                    ));
                }
                continue;
            }
            let exists = if PLACEHOLDERS.iter().any(|(w, _)| word.contains(w)) {
                matches_something(root, &word)
            } else {
                root.join(&word).exists()
            };
            if !exists {
                errors.push(format!("{file}:{line}: `{word}` does not exist"));
            }
        }
    }
    errors
}

/// The workspace's packages: name, directory, and whether it is a default
/// member (what `cargo run` and `cargo bench` look in without `-p`).
fn packages(root: &Path) -> Vec<(String, PathBuf, bool)> {
    let manifest: toml::Table = fs::read_to_string(root.join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let workspace = manifest["workspace"].as_table().unwrap();
    let list = |key: &str| -> Vec<String> {
        workspace
            .get(key)
            .and_then(toml::Value::as_array)
            .map_or_else(Vec::new, |a| {
                a.iter().map(|v| v.as_str().unwrap().to_string()).collect()
            })
    };
    let defaults = list("default-members");
    let mut dirs = vec![".".to_string()];
    dirs.extend(list("members"));
    dirs.into_iter()
        .map(|dir| {
            let package: toml::Table = fs::read_to_string(root.join(&dir).join("Cargo.toml"))
                .unwrap()
                .parse()
                .unwrap();
            let name = package["package"]["name"].as_str().unwrap().to_string();
            let default = (defaults.is_empty() && dir == ".") || defaults.contains(&dir);
            (name, root.join(&dir), default)
        })
        .collect()
}

/// What is wrong with the `cargo run ... --example NAME` and `cargo bench
/// ... --bench NAME` commands of `pieces`.
fn cargo_target_errors(root: &Path, file: &str, pieces: &[(usize, Piece)]) -> Vec<String> {
    let packages = packages(root);
    let mut errors = Vec::new();
    for (line, piece) in pieces {
        let code = match piece {
            Piece::Span(s) | Piece::CodeLine(s, _) => s,
            Piece::Link(_) => continue,
        };
        let words: Vec<&str> = code.split_whitespace().collect();
        for start in (0..words.len()).filter(|&k| words[k] == "cargo") {
            let command: Vec<&str> = words[start..]
                .iter()
                .take_while(|w| !matches!(**w, "|" | "&&" | ";" | "--" | "#"))
                .copied()
                .collect();
            let (kind, folder) = match command.get(1) {
                Some(&"run") => ("--example", "examples"),
                Some(&"bench") => ("--bench", "benches"),
                _ => continue,
            };
            let Some(name) = command.windows(2).find(|w| w[0] == kind).map(|w| w[1]) else {
                continue;
            };
            let chosen = command
                .windows(2)
                .find(|w| w[0] == "-p" || w[0] == "--package")
                .map(|w| w[1]);
            let candidates: Vec<&PathBuf> = packages
                .iter()
                .filter(|(n, _, default)| chosen.map_or(*default, |c| c == n))
                .map(|(_, dir, _)| dir)
                .collect();
            if candidates.is_empty() {
                errors.push(format!(
                    "{file}:{line}: `{}`: no package {}",
                    command.join(" "),
                    chosen.unwrap_or("by default")
                ));
                continue;
            }
            let found = candidates.iter().any(|dir| {
                dir.join(folder).join(format!("{name}.rs")).is_file()
                    || dir.join(folder).join(name).join("main.rs").is_file()
            });
            if !found {
                errors.push(format!(
                    "{file}:{line}: `{}`: no {folder}/{name}.rs in {}",
                    command.join(" "),
                    chosen.unwrap_or("the default members")
                ));
            }
        }
    }
    errors
}

/// The help of `punycheck [SUBCOMMAND] --help`, asked once each; `None`
/// when there is no such subcommand.
#[derive(Default)]
struct Helps(BTreeMap<String, Option<String>>);

impl Helps {
    fn of(&mut self, subcommand: &str) -> Option<&str> {
        self.0
            .entry(subcommand.to_string())
            .or_insert_with(|| {
                let mut command = Command::new(BIN);
                if !subcommand.is_empty() {
                    command.arg(subcommand);
                }
                let out = command.arg("--help").output().expect("punycheck runs");
                out.status
                    .success()
                    .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
            })
            .as_deref()
    }
}

/// The punycheck command lines of a piece of code: the words after
/// `punycheck` (or `target/release/punycheck`, or `cargo run --release
/// --`; `cargo run --release` alone is the matrix) to the end of the
/// command (a `|`, `;`, `&&`, redirection or comment). A `punycheck` that
/// is a flag's value (`-p punycheck`) starts none.
fn punycheck_commands(code: &str) -> Vec<Vec<String>> {
    let words = shell_words::split(code)
        .unwrap_or_else(|_| code.split_whitespace().map(str::to_string).collect());
    let ends = |w: &String| matches!(w.as_str(), "|" | ";" | "&&" | "||" | "<" | ">" | "2>");
    let mut commands = Vec::new();
    for k in 0..words.len() {
        let from = |n: usize| words.get(k..k + n);
        let start = if from(4).is_some_and(|w| w == ["cargo", "run", "--release", "--"]) {
            k + 4
        } else if from(3).is_some_and(|w| w == ["cargo", "run", "--release"])
            && words
                .get(k + 3)
                .is_none_or(|w| ends(w) || w.starts_with('#'))
        {
            k + 3
        } else if (words[k] == "punycheck" || words[k] == "target/release/punycheck")
            && (k == 0 || !words[k - 1].starts_with('-'))
        {
            k + 1
        } else {
            continue;
        };
        let command: Vec<String> = words[start..]
            .iter()
            .take_while(|w| !ends(w) && !w.starts_with('#'))
            .cloned()
            .collect();
        commands.push(command);
    }
    commands
}

/// What is wrong with the punycheck commands of `pieces`: a subcommand the
/// binary does not have, or a flag its help does not list. The subcommand
/// is the first word when it is not a flag; a first word that is not a
/// lowercase word (`...`, `SUBCOMMAND`) is a placeholder, and its command
/// is not checked.
fn command_errors(helps: &mut Helps, file: &str, pieces: &[(usize, Piece)]) -> Vec<String> {
    let mut errors = Vec::new();
    for (line, piece) in pieces {
        let code = match piece {
            Piece::Span(s) | Piece::CodeLine(s, _) => s,
            Piece::Link(_) => continue,
        };
        for command in punycheck_commands(code) {
            let (name, flags) = match command.first() {
                None => (String::new(), &command[..]),
                Some(first) if first.starts_with('-') => (String::new(), &command[..]),
                Some(first)
                    if first.starts_with(|c: char| c.is_ascii_lowercase())
                        && first.chars().all(|c| c.is_ascii_lowercase() || c == '-') =>
                {
                    (first.clone(), &command[1..])
                }
                Some(_) => continue,
            };
            let Some(help) = helps.of(&name) else {
                errors.push(format!(
                    "{file}:{line}: `punycheck {}`: there is no subcommand `{name}`",
                    command.join(" ")
                ));
                continue;
            };
            for flag in flags.iter().filter(|w| w.starts_with("--") && w.len() > 2) {
                let flag = flag.split('=').next().unwrap();
                let listed = help.match_indices(flag).any(|(at, _)| {
                    !help[at + flag.len()..]
                        .starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-')
                });
                if !listed {
                    errors.push(format!(
                        "{file}:{line}: `punycheck {}`: `punycheck {name} --help` lists no {flag}",
                        command.join(" ")
                    ));
                }
            }
        }
    }
    errors
}

/// What is wrong with the relative links of `pieces`, written in the
/// document `file` (a path from `root`) whose headings' anchors are `own`;
/// `anchors` gives another document's.
fn link_errors(
    root: &Path,
    file: &str,
    pieces: &[(usize, Piece)],
    own: &BTreeSet<String>,
    anchors: &dyn Fn(&Path) -> Option<BTreeSet<String>>,
) -> Vec<String> {
    let mut errors = Vec::new();
    let base = Path::new(file).parent().unwrap_or(Path::new(""));
    for (line, piece) in pieces {
        let Piece::Link(target) = piece else { continue };
        if target.contains("://") || target.starts_with("mailto:") || target.is_empty() {
            continue;
        }
        let (path, fragment) = match target.split_once('#') {
            Some((p, f)) => (p, Some(f)),
            None => (target.as_str(), None),
        };
        if path.is_empty() {
            let fragment = fragment.unwrap_or_default();
            if !own.contains(fragment) {
                errors.push(format!(
                    "{file}:{line}: link `{target}`: no heading #{fragment} here"
                ));
            }
            continue;
        }
        let resolved = base.join(path);
        if !root.join(&resolved).exists() {
            errors.push(format!(
                "{file}:{line}: link `{target}`: {} does not exist",
                resolved.display()
            ));
            continue;
        }
        if let Some(fragment) = fragment {
            match anchors(&root.join(&resolved)) {
                Some(found) if found.contains(fragment) => {}
                Some(_) => errors.push(format!(
                    "{file}:{line}: link `{target}`: {} has no heading #{fragment}",
                    resolved.display()
                )),
                None => errors.push(format!(
                    "{file}:{line}: link `{target}`: {} is not a Markdown file with headings",
                    resolved.display()
                )),
            }
        }
    }
    errors
}

/// The anchors of a Markdown file's headings, or `None` for another file.
fn anchors_of(path: &Path) -> Option<BTreeSet<String>> {
    (path.extension().is_some_and(|e| e == "md"))
        .then(|| fs::read_to_string(path).ok())
        .flatten()
        .map(|text| parse(&text).anchors)
}

/// Every check over one document, the messages of what is wrong.
fn errors_in(root: &Path, file: &str, text: &str, helps: &mut Helps) -> Vec<String> {
    let parsed = parse(text);
    let mut errors = path_errors(root, file, &parsed.pieces);
    errors.extend(cargo_target_errors(root, file, &parsed.pieces));
    errors.extend(command_errors(helps, file, &parsed.pieces));
    errors.extend(link_errors(
        root,
        file,
        &parsed.pieces,
        &parsed.anchors,
        &anchors_of,
    ));
    errors
}

#[test]
fn every_path_example_command_and_link_of_the_docs_exists() {
    let mut helps = Helps::default();
    let mut errors = Vec::new();
    let mut checked = 0;
    for (file, text) in documents() {
        checked += parse(&text).pieces.len();
        errors.extend(errors_in(root(), &file, &text, &mut helps));
    }
    assert!(
        checked > 1000,
        "only {checked} pieces of code and links read"
    );
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// Every page of `docs/` is reachable from the README, through its links.
#[test]
fn every_docs_page_is_linked_from_the_readme() {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let linked: BTreeSet<String> = parse(&readme)
        .pieces
        .into_iter()
        .filter_map(|(_, p)| match p {
            Piece::Link(t) => Some(t.split('#').next().unwrap().to_string()),
            _ => None,
        })
        .collect();
    for entry in fs::read_dir(root().join("docs")).unwrap() {
        let name = format!("docs/{}", entry.unwrap().file_name().to_string_lossy());
        assert!(linked.contains(&name), "README.md does not link {name}");
    }
}

/// The README is the front door: at most 400 lines, the rest behind its
/// links to `docs/`.
#[test]
fn the_readme_is_at_most_400_lines() {
    let lines = fs::read_to_string(root().join("README.md"))
        .unwrap()
        .lines()
        .count();
    assert!(
        lines <= 400,
        "README.md has {lines} lines: move detail into docs/ behind a link"
    );
}

/// The guide names the JSON report's layout version that the schema, and
/// so every report, holds.
#[test]
fn the_guide_names_the_json_layout_of_the_schema() {
    let schema: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(root().join("docs/report.schema.json")).unwrap())
            .unwrap();
    let version = &schema["$defs"]["report"]["properties"]["version"]["const"];
    assert!(version.is_u64(), "{schema}");
    let guide = fs::read_to_string(root().join("docs/checking.md")).unwrap();
    assert!(
        guide.contains(&format!("layout `version` {version},")),
        "docs/checking.md does not name the JSON layout version {version}"
    );
}

// The checks, shown to find what each is for.

/// Every check of one small document, against this repository.
fn errors_of(file: &str, text: &str) -> Vec<String> {
    errors_in(root(), file, text, &mut Helps::default())
}

#[test]
fn markdown_is_read_into_spans_code_lines_links_and_anchors() {
    let text = "# A `code` title\n\nSee `src/main.rs` and ``a ` b``,\n[the docs](docs/x.md#y),\n\
                ```sh\npunycheck list   # exit 0\n```\n## A `code` title\n";
    let parsed = parse(text);
    assert_eq!(
        parsed.pieces,
        [
            (
                6,
                Piece::CodeLine("punycheck list   # exit 0".into(), "sh".into())
            ),
            (1, Piece::Span("code".into())),
            (3, Piece::Span("src/main.rs".into())),
            (3, Piece::Span("a ` b".into())),
            (4, Piece::Link("docs/x.md#y".into())),
            (8, Piece::Span("code".into())),
        ]
    );
    assert_eq!(
        parsed.anchors,
        BTreeSet::from(["a-code-title".to_string(), "a-code-title-1".to_string()])
    );
    assert_eq!(
        anchor("15. Quadratic encoders: slow (the cost probe)"),
        "15-quadratic-encoders-slow-the-cost-probe"
    );
}

#[test]
fn a_path_that_does_not_exist_is_found() {
    let good = "`src/main.rs`, `tests/impls/planted.c:246:27`, `exec:tests/impls/pyny.py`, \
                `README.md`, `adapters/gates/NAME.toml`, `crates/punycheck/vectors/*.toml`, \
                `adapters/build/libidn`, `build.rs` (not from the root), `my-punycode`";
    assert_eq!(errors_of("T.md", good), Vec::<String>::new());
    for bad in [
        "`src/c_reference.rs`",
        "```sh\npunycheck check --file crates/punycheck/vectors/nothing.toml   # exit 2\n```",
        "`adapters/gates/NAME.tmol`",
        "`adapters/build/nothing-installs-this`",
        "`Cargo.toml/x`",
    ] {
        let errors = errors_of("T.md", bad);
        assert_eq!(errors.len(), 1, "{bad}: {errors:?}");
    }
}

#[test]
fn an_example_or_bench_that_does_not_exist_is_found() {
    let good = "```sh\ncargo run --release -p punycheck --example check_crate\n\
                cargo run --example fuzz_seeds\ncargo bench --bench punycode -- encode\n```\n";
    assert_eq!(errors_of("T.md", good), Vec::<String>::new());
    for bad in [
        "`cargo run --release --example no_such_example`",
        "`cargo run -p punycheck-cli --example check_crate`",
        "`cargo run -p no-such-package --example check_crate`",
        "```sh\ncargo bench --bench nothing\n```",
    ] {
        let errors = errors_of("T.md", bad);
        assert_eq!(errors.len(), 1, "{bad}: {errors:?}");
    }
}

#[test]
fn a_subcommand_or_flag_that_does_not_exist_is_found() {
    let good = "```sh\npunycheck check --impl 'exec:punycheck rfc-wrapper' --cases 5  # exit 0\n\
                cargo run --release -- --codec lace   # exit 0\n\
                cargo run --release     # exit 0\n\
                cargo run --release --example so_speed -- x.so 10\n\
                echo x | target/release/punycheck repro --impl icu --decode=a- | head\n```\n\
                `punycheck list`, `punycheck.toml`, `punycheck repro ...`";
    assert_eq!(errors_of("T.md", good), Vec::<String>::new());
    for bad in [
        "```sh\npunycheck chekc --impl icu   # exit 2\n```",
        "```\nreproduce: punycheck repro --impl icu --decodee=a\n```",
        "`punycheck check --cost-maximum 5`",
        "`cargo run --release -- --codex lace`",
    ] {
        let errors = errors_of("T.md", bad);
        assert_eq!(errors.len(), 1, "{bad}: {errors:?}");
    }
}

#[test]
fn a_link_to_a_missing_file_or_heading_is_found() {
    let good = "[samples](docs/c-samples.md), [gate](README.md#a-ci-gate-in-one-file), \
                [here](#a-title), [web](https://example.com/x.md#y)\n\n# A title\n";
    assert_eq!(errors_of("README.md", good), Vec::<String>::new());
    // From a file in docs/, links start there.
    assert_eq!(
        errors_of("docs/T.md", "[up](../README.md#two-commands)"),
        Vec::<String>::new()
    );
    for bad in [
        "[a](docs/no-such-page.md)",
        "[a](README.md#no-such-heading)",
        "[a](#nowhere)",
        "[a](Cargo.toml#a-heading)",
    ] {
        let errors = errors_of("README.md", bad);
        assert_eq!(errors.len(), 1, "{bad}: {errors:?}");
    }
}

/// Every key of `punycheck.toml` (the example in `src/config.rs`'s module
/// docs, which the configuration's own tests parse) is named in the docs'
/// section on gates (`docs/checking.md`), as `` `key` ``.
#[test]
fn every_configuration_key_is_in_the_docs() {
    let root = root();
    let config = fs::read_to_string(root.join("src/config.rs")).unwrap();
    let example: Vec<&str> = config
        .lines()
        .filter_map(|l| l.strip_prefix("//! "))
        .skip_while(|l| !l.starts_with("```toml"))
        .skip(1)
        .take_while(|l| !l.starts_with("```"))
        .collect();
    let keys: Vec<&str> = example
        .iter()
        .map(|l| l.trim_start_matches("# "))
        .filter_map(|l| l.split_once(" = ").map(|(key, _)| key.trim()))
        .collect();
    assert!(keys.len() >= 25, "{keys:?}");
    let docs = fs::read_to_string(root.join("docs/checking.md")).unwrap();
    let section = docs
        .split("## Gates, baselines and `punycheck.toml`")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("the gates section");
    let missing: Vec<&&str> = keys
        .iter()
        .filter(|key| !section.contains(&format!("`{key}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "keys not in docs/checking.md: {missing:?}"
    );
}

/// The guide's list of Unicode classes is the data's (issue 45): the
/// total, each property's count, and the values of the short lists, as
/// the library enumerates them from ICU4X's tables, so that a new Unicode
/// version that brings a class also brings its line.
#[test]
fn the_guide_lists_the_unicode_classes_of_the_data() {
    use punycheck::harness::unicode_classes::{Property, table};
    let guide = fs::read_to_string(root().join("docs/checking.md")).unwrap();
    let classes = &table().classes;
    assert!(
        guide.contains(&format!("{} classes today", classes.len())),
        "docs/checking.md does not say {} classes today",
        classes.len()
    );
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for class in classes {
        *counts.entry(class.property.name()).or_default() += 1;
    }
    for (name, n) in counts {
        assert!(
            guide.contains(&format!("| `{name}` ({n}) |")),
            "docs/checking.md has no row `{name}` ({n})"
        );
    }
    for class in classes {
        let listed = matches!(
            class.property,
            Property::GeneralCategory | Property::CombiningClass
        ) || guide.contains(&class.value);
        assert!(listed, "docs/checking.md does not name {}", class.name());
    }
}

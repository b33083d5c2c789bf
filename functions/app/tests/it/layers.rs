//! The shape of `functions/app/src`, held by reading the source tree: each top
//! folder imports only the folders below it, `domain` imports only the core and a
//! few small crates, no module of production code takes part in an import cycle,
//! and production code names what it imports (no `use super::*`, no glob
//! re-exports). Test modules (`#[cfg(test)] mod ...`) and `testing/` are test
//! support and may reach anything.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Top folders (or files) of `src` and the ones each may import.
const LAYERS: &[(&str, &[&str])] = &[
    ("domain", &[]),
    ("ports", &["domain"]),
    ("adapters", &["domain", "ports"]),
    ("pipeline", &["domain", "ports"]),
    ("endpoints", &["domain", "ports", "pipeline"]),
    ("ingest", &["domain", "ports", "pipeline", "endpoints"]),
    ("fanout", &["domain", "ports", "pipeline", "endpoints", "ingest"]),
    (
        "schedules",
        &["domain", "ports", "pipeline", "endpoints", "ingest", "fanout"],
    ),
    (
        "delivery",
        &[
            "domain",
            "ports",
            "pipeline",
            "endpoints",
            "ingest",
            "fanout",
            "schedules",
        ],
    ),
    (
        "maintenance",
        &[
            "domain",
            "ports",
            "pipeline",
            "endpoints",
            "ingest",
            "fanout",
            "schedules",
            "delivery",
        ],
    ),
    ("config", &["domain", "ports", "adapters", "endpoints", "delivery"]),
    (
        "wiring",
        &[
            "domain",
            "ports",
            "adapters",
            "pipeline",
            "endpoints",
            "ingest",
            "fanout",
            "schedules",
            "delivery",
            "maintenance",
            "config",
            "api",
        ],
    ),
    (
        "api",
        &[
            "domain",
            "ports",
            "adapters",
            "pipeline",
            "endpoints",
            "ingest",
            "fanout",
            "schedules",
            "delivery",
            "maintenance",
            "config",
        ],
    ),
    // Binaries of their own (the OpenAPI generator): outside the library, they
    // reach it through `courier_app::`, never through `crate::`.
    ("bin", &[]),
];

/// What `domain` may `use` besides itself.
const DOMAIN_CRATES: &[&str] = &["std", "courier_core", "serde", "serde_json", "sha2", "thiserror"];

struct Module {
    /// `delivery::step`; `""` for lib.rs.
    path: String,
    /// The file's text up to its test module, comments removed.
    code: String,
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).expect("src is readable").flatten().collect();
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The text before the file's `#[cfg(test)] mod ...`, without `//` comments.
fn production_code(text: &str) -> String {
    let mut kept = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim() == "#[cfg(test)]" && lines.peek().is_some_and(|next| next.trim_start().starts_with("mod ")) {
            break;
        }
        let code = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        kept.push_str(code);
        kept.push('\n');
    }
    kept
}

fn modules() -> Vec<Module> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(&src).expect("under src").with_extension("");
            let rel = rel.to_string_lossy().replace('\\', "/");
            let path = rel.trim_end_matches("/mod").replace('/', "::");
            let path = if path == "lib" { String::new() } else { path };
            let text = std::fs::read_to_string(f).expect("source is readable");
            Module {
                path,
                code: production_code(&text),
            }
        })
        .collect()
}

/// Every `crate::a::b::c` path in `code`, as its segments.
fn crate_paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        let before = rest[..i].chars().next_back();
        rest = &rest[i + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let mut segments = Vec::new();
        let mut tail = rest;
        loop {
            let end = tail
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(tail.len());
            if end == 0 {
                break;
            }
            segments.push(tail[..end].to_string());
            tail = &tail[end..];
            match tail.strip_prefix("::") {
                Some(t) if t.starts_with(|c: char| c.is_alphanumeric() || c == '_') => tail = t,
                _ => break,
            }
        }
        out.push(segments);
    }
    out
}

fn top(path: &str) -> &str {
    path.split("::").next().unwrap_or("")
}

fn is_test_support(path: &str) -> bool {
    top(path) == "testing"
}

/// The module each production module imports through `crate::` paths (the longest
/// prefix that is a module), itself and its ancestors left out.
fn imports(mods: &[Module]) -> BTreeMap<String, BTreeSet<String>> {
    let known: BTreeSet<&str> = mods.iter().map(|m| m.path.as_str()).collect();
    let mut graph = BTreeMap::new();
    for m in mods.iter().filter(|m| !is_test_support(&m.path)) {
        let mut to = BTreeSet::new();
        for segments in crate_paths(&m.code) {
            let target = (1..=segments.len())
                .rev()
                .map(|k| segments[..k].join("::"))
                .find(|c| known.contains(c.as_str()));
            if let Some(t) = target
                && t != m.path
                && !m.path.starts_with(&format!("{t}::"))
            {
                to.insert(t);
            }
        }
        graph.insert(m.path.clone(), to);
    }
    graph
}

#[test]
fn each_folder_imports_only_the_layers_below_it() {
    let mods = modules();
    let allowed: BTreeMap<&str, &[&str]> = LAYERS.iter().copied().collect();
    let mut broken = Vec::new();
    for (from, targets) in imports(&mods) {
        let layer = top(&from);
        if layer.is_empty() {
            continue;
        }
        let Some(may) = allowed.get(layer) else {
            broken.push(format!("{from}: folder `{layer}` has no row in LAYERS"));
            continue;
        };
        for t in targets {
            let to = top(&t);
            if to != layer && !may.contains(&to) {
                broken.push(format!("{from} imports {t}"));
            }
        }
    }
    assert_eq!(broken, Vec::<String>::new());
}

#[test]
fn domain_uses_only_the_core_and_small_crates() {
    let mut broken = Vec::new();
    for m in modules().iter().filter(|m| top(&m.path) == "domain") {
        for line in m.code.lines().map(str::trim_start) {
            let Some(rest) = line.strip_prefix("use ").or_else(|| line.strip_prefix("pub use ")) else {
                continue;
            };
            let root = rest.split("::").next().unwrap_or("").trim_end_matches(';');
            if !["crate", "self", "super"].contains(&root) && !DOMAIN_CRATES.contains(&root) {
                broken.push(format!("{}: {}", m.path, line));
            }
        }
    }
    assert_eq!(broken, Vec::<String>::new());
}

#[test]
fn no_import_cycles_between_modules() {
    let graph = imports(&modules());
    // Depth-first search for a back edge; reports each cycle's modules.
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        cycles: &mut Vec<String>,
    ) {
        if let Some(i) = stack.iter().position(|n| n == node) {
            cycles.push(stack[i..].join(" -> "));
            return;
        }
        if done.contains(node) {
            return;
        }
        stack.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            visit(next, graph, stack, done, cycles);
        }
        stack.pop();
        done.insert(node.to_string());
    }
    let mut cycles = Vec::new();
    let mut done = BTreeSet::new();
    for node in graph.keys() {
        visit(node, &graph, &mut Vec::new(), &mut done, &mut cycles);
    }
    assert_eq!(cycles, Vec::<String>::new());
}

#[test]
fn production_code_names_its_imports() {
    let mut broken = Vec::new();
    for m in modules().iter().filter(|m| !is_test_support(&m.path)) {
        for line in m.code.lines().map(str::trim) {
            if (line.starts_with("use ") || line.starts_with("pub use ") || line.starts_with("pub(crate) use "))
                && line.ends_with("::*;")
            {
                broken.push(format!("{}: {}", m.path, line));
            }
        }
    }
    assert_eq!(broken, Vec::<String>::new());
}

#[test]
fn the_checks_see_what_they_check() {
    // A check that finds no modules or no imports would pass on anything.
    let mods = modules();
    let graph = imports(&mods);
    assert!(mods.iter().any(|m| m.path == "delivery::step"));
    assert!(
        graph
            .get("delivery::step")
            .is_some_and(|t| t.contains("ingest::send_ahead"))
    );
    assert_eq!(
        crate_paths("use crate::domain::model::Delivery; x::crate::no; crate::ports::Clock"),
        vec![
            vec!["domain".to_string(), "model".into(), "Delivery".into()],
            vec!["ports".into(), "Clock".into()]
        ]
    );
    assert_eq!(production_code("a // b\n#[cfg(test)]\nmod tests {}\n"), "a \n");
}

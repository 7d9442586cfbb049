//! The folders of `src/` are layers, and imports point one way: a folder
//! uses only the layers below it (`src/lib.rs` lists them, lowest first).
//! This test reads every `.rs` file under `src/` as text and fails on any
//! path that reaches a layer at or above its own (outside test modules,
//! comments and strings), naming the file and the line.
//!
//! What counts as a use of folder `f`: a `crate::f` path (also inside a
//! `use crate::{…}` group), a `super::` chain that climbs out of the file's
//! folder and then names `f`, and an `include_str!`/`include_bytes!` of a
//! file under `src/f/`. Doc links (`[`crate::f`]`) are comments, not
//! imports, and may point anywhere.

use std::fs;
use std::path::{Path, PathBuf};

/// The layers, lowest first; folders in one entry are siblings and may not
/// use each other. `src/lib.rs`'s list must name them in this order.
const LAYERS: &[&[&str]] = &[
    &["board"],
    &["engine", "model"],
    &["solve"],
    &["plans"],
    &["bots"],
    &["leagues"],
    &["analysis"],
    &["output"],
    &["web", "play"],
    &["cli"],
];

fn rank(folder: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&folder))
}

/// One use of another folder: where, and which folder.
#[derive(Debug, PartialEq)]
struct Use {
    line: usize,
    folder: String,
}

/// The code of a file with comments, string and character literals blanked
/// (kept as spaces, so line numbers hold) and `#[cfg(test)]` items removed.
/// The paths of `include_str!`/`include_bytes!` are returned beside it,
/// with their lines.
fn code_of(text: &str) -> (Vec<char>, Vec<(usize, String)>) {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<char> = Vec::with_capacity(chars.len());
    let mut includes = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.extend([' ', ' ']);
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.extend([' ', ' ']);
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(chars[i] == '\n');
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if c == '"'
            || (c == 'r' && matches!(next, Some('"') | Some('#')) && raw_start(&chars, i))
        {
            // A string: find its end, keep its text for include_str!.
            let (end, body) = string_end(&chars, i);
            let before: String = out
                .iter()
                .rev()
                .take(40)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            let before = before.trim_end().trim_end_matches('(').trim_end();
            if before.ends_with("include_str!") || before.ends_with("include_bytes!") {
                includes.push((line, body));
            }
            for &ch in &chars[i..end] {
                line += usize::from(ch == '\n');
                out.push(blank(ch));
            }
            i = end;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{..}') or a lifetime ('a).
            let close = if next == Some('\\') {
                chars[i + 3..]
                    .iter()
                    .position(|&ch| ch == '\'')
                    .map(|p| i + 3 + p)
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match close {
                Some(end) => {
                    out.extend(std::iter::repeat_n(' ', end + 1 - i));
                    i = end + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            line += usize::from(c == '\n');
            out.push(c);
            i += 1;
        }
    }
    drop_test_items(&mut out);
    (out, includes)
}

/// Whether `r` at `i` opens a raw string (`r"` or `r#"`), not an identifier
/// ending in r.
fn raw_start(chars: &[char], i: usize) -> bool {
    let ident_before = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
    if ident_before {
        return false;
    }
    let mut j = i + 1;
    while chars.get(j) == Some(&'#') {
        j += 1;
    }
    chars.get(j) == Some(&'"')
}

/// The index just past the string literal starting at `i`, and its text.
fn string_end(chars: &[char], i: usize) -> (usize, String) {
    if chars[i] == 'r' {
        let mut j = i + 1;
        let mut hashes = 0;
        while chars[j] == '#' {
            hashes += 1;
            j += 1;
        }
        let start = j + 1;
        let mut k = start;
        loop {
            if chars[k] == '"' && (0..hashes).all(|h| chars.get(k + 1 + h) == Some(&'#')) {
                return (k + 1 + hashes, chars[start..k].iter().collect());
            }
            k += 1;
        }
    }
    let mut k = i + 1;
    while chars[k] != '"' {
        k += if chars[k] == '\\' { 2 } else { 1 };
    }
    (k + 1, chars[i + 1..k].iter().collect())
}

/// Blanks every item marked `#[cfg(test)]`: the attribute, then up to the
/// item's end (its matching `}`, or `;` for a bodiless one).
fn drop_test_items(code: &mut [char]) {
    let text: String = code.iter().collect();
    let mut from = 0;
    while let Some(pos) = text[from..].find("#[cfg(test)]") {
        let start = from + pos;
        // Byte offsets equal char offsets only for ASCII; map through chars.
        let s = text[..start].chars().count();
        from = start + "#[cfg(test)]".len();
        if code[s] != '#' {
            continue; // inside an item already blanked
        }
        let mut j = s;
        let mut depth = 0usize;
        while j < code.len() {
            match code[j] {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                ';' if depth == 0 => break,
                _ => {}
            }
            j += 1;
        }
        let end = j.min(code.len() - 1);
        for ch in &mut code[s..=end] {
            if *ch != '\n' {
                *ch = ' ';
            }
        }
    }
}

/// The module path of a file under `src/`: `solve/branch/lanes.rs` is
/// `[solve, branch, lanes]`, `solve/mod.rs` is `[solve]`.
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" {
        parts.push(stem.to_string());
    }
    parts
}

fn ident_at(code: &[char], at: usize) -> String {
    code[at..]
        .iter()
        .take_while(|c| c.is_alphanumeric() || **c == '_')
        .collect()
}

/// The line (from 1) of each character of `code`.
fn line_of_each(code: &[char]) -> Vec<usize> {
    let mut lines = Vec::with_capacity(code.len());
    let mut line = 1;
    for &c in code {
        lines.push(line);
        line += usize::from(c == '\n');
    }
    lines
}

/// Every folder the code uses by path, with its line.
fn uses(code: &[char], module: &[String]) -> Vec<Use> {
    let text: String = code.iter().collect();
    let lines = line_of_each(code);
    let chars: Vec<char> = text.chars().collect();
    let mut found = Vec::new();
    let word_start = |i: usize| i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
    let mut i = 0;
    while i < chars.len() {
        if word_start(i) && chars[i..].starts_with(&['c', 'r', 'a', 't', 'e', ':', ':']) {
            let at = i + "crate::".len();
            if chars.get(at) == Some(&'{') {
                for (offset, name) in group_heads(&chars[at + 1..]) {
                    found.push(Use {
                        line: lines[at + 1 + offset],
                        folder: name,
                    });
                }
            } else {
                found.push(Use {
                    line: lines[i],
                    folder: ident_at(&chars, at),
                });
            }
            i = at;
        } else if word_start(i) && chars[i..].starts_with(&['s', 'u', 'p', 'e', 'r', ':', ':']) {
            let mut j = i;
            let mut ups = 0;
            while chars[j..].starts_with(&['s', 'u', 'p', 'e', 'r', ':', ':']) {
                ups += 1;
                j += "super::".len();
            }
            // Climbing out of every module of the file's folder reaches the
            // crate root, where the next name is a folder.
            if ups >= module.len() {
                found.push(Use {
                    line: lines[i],
                    folder: ident_at(&chars, j),
                });
            }
            i = j;
        } else {
            i += 1;
        }
    }
    found
}

/// The first name of each path in a `{…}` group (the text after its `{`),
/// with its offset.
fn group_heads(chars: &[char]) -> Vec<(usize, String)> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut expect_head = true;
    for (k, &c) in chars.iter().enumerate() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => expect_head = true,
            c if expect_head && (c.is_alphanumeric() || c == '_') => {
                heads.push((k, ident_at(chars, k)));
                expect_head = false;
            }
            _ => {}
        }
    }
    heads
}

/// The folder under `src/` that an included file lies in, if any.
fn include_folder(src: &Path, file: &Path, included: &str) -> Option<String> {
    let target = file.parent()?.join(included);
    let mut parts: Vec<String> = Vec::new();
    for c in target.strip_prefix(src).ok()?.components() {
        match c {
            std::path::Component::ParentDir => {
                parts.pop();
            }
            std::path::Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
            _ => {}
        }
    }
    (parts.len() > 1).then(|| parts[0].clone())
}

fn rust_files(dir: &Path, into: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            into.push(path);
        }
    }
}

/// Every use against the order in the files of one folder's tree.
fn violations(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut bad = Vec::new();
    for file in files {
        let rel = file.strip_prefix(src).unwrap();
        let module = module_path(rel);
        let text = fs::read_to_string(&file).unwrap();
        let (code, includes) = code_of(&text);
        let Some(own) = rank(&module[0]) else {
            // lib.rs and bin/: the crate root and the binary sit above every
            // layer. Any other file of src/ itself is a leaf beside the
            // layers, which every layer may use: it uses no folder.
            let leaf = rel.components().count() == 1 && rel != Path::new("lib.rs");
            for Use { line, folder } in uses(&code, &module).into_iter().filter(|_| leaf) {
                bad.push(format!(
                    "src/{}:{line}: the leaf `{}` uses `{folder}` (a file of src/ itself uses nothing of the crate)",
                    rel.display(),
                    module[0]
                ));
            }
            continue;
        };
        let mut used = uses(&code, &module);
        used.extend(includes.into_iter().filter_map(|(line, path)| {
            include_folder(src, &file, &path).map(|folder| Use { line, folder })
        }));
        for Use { line, folder } in used {
            if folder == module[0] {
                continue;
            }
            if let Some(theirs) = rank(&folder) {
                if theirs >= own {
                    bad.push(format!(
                        "src/{}:{line}: `{}` uses `{folder}`, a layer {} it (see src/lib.rs)",
                        rel.display(),
                        module[0],
                        if theirs == own { "beside" } else { "above" }
                    ));
                }
            }
        }
    }
    bad
}

#[test]
fn imports_point_down_the_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let bad = violations(&src);
    assert!(
        bad.is_empty(),
        "imports against the layers:\n{}",
        bad.join("\n")
    );
}

#[test]
fn every_folder_is_a_layer_and_lib_lists_them_in_order() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut folders: Vec<String> = fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .filter(|name| name != "bin")
        .collect();
    folders.sort();
    let mut layered: Vec<String> = LAYERS
        .iter()
        .flat_map(|l| l.iter().map(|s| s.to_string()))
        .collect();
    layered.sort();
    assert_eq!(
        folders, layered,
        "every folder of src/ (bin/ aside) has its place in LAYERS"
    );

    // The crate's own doc lists the layers as bullets `//! - [`name`]`,
    // lowest first, in the same order.
    let lib = fs::read_to_string(src.join("lib.rs")).unwrap();
    let listed: Vec<String> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//! - [`"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect();
    let order: Vec<String> = LAYERS
        .iter()
        .flat_map(|l| l.iter().map(|s| s.to_string()))
        .collect();
    assert_eq!(
        listed, order,
        "src/lib.rs lists the layers in LAYERS' order"
    );
}

/// The checker itself: a tree with one use of each kind against the order,
/// and the same uses hidden where they do not count.
#[test]
fn the_checker_finds_each_kind_of_use() {
    let dir = std::env::temp_dir().join(format!("ttr-opt-layers-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    let write = |path: &str, text: &str| {
        let p = dir.join(path);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    };
    write(
        "model/a.rs",
        "use crate::board::Board;\n\
         use crate::{board::Card, solve::Outcome};\n\
         // use crate::cli::main;\n\
         /// [`crate::solve::solve`]\n\
         const S: &str = \"crate::cli\";\n\
         const C: char = '\\'';\n\
         fn f<'a>(x: &'a str) -> &'a str { crate::engine::rules(x) }\n\
         const M: &str = include_str!(\"../web/assets/map.js\");\n\
         #[cfg(test)]\nmod tests { use crate::cli::x; }\n",
    );
    write(
        "solve/branch/lanes.rs",
        "fn g() { super::super::super::play::x(); super::super::solve(); }\n",
    );
    write("cli/mod.rs", "use crate::board::Board;\n");
    write("stats.rs", "use crate::board::Board;\n");
    let mut found = violations(&dir);
    found.sort();
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(
        found,
        vec![
            "src/model/a.rs:2: `model` uses `solve`, a layer above it (see src/lib.rs)",
            "src/model/a.rs:7: `model` uses `engine`, a layer beside it (see src/lib.rs)",
            "src/model/a.rs:8: `model` uses `web`, a layer above it (see src/lib.rs)",
            "src/solve/branch/lanes.rs:1: `solve` uses `play`, a layer above it (see src/lib.rs)",
            "src/stats.rs:1: the leaf `stats` uses `board` (a file of src/ itself uses nothing of the crate)",
        ]
    );
}

/// Every path the code names from `crate::`, `super::` or `self::`, with
/// `{…}` groups expanded (`crate::game::{rules::Card, event}` gives two),
/// as module paths from the crate root (the items' names stay at the end:
/// `[game, rules, Card]`), with their lines.
fn paths(code: &[char], module: &[String]) -> Vec<(usize, Vec<String>)> {
    let lines = line_of_each(code);
    let word_start = |i: usize| i == 0 || !(code[i - 1].is_alphanumeric() || code[i - 1] == '_');
    let mut found = Vec::new();
    let mut i = 0;
    while i < code.len() {
        let head = ident_at(code, i);
        if head.is_empty() || !word_start(i) {
            i += 1;
            continue;
        }
        if matches!(head.as_str(), "crate" | "super" | "self")
            && code[i + head.len()..].starts_with(&[':', ':'])
        {
            let mut out = Vec::new();
            let end = path_from(code, i, Vec::new(), &mut out);
            for p in out {
                if let Some(abs) = absolute(&p, module) {
                    found.push((lines[i], abs));
                }
            }
            i = end.max(i + 1);
        } else {
            i += head.len();
        }
    }
    found
}

/// Reads the path starting at `i` (prefixed by `prefix`), pushing each
/// whole path (several for a group) into `out`; returns where it ends.
fn path_from(
    code: &[char],
    mut i: usize,
    mut prefix: Vec<String>,
    out: &mut Vec<Vec<String>>,
) -> usize {
    loop {
        let name = ident_at(code, i);
        if name.is_empty() {
            break;
        }
        prefix.push(name.clone());
        i += name.len();
        if !code[i..].starts_with(&[':', ':']) {
            break;
        }
        i += 2;
        if code.get(i) == Some(&'{') {
            i += 1;
            loop {
                while code.get(i).is_some_and(|c| c.is_whitespace() || *c == ',') {
                    i += 1;
                }
                match code.get(i) {
                    None => return i,
                    Some('}') => return i + 1,
                    Some(c) if c.is_alphanumeric() || *c == '_' => {
                        i = path_from(code, i, prefix.clone(), out);
                    }
                    Some(_) => i += 1, // `*`, `as`'s name, …
                }
            }
        }
    }
    out.push(prefix);
    i
}

/// A path as written in the file of module `module`, from the crate root.
fn absolute(path: &[String], module: &[String]) -> Option<Vec<String>> {
    let mut at: Vec<String> = module.to_vec();
    let mut rest = path;
    match path.first()?.as_str() {
        "crate" => {
            at.clear();
            rest = &path[1..];
        }
        "self" => rest = &path[1..],
        "super" => {
            while rest.first().is_some_and(|s| s == "super") {
                at.pop()?;
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    at.extend(rest.iter().cloned());
    Some(at)
}

/// The modules a folder holds: its files' stems and its subfolders' names
/// (`mod.rs` aside: it is the folder's face, not one of its files).
fn members(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter_map(|p| {
            let name = p.file_name()?.to_string_lossy().into_owned();
            if p.is_dir() {
                Some(name)
            } else {
                let stem = name.strip_suffix(".rs")?;
                (stem != "mod").then(|| stem.to_string())
            }
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The uses between the files of each folder: for every folder (its module
/// path), the edges `from → to` between its members, with one place each.
type Edges =
    std::collections::BTreeMap<Vec<String>, std::collections::BTreeMap<(String, String), String>>;

fn member_uses(src: &Path) -> Edges {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut edges = Edges::new();
    let mut members_of: std::collections::HashMap<Vec<String>, Vec<String>> =
        std::collections::HashMap::new();
    for file in files {
        let rel = file.strip_prefix(src).unwrap();
        let module = module_path(rel);
        if module.is_empty() || module[0] == "bin" {
            continue;
        }
        let text = fs::read_to_string(&file).unwrap();
        let (code, _) = code_of(&text);
        for (line, target) in paths(&code, &module) {
            // Every folder above the file: which member the file is part of,
            // and which member the path reaches.
            for depth in 1..module.len() {
                let folder = &module[..depth];
                if !target.starts_with(folder) || target.len() <= depth {
                    continue;
                }
                let names = members_of
                    .entry(folder.to_vec())
                    .or_insert_with(|| members(&src.join(folder.join("/"))));
                let (from, to) = (&module[depth], &target[depth]);
                if from != to && names.contains(from) && names.contains(to) {
                    edges
                        .entry(folder.to_vec())
                        .or_default()
                        .entry((from.clone(), to.clone()))
                        .or_insert_with(|| format!("src/{}:{line}", rel.display()));
                }
            }
        }
    }
    edges
}

/// Each circle among the members of a folder, as `a → b → a` with the
/// place of each step.
fn circles(src: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for (folder, edges) in member_uses(src) {
        let mut nodes: Vec<&String> = edges.keys().flat_map(|(a, b)| [a, b]).collect();
        nodes.sort();
        nodes.dedup();
        // The strongly connected parts (Tarjan would do; the folders are
        // small, so reachability from each node is enough).
        let reach = |from: &String| {
            let mut seen = vec![from.clone()];
            let mut stack = vec![from.clone()];
            while let Some(n) = stack.pop() {
                for (a, b) in edges.keys() {
                    if *a == n && !seen.contains(b) {
                        seen.push(b.clone());
                        stack.push(b.clone());
                    }
                }
            }
            seen
        };
        let mut reported: Vec<Vec<String>> = Vec::new();
        for n in &nodes {
            let mine = reach(n);
            let mut part: Vec<String> = mine
                .iter()
                .filter(|m| reach(m).contains(n))
                .cloned()
                .collect();
            part.sort();
            if part.len() < 2 || reported.contains(&part) {
                continue;
            }
            let steps: Vec<String> = edges
                .iter()
                .filter(|((a, b), _)| part.contains(a) && part.contains(b))
                .map(|((a, b), at)| format!("{a} → {b} ({at})"))
                .collect();
            found.push(format!(
                "src/{}/: {{{}}} use each other: {}",
                folder.join("/"),
                part.join(", "),
                steps.join("; ")
            ));
            reported.push(part);
        }
    }
    found
}

#[test]
fn no_files_of_one_folder_use_each_other_in_a_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = circles(&src);
    assert!(
        found.is_empty(),
        "circles between the files of a folder:\n{}",
        found.join("\n")
    );
}

/// The longest a function may be, in lines from `fn` to its closing brace:
/// one screen and a half, read at once.
const LONGEST_FUNCTION: usize = 150;

/// Every function longer than [`LONGEST_FUNCTION`] lines (test modules
/// aside), as `src/file:line: fn name is N lines`.
fn long_functions(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut found = Vec::new();
    for file in files {
        let rel = file.strip_prefix(src).unwrap();
        let text = fs::read_to_string(&file).unwrap();
        let (code, _) = code_of(&text);
        let lines = line_of_each(&code);
        let mut i = 0;
        while i + 3 < code.len() {
            let starts = (i == 0 || !(code[i - 1].is_alphanumeric() || code[i - 1] == '_'))
                && code[i..].starts_with(&['f', 'n', ' ']);
            if !starts {
                i += 1;
                continue;
            }
            let name = ident_at(&code, i + 3);
            // The body: the first `{` outside parentheses and angle
            // brackets, unless a `;` (a declaration) comes first.
            let mut j = i + 3;
            let mut depth = 0i32;
            let open = loop {
                match code.get(j) {
                    None | Some(';') if depth == 0 => break None,
                    None => break None,
                    Some('(') | Some('[') => depth += 1,
                    Some(')') | Some(']') => depth -= 1,
                    Some('{') if depth == 0 => break Some(j),
                    _ => {}
                }
                j += 1;
            };
            let Some(open) = open else {
                i += 3;
                continue;
            };
            let mut k = open;
            let mut braces = 0;
            while k < code.len() {
                match code[k] {
                    '{' => braces += 1,
                    '}' => {
                        braces -= 1;
                        if braces == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                k += 1;
            }
            let length = lines[k.min(code.len() - 1)] - lines[i] + 1;
            if length > LONGEST_FUNCTION {
                found.push(format!(
                    "src/{}:{}: fn {name} is {length} lines",
                    rel.display(),
                    lines[i]
                ));
            }
            i += 3;
        }
    }
    found
}

#[test]
fn no_function_is_longer_than_a_screen_and_a_half() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = long_functions(&src);
    assert!(
        found.is_empty(),
        "functions over {LONGEST_FUNCTION} lines (split them at their phases or modes):\n{}",
        found.join("\n")
    );
}

/// The longest a file may be, in lines.
const LONGEST_FILE: usize = 1000;

/// The files allowed to be longer than [`LONGEST_FILE`]: each one algorithm
/// whose parts share too much state to read apart, with the reason.
const LONG_FILES: &[(&str, &str)] = &[
    (
        "solve/frontier.rs",
        "the frontier programme: one dynamic programme over budgets, its tables, bounds and reconstruction share one state",
    ),
    (
        "solve/branch.rs",
        "the branch and cut: one search tree, its node queue, cuts and incumbents share one state",
    ),
];

/// Files past [`LONGEST_FILE`] that are not single algorithms and are
/// still to be split by concern, each with the most lines it may have
/// meanwhile (its length when it was listed): the list only shrinks.
const TO_SPLIT: &[(&str, usize)] = &[
    ("analysis/tune.rs", 1210),
    ("board/mod.rs", 1105),
    ("engine/rules.rs", 1835),
    ("output/plot.rs", 1214),
    ("plans/replan.rs", 1093),
    ("play/store.rs", 1030),
    ("solve/mod.rs", 1282),
];

#[test]
fn no_file_is_longer_than_a_thousand_lines_but_single_algorithms() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut found = Vec::new();
    for file in files {
        let rel = file.strip_prefix(&src).unwrap().display().to_string();
        let lines = fs::read_to_string(&file).unwrap().lines().count();
        let allowed = LONG_FILES.iter().any(|(name, _)| *name == rel);
        let ceiling = TO_SPLIT
            .iter()
            .find(|(name, _)| *name == rel)
            .map(|(_, most)| *most);
        match ceiling {
            Some(most) if lines > most => found.push(format!(
                "src/{rel}: {lines} lines, more than the {most} it had when listed in TO_SPLIT"
            )),
            Some(_) if lines <= LONGEST_FILE => found.push(format!(
                "src/{rel}: {lines} lines, no longer needs its place in TO_SPLIT"
            )),
            Some(_) => {}
            None if lines > LONGEST_FILE && !allowed => {
                found.push(format!("src/{rel}: {lines} lines"))
            }
            None => {}
        }
        if allowed && lines <= LONGEST_FILE {
            found.push(format!(
                "src/{rel}: {lines} lines, no longer needs its place in LONG_FILES"
            ));
        }
    }
    assert!(
        found.is_empty(),
        "files over {LONGEST_FILE} lines (split them by concern, or name a single algorithm in LONG_FILES with its reason):\n{}",
        found.join("\n")
    );
}

/// The layout table of `docs/how-it-works.md` against `src/`: a row per
/// folder (and per file of `src/` itself but `lib.rs`), each naming every
/// `.rs` file of its folder (by its path inside the folder), and no file
/// that is not there.
fn layout_table_mismatches(root: &Path) -> Vec<String> {
    let doc = fs::read_to_string(root.join("docs/how-it-works.md")).unwrap();
    let rows: Vec<(String, String)> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("| `src/"))
        .filter_map(|l| {
            let (path, rest) = l.split_once('`')?;
            Some((path.trim_end_matches('/').to_string(), rest.to_string()))
        })
        .collect();
    let src = root.join("src");
    let mut bad = Vec::new();
    let mut entries: Vec<PathBuf> = fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for entry in entries {
        let name = entry.file_name().unwrap().to_string_lossy().into_owned();
        if name == "lib.rs" || name == "bin" {
            continue;
        }
        let Some((_, text)) = rows.iter().find(|(p, _)| *p == name) else {
            bad.push(format!("src/{name} has no row in the layout table"));
            continue;
        };
        if !entry.is_dir() {
            continue;
        }
        let mut files = Vec::new();
        rust_files(&entry, &mut files);
        for file in files {
            let inside = file.strip_prefix(&entry).unwrap().display().to_string();
            if !text.contains(&format!("`{inside}`")) {
                bad.push(format!("src/{name}/{inside} is not named in its row"));
            }
        }
        // Every `….rs` the row names exists.
        for named in text.split('`').skip(1).step_by(2) {
            let local = !named.contains(' ') && !named.starts_with("src/") && !named.contains("::");
            if local && named.ends_with(".rs") && !entry.join(named).exists() {
                bad.push(format!(
                    "src/{name}/'s row names {named}, which is not there"
                ));
            }
        }
    }
    for (path, _) in &rows {
        if !src.join(path).exists() {
            bad.push(format!(
                "the layout table has a row for src/{path}, which is not there"
            ));
        }
    }
    bad
}

#[test]
fn the_layout_table_names_every_file_of_src() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bad = layout_table_mismatches(root);
    assert!(
        bad.is_empty(),
        "docs/how-it-works.md's layout table and src/ differ:\n{}",
        bad.join("\n")
    );
}

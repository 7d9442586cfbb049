//! The guides stay true: every relative link of the README and `docs/`
//! resolves (files and heading anchors), every `./ttr-opt` command of their
//! `sh` examples runs, the shown output of their `$ ./ttr-opt` examples is
//! what the binary prints, and `docs/commands.md` holds every command's
//! `--help` as the binary prints it (`TTR_UPDATE_DOCS=1` rewrites it).
//! Their Python examples run in `python/tests/test_docs.py`, their Rust
//! examples as doctests (`src/lib.rs`).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_ttr-opt");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The README, every guide in `docs/`, and the formats' page.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md"), root().join("data/README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A fenced code block: its info string, its first line's number, its lines.
struct Block {
    lang: String,
    line: usize,
    lines: Vec<String>,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        match (&mut open, trimmed.strip_prefix("```")) {
            (None, Some(info)) => {
                open = Some(Block {
                    lang: info.trim().to_string(),
                    line: i + 2,
                    lines: Vec::new(),
                })
            }
            (Some(_), Some(_)) => out.push(open.take().unwrap()),
            (Some(b), None) => b.lines.push(line.to_string()),
            (None, None) => {}
        }
    }
    out
}

/// GitHub's anchor of a heading: lower case, letters, digits, `-` and `_`
/// kept, spaces made `-`, everything else dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c.to_lowercase().next().unwrap()),
            _ => None,
        })
        .collect()
}

fn anchors(text: &str) -> Vec<String> {
    let mut inside = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            inside = !inside;
        } else if !inside && line.starts_with('#') {
            out.push(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

/// The targets of `[text](target)` links outside code blocks.
fn links(text: &str) -> Vec<String> {
    let mut inside = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            inside = !inside;
            continue;
        }
        if inside {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            if let Some(end) = rest.find(')') {
                out.push(rest[..end].to_string());
                rest = &rest[end..];
            }
        }
    }
    out
}

#[test]
fn every_relative_link_resolves() {
    let mut broken = Vec::new();
    for page in pages() {
        let text = read(&page);
        for target in links(&text) {
            if target.starts_with("http://")
                || target.starts_with("https://")
                || target.starts_with("mailto:")
            {
                continue;
            }
            let (file, fragment) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target.as_str(), None),
            };
            let path = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            if !path.exists() {
                broken.push(format!("{}: {target} (no such file)", page.display()));
                continue;
            }
            if let Some(fragment) = fragment {
                if path.extension().is_some_and(|e| e == "md")
                    && !anchors(&read(&path)).iter().any(|a| a == fragment)
                {
                    broken.push(format!("{}: {target} (no such heading)", page.display()));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn anchors_follow_github() {
    assert_eq!(
        anchor(" The web page (`ttr-opt serve`)"),
        "the-web-page-ttr-opt-serve"
    );
    assert_eq!(
        anchor(" Most frequently chosen tickets and routes (Table 3, Figure 4)"),
        "most-frequently-chosen-tickets-and-routes-table-3-figure-4"
    );
    assert_eq!(anchor(" On a cluster (Dask)"), "on-a-cluster-dask");
}

/// Every subcommand's name, from the top-level help's command list.
fn subcommands() -> Vec<String> {
    let help = run_help(&[]);
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&c| c != "help")
        .map(str::to_string)
        .collect()
}

fn run_help(command: &[&str]) -> String {
    let out = Command::new(BIN)
        .args(command)
        .arg("--help")
        .env_remove("COLUMNS")
        .output()
        .unwrap();
    assert!(out.status.success(), "{command:?} --help");
    String::from_utf8(out.stdout).unwrap()
}

const BEGIN: &str = "<!-- generated: every command's --help (tests/suite/docs.rs) -->";
const END: &str = "<!-- end generated -->";

#[test]
fn the_command_reference_is_every_help() {
    let mut generated = String::new();
    let commands = subcommands();
    assert!(commands.len() > 10, "{commands:?}");
    let mut all = vec![Vec::new()];
    all.extend(commands.iter().map(|c| vec![c.as_str()]));
    for command in all {
        let name = if command.is_empty() {
            "ttr-opt".to_string()
        } else {
            format!("ttr-opt {}", command[0])
        };
        generated.push_str(&format!(
            "\n### `{name}`\n\n```text\n{}```\n",
            run_help(&command)
        ));
    }
    let path = root().join("docs/commands.md");
    let text = read(&path);
    let (head, rest) = text
        .split_once(BEGIN)
        .expect("docs/commands.md has the marker");
    let (old, tail) = rest
        .split_once(END)
        .expect("docs/commands.md has the end marker");
    let new = format!("{generated}\n");
    if std::env::var_os("TTR_UPDATE_DOCS").is_some() {
        std::fs::write(&path, format!("{head}{BEGIN}\n{new}{END}{tail}")).unwrap();
        return;
    }
    assert!(
        old.trim() == new.trim(),
        "docs/commands.md differs from the binary's --help: run \
         `TTR_UPDATE_DOCS=1 cargo test --release --test suite docs` and commit the change"
    );
}

/// A command line of an example, `./ttr-opt` and what follows, without its
/// comment; `None` for other lines.
fn ttr_opt_args(line: &str) -> Option<Vec<String>> {
    let line = line.trim().trim_start_matches("$ ");
    let rest = line.strip_prefix("./ttr-opt ")?;
    let rest = rest.split(" #").next().unwrap();
    Some(rest.split_whitespace().map(str::to_string).collect())
}

/// A fresh scratch directory holding `data/` (a link to the repository's),
/// where examples run as from the repository's root but write nothing
/// into it.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ttr-opt-docs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(root().join("data"), dir.join("data")).unwrap();
    dir
}

/// Starts a server example on a free port and waits for its address.
fn serves(args: &[String], dir: &Path) -> Result<(), String> {
    let mut args = args.to_vec();
    args.extend(["--port".into(), "0".into()]);
    if args[0] == "play" && !args.iter().any(|a| a == "--db") {
        args.extend(["--db".into(), dir.join("play.db").display().to_string()]);
    }
    let mut child = Command::new(BIN)
        .args(&args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let started = Instant::now();
    let result = loop {
        match rx.recv_timeout(Duration::from_millis(200)) {
            Ok(line) if line.contains("http://") => break Ok(()),
            Ok(_) => {}
            Err(_) if started.elapsed() > Duration::from_secs(120) => {
                break Err("no address printed in 120 s".to_string())
            }
            Err(_) => {
                if let Ok(Some(status)) = child.try_wait() {
                    let mut err = String::new();
                    use std::io::Read as _;
                    let _ = child.stderr.take().unwrap().read_to_string(&mut err);
                    break Err(format!("exited with {status}: {err}"));
                }
            }
        }
    };
    let _ = child.kill();
    let _ = child.wait();
    result
}

/// Every `./ttr-opt` line of every `sh` example runs, in order, in a
/// scratch directory holding `data/` (so that results land there, not in
/// `output/`): a server until it prints its address, any other command to
/// its end or to a 30-second `--time-limit` (exit 0, or 3 for the limit:
/// the command line is valid and the command works; speed is the
/// benchmarks' business).
#[test]
fn every_shell_example_runs() {
    let dir = scratch("sh");
    let mut failures = Vec::new();
    let mut count = 0;
    for page in pages() {
        for block in blocks(&read(&page)).into_iter().filter(|b| b.lang == "sh") {
            for (k, line) in block.lines.iter().enumerate() {
                let Some(mut args) = ttr_opt_args(line) else {
                    continue;
                };
                count += 1;
                let at = format!("{}:{}: {line}", page.display(), block.line + k);
                if args[0] == "serve" || args[0] == "play" {
                    if let Err(e) = serves(&args, &dir) {
                        failures.push(format!("{at}: {e}"));
                    }
                    continue;
                }
                if !args.iter().any(|a| a == "--time-limit") {
                    args.extend(["--time-limit".into(), "30".into()]);
                }
                let out = Command::new(BIN)
                    .args(&args)
                    .current_dir(&dir)
                    .output()
                    .unwrap();
                if !matches!(out.status.code(), Some(0 | 3)) {
                    failures.push(format!(
                        "{at}: {}: {}",
                        out.status,
                        String::from_utf8_lossy(&out.stderr)
                    ));
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(count >= 10, "only {count} examples found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Seconds in a line (`0.06 s`, `1.2s`) made alike: they differ run to run.
fn timeless(line: &str) -> String {
    let mut out = String::new();
    let words: Vec<&str> = line.split(' ').collect();
    for (i, w) in words.iter().enumerate() {
        let seconds = w.parse::<f64>().is_ok()
            && words
                .get(i + 1)
                .is_some_and(|n| n.trim_end_matches([',', ')', ';']) == "s");
        out.push_str(if seconds { "_" } else { w });
        out.push(' ');
    }
    out.trim_end().to_string()
}

/// Whether `printed` is the line `shown`, where `...` in a shown line
/// stands for any text.
fn alike(shown: &str, printed: &str) -> bool {
    match shown.split_once("...") {
        None => shown == printed,
        Some((head, tail)) => {
            printed.len() >= head.len() + tail.len()
                && printed.starts_with(head)
                && printed.ends_with(tail)
        }
    }
}

/// A `text` example that starts with `$ ./ttr-opt …` shows that command's
/// output: every line shown is printed, in order (a `...` line stands for
/// any number of lines, `...` within a line for any text), times aside. It
/// runs in a scratch directory holding `data/`, like the `sh` examples.
#[test]
fn every_shown_output_is_printed() {
    let dir = scratch("text");
    let mut checked = 0;
    for page in pages() {
        for block in blocks(&read(&page))
            .into_iter()
            .filter(|b| b.lang == "text")
        {
            let Some(first) = block.lines.first() else {
                continue;
            };
            if !first.starts_with("$ ./ttr-opt ") {
                continue;
            }
            let args = ttr_opt_args(first).unwrap();
            let out = Command::new(BIN)
                .args(&args)
                .current_dir(&dir)
                .output()
                .unwrap();
            assert!(out.status.success(), "{}:{}", page.display(), block.line);
            let printed: Vec<String> = String::from_utf8(out.stdout)
                .unwrap()
                .lines()
                .map(timeless)
                .collect();
            let mut at = 0;
            let mut skipping = false;
            for shown in &block.lines[1..] {
                if shown.trim() == "..." {
                    skipping = true;
                    continue;
                }
                let shown = timeless(shown);
                let found = if skipping {
                    printed[at..]
                        .iter()
                        .position(|p| alike(&shown, p))
                        .map(|i| at + i)
                } else {
                    printed
                        .get(at)
                        .is_some_and(|p| alike(&shown, p))
                        .then_some(at)
                };
                let Some(i) = found else {
                    panic!(
                        "{}:{}: `{}` prints no line {shown:?} where shown; it printed:\n{}",
                        page.display(),
                        block.line,
                        first,
                        printed.join("\n")
                    );
                };
                at = i + 1;
                skipping = false;
            }
            checked += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(checked >= 2, "only {checked} shown outputs found");
}

/// The protocol's examples in `docs/play.md` (and any other `json` block:
/// one or more JSON texts, a request and its answer) are JSON, and every
/// command or push they name is one the server's code names.
#[test]
fn every_json_example_parses_and_names_a_real_command() {
    let mut server = String::new();
    for entry in std::fs::read_dir(root().join("src/play")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            server.push_str(&read(&path));
        }
    }
    let mut checked = 0;
    for page in pages() {
        for block in blocks(&read(&page))
            .into_iter()
            .filter(|b| b.lang == "json")
        {
            let text = block.lines.join("\n");
            for value in serde_json::Deserializer::from_str(&text).into_iter::<serde_json::Value>()
            {
                let value = value
                    .unwrap_or_else(|e| panic!("{}:{}: not JSON: {e}", page.display(), block.line));
                if let Some(command) = value.get("command").and_then(|c| c.as_str()) {
                    assert!(
                        server.contains(&format!("\"{command}\"")),
                        "{}:{}: the server knows no command {command:?}",
                        page.display(),
                        block.line
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 10, "only {checked} JSON examples found");
}

//! Reading the JSON input files (boards, game states, scenarios): the
//! documented ranges of every number, and a reader that collects every
//! problem of a file, each naming its entry (`routes[4].length`).
//!
//! The files are read into a `serde_json::Value` first and walked by hand
//! rather than deserialised with derived types: a derived reader stops at
//! the first problem and speaks of Rust types (`expected i64`), while a
//! designer fixing a board wants the whole list, in the file's own words.
//! Every range here is chosen so that no sum the solvers form can overflow
//! (at most 5,000 routes and 5,000 trips of at most 1,000 points each stay far
//! below 2^31), and so that an absurd value is an error, never cut short.

use std::ops::RangeInclusive;
use std::path::Path;

use serde_json::{Map, Value};

/// Train cars of a board, a game state or a command line.
pub const CARS: RangeInclusive<u32> = 1..=10_000;
/// Worker threads a caller may ask for (each solve is single-threaded).
pub const THREADS: RangeInclusive<usize> = 1..=64;
/// Cars a route takes.
pub const LENGTH: RangeInclusive<u32> = 1..=100;
/// Points a claimed route scores (rule card or `points`).
pub const ROUTE_POINTS: RangeInclusive<u32> = 0..=1_000;
/// Points of one trip of a ticket.
pub const TICKET_POINTS: RangeInclusive<u32> = 1..=1_000;
/// Entries per list.
pub const MAX_CITIES: usize = 1_000;
/// Route entries per board.
pub const MAX_ROUTES: usize = 5_000;
/// Ticket entries per board, and trips over all of them.
pub const MAX_TICKETS: usize = 5_000;
/// Trips per ticket.
pub const MAX_TRIPS: usize = 100;
/// Parallel tracks of one city pair.
pub const MAX_TRACKS: usize = 5;
/// Characters of a name (city, board, ticket, scenario).
pub const MAX_NAME: usize = 200;
/// Largest map coordinate, either sign.
pub const MAX_COORDINATE: f64 = 1e6;
/// Largest input file.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Reads a text file of at most [`MAX_FILE_BYTES`].
pub fn read_text(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let mut text = String::new();
    let read = file.take(MAX_FILE_BYTES + 1).read_to_string(&mut text)?;
    if read as u64 > MAX_FILE_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("larger than {} MiB", MAX_FILE_BYTES >> 20),
        ));
    }
    Ok(text)
}

/// A JSON syntax error: where, and what, without the location repeated.
#[derive(Debug)]
pub struct Syntax {
    /// Line of the error, from 1.
    pub line: usize,
    /// Column of the error, from 1.
    pub column: usize,
    /// serde_json's description, without " at line … column …".
    pub message: String,
}

/// Parses JSON text; a leading byte-order mark is skipped.
pub fn parse(text: &str) -> Result<Value, Syntax> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    serde_json::from_str(text).map_err(|e| {
        let message = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        Syntax {
            line: e.line(),
            column: e.column(),
            message: message
                .strip_suffix(&suffix)
                .unwrap_or(&message)
                .to_string(),
        }
    })
}

/// `at.key`, or `key` at the top level.
pub fn join(at: &str, key: &str) -> String {
    if at.is_empty() {
        key.to_string()
    } else {
        format!("{at}.{key}")
    }
}

/// `at[i]`.
pub fn index(at: &str, i: usize) -> String {
    format!("{at}[{i}]")
}

/// A value as a message quotes it: short, and in JSON's words.
pub fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) if s.chars().count() > 40 => {
            format!("\"{}…\"", s.chars().take(40).collect::<String>())
        }
        Value::String(s) => format!("\"{s}\""),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// Sorts problems in the order of the entries they name (`routes[2]` before
/// `routes[10]`, `cities` before `routes` as `fields` lists them), so that
/// the checks of one entry and those across entries read as one list.
pub fn in_file_order(problems: &mut [String], fields: &[&str]) {
    let key = |p: &String| {
        let path = p.split([':', ' ']).next().unwrap_or("");
        let field = path.split(['[', '.']).next().unwrap_or("");
        let section = fields.iter().position(|f| *f == field).unwrap_or(0);
        let numbers: Vec<usize> = path
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|n| n.parse().ok())
            .collect();
        (section, numbers)
    };
    problems.sort_by_cached_key(key);
}

/// Walks a parsed file, collecting every problem. Each getter returns `None`
/// for a missing or bad value after recording why.
#[derive(Default)]
pub struct Reader {
    /// Every problem found so far, each as "entry: message".
    pub problems: Vec<String>,
}

impl Reader {
    /// Records a problem at entry `at` (the whole file when `at` is empty).
    pub fn problem(&mut self, at: &str, message: impl std::fmt::Display) {
        if at.is_empty() {
            self.problems.push(message.to_string());
        } else {
            self.problems.push(format!("{at}: {message}"));
        }
    }

    /// An object whose fields are all among `known`; unknown fields (typos)
    /// are reported and ignored.
    pub fn object<'v>(
        &mut self,
        v: &'v Value,
        at: &str,
        known: &[&str],
    ) -> Option<&'v Map<String, Value>> {
        let Some(map) = v.as_object() else {
            let at = if at.is_empty() { "the file" } else { at };
            self.problem(
                at,
                format!("expected an object {{ … }}, got {}", describe(v)),
            );
            return None;
        };
        for key in map.keys() {
            if !known.contains(&key.as_str()) {
                self.problem(
                    at,
                    format!("unknown field \"{key}\" (known: {})", known.join(", ")),
                );
            }
        }
        Some(map)
    }

    /// A required field `key` of `map` (missing is a problem), read by
    /// `read` as `at.key`.
    pub fn required<'v, T>(
        &mut self,
        map: &'v Map<String, Value>,
        at: &str,
        key: &str,
        read: impl FnOnce(&mut Self, &'v Value, &str) -> Option<T>,
    ) -> Option<T> {
        let Some(v) = map.get(key) else {
            self.problem(at, format!("missing field \"{key}\""));
            return None;
        };
        read(self, v, &join(at, key))
    }

    /// An optional field: `Some(None)` when absent, `None` when present but
    /// bad (the problem recorded).
    pub fn optional<'v, T>(
        &mut self,
        map: &'v Map<String, Value>,
        at: &str,
        key: &str,
        read: impl FnOnce(&mut Self, &'v Value, &str) -> Option<T>,
    ) -> Option<Option<T>> {
        match map.get(key) {
            Some(v) => read(self, v, &join(at, key)).map(Some),
            None => Some(None),
        }
    }

    /// The `from` and `to` city names of a route or ticket entry (both
    /// checked, so that both problems are reported).
    pub fn ends(&mut self, map: &Map<String, Value>, at: &str) -> Option<(String, String)> {
        let from = self.required(map, at, "from", Self::string);
        let to = self.required(map, at, "to", Self::string);
        Some((from?.to_string(), to?.to_string()))
    }

    /// A string.
    pub fn string<'v>(&mut self, v: &'v Value, at: &str) -> Option<&'v str> {
        match v.as_str() {
            Some(s) => Some(s),
            None => {
                self.problem(at, format!("expected a string, got {}", describe(v)));
                None
            }
        }
    }

    /// A name: a non-blank string of at most [`MAX_NAME`] characters.
    pub fn name<'v>(&mut self, v: &'v Value, at: &str) -> Option<&'v str> {
        let s = self.string(v, at)?;
        if s.trim().is_empty() {
            self.problem(at, "must not be empty");
            None
        } else if s.chars().count() > MAX_NAME {
            self.problem(at, format!("longer than {MAX_NAME} characters"));
            None
        } else {
            Some(s)
        }
    }

    /// A whole number in `range`.
    pub fn integer(&mut self, v: &Value, at: &str, range: RangeInclusive<u32>) -> Option<u32> {
        let ok = v
            .as_u64()
            .or_else(|| {
                // 45.0 is a whole number too; 45.5 is not.
                v.as_f64()
                    .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= u64::MAX as f64)
                    .map(|f| f as u64)
            })
            .filter(|n| *n >= *range.start() as u64 && *n <= *range.end() as u64);
        match ok {
            Some(n) => Some(n as u32),
            None => {
                self.problem(
                    at,
                    format!(
                        "expected a whole number from {} to {}, got {}",
                        range.start(),
                        range.end(),
                        describe(v)
                    ),
                );
                None
            }
        }
    }

    /// A finite number of at most `max` either side of zero.
    pub fn number(&mut self, v: &Value, at: &str, max: f64) -> Option<f64> {
        match v.as_f64().filter(|f| f.abs() <= max) {
            Some(f) => Some(f),
            None => {
                self.problem(
                    at,
                    format!(
                        "expected a number from -{max} to {max}, got {}",
                        describe(v)
                    ),
                );
                None
            }
        }
    }

    /// `true` or `false`.
    pub fn boolean(&mut self, v: &Value, at: &str) -> Option<bool> {
        match v.as_bool() {
            Some(b) => Some(b),
            None => {
                self.problem(at, format!("expected true or false, got {}", describe(v)));
                None
            }
        }
    }

    /// A list of 1 to `max` entries; `empty` says what an empty one lacks.
    pub fn nonempty_list<'v>(
        &mut self,
        v: &'v Value,
        at: &str,
        max: usize,
        empty: &str,
    ) -> Option<&'v [Value]> {
        let list = self.list(v, at, max)?;
        if list.is_empty() {
            self.problem(at, empty);
            return None;
        }
        Some(list)
    }

    /// A list of at most `max` entries.
    pub fn list<'v>(&mut self, v: &'v Value, at: &str, max: usize) -> Option<&'v [Value]> {
        match v.as_array() {
            Some(a) if a.len() <= max => Some(a),
            Some(a) => {
                self.problem(
                    at,
                    format!("{} entries; at most {max} are allowed", a.len()),
                );
                None
            }
            None => {
                self.problem(at, format!("expected a list [ … ], got {}", describe(v)));
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_outside_the_range_or_not_whole_are_named() {
        let mut r = Reader::default();
        let v: Value = serde_json::from_str("[45, 45.0, 45.5, 4294967298, -1, \"3\"]").unwrap();
        let got: Vec<Option<u32>> = v
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(i, x)| r.integer(x, &index("cars", i), CARS))
            .collect();
        assert_eq!(got, [Some(45), Some(45), None, None, None, None]);
        assert_eq!(r.problems.len(), 4);
        assert_eq!(
            r.problems[1],
            "cars[3]: expected a whole number from 1 to 10000, got 4294967298"
        );
        assert!(r.problems[3].ends_with("got \"3\""));
    }

    #[test]
    fn a_byte_order_mark_is_skipped_and_syntax_errors_say_where_once() {
        assert!(parse("\u{feff}{}").is_ok());
        let e = parse("{\n  \"a\": 1,\n}").unwrap_err();
        assert_eq!((e.line, e.column), (3, 1));
        assert!(!e.message.contains("line"), "{}", e.message);
    }
}

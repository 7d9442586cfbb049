//! The parts of a view compared typed, field by field: only a field that
//! differs from the last push is turned into JSON, as the protocol's
//! `changed` (a value whole) or `patched` (a list's items by index).
//! Building and comparing whole views as JSON maps at every move costs
//! far more (the figures: `output/bench/play.md`).

use serde::Serialize;
use serde_json::{Map, Value};

/// How one field of a view changed.
pub enum Delta {
    /// Sent whole (`changed`).
    Whole(Value),
    /// A list that kept its length: its changed items by index, an
    /// object's changed keys or another value whole (`patched`).
    Patched(Map<String, Value>),
}

/// A value as JSON (`null` if it cannot be: only maps with keys that are
/// not strings fail, and no view has one).
pub fn json<T: Serialize + ?Sized>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// A value as a JSON object (empty if it is not one).
pub fn object<T: Serialize + ?Sized>(value: &T) -> Map<String, Value> {
    match json(value) {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// A field of a view: sent whole when it changes, but for lists
/// ([`list_delta`]).
pub trait Part: Serialize + PartialEq {
    /// How `new` differs from `old` (they differ).
    fn delta(_old: &Self, new: &Self) -> Delta {
        Delta::Whole(json(new))
    }
}

impl Part for bool {}
impl Part for u32 {}
impl Part for usize {}
impl Part for i64 {}
impl Part for String {}
impl Part for &'static str {}
impl<T: Serialize + PartialEq> Part for Option<T> {}

impl<T: Serialize + PartialEq> Part for Vec<T> {
    fn delta(old: &Self, new: &Self) -> Delta {
        list_delta(old, new)
    }
}

/// A JSON value is a list when it is an array.
impl Part for Value {
    fn delta(old: &Self, new: &Self) -> Delta {
        match (old, new) {
            (Value::Array(o), Value::Array(n)) => list_delta(o, n),
            _ => Delta::Whole(new.clone()),
        }
    }
}

/// The items of list `new` that differ from `old`'s, by index (an
/// object's changed keys, any other value whole), or the list whole when
/// the lengths differ, or an item stopped being an object or lost a key.
/// A move changes one player's counts and one track's owner: the whole
/// lists were most of a change's bytes.
pub fn list_delta<T: Serialize + PartialEq>(old: &[T], new: &[T]) -> Delta {
    if old.len() != new.len() {
        return Delta::Whole(json(new));
    }
    let mut out = Map::new();
    for (i, (o, n)) in old.iter().zip(new).enumerate() {
        if o == n {
            continue;
        }
        let item = match (json(o), json(n)) {
            (Value::Object(o), Value::Object(n)) => {
                if o.keys().any(|k| !n.contains_key(k)) {
                    return Delta::Whole(json(new));
                }
                let keys = n.into_iter().filter(|(k, v)| o.get(k) != Some(v));
                Value::Object(keys.collect())
            }
            (Value::Object(_), _) | (_, Value::Object(_)) => return Delta::Whole(json(new)),
            (_, n) => n,
        };
        out.insert(i.to_string(), item);
    }
    Delta::Patched(out)
}

/// A struct of a view whose fields are compared one by one: each field
/// carries its protocol name, and `changes` adds every field that differs
/// from an older value to `changed` or `patched` under that name.
macro_rules! view_part {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $( $(#[$field_meta:meta])* $field:ident: $ty:ty => $key:literal, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(serde::Serialize, Clone, PartialEq)]
        $vis struct $name {
            $( $(#[$field_meta])* #[serde(rename = $key)] $field: $ty, )*
        }

        impl $name {
            /// Adds each field that differs from `old`'s to `changed`
            /// (whole) or `patched` (a list's items by index).
            pub fn changes(
                &self,
                old: &Self,
                changed: &mut serde_json::Map<String, serde_json::Value>,
                patched: &mut serde_json::Map<String, serde_json::Value>,
            ) {
                use $crate::play::delta::{Delta, Part};
                $(
                    if self.$field != old.$field {
                        match <$ty as Part>::delta(&old.$field, &self.$field) {
                            Delta::Whole(v) => {
                                changed.insert($key.into(), v);
                            }
                            Delta::Patched(p) => {
                                patched.insert($key.into(), serde_json::Value::Object(p));
                            }
                        }
                    }
                )*
            }
        }
    };
}
pub(crate) use view_part;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Serialize, Clone, PartialEq)]
    struct Item {
        a: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        b: Option<u32>,
    }

    fn patched(d: Delta) -> Value {
        match d {
            Delta::Patched(p) => json!({ "patched": p }),
            Delta::Whole(v) => json!({ "whole": v }),
        }
    }

    #[test]
    fn lists_are_patched_by_item_and_sent_whole_when_they_cannot_be() {
        let old = vec![Item { a: 1, b: Some(2) }, Item { a: 3, b: None }];
        let mut new = old.clone();
        new[1].a = 4;
        assert_eq!(
            patched(list_delta(&old, &new)),
            json!({ "patched": { "1": { "a": 4 } } })
        );
        // A lost key cannot be patched: the list goes whole.
        new[0].b = None;
        assert_eq!(
            patched(list_delta(&old, &new)),
            json!({ "whole": [{ "a": 1 }, { "a": 4 }] })
        );
        // So does a list of another length.
        assert_eq!(
            patched(list_delta(&old, &old[..1])),
            json!({ "whole": [{ "a": 1, "b": 2 }] })
        );
        // Items that are not objects are sent whole, by index.
        let (o, n) = (vec![Some(1), None], vec![Some(1), Some(0)]);
        assert_eq!(
            patched(list_delta(&o, &n)),
            json!({ "patched": { "1": 0 } })
        );
    }
}

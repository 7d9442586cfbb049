//! What each view of a game was last pushed, and the changes since: a
//! push sends each view (a seat, or the spectators) only what changed
//! ([`Sent::push`]), compared field by field on the typed views of
//! [`super::view`]; [`apply`] is the protocol's meaning of a change, as a
//! page applies it.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::{json, Map, Value};

use super::delta::json as json_of;
use super::store::UserId;
use super::table::Table;
use super::view::{
    parts_json, private_parts, public_parts, Hand, LobbyEntry, Own, Public, HISTORY,
};

/// The game as `seat` may see it ([`super::view::model_at`]), with the
/// version of that view the game's next push applies to (`sent`: what
/// its views were pushed, if anything yet).
pub fn model(table: &Table, seat: Option<usize>, sent: Option<&Sent>) -> Value {
    let version = sent.map_or_else(first_version, |s| s.version(seat));
    super::view::model_at(table, seat, version)
}

/// The first version of every view in this run of the server: its start
/// time in milliseconds, so that a version a page kept from before a
/// restart never matches one of this run (the page then asks for the
/// whole model again).
fn first_version() -> u64 {
    static FIRST: OnceLock<u64> = OnceLock::new();
    *FIRST.get_or_init(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_millis() as u64)
    })
}

/// A version no view has had in this run: versions are unique across
/// views and games, so that a page whose seat moved (a player left an
/// open game before it) never applies another view's changes.
fn next_version() -> u64 {
    static PUSHES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    first_version() + PUSHES.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// What one view of a game (a seat, or the spectators) was last pushed.
struct SentView {
    /// The version the next push's changes apply to.
    version: u64,
    /// Its own parts ([`private_parts`]) as pushed.
    own: Own,
    /// The hand as pushed (a seat's, once dealt).
    hand: Option<Hand>,
    /// The history's length then.
    history: usize,
}

/// What a game's views were last pushed: a push sends each only what
/// changed since ([`Sent::push`]): the whole model (the rules, the last
/// history and chat lines) built and written for each player at every
/// change would be most of the server's CPU under load.
#[derive(Default)]
pub struct Sent {
    /// The parts every view shares ([`public_parts`]), as last pushed.
    public: Option<Public>,
    views: HashMap<Option<usize>, SentView>,
    /// Each player's entry of the game in their list of games, as last
    /// pushed (`userGameChanged`).
    entries: HashMap<UserId, LobbyEntry>,
}

impl Sent {
    /// The version of `seat`'s view (`None`: the spectators') that the
    /// next push's changes apply to.
    pub fn version(&self, seat: Option<usize>) -> u64 {
        self.views
            .get(&seat)
            .map_or_else(first_version, |v| v.version)
    }

    /// Whether `entry`, `user`'s entry of the game in their list of
    /// games, differs from the one last pushed to them (then it is kept as
    /// pushed). A move within a turn (a first card drawn) changes no
    /// entry, and is not worth a message to anyone.
    pub fn entry_changed(&mut self, user: UserId, entry: &LobbyEntry) -> bool {
        if self.entries.get(&user) == Some(entry) {
            return false;
        }
        self.entries.insert(user, entry.clone());
        true
    }

    /// `modelChanged` for each of `views` (a seat, or `None`: the
    /// spectators) whose model changed since the last push: what
    /// changed, applied by [`apply`] to the model of version `base`,
    /// gives the model of version `version`. Each key of `changed`
    /// replaces the model's; `patched` names, for a list that kept its
    /// length (the players, the tracks' owners), the items that changed
    /// by index (an object's changed keys, another value whole);
    /// `historyAdded` lines are appended to `history`, of which the model
    /// keeps the last [`HISTORY`]. A view pushed for the first time gets
    /// every part. The views not named are forgotten (a seat that left, or
    /// spectators no longer there): their next push sends every part.
    pub fn push(&mut self, table: &Table, views: &[Option<usize>]) -> Vec<(Option<usize>, Value)> {
        self.views.retain(|v, _| views.contains(v));
        let public = public_parts(table);
        let shared = self.public.as_ref().map(|old| {
            let (mut changed, mut patched) = (Map::new(), Map::new());
            public.changes(old, &mut changed, &mut patched);
            (changed, patched)
        });
        let mut out = Vec::new();
        for &seat in views {
            let (own, hand) = private_parts(table, seat);
            let view = self.views.get(&seat);
            let (mut changed, mut patched, added, base) = match (view, &shared) {
                (Some(view), Some((changed, patched))) => {
                    let (mut changed, mut patched) = (changed.clone(), patched.clone());
                    own.changes(&view.own, &mut changed, &mut patched);
                    let added = table.history.get(view.history..).unwrap_or(&[]);
                    (changed, patched, added, view.version)
                }
                _ => {
                    let mut changed = parts_json(&public, &own, None, seat);
                    let h = &table.history[table.history.len().saturating_sub(HISTORY)..];
                    changed.insert("history".into(), h.into());
                    (changed, Map::new(), &[][..], first_version())
                }
            };
            let old_hand = view.and_then(|v| v.hand.as_ref());
            if let (Some(h), Some(s)) = (&hand, seat) {
                if let Some(p) = changed.get_mut("players").and_then(|p| p.get_mut(s)) {
                    p["cards"] = json_of(h);
                } else if old_hand != Some(h) {
                    let items = patched.entry("players").or_insert_with(|| json!({}));
                    let item = &mut items[s.to_string()];
                    if item.is_null() {
                        *item = json!({});
                    }
                    item["cards"] = json_of(h);
                }
            }
            if changed.is_empty() && patched.is_empty() && added.is_empty() {
                continue;
            }
            let version = next_version();
            let mut change = json!({ "gameId": table.id, "base": base, "version": version });
            if !changed.is_empty() {
                change["changed"] = Value::Object(changed);
            }
            if !patched.is_empty() {
                change["patched"] = Value::Object(patched);
            }
            if !added.is_empty() {
                change["historyAdded"] = added.into();
            }
            self.views.insert(
                seat,
                SentView {
                    version,
                    own,
                    hand,
                    history: table.history.len(),
                },
            );
            out.push((seat, change));
        }
        self.public = Some(public);
        out
    }
}

/// Applies `modelChanged`'s output to `model`, as a page does: the
/// protocol's meaning of a change, kept beside [`Sent::push`] so that the
/// tests check one against the other. False (and `model` untouched) if
/// the change does not follow it.
pub fn apply(model: &mut Value, change: &Value) -> bool {
    if model["version"] != change["base"] || model["gameId"] != change["gameId"] {
        return false;
    }
    if let (Some(m), Some(c)) = (model.as_object_mut(), change["changed"].as_object()) {
        for (k, v) in c {
            m.insert(k.clone(), v.clone());
        }
    }
    for (key, items) in change["patched"].as_object().into_iter().flatten() {
        for (i, item) in items.as_object().into_iter().flatten() {
            let Some(slot) = i.parse::<usize>().ok().and_then(|i| model[key].get_mut(i)) else {
                continue;
            };
            match (slot.as_object_mut(), item.as_object()) {
                (Some(o), Some(keys)) => o.extend(keys.clone()),
                _ => *slot = item.clone(),
            }
        }
    }
    if let Some(added) = change["historyAdded"].as_array() {
        if let Some(h) = model["history"].as_array_mut() {
            h.extend(added.iter().cloned());
            let extra = h.len().saturating_sub(HISTORY);
            h.drain(..extra);
        }
    }
    model["version"] = change["version"].clone();
    true
}

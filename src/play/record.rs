//! A move as it is stored and saved: the rules engine's [`Action`] with
//! routes and tickets by index, as JSON (`{"move": "claim", "route": 3,
//! "track": 0, "colour": "red", "locomotives": 1}`).

use serde::{Deserialize, Serialize};

use crate::board::{Colour, RouteId, TicketId};
use crate::game::rules::Action;

/// One move, by the indexes of the board file it was played on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "move", rename_all = "snake_case", deny_unknown_fields)]
pub enum Move {
    /// Took face-up card `index`.
    FaceUp {
        /// Its place in the row, 0–4.
        index: usize,
    },
    /// Took the top card of the deck.
    Deck,
    /// Drew tickets.
    Tickets,
    /// Kept these of the tickets offered (ticket indexes).
    Keep {
        /// The tickets kept, by index.
        tickets: Vec<usize>,
    },
    /// Claimed a track.
    Claim {
        /// The route's index.
        route: usize,
        /// The track's index in the route.
        track: usize,
        /// The colour of the cards paid.
        colour: Colour,
        /// Locomotives paid.
        locomotives: u32,
    },
    /// Passed (no other move was possible).
    Pass,
}

impl From<&Action> for Move {
    fn from(a: &Action) -> Move {
        match a {
            Action::DrawFaceUp(i) => Move::FaceUp { index: *i },
            Action::DrawDeck => Move::Deck,
            Action::DrawTickets => Move::Tickets,
            Action::KeepTickets(kept) => Move::Keep {
                tickets: kept.iter().map(|t| t.0).collect(),
            },
            Action::Claim {
                route,
                track,
                colour,
                locomotives,
            } => Move::Claim {
                route: route.0,
                track: *track,
                colour: *colour,
                locomotives: *locomotives,
            },
            Action::Pass => Move::Pass,
        }
    }
}

impl From<&Move> for Action {
    fn from(m: &Move) -> Action {
        match m {
            Move::FaceUp { index } => Action::DrawFaceUp(*index),
            Move::Deck => Action::DrawDeck,
            Move::Tickets => Action::DrawTickets,
            Move::Keep { tickets } => {
                Action::KeepTickets(tickets.iter().map(|&t| TicketId(t)).collect())
            }
            Move::Claim {
                route,
                track,
                colour,
                locomotives,
            } => Action::Claim {
                route: RouteId(*route),
                track: *track,
                colour: *colour,
                locomotives: *locomotives,
            },
            Move::Pass => Action::Pass,
        }
    }
}

impl Move {
    /// The move as stored.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A stored move; the message says what is wrong.
    pub fn from_json(text: &str) -> Result<Move, String> {
        serde_json::from_str(text).map_err(|e| format!("move {text}: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_round_trips() {
        let actions = [
            Action::DrawFaceUp(4),
            Action::DrawDeck,
            Action::DrawTickets,
            Action::KeepTickets(vec![TicketId(3), TicketId(0)]),
            Action::Claim {
                route: RouteId(7),
                track: 1,
                colour: Colour::Pink,
                locomotives: 2,
            },
            Action::Pass,
        ];
        for a in &actions {
            let text = Move::from(a).to_json();
            assert_eq!(Action::from(&Move::from_json(&text).unwrap()), *a, "{text}");
        }
        assert_eq!(
            Move::from(&actions[4]).to_json(),
            r#"{"move":"claim","route":7,"track":1,"colour":"pink","locomotives":2}"#
        );
        assert!(Move::from_json(r#"{"move":"fly"}"#).is_err());
    }
}

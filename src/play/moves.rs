//! A move command as the rules engine's action ([`move_of`]), the answer
//! named after it ([`answer_name`]), and the engine's refusal in the
//! protocol's words ([`refusal`]): the wire's moves on one side, the
//! engine's on the other.

use serde_json::{json, Value};

use super::protocol::{self, description as d, MoveCommand};
use super::table::{parse_colour, Table};
use crate::board::Colour;
use crate::engine::rules::{Action, Illegal, RuleError};

/// The rules engine's action for a move command of `seat`.
pub(super) fn move_of(t: &Table, seat: usize, m: &MoveCommand) -> Result<Action, Value> {
    match m {
        MoveCommand::BuyRoute(p) => {
            let &(route, track) = usize::try_from(p.route_index)
                .ok()
                .and_then(|i| t.board.tracks.get(i))
                .ok_or_else(|| protocol::described(d::INVALID_ROUTE))?;
            let length = t.board.board.route(route).length;
            let locomotives = u32::try_from(p.number_of_wilds).ok().filter(|&w| w <= length).ok_or_else(|| {
                json!({ "description": d::INSUFFICIENT_CARDS, "reason": format!("{} wilds for a route of {length}", p.number_of_wilds) })
            })?;
            let colour = if p.train_color.trim().eq_ignore_ascii_case("wild") {
                if locomotives < length {
                    return Err(
                        json!({ "description": d::INVALID_TRAIN_COLOR, "reason": "wild names a payment in wilds only" }),
                    );
                }
                match t.board.board.route(route).tracks[track] {
                    Colour::Gray => Colour::Red,
                    c => c,
                }
            } else {
                parse_colour(&p.train_color)
                    .ok_or_else(|| protocol::described(d::INVALID_TRAIN_COLOR))?
            };
            Ok(Action::Claim {
                route,
                track,
                colour,
                locomotives,
            })
        }
        MoveCommand::DrawTrainCard(p) => match p.card_location {
            0..=4 => Ok(Action::DrawFaceUp(p.card_location as usize)),
            5 => Ok(Action::DrawDeck),
            _ => Err(protocol::described(d::INVALID_CARD_LOCATION)),
        },
        MoveCommand::GetDestinations(_) => Ok(Action::DrawTickets),
        MoveCommand::PassTurn(_) => Ok(Action::Pass),
        MoveCommand::GiveUpTunnel(_) => Ok(Action::GiveUpTunnel),
        MoveCommand::PayTunnel(p) => {
            let locomotives = u32::try_from(p.number_of_wilds).map_err(|_| {
                json!({ "description": d::TUNNEL, "reason": format!("{} wilds", p.number_of_wilds) })
            })?;
            Ok(Action::PayTunnel { locomotives })
        }
        MoveCommand::BuildStation(p) => {
            let cities = &t.board.board.cities;
            let name = p.city.trim();
            let city = cities
                .iter()
                .position(|c| c.name == name)
                .or_else(|| cities.iter().position(|c| c.name.eq_ignore_ascii_case(name)))
                .map(crate::board::CityId)
                .ok_or_else(|| {
                    json!({ "description": d::INVALID_STATION, "reason": format!("no city is named {name:?}") })
                })?;
            let locomotives = u32::try_from(p.number_of_wilds).map_err(|_| {
                json!({ "description": d::INSUFFICIENT_CARDS, "reason": format!("{} wilds", p.number_of_wilds) })
            })?;
            let colour = if p.train_color.trim().eq_ignore_ascii_case("wild") {
                // Paid in wilds alone: the colour is not read.
                Colour::Red
            } else {
                parse_colour(&p.train_color)
                    .ok_or_else(|| protocol::described(d::INVALID_TRAIN_COLOR))?
            };
            Ok(Action::BuildStation {
                city,
                colour,
                locomotives,
            })
        }
        MoveCommand::SelectDestinations(p) => {
            let g = t
                .game()
                .ok_or_else(|| protocol::described(d::NOT_YOUR_TURN))?;
            let Some((offered, _)) = g.offer(seat) else {
                let mine = !g.is_over() && !g.in_setup() && g.current() == seat;
                return Err(protocol::described(if mine {
                    d::NO_DESTINATIONS
                } else {
                    d::NOT_YOUR_TURN
                }));
            };
            if p.destinations_selected.len() > offered.len() {
                return Err(protocol::described(d::NOT_A_VALID_INDEX));
            }
            let kept = p
                .destinations_selected
                .iter()
                .map(|&i| {
                    usize::try_from(i)
                        .ok()
                        .and_then(|i| offered.get(i))
                        .copied()
                })
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| protocol::described(d::NOT_A_VALID_INDEX))?;
            Ok(Action::KeepTickets(kept))
        }
    }
}

/// The command that asks for `action`: the name of the answer to it.
pub(super) fn answer_name(action: &Action) -> &'static str {
    use protocol::Name;
    let name = match action {
        Action::Claim { .. } => Name::BuyRoute,
        Action::DrawFaceUp(_) | Action::DrawDeck => Name::DrawTrainCard,
        Action::DrawTickets => Name::GetDestinations,
        Action::KeepTickets(_) => Name::SelectDestinations,
        Action::Pass => Name::PassTurn,
        Action::PayTunnel { .. } => Name::PayTunnel,
        Action::GiveUpTunnel => Name::GiveUpTunnel,
        Action::BuildStation { .. } => Name::BuildStation,
    };
    name.as_str()
}

/// 003's description of a move the rules engine refused.
pub(super) fn refusal(m: &MoveCommand, e: &RuleError) -> &'static str {
    match e.kind {
        Illegal::NotYourTurn => d::NOT_YOUR_TURN,
        Illegal::Over => d::GAME_OVER,
        Illegal::ChooseTickets => d::SELECT_FIRST,
        Illegal::DrawSecond => d::DRAW_SECOND,
        Illegal::LocomotiveSecond => d::WILD_ON_DRAW_AGAIN,
        Illegal::NoCard => match m {
            MoveCommand::DrawTrainCard(p) if p.card_location == 5 => d::NO_MORE_CARDS,
            _ => d::INVALID_CARD_LOCATION,
        },
        Illegal::NoTicket if matches!(m, MoveCommand::SelectDestinations(_)) => d::NO_DESTINATIONS,
        Illegal::NoTicket => d::NO_MORE_DESTINATIONS,
        Illegal::KeepMore => d::SELECT_MORE,
        Illegal::NotOffered => d::NOT_A_VALID_INDEX,
        Illegal::RouteUnavailable => d::INVALID_ROUTE,
        Illegal::Cars => d::INSUFFICIENT_TRAINS,
        Illegal::Colour => d::INVALID_TRAIN_COLOR,
        Illegal::Cards => d::INSUFFICIENT_CARDS,
        Illegal::Pass => d::PASS_NOT_ALLOWED,
        Illegal::Tunnel => d::TUNNEL,
        Illegal::Station => d::INVALID_STATION,
        Illegal::Setup => d::SERVER_ERROR,
    }
}

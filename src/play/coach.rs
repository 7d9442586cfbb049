//! The coach and the review, as the online game serves them.
//!
//! - `getCoach`: the best plan from here for the asking player's seat
//!   ([`crate::plans::coach::advise`]), from [`crate::play::hub::Hub::coach_input`]: that
//!   player's own state and offer, never another's hand or tickets, nor the
//!   deck. Open during the game only where its creator allowed it, and to
//!   every player once it is over.
//! - `getReview`: once the game is over, every player's review
//!   ([`crate::plans::review`]), computed on the first request and kept.
//!
//! Both think on one thread of their own, away from the lock and from the
//! threads that serve the game, so a long plan never delays a move; a
//! queue of more than [`MAX_QUEUED`] requests is refused as busy.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use serde_json::{json, Value};

use super::hub::{CoachInput, ConnId, ReviewStart};
use super::protocol::{self, description as d, Request};
use super::table::TableBoard;
use super::view::destination;
use super::Server;
use crate::board::RouteId;
use crate::plans::coach::{advise, Advice};
use crate::plans::review::{review_saved, ReviewOptions};
use crate::solve::SolveOptions;

/// Requests the coach's thread holds at most (running and waiting).
pub const MAX_QUEUED: usize = 8;

impl Server {
    /// `getCoach`: checked under the lock, planned on the coach's thread,
    /// answered to the asking connection only.
    pub(super) async fn coach(self: &Arc<Self>, conn: ConnId, req: &Request) {
        let id = req.id.as_ref();
        let input = self.hub().coach_input(conn, req);
        let out = match input {
            Err(out) => out,
            Ok(input) => {
                let limit = self.coach_limit;
                self.think(move || {
                    let options = SolveOptions {
                        time_limit: Some(limit),
                        ..SolveOptions::default()
                    };
                    let offer = input.offer.as_ref().map(|(o, min)| (o.as_slice(), *min));
                    match advise(&input.board.board, &input.state, offer, &options) {
                        Ok(advice) => advice_json(&input, &advice),
                        Err(e) => {
                            eprintln!("ttr-opt play: game {}: the coach failed: {e}", input.game);
                            protocol::described(d::SERVER_ERROR)
                        }
                    }
                })
                .await
                .unwrap_or_else(|out| out)
            }
        };
        self.hub().reply(conn, "getCoach", id, out);
    }

    /// `getReview`: the review kept, or computed once for every player who
    /// asks while it is.
    pub(super) async fn review(self: &Arc<Self>, conn: ConnId, req: &Request) {
        let id = req.id.as_ref();
        let start = self.hub().review_input(conn, req);
        let (game, board, saved) = match start {
            Err(out) => return self.hub().reply(conn, "getReview", id, out),
            Ok(ReviewStart::Ready(out)) => {
                return self.hub().reply(conn, "getReview", id, (*out).clone())
            }
            Ok(ReviewStart::Waiting) => return,
            Ok(ReviewStart::Compute(game, board, saved)) => (game, board, saved),
        };
        let limit = self.coach_limit;
        let out = self
            .think(move || {
                // The board's optimum is solved once per board and kept.
                let options = ReviewOptions {
                    time_limit: limit,
                    board_optimum: board.optimum.get().copied(),
                    ..ReviewOptions::default()
                };
                review_saved(&board.board, &saved, &options)
                    .map(|r| {
                        if r.board_optimum_proven {
                            let _ = board.optimum.set((r.board_optimum, true));
                        }
                        json!({ "description": d::SUCCESS, "gameId": game, "review": r })
                    })
                    .map_err(|e| {
                        eprintln!("ttr-opt play: game {game}: the review failed: {e}");
                        protocol::described(d::SERVER_ERROR)
                    })
            })
            .await
            .and_then(|r| r);
        self.hub().review_done(game, out);
    }

    /// Runs `work` on the coach's thread; refused as busy past
    /// [`MAX_QUEUED`].
    async fn think<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Value> {
        if self.coach_queue.fetch_add(1, Ordering::SeqCst) >= MAX_QUEUED {
            self.coach_queue.fetch_sub(1, Ordering::SeqCst);
            return Err(protocol::described(d::COACH_BUSY));
        }
        let out = super::on_pool(&self.coaching, work)
            .await
            .ok_or_else(|| protocol::described(d::SERVER_ERROR));
        self.coach_queue.fetch_sub(1, Ordering::SeqCst);
        out
    }
}

/// The tracks of `route` by `routeIndex`, for the page to draw.
fn indexes(board: &TableBoard, route: RouteId) -> Vec<usize> {
    board
        .tracks
        .iter()
        .enumerate()
        .filter(|(_, &(r, _))| r == route)
        .map(|(i, _)| i)
        .collect()
}

/// The `getCoach` answer.
fn advice_json(input: &CoachInput, a: &Advice) -> Value {
    let board = &input.board.board;
    let p = &a.plan;
    let route = |&r: &RouteId| {
        let x = board.route(r);
        json!({
            "label": board.route_label(r),
            "length": x.length,
            "points": x.points,
            "routeIndexes": indexes(&input.board, r),
        })
    };
    let offered = input.offer.as_ref().map_or(&[][..], |(o, _)| o.as_slice());
    let mut answer = json!({
        "description": d::SUCCESS,
        "gameId": input.game,
        "playerId": input.seat,
        "score": p.score,
        "bound": p.bound,
        "proven": a.proven(),
        "seconds": (a.seconds * 100.0).round() / 100.0,
        "ownedPoints": p.owned_points,
        "toGain": p.to_gain(),
        "trainsLeft": input.state.cars_left,
        "carsNeeded": p.claim_cars,
        "claim": p.claim.iter().map(route).collect::<Vec<_>>(),
        "completed": p.completed.iter().map(|&t| destination(board, t)).collect::<Vec<_>>(),
        "lost": p.lost.iter().map(|&t| destination(board, t)).collect::<Vec<_>>(),
        "choices": a.choices.iter().map(|c| json!({
            "keep": c.keep.iter().filter_map(|t| offered.iter().position(|o| o == t)).collect::<Vec<_>>(),
            "score": c.score,
            "bound": c.bound,
            "proven": c.proven,
        })).collect::<Vec<_>>(),
    });
    // On a board with stations: those the plan builds or uses, each with
    // the other player's route it counts for tickets.
    if input.state.stations.is_some() {
        answer["stations"] = p
            .borrowed
            .iter()
            .map(|b| {
                json!({
                    "city": board.city(b.city).name,
                    "borrows": board.route_label(b.route),
                    "new": b.new,
                })
            })
            .collect::<Vec<_>>()
            .into();
        answer["stationPoints"] = p.station_points.into();
    }
    answer
}

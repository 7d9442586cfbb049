//! What a move did: the rules engine's account of each legal move, as
//! [`Game::apply`](crate::engine::rules::Game::apply) returns it.
//!
//! An [`Event`] says everything a caller would otherwise work out by
//! comparing the game before and after: the card drawn and from where, the
//! cards newly face up, a reshuffle; the tickets offered, kept and
//! returned; the track claimed, the cards paid and the tickets it
//! completed; and what follows: the same player again, the next player's
//! turn (and whether the last round began), or the end of the game and why.
//!
//! **An event holds secrets.** The card drawn from the deck and the tickets
//! offered, kept and returned are the moving player's own: only the
//! online game's player view (`play/view.rs`), which sends each player what
//! they may see, may send them, and only to that player. Everything else
//! (simulations, replays, reviews) reads them freely, as it reads the game.

use crate::board::{CityId, Colour, RouteId, TicketId};
use crate::engine::cards::Card;

/// A legal move's outcome: who moved, what the move did, and what follows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The player who moved.
    pub player: usize,
    /// What the move itself did.
    pub happened: Happened,
    /// What follows the move.
    pub next: Next,
}

/// What a move itself did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Happened {
    /// A train card drawn (secret when drawn from the deck).
    Drew(Draw),
    /// Tickets drawn (3, fewer when the deck had fewer), which the player
    /// chooses from now (secret).
    TicketsOffered(Vec<TicketId>),
    /// Tickets chosen, from those dealt at the start or just drawn (secret
    /// until the end of the game; their count is public).
    TicketsKept {
        /// The tickets kept, in the order given.
        kept: Vec<TicketId>,
        /// The others, now under the ticket deck in this order.
        returned: Vec<TicketId>,
    },
    /// A track claimed.
    Claimed(Claimed),
    /// A tunnel's claim turned cards from the deck that ask for more
    /// cards, and the player can pay them: the same player now pays
    /// ([`Action::PayTunnel`](crate::engine::rules::Action::PayTunnel)) or
    /// gives up. The turned cards are public.
    TunnelDrawn(Tunnel),
    /// A tunnel given up (by choice, or because the hand could not pay
    /// the extra cards): the cards paid are back in hand, the turned cards
    /// on the discard pile, and the turn is spent.
    TunnelGivenUp(Tunnel),
    /// A station built.
    StationBuilt {
        /// Its city.
        city: CityId,
        /// The cards paid, now on the discard pile.
        paid: Paid,
    },
    /// The turn passed without a move (no other was possible).
    Passed,
}

/// A train card drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draw {
    /// The card, now in the player's hand.
    pub card: Card,
    /// Where it came from (with, from the face-up row, what replaced it).
    pub from: Source,
    /// Whether it was the second card of the turn's draw.
    pub second: bool,
    /// Whether the deck ran out during the draw and the discard pile was
    /// shuffled to become the new deck.
    pub reshuffled: bool,
}

/// Where a drawn card came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The face-up row, at this place (0–4); the row is then refilled.
    FaceUp {
        /// The card's place in the row before the draw.
        slot: usize,
        /// The cards newly face up once the row was refilled: usually one,
        /// at the end of the row (the cards after `slot` move one place
        /// left); none when the deck and discard pile are empty; the whole
        /// row when it was dealt again (`redeals` > 0).
        revealed: Vec<Card>,
        /// Times the row showed three locomotives and was discarded and
        /// dealt again.
        redeals: u32,
    },
    /// The top of the deck.
    Deck,
}

/// A track claimed, and what it cost and brought.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claimed {
    /// The route.
    pub route: RouteId,
    /// The track's index in the route's `tracks`.
    pub track: usize,
    /// The cards paid, now on the discard pile (for a tunnel, the extra
    /// cards included).
    pub paid: Paid,
    /// Held tickets (each by its first trip) that the claim completed: not
    /// completed by the player's routes before it, completed after.
    pub completed: Vec<TicketId>,
    /// The cards turned from the deck for a tunnel, now on the discard
    /// pile (none for other routes).
    pub turned: Vec<Card>,
}

/// A tunnel being claimed: what was paid, the cards turned and how many
/// more cards they ask for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tunnel {
    /// The route.
    pub route: RouteId,
    /// The track's index in the route's `tracks`.
    pub track: usize,
    /// The cards paid first (still in the player's hand until the claim
    /// is made or given up).
    pub paid: Paid,
    /// The cards turned from the deck (3, fewer when the deck and discard
    /// pile ran out).
    pub turned: Vec<Card>,
    /// Extra cards asked for: each turned card of the colour paid, or a
    /// locomotive (only locomotives when only locomotives were paid).
    pub required: u32,
}

/// The cards paid for a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paid {
    /// The coloured cards: their colour and how many (`None` when only
    /// locomotives were paid).
    pub cards: Option<(Colour, u32)>,
    /// The locomotives paid, standing in for coloured cards.
    pub locomotives: u32,
}

/// What follows a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// The same player moves again, in the same turn: the second card of a
    /// draw, or the choice among tickets just drawn.
    Again,
    /// The player's start-of-game ticket choice is made; others are still
    /// choosing theirs.
    Waiting,
    /// The start-of-game choice is over (this was the last one): the first
    /// turn begins, this player's.
    FirstTurn {
        /// The player to move.
        player: usize,
    },
    /// The mover's turn ended and the next player's turn begins.
    Turn {
        /// The player to move.
        player: usize,
        /// The mover ended the turn with 2 or fewer cars and the last round
        /// began with it: every player, the mover included, has one more
        /// turn.
        last_round_began: bool,
    },
    /// The mover's turn ended and the game with it.
    Over(Ending),
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Every player had their turn of the last round.
    LastRound,
    /// Nobody could move: more than
    /// [`STALL_PASSES`](crate::engine::rules::STALL_PASSES) passes per player
    /// in a row.
    Stalled,
}

impl Event {
    /// The card drawn, if the move drew one.
    pub fn card(&self) -> Option<Card> {
        match &self.happened {
            Happened::Drew(draw) => Some(draw.card),
            _ => None,
        }
    }

    /// The tickets the move completed (none unless it was a claim; a
    /// station's use is only counted at the end).
    pub fn completed(&self) -> &[TicketId] {
        match &self.happened {
            Happened::Claimed(c) => &c.completed,
            _ => &[],
        }
    }

    /// Whether the move ended the mover's turn (a draw's second card, a
    /// claim, tickets kept after a draw, a pass; not a start-of-game
    /// choice).
    pub fn ends_turn(&self) -> bool {
        matches!(self.next, Next::Turn { .. } | Next::Over(_))
    }

    /// The player whose turn begins with this move, if one does.
    pub fn turn_begins(&self) -> Option<usize> {
        match self.next {
            Next::FirstTurn { player } | Next::Turn { player, .. } => Some(player),
            _ => None,
        }
    }

    /// Whether the last round began with this move.
    pub fn last_round_began(&self) -> bool {
        matches!(
            self.next,
            Next::Turn {
                last_round_began: true,
                ..
            }
        )
    }

    /// Why the game ended, if it ended with this move.
    pub fn ended(&self) -> Option<Ending> {
        match self.next {
            Next::Over(why) => Some(why),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::board::Board;
    use crate::engine::cards::COLOURS;
    use crate::engine::rules::{Action, Game};

    fn route(b: &Board, a: &str, c: &str) -> RouteId {
        b.route_ids()
            .find(|&r| {
                let l = b.route_label(r);
                l == format!("{a} – {c}") || l == format!("{c} – {a}")
            })
            .unwrap_or_else(|| panic!("no route {a} – {c}"))
    }

    fn ticket(b: &Board, a: &str, c: &str) -> TicketId {
        b.ticket_ids()
            .find(|&t| {
                let x = b.ticket(t);
                (b.city(x.a).name.as_str(), b.city(x.b).name.as_str()) == (a, c)
            })
            .unwrap_or_else(|| panic!("no ticket {a} – {c}"))
    }

    /// A deck drawn from the end: `top` are the first cards drawn, in
    /// order (each player's 4, then the face-up row), over `bottom` cards
    /// of the 8 colours in turn.
    fn deck(top: &[Card], bottom: usize) -> Vec<Card> {
        let mut d: Vec<Card> = (0..bottom).map(|i| Card::Train(COLOURS[i % 8])).collect();
        d.extend(top.iter().rev());
        d
    }

    const L: Card = Card::Locomotive;
    const R: Card = Card::Train(Colour::Red);
    const G: Card = Card::Train(Colour::Green);
    const B: Card = Card::Train(Colour::Blue);
    const W: Card = Card::Train(Colour::White);

    /// Two players; player 0 holds 4 locomotives and is dealt Denver – El
    /// Paso first; the face-up row is red, green, blue, white, red.
    fn game(board: &Board) -> Game<'_> {
        let top = [L, L, L, L, R, R, G, G, R, G, B, W, R];
        let mut tickets: VecDeque<TicketId> = board.ticket_ids().collect();
        let first = ticket(board, "Denver", "El Paso");
        tickets.retain(|&t| t != first);
        tickets.push_front(first);
        let rng = ChaCha8Rng::seed_from_u64(7);
        Game::with_decks(board, 2, deck(&top, 60), tickets, rng).unwrap()
    }

    fn keep_all(g: &mut Game, p: usize) -> Event {
        let (offered, _) = g.offer(p).unwrap();
        let kept = offered.to_vec();
        g.apply(p, &Action::KeepTickets(kept)).unwrap()
    }

    fn claim(route: RouteId, colour: Colour, locomotives: u32) -> Action {
        Action::Claim {
            route,
            track: 0,
            colour,
            locomotives,
        }
    }

    #[test]
    fn the_start_choice_tells_who_waits_and_who_begins() {
        let board = Board::usa();
        let mut g = game(&board);
        let (offered, _) = g.offer(1).unwrap();
        let offered = offered.to_vec();
        let e = g
            .apply(1, &Action::KeepTickets(vec![offered[2], offered[0]]))
            .unwrap();
        assert_eq!(e.player, 1);
        assert_eq!(
            e.happened,
            Happened::TicketsKept {
                kept: vec![offered[2], offered[0]],
                returned: vec![offered[1]],
            }
        );
        assert_eq!(e.next, Next::Waiting);
        assert!(!e.ends_turn() && e.turn_begins().is_none());
        let e = keep_all(&mut g, 0);
        assert_eq!(e.next, Next::FirstTurn { player: 0 });
        assert_eq!(e.turn_begins(), Some(0));
        assert!(!e.ends_turn(), "the start's choice is no turn");
        assert_eq!(g.players[0].turns, 0);
        // Drawn tickets are offered, then kept: that ends the turn.
        let before = g.tickets_left();
        let e = g.apply(0, &Action::DrawTickets).unwrap();
        let Happened::TicketsOffered(drawn) = &e.happened else {
            panic!("{e:?}")
        };
        assert_eq!(drawn.len(), 3);
        assert_eq!(g.tickets_left(), before - 3);
        assert_eq!(g.offer(0).unwrap().0, &drawn[..]);
        assert_eq!(e.next, Next::Again);
        let e = g.apply(0, &Action::KeepTickets(vec![drawn[1]])).unwrap();
        assert_eq!(
            e.next,
            Next::Turn {
                player: 1,
                last_round_began: false
            }
        );
        assert!(e.ends_turn());
    }

    #[test]
    fn a_draw_reports_the_card_the_hand_gains_and_what_replaced_it() {
        let board = Board::usa();
        let mut g = game(&board);
        keep_all(&mut g, 0);
        keep_all(&mut g, 1);
        // From the deck: the card that appears in the hand.
        let hand = g.players[0].hand;
        let e = g.apply(0, &Action::DrawDeck).unwrap();
        let card = e.card().expect("a card was drawn");
        let mut expected = hand;
        expected[card.index()] += 1;
        assert_eq!(g.players[0].hand, expected);
        let Happened::Drew(draw) = &e.happened else {
            panic!("{e:?}")
        };
        assert_eq!(draw.from, Source::Deck);
        assert!(!draw.second && !draw.reshuffled);
        assert_eq!(e.next, Next::Again);
        assert!(g.drawing_second());
        // Face up, as the second card: the card shown at that place, and
        // the new card at the end of the row.
        let row = g.face_up().to_vec();
        assert_eq!(row, [R, G, B, W, R]);
        let hand = g.players[0].hand;
        let e = g.apply(0, &Action::DrawFaceUp(1)).unwrap();
        assert_eq!(e.card(), Some(G));
        assert_eq!(g.players[0].hand[G.index()], hand[G.index()] + 1);
        let Happened::Drew(draw) = &e.happened else {
            panic!("{e:?}")
        };
        let shown = g.face_up().to_vec();
        assert_eq!(&shown[..4], &[R, B, W, R]);
        assert_eq!(
            draw.from,
            Source::FaceUp {
                slot: 1,
                revealed: vec![shown[4]],
                redeals: 0
            }
        );
        assert!(draw.second);
        assert_eq!(
            e.next,
            Next::Turn {
                player: 1,
                last_round_began: false
            }
        );
    }

    #[test]
    fn three_face_up_locomotives_are_reported_as_a_new_row() {
        let board = Board::usa();
        // The row shows two locomotives; the next card is the third.
        let top = [R, R, R, R, G, G, G, G, L, L, R, G, B, L];
        let rng = ChaCha8Rng::seed_from_u64(7);
        let tickets: VecDeque<TicketId> = board.ticket_ids().collect();
        let mut g = Game::with_decks(&board, 2, deck(&top, 60), tickets, rng).unwrap();
        keep_all(&mut g, 0);
        keep_all(&mut g, 1);
        assert_eq!(g.face_up(), [L, L, R, G, B]);
        let e = g.apply(0, &Action::DrawFaceUp(2)).unwrap();
        assert_eq!(e.card(), Some(R));
        let Happened::Drew(draw) = &e.happened else {
            panic!("{e:?}")
        };
        let Source::FaceUp {
            slot,
            revealed,
            redeals,
        } = &draw.from
        else {
            panic!("{draw:?}")
        };
        assert_eq!((*slot, *redeals), (2, 1));
        assert_eq!(g.reshuffles, 1);
        assert_eq!(revealed, g.face_up(), "the whole row is new");
        assert_eq!(g.discard_len(), 5, "the row of three locomotives");
    }

    #[test]
    fn a_claim_reports_its_payment_and_the_ticket_it_completes() {
        let board = Board::usa();
        let mut g = game(&board);
        let denver_el_paso = ticket(&board, "Denver", "El Paso");
        keep_all(&mut g, 0);
        keep_all(&mut g, 1);
        assert!(g.players[0].tickets.contains(&denver_el_paso));
        let first = route(&board, "Denver", "Santa Fe");
        let e = g.apply(0, &claim(first, Colour::Red, 2)).unwrap();
        assert_eq!(
            e.happened,
            Happened::Claimed(Claimed {
                route: first,
                track: 0,
                paid: Paid {
                    cards: None,
                    locomotives: 2
                },
                completed: Vec::new(),
                turned: Vec::new(),
            })
        );
        assert_eq!(g.players[0].hand[L.index()], 2);
        assert_eq!(g.discard_len(), 2);
        assert!(e.ends_turn());
        // Player 1 pays red cards and a locomotive-free claim.
        let e = g
            .apply(
                1,
                &claim(route(&board, "Seattle", "Portland"), Colour::Red, 0),
            )
            .unwrap();
        let Happened::Claimed(c) = &e.happened else {
            panic!("{e:?}")
        };
        assert_eq!(
            c.paid,
            Paid {
                cards: Some((Colour::Red, 1)),
                locomotives: 0
            }
        );
        assert_eq!(g.players[1].hand[R.index()], 1);
        // The second route joins Denver to El Paso: the ticket is reported,
        // once, and the engine counts it completed.
        let second = route(&board, "Santa Fe", "El Paso");
        let e = g.apply(0, &claim(second, Colour::Blue, 2)).unwrap();
        assert_eq!(e.completed(), [denver_el_paso]);
        assert!(g.completed_tickets(0).contains(&denver_el_paso));
        assert!(g.results()[0].completed.contains(&denver_el_paso));
    }

    #[test]
    fn the_last_round_begins_at_two_cars_and_the_game_ends_after_it() {
        let mut board = Board::usa();
        board.cars = 4;
        let mut g = game(&board);
        keep_all(&mut g, 0);
        keep_all(&mut g, 1);
        // 4 cars less a route of 2: 2 left, the last round begins.
        let e = g
            .apply(
                0,
                &claim(route(&board, "Denver", "Santa Fe"), Colour::Red, 2),
            )
            .unwrap();
        assert_eq!(g.players[0].cars, 2);
        assert_eq!(
            e.next,
            Next::Turn {
                player: 1,
                last_round_began: true
            }
        );
        assert!(e.last_round_began() && g.in_last_round());
        // Every player, player 0 included, has one more turn.
        g.apply(1, &Action::DrawDeck).unwrap();
        let e = g.apply(1, &Action::DrawDeck).unwrap();
        assert_eq!(
            e.next,
            Next::Turn {
                player: 0,
                last_round_began: false
            }
        );
        assert_eq!(e.ended(), None);
        g.apply(0, &Action::DrawDeck).unwrap();
        let e = g.apply(0, &Action::DrawDeck).unwrap();
        assert_eq!(e.next, Next::Over(Ending::LastRound));
        assert!(e.ends_turn() && e.turn_begins().is_none());
        assert!(g.is_over() && !g.stalled());
        assert_eq!(
            g.apply(1, &Action::DrawDeck).unwrap_err().kind,
            crate::engine::rules::Illegal::Over
        );
    }

    #[test]
    fn a_draw_from_an_empty_deck_reports_the_reshuffle() {
        // 13 cards: the deck is empty once dealt.
        let top = [L, L, L, L, R, R, G, G, R, G, B, W, R];
        let board = Board::usa();
        let tickets: VecDeque<TicketId> = board.ticket_ids().collect();
        let rng = ChaCha8Rng::seed_from_u64(7);
        let mut g = Game::with_decks(&board, 2, deck(&top, 0), tickets, rng).unwrap();
        keep_all(&mut g, 0);
        keep_all(&mut g, 1);
        assert_eq!(g.deck_len(), 0);
        g.apply(
            0,
            &claim(route(&board, "Denver", "Santa Fe"), Colour::Red, 2),
        )
        .unwrap();
        assert_eq!(g.discard_len(), 2);
        let e = g.apply(1, &Action::DrawDeck).unwrap();
        let Happened::Drew(draw) = &e.happened else {
            panic!("{e:?}")
        };
        assert_eq!((draw.card, draw.reshuffled), (L, true));
        assert_eq!((g.deck_len(), g.discard_len()), (1, 0));
        let e = g.apply(1, &Action::DrawDeck).unwrap();
        let Happened::Drew(draw) = &e.happened else {
            panic!("{e:?}")
        };
        assert_eq!((draw.card, draw.reshuffled, draw.second), (L, false, true));
    }

    #[test]
    fn a_game_nobody_can_move_in_ends_as_stalled() {
        // Routes too long for any hand, 13 cards (8 dealt, 5 face up), and
        // every ticket kept: once the row is drawn, only passes are left.
        let mut board = Board::usa();
        for r in &mut board.routes {
            r.length = 6;
        }
        let top: Vec<Card> = (0..13).map(|i| Card::Train(COLOURS[i % 8])).collect();
        let tickets: VecDeque<TicketId> = board.ticket_ids().take(6).collect();
        let rng = ChaCha8Rng::seed_from_u64(7);
        let mut g = Game::with_decks(&board, 2, deck(&top, 0), tickets, rng).unwrap();
        keep_all(&mut g, 0);
        keep_all(&mut g, 1);
        assert_eq!((g.deck_len(), g.tickets_left()), (0, 0));
        for p in [0, 0, 1, 1] {
            g.apply(p, &Action::DrawFaceUp(0)).unwrap();
        }
        // The last face-up card: no second to draw, the turn ends.
        let e = g.apply(0, &Action::DrawFaceUp(0)).unwrap();
        assert_eq!(
            e.next,
            Next::Turn {
                player: 1,
                last_round_began: false
            }
        );
        assert!(g.face_up().is_empty());
        // More than STALL_PASSES passes per player in a row end the game.
        let passes = crate::engine::rules::STALL_PASSES * 2;
        for i in 0..passes {
            assert_eq!(g.legal(), [Action::Pass]);
            let e = g.apply(g.current(), &Action::Pass).unwrap();
            assert_eq!(e.happened, Happened::Passed);
            assert_eq!(e.turn_begins(), Some((i + 2) % 2), "pass {i}");
        }
        let e = g.apply(g.current(), &Action::Pass).unwrap();
        assert_eq!(e.next, Next::Over(Ending::Stalled));
        assert_eq!(e.ended(), Some(Ending::Stalled));
        assert!(g.is_over() && g.stalled());
    }
}

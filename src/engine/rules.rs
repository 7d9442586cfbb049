//! The rules of the game, for simulated play: train cards, the face-up row,
//! tickets, claiming routes, the end of the game and final scoring.
//!
//! Rules as in the original game: 110 train cards (12 of each of 8 colours, 14
//! locomotives); 4 cards and 3 tickets dealt to each player, who keeps at
//! least 2 of them; 5 face-up cards, all 5 discarded and replaced whenever 3
//! of them are locomotives. A turn is one of: draw two train cards (a face-up
//! locomotive taken first is the whole draw, and cannot be taken second);
//! draw 3 tickets and keep at least 1 (the rest go under the ticket deck);
//! claim a route with cards of its colour (any one colour on a gray route),
//! locomotives standing in for any card. With 2–3 players only one track of
//! a double route can be claimed; with 4–5 the second track stays open, but
//! never to the player holding the first. When a player ends a turn with 2
//! or fewer cars, every player, that one included, has one last turn. Final
//! score: route points, tickets ± (completed by the player's own network),
//! and 10 points to the longest continuous path (all tied players). A game
//! in which nobody can move any more ends too: after more than
//! [`STALL_PASSES`] passes per player in a row, it is over ("stalled").
//! These rules are played on every board, with the board's own car count;
//! a ticket with several trips is one card, scoring its best completed trip
//! or losing its smallest.
//!
//! A board may declare rules of its own (`Board::rules`, and tracks that
//! are tunnels or ferries), as Europe and tCHu do, and the engine plays
//! them:
//! - **the deal**: the tickets dealt and kept at the start (Europe: one
//!   long ticket beside three, keep 2, a long one not kept leaves the
//!   game; tCHu: 5, keep 3), and the longest-path bonus;
//! - **ferries**: that many of the cards paid are locomotives;
//! - **tunnels**: the player pays the route's cards, three cards are
//!   turned from the deck, and each that is a locomotive or of the colour
//!   paid (only locomotives, when only locomotives were paid) asks for one
//!   card more; the player pays them, from the colour paid and locomotives
//!   ([`Game::tunnel_options`], tCHu's `possibleAdditionalCards`), or gives
//!   up (the cards stay in hand, the turn is spent); the turned cards are
//!   discarded. A hand that cannot pay gives up at once;
//! - **stations**: a turn may build one on a city without one, for the
//!   board's cost (Europe: 1, 2, 3 cards of one colour, locomotives
//!   standing in); at the end each lets its owner count one route of
//!   another player into the city for their tickets (the best choice is
//!   made for them), and each station not built scores its points.
//!
//! The start-of-game ticket choice is made by every player at once, in any
//! order, as at a real table: each is dealt 3 tickets when the game is
//! created (the same tickets as dealing seat by seat, since the deck holds at
//! least 3 per player), and the first turn begins once all have chosen.
//!
//! The engine never panics on a move: an illegal one is rejected with the
//! reason and its kind ([`Illegal`], which the online game turns into its
//! protocol's descriptions), and the state is unchanged. A legal one
//! returns an [`Event`]: what the move did (the card drawn, the tickets
//! offered or kept, the track claimed, its payment and the tickets it
//! completed) and what follows (the next turn, the last round, the end),
//! so that no caller compares states. The engine also answers what a
//! player may do: [`Game::legal`], [`Game::claims`] and every way to pay
//! for a track ([`Game::payments`]). All randomness comes from a seeded
//! ChaCha8 generator, so a seed replays the same game.

use std::collections::VecDeque;
use std::ops::Deref;
use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::board::verify::evaluate;
use crate::board::{Board, CityId, Colour, RouteId, TicketId};
use crate::engine::cards::{card_colours, Card, Hand, COLOURS};
use crate::engine::event::{Claimed, Draw, Ending, Event, Happened, Next, Paid, Source, Tunnel};
use crate::engine::stations;
use crate::engine::tunnel;

/// Bonus for the longest continuous path, on a board that does not give
/// its own.
pub const LONGEST_PATH_BONUS: u32 = crate::board::rules::DEFAULT_BONUS;

/// Cards turned from the deck when a tunnel is claimed.
pub const TUNNEL_CARDS: usize = 3;

/// Passes in a row, per player, after which a game is stopped as stalled:
/// once more than this many times the player count have passed in a row,
/// nobody can move any more (a pass is only legal when no other move is).
pub const STALL_PASSES: usize = 2;

/// One way to pay for a track: cards of one colour with locomotives
/// standing in for some of them, or locomotives alone
/// ([`Game::payments`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Payment {
    /// The colour of the cards paid; `None` for locomotives alone.
    pub colour: Option<Colour>,
    /// The fewest locomotives this colour can be paid with (the hand's
    /// cards of it short of the track's length).
    pub min_locomotives: u32,
    /// The most: with at least one card of the colour (the track's length
    /// for locomotives alone).
    pub max_locomotives: u32,
}

/// A move, made by the player whose turn it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Take face-up card `i` (0–4).
    DrawFaceUp(usize),
    /// Take the top card of the deck.
    DrawDeck,
    /// Draw 3 tickets (fewer if the deck has fewer), then keep some.
    DrawTickets,
    /// Keep these of the tickets just drawn (or dealt at the start).
    KeepTickets(Vec<TicketId>),
    /// Claim a track of a route, paying `locomotives` locomotives and the
    /// rest of its length in cards of `colour` (the track's colour, or any
    /// one colour on a gray track; ignored when paying only locomotives).
    Claim {
        /// The route claimed.
        route: RouteId,
        /// The track's index in the route's `tracks`.
        track: usize,
        /// The colour of the cards paid.
        colour: Colour,
        /// Locomotives paid, standing in for cards of `colour`.
        locomotives: u32,
    },
    /// Pay the extra cards a tunnel asks for ([`Expect::Tunnel`]):
    /// `locomotives` of them locomotives, the rest cards of the colour paid
    /// ([`Game::tunnel_options`] lists the legal counts).
    PayTunnel {
        /// Locomotives among the extra cards.
        locomotives: u32,
    },
    /// Give the tunnel up: the cards paid stay in hand, the turn is spent.
    GiveUpTunnel,
    /// Build a station on `city` (a board with stations), paying its cost
    /// in cards of `colour` with `locomotives` locomotives standing in for
    /// some (`colour` is ignored when paying only locomotives).
    BuildStation {
        /// The city, with no station yet.
        city: CityId,
        /// The colour of the cards paid.
        colour: Colour,
        /// Locomotives paid.
        locomotives: u32,
    },
    /// Only when no other move is legal (no cards or tickets left to draw,
    /// no route affordable): the turn passes.
    Pass,
}

/// What the player to move is asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// Keep at least `min` of `offered` (2 at the start of the game, 1 later).
    Tickets {
        /// The tickets just drawn (or dealt).
        offered: Vec<TicketId>,
        /// The fewest the player must keep.
        min: usize,
    },
    /// Any turn action.
    Turn,
    /// The second train card of a draw (not a face-up locomotive).
    SecondCard,
    /// The extra cards of a tunnel being claimed, or giving it up.
    Tunnel(Tunnel),
}

/// Why a move is illegal, by kind: what a client needs to answer a player
/// without parsing the message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Illegal {
    /// Another player is to move.
    NotYourTurn,
    /// The game has ended.
    Over,
    /// Tickets just drawn (or dealt) must be chosen first.
    ChooseTickets,
    /// The second train card of a draw must be drawn first.
    DrawSecond,
    /// A face-up locomotive taken as the second card of a draw.
    LocomotiveSecond,
    /// No train card is left to draw, or no face-up card at that place.
    NoCard,
    /// No ticket is left to draw, or none was drawn to keep.
    NoTicket,
    /// Fewer tickets kept than the rule asks.
    KeepMore,
    /// A ticket kept that was not offered, or kept twice.
    NotOffered,
    /// The route or track does not exist, is claimed, or is closed to this
    /// player by the double-route rules.
    RouteUnavailable,
    /// Too few train cars left for the route.
    Cars,
    /// Cards of a colour the track cannot be paid with.
    Colour,
    /// Too few cards of the colour, or too few locomotives.
    Cards,
    /// A pass while another move is possible.
    Pass,
    /// A tunnel's extra cards are to be paid first, none are asked for, or
    /// they cannot be paid so.
    Tunnel,
    /// A station the board does not have, on a city that has one, or
    /// beyond the player's count.
    Station,
    /// A game that cannot be set up (player count, decks), or a strategy's
    /// own failure.
    Setup,
}

/// An illegal move: its kind and the reason in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct RuleError {
    /// What kind of rule the move breaks.
    pub kind: Illegal,
    /// The reason, naming routes, tickets and counts.
    pub message: String,
}

impl RuleError {
    /// An error of `kind` saying `message`.
    pub fn new(kind: Illegal, message: impl Into<String>) -> RuleError {
        RuleError {
            kind,
            message: message.into(),
        }
    }
}

fn illegal<T>(kind: Illegal, reason: impl Into<String>) -> Result<T, RuleError> {
    Err(RuleError::new(kind, reason))
}

/// The board a game is played on: borrowed (a simulation's many games on
/// one board) or shared (a server's games, which outlive any borrow).
#[derive(Clone, Debug)]
pub enum BoardRef<'b> {
    /// Borrowed for the game's lifetime.
    Borrowed(&'b Board),
    /// Shared with other owners.
    Shared(Arc<Board>),
}

impl Deref for BoardRef<'_> {
    type Target = Board;
    fn deref(&self) -> &Board {
        match self {
            BoardRef::Borrowed(b) => b,
            BoardRef::Shared(b) => b,
        }
    }
}

impl<'b> From<&'b Board> for BoardRef<'b> {
    fn from(board: &'b Board) -> BoardRef<'b> {
        BoardRef::Borrowed(board)
    }
}

impl From<Arc<Board>> for BoardRef<'static> {
    fn from(board: Arc<Board>) -> BoardRef<'static> {
        BoardRef::Shared(board)
    }
}

/// One player's state.
#[derive(Clone, Debug)]
pub struct Player {
    /// Train cards held, counted by [`Card::index`].
    pub hand: Hand,
    /// Train cars left.
    pub cars: u32,
    /// Claimed tracks.
    pub tracks: Vec<(RouteId, usize)>,
    /// Tickets kept, each by its first trip (a ticket with several trips scores
    /// its best).
    pub tickets: Vec<TicketId>,
    /// Points of the routes claimed so far.
    pub route_points: u32,
    /// Turns taken (a turn ends with the second card, a claim, kept
    /// tickets or a pass).
    pub turns: u32,
    /// The cities of the stations built, in order.
    pub stations: Vec<CityId>,
}

impl Player {
    /// The routes of the claimed tracks.
    pub fn routes(&self) -> Vec<RouteId> {
        self.tracks.iter().map(|t| t.0).collect()
    }
    /// Train cards held, in all.
    pub fn cards(&self) -> u32 {
        self.hand.iter().sum()
    }
}

/// Final result for one player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinalScore {
    /// Points of the routes claimed.
    pub route_points: u32,
    /// Trips of held tickets the player's routes complete (of a ticket with
    /// several trips, its best one).
    pub completed: Vec<TicketId>,
    /// Held tickets not completed, each by its smallest trip (the points lost).
    pub failed: Vec<TicketId>,
    /// Completed minus failed ticket points.
    pub ticket_points: i64,
    /// Length of the player's longest continuous path, in cars.
    pub longest_path: u32,
    /// The longest-path bonus: the board's (10 unless it says otherwise)
    /// to every player tied for the longest path, 0 to the others.
    pub bonus: u32,
    /// Other players' routes the player's stations count for the tickets
    /// (one per station at most, the best choice).
    pub borrowed: Vec<RouteId>,
    /// Points of the stations not built.
    pub station_points: u32,
    /// The final score: `route_points + ticket_points + bonus +
    /// station_points` (negative when failed tickets cost more than the
    /// rest earned).
    pub score: i64,
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game<'b> {
    /// The board played on.
    pub board: BoardRef<'b>,
    rng: ChaCha8Rng,
    deck: Vec<Card>,
    discard: Vec<Card>,
    face_up: Vec<Card>,
    /// Front = top.
    ticket_deck: VecDeque<TicketId>,
    /// Every player's state, in turn order.
    pub players: Vec<Player>,
    /// Per route, per track: the player who claimed it.
    owner: Vec<Vec<Option<usize>>>,
    current: usize,
    expect: Expect,
    /// Per player, the tickets dealt at the start and not chosen from yet
    /// (all `None` once the first turn has begun).
    setup: Vec<Option<Vec<TicketId>>>,
    /// Turns left once the last round has begun.
    last_round: Option<usize>,
    over: bool,
    /// Face-up reshuffles caused by three locomotives.
    pub reshuffles: u32,
    /// Times the discard pile was shuffled into an empty deck.
    deck_shuffles: u32,
    /// Passes in a row (the stall rule).
    passes: usize,
    /// Whether the stall rule ended the game.
    stalled: bool,
}

impl<'b> Game<'b> {
    /// A new game for `players` (2–5) on `board`, shuffled from `seed`.
    pub fn new(
        board: impl Into<BoardRef<'b>>,
        players: usize,
        seed: u64,
    ) -> Result<Game<'b>, RuleError> {
        let board = board.into();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut deck: Vec<Card> = COLOURS
            .iter()
            .flat_map(|&c| std::iter::repeat_n(Card::Train(c), 12))
            .chain(std::iter::repeat_n(Card::Locomotive, 14))
            .collect();
        deck.shuffle(&mut rng);
        // One card per printed ticket, stood for by its first trip (a held
        // ticket with several trips scores its best, see `final_scores`).
        let mut tickets: Vec<TicketId> = board.cards.iter().map(|c| c.trips[0]).collect();
        tickets.shuffle(&mut rng);
        Game::with_decks(board, players, deck, tickets.into(), rng)
    }

    /// A game with the decks in a given order (the last card of `deck` is
    /// drawn first; the front of `tickets` is drawn first): for tests. On
    /// a board that deals long tickets apart (`rules.deal.long`), the long
    /// tickets of `tickets`, in their order, are the long deck.
    pub fn with_decks(
        board: impl Into<BoardRef<'b>>,
        players: usize,
        deck: Vec<Card>,
        tickets: VecDeque<TicketId>,
        rng: ChaCha8Rng,
    ) -> Result<Game<'b>, RuleError> {
        let board = board.into();
        if !(2..=5).contains(&players) {
            return illegal(
                Illegal::Setup,
                format!("{players} players: the game is for 2 to 5"),
            );
        }
        let deal = board.rules.deal;
        // Long tickets are a deck of their own when the deal says so.
        let (mut long, tickets): (VecDeque<TicketId>, VecDeque<TicketId>) = if deal.long > 0 {
            tickets
                .into_iter()
                .partition(|&t| board.cards[board.ticket(t).card].long)
        } else {
            (VecDeque::new(), tickets)
        };
        for (what, have, each) in [
            ("tickets", tickets.len(), deal.tickets),
            ("long tickets", long.len(), deal.long),
        ] {
            if have < each as usize * players {
                return illegal(
                    Illegal::Setup,
                    format!("{have} {what} cannot deal {each} to each of {players} players"),
                );
            }
        }
        if deck.len() < 4 * players + 5 {
            return illegal(Illegal::Setup, "too few train cards to deal");
        }
        let owner = board
            .routes
            .iter()
            .map(|r| vec![None; r.tracks.len()])
            .collect();
        let mut game = Game {
            board,
            rng,
            deck,
            discard: Vec::new(),
            face_up: Vec::new(),
            ticket_deck: tickets,
            players: Vec::new(),
            owner,
            current: 0,
            expect: Expect::Turn,
            setup: Vec::new(),
            last_round: None,
            over: false,
            reshuffles: 0,
            deck_shuffles: 0,
            passes: 0,
            stalled: false,
        };
        for _ in 0..players {
            let mut hand = [0; 9];
            for _ in 0..4 {
                let card = game.deck.pop().expect("checked above");
                hand[card.index()] += 1;
            }
            game.players.push(Player {
                hand,
                cars: game.board.cars,
                tracks: Vec::new(),
                tickets: Vec::new(),
                route_points: 0,
                turns: 0,
                stations: Vec::new(),
            });
        }
        game.refill_face_up();
        for _ in 0..players {
            let mut offered: Vec<TicketId> = long.drain(..deal.long as usize).collect();
            let n = (deal.tickets as usize).min(game.ticket_deck.len());
            offered.extend(game.ticket_deck.drain(..n));
            game.setup.push(Some(offered));
        }
        // The long tickets not dealt stay in the box.
        game.next_setup_choice();
        Ok(game)
    }

    /// The player to move.
    pub fn current(&self) -> usize {
        self.current
    }
    /// What the player to move is asked for.
    pub fn expect(&self) -> &Expect {
        &self.expect
    }
    /// Whether the start-of-game ticket choice is still going on (every
    /// player with tickets dealt may choose, in any order).
    pub fn in_setup(&self) -> bool {
        self.setup.iter().any(Option::is_some)
    }
    /// The tickets `player` must choose from now, and the fewest to keep:
    /// the tickets dealt at the start until chosen, or those just drawn by
    /// the player to move.
    pub fn offer(&self, player: usize) -> Option<(&[TicketId], usize)> {
        if let Some(Some(dealt)) = self.setup.get(player) {
            return Some((dealt, self.board.rules.deal.keep as usize));
        }
        match &self.expect {
            Expect::Tickets { offered, min } if player == self.current && !self.in_setup() => {
                Some((offered, *min))
            }
            _ => None,
        }
    }
    /// Whether the player to move has drawn one train card and must draw
    /// the second.
    pub fn drawing_second(&self) -> bool {
        self.expect == Expect::SecondCard
    }
    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.over
    }
    /// Whether the game ended because nobody could move (the stall rule,
    /// [`STALL_PASSES`]).
    pub fn stalled(&self) -> bool {
        self.stalled
    }
    /// The face-up cards (5, or fewer when the deck and discard run out).
    pub fn face_up(&self) -> &[Card] {
        &self.face_up
    }
    /// Cards left in the draw deck.
    pub fn deck_len(&self) -> usize {
        self.deck.len()
    }
    /// Cards in the discard pile.
    pub fn discard_len(&self) -> usize {
        self.discard.len()
    }

    /// The game as player `me` might believe it to be: all `me` sees kept
    /// (claims, stations, the face-up row, the discard pile, every count,
    /// `me`'s own hand, tickets and offer), all hidden from `me` dealt again
    /// from what `me` cannot see: the deck's order with the other players'
    /// hands, and the ticket deck's order with the other players' tickets
    /// and offers (a long ticket may come back as a regular one: a belief,
    /// not a deal). Each pool is sorted before it is shuffled, so the copy
    /// depends on `me`'s view and `rng` alone, never on the hidden truth:
    /// what a search player ([`crate::bots::mcts`]) plays from.
    pub fn determinized(&self, me: usize, rng: &mut ChaCha8Rng) -> Game<'b> {
        use rand::Rng;
        let mut g = self.clone();
        let others: Vec<usize> = (0..g.players.len()).filter(|&p| p != me).collect();
        // Train cards: the deck and the others' hands.
        let mut cards: Vec<Card> = std::mem::take(&mut g.deck);
        for &p in &others {
            let hand = std::mem::take(&mut g.players[p].hand);
            for (i, &n) in hand.iter().enumerate() {
                let card = if i == 8 {
                    Card::Locomotive
                } else {
                    Card::Train(COLOURS[i])
                };
                cards.extend(std::iter::repeat_n(card, n as usize));
            }
        }
        cards.sort_by_key(|c| c.index());
        cards.shuffle(rng);
        for &p in &others {
            let n = self.players[p].cards() as usize;
            for card in cards.drain(cards.len() - n..) {
                g.players[p].hand[card.index()] += 1;
            }
        }
        g.deck = cards;
        // Tickets: the ticket deck, the others' tickets and their offers.
        // An offer of another player's draw (in the setup, the offer is
        // the dealt tickets, re-dealt with them).
        let offer_of_other = |e: &Expect| {
            matches!(e, Expect::Tickets { .. }) && self.current != me && !self.in_setup()
        };
        let mut tickets: Vec<TicketId> = g.ticket_deck.drain(..).collect();
        for &p in &others {
            tickets.append(&mut g.players[p].tickets);
            if let Some(Some(dealt)) = g.setup.get_mut(p) {
                tickets.append(dealt);
            }
        }
        if offer_of_other(&self.expect) {
            if let Expect::Tickets { offered, .. } = &mut g.expect {
                tickets.append(offered);
            }
        }
        tickets.sort();
        tickets.shuffle(rng);
        for &p in &others {
            let n = self.players[p].tickets.len();
            g.players[p].tickets = tickets.drain(..n).collect();
            if let Some(Some(dealt)) = self.setup.get(p) {
                g.setup[p] = Some(tickets.drain(..dealt.len()).collect());
            }
        }
        if let (true, Expect::Tickets { offered, min }) =
            (offer_of_other(&self.expect), &self.expect)
        {
            g.expect = Expect::Tickets {
                offered: tickets.drain(..offered.len()).collect(),
                min: *min,
            };
        }
        if self.in_setup() && self.current != me {
            if let (Some(Some(dealt)), Expect::Tickets { offered, .. }) =
                (g.setup.get(self.current), &mut g.expect)
            {
                offered.clone_from(dealt);
            }
        }
        g.ticket_deck = tickets.into();
        g.rng = ChaCha8Rng::seed_from_u64(rng.random());
        g
    }
    /// Tickets left in the ticket deck.
    pub fn tickets_left(&self) -> usize {
        self.ticket_deck.len()
    }
    /// Who claimed track `track` of `route`.
    pub fn owner(&self, route: RouteId, track: usize) -> Option<usize> {
        self.owner[route.0][track]
    }
    /// Whether the last round has begun: some player's cars have fallen to 2 or
    /// fewer.
    pub fn in_last_round(&self) -> bool {
        self.last_round.is_some()
    }

    /// Whether `player` may claim track `track` of `route` (cards aside).
    pub fn can_claim_track(
        &self,
        player: usize,
        route: RouteId,
        track: usize,
    ) -> Result<(), RuleError> {
        let Some(owners) = self.owner.get(route.0) else {
            return illegal(Illegal::RouteUnavailable, format!("no route {}", route.0));
        };
        let label = || self.board.route_label(route);
        match owners.get(track) {
            None => {
                return illegal(
                    Illegal::RouteUnavailable,
                    format!("{} has no track {track}", label()),
                )
            }
            Some(Some(p)) => {
                return illegal(
                    Illegal::RouteUnavailable,
                    format!(
                        "{} ({}) is already claimed by player {p}",
                        label(),
                        self.board.route(route).tracks[track]
                    ),
                )
            }
            Some(None) => {}
        }
        // The double-route rules hold across every track of the city pair,
        // whatever their lengths.
        let pair_owners = || {
            self.board
                .pair_routes(route)
                .iter()
                .flat_map(|r| self.owner[r.0].iter())
        };
        if pair_owners().any(|o| *o == Some(player)) {
            return illegal(
                Illegal::RouteUnavailable,
                format!(
                    "{}: a player may claim only one track of a double route",
                    label()
                ),
            );
        }
        if self.players.len() <= 3 && pair_owners().any(Option::is_some) {
            return illegal(
                Illegal::RouteUnavailable,
                format!(
                    "{}: with {} players only one track of a double route can be claimed",
                    label(),
                    self.players.len()
                ),
            );
        }
        if self.board.route(route).length > self.players[player].cars {
            return illegal(
                Illegal::Cars,
                format!(
                    "{} needs {} cars, the player has {}",
                    label(),
                    self.board.route(route).length,
                    self.players[player].cars
                ),
            );
        }
        Ok(())
    }

    /// Makes `action` for `player` and tells what it did ([`Event`]); an
    /// illegal move is refused with the reason, and the game is unchanged.
    pub fn apply(&mut self, player: usize, action: &Action) -> Result<Event, RuleError> {
        let in_setup = self.in_setup();
        let in_last_round = self.in_last_round();
        let happened = self.play(player, action)?;
        // The stall rule: passes in a row (a pass is legal only when no
        // other move is).
        self.passes = match happened {
            Happened::Passed => self.passes + 1,
            _ => 0,
        };
        if !self.over && self.passes > STALL_PASSES * self.players.len() {
            self.over = true;
            self.stalled = true;
        }
        let next = if self.over {
            Next::Over(if self.stalled {
                Ending::Stalled
            } else {
                Ending::LastRound
            })
        } else if self.in_setup() {
            Next::Waiting
        } else if in_setup {
            Next::FirstTurn {
                player: self.current,
            }
        } else if self.expect == Expect::Turn {
            // A turn ends with `expect` back to `Turn`, for the next player.
            Next::Turn {
                player: self.current,
                last_round_began: !in_last_round && self.in_last_round(),
            }
        } else {
            Next::Again
        };
        Ok(Event {
            player,
            happened,
            next,
        })
    }

    /// Makes `action` for `player`: what the move itself did. The checks
    /// every move passes, then the move by what the game expects: the
    /// setup's tickets, a tunnel's extra cards, tickets to keep, a second
    /// card, or a turn.
    fn play(&mut self, player: usize, action: &Action) -> Result<Happened, RuleError> {
        if self.over {
            return illegal(Illegal::Over, "the game is over");
        }
        if player >= self.players.len() {
            return illegal(Illegal::NotYourTurn, format!("there is no player {player}"));
        }
        if self.in_setup() {
            return self.play_setup(player, action);
        }
        if player != self.current {
            return illegal(
                Illegal::NotYourTurn,
                format!("not your turn (player {} is to move)", self.current),
            );
        }
        match self.expect.clone() {
            Expect::Tunnel(tunnel) => self.play_tunnel(player, tunnel, action),
            Expect::Tickets { offered, min } => match action {
                Action::KeepTickets(kept) => self.keep(player, &offered, min, kept),
                Action::PayTunnel { .. } | Action::GiveUpTunnel => {
                    illegal(Illegal::Tunnel, "no tunnel is being claimed")
                }
                _ => illegal(
                    Illegal::ChooseTickets,
                    format!("choose the tickets to keep first (at least {min})"),
                ),
            },
            Expect::SecondCard => self.play_second_card(player, action),
            Expect::Turn => self.play_turn(player, action),
        }
    }

    /// A move while the players choose their first tickets: only those.
    fn play_setup(&mut self, player: usize, action: &Action) -> Result<Happened, RuleError> {
        match (self.setup[player].clone(), action) {
            (Some(dealt), Action::KeepTickets(kept)) => {
                let min = self.board.rules.deal.keep as usize;
                self.keep(player, &dealt, min, kept)
            }
            (Some(_), _) => illegal(
                Illegal::ChooseTickets,
                format!(
                    "choose the tickets to keep first (at least {})",
                    self.board.rules.deal.keep
                ),
            ),
            (None, _) => illegal(
                Illegal::NotYourTurn,
                "not your turn (the others are still choosing their tickets)",
            ),
        }
    }

    /// A move while a tunnel's extra cards are asked for: pay them or give
    /// the tunnel up.
    fn play_tunnel(
        &mut self,
        player: usize,
        tunnel: Tunnel,
        action: &Action,
    ) -> Result<Happened, RuleError> {
        match action {
            Action::PayTunnel { locomotives } => {
                let claimed = self.pay_tunnel(player, tunnel, *locomotives)?;
                // The turned cards are discarded now, even if the game
                // ends with this turn.
                self.expect = Expect::Turn;
                self.end_turn();
                Ok(Happened::Claimed(claimed))
            }
            Action::GiveUpTunnel => {
                self.discard.extend(&tunnel.turned);
                self.expect = Expect::Turn;
                self.end_turn();
                Ok(Happened::TunnelGivenUp(tunnel))
            }
            _ => illegal(
                Illegal::Tunnel,
                "pay the tunnel's extra cards or give it up first",
            ),
        }
    }

    /// The second card of a draw.
    fn play_second_card(&mut self, player: usize, action: &Action) -> Result<Happened, RuleError> {
        match action {
            Action::PayTunnel { .. } | Action::GiveUpTunnel => {
                illegal(Illegal::Tunnel, "no tunnel is being claimed")
            }
            Action::DrawFaceUp(i) => {
                if self.face_up.get(*i) == Some(&Card::Locomotive) {
                    return illegal(
                        Illegal::LocomotiveSecond,
                        "a face-up locomotive cannot be the second card of a draw",
                    );
                }
                let draw = self.take_face_up(player, *i, true)?;
                self.end_turn();
                Ok(Happened::Drew(draw))
            }
            Action::DrawDeck => {
                let draw = self.take_from_deck(player, true)?;
                self.end_turn();
                Ok(Happened::Drew(draw))
            }
            Action::Pass if !self.can_draw_second() => {
                self.end_turn();
                Ok(Happened::Passed)
            }
            _ => illegal(Illegal::DrawSecond, "draw the second train card"),
        }
    }

    /// A turn: draw cards or tickets, claim a route, build a station, or
    /// pass when nothing else is legal.
    fn play_turn(&mut self, player: usize, action: &Action) -> Result<Happened, RuleError> {
        match action {
            Action::PayTunnel { .. } | Action::GiveUpTunnel => {
                illegal(Illegal::Tunnel, "no tunnel is being claimed")
            }
            Action::DrawFaceUp(i) => {
                let draw = self.take_face_up(player, *i, false)?;
                if draw.card == Card::Locomotive || !self.can_draw_second() {
                    self.end_turn();
                } else {
                    self.expect = Expect::SecondCard;
                }
                Ok(Happened::Drew(draw))
            }
            Action::DrawDeck => {
                let draw = self.take_from_deck(player, false)?;
                if self.can_draw_second() {
                    self.expect = Expect::SecondCard;
                } else {
                    self.end_turn();
                }
                Ok(Happened::Drew(draw))
            }
            Action::DrawTickets => {
                if self.ticket_deck.is_empty() {
                    return illegal(Illegal::NoTicket, "no tickets left to draw");
                }
                let offered = self.draw_tickets();
                self.expect = Expect::Tickets {
                    offered: offered.clone(),
                    min: 1,
                };
                Ok(Happened::TicketsOffered(offered))
            }
            Action::Claim {
                route,
                track,
                colour,
                locomotives,
            } => {
                if self.board.routes.get(route.0).is_some_and(|r| r.tunnel) {
                    return self.begin_tunnel(player, *route, *track, *colour, *locomotives);
                }
                let claimed = self.claim(player, *route, *track, *colour, *locomotives)?;
                self.end_turn();
                Ok(Happened::Claimed(claimed))
            }
            Action::BuildStation {
                city,
                colour,
                locomotives,
            } => {
                let built = self.build_station(player, *city, *colour, *locomotives)?;
                self.end_turn();
                Ok(built)
            }
            Action::Pass => {
                if self.has_any_move(player) {
                    return illegal(
                        Illegal::Pass,
                        "a pass is only allowed when no other move is",
                    );
                }
                self.end_turn();
                Ok(Happened::Passed)
            }
            Action::KeepTickets(_) => illegal(Illegal::NoTicket, "no tickets were drawn"),
        }
    }

    fn keep(
        &mut self,
        player: usize,
        offered: &[TicketId],
        min: usize,
        kept: &[TicketId],
    ) -> Result<Happened, RuleError> {
        let min = min.min(offered.len());
        if kept.len() < min {
            return illegal(
                Illegal::KeepMore,
                format!("keep at least {min} of the {} tickets", offered.len()),
            );
        }
        let mut distinct = kept.to_vec();
        distinct.sort();
        distinct.dedup();
        if distinct.len() != kept.len() {
            return illegal(Illegal::NotOffered, "a ticket is kept twice");
        }
        if let Some(t) = kept.iter().find(|t| !offered.contains(t)) {
            return illegal(
                Illegal::NotOffered,
                format!("{} was not offered", self.board.ticket_label(*t)),
            );
        }
        self.players[player].tickets.extend(kept);
        // The others go under the deck; a long ticket dealt apart leaves
        // the game.
        let returned: Vec<TicketId> = offered
            .iter()
            .filter(|t| !kept.contains(t))
            .copied()
            .collect();
        let apart = |t: &&TicketId| {
            self.board.rules.deal.long > 0 && self.board.cards[self.board.ticket(**t).card].long
        };
        let back: Vec<TicketId> = returned.iter().filter(|t| !apart(t)).copied().collect();
        self.ticket_deck.extend(back);
        let happened = Happened::TicketsKept {
            kept: kept.to_vec(),
            returned,
        };
        if self.in_setup() {
            self.setup[player] = None;
            self.next_setup_choice();
            return Ok(happened);
        }
        self.end_turn();
        Ok(happened)
    }

    /// During the start-of-game choice, points the player to move (and what
    /// is expected) at the first player still choosing; once all have
    /// chosen, the first turn is player 0's.
    fn next_setup_choice(&mut self) {
        match self.setup.iter().position(Option::is_some) {
            Some(p) => {
                self.current = p;
                self.expect = Expect::Tickets {
                    offered: self.setup[p].clone().unwrap_or_default(),
                    min: self.board.rules.deal.keep as usize,
                };
            }
            None => {
                self.current = 0;
                self.expect = Expect::Turn;
            }
        }
    }

    fn draw_tickets(&mut self) -> Vec<TicketId> {
        let n = self.ticket_deck.len().min(3);
        self.ticket_deck.drain(..n).collect()
    }

    /// Takes face-up card `i` (the `second` of a draw or not) and refills
    /// the row.
    fn take_face_up(&mut self, player: usize, i: usize, second: bool) -> Result<Draw, RuleError> {
        if i >= self.face_up.len() {
            return illegal(
                Illegal::NoCard,
                format!(
                    "there is no face-up card {i} ({} showing)",
                    self.face_up.len()
                ),
            );
        }
        let card = self.face_up.remove(i);
        self.players[player].hand[card.index()] += 1;
        let (kept, redeals, shuffles) = (self.face_up.len(), self.reshuffles, self.deck_shuffles);
        self.refill_face_up();
        let redeals = self.reshuffles - redeals;
        // Redealt, the whole row is new; else the cards after those kept.
        let revealed = self.face_up[if redeals > 0 { 0 } else { kept }..].to_vec();
        Ok(Draw {
            card,
            from: Source::FaceUp {
                slot: i,
                revealed,
                redeals,
            },
            second,
            reshuffled: self.deck_shuffles > shuffles,
        })
    }

    /// Takes the top card of the deck (the `second` of a draw or not).
    fn take_from_deck(&mut self, player: usize, second: bool) -> Result<Draw, RuleError> {
        let shuffles = self.deck_shuffles;
        let Some(card) = self.pop_deck() else {
            return illegal(Illegal::NoCard, "no train cards left to draw");
        };
        self.players[player].hand[card.index()] += 1;
        Ok(Draw {
            card,
            from: Source::Deck,
            second,
            reshuffled: self.deck_shuffles > shuffles,
        })
    }

    /// The top card, reshuffling the discard pile into the deck when empty.
    fn pop_deck(&mut self) -> Option<Card> {
        if self.deck.is_empty() {
            if !self.discard.is_empty() {
                self.deck_shuffles += 1;
            }
            self.deck = std::mem::take(&mut self.discard);
            self.deck.shuffle(&mut self.rng);
        }
        self.deck.pop()
    }

    /// Fills the row to 5; three locomotives showing discard all five and
    /// deal again (unless the cards left could never do better).
    fn refill_face_up(&mut self) {
        loop {
            while self.face_up.len() < 5 {
                match self.pop_deck() {
                    Some(card) => self.face_up.push(card),
                    None => break,
                }
            }
            let locomotives = self
                .face_up
                .iter()
                .filter(|&&c| c == Card::Locomotive)
                .count();
            if locomotives < 3 {
                return;
            }
            let others = self
                .deck
                .iter()
                .chain(&self.discard)
                .filter(|&&c| c != Card::Locomotive)
                .count();
            if others < 3 {
                return; // Redealing could loop for ever.
            }
            self.reshuffles += 1;
            self.discard.append(&mut self.face_up);
        }
    }

    fn can_draw_second(&self) -> bool {
        !self.deck.is_empty()
            || !self.discard.is_empty()
            || self.face_up.iter().any(|&c| c != Card::Locomotive)
    }

    /// Whether the hand of `player` holds `length` cards of `colour` (the
    /// track's colour, any one on gray) with `locomotives` locomotives
    /// standing in for some, at least `ferry` of them; `what` names the
    /// track or station in messages.
    #[allow(clippy::too_many_arguments)]
    fn check_cards(
        &self,
        player: usize,
        what: &dyn Fn() -> String,
        length: u32,
        track_colour: Colour,
        colour: Colour,
        locomotives: u32,
        ferry: u32,
    ) -> Result<(), RuleError> {
        if locomotives > length {
            return illegal(
                Illegal::Cards,
                format!("{locomotives} locomotives for {} of {length}", what()),
            );
        }
        if locomotives < ferry {
            return illegal(
                Illegal::Cards,
                format!(
                    "{} is a ferry: at least {ferry} of its cards must be locomotives",
                    what()
                ),
            );
        }
        let coloured = length - locomotives;
        let hand = &self.players[player].hand;
        if coloured > 0 {
            if colour == Colour::Gray {
                return illegal(
                    Illegal::Colour,
                    "pay with cards of one colour (gray is not a card colour)",
                );
            }
            if track_colour != Colour::Gray && colour != track_colour {
                return illegal(
                    Illegal::Colour,
                    format!(
                        "{} ({track_colour}) cannot be paid with {colour} cards",
                        what()
                    ),
                );
            }
            if hand[Card::Train(colour).index()] < coloured {
                return illegal(
                    Illegal::Cards,
                    format!(
                        "not enough {colour} cards ({coloured} needed, {} held)",
                        hand[Card::Train(colour).index()]
                    ),
                );
            }
        }
        if hand[8] < locomotives {
            return illegal(
                Illegal::Cards,
                format!(
                    "not enough locomotives ({locomotives} needed, {} held)",
                    hand[8]
                ),
            );
        }
        Ok(())
    }

    /// Whether `player` may pay for track `track` of `route` so.
    fn payment(
        &self,
        player: usize,
        route: RouteId,
        track: usize,
        colour: Colour,
        locomotives: u32,
    ) -> Result<(), RuleError> {
        let r = self.board.route(route);
        let what = || self.board.route_label(route);
        self.check_cards(
            player,
            &what,
            r.length,
            r.tracks[track],
            colour,
            locomotives,
            r.ferry,
        )
    }

    /// The cards a claim pays, if `player` may claim the track so.
    fn claim_payment(
        &self,
        player: usize,
        route: RouteId,
        track: usize,
        colour: Colour,
        locomotives: u32,
    ) -> Result<Paid, RuleError> {
        self.can_claim_track(player, route, track)?;
        self.payment(player, route, track, colour, locomotives)?;
        Ok(paid_as(self.board.route(route).length, colour, locomotives))
    }

    fn claim(
        &mut self,
        player: usize,
        route: RouteId,
        track: usize,
        colour: Colour,
        locomotives: u32,
    ) -> Result<Claimed, RuleError> {
        let paid = self.claim_payment(player, route, track, colour, locomotives)?;
        Ok(self.take_track(player, route, track, paid, Vec::new()))
    }

    /// Takes the cards `paid` from the hand of `player` to the discard
    /// pile.
    fn pay(&mut self, player: usize, paid: Paid) {
        let hand = &mut self.players[player].hand;
        if let Some((colour, n)) = paid.cards {
            hand[Card::Train(colour).index()] -= n;
            self.discard
                .extend(std::iter::repeat_n(Card::Train(colour), n as usize));
        }
        hand[8] -= paid.locomotives;
        self.discard.extend(std::iter::repeat_n(
            Card::Locomotive,
            paid.locomotives as usize,
        ));
    }

    /// Gives track `track` of `route` to `player` for the cards `paid`
    /// (checked by the caller); `turned` are a tunnel's turned cards, which
    /// go to the discard pile too.
    fn take_track(
        &mut self,
        player: usize,
        route: RouteId,
        track: usize,
        paid: Paid,
        turned: Vec<Card>,
    ) -> Claimed {
        let before = self.completed_tickets(player);
        self.pay(player, paid);
        self.discard.extend(&turned);
        let r = self.board.route(route);
        let p = &mut self.players[player];
        p.cars -= r.length;
        p.route_points += r.points;
        p.tracks.push((route, track));
        self.owner[route.0][track] = Some(player);
        let completed = self
            .completed_tickets(player)
            .into_iter()
            .filter(|t| !before.contains(t))
            .collect();
        Claimed {
            route,
            track,
            paid,
            completed,
            turned,
        }
    }

    /// A tunnel's claim: checks it as any claim, turns three cards from the
    /// deck, and claims it at once when they ask for nothing more, gives
    /// it up at once when the hand cannot pay what they ask, and else asks
    /// the player ([`Expect::Tunnel`]).
    fn begin_tunnel(
        &mut self,
        player: usize,
        route: RouteId,
        track: usize,
        colour: Colour,
        locomotives: u32,
    ) -> Result<Happened, RuleError> {
        let paid = self.claim_payment(player, route, track, colour, locomotives)?;
        let turned: Vec<Card> = (0..TUNNEL_CARDS).map_while(|_| self.pop_deck()).collect();
        let required = extra_asked(paid, &turned);
        let tunnel = Tunnel {
            route,
            track,
            paid,
            turned,
            required,
        };
        if required == 0 {
            let claimed = self.take_track(player, route, track, paid, tunnel.turned);
            self.end_turn();
            return Ok(Happened::Claimed(claimed));
        }
        if extra_options(&self.players[player].hand, &tunnel).is_empty() {
            self.discard.extend(&tunnel.turned);
            self.end_turn();
            return Ok(Happened::TunnelGivenUp(tunnel));
        }
        self.expect = Expect::Tunnel(tunnel.clone());
        Ok(Happened::TunnelDrawn(tunnel))
    }

    /// Claims the tunnel being claimed, with `locomotives` of its extra
    /// cards locomotives.
    fn pay_tunnel(
        &mut self,
        player: usize,
        tunnel: Tunnel,
        locomotives: u32,
    ) -> Result<Claimed, RuleError> {
        let options = extra_options(&self.players[player].hand, &tunnel);
        let Some(extra) = options.iter().find(|o| o.locomotives == locomotives) else {
            let counts: Vec<String> = options.iter().map(|o| o.locomotives.to_string()).collect();
            return illegal(
                Illegal::Tunnel,
                format!(
                    "{} extra cards with {locomotives} locomotives cannot be paid (locomotives possible: {})",
                    tunnel.required,
                    counts.join(", ")
                ),
            );
        };
        let paid = Paid {
            cards: match (tunnel.paid.cards, extra.cards) {
                (Some((c, a)), Some((_, b))) => Some((c, a + b)),
                (a, b) => a.or(b),
            },
            locomotives: tunnel.paid.locomotives + extra.locomotives,
        };
        Ok(self.take_track(player, tunnel.route, tunnel.track, paid, tunnel.turned))
    }

    /// The extra cards the player to move may pay for the tunnel being
    /// claimed (none when no tunnel is): every legal set, cards of the
    /// colour paid and locomotives, ordered by the number of locomotives
    /// (tCHu's `possibleAdditionalCards`).
    pub fn tunnel_options(&self) -> Vec<Paid> {
        match &self.expect {
            Expect::Tunnel(t) if !self.over => extra_options(&self.players[self.current].hand, t),
            _ => Vec::new(),
        }
    }

    /// Builds a station for `player` on `city`, paying so.
    fn build_station(
        &mut self,
        player: usize,
        city: CityId,
        colour: Colour,
        locomotives: u32,
    ) -> Result<Happened, RuleError> {
        let cost = self.station_cost(player, city)?;
        let name = &self.board.city(city).name;
        let what = || format!("a station in {name}");
        self.check_cards(player, &what, cost, Colour::Gray, colour, locomotives, 0)?;
        let paid = paid_as(cost, colour, locomotives);
        self.pay(player, paid);
        self.players[player].stations.push(city);
        Ok(Happened::StationBuilt { city, paid })
    }

    /// The cards the next station of `player` costs, if they may build one
    /// on `city` (cards aside).
    pub fn station_cost(&self, player: usize, city: CityId) -> Result<u32, RuleError> {
        let Some(rule) = &self.board.rules.stations else {
            return illegal(Illegal::Station, "this board has no stations");
        };
        let Some(c) = self.board.cities.get(city.0) else {
            return illegal(Illegal::Station, format!("there is no city {}", city.0));
        };
        let built = self.players[player].stations.len();
        let Some(&cost) = rule.costs.get(built) else {
            return illegal(
                Illegal::Station,
                format!("all {} stations are built", rule.count()),
            );
        };
        if let Some(p) = self.station_owner(city) {
            return illegal(
                Illegal::Station,
                format!("{} has a station already (player {p}'s)", c.name),
            );
        }
        Ok(cost)
    }

    /// Stations `player` may still build (0 on a board without them).
    pub fn stations_left(&self, player: usize) -> usize {
        self.board
            .rules
            .stations
            .as_ref()
            .map_or(0, |s| s.count() - self.players[player].stations.len())
    }

    /// Who built the station on `city`, if anyone did.
    pub fn station_owner(&self, city: CityId) -> Option<usize> {
        self.players.iter().position(|p| p.stations.contains(&city))
    }

    /// Every way `player` may pay for their next station (none when they
    /// may build no more, or the board has none), as
    /// [`Game::payments`] for a gray track of the station's cost.
    pub fn station_payments(&self, player: usize) -> Vec<Payment> {
        let Some(rule) = &self.board.rules.stations else {
            return Vec::new();
        };
        match rule.costs.get(self.players[player].stations.len()) {
            Some(&cost) => ways_to_pay(&self.players[player].hand, cost, Colour::Gray, 0),
            None => Vec::new(),
        }
    }

    /// Every station `player` could build now: per city without one and
    /// per card colour, the payment with the fewest locomotives.
    pub fn station_builds(&self, player: usize) -> Vec<Action> {
        let payments = self.station_payments(player);
        if payments.is_empty() {
            return Vec::new();
        }
        let free = (0..self.board.cities.len())
            .map(CityId)
            .filter(|&c| self.station_owner(c).is_none());
        let mut out = Vec::new();
        for city in free {
            for p in &payments {
                out.push(Action::BuildStation {
                    city,
                    colour: p.colour.unwrap_or(COLOURS[0]),
                    locomotives: p.min_locomotives,
                });
            }
        }
        out
    }

    /// The held tickets of `player` (each by its first trip) that the
    /// player's routes complete (a ticket with several trips: any of them),
    /// with the routes their stations would borrow now ([`Game::borrowed`]).
    pub fn completed_tickets(&self, player: usize) -> Vec<TicketId> {
        let board: &Board = &self.board;
        let p = &self.players[player];
        let trips = |t: &TicketId| &board.cards[board.ticket(*t).card].trips;
        let all: Vec<TicketId> = p.tickets.iter().flat_map(trips).copied().collect();
        let mut routes = p.routes();
        routes.extend(self.borrowed(player));
        let eval = evaluate(board, &routes, &all);
        p.tickets
            .iter()
            .copied()
            .filter(|t| trips(t).iter().any(|x| eval.completed.contains(x)))
            .collect()
    }

    /// Every claim `player` could make now, with its cheapest payment in
    /// locomotives for each colour.
    pub fn claims(&self, player: usize) -> Vec<Action> {
        self.board
            .route_ids()
            .flat_map(|route| self.claims_of(player, route))
            .collect()
    }

    /// The claims of `route` that `player` could make now: per claimable
    /// track and card colour (any colour on gray), the payment with the
    /// fewest locomotives, if the hand has it (locomotives alone, as that
    /// colour, when the hand has none of it). Built from
    /// [`Game::payments`].
    pub fn claims_of(&self, player: usize, route: RouteId) -> Vec<Action> {
        let mut out = Vec::new();
        let r = self.board.route(route);
        for (track, &tc) in r.tracks.iter().enumerate() {
            let payments = self.payments(player, route, track);
            if payments.is_empty() {
                continue;
            }
            let alone = payments.iter().any(|p| p.colour.is_none());
            for colour in card_colours(tc) {
                let locomotives = match payments.iter().find(|p| p.colour == Some(colour)) {
                    Some(p) => p.min_locomotives,
                    None if alone => r.length,
                    None => continue,
                };
                out.push(Action::Claim {
                    route,
                    track,
                    colour,
                    locomotives,
                });
            }
        }
        out
    }

    /// Every way `player` may pay for track `track` of `route` now (none if
    /// the track is closed to them, [`Game::can_claim_track`]): per card
    /// colour the track takes (every colour on gray, in [`COLOURS`] order)
    /// of which the hand holds at least one, the fewest and the most
    /// locomotives standing in for the rest (a ferry's fewest at least its
    /// locomotives); then locomotives alone, if the hand holds enough. Any
    /// count between a payment's fewest and most is legal. A tunnel may
    /// then ask for more ([`Game::tunnel_options`]).
    pub fn payments(&self, player: usize, route: RouteId, track: usize) -> Vec<Payment> {
        let Some(r) = self.board.routes.get(route.0) else {
            return Vec::new();
        };
        let Some(&colour) = r.tracks.get(track) else {
            return Vec::new();
        };
        // The hand first: most tracks are beyond it, and the rules' check
        // words its refusal (the route's name, its owner) for nothing
        // (the online game asks this of every track at every push).
        let ways = ways_to_pay(&self.players[player].hand, r.length, colour, r.ferry);
        if ways.is_empty() || self.can_claim_track(player, route, track).is_err() {
            return Vec::new();
        }
        ways
    }

    fn has_any_move(&self, player: usize) -> bool {
        !self.deck.is_empty()
            || !self.discard.is_empty()
            || !self.face_up.is_empty()
            || !self.ticket_deck.is_empty()
            || !self.claims(player).is_empty()
            || !self.station_builds(player).is_empty()
    }

    /// Every legal move of the player to move (claims and stations with
    /// their cheapest locomotive count per colour; a tunnel's extra cards
    /// in every legal count).
    pub fn legal(&self) -> Vec<Action> {
        let p = self.current;
        if self.over {
            return Vec::new();
        }
        match &self.expect {
            Expect::Tickets { offered, min } => {
                // Every subset of at least `min` (at most 3 offered).
                let n = offered.len();
                (1u32..1 << n)
                    .filter(|m| m.count_ones() as usize >= (*min).min(n))
                    .map(|m| {
                        Action::KeepTickets(
                            (0..n)
                                .filter(|i| m >> i & 1 == 1)
                                .map(|i| offered[i])
                                .collect(),
                        )
                    })
                    .collect()
            }
            Expect::SecondCard => {
                let mut out: Vec<Action> = (0..self.face_up.len())
                    .filter(|&i| self.face_up[i] != Card::Locomotive)
                    .map(Action::DrawFaceUp)
                    .collect();
                if !self.deck.is_empty() || !self.discard.is_empty() {
                    out.push(Action::DrawDeck);
                }
                if out.is_empty() {
                    out.push(Action::Pass);
                }
                out
            }
            Expect::Tunnel(t) => {
                let mut out: Vec<Action> = extra_options(&self.players[p].hand, t)
                    .into_iter()
                    .map(|o| Action::PayTunnel {
                        locomotives: o.locomotives,
                    })
                    .collect();
                out.push(Action::GiveUpTunnel);
                out
            }
            Expect::Turn => {
                let mut out: Vec<Action> =
                    (0..self.face_up.len()).map(Action::DrawFaceUp).collect();
                if !self.deck.is_empty() || !self.discard.is_empty() {
                    out.push(Action::DrawDeck);
                }
                if !self.ticket_deck.is_empty() {
                    out.push(Action::DrawTickets);
                }
                out.extend(self.claims(p));
                out.extend(self.station_builds(p));
                if out.is_empty() {
                    out.push(Action::Pass);
                }
                out
            }
        }
    }

    fn end_turn(&mut self) {
        let n = self.players.len();
        self.players[self.current].turns += 1;
        match &mut self.last_round {
            Some(left) => {
                *left -= 1;
                if *left == 0 {
                    self.over = true;
                    return;
                }
            }
            None if self.players[self.current].cars <= 2 => {
                // Everyone, this player included, has one more turn.
                self.last_round = Some(n);
            }
            None => {}
        }
        self.current = (self.current + 1) % n;
        self.expect = Expect::Turn;
    }

    /// Ends the game now, for a limit of the caller's own (a simulation's
    /// move cap); a game nobody can move in ends by itself (the stall rule,
    /// [`Game::stalled`]).
    pub fn stop(&mut self) {
        self.over = true;
    }

    /// The other players' routes the stations of `player` count for their
    /// tickets, as if the game ended now: one per station at most, the
    /// choice that scores the held tickets best (none that adds nothing).
    pub fn borrowed(&self, player: usize) -> Vec<RouteId> {
        let p = &self.players[player];
        if p.stations.is_empty() || p.tickets.is_empty() {
            return Vec::new();
        }
        let choices: Vec<Vec<RouteId>> = p
            .stations
            .iter()
            .map(|&c| stations::borrowable(&self.board, &self.owner, player, c))
            .collect();
        stations::best_borrowing(&p.routes(), &choices, |routes| {
            self.ticket_points(&p.tickets, routes).0
        })
    }

    /// The ticket points `tickets` score over `routes` (each its best
    /// completed trip, or minus its smallest), with the trips completed
    /// and the tickets failed (each by its smallest trip): the final
    /// scoring's, which the bots ask too.
    pub fn ticket_points(
        &self,
        tickets: &[TicketId],
        routes: &[RouteId],
    ) -> (i64, Vec<TicketId>, Vec<TicketId>) {
        let cards = |t: &TicketId| &self.board.cards[self.board.ticket(*t).card].trips;
        let trips: Vec<TicketId> = tickets.iter().flat_map(cards).copied().collect();
        let eval = evaluate(&self.board, routes, &trips);
        let failed: Vec<TicketId> = tickets
            .iter()
            .filter(|&t| !cards(t).iter().any(|c| eval.completed.contains(c)))
            .map(|t| {
                *cards(t)
                    .iter()
                    .min_by_key(|&&c| (self.board.ticket(c).points, c))
                    .expect("a ticket has a trip")
            })
            .collect();
        let points = |ts: &[TicketId]| -> i64 {
            ts.iter().map(|&t| self.board.ticket(t).points as i64).sum()
        };
        (
            points(&eval.completed) - points(&failed),
            eval.completed,
            failed,
        )
    }

    /// Final scores (valid at any time; final once the game is over).
    pub fn results(&self) -> Vec<FinalScore> {
        let longest: Vec<u32> = self
            .players
            .iter()
            .map(|p| longest_path(&self.board, &p.routes()))
            .collect();
        let best = longest.iter().copied().max().unwrap_or(0);
        self.players
            .iter()
            .zip(&longest)
            .enumerate()
            .map(|(i, (p, &length))| {
                // A held ticket scores its best completed trip, or loses its
                // smallest trip's points (one trip: its points); stations
                // count the routes they borrow.
                let borrowed = self.borrowed(i);
                let mut routes = p.routes();
                routes.extend(&borrowed);
                let (ticket_points, completed, failed) = self.ticket_points(&p.tickets, &routes);
                let bonus = if best > 0 && length == best {
                    self.board.rules.longest_path_bonus
                } else {
                    0
                };
                let station_points = self
                    .board
                    .rules
                    .stations
                    .as_ref()
                    .map_or(0, |s| self.stations_left(i) as u32 * s.points);
                FinalScore {
                    route_points: p.route_points,
                    completed,
                    failed,
                    ticket_points,
                    longest_path: length,
                    bonus,
                    borrowed,
                    station_points,
                    score: p.route_points as i64
                        + ticket_points
                        + bonus as i64
                        + station_points as i64,
                }
            })
            .collect()
    }
}

/// The cards of a payment of `length` with `locomotives` locomotives and
/// the rest in `colour`.
fn paid_as(length: u32, colour: Colour, locomotives: u32) -> Paid {
    let coloured = length - locomotives;
    Paid {
        cards: (coloured > 0).then_some((colour, coloured)),
        locomotives,
    }
}

/// Every way a hand may pay `length` cards for a track of `track_colour`
/// (any one colour on gray) with at least `ferry` locomotives: see
/// [`Game::payments`].
fn ways_to_pay(hand: &Hand, length: u32, track_colour: Colour, ferry: u32) -> Vec<Payment> {
    let locomotives = hand[Card::Locomotive.index()];
    let mut out: Vec<Payment> = card_colours(track_colour)
        .filter_map(|colour| {
            let have = hand[Card::Train(colour).index()];
            let min = length.saturating_sub(have).max(ferry);
            let max = locomotives.min(length - 1);
            (have > 0 && min <= max).then_some(Payment {
                colour: Some(colour),
                min_locomotives: min,
                max_locomotives: max,
            })
        })
        .collect();
    if locomotives >= length {
        out.push(Payment {
            colour: None,
            min_locomotives: length,
            max_locomotives: length,
        });
    }
    out
}

/// A payment as a hand of the cards it takes.
fn hand_of(paid: Paid) -> Hand {
    let mut hand = [0; 9];
    if let Some((c, n)) = paid.cards {
        hand[Card::Train(c).index()] = n;
    }
    hand[Card::Locomotive.index()] = paid.locomotives;
    hand
}

/// The extra cards a tunnel's turned cards ask for, paid so (tCHu's rule,
/// [`tunnel::additional_required`]).
fn extra_asked(paid: Paid, turned: &[Card]) -> u32 {
    tunnel::additional_required(&hand_of(paid), turned)
}

/// The legal sets of a tunnel's extra cards for a hand (the cards paid
/// first still in it), ordered by the number of locomotives
/// ([`tunnel::possible_additional_cards`]), as payments.
fn extra_options(hand: &Hand, t: &Tunnel) -> Vec<Paid> {
    // The payment was checked against the hand and at most 3 cards are
    // turned, so the function's errors cannot arise: none means no option.
    let options = tunnel::possible_additional_cards(hand, &hand_of(t.paid), t.required);
    let colour = t.paid.cards.map(|(c, _)| c);
    options
        .unwrap_or_default()
        .into_iter()
        .map(|h| {
            let coloured = h.iter().sum::<u32>() - h[Card::Locomotive.index()];
            Paid {
                cards: colour.filter(|_| coloured > 0).map(|c| (c, coloured)),
                locomotives: h[Card::Locomotive.index()],
            }
        })
        .collect()
}

/// The longest continuous path (trail: no route used twice, cities may
/// repeat) over `routes`, in cars. Exhaustive search: fine for one player's
/// network (at most a few dozen routes).
pub fn longest_path(board: &Board, routes: &[RouteId]) -> u32 {
    let n = board.cities.len();
    let mut adjacent: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n]; // (city, edge)
    for (e, &r) in routes.iter().enumerate() {
        let route = board.route(r);
        adjacent[route.a.0].push((route.b.0, e));
        adjacent[route.b.0].push((route.a.0, e));
    }
    let lengths: Vec<u32> = routes.iter().map(|&r| board.route(r).length).collect();
    fn walk(
        at: usize,
        used: &mut [bool],
        adjacent: &[Vec<(usize, usize)>],
        lengths: &[u32],
    ) -> u32 {
        let mut best = 0;
        for &(next, e) in &adjacent[at] {
            if !used[e] {
                used[e] = true;
                best = best.max(lengths[e] + walk(next, used, adjacent, lengths));
                used[e] = false;
            }
        }
        best
    }
    let mut used = vec![false; routes.len()];
    (0..n)
        .filter(|&c| !adjacent[c].is_empty())
        .map(|c| walk(c, &mut used, &adjacent, &lengths))
        .max()
        .unwrap_or(0)
}

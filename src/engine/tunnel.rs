//! Tunnels, as in tCHu and Europe: the extra cards the deck asks for, and
//! every way to pay them.
//!
//! A player claiming a tunnel first pays its cards as for any route (the
//! *initial* cards: cards of one colour and locomotives, or locomotives
//! alone). Then three cards are turned from the top of the deck; each of
//! them that is a locomotive or of the colour paid asks for one more card
//! ([`additional_required`]; when the initial cards are locomotives alone,
//! only the locomotives turned count). The player then pays that many more
//! cards from what is left in hand, of the colour paid or locomotives
//! (locomotives only after an initial payment in locomotives alone), or
//! gives up: the initial cards go back to the hand and the turn is spent.
//! The turned cards are discarded either way.
//!
//! [`possible_additional_cards`] is tCHu's
//! `PlayerState.possibleAdditionalCards`: every set of the required size of
//! the usable cards, ordered by the number of locomotives (fewest first).
//! There are never two options with the same number of locomotives: the
//! usable cards are of at most two kinds (one colour and locomotives), so
//! the number of locomotives fixes the rest. The order is therefore total,
//! with no tie to break. [`tunnel_options`] does both steps from the turned
//! cards.
//!
//! These are pure functions on [`Hand`]s (counts by [`Card::index`]); the
//! rules engine ([`crate::engine::rules`]) plays them. Bad input (a payment
//! not in the hand, of two colours, empty; not three cards turned; more
//! than three cards required) is a [`TunnelError`], never a panic.

use thiserror::Error;

use crate::board::Colour;
use crate::engine::cards::{Card, Hand, COLOURS};

/// How many cards are turned from the deck when a tunnel is claimed.
pub const TURNED: usize = 3;

/// The index of locomotives in a [`Hand`] (see [`Card::index`]).
const LOCOMOTIVE: usize = 8;

/// The extra cards a tunnel asks for, and every way to pay them
/// ([`tunnel_options`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdditionalCards {
    /// How many more cards the turned cards ask for (0 to 3).
    pub required: u32,
    /// Every legal set of `required` more cards, each a [`Hand`], by the
    /// number of locomotives (fewest first); empty when `required` is 0
    /// or the player cannot pay (then they can only give up).
    pub options: Vec<Hand>,
}

/// Input that no tunnel claim can have.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TunnelError {
    /// The initial payment has no card.
    #[error("the initial payment is empty")]
    EmptyPayment,
    /// The initial payment has cards of two colours (besides locomotives).
    #[error("the initial payment has cards of two colours, {0} and {1}")]
    TwoColours(Colour, Colour),
    /// The initial payment has more cards of a kind than the hand.
    #[error("the initial payment is not in the hand: {paid} {} paid, {held} held", card_name(*.card))]
    NotInHand {
        /// The card short in the hand.
        card: Card,
        /// How many of it the initial payment has.
        paid: u32,
        /// How many of it the hand has.
        held: u32,
    },
    /// Not three cards turned from the deck.
    #[error("{0} cards turned from the deck, expected {TURNED}")]
    Turned(usize),
    /// More additional cards required than three turned cards can ask for.
    #[error("{0} additional cards required, at most {TURNED}")]
    Required(u32),
}

/// A card's name in the board format: its colour (`green`), or
/// `locomotive`.
pub fn card_name(card: Card) -> String {
    match card {
        Card::Train(c) => c.to_string(),
        Card::Locomotive => "locomotive".to_string(),
    }
}

/// The card of a name in the board format: one of the 8 card colours by
/// the names a board file uses for them (`pink` or `purple`), or
/// `locomotive`; `None` for anything else (`gray` too: it is no card).
pub fn card_named(name: &str) -> Option<Card> {
    if name == "locomotive" {
        return Some(Card::Locomotive);
    }
    let value = serde_json::Value::String(name.to_string());
    let colour: Colour = serde_json::from_value(value).ok()?;
    COLOURS.contains(&colour).then_some(Card::Train(colour))
}

/// The colour of an initial payment, `None` for locomotives alone.
///
/// # Errors
/// [`TunnelError::EmptyPayment`] for no card, [`TunnelError::TwoColours`]
/// for cards of two colours.
pub fn payment_colour(initial: &Hand) -> Result<Option<Colour>, TunnelError> {
    if initial.iter().all(|&n| n == 0) {
        return Err(TunnelError::EmptyPayment);
    }
    let mut paid = COLOURS.iter().zip(initial).filter(|(_, &n)| n > 0);
    match (paid.next(), paid.next()) {
        (Some((&a, _)), Some((&b, _))) => Err(TunnelError::TwoColours(a, b)),
        (first, _) => Ok(first.map(|(&c, _)| c)),
    }
}

/// How many extra cards the cards turned from the deck ask for, after an
/// `initial` payment: one for each turned card that is a locomotive or of
/// the colour paid; after a payment in locomotives alone, one for each
/// locomotive only.
///
/// Every turned card is counted (a claim turns [`TURNED`]; the count is not
/// checked here, as it is by [`tunnel_options`]). The colour paid is the
/// first colour of `initial` in [`COLOURS`] order: a payment of two
/// colours is no payment, which [`payment_colour`] rejects.
pub fn additional_required(initial: &Hand, drawn: &[Card]) -> u32 {
    let colour = COLOURS
        .iter()
        .zip(initial)
        .find(|(_, &n)| n > 0)
        .map(|(&c, _)| c);
    let counts = |card: &&Card| match **card {
        Card::Locomotive => true,
        Card::Train(c) => Some(c) == colour,
    };
    drawn.iter().filter(counts).count() as u32
}

/// Every set of exactly `required` more cards the player may pay for a
/// tunnel (tCHu's `possibleAdditionalCards`), ordered by the number of
/// locomotives, fewest first.
///
/// The cards come from the hand less the `initial` cards, and only
/// locomotives and cards of the colour paid count (locomotives alone after
/// a payment in locomotives alone). As at most two kinds of card are usable,
/// each number of locomotives gives at most one option: the order has no
/// ties. Empty when `required` is 0 or the player cannot pay.
///
/// # Errors
/// The initial payment empty, of two colours or not in `hand`
/// ([`TunnelError::EmptyPayment`], [`TunnelError::TwoColours`],
/// [`TunnelError::NotInHand`]), or `required` above [`TURNED`]
/// ([`TunnelError::Required`]).
///
/// # Example
/// tCHu's worked example: three green cards, two blue and two locomotives;
/// a green tunnel of length 1 paid with one green; two more cards asked.
///
/// ```
/// use ttr_opt::engine::tunnel::possible_additional_cards;
/// //                 red orange yellow green blue pink white black loco
/// let hand = [0, 0, 0, 3, 2, 0, 0, 0, 2];
/// let initial = [0, 0, 0, 1, 0, 0, 0, 0, 0];
/// let options = possible_additional_cards(&hand, &initial, 2)?;
/// assert_eq!(
///     options,
///     [
///         [0, 0, 0, 2, 0, 0, 0, 0, 0], // two green
///         [0, 0, 0, 1, 0, 0, 0, 0, 1], // one green and a locomotive
///         [0, 0, 0, 0, 0, 0, 0, 0, 2], // two locomotives
///     ]
/// );
/// # Ok::<(), ttr_opt::engine::tunnel::TunnelError>(())
/// ```
pub fn possible_additional_cards(
    hand: &Hand,
    initial: &Hand,
    required: u32,
) -> Result<Vec<Hand>, TunnelError> {
    let colour = payment_colour(initial)?;
    if let Some(i) = (0..hand.len()).find(|&i| initial[i] > hand[i]) {
        return Err(TunnelError::NotInHand {
            card: card_at(i),
            paid: initial[i],
            held: hand[i],
        });
    }
    if required > TURNED as u32 {
        return Err(TunnelError::Required(required));
    }
    let locomotives = hand[LOCOMOTIVE] - initial[LOCOMOTIVE];
    let (index, coloured) = match colour {
        Some(c) => {
            let i = Card::Train(c).index();
            (i, hand[i] - initial[i])
        }
        None => (0, 0),
    };
    if required == 0 {
        return Ok(Vec::new());
    }
    let options = (0..=required)
        .filter(|&l| l <= locomotives && required - l <= coloured)
        .map(|l| {
            let mut option = [0; 9];
            option[LOCOMOTIVE] = l;
            option[index] += required - l;
            option
        })
        .collect();
    Ok(options)
}

/// The extra cards of a tunnel claim and every way to pay them: the cards
/// `drawn` (turned from the deck) ask for [`additional_required`] more,
/// paid by any of [`possible_additional_cards`].
///
/// # Errors
/// Not [`TURNED`] cards drawn ([`TunnelError::Turned`]), or an initial
/// payment that [`possible_additional_cards`] rejects.
pub fn tunnel_options(
    hand: &Hand,
    initial: &Hand,
    drawn: &[Card],
) -> Result<AdditionalCards, TunnelError> {
    if drawn.len() != TURNED {
        return Err(TunnelError::Turned(drawn.len()));
    }
    let required = additional_required(initial, drawn);
    let options = possible_additional_cards(hand, initial, required)?;
    Ok(AdditionalCards { required, options })
}

/// The card counted at `index` of a [`Hand`].
fn card_at(index: usize) -> Card {
    COLOURS
        .get(index)
        .map_or(Card::Locomotive, |&c| Card::Train(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    const GREEN: Card = Card::Train(Colour::Green);
    const BLUE: Card = Card::Train(Colour::Blue);
    const LOCO: Card = Card::Locomotive;

    /// A hand of these cards.
    fn hand_of(cards: &[(Card, u32)]) -> Hand {
        let mut h = [0; 9];
        for &(c, n) in cards {
            h[c.index()] += n;
        }
        h
    }

    /// tCHu's worked example (the course's statement of the rule): three green, two blue, two
    /// locomotives; a green tunnel of length 1 paid with one green; two
    /// more cards required.
    #[test]
    fn seed_004_worked_example() {
        let hand = hand_of(&[(GREEN, 3), (BLUE, 2), (LOCO, 2)]);
        let initial = hand_of(&[(GREEN, 1)]);
        let options = possible_additional_cards(&hand, &initial, 2).unwrap();
        assert_eq!(
            options,
            vec![
                hand_of(&[(GREEN, 2)]),
                hand_of(&[(GREEN, 1), (LOCO, 1)]),
                hand_of(&[(LOCO, 2)]),
            ]
        );
        // The same from turned cards that ask for two: a green and a
        // locomotive (the blue one does not count).
        let r = tunnel_options(&hand, &initial, &[GREEN, BLUE, LOCO]).unwrap();
        assert_eq!((r.required, r.options), (2, options));
    }

    #[test]
    fn turned_cards_count_the_colour_paid_and_locomotives() {
        let green = hand_of(&[(GREEN, 1)]);
        let green_and_loco = hand_of(&[(GREEN, 1), (LOCO, 1)]);
        let locos = hand_of(&[(LOCO, 2)]);
        assert_eq!(additional_required(&green, &[GREEN, BLUE, LOCO]), 2);
        assert_eq!(additional_required(&green, &[BLUE, BLUE, BLUE]), 0);
        assert_eq!(
            additional_required(&green_and_loco, &[GREEN, GREEN, GREEN]),
            3
        );
        // Locomotives alone: only the turned locomotives count.
        assert_eq!(additional_required(&locos, &[GREEN, BLUE, LOCO]), 1);
        assert_eq!(additional_required(&locos, &[GREEN, GREEN, BLUE]), 0);
        assert_eq!(additional_required(&locos, &[LOCO, LOCO, LOCO]), 3);
    }

    #[test]
    fn a_payment_in_locomotives_alone_takes_locomotives_alone() {
        let hand = hand_of(&[(GREEN, 5), (BLUE, 2), (LOCO, 4)]);
        let initial = hand_of(&[(LOCO, 2)]);
        let options = possible_additional_cards(&hand, &initial, 2).unwrap();
        assert_eq!(options, vec![hand_of(&[(LOCO, 2)])]);
        // Two locomotives left: three are too many.
        assert!(possible_additional_cards(&hand, &initial, 3)
            .unwrap()
            .is_empty());
        let r = tunnel_options(&hand, &initial, &[LOCO, GREEN, GREEN]).unwrap();
        assert_eq!((r.required, r.options), (1, vec![hand_of(&[(LOCO, 1)])]));
    }

    #[test]
    fn a_player_who_cannot_pay_has_no_option() {
        // Two green paid of two green and a locomotive: one card left, three
        // asked for.
        let hand = hand_of(&[(GREEN, 2), (BLUE, 4), (LOCO, 1)]);
        let initial = hand_of(&[(GREEN, 2)]);
        assert!(possible_additional_cards(&hand, &initial, 3)
            .unwrap()
            .is_empty());
        let r = tunnel_options(&hand, &initial, &[GREEN, GREEN, LOCO]).unwrap();
        assert_eq!(r.required, 3);
        assert!(r.options.is_empty());
        // One asked for: the locomotive.
        let one = possible_additional_cards(&hand, &initial, 1).unwrap();
        assert_eq!(one, vec![hand_of(&[(LOCO, 1)])]);
    }

    #[test]
    fn nothing_required_has_no_option() {
        let hand = hand_of(&[(GREEN, 3), (LOCO, 2)]);
        let initial = hand_of(&[(GREEN, 1)]);
        assert!(possible_additional_cards(&hand, &initial, 0)
            .unwrap()
            .is_empty());
        let r = tunnel_options(&hand, &initial, &[BLUE, BLUE, BLUE]).unwrap();
        assert_eq!((r.required, r.options.len()), (0, 0));
    }

    #[test]
    fn bad_input_is_an_error() {
        let hand = hand_of(&[(GREEN, 3), (BLUE, 2), (LOCO, 2)]);
        let green = hand_of(&[(GREEN, 1)]);
        assert_eq!(
            possible_additional_cards(&hand, &[0; 9], 1),
            Err(TunnelError::EmptyPayment)
        );
        assert_eq!(
            possible_additional_cards(&hand, &hand_of(&[(GREEN, 1), (BLUE, 1)]), 1),
            Err(TunnelError::TwoColours(Colour::Green, Colour::Blue))
        );
        let e = possible_additional_cards(&hand, &hand_of(&[(LOCO, 3)]), 1).unwrap_err();
        assert_eq!(
            e,
            TunnelError::NotInHand {
                card: LOCO,
                paid: 3,
                held: 2
            }
        );
        assert_eq!(
            e.to_string(),
            "the initial payment is not in the hand: 3 locomotive paid, 2 held"
        );
        assert_eq!(
            possible_additional_cards(&hand, &green, 4),
            Err(TunnelError::Required(4))
        );
        assert_eq!(
            tunnel_options(&hand, &green, &[GREEN, GREEN]),
            Err(TunnelError::Turned(2))
        );
        assert_eq!(
            tunnel_options(&hand, &green, &[GREEN; 4]),
            Err(TunnelError::Turned(4))
        );
        assert_eq!(
            tunnel_options(&hand, &[0; 9], &[GREEN; 3]),
            Err(TunnelError::EmptyPayment)
        );
    }

    #[test]
    fn cards_are_named_as_in_the_board_format() {
        for i in 0..9 {
            let card = card_at(i);
            assert_eq!(card.index(), i);
            assert_eq!(card_named(&card_name(card)), Some(card));
        }
        assert_eq!(card_named("purple"), Some(Card::Train(Colour::Pink)));
        assert_eq!(card_name(LOCO), "locomotive");
        for bad in ["gray", "grey", "Green", "wild", "", "locomotives"] {
            assert_eq!(card_named(bad), None, "{bad}");
        }
    }

    /// Every hand at or below `hand`, by brute force: all 9-tuples.
    fn below(hand: &Hand) -> Vec<Hand> {
        let mut all = vec![[0u32; 9]];
        for i in 0..9 {
            all = all
                .into_iter()
                .flat_map(|h| {
                    (0..=hand[i]).map(move |n| {
                        let mut h = h;
                        h[i] = n;
                        h
                    })
                })
                .collect();
        }
        all
    }

    /// The options by their definition, independently: every 9-tuple at or
    /// below the hand less the initial cards, of `required` cards, of the
    /// usable kinds only; sorted by locomotives, then by the cards' counts
    /// (colours in [`COLOURS`] order, locomotives last) for any tie.
    fn brute_force(hand: &Hand, initial: &Hand, required: u32) -> Vec<Hand> {
        let left: Hand = std::array::from_fn(|i| hand[i] - initial[i]);
        let colour_paid: Vec<usize> = (0..8).filter(|&i| initial[i] > 0).collect();
        let usable = |i: usize| i == LOCOMOTIVE || colour_paid.contains(&i);
        let mut options: Vec<Hand> = below(&left)
            .into_iter()
            .filter(|h| h.iter().sum::<u32>() == required)
            .filter(|h| (0..9).all(|i| h[i] == 0 || usable(i)))
            .collect();
        if required == 0 {
            options.clear();
        }
        options.sort_by_key(|h| (h[LOCOMOTIVE], *h));
        options
    }

    /// A random hand of up to 5 of each card, and a random legal initial
    /// payment from it (one colour and locomotives, or locomotives alone).
    fn random_claim(rng: &mut ChaCha8Rng) -> Option<(Hand, Hand)> {
        let hand: Hand = std::array::from_fn(|_| rng.random_range(0..=5));
        let colour = rng.random_range(0..9);
        let mut initial = [0; 9];
        initial[colour] = rng.random_range(0..=hand[colour]);
        initial[LOCOMOTIVE] = rng.random_range(0..=hand[LOCOMOTIVE]);
        (initial.iter().sum::<u32>() > 0).then_some((hand, initial))
    }

    #[test]
    fn options_equal_exhaustive_enumeration_on_random_hands() {
        let mut rng = ChaCha8Rng::seed_from_u64(56);
        let mut claims = 0;
        let mut unpayable = 0;
        while claims < 1500 {
            let Some((hand, initial)) = random_claim(&mut rng) else {
                continue;
            };
            claims += 1;
            for required in 0..=3 {
                let options = possible_additional_cards(&hand, &initial, required).unwrap();
                assert_eq!(
                    options,
                    brute_force(&hand, &initial, required),
                    "hand {hand:?}, initial {initial:?}, {required} required"
                );
                // No ties: strictly more locomotives from one to the next.
                assert!(options
                    .windows(2)
                    .all(|w| w[0][LOCOMOTIVE] < w[1][LOCOMOTIVE]));
                unpayable += usize::from(required > 0 && options.is_empty());
            }
            // And through the turned cards: three random cards.
            let drawn: Vec<Card> = (0..3).map(|_| card_at(rng.random_range(0..9))).collect();
            let r = tunnel_options(&hand, &initial, &drawn).unwrap();
            assert_eq!(r.options, brute_force(&hand, &initial, r.required));
        }
        // The random hands reach the case of a player who cannot pay.
        assert!(unpayable > 100, "{unpayable}");
    }
}

//! Train cards: the 8 colours and the locomotive, and a hand counted by
//! colour.

use crate::board::Colour;

/// A train card: one of the 8 colours, or a locomotive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Card {
    /// A coloured card, one of [`COLOURS`].
    Train(Colour),
    /// A locomotive: stands in for a card of any colour.
    Locomotive,
}

/// The 8 card colours (gray is a route colour only).
pub const COLOURS: [Colour; 8] = [
    Colour::Red,
    Colour::Orange,
    Colour::Yellow,
    Colour::Green,
    Colour::Blue,
    Colour::Pink,
    Colour::White,
    Colour::Black,
];

impl Card {
    /// Index into a [`Hand`]: the colours in [`COLOURS`] order, then 8.
    pub fn index(self) -> usize {
        match self {
            Card::Train(c) => COLOURS.iter().position(|&k| k == c).unwrap_or(0),
            Card::Locomotive => 8,
        }
    }
}

/// Cards held, counted by [`Card::index`].
pub type Hand = [u32; 9];

/// The card colours that can pay for a track of colour `track`: its own,
/// or every one (in [`COLOURS`] order) on gray.
pub(crate) fn card_colours(track: Colour) -> impl Iterator<Item = Colour> {
    let any = track == Colour::Gray;
    COLOURS.into_iter().filter(move |&c| any || c == track)
}

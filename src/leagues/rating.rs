//! The rating model shared by the online game's ratings
//! (`play::ratings`) and the tournament ([`crate::leagues::tournament`]): the
//! Weng-Lin model of free-for-all games with ties, from the `skillratings`
//! crate. A rating is a belief about a player's skill: `mu`, its mean, and
//! `sigma`, its uncertainty.

use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

/// A player's rating: the mean and uncertainty of their skill.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The mean skill.
    pub mu: f64,
    /// Its uncertainty (standard deviation).
    pub sigma: f64,
}

impl Default for Rating {
    /// The model's prior for a new player: 25 and 25/3.
    fn default() -> Rating {
        let r = WengLinRating::new();
        Rating {
            mu: r.rating,
            sigma: r.uncertainty,
        }
    }
}

impl Rating {
    /// The value shown: `mu - 3 sigma`, a skill the player has with high
    /// probability.
    pub fn shown(self) -> f64 {
        self.mu - 3.0 * self.sigma
    }
}

/// The places of final scores, from 1: tied scores share a place, and the
/// next place counts the players above (scores 9, 9, 4 are places 1, 1, 3).
pub fn ranks(scores: &[i64]) -> Vec<usize> {
    scores
        .iter()
        .map(|s| 1 + scores.iter().filter(|o| *o > s).count())
        .collect()
}

/// The ratings after one game of these players, each with their rating
/// before it and their place (equal places are ties).
pub fn update(players: &[(Rating, usize)]) -> Vec<Rating> {
    let teams: Vec<[WengLinRating; 1]> = players
        .iter()
        .map(|(r, _)| {
            [WengLinRating {
                rating: r.mu,
                uncertainty: r.sigma,
            }]
        })
        .collect();
    let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(players)
        .map(|(t, &(_, rank))| (&t[..], MultiTeamOutcome::new(rank)))
        .collect();
    weng_lin_multi_team(&ranked, &WengLinConfig::new())
        .into_iter()
        .map(|t| Rating {
            mu: t[0].rating,
            sigma: t[0].uncertainty,
        })
        .collect()
}

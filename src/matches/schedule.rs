//! The order of a match's games: which engines meet, with which colours, from which opening. The schedule is a
//! pure function of the settings, so a resumed match knows game N's players and opening without having saved
//! them anywhere but in the PGN. Games come in pairs (one opening, colours reversed), and a pair's number fixes
//! everything about its games, so a shard of the match (`crate::batch::shard`) can play any subset of pairs.

use crate::board::splitmix::SplitMix;

/// One scheduled game. Engines are indices into the match's engine list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// The game's number, from 1: the PGN `Round` tag.
    pub round: u32,
    /// The game pair it belongs to, from 0: the two games of one opening with colours reversed share it (a game
    /// without a partner, when colours are not repeated, is a pair of its own).
    pub pair: u32,
    pub opening: usize,
    /// Cho (moves first, PGN White) and Han.
    pub cho: usize,
    pub han: usize,
}

/// The first `games` games: openings in order (cycling when there are fewer openings than needed), and for each
/// opening every pair of engines (a round robin for more than two), each pair playing the opening twice with
/// colours swapped when `repeat`, or once with colours alternating from opening to opening otherwise. With a
/// `seed`, each round of openings draws its opening at random from the seed and the round's number alone, so a
/// game is the same whichever shard plays it.
pub fn schedule(engines: usize, openings: usize, games: u32, repeat: bool, seed: Option<u64>) -> Vec<Pairing> {
    let mut pairs = Vec::new();
    for i in 0..engines {
        for j in i + 1..engines {
            pairs.push((i, j));
        }
    }
    let mut out = Vec::with_capacity(games as usize);
    if pairs.is_empty() || openings == 0 {
        return out;
    }
    let mut cycle = 0usize;
    'outer: loop {
        let opening = match seed {
            None => cycle % openings,
            Some(seed) => opening_for(seed, cycle as u64, openings),
        };
        for (p, &(a, b)) in pairs.iter().enumerate() {
            let orders: &[(usize, usize)] = if repeat {
                &[(a, b), (b, a)]
            } else if (cycle + p).is_multiple_of(2) {
                &[(a, b)]
            } else {
                &[(b, a)]
            };
            for &(cho, han) in orders {
                if out.len() as u32 >= games {
                    break 'outer;
                }
                let round = out.len() as u32 + 1;
                let pair = if repeat { (round - 1) / 2 } else { round - 1 };
                out.push(Pairing { round, pair, opening, cho, han });
            }
        }
        cycle += 1;
    }
    out
}

/// The opening of round `cycle` of a seeded schedule: the seed and the number mixed by two SplitMix steps.
fn opening_for(seed: u64, cycle: u64, openings: usize) -> usize {
    let mut rng = SplitMix(seed ^ SplitMix(cycle).next_u64());
    rng.below(openings as u64) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_opening_with_both_colours() {
        let s = schedule(2, 25, 6, true, None);
        let got: Vec<(u32, usize, usize, usize)> = s.iter().map(|p| (p.round, p.opening, p.cho, p.han)).collect();
        assert_eq!(got, vec![(1, 0, 0, 1), (2, 0, 1, 0), (3, 1, 0, 1), (4, 1, 1, 0), (5, 2, 0, 1), (6, 2, 1, 0)]);
        // Openings cycle.
        assert_eq!(schedule(2, 2, 6, true, None)[4].opening, 0);
    }

    #[test]
    fn round_robin_balances_colours() {
        let s = schedule(3, 25, 60, true, None);
        assert_eq!(s.len(), 60);
        for e in 0..3 {
            let cho = s.iter().filter(|p| p.cho == e).count();
            let han = s.iter().filter(|p| p.han == e).count();
            assert_eq!((cho, han), (20, 20));
        }
        let alternating = schedule(2, 25, 10, false, None);
        assert_eq!(alternating.iter().filter(|p| p.cho == 0).count(), 5);
        assert!(alternating.iter().all(|p| p.opening as u32 == p.round - 1));
    }

    #[test]
    fn pairs_are_an_opening_with_colours_reversed() {
        for s in [schedule(2, 25, 10, true, None), schedule(3, 25, 30, true, Some(7))] {
            for two in s.chunks(2) {
                assert_eq!(two[0].pair, two[1].pair);
                assert_eq!(two[0].opening, two[1].opening);
                assert_eq!((two[0].cho, two[0].han), (two[1].han, two[1].cho));
            }
        }
        assert!(schedule(2, 25, 4, false, None).iter().all(|p| p.pair == p.round - 1));
    }

    #[test]
    fn a_seed_draws_openings_at_random_but_reproducibly() {
        let a = schedule(2, 25, 200, true, Some(42));
        assert_eq!(a, schedule(2, 25, 200, true, Some(42)));
        assert_ne!(a, schedule(2, 25, 200, true, Some(43)));
        assert!(a.iter().any(|p| p.opening as u32 != p.pair % 25), "not in order");
        // A longer match starts with the same games.
        assert_eq!(a[..50], schedule(2, 25, 50, true, Some(42))[..]);
    }
}

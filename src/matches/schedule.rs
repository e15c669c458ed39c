//! The order of a match's games: which engines meet, with which colours, from which opening. The schedule is a
//! pure function of the settings, so a resumed match knows game N's players and opening without having saved
//! them anywhere but in the PGN.

/// One scheduled game. Engines are indices into the match's engine list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// The game's number, from 1: the PGN `Round` tag.
    pub round: u32,
    pub opening: usize,
    /// Cho (moves first, PGN White) and Han.
    pub cho: usize,
    pub han: usize,
}

/// The first `games` games: openings in order (cycling when there are fewer openings than needed), and for each
/// opening every pair of engines (a round robin for more than two), each pair playing the opening twice with
/// colours swapped when `repeat`, or once with colours alternating from opening to opening otherwise.
pub fn schedule(engines: usize, openings: usize, games: u32, repeat: bool) -> Vec<Pairing> {
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
        let opening = cycle % openings;
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
                out.push(Pairing { round: out.len() as u32 + 1, opening, cho, han });
            }
        }
        cycle += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_opening_with_both_colours() {
        let s = schedule(2, 25, 6, true);
        let got: Vec<(u32, usize, usize, usize)> = s.iter().map(|p| (p.round, p.opening, p.cho, p.han)).collect();
        assert_eq!(got, vec![(1, 0, 0, 1), (2, 0, 1, 0), (3, 1, 0, 1), (4, 1, 1, 0), (5, 2, 0, 1), (6, 2, 1, 0)]);
        // Openings cycle.
        assert_eq!(schedule(2, 2, 6, true)[4].opening, 0);
    }

    #[test]
    fn round_robin_balances_colours() {
        let s = schedule(3, 25, 60, true);
        assert_eq!(s.len(), 60);
        for e in 0..3 {
            let cho = s.iter().filter(|p| p.cho == e).count();
            let han = s.iter().filter(|p| p.han == e).count();
            assert_eq!((cho, han), (20, 20));
        }
        let alternating = schedule(2, 25, 10, false);
        assert_eq!(alternating.iter().filter(|p| p.cho == 0).count(), 5);
        assert!(alternating.iter().all(|p| p.opening as u32 == p.round - 1));
    }
}

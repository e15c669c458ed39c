//! The rules as a specification: FEN in and out, make/unmake, keys, the move generator against a slower
//! reference, and the game ends of each rule set.

use janggi::board::setups::all_setups;
use janggi::board::{
    Bitboard, Color, FenError, Move, Notation, Outcome, PieceKind, Position, Reason, Rules, START_FEN, Square,
};
use proptest::prelude::*;

fn mv(text: &str) -> Move {
    Move::parse(text, Notation::Uci).unwrap()
}

fn play(fen: &str, rules: Rules, moves: &[&str]) -> Position {
    let mut pos = Position::from_fen(fen, rules).unwrap();
    for m in moves {
        let m = mv(m);
        assert!(pos.is_legal(m), "{m} illegal in {}", pos.fen());
        pos.make_move(m);
    }
    pos
}

#[test]
fn every_setup_round_trips_through_fen() {
    let setups = all_setups();
    assert_eq!(setups.len(), 25);
    for fen in setups {
        let pos = Position::from_fen(&fen, Rules::JANGGI).unwrap();
        assert_eq!(pos.fen(), fen);
        assert_eq!(pos.legal_moves().len(), 32, "{fen}");
    }
}

#[test]
fn malformed_fens_are_rejected_with_the_reason() {
    let cases: [(&str, &str); 10] = [
        ("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4 w - - 0 1", "9 ranks"),
        ("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR/9 w - - 0 1", "11 ranks"),
        ("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBX1ABNR w - - 0 1", "unknown piece letter 'X'"),
        ("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/3KK4/RNBA1ABNR w - - 0 1", "Cho has 2 generals"),
        ("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1CK4C1/9/RNBA1ABNR w - - 0 1", "outside its palace"),
        ("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR x - - 0 1", "'w' or 'b'"),
        ("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR", "no side to move"),
        ("rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1", "Han has no general"),
        (
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABN w - - 0 1",
            "rank 1 of the FEN describes 8 points",
        ),
        ("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - x 1", "halfmove clock"),
    ];
    for (fen, expected) in cases {
        let err: FenError = Position::from_fen(fen, Rules::JANGGI).unwrap_err();
        assert!(err.to_string().contains(expected), "{fen}: '{err}' should mention '{expected}'");
    }
}

#[test]
fn a_fen_without_counters_or_with_h_and_e_letters_is_accepted() {
    let pos =
        Position::from_fen("rhea1aehr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RHEA1AEHR w", Rules::JANGGI).unwrap();
    assert_eq!(pos.fen(), START_FEN);
    let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4K4/9 b 5 7", Rules::JANGGI).unwrap();
    assert_eq!(pos.fen(), "4k4/9/9/9/9/9/9/9/4K4/9 b - - 5 7");
}

#[test]
fn the_pass_is_the_generals_square_twice_and_changes_only_the_side() {
    let pos = Position::startpos(Rules::JANGGI);
    assert!(pos.legal_moves().contains(mv("e2e2")));
    let after = play(START_FEN, Rules::JANGGI, &["e2e2"]);
    assert_eq!(after.fen(), "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b - - 1 1");
    assert_ne!(after.key(), pos.key());
}

#[test]
fn two_passes_end_the_game_and_the_count_decides() {
    let pos = play(START_FEN, Rules::JANGGI, &["e2e2", "e9e9"]);
    assert!(pos.legal_moves().is_empty());
    let end = pos.game_end().unwrap();
    // Equal armies: Han's 1.5-point komi wins.
    assert_eq!(
        (end.outcome, end.reason, end.counted),
        (Outcome::Win(janggi::board::Color::Han), Reason::DoublePass, true)
    );
    let drawn = play(START_FEN, Rules::TRADITIONAL, &["e2e2", "e9e9"]).game_end().unwrap();
    assert_eq!(drawn.outcome, Outcome::Draw);
}

#[test]
fn bikjang_must_be_answered_by_passing_or_breaking() {
    // Cho's general steps onto Han's file: Han may only pass or leave the file.
    let fen = "9/3k5/9/6p1r/9/9/R1P6/9/4K4/9 w - - 0 1";
    let pos = play(fen, Rules::JANGGI, &["e2d2"]);
    let mut legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    legal.sort();
    assert_eq!(legal, vec!["d9d9", "d9e9"]);
    let ended = play(fen, Rules::JANGGI, &["e2d2", "d9d9"]);
    assert_eq!(ended.game_end().unwrap().reason, Reason::BikjangPass);
    // janggimodern ignores facing generals.
    assert!(play(fen, Rules::MODERN, &["e2d2"]).legal_moves().len() > 2);
    // janggistrict has no pass: the generals must be separated.
    let strict = play(fen, Rules::STRICT, &["e2d2"]);
    let legal: Vec<String> = strict.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(legal, vec!["d9e9"]);
}

#[test]
fn third_repetition_is_counted_and_perpetual_check_loses() {
    let fen = "9/3k5/9/8r/9/9/R8/9/4K4/9 w - - 0 1";
    let cycle = ["a4a5", "i7i6", "a5b5", "i6h6", "b5b4", "h6h7", "b4a4", "h7i7"];
    let moves: Vec<&str> = cycle.iter().chain(cycle.iter()).copied().collect();
    let end = play(fen, Rules::JANGGI, &moves).game_end().unwrap();
    assert_eq!((end.reason, end.counted), (Reason::Repetition, true));
    assert_eq!(play(fen, Rules::MODERN, &moves).game_end(), None, "janggimodern needs a fourth occurrence");

    let checks = ["a9a10", "d10d9", "a10a9", "d9d10"];
    let moves: Vec<&str> = checks.iter().chain(checks.iter()).copied().collect();
    let end = play("3k5/R8/9/9/9/9/9/9/4K4/9 w - - 0 1", Rules::CASUAL, &moves).game_end().unwrap();
    assert_eq!((end.reason, end.outcome), (Reason::PerpetualCheck, Outcome::Win(janggi::board::Color::Han)));
}

#[test]
fn the_move_count_rule_ends_at_100_plies_but_not_before_checkmate() {
    let pos = Position::from_fen("9/3k5/9/8r/9/9/R8/9/4K4/9 w - - 100 1", Rules::JANGGI).unwrap();
    assert_eq!(pos.game_end().unwrap().reason, Reason::MoveLimit);
    let pos = Position::from_fen("9/3k5/9/8r/9/9/R8/9/4K4/9 w - - 199 1", Rules::MODERN).unwrap();
    assert_eq!(pos.game_end(), None);
    let mate = play("3k5/R8/9/9/9/9/9/9/4K4/1R7 w - - 99 1", Rules::JANGGI, &["b1b10"]);
    assert_eq!(mate.game_end().unwrap().reason, Reason::Checkmate);
    let basic = Position::from_fen("9/3k5/9/8r/9/9/R8/9/4K4/9 w - - 120 1", Rules::BASIC).unwrap();
    assert_eq!(basic.game_end().unwrap().outcome, Outcome::Draw);
}

#[test]
fn the_shuttle_rule_of_janggimodern() {
    let fen = "8r/3k5/9/9/9/9/R8/9/4K4/9 w - - 0 1";
    let moves = ["a4b4", "i10i9", "b4b5", "i9i8", "b5b4", "i8i7", "b4b5", "i7i6", "b5b4"];
    let end = play(fen, Rules::MODERN, &moves).game_end().unwrap();
    assert_eq!((end.reason, end.outcome), (Reason::Shuttle, Outcome::Win(janggi::board::Color::Han)));
    assert_eq!(play(fen, Rules::JANGGI, &moves).game_end(), None);
    let mut other = moves;
    other[8] = "b5a5";
    assert_eq!(play(fen, Rules::MODERN, &other).game_end(), None);
}

#[test]
fn janggibasic_uses_no_palace_diagonals_for_pieces_and_blocks_elephants_only_on_the_first_step() {
    // A chariot on d1 slides to e2/f3 only where palace diagonals count.
    let fen = "4k4/9/9/9/9/9/9/9/5K3/3R5 w - - 0 1";
    assert!(Position::from_fen(fen, Rules::JANGGI).unwrap().is_legal(mv("d1f3")));
    assert!(!Position::from_fen(fen, Rules::BASIC).unwrap().is_legal(mv("d1f3")));
    // Elephant b1 with a piece on c3: blocked in janggi, not in janggibasic.
    let fen = "4k4/9/9/9/9/9/9/2P6/4K4/1B7 w - - 0 1";
    assert!(!Position::from_fen(fen, Rules::JANGGI).unwrap().is_legal(mv("b1d4")));
    assert!(Position::from_fen(fen, Rules::BASIC).unwrap().is_legal(mv("b1d4")));
}

#[test]
fn a_side_without_moves_loses_in_janggibasic_and_draws_in_janggistrict() {
    // Cho's general on d1 is not attacked, but every point it could step to is; without a pass it cannot move.
    let fen = "5k3/9/4r4/9/9/9/9/9/8r/3K5 w - - 0 1";
    let basic = Position::from_fen(fen, Rules::BASIC).unwrap();
    assert!(basic.legal_moves().is_empty() && !basic.in_check());
    let end = basic.game_end().unwrap();
    assert_eq!((end.reason, end.outcome), (Reason::Stalemate, Outcome::Win(janggi::board::Color::Han)));
    let strict = Position::from_fen(fen, Rules::STRICT).unwrap();
    assert_eq!(strict.game_end().unwrap().outcome, Outcome::Draw);
    let hosted = Position::from_fen(fen, Rules::JANGGI).unwrap();
    assert_eq!(hosted.legal_moves().as_slice(), &[mv("d1d1")]);
}

#[test]
fn a_cannon_moved_behind_a_screen_targets_the_piece_beyond_it() {
    // Han's cannon c3 jumps its own horse on c8 to c9; from there it looks past Cho's elephant on e9 at Cho's
    // chariot on f9 (and no further), and not at Cho's cannon on b9, which a cannon may not take.
    let pos =
        Position::from_fen("4k4/1C2BR3/2n1cn3/bp3bpp1/9/4P4/6PP1/2c6/3NAA3/1BrCK4 b - - 0 26", Rules::JANGGI).unwrap();
    let m = mv("c3c9");
    let targets = pos.targets_after_quiet(m);
    assert!(targets.has(Square::parse("f9", Notation::Uci).unwrap()));
    assert!(!targets.has(Square::parse("g9", Notation::Uci).unwrap()));
    assert!(!targets.has(Square::parse("b9", Notation::Uci).unwrap()));
    assert!(!targets.has(Square::parse("e9", Notation::Uci).unwrap()));
    let mut after = pos.clone();
    after.make_move(m);
    assert_eq!(after.targets_of(m.to()), targets);
    // Nothing stands on c3 any more, and a capture has no quiet-move targets.
    assert!(after.targets_of(m.from()).is_empty());
    assert!(pos.targets_after_quiet(mv("c1b1")).is_empty());
}

fn random_playout(rules: Rules, setup: usize, choices: &[u16]) -> Vec<Position> {
    let fens = all_setups();
    let mut pos = Position::from_fen(&fens[setup % fens.len()], rules).unwrap();
    let mut seen = vec![pos.clone()];
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves.as_slice()[c as usize % moves.len()];
        let expected = pos.key_after(m);
        pos.make_move(m);
        assert_eq!(pos.key(), expected, "key_after({m:?})");
        seen.push(pos.clone());
    }
    seen
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn incremental_keys_equal_keys_from_scratch(rules in 0usize..6, setup in 0usize..25, choices in prop::collection::vec(any::<u16>(), 0..150)) {
        for pos in random_playout(Rules::ALL[rules], setup, &choices) {
            prop_assert_eq!(pos.key(), pos.compute_key());
            for color in [Color::Cho, Color::Han] {
                for kind in PieceKind::ALL {
                    prop_assert_eq!(pos.piece_count(color, kind), pos.pieces(color, kind).count());
                }
            }
            let reread = Position::from_fen(&pos.fen(), pos.rules()).unwrap();
            prop_assert_eq!(reread.key(), pos.key());
            prop_assert_eq!(reread.fen(), pos.fen());
        }
    }

    #[test]
    fn unmake_restores_board_key_and_counters(rules in 0usize..6, setup in 0usize..25, choices in prop::collection::vec(any::<u16>(), 1..150)) {
        let history = random_playout(Rules::ALL[rules], setup, &choices);
        let mut pos = history.last().unwrap().clone();
        for earlier in history.iter().rev().skip(1) {
            pos.unmake_move();
            prop_assert_eq!(pos.fen(), earlier.fen());
            prop_assert_eq!(pos.key(), earlier.key());
            prop_assert_eq!(pos.in_check(), earlier.in_check());
            for kind in PieceKind::ALL {
                prop_assert_eq!(pos.piece_count(Color::Han, kind), earlier.piece_count(Color::Han, kind));
                prop_assert_eq!(pos.piece_count(Color::Cho, kind), earlier.piece_count(Color::Cho, kind));
            }
        }
    }

    #[test]
    fn fast_move_generation_agrees_with_testing_every_move(rules in 0usize..6, setup in 0usize..25, choices in prop::collection::vec(any::<u16>(), 0..200)) {
        for pos in random_playout(Rules::ALL[rules], setup, &choices) {
            let mut fast: Vec<Move> = pos.legal_moves().iter().copied().collect();
            let mut slow: Vec<Move> = pos.legal_moves_by_testing_each().iter().copied().collect();
            fast.sort_by_key(|m| m.bits());
            slow.sort_by_key(|m| m.bits());
            prop_assert_eq!(fast, slow, "{}", pos.fen());
            let captures = pos.legal_captures();
            prop_assert!(captures.iter().all(|m| pos.legal_moves().contains(*m) && pos.piece_at(m.to()).is_some()));
        }
    }

    #[test]
    fn a_move_tested_alone_is_legal_exactly_when_the_generator_lists_it(rules in 0usize..6, setup in 0usize..25, choices in prop::collection::vec(any::<u16>(), 0..200)) {
        for pos in random_playout(Rules::ALL[rules], setup, &choices) {
            let legal = pos.legal_moves();
            prop_assert!(!pos.is_legal(Move::NONE));
            // Every pair of points, the passes (a point to itself) included: moves of either side, onto friends,
            // through blocks, out of the palace, into check.
            for from in (0..90).filter_map(Square::from_index) {
                for to in (0..90).filter_map(Square::from_index) {
                    let m = Move::new(from, to);
                    prop_assert_eq!(pos.is_legal(m), legal.contains(m), "{:?} in {}", m, pos.fen());
                }
            }
        }
    }

    #[test]
    fn a_pieces_targets_hold_every_point_it_may_move_to_and_are_known_before_a_quiet_move(rules in 0usize..6, setup in 0usize..25, choices in prop::collection::vec(any::<u16>(), 0..200)) {
        for pos in random_playout(Rules::ALL[rules], setup, &choices) {
            for m in pos.legal_moves().iter().filter(|m| !m.is_pass()) {
                prop_assert!(pos.targets_of(m.from()).has(m.to()), "{} {m:?}", pos.fen());
                if pos.piece_at(m.to()).is_none() {
                    let mut after = pos.clone();
                    after.make_move(*m);
                    prop_assert_eq!(pos.targets_after_quiet(*m), after.targets_of(m.to()), "{} {:?}", pos.fen(), m);
                }
            }
        }
    }

    #[test]
    fn the_attacks_by_kind_are_each_kinds_targets_and_agree_with_the_attack_test(rules in 0usize..6, setup in 0usize..25, choices in prop::collection::vec(any::<u16>(), 0..200)) {
        for pos in random_playout(Rules::ALL[rules], setup, &choices) {
            for color in [Color::Cho, Color::Han] {
                let by_kind = pos.attacks_by_kind(color);
                for kind in PieceKind::ALL {
                    let mut union = Bitboard::EMPTY;
                    for at in pos.pieces(color, kind) {
                        union |= pos.targets_of(at);
                    }
                    prop_assert_eq!(by_kind[kind.index()], union, "{} {:?} {:?}", pos.fen(), color, kind);
                }
                // `attacked` leaves out generals and guards (they never reach the other general) and is asked of
                // points a cannon could take: the two answers agree on every enemy piece but a cannon.
                let reach = PieceKind::ALL
                    .iter()
                    .filter(|k| !matches!(k, PieceKind::General | PieceKind::Guard))
                    .fold(Bitboard::EMPTY, |acc, k| acc | by_kind[k.index()]);
                for sq in pos.color_bb(!color) & !pos.kind_bb(PieceKind::Cannon) {
                    prop_assert_eq!(reach.has(sq), pos.attacked(sq, color), "{} {:?} {:?}", pos.fen(), color, sq);
                }
            }
            let ours = pos.attacks_by_kind(pos.side_to_move());
            for m in pos.legal_captures().iter() {
                let kind = pos.piece_at(m.from()).unwrap().kind();
                prop_assert!(ours[kind.index()].has(m.to()), "{} {:?}", pos.fen(), m);
            }
        }
    }

    #[test]
    fn a_move_gives_check_exactly_when_the_general_is_attacked_after_it_the_check_filter_passes_it_and_the_quiet_checks_are_all_found(rules in 0usize..6, setup in 0usize..25, choices in prop::collection::vec(any::<u16>(), 0..200)) {
        for pos in random_playout(Rules::ALL[rules], setup, &choices) {
            let filter = pos.check_filter();
            for m in pos.legal_moves().iter() {
                let mut after = pos.clone();
                after.make_move(*m);
                prop_assert_eq!(pos.gives_check(*m), after.in_check(), "{} {:?}", pos.fen(), m);
                // The filter lets every check through (it may let others through too).
                if !m.is_pass() {
                    let kind = pos.piece_at(m.from()).unwrap().kind();
                    prop_assert!(!after.in_check() || filter.may_check(kind, *m), "{} {:?}", pos.fen(), m);
                }
                prop_assert_eq!(after.has_legal_move(), !after.legal_moves().is_empty(), "{}", after.fen());
            }
            let mut expected: Vec<Move> = pos
                .legal_moves()
                .iter()
                .copied()
                .filter(|m| !m.is_pass() && pos.piece_at(m.to()).is_none() && pos.gives_check(*m))
                .collect();
            let mut found: Vec<Move> = pos.quiet_checks().iter().copied().collect();
            expected.sort_by_key(|m| m.bits());
            found.sort_by_key(|m| m.bits());
            prop_assert_eq!(found, expected, "{}", pos.fen());
        }
    }

    #[test]
    fn the_fen_reader_never_panics(text in ".{0,120}") {
        let _ = Position::from_fen(&text, Rules::JANGGI);
    }

    #[test]
    fn the_fen_reader_never_panics_on_fen_like_text(text in "[1-9kKaArRcCnNbBpPhHeEx/]{0,100}( [wbx])?( -)?( -)?( [0-9]{1,6})?( [0-9]{1,6})?") {
        let _ = Position::from_fen(&text, Rules::JANGGI);
    }
}

#[test]
fn the_position_after_a_pass_in_check_under_bikjang_reads_back_from_its_fen() {
    // Cho is checked by the cannon on f10 (screened by Han's general) while the generals face each other; under
    // the traditional rules the pass is Cho's only move, and it ends the game.
    let fen = "3anc3/5k2r/9/8p/1pP5n/1P4C1P/P2b5/N4K3/9/4r2NB w - - 5 56";
    let mut pos = Position::from_fen(fen, Rules::TRADITIONAL).unwrap();
    let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    assert_eq!(moves.len(), 1);
    assert!(moves[0].is_pass());
    pos.make_move(moves[0]);
    let after = pos.fen();
    let again = Position::from_fen(&after, Rules::TRADITIONAL).expect("the FEN after the pass reads back");
    assert_eq!(again.fen(), after);
}

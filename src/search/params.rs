//! Every number of the search, named, in one place (the time manager's are in `time.rs`): fixed constants
//! (scores, limits, the WDL model) and, in `SearchParams`, the numbers tuned by games (`janggi tune spsa`), each
//! with its default, range and tuning step. The defaults are the values the engine plays with.

/// Deepest ply the search reaches (iterations stop below it).
pub const MAX_PLY: usize = 128;
/// Score of mate at the root; mate in n plies scores `MATE - n`.
pub const MATE: i32 = 32000;
/// Scores beyond this are mates (or other decided game ends).
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
pub const INFINITE: i32 = MATE + 1;
/// A net's evaluation is clamped to ±this: far from the mate scores even with the pruning margins added, so a
/// net with wild weights cannot pass for a mate.
pub const NNUE_EVAL_LIMIT: i32 = 20000;

/// The win/draw/loss model of `UCI_ShowWDL`: a logistic of the score that gives half the games won at
/// `WDL_EVEN_CP`, with this scale.
pub const WDL_EVEN_CP: f64 = 250.0;
pub const WDL_SCALE_CP: f64 = 90.0;

/// Double singular extensions allowed on one path from the root.
pub const MAX_DOUBLE_EXTENSIONS: u8 = 3;

/// Fairy-Stockfish's units to a soldier (its `PawnValueEg`): `see_quiet_quad` is given in its units and applied
/// in centipawns.
pub const FS_UNITS_PER_SOLDIER: i32 = 208;
/// `see_quiet_quad`'s reduced depth counts for at most this much in the first factor.
pub const SEE_QUIET_QUAD_DEPTH_CAP: i32 = 18;

/// The running average of hash-table hits (`lmr_tt_hit_average`): over this many nodes, a hit counting this much.
pub const TT_HIT_WINDOW: u64 = 4096;
pub const TT_HIT_RESOLUTION: u64 = 1024;
/// `lmr_tt_hit_average` reduces a ply less above this average: hits at 537 nodes of 1024 (Fairy-Stockfish's
/// threshold).
pub const TT_HIT_REDUCE_ABOVE: u64 = 537 * TT_HIT_RESOLUTION * TT_HIT_WINDOW / 1024;

/// `lmr_cutoff_count` applies where the children searched so far cut off more than this many times.
pub const CUTOFF_COUNT_OVER: u32 = 3;
/// `lmr_extend` applies to a node's first this many moves.
pub const LMR_EXTEND_MOVES: usize = 5;
/// `alpha_raise_reduce` applies at these depths: shallower nodes have no ply to spare, deeper ones decide too much.
pub const ALPHA_RAISE_DEPTHS: std::ops::Range<i32> = 3..12;

/// The depth of a hash-table entry that holds only a static evaluation: below every searched depth, quiescence's
/// included, so that any search result replaces it.
pub const TT_EVAL_DEPTH: i32 = -8;

/// History scores saturate at this value (continuation history at `cont_history_limit`).
pub const HISTORY_MAX: i32 = 16384;
/// The least `cont_history_limit` the history takes: above every bonus it is given (`history_bonus_max`'s range,
/// `EVAL_HISTORY_LIMIT`), so that gravity keeps entries within the limit.
pub const CONT_HISTORY_LIMIT_MIN: i32 = 8192;
/// The largest history change one evaluation swing gives (`eval_history_per_cp`).
pub const EVAL_HISTORY_LIMIT: i32 = 1000;

/// Correction history: 2^bits slots a side and table, entries in 1/grain centipawns, saturating at the limit
/// (the largest correction is limit / grain centipawns).
pub const CORRECTION_BITS: u32 = 14;
pub const CORRECTION_GRAIN: i32 = 16;
pub const CORRECTION_LIMIT: i32 = 4096;

/// Piece values for move ordering and exchange evaluation (general, guard, chariot, cannon, horse, elephant,
/// soldier); the general's is large so that it is never traded.
pub const SEE_VALUE: [i32; 7] = [20000, 250, 1000, 500, 400, 250, 110];
/// The same in the evaluation's centipawns (`see_eval_values`): Fairy-Stockfish's middlegame piece values for
/// Janggi, `MATERIAL_MG` of the net's search scaling, over its soldier's 208 units. The net values pieces about
/// so (a chariot off the start position costs about 650 cp, a horse 165, a soldier 90), where `SEE_VALUE` has a
/// horse worth more than three soldiers and two elephants more than a chariot.
pub const SEE_VALUE_EVAL: [i32; 7] = [20000, 192, 613, 385, 250, 163, 96];

/// How often (in nodes) the main thread looks at the clock.
pub const CLOCK_CHECK_NODES: u64 = 1024;

/// One tunable number: its name (also its UCI option under `janggi --tune`), default, range, and SPSA step (the
/// perturbation at the end of a tuning run, fishtest's `c_end`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    pub step: i32,
}

/// Declares `SearchParams` (one `i32` field per parameter), its defaults and `SPECS` from one list, so that a
/// parameter's name, default and range are written once.
macro_rules! search_params {
    ($($(#[doc = $doc:literal])* $field:ident = $default:expr, $min:expr, $max:expr, $step:expr;)*) => {
        /// The search's tunable numbers. `SearchParams::default()` is what the engine plays with.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $($(#[doc = $doc])* pub $field: i32,)*
        }

        impl Default for SearchParams {
            fn default() -> Self {
                SearchParams { $($field: $default,)* }
            }
        }

        /// Every tunable parameter, in declaration order.
        pub const SPECS: &[ParamSpec] = &[
            $(ParamSpec { name: stringify!($field), default: $default, min: $min, max: $max, step: $step },)*
        ];

        impl SearchParams {
            /// The values in the order of `SPECS`.
            pub fn values(&self) -> Vec<i32> {
                vec![$(self.$field,)*]
            }

            fn slots(&mut self) -> Vec<&mut i32> {
                vec![$(&mut self.$field,)*]
            }
        }
    };
}

// The defaults of the pruning, reduction, extension and quiescence numbers below are Fairy-Stockfish's, taken as
// one set: each of them, tried alone against the values before it, had scored no better (the notes on each say
// how), but together they made the search's shape Fairy-Stockfish's (principal variations searched deeper, the
// rest pruned harder) and scored better against Fairy-Stockfish with the same net than those values had (the
// README, "Strength").
search_params! {
    /// Aspiration windows: start after this depth with this half-width, widening by half again on each failure.
    aspiration_min_depth = 4, 1, 10, 1;
    aspiration_window = 25, 5, 100, 5;
    /// A root search that fails high is searched again a ply shallower for each fail high in a row (1), as
    /// Fairy-Stockfish searches it: the move that beat the window is confirmed sooner; a fail low starts the count
    /// again (0: every search at the iteration's depth). On: 15.5% fewer nodes along six games at depth 13, yet
    /// 13-32 in 45 games against Fairy-Stockfish with the same net at 10+0.1 (stopped), 21-30 in 51 with
    /// `lmr_extend`, where the shipped build scored 35-65 in 100.
    aspiration_fail_high_reduce = 0, 0, 1, 1;
    /// Reverse futility pruning: a node whose static evaluation beats beta by this margin per ply is cut.
    rfp_max_depth = 8, 2, 12, 1;
    rfp_margin = 103, 20, 200, 10;
    rfp_improving_margin = 103, 10, 200, 10;
    /// ... less this flat amount where the side to move is improving.
    rfp_improving_flat = 103, 0, 300, 10;
    /// Null-move pruning: the null move is searched `base + depth / divisor` plies shallower, more where the
    /// evaluation beats beta by much. Fairy-Stockfish's depth term (4 and 3 here: 2 plies more at depth 16)
    /// scored 43-57 (-49.0 ± 69.8) against Fairy-Stockfish with the same net at 10+0.1, where 3 and 4 score 52%.
    nmp_min_depth = 3, 1, 8, 1;
    nmp_base_reduction = 4, 1, 6, 1;
    nmp_depth_divisor = 3, 2, 8, 1;
    nmp_eval_divisor = 100, 50, 600, 25;
    /// ... and only where the static evaluation itself is no further than this below beta (a stored bound may
    /// lift the evaluation the null move is judged by).
    nmp_static_margin = -76, -300, 300, 10;
    /// ... plus this much per ply of depth (deep nodes try the null move further below beta).
    nmp_static_per_depth = 10, 0, 40, 2;
    /// ... plus this much at nodes on a principal variation now or before (0: no difference; Fairy-Stockfish's
    /// 168 units are 81 cp): such nodes decide the result, and a null move there skips the search that shows it.
    /// This, the next two, `lmp_fs_count`, `see_quiet_quad` and seven more of its values as one set (the README,
    /// "Strength"): 39-63 in 102 games against Fairy-Stockfish with the same net at 10+0.1.
    nmp_ttpv_margin = 0, 0, 200, 10;
    /// ... less this much where the side to move is improving (0: no difference; Fairy-Stockfish's 22 units are
    /// 11 cp).
    nmp_improving_margin = 0, 0, 60, 5;
    /// ... and only where the evaluation the null move is judged by (the static one or a stored bound) is no
    /// lower than the static evaluation (1), as Fairy-Stockfish asks: a stored upper bound below the static
    /// evaluation says the position is worse than it looks (0: no such test).
    nmp_eval_over_static = 0, 0, 1, 1;
    /// Without passes (janggibasic, janggistrict) zugzwang exists: null moves are verified at this depth and above.
    nmp_verify_depth = 10, 4, 20, 1;
    /// Razoring: at low depth, a static evaluation far below alpha drops into quiescence (0: never;
    /// Fairy-Stockfish's search has none).
    razor_max_depth = 3, 0, 6, 1;
    razor_margin = 300, 100, 800, 30;
    /// Futility pruning of quiet moves at low depth.
    futility_max_depth = 6, 2, 12, 1;
    futility_base = 84, 20, 300, 10;
    futility_per_depth = 75, 20, 250, 10;
    /// Futility pruning of quiet moves judges each by the depth it would be searched to after its late-move
    /// reduction (1), or by the node's depth (0). With the margins of the time (100 and 90): 8.5% fewer nodes to
    /// depth 12, 124-116 (+11.6 ± 44.2) in 240 games at 5+0.05, not enough to turn it on alone.
    futility_lmr_depth = 1, 0, 1, 1;
    /// Late move pruning: quiet moves after this many (plus depth squared) are skipped at low depth.
    lmp_max_depth = 8, 2, 16, 1;
    lmp_base = 3, 1, 10, 1;
    /// ... counting every move tried before (hash move and captures too: 1) or only the quiet ones (0). Counting
    /// all took 9% off the nodes to depth 13 and scored 185-187 (-1.9 ± 35.4) at 5+0.05.
    lmp_count_all = 1, 0, 1, 1;
    /// ... and the threshold is Fairy-Stockfish's (1): the move's number, counted from 1, at least
    /// (`lmp_base` + depth squared) / 2, or the whole of it where improving; (0: `lmp_base` + depth squared / 2,
    /// or depth squared where improving, moves tried before).
    lmp_fs_count = 0, 0, 1, 1;
    /// Quiet moves at principal-variation nodes are pruned as at other nodes (late moves, futility, history,
    /// continuation history: 1), as Fairy-Stockfish prunes them, or never (0). On: 19% fewer nodes to depth 12
    /// (`tools/option_nodes.py`), yet 12-21 in 33 games against Fairy-Stockfish with the same net at 10+0.1.
    prune_pv_quiets = 1, 0, 1, 1;
    /// Late move reductions from this depth: r = base + ln(depth) * ln(move number) / divisor, base and divisor
    /// given in hundredths.
    lmr_min_depth = 3, 1, 6, 1;
    /// At 25 (13.5% more nodes to depth 12): 42-58 against Fairy-Stockfish with the same net at 10+0.1.
    lmr_base_pct = 75, 0, 200, 10;
    lmr_divisor_pct = 225, 100, 500, 15;
    /// The move number in that formula counts from 1, as Fairy-Stockfish counts it (1: the second move is move 2,
    /// reduced a ply from depth 3, the least depth reduced), or from 0 (0: the second move is
    /// move 1 and keeps `lmr_base_pct` alone, less than a ply). The first move is never reduced either way.
    /// On: 0.917 of the nodes to depth 12; 38-60 in 98 games against Fairy-Stockfish with the same net at 10+0.1.
    lmr_move_number = 0, 0, 1, 1;
    /// History scores that move the reduction by one ply.
    lmr_history_divisor = 8192, 2048, 32768, 512;
    /// One of a node's first `LMR_EXTEND_MOVES` moves whose reduction comes out below -1 (a good history, a killer,
    /// a check; for a capture, a good capture history) is searched a ply deeper than the node's other moves (1), as
    /// Fairy-Stockfish searches it (0: never deeper). The ply is not counted among the double extensions (the hash
    /// move, the only one singular extensions extend, is never reduced); `MAX_PLY` bounds the path.
    /// On: 15.6% more nodes along six games at depth 13; 43-57 in 100 games against Fairy-Stockfish with the same
    /// net at 10+0.1, where the shipped build scored 35-65 just before; then 21-40 in 61 (stopped).
    lmr_extend = 0, 0, 1, 1;
    /// Quiet moves at nodes on a principal variation, now or when last searched, are reduced this much less.
    lmr_ttpv = 2, 0, 3, 1;
    /// ... except, where this is 1, at a principal-variation node whose hash entry, searched as deep or deeper,
    /// says it fails low: there the search is about to look elsewhere, as Fairy-Stockfish's "likely fail low".
    lmr_ttpv_fail_low = 1, 0, 1, 1;
    /// Quiet moves off the principal variation are reduced this much more than on it.
    lmr_nonpv = 0, 0, 2, 1;
    /// Quiet moves at principal-variation nodes are reduced this much less than the table says (with `lmr_nonpv`
    /// 0, `lmr_ttpv` 2, `lmr_cut_quiet` 1 and `lmr_stable_root` 1: Fairy-Stockfish's shape of reductions, a
    /// principal variation searched about three plies deeper than the table, expected cutoffs two plies shallower).
    /// Those five and `lmr_ttpv_fail_low` alone, the rest as before: 1.50 times the nodes to depth 12
    /// (`tools/option_nodes.py`) and 10-20 in 30 games against Fairy-Stockfish with the same net at 10+0.1 (stopped).
    lmr_pv_less = 1, 0, 2, 1;
    /// Quiet moves at expected cutoffs are reduced this much more (on top of the one ply every move there gets).
    lmr_cut_quiet = 1, 0, 2, 1;
    /// Nodes off the principal variation are reduced one ply more while the root's best move has changed at most
    /// twice in the iteration (1; 0: never).
    lmr_stable_root = 1, 0, 1, 1;
    /// A reduced quiet move searched again at full depth gets a continuation-history bonus if it beat alpha there,
    /// a malus if not (1; 0: no update).
    lmr_research_history = 0, 0, 1, 1;
    /// A reduced move that beats alpha is searched again a ply deeper where its reduced score beat the best score
    /// so far by this margin plus `lmr_deeper_per_ply` for each ply of its reduction, and a ply shallower where
    /// it beat that score by less than the depth in centipawns (0: again at the unreduced depth). At 25 and 5:
    /// 5.5% fewer nodes to depth 12, 183-186 (-2.8 ± 35.6) in 369 games at 5+0.05.
    lmr_deeper_margin = 0, 0, 200, 5;
    lmr_deeper_per_ply = 5, 0, 40, 1;
    /// Quiet moves that take a piece out of a losing exchange (the piece would have been lost where it stood) are
    /// reduced this much less (0: no difference).
    lmr_escape = 0, 0, 3, 1;
    /// Quiet moves after which the moved piece attacks an enemy piece worth more than itself (by the exchange
    /// values) are reduced this much less (0: no difference). Fairy-Stockfish's search has no such term. At 1:
    /// 14% fewer nodes to depth 12, 26-24 in the 50 games of the 25 setups at depth 9 against Fairy-Stockfish
    /// with the same net (the defaults 22-28), yet 26-31 in 57 games at 10+0.1 (stopped).
    lmr_threat = 0, 0, 3, 1;
    /// Quiet moves after which the moved piece would attack an enemy piece worth more than itself are spared
    /// late-move, futility, history and continuation-history pruning (1; 0: pruned as any quiet move). On: 8%
    /// fewer nodes to depth 12 and 36-14 in the 50 games of the 25 setups at depth 9 against Fairy-Stockfish with
    /// the same net (the defaults 22-28), but 70-82 in 152 games at 10+0.1: the threats a shallow search prunes
    /// away, a deep one finds anyway.
    prune_keep_threats = 0, 0, 1, 1;
    /// Quiet moves that give check are spared futility, history and continuation-history pruning, and held to the
    /// captures' exchange test instead of the quiet moves' (1), as Fairy-Stockfish spares them; late-move pruning
    /// still applies (0: pruned as any quiet move). On: 10-33 in 43 games against Fairy-Stockfish with the same net
    /// at 10+0.1, in a period when the defaults scored 8-23 in 31.
    prune_keep_checks = 0, 0, 1, 1;
    /// Late moves are reduced this much more where the children searched so far cut off more than
    /// `CUTOFF_COUNT_OVER` times (a node whose replies keep refuting its moves is likely to fail low whatever it
    /// tries; 0: no difference).
    /// With `alpha_raise_reduce` 1 it took 28% off the nodes to depth 13 but lost 53-75 (-60 ± 62) at 5+0.05.
    lmr_cutoff_count = 0, 0, 2, 1;
    /// Quiet moves are reduced one ply less where the opponent's move that led here came this late or later in
    /// its node's order (an unexpected move: this node's ordering knows less; 0: never).
    /// At 16: 5.5% fewer nodes to depth 12, yet 108-132 (-34.9 ± 44.4) in 240 games at 5+0.05.
    lmr_opp_late_move = 14, 0, 60, 2;
    /// Futility pruning of captures off the principal variation at depth up to `futility_max_depth`: a capture
    /// whose victim, with this margin plus `capture_futility_per_depth` a ply, still leaves the static evaluation
    /// at or below alpha is skipped (0: never; 200 added 2% to the nodes to depth 13, not played in games).
    capture_futility_base = 0, 0, 600, 20;
    capture_futility_per_depth = 150, 50, 400, 10;
    /// Captures whose capture history is negative are pruned where their late-move-reduced depth is below one
    /// ply (1), as Fairy-Stockfish prunes them, or kept for the exchange test (0). On: 14% fewer nodes to depth
    /// 12, yet 7-16 in 23 games against Fairy-Stockfish with the same net at 10+0.1.
    capture_history_prune = 1, 0, 1, 1;
    /// Principal-variation nodes search their remaining moves a ply shallower once a move has raised alpha
    /// (at `ALPHA_RAISE_DEPTHS`; 1; 0: never). Alone it took 20% off the nodes to depth 13; see `lmr_cutoff_count`
    /// for the two together in games.
    alpha_raise_reduce = 0, 0, 1, 1;
    /// Captures are reduced by this percentage of a quiet move's table reduction where the node is not and was
    /// not on a principal variation, or is an expected cutoff (0: captures are never reduced).
    lmr_capture_pct = 100, 0, 150, 10;
    /// Check extensions stop once the extensions on a path reach this share of the depth searched.
    max_extension_plies = 16, 4, 32, 1;
    /// ... and only from this depth (1: at every depth; from depth 7 alone lost 53-62 in self-play at 5+0.05).
    /// From depth 7 with `check_extension_eval_margin` 50, as Fairy-Stockfish extends checks: 118-82 and then,
    /// with quiescence testing repetition, 106-94 in 200 games each against Fairy-Stockfish with the same net at
    /// 10+0.1, but 84-116 (-56.1 ± 49.1) in self-play at 5+0.05 against the build before: off alone.
    check_extension_min_depth = 7, 1, 16, 1;
    /// ... and only where the static evaluation is at least this far from equal (0: everywhere).
    check_extension_eval_margin = 50, 0, 300, 10;
    /// Static exchange pruning of captures in quiescence and of losing captures at low depth.
    qs_delta_margin = 200, 50, 500, 20;
    /// Quiescence: after this many captures tried at a node not in check, a further capture is searched only if it
    /// checks (0: no limit). With 2 and the next three options at 1, 1 and 5 (Fairy-Stockfish's quiescence limits)
    /// it took 5% off the nodes to depth 13 and lost 95-105 (-17 ± 49) at 5+0.05.
    qs_capture_limit = 2, 0, 8, 1;
    /// Quiescence: where the stand-pat score plus the delta margin stays at or below alpha, captures that do not win
    /// material are skipped (1).
    qs_futility_see = 1, 0, 1, 1;
    /// Quiescence: a stored score bounding the static evaluation in the right direction replaces it as the stand-pat
    /// score, and a stand-pat cutoff is stored (1).
    qs_tt_stand_pat = 1, 0, 1, 1;
    /// Quiescence: from this many plies into it, only recaptures on the last move's point are searched (0: all
    /// captures at every ply).
    qs_recapture_ply = 5, 0, 12, 1;
    /// Quiescence: at its first ply (not in check), quiet moves that give check are searched after the captures,
    /// unless they lose the checking piece by exchange (1; 0: captures only). Fairy-Stockfish's quiescence does
    /// the same. On: 6.8% more nodes and 17% more time to depth 12 (`tools/option_nodes.py`), and 16-33 in 49
    /// games against Fairy-Stockfish with the same net at 10+0.1 (stopped; in an earlier search it scored 47-56
    /// in self-play at 5+0.05).
    qs_quiet_checks = 0, 0, 1, 1;
    /// Quiescence in check: once one evasion has saved the general, evasions that lose material by exchange are
    /// skipped (1), and so are quiet evasions whose continuation history after each of the last two moves is
    /// negative (2; 0: every evasion is searched), as Fairy-Stockfish's quiescence does. Janggi's chariots and
    /// cannons give check often. 1 and 2 took 6.8% and 9.6% more nodes to depth 12: the main search pays for
    /// what quiescence misses.
    qs_evasion_prune = 0, 0, 2, 1;
    /// Exchanges value the pieces as the evaluation does (`SEE_VALUE_EVAL`: 1) or as `SEE_VALUE` (0), in move
    /// order, exchange pruning, quiescence's delta pruning and ProbCut. 5.8% more nodes to depth 13 with the
    /// margins unchanged. With Fairy-Stockfish's margins (in these units), 25-73 in 98 games against it with the
    /// same net at 10+0.1, where the defaults scored 17-17 in the same round robin.
    see_eval_values = 0, 0, 1, 1;
    /// Quiet moves are pruned to depth 6 where they lose more than this much a ply of depth by exchange. With the
    /// captures' margin, in `SEE_VALUE`'s units (-100, and 170 for `see_capture_linear`): 96-104 in 200 games
    /// against Fairy-Stockfish with the same net at 10+0.1.
    see_quiet_margin = -60, -200, 0, 10;
    /// Exchanges leave out a capturer pinned to its own general (1), as Fairy-Stockfish's exchange test leaves out
    /// pinned pieces; 0: every attacker takes part. At 1: 0.942 of the nodes to depth 12, 113-87 in 200 games
    /// against the build that counted every attacker at 5+0.05, and 200-210 in 410 against Fairy-Stockfish with
    /// the same net at 10+0.1 (the shipped build before it: 48.7%).
    see_pins = 1, 0, 1, 1;
    /// Quiet moves are pruned at any depth where they lose more than (this - min(reduced depth, 18)) x reduced depth
    /// squared by exchange, in Fairy-Stockfish's units (its 30; 208 to a soldier, converted to centipawns), the
    /// reduced depth being the depth after the move's late-move reduction (0: `see_quiet_margin` a ply to depth 6).
    see_quiet_quad = 0, 0, 60, 2;
    see_capture_margin = -100, -300, 0, 10;
    /// Captures are pruned where they lose more than this much per ply of depth by exchange, at any depth, as
    /// Fairy-Stockfish prunes captures (0: the quadratic `see_capture_margin` up to depth 6 only). At 120 (13%
    /// fewer nodes to depth 13): 29-38 (-47.0 ± 85.7) in 67 games against Fairy-Stockfish with the same net at
    /// 10+0.1.
    see_capture_linear = 105, 0, 400, 10;
    /// The history bonus of a quiet move that cut off: `square` × depth² + `per_depth` × depth − `offset`, at
    /// most the maximum (and at least 0). A square term gives shallow cutoffs little weight and deep ones more.
    history_bonus_per_depth = 300, 50, 800, 25;
    history_bonus_max = 2400, 500, 8000, 200;
    history_bonus_square = 0, 0, 40, 2;
    history_bonus_offset = 0, 0, 600, 25;
    /// Continuation-history entries saturate at this (an entry moves by bonus - entry * |bonus| / limit), the
    /// butterfly and capture tables at `HISTORY_MAX`. Fairy-Stockfish's continuation tables saturate at 29952:
    /// with bonuses of a size like ours, its entries change about half as fast and keep more of what earlier
    /// searches learnt. Along six games at depth 13 (17,905,885 nodes at 16384): 19,792,725 at 29952, 18,445,831
    /// at 12288, and 19,268,401 at 29952 with Fairy-Stockfish's bonus (`history_bonus_square` 6,
    /// `history_bonus_per_depth` 229, `history_bonus_offset` 215, `history_bonus_max` 4200; 18,349,601 alone).
    cont_history_limit = 16384, CONT_HISTORY_LIMIT_MIN, 32000, 1024;
    /// Between searches the butterfly history is halved (1) or kept whole (0 keeps what earlier moves learnt;
    /// the game's positions change little from one move to the next). Kept whole it scored 50-50 against
    /// Fairy-Stockfish with the same net at 10+0.1, as the halving does.
    history_halve_between = 1, 0, 1, 1;
    /// A quiet move that raised alpha at a principal-variation node without cutting off earns the history of a
    /// cutoff (1), or only cutoffs do (0). On: 22% fewer nodes to depth 12, yet 73-84 (-24.4 ± 54.9) at 5+0.05.
    history_on_exact = 0, 0, 1, 1;
    /// Quiet moves are ordered with this share (percent) of their continuation history after the last move added
    /// to their history, on top of the share all continuation history has (0: every table weighs the same).
    /// At 100 (the weight Fairy-Stockfish gives it): 43-57 (-49.0 ± 69.8) in 100 games at 5+0.05; with
    /// `continuation_far` 1 (Fairy-Stockfish's order of quiet moves) 44-56 against Fairy-Stockfish with the same
    /// net at 10+0.1, as the defaults scored in the 100 games before.
    order_cont1_extra_pct = 100, 0, 200, 25;
    /// Quiet moves that take a piece off a point where a lesser enemy piece attacks it, to a point where none
    /// does (judged on the board before the move), are ordered this many history points higher, and quiet moves
    /// onto such a point half this much lower (0: off; ours, after Stockfish's later ordering by threats). At
    /// 8192: 5.1% fewer nodes along six games (`tools/game_nodes.py`), yet 18-33 in 51 games against
    /// Fairy-Stockfish with the same net at 10+0.1 (the attacks then found for every list ordered, quiet or not).
    order_threat_bonus = 0, 0, 32768, 2048;
    /// Continuation history also after the moves four and six plies back (1), or only one and two (0).
    continuation_far = 1, 0, 1, 1;
    /// The continuation history after a capture or a check evasion is a table of its own, four in all (1, as
    /// Fairy-Stockfish keys its own), or one table serves every move (0). On: 7.8% fewer nodes along six games
    /// (`tools/game_nodes.py`), yet 23-32 in 55 games against Fairy-Stockfish with the same net at 10+0.1.
    cont_split = 0, 0, 1, 1;
    /// Where every move of a node fails low from this depth, the opponent's quiet move that led there gets a
    /// continuation-history bonus (0: never).
    refutation_bonus_min_depth = 0, 0, 10, 1;
    /// A node's static evaluation is stored in the hash table as soon as it is computed, without a score (1), or
    /// only with the node's result (0: a node cut before its moves are searched is evaluated again next time).
    /// On, it won 141-99 (+61.4 ± 44.9) at 5+0.05 against off, with 2.6% more nodes to depth 12.
    tt_store_eval = 1, 0, 1, 1;
    /// A hash entry found by a probe is marked as of the current search (1), as Fairy-Stockfish's table does, so
    /// that what earlier moves' searches stored and later ones still use is not the first replaced; or it keeps
    /// the age of its store (0). Along six games' searches to depth 13 (`tools/game_nodes.py`) 4.4% fewer nodes;
    /// 103-97 (+10.4 ± 48.5) against Fairy-Stockfish with the same net in 200 games at 10+0.1, but 47-53
    /// (-20.9 ± 69.1) in 100 against off: off.
    tt_refresh = 0, 0, 1, 1;
    /// A cutoff by the hash table's score rewards a quiet hash move's history as a searched cutoff would (1).
    tt_cutoff_history = 0, 0, 1, 1;
    /// A quiet move tried among the first this many of its node whose reply cuts off (searched, or by the hash
    /// table) loses continuation history as a failed move would (0: never): the move order put it early and was
    /// wrong, as Fairy-Stockfish punishes such moves. At 1: 8.8% fewer nodes along six games, yet 34-66 in 100
    /// against Fairy-Stockfish with the same net at 10+0.1.
    early_refuted_penalty = 0, 0, 4, 1;
    /// A quiet move that cuts off also lowers the butterfly history of its way back (to → from), pieces other than
    /// soldiers (which cannot go back) (1), as Fairy-Stockfish discourages undoing a good move; or not (0). On:
    /// 4.1% more nodes along six games.
    history_reverse_penalty = 0, 0, 1, 1;
    /// A quiet move whose static evaluation swing (the mover's evaluation before it against after it) is known
    /// gets this many history points per centipawn of gain, times the depth, bounded by `EVAL_HISTORY_LIMIT` (0:
    /// never).
    eval_history_per_cp = 0, 0, 24, 2;
    /// How much of a capture's history (percent) is added to its victim-and-attacker ordering score.
    capture_history_weight_pct = 0, 0, 200, 10;
    /// Singular extensions: from this depth, the hash move is extended when all others fail a search with a window
    /// this far (in eighths of a centipawn per ply) below its score. Fairy-Stockfish starts at depth 7 in Janggi
    /// (its 5 is for a board with one king, and it counts both generals); from depth 5 alone (the margin 16):
    /// 20-27 in 47 games against it with the same net at 10+0.1 (stopped).
    singular_min_depth = 5, 4, 12, 1;
    /// ... the margin: eighths of a centipawn per ply. At 8 (Fairy-Stockfish's margin in centipawns): 9.8% more
    /// nodes along six games, 16-31 in 47 games against Fairy-Stockfish with the same net at 10+0.1.
    singular_margin = 8, 4, 64, 2;
    /// A hash move singular by this much more (centipawns) off the principal variation is extended two plies, at
    /// most `MAX_DOUBLE_EXTENSIONS` times on a path (0: never). At 45 (Fairy-Stockfish's margin in centipawns):
    /// 61-39 (+77.7 ± 70.9) against it with the same net at 10+0.1, played beside the shipped build's 54-46, but
    /// 50-50 at 15+0.15 beside the shipped build's 51-49; 18-32 at 40 against the build before at 5+0.05 (stopped):
    /// not shown better.
    singular_double_margin = 0, 0, 200, 5;
    /// Where a quiet hash move was singularly extended, the node's other moves are reduced a ply less (1, as
    /// Fairy-Stockfish does; 0: not). On: 5.4% more nodes to depth 11, 52-48 (+13.9 ± 69.1) against Fairy-Stockfish
    /// with the same net at 10+0.1: not shown better.
    singular_quiet_lmr = 0, 0, 1, 1;
    /// Moves are reduced a ply less while the running average of hash-table hits is above `TT_HIT_REDUCE_ABOVE`
    /// (1, as Fairy-Stockfish does; 0: not). On: 1.9% more nodes to depth 11; not yet played.
    lmr_tt_hit_average = 0, 0, 1, 1;
    /// Where the hash move is not singular but its score beats beta, the other moves are searched at half the depth
    /// against beta, and the node is cut if they beat it too (1, as Fairy-Stockfish does); or the hash move is
    /// searched a ply shallower (0). On: 8% fewer nodes to depth 12, yet 27-39 in 66 games against
    /// Fairy-Stockfish with the same net at 10+0.1.
    singular_second_cut = 0, 0, 1, 1;
    /// ProbCut: from this depth, a capture whose reduced search beats beta by this margin cuts the node.
    probcut_min_depth = 5, 3, 10, 1;
    probcut_margin = 100, 50, 400, 10;
    /// History pruning: quiet moves whose history is below minus this much per ply are skipped at this depth or
    /// less.
    history_prune_depth = 3, 0, 6, 1;
    history_prune_margin = 4000, 1000, 12000, 250;
    /// Continuation-history pruning: a quiet move whose continuation history after each of the last two moves is
    /// negative is skipped where its reduced depth (depth - 1 - its late-move reduction) is below this (0: never;
    /// 5 won 110-90 against 0 at 5+0.05).
    conthist_prune_depth = 5, 0, 8, 1;
    /// How much of the correction history is added to the static evaluation, in percent. At 50: 16-19 in 35
    /// games against Fairy-Stockfish with the same net at 10+0.1 (stopped); at 0, none: 9-30 in 39 (stopped); at
    /// 150: 15-30 in 45 (stopped), where the shipped build scored 35-65 in 100.
    correction_weight_pct = 100, 0, 200, 10;
    /// The largest correction (centipawns, after the weight) added to a static evaluation (0: no cap; the tables
    /// alone reach 256 cp at `correction_weight_pct` 100). Along searches of games about 30% of the corrections
    /// applied are 40-160 cp, where Stockfish's correction history moves its evaluation by some 30 cp at most.
    /// The tables still learn from the capped evaluation's error, so an entry whose error stays above the cap runs
    /// on to its limit: the cap bounds what is applied, not what is learnt. At 32: 2.8% more nodes along six games at
    /// depth 13; 46-54 in 100 games against Fairy-Stockfish with the same net at 10+0.1, where the uncapped build
    /// had scored 35-65 on the same machine, then 30-39 in 69: 45.0% over 169, as the uncapped build's 44.5%.
    correction_max = 0, 0, 256, 8;
    /// Correction history also by where each side's chariots, cannons and horses stand (two more tables, as
    /// Stockfish's later versions correct by the pieces beyond the pawns): their mean added at this percent of the
    /// soldier and palace tables' weight (0: no such tables). At 100 with `correction_continuation_pct` 50: 0.892 of
    /// the nodes to depth 12, and 75-95 in 170 games against Fairy-Stockfish with the same net at 10+0.1 (stopped).
    correction_pieces_pct = 0, 0, 200, 10;
    /// Correction history also by the two moves that led to the position (a table of pairs of piece-to names, as
    /// Stockfish's later versions keep): added at this percent of the soldier and palace tables' weight (0: none).
    /// At 100: 0.955 of the nodes to depth 12, and 35-59 in 94 games against Fairy-Stockfish with the same net at
    /// 10+0.1 (stopped).
    correction_continuation_pct = 0, 0, 200, 10;
    /// Internal iterative reduction: principal-variation nodes and expected cutoffs without a hash move at this
    /// depth or more are searched `iir_reduction` plies less.
    iir_min_depth = 6, 2, 10, 1;
    iir_reduction = 2, 1, 3, 1;
    /// ... expected cutoffs too (1), or only principal-variation nodes (0; Fairy-Stockfish reduces those alone,
    /// by 2 from depth 6). As Fairy-Stockfish's (6, 2, 0): 13.2% more nodes along six games at depth 13, and
    /// 18-35 in 53 games against Fairy-Stockfish with the same net at 10+0.1.
    iir_cut_nodes = 0, 0, 1, 1;
    /// Root move ordering: after the best move of the last iteration, the root's moves are tried in the order of
    /// any node's moves (lines scored exactly before, then captures, killers and history) instead of the order they
    /// were generated in (1; 0: generation order). With `root_lmr_from` 3 it won 109-91 (+31.4 ± 48.7) at 5+0.05.
    root_order = 1, 0, 1, 1;
    /// Late-move reductions at the root: quiet root moves from this index on (0: none) are reduced by the table's
    /// reduction less `root_lmr_less` plies (the root is a principal-variation node), less one for a check and by
    /// their history; a reduced move that beats alpha is searched again at full depth.
    root_lmr_from = 3, 0, 16, 1;
    root_lmr_less = 2, 0, 4, 1;
    /// A search stopped in the middle of an iteration plays the move that beat the last iteration's best in it,
    /// whatever its score (1: the move is proven better than the one whose score fell); 0 keeps such a move only
    /// where its score is above the last completed iteration's. At 0, 7 of the 13 moves found so in 650 moves of 8
    /// games against Fairy-Stockfish at 10+0.1 were dropped, all with scores falling. Against Fairy-Stockfish with
    /// the same net in 200 games at 10+0.1, on a machine half as fast as earlier runs, 1 scored 118-82 (+63.2 ± 49.3)
    /// and 0 106-94 (+20.9 ± 48.6): within the error, and 1 plays the move its search proved better.
    root_partial_best = 1, 0, 1, 1;
    /// Nodes in check prune (late moves, history, exchange) and reduce their evasions as other nodes do their
    /// moves (1; 0: every evasion searched at full depth). Futility stays off in check: there is no static
    /// evaluation to measure a move against. On (1) it won 109-91 (+31.4 ± 48.7) at 5+0.05 against off, 7.5% fewer
    /// nodes to depth 13.
    check_node_prune = 1, 0, 1, 1;
    /// Time from effort: after an iteration the soft limit is scaled by (base - slope x share) / 100, where share
    /// is the part of the iteration's nodes spent on its best move: a move that took most of the work is clear
    /// and saves time, one that shared it with others is doubtful and gets more (base 0: no scaling). The
    /// scaling stays within `MIN_SOFT_STRETCH`..`tm_max_stretch_pct` with the other stretches. Base 190 and slope 150
    /// (1.0 at a share of 0.6; the bench positions' median share is 0.57) won 223-177 (+40.1 ± 34.4) at 5+0.05
    /// against no scaling, taking 1-2% less time a move.
    tm_effort_base = 190, 0, 300, 10;
    tm_effort_slope = 150, 0, 300, 10;
    /// Time from instability: the soft limit is scaled by 1 + this / 100 x the best-move changes, a count halved
    /// after every iteration.
    tm_instability_pct = 50, 0, 400, 10;
    /// The soft limit may stretch to this many hundredths when the best move is unstable or the score drops
    /// (bounded by the hard limit). `tm_instability_pct` 200 and this at 500, with every new best root move within
    /// an iteration counted as a change (Fairy-Stockfish's instability weight, 7% more time a move in the first 60
    /// plies), lost 54-72 (-50 ± 62) at 5+0.05.
    tm_max_stretch_pct = 250, 100, 800, 25;
    /// The largest share of the time left a move's soft limit takes without moves to go, in thousandths
    /// (`TIME_SHARE_MAX`, reached at ply 35 by default, 4.5% at ply 42; a larger cap is reached later and gives the
    /// early middlegame more time, the later moves less, as what is left shrinks). 40 scored 157-143 (+16.2 ± 39.5)
    /// in 300 games against Fairy-Stockfish with the same net at 10+0.1 where 31 had scored 99-101 in 200; against
    /// 31 in self-play, 40 scored 47-53 (-20.9 ± 69.1) at 10+0.1 and 45 lost 23-42 (-104.6 ± 90.9) at 5+0.05.
    tm_share_max_permille = 40, 15, 80, 2;
    /// How fast that share grows, in millionths a ply (`TIME_SHARE_PER_PLY`, from `TIME_SHARE_START`). 1000
    /// (the cap reached at ply 28: 0.416 s a move on own moves 10-19 against 0.408) scored 53-47 (+20.9 ± 69.1)
    /// against Fairy-Stockfish with the same net at 10+0.1, within the error of the default's 52.3% in 300.
    tm_share_per_ply_micro = 800, 200, 3000, 50;
    /// That share at the game's first ply, in thousandths (`TIME_SHARE_START`): a larger start gives the opening and
    /// the early middlegame more time and reaches the cap sooner. Against Fairy-Stockfish with the same net at 10+0.1,
    /// 18 (0.407 s a move in plies 0-39 against its 0.442) scored 103-97 (+10.4 ± 48.5) and 24 (0.424 s) 99-101
    /// (-3.5 ± 48.5), where 12 had scored 200-210 in 410: within the error, and 12 stays.
    tm_share_start_permille = 12, 4, 40, 1;
}

/// Why a parameter cannot be set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamError {
    Unknown(String),
    OutOfRange { name: &'static str, value: i64, min: i32, max: i32 },
}

impl std::fmt::Display for ParamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamError::Unknown(name) => write!(f, "unknown search parameter '{}'", crate::untrusted::shorten(name)),
            ParamError::OutOfRange { name, value, min, max } => {
                write!(f, "{name} = {value} is outside {min}..={max}")
            }
        }
    }
}

impl std::error::Error for ParamError {}

/// The spec of a parameter by name (case-insensitive).
pub fn spec(name: &str) -> Option<(usize, &'static ParamSpec)> {
    SPECS.iter().enumerate().find(|(_, s)| s.name.eq_ignore_ascii_case(name.trim()))
}

impl SearchParams {
    pub fn get(&self, name: &str) -> Option<i32> {
        spec(name).map(|(i, _)| self.values()[i])
    }

    /// Sets a parameter; a value outside its range is refused and the parameters stay as they were.
    pub fn set(&mut self, name: &str, value: i64) -> Result<(), ParamError> {
        let (i, s) = spec(name).ok_or_else(|| ParamError::Unknown(name.to_string()))?;
        if value < i64::from(s.min) || value > i64::from(s.max) {
            return Err(ParamError::OutOfRange { name: s.name, value, min: s.min, max: s.max });
        }
        *self.slots()[i] = value as i32;
        Ok(())
    }

    /// Late-move reductions in plies by depth and the move's index in the node's order (0 for the first move):
    /// `base + ln(depth) * ln(move) / divisor`, the move counted from 0 or 1 as `lmr_move_number` says.
    pub fn reductions(&self) -> Box<[[i32; 64]; 64]> {
        let base = f64::from(self.lmr_base_pct) / 100.0;
        let divisor = f64::from(self.lmr_divisor_pct) / 100.0;
        let from = self.lmr_move_number as usize;
        let mut t = Box::new([[0; 64]; 64]);
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (i, r) in row.iter_mut().enumerate().skip(1) {
                let m = (i + from) as f64;
                *r = (base + (d as f64).ln() * m.ln() / divisor) as i32;
            }
        }
        t
    }

    /// The history bonus (and malus) of a cut-off at `depth`.
    pub fn history_bonus(&self, depth: i32) -> i32 {
        (self.history_bonus_square * depth * depth + self.history_bonus_per_depth * depth - self.history_bonus_offset)
            .clamp(0, self.history_bonus_max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_in_their_ranges_and_names_are_unique() {
        let values = SearchParams::default().values();
        for (s, v) in SPECS.iter().zip(values) {
            assert_eq!(s.default, v, "{}", s.name);
            assert!(s.min <= v && v <= s.max && s.step > 0, "{s:?}");
        }
        let mut names: Vec<&str> = SPECS.iter().map(|s| s.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), SPECS.len());
    }

    #[test]
    fn the_continuation_limit_stays_above_every_history_bonus() {
        let (_, bonus_max) = spec("history_bonus_max").unwrap();
        let (_, limit) = spec("cont_history_limit").unwrap();
        assert!(bonus_max.max <= CONT_HISTORY_LIMIT_MIN && EVAL_HISTORY_LIMIT <= CONT_HISTORY_LIMIT_MIN);
        assert!(limit.min >= CONT_HISTORY_LIMIT_MIN && limit.max <= i32::from(i16::MAX));
        assert_eq!(limit.default, HISTORY_MAX, "the default keeps the continuation tables as the butterfly table");
    }

    #[test]
    fn set_checks_names_and_ranges() {
        let mut p = SearchParams::default();
        p.set("RFP_Margin", 120).unwrap();
        assert_eq!((p.rfp_margin, p.get("rfp_margin")), (120, Some(120)));
        assert!(matches!(p.set("rfp_margin", 100_000), Err(ParamError::OutOfRange { .. })));
        assert!(matches!(p.set("no_such", 1), Err(ParamError::Unknown(_))));
        assert_eq!(p.rfp_margin, 120);
    }

    #[test]
    fn the_default_reductions_are_the_log_log_table() {
        let r = SearchParams::default().reductions();
        assert_eq!(r[1][1], 0);
        assert_eq!(r[10][10], (0.75 + 10f64.ln() * 10f64.ln() / 2.25) as i32);
    }

    #[test]
    fn counted_from_one_the_second_move_is_reduced_as_move_two() {
        let mut p = SearchParams::default();
        p.set("lmr_move_number", 1).unwrap();
        let r = p.reductions();
        // The second move (index 1): ln 2 · ln 20 / 2.25 = 0.92, plus 0.75.
        assert_eq!(r[20][1], (0.75 + 2f64.ln() * 20f64.ln() / 2.25) as i32);
        assert_eq!(r[20][1], 1);
        assert_eq!((r[2][1], r[3][1]), (0, 1), "from depth 3, the least depth reduced");
        assert_eq!(SearchParams::default().reductions()[20][1], 0);
        assert_eq!(r[10][9], SearchParams::default().reductions()[10][10]);
        assert_eq!(r[10][0], 0);
    }

    #[test]
    fn the_history_bonus_is_linear_by_default_and_may_grow_with_the_square_of_the_depth() {
        let mut p = SearchParams::default();
        assert_eq!((p.history_bonus(1), p.history_bonus(5), p.history_bonus(20)), (300, 1500, 2400));
        for (name, value) in [("history_bonus_square", 6), ("history_bonus_per_depth", 225)] {
            p.set(name, value).unwrap();
        }
        p.set("history_bonus_offset", 250).unwrap();
        // 6 + 225 - 250 is below zero: a bonus is never a malus.
        assert_eq!(p.history_bonus(1), 0);
        assert_eq!(p.history_bonus(4), 6 * 16 + 225 * 4 - 250);
        assert_eq!(p.history_bonus(30), p.history_bonus_max);
    }
}

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

/// The win/draw/loss model of `UCI_ShowWDL`: a logistic of the score that gives half the games won at
/// `WDL_EVEN_CP`, with this scale.
pub const WDL_EVEN_CP: f64 = 250.0;
pub const WDL_SCALE_CP: f64 = 90.0;

/// The depth of a hash-table entry that holds only a static evaluation: below every searched depth, quiescence's
/// included, so that any search result replaces it.
pub const TT_EVAL_DEPTH: i32 = -8;

/// History scores saturate at this value (continuation history at `cont_history_limit`).
pub const HISTORY_MAX: i32 = 16384;
/// The least `cont_history_limit` the history takes: above every bonus it is given (`history_bonus_max`'s range),
/// so that gravity keeps entries within the limit.
pub const CONT_HISTORY_LIMIT_MIN: i32 = 8192;
/// Correction history: 2^bits slots a side and table, entries in 1/grain centipawns, saturating at the limit
/// (the largest correction is limit / grain centipawns).
pub const CORRECTION_BITS: u32 = 14;
pub const CORRECTION_GRAIN: i32 = 16;
pub const CORRECTION_LIMIT: i32 = 4096;

/// Piece values for move ordering and exchange evaluation (general, guard, chariot, cannon, horse, elephant,
/// soldier); the general's is large so that it is never traded.
pub const SEE_VALUE: [i32; 7] = [20000, 250, 1000, 500, 400, 250, 110];

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

search_params! {
    /// Aspiration windows are used from this depth on.
    aspiration_min_depth = 4, 1, 10, 1;
    /// Half-width of the first aspiration window; it widens by half again on each failure.
    aspiration_window = 25, 5, 100, 5;
    /// Reverse futility pruning applies at this depth or less.
    rfp_max_depth = 8, 2, 12, 1;
    /// Reverse futility margin per ply: a node whose evaluation beats beta by this much a ply is cut.
    rfp_margin = 103, 20, 200, 10;
    /// Reverse futility margin per ply where the side to move is improving.
    rfp_improving_margin = 103, 10, 200, 10;
    /// Flat amount taken off the improving margin.
    rfp_improving_flat = 103, 0, 300, 10;
    /// Null-move pruning is tried from this depth on.
    nmp_min_depth = 3, 1, 8, 1;
    /// Null-move reduction: this many plies plus `depth / nmp_depth_divisor`, more where the evaluation beats beta.
    nmp_base_reduction = 4, 1, 6, 1;
    /// Depth divisor of the null-move reduction.
    nmp_depth_divisor = 3, 2, 8, 1;
    /// Centipawns above beta that add one ply to the null-move reduction (at most three).
    nmp_eval_divisor = 100, 50, 600, 25;
    /// The null move is tried only where the static evaluation is no further than this below beta ...
    nmp_static_margin = -76, -300, 300, 10;
    /// ... plus this much per ply of depth.
    nmp_static_per_depth = 10, 0, 40, 2;
    /// Without passes (zugzwang exists), null-move cutoffs are verified at this depth and above.
    nmp_verify_depth = 10, 4, 20, 1;
    /// Razoring applies at this depth or less (0: never).
    razor_max_depth = 3, 0, 6, 1;
    /// Razoring margin per ply: an evaluation this far below alpha drops into quiescence.
    razor_margin = 300, 100, 800, 30;
    /// Futility pruning of quiet moves applies where their reduced depth is at most this.
    futility_max_depth = 6, 2, 12, 1;
    /// Futility margin: flat part.
    futility_base = 84, 20, 300, 10;
    /// Futility margin: per ply of the move's reduced depth.
    futility_per_depth = 75, 20, 250, 10;
    /// Late move pruning applies at this depth or less.
    lmp_max_depth = 8, 2, 16, 1;
    /// Late move pruning skips quiet moves after this many moves plus depth squared (halved unless improving).
    lmp_base = 3, 1, 10, 1;
    /// Late move reductions apply from this depth.
    lmr_min_depth = 3, 1, 6, 1;
    /// Base of the reduction table, `base + ln(depth) * ln(move index) / divisor`, in hundredths of a ply.
    lmr_base_pct = 75, 0, 200, 10;
    /// Divisor of the reduction table, in hundredths.
    lmr_divisor_pct = 225, 100, 500, 15;
    /// History scores that move a reduction by one ply.
    lmr_history_divisor = 8192, 2048, 32768, 512;
    /// Quiet moves at nodes on a principal variation now or before are reduced this much less (unless failing low).
    lmr_ttpv = 2, 0, 3, 1;
    /// Quiet moves at principal-variation nodes are reduced this much less than the table says.
    lmr_pv_less = 1, 0, 2, 1;
    /// Quiet moves at expected cutoffs are reduced this much more (on top of the ply every move there gets).
    lmr_cut_quiet = 1, 0, 2, 1;
    /// Quiet moves are reduced a ply less where the opponent's last move came this late in its node's order (0: never).
    lmr_opp_late_move = 14, 0, 60, 2;
    /// Captures off principal variations or at expected cutoffs are reduced this percent of the table (0: never).
    lmr_capture_pct = 100, 0, 150, 10;
    /// Checks are extended only below the ply twice (depth + this).
    max_extension_plies = 16, 4, 32, 1;
    /// Checks are extended from this depth on.
    check_extension_min_depth = 7, 1, 16, 1;
    /// Checks are extended only where the static evaluation is at least this far from equal (0: everywhere).
    check_extension_eval_margin = 50, 0, 300, 10;
    /// Quiescence delta pruning: a capture whose victim plus this margin leaves the stand-pat below alpha is skipped.
    qs_delta_margin = 200, 50, 500, 20;
    /// Quiescence: after this many captures at a node not in check, only checking captures are searched (0: no limit).
    qs_capture_limit = 2, 0, 8, 1;
    /// Quiescence: from this many plies into it, only recaptures on the last move's point are searched (0: never).
    qs_recapture_ply = 5, 0, 12, 1;
    /// Quiet moves are pruned up to depth 6 where they lose more than this much a ply by exchange.
    see_quiet_margin = -60, -200, 0, 10;
    /// Captures are pruned at any depth where they lose more than this much per ply by exchange.
    see_capture_linear = 105, 0, 400, 10;
    /// History bonus of a cutoff, per ply of depth.
    history_bonus_per_depth = 300, 50, 800, 25;
    /// The largest history bonus.
    history_bonus_max = 2400, 500, 8000, 200;
    /// Continuation-history entries saturate at this (the butterfly and capture tables at `HISTORY_MAX`).
    cont_history_limit = 16384, CONT_HISTORY_LIMIT_MIN, 32000, 1024;
    /// Quiet moves are ordered with this percent of their continuation history after the last move added again.
    order_cont1_extra_pct = 100, 0, 200, 25;
    /// Singular extensions are tried from this depth on.
    singular_min_depth = 5, 4, 12, 1;
    /// Singular margin below the hash move's score, in eighths of a centipawn per ply.
    singular_margin = 8, 4, 64, 2;
    /// ProbCut is tried from this depth on.
    probcut_min_depth = 5, 3, 10, 1;
    /// ProbCut margin above beta.
    probcut_margin = 100, 50, 400, 10;
    /// History pruning of quiet moves applies at this depth or less (0: never).
    history_prune_depth = 3, 0, 6, 1;
    /// History pruning skips quiet moves whose history is below minus this much per ply.
    history_prune_margin = 4000, 1000, 12000, 250;
    /// Continuation-history pruning of quiet moves applies below this reduced depth (0: never).
    conthist_prune_depth = 5, 0, 8, 1;
    /// Percent of the correction history added to the static evaluation.
    correction_weight_pct = 100, 0, 200, 10;
    /// Internal iterative reduction of principal-variation nodes without a hash move applies from this depth.
    iir_min_depth = 6, 2, 10, 1;
    /// ... by this many plies.
    iir_reduction = 2, 1, 3, 1;
    /// Quiet root moves from this index on are reduced (0: none).
    root_lmr_from = 3, 0, 16, 1;
    /// Root reductions are the table's less this many plies.
    root_lmr_less = 2, 0, 4, 1;
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
    /// `base + ln(depth) * ln(index) / divisor`.
    pub fn reductions(&self) -> Box<[[i32; 64]; 64]> {
        let base = f64::from(self.lmr_base_pct) / 100.0;
        let divisor = f64::from(self.lmr_divisor_pct) / 100.0;
        let mut t = Box::new([[0; 64]; 64]);
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (i, r) in row.iter_mut().enumerate().skip(1) {
                *r = (base + (d as f64).ln() * (i as f64).ln() / divisor) as i32;
            }
        }
        t
    }

    /// The history bonus (and malus) of a cut-off at `depth`.
    pub fn history_bonus(&self, depth: i32) -> i32 {
        (self.history_bonus_per_depth * depth).clamp(0, self.history_bonus_max)
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
        assert!(bonus_max.max <= CONT_HISTORY_LIMIT_MIN);
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
    fn the_history_bonus_grows_with_the_depth_up_to_its_maximum() {
        let p = SearchParams::default();
        assert_eq!((p.history_bonus(1), p.history_bonus(5), p.history_bonus(20)), (300, 1500, 2400));
        assert_eq!(p.history_bonus(0), 0);
    }
}

//! Every tunable number of the search, named, in one place.

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
/// Scores shown to people (analysis losses) are clamped to this many centipawns, a mate counting as this much.
pub const CLAMP_CP: i32 = 1000;

/// Aspiration windows: start after this depth with this half-width, widening by half again on each failure.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
pub const ASPIRATION_WINDOW: i32 = 25;

/// Reverse futility pruning: a node whose static evaluation beats beta by this margin per ply is cut.
pub const RFP_MAX_DEPTH: i32 = 7;
pub const RFP_MARGIN: i32 = 80;
pub const RFP_IMPROVING_MARGIN: i32 = 60;

/// Null-move pruning.
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_BASE_REDUCTION: i32 = 3;
pub const NMP_DEPTH_DIVISOR: i32 = 4;
pub const NMP_EVAL_DIVISOR: i32 = 200;
/// Without passes (janggibasic, janggistrict) zugzwang exists: null moves are verified at this depth and above.
pub const NMP_VERIFY_DEPTH: i32 = 10;

/// Razoring: at low depth, a static evaluation far below alpha drops into quiescence.
pub const RAZOR_MAX_DEPTH: i32 = 3;
pub const RAZOR_MARGIN: i32 = 300;

/// Futility pruning of quiet moves at low depth.
pub const FUTILITY_MAX_DEPTH: i32 = 6;
pub const FUTILITY_BASE: i32 = 100;
pub const FUTILITY_PER_DEPTH: i32 = 90;

/// Late move pruning: quiet moves after this many (plus depth squared) are skipped at low depth.
pub const LMP_MAX_DEPTH: i32 = 8;
pub const LMP_BASE: i32 = 3;

/// Late move reductions: r = LMR_BASE + ln(depth) * ln(move number) / LMR_DIVISOR.
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_BASE: f64 = 0.75;
pub const LMR_DIVISOR: f64 = 2.25;
/// History scores that move the reduction by one ply.
pub const LMR_HISTORY_DIVISOR: i32 = 8192;

/// Check extensions stop once the extensions on a path reach this share of the depth searched.
pub const MAX_EXTENSION_PLIES: i32 = 16;

/// Static exchange pruning of captures in quiescence and of losing captures at low depth.
pub const QS_DELTA_MARGIN: i32 = 200;
pub const SEE_QUIET_MARGIN: i32 = -60;
pub const SEE_CAPTURE_MARGIN: i32 = -100;

/// History tables: bonus per depth and the saturation value.
pub const HISTORY_MAX: i32 = 16384;
pub const HISTORY_BONUS_PER_DEPTH: i32 = 300;
pub const HISTORY_BONUS_MAX: i32 = 2400;

/// Singular extensions: from this depth, the hash move is extended when all others fail a search with a window
/// this far (in eighths of a centipawn per ply) below its score.
pub const SINGULAR_MIN_DEPTH: i32 = 7;
pub const SINGULAR_MARGIN: i32 = 16;

/// Internal iterative reduction: nodes without a hash move at this depth or more are searched one ply less.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Piece values for move ordering and exchange evaluation (general, guard, chariot, cannon, horse, elephant,
/// soldier); the general's is large so that it is never traded.
pub const SEE_VALUE: [i32; 7] = [20000, 250, 1000, 500, 400, 250, 110];

/// Time management.
pub const DEFAULT_MOVES_TO_GO: u32 = 32;
/// Share of the remaining time a single move may never exceed.
pub const MAX_TIME_SHARE: f64 = 0.35;
/// The soft limit may stretch to this multiple when the best move is unstable or the score drops.
pub const MAX_SOFT_STRETCH: f64 = 2.5;
/// The hard limit is this multiple of the soft limit (bounded by `MAX_TIME_SHARE`).
pub const HARD_LIMIT_FACTOR: f64 = 5.0;
/// How often (in nodes) the main thread looks at the clock.
pub const CLOCK_CHECK_NODES: u64 = 1024;

//! One search thread: iterative deepening, aspiration windows, principal-variation search with pruning and
//! reductions, and quiescence. Game ends are scored by the position's rule set.

use super::history::{
    CaptureKey, Context, CorrectionKeys, CorrectionWeights, History, NO_PIECE_TO, PieceTo, capture_key, context_of,
};
use super::params::*;
use super::see::{PieceValues, see_ge_pinned};
use super::time::{TimeManager, effort_scale};
use super::tt::{Bound, Entry};
use super::{Limits, Listener, Report, ScoreBound, Settings, Shared, end_score};
use crate::board::moves::MAX_MOVES;
use crate::board::rules::Bikjang;
use crate::board::{Bitboard, Color, EndView, Move, MoveList, Piece, PieceKind, Position, Square};
use crate::eval;
use crate::eval::nnue::{self, AccumulatorStack, Kernel};
use std::sync::Arc;
use std::sync::atomic::Ordering;

mod movepick;
use movepick::{Deferred, MoveScores};

/// Mixed into the hash key after a pass: a second pass would end the game, so the position is not the same.
const AFTER_PASS_KEY: u64 = 0x6A09_E667_F3BC_C908;

struct RootMove {
    mv: Move,
    score: i32,
    /// Score of the last completed search of this move (for ordering and reports).
    previous: i32,
    pv: Vec<Move>,
    /// Nodes spent on this move in the current iteration (all its searches).
    effort: u64,
}

/// What one thread found.
#[derive(Clone, Debug, Default)]
pub(super) struct ThreadResult {
    pub id: usize,
    pub depth: u32,
    pub score: i32,
    pub pv: Vec<Move>,
    pub lines: Vec<(i32, Vec<Move>)>,
}

/// Why the pruning tests of quiet moves would skip a move: late-move pruning, or one of the tests that judge a move
/// hopeless by the static evaluation or the histories.
#[derive(Clone, Copy, PartialEq, Eq)]
enum QuietPrune {
    Keep,
    Late,
    Hopeless,
}

/// The table key of a position from its board key: a position reached by a pass is marked apart.
#[inline(always)]
fn marked_after_pass(key: u64, after_pass: bool) -> u64 {
    if after_pass { key ^ AFTER_PASS_KEY } else { key }
}

/// Mate scores are stored relative to the node, not the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The stored score, if its bound settles the window: a node that was searched deeply enough needs no search.
fn tt_cutoff(e: &Entry, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let score = from_tt(e.score, ply);
    let settles = match e.bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
        Bound::None => false,
    };
    settles.then_some(score)
}

pub(super) struct Worker<'a> {
    id: usize,
    pos: Position,
    limits: &'a Limits,
    settings: &'a Settings,
    shared: &'a Shared,
    clock: TimeManager,
    history: History,
    nodes: u64,
    unpublished: u64,
    seldepth: usize,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    evals: [i32; MAX_PLY + 2],
    played: [Move; MAX_PLY + 2],
    /// The piece-to name of the move played at each ply (for continuation history).
    played_piece_to: [PieceTo; MAX_PLY + 2],
    /// The same moves as the continuation history's contexts name them (`context_of`).
    played_context: [PieceTo; MAX_PLY + 2],
    /// The move left out at each ply while testing whether the hash move is singular.
    excluded: [Move; MAX_PLY + 2],
    /// Double extensions on the path to each ply.
    double_extensions: [u8; MAX_PLY + 2],
    /// Beta cutoffs at each ply, counted since the node two plies up began.
    cutoffs: [u32; MAX_PLY + 3],
    /// Where in its node's order the move being searched at each ply came (1 for the first).
    move_numbers: [u16; MAX_PLY + 2],
    /// Each ply's lists of the quiet moves and captures tried, kept from node to node so that a node does not
    /// allocate them (a node takes its ply's lists and gives them back when done).
    quiets_tried: Vec<Vec<(Move, PieceTo)>>,
    captures_tried: Vec<Vec<CaptureKey>>,
    root_moves: Vec<RootMove>,
    /// How often a root move other than the first became best in this iteration (re-searches included).
    root_changes: u32,
    /// The share of recent nodes whose position the hash table held, in units of `TT_HIT_RESOLUTION`, as a running
    /// average over `TT_HIT_WINDOW` nodes (`lmr_tt_hit_average`).
    tt_hit_average: u64,
    stopped: bool,
    result: ThreadResult,
    /// The tunable numbers, and the reduction table made from them.
    tuning: &'a SearchParams,
    reductions: Box<[[i32; 64]; 64]>,
    /// With a net: this thread's accumulators along the line searched (the net itself is shared).
    accumulators: Option<AccumulatorStack>,
}

impl<'a> Worker<'a> {
    pub fn new(
        id: usize,
        pos: &Position,
        limits: &'a Limits,
        settings: &'a Settings,
        shared: &'a Shared,
        clock: TimeManager,
        history: History,
    ) -> Worker<'a> {
        Worker {
            id,
            pos: pos.clone(),
            limits,
            settings,
            shared,
            clock,
            history,
            nodes: 0,
            unpublished: 0,
            seldepth: 0,
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            evals: [0; MAX_PLY + 2],
            played: [Move::NONE; MAX_PLY + 2],
            played_piece_to: [NO_PIECE_TO; MAX_PLY + 2],
            played_context: [NO_PIECE_TO; MAX_PLY + 2],
            excluded: [Move::NONE; MAX_PLY + 2],
            double_extensions: [0; MAX_PLY + 2],
            cutoffs: [0; MAX_PLY + 3],
            move_numbers: [0; MAX_PLY + 2],
            quiets_tried: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            captures_tried: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(32)).collect(),
            root_moves: Vec::new(),
            root_changes: 0,
            // Half the nodes hits: no opinion until the search has seen some nodes.
            tt_hit_average: TT_HIT_RESOLUTION * TT_HIT_WINDOW / 2,
            stopped: false,
            result: ThreadResult { id, ..ThreadResult::default() },
            tuning: &settings.search,
            reductions: settings.search.reductions(),
            // Computed afresh from the root at the start of every search.
            accumulators: settings
                .evaluator
                .network()
                .map(|net| AccumulatorStack::new(Arc::clone(net), Kernel::detect(), pos)),
        }
    }

    pub fn into_history(self) -> History {
        self.history
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Runs iterative deepening until a limit is reached or the search is stopped.
    pub fn run(&mut self, listener: &dyn Listener) -> ThreadResult {
        self.history.new_search(self.tuning.history_halve_between != 0, self.tuning.cont_history_limit);
        let legal = self.pos.legal_moves();
        let wanted: Vec<Move> = legal.iter().copied().filter(|m| self.limits.searchmoves.contains(m)).collect();
        let moves: Vec<Move> = if wanted.is_empty() { legal.iter().copied().collect() } else { wanted };
        if moves.is_empty() {
            self.result.score = self.terminal_without_moves(0);
            if self.is_main() {
                self.wait_for_release();
            }
            return self.result.clone();
        }
        self.root_moves = moves
            .into_iter()
            .map(|mv| RootMove { mv, score: -INFINITE, previous: -INFINITE, pv: vec![mv], effort: 0 })
            .collect();
        let strength = self.settings.strength;
        let max_depth = [self.limits.depth, strength.max_depth()]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(MAX_PLY as u32 - 8)
            .clamp(1, MAX_PLY as u32 - 8);
        let lines = self.settings.multipv.max(strength.candidates()).min(self.root_moves.len()).max(1);

        let mut best_changes = 0.0f64;
        let mut last_best = Move::NONE;
        let mut last_score = 0;
        for depth in 1..=max_depth as i32 {
            // Helper threads skip some depths so that threads spread over different iterations.
            if self.id > 0 && depth > 4 && (depth as usize + self.id).is_multiple_of(3) {
                continue;
            }
            for rm in &mut self.root_moves {
                rm.previous = rm.score;
                rm.effort = 0;
            }
            self.root_changes = 0;
            for line in 0..lines {
                self.seldepth = 0;
                self.search_line(depth, line, listener);
                if self.stopped {
                    break;
                }
                // Order the lines searched so far; the rest keep their order.
                self.root_moves[line..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                self.root_moves[..=line].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            }
            if self.stopped && depth > 1 {
                // An interrupted iteration counts only where it proved a new move better than the last best: a
                // move is brought to the front only by beating alpha, at or above the last best's new score. Its
                // score may still be below the last completed iteration's (the last best's score fell), which
                // `root_partial_best` 0 does not accept.
                let first = &self.root_moves[0];
                let proven = self.tuning.root_partial_best != 0 || first.score > self.result.score;
                if first.mv != last_best && proven && first.score > -INFINITE {
                    self.result.score = first.score;
                    self.result.pv = first.pv.clone();
                    if let Some(line) = self.result.lines.first_mut() {
                        *line = (first.score, first.pv.clone());
                    }
                }
                break;
            }
            self.record(depth as u32, lines);
            if self.is_main() {
                self.report_lines(depth as u32, lines, listener);
            }
            let best = self.root_moves[0].mv;
            let score = self.root_moves[0].score;
            // A best-move change is an iteration whose best move differs from the last one's; the count is halved
            // every iteration, so that old changes weigh less.
            best_changes *= 0.5;
            if best != last_best && !last_best.is_none() {
                best_changes += 1.0;
            }
            if self.is_main() && self.iteration_says_stop(depth, score, last_score, best_changes) {
                break;
            }
            last_best = best;
            last_score = score;
            if self.stopped {
                break;
            }
        }
        if self.is_main() {
            self.wait_for_release();
        }
        self.publish_nodes();
        self.result.clone()
    }

    /// Stores the result of a completed iteration.
    fn record(&mut self, depth: u32, lines: usize) {
        let r = &mut self.result;
        r.depth = depth;
        r.score = self.root_moves[0].score;
        r.pv = self.root_moves[0].pv.clone();
        r.lines = self.root_moves[..lines].iter().map(|rm| (rm.score, rm.pv.clone())).collect();
    }

    /// Whether the main thread should stop after a completed iteration.
    fn iteration_says_stop(&mut self, depth: i32, score: i32, last_score: i32, best_changes: f64) -> bool {
        if let Some(mate) = self.limits.mate
            && score >= MATE - 2 * mate as i32
        {
            self.shared.stop.store(true, Ordering::Relaxed);
            return true;
        }
        // A ponderhit since the last clock check restarts the clock before it is read: otherwise an iteration
        // that ends just after ponderhit would measure the time spent pondering and stop at once.
        // `ponderhit` clears `pondering` after setting its flag, so pondering is read first.
        let pondering = self.shared.pondering.load(Ordering::SeqCst);
        self.take_ponderhit();
        if pondering || self.limits.infinite {
            return false;
        }
        // On a clock, a single legal move needs no more thought once it is known to be legal; a fixed
        // `movetime` is the host's request for that much analysis (its score and line), so it is kept.
        if self.root_moves.len() == 1 && self.clock.is_managed() && depth >= 4 {
            return true;
        }
        let (stretch, most) = self.soft_stretch(score, last_score, best_changes);
        if depth > 1 && self.clock.soft_limit_reached(stretch, most) {
            self.shared.stop.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }

    /// How far the soft limit stretches after an iteration, and at most: more where the best move keeps changing
    /// or the score fell, and by the best move's share of the work (`effort_scale`).
    fn soft_stretch(&self, score: i32, last_score: i32, best_changes: f64) -> (f64, f64) {
        let falling = ((last_score - score) as f64 / 100.0).clamp(0.0, 1.0);
        let instability = 1.0 + best_changes * f64::from(self.tuning.tm_instability_pct) / 100.0;
        let stretch = instability * (1.0 + falling * 0.5) * self.effort_scale();
        (stretch, f64::from(self.tuning.tm_max_stretch_pct) / 100.0)
    }

    /// How the best move's share of the last iteration's nodes scales the time (`tm_effort_base`; 1 when off).
    fn effort_scale(&self) -> f64 {
        let total: u64 = self.root_moves.iter().map(|rm| rm.effort).sum();
        effort_scale(self.tuning.tm_effort_base, self.tuning.tm_effort_slope, self.root_moves[0].effort, total)
    }

    /// In `infinite` and ponder mode the best move may only be sent after `stop` (or `ponderhit`).
    fn wait_for_release(&self) {
        self.shared.wait_for_release(self.limits.infinite);
    }

    fn report_lines(&self, depth: u32, lines: usize, listener: &dyn Listener) {
        for i in 0..lines {
            self.report_line(depth, i, ScoreBound::Exact, listener);
        }
    }

    fn report_line(&self, depth: u32, line: usize, bound: ScoreBound, listener: &dyn Listener) {
        let rm = &self.root_moves[line];
        let time = self.clock.elapsed();
        let nodes = self.shared.nodes() + self.unpublished;
        let score = if rm.score == -INFINITE { rm.previous } else { rm.score };
        listener.report(&Report {
            depth,
            seldepth: self.seldepth.max(1) as u32,
            multipv: line as u32 + 1,
            score,
            bound,
            nodes,
            nps: (nodes as f64 / time.as_secs_f64().max(1e-3)) as u64,
            time,
            hashfull: self.shared.tt.hashfull(),
            pv: rm.pv.clone(),
        });
    }

    /// Searches line `line` (MultiPV index) to `depth` with aspiration windows.
    fn search_line(&mut self, depth: i32, line: usize, listener: &dyn Listener) {
        let previous = self.root_moves[line].previous;
        let (mut alpha, mut beta, mut delta) =
            if depth >= self.tuning.aspiration_min_depth && previous.abs() < MATE_BOUND {
                (
                    previous - self.tuning.aspiration_window,
                    previous + self.tuning.aspiration_window,
                    self.tuning.aspiration_window,
                )
            } else {
                (-INFINITE, INFINITE, INFINITE)
            };
        let mut fail_highs = 0;
        loop {
            let score = self.root_search((depth - fail_highs).max(1), alpha, beta, line);
            if self.stopped {
                return;
            }
            if score <= alpha {
                fail_highs = 0;
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
                if self.is_main() && self.clock.elapsed().as_secs() >= 3 {
                    self.report_line(depth as u32, line, ScoreBound::Upper, listener);
                }
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
                fail_highs += self.tuning.aspiration_fail_high_reduce;
                if self.is_main() && self.clock.elapsed().as_secs() >= 3 {
                    self.report_line(depth as u32, line, ScoreBound::Lower, listener);
                }
            } else {
                return;
            }
            delta += delta / 2;
        }
    }

    fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32, line: usize) -> i32 {
        let mut best = -INFINITE;
        self.pv_len[0] = 0;
        let key = self.tt_key();
        if self.tuning.root_order != 0 {
            self.order_root_moves(line);
        }
        let side = self.pos.side_to_move();
        let in_check = self.pos.in_check_by_rules();
        let context = self.context(0);
        let reduce_from = line + self.tuning.root_lmr_from as usize;
        for i in line..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let quiet = !self.is_capture(m);
            let reducible = self.tuning.root_lmr_from > 0
                && i >= reduce_from
                && quiet
                && !in_check
                && depth >= self.tuning.lmr_min_depth
                && !self.settings.ablation.lmr;
            let history = if reducible { self.quiet_history(side, m, self.piece_to(m), context) } else { 0 };
            let nodes_before = self.nodes;
            self.move_numbers[0] = (i - line + 1).min(u16::MAX as usize) as u16;
            self.make(m, 0);
            let mut score;
            if i == line {
                score = -self.negamax(depth - 1, -beta, -alpha, 1, false, true);
            } else {
                let mut r = 0;
                if reducible {
                    r = self.reductions[depth.min(63) as usize][(i - line).min(63)]
                        - self.tuning.root_lmr_less
                        - i32::from(self.pos.in_check_by_rules())
                        - history / self.tuning.lmr_history_divisor;
                    r = r.clamp(0, depth - 2);
                }
                score = -self.negamax(depth - 1 - r, -alpha - 1, -alpha, 1, true, false);
                if score > alpha && r > 0 {
                    score = -self.negamax(depth - 1, -alpha - 1, -alpha, 1, true, false);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(depth - 1, -beta, -alpha, 1, false, true);
                }
            }
            self.unmake();
            self.root_moves[i].effort += self.nodes - nodes_before;
            if self.stopped {
                return best;
            }
            let rm = &mut self.root_moves[i];
            if i == line || score > alpha {
                rm.score = score;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(&self.pv[1][..self.pv_len[1]]);
            } else {
                // Only a bound is known; keep it below the lines that were searched exactly.
                rm.score = -INFINITE;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if i > line {
                    self.root_changes += 1;
                }
                // Bring the new best to the front of the unsearched part so reports and restarts see it first.
                self.root_moves[line..=i].rotate_right(1);
                if score >= beta {
                    break;
                }
            }
        }
        let best_move = self.root_moves[line].mv;
        if line == 0 {
            let bound = if best >= beta { Bound::Lower } else { Bound::Exact };
            self.shared.tt.store(key, best_move, to_tt(best, 0), self.evals[0], depth, bound, true);
        }
        best
    }

    /// Orders the root moves after `line`: those with an exact score from the last iteration first (best first),
    /// then the rest as any node orders its moves (captures, killers, counter move, history).
    fn order_root_moves(&mut self, line: usize) {
        let mut list = MoveList::new();
        for rm in &self.root_moves[line + 1..] {
            list.push(rm.mv);
        }
        let mut scores = MoveScores::new();
        self.order(&list, Move::NONE, 0, Move::NONE, &mut scores);
        let mut keyed: Vec<(bool, i32, RootMove)> = self
            .root_moves
            .drain(line + 1..)
            .zip(scores.iter().copied())
            .map(|(rm, s)| {
                let exact = rm.previous > -INFINITE;
                let key = if exact { rm.previous } else { s };
                (exact, key, rm)
            })
            .collect();
        keyed.sort_by_key(|(exact, key, _)| std::cmp::Reverse((*exact, *key)));
        self.root_moves.extend(keyed.into_iter().map(|(_, _, rm)| rm));
    }

    fn tt_key(&self) -> u64 {
        let key = self.pos.key();
        marked_after_pass(key, self.pos.last_move().is_some_and(|m| m.is_pass()))
    }

    /// A move named by its piece and destination.
    #[inline]
    fn piece_to(&self, m: Move) -> PieceTo {
        self.pos.piece_at(m.from()).map_or(NO_PIECE_TO, |p| (p.index() * 90 + m.to().index()) as PieceTo)
    }

    /// The moves one and two plies before `ply`, and four and six where `continuation_far` asks for them.
    #[inline]
    fn context(&self, ply: usize) -> Context {
        let back = |n: usize| if ply >= n { self.played_context[ply - n] } else { NO_PIECE_TO };
        if self.tuning.continuation_far != 0 {
            [back(1), back(2), back(4), back(6)]
        } else {
            [back(1), back(2), NO_PIECE_TO, NO_PIECE_TO]
        }
    }

    #[inline]
    fn make(&mut self, m: Move, ply: usize) {
        // The next position's entry is asked for before the move is made, so that memory works while it is.
        let key = self.pos.key_after(m);
        if !self.settings.ablation.tt {
            self.shared.tt.prefetch(marked_after_pass(key, m.is_pass()));
        }
        let piece_to = self.piece_to(m);
        self.played_piece_to[ply] = piece_to;
        // Only `cont_split` names a move by its kind: without it, no capture or check test on this path.
        self.played_context[ply] = if self.tuning.cont_split != 0 {
            context_of(piece_to, self.is_capture(m), self.pos.in_check_by_rules(), true)
        } else {
            piece_to
        };
        self.played[ply] = m;
        self.pos.make_move_keyed(m, key);
        if let Some(acc) = &mut self.accumulators {
            acc.push(&self.pos);
        }
        self.nodes += 1;
        self.unpublished += 1;
    }

    #[inline]
    fn unmake(&mut self) {
        self.pos.unmake_move();
        if let Some(acc) = &mut self.accumulators {
            acc.pop();
        }
    }

    /// Hands the move over (null-move pruning); `unmake_null` takes it back.
    fn make_null(&mut self, ply: usize) {
        self.played[ply] = Move::NONE;
        self.played_piece_to[ply] = NO_PIECE_TO;
        self.played_context[ply] = NO_PIECE_TO;
        self.pos.make_null_move();
        if let Some(acc) = &mut self.accumulators {
            acc.push(&self.pos);
        }
    }

    fn unmake_null(&mut self) {
        self.pos.unmake_null_move();
        if let Some(acc) = &mut self.accumulators {
            acc.pop();
        }
    }

    fn publish_nodes(&mut self) {
        self.shared.nodes.fetch_add(self.unpublished, Ordering::Relaxed);
        self.unpublished = 0;
    }

    /// After `ponderhit` the clock runs from the moment the main thread first sees it.
    fn take_ponderhit(&mut self) {
        if self.is_main() && self.shared.ponderhit.swap(false, Ordering::SeqCst) {
            self.clock.restart();
        }
    }

    /// Looks at the clock and the stop flag every `CLOCK_CHECK_NODES` nodes.
    fn check_stop(&mut self) {
        if self.unpublished < CLOCK_CHECK_NODES {
            if self.settings.threads == 1 && self.limits.nodes.is_some_and(|n| self.nodes >= n) {
                self.stopped = true;
            }
            return;
        }
        self.publish_nodes();
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if !self.is_main() {
            return;
        }
        let pondering = self.shared.pondering.load(Ordering::SeqCst);
        self.take_ponderhit();
        let out_of_nodes = self.limits.nodes.is_some_and(|n| self.shared.nodes() >= n);
        if out_of_nodes || (!pondering && self.clock.hard_limit_reached()) {
            self.stopped = true;
            self.shared.stop.store(true, Ordering::Relaxed);
        }
    }

    // ---- game ends --------------------------------------------------------------------------------------------

    /// Game ends that do not need the moves listed, as the search sees them (`EndView::search`), scored.
    fn terminal(&self, ply: usize) -> Option<i32> {
        let end = self.pos.end_with(EndView::search(ply))?;
        Some(end_score(&end, self.pos.side_to_move(), ply))
    }

    /// The score when the side to move has no legal move.
    fn terminal_without_moves(&self, ply: usize) -> i32 {
        end_score(&self.pos.no_move_end(), self.pos.side_to_move(), ply)
    }

    // ---- the search ----------------------------------------------------------------------------------------

    /// The static evaluation: the net's or the hand-written one, bent by the move-count rule's approach.
    fn evaluate(&mut self) -> i32 {
        let value = self.evaluate_board();
        eval::toward_move_limit(value, &self.pos).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    fn evaluate_board(&mut self) -> i32 {
        match &mut self.accumulators {
            None => eval::evaluate(&self.pos, &self.settings.params),
            Some(acc) => {
                // Under test, every evaluated position's accumulators must equal a fresh computation: the stack
                // followed every make and unmake of the search (moves, passes, null moves).
                #[cfg(test)]
                assert_eq!(
                    acc.current(&self.pos).clone(),
                    nnue::Accumulator::refresh(acc.network(), acc.kernel(), &self.pos),
                    "accumulators out of step at {}",
                    self.pos.fen()
                );
                let raw = acc.output(&self.pos);
                nnue::search_value(raw, &self.pos).clamp(-NNUE_EVAL_LIMIT, NNUE_EVAL_LIMIT)
            }
        }
    }

    fn negamax(&mut self, mut depth: i32, mut alpha: i32, mut beta: i32, ply: usize, cut: bool, pv_node: bool) -> i32 {
        self.pv_len[ply] = 0;
        if depth <= 0 {
            return self.quiescence(alpha, beta, ply, 0);
        }
        self.check_stop();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(score) = self.terminal(ply) {
            return score;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate();
        }
        // Mate distance pruning.
        alpha = alpha.max(-(MATE - ply as i32));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        // Children reached without a move of this node's loop (null move, ProbCut) inherit its count.
        self.double_extensions[ply + 1] = self.double_extensions[ply];
        // The grandchildren's cutoffs are counted afresh for this node's children.
        self.cutoffs[ply + 2] = 0;
        // Children reached without the move loop (null move, ProbCut) have no move number.
        self.move_numbers[ply] = 0;
        let in_check = self.pos.in_check_by_rules();
        let must_break = self.pos.generals_face() && self.pos.rules().bikjang != Bikjang::Ignored;
        let key = self.tt_key();
        let ablation = self.settings.ablation;
        let excluded = self.excluded[ply];
        let singular_search = !excluded.is_none();
        let tt = if ablation.tt { None } else { self.shared.tt.probe(key) };
        let tt_move = tt.map_or(Move::NONE, |e| e.mv);
        // Kept only where it is used: this runs at every node.
        if self.tuning.lmr_tt_hit_average != 0 && !singular_search {
            self.tt_hit_average =
                (TT_HIT_WINDOW - 1) * self.tt_hit_average / TT_HIT_WINDOW + TT_HIT_RESOLUTION * u64::from(tt.is_some());
        }
        // On a principal variation now or when last searched: such nodes decide the result and are reduced less.
        let tt_pv = pv_node || tt.is_some_and(|e| e.pv);
        if let Some(e) = tt
            && !pv_node
            && !singular_search
            && e.depth >= depth
            && let Some(score) = tt_cutoff(&e, ply, alpha, beta)
        {
            // A quiet hash move that still beats beta earns the history a searched cutoff would have. (A move of
            // a colliding key is harmless here: histories only order moves generated in the position.)
            if self.tuning.tt_cutoff_history != 0
                && score >= beta
                && !tt_move.is_none()
                && self.pos.piece_at(tt_move.from()).is_some_and(|p| p.color() == self.pos.side_to_move())
                && !self.is_capture(tt_move)
            {
                let previous = if ply > 0 { self.played[ply - 1] } else { Move::NONE };
                let best = (tt_move, self.piece_to(tt_move));
                let bonus = self.tuning.history_bonus(depth);
                self.history.reward(self.pos.side_to_move(), best, &[], self.context(ply), bonus, ply, previous);
            }
            if score >= beta {
                self.punish_early_refuted(ply, depth);
            }
            return score;
        }

        let side = self.pos.side_to_move();
        let correction_keys = self.correction_keys(ply);
        let raw_eval = if in_check {
            -INFINITE
        } else if let Some(e) = tt {
            e.eval
        } else {
            let raw = self.evaluate();
            // Kept at once, so that a node cut by the pruning below (which stores nothing) is not evaluated again
            // when the next iteration comes back to it.
            if self.tuning.tt_store_eval != 0 && !ablation.tt {
                self.shared.tt.store(key, Move::NONE, 0, raw, TT_EVAL_DEPTH, Bound::None, tt_pv);
            }
            raw
        };
        let static_eval = self.corrected(raw_eval, correction_keys);
        self.evals[ply] = static_eval;
        let improving = !in_check && self.improving(ply, static_eval);
        // The opponent's last quiet move is judged by what it did to the static evaluation: a move that gained
        // (our evaluation fell) is tried earlier next time. (The root keeps no evaluation of its own: from ply 2.)
        if self.tuning.eval_history_per_cp > 0 && !in_check && !singular_search && ply > 1 {
            let previous = self.played[ply - 1];
            let before = self.evals[ply - 1];
            if !previous.is_none()
                && !previous.is_pass()
                && self.pos.last_captured().is_none()
                && before.abs() < MATE_BOUND
                && static_eval.abs() < MATE_BOUND
            {
                let bonus = (-depth * self.tuning.eval_history_per_cp * (before + static_eval))
                    .clamp(-EVAL_HISTORY_LIMIT, EVAL_HISTORY_LIMIT);
                self.history.nudge_butterfly(!side, previous, bonus);
            }
        }
        // The stored score bounds the value better than the static evaluation where its bound points the right way.
        let eval = match tt {
            Some(e) if !in_check && e.score.abs() < MATE_BOUND => {
                let s = from_tt(e.score, ply);
                let tighter = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s > static_eval,
                    Bound::Upper => s < static_eval,
                    Bound::None => false,
                };
                if tighter { s } else { static_eval }
            }
            _ => static_eval,
        };

        let prune = !ablation.pruning;
        if !pv_node && !in_check && !must_break && !singular_search {
            // Reverse futility pruning.
            let margin = if improving {
                self.tuning.rfp_improving_margin * depth - self.tuning.rfp_improving_flat
            } else {
                self.tuning.rfp_margin * depth
            };
            // (Not where beta is a mated score: a static evaluation beats it without showing an escape.)
            if prune
                && depth <= self.tuning.rfp_max_depth
                && eval - margin >= beta
                && eval < MATE_BOUND
                && beta > -MATE_BOUND
            {
                return eval;
            }
            // Razoring.
            if prune && depth <= self.tuning.razor_max_depth && eval + self.tuning.razor_margin * depth < alpha {
                let score = self.quiescence(alpha, beta, ply, 0);
                if score < alpha {
                    return score;
                }
            }
            // Null move: hand the move over. With passing legal (the host rule sets) there is no zugzwang; without
            // it, deep null-move cutoffs are verified.
            if !ablation.nmp
                && depth >= self.tuning.nmp_min_depth
                && eval >= beta
                && static_eval
                    >= beta - self.tuning.nmp_static_margin - self.tuning.nmp_static_per_depth * depth
                        + self.tuning.nmp_ttpv_margin * i32::from(tt_pv)
                        - self.tuning.nmp_improving_margin * i32::from(improving)
                && (self.tuning.nmp_eval_over_static == 0 || eval >= static_eval)
                && !self.played[ply.saturating_sub(1)].is_none()
                && self.has_pieces_beyond_soldiers()
            {
                let r = self.tuning.nmp_base_reduction
                    + depth / self.tuning.nmp_depth_divisor
                    + ((eval - beta) / self.tuning.nmp_eval_divisor).min(3);
                self.make_null(ply);
                let score = -self.negamax(depth - 1 - r, -beta, -beta + 1, ply + 1, !cut, false);
                self.unmake_null();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    let score = if score >= MATE_BOUND { beta } else { score };
                    if self.pos.rules().pass || depth < self.tuning.nmp_verify_depth {
                        return score;
                    }
                    let verified = self.negamax(depth - 1 - r, beta - 1, beta, ply, false, false);
                    if verified >= beta {
                        return score;
                    }
                }
            }
        }

        // ProbCut: a capture whose reduced search beats beta by a margin almost surely makes the full search beat
        // beta too.
        let probcut_beta = beta + self.tuning.probcut_margin;
        if prune
            && !pv_node
            && !in_check
            && !must_break
            && !singular_search
            && depth >= self.tuning.probcut_min_depth
            && beta.abs() < MATE_BOUND
            && !tt.is_some_and(|e| e.depth >= depth - 3 && from_tt(e.score, ply) < probcut_beta)
        {
            let mut captures = self.pos.legal_captures();
            let mut scores = MoveScores::new();
            let mut deferred = self.order_lazily(&captures, tt_move, ply, Move::NONE, &mut scores);
            for i in 0..captures.len() {
                let m = self.next_move(&mut captures, &mut scores, i, &mut deferred);
                if !self.see(m, probcut_beta - static_eval) {
                    continue;
                }
                self.make(m, ply);
                let mut score = -self.quiescence(-probcut_beta, -probcut_beta + 1, ply + 1, 1);
                if score >= probcut_beta {
                    score = -self.negamax(depth - 4, -probcut_beta, -probcut_beta + 1, ply + 1, !cut, false);
                }
                self.unmake();
                if self.stopped {
                    return 0;
                }
                if score >= probcut_beta {
                    if !ablation.tt {
                        self.shared.tt.store(key, m, to_tt(score, ply), raw_eval, depth - 3, Bound::Lower, tt_pv);
                    }
                    return score;
                }
            }
        }

        // Without a hash move, a deep node is searched a little shallower first.
        if tt_move.is_none()
            && depth >= self.tuning.iir_min_depth
            && (pv_node || (cut && self.tuning.iir_cut_nodes != 0))
        {
            depth = (depth - self.tuning.iir_reduction).max(1);
        }

        // Singular extension: if every other move falls well short of the hash move's score, the hash move is
        // the only good one here and is searched one ply deeper.
        let mut singular_extension = 0;
        if let Some(e) = tt
            && ply > 0
            && !singular_search
            && depth >= self.tuning.singular_min_depth
            && !tt_move.is_none()
            && e.depth >= depth - 3
            && matches!(e.bound, Bound::Exact | Bound::Lower)
            && e.score.abs() < MATE_BOUND
            && !ablation.pruning
        {
            let singular_beta = from_tt(e.score, ply) - self.tuning.singular_margin * depth / 8;
            self.excluded[ply] = tt_move;
            let score = self.negamax((depth - 1) / 2, singular_beta - 1, singular_beta, ply, cut, false);
            self.excluded[ply] = Move::NONE;
            if self.stopped {
                return 0;
            }
            if score < singular_beta {
                singular_extension = 1;
                let double = self.tuning.singular_double_margin;
                if !pv_node
                    && double > 0
                    && score < singular_beta - double
                    && self.double_extensions[ply] < MAX_DOUBLE_EXTENSIONS
                {
                    singular_extension = 2;
                }
            } else if singular_beta >= beta {
                // Several moves beat beta: cut at once.
                return singular_beta;
            } else if from_tt(e.score, ply) >= beta {
                if self.tuning.singular_second_cut != 0 {
                    // Another move nearly matches the hash move, which is expected to beat beta: if the moves
                    // without it beat beta too, at about half the depth, the node is a cut.
                    self.excluded[ply] = tt_move;
                    let score = self.negamax((depth + 3) / 2, beta - 1, beta, ply, cut, false);
                    self.excluded[ply] = Move::NONE;
                    if self.stopped {
                        return 0;
                    }
                    if score >= beta {
                        return beta;
                    }
                } else {
                    // Another move nearly matches the hash move, which is expected to beat beta: search it less.
                    singular_extension = -1;
                }
            }
        }

        // A legal hash move is searched before the other moves are generated and ordered: where it cuts off,
        // as it mostly does, that work is saved.
        let tt_first = !singular_search && self.pos.is_legal(tt_move);
        let mut moves = MoveList::new();
        let mut scores = MoveScores::new();
        let previous = if ply > 0 { self.played[ply - 1] } else { Move::NONE };
        let mut deferred = Deferred::NONE;
        if !tt_first {
            moves = self.pos.legal_moves();
            if moves.is_empty() {
                return self.terminal_without_moves(ply);
            }
            if singular_search {
                moves.retain(|m| m != excluded);
                if moves.is_empty() {
                    return alpha;
                }
            }
            deferred = self.order_lazily(&moves, tt_move, ply, previous, &mut scores);
        }
        let tt_capture = !tt_move.is_none() && self.is_capture(tt_move);
        let singular_quiet = singular_extension > 0 && !tt_capture && self.tuning.singular_quiet_lmr != 0;

        // A principal-variation node whose hash entry, as deep as this search, bounds its value from above (an
        // upper bound or an exact score): Fairy-Stockfish's "likely fail low".
        let likely_fail_low = pv_node
            && !tt_move.is_none()
            && tt.is_some_and(|e| matches!(e.bound, Bound::Upper | Bound::Exact) && e.depth >= depth);
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = Move::NONE;
        let mut quiets_tried = std::mem::take(&mut self.quiets_tried[ply]);
        let mut captures_tried = std::mem::take(&mut self.captures_tried[ply]);
        quiets_tried.clear();
        captures_tried.clear();
        let context = self.context(ply);
        // In check, evasions are pruned and reduced as other moves are (except by futility: there is no static
        // evaluation to judge them by) where `check_node_prune` says so.
        let prune_here = !in_check || self.tuning.check_node_prune != 0;
        let mut n = if tt_first { 1 } else { moves.len() };
        for i in 0..MAX_MOVES {
            if tt_first && i == 1 {
                // The hash move did not cut off: the rest are generated, ordered with what its search taught the
                // histories, and follow it.
                moves = self.pos.legal_moves();
                deferred = self.order_lazily(&moves, tt_move, ply, previous, &mut scores);
                if let Some(at) = moves.iter().position(|&m| m == tt_move) {
                    moves.as_mut_slice().swap(0, at);
                    scores.as_mut_slice().swap(0, at);
                }
                n = moves.len();
            }
            if i >= n {
                break;
            }
            let m =
                if tt_first && i == 0 { tt_move } else { self.next_move(&mut moves, &mut scores, i, &mut deferred) };
            let victim = if m.is_pass() { None } else { self.pos.piece_at(m.to()) };
            let capture = victim.map(|v| capture_key(self.piece_to(m), v.kind()));
            let quiet = capture.is_none();
            let killer = self.history.killers[ply].contains(&m);
            // The move's history, and whether it gives check, looked up only where a decision needs them.
            let mut history = None;
            let mut checks = None;

            if prune && ply > 0 && best > -MATE_BOUND && prune_here && !must_break {
                // The depth this move would be searched to after its late-move reduction.
                let lmr_depth = depth - 1 - self.reductions[depth.min(63) as usize][i.min(63)];
                if quiet && (!pv_node || self.tuning.prune_pv_quiets != 0) {
                    let pruned = 'quiet_pruning: {
                        // Late move pruning.
                        let tried = if self.tuning.lmp_count_all != 0 { i } else { quiets_tried.len() };
                        let late = if self.tuning.lmp_fs_count != 0 {
                            // The move's number from 1 against (base + depth²) / (2 - improving).
                            i as i32 + 1 >= (self.tuning.lmp_base + depth * depth) / if improving { 1 } else { 2 }
                        } else {
                            tried as i32 >= self.tuning.lmp_base + depth * depth / if improving { 1 } else { 2 }
                        };
                        if depth <= self.tuning.lmp_max_depth && late {
                            break 'quiet_pruning QuietPrune::Late;
                        }
                        // Futility pruning.
                        let futility_depth = if self.tuning.futility_lmr_depth != 0 { lmr_depth.max(0) } else { depth };
                        // (Never against a mate score: no static evaluation reaches it, and the move may be the
                        // quicker mate the search is looking for.)
                        if futility_depth <= self.tuning.futility_max_depth
                            && !in_check
                            && alpha.abs() < MATE_BOUND
                            && static_eval + self.tuning.futility_base + self.tuning.futility_per_depth * futility_depth
                                <= alpha
                            && !killer
                        {
                            break 'quiet_pruning QuietPrune::Hopeless;
                        }
                        let to = self.piece_to(m);
                        // History pruning: quiet moves that keep failing here are not worth a look at low depth.
                        if depth <= self.tuning.history_prune_depth && !killer {
                            let h = self.quiet_history(side, m, to, context);
                            history = Some(h);
                            if h < -self.tuning.history_prune_margin * depth {
                                break 'quiet_pruning QuietPrune::Hopeless;
                            }
                        }
                        // Continuation-history pruning: a quiet move that has done badly after both of the last
                        // two moves, where it would be searched shallow anyway.
                        if self.tuning.conthist_prune_depth > 0
                            && !killer
                            && lmr_depth < self.tuning.conthist_prune_depth
                            && self.history.failed_after_both(context, to)
                        {
                            break 'quiet_pruning QuietPrune::Hopeless;
                        }
                        QuietPrune::Keep
                    };
                    // A move that would attack a piece worth more than its own is kept where `prune_keep_threats`
                    // says so: its point is the reply it forces, which none of the measures above can see. A check
                    // is kept from all but late-move pruning where `prune_keep_checks` says so, as Fairy-Stockfish
                    // keeps it: the static evaluation and the histories cannot see what a forced reply gives up.
                    if pruned != QuietPrune::Keep
                        && (self.tuning.prune_keep_threats == 0
                            || m.is_pass()
                            || !self.quiet_threatens_more_valuable(m))
                        && !(pruned == QuietPrune::Hopeless
                            && self.tuning.prune_keep_checks != 0
                            && *checks.get_or_insert_with(|| self.pos.gives_check(m)))
                    {
                        continue;
                    }
                }
                // Futility pruning of captures: even the victim does not lift a hopeless static evaluation.
                if let Some(v) = victim
                    && self.tuning.capture_futility_base > 0
                    && !pv_node
                    && !in_check
                    && depth <= self.tuning.futility_max_depth
                    && static_eval
                        + self.tuning.capture_futility_base
                        + self.tuning.capture_futility_per_depth * depth
                        + self.see_values()[v.kind().index()]
                        <= alpha
                {
                    continue;
                }
                // Capture-history pruning: a capture that has kept failing to cut off, where its reduced search
                // would reach no depth at all.
                if let Some(key) = capture
                    && self.tuning.capture_history_prune != 0
                    && i > 0
                    && lmr_depth < 1
                    && self.history.capture(key) < 0
                {
                    continue;
                }
                // Exchange pruning of losing moves at low depth.
                let linear = !quiet && self.tuning.see_capture_linear > 0;
                let capture_margin = -self.tuning.see_capture_linear * depth;
                let quad = quiet && self.tuning.see_quiet_quad > 0;
                let margin = if quad {
                    let d = lmr_depth.max(0);
                    -(self.tuning.see_quiet_quad - d.min(SEE_QUIET_QUAD_DEPTH_CAP)) * d * d * 100 / FS_UNITS_PER_SOLDIER
                } else if quiet {
                    self.tuning.see_quiet_margin * depth
                } else if linear {
                    capture_margin
                } else {
                    self.tuning.see_capture_margin * depth * depth
                };
                if (depth <= 6 || linear || quad) && !m.is_pass() && i > 0 && !self.see(m, margin) {
                    // A quiet check kept by `prune_keep_checks` is held to the captures' test instead.
                    let kept_check = quiet
                        && self.tuning.prune_keep_checks != 0
                        && self.tuning.see_capture_linear > 0
                        && *checks.get_or_insert_with(|| self.pos.gives_check(m))
                        && self.see(m, capture_margin);
                    if !kept_check {
                        continue;
                    }
                }
            }

            // Checks are extended only where the checking piece is not simply lost: a hanging checker is a
            // forced capture, not a threat worth a deeper look.
            self.move_numbers[ply] = (i + 1).min(u16::MAX as usize) as u16;
            self.make(m, ply);
            let gives_check = self.pos.in_check_by_rules();
            let check_extension = i32::from(
                gives_check
                    && depth >= self.tuning.check_extension_min_depth
                    // In check the static evaluation is -INFINITE: always far enough from equal.
                    && static_eval.abs() >= self.tuning.check_extension_eval_margin
                    && ply < 2 * (depth as usize + self.tuning.max_extension_plies as usize)
                    && self.safe_check(m),
            );
            let extension = if m == tt_move && singular_extension != 0 { singular_extension } else { check_extension };
            let new_depth = depth - 1 + extension;
            self.double_extensions[ply + 1] = self.double_extensions[ply] + u8::from(extension == 2);
            let mut score;
            if i == 0 {
                score = -self.negamax(new_depth, -beta, -alpha, ply + 1, !pv_node && !cut, pv_node);
            } else {
                let mut r = 0;
                // Captures on principal variations (now or before) keep their depth, except at expected cutoffs.
                let reducible = quiet || ((!tt_pv || cut) && self.tuning.lmr_capture_pct > 0);
                if !ablation.lmr
                    && depth >= self.tuning.lmr_min_depth
                    && i > pv_node as usize
                    && reducible
                    && prune_here
                {
                    r = self.reductions[depth.min(63) as usize][i.min(63)];
                    if let Some(key) = capture {
                        // Late captures are the ones that lose material or history found wanting.
                        r = r * self.tuning.lmr_capture_pct / 100 + i32::from(cut) - i32::from(gives_check);
                        r -= self.history.capture(key) / self.tuning.lmr_history_divisor;
                    } else {
                        r += self.tuning.lmr_nonpv * i32::from(!pv_node) - self.tuning.lmr_pv_less * i32::from(pv_node);
                        r += i32::from(!improving) + i32::from(cut) + i32::from(tt_capture);
                        let ttpv_less = tt_pv && !(self.tuning.lmr_ttpv_fail_low != 0 && likely_fail_low);
                        r -= i32::from(killer) + i32::from(gives_check) + self.tuning.lmr_ttpv * i32::from(ttpv_less);
                        // The move is made: its piece-to name was recorded by `make`.
                        let h =
                            history.unwrap_or_else(|| self.quiet_history(side, m, self.played_piece_to[ply], context));
                        r -= h / self.tuning.lmr_history_divisor;
                        r += self.tuning.lmr_cut_quiet * i32::from(cut);
                        let late_reply = self.tuning.lmr_opp_late_move;
                        if late_reply > 0 && ply > 0 && i32::from(self.move_numbers[ply - 1]) >= late_reply {
                            r -= 1;
                        }
                        // A move that takes a piece out of a losing exchange is a defence, not a late idea: its
                        // piece would have been lost where it stood. (The exchange is judged from the position
                        // after the move, the piece set back on its old point.)
                        if self.tuning.lmr_escape > 0 && !m.is_pass() && !self.see(Move::new(m.to(), m.from()), 0) {
                            r -= self.tuning.lmr_escape;
                        }
                        // A quiet move that now attacks a piece worth more than its own is a threat the reply
                        // must meet, not a late idea.
                        if self.tuning.lmr_threat > 0 && !m.is_pass() && self.threatens_more_valuable(m.to()) {
                            r -= self.tuning.lmr_threat;
                        }
                    }
                    // A quiet hash move found singular is where the search expects the node's value; the rest are
                    // searched a little deeper so that a second good move, if there is one, is not missed.
                    if singular_quiet {
                        r -= 1;
                    }
                    // A node whose positions the hash table mostly holds is well known: its late moves cost little
                    // at a ply more.
                    if self.tuning.lmr_tt_hit_average != 0 && self.tt_hit_average > TT_HIT_REDUCE_ABOVE {
                        r -= 1;
                    }
                    // Replies that keep cutting off say this node will fail low: its late moves matter less.
                    if self.cutoffs[ply + 1] > CUTOFF_COUNT_OVER {
                        r += self.tuning.lmr_cutoff_count;
                    }
                    // While the root's best move holds, nodes off the principal variation matter less.
                    if !pv_node && self.tuning.lmr_stable_root != 0 && self.root_changes <= 2 {
                        r += 1;
                    }
                    // A move that history, a killer or a check says is good, among the first few, is worth a
                    // ply more than the rest (no deeper re-search follows: it already has the extra ply).
                    let deeper = self.tuning.lmr_extend != 0 && r < -1 && i < LMR_EXTEND_MOVES;
                    r = if deeper { -1 } else { r.clamp(0, new_depth - 1) };
                }
                score = -self.negamax(new_depth - r, -alpha - 1, -alpha, ply + 1, true, false);
                // The depth of the searches that follow: the reduced search's margin over the best score so far
                // may ask for a ply more (a move far better than expected) or a ply less (barely better).
                let mut full_depth = new_depth;
                if score > alpha && r > 0 {
                    let margin = self.tuning.lmr_deeper_margin;
                    if margin > 0 {
                        if score > best + margin + self.tuning.lmr_deeper_per_ply * r {
                            full_depth += 1;
                        } else if score < best + new_depth {
                            full_depth -= 1;
                        }
                    }
                    // (A ply shallower may leave nothing deeper than the reduced search to do.)
                    if full_depth > new_depth - r {
                        score = -self.negamax(full_depth, -alpha - 1, -alpha, ply + 1, !cut, false);
                        // The full-depth verdict on a reduced quiet move teaches its continuation history.
                        if quiet && self.tuning.lmr_research_history != 0 && !self.stopped {
                            let bonus = self.tuning.history_bonus(new_depth);
                            let bonus = if score > alpha { bonus } else { -bonus };
                            self.history.reward_continuation(self.played_piece_to[ply], context, bonus);
                        }
                    }
                }
                if pv_node && score > alpha && score < beta {
                    score = -self.negamax(full_depth, -beta, -alpha, ply + 1, false, true);
                }
            }
            self.unmake();
            if self.stopped {
                return 0;
            }
            match capture {
                None => quiets_tried.push((m, self.played_piece_to[ply])),
                Some(key) => captures_tried.push(key),
            }
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        let bonus = self.tuning.history_bonus(depth);
                        if quiet {
                            let best = (m, self.played_piece_to[ply]);
                            self.history.reward(side, best, &quiets_tried, context, bonus, ply, previous);
                            self.discourage_reversal(side, m, bonus);
                        }
                        self.history.reward_captures(capture, &captures_tried, bonus);
                        self.punish_early_refuted(ply, depth);
                        self.cutoffs[ply] += 1;
                        break;
                    }
                    // With a good move in hand, the rest of a principal variation's moves need less depth.
                    if pv_node && self.tuning.alpha_raise_reduce != 0 && ALPHA_RAISE_DEPTHS.contains(&depth) {
                        depth -= 1;
                    }
                }
            }
        }
        self.captures_tried[ply] = captures_tried;
        if best == -INFINITE {
            // Every move was pruned: fall back on the static evaluation.
            self.quiets_tried[ply] = quiets_tried;
            return alpha;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if !ablation.tt && !singular_search {
            self.shared.tt.store(key, best_move, to_tt(best, ply), raw_eval, depth, bound, tt_pv);
        }
        // A principal variation's best quiet move is that node's refutation of the others, cutoff or not.
        if bound == Bound::Exact
            && self.tuning.history_on_exact != 0
            && !best_move.is_none()
            && !self.is_capture(best_move)
        {
            let best = (best_move, self.piece_to(best_move));
            let bonus = self.tuning.history_bonus(depth);
            self.history.reward(side, best, &quiets_tried, context, bonus, ply, previous);
        }
        self.quiets_tried[ply] = quiets_tried;
        // Every move failed low: the opponent's quiet move that led here was strong, and its history learns it.
        let refutation_depth = self.tuning.refutation_bonus_min_depth;
        if refutation_depth > 0
            && bound == Bound::Upper
            && (depth >= refutation_depth || pv_node)
            && !singular_search
            && ply >= 1
            && self.played_piece_to[ply - 1] != NO_PIECE_TO
            && self.pos.last_captured().is_none()
        {
            let bonus = self.tuning.history_bonus(depth);
            self.history.reward_continuation(self.played_piece_to[ply - 1], self.context(ply - 1), bonus);
        }
        // The search result teaches the correction history how far off the static evaluation was, where the
        // result is a true value or a bound on the right side of the evaluation.
        let best_quiet = best_move.is_none() || !self.is_capture(best_move);
        if !in_check
            && !singular_search
            && best_quiet
            && best.abs() < MATE_BOUND
            && !(bound == Bound::Lower && best <= static_eval)
            && !(bound == Bound::Upper && best >= static_eval)
        {
            self.history.correct(side, correction_keys, best, static_eval, depth);
        }
        best
    }

    /// The piece values of exchanges: `SEE_VALUE`, or the evaluation's where `see_eval_values` asks.
    #[inline]
    pub(super) fn see_values(&self) -> &'static PieceValues {
        if self.tuning.see_eval_values != 0 { &SEE_VALUE_EVAL } else { &SEE_VALUE }
    }

    /// Whether the piece on `sq` (just moved there) attacks an enemy piece worth more than itself.
    fn threatens_more_valuable(&self, sq: Square) -> bool {
        self.pos.piece_at(sq).is_some_and(|piece| self.threat_among(piece, self.pos.targets_of(sq)))
    }

    /// Whether the quiet move `m`, not yet made, would leave its piece attacking an enemy piece worth more than
    /// itself.
    fn quiet_threatens_more_valuable(&self, m: Move) -> bool {
        self.pos.piece_at(m.from()).is_some_and(|piece| self.threat_among(piece, self.pos.targets_after_quiet(m)))
    }

    /// Whether `targets`, the points `piece` attacks, hold an enemy piece worth more than it by the exchange
    /// values, the general aside (attacking it is a check, which has its own rules).
    fn threat_among(&self, piece: Piece, targets: Bitboard) -> bool {
        let values = self.see_values();
        let own = values[piece.kind().index()];
        let enemy = self.pos.color_bb(!piece.color()) & !self.pos.pieces(!piece.color(), PieceKind::General);
        (targets & enemy).filter(|&t| self.pos.piece_at(t).is_some_and(|p| values[p.kind().index()] > own)).count() > 0
    }

    /// Whether the exchange started by `m` gains at least `threshold` (`see_ge_pinned` with `see_values`, pinned
    /// capturers left out where `see_pins` asks).
    #[inline]
    pub(super) fn see(&self, m: Move, threshold: i32) -> bool {
        see_ge_pinned(&self.pos, m, threshold, self.see_values(), self.tuning.see_pins != 0)
    }

    /// The butterfly and continuation history of a quiet move, named by its piece-to (taken before the move is
    /// made, or from `played_piece_to` after).
    #[inline]
    fn quiet_history(&self, side: Color, m: Move, piece_to: PieceTo, context: Context) -> i32 {
        self.history.score(side, m) + self.history.continuation(context, piece_to)
    }

    /// The reply at `ply` cut off at `depth`: where the move that led here was quiet and among the first
    /// `early_refuted_penalty` of its node, its continuation history learns that it was refuted.
    fn punish_early_refuted(&mut self, ply: usize, depth: i32) {
        let early = self.tuning.early_refuted_penalty;
        if early == 0 || ply == 0 {
            return;
        }
        let number = i32::from(self.move_numbers[ply - 1]);
        let piece_to = self.played_piece_to[ply - 1];
        if number == 0 || number > early || piece_to == NO_PIECE_TO || self.pos.last_captured().is_some() {
            return;
        }
        let bonus = self.tuning.history_bonus(depth + 1);
        self.history.reward_continuation(piece_to, self.context(ply - 1), -bonus);
    }

    /// A quiet move `m` cut off: where `history_reverse_penalty` says so, its way back (a soldier has none) is
    /// made less likely, by `bonus`.
    fn discourage_reversal(&mut self, side: Color, m: Move, bonus: i32) {
        if self.tuning.history_reverse_penalty == 0 || m.is_pass() {
            return;
        }
        if self.pos.piece_at(m.from()).is_some_and(|p| p.kind() != PieceKind::Soldier) {
            self.history.nudge_butterfly(side, Move::new(m.to(), m.from()), -bonus);
        }
    }

    /// Whether `m` (not yet made) takes a piece; a pass never does.
    #[inline]
    fn is_capture(&self, m: Move) -> bool {
        !m.is_pass() && self.pos.piece_at(m.to()).is_some()
    }

    /// Whether the check `m`, just made, keeps its piece (exchange value not negative). Checks are rare enough
    /// that stepping back to the position before the move costs less than an exchange test of every move.
    fn safe_check(&mut self, m: Move) -> bool {
        if m.is_pass() {
            return true;
        }
        // The accumulators stay as they are: the same move is made again at once.
        self.pos.unmake_move();
        let safe = self.see(m, 0);
        self.pos.make_move(m);
        safe
    }

    /// The correction-history slots of the node at `ply`: its structures, and the tables the parameters add.
    fn correction_keys(&self, ply: usize) -> CorrectionKeys {
        let mut keys = CorrectionKeys::of(&self.pos);
        if self.tuning.correction_pieces_pct > 0 {
            keys = keys.with_pieces(&self.pos);
        }
        if self.tuning.correction_continuation_pct > 0 && ply >= 2 {
            keys = keys.with_continuation(self.played_piece_to[ply - 2], self.played_piece_to[ply - 1]);
        }
        keys
    }

    /// The static evaluation corrected by what searches learnt about this position's structures.
    #[inline]
    fn corrected(&self, raw: i32, keys: CorrectionKeys) -> i32 {
        if raw == -INFINITE {
            return raw;
        }
        let side = self.pos.side_to_move();
        let weights = CorrectionWeights {
            pieces_pct: self.tuning.correction_pieces_pct,
            continuation_pct: self.tuning.correction_continuation_pct,
        };
        let mut correction = self.history.correction(side, keys, weights) * self.tuning.correction_weight_pct / 100;
        if self.tuning.correction_max > 0 {
            correction = correction.clamp(-self.tuning.correction_max, self.tuning.correction_max);
        }
        (raw + correction).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Whether the side to move stands better than two plies ago (four, where it was in check then). The root's
    /// entry of `evals` stays 0, so two plies down this asks whether the side to move stands better than even:
    /// the root's own evaluation there instead scored 46% in 200 games of self-play (see the README, "Strength").
    fn improving(&self, ply: usize, static_eval: i32) -> bool {
        if ply >= 2 && self.evals[ply - 2] != -INFINITE {
            static_eval > self.evals[ply - 2]
        } else if ply >= 4 && self.evals[ply - 4] != -INFINITE {
            static_eval > self.evals[ply - 4]
        } else {
            true
        }
    }

    /// The principal variation at `ply` becomes `m` followed by the child's.
    fn update_pv(&mut self, ply: usize, m: Move) {
        let child = self.pv_len[ply + 1].min(MAX_PLY - ply);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][0] = m;
        head[ply][1..=child].copy_from_slice(&tail[0][..child]);
        self.pv_len[ply] = child + 1;
    }

    fn has_pieces_beyond_soldiers(&self) -> bool {
        let us = self.pos.color_bb(self.pos.side_to_move());
        let big = self.pos.kind_bb(PieceKind::Chariot)
            | self.pos.kind_bb(PieceKind::Cannon)
            | self.pos.kind_bb(PieceKind::Horse);
        (us & big).any()
    }

    fn quiescence(&mut self, mut alpha: i32, beta: i32, ply: usize, qply: i32) -> i32 {
        self.pv_len[ply] = 0;
        self.check_stop();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        // The whole rule book, repetition included: evasions are quiet moves, and a chase of checks and facing
        // generals (a general steps onto the open file, the other side's chariot checks it, and round again) would
        // otherwise cycle to the ply limit with every evasion searched at every turn.
        if let Some(score) = self.terminal(ply) {
            return score;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate();
        }
        let in_check =
            self.pos.in_check_by_rules() || (self.pos.generals_face() && self.pos.rules().bikjang != Bikjang::Ignored);
        let key = self.tt_key();
        let tt = if self.settings.ablation.tt { None } else { self.shared.tt.probe(key) };
        if let Some(score) = tt.and_then(|e| tt_cutoff(&e, ply, alpha, beta)) {
            return score;
        }
        let raw_eval = if in_check { -INFINITE } else { tt.map_or_else(|| self.evaluate(), |e| e.eval) };
        let mut stand_pat = self.corrected(raw_eval, self.correction_keys(ply));
        let use_tt_stand_pat = self.tuning.qs_tt_stand_pat != 0 && !in_check;
        if let Some(e) = tt.filter(|_| use_tt_stand_pat) {
            // The stored score is a search's verdict on this point: where its bound lies on the far side of the
            // static evaluation, it is the better guess of what standing pat is worth.
            let score = from_tt(e.score, ply);
            if score.abs() < MATE_BOUND
                && e.bound != Bound::None
                && if score > stand_pat { e.bound != Bound::Upper } else { e.bound != Bound::Lower }
            {
                stand_pat = score;
            }
        }
        if stand_pat >= beta {
            if use_tt_stand_pat && tt.is_none() && !self.settings.ablation.tt {
                self.shared.tt.store(key, Move::NONE, to_tt(stand_pat, ply), raw_eval, 0, Bound::Lower, false);
            }
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut moves = if in_check { self.pos.legal_moves() } else { self.pos.legal_captures() };
        // Deep in quiescence only recaptures are looked at, so exchanges elsewhere cannot run on for ever.
        let recapture_only = !in_check
            && self.tuning.qs_recapture_ply > 0
            && qply >= self.tuning.qs_recapture_ply
            && ply > 0
            && self.played[ply - 1] != Move::NONE
            && !self.played[ply - 1].is_pass();
        if recapture_only {
            let square = self.played[ply - 1].to();
            moves.retain(|m| m.to() == square);
        }
        // At quiescence's first ply, quiet moves that give check are looked at too where `qs_quiet_checks` says
        // so: in Janggi a quiet check (a chariot or cannon lining up, a piece stepping in as a cannon's screen) is
        // often the threat that decides, and only a check forces the reply that shows it.
        let quiet_checks = !in_check && qply == 0 && self.tuning.qs_quiet_checks != 0;
        if quiet_checks {
            for &m in self.pos.quiet_checks().iter() {
                moves.push(m);
            }
        }
        if moves.is_empty() {
            return if in_check && self.pos.legal_moves().is_empty() {
                self.terminal_without_moves(ply)
            } else {
                stand_pat.max(alpha)
            };
        }
        let tt_move = tt.map_or(Move::NONE, |e| e.mv);
        let mut scores = MoveScores::new();
        let mut deferred = self.order_lazily(&moves, tt_move, ply.min(MAX_PLY), Move::NONE, &mut scores);
        let mut best = stand_pat;
        let mut best_move = Move::NONE;
        for i in 0..moves.len() {
            let m = self.next_move(&mut moves, &mut scores, i, &mut deferred);
            let mut limited = false;
            if in_check && self.tuning.qs_evasion_prune != 0 && best > -MATE_BOUND && !m.is_pass() {
                // The general is safe already: an evasion that loses material, or a quiet one that has done badly
                // after both of the last two moves, is not worth a look.
                if !self.see(m, 0) {
                    continue;
                }
                if self.tuning.qs_evasion_prune > 1
                    && self.pos.piece_at(m.to()).is_none()
                    && self.history.failed_after_both(self.context(ply), self.piece_to(m))
                {
                    continue;
                }
            }
            let quiet_check = quiet_checks && self.pos.piece_at(m.to()).is_none();
            if quiet_check {
                // A quiet check is worth a look unless it simply loses the checking piece.
                if best > -MATE_BOUND && !self.see(m, 0) {
                    continue;
                }
            } else if !in_check {
                let victim = self.pos.piece_at(m.to()).map_or(0, |p| self.see_values()[p.kind().index()]);
                if stand_pat + victim + self.tuning.qs_delta_margin < alpha {
                    continue;
                }
                let futile = self.tuning.qs_futility_see != 0 && stand_pat + self.tuning.qs_delta_margin <= alpha;
                if !self.see(m, i32::from(futile)) {
                    continue;
                }
                limited = self.tuning.qs_capture_limit > 0 && i >= self.tuning.qs_capture_limit as usize;
            }
            self.make(m, ply);
            if limited && !self.pos.in_check_by_rules() {
                // Past the first few captures only those that check are still worth a look.
                self.unmake();
                continue;
            }
            let score = -self.quiescence(-beta, -alpha, ply + 1, qply + 1);
            self.unmake();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta { Bound::Lower } else { Bound::Upper };
        if !self.settings.ablation.tt {
            let eval = if in_check { 0 } else { raw_eval };
            let pv = tt.is_some_and(|e| e.pv);
            self.shared.tt.store(key, best_move, to_tt(best, ply), eval, 0, bound, pv);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::super::threads::search;
    use super::super::{Limits, Settings, Shared, Silent};
    use crate::board::{Position, Rules};
    use crate::eval::evaluator::Evaluator;
    use crate::eval::nnue::random_network;
    use std::sync::Arc;

    /// Searches with a net, each evaluation checked against a full refresh (see `Worker::evaluate`), from
    /// positions where passes, null moves, captures and general moves across buckets all occur.
    #[test]
    fn accumulators_follow_the_search_exactly() {
        let settings = Settings { evaluator: Evaluator::Nnue(Arc::new(random_network(9))), ..Settings::default() };
        let fens = [
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
            "1b1a1a1br/4k4/4cn1c1/1pp1pp3/2n6/1C1r5/PP1BP1P1P/3NC3N/4K4/R2A1AB1R b - - 10 13",
            "9/4ka3/4a2P1/9/5N3/9/PP7/9/3AA4/3K5 b - - 2 71",
            "4k4/9/4a4/9/9/9/9/9/3K5/R7r b - - 0 1",
        ];
        for (i, fen) in fens.iter().enumerate() {
            let rules = Rules::ALL[i % Rules::ALL.len()];
            let pos = Position::from_fen(fen, rules).unwrap();
            let shared = Shared::new(4);
            let limits = Limits { depth: Some(6), ..Limits::default() };
            shared.ready(&limits);
            let outcome = search(&pos, &limits, &settings, &shared, &Silent);
            assert!(pos.is_legal(outcome.best.unwrap()), "{fen}");
        }
    }
}

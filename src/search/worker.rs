//! One search thread: iterative deepening, aspiration windows, principal-variation search with pruning and
//! reductions, and quiescence. Game ends are scored by the position's rule set.

use super::history::{CaptureKey, Context, CorrectionKeys, History, NO_PIECE_TO, PieceTo, capture_key};
use super::params::*;
use super::see::see_ge_pinned;
use super::time::{TimeManager, effort_scale};
use super::tt::{Bound, Entry};
use super::{LastSearch, Limits, Listener, Report, ScoreBound, Settings, Shared, end_score};
use crate::board::moves::MAX_MOVES;
use crate::board::rules::Bikjang;
use crate::board::{Color, EndView, Move, MoveList, PieceKind, Position};
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
    /// The move left out at each ply while testing whether the hash move is singular.
    excluded: [Move; MAX_PLY + 2],
    /// Where in its node's order the move being searched at each ply came (1 for the first).
    move_numbers: [u16; MAX_PLY + 2],
    /// Each ply's lists of the quiet moves and captures tried, kept from node to node so that a node does not
    /// allocate them (a node takes its ply's lists and gives them back when done).
    quiets_tried: Vec<Vec<(Move, PieceTo)>>,
    captures_tried: Vec<Vec<CaptureKey>>,
    root_moves: Vec<RootMove>,
    /// How often a root move other than the first became best in this iteration (re-searches included).
    root_changes: u32,
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
            excluded: [Move::NONE; MAX_PLY + 2],
            move_numbers: [0; MAX_PLY + 2],
            quiets_tried: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            captures_tried: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(32)).collect(),
            root_moves: Vec::new(),
            root_changes: 0,
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
        self.history.new_search(self.tuning.cont_history_limit);
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
        // The time model of `tm_model` 1: what the last search left, and this search's record of its iterations.
        // Only the main thread manages the time.
        let model1 = self.tuning.tm_model == 1 && self.is_main();
        let previous = if model1 { self.shared.last_search() } else { LastSearch::default() };
        let mut iteration_scores = [previous.score.unwrap_or(0); 4];
        let mut iteration_index = 0;
        let mut best_since = 0;
        let mut stability = 1.0;
        // Iterations that searched the depth of the one before again (`tm_search_again_pct`): the depth an
        // iteration searches is its number less these.
        let mut repeats = 0;
        let mut deepen = true;
        for iteration in 1..=max_depth as i32 {
            repeats += i32::from(!deepen);
            let depth = iteration - repeats;
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
                // score may still be below the last completed iteration's (the last best's score fell).
                let first = &self.root_moves[0];
                if first.mv != last_best && first.score > -INFINITE {
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
            best_changes *= 0.5;
            if self.tuning.tm_count_root_changes != 0 || model1 {
                best_changes += f64::from(self.root_changes);
            } else if best != last_best && !last_best.is_none() {
                best_changes += 1.0;
            }
            if best != last_best {
                best_since = depth;
            }
            let model1_factor = model1.then(|| {
                let falling = match previous.score {
                    // The first search of a game: as Fairy-Stockfish's, whose last score starts at infinity.
                    None => TM1_FALL_RANGE.1,
                    Some(before) => ((TM1_FALL_BASE
                        + TM1_FALL_PER_CP * f64::from(before - score)
                        + TM1_FALL_PER_CP * f64::from(iteration_scores[iteration_index] - score))
                        / TM1_FALL_DIVISOR)
                        .clamp(TM1_FALL_RANGE.0, TM1_FALL_RANGE.1),
                };
                stability =
                    if best_since + TM1_STABLE_DEPTHS < depth { TM1_STABLE_FACTOR } else { TM1_UNSTABLE_FACTOR };
                let reduction = (TM1_REDUCTION_BASE + previous.stability_factor) / (TM1_REDUCTION_DIVISOR * stability);
                let instability = TM1_INSTABILITY_BASE
                    + (TM1_INSTABILITY_HIGH - TM1_INSTABILITY_DEPTH / f64::from(depth)).max(1.0) * best_changes;
                iteration_scores[iteration_index] = score;
                iteration_index = (iteration_index + 1) % iteration_scores.len();
                falling * reduction * instability
            });
            if self.is_main() && self.iteration_says_stop(depth, score, last_score, best_changes, model1_factor) {
                break;
            }
            deepen = !self.is_main() || !self.search_again(score, last_score, best_changes, model1_factor);
            last_best = best;
            last_score = score;
            if self.stopped {
                break;
            }
        }
        if model1 {
            self.shared.remember_search(LastSearch { score: Some(self.result.score), stability_factor: stability });
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
    fn iteration_says_stop(
        &mut self,
        depth: i32,
        score: i32,
        last_score: i32,
        best_changes: f64,
        model1_factor: Option<f64>,
    ) -> bool {
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
        if let Some(factor) = model1_factor {
            if depth > 1 && self.clock.past(factor) {
                self.shared.stop.store(true, Ordering::Relaxed);
                return true;
            }
            return false;
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

    /// Whether the next iteration searches the last one's depth again instead of a deeper one: on the engine's
    /// own clock, once `tm_search_again_pct` of the time the stop test allows is spent, a deeper iteration would
    /// likely be cut off unfinished, and the same depth again, its tree mostly in the hash table, still improves
    /// the move and its score (0: always deeper).
    fn search_again(&self, score: i32, last_score: i32, best_changes: f64, model1_factor: Option<f64>) -> bool {
        let pct = self.tuning.tm_search_again_pct;
        if pct == 0 || !self.clock.is_managed() || self.limits.infinite || self.shared.pondering.load(Ordering::SeqCst)
        {
            return false;
        }
        let part = f64::from(pct) / 100.0;
        match model1_factor {
            Some(factor) => self.clock.past(factor * part),
            None => {
                let (stretch, most) = self.soft_stretch(score, last_score, best_changes);
                self.clock.past_part_of_soft_limit(stretch, most, part)
            }
        }
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
        loop {
            let score = self.root_search(depth, alpha, beta, line);
            if self.stopped {
                return;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
                if self.is_main() && self.clock.elapsed().as_secs() >= 3 {
                    self.report_line(depth as u32, line, ScoreBound::Upper, listener);
                }
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
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
        self.order_root_moves(line);
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

    /// The moves one, two, four and six plies before `ply`.
    #[inline]
    fn context(&self, ply: usize) -> Context {
        let back = |n: usize| if ply >= n { self.played_piece_to[ply - n] } else { NO_PIECE_TO };
        [back(1), back(2), back(4), back(6)]
    }

    #[inline]
    fn make(&mut self, m: Move, ply: usize) {
        // The next position's entry is asked for before the move is made, so that memory works while it is.
        let key = self.pos.key_after(m);
        if !self.settings.ablation.tt {
            self.shared.tt.prefetch(marked_after_pass(key, m.is_pass()));
        }
        self.played_piece_to[ply] = self.piece_to(m);
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
        // On a principal variation now or when last searched: such nodes decide the result and are reduced less.
        let tt_pv = pv_node || tt.is_some_and(|e| e.pv);
        if let Some(e) = tt
            && !pv_node
            && !singular_search
            && e.depth >= depth
            && let Some(score) = tt_cutoff(&e, ply, alpha, beta)
        {
            return score;
        }

        let side = self.pos.side_to_move();
        let correction_keys = CorrectionKeys::of(&self.pos);
        let raw_eval = if in_check {
            -INFINITE
        } else if let Some(e) = tt {
            e.eval
        } else {
            let raw = self.evaluate();
            // Kept at once, so that a node cut by the pruning below (which stores nothing) is not evaluated again
            // when the next iteration comes back to it.
            if !ablation.tt {
                self.shared.tt.store(key, Move::NONE, 0, raw, TT_EVAL_DEPTH, Bound::None, tt_pv);
            }
            raw
        };
        let static_eval = self.corrected(raw_eval, correction_keys);
        self.evals[ply] = static_eval;
        let improving = !in_check && self.improving(ply, static_eval);
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
                && static_eval >= beta - self.tuning.nmp_static_margin - self.tuning.nmp_static_per_depth * depth
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
        if tt_move.is_none() && depth >= self.tuning.iir_min_depth && pv_node {
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
            } else if singular_beta >= beta {
                // Several moves beat beta: cut at once.
                return singular_beta;
            } else if from_tt(e.score, ply) >= beta {
                // Another move nearly matches the hash move, which is expected to beat beta: search it less.
                singular_extension = -1;
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
            // The move's history, looked up only where a decision needs it.
            let mut history = None;

            // In check, evasions are pruned and reduced as other moves are (except by futility: there is no static
            // evaluation to judge them by).
            if prune && ply > 0 && best > -MATE_BOUND && !must_break {
                // The depth this move would be searched to after its late-move reduction.
                let lmr_depth = depth - 1 - self.reductions[depth.min(63) as usize][i.min(63)];
                if quiet {
                    let pruned = 'quiet_pruning: {
                        // Late move pruning.
                        let late = i as i32 >= self.tuning.lmp_base + depth * depth / if improving { 1 } else { 2 };
                        if depth <= self.tuning.lmp_max_depth && late {
                            break 'quiet_pruning true;
                        }
                        // Futility pruning.
                        let futility_depth = lmr_depth.max(0);
                        // (Never against a mate score: no static evaluation reaches it, and the move may be the
                        // quicker mate the search is looking for.)
                        if futility_depth <= self.tuning.futility_max_depth
                            && !in_check
                            && alpha.abs() < MATE_BOUND
                            && static_eval + self.tuning.futility_base + self.tuning.futility_per_depth * futility_depth
                                <= alpha
                            && !killer
                        {
                            break 'quiet_pruning true;
                        }
                        let to = self.piece_to(m);
                        // History pruning: quiet moves that keep failing here are not worth a look at low depth.
                        if depth <= self.tuning.history_prune_depth && !killer {
                            let h = self.quiet_history(side, m, to, context);
                            history = Some(h);
                            if h < -self.tuning.history_prune_margin * depth {
                                break 'quiet_pruning true;
                            }
                        }
                        // Continuation-history pruning: a quiet move that has done badly after both of the last
                        // two moves, where it would be searched shallow anyway.
                        if self.tuning.conthist_prune_depth > 0
                            && !killer
                            && lmr_depth < self.tuning.conthist_prune_depth
                            && self.history.failed_after_both(context, to)
                        {
                            break 'quiet_pruning true;
                        }
                        false
                    };
                    if pruned {
                        continue;
                    }
                }
                // Capture-history pruning: a capture that has kept failing to cut off, where its reduced search
                // would reach no depth at all.
                if let Some(key) = capture
                    && i > 0
                    && lmr_depth < 1
                    && self.history.capture(key) < 0
                {
                    continue;
                }
                // Exchange pruning of losing moves at low depth.
                let linear = !quiet && self.tuning.see_capture_linear > 0;
                let margin = if quiet {
                    self.tuning.see_quiet_margin * depth
                } else if linear {
                    -self.tuning.see_capture_linear * depth
                } else {
                    self.tuning.see_capture_margin * depth * depth
                };
                if (depth <= 6 || linear) && !m.is_pass() && i > 0 && !self.see(m, margin) {
                    continue;
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
            let mut score;
            if i == 0 {
                score = -self.negamax(new_depth, -beta, -alpha, ply + 1, !pv_node && !cut, pv_node);
            } else {
                let mut r = 0;
                // Captures on principal variations (now or before) keep their depth, except at expected cutoffs.
                let reducible = quiet || ((!tt_pv || cut) && self.tuning.lmr_capture_pct > 0);
                if !ablation.lmr && depth >= self.tuning.lmr_min_depth && i > pv_node as usize && reducible {
                    r = self.reductions[depth.min(63) as usize][i.min(63)];
                    if let Some(key) = capture {
                        // Late captures are the ones that lose material or history found wanting.
                        r = r * self.tuning.lmr_capture_pct / 100 + i32::from(cut) - i32::from(gives_check);
                        r -= self.history.capture(key) / self.tuning.lmr_history_divisor;
                    } else {
                        r -= self.tuning.lmr_pv_less * i32::from(pv_node);
                        r += i32::from(!improving) + i32::from(cut) + i32::from(tt_capture);
                        let ttpv_less = tt_pv && !likely_fail_low;
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
                    }
                    // While the root's best move holds, nodes off the principal variation matter less.
                    if !pv_node && self.root_changes <= 2 {
                        r += 1;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.negamax(new_depth - r, -alpha - 1, -alpha, ply + 1, true, false);
                if score > alpha && r > 0 {
                    score = -self.negamax(new_depth, -alpha - 1, -alpha, ply + 1, !cut, false);
                }
                if pv_node && score > alpha && score < beta {
                    score = -self.negamax(new_depth, -beta, -alpha, ply + 1, false, true);
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
                        }
                        self.history.reward_captures(capture, &captures_tried, bonus);
                        break;
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
        self.quiets_tried[ply] = quiets_tried;
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

    /// Whether the exchange started by `m` gains at least `threshold` (by `SEE_VALUE`, pinned capturers left out).
    #[inline]
    pub(super) fn see(&self, m: Move, threshold: i32) -> bool {
        see_ge_pinned(&self.pos, m, threshold, &SEE_VALUE, true)
    }

    /// The butterfly and continuation history of a quiet move, named by its piece-to (taken before the move is
    /// made, or from `played_piece_to` after).
    #[inline]
    fn quiet_history(&self, side: Color, m: Move, piece_to: PieceTo, context: Context) -> i32 {
        self.history.score(side, m) + self.history.continuation(context, piece_to)
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

    /// The static evaluation corrected by what searches learnt about this position's structures.
    #[inline]
    fn corrected(&self, raw: i32, keys: CorrectionKeys) -> i32 {
        if raw == -INFINITE {
            return raw;
        }
        let side = self.pos.side_to_move();
        let correction = self.history.correction(side, keys) * self.tuning.correction_weight_pct / 100;
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
        let mut stand_pat = self.corrected(raw_eval, CorrectionKeys::of(&self.pos));
        if let Some(e) = tt.filter(|_| !in_check) {
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
            if !in_check && tt.is_none() && !self.settings.ablation.tt {
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
            if !in_check {
                let victim = self.pos.piece_at(m.to()).map_or(0, |p| SEE_VALUE[p.kind().index()]);
                if stand_pat + victim + self.tuning.qs_delta_margin < alpha {
                    continue;
                }
                let futile = stand_pat + self.tuning.qs_delta_margin <= alpha;
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
    use super::super::{Limits, Settings, Shared, Silent, search};
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

//! One search thread: iterative deepening, aspiration windows and the root's moves; the node search is in the
//! modules below (`negamax` and its steps, `quiescence`, `movepick`). Game ends are scored by the position's rule
//! set.

use super::history::{CaptureKey, Context, History, NO_PIECE_TO, PieceTo};
use super::params::*;
use super::see::see_ge_pinned;
use super::time::{TimeManager, effort_scale};
use super::tt::{Bound, Entry};
use super::{Limits, Listener, Report, ScoreBound, Settings, Shared, end_score};
use crate::board::{Color, EndView, Move, MoveList, PieceKind, Position};
use crate::eval::evaluator::ThreadEvaluator;
use std::sync::atomic::Ordering;

mod extensions;
mod learning;
mod movepick;
mod negamax;
mod node;
mod pruning;
mod quiescence;
mod reductions;
mod static_eval;

use movepick::MoveScores;

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
    /// This thread's evaluation, following the moves made and taken back (computed afresh from the root at the
    /// start of every search).
    evaluation: ThreadEvaluator,
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
            evaluation: settings.evaluator.for_thread(&settings.params, pos),
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
        self.evaluation.push(&self.pos);
        self.nodes += 1;
        self.unpublished += 1;
    }

    #[inline]
    fn unmake(&mut self) {
        self.pos.unmake_move();
        self.evaluation.pop();
    }

    /// Hands the move over (null-move pruning); `unmake_null` takes it back.
    fn make_null(&mut self, ply: usize) {
        self.played[ply] = Move::NONE;
        self.played_piece_to[ply] = NO_PIECE_TO;
        self.pos.make_null_move();
        self.evaluation.push(&self.pos);
    }

    fn unmake_null(&mut self) {
        self.pos.unmake_null_move();
        self.evaluation.pop();
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
        // The evaluation is not told: the same move is made again at once.
        self.pos.unmake_move();
        let safe = self.see(m, 0);
        self.pos.make_move(m);
        safe
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
}

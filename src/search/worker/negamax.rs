//! The search of one node, step by step: the hash table's verdict, the static evaluation, the pruning before the
//! moves, the singular test of the hash move, and the move loop, whose result is stored and taught to the
//! histories. `negamax` calls the steps in that order; each step may decide the node's score on its own
//! (`ControlFlow::Break`).

use super::movepick::{Deferred, MoveScores};
use super::node::{Candidate, MoveLoop, Node};
use super::static_eval::StaticEval;
use super::{Worker, tt_cutoff};
use crate::board::moves::MAX_MOVES;
use crate::board::rules::Bikjang;
use crate::board::{Move, MoveList};
use crate::search::history::{CaptureKey, PieceTo, capture_key};
use crate::search::params::*;
use crate::search::tt::Bound;
use std::ops::ControlFlow::{self, Break, Continue};

/// The moves a node has tried so far: the quiet ones (with their piece-to names) and the captures.
struct Tried {
    quiets: Vec<(Move, PieceTo)>,
    captures: Vec<CaptureKey>,
}

impl Worker<'_> {
    /// The score of the node at `ply` searched to `depth` within (`alpha`, `beta`); `cut` marks an expected cutoff.
    pub(super) fn negamax(&mut self, depth: i32, alpha: i32, beta: i32, ply: usize, cut: bool, pv_node: bool) -> i32 {
        self.pv_len[ply] = 0;
        if depth <= 0 {
            return self.quiescence(alpha, beta, ply, 0);
        }
        match self.search_node(depth, alpha, beta, ply, cut, pv_node) {
            Break(score) | Continue(score) => score,
        }
    }

    /// `negamax`'s steps, in order; the first to decide the node's score ends it.
    #[inline(always)]
    fn search_node(
        &mut self,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        cut: bool,
        pv_node: bool,
    ) -> ControlFlow<i32, i32> {
        self.ended_before_search(ply)?;
        // Mate distance pruning.
        let alpha = alpha.max(-(MATE - ply as i32));
        let beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return Break(alpha);
        }
        let mut node = self.probe_hash(depth, alpha, beta, ply, cut, pv_node)?;
        let eval = self.static_evaluation(&node);
        self.prune_before_moves(&node, &eval)?;
        self.reduce_without_hash_move(&mut node);
        let singular_extension = self.singular_extension(&node)?;
        self.search_moves(node, &eval, singular_extension)
    }

    /// What ends a node before any search: a stop, a game end, the ply limit.
    #[inline(always)]
    fn ended_before_search(&mut self, ply: usize) -> ControlFlow<i32> {
        self.check_stop();
        if self.stopped {
            return Break(0);
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(score) = self.terminal(ply) {
            return Break(score);
        }
        if ply >= MAX_PLY - 1 {
            return Break(self.evaluate());
        }
        Continue(())
    }

    /// Looks the node up in the hash table: a stored result deep enough to settle the window ends it (off the
    /// principal variation).
    #[inline(always)]
    fn probe_hash(
        &mut self,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        cut: bool,
        pv_node: bool,
    ) -> ControlFlow<i32, Node> {
        // Children reached without the move loop (null move, ProbCut) have no move number.
        self.move_numbers[ply] = 0;
        let in_check = self.pos.in_check_by_rules();
        let must_break = self.pos.generals_face() && self.pos.rules().bikjang != Bikjang::Ignored;
        let key = self.tt_key();
        let excluded = self.excluded[ply];
        let tt = if self.settings.ablation.tt { None } else { self.shared.tt.probe(key) };
        let tt_move = tt.map_or(Move::NONE, |e| e.mv);
        let tt_pv = pv_node || tt.is_some_and(|e| e.pv);
        let node =
            Node { depth, alpha, beta, ply, cut, pv_node, tt_pv, in_check, must_break, key, excluded, tt, tt_move };
        if let Some(e) = tt
            && !pv_node
            && !node.singular_search()
            && e.depth >= depth
            && let Some(score) = tt_cutoff(&e, ply, alpha, beta)
        {
            return Break(score);
        }
        Continue(node)
    }

    /// The move loop: a legal hash move first (before the others are generated), then the rest in order, each
    /// pruned, extended or reduced as it deserves; the result is stored and taught to the histories.
    #[inline(always)]
    fn search_moves(&mut self, mut node: Node, eval: &StaticEval, singular_extension: i32) -> ControlFlow<i32, i32> {
        let ply = node.ply;
        // A legal hash move is searched before the other moves are generated and ordered: where it cuts off,
        // as it mostly does, that work is saved.
        let tt_first = !node.singular_search() && self.pos.is_legal(node.tt_move);
        let mut moves = MoveList::new();
        let mut scores = MoveScores::new();
        let previous = if ply > 0 { self.played[ply - 1] } else { Move::NONE };
        let mut deferred = Deferred::NONE;
        if !tt_first {
            moves = self.pos.legal_moves();
            if moves.is_empty() {
                return Break(self.terminal_without_moves(ply));
            }
            if node.singular_search() {
                let excluded = node.excluded;
                moves.retain(|m| m != excluded);
                if moves.is_empty() {
                    return Break(node.alpha);
                }
            }
            deferred = self.order_lazily(&moves, node.tt_move, ply, previous, &mut scores);
        }
        let tt_move = node.tt_move;
        let ml = MoveLoop {
            side: self.pos.side_to_move(),
            context: self.context(ply),
            previous,
            singular_extension,
            tt_capture: !tt_move.is_none() && self.is_capture(tt_move),
            likely_fail_low: node.pv_node
                && !tt_move.is_none()
                && node.tt.is_some_and(|e| matches!(e.bound, Bound::Upper | Bound::Exact) && e.depth >= node.depth),
        };
        let original_alpha = node.alpha;
        let mut best = -INFINITE;
        let mut best_move = Move::NONE;
        let mut tried = Tried {
            quiets: std::mem::take(&mut self.quiets_tried[ply]),
            captures: std::mem::take(&mut self.captures_tried[ply]),
        };
        tried.quiets.clear();
        tried.captures.clear();
        let mut n = if tt_first { 1 } else { moves.len() };
        // Made on the first move pruned: which of the pruned moves could be a check, and so a mate.
        let mut check_filter = None;
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
            let mut c = Candidate {
                mv: m,
                index: i,
                capture: victim.map(|v| capture_key(self.piece_to(m), v.kind())),
                killer: self.history.killers[ply].contains(&m),
                history: None,
            };
            if self.prune_move(&node, eval, &ml, &mut c, best) && !self.mates_at_once(m, &mut check_filter) {
                continue;
            }
            let score = self.search_move(&node, eval, &ml, &c)?;
            match c.capture {
                None => tried.quiets.push((m, self.played_piece_to[ply])),
                Some(key) => tried.captures.push(key),
            }
            if score > best {
                best = score;
                best_move = m;
                if score > node.alpha {
                    node.alpha = score;
                    if node.pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= node.beta {
                        self.reward_cutoff(&node, &ml, &c, &tried.quiets, &tried.captures);
                        break;
                    }
                }
            }
        }
        self.captures_tried[ply] = tried.captures;
        self.quiets_tried[ply] = tried.quiets;
        if best == -INFINITE {
            // Every move was pruned: fall back on the static evaluation.
            return Continue(node.alpha);
        }
        let bound = if best >= node.beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if !self.settings.ablation.tt && !node.singular_search() {
            self.shared.tt.store(node.key, best_move, super::to_tt(best, ply), eval.raw, node.depth, bound, node.tt_pv);
        }
        self.learn_correction(&node, eval, best, best_move, bound);
        Continue(best)
    }
}

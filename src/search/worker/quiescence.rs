//! Quiescence search: at the leaves of the main search, captures (and every evasion in check) are searched until
//! the position is quiet, so that no leaf is scored in the middle of an exchange.

use super::movepick::MoveScores;
use super::{Worker, from_tt, to_tt, tt_cutoff};
use crate::board::Move;
use crate::board::rules::Bikjang;
use crate::search::history::CorrectionKeys;
use crate::search::params::*;
use crate::search::tt::Bound;

impl Worker<'_> {
    /// The quiescence search at `ply`, `qply` plies into it: captures (all evasions in check) until the position
    /// is quiet, the static evaluation standing for the side to move where no capture beats it.
    pub(super) fn quiescence(&mut self, mut alpha: i32, beta: i32, ply: usize, qply: i32) -> i32 {
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

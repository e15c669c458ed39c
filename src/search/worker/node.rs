//! The state the steps of the node search hand each other: the node (its window, its kind, the hash table's
//! entry), the move loop's record, and one move of the loop.

use crate::board::{Color, Move};
use crate::search::history::{CaptureKey, Context};
use crate::search::tt::Entry;

/// A node being searched: its window and kind, and what the hash table knows of it.
pub(super) struct Node {
    pub(super) depth: i32,
    pub(super) alpha: i32,
    pub(super) beta: i32,
    pub(super) ply: usize,
    /// An expected cutoff.
    pub(super) cut: bool,
    pub(super) pv_node: bool,
    /// On a principal variation now or when last searched: such nodes decide the result and are reduced less.
    pub(super) tt_pv: bool,
    pub(super) in_check: bool,
    /// The generals face each other where the rules make the side to move break it.
    pub(super) must_break: bool,
    pub(super) key: u64,
    /// The move left out while testing whether the hash move is singular (`Move::NONE` otherwise).
    pub(super) excluded: Move,
    pub(super) tt: Option<Entry>,
    pub(super) tt_move: Move,
}

impl Node {
    /// Whether this is the search without the hash move of the singular test.
    #[inline]
    pub(super) fn singular_search(&self) -> bool {
        !self.excluded.is_none()
    }
}

/// What the move loop knows of its node beyond `Node` and `StaticEval`.
pub(super) struct MoveLoop {
    pub(super) side: Color,
    /// The moves before this node, for continuation history.
    pub(super) context: Context,
    /// The move that led here.
    pub(super) previous: Move,
    /// The hash move's extension by the singular test: 1, 0 or -1.
    pub(super) singular_extension: i32,
    pub(super) tt_capture: bool,
    /// A principal-variation node whose hash entry, as deep as this search, bounds its value from above (an upper
    /// bound or an exact score).
    pub(super) likely_fail_low: bool,
}

/// One move of the loop, and what is known of it before it is searched.
pub(super) struct Candidate {
    pub(super) mv: Move,
    /// Its place in the node's order (0 for the first).
    pub(super) index: usize,
    pub(super) capture: Option<CaptureKey>,
    pub(super) killer: bool,
    /// Its quiet history, where a decision needed it (looked up once).
    pub(super) history: Option<i32>,
}

impl Candidate {
    #[inline]
    pub(super) fn quiet(&self) -> bool {
        self.capture.is_none()
    }
}

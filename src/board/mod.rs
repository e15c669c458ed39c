//! The rules of Janggi: points, bitboards, attack tables, the position, legal moves, FEN and the rule sets.
//! Nothing in here knows about search or protocols.

pub mod attacks;
pub mod bitboard;
pub mod check_filter;
pub mod fen;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod piece;
pub mod position;
pub mod replay;
pub mod rules;
pub mod setups;
pub mod splitmix;
pub mod square;
pub mod status;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use check_filter::CheckFilter;
pub use fen::FenError;
pub use moves::{Move, MoveList};
pub use piece::{Color, Piece, PieceKind};
pub use position::Position;
pub use replay::{BadMove, MoveError, SetupError};
pub use rules::Rules;
pub use setups::START_FEN;
pub use square::{Notation, Square};
pub use status::{EndView, GameEnd, Outcome, Reason};

//! The text the reference's `eval` prints for a net, character for character: the derived piece values on the
//! board, the table of every bucket's contributions and the `NNUE evaluation` line, so that the two engines'
//! outputs can be compared line by line.

use super::accumulator::Accumulator;
use super::arch::*;
use super::evaluate::{evaluate_pieces_white, trace_buckets};
use super::kernels::Kernel;
use super::network::Network;
use crate::board::square::{FILES, RANKS};
use crate::board::{Color, Piece, PieceKind, Position, Square};

/// The board drawing is laid out for the reference's widest board (12 files), padded with spaces.
const DRAWING_FILES: usize = 12;

/// Sign, then centipawns (internal units * 100 / 208, toward zero) in five characters.
fn cp_compact(v: i32) -> [u8; 5] {
    let mut b = [b' '; 5];
    b[0] = sign(v);
    let mut cp = (100 * v / PAWN_VALUE_EG).unsigned_abs();
    let digit = |n: u32| b'0'.wrapping_add(n as u8);
    if cp >= 10000 {
        b[1] = digit(cp / 10000);
        cp %= 10000;
        b[2] = digit(cp / 1000);
        cp %= 1000;
        b[3] = digit(cp / 100);
        b[4] = b' ';
    } else if cp >= 1000 {
        b[1] = digit(cp / 1000);
        cp %= 1000;
        b[2] = digit(cp / 100);
        cp %= 100;
        b[3] = b'.';
        b[4] = digit(cp / 10);
    } else {
        b[1] = digit(cp / 100);
        cp %= 100;
        b[2] = b'.';
        b[3] = digit(cp / 10);
        b[4] = digit(cp % 10);
    }
    b
}

/// Sign, then pawns with two decimals aligned on the dot, in seven characters.
fn cp_aligned(v: i32) -> String {
    let mut b = [b' '; 7];
    b[0] = sign(v);
    let cp = (100 * v / PAWN_VALUE_EG).unsigned_abs();
    let digit = |n: u32| b'0'.wrapping_add(n as u8);
    if cp >= 10000 {
        b[1] = digit(cp / 10000);
        b[2] = digit(cp % 10000 / 1000);
    } else if cp >= 1000 {
        b[2] = digit(cp / 1000);
    }
    b[3] = digit(cp % 1000 / 100);
    if cp < 1000 {
        b[3] = digit(cp / 100);
    }
    b[4] = b'.';
    b[5] = digit(cp % 100 / 10);
    b[6] = digit(cp % 10);
    String::from_utf8_lossy(&b).into_owned()
}

fn sign(v: i32) -> u8 {
    match v.signum() {
        -1 => b'-',
        1 => b'+',
        _ => b' ',
    }
}

/// Pawns with a sign and two decimals, as `to_cp` prints them.
fn pawns(v: i32) -> String {
    format!("{:+.2}", v as f64 / PAWN_VALUE_EG as f64)
}

/// The derived piece values: each piece but the generals taken off in turn, the change of the evaluation (from
/// Cho's side) written under it.
fn piece_values(net: &Network, kernel: Kernel, pos: &Position) -> String {
    let rows = 3 * RANKS as usize + 1;
    let width = 8 * DRAWING_FILES + 1;
    let mut board = vec![vec![b' '; width]; rows];
    let pieces: Vec<(Piece, Square)> =
        pos.occupied().into_iter().filter_map(|sq| pos.piece_at(sq).map(|p| (p, sq))).collect();
    let side = pos.side_to_move();
    let base = evaluate_pieces_white(net, kernel, &pieces, side);
    for file in 0..FILES {
        for rank in 0..RANKS {
            let sq = Square::from_coords(file as i32, rank as i32).expect("on the board");
            let x = file as usize * 8;
            let y = (RANKS - 1 - rank) as usize * 3;
            for i in 1..8 {
                board[y][x + i] = b'-';
                board[y + 3][x + i] = b'-';
            }
            for i in 1..3 {
                board[y + i][x] = b'|';
                board[y + i][x + 8] = b'|';
            }
            for (cy, cx) in [(y, x), (y, x + 8), (y + 3, x + 8), (y + 3, x)] {
                board[cy][cx] = b'+';
            }
            let Some(piece) = pos.piece_at(sq) else { continue };
            board[y + 1][x + 4] = piece.letter() as u8;
            if piece.kind() == PieceKind::General {
                continue;
            }
            let without: Vec<(Piece, Square)> = pieces.iter().copied().filter(|&(_, s)| s != sq).collect();
            let v = base - evaluate_pieces_white(net, kernel, &without, side);
            board[y + 2][x + 2..x + 7].copy_from_slice(&cp_compact(v));
        }
    }
    let mut out = String::from(" NNUE derived piece values:\n");
    for row in board {
        out.push_str(&String::from_utf8_lossy(&row));
        out.push('\n');
    }
    out
}

/// The bucket table.
fn bucket_table(net: &Network, kernel: Kernel, pos: &Position) -> String {
    let acc = Accumulator::refresh(net, kernel, pos);
    let side = pos.side_to_move();
    let t = trace_buckets(net, kernel, &acc, side, pos.occupied().count() as usize);
    let rule = "+------------+------------+------------+------------+\n";
    let mut out = format!(
        " NNUE network contributions ({} to move)\n{rule}|   Bucket   |  Material  | Positional |   Total    |\n\
         |            |   (PSQT)   |  (Layers)  |            |\n{rule}",
        if side == Color::Cho { "White" } else { "Black" }
    );
    for b in 0..BUCKETS {
        out.push_str(&format!(
            "|  {b}         |  {}   |  {}   |  {}   |",
            cp_aligned(t.psqt[b]),
            cp_aligned(t.positional[b]),
            cp_aligned(t.psqt[b] + t.positional[b])
        ));
        if b == t.used {
            out.push_str(" <-- this bucket is used");
        }
        out.push('\n');
    }
    out.push_str(rule);
    out
}

/// The net's part of the reference's `eval` output: piece values, a blank line, the bucket table, a blank line
/// and the `NNUE evaluation` line (from Cho's side).
pub fn eval_report(net: &Network, kernel: Kernel, pos: &Position) -> String {
    let acc = Accumulator::refresh(net, kernel, pos);
    let v = super::evaluate::evaluate(net, kernel, &acc, pos);
    let white = if pos.side_to_move() == Color::Cho { v } else { -v };
    format!(
        "{}\n{}\nNNUE evaluation        {} (white side)\n",
        piece_values(net, kernel, pos),
        bucket_table(net, kernel, pos),
        pawns(white)
    )
}

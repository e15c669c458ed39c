//! The training-data file: a 16-byte header, then fixed-size 32-byte records, one a position (see
//! `docs/datagen-format.md`, which this code follows; a change to either is a new `VERSION`).
//!
//! A record: bytes 0..12 are a little-endian 96-bit word whose bits 0..90 mark the occupied points (bit = square
//! index, a1 = 0, i10 = 89), bit 90 the side to move (1 = Han), bits 91..94 the rule set (its index in
//! `Rules::ALL`), bits 94..96 the result for the side to move (0 loss, 1 draw, 2 win); bytes 12..28 hold one
//! 4-bit piece code (`Piece::index`, 0..14) per occupied point in square order, low nibble first, unused nibbles 0;
//! bytes 28..30 the score (i16, centipawns, side to move's view); byte 30 the halfmove clock and byte 31 the
//! fullmove number, both saturating at 255.

use crate::board::fen::write_placement;
use crate::board::{Color, Piece, PieceKind, Position, Rules, Square};
use std::io::Read;

/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = *b"JANGGIDG";
/// The format's version (bytes 8..10 of the header, little-endian).
pub const VERSION: u16 = 1;
pub const HEADER_BYTES: usize = 16;
pub const RECORD_BYTES: usize = 32;

const POINTS: usize = 90;
const MAX_PIECES: usize = 32;
const SIDE_BIT: u32 = 90;
const RULES_SHIFT: u32 = 91;
const RESULT_SHIFT: u32 = 94;
const PIECE_CODES: usize = 14;

/// The game's result from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameResult {
    Loss = 0,
    Draw = 1,
    Win = 2,
}

impl GameResult {
    /// `-1`, `0` or `1`, as the text format writes it.
    pub fn signum(self) -> i32 {
        self as i32 - 1
    }

    pub fn from_signum(n: i32) -> Option<GameResult> {
        match n {
            -1 => Some(GameResult::Loss),
            0 => Some(GameResult::Draw),
            1 => Some(GameResult::Win),
            _ => None,
        }
    }

    /// The same result seen by the other side.
    pub fn flip(self) -> GameResult {
        match self {
            GameResult::Loss => GameResult::Win,
            GameResult::Draw => GameResult::Draw,
            GameResult::Win => GameResult::Loss,
        }
    }
}

/// A search score in centipawns from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Centipawns(pub i16);

/// One training position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The piece on each point (index = square index).
    pub board: [Option<Piece>; POINTS],
    pub side: Color,
    pub rules: Rules,
    pub score: Centipawns,
    pub result: GameResult,
    pub halfmove: u8,
    pub fullmove: u8,
}

fn saturate(n: u16) -> u8 {
    n.min(u16::from(u8::MAX)) as u8
}

fn rules_index(rules: Rules) -> usize {
    Rules::ALL.iter().position(|r| r.name == rules.name).expect("every rule set is in Rules::ALL")
}

fn piece_from_code(code: usize) -> Piece {
    let color = if code < 7 { Color::Cho } else { Color::Han };
    Piece::new(color, PieceKind::ALL[code % 7])
}

impl Record {
    /// The record of `pos` with its score and the game's result (both from the side to move's view).
    pub fn new(pos: &Position, score: Centipawns, result: GameResult) -> Record {
        let mut board = [None; POINTS];
        for sq in Square::all() {
            board[sq.index()] = pos.piece_at(sq);
        }
        Record {
            board,
            side: pos.side_to_move(),
            rules: pos.rules(),
            score,
            result,
            halfmove: saturate(pos.halfmove_clock()),
            fullmove: saturate(pos.fullmove_number()),
        }
    }

    pub fn piece_count(&self) -> usize {
        self.board.iter().flatten().count()
    }

    /// The score and result seen from Cho's side.
    pub fn for_cho(&self) -> (i32, GameResult) {
        match self.side {
            Color::Cho => (i32::from(self.score.0), self.result),
            Color::Han => (-i32::from(self.score.0), self.result.flip()),
        }
    }

    /// The same position seen in a mirror (files a..i reversed), with the same score and result: Janggi's board
    /// and rules are symmetric left to right, so the trainer may learn from both.
    pub fn mirrored(&self) -> Record {
        let mut board = [None; POINTS];
        for (i, p) in self.board.iter().enumerate() {
            let (rank, file) = (i / 9, i % 9);
            board[rank * 9 + 8 - file] = *p;
        }
        Record { board, ..self.clone() }
    }

    /// The position's FEN (six fields).
    pub fn fen(&self) -> String {
        let mut out = String::with_capacity(96);
        write_placement(&mut out, |file, rank| self.board[rank * 9 + file]);
        out.push_str(&format!(" {} - - {} {}", self.side.fen_char(), self.halfmove, self.fullmove));
        out
    }

    /// The position the record holds (its rules checked: one general each, in its palace, and so on).
    pub fn position(&self) -> Result<Position, String> {
        Position::from_fen(&self.fen(), self.rules).map_err(|e| format!("not a legal position: {e}"))
    }

    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut word: u128 = 0;
        let mut codes = [0u8; MAX_PIECES / 2];
        let mut n = 0;
        for (i, p) in self.board.iter().enumerate() {
            if let Some(p) = p {
                word |= 1 << i;
                codes[n / 2] |= (p.index() as u8) << (4 * (n % 2));
                n += 1;
            }
        }
        assert!(n <= MAX_PIECES, "a Janggi position has at most 32 pieces");
        word |= u128::from(self.side == Color::Han) << SIDE_BIT;
        word |= (rules_index(self.rules) as u128) << RULES_SHIFT;
        word |= (self.result as u128) << RESULT_SHIFT;
        let mut out = [0u8; RECORD_BYTES];
        out[..12].copy_from_slice(&word.to_le_bytes()[..12]);
        out[12..28].copy_from_slice(&codes);
        out[28..30].copy_from_slice(&self.score.0.to_le_bytes());
        out[30] = self.halfmove;
        out[31] = self.fullmove;
        out
    }

    /// Reads one record; anything a writer of this version could not have written is an error, and the
    /// position must be legal.
    pub fn from_bytes(bytes: &[u8; RECORD_BYTES]) -> Result<Record, String> {
        let mut wide = [0u8; 16];
        wide[..12].copy_from_slice(&bytes[..12]);
        let word = u128::from_le_bytes(wide);
        let occupied = word & ((1u128 << POINTS) - 1);
        let count = occupied.count_ones() as usize;
        if count > MAX_PIECES {
            return Err(format!("{count} occupied points (at most {MAX_PIECES})"));
        }
        let rules_id = (word >> RULES_SHIFT & 0b111) as usize;
        let rules = *Rules::ALL.get(rules_id).ok_or_else(|| format!("unknown rule set {rules_id}"))?;
        let result = match word >> RESULT_SHIFT & 0b11 {
            0 => GameResult::Loss,
            1 => GameResult::Draw,
            2 => GameResult::Win,
            other => return Err(format!("bad result code {other}")),
        };
        let side = if word >> SIDE_BIT & 1 == 1 { Color::Han } else { Color::Cho };
        let codes = &bytes[12..28];
        let nibble = |n: usize| usize::from(codes[n / 2] >> (4 * (n % 2)) & 0xF);
        let mut board = [None; POINTS];
        let mut n = 0;
        for (i, point) in board.iter_mut().enumerate() {
            if occupied >> i & 1 == 1 {
                let code = nibble(n);
                if code >= PIECE_CODES {
                    return Err(format!("bad piece code {code}"));
                }
                *point = Some(piece_from_code(code));
                n += 1;
            }
        }
        if (n..MAX_PIECES).any(|k| nibble(k) != 0) {
            return Err("piece codes past the last piece".into());
        }
        let record = Record {
            board,
            side,
            rules,
            score: Centipawns(i16::from_le_bytes([bytes[28], bytes[29]])),
            result,
            halfmove: bytes[30],
            fullmove: bytes[31],
        };
        if record.fullmove == 0 {
            return Err("fullmove number 0".into());
        }
        record.position()?;
        Ok(record)
    }
}

/// The file header: magic, version, record size, 4 reserved zero bytes.
pub fn header() -> [u8; HEADER_BYTES] {
    let mut h = [0u8; HEADER_BYTES];
    h[..8].copy_from_slice(&MAGIC);
    h[8..10].copy_from_slice(&VERSION.to_le_bytes());
    h[10..12].copy_from_slice(&(RECORD_BYTES as u16).to_le_bytes());
    h
}

fn check_header(h: &[u8]) -> Result<(), String> {
    if h.len() < HEADER_BYTES {
        return Err(format!("truncated header ({} of {HEADER_BYTES} bytes): not a datagen file", h.len()));
    }
    if h[..8] != MAGIC {
        return Err("not a datagen file (bad magic)".into());
    }
    let version = u16::from_le_bytes([h[8], h[9]]);
    if version != VERSION {
        return Err(format!("format version {version}, this program reads version {VERSION}"));
    }
    let size = u16::from_le_bytes([h[10], h[11]]);
    if usize::from(size) != RECORD_BYTES {
        return Err(format!("record size {size}, version {VERSION} has {RECORD_BYTES}"));
    }
    Ok(())
}

/// Reads records one by one from a datagen file; errors name the record (from 1) and stop the reading.
pub struct RecordReader<R: Read> {
    input: R,
    name: String,
    /// Records read so far.
    read: u64,
    failed: bool,
}

impl<R: Read> RecordReader<R> {
    /// Checks the header; `name` labels errors (a file name).
    pub fn new(mut input: R, name: &str) -> Result<RecordReader<R>, String> {
        let mut h = [0u8; HEADER_BYTES];
        let got = read_full(&mut input, &mut h).map_err(|e| format!("{name}: {e}"))?;
        check_header(&h[..got]).map_err(|e| format!("{name}: {e}"))?;
        Ok(RecordReader { input, name: name.to_string(), read: 0, failed: false })
    }
}

/// Reads until `buf` is full or the input ends; returns the bytes read.
fn read_full(input: &mut dyn Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match input.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

impl<R: Read> Iterator for RecordReader<R> {
    type Item = Result<Record, String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let mut buf = [0u8; RECORD_BYTES];
        let number = self.read + 1;
        let result = match read_full(&mut self.input, &mut buf) {
            Ok(0) => return None,
            Ok(n) if n < RECORD_BYTES => {
                Err(format!("{}: record {number} is truncated ({n} of {RECORD_BYTES} bytes)", self.name))
            }
            Ok(_) => Record::from_bytes(&buf).map_err(|e| format!("{}: record {number}: {e}", self.name)),
            Err(e) => Err(format!("{}: record {number}: {e}", self.name)),
        };
        self.read += 1;
        self.failed = result.is_err();
        Some(result)
    }
}

/// Opens a datagen file for reading.
pub fn open(path: &std::path::Path) -> Result<RecordReader<std::io::BufReader<std::fs::File>>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    RecordReader::new(std::io::BufReader::new(file), &path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::setups::all_setups;
    use proptest::prelude::*;

    #[test]
    fn a_record_round_trips_through_bytes_and_fen() {
        for (i, fen) in all_setups().iter().enumerate() {
            let rules = Rules::ALL[i % Rules::ALL.len()];
            let pos = Position::from_fen(fen, rules).unwrap();
            let r = Record::new(&pos, Centipawns(-1234 + i as i16), GameResult::Win);
            assert_eq!(r.fen(), pos.fen());
            let back = Record::from_bytes(&r.to_bytes()).unwrap();
            assert_eq!(back, r);
            assert_eq!(back.piece_count(), 32);
        }
    }

    /// A mirrored position is legal, has as many legal moves and the same classical evaluation, and mirroring
    /// twice gives the record back.
    #[test]
    fn a_mirrored_record_is_the_same_position_reflected() {
        let params = crate::eval::params::Params::default();
        for (i, fen) in all_setups().iter().enumerate() {
            let rules = Rules::ALL[i % Rules::ALL.len()];
            let mut pos = Position::from_fen(fen, rules).unwrap();
            for ply in 0..(i * 3) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves.as_slice()[(ply * 7 + i) % moves.len()];
                pos.make_move(m);
            }
            let r = Record::new(&pos, Centipawns(55), GameResult::Loss);
            let m = r.mirrored();
            assert_eq!(m.mirrored(), r);
            assert_eq!((m.score, m.result, m.side), (r.score, r.result, r.side));
            // Both read from their records: a game's history (a bikjang just made, say) is not in a record.
            let (pos, mp) = (r.position().unwrap(), m.position().unwrap());
            assert_eq!(mp.count_legal_moves(), pos.count_legal_moves(), "{}", r.fen());
            assert_eq!(crate::eval::evaluate(&mp, &params), crate::eval::evaluate(&pos, &params), "{}", r.fen());
        }
    }

    #[test]
    fn bad_headers_are_refused() {
        assert!(RecordReader::new(&b"JANGGI"[..], "x").err().unwrap().contains("truncated header"));
        assert!(RecordReader::new(&[0u8; 16][..], "x").err().unwrap().contains("magic"));
        let mut h = header();
        h[8] = 9;
        assert!(RecordReader::new(&h[..], "x").err().unwrap().contains("version 9"));
    }

    proptest! {
        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let mut data = header().to_vec();
            data.extend_from_slice(&bytes);
            let results: Vec<_> = RecordReader::new(&data[..], "x").unwrap().collect();
            // Whole records read or are refused; a tail shorter than a record is an error naming its number.
            if bytes.len() % RECORD_BYTES != 0 {
                let last = results.last().unwrap().as_ref().unwrap_err();
                prop_assert!(last.contains("record") , "{}", last);
            }
            let _ = RecordReader::new(&bytes[..], "y").map(|r| r.count());
        }

        #[test]
        fn random_records_either_decode_or_are_refused(bytes in proptest::array::uniform32(any::<u8>())) {
            if let Ok(r) = Record::from_bytes(&bytes) {
                prop_assert_eq!(r.to_bytes(), bytes);
            }
        }
    }
}

//! The trainer's state between epochs: float parameters, Adam's moments, the epoch, the update count and the
//! shuffling generator's state, so that `--resume` continues exactly where the run stopped.
//!
//! Layout (little-endian): magic `JANGGITR`, version u32, then the shape (rows, 512, 8, dense length as u32), the
//! epoch (u32), the number of training records (u64), Adam's step (u64), the generator's state (u64), and nine
//! f32 arrays: transformer, PSQT, dense parameters, then the m and v moments of each. The file must end there.

use super::adam::Moments;
use super::model::{DENSE_LEN, H, Model, ROWS};
use crate::eval::nnue::arch::BUCKETS;
use std::path::Path;

pub const MAGIC: [u8; 8] = *b"JANGGITR";
pub const VERSION: u32 = 1;
const HEADER_BYTES: usize = 8 + 4 + 4 * 4 + 4 + 8 + 8 + 8;
const FLOATS: usize = 3 * (ROWS * H + ROWS * BUCKETS + DENSE_LEN);
pub const FILE_BYTES: usize = HEADER_BYTES + 4 * FLOATS;

/// Everything a resumed run needs.
#[derive(Clone, PartialEq)]
pub struct Checkpoint {
    pub model: Model,
    pub ft: Moments,
    pub psqt: Moments,
    pub dense: Moments,
    /// Epochs finished.
    pub epoch: u32,
    /// Training records of the run (a resumed run must be given the same data).
    pub records: u64,
    /// Adam updates made.
    pub step: u64,
    /// The shuffling generator's state after `epoch`.
    pub rng: u64,
}

fn floats(out: &mut Vec<u8>, values: &[f32]) {
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

impl Checkpoint {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_BYTES);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        for n in [ROWS, H, BUCKETS, DENSE_LEN] {
            out.extend_from_slice(&(n as u32).to_le_bytes());
        }
        out.extend_from_slice(&self.epoch.to_le_bytes());
        out.extend_from_slice(&self.records.to_le_bytes());
        out.extend_from_slice(&self.step.to_le_bytes());
        out.extend_from_slice(&self.rng.to_le_bytes());
        for values in [&self.model.ft, &self.model.psqt, &self.model.dense] {
            floats(&mut out, values);
        }
        for m in [&self.ft, &self.psqt, &self.dense] {
            floats(&mut out, &m.m);
            floats(&mut out, &m.v);
        }
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, String> {
        if bytes.len() < HEADER_BYTES || bytes[..8] != MAGIC {
            return Err("not a janggi training checkpoint (bad magic or too short)".into());
        }
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let version = u32_at(8);
        if version != VERSION {
            return Err(format!("checkpoint version {version}, this program reads version {VERSION}"));
        }
        let shape: Vec<usize> = (0..4).map(|i| u32_at(12 + 4 * i) as usize).collect();
        if shape != [ROWS, H, BUCKETS, DENSE_LEN] {
            return Err(format!("checkpoint of another architecture (shape {shape:?})"));
        }
        if bytes.len() != FILE_BYTES {
            return Err(format!("checkpoint is {} bytes, expected {FILE_BYTES} (truncated or damaged)", bytes.len()));
        }
        let mut at = HEADER_BYTES;
        let mut take = |n: usize| {
            let v: Vec<f32> = bytes[at..at + 4 * n]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
                .collect();
            at += 4 * n;
            v
        };
        let model = Model { ft: take(ROWS * H), psqt: take(ROWS * BUCKETS), dense: take(DENSE_LEN) };
        let ft = Moments { m: take(ROWS * H), v: take(ROWS * H) };
        let psqt = Moments { m: take(ROWS * BUCKETS), v: take(ROWS * BUCKETS) };
        let dense = Moments { m: take(DENSE_LEN), v: take(DENSE_LEN) };
        if model.ft.iter().chain(&model.psqt).chain(&model.dense).any(|v| !v.is_finite()) {
            return Err("checkpoint holds non-finite parameters".into());
        }
        Ok(Checkpoint {
            model,
            ft,
            psqt,
            dense,
            epoch: u32_at(28),
            records: u64_at(32),
            step: u64_at(40),
            rng: u64_at(48),
        })
    }

    /// Writes to a temporary file then renames it, so that an interrupted write never replaces a good checkpoint.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let tmp = path.with_extension("bin.tmp");
        std::fs::write(&tmp, self.to_bytes()).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    pub fn load(path: &Path) -> Result<Checkpoint, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read checkpoint {}: {e}", path.display()))?;
        Checkpoint::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }
}

//! Training positions in memory: each datagen record turned once into its sparse input features (side to move's
//! perspective first), its layer-stack bucket and its two targets.

use crate::board::Position;
use crate::datagen::record::{self, GameResult, Record};
use crate::eval::nnue::features::{active_features, stack_index};
use crate::eval::nnue::search_value::material_factor;
use std::path::PathBuf;

/// One position: where its features start in `Dataset::features`, how many each perspective has, and its labels.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub offset: u32,
    /// Pieces on the board: the number of active features of each perspective.
    pub count: u8,
    /// Layer stack and PSQT bucket.
    pub bucket: u8,
    /// The search score, centipawns, side to move's view.
    pub score: i16,
    /// The game's result for the side to move: 0 loss, 1 draw, 2 win.
    pub result: u8,
    /// The search's material factor for this position (`search_value::material_factor`): the loss compares the
    /// target with the net's output times this, the value the search will use.
    pub value_scale: f32,
}

impl Sample {
    /// The result as a target: 0, 0.5 or 1.
    pub fn result_target(&self) -> f32 {
        f32::from(self.result) / 2.0
    }
}

/// Positions with their features stored contiguously (`u16` indices: the net has 10530 features).
#[derive(Default)]
pub struct Dataset {
    pub features: Vec<u16>,
    pub samples: Vec<Sample>,
}

/// The features of one sample, side to move's perspective first.
pub struct SampleFeatures<'a> {
    pub us: &'a [u16],
    pub them: &'a [u16],
    pub bucket: usize,
}

impl Dataset {
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    pub fn push(&mut self, pos: &Position, score: i16, result: GameResult) {
        let mut list = Vec::with_capacity(32);
        let offset = self.features.len() as u32;
        let side = pos.side_to_move();
        for perspective in [side, !side] {
            active_features(pos, perspective, &mut list);
            self.features.extend(list.iter().map(|f| f.0 as u16));
        }
        let count = list.len() as u8;
        let bucket = stack_index(count as usize) as u8;
        let value_scale = material_factor(pos);
        self.samples.push(Sample { offset, count, bucket, score, result: result as u8, value_scale });
    }

    pub fn view(&self, i: usize) -> SampleFeatures<'_> {
        let s = &self.samples[i];
        let (start, n) = (s.offset as usize, s.count as usize);
        SampleFeatures {
            us: &self.features[start..start + n],
            them: &self.features[start + n..start + 2 * n],
            bucket: s.bucket as usize,
        }
    }
}

/// Every record of the files, in file order; any error names the file (and the record).
pub fn load_records(files: &[PathBuf]) -> Result<Vec<Record>, String> {
    let mut records = Vec::new();
    for path in files {
        for r in record::open(path)? {
            records.push(r?);
        }
    }
    Ok(records)
}

/// The positions of records (in the order given), each followed by its mirror image when `mirror` is set.
pub fn dataset(records: &[&Record], mirror: bool) -> Result<Dataset, String> {
    let mut data = Dataset::default();
    for r in records {
        if mirror {
            check_room(&data)?;
            let pos = r.mirrored().position()?;
            data.push(&pos, r.score.0, r.result);
        }
        check_room(&data)?;
        let pos = r.position()?;
        data.push(&pos, r.score.0, r.result);
    }
    Ok(data)
}

/// Feature offsets are u32 (about 60 million positions); past that, train on a subset.
fn check_room(data: &Dataset) -> Result<(), String> {
    if data.features.len() > (u32::MAX - 2 * 32) as usize {
        return Err(format!("too many positions for one run (at most {} loaded)", data.len()));
    }
    Ok(())
}

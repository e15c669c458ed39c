//! The net's output as the search uses it (`docs/nnue-format.md`, "search-side scaling"): the PSQT and layer
//! parts weighted a little apart when the armies are balanced, scaled up with the material on the board, and
//! turned from the reference's internal units into our centipawns, for the side to move.

use super::arch::{OUTPUT_SCALE, PAWN_VALUE_EG};
use super::evaluate::RawOutput;
use crate::board::{Color, PieceKind, Position};

/// The reference's middlegame piece values (internal units) of the pieces its `non_pawn_material` counts,
/// indexed by `PieceKind::index`: Janggi's soldiers are not chess pawns, so they count; generals do not.
pub const MATERIAL_MG: [i32; 7] = [0, 400, 1276, 800, 520, 340, 200];

/// Weights of the PSQT and layer parts are 128 ∓ this when the two sides' material differs by at most
/// `BALANCED_MATERIAL` (the reference's bishop minus knight, 825 - 781).
pub const BALANCE_SHIFT: i32 = 7;
pub const BALANCED_MATERIAL: i32 = 44;
/// The weights' unit.
const WEIGHT_ONE: i32 = 128;

/// Scale = (`SCALE_BASE` + `SCALE_PER_MATERIAL` * material / 1024) / 1024: more material, larger scores.
pub const SCALE_BASE: i32 = 903;
pub const SCALE_PER_MATERIAL: i32 = 32;
const SCALE_ONE: i32 = 1024;

/// One side's material as the reference counts it for the scaling.
pub fn material(pos: &Position, side: Color) -> i32 {
    PieceKind::ALL.iter().map(|&k| MATERIAL_MG[k.index()] * pos.piece_count(side, k) as i32).sum()
}

/// The material factor of the scaling, in 1/`SCALE_ONE`, for both sides' material together.
pub fn material_scale(total_material: i32) -> i32 {
    SCALE_BASE + SCALE_PER_MATERIAL * total_material / SCALE_ONE
}

/// The material factor of a position as a fraction: what the search multiplies the net's output by (before the
/// small PSQT/layer reweighting), so a trainer can fit the value the search will see.
pub fn material_factor(pos: &Position) -> f32 {
    material_scale(material(pos, Color::Cho) + material(pos, Color::Han)) as f32 / SCALE_ONE as f32
}

/// The evaluation the search uses, in centipawns for the side to move.
pub fn search_value(raw: RawOutput, pos: &Position) -> i32 {
    let (cho, han) = (material(pos, Color::Cho), material(pos, Color::Han));
    let shift = if (cho - han).abs() <= BALANCED_MATERIAL { BALANCE_SHIFT } else { 0 };
    // In i64: a net with large weights must not overflow before the search clamps the score.
    let weighted = ((WEIGHT_ONE - shift) as i64 * raw.psqt as i64
        + (WEIGHT_ONE + shift) as i64 * raw.positional as i64)
        / WEIGHT_ONE as i64;
    let internal = weighted / OUTPUT_SCALE as i64;
    let scaled = internal * material_scale(cho + han) as i64 / SCALE_ONE as i64;
    (scaled * 100 / PAWN_VALUE_EG as i64).clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

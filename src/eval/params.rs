//! Every evaluation weight, in one flat table of middlegame/endgame pairs so that the tuner can treat the
//! evaluation as a linear function of it. Each term has a named range of indices; `TERMS` lists them.

use super::tapered::S;

/// Folded piece-square index: files mirror (a=i, b=h, ...), ranks count from the owner's side.
pub const PST_SIZE: usize = 50;
pub const MOB_CHARIOT: usize = 22;
pub const MOB_CANNON: usize = 19;
pub const MOB_HORSE: usize = 9;
pub const MOB_ELEPHANT: usize = 9;

/// Start of each term in the table.
pub const MATERIAL: usize = 0;
pub const PST: usize = MATERIAL + 7;
pub const MOBILITY_CHARIOT: usize = PST + 7 * PST_SIZE;
pub const MOBILITY_CANNON: usize = MOBILITY_CHARIOT + MOB_CHARIOT;
pub const MOBILITY_HORSE: usize = MOBILITY_CANNON + MOB_CANNON;
pub const MOBILITY_ELEPHANT: usize = MOBILITY_HORSE + MOB_HORSE;
/// Per piece kind: a piece attacking at least one point of the enemy palace.
pub const PALACE_ATTACKER: usize = MOBILITY_ELEPHANT + MOB_ELEPHANT;
/// Per attacked point of the enemy palace, by number of attackers (1, 2, 3+).
pub const PALACE_PRESSURE: usize = PALACE_ATTACKER + 7;
/// The general's file has no piece of its own side in front of it.
pub const GENERAL_FILE_OPEN: usize = PALACE_PRESSURE + 3;
/// Per guard still beside the general (adjacent inside the palace).
pub const GUARD_SHIELD: usize = GENERAL_FILE_OPEN + 1;
/// A cannon with no piece to jump over in any direction.
pub const CANNON_NO_SCREEN: usize = GUARD_SHIELD + 1;
/// Per blocked first step of a horse.
pub const HORSE_BLOCKED_LEG: usize = CANNON_NO_SCREEN + 1;
/// Per blocked path of an elephant.
pub const ELEPHANT_BLOCKED_PATH: usize = HORSE_BLOCKED_LEG + 1;
/// A chariot on a file without soldiers of its own side.
pub const CHARIOT_OPEN_FILE: usize = ELEPHANT_BLOCKED_PATH + 1;
/// A soldier with a soldier of its side beside it.
pub const SOLDIER_CONNECTED: usize = CHARIOT_OPEN_FILE + 1;
/// Per piece kind: a piece attacked by the enemy and defended by nothing.
pub const HANGING: usize = SOLDIER_CONNECTED + 1;
/// Per piece kind: a piece attacked by an enemy piece of lower value.
pub const THREAT_BY_LESSER: usize = HANGING + 7;
/// Having the move.
pub const TEMPO: usize = THREAT_BY_LESSER + 7;
pub const NUM_PARAMS: usize = TEMPO + 1;

/// Name, start and length of every term, for the tuner's output and the `eval` command.
pub const TERMS: [(&str, usize, usize); 19] = [
    ("material", MATERIAL, 7),
    ("pst", PST, 7 * PST_SIZE),
    ("mobility_chariot", MOBILITY_CHARIOT, MOB_CHARIOT),
    ("mobility_cannon", MOBILITY_CANNON, MOB_CANNON),
    ("mobility_horse", MOBILITY_HORSE, MOB_HORSE),
    ("mobility_elephant", MOBILITY_ELEPHANT, MOB_ELEPHANT),
    ("palace_attacker", PALACE_ATTACKER, 7),
    ("palace_pressure", PALACE_PRESSURE, 3),
    ("general_file_open", GENERAL_FILE_OPEN, 1),
    ("guard_shield", GUARD_SHIELD, 1),
    ("cannon_no_screen", CANNON_NO_SCREEN, 1),
    ("horse_blocked_leg", HORSE_BLOCKED_LEG, 1),
    ("elephant_blocked_path", ELEPHANT_BLOCKED_PATH, 1),
    ("chariot_open_file", CHARIOT_OPEN_FILE, 1),
    ("soldier_connected", SOLDIER_CONNECTED, 1),
    ("hanging", HANGING, 7),
    ("threat_by_lesser", THREAT_BY_LESSER, 7),
    ("tempo", TEMPO, 1),
    ("end", NUM_PARAMS, 0),
];

/// Phase weight of each piece kind (general, guard, chariot, cannon, horse, elephant, soldier).
pub const PHASE_WEIGHT: [i32; 7] = [0, 0, 4, 2, 2, 1, 0];
/// Piece values that decide which attacker is "lesser" for threats.
pub const THREAT_RANK: [i32; 7] = [100, 2, 6, 5, 4, 3, 1];
/// The phase of the full armies.
pub const MAX_PHASE: i32 = 36;

/// The weights in use.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    pub w: Vec<S>,
}

impl Default for Params {
    fn default() -> Self {
        Params { w: super::weights::WEIGHTS.to_vec() }
    }
}

impl Params {
    /// The term a table index belongs to and the offset inside it.
    pub fn term_of(index: usize) -> (&'static str, usize) {
        for (name, start, len) in TERMS {
            if index >= start && index < start + len {
                return (name, index - start);
            }
        }
        ("?", index)
    }
}

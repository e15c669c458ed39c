//! The transposition table shared by all search threads.
//!
//! Lock-free: an entry is two 64-bit words, the data and the key XOR the data. A reader accepts an entry only if
//! the two words still agree with its key, so an entry torn by two threads writing at once reads as a miss.
//! Four entries make a 64-byte bucket; replacement prefers stale and shallow entries.

use crate::board::Move;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact = 0,
    Lower = 1,
    Upper = 2,
    /// No score: the entry keeps only the static evaluation (and a move, if any), stored where the node was
    /// evaluated but ended before its search stored anything.
    None = 3,
}

/// What a probe finds.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub mv: Move,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
    /// Whether the position was on a principal variation when stored, or stored from one that had been.
    pub pv: bool,
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

const BUCKET: usize = 4;
/// Depths are stored offset so that quiescence depths (down to -DEPTH_OFFSET) fit in a byte.
const DEPTH_OFFSET: i32 = 8;

pub struct TranspositionTable {
    slots: Box<[Slot]>,
    buckets: usize,
    age: AtomicU8,
}

/// Searches are counted modulo this (the age field's width).
const AGE_MASK: u8 = 0x1F;

/// Where the age sits in an entry's data word.
const AGE_SHIFT: u32 = 58;

/// Bits: move 0–15, score 16–31, evaluation 32–47, depth 48–55, bound 56–57, age 58–62, principal variation 63.
fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, pv: bool, age: u8) -> u64 {
    (mv.bits() as u64)
        | (score as i16 as u16 as u64) << 16
        | (eval as i16 as u16 as u64) << 32
        | ((depth + DEPTH_OFFSET).clamp(0, 255) as u64) << 48
        | (bound as u64) << 56
        | ((age & AGE_MASK) as u64) << AGE_SHIFT
        | (pv as u64) << 63
}

fn unpack(data: u64) -> (Entry, u8) {
    let entry = Entry {
        mv: Move::from_bits(data as u16),
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 0xFF) as i32 - DEPTH_OFFSET,
        bound: match (data >> 56) & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            2 => Bound::Upper,
            _ => Bound::None,
        },
        pv: data >> 63 != 0,
    };
    (entry, ((data >> AGE_SHIFT) as u8) & AGE_MASK)
}

impl TranspositionTable {
    /// A table of about `megabytes`; panics only if even that cannot be allocated (see `try_new`).
    pub fn new(megabytes: usize) -> TranspositionTable {
        TranspositionTable::try_new(megabytes).expect("memory for the transposition table")
    }

    /// A table of about `megabytes`, or an error if the memory cannot be had. The memory comes zeroed from the
    /// allocator, so pages are only committed as entries are written.
    pub fn try_new(megabytes: usize) -> Result<TranspositionTable, String> {
        // More than the address space holds (a 32-bit WebAssembly build) is refused as memory not available.
        let refused = || format!("cannot allocate {megabytes} MB for the hash table");
        let bytes = megabytes.max(1).checked_mul(1 << 20).ok_or_else(refused)?;
        let buckets = (bytes / (BUCKET * std::mem::size_of::<Slot>())).max(1);
        let count = buckets * BUCKET;
        let layout = std::alloc::Layout::array::<Slot>(count).map_err(|_| refused())?;
        // SAFETY: `Slot` is two `AtomicU64`s, for which all-zero bytes are a valid value (0), so zeroed memory of
        // `count` slots is `count` initialised slots; the pointer comes from the global allocator with the layout
        // of `[Slot; count]`, which is what `Box<[Slot]>` frees it with.
        let slots = unsafe {
            let ptr = std::alloc::alloc_zeroed(layout) as *mut Slot;
            if ptr.is_null() {
                return Err(refused());
            }
            Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, count))
        };
        Ok(TranspositionTable { slots, buckets, age: AtomicU8::new(0) })
    }

    /// Size in megabytes.
    pub fn megabytes(&self) -> usize {
        (self.slots.len() * std::mem::size_of::<Slot>()) >> 20
    }

    pub fn clear(&self) {
        for slot in &self.slots {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        let age = self.age.load(Ordering::Relaxed);
        self.age.store(age.wrapping_add(1) & AGE_MASK, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &[Slot] {
        let index = ((key as u128 * self.buckets as u128) >> 64) as usize;
        &self.slots[index * BUCKET..index * BUCKET + BUCKET]
    }

    /// Asks the processor to start loading the bucket of `key`, so that the probe after the move is made does
    /// not wait for memory.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let ptr = self.bucket(key).as_ptr() as *const i8;
            // SAFETY: a prefetch is only a hint: it reads nothing architecturally and cannot fault, and `ptr`
            // points into our own live allocation anyway.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(ptr) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        for slot in self.bucket(key) {
            let data = slot.data.load(Ordering::Relaxed);
            if slot.check.load(Ordering::Relaxed) ^ data == key && data != 0 {
                let (entry, _) = unpack(data);
                return Some(entry);
            }
        }
        None
    }

    #[allow(clippy::too_many_arguments)]
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, pv: bool) {
        let age = self.age.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if data == 0 || check ^ data == key {
                // Same position: keep the old move if the new search found none, and keep deeper exact results.
                let (old, _) = unpack(data);
                if data != 0 && bound != Bound::Exact && old.depth > depth + 2 && check ^ data == key {
                    return;
                }
                let mv = if mv.is_none() && data != 0 { old.mv } else { mv };
                let new = pack(mv, score, eval, depth, bound, pv, age);
                slot.data.store(new, Ordering::Relaxed);
                slot.check.store(key ^ new, Ordering::Relaxed);
                return;
            }
            let (old, old_age) = unpack(data);
            let stale = (age.wrapping_sub(old_age) & AGE_MASK) as i32;
            let worth = old.depth - 8 * stale;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let new = pack(mv, score, eval, depth, bound, pv, age);
        bucket[victim].data.store(new, Ordering::Relaxed);
        bucket[victim].check.store(key ^ new, Ordering::Relaxed);
    }

    /// Permille of sampled entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let sample = self.slots.len().min(1000 * BUCKET);
        let used = self.slots[..sample]
            .iter()
            .filter(|s| {
                let data = s.data.load(Ordering::Relaxed);
                data != 0 && unpack(data).1 == age
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Notation;

    #[test]
    fn stores_and_finds_entries() {
        let tt = TranspositionTable::new(1);
        let m = Move::parse("h1g3", Notation::Uci).unwrap();
        tt.store(0xDEAD_BEEF, m, -123, 45, 7, Bound::Lower, true);
        let e = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!((e.mv, e.score, e.eval, e.depth, e.bound, e.pv), (m, -123, 45, 7, Bound::Lower, true));
        tt.store(0xBEEF, m, 32_000, -20_000, -8, Bound::Upper, false);
        let e = tt.probe(0xBEEF).unwrap();
        assert_eq!((e.score, e.eval, e.depth, e.bound, e.pv), (32_000, -20_000, -8, Bound::Upper, false));
        assert!(tt.probe(0xBEEF_DEAD).is_none());
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF).is_none());
    }

    /// `count` keys that share one bucket.
    fn bucket_mates(tt: &TranspositionTable, count: usize) -> Vec<u64> {
        let keys = (1..u64::MAX).map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let home = tt.bucket(keys.clone().next().unwrap()).as_ptr();
        keys.filter(|&k| tt.bucket(k).as_ptr() == home).take(count).collect()
    }

    /// One search fills a bucket with entries of equal depth; the next (after a move each side) asks for the
    /// first of them; the one after stores another entry there: the oldest entry goes first, whether or not it
    /// was asked for.
    #[test]
    fn the_oldest_entry_goes_first_whether_or_not_it_was_asked_for() {
        let tt = TranspositionTable::new(1);
        let mut keys = bucket_mates(&tt, BUCKET + 1);
        let newcomer = keys.pop().unwrap();
        let m = Move::parse("b1c3", Notation::Uci).unwrap();
        for &k in &keys {
            tt.store(k, m, 10, 10, 6, Bound::Lower, false);
        }
        tt.new_search();
        assert!(tt.probe(keys[0]).is_some());
        tt.new_search();
        tt.store(newcomer, m, 10, 10, 1, Bound::Upper, false);
        assert!(tt.probe(newcomer).is_some());
        assert!(tt.probe(keys[0]).is_none());
        assert!(keys[1..].iter().all(|&k| tt.probe(k).is_some()));
    }

    #[test]
    fn an_evaluation_only_entry_keeps_its_evaluation_and_gives_way_to_a_search_result() {
        let tt = TranspositionTable::new(1);
        tt.store(0xFEED, Move::NONE, 0, -321, -8, Bound::None, false);
        let e = tt.probe(0xFEED).unwrap();
        assert_eq!((e.mv, e.eval, e.bound), (Move::NONE, -321, Bound::None));
        let m = Move::parse("b1c3", Notation::Uci).unwrap();
        tt.store(0xFEED, m, 55, -321, 0, Bound::Upper, false);
        let e = tt.probe(0xFEED).unwrap();
        assert_eq!((e.mv, e.score, e.depth, e.bound), (m, 55, 0, Bound::Upper));
    }
}

//! Free slots among at most `64 * BLOCKS` positions, in blocks of 64: where
//! the free slot of a given rank is, taken in a fixed number of steps
//! without a branch that depends on the data.
//!
//! For the inputs of a few hundred to a few thousand code points, the
//! Fenwick tree's descent ([`super::fenwick`]) mispredicts about every other
//! level. Here, a rank finds its block by comparing it with the running
//! free counts of all the blocks at once, four 16-bit counts to a 64-bit
//! word, and its slot by a select within the block's 64-bit word. The
//! counts are updated in the same pass, from the comparison alone: the
//! chain from one rank to the next is a few instructions long (an earlier
//! version summed the comparisons in vectors and moved the counts block by
//! block after finding the block: decoding 1000 distinct code points took
//! 1.15 times as long).

/// `SELECT_IN_BYTE[b][r]`: the position of the set bit of `b` with `r` set
/// bits below it (0 when there is none).
pub(super) static SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[0; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut rank = 0;
        let mut bit = 0;
        while bit < 8 {
            if b & (1 << bit) != 0 {
                table[b][rank] = bit as u8;
                rank += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    table
};

/// The low bit of every byte of a 64-bit word.
pub(super) const LOW: u64 = 0x0101_0101_0101_0101;
/// The high bit of every byte of a 64-bit word.
pub(super) const HIGH: u64 = 0x8080_8080_8080_8080;

/// Byte `j`: how many bits of `word` are set below bit `8j + 8` (at most
/// 64, so no byte carries into the next).
#[inline]
pub(super) fn byte_prefix(word: u64) -> u64 {
    let mut counts = word - ((word >> 1) & 0x5555_5555_5555_5555);
    counts = (counts & 0x3333_3333_3333_3333) + ((counts >> 2) & 0x3333_3333_3333_3333);
    counts = (counts + (counts >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    counts.wrapping_mul(LOW)
}

/// The set bit of `word` with `rank` set bits below it (`rank` must be
/// below the number of set bits), given `prefix = byte_prefix(word)`; and
/// the high bits of the bytes from the bit's on, where `prefix` counts it.
#[inline]
pub(super) fn select_by_prefix(word: u64, prefix: u64, rank: u32) -> (u32, u64) {
    // The high bit of byte j is set where prefix j <= rank (no byte borrows:
    // both are below 128): the bytes before the bit's, which come first
    // since the prefixes grow.
    let passed = (((u64::from(rank) * LOW) | HIGH) - prefix) & HIGH;
    let not_passed = passed ^ HIGH;
    // Bit 63 stands in for the last byte, which is never passed when `rank`
    // is in range; it keeps the shift below 64 when it is not.
    let shift = (not_passed | 1 << 63).trailing_zeros() & !7;
    let before = ((prefix << 8) >> shift) & 0xFF;
    let bits = (word >> shift) & 0xFF;
    let within = rank.wrapping_sub(before as u32) as usize % 8;
    let bit = shift + u32::from(SELECT_IN_BYTE[bits as usize][within]);
    (bit, not_passed)
}

/// The set bit of `word` with `rank` set bits below it (`rank` must be
/// below the number of set bits).
#[inline]
pub(super) fn select(word: u64, rank: u32) -> u32 {
    select_by_prefix(word, byte_prefix(word), rank).0
}

/// How the set bit of a given rank is found in a word: [`Portable`] on
/// every processor, [`Bmi2`] with one instruction where the processor has
/// BMI2's `pdep`. A generic parameter, so that the code around it is
/// compiled once for each, the second time with BMI2 enabled.
pub(super) trait Select: Copy {
    /// The set bit of `word` with `rank` set bits below it (`rank` must be
    /// below the number of set bits).
    fn select(self, word: u64, rank: u32) -> u32;
}

/// [`select`], with the x86-64 baseline's instructions only.
#[derive(Clone, Copy, Debug)]
pub(super) struct Portable;

impl Select for Portable {
    #[inline(always)]
    fn select(self, word: u64, rank: u32) -> u32 {
        select(word, rank)
    }
}

/// Proof that the processor has BMI2: made only by [`Bmi2::detect`].
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub(super) struct Bmi2 {
    _detected: (),
}

#[cfg(target_arch = "x86_64")]
impl Bmi2 {
    /// A [`Bmi2`] where this processor has BMI2.
    pub(super) fn detect() -> Option<Self> {
        std::arch::is_x86_feature_detected!("bmi2").then_some(Bmi2 { _detected: () })
    }
}

#[cfg(target_arch = "x86_64")]
impl Select for Bmi2 {
    /// `pdep` deposits `1 << rank` onto the set bits of `word`: the one bit
    /// left is the set bit of that rank.
    #[inline(always)]
    fn select(self, word: u64, rank: u32) -> u32 {
        // SAFETY: a Bmi2 exists only where detect() found BMI2, all that
        // _pdep_u64 asks; rank < 64, as the rank of a bit of a word.
        unsafe { std::arch::x86_64::_pdep_u64(1 << rank, word) }.trailing_zeros()
    }
}

/// The low bit of every 16-bit lane of a 64-bit word.
const LANES: u64 = 0x0001_0001_0001_0001;
/// The high bit of every 16-bit lane of a 64-bit word.
const LANE_HIGH: u64 = 0x8000_8000_8000_8000;

/// Free slots among `64 * BLOCKS` positions (`BLOCKS` at most 1024), with
/// `WORDS = BLOCKS / 4`.
pub(super) struct Blocks<const BLOCKS: usize, const WORDS: usize> {
    /// A bit per free slot.
    free: [u64; BLOCKS],
    /// Lane `k` (bits `16k` to `16k + 15`) of `ends[w]`: how many slots are
    /// free in blocks `0..=4w + k`.
    ends: [u64; WORDS],
}

impl<const BLOCKS: usize, const WORDS: usize> Blocks<BLOCKS, WORDS> {
    /// The most slots.
    pub(super) const SLOTS: usize = 64 * BLOCKS;

    /// Slots `0..total` free (`total` at most [`Self::SLOTS`]).
    pub(super) fn new(total: usize) -> Self {
        const { assert!(BLOCKS == 4 * WORDS && BLOCKS <= 1024) };
        debug_assert!(total <= Self::SLOTS);
        let mut free = [0; BLOCKS];
        let mut ends = [0; WORDS];
        for (j, word) in free.iter_mut().enumerate() {
            let here = total.saturating_sub(64 * j).min(64);
            *word = u64::MAX.checked_shr(64 - here as u32).unwrap_or(0);
            ends[j / 4] |= (total.min(64 * j + 64) as u64) << (16 * (j % 4));
        }
        Blocks { free, ends }
    }

    /// Takes the free slot with `rank` free slots before it (`rank` must be
    /// below the number of free slots).
    #[inline(always)]
    pub(super) fn take_nth(&mut self, rank: u32, how: impl Select) -> usize {
        // A lane's high bit survives subtracting its count from `rank` with
        // the high bit set where the count is at most `rank` (no lane
        // borrows from the next: counts and ranks are below 2^15).
        let ranks = (u64::from(rank) * LANES) | LANE_HIGH;
        // The blocks before the slot's: those that end with at most `rank`
        // free slots, 1 in their lanes, summed over the words.
        let mut passed = 0;
        for ends in &mut self.ends {
            let here = (ranks.wrapping_sub(*ends) & LANE_HIGH) >> 15;
            passed += here;
            // One fewer free slot up to the end of the slot's block and of
            // every later one: those not passed.
            *ends = ends.wrapping_add(here).wrapping_sub(LANES);
        }
        let block = (passed.wrapping_mul(LANES) >> 48) as usize % BLOCKS;
        // The count of the block before, which was passed and so kept.
        let last = block.wrapping_sub(1);
        let count = (self.ends[last / 4 % WORDS] >> (16 * (last % 4))) & 0xFFFF;
        let before = std::hint::select_unpredictable(block == 0, 0, count as u32);
        let word = self.free[block];
        let bit = how.select(word, rank - before);
        self.free[block] = word & !(1 << bit);
        64 * block + bit as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_finds_every_set_bit() {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let word = rng & rng.rotate_left(17);
            let bits: Vec<u32> = (0..64).filter(|&b| word >> b & 1 != 0).collect();
            for (rank, &bit) in bits.iter().enumerate() {
                assert_eq!(select(word, rank as u32), bit, "{word:#x} {rank}");
            }
        }
        assert_eq!(select(u64::MAX, 63), 63);
        assert_eq!(select(1 << 63, 0), 63);
    }

    /// Both ways of selecting agree on every set bit of random words.
    #[test]
    fn selects_agree() {
        #[cfg(target_arch = "x86_64")]
        if let Some(bmi2) = Bmi2::detect() {
            let mut rng = 0x2545_F491_4F6C_DD1Du64;
            for _ in 0..5000 {
                rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let word = rng | 1 << (rng >> 58);
                for rank in 0..word.count_ones() {
                    assert_eq!(bmi2.select(word, rank), Portable.select(word, rank));
                }
            }
        }
    }

    fn takes_every_rank<const BLOCKS: usize, const WORDS: usize>(total: usize) {
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let mut blocks = Blocks::<BLOCKS, WORDS>::new(total);
        super::super::check_takes_each_rank(total, &mut rng, |rank| {
            blocks.take_nth(rank, Portable)
        });
        assert!(blocks.free.iter().all(|&word| word == 0));
        assert!(blocks.ends.iter().all(|&end| end == 0));
        #[cfg(target_arch = "x86_64")]
        if let Some(bmi2) = Bmi2::detect() {
            let mut blocks = Blocks::<BLOCKS, WORDS>::new(total);
            super::super::check_takes_each_rank(total, &mut rng, |rank| {
                blocks.take_nth(rank, bmi2)
            });
            assert!(blocks.free.iter().all(|&word| word == 0));
        }
    }

    #[test]
    fn blocks_take_the_free_slot_of_each_rank() {
        for total in [0, 1, 63, 64, 65, 500, 1023, 1024] {
            takes_every_rank::<16, 4>(total);
        }
        for total in [1025, 3000, 4096] {
            takes_every_rank::<64, 16>(total);
        }
    }
}

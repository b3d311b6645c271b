//! Free slots among at most `64 * BLOCKS` positions, in blocks of 64: where
//! the free slot of a given rank is, taken in a fixed number of steps
//! without a branch that depends on the data.
//!
//! For the inputs of a few hundred to a few thousand code points, the
//! Fenwick tree's descent ([`super::fenwick`]) mispredicts about every other
//! level. Here, a rank finds its block by comparing it with the running
//! free counts of all the blocks at once (a few vector instructions for 16
//! or 64 counts), and its slot by a select within the block's 64-bit word.

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

/// 0, 1, 2, ... as `u16`s, to compare block numbers with in vectors.
const fn block_numbers<const N: usize>() -> [u16; N] {
    let mut table = [0; N];
    let mut k = 0;
    while k < N {
        table[k] = k as u16;
        k += 1;
    }
    table
}

/// Free slots among `64 * BLOCKS` positions (`BLOCKS` at most 1024).
pub(super) struct Blocks<const BLOCKS: usize> {
    /// A bit per free slot.
    free: [u64; BLOCKS],
    /// `ends[j]`: how many slots are free in blocks `0..=j`.
    ends: [u16; BLOCKS],
}

impl<const BLOCKS: usize> Blocks<BLOCKS> {
    /// The most slots.
    pub(super) const SLOTS: usize = 64 * BLOCKS;
    const NUMBERS: [u16; BLOCKS] = block_numbers();

    /// Slots `0..total` free (`total` at most [`Self::SLOTS`]).
    pub(super) fn new(total: usize) -> Self {
        debug_assert!(total <= Self::SLOTS && Self::SLOTS <= usize::from(u16::MAX));
        let mut free = [0; BLOCKS];
        let mut ends = [0; BLOCKS];
        for (j, (word, end)) in free.iter_mut().zip(&mut ends).enumerate() {
            let here = total.saturating_sub(64 * j).min(64);
            *word = u64::MAX.checked_shr(64 - here as u32).unwrap_or(0);
            *end = total.min(64 * j + 64) as u16;
        }
        Blocks { free, ends }
    }

    /// Takes the free slot with `rank` free slots before it (`rank` must be
    /// below the number of free slots).
    #[inline]
    pub(super) fn take_nth(&mut self, rank: u32) -> usize {
        let rank = rank as u16;
        // The blocks before the slot's: those that end with at most `rank`
        // free slots.
        let block = self
            .ends
            .iter()
            .map(|&end| u16::from(end <= rank))
            .sum::<u16>() as usize
            % BLOCKS;
        let before = std::hint::select_unpredictable(
            block == 0,
            0,
            self.ends[(block + BLOCKS - 1) % BLOCKS],
        );
        let word = self.free[block];
        let bit = select(word, u32::from(rank - before));
        self.free[block] = word & !(1 << bit);
        // One fewer free slot up to the end of the slot's block and of every
        // later one.
        let block_number = block as u16;
        for (end, &number) in self.ends.iter_mut().zip(&Self::NUMBERS) {
            *end -= u16::from(number >= block_number);
        }
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

    fn takes_every_rank<const BLOCKS: usize>(total: usize) {
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let mut blocks = Blocks::<BLOCKS>::new(total);
        super::super::check_takes_each_rank(total, &mut rng, |rank| blocks.take_nth(rank));
        assert!(blocks.free.iter().all(|&word| word == 0));
        assert!(blocks.ends.iter().all(|&end| end == 0));
    }

    #[test]
    fn blocks_take_the_free_slot_of_each_rank() {
        for total in [0, 1, 63, 64, 65, 500, 1023, 1024] {
            takes_every_rank::<16>(total);
        }
        for total in [1025, 3000, 4096] {
            takes_every_rank::<64>(total);
        }
    }
}

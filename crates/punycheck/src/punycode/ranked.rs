//! The encoder's rounds where the input has only a few distinct non-basic
//! code points (a text in one small alphabet, such as `few-distinct` in
//! `punycheck bench`): section 6.3's main loop scans the whole input once
//! per distinct code point, and with few of them that beats sorting.
//!
//! Each code point is first replaced by its rank, one byte: 0 for a basic
//! code point, `r` for the `r`-th smallest non-basic one. A round then
//! compares 16 ranks at once with the round's rank, and reads from the two
//! bit masks which ranks are smaller (they add to delta) and which are the
//! round's code point (where a delta is written): no branch per code point,
//! and no chain of latencies from one code point to the next. The deltas
//! themselves are counts of smaller code points, differences of the
//! running count, so [`super::fast`] writes them as for any other round.
//!
//! The comparisons use SSE2, part of every x86-64 processor; elsewhere the
//! same masks are computed eight ranks at a time in a `u64`.

/// At most this many distinct non-basic code points are ranked; more take
/// the sort.
pub(super) const MAX_RANKS: usize = 8;

/// Ranks are compared in blocks of this many.
const BLOCK: usize = 64;

/// The rank of the padding after the last block: neither smaller than nor
/// equal to any round's rank.
const PADDING: u8 = 0x7F;

/// The ranks of an input: 0 for a basic code point, `r` for the `r`-th
/// smallest of `values`, padded to whole blocks.
pub(super) struct Ranks {
    ranks: Vec<u8>,
}

impl Ranks {
    /// The ranks of `input` against `values` (sorted, distinct, all
    /// non-basic, at most [`MAX_RANKS`]), or `None` when a non-basic code
    /// point of `input` is not among `values`.
    pub(super) fn new(input: &[u32], values: &[u32]) -> Option<Self> {
        debug_assert!(
            !values.is_empty()
                && values.len() <= MAX_RANKS
                && values.windows(2).all(|w| w[0] < w[1])
        );
        let mut ranks = vec![PADDING; input.len().div_ceil(BLOCK) * BLOCK];
        let whole = input.len() / 16 * 16;
        let (head, tail) = input.split_at(whole);
        let known = rank_sixteens(head, values, &mut ranks[..whole])
            && rank_each(tail, values, &mut ranks[whole..input.len()]);
        known.then_some(Ranks { ranks })
    }

    /// For each position of rank `r`, in order, how many positions before it
    /// have a smaller rank, written into `counts` (as many as there are
    /// positions in all, so that it has room); returns how many were
    /// written, and how many positions in all have a smaller rank.
    pub(super) fn count_smaller(&self, r: u8, counts: &mut [u32]) -> (usize, u32) {
        let mut found = 0;
        let mut smaller = 0u32;
        for block in self.ranks.chunks_exact(BLOCK) {
            let (below, mut at) = masks(block.try_into().expect("whole blocks"), r);
            // How many ranks below r each byte of `below` has, then (by the
            // multiplication) each byte and those before it: no popcount
            // instruction in the x86-64 baseline.
            let pairs = below - ((below >> 1) & 0x5555_5555_5555_5555);
            let nibbles = (pairs & 0x3333_3333_3333_3333) + ((pairs >> 2) & 0x3333_3333_3333_3333);
            let bytes = (nibbles + (nibbles >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
            let up_to = bytes.wrapping_mul(0x0101_0101_0101_0101);
            let before_byte = up_to << 8;
            while at != 0 {
                let position = at.trailing_zeros();
                let byte = position & 56;
                let within = (below >> byte) as u8 & ((1u8 << (position & 7)) - 1);
                counts[found] =
                    smaller + ((before_byte >> byte) & 0xFF) as u32 + within.count_ones();
                found += 1;
                at &= at - 1;
            }
            smaller += (up_to >> 56) as u32;
        }
        (found, smaller)
    }
}

/// Writes the rank of each code point of `input` into `ranks`; false when a
/// non-basic code point is not among `values`.
fn rank_each(input: &[u32], values: &[u32], ranks: &mut [u8]) -> bool {
    let mut known = true;
    for (rank, &cp) in ranks.iter_mut().zip(input) {
        // At most MAX_RANKS, so the narrowing is exact.
        let r = values
            .iter()
            .position(|&value| value == cp)
            .map_or(0, |i| i as u8 + 1);
        known &= r > 0 || super::is_basic(cp);
        *rank = r;
    }
    known
}

/// [`rank_each`] for whole groups of 16 code points.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
fn rank_sixteens(input: &[u32], values: &[u32], ranks: &mut [u8]) -> bool {
    // SAFETY: SSE2 is enabled for this build (the cfg above), which is all
    // that the function's target_feature asks of its caller.
    unsafe { sse2::rank_sixteens(input, values, ranks) }
}

/// [`rank_each`] for whole groups of 16 code points.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
fn rank_sixteens(input: &[u32], values: &[u32], ranks: &mut [u8]) -> bool {
    rank_each(input, values, ranks)
}

/// Which of 64 ranks are smaller than `r`, and which equal it, one bit each.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline]
fn masks(block: &[u8; BLOCK], r: u8) -> (u64, u64) {
    // SAFETY: as in rank_sixteens.
    unsafe { sse2::masks(block, r) }
}

/// Which of 64 ranks are smaller than `r`, and which equal it, one bit each.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline]
fn masks(block: &[u8; BLOCK], r: u8) -> (u64, u64) {
    masks_portable(block, r)
}

/// [`masks`] without SSE2, eight ranks at a time in a `u64`: with every
/// rank at most 0x7F, `(rank | 0x80) - r` borrows from no other byte, and
/// its top bit says whether the rank is at least `r`.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
fn masks_portable(block: &[u8; BLOCK], r: u8) -> (u64, u64) {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const ONES: u64 = 0x0101_0101_0101_0101;
    /// The top bit of each byte, gathered into the eight bits of a byte.
    fn gather(tops: u64) -> u64 {
        ((tops >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
    }
    let mut below = 0u64;
    let mut at = 0u64;
    for (i, eight) in block.chunks_exact(8).enumerate() {
        let ranks = u64::from_le_bytes(eight.try_into().expect("8 bytes")) | HIGH;
        let at_least_r = ranks.wrapping_sub(ONES * u64::from(r));
        let above_r = ranks.wrapping_sub(ONES * u64::from(r + 1));
        below |= gather(!at_least_r & HIGH) << (8 * i);
        at |= gather(at_least_r & !above_r & HIGH) << (8 * i);
    }
    (below, at)
}

/// The SSE2 versions: functions that compute on values only, but may be
/// called only where SSE2 is present, as on every x86-64 processor.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_cmpeq_epi32, _mm_cmpgt_epi32, _mm_cmplt_epi8,
        _mm_cvtsi128_si64, _mm_movemask_epi8, _mm_or_si128, _mm_packs_epi32, _mm_packus_epi16,
        _mm_set_epi32, _mm_set_epi64x, _mm_set1_epi8, _mm_set1_epi32, _mm_setzero_si128,
        _mm_unpackhi_epi64, _mm_xor_si128,
    };

    use super::BLOCK;

    /// Four code points.
    #[target_feature(enable = "sse2")]
    fn four(input: &[u32]) -> __m128i {
        // The bits as they are: a code point above i32::MAX is compared
        // only for equality, or with its top bit flipped.
        _mm_set_epi32(
            input[3] as i32,
            input[2] as i32,
            input[1] as i32,
            input[0] as i32,
        )
    }

    /// [`super::rank_each`] for whole groups of 16 code points: four
    /// code points at a time compared with each value.
    #[target_feature(enable = "sse2")]
    pub(super) fn rank_sixteens(input: &[u32], values: &[u32], ranks: &mut [u8]) -> bool {
        // Comparing x ^ 0x8000_0000 as signed is comparing x as unsigned.
        let flip = _mm_set1_epi32(i32::MIN);
        let last_basic = _mm_set1_epi32(0x7F ^ i32::MIN);
        let zero = _mm_setzero_si128();
        let mut unknown = zero;
        for (sixteen, out) in input.chunks_exact(16).zip(ranks.chunks_exact_mut(16)) {
            let mut quarters = [zero; 4];
            for (quarter, four_code_points) in quarters.iter_mut().zip(sixteen.chunks_exact(4)) {
                let code_points = four(four_code_points);
                let mut rank = zero;
                for (r, &value) in (1..).zip(values) {
                    let equal = _mm_cmpeq_epi32(code_points, _mm_set1_epi32(value as i32));
                    rank = _mm_or_si128(rank, _mm_and_si128(equal, _mm_set1_epi32(r)));
                }
                let non_basic = _mm_cmpgt_epi32(_mm_xor_si128(code_points, flip), last_basic);
                let unranked = _mm_cmpeq_epi32(rank, zero);
                unknown = _mm_or_si128(unknown, _mm_and_si128(non_basic, unranked));
                *quarter = rank;
            }
            // Ranks are at most 8: the narrowings are exact.
            let bytes = _mm_packus_epi16(
                _mm_packs_epi32(quarters[0], quarters[1]),
                _mm_packs_epi32(quarters[2], quarters[3]),
            );
            let low = _mm_cvtsi128_si64(bytes).to_le_bytes();
            let high = _mm_cvtsi128_si64(_mm_unpackhi_epi64(bytes, bytes)).to_le_bytes();
            out[..8].copy_from_slice(&low);
            out[8..].copy_from_slice(&high);
        }
        _mm_movemask_epi8(unknown) == 0
    }

    /// Which of 64 ranks are smaller than `r`, and which equal it, one bit
    /// each: 16 at a time.
    #[target_feature(enable = "sse2")]
    pub(super) fn masks(block: &[u8; BLOCK], r: u8) -> (u64, u64) {
        // Ranks are at most 0x7F, so comparing as signed bytes is exact.
        let round = _mm_set1_epi8(r as i8);
        let mut below = 0u64;
        let mut at = 0u64;
        for (i, sixteen) in block.chunks_exact(16).enumerate() {
            let word =
                |from: usize| i64::from_le_bytes(sixteen[from..from + 8].try_into().expect("8"));
            let ranks = _mm_set_epi64x(word(8), word(0));
            // The masks have 16 bits.
            let smaller = _mm_movemask_epi8(_mm_cmplt_epi8(ranks, round)) as u16;
            let equal = _mm_movemask_epi8(_mm_cmpeq_epi8(ranks, round)) as u16;
            below |= u64::from(smaller) << (16 * i);
            at |= u64::from(equal) << (16 * i);
        }
        (below, at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The masks, with SSE2 and without, against comparing rank by rank.
    #[test]
    fn masks_match_comparisons() {
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..200 {
            let mut block = [0u8; BLOCK];
            for rank in &mut block {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                *rank = [0, 1, 2, 3, 8, PADDING][(rng % 6) as usize];
            }
            for r in 1..=MAX_RANKS as u8 {
                let mut below = 0u64;
                let mut at = 0u64;
                for (i, &rank) in block.iter().enumerate() {
                    below |= u64::from(rank < r) << i;
                    at |= u64::from(rank == r) << i;
                }
                assert_eq!(masks(&block, r), (below, at));
                assert_eq!(masks_portable(&block, r), (below, at));
            }
        }
    }

    /// Ranking 16 code points at a time gives the ranks, and finds the
    /// unknown code points, that ranking one by one does: values and code
    /// points on both sides of 0x80 and of i32::MAX, where a signed
    /// comparison would go wrong.
    #[test]
    fn ranking_by_sixteens_matches_one_by_one() {
        let values = [0x80, 0xE4, 0x7FFF_FFFF, 0x8000_0000, u32::MAX];
        let others = [0, 0x41, 0x7F, 0x81, 0x8000_0001, 0xFFFF_FFFE];
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        for known in [1, 3, 5] {
            for unknown_every in [0usize, 7, 97] {
                let input: Vec<u32> = (0..160)
                    .map(|k| {
                        rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                        let pick = (rng >> 33) as usize;
                        if unknown_every > 0 && k % unknown_every == 3 {
                            others[pick % others.len()]
                        } else if pick.is_multiple_of(3) {
                            others[pick % 3]
                        } else {
                            values[pick % known]
                        }
                    })
                    .collect();
                let mut by_sixteens = vec![PADDING; 160];
                let mut one_by_one = vec![PADDING; 160];
                assert_eq!(
                    rank_sixteens(&input, &values[..known], &mut by_sixteens),
                    rank_each(&input, &values[..known], &mut one_by_one),
                    "{known} {unknown_every}"
                );
                assert_eq!(by_sixteens, one_by_one, "{known} {unknown_every}");
            }
        }
    }

    /// Ranks and counts of a small input, derived by hand.
    #[test]
    fn ranks_and_counts() {
        let values = [0xE4, 0x161];
        // a ä š b ä
        let input = [0x61, 0xE4, 0x161, 0x62, 0xE4];
        let ranks = Ranks::new(&input, &values).expect("every value is known");
        assert_eq!(&ranks.ranks[..5], &[0, 1, 2, 0, 1]);
        assert!(ranks.ranks[5..].iter().all(|&r| r == PADDING));
        let mut counts = [0; 5];
        // ä: after a (1), after a, b (2); two smaller in all.
        assert_eq!(ranks.count_smaller(1, &mut counts), (2, 2));
        assert_eq!(counts[..2], [1, 2]);
        // š: after a, ä; four smaller in all.
        assert_eq!(ranks.count_smaller(2, &mut counts), (1, 4));
        assert_eq!(counts[..1], [2]);
        // A non-basic code point not among the values.
        assert!(Ranks::new(&[0x61, 0xE9], &values).is_none());
        // The largest value, which pads the search.
        assert_eq!(Ranks::new(&[0x161], &values).map(|r| r.ranks[0]), Some(2));
    }
}

//! The decoder for labels: Punycode of at most [`LABEL`] bytes, the size of
//! every DNS label, decoded with almost no branch that depends on the data.
//!
//! - Bit masks of the delimiters and of the bytes that are not ASCII,
//!   eight bytes at a time ([`masks`]), find the literal portion and check
//!   it.
//! - Section 6.2's main loop is `tabled.rs`'s, with the divisions by the
//!   output's length looked up ([`ShortLengths`]); it records each
//!   insertion instead of making it: where (`at`, below 64) and what.
//! - The insertions are then placed from the last to the first: each goes
//!   to the free slot of its rank, as in the long path, straight into the
//!   output. The free slots are a list of 4-bit numbers in a word up to
//!   [`NIBBLES`] code points, of 5-bit ones in a 128-bit word up to
//!   [`QUINTS`], where taking one is a shift, and beyond, a 64-bit mask of
//!   free slots ([`Slots::take`]).

use super::blocks::{HIGH, LOW, byte_prefix, select_by_prefix};
use super::tabled::{ShortLengths, insertions};
use super::{BadInputReason, DELIMITER, Decoded, Error};

/// Punycode of at most this many bytes is decoded here: every set of
/// positions fits in one `u64`.
pub(super) const LABEL: usize = 64;

/// Outputs of at most this many code points are placed through a list of
/// 4-bit slot numbers in a `u64`.
const NIBBLES: usize = 16;

/// Outputs of at most this many code points, and more than [`NIBBLES`], are
/// placed through a list of 5-bit slot numbers in a `u128`.
const QUINTS: usize = 25;

/// Slots `0` to [`QUINTS`]` - 1`, in order, 5 bits each.
const QUINT_SLOTS: u128 = {
    let mut slots = 0;
    let mut k = 0;
    while k < QUINTS {
        slots |= (k as u128) << (5 * k);
        k += 1;
    }
    slots
};

/// Free slots, below 64: a bit each, and per byte of bits how many are free
/// up to its end.
struct Slots {
    free: u64,
    /// Byte `j` counts the free slots below `8j + 8` (at most 64, so the
    /// bytes never carry into each other).
    prefix: u64,
}

impl Slots {
    /// Slots `0..total` free.
    fn new(total: usize) -> Self {
        let free = u64::MAX.checked_shr(64 - total as u32).unwrap_or(0);
        Slots {
            free,
            prefix: byte_prefix(free),
        }
    }

    /// Takes the free slot with `rank` free slots before it (`rank` must be
    /// below the number of free slots), without branches: a chain of a few
    /// instructions, as the placement takes one slot after the other.
    #[inline]
    fn take(&mut self, rank: u32) -> u32 {
        let (slot, not_passed) = select_by_prefix(self.free, self.prefix, rank);
        self.free &= !(1 << slot);
        // One fewer free slot below the end of the slot's byte and of every
        // later one: the bytes not passed.
        self.prefix = self.prefix.wrapping_sub(not_passed >> 7);
        slot
    }

    /// Takes the lowest free slot.
    #[inline]
    fn take_first(&mut self) -> u32 {
        let slot = self.free.trailing_zeros();
        self.free &= self.free.wrapping_sub(1);
        slot
    }
}

/// Bit `j` for the high bit of byte `j` of `high` (its other bits must be
/// clear).
#[inline]
fn gather(high: u64) -> u64 {
    ((high >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// Bit `k` for each byte `k` of `input` (at most [`LABEL`] bytes) that is
/// the delimiter, and the same for the bytes that are not ASCII: eight bytes
/// at a time where there are eight, the last eight read again from the end
/// of the input.
fn masks(input: &[u8]) -> (u64, u64) {
    let mut delimiters = 0u64;
    let mut non_ascii = 0u64;
    let length = input.len();
    if length < 8 {
        for (k, &c) in input.iter().enumerate() {
            delimiters |= u64::from(c == DELIMITER) << k;
            non_ascii |= u64::from(c >> 7) << k;
        }
        return (delimiters, non_ascii);
    }
    let mut at = 0;
    while at < length {
        // Bytes `at..` in the low bytes: the last word ends at the input's
        // end, shifted down past the bytes already seen.
        let from = at.min(length - 8);
        let word = input[from..]
            .first_chunk::<8>()
            .map_or(0, |bytes| u64::from_le_bytes(*bytes))
            >> (8 * (at - from));
        // A byte of `x` is zero where `word` has the delimiter: exactly
        // where adding 0x7F to its low seven bits leaves the high bit clear,
        // and so does the byte itself.
        let x = word ^ (u64::from(DELIMITER) * LOW);
        let zero = !(((x & !HIGH) + !HIGH) | x) & HIGH;
        delimiters |= gather(zero) << at;
        non_ascii |= gather(word & HIGH) << at;
        at += 8;
    }
    (delimiters, non_ascii)
}

/// Decodes `input` (at most [`LABEL`] bytes) into `output`, which must be
/// empty; same results as [`super::fast`]'s general paths.
pub(super) fn decode(input: &[u8], max_out: u32, output: &mut Decoded) -> Result<(), Error> {
    let (delimiters, non_ascii) = masks(input);
    // As in section 6.2: the literal portion ends at the last delimiter; one
    // at position 0 starts none and is left to fail as a digit.
    let b = match delimiters {
        0 => 0,
        _ => 63 - delimiters.leading_zeros() as usize,
    };
    if b > max_out as usize {
        return Err(Error::BigOutput);
    }
    let in_literal = non_ascii & ((1 << b) - 1);
    if in_literal != 0 {
        return Err(Error::BadInput {
            position: in_literal.trailing_zeros() as usize,
            reason: BadInputReason::NonBasicInLiteral,
        });
    }

    // Where each insertion goes (below 64, with its case flag as UPPER) and
    // what. Each insertion reads at least one byte, so there are fewer than
    // LABEL; the remainders only spare bounds checks.
    let mut at = [0u8; LABEL];
    let mut code_point = [0u32; LABEL];
    let mut count = 0;
    insertions::<ShortLengths>(input, b, max_out, |i, n, upper| {
        at[count % LABEL] = i as u8 | if upper { UPPER } else { 0 };
        code_point[count % LABEL] = n;
        count += 1;
    })?;
    place(&input[..b], &at[..count], &code_point[..count], output);
    Ok(())
}

/// In [`place`]'s `at`: the insertion's case flag.
pub(super) const UPPER: u8 = 0x80;

/// Places the code points of a decoding of at most [`LABEL`] code points
/// into `output` (empty): the insertions, recorded in order (`at[k]` where
/// the `k`-th went, with [`UPPER`] for its case flag, and `code_point[k]`
/// what), and the literal portion.
///
/// From the last insertion to the first: only later ones moved an
/// insertion, so it goes to the free slot with `at` free slots before it;
/// the literal portion fills the slots left, in order.
///
/// Inlined into both callers: called, it cost the label decoder 4% of its
/// time (measured).
#[inline(always)]
pub(super) fn place(literal: &[u8], at: &[u8], code_point: &[u32], output: &mut Decoded) {
    let total = literal.len() + at.len();
    debug_assert!(total <= LABEL && at.len() == code_point.len());
    if output.code_points.capacity() == 0 {
        // A fresh output: one allocation of the right size, without the
        // growth path's calls.
        output.code_points = Vec::with_capacity(total);
    }
    output.code_points.resize(total, 0);
    let placed = &mut output.code_points[..];
    let steps = at.iter().zip(code_point).rev();
    let mut flags = 0u64;
    let mut place = |slot: u32, n: u32, upper: bool| {
        placed[slot as usize] = n;
        flags |= u64::from(upper) << slot;
    };
    if total <= NIBBLES {
        // The free slots in order, 4 bits each: taking one shifts the later
        // ones down, with no chain through a search.
        let mut free: u64 = 0xFEDC_BA98_7654_3210;
        for (&step, &n) in steps {
            let shift = 4 * u32::from(step & !UPPER);
            let slot = (free >> shift) & 0xF;
            let below = (1u64 << shift) - 1;
            free = (free & below) | ((free >> 4) & !below);
            place(slot as u32, n, step & UPPER != 0);
        }
        for &c in literal {
            place(free as u32 & 0xF, u32::from(c), c.is_ascii_uppercase());
            free >>= 4;
        }
    } else if total <= QUINTS {
        // The same, 5 bits each.
        let mut free = QUINT_SLOTS;
        for (&step, &n) in steps {
            let shift = 5 * u32::from(step & !UPPER);
            let slot = (free >> shift) as u32 & 0x1F;
            let below = (1u128 << shift) - 1;
            free = (free & below) | ((free >> 5) & !below);
            place(slot, n, step & UPPER != 0);
        }
        for &c in literal {
            place(free as u32 & 0x1F, u32::from(c), c.is_ascii_uppercase());
            free >>= 5;
        }
    } else {
        let mut slots = Slots::new(total);
        for (&step, &n) in steps {
            place(slots.take(u32::from(step & !UPPER)), n, step & UPPER != 0);
        }
        for &c in literal {
            place(slots.take_first(), u32::from(c), c.is_ascii_uppercase());
        }
    }
    output.flags.assign_bits(flags, total);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_take_every_rank() {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        for total in 0..=LABEL {
            for _ in 0..20 {
                let mut slots = Slots::new(total);
                super::super::check_takes_each_rank(total, &mut rng, |rank| {
                    slots.take(rank) as usize
                });
                assert_eq!(slots.free, 0);
            }
        }
    }

    /// Labels of every length they can have (63 code points at most, all
    /// basic, and the delimiter), so that each way
    /// of placing them (4-bit and 5-bit lists, the mask of free slots) and
    /// the edges between them decode as the RFC says, case flags, limits
    /// and all.
    #[test]
    fn labels_of_every_length_decode_as_the_rfc_says() {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (rng >> 33) as usize
        };
        let values = [0xE9, 0xE0, 0xDF, 0x4E2D, 0x1F600, 0x10FFFF];
        for total in 1..LABEL {
            let mut decoded = 0;
            for _ in 0..60 {
                let others = next() % (total.min(12) + 1);
                let mut input: Vec<u32> = (0..total)
                    .map(|k| {
                        if k < others {
                            values[next() % values.len()]
                        } else {
                            [0x61, 0x5A, 0x30][next() % 3]
                        }
                    })
                    .collect();
                // Shuffled, so that the insertions land all over.
                for k in (1..input.len()).rev() {
                    input.swap(k, next() % (k + 1));
                }
                let flags: Vec<bool> = input.iter().map(|_| next() % 2 == 0).collect();
                let Ok(encoded) = super::super::encode(&input, Some(&flags)) else {
                    continue;
                };
                if encoded.len() > LABEL {
                    continue;
                }
                decoded += 1;
                for limit in [u32::MAX, total as u32, total as u32 - 1] {
                    let mut output = Decoded::default();
                    let result = decode(&encoded, limit, &mut output).map(|()| output);
                    assert_eq!(
                        result,
                        super::super::decode_naive(&encoded, limit),
                        "{:?} limit {limit}",
                        String::from_utf8_lossy(&encoded)
                    );
                }
            }
            assert!(decoded > 0, "no label of {total} code points");
        }
    }

    #[test]
    fn masks_find_every_delimiter_and_byte_past_ascii() {
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        for length in 0..=LABEL {
            for _ in 0..50 {
                let input: Vec<u8> = (0..length)
                    .map(|_| {
                        rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                        // Mostly the delimiter, its neighbours and bytes
                        // near 0x80.
                        [b'-', b',', b'.', b'm', 0x7F, 0x80, 0xAD, 0xFF][(rng >> 61) as usize]
                    })
                    .collect();
                let want = input.iter().enumerate().fold((0, 0), |(d, a), (k, &c)| {
                    (
                        d | u64::from(c == b'-') << k,
                        a | u64::from(!c.is_ascii()) << k,
                    )
                });
                assert_eq!(masks(&input), want, "{input:?}");
            }
        }
    }
}

//! The decoder for labels: Punycode of at most [`LABEL`] bytes, the size of
//! every DNS label, decoded with almost no branch that depends on the data.
//!
//! Section 6.2 read literally spends most of a label's time in branches the
//! processor cannot predict (where each variable-length integer ends, and
//! the size of each insertion's `memmove`) and in the chain of latencies
//! from one bias to the next. This path removes the branches and shortens
//! the chain:
//!
//! - one pass maps the input to [`CLASSES`] (digit value and case, or
//!   delimiter and non-ASCII), and bit masks of the delimiters and non-ASCII
//!   bytes;
//! - each integer of up to [`WINDOW`] digits is read with the thresholds
//!   and weights of its bias tabled ([`read_integer`]): where it ends is the
//!   one branch that depends on the data, and predicted, it keeps the
//!   thresholds off the chain of latencies; integers that are longer, or
//!   hold a non-digit or the end of the input before their last digit, are
//!   read digit by digit, failing exactly where the RFC does;
//! - while `i` stays below [`SMALL`] (always, for a valid label), the rest
//!   of section 6.2's loop needs no overflow check, and divides by
//!   multiplying ([`divide`]); beyond, the general paths' loop
//!   (`steps::insertions`) takes over;
//! - the thresholds of the next integer are looked up from the deltas
//!   labels have in one step ([`THRESHOLDS_OF_SCALED`]), not through the
//!   bias;
//! - the insertions are recorded, then placed from the last to the first:
//!   each goes to the free slot of its rank, as in the long path. Up to
//!   [`NIBBLES`] code points, the free slots are a list of nibbles in one
//!   word, and taking one is a shift; beyond, a 64-bit mask of free slots
//!   ([`Slots::take`]).

use super::blocks::{byte_prefix, select_by_prefix};
use super::steps::{
    ADAPT_LOOP_END, ADAPT_TAIL, DIGIT_VALUES, NO_DIGIT, Progress, insertions, read_delta,
    scaled_bias,
};
use super::{BASE, BadInputReason, DAMP, DELIMITER, Decoded, Error, INITIAL_BIAS, threshold};

/// Punycode of at most this many bytes is decoded here: every set of
/// positions fits in one `u64`.
pub(super) const LABEL: usize = 64;

/// How many digits one integer may have to be read at once: four cover
/// nearly every integer of a label (the first is typically three or four
/// digits, the others one or two).
const WINDOW: usize = 4;

/// [`CLASSES`] of a byte that is no digit.
const NOT_DIGIT: u8 = 0x80;
/// With [`NOT_DIGIT`]: the byte is the delimiter.
const IS_DELIMITER: u8 = 0x01;
/// With [`NOT_DIGIT`]: the byte is not ASCII.
const NOT_ASCII: u8 = 0x02;
/// With a digit value: the byte is an uppercase letter.
const IS_UPPER: u8 = 0x40;
/// The bits of [`CLASSES`] that hold a digit value.
const VALUE: u8 = 0x3F;

/// Everything the label path needs of a byte, in one: its digit value
/// ([`VALUE`]) with [`IS_UPPER`], or [`NOT_DIGIT`] with [`IS_DELIMITER`] and
/// [`NOT_ASCII`].
static CLASSES: [u8; 256] = {
    let mut table = [NOT_DIGIT; 256];
    let mut c = 0;
    while c < 256 {
        let value = DIGIT_VALUES[c];
        table[c] = if value != NO_DIGIT {
            value
                | if (c as u8).is_ascii_uppercase() {
                    IS_UPPER
                } else {
                    0
                }
        } else if c as u8 == DELIMITER {
            NOT_DIGIT | IS_DELIMITER
        } else if c >= 0x80 {
            NOT_DIGIT | NOT_ASCII
        } else {
            NOT_DIGIT
        };
        c += 1;
    }
    table
};

/// What reading an integer at once needs to know of a bias.
#[derive(Clone, Copy)]
struct Thresholds {
    /// Byte `j` is `t - 1` for digit `j`: a digit ends the integer when it is
    /// at most that.
    last_digit_max: u32,
    /// The weights of digits 1 to 3: products of `base - t` over the digits
    /// before (at most 35^3, so no sum of four digits overflows).
    weights: [u32; WINDOW - 1],
}

/// More than the largest bias adapt() returns (at most five divisions of
/// `BASE` each, and a last term below `BASE`; checked in the tests), so that
/// a bias indexes [`THRESHOLDS`] as a byte, without a bounds check.
const BIASES: usize = 256;

/// [`Thresholds`] for every bias.
static THRESHOLDS: [Thresholds; BIASES] = {
    let mut table = [Thresholds {
        last_digit_max: 0,
        weights: [0; WINDOW - 1],
    }; BIASES];
    let mut bias = 0;
    while bias < BIASES {
        let mut weight = 1;
        let mut j = 0;
        while j < WINDOW {
            let t = threshold(BASE * (j as u32 + 1), bias as u32);
            table[bias].last_digit_max |= (t - 1) << (8 * j);
            if j > 0 {
                table[bias].weights[j - 1] = weight;
            }
            weight *= BASE - t;
            j += 1;
        }
        bias += 1;
    }
    table
};

/// [`THRESHOLDS`] of the bias that adapt() returns for each `delta` that
/// takes no round of its loop (after the damping and the `delta div
/// numpoints`), which are nearly all of a label's: one lookup from one
/// bias's thresholds to the next instead of two.
static THRESHOLDS_OF_SCALED: [Thresholds; ADAPT_LOOP_END as usize + 1] = {
    let mut table = [THRESHOLDS[0]; ADAPT_LOOP_END as usize + 1];
    let mut delta = 0;
    while delta < table.len() {
        table[delta] = THRESHOLDS[ADAPT_TAIL[delta] as usize];
        delta += 1;
    }
    table
};

/// [`THRESHOLDS`] of `bias`, out of line: a branch, so that the processor
/// need not wait for `bias` where [`THRESHOLDS_OF_SCALED`] has the
/// thresholds.
#[cold]
#[inline(never)]
fn thresholds_of(bias: u32) -> &'static Thresholds {
    &THRESHOLDS[usize::from(bias as u8)]
}

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

/// The [`CLASSES`] of the input, padded with [`NOT_DIGIT`] (to twice its
/// longest, so that indexing by a remainder needs no bounds check).
type Classes = [u8; 2 * LABEL];

/// Reads the integer at `classes[pos..]`: the integer and its number of
/// digits, or `None` when it must be read digit by digit (more than
/// [`WINDOW`] digits, or a non-digit or the end of the input before its last
/// digit).
///
/// Where each integer ends is a branch: in labels nearly every integer
/// after the first has one or two digits, which the processor predicts well,
/// and a predicted end takes the thresholds off the chain from one integer
/// to the next (selecting the sum without branches, as an earlier version
/// did, kept them on it and was slower than ada-url's plain loop).
#[inline]
fn read_integer(classes: &Classes, pos: usize, thresholds: &Thresholds) -> Option<(u32, usize)> {
    let class = |j: usize| classes[(pos + j) % (2 * LABEL)];
    let max = thresholds.last_digit_max;
    let [w1, w2, w3] = thresholds.weights;
    let c0 = class(0);
    if c0 & NOT_DIGIT != 0 {
        return None;
    }
    let v0 = u32::from(c0 & VALUE);
    if v0 <= max & 0xFF {
        return Some((v0, 1));
    }
    let c1 = class(1);
    if c1 & NOT_DIGIT != 0 {
        return None;
    }
    let v1 = u32::from(c1 & VALUE);
    let two = v0 + v1 * w1;
    if v1 <= (max >> 8) & 0xFF {
        return Some((two, 2));
    }
    let c2 = class(2);
    if c2 & NOT_DIGIT != 0 {
        return None;
    }
    let v2 = u32::from(c2 & VALUE);
    let three = two + v2 * w2;
    if v2 <= (max >> 16) & 0xFF {
        return Some((three, 3));
    }
    let c3 = class(3);
    if c3 & NOT_DIGIT != 0 {
        return None;
    }
    let v3 = u32::from(c3 & VALUE);
    if v3 <= max >> 24 {
        return Some((three + v3 * w3, 4));
    }
    None
}

/// `ceil(2^32 / d)` for every `d` below 128 (0 for 0): `x div d` is then the
/// high half of the 64-bit `x * RECIPROCALS[d]`, exact for every `x` below
/// 2^25 (the error `x * (RECIPROCALS[d] * d - 2^32)` stays below `2^32`).
static RECIPROCALS: [u64; 128] = {
    let mut table = [0; 128];
    let mut d = 1;
    while d < table.len() {
        table[d] = (1u64 << 32).div_ceil(d as u64);
        d += 1;
    }
    table
};

/// `x div d` for `x` below [`SMALL`] and `d` from 1 to 127: one
/// multiplication, and no bounds check.
#[inline]
fn divide(x: u32, d: u32) -> u32 {
    debug_assert!(x < SMALL && (1..128).contains(&d));
    ((u64::from(x) * RECIPROCALS[d as usize % 128]) >> 32) as u32
}

/// While `i` stays below this, section 6.2's loop needs no overflow check
/// and divides by [`divide`]: `n` grows by less than `i` per insertion, so
/// it stays below `2^24 * 64 + INITIAL_N`. An integer read at once is at
/// most 35 * (1 + 35 + 35^2 + 35^3), and `i` before it at most 64, far
/// below.
const SMALL: u32 = 1 << 24;

// What divide() is exact for.
const _: () = assert!(SMALL <= 1 << 25);

/// [`read_delta`], out of line: labels rarely need it, and inlined, it
/// would crowd the registers of the main loop.
#[cold]
#[inline(never)]
fn read_slowly(input: &[u8], pos: usize, i: u32, bias: u32) -> Result<(u32, usize), Error> {
    read_delta(input, pos, i, bias)
}

/// Outputs of at most this many code points are placed through a list of
/// nibbles.
const NIBBLES: usize = 16;

/// Decodes `input` (at most [`LABEL`] bytes) into `output`, which must be
/// empty; same results as [`super::fast`]'s general paths.
pub(super) fn decode(input: &[u8], max_out: u32, output: &mut Decoded) -> Result<(), Error> {
    let mut classes: Classes = [NOT_DIGIT; 2 * LABEL];
    // The masks come from the bytes, not from `classes`: reading its bytes
    // back as words right after storing them one by one would stall.
    let mut delimiters = 0u64;
    let mut non_ascii = 0u64;
    for (k, (class, &c)) in classes.iter_mut().zip(input).enumerate() {
        *class = CLASSES[usize::from(c)];
        delimiters |= u64::from(c == DELIMITER) << k;
        non_ascii |= u64::from(c >> 7) << k;
    }
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

    // Section 6.2's main loop, recording each insertion instead of making
    // it: where (`at`, below 64, with the case flag as IS_UPPER) and what.
    // Each insertion reads at least one byte, so count < LABEL and
    // i <= len < LABEL; the remainders only spare bounds checks.
    let mut at = [0u8; LABEL];
    let mut code_point = [0u32; LABEL];
    let mut count = 0;
    let mut record = |i: u32, n: u32, upper: u8| {
        at[count % LABEL] = i as u8 | upper;
        code_point[count % LABEL] = n;
        count += 1;
    };
    let Progress {
        mut n,
        mut i,
        mut len,
        mut pos,
        ..
    } = Progress::start(b);
    let mut thresholds = &THRESHOLDS[INITIAL_BIAS as usize];
    // What the last adapt() had after its damping and division, for the
    // bias, which this loop needs only to hand over.
    let mut scaled = None;
    while pos < input.len() {
        let oldi = i;
        let end;
        (i, end) = match read_integer(&classes, pos, thresholds) {
            Some((delta, digits)) => (oldi + delta, pos + digits),
            None => {
                let bias = scaled.map_or(INITIAL_BIAS, scaled_bias);
                match read_slowly(input, pos, oldi, bias) {
                    Ok((i, end)) if i < SMALL => (i, end),
                    // Errors, and integers too large for this loop's
                    // shortcuts: the general loop reads the integer again.
                    _ => {
                        let here = Progress {
                            n,
                            i: oldi,
                            bias,
                            len,
                            pos,
                        };
                        insertions(input, here, max_out, |i, n, upper| {
                            record(i, n, if upper { IS_UPPER } else { 0 });
                        })?;
                        break;
                    }
                }
            }
        };
        let delta = i - oldi;
        let damped = if oldi == 0 { delta / DAMP } else { delta / 2 };
        let numpoints = len + 1;
        let wraps = divide(i, numpoints);
        n += wraps;
        i -= wraps * numpoints;
        if len >= max_out {
            return Err(Error::BigOutput);
        }
        record(i, n, classes[(end - 1) % LABEL] & IS_UPPER);
        let now = damped + divide(damped, numpoints);
        thresholds = match THRESHOLDS_OF_SCALED.get(now as usize) {
            Some(thresholds) => thresholds,
            None => thresholds_of(scaled_bias(now)),
        };
        scaled = Some(now);
        len = numpoints;
        i += 1;
        pos = end;
    }

    // Placement, from the last insertion to the first: only later ones moved
    // an insertion, so it goes to the free slot with `at` free slots before
    // it; the literal portion fills the slots left, in order.
    let total = b + count;
    let mut placed = [0u32; LABEL];
    let mut flags = 0u64;
    if total <= NIBBLES {
        // The free slots in order, a nibble each: taking one shifts the
        // later ones down, with no chain through a search.
        let mut free: u64 = 0xFEDC_BA98_7654_3210;
        for (&step, &n) in at[..count].iter().zip(&code_point[..count]).rev() {
            let shift = 4 * u32::from(step & !IS_UPPER);
            let slot = (free >> shift) & 0xF;
            let below = (1u64 << shift) - 1;
            free = (free & below) | ((free >> 4) & !below);
            placed[slot as usize] = n;
            flags |= u64::from(step & IS_UPPER != 0) << slot;
        }
        for (j, &c) in input[..b].iter().enumerate() {
            let slot = (free >> (4 * j)) & 0xF;
            placed[slot as usize] = u32::from(c);
            flags |= u64::from(c.is_ascii_uppercase()) << slot;
        }
    } else {
        let mut slots = Slots::new(total);
        for (&step, &n) in at[..count].iter().zip(&code_point[..count]).rev() {
            let slot = slots.take(u32::from(step & !IS_UPPER));
            placed[slot as usize % LABEL] = n;
            flags |= u64::from(step & IS_UPPER != 0) << slot;
        }
        for &c in &input[..b] {
            let slot = slots.take_first();
            placed[slot as usize % LABEL] = u32::from(c);
            flags |= u64::from(c.is_ascii_uppercase()) << slot;
        }
    }
    if output.code_points.capacity() == 0 {
        // A fresh output: one allocation of the right size, without the
        // growth path's calls.
        output.code_points = Vec::with_capacity(total);
    }
    output.code_points.extend_from_slice(&placed[..total]);
    output.flags.assign_bits(flags, total);
    Ok(())
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

    #[test]
    fn classes_agree_with_the_rfc_functions() {
        for c in 0..=255u8 {
            let class = CLASSES[usize::from(c)];
            match super::super::digit_value(c) {
                Some(value) => {
                    assert_eq!(u32::from(class & VALUE), value);
                    assert_eq!(class & IS_UPPER != 0, c.is_ascii_uppercase());
                    assert_eq!(class & NOT_DIGIT, 0);
                }
                None => {
                    assert_eq!(class & !(IS_DELIMITER | NOT_ASCII), NOT_DIGIT);
                    assert_eq!(class & IS_DELIMITER != 0, c == DELIMITER);
                    assert_eq!(class & NOT_ASCII != 0, !c.is_ascii());
                }
            }
        }
    }

    #[test]
    fn divide_is_exact_below_2_to_the_25() {
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        for d in 1..128u32 {
            let edges = (0..4096).chain((1 << 25) - 4096..1 << 25);
            let random = (0..4096).map(|_| {
                rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                (rng >> 39) as u32
            });
            for x in edges.chain(random) {
                assert_eq!(
                    (u64::from(x) * RECIPROCALS[d as usize]) >> 32,
                    u64::from(x / d),
                    "{x} / {d}"
                );
            }
        }
    }

    #[test]
    fn thresholds_of_scaled_deltas_are_those_of_their_bias() {
        for (delta, entry) in THRESHOLDS_OF_SCALED.iter().enumerate() {
            // Halved, and divided by more points than it has: `delta`.
            let delta = delta as u32;
            let bias = super::super::adapt(2 * delta, 2 * delta + 1, false);
            let want = &THRESHOLDS[bias as usize];
            assert_eq!(entry.last_digit_max, want.last_digit_max, "{delta}");
            assert_eq!(entry.weights, want.weights, "{delta}");
        }
    }

    #[test]
    fn thresholds_table_matches_the_rfc() {
        // Every bias adapt() can return is in the table.
        let most = (0..=u32::MAX)
            .step_by(4099)
            .chain([u32::MAX])
            .flat_map(|delta| {
                [
                    super::super::adapt(delta, 1, false),
                    super::super::adapt(delta, 1, true),
                ]
            })
            .max();
        assert!(
            most.is_some_and(|bias| (bias as usize) < BIASES),
            "{most:?}"
        );
        for (bias, entry) in THRESHOLDS.iter().enumerate() {
            let mut weight = 1;
            for j in 0..WINDOW {
                let t = super::super::threshold(BASE * (j as u32 + 1), bias as u32);
                assert_eq!((entry.last_digit_max >> (8 * j)) & 0xFF, t - 1);
                if j > 0 {
                    assert_eq!(entry.weights[j - 1], weight);
                }
                weight *= BASE - t;
            }
        }
    }
}

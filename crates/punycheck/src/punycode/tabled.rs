//! Section 6.2's main loop with the thresholds of each bias tabled, which
//! both decoders run: the label decoder (`label.rs`) and the one for longer
//! Punycode (`fast.rs`). It gives exactly [`super::steps::step`]'s results,
//! one step after the other, and takes that step itself wherever its
//! shortcuts do not hold, so that errors stay the RFC's.
//!
//! Section 6.2 read literally spends most of its time in branches the
//! processor cannot predict (where each variable-length integer ends) and in
//! the chain of latencies from one bias to the next. Here:
//!
//! - each integer of up to [`WINDOW`] digits is read with the thresholds
//!   and weights of its bias tabled ([`read_integer`]): where it ends is the
//!   one branch that depends on the data, and predicted, it keeps the
//!   thresholds off the chain of latencies;
//! - the thresholds are a row of [`TABLE`], a table per field, and the row
//!   of the next integer is the delta adapt() has after its damping and
//!   division ([`row_of_scaled`]), for nearly every delta a step: no
//!   bias, and no multiplication to form the addresses, on the chain;
//! - while `i` stays below [`SMALL`] (always, in labels), no overflow check
//!   is needed, and the divisions by the output's length are
//!   multiplications ([`Lengths`]).
//!
//! Integers that are longer, or hold a non-digit or the end of the input
//! before their last digit, and steps where `i` is large, are taken by
//! [`step`], digit by digit, failing exactly where the RFC does; the loop
//! goes on from where it left off.

use super::steps::{
    ADAPT_LOOP_END, ADAPT_TAIL, DIGIT_VALUES, Divisor, NO_DIGIT, Progress, scaled_bias, step,
};
use super::{BASE, DAMP, Error, INITIAL_BIAS, OverflowCheck, threshold};

/// How many digits one integer may have to be read at once: four cover
/// nearly every integer of a label (the first is typically three or four
/// digits, the others one or two) and of the long inputs.
const WINDOW: usize = 4;

/// [`CLASSES`] of a byte that is no digit.
const NOT_DIGIT: u8 = 0x80;
/// With a digit value: the byte is an uppercase letter.
const IS_UPPER: u8 = 0x40;
/// The bits of [`CLASSES`] that hold a digit value.
const VALUE: u8 = 0x3F;

/// What [`read_integer`] needs of a byte, in one: its digit value
/// ([`VALUE`]) with [`IS_UPPER`], or [`NOT_DIGIT`].
static CLASSES: [u8; 256] = {
    let mut table = [NOT_DIGIT; 256];
    let mut c = 0;
    while c < 256 {
        let value = DIGIT_VALUES[c];
        if value != NO_DIGIT {
            table[c] = value
                | if (c as u8).is_ascii_uppercase() {
                    IS_UPPER
                } else {
                    0
                };
        }
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

/// [`Thresholds`] of `bias`.
const fn thresholds(bias: u32) -> Thresholds {
    let mut entry = Thresholds {
        last_digit_max: 0,
        weights: [0; WINDOW - 1],
    };
    let mut weight = 1;
    let mut j = 0;
    while j < WINDOW {
        let t = threshold(BASE * (j as u32 + 1), bias);
        entry.last_digit_max |= (t - 1) << (8 * j);
        if j > 0 {
            entry.weights[j - 1] = weight;
        }
        weight *= BASE - t;
        j += 1;
    }
    entry
}

/// Rows of [`TABLE`] for the deltas adapt() has after its damping and
/// division that take no round of its loop (nearly all): row `d` holds the
/// thresholds of the bias adapt() returns for `d`. The rows of the biases
/// follow.
const SCALED_ROWS: usize = ADAPT_LOOP_END as usize + 1;

/// More than the largest bias adapt() returns (at most five divisions of
/// `BASE` each, and a last term below `BASE`; checked in the tests), so
/// that every bias has a row.
const BIASES: usize = 256;

/// Rows of [`TABLE`].
const ROWS: usize = SCALED_ROWS + BIASES;

/// [`Thresholds`] by row, a table per field, so that a row number indexes
/// every load: row `d` below [`SCALED_ROWS`] holds those of the bias
/// adapt() returns for the scaled delta `d`, row `SCALED_ROWS + bias` those
/// of `bias`.
struct Table {
    last_digit_max: [u32; ROWS],
    weights: [[u32; ROWS]; WINDOW - 1],
}

static TABLE: Table = {
    let mut table = Table {
        last_digit_max: [0; ROWS],
        weights: [[0; ROWS]; WINDOW - 1],
    };
    let mut row = 0;
    while row < ROWS {
        let entry = thresholds(bias_of_row(row));
        table.last_digit_max[row] = entry.last_digit_max;
        let mut j = 0;
        while j < WINDOW - 1 {
            table.weights[j][row] = entry.weights[j];
            j += 1;
        }
        row += 1;
    }
    table
};

/// The bias whose thresholds row `row` of [`TABLE`] holds.
const fn bias_of_row(row: usize) -> u32 {
    if row < SCALED_ROWS {
        ADAPT_TAIL[row] as u32
    } else {
        (row - SCALED_ROWS) as u32
    }
}

/// The row of [`TABLE`] for the bias adapt() returns when its damped and
/// divided delta is `scaled`.
#[inline]
fn row_of_scaled(scaled: u32) -> usize {
    if (scaled as usize) < SCALED_ROWS {
        scaled as usize
    } else {
        SCALED_ROWS + usize::from(scaled_bias(scaled) as u8)
    }
}

/// Reads the integer at `input[pos..]` with the thresholds of row `row`:
/// the integer, its number of digits and whether its last digit is
/// uppercase; or `None` when it must be read digit by digit (more than
/// [`WINDOW`] digits, or a non-digit or the end of the input before its
/// last digit).
///
/// Where each integer ends is a branch: in labels nearly every integer
/// after the first has one or two digits, which the processor predicts well
/// enough, and a predicted end takes the thresholds off the chain from one
/// integer to the next (selecting the sum without branches kept them on it
/// and was slower than ada-url's plain loop, twice over).
#[inline]
fn read_integer(input: &[u8], pos: usize, row: usize) -> Option<(u32, usize, bool)> {
    let class = |j: usize| {
        input
            .get(pos + j)
            .map_or(NOT_DIGIT, |&c| CLASSES[usize::from(c)])
    };
    let max = TABLE.last_digit_max[row];
    let [w1, w2, w3] = [
        TABLE.weights[0][row],
        TABLE.weights[1][row],
        TABLE.weights[2][row],
    ];
    let upper = |c: u8| c & IS_UPPER != 0;
    let c0 = class(0);
    if c0 & NOT_DIGIT != 0 {
        return None;
    }
    let v0 = u32::from(c0 & VALUE);
    if v0 <= max & 0xFF {
        return Some((v0, 1, upper(c0)));
    }
    let c1 = class(1);
    if c1 & NOT_DIGIT != 0 {
        return None;
    }
    let v1 = u32::from(c1 & VALUE);
    let two = v0 + v1 * w1;
    if v1 <= (max >> 8) & 0xFF {
        return Some((two, 2, upper(c1)));
    }
    let c2 = class(2);
    if c2 & NOT_DIGIT != 0 {
        return None;
    }
    let v2 = u32::from(c2 & VALUE);
    let three = two + v2 * w2;
    if v2 <= (max >> 16) & 0xFF {
        return Some((three, 3, upper(c2)));
    }
    let c3 = class(3);
    if c3 & NOT_DIGIT != 0 {
        return None;
    }
    let v3 = u32::from(c3 & VALUE);
    if v3 <= max >> 24 {
        return Some((three + v3 * w3, 4, upper(c3)));
    }
    None
}

/// While `i` stays below this, a step needs no overflow check, and the
/// divisions of [`ShortLengths`] are exact: an integer read at once is at
/// most 35 * (1 + 35 + 35^2 + 35^3), below 2^21, so `i` stays below 2^25,
/// and `n` grows by at most `i` per step.
const SMALL: u32 = 1 << 24;

/// The largest integer [`read_integer`] returns.
const MOST_AT_ONCE: u32 = 35 * (1 + 35 + 35 * 35 + 35 * 35 * 35);

const _: () = assert!(SMALL as u64 + MOST_AT_ONCE as u64 <= 1 << 25);

/// Divisions by the output's length plus one (`numpoints`), which the loop
/// knows a step ahead: `Self::new` can take its time off the chain of
/// latencies.
pub(super) trait Lengths: Copy {
    /// Divisions by `numpoints` (at least 1).
    fn new(numpoints: u32) -> Self;
    /// `x div numpoints`, for `x` below `2^25`.
    fn divide(self, x: u32) -> u32;
    /// adapt()'s damping and division after the first delta: `(delta div
    /// 2) + (delta div 2) div numpoints`, for `delta` below `2^25`.
    fn halved(self, delta: u32) -> u32;
}

/// `ceil(2^32 / d)` for every `d` below 256 (0 for 0): `x div d` is then the
/// high half of the 64-bit `x * RECIPROCALS[d]`, exact for every `x` with
/// `x * d` below `2^32` (the error `x * (RECIPROCALS[d] * d - 2^32)` stays
/// below `2^32`).
static RECIPROCALS: [u64; 256] = {
    let mut table = [0; 256];
    let mut d = 1;
    while d < table.len() {
        table[d] = (1u64 << 32).div_ceil(d as u64);
        d += 1;
    }
    table
};

/// [`Lengths`] of labels: `numpoints` at most 65, looked up.
#[derive(Clone, Copy)]
pub(super) struct ShortLengths {
    /// `RECIPROCALS[numpoints]`.
    once: u64,
    /// `RECIPROCALS[2 * numpoints]`: `(delta div 2) div numpoints` is
    /// `delta div (2 * numpoints)`, a multiplication beside the halving
    /// rather than after it.
    twice: u64,
}

impl Lengths for ShortLengths {
    #[inline]
    fn new(numpoints: u32) -> Self {
        debug_assert!((1..=65).contains(&numpoints));
        ShortLengths {
            once: RECIPROCALS[numpoints as usize % 256],
            twice: RECIPROCALS[(2 * numpoints) as usize % 256],
        }
    }

    #[inline]
    fn divide(self, x: u32) -> u32 {
        ((u64::from(x) * self.once) >> 32) as u32
    }

    #[inline]
    fn halved(self, delta: u32) -> u32 {
        (delta >> 1) + ((u64::from(delta) * self.twice) >> 32) as u32
    }
}

/// [`Lengths`] of any length, through [`Divisor`].
impl Lengths for Divisor {
    #[inline]
    fn new(numpoints: u32) -> Self {
        Divisor::new(numpoints)
    }

    #[inline]
    fn divide(self, x: u32) -> u32 {
        Divisor::divide(self, x)
    }

    #[inline]
    fn halved(self, delta: u32) -> u32 {
        let damped = delta >> 1;
        damped + Divisor::divide(self, damped)
    }
}

/// [`step`], out of line: the loop rarely needs it, and inlined, it would
/// crowd the registers of the loop.
#[cold]
#[inline(never)]
fn step_slowly(input: &[u8], at: &mut Progress, max_out: u32) -> Result<(u32, u32, bool), Error> {
    step(input, at, max_out)
}

/// Section 6.2's main loop without its output, after a literal portion of
/// `b` code points: calls `insert(i, n, flag)` for each code point `n` that
/// it inserts at index `i` (at most the output's length then), with the
/// RFC's errors at exactly the RFC's points.
#[inline(always)]
pub(super) fn insertions<L: Lengths>(
    input: &[u8],
    b: usize,
    max_out: u32,
    mut insert: impl FnMut(u32, u32, bool),
) -> Result<(), Error> {
    let Progress {
        mut n,
        mut i,
        mut len,
        mut pos,
        ..
    } = Progress::start(b);
    let mut row = SCALED_ROWS + INITIAL_BIAS as usize;
    while pos < input.len() {
        let oldi = i;
        let numpoints = len + 1;
        let lengths = L::new(numpoints);
        let read = match read_integer(input, pos, row) {
            Some(read) if oldi < SMALL => Some(read),
            _ => None,
        };
        let Some((delta, digits, upper)) = read else {
            // Digit by digit, and with every overflow check.
            let mut at = Progress {
                n,
                i: oldi,
                bias: bias_of_row(row),
                len,
                pos,
            };
            let (i_here, n_here, upper) = step_slowly(input, &mut at, max_out)?;
            insert(i_here, n_here, upper);
            Progress { n, i, len, pos, .. } = at;
            row = SCALED_ROWS + at.bias as usize % BIASES;
            continue;
        };
        i = oldi + delta;
        let scaled = if oldi == 0 {
            let damped = delta / DAMP;
            damped + lengths.divide(damped)
        } else {
            lengths.halved(delta)
        };
        let wraps = lengths.divide(i);
        // Only after steps taken digit by digit can the code point come
        // near maxint: section 6.2 fails at the integer's last digit.
        n = n.checked_add(wraps).ok_or(Error::Overflow {
            check: OverflowCheck::DecodeCodePoint,
            position: pos + digits - 1,
        })?;
        i -= wraps * numpoints;
        if len >= max_out {
            return Err(Error::BigOutput);
        }
        insert(i, n, upper);
        row = row_of_scaled(scaled);
        len = numpoints;
        i += 1;
        pos += digits;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
                None => assert_eq!(class, NOT_DIGIT),
            }
        }
    }

    #[test]
    fn short_lengths_divide_exactly() {
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        for numpoints in 1..=65u32 {
            let lengths = ShortLengths::new(numpoints);
            let long = <Divisor as Lengths>::new(numpoints);
            let edges = (0..4096).chain((1 << 25) - 4096..1 << 25);
            let random = (0..4096).map(|_| {
                rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                (rng >> 39) as u32
            });
            for x in edges.chain(random) {
                assert_eq!(lengths.divide(x), x / numpoints, "{x} / {numpoints}");
                assert_eq!(long.divide(x), x / numpoints, "{x} / {numpoints}");
                let want = x / 2 + (x / 2) / numpoints;
                assert_eq!(lengths.halved(x), want, "halved {x}, {numpoints}");
                assert_eq!(long.halved(x), want, "halved {x}, {numpoints}");
            }
        }
    }

    #[test]
    fn rows_hold_the_thresholds_of_their_bias() {
        for (row, &max) in TABLE.last_digit_max.iter().enumerate() {
            let bias = if row < SCALED_ROWS {
                // Halved, and divided by more points than it has: `row`.
                let delta = row as u32;
                super::super::adapt(2 * delta, 2 * delta + 1, false)
            } else {
                (row - SCALED_ROWS) as u32
            };
            assert_eq!(bias_of_row(row), bias, "row {row}");
            let mut weight = 1;
            for j in 0..WINDOW {
                let t = threshold(BASE * (j as u32 + 1), bias);
                assert_eq!((max >> (8 * j)) & 0xFF, t - 1, "row {row}");
                if j > 0 {
                    assert_eq!(TABLE.weights[j - 1][row], weight, "row {row}");
                }
                weight *= BASE - t;
            }
        }
    }

    /// After steps taken digit by digit bring the code point to maxint, a
    /// step read at once fails where the RFC does, in labels and in longer
    /// input alike.
    #[test]
    fn code_point_overflow_after_a_long_integer() {
        // U+FFFFFFFF alone: its one integer has more digits than are read
        // at once. Then "ba": at the bias that leaves (139), 'b' (1) does
        // not end an integer and 'a' (0) does: 1 + 0 * 35, so i = 2, and
        // n + 2 div 2 passes maxint.
        let mut input =
            super::super::encode_naive(&[u32::MAX], None, u32::MAX).expect("U+FFFFFFFF encodes");
        let last_digit = input.len() + 1;
        input.extend_from_slice(b"ba");
        for length in [input.len(), 100, 300] {
            let mut padded = input.clone();
            padded.resize(length, b'a');
            let want = Err(Error::Overflow {
                check: OverflowCheck::DecodeCodePoint,
                position: last_digit,
            });
            assert_eq!(super::super::decode(&padded), want, "{length} bytes");
            assert_eq!(
                super::super::decode_naive(&padded, u32::MAX),
                want,
                "{length} bytes"
            );
        }
    }

    #[test]
    fn every_bias_has_a_row() {
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
        // Every scaled delta finds the row of its bias.
        for scaled in (0..20_000).chain((0..=u32::MAX).step_by(65_537)) {
            let row = row_of_scaled(scaled);
            assert_eq!(bias_of_row(row), scaled_bias(scaled), "{scaled}");
        }
    }

    #[test]
    fn the_largest_integer_read_at_once_is_most_at_once() {
        // Four digits, each at its largest (z is 25, 9 is 35), at bias 0:
        // thresholds 26, weights 10, 100, 1000 (fewer than 35^3).
        let read = read_integer(b"9999", 0, SCALED_ROWS);
        assert_eq!(read, None, "9 never ends an integer at bias 0");
        let most = (0..ROWS)
            .filter_map(|row| {
                let max = TABLE.last_digit_max[row];
                // The largest digit that ends the integer at its fourth.
                let last = (max >> 24) & 0xFF;
                let digits = [b'9', b'9', b'9', super::super::digit_char(last, false)];
                read_integer(&digits, 0, row).map(|(value, _, _)| value)
            })
            .max();
        assert!(most.is_some_and(|most| most <= MOST_AT_ONCE), "{most:?}");
    }
}

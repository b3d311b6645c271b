//! The steps of section 6 that the fast paths share, the general one
//! (`fast.rs`), the label decoder (`label.rs`) and the tabled loop
//! (`tabled.rs`): the digit values, adapt() without branches, division
//! through reciprocals, and one step of section 6.2's main loop digit by
//! digit ([`step`]), with every overflow check, which the tabled loop takes
//! wherever its shortcuts do not hold.
//!
//! Every path must give exactly the RFC's results, so a change here is
//! checked by the tests of all (`cargo test --lib punycode`, and the
//! differential tests against the C reference).

use super::{
    BASE, BadInputReason, DAMP, Error, INITIAL_BIAS, INITIAL_N, OverflowCheck, SKEW, T_MAX, T_MIN,
    threshold,
};

/// Inputs of at most this many elements take the short-label paths: every
/// set of positions fits in one `u64`, and nothing is allocated but the
/// result.
pub(super) const SHORT: usize = 64;

/// Marks a byte without a digit value in [`DIGIT_VALUES`].
pub(super) const NO_DIGIT: u8 = u8::MAX;

/// The digit value of every byte (section 5), [`NO_DIGIT`] for none.
pub(super) static DIGIT_VALUES: [u8; 256] = {
    let mut table = [NO_DIGIT; 256];
    let mut d = 0;
    while d < 26 {
        table[(b'a' + d) as usize] = d;
        table[(b'A' + d) as usize] = d;
        d += 1;
    }
    while d < 36 {
        table[(b'0' + d - 26) as usize] = d;
        d += 1;
    }
    table
};

/// Where adapt()'s loop stops: `((base - tmin) * tmax) div 2`.
pub(super) const ADAPT_LOOP_END: u32 = ((BASE - T_MIN) * T_MAX) / 2;

/// The last term of adapt(), `((base - tmin + 1) * delta) div (delta + skew)`,
/// for every `delta` it can have after the loop (at most [`ADAPT_LOOP_END`]).
pub(super) static ADAPT_TAIL: [u8; ADAPT_LOOP_END as usize + 1] = {
    let mut table = [0; ADAPT_LOOP_END as usize + 1];
    let mut delta = 0;
    while delta <= ADAPT_LOOP_END {
        // Below base, so the narrowing is exact.
        table[delta as usize] = (((BASE - T_MIN + 1) * delta) / (delta + SKEW)) as u8;
        delta += 1;
    }
    table
};

/// `ceil(2^64 / d)` for the divisors of short labels (2 to [`SHORT`] + 1):
/// `x div d` is then the high half of `x * RECIPROCALS[d]`, exact for every
/// 32-bit `x` (the error `x * (RECIPROCALS[d] * d - 2^64)` stays below
/// `2^64 / d`), and a multiplication is several times cheaper than a division.
static RECIPROCALS: [u64; SHORT + 2] = {
    let mut table = [0; SHORT + 2];
    let mut d = 2;
    while d < table.len() {
        table[d] = u64::MAX / d as u64 + 1;
        d += 1;
    }
    table
};

/// A divisor of 32-bit values, with its reciprocal `ceil(2^64 / d)`:
/// dividing is then taking the high half of a multiplication, exact for
/// every 32-bit `x` (see [`RECIPROCALS`]), and several times cheaper than a
/// division. The decoder's divisor is the output's length plus one, known
/// before the data it divides, so its reciprocal is computed off the chain
/// of latencies from one integer to the next.
#[derive(Clone, Copy)]
pub(super) struct Divisor {
    d: u32,
    /// `ceil(2^64 / d)`; 0 for 1, whose reciprocal does not fit.
    reciprocal: u64,
}

impl Divisor {
    /// `d`, which must not be 0; looked up in [`RECIPROCALS`] for a short
    /// label's lengths.
    #[inline]
    pub(super) fn new(d: u32) -> Self {
        Self::tabled(d).unwrap_or(Divisor {
            d,
            reciprocal: (u64::MAX / u64::from(d)).wrapping_add(1),
        })
    }

    /// `d` when [`RECIPROCALS`] has it.
    #[inline]
    fn tabled(d: u32) -> Option<Self> {
        let &reciprocal = RECIPROCALS.get(d as usize)?;
        Some(Divisor { d, reciprocal })
    }

    /// `x div d`.
    #[inline]
    pub(super) fn divide(self, x: u32) -> u32 {
        if self.d == 1 {
            x
        } else {
            ((u128::from(x) * u128::from(self.reciprocal)) >> 64) as u32
        }
    }
}

/// How far adapt()'s loop goes: after `c` divisions by `base - tmin`, the
/// loop stops when `delta <= ADAPT_STEPS[c]`; a larger `delta` takes another.
/// Five divisions bring any 32-bit value down (see
/// `weight_overflow_is_unreachable` in [`super`]).
const ADAPT_STEPS: [u32; 5] = {
    let mut steps = [0; 5];
    let mut limit = ADAPT_LOOP_END as u64;
    let mut c = 0;
    while c < 5 {
        steps[c] = limit as u32;
        // The largest x with x div (base - tmin) <= limit.
        limit = limit * (BASE - T_MIN) as u64 + (BASE - T_MIN) as u64 - 1;
        c += 1;
    }
    table_check(limit);
    steps
};

/// Fails the build unless five divisions suffice for every 32-bit delta.
const fn table_check(limit_after_five: u64) {
    assert!(limit_after_five >= u32::MAX as u64);
}

/// `ceil(2^64 / (base - tmin)^c)`, for dividing by the `c` divisions of
/// adapt()'s loop at once (floor of floors is the floor of the product).
static ADAPT_RECIPROCALS: [u64; 6] = {
    let mut table = [0; 6];
    let mut power: u64 = 1;
    let mut c = 1;
    while c < 6 {
        power *= (BASE - T_MIN) as u64;
        table[c] = u64::MAX / power + 1;
        c += 1;
    }
    table
};

/// The bias after the damping and the `delta div numpoints` of adapt(), for
/// every such `delta` that takes at most one round of its loop: a lookup
/// instead of the loop's comparisons, multiplications and tail, which all
/// lie on the decoder's critical path from one delta to the next.
static ADAPT_SHORT: [u8; ADAPT_STEPS[1] as usize + 1] = {
    let mut table = [0; ADAPT_STEPS[1] as usize + 1];
    let mut delta = 0;
    while delta < table.len() {
        let (rounds, rest) = if delta as u32 > ADAPT_LOOP_END {
            (1, delta as u32 / (BASE - T_MIN))
        } else {
            (0, delta as u32)
        };
        // At most base + 35, so the narrowing is exact.
        table[delta] = (BASE * rounds + ADAPT_TAIL[rest as usize] as u32) as u8;
        delta += 1;
    }
    table
};

/// [`super::adapt`], looked up in [`ADAPT_SHORT`] for the deltas short
/// labels have, and otherwise without branches that depend on the data: its
/// loop is counted with comparisons and done as one multiplication, its
/// divisions by variables go through reciprocals, and its last one is
/// looked up.
#[inline]
pub(super) fn adapt(delta: u32, numpoints: u32, firsttime: bool) -> u32 {
    // Used once, a divisor past the table is cheaper divided by than
    // turned into a reciprocal.
    adapt_with(delta, firsttime, |x| {
        Divisor::tabled(numpoints).map_or_else(|| x / numpoints, |d| d.divide(x))
    })
}

/// [`adapt`], with `div numpoints` done by `divide`.
#[inline]
fn adapt_with(delta: u32, firsttime: bool, divide: impl Fn(u32) -> u32) -> u32 {
    let mut delta = if firsttime { delta / DAMP } else { delta / 2 };
    delta += divide(delta);
    scaled_bias(delta)
}

/// The rest of [`adapt`] once `delta` is damped and `delta div numpoints`
/// added: its loop and its last term.
#[inline]
pub(super) fn scaled_bias(mut delta: u32) -> u32 {
    if let Some(&bias) = ADAPT_SHORT.get(delta as usize) {
        return u32::from(bias);
    }
    let divisions = ADAPT_STEPS.iter().filter(|&&limit| delta > limit).count();
    if divisions > 0 {
        let reciprocal = ADAPT_RECIPROCALS[divisions];
        delta = ((u128::from(delta) * u128::from(reciprocal)) >> 64) as u32;
    }
    BASE * divisions as u32 + u32::from(ADAPT_TAIL[delta as usize])
}

/// Where section 6.2's main loop stands between two integers.
#[derive(Clone, Copy, Debug)]
pub(super) struct Progress {
    /// The code point of the last insertion (`INITIAL_N` before any).
    pub(super) n: u32,
    /// Where the next delta counts from.
    pub(super) i: u32,
    /// The bias of the next integer.
    pub(super) bias: u32,
    /// The output's length so far.
    pub(super) len: u32,
    /// The position of the next integer's first digit.
    pub(super) pos: usize,
}

impl Progress {
    /// Before the first integer, after a literal portion of `b` code points.
    pub(super) fn start(b: usize) -> Self {
        Progress {
            n: INITIAL_N,
            i: 0,
            bias: INITIAL_BIAS,
            // The output is never longer than the input, which fits in u32.
            len: b as u32,
            pos: if b > 0 { b + 1 } else { 0 },
        }
    }
}

/// One step of section 6.2's main loop from `at`, which it moves on: reads
/// one integer, and returns where its code point is inserted (an index of
/// at most the output's length), the code point, and its case flag; with
/// the RFC's errors at exactly the RFC's points.
#[inline]
pub(super) fn step(
    input: &[u8],
    at: &mut Progress,
    max_out: u32,
) -> Result<(u32, u32, bool), Error> {
    let Progress {
        n,
        i: oldi,
        bias,
        len,
        pos,
    } = *at;
    let numpoints = Divisor::new(len + 1);
    let (i, pos) = read_delta(input, pos, oldi, bias)?;
    let bias = adapt_with(i - oldi, oldi == 0, |x| numpoints.divide(x));
    let wraps = numpoints.divide(i);
    let n = n.checked_add(wraps).ok_or(Error::Overflow {
        check: OverflowCheck::DecodeCodePoint,
        position: pos - 1,
    })?;
    let i = i - wraps * (len + 1);
    if len >= max_out {
        return Err(Error::BigOutput);
    }
    *at = Progress {
        n,
        i: i + 1,
        bias,
        len: len + 1,
        pos,
    };
    Ok((i, n, input[pos - 1].is_ascii_uppercase()))
}

/// Reads one generalized variable-length integer (section 6.2's inner loop)
/// from `input[pos..]` with `bias`, adding it to `i`: returns the new `i` and
/// the position after its last digit, or the RFC's error at its exact point.
#[inline(always)]
fn read_delta(input: &[u8], mut pos: usize, mut i: u32, bias: u32) -> Result<(u32, usize), Error> {
    let mut w: u32 = 1;
    let mut k = BASE;
    loop {
        let Some(&c) = input.get(pos) else {
            return Err(Error::BadInput {
                position: pos,
                reason: BadInputReason::UnexpectedEnd,
            });
        };
        let digit = DIGIT_VALUES[usize::from(c)];
        if digit == NO_DIGIT {
            return Err(Error::BadInput {
                position: pos,
                reason: BadInputReason::NotADigit,
            });
        }
        let digit = u32::from(digit);
        i = digit
            .checked_mul(w)
            .and_then(|add| i.checked_add(add))
            .ok_or(Error::Overflow {
                check: OverflowCheck::DecodeDigit,
                position: pos,
            })?;
        pos += 1;
        let t = threshold(k, bias);
        if digit < t {
            return Ok((i, pos));
        }
        w = w.checked_mul(BASE - t).ok_or(Error::Overflow {
            check: OverflowCheck::DecodeWeight,
            position: pos - 1,
        })?;
        k += BASE;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divide_is_exact() {
        let xs = (0..70_000).chain((0..=u32::MAX).step_by(9_973)).chain([
            u32::MAX,
            u32::MAX - 1,
            1 << 31,
        ]);
        for x in xs {
            for d in 1..=(SHORT as u32 + 3) {
                assert_eq!(Divisor::new(d).divide(x), x / d, "{x} / {d}");
            }
            for d in [1000, 65_537, 1 << 31, u32::MAX - 1, u32::MAX] {
                assert_eq!(Divisor::new(d).divide(x), x / d, "{x} / {d}");
            }
        }
    }

    #[test]
    fn tables_agree_with_the_rfc_functions() {
        for c in 0..=255u8 {
            let value = super::super::digit_value(c);
            let looked_up = Some(DIGIT_VALUES[usize::from(c)]).filter(|&d| d != NO_DIGIT);
            assert_eq!(looked_up.map(u32::from), value, "byte {c}");
        }
        // Every delta up to well past the loop's end, then a spread to maxint.
        let deltas = (0..100_000)
            .chain((0..=u32::MAX).step_by(65_537))
            .chain([u32::MAX]);
        for delta in deltas {
            for numpoints in [1, 2, 3, 7, 64, 1000, u32::MAX] {
                for first in [false, true] {
                    assert_eq!(
                        adapt(delta, numpoints, first),
                        super::super::adapt(delta, numpoints, first),
                        "adapt({delta}, {numpoints}, {first})"
                    );
                }
            }
        }
    }
}

//! The encoder and decoder behind [`super::encode`] and [`super::decode`]:
//! the same results as [`super::simple`], in O(n log n) (see the module
//! docs of [`super`], section "Performance").

use super::blocks::Blocks;
use super::fenwick::Marks;
use super::label;
use super::{
    BASE, BadInputReason, CaseFlags, DAMP, DELIMITER, Decoded, Error, INITIAL_BIAS, INITIAL_N,
    OverflowCheck, SKEW, T_MAX, T_MIN, check_length, is_basic, threshold,
};

/// Inputs of at most this many elements take the short-label paths: every
/// set of positions fits in one `u64`, and nothing is allocated but the
/// result.
const SHORT: usize = 64;

/// Punycode of at most this many bytes is decoded by inserting into the
/// output (each insertion moves at most this many elements).
const SHORT_DECODE: usize = 256;

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

/// The basic code point of each digit value, lowercase and uppercase.
const DIGITS: [&[u8; 36]; 2] = [
    b"abcdefghijklmnopqrstuvwxyz0123456789",
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
];

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
struct Divisor {
    d: u32,
    /// `ceil(2^64 / d)`; 0 for 1, whose reciprocal does not fit.
    reciprocal: u64,
}

impl Divisor {
    /// `d`, which must not be 0; looked up in [`RECIPROCALS`] for a short
    /// label's lengths.
    #[inline]
    fn new(d: u32) -> Self {
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
    fn divide(self, x: u32) -> u32 {
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
fn adapt(delta: u32, numpoints: u32, firsttime: bool) -> u32 {
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

/// `(q div (base - t), q mod (base - t))`, with the two thresholds nearly
/// every digit has (tmin and tmax) divided by constants.
#[inline]
fn split(q: u32, t: u32) -> (u32, u32) {
    match t {
        T_MIN => (q / (BASE - T_MIN), q % (BASE - T_MIN)),
        T_MAX => (q / (BASE - T_MAX), q % (BASE - T_MAX)),
        _ => (q / (BASE - t), q % (BASE - t)),
    }
}

/// Appends `q` as a generalized variable-length integer (section 6.3's inner
/// loop), failing as the C reference does when a digit would pass `max_out`.
#[inline]
fn push_delta(
    output: &mut Vec<u8>,
    mut q: u32,
    bias: u32,
    upper: bool,
    max_out: u32,
) -> Result<(), Error> {
    let mut k = BASE;
    loop {
        if output.len() >= max_out as usize {
            return Err(Error::BigOutput);
        }
        let t = threshold(k, bias);
        if q < t {
            break;
        }
        let (rest, digit) = split(q - t, t);
        output.push(DIGITS[0][(t + digit) as usize]);
        q = rest;
        k += BASE;
    }
    output.push(DIGITS[usize::from(upper)][q as usize]);
    Ok(())
}

/// A set of input positions: those holding code points already handled
/// (smaller than the current `n`).
trait Positions {
    /// How many positions below `position` are in the set.
    fn count_before(&self, position: usize) -> u32;
    /// The position in the set with `rank` positions of the set before it.
    fn nth(&self, rank: u32) -> usize;
    /// Adds `position`.
    fn add(&mut self, position: usize);
}

/// Positions below 64, one bit each.
impl Positions for u64 {
    fn count_before(&self, position: usize) -> u32 {
        (self & ((1u64 << position) - 1)).count_ones()
    }

    fn nth(&self, rank: u32) -> usize {
        let mut rest = *self;
        for _ in 0..rank {
            rest &= rest - 1;
        }
        rest.trailing_zeros() as usize
    }

    fn add(&mut self, position: usize) {
        *self |= 1 << position;
    }
}

impl Positions for Marks {
    fn count_before(&self, position: usize) -> u32 {
        Marks::count_before(self, position)
    }

    fn nth(&self, rank: u32) -> usize {
        Marks::nth(self, rank)
    }

    fn add(&mut self, position: usize) {
        self.mark(position);
    }
}

/// Packs a non-basic code point and its position so that sorting orders by
/// code point, then position.
fn key(cp: u32, position: usize) -> u64 {
    (u64::from(cp) << 32) | position as u64
}

fn key_code_point(key: u64) -> u32 {
    (key >> 32) as u32
}

fn key_position(key: u64) -> usize {
    key as u32 as usize
}

/// Encodes into `output` (cleared first; left empty on error).
pub(super) fn encode(
    input: &[u32],
    case_flags: Option<&[bool]>,
    max_out: u32,
    output: &mut Vec<u8>,
) -> Result<(), Error> {
    output.clear();
    let result = encode_inner(input, case_flags, max_out, output);
    if result.is_err() {
        output.clear();
    }
    result
}

fn encode_inner(
    input: &[u32],
    case_flags: Option<&[bool]>,
    max_out: u32,
    output: &mut Vec<u8>,
) -> Result<(), Error> {
    check_length(input.len())?;
    if let Some(flags) = case_flags.filter(|f| f.len() != input.len()) {
        return Err(Error::BadInput {
            position: flags.len().min(input.len()),
            reason: BadInputReason::FlagsLength,
        });
    }
    // Typical output is shorter than twice the input; larger grows as needed.
    output.reserve(input.len().saturating_mul(2).saturating_add(8));
    for (j, &cp) in input.iter().enumerate() {
        if is_basic(cp) {
            // Room for this code point and the delimiter that will follow.
            if max_out as usize - output.len() < 2 {
                return Err(Error::BigOutput);
            }
            // cp < 0x80, so the narrowing is exact.
            let c = cp as u8;
            output.push(match case_flags {
                Some(flags) if flags[j] => c.to_ascii_uppercase(),
                Some(_) => c.to_ascii_lowercase(),
                None => c,
            });
        }
    }
    let b = output.len();
    if b == input.len() {
        if b > 0 {
            output.push(DELIMITER);
        }
        return Ok(());
    }
    if b > 0 {
        output.push(DELIMITER);
    }
    let deltas = Deltas {
        input,
        case_flags,
        basic: b as u32,
        max_out,
    };
    if input.len() <= SHORT {
        let mut keys = [0u64; SHORT];
        let mut handled = 0u64;
        let mut count = 0;
        for (j, &cp) in input.iter().enumerate() {
            if is_basic(cp) {
                handled.add(j);
            } else {
                keys[count] = key(cp, j);
                count += 1;
            }
        }
        let keys = &mut keys[..count];
        keys.sort_unstable();
        deltas.encode(Round::first(deltas.basic), keys, &mut handled, output)?;
    } else {
        let mut round = Round::first(deltas.basic);
        if few_rounds(input) {
            deltas.scan(&mut round, SCAN_ROUNDS, output)?;
        }
        if (round.h as usize) < input.len() {
            // Every code point below n is handled; the others are sorted.
            let mut keys: Vec<u64> = input
                .iter()
                .enumerate()
                .filter(|&(_, &cp)| cp >= round.n)
                .map(|(j, &cp)| key(cp, j))
                .collect();
            keys.sort_unstable();
            let mut handled = Marks::new(input.iter().map(|&cp| cp < round.n));
            deltas.encode(round, &keys, &mut handled, output)?;
        }
    }
    Ok(())
}

/// How many rounds of section 6.3's main loop (one per distinct non-basic
/// code point) a long input may take by scanning ([`Deltas::scan`]) before
/// the rest is sorted: each scan costs about as much as sorting and counting
/// a few code points, so scanning wins only while the rounds are this few.
const SCAN_ROUNDS: usize = 8;

/// How many non-basic code points [`few_rounds`] looks at.
const SAMPLE: usize = 64;

/// Whether `input` likely has at most [`SCAN_ROUNDS`] distinct non-basic code
/// points: its first [`SAMPLE`] non-basic ones do. A wrong guess costs at
/// most [`SCAN_ROUNDS`] scans; the scan then hands over to the sort.
fn few_rounds(input: &[u32]) -> bool {
    let mut sample = [0u32; SAMPLE];
    let mut count = 0;
    for (slot, &cp) in sample
        .iter_mut()
        .zip(input.iter().filter(|&&cp| !is_basic(cp)))
    {
        *slot = cp;
        count += 1;
    }
    let sample = &mut sample[..count];
    sample.sort_unstable();
    sample.windows(2).filter(|pair| pair[0] != pair[1]).count() < SCAN_ROUNDS
}

/// The state of section 6.3's main loop at the start of a round.
#[derive(Clone, Copy, Debug)]
struct Round {
    /// Every code point below `n` is handled.
    n: u32,
    delta: u32,
    bias: u32,
    /// How many code points are handled.
    h: u32,
}

impl Round {
    /// Before the first round, with `b` basic code points handled.
    fn first(b: u32) -> Self {
        Round {
            n: INITIAL_N,
            delta: 0,
            bias: INITIAL_BIAS,
            h: b,
        }
    }
}

/// Section 6.3's step from `n` to the round's code point `m` with `h` code
/// points handled: `delta + (m - n) * (h + 1)`, or `None` where the RFC fails
/// on overflow.
fn add_jump(delta: u32, m: u32, n: u32, h: u32) -> Option<u32> {
    (m - n)
        .checked_mul(h + 1)
        .and_then(|jump| delta.checked_add(jump))
}

/// What the delta loop of the encoder needs of its input.
struct Deltas<'a> {
    input: &'a [u32],
    case_flags: Option<&'a [bool]>,
    /// `b`, the number of basic code points.
    basic: u32,
    max_out: u32,
}

impl Deltas<'_> {
    /// Section 6.3's main loop, one round per distinct code point `m` (taken
    /// from `keys`, sorted). Instead of scanning the whole input for `m` and
    /// counting the smaller code points one by one, it visits the positions
    /// of `m` in order and asks `handled` how many smaller code points lie
    /// between them.
    fn encode(
        &self,
        start: Round,
        keys: &[u64],
        handled: &mut impl Positions,
        output: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let b = self.basic;
        let Round {
            mut n,
            mut delta,
            mut bias,
            mut h,
        } = start;
        let mut rest = keys;
        while let Some(&first) = rest.first() {
            let m = key_code_point(first);
            let round = rest.partition_point(|&k| key_code_point(k) == m);
            let (occurrences, later) = rest.split_at(round);
            delta = add_jump(delta, m, n, h).ok_or(Error::Overflow {
                check: OverflowCheck::EncodeDelta,
                position: key_position(first),
            })?;
            // Every code point smaller than m is handled, and only those.
            let smaller = h;
            // Smaller code points before the previous occurrence of m.
            let mut counted = 0;
            for &occurrence in occurrences {
                let j = key_position(occurrence);
                let before = handled.count_before(j);
                delta = match delta.checked_add(before - counted) {
                    Some(sum) => sum,
                    None => {
                        // The RFC increments one by one: it fails at the
                        // smaller code point that takes delta past maxint.
                        let position = handled.nth(counted + (u32::MAX - delta));
                        return Err(Error::Overflow {
                            check: OverflowCheck::EncodeIncrement,
                            position,
                        });
                    }
                };
                let upper = self.case_flags.is_some_and(|flags| flags[j]);
                push_delta(output, delta, bias, upper, self.max_out)?;
                bias = adapt(delta, h + 1, h == b);
                delta = 0;
                h += 1;
                counted = before;
            }
            for &occurrence in occurrences {
                handled.add(key_position(occurrence));
            }
            // The smaller code points after the last occurrence, then the
            // step to m + 1 (section 6.3's "increment delta and n"); below
            // the input length, which fits.
            delta = smaller - counted + 1;
            n = m.wrapping_add(1);
            rest = later;
        }
        debug_assert_eq!(h as usize, self.input.len());
        Ok(())
    }

    /// Section 6.3's main loop read literally, for at most `rounds` rounds
    /// from `round`: each round scans the whole input, counting the smaller
    /// code points and finding the next round's code point as it goes. While
    /// the rounds are few, this is faster than sorting.
    fn scan(&self, round: &mut Round, rounds: usize, output: &mut Vec<u8>) -> Result<(), Error> {
        let input = self.input;
        let b = self.basic;
        // Fits: see check_length().
        let length = input.len() as u32;
        let Round {
            mut n,
            mut delta,
            mut bias,
            mut h,
        } = *round;
        // The smallest code point not handled; when all are, it is unused.
        let mut m = input
            .iter()
            .copied()
            .filter(|&cp| cp >= n)
            .min()
            .unwrap_or(u32::MAX);
        for _ in 0..rounds {
            if h >= length {
                break;
            }
            delta = add_jump(delta, m, n, h).ok_or_else(|| Error::Overflow {
                check: OverflowCheck::EncodeDelta,
                position: input.iter().position(|&cp| cp == m).unwrap_or(0),
            })?;
            let mut next = u32::MAX;
            for (j, &cp) in input.iter().enumerate() {
                // Without branches but the one for m itself: which code
                // points are smaller is no pattern the processor can learn.
                let (sum, overflow) = delta.overflowing_add(u32::from(cp < m));
                if overflow {
                    return Err(Error::Overflow {
                        check: OverflowCheck::EncodeIncrement,
                        position: j,
                    });
                }
                delta = sum;
                next = next.min(if cp > m { cp } else { u32::MAX });
                if cp == m {
                    let upper = self.case_flags.is_some_and(|flags| flags[j]);
                    push_delta(output, delta, bias, upper, self.max_out)?;
                    bias = adapt(delta, h + 1, h == b);
                    delta = 0;
                    h += 1;
                }
            }
            // Below the input length after the last occurrence of m, so it
            // fits; n wraps only past the last round.
            delta += 1;
            n = m.wrapping_add(1);
            m = next;
        }
        *round = Round { n, delta, bias, h };
        Ok(())
    }
}

/// Decodes into `output` (cleared first; left empty on error).
pub(super) fn decode(input: &[u8], max_out: u32, output: &mut Decoded) -> Result<(), Error> {
    output.code_points.clear();
    output.flags.clear();
    let result = decode_inner(input, max_out, output);
    if result.is_err() {
        output.code_points.clear();
        output.flags.clear();
    }
    result
}

fn decode_inner(input: &[u8], max_out: u32, output: &mut Decoded) -> Result<(), Error> {
    if input.len() <= label::LABEL {
        return label::decode(input, max_out, output);
    }
    check_length(input.len())?;
    // As in section 6.2: the literal portion ends at the last delimiter; one
    // at position 0 starts none and is left to fail as a digit.
    let b = input.iter().rposition(|&c| c == DELIMITER).unwrap_or(0);
    if b > max_out as usize {
        return Err(Error::BigOutput);
    }
    if let Some(position) = input[..b].iter().position(|&c| !c.is_ascii()) {
        return Err(Error::BadInput {
            position,
            reason: BadInputReason::NonBasicInLiteral,
        });
    }
    if input.len() <= SHORT_DECODE {
        decode_short(input, b, max_out, output)
    } else {
        decode_long(input, b, max_out, output)
    }
}

/// Short input: inserts straight into the output, as section 6.2 says;
/// moving at most [`SHORT_DECODE`] elements per insertion costs less than
/// recording and placing them, and allocates nothing but the result.
fn decode_short(input: &[u8], b: usize, max_out: u32, output: &mut Decoded) -> Result<(), Error> {
    let Decoded { code_points, flags } = output;
    code_points.reserve(input.len());
    code_points.extend(input[..b].iter().map(|&c| u32::from(c)));
    flags.extend(input[..b].iter().map(u8::is_ascii_uppercase));
    insertions(input, Progress::start(b), max_out, |i, n, flag| {
        code_points.insert(i as usize, n);
        flags.insert(i as usize, flag);
    })
}

/// Long input: records every insertion, then places them from the last to
/// the first: each goes to the free slot with `i` free slots before it,
/// since only later insertions moved it, and the literal portion fills the
/// slots left. The free slots are [`Blocks`] of 16 or 64 words up to 4096
/// code points, and a Fenwick tree ([`Marks`]) beyond, where scanning all
/// the blocks' counts per insertion would cost more than its descent (both
/// measured).
fn decode_long(input: &[u8], b: usize, max_out: u32, output: &mut Decoded) -> Result<(), Error> {
    // Each insertion reads at least one byte.
    let most = input.len() - b;
    let mut steps: Vec<(u32, u32)> = Vec::with_capacity(most);
    let mut step_flags: Vec<bool> = Vec::with_capacity(most);
    insertions(input, Progress::start(b), max_out, |i, n, flag| {
        steps.push((i, n));
        step_flags.push(flag);
    })?;
    let total = b + steps.len();
    let Decoded { code_points, flags } = output;
    code_points.resize(total, 0);
    // Per slot: TAKEN by an insertion, with UPPER for its flag.
    const TAKEN: u8 = 1;
    const UPPER: u8 = 2;
    let mut taken = vec![0u8; total];
    // Each insertion goes to the free slot of its rank, from the last to the
    // first.
    fn place(
        steps: &[(u32, u32)],
        step_flags: &[bool],
        taken: &mut [u8],
        code_points: &mut [u32],
        mut take_nth: impl FnMut(u32) -> usize,
    ) {
        for (&(i, n), &flag) in steps.iter().zip(step_flags).rev() {
            let slot = take_nth(i);
            taken[slot] = TAKEN | if flag { UPPER } else { 0 };
            code_points[slot] = n;
        }
    }
    let (steps, step_flags, slots) = (&steps[..], &step_flags[..], &mut taken[..]);
    // A function for each structure, so that each call to take_nth() is
    // inlined.
    if total <= Blocks::<16>::SLOTS {
        let mut free = Blocks::<16>::new(total);
        place(steps, step_flags, slots, code_points, |rank| {
            free.take_nth(rank)
        });
    } else if total <= Blocks::<64>::SLOTS {
        let mut free = Blocks::<64>::new(total);
        place(steps, step_flags, slots, code_points, |rank| {
            free.take_nth(rank)
        });
    } else {
        let mut free = Marks::new(std::iter::repeat_n(true, total));
        place(steps, step_flags, slots, code_points, |rank| {
            free.take_nth(rank)
        });
    }
    // The literal portion fills the slots not taken, in order: a select per
    // slot, since which slots are taken is no pattern. The flags are
    // gathered 64 to a word.
    let literal = &input[..b];
    let mut next = 0;
    let mut words = Vec::with_capacity(total.div_ceil(64));
    for (marks, points) in taken.chunks(64).zip(code_points.chunks_mut(64)) {
        let mut word = 0;
        for (k, (&mark, point)) in marks.iter().zip(points).enumerate() {
            let by_insertion = mark & TAKEN != 0;
            let c = literal.get(next).copied().unwrap_or(0);
            *point = std::hint::select_unpredictable(by_insertion, *point, u32::from(c));
            let upper = std::hint::select_unpredictable(
                by_insertion,
                mark & UPPER != 0,
                c.is_ascii_uppercase(),
            );
            word |= u64::from(upper) << k;
            next += usize::from(!by_insertion);
        }
        words.push(word);
    }
    *flags = CaseFlags::from_words(&words, total);
    Ok(())
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

/// Section 6.2's main loop without its output, from `from` on: calls
/// `insert(i, n, flag)` for each code point `n` that it inserts at index `i`
/// (at most the current output length), with errors at exactly the RFC's
/// points.
#[inline(always)]
pub(super) fn insertions(
    input: &[u8],
    from: Progress,
    max_out: u32,
    mut insert: impl FnMut(u32, u32, bool),
) -> Result<(), Error> {
    let Progress {
        mut n,
        mut i,
        mut bias,
        mut len,
        mut pos,
    } = from;
    while pos < input.len() {
        let oldi = i;
        let numpoints = Divisor::new(len + 1);
        (i, pos) = read_delta(input, pos, i, bias)?;
        bias = adapt_with(i - oldi, oldi == 0, |x| numpoints.divide(x));
        let wraps = numpoints.divide(i);
        n = n.checked_add(wraps).ok_or(Error::Overflow {
            check: OverflowCheck::DecodeCodePoint,
            position: pos - 1,
        })?;
        i -= wraps * (len + 1);
        if len >= max_out {
            return Err(Error::BigOutput);
        }
        insert(i, n, input[pos - 1].is_ascii_uppercase());
        len += 1;
        i += 1;
    }
    Ok(())
}

/// Reads one generalized variable-length integer (section 6.2's inner loop)
/// from `input[pos..]` with `bias`, adding it to `i`: returns the new `i` and
/// the position after its last digit, or the RFC's error at its exact point.
#[inline(always)]
pub(super) fn read_delta(
    input: &[u8],
    mut pos: usize,
    mut i: u32,
    bias: u32,
) -> Result<(u32, usize), Error> {
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
        for d in 0..BASE {
            for upper in [false, true] {
                assert_eq!(
                    DIGITS[usize::from(upper)][d as usize],
                    super::super::digit_char(d, upper)
                );
            }
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

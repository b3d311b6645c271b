//! The encoder behind [`super::encode`], and the decoder behind
//! [`super::decode`] for Punycode longer than a label (labels take
//! `label.rs`): the same results as [`super::simple`], in O(n log n) (see
//! the module docs of [`super`], section "Performance").
//!
//! # Size
//!
//! Over 800 lines only with its unit tests (the code is about 750 lines):
//! the encoder's paths (short input, the two scans, the sort) share the
//! state of its rounds and the writing of deltas, and the tests of the
//! scans need their thresholds.

#[cfg(target_arch = "x86_64")]
use super::blocks::Bmi2;
use super::blocks::{Blocks, HIGH, LOW, Portable, Select};
use super::fenwick::Marks;
use super::label::{self, LABEL};
use super::ranked::Ranks;
use super::steps::{Divisor, SHORT, adapt};
use super::tabled::insertions;
use super::{
    BASE, BadInputReason, CaseFlags, DELIMITER, Decoded, Error, INITIAL_BIAS, INITIAL_N,
    OverflowCheck, T_MAX, T_MIN, check_length, is_basic, threshold,
};

/// Punycode of at most this many bytes is decoded by inserting into the
/// output (each insertion moves at most this many elements).
const SHORT_DECODE: usize = 256;

/// The basic code point of each digit value, lowercase and uppercase.
const DIGITS: [&[u8; 36]; 2] = [
    b"abcdefghijklmnopqrstuvwxyz0123456789",
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
];

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
/// A delta of one digit, the most common, is written inline.
#[inline]
fn push_delta(
    output: &mut Vec<u8>,
    q: u32,
    bias: u32,
    upper: bool,
    max_out: u32,
) -> Result<(), Error> {
    if q < threshold(BASE, bias) && output.len() < max_out as usize {
        output.push(DIGITS[usize::from(upper)][q as usize]);
        Ok(())
    } else {
        push_digits(output, q, bias, upper, max_out)
    }
}

/// [`push_delta`] digit by digit.
#[inline(never)]
fn push_digits(
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

/// A delta of at most this much, adapted with at least
/// [`SMALL_DELTA_FROM`] code points handled, leaves a bias of at most 10,
/// so the next delta's first threshold is tmax (`36 - 10`, clamped):
/// `(33 div 2) div 17 = 0` and `(36 * 16) div (16 + 38) = 10` (section 6.1;
/// on the first delta, `33 div 700 = 0`). `small_deltas_leave_tmax` checks
/// it against adapt(), and that neither bound can grow.
const SMALL_DELTA: u32 = 33;

/// See [`SMALL_DELTA`].
const SMALL_DELTA_FROM: u32 = 17;

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
    match case_flags {
        None => copy_basic(input, max_out, output)?,
        _ => {
            for (j, &cp) in input.iter().enumerate() {
                if is_basic(cp) {
                    // Room for this code point and the delimiter that will
                    // follow.
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
        if let Some(values) = few_values(input) {
            let ranks = case_flags
                .is_none()
                .then(|| Ranks::new(input, values.as_slice()))
                .flatten();
            match ranks {
                Some(ranks) => deltas.ranked(&mut round, &ranks, values.as_slice(), output)?,
                None if case_flags.is_none() && input.len() > GATHER_FROM => {
                    deltas.scan_gathered(&mut round, SCAN_ROUNDS, output)?;
                }
                None => deltas.scan(&mut round, SCAN_ROUNDS, output)?,
            }
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

/// Appends the basic code points of `input` to `output` (empty), as they
/// are, without a branch per code point: which are basic is no pattern in
/// mixed input. Fails as the one-by-one copy does, when a code point and
/// the delimiter after it would pass `max_out`.
fn copy_basic(input: &[u32], max_out: u32, output: &mut Vec<u8>) -> Result<(), Error> {
    output.resize(input.len(), 0);
    let copy = output.as_mut_slice();
    let mut b = 0;
    for &cp in input {
        // Each code point is written where the next basic one goes; only a
        // basic one moves that place on. The narrowing keeps a basic code
        // point as it is.
        if let Some(slot) = copy.get_mut(b) {
            *slot = cp as u8;
        }
        b += usize::from(is_basic(cp));
    }
    output.truncate(b);
    // The k-th basic code point fails when max_out < k + 1: the first to
    // fail is the max_out-th, if there are that many.
    if b > 0 && b >= max_out as usize {
        output.clear();
        return Err(Error::BigOutput);
    }
    Ok(())
}

/// How many rounds of section 6.3's main loop (one per distinct non-basic
/// code point) a long input may take by scanning ([`Deltas::scan`]) before
/// the rest is sorted: each scan costs about as much as sorting and counting
/// a few code points, so scanning wins only while the rounds are this few.
const SCAN_ROUNDS: usize = 8;

/// Inputs longer than this are scanned by [`Deltas::scan_gathered`]: below,
/// gathering costs as much as it saves (measured).
const GATHER_FROM: usize = 1 << 14;

// Every round of the few values may be ranked.
const _: () = assert!(SCAN_ROUNDS <= super::ranked::MAX_RANKS);

/// How many non-basic code points [`few_values`] looks at.
const SAMPLE: usize = 64;

/// Up to [`SCAN_ROUNDS`] distinct code points, sorted.
struct FewValues {
    values: [u32; SCAN_ROUNDS],
    count: usize,
}

impl FewValues {
    fn as_slice(&self) -> &[u32] {
        &self.values[..self.count]
    }
}

/// The distinct non-basic code points among the first [`SAMPLE`] of
/// `input`, sorted, if there are at most [`SCAN_ROUNDS`]: then `input`
/// likely has no more. A wrong guess costs at most [`SCAN_ROUNDS`] scans
/// (they then hand over to the sort), or one pass of [`Ranks::new`].
fn few_values(input: &[u32]) -> Option<FewValues> {
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
    let mut few = FewValues {
        values: [0; SCAN_ROUNDS],
        count: 0,
    };
    for (i, &cp) in sample.iter().enumerate() {
        if i == 0 || sample[i - 1] != cp {
            *few.values.get_mut(few.count)? = cp;
            few.count += 1;
        }
    }
    (few.count > 0).then_some(few)
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
            // Occurrences of one code point are few: scanned, not searched.
            let round = rest
                .iter()
                .position(|&k| key_code_point(k) != m)
                .unwrap_or(rest.len());
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

    /// Section 6.3's main loop without case flags, one round per code point
    /// of `values` (all the distinct non-basic code points of the input,
    /// sorted), counting over `ranks` (see [`super::ranked`]). Hands a round
    /// over to [`Deltas::scan`] where delta might pass maxint in it.
    fn ranked(
        &self,
        round: &mut Round,
        ranks: &Ranks,
        values: &[u32],
        output: &mut Vec<u8>,
    ) -> Result<(), Error> {
        // Fits: see check_length().
        let length = self.input.len() as u32;
        let mut counts = vec![0; self.input.len()];
        for (rank, &m) in (1u8..).zip(values) {
            let jumped = self.jump(round, m)?;
            if u64::from(jumped) + u64::from(length) > u64::from(u32::MAX) {
                // Delta may pass maxint in this round: one code point after
                // the other, from the round's start, to fail where the RFC
                // does.
                return self.scan(round, values.len() + 1 - usize::from(rank), output);
            }
            let (found, smaller) = ranks.count_smaller(rank, &mut counts);
            self.write_round(round, m, jumped, &counts[..found], smaller, output)?;
        }
        Ok(())
    }

    /// Delta at the start of the round of `m`: `round`'s delta with section
    /// 6.3's step from n to m, or the RFC's error where that overflows.
    fn jump(&self, round: &Round, m: u32) -> Result<u32, Error> {
        add_jump(round.delta, m, round.n, round.h).ok_or_else(|| Error::Overflow {
            check: OverflowCheck::EncodeDelta,
            position: self.input.iter().position(|&cp| cp == m).unwrap_or(0),
        })
    }

    /// Writes the deltas of the round of `m`, which starts at delta
    /// `jumped`: `counts` holds, for each occurrence of m, how many smaller
    /// code points lie before it, and `smaller` how many there are in all.
    /// `jumped` plus the input's length must fit, so no delta overflows.
    /// Leaves `round` at the start of the next round.
    fn write_round(
        &self,
        round: &mut Round,
        m: u32,
        jumped: u32,
        counts: &[u32],
        smaller: u32,
        output: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let Round {
            mut bias, mut h, ..
        } = *round;
        let mut delta = jumped;
        let mut previous = 0;
        // The last delta written, when the bias does not include it yet:
        // adapt() is taken only where the bias is needed.
        let mut unadapted = None;
        for &count in counts {
            delta += count - previous;
            previous = count;
            if let Some(last) = unadapted {
                // After a small delta, the next delta's first threshold is
                // tmax (see SMALL_DELTA), so one below it is one digit.
                if last <= SMALL_DELTA
                    && h >= SMALL_DELTA_FROM
                    && delta < T_MAX
                    && output.len() < self.max_out as usize
                {
                    output.push(DIGITS[0][delta as usize]);
                    unadapted = Some(delta);
                    h += 1;
                    delta = 0;
                    continue;
                }
                bias = adapt(last, h, h - 1 == self.basic);
            }
            push_delta(output, delta, bias, false, self.max_out)?;
            unadapted = Some(delta);
            h += 1;
            delta = 0;
        }
        if let Some(last) = unadapted {
            bias = adapt(last, h, h - 1 == self.basic);
        }
        // The smaller code points after the last occurrence of m, then the
        // step to m + 1: below the input length, so it fits; n wraps only
        // past the last round.
        *round = Round {
            n: m.wrapping_add(1),
            delta: smaller - previous + 1,
            bias,
            h,
        };
        Ok(())
    }

    /// [`Deltas::scan`] without case flags, and without a branch per code
    /// point: the code points not yet handled are gathered first, each with
    /// the number of handled ones just before it, and each round scans only
    /// those, noting the deltas of its code point's occurrences, then
    /// encodes them. Hands a round over to [`Deltas::scan`] where delta might
    /// pass maxint in it.
    fn scan_gathered(
        &self,
        round: &mut Round,
        rounds: usize,
        output: &mut Vec<u8>,
    ) -> Result<(), Error> {
        // Fits: see check_length().
        let length = self.input.len() as u32;
        // The code points not handled, and how many handled ones come before
        // each, written where the next one goes: two arrays, so that the
        // search for the next round's code point reads code points only.
        let (code_points, handled_before, handled) = gather(self.input, round.n);
        // Every gathered code point is at least n.
        let mut m = code_points.iter().copied().min().unwrap_or(u32::MAX);
        // Per occurrence of m: how many code points smaller than m lie
        // before it.
        let mut counts = vec![0u32; code_points.len()];
        for done in 0..rounds {
            if round.h >= length {
                break;
            }
            let jumped = self.jump(round, m)?;
            if u64::from(jumped) + u64::from(length) > u64::from(u32::MAX) {
                // Delta may pass maxint in this round: one code point after
                // the other, from the round's start, to fail where the RFC
                // does.
                return self.scan(round, rounds - done, output);
            }
            // Counts, not deltas, so that only one addition a code point
            // lies on the chain from one to the next: a delta is the
            // difference between two counts.
            let mut smaller = 0u32;
            let mut found = 0;
            for (&cp, &before) in code_points.iter().zip(&handled_before) {
                if let Some(slot) = counts.get_mut(found) {
                    *slot = before + smaller;
                }
                found += usize::from(cp == m);
                smaller += u32::from(cp < m);
            }
            let next = code_points
                .iter()
                .map(|&cp| if cp > m { cp } else { u32::MAX })
                .min()
                .unwrap_or(u32::MAX);
            self.write_round(
                round,
                m,
                jumped,
                &counts[..found],
                handled + smaller,
                output,
            )?;
            m = next;
        }
        Ok(())
    }
}

/// The code points of `input` not below `n`, and for each how many code
/// points below `n` come before it; then how many are below `n` in all.
/// Written without a branch per code point: which are below `n` is no
/// pattern the processor can learn.
#[inline(never)]
fn gather(input: &[u32], n: u32) -> (Vec<u32>, Vec<u32>, u32) {
    let mut code_points = vec![0u32; input.len()];
    let mut handled_before = vec![0u32; input.len()];
    let mut count = 0;
    let mut handled = 0u32;
    for &cp in input {
        // Each is written where the next one goes; count <= the position.
        code_points[count] = cp;
        handled_before[count] = handled;
        let is_handled = cp < n;
        count += usize::from(!is_handled);
        handled += u32::from(is_handled);
    }
    code_points.truncate(count);
    handled_before.truncate(count);
    (code_points, handled_before, handled)
}

/// Decodes `input`, longer than a label, into `output`, which must be
/// empty.
pub(super) fn decode(input: &[u8], max_out: u32, output: &mut Decoded) -> Result<(), Error> {
    check_length(input.len())?;
    // As in section 6.2: the literal portion ends at the last delimiter; one
    // at position 0 starts none and is left to fail as a digit.
    let b = last_delimiter(input).unwrap_or(0);
    if b > max_out as usize {
        return Err(Error::BigOutput);
    }
    if let Some(position) = first_non_ascii(&input[..b]) {
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

/// The position of the last delimiter in `input`: eight bytes at a time
/// from the end, as long input has no delimiter after its literal portion.
fn last_delimiter(input: &[u8]) -> Option<usize> {
    let chunks = input.rchunks_exact(8);
    let head = chunks.remainder();
    for (k, chunk) in chunks.enumerate() {
        let word = u64::from_le_bytes(*chunk.first_chunk::<8>()?);
        // Zero bytes of `x` are the delimiters: exactly those whose low
        // seven bits plus 0x7F, or'ed with themselves, leave the high bit
        // clear.
        let x = word ^ (u64::from(DELIMITER) * LOW);
        let found = !(((x & !HIGH) + !HIGH) | x) & HIGH;
        if found != 0 {
            let byte = (63 - found.leading_zeros() as usize) / 8;
            return Some(input.len() - 8 * (k + 1) + byte);
        }
    }
    head.iter().rposition(|&c| c == DELIMITER)
}

/// The position of the first byte of `input` that is not ASCII: checked a
/// word at a time first, since the literal portion is nearly always ASCII.
fn first_non_ascii(input: &[u8]) -> Option<usize> {
    if input.is_ascii() {
        None
    } else {
        input.iter().position(|&c| !c.is_ascii())
    }
}

/// Short input: records every insertion, then places them as a label's
/// (`label::place`) when there are at most [`LABEL`] code points; more, it
/// inserts them into the output one after the other, as section 6.2 says,
/// moving at most [`SHORT_DECODE`] elements each, which costs less than
/// the long path's structures. Allocates nothing but the result.
fn decode_short(input: &[u8], b: usize, max_out: u32, output: &mut Decoded) -> Result<(), Error> {
    // Where each insertion goes, with UPPER for its case flag, and what.
    // Each insertion reads at least one byte, so there are fewer than
    // SHORT_DECODE; the remainders only spare bounds checks.
    const UPPER: u16 = 1 << 8;
    let mut at = [0u16; SHORT_DECODE];
    let mut code_point = [0u32; SHORT_DECODE];
    let mut count = 0;
    insertions::<Divisor>(input, b, max_out, |i, n, upper| {
        at[count % SHORT_DECODE] = i as u16 | if upper { UPPER } else { 0 };
        code_point[count % SHORT_DECODE] = n;
        count += 1;
    })?;
    let (at, code_point, literal) = (&at[..count], &code_point[..count], &input[..b]);
    if b + count <= LABEL {
        // Every insertion went below LABEL.
        let mut ranks = [0u8; LABEL];
        for (rank, &at) in ranks.iter_mut().zip(at) {
            *rank = at as u8 | if at & UPPER != 0 { label::UPPER } else { 0 };
        }
        label::place(literal, &ranks[..count], code_point, output);
    } else {
        let Decoded { code_points, flags } = output;
        code_points.reserve(b + count);
        code_points.extend(literal.iter().map(|&c| u32::from(c)));
        flags.extend(literal.iter().map(u8::is_ascii_uppercase));
        for (&at, &n) in at.iter().zip(code_point) {
            let i = usize::from(at & !UPPER);
            code_points.insert(i, n);
            flags.insert(i, at & UPPER != 0);
        }
    }
    Ok(())
}

/// Long input: records every insertion, then places them from the last to
/// the first: each goes to the free slot with `i` free slots before it,
/// since only later insertions moved it, and the literal portion fills the
/// slots left. The free slots are [`Blocks`] of 16 or 64 words up to 4096
/// code points, and a Fenwick tree ([`Marks`]) beyond, where scanning all
/// the blocks' counts per insertion would cost more than its descent (both
/// measured).
fn decode_long(input: &[u8], b: usize, max_out: u32, output: &mut Decoded) -> Result<(), Error> {
    #[cfg(target_arch = "x86_64")]
    if let Some(bmi2) = Bmi2::detect() {
        // SAFETY: detect() found BMI2, all that the target feature asks.
        return unsafe { decode_long_bmi2(bmi2, input, b, max_out, output) };
    }
    decode_long_with(Portable, input, b, max_out, output)
}

/// [`decode_long_with`] compiled with BMI2, which [`Bmi2`] uses to place
/// insertions (about a third faster on 1000 code points).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn decode_long_bmi2(
    bmi2: Bmi2,
    input: &[u8],
    b: usize,
    max_out: u32,
    output: &mut Decoded,
) -> Result<(), Error> {
    decode_long_with(bmi2, input, b, max_out, output)
}

/// [`decode_long`] with `how` to find a free slot by its rank.
#[inline(always)]
fn decode_long_with(
    how: impl Select,
    input: &[u8],
    b: usize,
    max_out: u32,
    output: &mut Decoded,
) -> Result<(), Error> {
    // Each insertion reads at least one byte.
    let most = input.len() - b;
    let mut steps: Vec<(u32, u32)> = Vec::with_capacity(most);
    let mut step_flags: Vec<bool> = Vec::with_capacity(most);
    insertions::<Divisor>(input, b, max_out, |i, n, flag| {
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
    if total <= Blocks::<16, 4>::SLOTS {
        let mut free = Blocks::<16, 4>::new(total);
        place(steps, step_flags, slots, code_points, |rank| {
            free.take_nth(rank, how)
        });
    } else if total <= Blocks::<64, 16>::SLOTS {
        let mut free = Blocks::<64, 16>::new(total);
        place(steps, step_flags, slots, code_points, |rank| {
            free.take_nth(rank, how)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_agree_with_the_rfc_function() {
        for d in 0..BASE {
            for upper in [false, true] {
                assert_eq!(
                    DIGITS[usize::from(upper)][d as usize],
                    super::super::digit_char(d, upper)
                );
            }
        }
    }

    fn encode_limited(input: &[u32], limit: u32) -> Result<Vec<u8>, Error> {
        let mut output = Vec::new();
        encode(input, None, limit, &mut output).map(|()| output)
    }

    /// The basic code points are copied without a branch each, and their
    /// limit is checked once: it fails where the one-by-one copy fails,
    /// with and without non-basic code points among them, short and long.
    #[test]
    fn basic_code_points_fail_at_the_limit_as_one_by_one() {
        for basic in 0..10 {
            for others in [0, 1, 3] {
                for long in [false, true] {
                    let mut input: Vec<u32> = (0..basic).map(|k| 0x61 + k).collect();
                    input.extend((0..others).map(|k| 0xE9 + k));
                    if long {
                        input.extend(std::iter::repeat_n(0xE9, 70));
                    }
                    for limit in (0..14).chain([u32::MAX]) {
                        assert_eq!(
                            encode_limited(&input, limit),
                            super::super::encode_naive(&input, None, limit),
                            "{basic} basic, {others} others, long {long}, limit {limit}"
                        );
                    }
                }
            }
        }
    }

    /// Punycode of 65 to 256 bytes: placed as a label's up to 64 code
    /// points, inserted one by one beyond; flags, literal portions and
    /// limits as the RFC says.
    #[test]
    fn short_decodings_on_both_sides_of_a_labels_length() {
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (rng >> 33) as usize
        };
        let values = [0x430, 0x44F, 0x4E2D, 0x1F600, 0x10FFFF, 0xE9];
        let (mut placed, mut inserted) = (0, 0);
        for total in (1..=120).step_by(3) {
            for _ in 0..20 {
                let basic = next() % (total / 2 + 1);
                let input: Vec<u32> = (0..total)
                    .map(|k| {
                        if k < basic {
                            [0x61, 0x5A, 0x2D][next() % 3]
                        } else {
                            values[next() % values.len()]
                        }
                    })
                    .collect();
                let flags: Vec<bool> = input.iter().map(|_| next() % 2 == 0).collect();
                let Ok(encoded) = super::super::encode(&input, Some(&flags)) else {
                    continue;
                };
                if !(65..=SHORT_DECODE).contains(&encoded.len()) {
                    continue;
                }
                if total <= LABEL {
                    placed += 1;
                } else {
                    inserted += 1;
                }
                for limit in [u32::MAX, total as u32 - 1] {
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
        }
        assert!(
            placed > 50 && inserted > 50,
            "{placed} placed, {inserted} inserted"
        );
    }

    /// What write_round() relies on to skip adapt() after small deltas.
    #[test]
    fn small_deltas_leave_tmax() {
        for delta in 0..=SMALL_DELTA {
            for numpoints in SMALL_DELTA_FROM..5000 {
                for first in [false, true] {
                    let bias = super::super::adapt(delta, numpoints, first);
                    assert_eq!(threshold(BASE, bias), T_MAX, "{delta} {numpoints} {first}");
                }
            }
        }
        // The bounds are tight: one more, or one code point fewer, and the
        // threshold falls.
        assert!(threshold(BASE, super::super::adapt(SMALL_DELTA + 1, 1000, false)) < T_MAX);
        assert!(
            threshold(
                BASE,
                super::super::adapt(SMALL_DELTA, SMALL_DELTA_FROM - 1, false)
            ) < T_MAX
        );
    }

    /// An input of `length` code points: half basic, or (`sparse`) long
    /// runs of basic code points, so that deltas take several digits; the
    /// others from the first `distinct` of `values`.
    fn few_distinct(length: usize, distinct: usize, sparse: bool, rng: &mut u64) -> Vec<u32> {
        // Close enough that no delta passes maxint.
        let values = [0xE4, 0xE9, 0x161, 0x4E2D, 0x2000, 0x3042, 0x80, 0x7FF];
        (0..length)
            .map(|_| {
                *rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let pick = (*rng >> 33) as usize;
                if !pick.is_multiple_of(if sparse { 200 } else { 2 }) {
                    [0x41, 0x7A][pick / 256 % 2]
                } else {
                    values[pick / 512 % distinct]
                }
            })
            .collect()
    }

    /// The encoding of `input` is the naive encoder's, with no limit and with
    /// one that cuts the last deltas.
    fn encodes_as_naive(input: &[u32], what: &str) {
        let naive = super::super::encode_naive(input, None, u32::MAX);
        assert!(naive.is_ok(), "{what}");
        assert_eq!(encode_limited(input, u32::MAX), naive, "{what}");
        let cut = naive.as_ref().map_or(0, |e| e.len() as u32 - 7);
        assert_eq!(
            encode_limited(input, cut),
            super::super::encode_naive(input, None, cut),
            "{what} limit {cut}"
        );
    }

    /// Input with few distinct code points takes the ranked rounds: the
    /// same encoding at the lengths around a block of ranks and a group of
    /// 16, with deltas of one digit and of several, and with output limits.
    #[test]
    fn ranked_rounds_match_naive() {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        for length in [65, 79, 127, 128, 129, 1000, 3001] {
            for distinct in [1, 2, 5, 8] {
                for sparse in [false, true] {
                    let mut input = few_distinct(length, distinct, sparse, &mut rng);
                    // At least one non-basic code point, also when sparse.
                    input[length / 2] = 0xE4;
                    let values = few_values(&input).expect("few values");
                    assert!(Ranks::new(&input, values.as_slice()).is_some());
                    encodes_as_naive(&input, &format!("{length} {distinct} {sparse}"));
                }
            }
        }
    }

    /// A long input whose sample of code points promises few rounds, with
    /// one code point more after the sample: the ranks refuse it, and the
    /// rounds scan the gathered code points, then hand over to the sort.
    #[test]
    fn gathered_scan_matches_naive() {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        for distinct in [1, 2, 5, 8] {
            for sparse in [false, true] {
                let mut input = few_distinct(GATHER_FROM + 1000, distinct, sparse, &mut rng);
                input.push(0x5000);
                input.extend_from_slice(&[0x61; 40]);
                let values = few_values(&input).expect("few values");
                assert!(Ranks::new(&input, values.as_slice()).is_none());
                encodes_as_naive(&input, &format!("{distinct} {sparse}"));
            }
        }
    }

    /// The long decoder without BMI2 places as it does with it (the tests
    /// on this machine take the BMI2 path where the processor has it).
    #[test]
    fn portable_long_decoder_matches() {
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        for length in [200, 1000, 4000, 5000] {
            for distinct in [1, 8] {
                let input = few_distinct(length, distinct, false, &mut rng);
                let many: Vec<u32> = (0..length as u32)
                    .map(|k| 0x4E00 + (k * 7919) % length as u32)
                    .collect();
                for input in [input, many] {
                    let encoded = super::super::encode(&input, None).expect("encodes");
                    let mut portable = Decoded::default();
                    let b = last_delimiter(&encoded).unwrap_or(0);
                    decode_long_with(Portable, &encoded, b, u32::MAX, &mut portable)
                        .expect("decodes");
                    assert_eq!(portable.code_points, input);
                    assert_eq!(Ok(portable), super::super::decode(&encoded));
                }
            }
        }
    }

    /// Where delta might pass maxint within a round, the ranked rounds hand
    /// the round to the one-by-one scan, which fails at the RFC's position;
    /// and where it comes near without passing, the encoding is the RFC's.
    #[test]
    fn gathered_scan_hands_over_near_maxint() {
        let basic = GATHER_FROM + 10;
        let h = basic as u32;
        // The round of m starts at delta = (m - 0x80) * (h + 1), within h of
        // maxint; each basic code point before m adds one.
        let step = u32::MAX / (h + 1);
        let start = step * (h + 1);
        let slack = u32::MAX - start;
        assert!(slack < h, "the round passes maxint");
        let mut input = vec![u32::from(b'a'); basic];
        input.push(0x80 + step);
        let fast = encode_limited(&input, u32::MAX);
        assert_eq!(fast, super::super::encode_naive(&input, None, u32::MAX));
        assert_eq!(
            fast,
            Err(Error::Overflow {
                check: OverflowCheck::EncodeIncrement,
                position: slack as usize,
            })
        );
        // m first: no basic code point before it, so delta stays below.
        input.rotate_right(1);
        let fast = encode_limited(&input, u32::MAX);
        assert!(fast.is_ok());
        assert_eq!(fast, super::super::encode_naive(&input, None, u32::MAX));
    }
}

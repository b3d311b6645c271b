//! RFC 3492 sections 6.2 and 6.3 as written: the encoder rescans the input
//! for every code point value and the decoder inserts into the middle of its
//! output, both O(n^2). They stay as the plain reading of the RFC, used for
//! the traces of section 7 and as the naive reference that the fast paths
//! of [`super::fast`] are checked against.

use super::*;

/// Observes the steps of an encoding or decoding; the untraced entry points
/// pass an observer that does nothing, which the compiler removes.
pub(super) trait Observer {
    fn encode_step(&mut self, _step: impl FnOnce() -> EncodeStep) {}
    fn decode_step(&mut self, _step: impl FnOnce() -> DecodeStep) {}
    fn inserted(&mut self, _code_point: u32) {}
}

pub(super) struct Silent;
impl Observer for Silent {}

/// Keeps the code points a decoding inserts, in order, and nothing else.
#[derive(Default)]
pub(super) struct Inserted(pub(super) Vec<u32>);
impl Observer for Inserted {
    fn inserted(&mut self, code_point: u32) {
        self.0.push(code_point);
    }
}

#[derive(Default)]
pub(super) struct Recorder {
    pub(super) encode: Vec<EncodeStep>,
    pub(super) decode: Vec<DecodeStep>,
}

impl Observer for Recorder {
    fn encode_step(&mut self, step: impl FnOnce() -> EncodeStep) {
        self.encode.push(step());
    }
    fn decode_step(&mut self, step: impl FnOnce() -> DecodeStep) {
        self.decode.push(step());
    }
}

pub(super) fn encode(
    input: &[u32],
    case_flags: Option<&[bool]>,
    max_out: u32,
    observer: &mut impl Observer,
) -> Result<Vec<u8>, Error> {
    let length = check_length(input.len())?;
    if let Some(flags) = case_flags.filter(|f| f.len() != input.len()) {
        return Err(Error::BadInput {
            position: flags.len().min(input.len()),
            reason: BadInputReason::FlagsLength,
        });
    }
    let flag = |j: usize| case_flags.is_some_and(|flags| flags[j]);

    // Copy the basic code points, followed by a delimiter if there are any.
    let mut output = Vec::new();
    for (j, &cp) in input.iter().enumerate() {
        if is_basic(cp) {
            // Room for this code point and the delimiter that will follow.
            if max_out - (output.len() as u32) < 2 {
                return Err(Error::BigOutput);
            }
            // cp < 0x80, so the narrowing is exact.
            let c = cp as u8;
            output.push(match case_flags {
                Some(_) if flag(j) => c.to_ascii_uppercase(),
                Some(_) => c.to_ascii_lowercase(),
                None => c,
            });
        }
    }
    let b = output.len() as u32;
    let mut h = b;
    if b > 0 {
        output.push(DELIMITER);
    }

    let mut n = INITIAL_N;
    let mut delta: u32 = 0;
    let mut bias = INITIAL_BIAS;
    while h < length {
        // Every code point below n is handled: find the next one up.
        let m = input
            .iter()
            .copied()
            .filter(|&cp| cp >= n)
            .min()
            .expect("h < length implies an unhandled code point >= n");
        delta = (m - n)
            .checked_mul(h + 1)
            .and_then(|jump| delta.checked_add(jump))
            .ok_or(Error::Overflow {
                check: OverflowCheck::EncodeDelta,
                position: input.iter().position(|&cp| cp == m).unwrap_or(0),
            })?;
        n = m;
        for (j, &cp) in input.iter().enumerate() {
            if cp < n {
                delta = delta.checked_add(1).ok_or(Error::Overflow {
                    check: OverflowCheck::EncodeIncrement,
                    position: j,
                })?;
            }
            if cp == n {
                let start = output.len();
                let mut q = delta;
                let mut k = BASE;
                loop {
                    if output.len() as u32 >= max_out {
                        return Err(Error::BigOutput);
                    }
                    let t = threshold(k, bias);
                    if q < t {
                        break;
                    }
                    output.push(digit_char(t + (q - t) % (BASE - t), false));
                    q = (q - t) / (BASE - t);
                    k += BASE;
                }
                output.push(digit_char(q, flag(j)));
                bias = adapt(delta, h + 1, h == b);
                observer.encode_step(|| EncodeStep {
                    code_point: cp,
                    delta,
                    digits: String::from_utf8_lossy(&output[start..]).into_owned(),
                    bias,
                });
                delta = 0;
                h += 1;
            }
        }
        // Cannot overflow: delta < length here (section 6.3); n only wraps
        // past maxint when every code point is handled.
        delta = delta.wrapping_add(1);
        n = n.wrapping_add(1);
    }
    Ok(output)
}

pub(super) fn decode(
    input: &[u8],
    max_out: u32,
    observer: &mut impl Observer,
) -> Result<Decoded, Error> {
    check_length(input.len())?;
    // The basic code points are those before the last delimiter; a delimiter
    // at position 0 starts no literal portion and is left to be decoded
    // (where it fails, since it has no digit value).
    let b = input.iter().rposition(|&c| c == DELIMITER).unwrap_or(0);
    if b as u32 > max_out {
        return Err(Error::BigOutput);
    }
    let mut decoded = Decoded {
        code_points: Vec::with_capacity(input.len()),
        flags: CaseFlags::new(),
    };
    for (j, &c) in input[..b].iter().enumerate() {
        if !is_basic(u32::from(c)) {
            return Err(Error::BadInput {
                position: j,
                reason: BadInputReason::NonBasicInLiteral,
            });
        }
        decoded.code_points.push(u32::from(c));
        decoded.flags.push(c.is_ascii_uppercase());
    }

    let mut n = INITIAL_N;
    let mut i: u32 = 0;
    let mut bias = INITIAL_BIAS;
    let mut pos = if b > 0 { b + 1 } else { 0 };
    while pos < input.len() {
        let start = pos;
        let oldi = i;
        let mut w: u32 = 1;
        let mut k = BASE;
        loop {
            let Some(&c) = input.get(pos) else {
                return Err(Error::BadInput {
                    position: pos,
                    reason: BadInputReason::UnexpectedEnd,
                });
            };
            let digit = digit_value(c).ok_or(Error::BadInput {
                position: pos,
                reason: BadInputReason::NotADigit,
            })?;
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
                break;
            }
            w = w.checked_mul(BASE - t).ok_or(Error::Overflow {
                check: OverflowCheck::DecodeWeight,
                position: pos - 1,
            })?;
            k += BASE;
        }
        // The output is never longer than the input, which fits in u32.
        let len = decoded.code_points.len() as u32;
        let i_before_wrap = i;
        bias = adapt(i - oldi, len + 1, oldi == 0);
        n = n.checked_add(i / (len + 1)).ok_or(Error::Overflow {
            check: OverflowCheck::DecodeCodePoint,
            position: pos - 1,
        })?;
        i %= len + 1;
        if len >= max_out {
            return Err(Error::BigOutput);
        }
        decoded.code_points.insert(i as usize, n);
        decoded
            .flags
            .insert(i as usize, input[pos - 1].is_ascii_uppercase());
        observer.inserted(n);
        observer.decode_step(|| DecodeStep {
            digits: String::from_utf8_lossy(&input[start..pos]).into_owned(),
            delta: i_before_wrap - oldi,
            i_before_wrap,
            bias,
            code_point: n,
            position: i,
            output: decoded.code_points.clone(),
        });
        i += 1;
    }
    Ok(decoded)
}

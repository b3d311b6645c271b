//! The oracles of the LACE fuzz targets, `lace_roundtrip` and
//! `lace_uniqueness` (see [`crate::lace`]).
//!
//! Both targets take raw bytes and read them with a small structure of their
//! own ([`LaceCodePoints::from_bytes`], [`AceInput::from_bytes`]) rather than
//! through `arbitrary`: each byte string means something close to LACE's
//! hard regions (runs of one row, surrogates, the 36-octet limit, Base32 of
//! chosen compressed strings), and seed files can be written by hand.
//!
//! The oracles compare against a model, not only "does not crash":
//! [`roundtrip`] checks every encoder answer against a naive recomputation of
//! which rule applies and how long the compressed string is, and the round
//! trip of every success; [`uniqueness`] checks section 3's requirement that
//! every accepted string is the one the encoder writes.

use super::Outcome;
use crate::lace::{self, Error, Reason};

/// The most code points [`LaceCodePoints::from_bytes`] builds: far more
/// than fit the 36-octet limit (34 code units), so both sides are reached.
pub const MAX_CODE_POINTS: usize = 80;

/// Code points built from bytes, for `lace_roundtrip`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaceCodePoints(pub Vec<u32>);

impl LaceCodePoints {
    /// Reads `data` as a list of instructions, each a byte and its operands
    /// (missing operand bytes are 0):
    ///
    /// - `00`-`7F`: that ASCII code point;
    /// - `80`-`BF` `L`: a code point in the row of the previous one (row 0x30
    ///   at the start) with low octet `L`, which makes runs;
    /// - `C0`-`EF` `H` `L`: the BMP code point `HL` (surrogates included);
    /// - `F0`-`F7` `A` `B` `C`: U+10000 + `ABC` modulo 0x100000 (a pair);
    /// - `F8`-`FB` `A` `B` `C` `D`: the 32-bit value `ABCD` (any at all);
    /// - `FC`-`FF` `N`: the previous code point again, 1 + `N` % 40 times.
    ///
    /// Stops at [`MAX_CODE_POINTS`].
    pub fn from_bytes(data: &[u8]) -> Self {
        let mut bytes = data.iter().copied();
        let mut next = || bytes.next();
        let mut out: Vec<u32> = Vec::new();
        while out.len() < MAX_CODE_POINTS {
            let Some(op) = next() else { break };
            let mut operand = || u32::from(next().unwrap_or(0));
            let previous = out.last().copied();
            match op {
                0x00..=0x7F => out.push(u32::from(op)),
                0x80..=0xBF => {
                    let row = previous.map_or(0x3000, |cp| cp & !0xFF);
                    out.push(row | operand());
                }
                0xC0..=0xEF => {
                    let high = operand();
                    out.push(high << 8 | operand());
                }
                0xF0..=0xF7 => {
                    let v = (operand() << 16 | operand() << 8 | operand()) % 0x10_0000;
                    out.push(0x1_0000 + v);
                }
                0xF8..=0xFB => {
                    let v = operand() << 24 | operand() << 16 | operand() << 8 | operand();
                    out.push(v);
                }
                0xFC..=0xFF => {
                    let times = 1 + operand() as usize % 40;
                    let cp = previous.unwrap_or(0x3042);
                    let room = MAX_CODE_POINTS - out.len();
                    out.extend(std::iter::repeat_n(cp, times.min(room)));
                }
            }
        }
        LaceCodePoints(out)
    }
}

/// An ACE string to decode, built from bytes, for `lace_uniqueness`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AceInput(pub Vec<u8>);

impl AceInput {
    /// Reads `data`: its first byte modulo 4 chooses how the rest is used.
    ///
    /// - 0: the rest, as it is;
    /// - 1: `bq--` and the Base32 of the rest, which is then the compressed
    ///   string (so every compressed string can be reached);
    /// - 2: as 1 from the third byte on, with the last Base32 character's
    ///   value XORed with the second byte (padding bits, wrong lengths are
    ///   near);
    /// - 3: what [`lace::encode`] makes of [`LaceCodePoints::from_bytes`] of
    ///   the rest from the third byte on (nothing when it fails), with the
    ///   letter at the second byte's position (modulo the length) in upper
    ///   case.
    pub fn from_bytes(data: &[u8]) -> Self {
        let Some((&mode, rest)) = data.split_first() else {
            return AceInput(Vec::new());
        };
        let tagged = |octets: &[u8]| [lace::TAG.as_slice(), &lace::base32_encode(octets)].concat();
        let (&second, tail) = rest.split_first().unwrap_or((&0, &[]));
        AceInput(match mode % 4 {
            0 => rest.to_vec(),
            1 => tagged(rest),
            2 => {
                let mut text = tagged(tail);
                let has_base32 = text.len() > lace::TAG.len();
                if let Some(last) = text.last_mut().filter(|_| has_base32) {
                    let value = lace::BASE32_ALPHABET
                        .iter()
                        .position(|c| c == last)
                        .unwrap_or(0);
                    *last = lace::BASE32_ALPHABET[(value ^ usize::from(second)) & 0x1F];
                }
                text
            }
            _ => {
                let mut text =
                    lace::encode(&LaceCodePoints::from_bytes(tail).0).unwrap_or_default();
                if !text.is_empty() {
                    let at = usize::from(second) % text.len();
                    text[at] = text[at].to_ascii_uppercase();
                }
                text
            }
        })
    }
}

/// The length of the compressed string of `code_points` as section 2.4.1
/// describes it, computed the plain way: UTF-16 through the standard
/// library, one pass over pairs counting row changes. `None` when a code
/// point is not a Unicode scalar value.
pub fn naive_compressed_len(code_points: &[u32]) -> Option<usize> {
    let text: String = code_points
        .iter()
        .map(|&cp| char::from_u32(cp))
        .collect::<Option<String>>()?;
    let units: Vec<u16> = text.encode_utf16().collect();
    let mut buffer = 0;
    let mut k = 0;
    while k < units.len() {
        let high = units[k] >> 8;
        let mut count = 0;
        while k < units.len() && units[k] >> 8 == high {
            count += 1;
            k += 1;
        }
        buffer += 2 + count;
    }
    let input = 2 * units.len();
    Some(if buffer <= input { buffer } else { 1 + input })
}

/// What [`lace::encode`] must answer, as a reason (`None` for success), by
/// the rules of section 2.2 applied one at a time.
pub fn expected_encode_reason(code_points: &[u32]) -> Option<Reason> {
    if code_points.is_empty() {
        return Some(Reason::Empty);
    }
    let Some(octets) = naive_compressed_len(code_points) else {
        return Some(Reason::NotUtf16);
    };
    if code_points
        .iter()
        .all(|&cp| char::from_u32(cp).is_some_and(|c| c.is_ascii_alphanumeric() || c == '-'))
    {
        return Some(Reason::NoEncodingNeeded);
    }
    (octets > lace::MAX_COMPRESSED_LEN).then_some(Reason::TooLong { octets })
}

/// `lace_roundtrip`: the encoder answers what the rules of section 2.2 say
/// (the reason, and the length of the compressed string), and every string
/// it writes is lowercase `bq--` Base32 of at most 62 bytes that both
/// decoders turn back into the input, even in upper case.
pub fn roundtrip(code_points: &[u32]) -> Outcome {
    let expected = expected_encode_reason(code_points);
    let text = match lace::encode(code_points) {
        Err(e) if Some(e.reason) == expected => return Ok(()),
        Err(e) => {
            return Err(format!(
                "{code_points:X?}: encode failed with {e:?}, expected {expected:?}"
            ));
        }
        Ok(_) if expected.is_some() => {
            return Err(format!(
                "{code_points:X?}: encode succeeded, expected {expected:?}"
            ));
        }
        Ok(text) => text,
    };
    let shown = String::from_utf8_lossy(&text);
    let well_formed = text.len() <= lace::MAX_ENCODED_LEN
        && text.starts_with(lace::TAG)
        && text[lace::TAG.len()..]
            .iter()
            .all(|c| lace::BASE32_ALPHABET.contains(c));
    if !well_formed {
        return Err(format!("{code_points:X?} encodes to {shown:?}"));
    }
    let octets = lace::base32_decode(&text[lace::TAG.len()..]).map(|o| o.len());
    if octets != Ok(naive_compressed_len(code_points).unwrap_or(0)) {
        return Err(format!(
            "{code_points:X?} encodes to {shown:?}, {octets:?} octets compressed"
        ));
    }
    let back = lace::decode(&text);
    if back.as_deref() != Ok(code_points) {
        return Err(format!(
            "{code_points:X?} encodes to {shown:?}, which decodes to {back:X?}"
        ));
    }
    let upper = lace::decode_ignoring_case(&text.to_ascii_uppercase());
    if upper.as_deref() != Ok(code_points) {
        return Err(format!(
            "{code_points:X?} encodes to {shown:?}, whose upper case decodes to {upper:X?}"
        ));
    }
    Ok(())
}

/// `lace_uniqueness`: [`uniqueness_of`] for the strict decoder, and the
/// case-insensitive decoder agrees with it: it accepts everything the strict
/// one accepts (with the same result), accepts more only where the strict
/// one found an uppercase letter, and then encodes back to the input in
/// lower case.
pub fn uniqueness(text: &[u8]) -> Outcome {
    uniqueness_of(text, lace::decode)?;
    let shown = String::from_utf8_lossy(text);
    let strict = lace::decode(text);
    let lenient = lace::decode_ignoring_case(text);
    match (&strict, &lenient) {
        (Ok(a), Ok(b)) if a == b => Ok(()),
        (Err(e), Ok(code_points)) if e.reason == Reason::Uppercase => {
            match lace::encode(code_points) {
                Ok(again) if again == text.to_ascii_lowercase() => Ok(()),
                again => Err(format!(
                    "{shown:?} decodes ignoring case to {code_points:X?}, which encodes to {again:?}"
                )),
            }
        }
        (Err(_), Err(_)) => Ok(()),
        _ => Err(format!(
            "{shown:?}: strict decoding {strict:X?}, ignoring case {lenient:X?}"
        )),
    }
}

/// Section 3's requirement for any decoder `decode`: when it accepts `text`,
/// [`lace::encode`] of the result is `text` byte for byte (so no two strings
/// decode to the same name). Tests pass lenient decoders to show it fails.
pub fn uniqueness_of(text: &[u8], decode: impl Fn(&[u8]) -> Result<Vec<u32>, Error>) -> Outcome {
    let Ok(code_points) = decode(text) else {
        return Ok(());
    };
    let again = lace::encode(&code_points);
    if again.as_deref() == Ok(text) {
        Ok(())
    } else {
        Err(format!(
            "{:?} decodes to {code_points:X?}, which encodes to {:?}",
            String::from_utf8_lossy(text),
            again.map(|t| String::from_utf8_lossy(&t).into_owned())
        ))
    }
}

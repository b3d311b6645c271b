//! Seeded generators of requests that reach Punycode's hard regions, not only
//! random text: all-basic strings, delimiter placements, mixed-case digits,
//! long inputs, code points near U+10FFFF and 0xFFFFFFFF, deltas on both
//! sides of every overflow limit, and every printable ASCII character in
//! Punycode text. The same seed gives the same sequence of requests.
//!
//! About one Punycode request in twelve is long and inside Unicode (see
//! [`Generator::long_request`]): 1,900 to 4,100 code points that put a delta
//! near 2^32 or 2^31 with code points up to U+10FFFF, or lengths around
//! buffer sizes, and their encodings, mutated or not. Those are drawn from a
//! stream of their own and replace the request they fall on, so the other
//! requests of a seed are the ones they were before.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::class_plan::Plan;
use super::compare::Request;
use crate::codec::Codec;
use crate::engines::Engine;
use crate::punycode::{self, DELIMITER, MAXINT};

/// Produces requests from a seed.
pub struct Generator {
    rng: ChaCha8Rng,
    /// The stream of the long requests inside Unicode.
    long_rng: ChaCha8Rng,
    count: u64,
    codec: Codec,
    /// The codec's reference, for valid encodings of the other codecs.
    reference: Option<Box<dyn Engine>>,
    /// Every question as a name to encode ([`Generator::names_only`]).
    names_only: bool,
    /// For the label and domain codecs, the questions that ask each
    /// Unicode class both ways, asked first; made at the first request.
    plan: Option<Plan>,
    seed: u64,
}

/// A code point region worth sampling.
fn code_point(rng: &mut ChaCha8Rng) -> u32 {
    match rng.random_range(0..20) {
        0..=3 => rng.random_range(b'a'..=b'z').into(),
        4 => rng.random_range(b'A'..=b'Z').into(),
        5 => u32::from(*pick(rng, b"0123456789-.!~ _")),
        6 => rng.random_range(0..0x80),
        7 => rng.random_range(0x80..0x100),
        8..=11 => rng.random_range(0x100..0x3000),
        12 => rng.random_range(0x3000..0x1_0000),
        13 => rng.random_range(0x1_0000..0x11_0000),
        14 => 0x10_FFFF_u32
            .wrapping_add(rng.random_range(0..8))
            .wrapping_sub(4),
        15 => MAXINT - rng.random_range(0..0x100),
        16 => 0xD800 + rng.random_range(0..0x800),
        // Where (m - n) * (h + 1) meets maxint for small h.
        17 => {
            let h = rng.random_range(1..=4u32);
            (MAXINT / h)
                .wrapping_add(0x80)
                .wrapping_add(rng.random_range(0..5))
                .wrapping_sub(2)
        }
        _ => rng.random(),
    }
}

fn pick<'a, T>(rng: &mut ChaCha8Rng, items: &'a [T]) -> &'a T {
    &items[rng.random_range(0..items.len())]
}

/// A length that is usually short and sometimes long.
fn length(rng: &mut ChaCha8Rng) -> usize {
    match rng.random_range(0..20) {
        0 => 0,
        1..=14 => rng.random_range(1..12),
        15..=18 => rng.random_range(12..64),
        _ => rng.random_range(64..400),
    }
}

/// One Punycode request in this many is a long one inside Unicode.
const LONG_ONE_IN: u32 = 12;

/// The ChaCha stream of the long requests (the others use stream 0).
const LONG_STREAM: u64 = 0x3492;

/// Input lengths around the sizes of fixed buffers.
const BUFFER_EDGES: [usize; 12] = [
    255, 256, 257, 511, 512, 513, 1023, 1024, 1025, 2047, 2048, 2049,
];

/// Code points from U+0080 up, in the runs of a long mixed input.
const NON_BASIC: [u32; 6] = [0xE9, 0x416, 0x4E2D, 0xFFFD, 0x1_F600, 0x10_FFFD];

/// Basic letters, `n` of them.
fn letters(rng: &mut ChaCha8Rng, n: usize) -> Vec<u32> {
    let letter = u32::from(*pick(rng, b"abcxyz"));
    if rng.random_bool(0.5) {
        vec![letter; n]
    } else {
        (0..n).map(|_| u32::from(*pick(rng, b"abcxyz"))).collect()
    }
}

/// Long code points inside Unicode aimed at a limit: `h1 - 1` basic code
/// points and one `m` after `p` of them make the first delta
/// `(m - 0x80) * h1 + p` (section 6.3), here within about `2 * h1` of 2^32,
/// 2^31 or 2^26; or basic code points around a code point near U+10FFFF;
/// or runs of mixed code points with a length around a buffer size.
fn long_code_points(rng: &mut ChaCha8Rng) -> Vec<u32> {
    match rng.random_range(0..6) {
        shape @ 0..=2 => {
            let (power, least_h1) = match shape {
                0 | 1 => (1u64 << 32, 3856),
                _ => (1 << 31, 1928),
            };
            let h1: u64 = rng.random_range(least_h1..=least_h1 + 240);
            let target = (power + rng.random_range(0..=3 * h1)).saturating_sub(2 * h1);
            let m = u32::try_from(0x80 + target / h1).map_or(0x10_FFFF, |m| m.min(0x10_FFFF));
            // h1 < 4100, so these are exact.
            let p = rng.random_range(0..h1 as usize);
            let mut v = letters(rng, h1 as usize - 1);
            v.insert(p, m);
            v
        }
        3 => {
            let n = rng.random_range(1900..=4100);
            let mut v = letters(rng, n);
            let at = if rng.random_bool(0.5) {
                0
            } else {
                rng.random_range(0..=v.len())
            };
            v.insert(at, 0x10_FFFF - rng.random_range(0..16));
            v
        }
        4 => {
            let len = (*pick(rng, &BUFFER_EDGES) + rng.random_range(0..=2)).saturating_sub(1);
            let mut v = Vec::with_capacity(len);
            while v.len() < len {
                let cp = if rng.random_bool(0.5) {
                    u32::from(*pick(rng, b"ab-0"))
                } else {
                    *pick(rng, &NON_BASIC)
                };
                let n = rng.random_range(1..10).min(len - v.len());
                v.extend(std::iter::repeat_n(cp, n));
            }
            v
        }
        _ => {
            // 2^26: the 26-bit integers of section 6.4, with 61 to 200 code points.
            let h1: u64 = rng.random_range(61..=200);
            let target = ((1u64 << 26) + rng.random_range(0..=3 * h1)).saturating_sub(2 * h1);
            let m = u32::try_from(0x80 + target / h1).unwrap_or(0x10_FFFF);
            let p = rng.random_range(0..h1 as usize);
            let mut v = letters(rng, h1 as usize - 1);
            v.insert(p, m);
            v
        }
    }
}

/// Section 3.3's integer for any `q`, also one above 32 bits (a decoder
/// must refuse it), lowercase.
fn integer(mut q: u64, bias: u32, out: &mut Vec<u8>) {
    let mut k = punycode::BASE;
    loop {
        let t = u64::from(punycode::threshold(k, bias));
        if q < t {
            break;
        }
        // Below BASE, so the narrowing is exact.
        out.push(punycode::digit_char(
            (t + (q - t) % (u64::from(punycode::BASE) - t)) as u32,
            false,
        ));
        q = (q - t) / (u64::from(punycode::BASE) - t);
        k += punycode::BASE;
    }
    // q < t <= 26 here.
    out.push(punycode::digit_char(q as u32, false));
}

impl Generator {
    /// A generator of Punycode requests for `seed`.
    pub fn new(seed: u64) -> Self {
        Self::for_codec(Codec::Punycode, seed)
    }

    /// A generator of requests for `codec` from `seed`: for Punycode, the
    /// hand-made regions below; for labels, those of
    /// [`super::labels`]; for the other codecs the same code points, and
    /// encoded text from their reference, mutated with their alphabet.
    pub fn for_codec(codec: Codec, seed: u64) -> Self {
        let mut long_rng = ChaCha8Rng::seed_from_u64(seed);
        long_rng.set_stream(LONG_STREAM);
        Generator {
            rng: ChaCha8Rng::seed_from_u64(seed),
            long_rng,
            count: 0,
            codec,
            reference: (codec != Codec::Punycode)
                .then(|| crate::engines::reference_for(codec))
                .flatten(),
            names_only: false,
            plan: None,
            seed,
        }
    }

    /// The same questions, each text to decode asked as a name to encode
    /// (its characters as code points): for a validator (`--answers
    /// verdict`), which validates a name in whatever form it comes, and
    /// whose verdict is ToASCII's (a name in ASCII with a broken `xn--`
    /// label, an empty label or a label too long is invalid, where
    /// ToUnicode takes it).
    pub fn names_only(mut self) -> Self {
        self.names_only = true;
        self
    }

    /// The plan of the label and domain codecs' first questions
    /// ([`Plan`]), made when first needed; `None` for the other codecs.
    fn plan(&mut self) -> Option<&mut Plan> {
        self.codec.label_profile()?;
        if self.plan.is_none() {
            let reference = self.reference.as_deref()?;
            self.plan = Some(Plan::new(self.codec, self.seed, reference));
        }
        self.plan.as_mut()
    }

    /// For the label and domain codecs, whether each Unicode class of
    /// [`super::unicode_classes::table`] has a context the reference
    /// accepts (the plan found one), for [`super::unicode_classes::Coverage::asked`].
    pub fn accepting(&mut self) -> Option<Vec<bool>> {
        self.plan().map(|plan| plan.accepting.clone())
    }

    /// The next request, alternating between encoding and decoding; for
    /// the label and domain codecs, the questions of the class plan
    /// first ([`Plan`]).
    pub fn next_request(&mut self) -> Request {
        self.count += 1;
        // The label and domain codecs ask each Unicode class first.
        let request = match self.plan().and_then(|plan| plan.questions.pop_front()) {
            Some(request) => request,
            None => {
                // Decided on the long stream, and the request it replaces
                // is still drawn, so that the main stream stays where it
                // was.
                let long =
                    self.codec == Codec::Punycode && self.long_rng.random_ratio(1, LONG_ONE_IN);
                let request = self.regular_request();
                if long {
                    self.long_request(matches!(request, Request::Encode { .. }))
                } else {
                    request
                }
            }
        };
        match request {
            Request::Decode(text) if self.names_only => Request::Encode {
                code_points: String::from_utf8_lossy(&text)
                    .chars()
                    .map(u32::from)
                    .collect(),
                flags: None,
            },
            request => request,
        }
    }

    fn regular_request(&mut self) -> Request {
        if let Codec::Domain(profile) = self.codec {
            return if self.count.is_multiple_of(2) {
                super::domains::encode_request(&mut self.rng, profile)
            } else {
                super::domains::decode_request(&mut self.rng, profile)
            };
        }
        if let Some(profile) = self.codec.label_profile() {
            return if self.count.is_multiple_of(2) {
                super::labels::encode_request(&mut self.rng, profile)
            } else {
                super::labels::decode_request(&mut self.rng, profile)
            };
        }
        if self.count.is_multiple_of(2) {
            let mut request = self.encode_request();
            if let Request::Encode { flags, .. } = &mut request
                && !self.codec.has_annotations()
            {
                *flags = None;
            }
            request
        } else if self.codec == Codec::Punycode {
            Request::Decode(self.punycode())
        } else {
            Request::Decode(self.encoded_text())
        }
    }

    /// Text of a codec other than Punycode: its reference's encoding of
    /// generated code points, often mutated with bytes that matter to it.
    fn encoded_text(&mut self) -> Vec<u8> {
        let alphabet: &[u8] = match self.codec {
            Codec::Utf8 => b"\x00a\x7f\x80\xbf\xc0\xc1\xc2\xdf\xe0\xed\xef\xf0\xf4\xf5\xf7\xf8\xfb\xfc\xfd\xfe\xff",
            Codec::Lace => b"bq--abcdefghijklmnopqrstuvwxyz234567AZ018",
            _ => b"-abcdefghijklmnopqrstuvwxyzAZ0123456789",
        };
        let mut text = Vec::new();
        for _ in 0..20 {
            let Request::Encode { code_points, .. } = self.encode_request() else {
                continue;
            };
            let encoded = self
                .reference
                .as_ref()
                .and_then(|r| r.encode(&code_points, None).ok());
            if let Some(encoded) = encoded {
                text = encoded;
                break;
            }
        }
        let rng = &mut self.rng;
        match rng.random_range(0..10) {
            0..=3 => text,
            4..=7 => {
                for _ in 0..rng.random_range(1..4) {
                    let at = rng.random_range(0..=text.len());
                    match rng.random_range(0..4) {
                        0 if at < text.len() => text[at] = *pick(rng, alphabet),
                        1 if at < text.len() => {
                            text.remove(at);
                        }
                        2 => text.truncate(at),
                        _ => text.insert(at, *pick(rng, alphabet)),
                    }
                }
                text
            }
            8 => (0..length(rng)).map(|_| *pick(rng, alphabet)).collect(),
            _ => (0..length(rng)).map(|_| rng.random()).collect(),
        }
    }

    /// A long request inside Unicode, from the long stream: code points
    /// aimed at a limit, or Punycode: the C reference's encoding of such
    /// code points, mutated at its end half of the time, or a literal part
    /// and one integer near 2^32 or 2^31.
    pub fn long_request(&mut self, encode: bool) -> Request {
        let rng = &mut self.long_rng;
        if encode {
            let code_points = long_code_points(rng);
            let flags = rng
                .random_bool(0.3)
                .then(|| code_points.iter().map(|_| rng.random_bool(0.1)).collect());
            return Request::Encode { code_points, flags };
        }
        if rng.random_bool(0.25) {
            // The wrapped i of a decoder without the check lands inside
            // Unicode once the literal part is this long.
            let basics = rng.random_range(3855..=4100);
            let mut text: Vec<u8> = letters(rng, basics).iter().map(|&c| c as u8).collect();
            text.push(DELIMITER);
            let power = if rng.random_bool(0.7) {
                1u64 << 32
            } else {
                1 << 31
            };
            let q = (power + rng.random_range(0..=8192)).saturating_sub(4096);
            integer(q, punycode::INITIAL_BIAS, &mut text);
            return Request::Decode(text);
        }
        let text = loop {
            let code_points = long_code_points(rng);
            if let Ok(text) = crate::c_reference::encode(&code_points, None) {
                break text;
            }
        };
        let mut text = text;
        match rng.random_range(0..6) {
            0..=2 => {}
            3 => {
                // The last digit changed.
                if let Some(last) = text.last_mut() {
                    let d = punycode::digit_value(*last).unwrap_or(0);
                    let d = (d + rng.random_range(1..punycode::BASE)) % punycode::BASE;
                    *last = punycode::digit_char(d, false);
                }
            }
            4 => text.push(*pick(rng, b"0a9z")),
            _ => {
                text.pop();
            }
        }
        Request::Decode(text)
    }

    /// Code points with optional flags.
    pub fn encode_request(&mut self) -> Request {
        let rng = &mut self.rng;
        let code_points: Vec<u32> = match rng.random_range(0..10) {
            // All basic, often with delimiters.
            0 => (0..length(rng))
                .map(|_| u32::from(*pick(rng, b"abcXYZ-09-")))
                .collect(),
            // Right at an encoder overflow limit: k - 1 basics make h + 1 = k.
            1 => {
                let k = rng.random_range(1..=5u32);
                let jump = MAXINT / k;
                let cp = jump
                    .wrapping_add(0x80)
                    .wrapping_add(rng.random_range(0..3))
                    .wrapping_sub(1);
                let mut v: Vec<u32> = (1..k).map(|_| u32::from(*pick(rng, b"ab"))).collect();
                let at = rng.random_range(0..=v.len());
                v.insert(at, cp);
                if rng.random_bool(0.3) {
                    v.push(0x80);
                }
                v
            }
            // Few distinct values, repeated: long inputs stay cheap.
            2 => {
                let distinct: Vec<u32> = (0..rng.random_range(1..5))
                    .map(|_| code_point(rng))
                    .collect();
                (0..length(rng) * 4)
                    .map(|_| *pick(rng, &distinct))
                    .collect()
            }
            _ => (0..length(rng)).map(|_| code_point(rng)).collect(),
        };
        let flags = rng
            .random_bool(0.5)
            .then(|| code_points.iter().map(|_| rng.random_bool(0.3)).collect());
        Request::Encode { code_points, flags }
    }

    /// A valid encoding of generated code points, as the clean-room code
    /// gives it (the differential run checks it against C anyway).
    fn valid_punycode(&mut self) -> Vec<u8> {
        loop {
            if let Request::Encode { code_points, flags } = self.encode_request()
                && let Ok(text) = punycode::encode(&code_points, flags.as_deref())
            {
                return text;
            }
        }
    }

    /// Punycode text: valid, nearly valid, or hostile.
    pub fn punycode(&mut self) -> Vec<u8> {
        let choice = self.rng.random_range(0..16);
        let mut text = match choice {
            0..=4 => self.valid_punycode(),
            5..=8 => {
                let mut text = self.valid_punycode();
                self.mutate(&mut text);
                text
            }
            // Any printable ASCII, often around a delimiter.
            9 | 10 => {
                let rng = &mut self.rng;
                (0..length(rng))
                    .map(|_| {
                        if rng.random_bool(0.15) {
                            DELIMITER
                        } else {
                            rng.random_range(0x20..0x7F)
                        }
                    })
                    .collect()
            }
            // Runs of high digits: the decoder's overflow checks.
            11 => {
                let rng = &mut self.rng;
                let mut text: Vec<u8> = if rng.random_bool(0.5) {
                    b"a-".to_vec()
                } else {
                    Vec::new()
                };
                let n = rng.random_range(1..16);
                text.extend((0..n).map(|_| *pick(rng, b"9zZ8y0")));
                text.push(*pick(rng, b"abcdefghijklmnopqrstuvwxyz"));
                text
            }
            // Deltas on both sides of the decoder's limits.
            12 => self.near_decode_limit(),
            // Bytes of any value.
            13 => {
                let rng = &mut self.rng;
                (0..length(rng)).map(|_| rng.random()).collect()
            }
            // Delimiter placements around a literal.
            14 => {
                let rng = &mut self.rng;
                let mut text = Vec::new();
                for _ in 0..rng.random_range(0..6) {
                    if rng.random_bool(0.4) {
                        text.push(DELIMITER);
                    } else {
                        text.push(*pick(rng, b"aB3-"));
                    }
                }
                let tail = self.valid_punycode();
                let start = tail
                    .iter()
                    .rposition(|&c| c == DELIMITER)
                    .map_or(0, |p| p + 1);
                text.push(DELIMITER);
                text.extend_from_slice(&tail[start..]);
                text
            }
            _ => {
                let mut text = self.valid_punycode();
                self.mix_case(&mut text);
                text
            }
        };
        if self.rng.random_bool(0.1) {
            self.mix_case(&mut text);
        }
        text
    }

    /// An integer right at a limit, written with the bias the decoder will
    /// have, optionally after a literal part.
    fn near_decode_limit(&mut self) -> Vec<u8> {
        let rng = &mut self.rng;
        let basics = rng.random_range(0..4usize);
        let mut text: Vec<u8> = (0..basics).map(|_| *pick(rng, b"abc")).collect();
        if basics > 0 {
            text.push(DELIMITER);
        }
        let len = basics as u32;
        // i + digit * w == maxint, or n + i / (len + 1) == maxint.
        let target = if rng.random_bool(0.5) {
            MAXINT
        } else {
            (MAXINT - 0x80).saturating_mul(len + 1)
        };
        let q = target.wrapping_add(rng.random_range(0..3)).wrapping_sub(1);
        punycode::encode_integer(q, punycode::INITIAL_BIAS, false, &mut text);
        if rng.random_bool(0.3) {
            // A last digit one higher crosses the limit.
            if let Some(last) = text.last_mut() {
                *last = last.saturating_add(1);
            }
        }
        text
    }

    fn mutate(&mut self, text: &mut Vec<u8>) {
        let rng = &mut self.rng;
        let at = if text.is_empty() {
            0
        } else {
            rng.random_range(0..text.len())
        };
        match rng.random_range(0..6) {
            0 if !text.is_empty() => text[at] = rng.random_range(0x20..0x7F),
            1 if !text.is_empty() => {
                text.remove(at);
            }
            2 => text.insert(at, *pick(rng, b"-a9zA_")),
            3 => text.truncate(at),
            4 if !text.is_empty() => {
                let d = punycode::digit_value(text[at]).unwrap_or(0);
                text[at] = punycode::digit_char((d + 1) % punycode::BASE, false);
            }
            _ => text.push(*pick(rng, b"-a9")),
        }
    }

    fn mix_case(&mut self, text: &mut [u8]) {
        for c in text.iter_mut() {
            if self.rng.random_bool(0.3) {
                c.make_ascii_uppercase();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_requests() {
        let a: Vec<Request> = {
            let mut g = Generator::new(7);
            (0..200).map(|_| g.next_request()).collect()
        };
        let mut g = Generator::new(7);
        let b: Vec<Request> = (0..200).map(|_| g.next_request()).collect();
        assert_eq!(a, b);
        let mut other = Generator::new(8);
        assert_ne!(
            a[..10],
            (0..10).map(|_| other.next_request()).collect::<Vec<_>>()
        );
    }

    /// The generators reach the regions they promise, measured with the C
    /// reference's verdicts and the clean-room code's overflow checks.
    #[test]
    fn generated_requests_reach_the_hard_regions() {
        use crate::punycode::{Error, OverflowCheck};
        use std::collections::BTreeSet;
        let mut g = Generator::new(1);
        let mut checks = BTreeSet::new();
        let (mut long, mut printable, mut near_max, mut ok_decodes) = (0, BTreeSet::new(), 0, 0);
        let mut unicode = Unicode::default();
        for _ in 0..20_000 {
            let request = g.next_request();
            unicode.measure(&request);
            match request {
                Request::Encode { code_points, flags } => {
                    long += usize::from(code_points.len() >= 64);
                    near_max += usize::from(code_points.iter().any(|&c| c >= MAXINT - 0x100));
                    if let Err(Error::Overflow { check, .. }) =
                        punycode::encode(&code_points, flags.as_deref())
                    {
                        checks.insert(check);
                    }
                }
                Request::Decode(text) => {
                    printable.extend(text.iter().copied().filter(|b| (0x20..0x7F).contains(b)));
                    match punycode::decode(&text) {
                        Err(Error::Overflow { check, .. }) => {
                            checks.insert(check);
                        }
                        Ok(_) => ok_decodes += 1,
                        Err(_) => {}
                    }
                }
            }
        }
        unicode.check();
        for check in [
            OverflowCheck::DecodeDigit,
            OverflowCheck::DecodeCodePoint,
            OverflowCheck::EncodeDelta,
            OverflowCheck::EncodeIncrement,
        ] {
            assert!(checks.contains(&check), "never reached {check:?}");
        }
        assert_eq!(
            printable.len(),
            95,
            "every printable ASCII character appears"
        );
        assert!(
            long > 100 && near_max > 100 && ok_decodes > 3000,
            "{long} {near_max} {ok_decodes}"
        );
    }

    /// What the long requests inside Unicode reach: overflow checks tripped
    /// and limits passed with Unicode scalar values only, 1,900 code points
    /// and more, deltas near 2^32 and 2^31, and lengths around buffer sizes.
    #[derive(Debug, Default)]
    struct Unicode {
        long_encodes: usize,
        long_decodes: usize,
        checks: std::collections::BTreeSet<crate::punycode::OverflowCheck>,
        /// Valid, inside Unicode, with a delta from 2^32 - 2^16 to maxint.
        near_2_32: usize,
        /// Valid, inside Unicode, with the decoder's i above 2^31 - 1.
        above_2_31: usize,
        /// Decodings of long text that fail at the end of the input.
        bad_ends: usize,
        edges: std::collections::BTreeSet<usize>,
    }

    impl Unicode {
        fn measure(&mut self, request: &Request) {
            use crate::punycode::Error;
            let scalar = |cps: &[u32]| cps.iter().all(|&c| char::from_u32(c).is_some());
            // Only the few non-basic code points of the aimed shapes are
            // traced: a trace copies the output at every insertion.
            let few_non_basic = |cps: &[u32]| cps.iter().filter(|&&c| c >= 0x80).count() <= 2;
            match request {
                Request::Encode { code_points, .. } => {
                    if !scalar(code_points) {
                        return;
                    }
                    if BUFFER_EDGES.contains(&code_points.len()) {
                        self.edges.insert(code_points.len());
                    }
                    if code_points.len() < 1900 {
                        return;
                    }
                    self.long_encodes += 1;
                    match punycode::encode(code_points, None) {
                        Err(Error::Overflow { check, .. }) => {
                            self.checks.insert(check);
                        }
                        Ok(_) if few_non_basic(code_points) => {
                            let (_, steps) = punycode::encode_traced(code_points, None);
                            let top = steps.iter().map(|s| s.delta).max().unwrap_or(0);
                            self.near_2_32 += usize::from(top >= MAXINT - 0xFFFF);
                        }
                        _ => {}
                    }
                }
                Request::Decode(text) => {
                    if text.len() < 1900 {
                        return;
                    }
                    self.long_decodes += 1;
                    match punycode::decode(text) {
                        Err(Error::Overflow { check, .. }) => {
                            self.checks.insert(check);
                        }
                        Err(Error::BadInput { position, .. }) if position + 1 >= text.len() => {
                            self.bad_ends += 1;
                        }
                        Ok(decoded)
                            if scalar(&decoded.code_points)
                                && few_non_basic(&decoded.code_points) =>
                        {
                            let (_, steps) = punycode::decode_traced(text);
                            let top = steps.iter().map(|s| s.i_before_wrap).max().unwrap_or(0);
                            self.above_2_31 += usize::from(top > i32::MAX as u32);
                        }
                        _ => {}
                    }
                }
            }
        }

        fn check(&self) {
            use crate::punycode::OverflowCheck::*;
            for check in [DecodeDigit, EncodeDelta, EncodeIncrement] {
                assert!(
                    self.checks.contains(&check),
                    "{check:?} not reached: {self:?}"
                );
            }
            assert!(
                self.long_encodes > 400
                    && self.long_decodes > 400
                    && self.near_2_32 > 20
                    && self.above_2_31 > 20
                    && self.bad_ends > 20
                    && self.edges.len() == BUFFER_EDGES.len(),
                "{self:?}"
            );
        }
    }
}

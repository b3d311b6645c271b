//! Derives `vectors/unicode-limits.toml`: RFC 3492's limits reached with
//! Unicode scalar values only (no surrogates, nothing above U+10FFFF), so
//! that an implementation that takes only Unicode is asked about them too.
//!
//! ```sh
//! cargo run --example derive_unicode_limits > crates/punycheck/vectors/unicode-limits.toml
//! cargo run --example bless_vectors      # must leave the file unchanged
//! ```
//!
//! Every input is computed here from the arithmetic of RFC 3492 section 6
//! (each case's provenance gives it), every expected value is the C
//! reference's (`punycheck::c_reference`), and every claim a provenance
//! makes is asserted before the file is printed: the quantity that lands on
//! a limit (by the clean-room traces), the check that fires, and, for the
//! overflow checks, what an implementation without that check would return
//! (by [`decode_without`] and [`encode_without`], sections 6.2 and 6.3 with
//! one check left out and 32-bit wrapping arithmetic in its place; with no
//! check left out they are checked against the C reference).
//!
//! The first delta of a string with `H - 1` basic code points and one
//! non-basic code point `m` at position `p` (counting the basic code points
//! before it) is `(m - 0x80) * H + p` (section 6.3: the jump, then one
//! increment per smaller code point before it). With `m <= 0x10FFFF` that is
//! at most `0x10FF7F * H`, so a delta near 2^32 needs `H >= 3856`, near 2^31
//! `H >= 1928`, near 2^26 `H >= 61`. [`first_delta`] solves for `m` and `p`.

use std::fmt::Write as _;

use punycheck::c_reference;
use punycheck::punycode::{self, BASE, INITIAL_BIAS, INITIAL_N};
use punycheck::vocabulary::{CodePoints, Expected, Request};

const MAXINT: u64 = u32::MAX as u64;
const TWO_32: u64 = 1 << 32;
const LAST: u32 = 0x10_FFFF;
const A: u32 = 0x61;
const C_REF: &str = "Expected value computed by the C reference.";

/// One case of the file.
struct Vector {
    name: String,
    request: Request,
    overflow_check: Option<&'static str>,
    limit_check: Option<&'static str>,
    provenance: String,
}

/// The file being built, with the names used so far.
#[derive(Default)]
struct File {
    cases: Vec<Vector>,
}

impl File {
    fn encode(&mut self, name: &str, code_points: Vec<u32>, provenance: String) -> &mut Vector {
        self.push(
            name,
            Request::Encode {
                code_points,
                flags: None,
            },
            provenance,
        )
    }

    fn decode(&mut self, name: &str, text: Vec<u8>, provenance: String) -> &mut Vector {
        self.push(name, Request::Decode(text), provenance)
    }

    fn push(&mut self, name: &str, request: Request, provenance: String) -> &mut Vector {
        let name = format!("unicode-{name}");
        assert!(
            self.cases.iter().all(|c| c.name != name),
            "duplicate {name}"
        );
        self.cases.push(Vector {
            name,
            request,
            overflow_check: None,
            limit_check: None,
            provenance,
        });
        self.cases.last_mut().unwrap()
    }
}

impl Vector {
    fn trips(&mut self, check: &'static str) -> &mut Self {
        self.overflow_check = Some(check);
        self
    }

    fn lands(&mut self, check: &'static str) -> &mut Self {
        self.limit_check = Some(check);
        self
    }
}

fn is_scalar(cp: u32) -> bool {
    char::from_u32(cp).is_some()
}

/// The C reference's answer.
fn reference(request: &Request) -> Expected {
    c_reference::answer(request).expect("the C reference takes every case")
}

fn encode(code_points: &[u32]) -> Vec<u8> {
    c_reference::encode(code_points, None).expect("encodes")
}

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).expect("ASCII")
}

/// `count` copies of `cp`.
fn run(cp: u32, count: usize) -> Vec<u32> {
    vec![cp; count]
}

/// `p` basic code points, `m`, then `h1 - 1 - p` basic ones: the first
/// delta is `(m - 0x80) * h1 + p`.
fn layout(m: u32, h1: u64, p: u64) -> Vec<u32> {
    let mut v = run(A, p as usize);
    v.push(m);
    v.extend(run(A, (h1 - 1 - p) as usize));
    v
}

/// The non-basic code point `m` and the number `p` of basic code points
/// before it that make the first delta exactly `target` with `h1 - 1`
/// basic code points: `m - 0x80 = target div h1`, `p = target mod h1`.
fn first_delta(target: u64, h1: u64) -> (u32, u64) {
    let m = u32::try_from(u64::from(INITIAL_N) + target / h1).expect("fits");
    assert!(is_scalar(m) && m >= INITIAL_N, "{m:X} for {target} / {h1}");
    (m, target % h1)
}

/// Section 3.3's generalized variable-length integer for any `q`, also one
/// that needs more than 32 bits (for inputs that must overflow).
fn integer(mut q: u64, bias: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut k = BASE;
    loop {
        let t = u64::from(punycode::threshold(k, bias));
        if q < t {
            break;
        }
        out.push(punycode::digit_char(
            u32::try_from(t + (q - t) % (u64::from(BASE) - t)).unwrap(),
            false,
        ));
        q = (q - t) / (u64::from(BASE) - t);
        k += BASE;
    }
    out.push(punycode::digit_char(u32::try_from(q).unwrap(), false));
    out
}

/// Which overflow check of section 6.2 a decoder leaves out.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Missing {
    None,
    /// `i + digit * w`: `i` wraps modulo 2^32, as C's unsigned arithmetic.
    Digit,
    /// `n + i div (length + 1)`: `n` wraps modulo 2^32.
    CodePoint,
}

/// Section 6.2 with 32-bit unsigned integers and the check `missing` left
/// out, so that quantity wraps as in C. `Err` names the failure.
fn decode_without(text: &[u8], missing: Missing) -> Result<Vec<u32>, &'static str> {
    let result = decode_without_unchecked(text, missing);
    if missing == Missing::None {
        let reference = c_reference::decode(text).map(|d| d.code_points);
        match (&result, reference) {
            (Ok(ours), Ok(theirs)) => assert_eq!(ours, &theirs, "the simulation is not C"),
            (Err(ours), Err(c_reference::CError::Status(kind))) => assert_eq!(*ours, kind.name()),
            (ours, theirs) => panic!("the simulation is not C: {ours:?} {theirs:?}"),
        }
    }
    result
}

fn decode_without_unchecked(text: &[u8], missing: Missing) -> Result<Vec<u32>, &'static str> {
    let b = text.iter().rposition(|&c| c == b'-').unwrap_or(0);
    if text[..b].iter().any(|&c| c >= 0x80) {
        return Err("bad_input");
    }
    let mut output: Vec<u32> = text[..b].iter().map(|&c| u32::from(c)).collect();
    let (mut n, mut i, mut bias) = (INITIAL_N, 0u32, INITIAL_BIAS);
    let mut pos = if b > 0 { b + 1 } else { 0 };
    while pos < text.len() {
        let (oldi, mut w, mut k) = (i, 1u32, BASE);
        loop {
            let digit = text
                .get(pos)
                .and_then(|&c| punycode::digit_value(c))
                .ok_or("bad_input")?;
            pos += 1;
            let sum = u64::from(i) + u64::from(digit) * u64::from(w);
            if sum > MAXINT && missing != Missing::Digit {
                return Err("overflow");
            }
            i = sum as u32; // wraps only when the check is missing
            let t = punycode::threshold(k, bias);
            if digit < t {
                break;
            }
            w = w.checked_mul(BASE - t).ok_or("overflow")?;
            k += BASE;
        }
        let len = u32::try_from(output.len() + 1).unwrap();
        bias = punycode::adapt(i.wrapping_sub(oldi), len, oldi == 0);
        let sum = u64::from(n) + u64::from(i / len);
        if sum > MAXINT && missing != Missing::CodePoint {
            return Err("overflow");
        }
        n = sum as u32;
        i %= len;
        output.insert(i as usize, n);
        i += 1;
    }
    Ok(output)
}

/// Which overflow check of section 6.3 an encoder leaves out.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum MissingEnc {
    None,
    /// `delta + (m - n) * (h + 1)`: delta wraps modulo 2^32.
    Delta,
    /// `increment delta`: delta wraps modulo 2^32.
    Increment,
}

/// Section 6.3 without flags, with 32-bit unsigned integers and the check
/// `missing` left out, so that delta wraps as in C.
fn encode_without(input: &[u32], missing: MissingEnc) -> Result<Vec<u8>, &'static str> {
    let mut output: Vec<u8> = input
        .iter()
        .filter(|&&c| c < INITIAL_N)
        .map(|&c| c as u8)
        .collect();
    let b = output.len();
    let mut h = b;
    if b > 0 {
        output.push(b'-');
    }
    let (mut n, mut delta, mut bias) = (INITIAL_N, 0u32, INITIAL_BIAS);
    while h < input.len() {
        let m = *input.iter().filter(|&&c| c >= n).min().unwrap();
        let jump = u64::from(m - n) * (h as u64 + 1);
        if u64::from(delta) + jump > MAXINT && missing != MissingEnc::Delta {
            return Err("overflow");
        }
        delta = (u64::from(delta) + jump) as u32; // wraps only when missing
        n = m;
        for &c in input {
            if c < n {
                delta = delta.wrapping_add(1);
                if delta == 0 && missing != MissingEnc::Increment {
                    return Err("overflow");
                }
            }
            if c == n {
                punycode::encode_integer(delta, bias, false, &mut output);
                let points = u32::try_from(h + 1).unwrap();
                bias = punycode::adapt(delta, points, h == b);
                delta = 0;
                h += 1;
            }
        }
        delta = delta.wrapping_add(1);
        n = n.wrapping_add(1);
    }
    if missing == MissingEnc::None {
        let reference = c_reference::encode(input, None);
        match (&output, reference) {
            (ours, Ok(theirs)) => assert_eq!(ours, &theirs, "the simulation is not C"),
            (_, theirs) => panic!("the simulation is not C: {theirs:?}"),
        }
    }
    Ok(output)
}

/// The first delta of an encoding and the decoder's largest `i`, from the
/// clean-room traces.
fn deltas(code_points: &[u32]) -> (Vec<u32>, u32) {
    let (result, steps) = punycode::encode_traced(code_points, None);
    result.expect("encodes");
    let encoded = encode(code_points);
    let (decoded, dsteps) = punycode::decode_traced(&encoded);
    decoded.expect("decodes");
    let max_i = dsteps.iter().map(|s| s.i_before_wrap).max().unwrap_or(0);
    (steps.iter().map(|s| s.delta).collect(), max_i)
}

fn describe(cps: &[u32]) -> String {
    let c = CodePoints::with_flags(cps, None).compact();
    if c.len() > 120 {
        format!("{} ... ({} code points)", &c[..100], cps.len())
    } else {
        format!("[{c}]")
    }
}

/// Section 6.3's encoder and section 6.2's decoder at each check that can be
/// reached inside Unicode.
fn overflow_checks(file: &mut File) {
    // encode_delta, tripped: 3855 basic code points, then U+10FFFF.
    let cps = layout(LAST, 3856, 3855);
    file.encode(
        "encode-delta-trip",
        cps,
        format!(
            "Derived: 3855 basic code points make h + 1 = 3856, and the jump to U+10FFFF is \
             (0x10FFFF - 0x80) * 3856 = {}, above 0xFFFFFFFF: the smallest h at which \
             'delta + (m - n) * (h + 1)' overflows with a Unicode code point. {C_REF}",
            0x10_FF7F_u64 * 3856
        ),
    )
    .trips("encode_delta");

    // encode_delta, tripped by exactly one: 2^32 = 2^20 * 4096.
    assert_eq!(0x10_0000_u64 * 4096, TWO_32);
    let by_one = layout(0x10_0080, 4096, 0);
    let mut instead = vec![0x80];
    instead.extend(run(A, 4095));
    assert_eq!(
        encode_without(&by_one, MissingEnc::Delta),
        Ok(encode(&instead))
    );
    file.encode(
        "encode-delta-trip-by-one",
        by_one,
        format!(
            "Derived: U+100080 before 4095 basic code points: (0x100080 - 0x80) * 4096 = 2^20 * 2^12 \
             = 2^32, one more than maxint, so 'delta + (m - n) * (h + 1)' overflows by exactly one; \
             an encoder without the check (simulated) wraps delta to 0 and writes the encoding of \
             U+0080 in its place. {C_REF}"
        ),
    )
    .trips("encode_delta");

    // encode_delta, landing exactly on maxint: 0xFFFFFFFF = (65537 * 15) * (17 * 257).
    assert_eq!(983_055_u64 * 4369, MAXINT);
    let limit_delta = layout(0x80 + 983_055, 4369, 0);
    assert_eq!(deltas(&limit_delta).0[0], u32::MAX);
    file.encode(
        "encode-delta-limit",
        limit_delta.clone(),
        "Derived: 0xFFFFFFFF = 3 * 5 * 17 * 257 * 65537 = 983055 * 4369, and 983055 is the largest \
         divisor of maxint that is at most 0x10FFFF - 0x80; so U+F008F (0x80 + 983055) before 4368 \
         basic code points makes the jump (m - n) * (h + 1) exactly 0xFFFFFFFF, with no increment \
         before it. The longest valid input here: 4369 code points. "
            .to_string() + C_REF,
    )
    .lands("encode_delta");
    file.decode(
        "decode-digit-limit-from-delta",
        encode(&limit_delta),
        "Derived: the C reference's encoding of case unicode-encode-delta-limit; its one delta is \
         0xFFFFFFFF, so i + digit * w reaches maxint exactly at the last digit, and n = 0x80 + \
         0xFFFFFFFF div 4369 = U+F008F. "
            .to_string()
            + C_REF,
    )
    .lands("decode_digit");

    // encode_delta, the largest jump to U+10FFFF that fits.
    let below = layout(LAST, 3855, 0);
    let (d, _) = deltas(&below);
    file.encode(
        "encode-delta-just-below",
        below.clone(),
        format!(
            "Derived: U+10FFFF before 3854 basic code points: (0x10FFFF - 0x80) * 3855 = {}, \
             {} below maxint, the largest jump to U+10FFFF that fits. {C_REF}",
            d[0],
            MAXINT - u64::from(d[0])
        ),
    );
    file.decode(
        "decode-digit-just-below",
        encode(&below),
        format!(
            "Derived: the C reference's encoding of case unicode-encode-delta-just-below, \
             decoded: i = {} with 3855 code points, n = U+10FFFF. {C_REF}",
            d[0]
        ),
    );

    // The same jump with one code point handled before it: the second
    // pass's delta starts at 1 + what follows U+0080.
    let mut second = vec![0x80];
    second.extend(layout(LAST, 3855, 3854));
    file.encode(
        "encode-delta-trip-second-pass",
        second,
        "Derived: U+0080, 3854 basic code points, U+10FFFF: after the pass for U+0080, \
         h + 1 = 3856 and n = 0x81, so the jump (0x10FFFF - 0x81) * 3856 = 4295514592 does \
         not fit. "
            .to_string()
            + C_REF,
    )
    .trips("encode_delta");

    // encode_increment: (0x10FF70 - 0x80) * 3856 = 0xFFFFFF00.
    let m = 0x10_FF70;
    let jump = u64::from(m - 0x80) * 3856;
    assert_eq!(jump, MAXINT - 255);
    file.encode(
        "encode-increment-trip",
        layout(m, 3856, 3855),
        format!(
            "Derived: 3855 basic code points, then U+10FF70: the jump (0x10FF70 - 0x80) * 3856 = \
             {jump} = 0xFFFFFF00 fits, and the 256th of the 3855 increments for the basic code \
             points before U+10FF70 passes maxint. {C_REF}"
        ),
    )
    .trips("encode_increment");
    let inc_by_one = layout(m, 3856, 256);
    assert_eq!(jump + 256, TWO_32);
    let wrapped = encode_without(&inc_by_one, MissingEnc::Increment).unwrap();
    assert!(wrapped.ends_with(b"-a"), "delta 0 is written as 'a'");
    file.encode(
        "encode-increment-trip-by-one",
        inc_by_one,
        "Derived: 256 basic code points, U+10FF70, 3599 basic code points: the jump is \
         0xFFFFFF00 and the 256th increment makes delta 2^32, one past maxint; an encoder \
         without the check (simulated) wraps delta to 0 and writes it as 'a'. "
            .to_string()
            + C_REF,
    )
    .trips("encode_increment");
    let limit_inc = layout(m, 3856, 255);
    assert_eq!(deltas(&limit_inc), (vec![u32::MAX], u32::MAX));
    file.encode(
        "encode-increment-limit",
        limit_inc.clone(),
        "Derived: 255 basic code points, U+10FF70, 3600 basic code points: the jump is \
         0xFFFFFF00 and the 255 increments before U+10FF70 bring delta to 0xFFFFFFFF exactly. "
            .to_string()
            + C_REF,
    )
    .lands("encode_increment");
    file.decode(
        "decode-digit-limit",
        encode(&limit_inc),
        "Derived: the C reference's encoding of case unicode-encode-increment-limit: its delta \
         is 0xFFFFFFFF, so i + digit * w reaches maxint exactly; n = 0x80 + 0xFFFFFFFF div 3856 \
         = U+10FF70 at position 0xFFFFFFFF mod 3856 = 255, inside Unicode. "
            .to_string()
            + C_REF,
    )
    .lands("decode_digit");

    decoder_trips(file);
    asymmetry(file);
}

/// The decoder's checks, tripped by strings that a decoder without the
/// check turns into plausible Unicode.
fn decoder_trips(file: &mut File) {
    // i + digit * w = 2^32 + x after 3855 basic code points: wrapped, i = x,
    // n = 0x80 + x div 3856 at x mod 3856.
    let x = 0x69 * 3856 + 7;
    let mut t = b"a".repeat(3855);
    t.push(b'-');
    t.extend(integer(TWO_32 + x, INITIAL_BIAS));
    let wrapped = decode_without(&t, Missing::Digit).unwrap();
    let mut want = run(A, 7);
    want.push(0xE9);
    want.extend(run(A, 3848));
    assert_eq!(wrapped, want);
    assert_eq!(decode_without(&t, Missing::None), Err("overflow"));
    file.decode(
        "decode-digit-trip-wraps-into-unicode",
        t,
        format!(
            "Derived: 3855 basic code points, then 2^32 + {x} written as one integer with the \
             initial bias ({} digits): i + digit * w passes maxint at the last digit. A decoder \
             without that check (simulated with 32-bit wrapping) gets i = {x} and returns \
             [u+0061*7 u+00E9 u+0061*3848], a plausible wrong answer inside Unicode. {C_REF}",
            integer(TWO_32 + x, INITIAL_BIAS).len()
        ),
    )
    .trips("decode_digit");

    let t = integer(TWO_32 + 0x69, INITIAL_BIAS);
    assert_eq!(decode_without(&t, Missing::Digit), Ok(vec![0xE9]));
    file.decode(
        "decode-digit-trip-wraps-to-e-acute",
        t.clone(),
        format!(
            "Derived: {:?} is 2^32 + 0x69 with the initial bias and no literal part: i + \
             digit * w passes maxint at the last digit. A decoder without the check (simulated) \
             wraps i to 0x69 and returns [u+00E9]. {C_REF}",
            text(&t)
        ),
    )
    .trips("decode_digit");

    let mut t = b"a".repeat(3855);
    t.push(b'-');
    t.extend(integer(TWO_32, INITIAL_BIAS));
    let mut want = vec![0x80];
    want.extend(run(A, 3855));
    assert_eq!(decode_without(&t, Missing::Digit), Ok(want));
    file.decode(
        "decode-digit-trip-by-one",
        t,
        "Derived: 3855 basic code points, then 2^32 (one more than the limit of \
         unicode-decode-digit-limit) as one integer: a decoder without the check (simulated) \
         wraps i to 0 and returns U+0080 before the 3855 basic code points. "
            .to_string()
            + C_REF,
    )
    .trips("decode_digit");

    // n + i div 1 with no literal part: i in 0xFFFFFF80..=0xFFFFFFFF wraps
    // n into 0..=0x7F.
    let i = 0xFFFF_FF80 + 0x61;
    let t = integer(i, INITIAL_BIAS);
    assert_eq!(decode_without(&t, Missing::CodePoint), Ok(vec![0x61]));
    assert_eq!(decode_without(&t, Missing::None), Err("overflow"));
    file.decode(
        "decode-code-point-trip-wraps-to-basic",
        t.clone(),
        format!(
            "Derived: {:?} is i = 0xFFFFFFE1 (fits) with no literal part, so n + i div 1 = \
             0x80 + 0xFFFFFFE1 = 2^32 + 0x61 overflows. A decoder without that check (simulated) \
             wraps n to 0x61 and returns [u+0061]. With a literal part the check cannot be \
             reached inside Unicode: i div (length + 1) <= maxint div 2. {C_REF}",
            text(&t)
        ),
    )
    .trips("decode_code_point");

    // The same, then a second delta that takes the wrapped n to U+00E9: after
    // the insertion i = 1, and n + (1 + d) div 2 = 0xE9 for d = 271.
    let mut t2 = t.clone();
    let bias = punycode::adapt(u32::try_from(i).unwrap(), 1, true);
    t2.extend(integer(271, bias));
    assert_eq!(
        decode_without(&t2, Missing::CodePoint),
        Ok(vec![0xE9, 0x61])
    );
    file.decode(
        "decode-code-point-trip-then-e-acute",
        t2.clone(),
        format!(
            "Derived: {:?} is unicode-decode-code-point-trip-wraps-to-basic followed by the delta \
             271 (written with the bias {bias} that follows): a decoder without the check \
             (simulated) continues from the wrapped n = 0x61 to n = 0x61 + 272 div 2 = 0xE9 and \
             returns [u+00E9 u+0061], which looks like text. {C_REF}",
            text(&t2)
        ),
    )
    .trips("decode_code_point");
}

/// RFC 3492's one round-trip exception (its encoder bounds each delta, its
/// decoder bounds `oldi + delta`), inside Unicode.
fn asymmetry(file: &mut File) {
    // U+0080 first, then p basic code points, m, and 3855 - p more. After the
    // pass for U+0080, delta = 3855 + 1 and n = 0x81; the jump adds
    // (m - 0x81) * 3857 and the p + 1 code points before m add p + 1, so
    // the second delta is (m - 0x80) * 3857 + p: maxint for these m and p.
    let h1 = 3857;
    let m = u32::try_from(u64::from(INITIAL_N) + MAXINT / h1).unwrap();
    let p = MAXINT % h1;
    let mut cps = vec![0x80];
    cps.extend(layout(m, h1 - 1, p));
    assert_eq!(encode_deltas(&cps), [0, u32::MAX]);
    let encoded = encode(&cps);
    let wrapped = decode_without(&encoded, Missing::Digit).unwrap();
    assert!(wrapped.iter().all(|&c| is_scalar(c)));
    file.encode(
        "roundtrip-asymmetry-encode",
        cps,
        format!(
            "Derived: U+0080, {p} basic code points, U+{m:04X}, {} more. The pass for U+0080 \
             writes delta 0 and leaves delta = 3856 and n = 0x81; the jump (0x{m:X} - 0x81) * \
             3857 and the {} increments before U+{m:04X} make the second delta (0x{m:X} - 0x80) \
             * 3857 + {p} = 0xFFFFFFFF exactly, within the checks of section 6.3. {C_REF}",
            3855 - p,
            p + 1
        ),
    );
    file.decode(
        "roundtrip-asymmetry-decode",
        encoded,
        format!(
            "The C reference's encoding of case unicode-roundtrip-asymmetry-encode: after \
             inserting U+0080 the decoder's i is 1, and 1 + 0xFFFFFFFF passes maxint, so RFC \
             3492's decoder (section 6.2, 'i + digit * w') refuses what its encoder wrote, here \
             with Unicode code points only (overflow-roundtrip-asymmetry-* is the 32-bit case). \
             A decoder without the check (simulated) wraps i to 0 and returns {}. {C_REF}",
            describe(&wrapped)
        ),
    )
    .trips("decode_digit");
}

/// The deltas of an encoding, from the clean-room trace.
fn encode_deltas(code_points: &[u32]) -> Vec<u32> {
    let (result, steps) = punycode::encode_traced(code_points, None);
    result.expect("encodes");
    steps.iter().map(|s| s.delta).collect()
}

/// The first delta on each side of `2^bits - 1` and `2^bits`, both ways.
fn power_boundary(file: &mut File, bits: u32, h1: u64, why: &str) {
    let power = 1u64 << bits;
    for (label, target) in [
        ("minus-2", power - 2),
        ("minus-1", power - 1),
        ("exact", power),
        ("plus-1", power + 1),
    ] {
        let (m, p) = first_delta(target, h1);
        let cps = layout(m, h1, p);
        let (d, max_i) = deltas(&cps);
        assert_eq!((u64::from(d[0]), u64::from(max_i)), (target, target));
        let name = format!("2-{bits}-{label}");
        file.encode(
            &format!("encode-delta-{name}"),
            cps.clone(),
            format!(
                "Derived: {p} basic code points, U+{m:04X}, {} more: the first delta is \
                 (0x{m:X} - 0x80) * {h1} + {p} = {target} = 2^{bits}{}. {why} {C_REF}",
                h1 - 1 - p,
                match label {
                    "minus-2" => " - 2",
                    "minus-1" => " - 1",
                    "exact" => "",
                    _ => " + 1",
                }
            ),
        );
        file.decode(
            &format!("decode-i-{name}"),
            encode(&cps),
            format!(
                "Derived: the C reference's encoding of case unicode-encode-delta-{name}, \
                 decoded: i reaches {target} at its one delta. {why} {C_REF}"
            ),
        );
    }
}

/// The smallest delta that needs nine digits with the initial bias: a
/// weight check stricter than the RFC's refuses it.
fn nine_digits(file: &mut File) {
    // Digits 1..8 at their thresholds: t is 1, 1, then 26 (k >= bias + 26).
    let mut least: u64 = 0;
    let mut w: u64 = 1;
    for j in 1..=8u32 {
        let t = u64::from(punycode::threshold(BASE * j, INITIAL_BIAS));
        least += t * w;
        w *= u64::from(BASE) - t;
    }
    assert_eq!(integer(least, INITIAL_BIAS).len(), 9);
    assert_eq!(integer(least - 1, INITIAL_BIAS).len(), 8);
    let weight_at_8 = w / 10;
    assert_eq!(weight_at_8, 122_500_000);
    for (label, target) in [("8", least - 1), ("9", least)] {
        let (m, p) = first_delta(target, 3177);
        let cps = layout(m, 3177, p);
        assert_eq!(deltas(&cps).0[0] as u64, target);
        let why = format!(
            "With the initial bias the weights are 1, 35, 1225, 12250, ..., and the smallest \
             integer with nine digits is {least}; reading its eighth digit (not the last) the \
             RFC checks w * (base - t) = {weight_at_8} * 10, which fits, while a check of \
             w * base = {} does not: a stricter weight check refuses this valid input of 3177 \
             code points",
            weight_at_8 * 36
        );
        file.encode(
            &format!("encode-delta-{label}-digits"),
            cps.clone(),
            format!(
                "Derived: {p} basic code points, U+{m:04X}, {} more: the first delta is {target} \
                 ({label} digits). {why}. {C_REF}",
                3176 - p
            ),
        );
        file.decode(
            &format!("decode-delta-{label}-digits"),
            encode(&cps),
            format!(
                "Derived: the C reference's encoding of case unicode-encode-delta-{label}-digits: \
                 its delta {target} takes {label} digits. {why}. {C_REF}"
            ),
        );
    }
}

/// A deterministic mix: runs of 4 to 9 of basic and non-basic code points
/// from the BMP and the supplementary planes.
fn mixed(len: usize, seed: u64) -> Vec<u32> {
    const VALUES: [u32; 10] = [
        0x61, 0x62, 0x2D, 0x30, 0xE9, 0x416, 0x4E2D, 0xFFFD, 0x1_F600, 0x10_FFFD,
    ];
    let mut state = seed;
    let mut next = |n: u64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % n
    };
    let mut v = Vec::new();
    while v.len() < len {
        let cp = VALUES[next(VALUES.len() as u64) as usize];
        let count = 4 + next(6) as usize;
        v.extend(run(cp, count.min(len - v.len())));
    }
    v
}

const EDGES: [usize; 20] = [
    63, 64, 65, 255, 256, 257, 511, 512, 513, 1000, 1023, 1024, 1025, 2000, 2047, 2048, 2049, 4095,
    4096, 4097,
];

/// Inputs and outputs of exactly N units around the sizes of fixed buffers.
fn buffer_edges(file: &mut File) {
    for n in EDGES {
        let cps = mixed(n, n as u64);
        let encoded = encode(&cps);
        file.encode(
            &format!("buffer-encode-{n:04}-code-points"),
            cps.clone(),
            format!(
                "Derived: exactly {n} code points, runs of 4 to 9 of U+0061 U+0062 U+002D U+0030 \
                 U+00E9 U+0416 U+4E2D U+FFFD U+1F600 U+10FFFD chosen by a seeded generator \
                 (examples/derive_unicode_limits.rs, seed {n}): an input of exactly a buffer's \
                 size, and one unit on either side of it. {C_REF}"
            ),
        );
        file.decode(
            &format!("buffer-decode-to-{n:04}-code-points"),
            encoded,
            format!(
                "Derived: the C reference's encoding of case unicode-buffer-encode-{n:04}-code-points, \
                 decoded: exactly {n} code points written to the output. {C_REF}"
            ),
        );
        // Code points whose encoding is exactly n bytes: a mixed part, then
        // basic code points to make up the length.
        let seed = 7 * n as u64;
        let (cps, encoded) = (1..=2 * n)
            .filter(|&k| (n - 8..=n).contains(&encode(&mixed(k, seed)).len()))
            .flat_map(|k| (0..=8).map(move |extra| (k, extra)))
            .find_map(|(k, extra)| {
                let mut cps = mixed(k, seed);
                cps.extend(run(0x62, extra));
                let encoded = encode(&cps);
                let mixed_enough = cps.iter().any(|&c| c >= 0x80) && cps.iter().any(|&c| c < 0x80);
                (encoded.len() == n && mixed_enough).then_some((cps, encoded))
            })
            .expect("an input with an encoding of exactly n bytes");
        file.encode(
            &format!("buffer-encode-to-{n:04}-bytes"),
            cps.clone(),
            format!(
                "Derived: {} code points (the seeded mix of seed {seed}, then basic 'b's) found by \
                 search so that the Punycode is exactly {n} bytes. {C_REF}",
                cps.len(),
            ),
        );
        file.decode(
            &format!("buffer-decode-{n:04}-bytes"),
            encoded,
            format!(
                "Derived: the C reference's encoding of case unicode-buffer-encode-to-{n:04}-bytes: \
                 exactly {n} bytes of input, decoding to {} code points. {C_REF}",
                cps.len()
            ),
        );
    }
}

/// The sizes of UTF-16 buffers met at their edges by BMP-only text: the
/// JDK's `Punycode` has 256-unit buffers, so text with a supplementary
/// code point passes them at fewer code points than it has, and the
/// mixed vectors above (which hold U+1F600 and U+10FFFD) miss the edge.
const BMP_EDGES: [usize; 9] = [255, 256, 257, 511, 512, 513, 1023, 1024, 1025];

/// A deterministic mix of BMP code points: runs of 4 to 9 of non-basic ones
/// (Latin-1, Cyrillic, CJK, U+FFFD), with basic ones too when `basic`.
fn bmp(len: usize, seed: u64, basic: bool) -> Vec<u32> {
    const NON_BASIC: [u32; 5] = [0xE9, 0x101, 0x416, 0x4E2D, 0xFFFD];
    const BASIC: [u32; 3] = [0x61, 0x62, 0x30];
    let mut state = seed;
    let mut next = |n: u64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % n
    };
    let mut v = Vec::new();
    while v.len() < len {
        let pick = next(if basic { 8 } else { 5 }) as usize;
        let cp = if pick < 5 {
            NON_BASIC[pick]
        } else {
            BASIC[pick - 5]
        };
        let count = 4 + next(6) as usize;
        v.extend(run(cp, count.min(len - v.len())));
    }
    v
}

/// Exactly N code points, N UTF-16 units, around the common buffer sizes,
/// both ways: non-basic BMP only, BMP mixed with basic, and basic only.
fn bmp_buffer_edges(file: &mut File) {
    for n in BMP_EDGES {
        let shapes = [
            (
                "bmp",
                bmp(n, n as u64, false),
                format!(
                    "runs of 4 to 9 of the non-basic BMP code points U+00E9 U+0101 U+0416 U+4E2D \
                     U+FFFD chosen by a seeded generator (examples/derive_unicode_limits.rs, \
                     seed {n}): every code point is inserted by a delta, the last one at unit {n}"
                ),
            ),
            (
                "bmp-mixed",
                bmp(n, 3 * n as u64, true),
                format!(
                    "runs of 4 to 9 of U+0061 U+0062 U+0030 and of the non-basic BMP code points \
                     U+00E9 U+0101 U+0416 U+4E2D U+FFFD chosen by a seeded generator \
                     (examples/derive_unicode_limits.rs, seed {})",
                    3 * n
                ),
            ),
            (
                "basic",
                run(A, n),
                format!(
                    "{n} x U+0061 and nothing else: the basic code points alone fill the buffer, \
                     and the encoding adds the delimiter"
                ),
            ),
        ];
        for (shape, cps, how) in shapes {
            assert!(cps.len() == n && cps.iter().all(|&c| c <= 0xFFFF));
            assert_eq!(cps.iter().any(|&c| c >= 0x80), shape != "basic");
            assert_eq!(cps.iter().any(|&c| c < 0x80), shape != "bmp");
            file.encode(
                &format!("{shape}-encode-{n:04}-code-points"),
                cps.clone(),
                format!(
                    "Derived: exactly {n} code points, all in the BMP, so exactly {n} UTF-16 \
                     units: {how}. An implementation with a buffer of {n} UTF-16 units (or one \
                     more or one less) is met at its edge. {C_REF}"
                ),
            );
            file.decode(
                &format!("{shape}-decode-to-{n:04}-code-points"),
                encode(&cps),
                format!(
                    "Derived: the C reference's encoding of case \
                     unicode-{shape}-encode-{n:04}-code-points, decoded: exactly {n} code points \
                     and {n} UTF-16 units written to the output. {C_REF}"
                ),
            );
        }
    }
}

/// The last character of the input: where each digit ends a string, and
/// where it leaves it inside a delta.
fn end_of_input(file: &mut File) {
    const DIGITS: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    // After "ab-" the first delta has the initial bias: t = tmin = 1 at
    // k = 36, so only 'a' (0) ends it.
    assert_eq!(punycode::threshold(BASE, INITIAL_BIAS), 1);
    // A string after which the bias is small: t = tmax = 26 at k = 36, so
    // every letter ends the next delta, and no numeral does.
    let base_cps = [0x61, 0x62, 0xE9, 0xE9];
    let base = encode(&base_cps);
    let (_, steps) = punycode::decode_traced(&base);
    let bias = steps.last().unwrap().bias;
    assert_eq!(punycode::threshold(BASE, bias), 26);
    for (prefix, t, note) in [
        (
            b"ab-".to_vec(),
            1,
            "the first delta has the initial bias 72, so t = tmin = 1 at k = 36 and only 'a' \
             (0) is a final digit"
                .to_string(),
        ),
        (
            base.clone(),
            26,
            format!(
                "{:?} is the C reference's encoding of [u+0061 u+0062 u+00E9 u+00E9] and leaves \
                 the bias at {bias}, so t = tmax = 26 at k = 36: every letter (0-25) ends the next \
                 delta",
                text(&base)
            ),
        ),
    ] {
        for &c in DIGITS {
            let mut t_ = prefix.clone();
            t_.push(c);
            let value = punycode::digit_value(c).unwrap();
            let valid = value < t;
            let what = if valid {
                format!("'{}' ({value}) < t = {t}, so it ends the string", c as char)
            } else {
                format!(
                    "'{}' ({value}) >= t = {t}, so another digit must follow and the input ends \
                     inside a delta (bad_input){}",
                    c as char,
                    if value >= 26 {
                        "; 0-9 (26-35) can never end a Punycode string, since t <= tmax = 26"
                    } else {
                        ""
                    }
                )
            };
            let which = if t == 1 {
                "first-delta"
            } else {
                "after-small-bias"
            };
            file.decode(
                &format!("end-{which}-{}", c as char),
                t_,
                format!("Derived: {note}; {what}. {C_REF}"),
            );
        }
    }
    // Trailing zeros: a valid string with "0" appended, and "0" alone.
    let valid = encode(&"bücher".chars().map(u32::from).collect::<Vec<_>>());
    let mut t = valid.clone();
    t.extend_from_slice(b"0");
    file.decode(
        "end-valid-then-0",
        t.clone(),
        format!(
            "Derived: {:?} is a valid string ({:?}, the C reference's encoding of 'bücher') with \
             '0' appended: '0' is digit 26 >= t, so the input ends inside a delta. A decoder \
             that reads a trailing '0' as the end of input returns 'bücher' instead. {C_REF}",
            text(&t),
            text(&valid)
        ),
    );
    file.decode(
        "end-only-0",
        b"0".to_vec(),
        "Derived: a lone '0' (digit 26) is never a final digit. ".to_string() + C_REF,
    );
    file.decode(
        "end-literal-then-00",
        b"a0-00".to_vec(),
        "Derived: the literal 'a0' and the digits '00' (26, 26), both non-final: bad_input. "
            .to_string()
            + C_REF,
    );
    // No valid Punycode string ends in 0-9; the nearest: a literal that
    // ends in '0', and a final delta whose next-to-last digit is '0'.
    let lit = [0x61, 0x30, 0xE9];
    file.encode(
        "end-literal-0-encode",
        lit.to_vec(),
        "Derived: a basic '0' last in the literal part: the encoding has '0' right before the \
         delimiter. No valid Punycode string ends in 0-9 (digit values 26-35 are never below \
         t <= tmax = 26), so this and unicode-end-0-before-final-digit are the nearest. "
            .to_string()
            + C_REF,
    );
    file.decode(
        "end-literal-0-decode",
        encode(&lit),
        "Derived: the C reference's encoding of case unicode-end-literal-0-encode. ".to_string()
            + C_REF,
    );
    // Search a short Unicode string whose encoding's last delta is "...0x".
    let found = (0x80..0x3000u32)
        .map(|c| vec![0x61, c])
        .find(|cps| {
            let e = encode(cps);
            e.len() >= 2 && e[e.len() - 2] == b'0'
        })
        .expect("an encoding whose next-to-last digit is 0");
    let e = encode(&found);
    file.encode(
        "end-0-before-final-digit-encode",
        found.clone(),
        format!(
            "Derived: the first U+0061 U+XXXX (searching upwards from U+0080) whose encoding, \
             {:?}, has '0' as its next-to-last character: a '0' that is not the end of the \
             input. {C_REF}",
            text(&e)
        ),
    );
    file.decode(
        "end-0-before-final-digit-decode",
        e,
        "Derived: the C reference's encoding of case unicode-end-0-before-final-digit-encode. "
            .to_string()
            + C_REF,
    );
}

/// Labels shaped like IDNA's ACE labels, given to Punycode itself.
fn idna_shaped(file: &mut File) {
    for (name, t, why) in [
        (
            "xn--abc",
            "xn--abc",
            "the last delimiter ends the literal 'xn-', and 'abc' is a delta",
        ),
        (
            "xn-",
            "xn-",
            "the literal 'xn' and nothing after its delimiter",
        ),
        (
            "xn--",
            "xn--",
            "the literal 'xn-' and nothing after the last delimiter",
        ),
        (
            "xn--bcher-kva",
            "xn--bcher-kva",
            "a whole ACE label, prefix included: 'kva' is the delta that puts U+00FC at \
             position 1 of the 5-character literal 'bcher', so after the 9-character literal \
             'xn--bcher' it means another code point at another position",
        ),
        (
            "xn--ls8h",
            "xn--ls8h",
            "the literal 'xn-' and the delta 'ls8h', which alone (unicode-idna-decode-ls8h) is \
             U+1F4A9, the IDNA label xn--ls8h; after a 3-character literal it is another code \
             point",
        ),
        (
            "ls8h",
            "ls8h",
            "the Punycode of U+1F4A9 without the ACE prefix",
        ),
        (
            "xn--zz",
            "xn--zz",
            "the literal 'xn-' and 'zz', which ends inside a delta",
        ),
        (
            "xn---",
            "xn---",
            "the literal 'xn--' and nothing after the last delimiter",
        ),
    ] {
        file.decode(
            &format!("idna-decode-{name}"),
            t.as_bytes().to_vec(),
            format!("Chosen: an ACE-shaped string decoded as Punycode: {why}. {C_REF}"),
        );
    }
    for (name, s) in [
        ("xn--", "xn--"),
        ("xn--bucher", "xn--bücher"),
        ("xn--chinese", "xn--中文"),
        ("xn--emoji", "xn--\u{1F4A9}"),
        ("xn--max", "xn--\u{10FFFF}"),
    ] {
        let cps: Vec<u32> = s.chars().map(u32::from).collect();
        file.encode(
            &format!("idna-encode-{name}"),
            cps,
            format!(
                "Chosen: {s:?}, text that begins with the ACE prefix, encoded as Punycode (its \
                 'xn--' is literal). {C_REF}"
            ),
        );
    }
}

fn quote(s: &str) -> String {
    toml_edit::Value::from(s).to_string().trim().to_string()
}

fn main() {
    let mut file = File::default();
    overflow_checks(&mut file);
    power_boundary(
        &mut file,
        31,
        1928,
        "An implementation with signed 32-bit integers fails from 2^31 on (U+10FFFF before 1927 \
         basic code points already passes it).",
    );
    power_boundary(
        &mut file,
        26,
        61,
        "RFC 3492 section 6.4 says 26-bit integers suffice for IDNA labels (63 characters); \
         this input is longer, and a 26-bit implementation fails from 2^26 on.",
    );
    nine_digits(&mut file);
    // `check` asks the files' cases in turn, so what comes late in this,
    // the longest file, comes late in the check: the short cases first,
    // the long buffer edges (slow to ask a slow program) last.
    end_of_input(&mut file);
    idna_shaped(&mut file);
    buffer_edges(&mut file);
    bmp_buffer_edges(&mut file);

    // The encoder simulation is section 6.3 as the C reference has it.
    for case in &file.cases {
        if let Request::Encode { code_points, .. } = &case.request {
            let simulated = encode_without(code_points, MissingEnc::None);
            if c_reference::encode(code_points, None).is_err() {
                assert_eq!(simulated, Err("overflow"), "{}", case.name);
            }
        }
    }

    let mut out = String::from(
        "# Limits inside Unicode: RFC 3492's overflow checks, 2^31 and 2^26, weights, buffer\n\
         # sizes, the end of the input and ACE-shaped labels, reached with Unicode scalar values\n\
         # only (no surrogates, nothing above U+10FFFF), both as input to encode and as the\n\
         # expected output of decode, so that implementations that take only Unicode are asked\n\
         # about them too. GENERATED by `cargo run --example derive_unicode_limits >\n\
         # vectors/unicode-limits.toml`: the inputs are derived by computation there (each\n\
         # provenance gives the arithmetic), the expected values are the C reference's, and\n\
         # `cargo run --example bless_vectors` recomputes them. `u+XXXX*N` is N copies.\n",
    );
    for case in &file.cases {
        let expected = reference(&case.request);
        let _ = write!(out, "\n[[case]]\nname = {}\n", quote(&case.name));
        match &case.request {
            Request::Encode { code_points, .. } => {
                assert!(code_points.iter().all(|&c| is_scalar(c)), "{}", case.name);
                let cps = CodePoints::with_flags(code_points, None);
                let _ = write!(
                    out,
                    "op = \"encode\"\ninput = {}\nannotations = false\n",
                    quote(&cps.compact())
                );
            }
            Request::Decode(bytes) => {
                let _ = write!(
                    out,
                    "op = \"decode\"\ninput = {}\nannotations = false\n",
                    quote(text(bytes))
                );
            }
        }
        if let Some(check) = case.overflow_check {
            assert_eq!(expected, Expected::Error(punycode::ErrorKind::Overflow));
            let _ = writeln!(out, "overflow_check = {}", quote(check));
        }
        if let Some(check) = case.limit_check {
            assert!(!matches!(expected, Expected::Error(_)), "{}", case.name);
            let _ = writeln!(out, "limit_check = {}", quote(check));
        }
        match &expected {
            Expected::Encoded(bytes) => {
                let _ = writeln!(out, "output = {}", quote(text(bytes)));
            }
            Expected::Decoded(cps) => {
                assert!(cps.values.iter().all(|&c| is_scalar(c)), "{}", case.name);
                let _ = writeln!(out, "output = {}", quote(&cps.compact()));
            }
            Expected::Error(kind) => {
                let _ = writeln!(out, "error = {}", quote(kind.name()));
            }
        }
        let _ = writeln!(out, "provenance = {}", quote(&case.provenance));
    }
    print!("{out}");
    eprintln!("{} cases", file.cases.len());
}

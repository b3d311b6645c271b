//! The URL Standard's host parser, for a special URL (`http:`, `https:`,
//! `ws:`...): the `domain` codec under [`LabelRules::Url`] and
//! [`LabelRules::UrlBeforeAsciiFallback`]. Domains and IPv4 addresses
//! only: an IPv6 literal (a host beginning with `[`) is outside the codec.
//!
//! Each step cites the URL Standard (whatwg/url, `url.bs`), section 3.5,
//! "Host parsing", and 3.3, "IDNA", as of commit 6ae8486 (2026-07-02); the
//! earlier text is that of commit 9fe73be (2026-06-04), the last before
//! the ASCII fallback (commit a8d5ca37, 2026-06-25).
//!
//! # Host parser (section 3.5), for a special URL
//!
//! 1. A host beginning with U+005B `[` is an IPv6 address: outside the
//!    codec ([`DomainError::Ipv6`]).
//! 2. An empty host is failure (the host parser asserts it is not empty:
//!    the URL parser refuses an empty host of a special URL before).
//! 3. `domain` is the UTF-8 decoding without BOM (a BOM is kept, an
//!    invalid sequence becomes U+FFFD) of the percent-decoding of the
//!    input (`%41` is `A`).
//! 4. `asciiDomain` is the **domain parser** of `domain` with `beStrict`
//!    (the host parser passes false; `--be-strict` asks for true, the
//!    "valid domain" of section 3.4); failure is failure.
//! 5. If `asciiDomain` **ends in a number** (its last label, a trailing
//!    empty one dropped, is all ASCII digits or `0x` and hex digits), the
//!    answer is the **IPv4 parser**'s: failure, or the address serialized
//!    as four decimal numbers joined by U+002E (section 3.6).
//! 6. Otherwise `asciiDomain`.
//!
//! # Domain parser (section 3.3)
//!
//! Since a8d5ca37 ([`LabelRules::Url`]):
//!
//! 1. With `beStrict`, the answer is UTS #46 ToASCII with CheckHyphens,
//!    UseSTD3ASCIIRules and VerifyDnsLength on (CheckBidi and
//!    CheckJoiners on, Nontransitional, IgnoreInvalidPunycode off), or
//!    failure.
//! 2. Otherwise, an ASCII `domain` is **lowercased, whatever ToASCII says**
//!    (`xn--8i7caa`, whose Punycode decodes to mapped code points, is kept);
//!    a non-ASCII one is ToASCII with the three switches off, failure
//!    being failure.
//! 3. An empty result is failure, and so is one holding a **forbidden
//!    domain code point** (a forbidden host code point, a C0 control,
//!    U+0025 `%` or U+007F DELETE).
//!
//! Before a8d5ca37 ([`LabelRules::UrlBeforeAsciiFallback`]), "domain to
//! ASCII": ToASCII with the three switches set to `beStrict`, failure
//! being failure; without `beStrict`, an empty result or one holding a
//! forbidden domain code point is failure.
//!
//! # ToUnicode
//!
//! "Domain to Unicode" (section 3.3, since a8d5ca37): UTS #46 ToUnicode
//! with CheckHyphens and UseSTD3ASCIIRules off, CheckBidi and
//! CheckJoiners on; if it records an error, the answer is the domain as it
//! was given. Before a8d5ca37 it was ToUnicode's own result, errors and
//! all, which is no single answer: under
//! [`LabelRules::UrlBeforeAsciiFallback`] an error is a refusal, and an
//! implementation of that text declares `--encode-only`.

use super::{DomainError, Ipv4Error, to_ascii, to_unicode};
use crate::label::{LabelProfile, LabelRules, Switches};

/// U+005B `[`, which begins an IPv6 address.
const IPV6_START: u32 = 0x5B;

/// The forbidden host code points (section 3.2, "Host miscellaneous").
pub const FORBIDDEN_HOST: [u8; 17] = [
    0x00, b'\t', b'\n', b'\r', b' ', b'#', b'/', b':', b'<', b'>', b'?', b'@', b'[', b'\\', b']',
    b'^', b'|',
];

/// Whether `c` is a forbidden domain code point: a forbidden host code
/// point, a C0 control, U+0025 (%) or U+007F DELETE (section 3.2).
pub fn is_forbidden_domain(c: u8) -> bool {
    FORBIDDEN_HOST.contains(&c) || c <= 0x1F || c == b'%' || c == 0x7F
}

/// The host parser of a special URL on the host whose code points are
/// `host`, under `profile` (whose rules are the URL Standard's): the
/// serialized host, a domain or an IPv4 address.
pub fn host_to_ascii(profile: LabelProfile, host: &[u32]) -> Result<Vec<u8>, DomainError> {
    let chars = host
        .iter()
        .map(|&cp| char::from_u32(cp).ok_or(DomainError::NotScalar(cp)))
        .collect::<Result<String, _>>()?;
    // Step 1.
    if host.first() == Some(&IPV6_START) {
        return Err(DomainError::Ipv6);
    }
    // Step 3 (of the host parser): not empty.
    if host.is_empty() {
        return Err(DomainError::EmptyHost);
    }
    // Steps 4 and 5.
    let decoded = percent_decode(chars.as_bytes());
    let domain: Vec<u32> = String::from_utf8_lossy(&decoded)
        .chars()
        .map(u32::from)
        .collect();
    // Steps 6 and 7.
    let ascii = domain_parser(profile, &domain)?;
    // Step 8.
    if ends_in_a_number(&ascii) {
        return ipv4(&ascii)
            .map(|address| {
                let [a, b, c, d] = address.to_be_bytes();
                format!("{a}.{b}.{c}.{d}").into_bytes()
            })
            .map_err(DomainError::Ipv4);
    }
    Ok(ascii)
}

/// The domain to Unicode of the domain `domain`, under `profile` (whose
/// rules are the URL Standard's).
pub fn domain_to_unicode(profile: LabelProfile, domain: &[u8]) -> Result<Vec<u32>, DomainError> {
    let text = std::str::from_utf8(domain).map_err(|_| DomainError::NotText)?;
    let uts46 = LabelProfile {
        rules: LabelRules::Uts46,
        switches: Switches::URL,
    };
    match to_unicode(uts46, domain) {
        Ok(unicode) => Ok(unicode),
        Err(_) if profile.rules == LabelRules::Url => Ok(text.chars().map(u32::from).collect()),
        Err(error) => Err(error),
    }
}

/// The domain parser (domain to ASCII, before a8d5ca37) of `domain` with
/// `profile`'s beStrict.
fn domain_parser(profile: LabelProfile, domain: &[u32]) -> Result<Vec<u8>, DomainError> {
    let uts46 = |switches| LabelProfile {
        rules: LabelRules::Uts46,
        switches,
    };
    if profile.be_strict() {
        return to_ascii(uts46(Switches::STRICT), domain);
    }
    let ascii = domain.iter().all(|&cp| cp < 0x80);
    let result = if ascii && profile.rules == LabelRules::Url {
        domain
            .iter()
            .map(|&cp| (cp as u8).to_ascii_lowercase())
            .collect()
    } else {
        to_ascii(uts46(Switches::URL), domain)?
    };
    if result.is_empty() {
        return Err(DomainError::EmptyHost);
    }
    if let Some(&c) = result.iter().find(|&&c| is_forbidden_domain(c)) {
        return Err(DomainError::ForbiddenCodePoint(u32::from(c)));
    }
    Ok(result)
}

/// Percent-decoding (section 1.3): each `%` followed by two ASCII hex
/// digits is the byte they spell; every other byte is itself.
fn percent_decode(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    let mut i = 0;
    while i < input.len() {
        let hex = |at: usize| input.get(at).and_then(|&b| (b as char).to_digit(16));
        match (input[i], hex(i + 1), hex(i + 2)) {
            (b'%', Some(high), Some(low)) => {
                out.push((high * 16 + low) as u8);
                i += 3;
            }
            (byte, _, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    out
}

/// The ends in a number checker (section 3.5).
fn ends_in_a_number(input: &[u8]) -> bool {
    let mut parts: Vec<&[u8]> = input.split(|&c| c == b'.').collect();
    if parts.len() > 1 && parts.last().is_some_and(|p| p.is_empty()) {
        parts.pop();
    }
    let last = parts.last().copied().unwrap_or_default();
    (!last.is_empty() && last.iter().all(u8::is_ascii_digit)) || ipv4_number(last).is_ok()
}

/// The IPv4 number parser (section 3.5): the number, or why not.
fn ipv4_number(input: &[u8]) -> Result<u64, Ipv4Error> {
    if input.is_empty() {
        return Err(Ipv4Error::NonNumericPart);
    }
    let (digits, radix) = match input {
        [b'0', b'x' | b'X', rest @ ..] => (rest, 16),
        [b'0', rest @ ..] if !rest.is_empty() => (rest, 8),
        _ => (input, 10),
    };
    if digits.is_empty() {
        return Ok(0);
    }
    let mut value: u64 = 0;
    for &c in digits {
        let digit = (c as char)
            .to_digit(radix)
            .ok_or(Ipv4Error::NonNumericPart)?;
        // Any value above 2^32 fails later; saturating keeps it above.
        value = value
            .saturating_mul(u64::from(radix))
            .saturating_add(u64::from(digit));
    }
    Ok(value)
}

/// The IPv4 parser (section 3.5): the address as a 32-bit number.
fn ipv4(input: &[u8]) -> Result<u32, Ipv4Error> {
    let mut parts: Vec<&[u8]> = input.split(|&c| c == b'.').collect();
    if parts.last().is_some_and(|p| p.is_empty()) && parts.len() > 1 {
        parts.pop();
    }
    if parts.len() > 4 {
        return Err(Ipv4Error::TooManyParts);
    }
    let numbers = parts
        .iter()
        .map(|part| ipv4_number(part))
        .collect::<Result<Vec<u64>, _>>()?;
    let (last, first) = numbers.split_last().expect("split gives one part at least");
    if first.iter().any(|&n| n > 255) {
        return Err(Ipv4Error::OutOfRange);
    }
    let room = 256u64.pow(5 - numbers.len() as u32);
    if *last >= room {
        return Err(Ipv4Error::OutOfRange);
    }
    let mut address = *last;
    for (counter, &n) in first.iter().enumerate() {
        address += n * 256u64.pow(3 - counter as u32);
    }
    Ok(address as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(rules: LabelRules, be_strict: bool) -> LabelProfile {
        LabelProfile {
            rules,
            switches: if be_strict {
                Switches::STRICT
            } else {
                Switches::URL
            },
        }
    }

    fn host(rules: LabelRules, input: &str) -> Result<String, DomainError> {
        let cps: Vec<u32> = input.chars().map(u32::from).collect();
        host_to_ascii(profile(rules, false), &cps).map(|b| String::from_utf8(b).unwrap())
    }

    const URL: LabelRules = LabelRules::Url;
    const BEFORE: LabelRules = LabelRules::UrlBeforeAsciiFallback;

    // Each expectation is derived by hand from the steps the module docs
    // cite; those the URL Standard's own examples give say so.
    #[test]
    fn ipv4_after_mapping() {
        // The URL Standard's example of IPv4-non-ASCII-input (92b3e16):
        // "https://①.②.③.④" is 1.2.3.4, and so is 1。2。3。4.
        assert_eq!(
            host(URL, "\u{2460}.\u{2461}.\u{2462}.\u{2463}").unwrap(),
            "1.2.3.4"
        );
        assert_eq!(
            host(URL, "127\u{3002}0\u{3002}0\u{3002}1").unwrap(),
            "127.0.0.1"
        );
        // Fullwidth digits (issue: １９２.１６８.１.１).
        assert_eq!(
            host(
                URL,
                "\u{FF11}\u{FF19}\u{FF12}.\u{FF11}\u{FF16}\u{FF18}.\u{FF11}.\u{FF11}"
            )
            .unwrap(),
            "192.168.1.1"
        );
        // Hex, octal, fewer parts, a trailing dot.
        assert_eq!(host(URL, "0x7f.1").unwrap(), "127.0.0.1");
        assert_eq!(host(URL, "0177.0.0.1.").unwrap(), "127.0.0.1");
        assert_eq!(host(URL, "4294967295").unwrap(), "255.255.255.255");
        assert_eq!(
            host(URL, "4294967296"),
            Err(DomainError::Ipv4(Ipv4Error::OutOfRange))
        );
        assert_eq!(
            host(URL, "1.2.3.4.5"),
            Err(DomainError::Ipv4(Ipv4Error::TooManyParts))
        );
        // Ends in a number, but another part is not one.
        assert_eq!(
            host(URL, "a.1"),
            Err(DomainError::Ipv4(Ipv4Error::NonNumericPart))
        );
        // 09 ends in a number and is no octal number.
        assert_eq!(
            host(URL, "09"),
            Err(DomainError::Ipv4(Ipv4Error::NonNumericPart))
        );
        // Not a number at the end: a domain.
        assert_eq!(host(URL, "1.2.3.a").unwrap(), "1.2.3.a");
        assert_eq!(host(URL, "0x").unwrap(), "0.0.0.0");
    }

    #[test]
    fn forbidden_code_points_and_percent_decoding() {
        // U+FF1A FULLWIDTH COLON maps to ':', a forbidden host code point.
        assert_eq!(
            host(URL, "a\u{FF1A}b"),
            Err(DomainError::ForbiddenCodePoint(u32::from(b':')))
        );
        // %41 is A, lowercased; %2F is '/', forbidden; a lone % is itself.
        assert_eq!(host(URL, "%41.com").unwrap(), "a.com");
        assert_eq!(
            host(URL, "a%2Fb"),
            Err(DomainError::ForbiddenCodePoint(u32::from(b'/')))
        );
        assert_eq!(
            host(URL, "a%zz"),
            Err(DomainError::ForbiddenCodePoint(u32::from(b'%')))
        );
        // Percent-encoded UTF-8 is decoded before IDNA: %C3%BC is ü.
        assert_eq!(host(URL, "b%C3%BCcher.de").unwrap(), "xn--bcher-kva.de");
        // A lone byte decodes to U+FFFD, which UTS #46 disallows.
        assert_eq!(host(URL, "a%FF").unwrap_err().rule(), "disallowed");
        // A space and DELETE are not STD3 failures here but forbidden.
        assert_eq!(host(URL, "a b"), Err(DomainError::ForbiddenCodePoint(0x20)));
        assert_eq!(
            host(BEFORE, "a\u{7F}"),
            Err(DomainError::ForbiddenCodePoint(0x7F))
        );
        assert_eq!(host(URL, "[::1]"), Err(DomainError::Ipv6));
        assert_eq!(host(URL, ""), Err(DomainError::EmptyHost));
        // U+00AD is ignored: nothing is left.
        assert_eq!(host(URL, "\u{AD}"), Err(DomainError::EmptyHost));
    }

    #[test]
    fn the_ascii_fallback() {
        // The URL Standard's own note: xn--8i7caa decodes to ｗｗｗ, whose
        // code points are mapped, so ToASCII fails; since a8d5ca37 an ASCII
        // domain is lowercased whatever ToASCII says.
        assert_eq!(
            host(URL, "XN--8I7CAA.example").unwrap(),
            "xn--8i7caa.example"
        );
        assert_eq!(
            host(BEFORE, "xn--8i7caa.example").unwrap_err().rule(),
            "status"
        );
        // So are a bogus xn-- label and one that decodes to ASCII.
        assert_eq!(host(URL, "xn--go-").unwrap(), "xn--go-");
        assert_eq!(host(BEFORE, "xn--go-").unwrap_err().rule(), "ascii-only");
        // A non-ASCII name still goes through ToASCII, CheckBidi included.
        assert_eq!(
            host(URL, "\u{0627}.1x").unwrap_err().rule(),
            "bidi-across-labels"
        );
        // ASCII, and yet Bidi: 1x is only judged with an RTL label, which
        // ASCII cannot hold.
        assert_eq!(host(URL, "EXAMPLE.com.").unwrap(), "example.com.");
        // beStrict: ToASCII with every switch, no fallback.
        let strict = profile(URL, true);
        let cps = |s: &str| s.chars().map(u32::from).collect::<Vec<u32>>();
        assert_eq!(
            host_to_ascii(strict, &cps("xn--go-")).unwrap_err().rule(),
            "ascii-only"
        );
        assert_eq!(
            host_to_ascii(strict, &cps("a_b.com")).unwrap_err().rule(),
            "not-ldh"
        );
        assert_eq!(host_to_ascii(strict, &cps("1.2.3.4")).unwrap(), b"1.2.3.4");
    }

    #[test]
    fn domain_to_unicode_gives_the_domain_back_on_error() {
        let url = profile(URL, false);
        let cps = |s: &str| s.chars().map(u32::from).collect::<Vec<u32>>();
        assert_eq!(
            domain_to_unicode(url, b"xn--bcher-kva.de").unwrap(),
            cps("bücher.de")
        );
        // The note of "domain to Unicode": xn--8i7caa round trips.
        assert_eq!(
            domain_to_unicode(url, b"xn--8i7caa").unwrap(),
            cps("xn--8i7caa")
        );
        let before = profile(BEFORE, false);
        assert!(domain_to_unicode(before, b"xn--8i7caa").is_err());
    }
}

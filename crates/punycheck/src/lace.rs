//! Clean-room LACE, written from draft-ietf-idn-lace-00 sections 2.2 to 2.5.
//!
//! LACE ("Length-based ASCII Compatible Encoding", Davis and Hoffman,
//! November 2000) turns a host name part into `bq--` followed by Base32 text.
//! [`encode`] follows section 2.2:
//!
//! 1. the code points become big-endian UTF-16, with surrogate pairs above
//!    U+FFFF (2.2);
//! 2. the UTF-16 string is compressed (2.4.1): each run of code units that
//!    share their high octet (their "row") becomes a count octet, the high
//!    octet and the low octets; when that is longer than the UTF-16 string,
//!    the output is 0xFF followed by the UTF-16 string instead;
//! 3. the compressed string must be 36 octets or shorter (2.2.2);
//! 4. it is written in Base32 (2.5.1, Table 1) and `bq--` goes in front
//!    (2.2.4).
//!
//! [`decode`] undoes these steps (2.3) and refuses everything [`encode`]
//! cannot have produced, so that there is exactly one LACE string for each
//! name part (section 3): when `decode(x)` succeeds, `encode(decode(x))` is
//! `x` byte for byte. [`decode_ignoring_case`] is the draft's decoder for
//! the case of letters: it lowercases ASCII letters first (sections 2.1 and
//! 2.3.2), and then `encode(decode_ignoring_case(x))` is `x` in lowercase.
//!
//! The steps are public too: [`compress`] and [`decompress`] (section 2.4,
//! on big-endian UTF-16 octets), [`base32_encode`] and [`base32_decode`]
//! (section 2.5).
//!
//! # Errors
//!
//! Every failure is an [`Error`]: a [`Reason`] and, where there is one, the
//! position of the offending element in the unit [`Reason::unit`] names
//! (code points of the input of [`encode`], bytes of the ACE string,
//! octets of the compressed string, code units of the UTF-16 string).
//! [`Error::kind`] maps it to the RFC 3492 statuses that every codec of
//! punycheck shares: [`Reason::TooLong`] (the 36-octet limit of section
//! 2.2.2, in either direction) is [`ErrorKind::BigOutput`], every other
//! reason is [`ErrorKind::BadInput`], and [`ErrorKind::Overflow`] never
//! happens (LACE does no arithmetic that can overflow).
//!
//! When an input has several faults, the first check in this order reports:
//! encoding: empty input, a code point UTF-16 cannot carry (the first one),
//! a name that needs no encoding, the length limit; decoding: the tag, the
//! Base32 characters (the first bad one), the Base32 length, the padding
//! bits, the length limit, the compressed string from its first octet on,
//! the choice of form, the UTF-16 string, a name that needs no encoding.
//!
//! Both directions take linear time and never panic: the length limit is
//! checked before anything is allocated for the output, so a huge input
//! costs one pass.
//!
//! # What the draft leaves open or gets wrong, and what this module does
//!
//! Each case is covered by vectors of `vectors/lace.toml` (named in
//! parentheses), which `tests/lace.rs` checks against this module and the
//! independent `tests/impls/lace.py`.
//!
//! 1. **Case of the tag and of the Base32 letters.** The draft: host names
//!    are case-insensitive, so the tag "might also be represented as `Bq--`
//!    or `bQ--` or `BQ--`" (2.1), and the decoder "MUST" change the stripped
//!    string to lower case before checking it against Table 1 (2.3.2); the
//!    encoder writes lower case only (2.2.4, Table 1). We: [`decode`] takes
//!    lower case only and reports [`Reason::Uppercase`];
//!    [`decode_ignoring_case`] lowercases first, as the draft says. Why: the
//!    draft's decoder maps `BQ--HITQ7EY` and `bq--hitq7ey` to the same name,
//!    which is fine for DNS (one name) but breaks "decode(x) succeeds implies
//!    encode(decode(x)) == x" byte for byte; keeping both functions lets a
//!    caller choose, and the strict one is the one that can be checked for
//!    uniqueness. (vectors `lace-decode-uppercase-*`)
//! 2. **Padding bits.** The draft: "Pad the bits seen until there are five
//!    bits" (2.5.1 step 5) without saying with what; its example (2.5.3)
//!    pads with zeros; the decoder (2.5.2) turns every character into five
//!    bits and never says what happens to the bits left over after the last
//!    whole octet. We: pad with zeros, and reject a last character whose
//!    padding bits are not zero ([`Reason::NonZeroPadding`]). Why: otherwise
//!    up to 16 strings decode to the same octets. (vectors `lace-decode-padding-*`)
//! 3. **Lengths of Base32 text that no octet count produces.** The draft
//!    says nothing. n octets make ceil(8n/5) characters, so lengths of 1, 3
//!    and 6 modulo 8 never occur: their last character holds five or more
//!    bits that are not part of any octet. We reject them
//!    ([`Reason::Base32Length`]). Why: a lenient decoder that drops the extra
//!    character accepts a second spelling. (vectors `lace-decode-base32-length-*`)
//! 4. **The 36-octet limit when decoding.** The draft checks it when
//!    encoding only (2.2.2). We reject a well-formed Base32 text of more than
//!    36 octets ([`Reason::TooLong`], big output), before decoding it. Why:
//!    the encoder never writes one, and the check also bounds the work.
//!    (vectors `lace-decode-37-octets`, `lace-decode-60-chars-of-a`)
//! 5. **A count octet of zero.** The draft's decompression (2.4.2 steps 5
//!    to 7) outputs one character and then decrements COUNT to below zero,
//!    so a count of 0 decodes like a count of 1. We reject it
//!    ([`Reason::ZeroCount`]). Why: the compressor never writes 0, and
//!    accepting it gives a second spelling. (vectors `lace-decode-zero-count*`)
//! 6. **A run shorter than its count.** 2.4.2 checks for the end of the
//!    input after the count and after the high octet (steps 3 and 4) but not
//!    while reading the low octets (step 5). We reject a run that ends early
//!    ([`Reason::TruncatedRun`]), like the other two ends. Why: there is
//!    nothing to read. (vectors `lace-decode-truncated-*`)
//! 7. **Two runs in a row with the same high octet.** The draft's
//!    decompressor accepts `01 30 e6 01 30 cb`, which decodes to the same
//!    UTF-16 as `02 30 e6 cb`, and its length check (step 9) does not catch
//!    it. The compressor (2.4.1 step 4) always takes the whole run. We reject
//!    such a split ([`Reason::SplitRun`]). Why: a second spelling of the same
//!    name, exactly what section 3 forbids. (vector `lace-decode-split-run`)
//! 8. **Counting "pairs at or after IP that have HIGH as the first octet"
//!    (2.4.1 step 4).** This could mean all such pairs in the rest of the
//!    string or only the run that starts at IP. The third example of 2.4.3
//!    (`01 01 2e 01 00 d0 01 01 4a`) shows it is the run; that is what we
//!    do.
//! 9. **Where IP moves after a run (2.4.1 step 5).** The draft says
//!    IP+(2*(COUNT+1)), which skips one code unit too many: the COUNT pairs
//!    take 2*COUNT octets, and the examples of 2.4.3 only work with that.
//!    We move IP to the end of the run.
//! 10. **The compressed-form length check (2.4.2 step 9) is inverted.** It
//!     says to fail when the output (UTF-16) is longer than the input
//!     (compressed string), which would refuse the draft's own first example
//!     (7 octets decompressing to 10). The compressor keeps the compressed
//!     form when it is not longer than the UTF-16 string (2.4.1 step 7), so
//!     we fail when the compressed string is longer than the UTF-16 string
//!     ([`Reason::ShouldBeUncompressed`]). The uncompressed form's check
//!     (step 10) is right as written ([`Reason::ShouldBeCompressed`]).
//!     (vectors `lace-decode-should-be-*`)
//! 11. **The uncompressed form with nothing or an odd number of octets
//!     after 0xFF.** Step 10 says to compress the rest "following the steps
//!     for compression above", whose step 1 fails on an odd length or a
//!     length below 2. We report that as [`Reason::UncompressedLength`].
//!     (vectors `lace-decode-uncompressed-*`)
//! 12. **Surrogates.** The draft assumes its input is already checked
//!     UTF-16 (2.4.1 design note). Code points that are surrogates
//!     (U+D800-U+DFFF) or above U+10FFFF cannot be written in UTF-16 (a
//!     lone surrogate code point would also let `<U+D83D U+DE00>` and
//!     `<U+1F600>` share one encoding), so [`encode`] rejects them
//!     ([`Reason::NotUtf16`]), and [`decode`] rejects decompressed UTF-16
//!     with a surrogate that is not part of a pair ([`Reason::UnpairedSurrogate`]).
//!     The high and low halves of a pair have different high octets (0xD8
//!     to 0xDB, 0xDC to 0xDF), so a pair always spans two runs; nothing
//!     else needs to be said about "rows that split a pair".
//!     (vectors `lace-*surrogate*`)
//! 13. **Which names "need no encoding".** 2.2 and 2.3 forbid encoding, and
//!     require the decoder to refuse, a name part that "consists exclusively
//!     of characters that conform to the host name requirements in
//!     \[STD13\]". We read that as: every code point is an ASCII letter, digit
//!     or hyphen (in either case, and whatever their order), and report
//!     [`Reason::NoEncodingNeeded`] in both directions. Other ASCII (`a_b`,
//!     a space) is encoded, although section 1 says "host parts that have no
//!     international characters are not changed": 2.2 is the normative text,
//!     and such a name has no other DNS form. (vectors `lace-*ldh*`)
//! 14. **The empty name.** 2.4.1 step 1 fails on fewer than 2 octets, so
//!     [`encode`] rejects no code points ([`Reason::Empty`]), and [`decode`]
//!     rejects `bq--` alone ([`Reason::EmptyCompressed`], 2.4.2 step 1)
//!     (vectors `lace-empty-encode`, `lace-decode-tag-only`).
//! 15. **Runs longer than 255 code units.** A count octet cannot hold them,
//!     and the draft does not say what to do. They cannot occur: the
//!     36-octet limit allows at most 34 code units, and we check the limit
//!     (from the lengths alone) before compressing anything.
//! 16. **The number of characters.** Sections 1 and 1.2 say compressed
//!     names "can have up to 35 characters"; the 36-octet limit allows 34 (a
//!     single run is 2 + 34 octets). The uncompressed limit of 17 is right
//!     (1 + 2*17 = 35 octets; 18 make 37). (vectors
//!     `lace-34-one-row-*`, `lace-35-one-row-encode`)
//!
//! The examples of 2.4.3 and 2.5.3 agree with computation (unit tests
//! below and the vectors), apart from a typo in the first one, which names
//! the row of U+30xx "(03)" instead of 0x30.
//!
//! # Size
//!
//! About 720 lines of code and 250 of unit tests of private helpers
//! (row compression, Base32 padding); the code is one section-by-section
//! reading of the draft, which its docs follow.

use std::fmt;

use crate::punycode::ErrorKind;

/// The tag in front of every LACE name part (section 2.1), as the encoder
/// writes it (lower case).
pub const TAG: &[u8; 4] = b"bq--";

/// The longest compressed string, in octets (section 2.2.2).
pub const MAX_COMPRESSED_LEN: usize = 36;

/// The first octet of the uncompressed form (section 2.4.1 step 7).
pub const UNCOMPRESSED: u8 = 0xFF;

/// Table 1 of section 2.5: the character for each five-bit value, from the
/// table's "hex" column (0x61-0x7A for 0-25, 0x32-0x37 for 26-31).
pub const BASE32_ALPHABET: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz234567";

/// The most Base32 characters of a LACE string: those of 36 octets.
pub const MAX_BASE32_LEN: usize = (MAX_COMPRESSED_LEN * 8).div_ceil(5);

/// The longest LACE string: the tag and [`MAX_BASE32_LEN`] characters (62,
/// within the DNS limit of 63).
pub const MAX_ENCODED_LEN: usize = TAG.len() + MAX_BASE32_LEN;

/// Why LACE input is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// Encoding: there are no code points (section 2.4.1 step 1 fails on
    /// fewer than 2 octets). No position.
    Empty,
    /// Encoding: a surrogate code point or one above U+10FFFF, which UTF-16
    /// cannot carry (section 2.2). Position: the code point.
    NotUtf16,
    /// Either direction: every code point is an ASCII letter, digit or
    /// hyphen, so the name MUST NOT be LACE (sections 2.2 and 2.3). No
    /// position.
    NoEncodingNeeded,
    /// Either direction: the compressed string has more than 36 octets
    /// (section 2.2.2); `octets` is how many. No position. The only reason
    /// whose kind is [`ErrorKind::BigOutput`].
    TooLong {
        /// The length of the compressed string, in octets.
        octets: usize,
    },
    /// Compressing: the UTF-16 octets are odd in number or fewer than 2
    /// (section 2.4.1 step 1). Position: the last octet when odd, none when
    /// empty.
    Utf16Length,
    /// Decoding: the input does not begin with `bq--` (section 2.3.1).
    /// Position: the first byte that differs (the input's length when it is
    /// shorter than the tag).
    MissingTag,
    /// Strict decoding: an uppercase letter in the tag or in the Base32 text,
    /// which the encoder never writes (see item 1 of the module docs;
    /// [`decode_ignoring_case`] accepts it). Position: the byte.
    Uppercase,
    /// Decoding: a byte that is not in Table 1 of section 2.5 (section
    /// 2.3.2). Position: the byte.
    NotBase32,
    /// Decoding: no number of octets gives this many Base32 characters (1, 3
    /// or 6 modulo 8). Position: the last character.
    Base32Length,
    /// Decoding: the padding bits of the last Base32 character are not zero.
    /// Position: the last character.
    NonZeroPadding,
    /// Decompressing: the compressed string is empty (section 2.4.2 step 1).
    /// No position.
    EmptyCompressed,
    /// Decompressing: the input ends before the high octet of a run, before
    /// its first low octet, or before as many low octets as its count
    /// (section 2.4.2 steps 3 to 5). Position: the run's count octet.
    TruncatedRun,
    /// Decompressing: a run's count is 0, which the compressor never writes.
    /// Position: the count octet.
    ZeroCount,
    /// Decompressing: a run has the same high octet as the run before it,
    /// so the compressor would have made them one run. Position: the count
    /// octet of the second run.
    SplitRun,
    /// Decompressing: the compressed form is longer than the UTF-16 string,
    /// so the encoder would have used the uncompressed form (section 2.4.2
    /// step 9, corrected). Position: 0.
    ShouldBeUncompressed,
    /// Decompressing: the uncompressed form, for a string whose compressed
    /// form is not longer (section 2.4.2 step 10). Position: 0, the 0xFF.
    ShouldBeCompressed,
    /// Decompressing: after 0xFF, nothing or an odd number of octets
    /// (section 2.4.2 step 10, through 2.4.1 step 1). Position: the unpaired
    /// last octet, or 1 when nothing follows the 0xFF.
    UncompressedLength,
    /// Decoding: the decompressed UTF-16 has a surrogate that is not part of
    /// a high-low pair. Position: the code unit.
    UnpairedSurrogate,
}

impl Reason {
    /// The status of RFC 3492 that every punycheck codec reports:
    /// [`ErrorKind::BigOutput`] for [`Reason::TooLong`], otherwise
    /// [`ErrorKind::BadInput`].
    pub fn kind(self) -> ErrorKind {
        match self {
            Reason::TooLong { .. } => ErrorKind::BigOutput,
            _ => ErrorKind::BadInput,
        }
    }

    /// What the position of an error with this reason counts.
    pub fn unit(self) -> &'static str {
        match self {
            Reason::NotUtf16 => "code point",
            Reason::MissingTag
            | Reason::Uppercase
            | Reason::NotBase32
            | Reason::Base32Length
            | Reason::NonZeroPadding => "byte",
            Reason::Utf16Length => "UTF-16 octet",
            Reason::UnpairedSurrogate => "UTF-16 code unit",
            _ => "compressed octet",
        }
    }

    fn describe(self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Empty => f.write_str("no code points to encode"),
            Reason::NotUtf16 => {
                f.write_str("a surrogate or a value above U+10FFFF, which UTF-16 cannot carry")
            }
            Reason::NoEncodingNeeded => f.write_str(
                "only ASCII letters, digits and hyphens: the name must not be LACE-encoded",
            ),
            Reason::TooLong { octets } => write!(
                f,
                "the compressed string has {octets} octets, more than {MAX_COMPRESSED_LEN}"
            ),
            Reason::Utf16Length => f.write_str("UTF-16 needs an even number of octets, at least 2"),
            Reason::MissingTag => f.write_str("does not begin with \"bq--\""),
            Reason::Uppercase => {
                f.write_str("uppercase letter, which the encoder never writes (strict decoding)")
            }
            Reason::NotBase32 => f.write_str("not a Base32 character (Table 1)"),
            Reason::Base32Length => {
                f.write_str("no number of octets gives this many Base32 characters")
            }
            Reason::NonZeroPadding => f.write_str("the padding bits are not zero"),
            Reason::EmptyCompressed => f.write_str("the compressed string is empty"),
            Reason::TruncatedRun => f.write_str("the run ends before its count of low octets"),
            Reason::ZeroCount => f.write_str("a run's count is zero"),
            Reason::SplitRun => f.write_str("a run has the same high octet as the run before it"),
            Reason::ShouldBeUncompressed => f.write_str(
                "compressed form longer than the UTF-16 string: the uncompressed form is required",
            ),
            Reason::ShouldBeCompressed => f.write_str(
                "uncompressed form of a string whose compressed form is not longer: \
                 the compressed form is required",
            ),
            Reason::UncompressedLength => {
                f.write_str("the uncompressed form needs an even number of octets after 0xFF")
            }
            Reason::UnpairedSurrogate => f.write_str("a surrogate that is not part of a pair"),
        }
    }
}

/// A LACE encoding or decoding error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Error {
    /// What is wrong.
    pub reason: Reason,
    /// Where, in the unit [`Reason::unit`] names, counted from the start of
    /// the input of the function that reports it (for [`decode`]: bytes of
    /// the whole ACE string including the tag, octets of the compressed
    /// string, code units of the UTF-16 string). `None` for reasons that
    /// concern the whole input.
    pub position: Option<usize>,
}

impl Error {
    fn at(reason: Reason, position: usize) -> Self {
        Error {
            reason,
            position: Some(position),
        }
    }

    fn whole(reason: Reason) -> Self {
        Error {
            reason,
            position: None,
        }
    }

    /// The RFC 3492 status this error corresponds to ([`Reason::kind`]).
    pub fn kind(&self) -> ErrorKind {
        self.reason.kind()
    }

    /// The same error with its position moved `by` further (a byte position
    /// within the Base32 text becomes one within the ACE string).
    fn shifted(self, by: usize) -> Self {
        Error {
            position: self.position.map(|p| p + by),
            ..self
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.reason.kind(), self.position) {
            (ErrorKind::BigOutput, _) => f.write_str("too long: ")?,
            (_, Some(position)) => write!(f, "bad input at {} {position}: ", self.reason.unit())?,
            (_, None) => f.write_str("bad input: ")?,
        }
        self.reason.describe(f)
    }
}

impl std::error::Error for Error {}

/// Whether `cp` is allowed in a host name by STD 13 (RFC 1035): an ASCII
/// letter, digit or hyphen.
pub fn is_ldh(cp: u32) -> bool {
    u8::try_from(cp).is_ok_and(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// The value of a Base32 character of Table 1 (lower case only).
fn base32_value(c: u8) -> Option<u8> {
    match c {
        b'a'..=b'z' => Some(c - b'a'),
        b'2'..=b'7' => Some(c - b'2' + 26),
        _ => None,
    }
}

/// Writes octets in Base32 (section 2.5.1): five bits per character, the
/// last character padded with zero bits. Never fails; `ceil(8n/5)`
/// characters for n octets.
pub fn base32_encode(octets: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity((octets.len() * 8).div_ceil(5));
    let mut acc: u32 = 0;
    let mut bits = 0;
    for &octet in octets {
        acc = (acc << 8) | u32::from(octet);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            out.push(BASE32_ALPHABET[((acc >> bits) & 0x1F) as usize]);
        }
        acc &= (1 << bits) - 1;
    }
    if bits > 0 {
        out.push(BASE32_ALPHABET[((acc << (5 - bits)) & 0x1F) as usize]);
    }
    out
}

/// Checks Base32 text strictly and returns how many octets it holds:
/// characters of Table 1 in lower case, a length some octet count gives,
/// zero padding bits. Positions are indices into `text`.
fn check_base32(text: &[u8]) -> Result<usize, Error> {
    for (k, &c) in text.iter().enumerate() {
        if base32_value(c).is_none() {
            let reason = if base32_value(c.to_ascii_lowercase()).is_some() {
                Reason::Uppercase
            } else {
                Reason::NotBase32
            };
            return Err(Error::at(reason, k));
        }
    }
    // text.len() * 5 cannot overflow: a slice is at most isize::MAX long.
    let bits = text.len() as u128 * 5;
    let octets = (bits / 8) as usize;
    let spare = (bits % 8) as u32;
    if let Some(last) = text.len().checked_sub(1) {
        if spare >= 5 {
            return Err(Error::at(Reason::Base32Length, last));
        }
        let value = base32_value(text[last]).unwrap_or(0);
        if value & ((1 << spare) - 1) != 0 {
            return Err(Error::at(Reason::NonZeroPadding, last));
        }
    }
    Ok(octets)
}

/// Reads checked Base32 text into `octets` octets (the padding bits are
/// dropped).
fn base32_bits(text: &[u8], octets: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(octets);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for &c in text {
        acc = (acc << 5) | u32::from(base32_value(c).unwrap_or(0));
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

/// Reads Base32 text (section 2.5.2), strictly: only characters of Table 1
/// in lower case, only lengths that [`base32_encode`] produces, padding bits
/// zero. So `base32_decode(x)` succeeds exactly when `x` is
/// `base32_encode` of something, which it returns. Positions are indices
/// into `text`. No length limit (that is LACE's, checked by [`decode`]).
pub fn base32_decode(text: &[u8]) -> Result<Vec<u8>, Error> {
    let octets = check_base32(text)?;
    Ok(base32_bits(text, octets))
}

/// The code units of code points that UTF-16 can carry; the caller has
/// checked them (a bad one would become U+FFFD).
fn utf16_units(input: &[u32]) -> impl Iterator<Item = u16> + '_ {
    input.iter().flat_map(|&cp| {
        let mut buf = [0u16; 2];
        let c = char::from_u32(cp).unwrap_or(char::REPLACEMENT_CHARACTER);
        let n = c.encode_utf16(&mut buf).len();
        buf.into_iter().take(n)
    })
}

/// The length of the compressed string (section 2.4.1 step 7) of the
/// given code units, in one pass without allocating.
fn compressed_len(units: impl Iterator<Item = u16>) -> usize {
    let mut count = 0usize;
    let mut runs = 0usize;
    let mut row = None;
    for unit in units {
        count += 1;
        let high = unit >> 8;
        if row != Some(high) {
            runs += 1;
            row = Some(high);
        }
    }
    // Cannot overflow: count is at most twice a slice length, so 3 * count
    // and 2 * count + 1 are below usize::MAX.
    let compressed = 2 * runs + count;
    if compressed <= 2 * count {
        compressed
    } else {
        2 * count + 1
    }
}

/// The compressed string of code units whose compressed string is at most
/// [`MAX_COMPRESSED_LEN`] octets long (so every run fits a count octet).
fn compress_units(units: &[u16]) -> Vec<u8> {
    let mut out = Vec::with_capacity(MAX_COMPRESSED_LEN);
    for run in units.chunk_by(|a, b| a >> 8 == b >> 8) {
        // At most 34 code units: the caller checked the length.
        out.push(run.len() as u8);
        out.push((run[0] >> 8) as u8);
        out.extend(run.iter().map(|&u| u as u8));
    }
    if out.len() <= 2 * units.len() {
        out
    } else {
        let mut out = Vec::with_capacity(1 + 2 * units.len());
        out.push(UNCOMPRESSED);
        out.extend(units.iter().flat_map(|u| u.to_be_bytes()));
        out
    }
}

/// Compresses big-endian UTF-16 (section 2.4.1), with the length check of
/// section 2.2.2: fails with [`Reason::Utf16Length`] on an odd length or
/// fewer than 2 octets, with [`Reason::TooLong`] when the result would be
/// longer than 36 octets. As the draft says, the code units themselves are
/// not checked (unpaired surrogates are compressed like any other unit).
pub fn compress(utf16be: &[u8]) -> Result<Vec<u8>, Error> {
    if utf16be.is_empty() {
        return Err(Error::whole(Reason::Utf16Length));
    }
    if utf16be.len() % 2 == 1 {
        return Err(Error::at(Reason::Utf16Length, utf16be.len() - 1));
    }
    let units = || {
        utf16be
            .chunks_exact(2)
            .map(|pair| u16::from_be_bytes([pair[0], pair[1]]))
    };
    let octets = compressed_len(units());
    if octets > MAX_COMPRESSED_LEN {
        return Err(Error::whole(Reason::TooLong { octets }));
    }
    Ok(compress_units(&units().collect::<Vec<u16>>()))
}

/// Decompresses into code units, accepting exactly what [`compress_units`]
/// produces. Positions are octets of `compressed`.
fn decompress_units(compressed: &[u8]) -> Result<Vec<u16>, Error> {
    let Some(&first) = compressed.first() else {
        return Err(Error::whole(Reason::EmptyCompressed));
    };
    if compressed.len() > MAX_COMPRESSED_LEN {
        return Err(Error::whole(Reason::TooLong {
            octets: compressed.len(),
        }));
    }
    if first == UNCOMPRESSED {
        let rest = &compressed[1..];
        if rest.is_empty() {
            return Err(Error::at(Reason::UncompressedLength, 1));
        }
        if rest.len() % 2 == 1 {
            return Err(Error::at(Reason::UncompressedLength, compressed.len() - 1));
        }
        let units: Vec<u16> = rest
            .chunks_exact(2)
            .map(|pair| u16::from_be_bytes([pair[0], pair[1]]))
            .collect();
        if compressed_len(units.iter().copied()) != compressed.len() {
            return Err(Error::at(Reason::ShouldBeCompressed, 0));
        }
        return Ok(units);
    }
    let mut units = Vec::with_capacity(compressed.len());
    let mut previous_high = None;
    let mut ip = 0;
    while ip < compressed.len() {
        let count = usize::from(compressed[ip]);
        let (Some(&high), Some(lows)) = (
            compressed.get(ip + 1),
            compressed.get(ip + 2..ip + 2 + count.max(1)),
        ) else {
            return Err(Error::at(Reason::TruncatedRun, ip));
        };
        if count == 0 {
            return Err(Error::at(Reason::ZeroCount, ip));
        }
        if previous_high == Some(high) {
            return Err(Error::at(Reason::SplitRun, ip));
        }
        units.extend(lows.iter().map(|&low| u16::from_be_bytes([high, low])));
        previous_high = Some(high);
        ip += 2 + count;
    }
    if compressed.len() > 2 * units.len() {
        return Err(Error::at(Reason::ShouldBeUncompressed, 0));
    }
    Ok(units)
}

/// Decompresses (section 2.4.2) into big-endian UTF-16, strictly: it
/// succeeds exactly on the outputs of [`compress`] (so also on at most 36
/// octets), and `compress(decompress(x)) == x` whenever it does. The code
/// units are not checked (that is [`decode`]'s job). Positions are octets
/// of `compressed`.
pub fn decompress(compressed: &[u8]) -> Result<Vec<u8>, Error> {
    let units = decompress_units(compressed)?;
    Ok(units.iter().flat_map(|u| u.to_be_bytes()).collect())
}

/// Encodes code points as a LACE name part (section 2.2): `bq--` and
/// lowercase Base32, at most [`MAX_ENCODED_LEN`] bytes of ASCII.
///
/// Fails on no code points, on code points UTF-16 cannot carry (surrogates,
/// values above U+10FFFF), on a name of ASCII letters, digits and hyphens
/// only (which must not be encoded), and, with [`ErrorKind::BigOutput`],
/// when the compressed string would be longer than 36 octets.
///
/// ```
/// use punycheck::lace;
/// assert_eq!(lace::encode(&[0xE9]).unwrap(), b"bq--74aos");
/// assert_eq!(lace::decode(b"bq--74aos").unwrap(), [0xE9]);
/// ```
pub fn encode(input: &[u32]) -> Result<Vec<u8>, Error> {
    if input.is_empty() {
        return Err(Error::whole(Reason::Empty));
    }
    if let Some(k) = input.iter().position(|&cp| char::from_u32(cp).is_none()) {
        return Err(Error::at(Reason::NotUtf16, k));
    }
    if input.iter().all(|&cp| is_ldh(cp)) {
        return Err(Error::whole(Reason::NoEncodingNeeded));
    }
    let octets = compressed_len(utf16_units(input));
    if octets > MAX_COMPRESSED_LEN {
        return Err(Error::whole(Reason::TooLong { octets }));
    }
    let units: Vec<u16> = utf16_units(input).collect();
    let compressed = compress_units(&units);
    let mut out = Vec::with_capacity(MAX_ENCODED_LEN);
    out.extend_from_slice(TAG);
    out.extend(base32_encode(&compressed));
    Ok(out)
}

/// Code points from UTF-16 code units; positions are code units.
fn from_utf16(units: &[u16]) -> Result<Vec<u32>, Error> {
    let mut out = Vec::with_capacity(units.len());
    let mut k = 0;
    while k < units.len() {
        let unit = units[k];
        match unit {
            0xD800..=0xDBFF => match units.get(k + 1) {
                Some(&low @ 0xDC00..=0xDFFF) => {
                    out.push(
                        0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(low) - 0xDC00),
                    );
                    k += 2;
                    continue;
                }
                _ => return Err(Error::at(Reason::UnpairedSurrogate, k)),
            },
            0xDC00..=0xDFFF => return Err(Error::at(Reason::UnpairedSurrogate, k)),
            _ => out.push(u32::from(unit)),
        }
        k += 1;
    }
    Ok(out)
}

/// Decodes a LACE name part (section 2.3), strictly: it accepts exactly the
/// strings [`encode`] produces, so when it succeeds, `encode` of the result
/// is `input` byte for byte. The tag and the Base32 letters must be lower
/// case (see [`decode_ignoring_case`]). Positions of the tag and Base32
/// reasons are bytes of `input`; those of the compressed string are its
/// octets; [`Reason::UnpairedSurrogate`]'s is a UTF-16 code unit.
pub fn decode(input: &[u8]) -> Result<Vec<u32>, Error> {
    for (k, &want) in TAG.iter().enumerate() {
        match input.get(k) {
            Some(&got) if got == want => {}
            Some(&got) if got.to_ascii_lowercase() == want => {
                return Err(Error::at(Reason::Uppercase, k));
            }
            _ => return Err(Error::at(Reason::MissingTag, k)),
        }
    }
    let text = &input[TAG.len()..];
    let octets = check_base32(text).map_err(|e| e.shifted(TAG.len()))?;
    if octets > MAX_COMPRESSED_LEN {
        return Err(Error::whole(Reason::TooLong { octets }));
    }
    let compressed = base32_bits(text, octets);
    let units = decompress_units(&compressed)?;
    let code_points = from_utf16(&units)?;
    if code_points.iter().all(|&cp| is_ldh(cp)) {
        return Err(Error::whole(Reason::NoEncodingNeeded));
    }
    Ok(code_points)
}

/// Decodes as the draft's decoder does with letter case: the tag and the
/// Base32 text in any mix of cases (sections 2.1 and 2.3.2), otherwise
/// exactly [`decode`]. When it succeeds, `encode` of the result is `input`
/// with its ASCII letters in lower case.
pub fn decode_ignoring_case(input: &[u8]) -> Result<Vec<u32>, Error> {
    decode(&input.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(reason: Reason, position: Option<usize>) -> Error {
        Error { reason, position }
    }

    #[test]
    fn table_1_from_its_hex_column() {
        // The "hex" column of Table 1, row by row (bits 00000 to 01111 on
        // the left, 10000 to 11111 on the right).
        let left = [
            0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x6b, 0x6c, 0x6d, 0x6e,
            0x6f, 0x70,
        ];
        let right = [
            0x71, 0x72, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x32, 0x33, 0x34, 0x35,
            0x36, 0x37,
        ];
        let table: Vec<u8> = left.into_iter().chain(right).collect();
        assert_eq!(&table[..], &BASE32_ALPHABET[..]);
        for (value, &c) in BASE32_ALPHABET.iter().enumerate() {
            assert_eq!(base32_value(c), Some(value as u8));
        }
        let accepted = (0..=255u8).filter(|&c| base32_value(c).is_some()).count();
        assert_eq!(accepted, 32);
    }

    #[test]
    fn limits() {
        assert_eq!(MAX_BASE32_LEN, 58);
        assert_eq!(MAX_ENCODED_LEN, 62);
    }

    /// Section 2.5.3: 0x3a270f93 is "hitq7ey".
    #[test]
    fn base32_example_of_2_5_3() {
        assert_eq!(base32_encode(&[0x3a, 0x27, 0x0f, 0x93]), b"hitq7ey");
        assert_eq!(base32_decode(b"hitq7ey").unwrap(), [0x3a, 0x27, 0x0f, 0x93]);
        // Its last character holds 2 data bits and 3 padding bits.
        assert_eq!(
            base32_decode(b"hitq7ez"),
            Err(err(Reason::NonZeroPadding, Some(6)))
        );
        // Not a LACE string: a count of 0x3a with two low octets.
        assert_eq!(
            decode(b"bq--hitq7ey"),
            Err(err(Reason::TruncatedRun, Some(0)))
        );
    }

    #[test]
    fn base32_lengths() {
        for n in 0..=40usize {
            let octets: Vec<u8> = (0..n).map(|k| (k * 37 + 11) as u8).collect();
            let text = base32_encode(&octets);
            assert_eq!(text.len(), (8 * n).div_ceil(5));
            assert_eq!(base32_decode(&text).unwrap(), octets);
        }
        for len in 0..=80usize {
            let ok = !matches!(len % 8, 1 | 3 | 6);
            let text = vec![b'a'; len];
            assert_eq!(base32_decode(&text).is_ok(), ok, "length {len}");
        }
        assert_eq!(
            base32_decode(b"aaa"),
            Err(err(Reason::Base32Length, Some(2)))
        );
        assert_eq!(base32_decode(b"aB"), Err(err(Reason::Uppercase, Some(1))));
        assert_eq!(base32_decode(b"a0"), Err(err(Reason::NotBase32, Some(1))));
    }

    /// The three examples of section 2.4.3.
    #[test]
    fn compression_examples_of_2_4_3() {
        let examples: [(&[u8], &[u8]); 3] = [
            (
                &[0x30, 0xE6, 0x30, 0xCB, 0x30, 0xB3, 0x30, 0xFC, 0x30, 0xC9],
                &[0x05, 0x30, 0xE6, 0xCB, 0xB3, 0xFC, 0xC9],
            ),
            (
                &[0x01, 0x2E, 0x01, 0x10, 0x01, 0x4A, 0x00, 0xC5],
                &[0x03, 0x01, 0x2E, 0x10, 0x4A, 0x01, 0x00, 0xC5],
            ),
            (
                &[0x01, 0x2E, 0x00, 0xD0, 0x01, 0x4A],
                &[0xFF, 0x01, 0x2E, 0x00, 0xD0, 0x01, 0x4A],
            ),
        ];
        for (utf16, compressed) in examples {
            assert_eq!(compress(utf16).unwrap(), compressed);
            assert_eq!(decompress(compressed).unwrap(), utf16);
        }
        // The third example's rejected compressed buffer, and the first
        // example in the wrong form.
        assert_eq!(
            decompress(&[0x01, 0x01, 0x2E, 0x01, 0x00, 0xD0, 0x01, 0x01, 0x4A]),
            Err(err(Reason::ShouldBeUncompressed, Some(0)))
        );
        let mut uncompressed = vec![0xFF];
        uncompressed.extend_from_slice(examples[0].0);
        assert_eq!(
            decompress(&uncompressed),
            Err(err(Reason::ShouldBeCompressed, Some(0)))
        );
    }

    #[test]
    fn compress_checks_its_length() {
        assert_eq!(compress(&[]), Err(err(Reason::Utf16Length, None)));
        assert_eq!(compress(&[0x30]), Err(err(Reason::Utf16Length, Some(0))));
        assert_eq!(
            compress(&[0x30, 0x00, 0x30]),
            Err(err(Reason::Utf16Length, Some(2)))
        );
        // 35 units of one row: 37 octets. A run of 300 never reaches a count
        // octet.
        assert_eq!(
            compress(&[0x30; 70]),
            Err(err(Reason::TooLong { octets: 37 }, None))
        );
        assert_eq!(
            compress(&[0x30; 600]),
            Err(err(Reason::TooLong { octets: 302 }, None))
        );
    }

    #[test]
    fn decompress_rejects_what_compress_never_writes() {
        let cases: [(&[u8], Reason, Option<usize>); 9] = [
            (&[], Reason::EmptyCompressed, None),
            (&[0x01], Reason::TruncatedRun, Some(0)),
            (&[0x01, 0x30], Reason::TruncatedRun, Some(0)),
            (&[0x03, 0x30, 0xE6, 0xCB], Reason::TruncatedRun, Some(0)),
            (
                &[0x00, 0x30, 0xE6, 0x01, 0x31, 0x00],
                Reason::ZeroCount,
                Some(0),
            ),
            (
                &[0x01, 0x30, 0xE6, 0x01, 0x30, 0xCB],
                Reason::SplitRun,
                Some(3),
            ),
            (&[0xFF], Reason::UncompressedLength, Some(1)),
            (
                &[0xFF, 0x30, 0xE6, 0x30],
                Reason::UncompressedLength,
                Some(3),
            ),
            (&[0x25; 37], Reason::TooLong { octets: 37 }, None),
        ];
        for (input, reason, position) in cases {
            assert_eq!(
                decompress(input),
                Err(err(reason, position)),
                "{input:02x?}"
            );
        }
    }

    #[test]
    fn encode_errors() {
        assert_eq!(encode(&[]), Err(err(Reason::Empty, None)));
        assert_eq!(encode(&[0xE9, 0xD800]), Err(err(Reason::NotUtf16, Some(1))));
        assert_eq!(
            encode(&[0xE9, 0x110000]),
            Err(err(Reason::NotUtf16, Some(1)))
        );
        assert_eq!(
            encode(&[0xE9, u32::MAX]),
            Err(err(Reason::NotUtf16, Some(1)))
        );
        assert_eq!(
            encode(&[0x61, 0x2D, 0x5A, 0x39]),
            Err(err(Reason::NoEncodingNeeded, None))
        );
        // An invalid code point is reported before anything else.
        assert_eq!(encode(&[0x61, 0xDFFF]), Err(err(Reason::NotUtf16, Some(1))));
        assert_eq!(encode(&[0x61, 0x5F]).unwrap(), b"bq--aiagcxy");
    }

    #[test]
    fn decode_tag() {
        assert_eq!(decode(b""), Err(err(Reason::MissingTag, Some(0))));
        assert_eq!(decode(b"bq-"), Err(err(Reason::MissingTag, Some(3))));
        assert_eq!(decode(b"bq-x74aos"), Err(err(Reason::MissingTag, Some(3))));
        assert_eq!(decode(b"bQ--74aos"), Err(err(Reason::Uppercase, Some(1))));
        assert_eq!(decode(b"bq--74aOs"), Err(err(Reason::Uppercase, Some(7))));
        assert_eq!(
            decode(b"bq--74a\xffs"),
            Err(err(Reason::NotBase32, Some(7)))
        );
        assert_eq!(decode_ignoring_case(b"BQ--74AOS").unwrap(), [0xE9]);
        assert_eq!(decode(b"bq--"), Err(err(Reason::EmptyCompressed, None)));
    }

    #[test]
    fn unpaired_surrogates_are_refused() {
        // 0xFF then the single unit D800 (compressing it would take 3).
        let text = [TAG.as_slice(), &base32_encode(&[0xFF, 0xD8, 0x00])].concat();
        assert_eq!(decode(&text), Err(err(Reason::UnpairedSurrogate, Some(0))));
        // A low surrogate first, then a high one.
        let text = [
            TAG.as_slice(),
            &base32_encode(&[0xFF, 0xDC, 0x00, 0xD8, 0x00]),
        ]
        .concat();
        assert_eq!(decode(&text), Err(err(Reason::UnpairedSurrogate, Some(0))));
        let pair = encode(&[0x1F600]).unwrap();
        assert_eq!(decode(&pair).unwrap(), [0x1F600]);
    }

    #[test]
    fn huge_inputs_fail_fast() {
        let many = vec![0x3042u32; 2_000_000];
        assert_eq!(
            encode(&many),
            Err(err(Reason::TooLong { octets: 2_000_002 }, None))
        );
        let mut text = TAG.to_vec();
        text.resize(1_600_004, b'a');
        assert_eq!(
            decode(&text),
            Err(err(Reason::TooLong { octets: 1_000_000 }, None))
        );
    }

    #[test]
    fn display_names_the_unit() {
        assert_eq!(
            decode(b"bq--74aOs").unwrap_err().to_string(),
            "bad input at byte 7: uppercase letter, which the encoder never writes (strict decoding)"
        );
        assert_eq!(
            decompress(&[0x01, 0x30, 0xE6, 0x01, 0x30, 0xCB])
                .unwrap_err()
                .to_string(),
            "bad input at compressed octet 3: a run has the same high octet as the run before it"
        );
        assert_eq!(
            encode(&[0x3042; 35]).unwrap_err().to_string(),
            "too long: the compressed string has 37 octets, more than 36"
        );
        assert_eq!(
            encode(&[0x3042; 35]).unwrap_err().kind(),
            ErrorKind::BigOutput
        );
        assert_eq!(encode(&[]).unwrap_err().kind(), ErrorKind::BadInput);
    }
}

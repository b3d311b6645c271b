//! ICU's UTS #46 (`uidna_openUTS46`, `uidna_labelToASCII_UTF8` and
//! `uidna_labelToUnicodeUTF8` for labels, `uidna_nameToASCII_UTF8` and
//! `uidna_nameToUnicodeUTF8` for domain names) through
//! `csrc/icu_punycode_shim.c`, with the cargo feature `icu`.

use std::ffi::CStr;
use std::os::raw::{c_char, c_int};

use super::{capabilities, decoded_text, domain_capabilities, label_text};
use crate::codec::Codec;
use crate::engines::{Capabilities, DecodeResult, Deviation, EncodeResult, Engine, EngineError};
use crate::label::{self, LabelProfile};
use crate::unicode::UnicodeVersion;
use crate::vocabulary::{Expected, Request};

unsafe extern "C" {
    fn punycheck_icu_label(
        name: c_int,
        to_ascii: c_int,
        std3: c_int,
        label: *const c_char,
        length: i32,
        dest: *mut c_char,
        capacity: i32,
        errors: *mut u32,
        status: *mut c_int,
    ) -> i32;
    fn punycheck_icu_unicode_version(dest: *mut c_char);
}

// UIDNA_ERROR_* bits of <unicode/uidna.h> that the caller's switches
// turn off: ICU reports them always.
const EMPTY_LABEL: u32 = 1;
const LABEL_TOO_LONG: u32 = 2;
const DOMAIN_NAME_TOO_LONG: u32 = 4;
const LEADING_HYPHEN: u32 = 8;
const TRAILING_HYPHEN: u32 = 0x10;
const HYPHEN_3_4: u32 = 0x20;

/// The Unicode version of the ICU in use (15.0 for Debian's ICU 72), as
/// its `u_getUnicodeVersion` says; `None` when it is not older than the
/// references' (then nothing is explained by it).
pub fn unicode_version() -> Option<UnicodeVersion> {
    let mut text = [0 as c_char; 32];
    // SAFETY: u_versionToString writes at most U_MAX_VERSION_STRING_LENGTH
    // (20) bytes and a NUL into the 32-byte buffer.
    unsafe { punycheck_icu_unicode_version(text.as_mut_ptr()) };
    // SAFETY: NUL-terminated by u_versionToString.
    let text = unsafe { CStr::from_ptr(text.as_ptr()) }.to_string_lossy();
    text.parse()
        .ok()
        .filter(|&version| version < crate::unicode::REFERENCE)
}

/// Whether `cps` begin with `xn--` in any case.
fn begins_with_ace_prefix(cps: &[u32]) -> bool {
    let bytes: Vec<u8> = cps.iter().take(4).map(|&cp| cp as u8).collect();
    cps.len() >= 4 && cps[..4].iter().all(|&cp| cp < 0x80) && label::has_ace_prefix(&bytes)
}

/// Whether a label of `cps` (a label, or a name) begins with `xn--` in
/// any case, after UTS #46's mapping (steps 1 and 2, which make U+FF61 a
/// separator and `ＸＮ` `xn`), or as written when mapping refuses it; the
/// name broken at the four separators (found by the `domain_diff_icu`
/// fuzz target: `.｡xn--xn--a1-lg4naaaa`, broken at U+002E only, hid its
/// third label).
fn a_label_begins_with_ace_prefix(cps: &[u32]) -> bool {
    let mapped: Option<Vec<u32>> = cps
        .iter()
        .map(|&cp| char::from_u32(cp))
        .collect::<Option<Vec<char>>>()
        .and_then(|chars| label::uts46::map_normalize(&chars).ok())
        .map(|chars| chars.into_iter().map(u32::from).collect());
    mapped
        .as_deref()
        .unwrap_or(cps)
        .split(|&cp| char::from_u32(cp).is_some_and(|c| crate::domain::SEPARATORS.contains(&c)))
        .any(begins_with_ace_prefix)
}

/// ICU has no CheckHyphens switch. (Its data is its own Unicode
/// version's, 15.0 for Debian's ICU 72: declared as its
/// [`Capabilities::unicode_version`], the class `unicode-version`.)
pub const DEVIATIONS: &[Deviation] = &[Deviation {
    id: "no-check-hyphens",
    reason: "ICU's uidna has no CheckHyphens switch (uidna.h: it always reports UIDNA_ERROR_LEADING_HYPHEN, TRAILING_HYPHEN and HYPHEN_3_4), so CheckHyphens=false is its caller masking those errors, and the error of a label that begins with xn-- (UTS #46 validity criterion 4, revision 31) goes with HYPHEN_3_4",
    explains: |request, reference, got| {
        let begins = match (request, got) {
            (Request::Encode { code_points, .. }, _) => a_label_begins_with_ace_prefix(code_points),
            (Request::Decode(_), Ok(Expected::Decoded(cps))) => {
                a_label_begins_with_ace_prefix(&cps.values)
            }
            _ => false,
        };
        matches!(reference, Expected::Error(_)) && got.is_ok() && begins
    },
}];

/// ICU's UTS #46 on one label, selected as `icu`.
#[derive(Clone, Copy, Debug, Default)]
pub struct IcuLabel {
    /// The profile whose switches it is called with.
    pub profile: LabelProfile,
}

/// ICU's UTS #46 on a whole domain name (`uidna_nameToASCII_UTF8`,
/// `uidna_nameToUnicodeUTF8`), selected as `icu` for the `domain` codec.
#[derive(Clone, Copy, Debug, Default)]
pub struct IcuDomain {
    /// The profile whose switches it is called with.
    pub profile: LabelProfile,
}

/// ICU's UTS #46 on `label` (or on a whole name when `name`), the errors
/// the profile's switches turn off masked.
fn call(
    profile: LabelProfile,
    name: bool,
    to_ascii: bool,
    label: &[u8],
) -> Result<Vec<u8>, EngineError> {
    let switches = profile.switches;
    let mut ignored = 0;
    if !switches.check_hyphens {
        ignored |= LEADING_HYPHEN | TRAILING_HYPHEN | HYPHEN_3_4;
    }
    if !switches.verify_dns_length || !to_ascii {
        ignored |= EMPTY_LABEL | LABEL_TOO_LONG | DOMAIN_NAME_TOO_LONG;
    }
    let length = i32::try_from(label.len())
        .map_err(|_| EngineError::Unsupported("longer than 2^31 bytes".into()))?;
    let mut dest = vec![0u8; 256.max(label.len() * 4)];
    loop {
        let (mut errors, mut status) = (0u32, 0 as c_int);
        let capacity = i32::try_from(dest.len()).unwrap_or(i32::MAX);
        // SAFETY: the pointers and lengths describe live buffers;
        // the shim writes at most `capacity` bytes to `dest`.
        let n = unsafe {
            punycheck_icu_label(
                c_int::from(name),
                c_int::from(to_ascii),
                c_int::from(switches.use_std3_ascii_rules),
                label.as_ptr().cast(),
                length,
                dest.as_mut_ptr().cast(),
                capacity,
                &mut errors,
                &mut status,
            )
        };
        // U_BUFFER_OVERFLOW_ERROR: ask again with room.
        if status == 15 && n > capacity {
            dest.resize(usize::try_from(n).unwrap_or(0) + 1, 0);
            continue;
        }
        if status > 0 {
            return Err(EngineError::Failed(format!("ICU error {status}")));
        }
        if errors & !ignored != 0 {
            return Err(EngineError::Failed(format!(
                "UIDNA_ERROR bits {:#x}",
                errors & !ignored
            )));
        }
        dest.truncate(usize::try_from(n).unwrap_or(0));
        return Ok(dest);
    }
}

/// Whether ICU's ToASCII of a name with a trailing separator answered
/// what the reference answers for the name without it, the dot kept:
/// the root label taken as one, under the profile with `CH` (CheckHyphens)
/// and `STD3` (UseSTD3ASCIIRules), VerifyDnsLength on.
fn root_label_kept<const CH: bool, const STD3: bool>(
    request: &Request,
    reference: &Expected,
    got: &Result<Expected, EngineError>,
) -> bool {
    let (Request::Encode { code_points, .. }, Expected::Error(_), Ok(Expected::Encoded(ascii))) =
        (request, reference, got)
    else {
        return false;
    };
    // The last separator, after which only code points that mapping
    // removes (U+00AD...) may follow: the name ends with a dot after
    // mapping.
    let Some(dot) = code_points.iter().rposition(|&cp| {
        char::from_u32(cp).is_some_and(|c| crate::domain::SEPARATORS.contains(&c))
    }) else {
        return false;
    };
    let (name, tail) = (&code_points[..dot], &code_points[dot + 1..]);
    let tail: Option<Vec<char>> = tail.iter().map(|&cp| char::from_u32(cp)).collect();
    if !tail.is_some_and(|t| crate::label::uts46::map_normalize(&t).is_ok_and(|m| m.is_empty())) {
        return false;
    }
    let profile = LabelProfile {
        rules: crate::label::LabelRules::Uts46,
        switches: crate::label::Switches {
            check_hyphens: CH,
            use_std3_ascii_rules: STD3,
            verify_dns_length: true,
            ..crate::label::Switches::STRICT
        },
    };
    ascii.strip_suffix(b".").is_some_and(|without| {
        crate::domain::to_ascii(profile, name)
            .is_ok_and(|want| want == without || differs_by_version(name, &want, without))
    })
}

/// Whether ICU's `got` for `name` differs from the reference's `want`
/// only in labels that hold a code point ICU's own Unicode version maps
/// otherwise (its UTS #46 mapping changed since, or it was unassigned):
/// there ICU answers as its version says it would (U+1E9E was `ss`
/// before 15.1); every other label must be the reference's. Where
/// mapping made or removed a separator, so that the labels do not line
/// up, the name as a whole must hold such a code point.
fn differs_by_version(name: &[u32], want: &[u8], got: &[u8]) -> bool {
    let Some(version) = unicode_version() else {
        return false;
    };
    let explained = |cps: &[u32]| crate::unicode::known_otherwise(cps, version);
    let labels: Vec<&[u32]> = name
        .split(|&cp| char::from_u32(cp).is_some_and(|c| crate::domain::SEPARATORS.contains(&c)))
        .collect();
    let wanted: Vec<&[u8]> = want.split(|&b| b == b'.').collect();
    let answered: Vec<&[u8]> = got.split(|&b| b == b'.').collect();
    if labels.len() != wanted.len() || wanted.len() != answered.len() {
        return explained(name);
    }
    labels
        .iter()
        .zip(wanted.iter().zip(&answered))
        .all(|(label, (w, a))| w == a || explained(label))
}

/// ICU takes a trailing empty label for the root.
const fn root_label(
    explains: fn(&Request, &Expected, &Result<Expected, EngineError>) -> bool,
) -> Deviation {
    Deviation {
        id: "root-label",
        reason: "ICU's nameToASCII takes a trailing empty label for the root label and reports no error for it (uidna.h: UIDNA_ERROR_EMPTY_LABEL is \"a non-final domain name label (or the whole domain name) is empty\"; uts46.cpp's note: 253 octets, or 254 with the trailing dot), where Unicode's test data reads UTS #46 section 4.2's VerifyDnsLength as refusing the root label too (IdnaTestV2.txt: a.b.c.d. is A4_2)",
        explains,
    }
}

/// Where ICU's whole-name processing parts from the reference, for each
/// CheckHyphens and UseSTD3ASCIIRules: with VerifyDnsLength, the root
/// label; without CheckHyphens, the label's `no-check-hyphens` too.
fn domain_deviations(switches: crate::label::Switches) -> &'static [Deviation] {
    const TT: &[Deviation] = &[root_label(root_label_kept::<true, true>)];
    const TF: &[Deviation] = &[root_label(root_label_kept::<true, false>)];
    const FT: &[Deviation] = &[root_label(root_label_kept::<false, true>), DEVIATIONS[0]];
    const FF: &[Deviation] = &[root_label(root_label_kept::<false, false>), DEVIATIONS[0]];
    match (
        switches.verify_dns_length,
        switches.check_hyphens,
        switches.use_std3_ascii_rules,
    ) {
        (false, true, _) => &[],
        (false, false, _) => DEVIATIONS,
        (true, true, true) => TT,
        (true, true, false) => TF,
        (true, false, true) => FT,
        (true, false, false) => FF,
    }
}

impl Engine for IcuLabel {
    fn name(&self) -> &str {
        "icu"
    }

    fn codec(&self) -> Codec {
        Codec::Label(self.profile)
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            deviations: DEVIATIONS,
            unicode_version: unicode_version(),
            ..capabilities()
        }
    }

    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
        call(
            self.profile,
            false,
            true,
            label_text(input, case_flags)?.as_bytes(),
        )
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        decoded_text(call(self.profile, false, false, input)?, "ICU")
    }
}

impl Engine for IcuDomain {
    fn name(&self) -> &str {
        "icu"
    }

    fn codec(&self) -> Codec {
        Codec::Domain(self.profile)
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            deviations: domain_deviations(self.profile.switches),
            unicode_version: unicode_version(),
            ..domain_capabilities()
        }
    }

    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
        call(
            self.profile,
            true,
            true,
            label_text(input, case_flags)?.as_bytes(),
        )
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        decoded_text(call(self.profile, true, false, input)?, "ICU")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cps(text: &str) -> Vec<u32> {
        text.chars().map(u32::from).collect()
    }

    /// Which labels `no-check-hyphens` takes for ones that begin with
    /// `xn--`: after UTS #46's mapping, the name broken at its separators.
    #[test]
    fn a_label_beginning_with_the_ace_prefix_is_found_in_any_label() {
        // The domain_diff_icu fuzz target's input: U+FF61 separates.
        assert!(a_label_begins_with_ace_prefix(&cps(
            ".\u{FF61}xn--xn--a1-lg4naaaa"
        )));
        // Fullwidth XN maps to xn (IdnaMappingTable: FF38, FF2E mapped).
        assert!(a_label_begins_with_ace_prefix(&cps(
            "a.\u{FF38}\u{FF2E}--b"
        )));
        assert!(a_label_begins_with_ace_prefix(&cps("XN--a")));
        assert!(!a_label_begins_with_ace_prefix(&cps("a.bxn--c")));
        // Mapping refuses U+2488: the name as written, broken all the same.
        assert!(a_label_begins_with_ace_prefix(&cps("\u{2488}.xn--a")));
        assert!(!a_label_begins_with_ace_prefix(&cps("\u{2488}.a")));
    }

    /// The domain_diff_icu fuzz target's `ẞ.` under VerifyDnsLength: ICU
    /// keeps the root label (its `root-label`) and, before Unicode 15.1,
    /// maps U+1E9E to `ss` where the reference has `ß`. Both explain its
    /// `ss.`; a wrong label beside it is not explained.
    #[test]
    fn the_root_label_kept_is_seen_through_an_older_mapping() {
        let old_mapping = unicode_version().is_some_and(|v| v < "15.1".parse().unwrap());
        let ask = |text: &str, got: &str| {
            root_label_kept::<true, true>(
                &Request::Encode {
                    code_points: cps(text),
                    flags: None,
                },
                &Expected::Error(crate::punycode::ErrorKind::BadInput),
                &Ok(Expected::Encoded(got.as_bytes().to_vec())),
            )
        };
        assert_eq!(ask("\u{1E9E}.", "ss."), old_mapping);
        assert_eq!(ask("a.\u{1E9E}.", "a.ss."), old_mapping);
        assert!(!ask("b.\u{1E9E}.", "a.ss."));
        assert!(ask("a.b.", "a.b."));
        assert!(!ask("a.b.", "a.c."));
    }
}

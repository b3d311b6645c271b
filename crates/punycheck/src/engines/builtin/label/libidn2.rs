//! libidn2's IDNA2008 lookup (`idn2_lookup_u8` and `idn2_to_unicode_8z8z`
//! with `IDN2_NO_TR46`) through `csrc/idn2_punycode_shim.c`, with the
//! cargo feature `libidn2`.

use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_int, c_void};

use super::{capabilities, decoded_text, domain_capabilities, label_text};
use crate::codec::Codec;
use crate::domain::{self, DomainError, Refusal};
use crate::engines::{Capabilities, DecodeResult, Deviation, EncodeResult, Engine, EngineError};
use crate::label::{self, LabelError, LabelProfile, LabelRules, Switches};
use crate::unicode::UnicodeVersion;
use crate::vocabulary::{Expected, Request};

unsafe extern "C" {
    fn punycheck_idn2_lookup(label: *const c_char, output: *mut *mut c_char) -> c_int;
    fn punycheck_idn2_to_unicode(label: *const c_char, output: *mut *mut c_char) -> c_int;
    fn punycheck_idn2_free(pointer: *mut c_void);
    fn punycheck_idn2_error_name(status: c_int) -> *const c_char;
}

/// IDNA2008 with every switch on: what libidn2's deviations are read
/// against, whatever the profile it is judged under.
const STRICT: LabelProfile = LabelProfile {
    rules: LabelRules::Idna2008,
    switches: Switches::STRICT,
};

/// Whether libidn2 answered what the reference refused, where the strict
/// IDNA2008 reference of `codec` (the label's, `Codec::Label`, or the
/// name's, `Codec::Domain`) refuses it by a rule that `rule` picks: one
/// that libidn2's lookup leaves out.
fn accepts_despite(
    codec: fn(LabelProfile) -> Codec,
    request: &Request,
    reference: &Expected,
    got: &Result<Expected, EngineError>,
    rule: fn(&Refusal) -> bool,
) -> bool {
    matches!(reference, Expected::Error(_))
        && got.is_ok()
        && domain::refusal(codec(STRICT), request).is_some_and(|refusal| rule(&refusal))
}

/// A CONTEXTO rule, on any label ([`accepts_despite`]'s `rule`).
fn contexto(refusal: &Refusal) -> bool {
    matches!(refusal.label_error(), Some(LabelError::ContextO(_)))
}

/// RFC 5893 condition 4 within a label.
fn bidi_en_and_an(refusal: &Refusal) -> bool {
    matches!(refusal.label_error(), Some(LabelError::Bidi(4)))
}

/// A hyphen-minus first or last.
fn hyphen_at_end(refusal: &Refusal) -> bool {
    matches!(refusal.label_error(), Some(LabelError::HyphenAtEnd))
}

/// What UseSTD3ASCIIRules or CheckHyphens refuses in an LDH label: a
/// non-LDH code point, hyphen-minus in the third and fourth positions.
fn ldh_rule(error: &LabelError) -> bool {
    matches!(error, LabelError::NotLdh(_) | LabelError::HyphensAt3And4)
}

/// Whether libidn2's lookup takes `request` for an A-label only as
/// written: a label, to decode or (ASCII) to encode, whose ACE prefix is
/// not in lowercase, or whose Punycode holds an uppercase letter.
fn cased_a_label(request: &Request) -> bool {
    let bytes: Vec<u8> = match request {
        Request::Decode(bytes) => bytes.clone(),
        Request::Encode { code_points, .. } => {
            match code_points
                .iter()
                .map(|&cp| u8::try_from(cp).ok().filter(u8::is_ascii))
                .collect()
            {
                Some(ascii) => ascii,
                None => return false,
            }
        }
    };
    label::has_ace_prefix(&bytes)
        && (!bytes.starts_with(b"xn--") || bytes.iter().any(u8::is_ascii_uppercase))
}

/// Where libidn2 2.3.3's lookup parts from the reference, each read in
/// its source (lib/lookup.c at v2.3.3, and its NEWS); found by
/// `punycheck --codec label --label-rules idna2008`.
pub const DEVIATIONS: &[Deviation] = &[
    Deviation {
        id: "a-label-case",
        reason: "BUG: libidn2 2.3.3's idn2_lookup_u8 recognizes an A-label by memcmp(src, \"xn--\", 4) (lib/lookup.c 141-142), so an XN-- or Xn-- label is copied out unchecked as plain ASCII (172-181), and decodes an xn-- one as written (153) where RFC 5891 section 5.3 lowercases it first, so an uppercase basic letter is DISALLOWED",
        explains: |request, _, _| cased_a_label(request),
    },
    Deviation {
        id: "contexto-on-lookup",
        reason: "libidn2's lookup tests that a CONTEXTO code point has a rule but does not apply it (TEST_CONTEXTO_WITH_RULE, lib/lookup.c 196; the rule runs only when registering), as RFC 5891 section 5.4 allows on lookup; the reference applies RFC 5892's rules A.3 to A.9",
        explains: |request, reference, got| {
            accepts_despite(Codec::Label, request, reference, got, contexto)
        },
    },
    Deviation {
        id: "bidi-en-and-an",
        reason: "BUG: libidn2 2.3.3's _idn2_bidi (lib/bidi.c 91-117, the same on its master branch) checks an RTL label's code points and its end but never RFC 5893 section 2 condition 4, so an RTL label with both EN and AN (U+05D0 1 U+0660) passes",
        explains: |request, reference, got| {
            accepts_despite(Codec::Label, request, reference, got, bidi_en_and_an)
        },
    },
    Deviation {
        id: "ldh-on-lookup",
        reason: "libidn2's lookup copies an ASCII label that does not begin with xn-- out as it is (lib/lookup.c 139-182, the memcpy at 179) with none of its label tests: IDNA2008 converts U-labels and A-labels and leaves an LDH label to the DNS (RFC 5890 section 2.3.1); the reference refuses a hyphen-minus in the third and fourth positions with CheckHyphens, and a code point other than a letter, digit or hyphen-minus with UseSTD3ASCIIRules",
        explains: |request, reference, got| {
            let Request::Encode { code_points, .. } = request else {
                return false;
            };
            let ascii: Option<Vec<u8>> = code_points
                .iter()
                .map(|&cp| u8::try_from(cp).ok().filter(u8::is_ascii))
                .collect();
            ascii.is_some_and(|ascii| !label::has_ace_prefix(&ascii))
                && accepts_despite(Codec::Label, request, reference, got, |r| {
                    r.label_error().is_some_and(ldh_rule)
                })
        },
    },
    Deviation {
        id: "hyphens-on-lookup",
        reason: "libidn2's lookup allows a hyphen-minus first or last (its label tests, lib/lookup.c 191-203, have no TEST_HYPHEN_STARTEND), as RFC 5891 section 5.4 does; the reference refuses it with CheckHyphens (the registration rule of section 4.2.3.1)",
        explains: |request, reference, got| {
            accepts_despite(Codec::Label, request, reference, got, hyphen_at_end)
        },
    },
];

/// The Unicode version of libidn2 2.3.3's IDNA2008 tables (its NEWS:
/// "Upgrade IDNA Tables from Unicode 11 to 12"): a code point assigned
/// since is IDN2_UNASSIGNED there, the class `unicode-version`.
pub const UNICODE_VERSION: UnicodeVersion = UnicodeVersion {
    major: 12,
    minor: 0,
};

/// libidn2's IDNA2008 lookup on one label, selected as `libidn2`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Libidn2Label {
    /// The profile it is judged under.
    pub profile: LabelProfile,
}

/// Calls `f` on `label` as a C string: its answer, or the name of the
/// IDN2 status it refused with.
fn call(
    f: unsafe extern "C" fn(*const c_char, *mut *mut c_char) -> c_int,
    label: &[u8],
) -> Result<Vec<u8>, EngineError> {
    let label = CString::new(label)
        .map_err(|_| EngineError::Unsupported("a NUL inside the label".into()))?;
    let mut output: *mut c_char = std::ptr::null_mut();
    // SAFETY: `label` is NUL-terminated; libidn2 allocates `output` on
    // success, which is read once and freed by libidn2's own free.
    let status = unsafe { f(label.as_ptr(), &mut output) };
    if status != 0 {
        // SAFETY: idn2_strerror_name returns a static string.
        let name = unsafe { CStr::from_ptr(punycheck_idn2_error_name(status)) };
        return Err(EngineError::Failed(name.to_string_lossy().into_owned()));
    }
    // SAFETY: on success `output` is a NUL-terminated string libidn2
    // allocated.
    let answer = unsafe { CStr::from_ptr(output) }.to_bytes().to_vec();
    unsafe { punycheck_idn2_free(output.cast()) };
    Ok(answer)
}

impl Engine for Libidn2Label {
    fn name(&self) -> &str {
        "libidn2"
    }

    fn codec(&self) -> Codec {
        Codec::Label(self.profile)
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            deviations: DEVIATIONS,
            unicode_version: Some(UNICODE_VERSION),
            ..capabilities()
        }
    }

    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
        lookup(input, case_flags)
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        // Decoded lowercased (RFC 5891 section 5.3 lowercases an A-label
        // first).
        validated_to_unicode(input, &input.to_ascii_lowercase())
    }
}

/// `idn2_lookup_u8` of the text `input`.
fn lookup(input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
    call(
        punycheck_idn2_lookup,
        label_text(input, case_flags)?.as_bytes(),
    )
}

/// `input` validated by lookup (`idn2_to_unicode_8z8z` checks no U-label),
/// then `prepared` (`input` with its A-labels lowercased) decoded.
fn validated_to_unicode(input: &[u8], prepared: &[u8]) -> DecodeResult {
    call(punycheck_idn2_lookup, input)?;
    let answer = call(punycheck_idn2_to_unicode, prepared)?;
    decoded_text(answer, "libidn2")
}

/// The labels of the name `request` asks about (broken at U+002E, the
/// one separator of IDNA2008 and of libidn2), as requests of one label.
fn labels_of(request: &Request) -> Vec<Request> {
    match request {
        Request::Decode(bytes) => bytes
            .split(|&b| b == b'.')
            .map(|l| Request::Decode(l.to_vec()))
            .collect(),
        Request::Encode { code_points, .. } => code_points
            .split(|&cp| cp == u32::from(b'.'))
            .map(|l| Request::Encode {
                code_points: l.to_vec(),
                flags: None,
            })
            .collect(),
    }
}

/// Where libidn2 2.3.3's lookup of a whole name parts from the reference:
/// its label deviations ([`DEVIATIONS`]) on any label of the name, and
/// what it does with the name itself, each read in lib/lookup.c and
/// lib/bidi.c at v2.3.3.
pub const DOMAIN_DEVIATIONS: &[Deviation] = &[
    Deviation {
        id: "a-label-case",
        reason: DEVIATIONS[0].reason,
        explains: |request, _, _| labels_of(request).iter().any(cased_a_label),
    },
    Deviation {
        id: "contexto-on-lookup",
        reason: DEVIATIONS[1].reason,
        explains: |request, reference, got| {
            accepts_despite(Codec::Domain, request, reference, got, contexto)
        },
    },
    Deviation {
        id: "bidi-en-and-an",
        reason: DEVIATIONS[2].reason,
        explains: |request, reference, got| {
            accepts_despite(Codec::Domain, request, reference, got, bidi_en_and_an)
        },
    },
    Deviation {
        id: "ldh-on-lookup",
        reason: DEVIATIONS[3].reason,
        explains: |request, reference, got| {
            accepts_despite(Codec::Domain, request, reference, got, |r| {
                matches!(r, Refusal::Domain(DomainError::Label { text, error, .. })
                    if text.is_ascii() && !label::has_ace_prefix(text.as_bytes()) && ldh_rule(error))
            })
        },
    },
    Deviation {
        id: "hyphens-on-lookup",
        reason: DEVIATIONS[4].reason,
        explains: |request, reference, got| {
            accepts_despite(Codec::Domain, request, reference, got, hyphen_at_end)
        },
    },
    Deviation {
        id: "bidi-label-by-label",
        reason: "BUG: libidn2 2.3.3's _idn2_bidi returns at once for a label with no R, AL or AN code point (lib/bidi.c 41-51 and 61-62, the same on its master branch), so in a Bidi domain name its other labels are never held to RFC 5893 section 2, which says every label of a Bidi domain name meets the six conditions: 2.xn--4db (2 beside \u{5D0}) passes",
        explains: |request, reference, got| {
            accepts_despite(Codec::Domain, request, reference, got, |r| {
                matches!(r, Refusal::Domain(DomainError::BidiAcrossLabels { .. }))
            })
        },
    },
    Deviation {
        id: "empty-labels",
        reason: "libidn2's lookup has no VerifyDnsLength: it breaks the name at each U+002E (lib/lookup.c 565) and copies an empty label out as an empty ASCII one (label(), 139 and 179), so a..b, .a and the empty name are looked up; the reference, with VerifyDnsLength, takes only the root label empty (RFC 1034 section 3.1)",
        explains: |request, reference, got| {
            accepts_despite(Codec::Domain, request, reference, got, |r| {
                matches!(
                    r,
                    Refusal::Domain(DomainError::EmptyLabel { root: false, .. })
                )
            })
        },
    },
    Deviation {
        id: "lookup-lengths-on-decode",
        reason: "punycheck's libidn2 ToUnicode validates a name with idn2_lookup_u8 (idn2_to_unicode_8z8z checks no U-label), whose ASCII lengths then apply too (IDN2_TOO_BIG_LABEL and IDN2_TOO_BIG_DOMAIN, lib/lookup.c 177 and 583-594; IDN2_PUNYCODE_BIG_OUTPUT for a label past 63 octets); ToUnicode has no length rule, and the reference's ToASCII of its answer is refused by one (a label or the name too long, an empty label)",
        explains: |request, reference, got| {
            let (Request::Decode(_), Expected::Decoded(cps)) = (request, reference) else {
                return false;
            };
            let length_status = matches!(got, Err(EngineError::Failed(name))
                if ["IDN2_TOO_BIG_LABEL", "IDN2_TOO_BIG_DOMAIN", "IDN2_PUNYCODE_BIG_OUTPUT"]
                    .contains(&name.as_str()));
            let again = Request::Encode {
                code_points: cps.values.clone(),
                flags: None,
            };
            length_status
                && domain::refusal(Codec::Domain(STRICT), &again).is_some_and(|e| {
                    matches!(e.rule(), "dns-length" | "name-length" | "empty-label")
                })
        },
    },
];

/// libidn2's IDNA2008 lookup on a whole name (`idn2_lookup_u8`, which
/// breaks the name at U+002E itself, and `idn2_to_unicode_8z8z`),
/// selected as `libidn2` for the `domain` codec.
#[derive(Clone, Copy, Debug, Default)]
pub struct Libidn2Domain {
    /// The profile it is judged under.
    pub profile: LabelProfile,
}

impl Engine for Libidn2Domain {
    fn name(&self) -> &str {
        "libidn2"
    }

    fn codec(&self) -> Codec {
        Codec::Domain(self.profile)
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            deviations: DOMAIN_DEVIATIONS,
            unicode_version: Some(UNICODE_VERSION),
            ..domain_capabilities()
        }
    }

    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
        lookup(input, case_flags)
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        // Each A-label lowercased (RFC 5891 section 5.3), the other labels
        // as they are.
        let lowered: Vec<u8> = input
            .split(|&b| b == b'.')
            .map(|l| {
                if label::has_ace_prefix(l) {
                    l.to_ascii_lowercase()
                } else {
                    l.to_vec()
                }
            })
            .collect::<Vec<_>>()
            .join(&b'.');
        validated_to_unicode(input, &lowered)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The name's deviations borrow the label's reasons by their place in
    /// [`DEVIATIONS`]: each must stand at the place of its namesake.
    #[test]
    fn the_names_deviations_borrow_their_namesakes_reasons() {
        for (name, label) in DOMAIN_DEVIATIONS.iter().zip(DEVIATIONS) {
            assert_eq!(name.id, label.id);
            assert_eq!(name.reason, label.reason);
        }
    }
}

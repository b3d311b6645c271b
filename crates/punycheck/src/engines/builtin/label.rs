//! The built-in implementations of the `label` codec (ToASCII and
//! ToUnicode of one label): punycheck's reference ([`crate::label`]) and
//! the `idna` crate's UTS #46.

use crate::codec::Codec;
use crate::engines::{
    Capabilities, CodePointDomain, DecodeResult, Directions, EncodeResult, Engine, EngineError,
    ErrorDetail, PunycodeInput,
};
use crate::label::{self, LabelProfile, LabelRules};
use crate::punycode::{CaseFlags, Decoded, ErrorKind};

/// What both take: one label a question ([`PunycodeInput::LabelLine`]),
/// Unicode scalar values, no annotations, failures without an RFC 3492
/// kind.
fn capabilities() -> Capabilities {
    Capabilities {
        domain: CodePointDomain::UnicodeScalar,
        annotations: false,
        errors: ErrorDetail::FailureOnly,
        punycode_input: PunycodeInput::LabelLine,
        max_encode_input: None,
        max_decode_input: None,
        bound_answers: Default::default(),
        directions: Directions::Both,
        deviations: &[],
    }
}

/// How the reference refuses a label: as an answer of the harness's
/// vocabulary (an error), whose reason [`crate::label::LabelError`] gives
/// where a report needs it ([`crate::harness::compare`]).
const REFUSED: EngineError = EngineError::Rejected(Some(ErrorKind::BadInput));

/// A U-label to encode as text, for a library that takes `&str`.
fn label_text(input: &[u32], case_flags: Option<&[bool]>) -> Result<String, EngineError> {
    if case_flags.is_some() {
        return Err(EngineError::Unsupported("no annotation support".into()));
    }
    input
        .iter()
        .map(|&cp| char::from_u32(cp))
        .collect::<Option<String>>()
        .ok_or_else(|| EngineError::Unsupported("not a Unicode scalar value".into()))
}

fn decoded(code_points: Vec<u32>) -> Decoded {
    Decoded {
        flags: CaseFlags::unset(code_points.len()),
        code_points,
    }
}

/// punycheck's own A-label layer ([`crate::label`]) under one profile,
/// selected as `label-ref`: the reference of the `label` codec.
#[derive(Clone, Copy, Debug, Default)]
pub struct LabelReference {
    /// The profile it judges by.
    pub profile: LabelProfile,
}

impl Engine for LabelReference {
    fn name(&self) -> &str {
        "label-ref"
    }

    fn codec(&self) -> Codec {
        Codec::Label(self.profile)
    }

    fn capabilities(&self) -> Capabilities {
        capabilities()
    }

    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
        if case_flags.is_some() {
            return Err(EngineError::Unsupported("no annotation support".into()));
        }
        label::to_ascii(self.profile, input).map_err(|_| REFUSED)
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        label::to_unicode(self.profile, input)
            .map(decoded)
            .map_err(|_| REFUSED)
    }
}

/// The `idna` crate's UTS #46 (`idna::uts46::Uts46`) on one label,
/// selected as `idna`, with the profile's switches mapped onto its
/// arguments: CheckHyphens to `Hyphens::Check` or `Allow`,
/// UseSTD3ASCIIRules to `AsciiDenyList::STD3` or `EMPTY`, VerifyDnsLength
/// to `DnsLength::Verify` or `Ignore`. It implements UTS #46 only.
#[derive(Clone, Copy, Debug, Default)]
pub struct IdnaLabel {
    /// The profile whose switches it is called with.
    pub profile: LabelProfile,
}

impl IdnaLabel {
    fn arguments(&self) -> (idna::uts46::AsciiDenyList, idna::uts46::Hyphens) {
        let switches = self.profile.switches;
        let deny = if switches.use_std3_ascii_rules {
            idna::uts46::AsciiDenyList::STD3
        } else {
            idna::uts46::AsciiDenyList::EMPTY
        };
        let hyphens = if switches.check_hyphens {
            idna::uts46::Hyphens::Check
        } else {
            idna::uts46::Hyphens::Allow
        };
        (deny, hyphens)
    }
}

impl Engine for IdnaLabel {
    fn name(&self) -> &str {
        "idna"
    }

    fn codec(&self) -> Codec {
        Codec::Label(self.profile)
    }

    fn capabilities(&self) -> Capabilities {
        capabilities()
    }

    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
        let text = label_text(input, case_flags)?;
        let (deny, hyphens) = self.arguments();
        let length = if self.profile.switches.verify_dns_length {
            idna::uts46::DnsLength::Verify
        } else {
            idna::uts46::DnsLength::Ignore
        };
        match idna::uts46::Uts46::new().to_ascii(text.as_bytes(), deny, hyphens, length) {
            Ok(ascii) => Ok(ascii.into_owned().into_bytes()),
            Err(_) => Err(EngineError::Failed("idna::uts46 ToASCII: error".into())),
        }
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        let (deny, hyphens) = self.arguments();
        match idna::uts46::Uts46::new().to_unicode(input, deny, hyphens) {
            (text, Ok(())) => Ok(decoded(text.chars().map(u32::from).collect())),
            (_, Err(_)) => Err(EngineError::Failed("idna::uts46 ToUnicode: error".into())),
        }
    }
}

/// The built-ins of the `label` codec under `profile`, the reference
/// first; the `idna` crate and ICU where the rules are UTS #46's, libidn2
/// where they are IDNA2008's.
pub fn builtin(profile: LabelProfile) -> Vec<Box<dyn Engine>> {
    let mut all: Vec<Box<dyn Engine>> = vec![Box::new(LabelReference { profile })];
    match profile.rules {
        LabelRules::Uts46 => {
            all.push(Box::new(IdnaLabel { profile }));
            #[cfg(feature = "icu")]
            all.push(Box::new(icu::IcuLabel { profile }));
        }
        LabelRules::Idna2008 => {
            #[cfg(feature = "libidn2")]
            all.push(Box::new(libidn2::Libidn2Label { profile }));
        }
        LabelRules::Idna2003 => {}
    }
    all
}

#[cfg(feature = "libidn2")]
pub use libidn2::Libidn2Label;

/// libidn2's IDNA2008 lookup (`idn2_lookup_u8` and `idn2_to_unicode_8z8z`
/// with `IDN2_NO_TR46`) through `csrc/idn2_punycode_shim.c`, with the
/// cargo feature `libidn2`.
#[cfg(feature = "libidn2")]
mod libidn2 {
    use std::ffi::{CStr, CString};
    use std::os::raw::{c_char, c_int, c_void};

    use super::{capabilities, decoded, label_text};
    use crate::codec::Codec;
    use crate::engines::{
        Capabilities, DecodeResult, Deviation, EncodeResult, Engine, EngineError,
    };
    use crate::label::{self, LabelError, LabelProfile, LabelRules, Switches};
    use crate::vocabulary::{Expected, Request};

    unsafe extern "C" {
        fn punycheck_idn2_lookup(label: *const c_char, output: *mut *mut c_char) -> c_int;
        fn punycheck_idn2_to_unicode(label: *const c_char, output: *mut *mut c_char) -> c_int;
        fn punycheck_idn2_free(pointer: *mut c_void);
        fn punycheck_idn2_error_name(status: c_int) -> *const c_char;
    }

    /// The rule by which the IDNA2008 reference, every switch on, refuses
    /// `request`.
    fn strict_refusal(request: &Request) -> Option<LabelError> {
        let profile = LabelProfile {
            rules: LabelRules::Idna2008,
            switches: Switches::STRICT,
        };
        match request {
            Request::Encode { code_points, .. } => label::to_ascii(profile, code_points).err(),
            Request::Decode(bytes) => label::to_unicode(profile, bytes).err(),
        }
    }

    fn said(got: &Result<Expected, EngineError>, name: &str) -> bool {
        matches!(got, Err(EngineError::Failed(why)) if why == name)
    }

    /// Whether libidn2's lookup takes `request` for an A-label only as
    /// written: a decode question whose ACE prefix is not in lowercase, or
    /// whose Punycode holds an uppercase letter.
    fn cased_a_label(request: &Request) -> bool {
        let Request::Decode(bytes) = request else {
            return false;
        };
        label::has_ace_prefix(bytes)
            && (!bytes.starts_with(b"xn--") || bytes.iter().any(u8::is_ascii_uppercase))
    }

    /// Where libidn2 2.3.3's lookup parts from the reference, each read in
    /// its source (lib/lookup.c at v2.3.3, and its NEWS); found by
    /// `punycheck --codec label --label-rules idna2008`.
    pub const DEVIATIONS: &[Deviation] = &[
        Deviation {
            id: "a-label-case",
            reason: "BUG: libidn2 2.3.3's idn2_lookup_u8 recognizes an A-label by memcmp(src, \"xn--\", 4) (lib/lookup.c 141-142), so an XN-- or Xn-- label is copied out unchecked as plain ASCII (170-179), and decodes an xn-- one as written (153) where RFC 5891 section 5.3 lowercases it first, so an uppercase basic letter is DISALLOWED",
            explains: |request, _, _| cased_a_label(request),
        },
        Deviation {
            id: "contexto-on-lookup",
            reason: "libidn2's lookup tests that a CONTEXTO code point has a rule but does not apply it (TEST_CONTEXTO_WITH_RULE, lib/lookup.c 194), as RFC 5891 section 5.4 allows on lookup; the reference applies RFC 5892's rules A.3 to A.9",
            explains: |request, reference, got| {
                matches!(reference, Expected::Error(_))
                    && got.is_ok()
                    && matches!(strict_refusal(request), Some(LabelError::ContextO(_)))
            },
        },
        Deviation {
            id: "hyphens-on-lookup",
            reason: "libidn2's lookup allows a hyphen-minus first or last (its label tests, lib/lookup.c 188-198, have TEST_2HYPHEN only), as RFC 5891 section 5.4 does; the reference refuses it with CheckHyphens (the registration rule of section 4.2.3.1)",
            explains: |request, reference, got| {
                matches!(reference, Expected::Error(_))
                    && got.is_ok()
                    && matches!(strict_refusal(request), Some(LabelError::HyphenAtEnd))
            },
        },
        Deviation {
            id: "unicode-version",
            reason: "libidn2 2.3.3's IDNA2008 tables are Unicode 12's (its NEWS): a code point assigned since is IDN2_UNASSIGNED there, where the reference's later data has it",
            explains: |_, reference, got| {
                !matches!(reference, Expected::Error(_)) && said(got, "IDN2_UNASSIGNED")
            },
        },
    ];

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
                ..capabilities()
            }
        }

        fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
            call(
                punycheck_idn2_lookup,
                label_text(input, case_flags)?.as_bytes(),
            )
        }

        fn decode(&self, input: &[u8]) -> DecodeResult {
            // Validated by lookup, then decoded lowercased (RFC 5891
            // section 5.3 lowercases an A-label first).
            call(punycheck_idn2_lookup, input)?;
            let answer = call(punycheck_idn2_to_unicode, &input.to_ascii_lowercase())?;
            let text = String::from_utf8(answer).map_err(|_| {
                EngineError::Broken("libidn2 answered bytes that are not UTF-8".into())
            })?;
            Ok(decoded(text.chars().map(u32::from).collect()))
        }
    }
}

#[cfg(feature = "icu")]
pub use icu::IcuLabel;

/// ICU's UTS #46 (`uidna_openUTS46`, `uidna_labelToASCII_UTF8`,
/// `uidna_labelToUnicodeUTF8`) through `csrc/icu_punycode_shim.c`, with the
/// cargo feature `icu`.
#[cfg(feature = "icu")]
mod icu {
    use std::os::raw::{c_char, c_int};

    use super::{capabilities, decoded, label_text};
    use crate::codec::Codec;
    use crate::engines::{
        Capabilities, DecodeResult, Deviation, EncodeResult, Engine, EngineError,
    };
    use crate::label::{self, LabelProfile};
    use crate::vocabulary::{Expected, Request};

    unsafe extern "C" {
        fn punycheck_icu_label(
            to_ascii: c_int,
            std3: c_int,
            label: *const c_char,
            length: i32,
            dest: *mut c_char,
            capacity: i32,
            errors: *mut u32,
            status: *mut c_int,
        ) -> i32;
        fn punycheck_icu_unassigned(c: i32) -> c_int;
    }

    // UIDNA_ERROR_* bits of <unicode/uidna.h> that the caller's switches
    // turn off: ICU reports them always.
    const EMPTY_LABEL: u32 = 1;
    const LABEL_TOO_LONG: u32 = 2;
    const DOMAIN_NAME_TOO_LONG: u32 = 4;
    const LEADING_HYPHEN: u32 = 8;
    const TRAILING_HYPHEN: u32 = 0x10;
    const HYPHEN_3_4: u32 = 0x20;

    /// Whether ICU's own Unicode data lacks a code point of the label (or
    /// of what the reference decodes it to), which its UTS #46 then
    /// refuses as disallowed.
    fn unknown_to_icu(request: &Request, reference: &Expected) -> bool {
        let unassigned = |cp: u32| unsafe { punycheck_icu_unassigned(cp as i32) } != 0;
        let in_request = match request {
            Request::Encode { code_points, .. } => code_points.iter().any(|&cp| unassigned(cp)),
            Request::Decode(_) => false,
        };
        let in_answer = match reference {
            Expected::Decoded(cps) => cps.values.iter().any(|&cp| unassigned(cp)),
            _ => false,
        };
        in_request || in_answer
    }

    /// Whether `cps` begin with `xn--` in any case.
    fn begins_with_ace_prefix(cps: &[u32]) -> bool {
        let bytes: Vec<u8> = cps.iter().take(4).map(|&cp| cp as u8).collect();
        cps.len() >= 4 && cps[..4].iter().all(|&cp| cp < 0x80) && label::has_ace_prefix(&bytes)
    }

    /// ICU's data is the Unicode version of the ICU installed (15.0 for
    /// Debian's ICU 72): a code point assigned since is disallowed there.
    /// And ICU has no CheckHyphens switch.
    pub const DEVIATIONS: &[Deviation] = &[
        Deviation {
            id: "unicode-version",
            reason: "ICU's UTS #46 data is its own Unicode version's (15.0 in ICU 72): a code point assigned since is unassigned there, so disallowed, where the reference's later data has it valid",
            explains: |request, reference, got| {
                matches!(reference, Expected::Decoded(_) | Expected::Encoded(_))
                    && matches!(got, Err(EngineError::Failed(_)))
                    && unknown_to_icu(request, reference)
            },
        },
        Deviation {
            id: "no-check-hyphens",
            reason: "ICU's uidna has no CheckHyphens switch (uidna.h: it always reports UIDNA_ERROR_LEADING_HYPHEN, TRAILING_HYPHEN and HYPHEN_3_4), so CheckHyphens=false is its caller masking those errors, and the error of a label that begins with xn-- (UTS #46 validity criterion 4, revision 31) goes with HYPHEN_3_4",
            explains: |request, reference, got| {
                let begins = match (request, got) {
                    (Request::Encode { code_points, .. }, _) => begins_with_ace_prefix(code_points),
                    (Request::Decode(_), Ok(Expected::Decoded(cps))) => {
                        begins_with_ace_prefix(&cps.values)
                    }
                    _ => false,
                };
                matches!(reference, Expected::Error(_)) && got.is_ok() && begins
            },
        },
    ];

    /// ICU's UTS #46 on one label, selected as `icu`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct IcuLabel {
        /// The profile whose switches it is called with.
        pub profile: LabelProfile,
    }

    impl IcuLabel {
        fn call(&self, to_ascii: bool, label: &[u8]) -> Result<Vec<u8>, EngineError> {
            let switches = self.profile.switches;
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
                ..capabilities()
            }
        }

        fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
            self.call(true, label_text(input, case_flags)?.as_bytes())
        }

        fn decode(&self, input: &[u8]) -> DecodeResult {
            let answer = self.call(false, input)?;
            let text = String::from_utf8(answer)
                .map_err(|_| EngineError::Broken("ICU answered bytes that are not UTF-8".into()))?;
            Ok(decoded(text.chars().map(u32::from).collect()))
        }
    }
}

//! The built-in implementations of the `label` codec (ToASCII and
//! ToUnicode of one label): punycheck's reference ([`crate::label`]) and
//! the `idna` crate's UTS #46 here; ICU's UTS #46 (`icu.rs`, feature `icu`)
//! and libidn2's IDNA2008 lookup (`libidn2.rs`, feature `libidn2`). And
//! those of the `domain` codec (whole names): the reference
//! ([`crate::domain`]), the `idna` crate, ICU and libidn2.

use crate::codec::Codec;
use crate::domain;
use crate::engines::{
    Capabilities, CodePointDomain, DecodeResult, Deviation, Directions, EncodeResult, Engine,
    EngineError, ErrorDetail, PunycodeInput,
};
use crate::label::{self, LabelProfile, LabelRules};
use crate::punycode::{CaseFlags, Decoded, ErrorKind};
use crate::vocabulary::{Expected, Request};

/// What both take: one label a question ([`PunycodeInput::LabelLine`]),
/// Unicode scalar values, no annotations, failures without an RFC 3492
/// kind.
fn capabilities() -> Capabilities {
    Capabilities {
        name_limits: crate::engines::NameLimits::NONE,
        domain: CodePointDomain::UnicodeScalar,
        annotations: false,
        errors: ErrorDetail::FailureOnly,
        punycode_input: PunycodeInput::LabelLine,
        max_encode_input: None,
        max_decode_input: None,
        bound_answers: Default::default(),
        directions: Directions::Both,
        deviations: &[],
        unicode_version: None,
        verdict_only: false,
    }
}

/// What the `domain` codec's built-ins take: whole names
/// ([`PunycodeInput::Name`]), the rest as [`capabilities`].
fn domain_capabilities() -> Capabilities {
    Capabilities {
        punycode_input: PunycodeInput::Name,
        ..capabilities()
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

/// A library's UTF-8 answer as a decoding; `who` names the library for
/// an answer that is not UTF-8.
#[cfg(any(punycheck_icu, punycheck_libidn2))]
fn decoded_text(answer: Vec<u8>, who: &str) -> DecodeResult {
    let text = String::from_utf8(answer)
        .map_err(|_| EngineError::Broken(format!("{who} answered bytes that are not UTF-8")))?;
    Ok(decoded(text.chars().map(u32::from).collect()))
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

/// punycheck's whole-name reference ([`crate::domain`]) under one
/// profile, selected as `domain-ref`: the reference of the `domain` codec.
#[derive(Clone, Copy, Debug, Default)]
pub struct DomainReference {
    /// The profile it judges by.
    pub profile: LabelProfile,
}

impl Engine for DomainReference {
    fn name(&self) -> &str {
        "domain-ref"
    }

    fn codec(&self) -> Codec {
        Codec::Domain(self.profile)
    }

    fn capabilities(&self) -> Capabilities {
        domain_capabilities()
    }

    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
        if case_flags.is_some() {
            return Err(EngineError::Unsupported("no annotation support".into()));
        }
        domain::to_ascii(self.profile, input).map_err(|_| REFUSED)
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        domain::to_unicode(self.profile, input)
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

/// The `idna` crate's UTS #46 on a whole domain name, selected as `idna`
/// for the `domain` codec: the same calls as [`IdnaLabel`], on the name.
#[derive(Clone, Copy, Debug, Default)]
pub struct IdnaDomain {
    /// The profile whose switches it is called with.
    pub profile: LabelProfile,
}

/// The `idna` crate's bounds on a label's length, which UTS #46 does not
/// set: ICU4C's, against Punycode's quadratic cost.
const IDNA_LABEL_LENGTH: Deviation = Deviation {
    id: "label-length",
    reason: "refuses a label that, processed, holds a non-ASCII code point and more than 1,000 code points, and an A-label whose Punycode after xn-- is longer than 2,000 bytes (idna 1.1.0, src/uts46.rs: PUNYCODE_ENCODE_MAX_INPUT_LENGTH and PUNYCODE_DECODE_MAX_INPUT_LENGTH, \"ICU4C-compatible\" bounds after ICU-13727 and whatwg/url#824); UTS #46 sets no bound but VerifyDnsLength's",
    explains: idna_label_too_long,
};

/// The longest processed label the `idna` crate takes with a non-ASCII
/// code point, in code points.
const IDNA_MAX_LABEL: usize = 1000;

/// The longest Punycode after `xn--` the `idna` crate decodes, in bytes.
const IDNA_MAX_PUNYCODE: usize = 2000;

/// Whether the `idna` crate's refusal `got` is its length bound
/// ([`IDNA_LABEL_LENGTH`]): the reference answered a name one of whose
/// labels, processed (A-labels decoded), is longer than the crate takes,
/// or the question or that answer holds an A-label with more Punycode than
/// it decodes.
fn idna_label_too_long(
    request: &Request,
    reference: &Expected,
    got: &Result<Expected, EngineError>,
) -> bool {
    let refused = matches!(
        got,
        Ok(Expected::Error(_)) | Err(EngineError::Failed(_) | EngineError::Rejected(_))
    );
    if !refused {
        return false;
    }
    let labels_of = |text: &[u8]| -> Vec<String> {
        String::from_utf8_lossy(text)
            .split(domain::SEPARATORS)
            .map(str::to_string)
            .collect()
    };
    let answer = match reference {
        Expected::Decoded(d) => labels_of(&crate::unicode::text_of(&d.values)),
        Expected::Encoded(ascii) => labels_of(ascii),
        Expected::Error(_) => return false,
    };
    let question = match request {
        Request::Decode(bytes) => labels_of(bytes),
        Request::Encode { code_points, .. } => labels_of(&crate::unicode::text_of(code_points)),
    };
    let long_punycode = |label: &String| {
        label::has_ace_prefix(label.as_bytes()) && label.len() - 4 > IDNA_MAX_PUNYCODE
    };
    let long_label = |label: &String| {
        let processed: Vec<u32> = if label::has_ace_prefix(label.as_bytes()) {
            match crate::punycode::decode(&label.as_bytes()[4..]) {
                Ok(decoded) => decoded.code_points,
                Err(_) => return false,
            }
        } else {
            label.chars().map(u32::from).collect()
        };
        processed.len() > IDNA_MAX_LABEL && processed.iter().any(|&cp| cp >= 0x80)
    };
    answer.iter().any(|l| long_label(l) || long_punycode(l)) || question.iter().any(long_punycode)
}

/// The `idna` crate's arguments for `profile`'s switches.
fn idna_arguments(profile: LabelProfile) -> (idna::uts46::AsciiDenyList, idna::uts46::Hyphens) {
    let switches = profile.switches;
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

impl Engine for IdnaLabel {
    fn name(&self) -> &str {
        "idna"
    }

    fn codec(&self) -> Codec {
        Codec::Label(self.profile)
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            deviations: &[IDNA_LABEL_LENGTH],
            ..capabilities()
        }
    }

    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
        idna_to_ascii(self.profile, input, case_flags)
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        idna_to_unicode(self.profile, input)
    }
}

impl Engine for IdnaDomain {
    fn name(&self) -> &str {
        "idna"
    }

    fn codec(&self) -> Codec {
        Codec::Domain(self.profile)
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            deviations: &[IDNA_LABEL_LENGTH],
            ..domain_capabilities()
        }
    }

    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
        idna_to_ascii(self.profile, input, case_flags)
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        idna_to_unicode(self.profile, input)
    }
}

/// `idna::uts46::Uts46::to_ascii` of the text `input` under `profile`.
fn idna_to_ascii(
    profile: LabelProfile,
    input: &[u32],
    case_flags: Option<&[bool]>,
) -> EncodeResult {
    let text = label_text(input, case_flags)?;
    let (deny, hyphens) = idna_arguments(profile);
    let length = if profile.switches.verify_dns_length {
        idna::uts46::DnsLength::Verify
    } else {
        idna::uts46::DnsLength::Ignore
    };
    match idna::uts46::Uts46::new().to_ascii(text.as_bytes(), deny, hyphens, length) {
        Ok(ascii) => Ok(ascii.into_owned().into_bytes()),
        Err(_) => Err(EngineError::Failed("idna::uts46 ToASCII: error".into())),
    }
}

/// `idna::uts46::Uts46::to_unicode` of `input` under `profile`.
fn idna_to_unicode(profile: LabelProfile, input: &[u8]) -> DecodeResult {
    let (deny, hyphens) = idna_arguments(profile);
    match idna::uts46::Uts46::new().to_unicode(input, deny, hyphens) {
        (text, Ok(())) => Ok(decoded(text.chars().map(u32::from).collect())),
        (_, Err(_)) => Err(EngineError::Failed("idna::uts46 ToUnicode: error".into())),
    }
}

/// The built-ins of the `label` codec under `profile`, the reference
/// first; the `idna` crate and ICU where the rules are UTS #46's with
/// CheckBidi, CheckJoiners, Transitional_Processing and
/// IgnoreInvalidPunycode at their defaults (neither is called with those
/// switches: [`crate::engines::missing_for`] says why), libidn2 where the
/// rules are IDNA2008's.
pub fn builtin(profile: LabelProfile) -> Vec<Box<dyn Engine>> {
    let mut all: Vec<Box<dyn Engine>> = vec![Box::new(LabelReference { profile })];
    match profile.rules {
        LabelRules::Uts46 if !profile.switches.uts46_defaults() => {}
        LabelRules::Uts46 => {
            all.push(Box::new(IdnaLabel { profile }));
            #[cfg(punycheck_icu)]
            all.push(Box::new(icu::IcuLabel { profile }));
        }
        LabelRules::Idna2008 => {
            #[cfg(punycheck_libidn2)]
            all.push(Box::new(libidn2::Libidn2Label { profile }));
        }
        // The URL Standard's rules are the domain codec's only.
        LabelRules::Idna2003 | LabelRules::Url | LabelRules::UrlBeforeAsciiFallback => {}
    }
    all
}

/// The built-ins of the `domain` codec under `profile`, the reference
/// first; the `idna` crate and ICU where the rules are UTS #46's with its
/// four other switches at their defaults (as [`builtin`]; neither has the
/// URL Standard's host parser), libidn2 where they are IDNA2008's.
pub fn domain_builtin(profile: LabelProfile) -> Vec<Box<dyn Engine>> {
    let mut all: Vec<Box<dyn Engine>> = vec![Box::new(DomainReference { profile })];
    match profile.rules {
        LabelRules::Uts46 if !profile.switches.uts46_defaults() => {}
        LabelRules::Uts46 => {
            all.push(Box::new(IdnaDomain { profile }));
            #[cfg(punycheck_icu)]
            all.push(Box::new(icu::IcuDomain { profile }));
        }
        LabelRules::Idna2008 => {
            #[cfg(punycheck_libidn2)]
            all.push(Box::new(libidn2::Libidn2Domain { profile }));
        }
        LabelRules::Idna2003 | LabelRules::Url | LabelRules::UrlBeforeAsciiFallback => {}
    }
    all
}

#[cfg(punycheck_libidn2)]
pub use libidn2::{Libidn2Domain, Libidn2Label};

#[cfg(punycheck_libidn2)]
mod libidn2;

#[cfg(punycheck_icu)]
pub use icu::{IcuDomain, IcuLabel};

#[cfg(punycheck_icu)]
mod icu;

#[cfg(test)]
mod tests {
    use super::*;

    /// Asks the `idna` crate and the reference `request` under UTS #46
    /// without VerifyDnsLength (which would refuse both): whether the crate
    /// refused, and whether its listed length bound explains the answer.
    fn idna_and_bound(request: &Request) -> (bool, bool) {
        let mut profile = LabelProfile::default();
        profile.switches.verify_dns_length = false;
        let engine = IdnaLabel { profile };
        let reference = LabelReference { profile };
        let (got, want) = match request {
            Request::Encode { code_points, .. } => (
                engine.encode(code_points, None).map(Expected::Encoded),
                reference
                    .encode(code_points, None)
                    .map_or(Expected::Error(ErrorKind::BadInput), Expected::Encoded),
            ),
            Request::Decode(bytes) => (
                engine.decode(bytes).map(|d| Expected::Decoded(d.into())),
                reference
                    .decode(bytes)
                    .map_or(Expected::Error(ErrorKind::BadInput), |d| {
                        Expected::Decoded(d.into())
                    }),
            ),
        };
        (got.is_err(), idna_label_too_long(request, &want, &got))
    }

    fn a_label(cps: &[u32]) -> Vec<u8> {
        let mut label = b"xn--".to_vec();
        label.extend(crate::punycode::encode(cps, None).unwrap());
        label
    }

    /// The bounds as the crate has them: 1,000 code points of a processed
    /// label taken, 1,001 refused, and counted after mapping (U+3300 maps
    /// to four); each refusal explained, and no other refusal.
    #[test]
    fn the_idna_crates_length_bound_is_its_own_and_exact() {
        let cjk = |n: usize| -> Vec<u32> { (0..n as u32).map(|k| 0x4E00 + k % 64).collect() };
        assert_eq!(
            idna_and_bound(&Request::Decode(a_label(&cjk(1000)))),
            (false, false)
        );
        assert_eq!(
            idna_and_bound(&Request::Decode(a_label(&cjk(1001)))),
            (true, true)
        );
        let encode = |cps: Vec<u32>| Request::Encode {
            code_points: cps,
            flags: None,
        };
        assert_eq!(idna_and_bound(&encode(cjk(1000))), (false, false));
        assert_eq!(idna_and_bound(&encode(cjk(1001))), (true, true));
        // 251 × U+3300 is 1,004 code points once mapped.
        assert_eq!(idna_and_bound(&encode(vec![0x3300; 251])), (true, true));
        assert_eq!(idna_and_bound(&encode(vec![0x3300; 250])), (false, false));
        // A refusal the reference shares is no difference to explain.
        assert_eq!(idna_and_bound(&encode(vec![0x2488; 1200])), (true, false));
    }
}

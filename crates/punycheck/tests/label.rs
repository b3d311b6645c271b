//! The `label` codec: its vectors against the reference, the `idna` crate
//! and the C reference's Punycode; the advisories planted in small
//! implementations of our own, each reported with its rule; a correct
//! implementation not reported.

use std::time::Duration;

use punycheck::codec::Codec;
use punycheck::engines::{
    Capabilities, DecodeResult, EncodeResult, Engine, EngineError, IdnaLabel, LabelReference,
};
use punycheck::harness::check::{CheckSettings, check};
use punycheck::harness::compare::{ask, reference_for};
use punycheck::harness::runner::request_of;
use punycheck::harness::vectors::{self, Case, Expected, Input};
use punycheck::label::{self, LabelProfile, LabelRules, Switches};
use punycheck::punycode::{CaseFlags, Decoded};

/// The label vectors of `rules`.
fn label_cases(rules: LabelRules) -> Vec<Case> {
    vectors::builtin()
        .unwrap()
        .into_iter()
        .filter(|c| matches!(c.codec, Codec::Label(p) if p.rules == rules))
        .collect()
}

#[test]
fn the_label_vectors_hold_for_the_reference_and_the_idna_crate() {
    let cases = label_cases(LabelRules::Uts46);
    assert!(cases.len() >= 25, "{}", cases.len());
    let profile = LabelProfile::DEFAULT;
    let idna = IdnaLabel { profile };
    for case in &cases {
        assert_eq!(case.codec, Codec::Label(profile), "{}", case.name);
        let request = request_of(case);
        let reference = reference_for(case.codec, &request).expect("the reference answers");
        assert_eq!(reference, case.expected, "{}", case.name);
        // The idna crate only says that it failed: any refusal is one.
        match (ask(&idna, &request), &case.expected) {
            (Ok(got), want @ (Expected::Encoded(_) | Expected::Decoded(_))) => {
                assert_eq!(&got, want, "{}", case.name)
            }
            (Err(_), Expected::Error(_)) => {}
            (got, want) => panic!("{}: idna answered {got:?}, expected {want:?}", case.name),
        }
    }
}

#[test]
fn the_idna2008_and_idna2003_vectors_hold_for_the_reference() {
    let cases = label_cases(LabelRules::Idna2008);
    assert!(cases.len() >= 20, "{}", cases.len());
    let idna2003 = label_cases(LabelRules::Idna2003);
    assert!(idna2003.len() >= 13, "{}", idna2003.len());
    for case in cases.iter().chain(&idna2003) {
        let reference = reference_for(case.codec, &request_of(case)).expect("it answers");
        assert_eq!(reference, case.expected, "{}", case.name);
    }
}

#[test]
fn every_refusal_names_its_rule() {
    for case in LabelRules::ALL.into_iter().flat_map(label_cases) {
        let profile = case.codec.label_profile().unwrap();
        let refusal = match &case.input {
            Input::Encode(cps) => label::to_ascii(profile, &cps.values).err(),
            Input::Decode(bytes) => label::to_unicode(profile, bytes).err(),
        };
        match (&case.reason, refusal) {
            (Some(reason), Some(refusal)) => {
                let words = refusal.explained(profile.rules);
                assert!(words.contains(reason.as_str()), "{}: {words}", case.name);
                // And it cites the standard.
                let standard = match profile.rules {
                    LabelRules::Uts46 | LabelRules::Url | LabelRules::UrlBeforeAsciiFallback => {
                        "UTS #46"
                    }
                    LabelRules::Idna2008 => "RFC 589",
                    LabelRules::Idna2003 => "RFC 349",
                };
                assert!(words.contains(standard), "{}: {words}", case.name);
            }
            (None, None) => {}
            (reason, refusal) => panic!("{}: reason {reason:?}, refusal {refusal:?}", case.name),
        }
    }
}

#[test]
fn the_a_labels_are_the_c_references_punycode() {
    for case in LabelRules::ALL.into_iter().flat_map(label_cases) {
        let (Input::Encode(cps), Expected::Encoded(a_label)) = (&case.input, &case.expected) else {
            continue;
        };
        // IDNA2003's Nameprep can make a label ASCII ('Straße' is strasse).
        if !a_label.starts_with(b"xn--") {
            continue;
        }
        // What processing makes of the U-label, then RFC 3492's C code.
        let processed = label::to_unicode(case.codec.label_profile().unwrap(), a_label).unwrap();
        let punycode = punycheck::c_reference::encode(&processed, None).unwrap();
        assert_eq!(a_label[..4], *b"xn--", "{}", case.name);
        assert_eq!(a_label[4..], punycode[..], "{}", case.name);
        assert!(processed.len() <= cps.values.len(), "{}", case.name);
    }
}

/// A small implementation of the label layer: the reference with one
/// advisory planted in it.
#[derive(Clone, Copy, Debug)]
enum Plant {
    /// Go, the idna crate before 1.0, Node: an xn-- label that decodes to
    /// ASCII only is taken as that ASCII label.
    AsciiPayload,
    /// Go: xn-- is the empty label.
    Empty,
    /// Go, ICU before 68.1: non-ASCII inside an A-label is decoded anyway.
    NonAscii,
    /// WebKit: the decoded label is not validated.
    NoValidation,
    /// CPython's idna codec: only a lowercase xn-- is an ACE prefix.
    LowercasePrefixOnly,
    /// miekg/dns: a Punycode failure crashes (here: answers as an external
    /// program that died would, with its panic's words).
    CrashOnBadPunycode,
}

fn planted(plant: Plant, text: &[u8]) -> Result<Vec<u32>, EngineError> {
    let refused = || EngineError::Failed("refused".into());
    if let Plant::CrashOnBadPunycode = plant
        && let Err(label::LabelError::Punycode(e)) = label::to_unicode(LabelProfile::DEFAULT, text)
    {
        return Err(EngineError::Crashed(format!(
            "panic: runtime error: index out of range ({e})"
        )));
    }
    accepted(plant, text).ok_or_else(refused)
}

fn accepted(plant: Plant, text: &[u8]) -> Option<Vec<u32>> {
    let profile = LabelProfile::DEFAULT;
    let decode_rest = |rest: &[u8]| {
        let lowered: Vec<u8> = rest.to_ascii_lowercase();
        punycheck::punycode::decode(&lowered)
            .ok()
            .map(|d| d.code_points)
    };
    match plant {
        Plant::AsciiPayload => match label::to_unicode(profile, text) {
            Err(label::LabelError::AsciiOnly) => decode_rest(&text[4..]),
            other => other.ok(),
        },
        Plant::Empty if label::has_ace_prefix(text) && text.len() == 4 => Some(Vec::new()),
        Plant::NonAscii => match label::to_unicode(profile, text) {
            Err(label::LabelError::NonAsciiInAceLabel(_)) => {
                let rest = std::str::from_utf8(&text[4..]).ok()?;
                let mut out: Vec<u32> = Vec::new();
                for c in rest.chars() {
                    out.push(u32::from(c));
                }
                Some(out)
            }
            other => other.ok(),
        },
        Plant::NoValidation => match label::to_unicode(profile, text) {
            Err(label::LabelError::Status(_)) => decode_rest(&text[4..]),
            other => other.ok(),
        },
        Plant::LowercasePrefixOnly if !text.starts_with(b"xn--") => None,
        _ => label::to_unicode(profile, text).ok(),
    }
}

/// The reference with a plant in its ToUnicode, as an implementation.
struct Planted(Option<Plant>);

impl Engine for Planted {
    fn name(&self) -> &str {
        "planted"
    }

    fn codec(&self) -> Codec {
        Codec::Label(LabelProfile::DEFAULT)
    }

    fn capabilities(&self) -> Capabilities {
        LabelReference::default().capabilities()
    }

    fn encode(&self, input: &[u32], flags: Option<&[bool]>) -> EncodeResult {
        LabelReference::default()
            .encode(input, flags)
            .map_err(|_| EngineError::Failed("refused".into()))
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        let answer = match self.0 {
            Some(plant) => planted(plant, input),
            None => label::to_unicode(LabelProfile::DEFAULT, input)
                .map_err(|_| EngineError::Failed("refused".into())),
        };
        answer.map(|code_points| Decoded {
            flags: CaseFlags::unset(code_points.len()),
            code_points,
        })
    }
}

fn settings() -> CheckSettings {
    let mut settings = CheckSettings::new(Duration::from_secs(600), 1);
    settings.cases = Some(3000);
    settings.cost = None;
    settings
}

#[test]
fn each_planted_advisory_is_reported_with_its_rule() {
    let expectations = [
        (Plant::AsciiPayload, "decodes to ASCII only"),
        (Plant::Empty, "decodes to nothing"),
        (Plant::NonAscii, "holds the non-ASCII"),
        (Plant::NoValidation, "is not valid in a label"),
        (Plant::LowercasePrefixOnly, "expected ["),
        (Plant::CrashOnBadPunycode, "index out of range"),
    ];
    for (plant, words) in expectations {
        let report = check(&Planted(Some(plant)), &settings()).expect("the check runs");
        let causes = &report.campaign.causes;
        assert!(!causes.is_empty(), "{plant:?}: no cause");
        let all: Vec<String> = causes.iter().map(|c| format!("{c:?}")).collect();
        assert!(
            all.iter().any(|c| c.contains(words)),
            "{plant:?}: {words:?} in none of {all:#?}"
        );
    }
}

#[test]
fn the_reference_itself_is_not_reported() {
    let report = check(&Planted(None), &settings()).expect("the check runs");
    assert!(
        report.campaign.causes.is_empty(),
        "{:#?}",
        report.campaign.causes
    );
    assert!(report.conforming());
    // It was asked: the vectors and the generated questions.
    assert!(report.vectors.pass >= 25, "{:?}", report.vectors.pass);
}

#[test]
fn the_switches_change_the_verdict_only_where_the_standard_says() {
    let url = LabelProfile {
        switches: Switches::URL,
        ..LabelProfile::DEFAULT
    };
    // A hyphen at the end is refused with CheckHyphens, taken without.
    let label: Vec<u32> = "é-".chars().map(u32::from).collect();
    assert!(label::to_ascii(LabelProfile::DEFAULT, &label).is_err());
    // By hand: the basic '-', the delimiter, then delta (0xE9 - 0x80) * 2
    // = 210, digits 9 f a with bias 72.
    assert_eq!(label::to_ascii(url, &label).unwrap(), b"xn----9fa");
    // The ACE prefix inside a U-label is refused either way.
    assert!(label::to_unicode(url, b"xn--xn---epa").is_err());
}

/// ICU's UTS #46 (the `icu` feature) answers every label vector as the
/// reference does, and what it refuses for want of a later Unicode
/// version's data is the class `unicode-version`, not a finding.
#[cfg(punycheck_icu)]
#[test]
fn icu_agrees_on_the_vectors_and_lists_its_unicode_version() {
    use punycheck::engines::IcuLabel;
    use punycheck::harness::compare::{Verdict, judge};
    let profile = LabelProfile::DEFAULT;
    let icu = IcuLabel { profile };
    for case in label_cases(LabelRules::Uts46) {
        let verdict = judge(&icu, &request_of(&case), &case.expected);
        assert_eq!(verdict, Verdict::Same, "{}", case.name);
    }
    // U+1AE7 was assigned after Unicode 15.0, ICU 72's version: by hand,
    // 'xn--aa--a-zd7a' decodes to a U+1AE7 a - - a (the C reference
    // encodes those code points to 'aa--a-zd7a').
    let request = punycheck::vocabulary::Request::Decode(b"xn--aa--a-zd7a".to_vec());
    let reference = reference_for(Codec::Label(profile), &request).unwrap();
    assert!(matches!(reference, Expected::Decoded(_)), "{reference:?}");
    match judge(&icu, &request, &reference) {
        Verdict::Same => {} // an ICU whose data has U+1AE7
        Verdict::Divergence { class, detail } => {
            assert_eq!(
                class,
                punycheck::vocabulary::classes::Class::UnicodeVersion,
                "{detail}"
            );
            assert!(
                detail.starts_with("u+1AE7 was assigned in Unicode"),
                "{detail}"
            )
        }
        other => panic!("{other:?}"),
    }
}

/// libidn2's IDNA2008 lookup (the `libidn2` feature) answers every IDNA2008
/// vector as the reference does or as one of its listed deviations says,
/// and the deviation its source shows (an A-label taken as written) is
/// listed, not a finding.
#[cfg(punycheck_libidn2)]
#[test]
fn libidn2_agrees_on_the_idna2008_vectors_but_for_its_listed_deviations() {
    use punycheck::engines::Libidn2Label;
    use punycheck::harness::compare::{Verdict, judge};
    let profile = LabelProfile {
        rules: LabelRules::Idna2008,
        switches: Switches::STRICT,
    };
    let libidn2 = Libidn2Label { profile };
    for case in label_cases(LabelRules::Idna2008) {
        match judge(&libidn2, &request_of(&case), &case.expected) {
            Verdict::Same => {}
            Verdict::Divergence { detail, .. } => assert!(
                detail.starts_with("contexto-on-lookup") || detail.starts_with("hyphens-on-lookup"),
                "{}: {detail}",
                case.name
            ),
            other => panic!("{}: {other:?}", case.name),
        }
    }
    // 'xn--E-0ha' decodes, lowercased first (RFC 5891 section 5.3), to
    // 'e' U+0107; libidn2 decodes it as written, and 'E' is DISALLOWED.
    let request = punycheck::vocabulary::Request::Decode(b"xn--E-0ha".to_vec());
    let reference = reference_for(Codec::Label(profile), &request).unwrap();
    assert_eq!(
        reference,
        Expected::Decoded(punycheck::vocabulary::CodePoints::parse("u+0065 u+0107").unwrap())
    );
    match judge(&libidn2, &request, &reference) {
        Verdict::Divergence { detail, .. } => {
            assert!(detail.starts_with("a-label-case"), "{detail}")
        }
        other => panic!("{other:?}"),
    }
}

/// libidn2's lookup on whole names (`Libidn2Domain`): a name converts as
/// the reference converts it; what its source shows it does with a name
/// (the Bidi rule label by label, empty labels looked up, ToUnicode
/// validated by lookup's lengths) is each a listed deviation; a name that
/// breaks a label rule it has is refused by both.
#[cfg(punycheck_libidn2)]
#[test]
fn libidn2_on_names_parts_from_the_reference_only_as_listed() {
    use punycheck::engines::Libidn2Domain;
    use punycheck::harness::compare::{Verdict, judge};
    use punycheck::vocabulary::Request;
    let profile = LabelProfile {
        rules: LabelRules::Idna2008,
        switches: Switches::STRICT,
    };
    let codec = Codec::Domain(profile);
    let libidn2 = Libidn2Domain { profile };
    let encode = |name: &str| Request::Encode {
        code_points: name.chars().map(u32::from).collect(),
        flags: None,
    };
    // Derived by hand: b\u{FC}cher's A-label is RFC 3492's xn--bcher-kva
    // (the C reference computes it: vectors/label-idna2003.toml).
    let same = encode("b\u{FC}cher.example");
    let reference = reference_for(codec, &same).unwrap();
    assert_eq!(
        reference,
        Expected::Encoded(b"xn--bcher-kva.example".to_vec())
    );
    assert_eq!(judge(&libidn2, &same, &reference), Verdict::Same);
    let long = "a".repeat(63);
    for (request, deviation) in [
        // RFC 5893 section 2: 2 breaks condition 1 beside an RTL label.
        (encode("2.\u{5D0}"), "bidi-label-by-label"),
        (encode("a..b"), "empty-labels"),
        // 255 octets: ToUnicode has no length rule, lookup has.
        (
            Request::Decode(format!("{long}.{long}.{long}.{long}").into_bytes()),
            "lookup-lengths-on-decode",
        ),
    ] {
        let reference = reference_for(codec, &request).unwrap();
        match judge(&libidn2, &request, &reference) {
            Verdict::Divergence { detail, .. } => {
                assert!(detail.starts_with(deviation), "{request:?}: {detail}")
            }
            other => panic!("{request:?}: {other:?}"),
        }
    }
    // U+2488 is DISALLOWED (RFC 5892 appendix B.1): refused by both.
    let refused = encode("a.\u{2488}");
    assert!(matches!(
        reference_for(codec, &refused),
        Some(Expected::Error(_))
    ));
    assert!(ask(&libidn2, &refused).is_err());
}

/// A check under other switches runs the vectors whose answers do not
/// depend on them: under the URL Standard's (all off), the advisories of
/// `label.toml` and `domain.toml`, written for a registry's (all on), but
/// not those a switch decides (a 64-octet label, `a_b`, a trailing dot).
#[test]
fn the_vectors_run_under_every_profile_they_do_not_depend_on() {
    use punycheck::harness::runner::cases_for;
    let cases = vectors::builtin().unwrap();
    let url = LabelProfile {
        rules: LabelRules::Uts46,
        switches: Switches::URL,
    };
    for (codec, asked, not_asked) in [
        (
            Codec::Label(url),
            &[
                "label-go-ascii-payload",
                "label-rustsec-2024-0421-example",
                "label-go-empty",
            ][..],
            &[
                "label-64-octets",
                "label-std3-low-line",
                "label-ada-double-prefix",
            ][..],
        ),
        (
            Codec::Domain(url),
            &[
                "domain-bidi-across-labels-node",
                "domain-ideographic-full-stop-ip",
                "domain-ascii-fast-path-bogus-a-label",
            ][..],
            &[
                "domain-trailing-dot-verify-dns-length",
                "domain-254-octets",
                "domain-fullwidth-reverse-solidus",
            ][..],
        ),
    ] {
        assert!(
            cases.iter().all(|c| c.codec != codec),
            "no file is of {codec}"
        );
        let under = cases_for(&cases, codec);
        assert!(under.len() >= 15, "{codec}: {}", under.len());
        for name in asked {
            assert!(
                under.iter().any(|c| c.name == *name),
                "{codec}: {name} not asked"
            );
        }
        for name in not_asked {
            assert!(
                under.iter().all(|c| c.name != *name),
                "{codec}: {name} asked"
            );
        }
        // Each is asked under this profile, and the reference answers it so.
        for case in &under {
            assert_eq!(case.codec, codec);
            let want = reference_for(codec, &request_of(case));
            let agrees = match (&want, &case.expected) {
                (Some(Expected::Error(_)), Expected::Error(_)) => true,
                (Some(got), want) => got == want,
                (None, _) => false,
            };
            assert!(agrees, "{}: {want:?}", case.name);
        }
    }
}

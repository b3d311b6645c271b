//! The `domain` codec: its vectors against the whole-name reference and
//! the `idna` crate's UTS #46 on names, each refusal naming its rule, and
//! the A-labels in them the C reference's Punycode.

use punycheck::c_reference;
use punycheck::codec::Codec;
use punycheck::domain;
use punycheck::engines::{DomainReference, Engine, IdnaDomain};
use punycheck::harness::compare::ask;
use punycheck::harness::runner::request_of;
use punycheck::harness::vectors::{self, Case, Expected};
use punycheck::label::{LabelProfile, LabelRules};
use punycheck::vocabulary::Request;

fn domain_cases() -> Vec<Case> {
    vectors::builtin()
        .unwrap()
        .into_iter()
        .filter(|c| matches!(c.codec, Codec::Domain(_)))
        .collect()
}

/// The domain vectors of UTS #46 with every switch on.
fn uts46_cases() -> Vec<Case> {
    domain_cases()
        .into_iter()
        .filter(|c| c.codec == Codec::Domain(LabelProfile::DEFAULT))
        .collect()
}

#[test]
fn the_domain_vectors_hold_for_the_reference_and_the_idna_crate() {
    let cases = uts46_cases();
    assert!(cases.len() >= 18, "{}", cases.len());
    for case in &cases {
        let profile = case.codec.label_profile().unwrap();
        assert_eq!(profile, LabelProfile::DEFAULT, "{}", case.name);
        let request = request_of(case);
        for engine in [
            &DomainReference { profile } as &dyn Engine,
            &IdnaDomain { profile },
        ] {
            let got = ask(engine, &request);
            // A refusal is one whatever its words.
            let agrees = match (&got, &case.expected) {
                (Ok(Expected::Error(_)) | Err(_), Expected::Error(_)) => true,
                (Ok(got), want) => got == want,
                _ => false,
            };
            assert!(agrees, "{} by {}: {got:?}", case.name, engine.name());
        }
    }
}

/// UTS #46's other four parameters (one vector file each: CheckBidi and
/// CheckJoiners off, Transitional_Processing and IgnoreInvalidPunycode
/// on): each file's cases hold for the reference under its profile, and
/// each file but IgnoreInvalidPunycode's holds cases that the default
/// profile answers otherwise (the parameter is what they ask), where
/// IgnoreInvalidPunycode's are answered alike under the default (UTS #46
/// section 4, step 4, item 3 refuses what item 2 kept).
#[test]
fn the_vectors_of_uts46s_other_parameters_hold_for_the_reference() {
    use punycheck::harness::compare::reference_for;
    for (file, least, differ_by_default) in [
        ("domain-transitional.toml", 8, 7),
        ("domain-no-check-bidi.toml", 5, 4),
        ("domain-no-check-joiners.toml", 4, 3),
        ("domain-ignore-invalid-punycode.toml", 3, 0),
    ] {
        let cases: Vec<Case> = domain_cases()
            .into_iter()
            .filter(|c| c.file == file)
            .collect();
        assert!(cases.len() >= least, "{file}: {}", cases.len());
        let mut differ = 0;
        for case in &cases {
            let profile = case.codec.label_profile().unwrap();
            assert_eq!(profile.rules, LabelRules::Uts46, "{}", case.name);
            assert!(!profile.switches.uts46_defaults(), "{}", case.name);
            let request = request_of(case);
            let got = reference_for(case.codec, &request).expect("the reference answers");
            assert_eq!(got, case.expected, "{} ({file})", case.name);
            let default = reference_for(Codec::Domain(LabelProfile::DEFAULT), &request).unwrap();
            let alike = match (&default, &got) {
                (Expected::Error(_), Expected::Error(_)) => true,
                (a, b) => a == b,
            };
            differ += usize::from(!alike);
        }
        assert_eq!(differ, differ_by_default, "{file}");
    }
}

/// The URL Standard's host parser: its vectors hold for the reference,
/// under each text, and both files ask the same questions.
#[test]
fn the_url_host_vectors_hold_for_the_reference() {
    let of = |rules: LabelRules| -> Vec<Case> {
        domain_cases()
            .into_iter()
            .filter(|c| c.codec.label_profile().unwrap().rules == rules)
            .collect()
    };
    let (now, before) = (of(LabelRules::Url), of(LabelRules::UrlBeforeAsciiFallback));
    assert!(
        now.len() >= 30 && before.len() >= 30,
        "{} {}",
        now.len(),
        before.len()
    );
    // The fallback changes the answer of an ASCII name only.
    let mut changed = 0;
    for case in &before {
        let name = case.name.replacen("url-earlier-", "url-", 1);
        let twin = now.iter().find(|c| c.name == name);
        let twin = twin.unwrap_or_else(|| panic!("{} is in one file only", case.name));
        assert_eq!(request_of(twin), request_of(case), "{}", case.name);
        if twin.expected != case.expected {
            changed += 1;
            let Request::Encode { code_points, .. } = request_of(case) else {
                panic!("{}: only ToASCII has the fallback", case.name)
            };
            assert!(code_points.iter().all(|&cp| cp < 0x80), "{}", case.name);
        }
    }
    assert!(changed >= 6, "{changed}");
    for case in now.iter().chain(&before) {
        let profile = case.codec.label_profile().unwrap();
        let got = ask(&DomainReference { profile }, &request_of(case));
        let agrees = match (&got, &case.expected) {
            (Ok(Expected::Error(_)) | Err(_), Expected::Error(_)) => true,
            (Ok(got), want) => got == want,
            _ => false,
        };
        assert!(agrees, "{} ({}): {got:?}", case.name, profile.rules);
    }
}

#[test]
fn every_domain_refusal_names_its_rule_and_cites_its_standard() {
    for case in domain_cases() {
        let refusal = domain::refusal(case.codec, &request_of(&case));
        match (&case.reason, refusal) {
            (Some(reason), Some(refusal)) => {
                let rules = case.codec.label_profile().unwrap().rules;
                let words = refusal.explained(rules);
                assert!(words.contains(reason.as_str()), "{}: {words}", case.name);
                // IDNA2008's rules are the RFCs' (5890 to 5893, and 1034
                // for the lengths).
                let standard = if rules.is_url() && words.contains("the URL Standard") {
                    "section 3."
                } else if rules == LabelRules::Idna2008 {
                    "RFC "
                } else {
                    "UTS #46"
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
    for case in domain_cases() {
        let Expected::Encoded(ascii) = &case.expected else {
            continue;
        };
        // The URL Standard's ASCII fallback gives an ASCII name back as it
        // was, bogus A-labels and all: those are not Punycode of ours.
        let fallback = case.codec.label_profile().unwrap().rules == LabelRules::Url
            && matches!(request_of(&case), Request::Encode { code_points, .. }
                if code_points.iter().all(|&cp| cp < 0x80));
        if fallback {
            continue;
        }
        for label in ascii.split(|&b| b == b'.') {
            let Some(payload) = label.strip_prefix(b"xn--") else {
                continue;
            };
            let decoded = c_reference::decode(payload).expect("the C reference decodes it");
            let again = c_reference::encode(&decoded.code_points, None).unwrap();
            assert_eq!(again, payload, "{}", case.name);
        }
    }
}

#[test]
fn the_reference_and_the_idna_crate_keep_equivalent_spellings_alike() {
    use punycheck::harness::compare::ask;
    use punycheck::harness::generate::Generator;
    use punycheck::harness::properties::{Property, check_all, respelled};
    // 3,000 generated names (a tenth with a separator, capital or
    // fullwidth letter to respell), both directions, under a registry's
    // switches and the URL Standard's: no violation.
    for switches in [
        punycheck::label::Switches::STRICT,
        punycheck::label::Switches::URL,
    ] {
        let profile = LabelProfile {
            rules: punycheck::label::LabelRules::Uts46,
            switches,
        };
        let codec = Codec::Domain(profile);
        let mut generator = Generator::for_codec(codec, 31);
        let mut respelled_some = 0;
        for _ in 0..3000 {
            let request = generator.next_request();
            if let Request::Encode { code_points, .. } = &request
                && respelled(code_points) != *code_points
            {
                respelled_some += 1;
            }
            for engine in [
                &DomainReference { profile } as &dyn Engine,
                &IdnaDomain { profile },
            ] {
                let answer = ask(engine, &request);
                let violation = check_all(engine, &request, &answer, false);
                assert!(
                    violation
                        .as_ref()
                        .is_none_or(|v| v.property != Property::EquivalentSpellings),
                    "{} on {request:?}: {violation:?}",
                    engine.name()
                );
            }
        }
        assert!(respelled_some > 150, "{respelled_some}");
    }
}

#[test]
fn a_separator_not_taken_breaks_the_equivalent_spellings() {
    use punycheck::engines::{Capabilities, DecodeResult, EncodeResult};
    use punycheck::harness::properties::{Property, check_all};
    // The reference, but U+3002 kept inside its label (url-parse#241).
    struct NoIdeographicStop(DomainReference);
    impl Engine for NoIdeographicStop {
        fn name(&self) -> &str {
            "no-u3002"
        }
        fn codec(&self) -> Codec {
            self.0.codec()
        }
        fn capabilities(&self) -> Capabilities {
            self.0.capabilities()
        }
        fn encode(&self, input: &[u32], flags: Option<&[bool]>) -> EncodeResult {
            if input.contains(&0x3002) {
                let text: String = input.iter().filter_map(|&c| char::from_u32(c)).collect();
                return Ok(format!("xn--{}", text.len()).into_bytes());
            }
            self.0.encode(input, flags)
        }
        fn decode(&self, input: &[u8]) -> DecodeResult {
            self.0.decode(input)
        }
    }
    let engine = NoIdeographicStop(DomainReference {
        profile: LabelProfile::DEFAULT,
    });
    let request = Request::Encode {
        code_points: "b\u{FC}cher\u{3002}de".chars().map(u32::from).collect(),
        flags: None,
    };
    let answer = ask(&engine, &request);
    let violation = check_all(&engine, &request, &answer, false).expect("a violation");
    assert_eq!(violation.property, Property::EquivalentSpellings);
    assert!(
        violation.detail.contains("xn--bcher-kva.de"),
        "{}",
        violation.detail
    );
}

/// Found by the `domain_diff_icu` fuzz target (five minutes, 2026-11-29):
/// ICU keeps the root label of `127\u{3002}\u{AD}` (`127.`, its declared
/// `root-label`) and refuses `127.\u{AD}` (UIDNA_ERROR_EMPTY_LABEL, as the
/// reference refuses both under VerifyDnsLength): uts46.cpp's ASCII fast
/// path hands the last label alone to `processUnicode`, whose
/// `0==labelStart` test takes the label that mapping empties for an empty
/// name. Each answer is the reference's or the declared divergence, so
/// the two spellings parting is that divergence, not a new cause; a wrong
/// answer to one spelling stays one (the test above).
#[cfg(punycheck_icu)]
#[test]
fn a_declared_divergence_met_by_one_spelling_only_is_that_divergence() {
    use punycheck::engines::IcuDomain;
    use punycheck::harness::properties::check_all;
    let profile = LabelProfile {
        rules: LabelRules::Uts46,
        switches: punycheck::label::Switches::STRICT,
    };
    let engine = IcuDomain { profile };
    let spelled = |text: &str| Request::Encode {
        code_points: text.chars().map(u32::from).collect(),
        flags: None,
    };
    let ideographic = spelled("127\u{3002}\u{AD}");
    let full_stop = spelled("127.\u{AD}");
    // ICU as found: the two spellings answered apart.
    let first = ask(&engine, &ideographic);
    let second = ask(&engine, &full_stop);
    assert_eq!(first, Ok(Expected::Encoded(b"127.".to_vec())));
    assert!(second.is_err(), "{second:?}");
    // The reference refuses both (the root label under VerifyDnsLength).
    for request in [&ideographic, &full_stop] {
        let reference = punycheck::harness::compare::reference_for(engine.codec(), request);
        assert!(
            matches!(reference, Some(Expected::Error(_))),
            "{reference:?}"
        );
    }
    assert_eq!(check_all(&engine, &ideographic, &first, false), None);
}

#[test]
fn the_reference_checked_in_process_is_not_reported() {
    use punycheck::harness::check::{CheckSettings, check};
    // Under both profiles, several seeds: ToUnicode takes names that
    // ToASCII refuses by its length rules (the root label of a trailing
    // dot, an empty name), which is no broken round trip when the
    // reference refuses them too.
    for switches in [
        punycheck::label::Switches::STRICT,
        punycheck::label::Switches::URL,
    ] {
        let profile = LabelProfile {
            rules: punycheck::label::LabelRules::Uts46,
            switches,
        };
        for seed in [1, 2, 3] {
            let mut settings = CheckSettings::new(std::time::Duration::from_secs(600), seed);
            settings.cases = Some(1000);
            settings.cost = None;
            let report = check(&DomainReference { profile }, &settings).expect("the check runs");
            assert!(
                report.campaign.causes.is_empty(),
                "{switches:?} seed {seed}: {:#?}",
                report.campaign.causes
            );
            assert!(report.conforming());
        }
    }
}

//! The check run from Rust code, as a crate would from its own tests:
//! implementations made of two functions ([`Functions`]), declared, and
//! checked by [`check`].

use std::time::Duration;

use punycheck::engines::declaration::{Declaration, DirectionsDecl};
use punycheck::engines::{Engine, Functions, Refusal};
use punycheck::harness::causes::Kind;
use punycheck::harness::check::{CheckSettings, check};
use punycheck::harness::cost::Bounds;
use punycheck::punycode;

/// A bounded check: the question count decides, the time is only a ceiling.
fn settings() -> CheckSettings {
    let mut settings = CheckSettings::new(Duration::from_secs(900), 7);
    settings.cases = Some(400);
    // The idna crate's encoder follows RFC 3492's quadratic algorithm: the
    // cost probe finds it slow from about 16,384 code points, and how soon
    // depends on the machine. These tests are about the API; timing is
    // tests/cost.rs's.
    settings.cost = Some(Bounds {
        max: 4096,
        ..Bounds::default()
    });
    settings
}

/// The `idna` crate's Punycode, declared as the usual Rust crate.
fn idna_functions() -> Functions {
    Functions::unicode(
        "idna's punycode",
        |text| idna::punycode::encode_str(text).ok_or(Refusal::Failed),
        |text| idna::punycode::decode_to_string(text).ok_or(Refusal::Failed),
    )
}

#[test]
fn a_correct_crate_honestly_declared_conforms() {
    let report = check(&idna_functions(), &settings()).unwrap();
    assert!(report.conforming(), "{}", report.to_text());
    assert!(report.to_text().contains("declared: domain unicode"));
}

#[test]
fn a_planted_bug_is_found_with_its_input() {
    // punycheck's clean-room codec with kinds, which drops the last code
    // point of every decoding longer than 300.
    let buggy = Functions::new("truncating")
        .encoder(|code_points| {
            punycode::encode(code_points, None)
                .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
                .map_err(|e| refusal(e.kind()))
        })
        .decoder(|text| {
            let mut code_points = punycode::decode(text.as_bytes())
                .map_err(|e| refusal(e.kind()))?
                .code_points;
            if code_points.len() > 300 {
                code_points.pop();
            }
            Ok(code_points)
        });
    let report = check(&buggy, &settings()).unwrap();
    assert!(!report.conforming());
    let causes = &report.campaign.causes;
    assert!(
        causes.iter().any(|c| c.key.kind == Kind::WrongOutput),
        "{}",
        report.to_text()
    );
    // No command line can replay a function: the report gives the input.
    assert!(!report.to_text().contains("reproduce:"));
}

#[test]
fn a_decoder_only_crate_is_never_asked_to_encode() {
    let decoder = Functions::new("decoder only")
        .decoder(|text| {
            punycode::decode(text.as_bytes())
                .map(|d| d.code_points)
                .map_err(|e| refusal(e.kind()))
        })
        .declare(Declaration {
            directions: Some(DirectionsDecl::DecodeOnly),
            ..Declaration::default()
        });
    assert!(!decoder.capabilities().directions.encodes());
    let report = check(&decoder, &settings()).unwrap();
    assert!(report.conforming(), "{}", report.to_text());
}

fn refusal(kind: punycode::ErrorKind) -> Refusal {
    match kind {
        punycode::ErrorKind::BadInput => Refusal::Invalid,
        punycode::ErrorKind::Overflow => Refusal::Overflow,
        punycode::ErrorKind::BigOutput => Refusal::TooLarge,
    }
}

//! The oracles of the `domain` codec's fuzz targets, `domain_diff_idna`,
//! `domain_diff_icu` and `domain_properties`, with the structured name
//! they read ([`NameInput`]): labels ([`LabelShape`], built from the
//! label targets' pieces) joined by the four separators of RFC 3490
//! section 3.1, which UTS #46 maps to U+002E before it breaks the name.
//!
//! The differential targets judge as `check` does ([`diff_judged`]): the
//! domain reference ([`crate::domain`]) answers, and the `idna` crate's or
//! ICU's answer is judged with their declared deviations (ICU's
//! `root-label` and `no-check-hyphens`) and Unicode version (ICU's own:
//! a difference on a code point assigned after it is the class
//! `unicode-version`), then the properties are checked where the answer
//! conforms. `domain_properties` checks the reference's own round trips
//! and equivalent spellings under any profile ([`round_trips`]).

use super::Outcome;
use super::label::{
    Conversions, KNOWN_IDNA, LabelShape, diff_judged, profile_of, round_trips, text_of,
};
use crate::domain::{self, DomainError, SEPARATORS};
use crate::engines::{DomainReference, IdnaDomain};
use crate::harness::compare::Request;
use crate::label::LabelRules;

/// The most code points of a name that are asked: past the 254 octets
/// of the longest name's limit, and its labels' 64.
pub const MAX_NAME_CODE_POINTS: usize = 320;

/// A separator between two labels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Separator {
    /// U+002E FULL STOP.
    FullStop,
    /// U+3002 IDEOGRAPHIC FULL STOP.
    Ideographic,
    /// U+FF0E FULLWIDTH FULL STOP.
    Fullwidth,
    /// U+FF61 HALFWIDTH IDEOGRAPHIC FULL STOP.
    Halfwidth,
}

impl Separator {
    /// Its code point.
    pub fn code_point(self) -> u32 {
        let index = match self {
            Separator::FullStop => 0,
            Separator::Ideographic => 1,
            Separator::Fullwidth => 2,
            Separator::Halfwidth => 3,
        };
        u32::from(SEPARATORS[index])
    }
}

/// The input of the `domain` targets: a direction, a profile, and a name
/// of labels joined by separators (an empty last label after a separator
/// is a trailing dot).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct NameInput {
    /// ToUnicode of the name's text when true, ToASCII of its code points
    /// when false.
    pub to_unicode: bool,
    /// The profile ([`profile_of`]).
    pub profile: u8,
    /// The first label.
    pub first: LabelShape,
    /// Each further label, with the separator before it.
    pub rest: Vec<(Separator, LabelShape)>,
}

impl NameInput {
    /// The name's code points (at most [`MAX_NAME_CODE_POINTS`]).
    pub fn code_points(&self) -> Vec<u32> {
        let mut out = self.first.code_points();
        for (separator, label) in &self.rest {
            if out.len() >= MAX_NAME_CODE_POINTS {
                break;
            }
            out.push(separator.code_point());
            out.extend(label.code_points());
        }
        out.truncate(MAX_NAME_CODE_POINTS);
        out
    }

    /// The question it asks.
    pub fn request(&self) -> Request {
        let cps = self.code_points();
        if self.to_unicode {
            Request::Decode(text_of(&cps))
        } else {
            Request::Encode {
                code_points: cps,
                flags: None,
            }
        }
    }
}

/// `domain_diff_idna`: the `idna` crate's UTS #46 on the whole name
/// against the domain reference, under the input's switches
/// ([`diff_judged`]), its gate's known cause passed over ([`KNOWN_IDNA`]).
pub fn diff_idna(input: &NameInput) -> Outcome {
    let profile = profile_of(input.profile, &[LabelRules::Uts46]);
    diff_judged(&IdnaDomain { profile }, &input.request(), KNOWN_IDNA)
}

/// `domain_diff_icu`: ICU's `uidna_nameToASCII_UTF8` and
/// `uidna_nameToUnicodeUTF8` against the domain reference, under the
/// input's switches, ICU's listed deviations and Unicode version applied
/// ([`diff_judged`]).
/// Where the build left ICU out (the cargo feature `icu` without the
/// library), every input is an error saying so.
#[cfg(feature = "icu")]
pub fn diff_icu(input: &NameInput) -> Outcome {
    #[cfg(punycheck_icu)]
    return {
        let profile = profile_of(input.profile, &[LabelRules::Uts46]);
        diff_judged(
            &crate::engines::IcuDomain { profile },
            &input.request(),
            &[],
        )
    };
    #[cfg(not(punycheck_icu))]
    return Err(format!(
        "{}: not asked, {}",
        input.request(),
        crate::fuzz::engines::left_out("icu")
    ));
}

/// Whether the domain reference refuses by a length rule only (an empty
/// label, a label or the name too long), which ToUnicode does not have.
fn length_only(error: &DomainError) -> bool {
    matches!(error.rule(), "empty-label" | "name-length" | "dns-length")
}

/// `domain_properties`: the domain reference's round trips under the
/// input's profile, any rules (the URL Standard's host parser too), and
/// its equivalent spellings under UTS #46 ([`round_trips`]). Under the
/// URL Standard's rules ToUnicode is its "domain to Unicode", which parses
/// no IPv4 address, so ToUnicode of the input is not compared with the
/// round trip's (`0x7F.1` is `127.0.0.1` to the host parser), and no round
/// trip starts from it ([`Conversions::host_parser`]).
pub fn properties(input: &NameInput) -> Outcome {
    let profile = profile_of(input.profile, &LabelRules::EVERY);
    round_trips(
        &DomainReference { profile },
        &input.request(),
        &Conversions {
            to_ascii: |cps: &[u32]| domain::to_ascii(profile, cps),
            to_unicode: |bytes: &[u8]| domain::to_unicode(profile, bytes),
            length_only,
            takes_ldh: true,
            direct: !profile.rules.is_url(),
            passes_ascii: profile.rules == LabelRules::Idna2003,
            host_parser: profile.rules.is_url(),
        },
    )
}

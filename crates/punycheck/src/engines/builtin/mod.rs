//! The implementations built into punycheck, each in this very process:
//! the clean-room code ([`CleanRoom`]), the RFC's C code ([`RfcC`]), the
//! `idna` crate, the system's libidn2 and ICU (behind cargo features), the
//! generic Bootstring coder, AMC-ACE-Z's C sample, the LACE and UTF-8
//! codecs, and the A-label layer's reference and the `idna` crate's UTS #46. Which of them a codec has, and which is its reference, is
//! [`super::builtin_for`]'s list.
//!
//! Implementations outside punycheck (programs and libraries) are reached
//! through [`super::external`].

mod amc_c;
mod bootstring;
mod cleanroom;
#[cfg(punycheck_icu)]
mod icu;
mod idna;
mod label;
mod lace;
#[cfg(punycheck_libidn2)]
mod libidn2;
mod rfc_c;
mod utf8;

pub use amc_c::{AmcC, AmcCAsPunycode};
pub use bootstring::Bootstring;
pub use cleanroom::CleanRoom;
#[cfg(punycheck_icu)]
pub use icu::Icu;
pub use idna::Idna;
pub use label::{
    DomainReference, IdnaDomain, IdnaLabel, LabelReference, builtin as label_builtin,
    domain_builtin,
};
#[cfg(punycheck_icu)]
pub use label::{IcuDomain, IcuLabel};
#[cfg(punycheck_libidn2)]
pub use label::{Libidn2Domain, Libidn2Label};
pub use lace::LaceCleanRoom;
#[cfg(punycheck_libidn2)]
pub use libidn2::Libidn2;
pub use rfc_c::RfcC;
pub use utf8::{StdUtf8, Utf8CleanRoom};

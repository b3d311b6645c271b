//! punycheck: Punycode (RFC 3492) implementations checked against each other.
//!
//! # What is here
//!
//! - [`punycode`]: a clean-room Punycode written from RFC 3492 sections 3 to 6,
//!   over 32-bit code points, with Appendix A annotations, typed errors that
//!   mirror the RFC's C status codes (and say which overflow check fired),
//!   and a trace of every delta as in sections 7.2 and 7.3.
//! - [`bootstring`]: Bootstring for any parameter set of section 4 (RFC 3492
//!   and draft-ietf-idn-amc-ace-z-01), with Punycode's and AMC-ACE-Z's
//!   parameters, the draft's signature prefix or suffix, and typed errors
//!   naming the violated constraint; held equal to [`punycode`] by tests.
//! - [`lace`]: a clean-room LACE written from draft-ietf-idn-lace-00
//!   sections 2.2 to 2.5, with a strict decoder that accepts exactly what
//!   the encoder produces, and what the draft leaves open decided in its
//!   docs.
//! - [`c_reference`]: RFC 3492 Appendix C, compiled from the RFC text byte for
//!   byte by `build.rs`, behind a safe wrapper; and
//!   [`c_reference::amc_ace_z`], the AMC-ACE-Z draft's Appendix C, restored
//!   token for token.
//! - [`engines`]: one [`engines::Engine`] trait that every implementation sits
//!   behind, each declaring its [`engines::Capabilities`]: the clean-room code,
//!   the C reference, the `idna` crate, the system's libidn2 and ICU, and any
//!   program following the RFC test wrapper's convention (`exec:`) or the
//!   persistent line protocol (`pipe:`); [`engines::process`] ends every
//!   process they start.
//! - [`harness`]: the vector files of `vectors/` and their runner; judging
//!   with divergence classes; seeded generators; round-trip and uniqueness
//!   properties; minimization; campaigns behind `punycheck check` and
//!   `diff`; reports; the conformance matrix.
//! - [`vocabulary`]: the questions, answers and divergence classes that
//!   engines and the harness share; below both, so neither imports the other
//!   back.
//! - [`label`]: the A-label layer, ToUnicode and ToASCII of one DNS label
//!   under UTS #46, written from the standard's text on the clean-room
//!   Punycode: punycheck's reference for the `label` codec.
//! - [`domain`]: whole domain names, ToASCII and ToUnicode of a name of
//!   any number of labels under the same profiles, on [`label`]: the
//!   reference for the `domain` codec.
//! - [`rfc_text`]: reads the RFC text itself (Appendix C, section 7).
//! - [`unicode`]: the Unicode version of the references' data, and the
//!   version that first assigned each code point, for implementations that
//!   declare an older one.
//! - [`utf8`]: UTF-8 as RFC 2279 defines it (1 to 6 octets, values up to
//!   0x7FFFFFFF, overlong forms refused per its sections 2 and 6), and the
//!   strict UTF-8 of RFC 3629 that agrees with `std::str::from_utf8`.
//! - [`fuzz`]: the oracles of the cargo-fuzz targets in `fuzz/`.
//! - [`commands`]: the workflows of the `punycheck` command line (check,
//!   diff, vectors, repro, encode and decode, the matrix), each writing its
//!   report through an output that a closed pipe cannot make panic.
//! - [`bench`](mod@bench): speed on the same inputs, each answer checked first: behind
//!   `punycheck bench` and the criterion benchmarks of `benches/`.
//!
//! # Plugging in an implementation
//!
//! Implement [`engines::Engine`], or give two functions to
//! [`engines::Functions`], and declare honestly what it supports: the
//! harness skips, with a recorded reason, every case outside that
//! declaration, and fails every other difference from the expected result.
//! [`harness::check::check`] runs the whole check that `punycheck check`
//! runs, from a crate's own tests.
//!
//! # Panics
//!
//! No function of this crate panics on any input: bad input is an error.

pub mod bench;
pub mod bootstring;
pub mod c_reference;
pub mod codec;
pub mod domain;
pub mod engines;
pub mod fuzz;
pub mod harness;
pub mod label;
pub mod lace;
pub mod punycode;
pub mod rfc_text;
pub mod unicode;
pub mod utf8;
pub mod vocabulary;

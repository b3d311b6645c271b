//! A crate that offers Punycode (RFC 3492) encoding and decoding of one
//! label, and checks them with punycheck from its own tests
//! (`tests/conformance.rs`): the smallest use of the library, kept in the
//! workspace so that CI proves a crate author can depend on it.

/// The Punycode encoding of `text` (no ACE prefix), or `None` when it
/// cannot be encoded (RFC 3492 section 6.3's overflow).
pub fn encode(text: &str) -> Option<String> {
    idna::punycode::encode_str(text)
}

/// The text a Punycode string (no ACE prefix) decodes to, or `None` when
/// it is not valid Punycode or decodes to something other than Unicode
/// scalar values.
pub fn decode(punycode: &str) -> Option<String> {
    idna::punycode::decode_to_string(punycode)
}

//! The oracles of the UTF-8 fuzz targets `utf8_strict` and `utf8_rfc2279`
//! ([`crate::utf8`]), on raw bytes so that every input means something.

use super::Outcome;
use crate::utf8::{self, Error, Mode};

/// The longest input looked at, in bytes: keeps executions fast.
pub const MAX_INPUT: usize = 4096;

fn clip(data: &[u8]) -> &[u8] {
    &data[..data.len().min(MAX_INPUT)]
}

/// `utf8_strict`: strict mode decodes exactly like [`std::str::from_utf8`]
/// (same acceptance, same values, error at std's `valid_up_to` with std's
/// `error_len`), and RFC 2279 mode accepts, with the same values,
/// everything strict mode accepts.
pub fn strict_matches_std(data: &[u8]) -> Outcome {
    strict_matches_std_of(data, |bytes| utf8::decode(bytes, Mode::Strict))
}

/// [`strict_matches_std`] for any strict decoder (tests show it fails on a
/// wrong one).
pub fn strict_matches_std_of(
    data: &[u8],
    decode: impl Fn(&[u8]) -> Result<Vec<u32>, Error>,
) -> Outcome {
    let data = clip(data);
    let ours = decode(data);
    match (std::str::from_utf8(data), &ours) {
        (Ok(text), Ok(values)) => {
            let want: Vec<u32> = text.chars().map(u32::from).collect();
            if *values != want {
                return Err(format!("{data:02X?}: std {want:X?}, strict {values:X?}"));
            }
            match utf8::decode(data, Mode::Rfc2279) {
                Ok(loose) if loose == want => Ok(()),
                other => Err(format!(
                    "{data:02X?}: valid UTF-8 ({want:X?}) but RFC 2279 mode gives {other:?}"
                )),
            }
        }
        (Err(e), Err(error)) => {
            let want = (e.valid_up_to(), e.error_len());
            let got = (error.position(), error.error_len());
            if want == got {
                Ok(())
            } else {
                Err(format!(
                    "{data:02X?}: std fails at {want:?} (valid_up_to, error_len), strict at {got:?}: {error}"
                ))
            }
        }
        (std, ours) => Err(format!("{data:02X?}: std {std:?}, strict {ours:?}")),
    }
}

/// The code points an `utf8_rfc2279` input stands for: five bytes each, a
/// shift and a little-endian 32-bit value shifted right by it (mod 32), so
/// that every sequence length is common.
pub fn values_of(data: &[u8]) -> Vec<u32> {
    data.chunks_exact(5)
        .map(|c| u32::from_le_bytes([c[1], c[2], c[3], c[4]]) >> (c[0] % 32))
        .collect()
}

/// `utf8_rfc2279`: with an even first byte, the rest is decoded in RFC 2279
/// mode: what decodes re-encodes to the same bytes (so no two byte strings
/// decode alike: no overlong form passes), and an error's position is the
/// end of the longest valid prefix. With an odd first byte, the rest stands
/// for code points ([`values_of`]): encoding fails exactly at the first one
/// above 0x7FFFFFFF, and otherwise decodes back to them, each taking the
/// length its row of RFC 2279's table gives.
pub fn rfc2279_roundtrip(data: &[u8]) -> Outcome {
    let data = clip(data);
    let Some((&selector, rest)) = data.split_first() else {
        return Ok(());
    };
    if selector % 2 == 0 {
        uniqueness(rest)
    } else {
        roundtrip(&values_of(rest))
    }
}

/// What decodes in RFC 2279 mode re-encodes to the same bytes; an error is
/// at the end of the longest valid prefix.
pub fn uniqueness(bytes: &[u8]) -> Outcome {
    uniqueness_of(bytes, |b| utf8::decode(b, Mode::Rfc2279))
}

/// [`uniqueness`] for any RFC 2279 decoder, against this module's encoder
/// (tests show it fails on a wrong one).
pub fn uniqueness_of(bytes: &[u8], decode: impl Fn(&[u8]) -> Result<Vec<u32>, Error>) -> Outcome {
    match decode(bytes) {
        Ok(values) => match utf8::encode(&values, Mode::Rfc2279) {
            Ok(again) if again == bytes => Ok(()),
            other => Err(format!(
                "{bytes:02X?} decodes to {values:X?}, which encodes to {other:02X?}"
            )),
        },
        Err(error) => {
            let at = error.position();
            let prefix_ok = bytes.get(..at).is_some_and(|prefix| decode(prefix).is_ok());
            let len_ok = error
                .error_len()
                .is_none_or(|len| len >= 1 && at + len <= bytes.len());
            let longer_fails =
                (at + 1..=bytes.len().min(at + 6)).all(|end| decode(&bytes[..end]).is_err());
            if prefix_ok && len_ok && longer_fails {
                Ok(())
            } else {
                Err(format!(
                    "{bytes:02X?}: error {error:?} is not at the end of the longest valid prefix"
                ))
            }
        }
    }
}

/// Code points up to 0x7FFFFFFF encode and decode back; encoding fails at
/// the first one above.
pub fn roundtrip(values: &[u32]) -> Outcome {
    let first_bad = values.iter().position(|&v| v > utf8::MAX_RFC2279);
    match (utf8::encode(values, Mode::Rfc2279), first_bad) {
        (Err(e), Some(at)) if e.position() == at => Ok(()),
        (Ok(bytes), None) => {
            let want_len: usize = values.iter().filter_map(|&v| utf8::sequence_len(v)).sum();
            if bytes.len() != want_len {
                return Err(format!(
                    "{values:X?} encode to {} bytes, the table says {want_len}",
                    bytes.len()
                ));
            }
            match utf8::decode(&bytes, Mode::Rfc2279) {
                Ok(back) if back == values => Ok(()),
                other => Err(format!(
                    "{values:X?} encode to {bytes:02X?}, which decodes to {other:X?}"
                )),
            }
        }
        (answer, first_bad) => Err(format!(
            "{values:X?}: first value above 0x7FFFFFFF at {first_bad:?}, encoder gives {answer:02X?}"
        )),
    }
}

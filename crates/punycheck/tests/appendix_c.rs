//! `csrc/punycode.c` is RFC 3492 Appendix C, byte for byte.

use punycheck::rfc_text::{RFC3492_TEXT, appendix_c};

#[test]
fn compiled_c_file_is_appendix_c_byte_for_byte() {
    let extracted = appendix_c(RFC3492_TEXT).expect("Appendix C is found in the RFC text");
    let compiled = include_str!("../csrc/punycode.c");
    if extracted != compiled {
        let line = extracted
            .lines()
            .zip(compiled.lines())
            .position(|(a, b)| a != b)
            .map_or(
                extracted.lines().count().min(compiled.lines().count()),
                |l| l,
            );
        panic!(
            "csrc/punycode.c differs from Appendix C at line {}: RFC {:?}, file {:?}",
            line + 1,
            extracted.lines().nth(line),
            compiled.lines().nth(line)
        );
    }
}

#[test]
fn rfc_text_is_the_published_one() {
    // The project's copy is the reference text as given in shared/specs: its
    // 35 pages and the Appendix C markers are all present.
    assert_eq!(RFC3492_TEXT.matches("Standards Track").count(), 36);
    assert!(RFC3492_TEXT.contains("[Page 35]"));
    let code = appendix_c(RFC3492_TEXT).unwrap();
    // Declared in the interface part, then defined.
    for (needle, count) in [
        ("enum punycode_status punycode_encode(", 2),
        ("enum punycode_status punycode_decode(", 2),
        ("static punycode_uint adapt(", 1),
        ("int main(int argc, char **argv)", 1),
    ] {
        assert_eq!(code.matches(needle).count(), count, "{needle}");
    }
}

//! `punycheck rfc-wrapper -e|-d`: RFC 3492 Appendix C's own test program,
//! compiled into punycheck, so that an installed punycheck carries it and
//! `exec:punycheck rfc-wrapper` works from any directory.

/// Runs the RFC's wrapper with `args` (`-e` to encode, `-d` to decode) on
/// standard input and output; the process ends with its exit status.
pub fn run(args: &[String]) -> ! {
    punycheck::c_reference::run_wrapper("punycheck rfc-wrapper", args)
}

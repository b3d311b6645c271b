//! Reports that only the command line renders: JUnit XML for CI systems
//! ([`junit`]). The library's reports (text and JSON) are in
//! `punycheck::harness::report`.

pub mod junit;

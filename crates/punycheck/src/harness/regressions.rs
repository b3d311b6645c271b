//! Regression files: questions saved as vector cases, with the expected
//! value computed by the codec's reference, to replay later
//! (`check --file`, `vectors --file`, `cargo test` for `vectors/`).
//!
//! Cases are appended through a TOML editor ([`toml_edit`]), never by
//! appending text: the file keeps its comments and other tables, a name
//! already in the file is never written twice (a case asking the same
//! question is not saved again, and a new question under a taken name gets
//! a suffix), and a file for a codec other than Punycode always carries its
//! `codec` line.

use std::path::Path;

use toml_edit::{DocumentMut, Item, Value};

use super::compare::reference_for;
use super::errors::DataError;
use super::vectors::{self, Case};
use crate::codec::Codec;
use crate::vocabulary::Request;

/// Who computes a codec's expected values, in words.
pub fn reference_name(codec: Codec) -> String {
    match crate::engines::reference_for(codec) {
        _ if codec == Codec::Punycode => "the C reference".into(),
        Some(engine) => format!("the {codec} reference ({})", engine.name()),
        None => format!("the {codec} reference"),
    }
}

/// Refuses a path that cannot be written, before a run that would save to
/// it (the file is created if missing, and left as it was otherwise).
pub fn check_writable(path: &str) -> Result<(), DataError> {
    let existed = Path::new(path).exists();
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|error| DataError::Write {
            path: path.to_string(),
            error,
        })?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// A regression file, open for appending.
pub struct File {
    path: String,
    codec: Codec,
    doc: DocumentMut,
    cases: Vec<Case>,
}

impl File {
    /// Opens (or starts) the file at `path` for `codec`'s cases. A file
    /// that exists must parse as a vector file of the same codec.
    pub fn open(path: &str, codec: Codec) -> Result<Self, DataError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(error) => {
                return Err(DataError::Read {
                    path: path.to_string(),
                    error,
                });
            }
        };
        let doc: DocumentMut = text
            .parse()
            .map_err(|e| DataError::invalid(path, format!("not TOML: {e}")))?;
        let cases = vectors::parse_file(path, &text)?;
        let file_codec = vectors::file_codec(path, &text)?;
        // A file of no case and no codec line (new, or comments only)
        // takes any codec's.
        if (!cases.is_empty() || doc.get("codec").is_some()) && file_codec != codec {
            return Err(DataError::OtherCodec {
                path: path.to_string(),
                holds: vectors::kind_of(file_codec),
                question: vectors::kind_of(codec),
            });
        }
        Ok(File {
            path: path.to_string(),
            codec,
            doc,
            cases,
        })
    }

    /// Adds `request` as a case named `name` (made unique if taken), its
    /// expected value computed by the reference. Returns the name it was
    /// saved under, or `None` when the file already asks this question.
    pub fn add(
        &mut self,
        name: &str,
        request: &Request,
        provenance: &str,
    ) -> Result<Option<String>, DataError> {
        let expected =
            reference_for(self.codec, request).ok_or_else(|| DataError::Unanswerable {
                reference: reference_name(self.codec),
            })?;
        if self
            .cases
            .iter()
            .any(|c| super::runner::request_of(c) == *request)
        {
            return Ok(None);
        }
        let mut unique = name.to_string();
        let mut k = 2;
        while self.cases.iter().any(|c| c.name == unique) {
            unique = format!("{name}-{k}");
            k += 1;
        }
        let provenance = format!(
            "{}. Expected value computed by {}.",
            provenance.trim_end_matches('.'),
            reference_name(self.codec)
        );
        // One case, written by the vector module, read as a table.
        let text = vectors::case_to_toml(self.codec, &unique, request, &expected, &provenance);
        let case_doc: DocumentMut = text
            .parse()
            .map_err(|e| DataError::invalid("a saved case", e))?;
        let Some(Item::ArrayOfTables(new)) = case_doc.get("case") else {
            return Err(DataError::invalid(
                "a saved case",
                "it did not come out as [[case]]",
            ));
        };
        // The file as it would be, read back as the loader reads it before
        // anything is kept: a case that would not load is never written.
        let mut doc = self.doc.clone();
        if doc.get("codec").is_none() {
            for (key, value) in header(self.codec) {
                doc.insert(key, Item::Value(value));
            }
        }
        let cases = doc
            .entry("case")
            .or_insert(Item::ArrayOfTables(Default::default()));
        let Some(cases) = cases.as_array_of_tables_mut() else {
            return Err(DataError::invalid(
                &self.path,
                "`case` is not an array of tables",
            ));
        };
        for table in new.iter() {
            cases.push(table.clone());
        }
        let text = doc.to_string();
        let loaded = vectors::parse_file(&self.path, &text)
            .map_err(|e| DataError::invalid(&self.path, format!("would not load again: {e}")))?;
        let codec = vectors::file_codec(&self.path, &text)?;
        if codec != self.codec {
            return Err(DataError::invalid(
                &self.path,
                format!(
                    "would load as {} cases, not {}",
                    vectors::kind_of(codec),
                    vectors::kind_of(self.codec)
                ),
            ));
        }
        self.doc = doc;
        self.cases = loaded;
        Ok(Some(unique))
    }

    /// Writes the file back: whole or not at all (a file beside it,
    /// renamed over it), so that an interrupted or failed write never
    /// leaves a half-written file.
    pub fn save(&self) -> Result<(), DataError> {
        let text = self.doc.to_string();
        vectors::parse_file(&self.path, &text)
            .map_err(|e| DataError::invalid(&self.path, format!("would not load again: {e}")))?;
        let path = Path::new(&self.path);
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let partial = path.with_file_name(format!(".{name}.{}.partial", std::process::id()));
        let write = |error| DataError::Write {
            path: self.path.clone(),
            error,
        };
        std::fs::write(&partial, text).map_err(write)?;
        std::fs::rename(&partial, path).map_err(|e| {
            let _ = std::fs::remove_file(&partial);
            write(e)
        })
    }
}

/// The lines at the top of a file of `codec`'s cases that the vector
/// loader reads its codec and profile from ([`vectors::file_codec`]): the
/// codec (none for Punycode), the rules, each of the first three switches
/// that is off (each is on by default) and each of UTS #46's other four
/// that is not its default; under the URL Standard, beStrict when on (its
/// switches follow from it).
pub fn header(codec: Codec) -> Vec<(&'static str, Value)> {
    let mut lines = Vec::new();
    if codec == Codec::Punycode {
        return lines;
    }
    lines.push(("codec", Value::from(codec.name())));
    let Some(profile) = codec.label_profile() else {
        return lines;
    };
    lines.push(("label-rules", Value::from(profile.rules.name())));
    if profile.rules.is_url() {
        if profile.be_strict() {
            lines.push(("be-strict", Value::from(true)));
        }
        return lines;
    }
    let switches = profile.switches;
    for (key, on) in [
        ("check-hyphens", switches.check_hyphens),
        ("std3-rules", switches.use_std3_ascii_rules),
        ("verify-dns-length", switches.verify_dns_length),
    ] {
        if !on {
            lines.push((key, Value::from(false)));
        }
    }
    // UTS #46's other four, each where it is not its default.
    let strict = crate::label::Switches::STRICT;
    for (key, value, default) in [
        ("check-bidi", switches.check_bidi, strict.check_bidi),
        (
            "check-joiners",
            switches.check_joiners,
            strict.check_joiners,
        ),
        (
            "transitional-processing",
            switches.transitional_processing,
            strict.transitional_processing,
        ),
        (
            "ignore-invalid-punycode",
            switches.ignore_invalid_punycode,
            strict.ignore_invalid_punycode,
        ),
    ] {
        if value != default {
            lines.push((key, Value::from(value)));
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> String {
        let dir =
            std::env::temp_dir().join(format!("punycheck-regressions-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name).display().to_string()
    }

    #[test]
    fn cases_are_appended_once_with_unique_names() {
        let path = temp("punycode.toml");
        std::fs::write(&path, "# my regressions\n[meta]\nowner = \"me\"\n").ok();
        // A file with other tables is not a vector file: refused, untouched.
        assert!(File::open(&path, Codec::Punycode).is_err());
        std::fs::write(&path, "# my regressions\n").unwrap();
        let mut file = File::open(&path, Codec::Punycode).unwrap();
        let a = Request::Decode(b"ab-c_d".to_vec());
        let b = Request::Decode(b"a-".to_vec());
        assert_eq!(file.add("r", &a, "first").unwrap().as_deref(), Some("r"));
        assert_eq!(file.add("r", &a, "again").unwrap(), None);
        assert_eq!(file.add("r", &b, "other").unwrap().as_deref(), Some("r-2"));
        file.save().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("# my regressions"), "{text}");
        let cases = vectors::parse_file(&path, &text).unwrap();
        assert_eq!(cases.len(), 2);
        // Reopened, the same question is still not saved twice.
        let mut again = File::open(&path, Codec::Punycode).unwrap();
        assert_eq!(again.add("r", &a, "third").unwrap(), None);
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn another_codec_keeps_its_codec_line() {
        let path = temp("lace.toml");
        let _ = std::fs::remove_file(&path);
        let mut file = File::open(&path, Codec::Lace).unwrap();
        let request = Request::Encode {
            code_points: vec![0x61, 0xE9],
            flags: None,
        };
        assert!(file.add("x", &request, "test").unwrap().is_some());
        file.save().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("codec = \"lace\""), "{text}");
        assert_eq!(
            vectors::parse_file(&path, &text).unwrap()[0].codec,
            Codec::Lace
        );
        assert!(File::open(&path, Codec::Punycode).is_err());
        let _ = std::fs::remove_file(&path);
    }

    /// A label case keeps its rules and switches, so that it replays under
    /// them; a file of another profile is refused.
    #[test]
    fn a_label_case_keeps_its_rules() {
        use crate::label::{LabelProfile, LabelRules};
        let path = temp("label-idna2008.toml");
        let _ = std::fs::remove_file(&path);
        let idna2008 = Codec::Label(LabelProfile {
            rules: LabelRules::Idna2008,
            ..LabelProfile::DEFAULT
        });
        let mut file = File::open(&path, idna2008).unwrap();
        let request = Request::Encode {
            code_points: vec![0x62, 0xFC, 0x63, 0x68, 0x65, 0x72],
            flags: None,
        };
        assert!(file.add("x", &request, "test").unwrap().is_some());
        file.save().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("label-rules = \"idna2008\""), "{text}");
        assert_eq!(
            vectors::parse_file(&path, &text).unwrap()[0].codec,
            idna2008
        );
        let uts46 = Codec::Label(LabelProfile::DEFAULT);
        let Err(refused) = File::open(&path, uts46) else {
            panic!("a file of IDNA2008 cases took a UTS #46 question")
        };
        assert_eq!(
            refused.to_string(),
            format!(
                "{path} holds label [{}] cases; this question is label [{}]",
                LabelProfile {
                    rules: LabelRules::Idna2008,
                    ..LabelProfile::DEFAULT
                },
                LabelProfile::DEFAULT
            )
        );
        assert!(File::open(&path, idna2008).is_ok());
        let _ = std::fs::remove_file(&path);
        // The URL Standard's switches, all off, are written and read back.
        let url = Codec::Label(LabelProfile {
            switches: crate::label::Switches::URL,
            ..LabelProfile::DEFAULT
        });
        let lax = temp("label-url.toml");
        let _ = std::fs::remove_file(&lax);
        let mut file = File::open(&lax, url).unwrap();
        assert!(file.add("x", &request, "test").unwrap().is_some());
        file.save().unwrap();
        let text = std::fs::read_to_string(&lax).unwrap();
        for key in ["check-hyphens", "std3-rules", "verify-dns-length"] {
            assert!(text.contains(&format!("{key} = false")), "{text}");
        }
        assert_eq!(vectors::parse_file(&lax, &text).unwrap()[0].codec, url);
        assert!(File::open(&lax, uts46).is_err());
        let _ = std::fs::remove_file(&lax);
    }

    /// Every codec under every profile: a refusal and an answer saved,
    /// read back by the loader with the codec and profile they were asked
    /// under and the reference's answers; and refused by a file of any
    /// other.
    #[test]
    fn saved_cases_load_back_for_every_codec_and_profile() {
        use crate::label::{LabelOptions, LabelProfile, LabelRules, Switches};
        let mut codecs = vec![Codec::Punycode, Codec::AmcAceZ, Codec::Lace, Codec::Utf8];
        for domain in [false, true] {
            for rules in LabelRules::EVERY {
                let switchings: Vec<Switches> = if rules.is_url() {
                    vec![Switches::STRICT, Switches::URL]
                } else {
                    (0..8)
                        .map(|bits: u8| Switches {
                            check_hyphens: bits & 1 != 0,
                            use_std3_ascii_rules: bits & 2 != 0,
                            verify_dns_length: bits & 4 != 0,
                            ..Switches::STRICT
                        })
                        .collect()
                };
                for switches in switchings {
                    let options = LabelOptions {
                        rules: Some(rules),
                        ..LabelOptions::default()
                    };
                    let Ok(mut profile) = options.applied(LabelProfile::DEFAULT, domain) else {
                        continue;
                    };
                    profile.switches = switches;
                    codecs.push(if domain {
                        Codec::Domain(profile)
                    } else {
                        Codec::Label(profile)
                    });
                }
            }
        }
        let cps = |s: &str| Request::Encode {
            code_points: s.chars().map(u32::from).collect(),
            flags: None,
        };
        let requests = [
            cps("b\u{FC}cher"),
            // Refused by every label and name profile: a Bidi label
            // beginning with a digit is not the worst of it; U+FFFF is
            // disallowed everywhere.
            cps("a\u{FFFF}b"),
            cps("\u{0661}\u{0662}a"),
            Request::Decode(b"xn--a.b-".to_vec()),
            Request::Decode(vec![0xC3, 0xA9, b'.', 0x7F]),
        ];
        for (k, &codec) in codecs.iter().enumerate() {
            let path = temp(&format!("roundtrip-{k}.toml"));
            let _ = std::fs::remove_file(&path);
            let mut file = File::open(&path, codec).unwrap();
            let mut saved = 0;
            for (n, request) in requests.iter().enumerate() {
                if reference_for(codec, request).is_none() {
                    continue;
                }
                file.add(&format!("case-{n}"), request, "test")
                    .unwrap_or_else(|e| panic!("{}: {e}", vectors::kind_of(codec)));
                saved += 1;
            }
            file.save().unwrap();
            let text = std::fs::read_to_string(&path).unwrap();
            let cases = vectors::parse_file(&path, &text)
                .unwrap_or_else(|e| panic!("{}: {e}\n{text}", vectors::kind_of(codec)));
            assert_eq!(cases.len(), saved, "{text}");
            for case in &cases {
                assert_eq!(case.codec, codec, "{text}");
                let request = crate::harness::runner::request_of(case);
                assert_eq!(Some(case.expected.clone()), reference_for(codec, &request));
                if let Some(reason) = &case.reason {
                    let profile = codec.label_profile().unwrap();
                    let why = crate::domain::refusal(codec, &request).unwrap();
                    assert!(why.explained(profile.rules).contains(reason.as_str()));
                }
            }
            if codec.label_profile().is_some() {
                assert!(
                    cases.iter().any(|c| c.reason.is_some()),
                    "no refusal saved for {}",
                    vectors::kind_of(codec)
                );
            }
            // Every other codec or profile is refused by this file, by
            // the loader for check --file and by the regression writer.
            for &other in codecs.iter().filter(|&&c| c != codec) {
                assert!(File::open(&path, other).is_err());
                let refused =
                    vectors::refuse_other_codecs(std::slice::from_ref(&path), other).unwrap_err();
                assert_eq!(
                    refused.to_string(),
                    format!(
                        "{path} holds {} cases; this run asks {} questions (give the codec and \
                         rules of the file, or a file of this run's)",
                        vectors::kind_of(codec),
                        vectors::kind_of(other)
                    )
                );
            }
            vectors::refuse_other_codecs(std::slice::from_ref(&path), codec).unwrap();
            let _ = std::fs::remove_file(&path);
        }
        assert!(codecs.len() > 30, "{}", codecs.len());
    }

    /// A case that would not load is never written, and the file on disk
    /// is left as it was.
    #[test]
    fn a_file_is_never_left_half_written() {
        let path = temp("whole.toml");
        std::fs::write(&path, "# mine\n").unwrap();
        let mut file = File::open(&path, Codec::Punycode).unwrap();
        file.add("r", &Request::Decode(b"a-".to_vec()), "test")
            .unwrap();
        // A name the loader refuses as a duplicate of itself cannot be
        // made; a table that is not [[case]] can: the file refuses it.
        file.doc.insert("case", Item::Value(Value::from(1)));
        assert!(file.save().is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "# mine\n");
        let dir = Path::new(&path).parent().unwrap();
        assert!(
            std::fs::read_dir(dir)
                .unwrap()
                .flatten()
                .all(|e| !e.file_name().to_string_lossy().starts_with(".whole.toml."))
        );
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn an_unwritable_path_is_refused() {
        assert!(check_writable("/nonexistent-dir/x.toml").is_err());
        let path = temp("writable.toml");
        check_writable(&path).unwrap();
        assert!(!Path::new(&path).exists());
    }
}

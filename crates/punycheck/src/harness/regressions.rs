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

/// What a file of `codec`'s cases holds, in words: the codec, and for the
/// label codec its profile.
fn file_kind(codec: Codec) -> String {
    match codec.label_profile() {
        Some(profile) => format!("{codec} [{profile}]"),
        None => codec.to_string(),
    }
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
        if !text.trim().is_empty() && file_codec != codec {
            return Err(DataError::OtherCodec {
                path: path.to_string(),
                holds: file_kind(file_codec),
                question: file_kind(codec),
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
        let text = vectors::case_to_toml(&unique, request, &expected, &provenance);
        let case_doc: DocumentMut = text
            .parse()
            .map_err(|e| DataError::invalid("a saved case", e))?;
        let Some(Item::ArrayOfTables(new)) = case_doc.get("case") else {
            return Err(DataError::invalid(
                "a saved case",
                "it did not come out as [[case]]",
            ));
        };
        if self.codec != Codec::Punycode && self.doc.get("codec").is_none() {
            self.doc
                .insert("codec", Item::Value(Value::from(self.codec.to_string())));
            if let Some(profile) = self.codec.label_profile() {
                self.doc.insert(
                    "label-rules",
                    Item::Value(Value::from(profile.rules.name())),
                );
                // The switches that are off (each is on by default); the
                // URL Standard's come from beStrict (off by default).
                let switches = profile.switches;
                let off = if profile.rules.is_url() {
                    if profile.be_strict() {
                        self.doc.insert("be-strict", Item::Value(Value::from(true)));
                    }
                    Vec::new()
                } else {
                    [
                        ("check-hyphens", switches.check_hyphens),
                        ("std3-rules", switches.use_std3_ascii_rules),
                        ("verify-dns-length", switches.verify_dns_length),
                    ]
                    .into_iter()
                    .filter(|&(_, on)| !on)
                    .collect()
                };
                for (key, _) in off {
                    self.doc.insert(key, Item::Value(Value::from(false)));
                }
            }
        }
        let cases = self
            .doc
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
        self.cases.extend(vectors::parse_file(&self.path, &text)?);
        Ok(Some(unique))
    }

    /// Writes the file back.
    pub fn save(&self) -> Result<(), DataError> {
        // The codec line first, where the vector loader and readers look.
        let text = self.doc.to_string();
        std::fs::write(&self.path, text).map_err(|error| DataError::Write {
            path: self.path.clone(),
            error,
        })?;
        vectors::parse_file(&self.path, &self.doc.to_string())
            .map(|_| ())
            .map_err(|e| DataError::invalid(&self.path, format!("would not load again: {e}")))
    }
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

    #[test]
    fn an_unwritable_path_is_refused() {
        assert!(check_writable("/nonexistent-dir/x.toml").is_err());
        let path = temp("writable.toml");
        check_writable(&path).unwrap();
        assert!(!Path::new(&path).exists());
    }
}

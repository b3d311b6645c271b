//! Why a data file cannot be used: the vector files, the expectations, a
//! baseline, a regression file. Every function of the harness that reads
//! or writes one returns a [`DataError`].

use std::fmt;
use std::io;

/// A data file that cannot be read, written or understood.
#[derive(Debug)]
pub enum DataError {
    /// It cannot be read.
    Read {
        /// The file.
        path: String,
        /// What the system said.
        error: io::Error,
    },
    /// It cannot be written (or created).
    Write {
        /// The file.
        path: String,
        /// What the system said.
        error: io::Error,
    },
    /// What it holds is not valid: `problem` says what, and where in it.
    Invalid {
        /// The file, or what it is (`baseline`, `expectations`).
        file: String,
        /// What is wrong.
        problem: String,
    },
    /// A regression file that holds another codec's cases.
    OtherCodec {
        /// The file.
        path: String,
        /// The codec of its cases.
        holds: String,
        /// The codec of the question to save.
        question: String,
    },
    /// A file given to be asked whose cases are of another codec or
    /// profile than the run's.
    OtherCodecFile {
        /// The file.
        path: String,
        /// The codec of its cases.
        holds: String,
        /// The codec the run asks.
        asked: String,
    },
    /// A question the codec's reference cannot answer, so there is no
    /// expected answer to save.
    Unanswerable {
        /// The reference, named.
        reference: String,
    },
}

impl DataError {
    /// [`DataError::Invalid`] of `file`.
    pub fn invalid(file: impl Into<String>, problem: impl fmt::Display) -> Self {
        DataError::Invalid {
            file: file.into(),
            problem: problem.to_string(),
        }
    }
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Read { path, error } => write!(f, "cannot read {path}: {error}"),
            DataError::Write { path, error } => write!(f, "cannot write {path}: {error}"),
            DataError::Invalid { file, problem } => write!(f, "{file}: {problem}"),
            DataError::OtherCodec {
                path,
                holds,
                question,
            } => write!(f, "{path} holds {holds} cases; this question is {question}"),
            DataError::OtherCodecFile { path, holds, asked } => write!(
                f,
                "{path} holds {holds} cases; this run asks {asked} questions (give the \
                 codec and rules of the file, or a file of this run's)"
            ),
            DataError::Unanswerable { reference } => {
                write!(f, "{reference} cannot answer this question")
            }
        }
    }
}

impl std::error::Error for DataError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DataError::Read { error, .. } | DataError::Write { error, .. } => Some(error),
            _ => None,
        }
    }
}

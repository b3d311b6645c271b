//! A C library in-process, selected as `so:PATH[:PREFIX][:lengths=size_t]`:
//! a shared library exporting `PREFIXpunycode_encode` and
//! `PREFIXpunycode_decode` with the signatures and status codes of RFC 3492
//! Appendix C (`punycode_success` 0, `punycode_bad_input` 1,
//! `punycode_big_output` 2, `punycode_overflow` 3).
//!
//! # The spec
//!
//! - `PATH`: the library, as `dlopen(3)` takes it (a bare name such as
//!   `libidn.so.12` is searched on the library path).
//! - `:PREFIX`: what the two symbols' names start with (none by default).
//!   The part after the last colon is read as a prefix when it is a C
//!   identifier (or empty); a path with a colon in it can end with `:` to
//!   say "no prefix".
//! - `:lengths=size_t`: the lengths (`input_length`, `*output_length`) are
//!   `size_t`, as in GNU libidn 1.x's `punycode.h`; the default,
//!   `lengths=uint32`, is Appendix C's `punycode_uint`, a 32-bit unsigned
//!   integer. Code points are 32-bit in both.
//!
//! Either symbol may be missing when `--decode-only` or `--encode-only` is
//! declared; only the declared directions are resolved.
//!
//! # How a question is asked
//!
//! The calls run in a worker process ([`worker`]), so that a crash is a
//! finding ([`EngineError::Crashed`], with the line that says why) and the
//! run goes on with a new worker; a call that does not return within the
//! timeout is asked once more with the same limit in a new worker, then
//! counts as [`EngineError::Hung`]. Questions and answers are binary
//! frames ([`wire`]) left in a mapping shared with the worker
//! ([`channel`]); each harness thread has a worker of its own.
//!
//! Each array the library is given ends at a `PROT_NONE` guard page
//! ([`library`]): one element past the end faults. The output gets exactly
//! the room the C reference's answer needs, so a conforming library fills
//! it to the last element. When that answer is not empty the function is
//! first called with one element less room: a library that succeeds at L
//! must answer `punycode_big_output` at L - 1 (it cannot fit the output,
//! and a valid input has no other error), and one that writes the extra
//! element anyway (the CVE-2022-3602 class) faults on the guard page. When
//! the reference fails, the output gets as much room as any answer could
//! need.
//!
//! # What is compared
//!
//! The status, the output and `*output_length`. Beyond the harness's
//! comparison with the reference, these are [`EngineError::Broken`]: a
//! status outside the four; `punycode_big_output` with enough room (only
//! the RFC's statuses with kinds; with `--errors failure-only` any failure
//! is a failure); anything but `punycode_big_output` one element short;
//! a length beyond the room it was given; and output elements (or flags)
//! written past the length it reported, within the room.

mod channel;
mod library;
mod process;
mod wire;
mod worker;

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::StartError;
use super::attempt::{Deadline, Missed, Pool, ask_twice, cores};

use library::{Call, Library, Op, Outcome, Raw};
pub use library::{LengthType, LoadError};
pub use process::WorkerError;
use process::{Failure, Worker};
pub use worker::{FAULT_LINE, WORKER_ARG, worker_entry};

use crate::engines::{
    Capabilities, CodePointDomain, Declaration, DecodeResult, Directions, EncodeResult, Engine,
    EngineError, ErrorDetail, PunycodeInput,
};
use crate::punycode::{CaseFlags, Decoded, ErrorKind, MAX_DELTA_DIGITS};

/// The least time a worker is given to start and load the library.
const SETUP_TIME: Duration = Duration::from_secs(30);

/// A parsed `so:` spec (without the `so:`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SoSpec {
    /// The library's path or bare name.
    pub path: PathBuf,
    /// What the two symbols' names start with.
    pub prefix: String,
    /// The C type of the lengths.
    pub lengths: LengthType,
}

/// Whether `text` can start a C identifier's name (or is empty).
fn is_prefix(text: &str) -> bool {
    text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !text.starts_with(|c: char| c.is_ascii_digit())
}

impl SoSpec {
    /// Parses `PATH[:PREFIX][:lengths=uint32|size_t]`.
    pub fn parse(text: &str) -> Result<Self, StartError> {
        let mut rest = text;
        let mut lengths = None;
        let mut prefix = None;
        while let Some((head, last)) = rest.rsplit_once(':') {
            if let Some(name) = last.strip_prefix("lengths=") {
                if lengths.is_some() {
                    return Err(StartError::LengthsTwice {
                        spec: text.to_string(),
                    });
                }
                lengths = Some(match name {
                    "uint32" | "punycode_uint" => LengthType::Uint32,
                    "size_t" => LengthType::SizeT,
                    _ => {
                        return Err(StartError::UnknownLengthType {
                            spec: text.to_string(),
                            name: name.to_string(),
                        });
                    }
                });
            } else if prefix.is_none() && is_prefix(last) {
                prefix = Some(last.to_string());
            } else {
                break;
            }
            rest = head;
        }
        if rest.is_empty() {
            return Err(StartError::NoLibrary);
        }
        Ok(SoSpec {
            path: PathBuf::from(rest),
            prefix: prefix.unwrap_or_default(),
            lengths: lengths.unwrap_or(LengthType::Uint32),
        })
    }

    /// The two symbols' names.
    pub fn symbols(&self) -> (String, String) {
        library::symbol_names(&self.prefix)
    }
}

/// The capabilities of a C library under `declaration`: everything RFC
/// 3492 asks, with annotations, unless declared otherwise.
fn capabilities(declaration: &Declaration) -> Capabilities {
    declaration.apply(Capabilities {
        name_limits: crate::engines::NameLimits::NONE,
        domain: CodePointDomain::U32,
        annotations: true,
        errors: ErrorDetail::Kinds,
        punycode_input: PunycodeInput::Bytes,
        max_encode_input: None,
        max_decode_input: None,
        bound_answers: Default::default(),
        directions: Directions::Both,
        deviations: &[],
        unicode_version: None,
        verdict_only: false,
    })
}

/// The call that asks the library to encode: room for exactly the C
/// reference's answer, and first one less; as much as any answer could
/// need when the reference fails.
fn encode_call(input: &[u32], flags: Option<&[bool]>) -> Call {
    let op = Op::Encode {
        code_points: input.to_vec(),
        flags: flags.map(<[bool]>::to_vec),
    };
    match crate::c_reference::encode(input, flags) {
        Ok(answer) => exact(op, answer.len()),
        Err(_) => Call {
            op,
            capacity: (input.len() as u64)
                .saturating_mul(u64::from(MAX_DELTA_DIGITS))
                .saturating_add(2),
            edge: None,
        },
    }
}

/// The call that asks the library to decode, sized as [`encode_call`]
/// (a decoder never outputs more code points than it reads bytes). Without
/// the call one element short when the answer is outside the declared
/// `domain`: such an answer must be refused, so a refusal is right there
/// at any room.
fn decode_call(input: &[u8], want_flags: bool, domain: CodePointDomain) -> Call {
    let op = Op::Decode {
        input: input.to_vec(),
        want_flags,
    };
    match crate::c_reference::decode(input) {
        Ok(answer)
            if domain == CodePointDomain::UnicodeScalar
                && answer
                    .code_points
                    .iter()
                    .any(|&cp| char::from_u32(cp).is_none()) =>
        {
            Call {
                op,
                capacity: answer.code_points.len() as u64,
                edge: None,
            }
        }
        Ok(answer) => exact(op, answer.code_points.len()),
        Err(_) => Call {
            op,
            capacity: input.len() as u64,
            edge: None,
        },
    }
}

/// Room for exactly `needed` elements, and first one less.
fn exact(op: Op, needed: usize) -> Call {
    Call {
        op,
        capacity: needed as u64,
        edge: (needed as u64).checked_sub(1),
    }
}

/// The name of a status of Appendix C.
fn status_name(status: i32) -> String {
    match status {
        0 => "punycode_success".into(),
        1 => "punycode_bad_input".into(),
        2 => "punycode_big_output".into(),
        3 => "punycode_overflow".into(),
        other => format!("status {other}, which is not a punycode_status (0 to 3)"),
    }
}

/// What the functions' answers mean: the output (bytes, or code points as
/// native-order bytes) and flags, or the error. `unit` names an output
/// element in messages.
fn interpret(call: &Call, raw: Raw, errors: ErrorDetail) -> Result<Outcome, EngineError> {
    let unit = match call.op {
        Op::Encode { .. } => "characters",
        Op::Decode { .. } => "code points",
    };
    let kinds = errors == ErrorDetail::Kinds;
    if let (Some(edge), Some(room)) = (&raw.edge, call.edge) {
        let fine = match edge.status {
            2 => true,
            1 | 3 => !kinds,
            _ => false,
        };
        if !fine {
            let what = match edge.status {
                0 => format!("punycode_success with {} {unit}", edge.reported),
                other => status_name(other),
            };
            return Err(EngineError::Broken(format!(
                "with room for {room} {unit}, one fewer than the answer needs, it answered {what} instead of punycode_big_output"
            )));
        }
    }
    let main = raw.main;
    let room = call.capacity;
    let kind = |kind| EngineError::Rejected(kinds.then_some(kind));
    match main.status {
        0 if main.reported > room => Err(EngineError::Broken(format!(
            "punycode_success with *output_length {}, beyond the room for {room} {unit} it was given",
            main.reported
        ))),
        0 if main.wrote_past_reported => Err(EngineError::Broken(format!(
            "punycode_success with {} {unit}, but it also wrote past them, into the rest of the room for {room}",
            main.reported
        ))),
        0 => Ok(main),
        1 => Err(kind(ErrorKind::BadInput)),
        3 => Err(kind(ErrorKind::Overflow)),
        2 if !kinds => Err(EngineError::Rejected(None)),
        2 => {
            let enough = if call.edge.is_some() || room == 0 {
                "exactly what the answer needs"
            } else {
                "more than any answer needs"
            };
            Err(EngineError::Broken(format!(
                "punycode_big_output with room for {room} {unit}, {enough}"
            )))
        }
        other => Err(EngineError::Broken(format!(
            "returned {}",
            status_name(other)
        ))),
    }
}

/// Encodes through `run`, which makes a call.
fn encode_through(
    caps: &Capabilities,
    input: &[u32],
    case_flags: Option<&[bool]>,
    run: impl FnOnce(&Call) -> Result<Raw, EngineError>,
) -> EncodeResult {
    if case_flags.is_some() && !caps.annotations {
        return Err(EngineError::Unsupported(
            "no annotation support declared".into(),
        ));
    }
    if !caps.directions.encodes() {
        return Err(EngineError::Unsupported(
            "it only decodes (declared --decode-only)".into(),
        ));
    }
    let call = encode_call(input, case_flags);
    let raw = run(&call)?;
    Ok(interpret(&call, raw, caps.errors)?.output)
}

/// Decodes through `run`, which makes a call.
fn decode_through(
    caps: &Capabilities,
    input: &[u8],
    run: impl FnOnce(&Call) -> Result<Raw, EngineError>,
) -> DecodeResult {
    if !caps.directions.decodes() {
        return Err(EngineError::Unsupported(
            "it only encodes (declared --encode-only)".into(),
        ));
    }
    let call = decode_call(input, caps.annotations, caps.domain);
    let raw = run(&call)?;
    let outcome = interpret(&call, raw, caps.errors)?;
    let code_points: Vec<u32> = outcome
        .output
        .chunks_exact(4)
        .map(|b| u32::from_ne_bytes(b.try_into().expect("4 bytes")))
        .collect();
    let flags = if caps.annotations {
        outcome.flags.iter().map(|&f| f != 0).collect()
    } else {
        CaseFlags::unset(code_points.len())
    };
    Ok(Decoded { code_points, flags })
}

/// A C library under test, called in worker processes.
pub struct So {
    name: String,
    spec: SoSpec,
    declaration: Declaration,
    timeout: Duration,
    worker: PathBuf,
    deadline: Deadline,
    idle: Pool<Worker>,
}

impl std::fmt::Debug for So {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("So")
            .field("name", &self.name)
            .field("declaration", &self.declaration)
            .field("timeout", &self.timeout)
            .finish()
    }
}

impl So {
    /// The library of `spec` (the text after `so:`), called in workers
    /// that run `worker` (the punycheck binary: `std::env::current_exe()`
    /// from the CLI, `env!("CARGO_BIN_EXE_punycheck")` from a test).
    /// Starts one worker at once, so that a library that cannot be loaded
    /// or lacks a symbol is an error here, with the reason.
    pub fn new(
        spec: &str,
        declaration: Declaration,
        timeout: Duration,
        worker: PathBuf,
    ) -> Result<Self, StartError> {
        let parsed = SoSpec::parse(spec)?;
        let so = So {
            name: format!("so:{spec}"),
            spec: parsed,
            declaration,
            timeout,
            worker,
            deadline: Deadline::default(),
            idle: Pool::new(),
        };
        let first = so.start().map_err(|error| StartError::Worker {
            name: so.name.clone(),
            error,
        })?;
        so.idle.put(first);
        Ok(so)
    }

    /// Starts a worker and has it load the library.
    fn start(&self) -> Result<Worker, WorkerError> {
        let directions = self.capabilities().directions;
        let setup = wire::Setup {
            path: self.spec.path.as_os_str().as_encoded_bytes().to_vec(),
            prefix: self.spec.prefix.clone(),
            lengths: self.spec.lengths,
            encode: directions.encodes(),
            decode: directions.decodes(),
        };
        // Loading is not what --timeout bounds: a loaded machine may take
        // a while to start a process.
        Worker::start(&self.worker, &setup, self.timeout.max(SETUP_TIME))
    }

    /// Asks the library two trivial questions (encode u+0061 u+00E9,
    /// decode `a-bga`), each only in a declared direction: a library that
    /// refuses them is not what the spec says (another signature, another
    /// prefix's functions), and the message says so. Every other wrong
    /// answer, a crash or a hang included, is left for the check to find
    /// and minimize.
    pub fn probe(&self) -> Result<(), StartError> {
        let directions = self.capabilities().directions;
        let refused = |question, error| StartError::LibraryRefused {
            name: self.name.clone(),
            question,
            error,
            lengths: self.spec.lengths,
        };
        // With exactly the room the answer needs, never one less: a refusal
        // there is what this looks for.
        let plain = |mut call: Call| {
            call.edge = None;
            let raw = self.run(&call)?;
            interpret(&call, raw, self.capabilities().errors)
        };
        if directions.encodes()
            && let Err(e @ EngineError::Rejected(_)) = plain(encode_call(&[0x61, 0xE9], None))
        {
            return Err(refused("to encode u+0061 u+00E9", e));
        }
        let caps = self.capabilities();
        if directions.decodes()
            && let Err(e @ EngineError::Rejected(_)) =
                plain(decode_call(b"a-bga", caps.annotations, caps.domain))
        {
            return Err(refused("to decode a-bga", e));
        }
        Ok(())
    }

    /// Makes `call` in an idle worker (or a new one); when it does not
    /// answer in time, once more in a new worker with a longer limit.
    fn run(&self, call: &Call) -> Result<Raw, EngineError> {
        let body = wire::call_body(call);
        ask_twice(
            self.timeout,
            &self.deadline,
            " (worker killed)",
            |allowed| {
                let mut worker = self.idle.take_or_start(|| {
                    self.start().map_err(|e| {
                        Missed::Failed(EngineError::Broken(format!(
                            "cannot start a new worker: {e}"
                        )))
                    })
                })?;
                match worker.ask(&body, allowed) {
                    Ok(Ok(raw)) => {
                        self.idle.put(worker);
                        Ok(raw)
                    }
                    Ok(Err(why)) => {
                        self.idle.put(worker);
                        Err(Missed::Failed(EngineError::Broken(why.to_string())))
                    }
                    Err(Failure::Died) => Err(Missed::Failed(worker.fault())),
                    Err(Failure::Garbled(why)) => Err(Missed::Failed(EngineError::Broken(
                        format!("the worker's answer is garbled ({why})"),
                    ))),
                    Err(Failure::TimedOut) => Err(Missed::TimedOut(String::new())),
                }
            },
        )
    }
}

impl Engine for So {
    fn name(&self) -> &str {
        &self.name
    }

    fn workers(&self) -> usize {
        // Each question keeps two processes busy (the harness thread and
        // its worker, both spinning for their turn): one per two cores.
        cores().map_or(1, |n| (n / 2).max(1))
    }

    fn set_deadline(&self, deadline: Option<Instant>) {
        self.deadline.set(deadline);
    }

    fn capabilities(&self) -> Capabilities {
        capabilities(&self.declaration)
    }

    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
        encode_through(&self.capabilities(), input, case_flags, |call| {
            self.run(call)
        })
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        decode_through(&self.capabilities(), input, |call| self.run(call))
    }
}

/// A C library called in this very process, without a worker: for the fuzz
/// target, where the fuzzer itself catches crashes (and a sanitizer
/// explains them). The same buffers, calls and judgement as [`So`].
pub struct InProcess {
    name: String,
    declaration: Declaration,
    library: Mutex<Library>,
}

impl std::fmt::Debug for InProcess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InProcess")
            .field("name", &self.name)
            .field("declaration", &self.declaration)
            .finish()
    }
}

impl InProcess {
    /// Loads the library of `spec` (the text after `so:`) into this
    /// process, resolving the functions of the declared directions.
    pub fn load(spec: &str, declaration: Declaration) -> Result<Self, StartError> {
        let parsed = SoSpec::parse(spec)?;
        let directions = capabilities(&declaration).directions;
        let library = Library::load(
            parsed.path.as_os_str().as_encoded_bytes(),
            &parsed.prefix,
            parsed.lengths,
            directions.encodes(),
            directions.decodes(),
        )
        .map_err(StartError::Load)?;
        Ok(InProcess {
            name: format!("so:{spec}"),
            declaration,
            library: Mutex::new(library),
        })
    }

    fn run(&self, call: &Call) -> Result<Raw, EngineError> {
        self.library
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .execute(call)
            .map_err(|e| EngineError::Broken(format!("cannot make the call: {e}")))
    }
}

impl Engine for InProcess {
    fn name(&self) -> &str {
        &self.name
    }

    fn capabilities(&self) -> Capabilities {
        capabilities(&self.declaration)
    }

    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
        encode_through(&self.capabilities(), input, case_flags, |call| {
            self.run(call)
        })
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        decode_through(&self.capabilities(), input, |call| self.run(call))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_name_a_path_a_prefix_and_a_length_type() {
        let parse = |s: &str| SoSpec::parse(s).unwrap();
        let p = parse("./libpuny.so");
        assert_eq!(
            (p.path, p.prefix, p.lengths),
            (
                PathBuf::from("./libpuny.so"),
                String::new(),
                LengthType::Uint32
            )
        );
        let p = parse("/usr/lib/x86_64-linux-gnu/libidn.so.12:lengths=size_t");
        assert_eq!(
            p.path,
            PathBuf::from("/usr/lib/x86_64-linux-gnu/libidn.so.12")
        );
        assert_eq!((p.prefix.as_str(), p.lengths), ("", LengthType::SizeT));
        let p = parse("lib.so:my_:lengths=uint32");
        assert_eq!((p.prefix.as_str(), p.lengths), ("my_", LengthType::Uint32));
        assert_eq!(p.symbols().0, "my_punycode_encode");
        let p = parse("lib.so:lengths=size_t:my_");
        assert_eq!((p.prefix.as_str(), p.lengths), ("my_", LengthType::SizeT));
        // A path with a colon: the part after the last one is not an
        // identifier, or a final colon says "no prefix".
        assert_eq!(parse("/a:b/lib.so").path, PathBuf::from("/a:b/lib.so"));
        let p = parse("/a:b:");
        assert_eq!((p.path, p.prefix), (PathBuf::from("/a:b"), String::new()));
        for bad in [
            "",
            ":my_",
            "lib.so:lengths=int",
            "lib.so:lengths=size_t:lengths=size_t",
        ] {
            assert!(SoSpec::parse(bad).is_err(), "{bad:?}");
        }
    }

    fn outcome(status: i32, reported: u64, output: &[u8]) -> Outcome {
        Outcome {
            status,
            reported,
            output: output.to_vec(),
            ..Outcome::default()
        }
    }

    #[test]
    fn calls_get_exactly_the_room_the_reference_needs() {
        let call = encode_call(&[0x61, 0xE9], None);
        assert_eq!((call.capacity, call.edge), (5, Some(4)));
        let u32_domain = CodePointDomain::U32;
        let call = decode_call(b"a-bga", true, u32_domain);
        assert_eq!((call.capacity, call.edge), (2, Some(1)));
        let empty = decode_call(b"", true, u32_domain);
        assert_eq!((empty.capacity, empty.edge), (0, None));
        // Outside Unicode: a Unicode-only library must refuse it, at any room.
        let outside = decode_call(b"w29b", true, u32_domain);
        assert_eq!((outside.capacity, outside.edge), (1, Some(0)));
        let outside = decode_call(b"w29b", true, CodePointDomain::UnicodeScalar);
        assert_eq!((outside.capacity, outside.edge), (1, None));
        // The reference fails: as much room as any answer needs, no edge.
        let call = decode_call(b"a-!!", true, u32_domain);
        assert_eq!((call.capacity, call.edge), (4, None));
        let call = encode_call(&[0x100, 0xFFFF_FFFF], None);
        assert_eq!((call.capacity, call.edge), (22, None));
    }

    #[test]
    fn answers_outside_the_interface_are_broken() {
        let call = encode_call(&[0x61, 0xE9], None);
        let good = outcome(0, 5, b"a-bga");
        let edge_ok = Some(outcome(2, 0, b""));
        let judge = |edge: Option<Outcome>, main: Outcome, errors| {
            interpret(&call, Raw { edge, main }, errors)
        };
        let kinds = ErrorDetail::Kinds;
        assert_eq!(
            judge(edge_ok.clone(), good.clone(), kinds).unwrap().output,
            b"a-bga"
        );
        let broken = |r: Result<Outcome, EngineError>| match r {
            Err(EngineError::Broken(why)) => why,
            other => panic!("{other:?}"),
        };
        let why = broken(judge(Some(outcome(0, 4, b"a-sg")), good.clone(), kinds));
        assert!(
            why.contains("with room for 4 characters, one fewer"),
            "{why}"
        );
        let why = broken(judge(Some(outcome(3, 0, b"")), good.clone(), kinds));
        assert!(
            why.contains("punycode_overflow instead of punycode_big_output"),
            "{why}"
        );
        // Saying only "failed" is enough one short, for a failure-only one.
        let failure_only = ErrorDetail::FailureOnly;
        assert!(judge(Some(outcome(1, 0, b"")), good.clone(), failure_only).is_ok());
        let why = broken(judge(edge_ok.clone(), outcome(0, 6, b""), kinds));
        assert!(
            why.contains("*output_length 6, beyond the room for 5"),
            "{why}"
        );
        let mut past = outcome(0, 4, b"a-sg");
        past.wrote_past_reported = true;
        let why = broken(judge(edge_ok.clone(), past, kinds));
        assert!(why.contains("wrote past them"), "{why}");
        let why = broken(judge(edge_ok.clone(), outcome(2, 0, b""), kinds));
        assert!(why.contains("exactly what the answer needs"), "{why}");
        assert_eq!(
            judge(edge_ok.clone(), outcome(2, 0, b""), failure_only).unwrap_err(),
            EngineError::Rejected(None)
        );
        let why = broken(judge(edge_ok.clone(), outcome(42, 0, b""), kinds));
        assert!(
            why.contains("status 42, which is not a punycode_status"),
            "{why}"
        );
        assert_eq!(
            judge(edge_ok.clone(), outcome(3, 0, b""), kinds).unwrap_err(),
            EngineError::Rejected(Some(ErrorKind::Overflow))
        );
        assert_eq!(
            judge(edge_ok, outcome(1, 0, b""), failure_only).unwrap_err(),
            EngineError::Rejected(None)
        );
    }

    #[test]
    fn a_worker_that_cannot_start_is_an_error_not_a_panic() {
        let e = So::new(
            "./lib.so",
            Declaration::default(),
            Duration::from_secs(1),
            PathBuf::from("/nonexistent/punycheck"),
        )
        .unwrap_err();
        assert!(
            matches!(
                &e,
                StartError::Worker {
                    error: WorkerError::Spawn { .. },
                    ..
                }
            ),
            "{e:?}"
        );
        let e = e.to_string();
        assert!(
            e.starts_with("so:./lib.so: cannot start the worker /nonexistent/punycheck: "),
            "{e}"
        );
        assert!(SoSpec::parse("").is_err());
    }
}

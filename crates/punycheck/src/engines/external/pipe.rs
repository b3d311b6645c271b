//! Any program that answers questions one line at a time on a persistent
//! pipe, selected as `pipe:COMMAND`: started once per worker and kept, so
//! that an implementation in a language that starts slowly is asked
//! thousands of questions a second instead of a few.
//!
//! The protocol, one line each way per question, in order, flushed:
//!
//! - request: `encode TOKENS` (the `u+XXXX`/`U+XXXX` tokens of the `exec:`
//!   convention, separated by single spaces) or `decode TEXT` (the encoded
//!   text, printable ASCII); with nothing to encode or decode, the verb
//!   stands alone (`encode`, `decode`);
//! - answer: `ok RESULT` (the encoded text, or the tokens separated by single
//!   spaces; `ok` alone for an empty result) or `error MESSAGE`, with the
//!   `exec:` convention's messages (`invalid input`, `arithmetic overflow`,
//!   `input or output is too large...`, or `failed...` for a program
//!   declared `--errors failure-only`), or `crash MESSAGE` when the
//!   implementation raised what a caller would not catch (an index out of
//!   bounds), which the adapter caught so as to go on: a crash, without
//!   the cost of starting the program again.
//!
//! For the other codecs the convention is that of `exec:`: LACE and
//! AMC-ACE-Z text as it is, UTF-8 as lowercase hexadecimal both ways.
//!
//! A program that dies or closes its output while a question is in flight
//! has crashed on that question ([`EngineError::Crashed`], with the line of
//! its standard error that says why); one that does not answer in time is
//! restarted and asked once more with the same limit before it counts
//! as hung ([`EngineError::Hung`], which says so when it had begun an
//! answer line and never finished it, and quotes the beginning); an answer
//! outside the protocol is [`EngineError::Broken`]. In each case the
//! program is restarted for the next question. Whatever a message quotes of
//! what the program printed is bounded ([`crate::vocabulary::excerpt`]).
//!
//! # Size
//!
//! Over 800 lines only with its unit tests (the code is under 650): the
//! one-question and the pipelined paths share their workers and their
//! handling of deaths, hangs and broken answers, and are tested beside it.

use std::io::{self, BufRead, BufReader, ErrorKind, Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, ChildStdin};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use wait_timeout::ChildExt;

use super::StartError;
use super::attempt::{Deadline, Missed, Pool, ask_twice, cores};
use super::line::{MAX_OUTPUT, Program, crash_line, parse_token, probe};
use super::process::{self, StderrTail};
use super::starved;
use crate::codec::Codec;
use crate::engines::{
    Capabilities, Declaration, DecodeResult, EncodeResult, Engine, EngineError, spent,
};
use crate::punycode::Decoded;
use crate::vocabulary::excerpt::{EXCERPT_BYTES, quoted_head};
use crate::vocabulary::{excerpt, parse_hex, quoted};

/// An external program under test, answering on a persistent pipe.
#[derive(Debug)]
pub struct Pipe {
    program: Program,
    timeout: Duration,
    deadline: Deadline,
    jobs: usize,
    /// Started workers that are not answering a question now.
    idle: Pool<Worker>,
}

/// One running copy of the program.
#[derive(Debug)]
struct Worker {
    child: Child,
    /// Whether it has not been asked anything yet (its start-up may still
    /// be running).
    fresh: bool,
    /// Questions for the writer thread (which owns the program's stdin).
    questions: mpsc::Sender<Vec<u8>>,
    /// Lines of its standard output, from the reader thread.
    answers: mpsc::Receiver<Line>,
    /// The line the reader thread is in the middle of, if any.
    unfinished: Arc<Mutex<Unfinished>>,
    /// The end of its standard error since the question in flight.
    stderr: StderrTail,
}

/// What the reader thread saw on the program's standard output.
#[derive(Debug)]
enum Line {
    /// One line, without its newline.
    Text(Vec<u8>),
    /// A line longer than [`MAX_OUTPUT`].
    TooLong,
    /// The end of the output (or an error reading it).
    End,
}

/// The start of a line of the program's output that has no newline yet.
#[derive(Debug, Default)]
struct Unfinished {
    /// Its first bytes, at most [`EXCERPT_BYTES`].
    head: Vec<u8>,
    /// Its length so far.
    len: usize,
}

impl Pipe {
    /// Parses `command` into words the way a POSIX shell would (quotes and
    /// backslashes, no expansion). `declaration` says what the program
    /// supports; `timeout` bounds each answer; `jobs` is how many copies
    /// answer at once (by default one per core). Nothing starts until the
    /// first question.
    pub fn new(
        command: &str,
        declaration: Declaration,
        timeout: Duration,
        jobs: Option<usize>,
    ) -> Result<Self, StartError> {
        let program = Program::new("pipe", command, "python3 my_adapter.py", declaration)?;
        let jobs = jobs.unwrap_or_else(|| cores().unwrap_or(2)).max(1);
        Ok(Pipe {
            program,
            timeout,
            deadline: Deadline::default(),
            jobs,
            idle: Pool::new(),
        })
    }

    /// The same program, implementing `codec` (Punycode unless this is
    /// called). Codecs without annotations never send flags.
    pub fn for_codec(mut self, codec: Codec) -> Self {
        self.program.set_codec(codec);
        self
    }

    /// Asks trivial questions (encode u+0061 u+00E9, decode its encoding)
    /// in the declared directions to show that the program starts and
    /// speaks the protocol; the message says what went wrong.
    ///
    /// Then asks one of them escaped (`encodex`/`decodex`): a program that
    /// answers it as it answered plainly is asked every byte; one that
    /// does not (written before the escaped form) only printable ASCII.
    pub fn probe(&self) -> Result<(), StartError> {
        probe(
            self,
            &self.program,
            "the pipe: protocol (lines \"encode TOKENS\" / \"decode TEXT\" answered by \"ok RESULT\" / \"error MESSAGE\", or a validator's \"valid\" / \"invalid REASON\")",
            |code_points, escaped| self.encode_as(code_points, None, escaped),
            |text, escaped| self.decode_as(text, escaped),
        )
    }

    /// Asks one question (a request line, without its newline) and returns
    /// the answer line; a slow answer is asked again, of a fresh worker,
    /// with a longer limit before it counts as a hang.
    fn ask(&self, question: &[u8]) -> Result<Vec<u8>, EngineError> {
        let again = " of a fresh process (killed)";
        ask_twice(self.timeout, &self.deadline, again, |allowed| {
            let worker = self
                .idle
                .take_or_start(|| Worker::start(&self.program))
                .map_err(Missed::Failed)?;
            let (worker, answer) = worker.ask(question, allowed, self.deadline.get())?;
            // Out of the protocol, it may also be out of step with the
            // questions: the next question goes to a fresh one.
            if in_protocol(&answer) {
                self.idle.put(worker);
            }
            Ok(answer)
        })
    }

    /// Asks `questions` (request lines, without their newlines), all in
    /// flight on one worker, and returns their answer lines in order: the
    /// protocol answers in order, so a program that reads a line at a
    /// time answers them as it would one by one, without a round trip
    /// each. Where the pipelined run stops (an answer that does not come
    /// within the time limit, a death, an answer outside the protocol),
    /// its worker is ended, the question it stopped at is asked alone
    /// ([`Pipe::ask`], with its retry, so that a crash or a hang is that
    /// question's), and the rest go on pipelined on a fresh worker.
    fn ask_many(&self, questions: &[Vec<u8>]) -> Vec<Result<Vec<u8>, EngineError>> {
        let mut answers = Vec::with_capacity(questions.len());
        while answers.len() < questions.len() {
            self.pipelined(&questions[answers.len()..], &mut answers);
            if let Some(question) = questions.get(answers.len()) {
                answers.push(self.ask(question));
            }
        }
        answers
    }

    /// Asks `questions` of one worker, all in flight, and pushes each
    /// answer in the protocol onto `answers`, until one does not come in
    /// time or is outside the protocol: the worker is then ended. Nothing
    /// is started after the deadline or an interruption.
    fn pipelined(&self, questions: &[Vec<u8>], answers: &mut Vec<Result<Vec<u8>, EngineError>>) {
        let past = |end: Instant| Instant::now() >= end;
        if process::interrupted() || self.deadline.get().is_some_and(past) {
            return;
        }
        let Ok(mut worker) = self.idle.take_or_start(|| Worker::start(&self.program)) else {
            return;
        };
        worker.stderr.clear();
        worker.fresh = false;
        for question in questions {
            let mut line = Vec::with_capacity(question.len() + 1);
            line.extend_from_slice(question);
            line.push(b'\n');
            let _ = worker.questions.send(line);
        }
        for _ in questions {
            let allowed = match self.deadline.get() {
                Some(end) => self
                    .timeout
                    .min(end.saturating_duration_since(Instant::now())),
                None => self.timeout,
            };
            match worker.answers.recv_timeout(allowed) {
                Ok(Line::Text(answer)) if in_protocol(&answer) => answers.push(Ok(answer)),
                // Dropped, the worker is ended with what it still holds.
                _ => return,
            }
        }
        self.idle.put(worker);
    }

    /// What an answer line says: the result text after `ok`, or the error
    /// the message stands for.
    fn interpret(&self, answer: Result<Vec<u8>, EngineError>) -> Result<String, EngineError> {
        let Ok(answer) = String::from_utf8(answer?) else {
            return Err(EngineError::Broken("the answer is not UTF-8 text".into()));
        };
        // A validator's verdict (`--answers verdict`): valid is a success
        // with no text, invalid a refusal that says no kind.
        if answer == "ok" || answer == "valid" {
            return Ok(String::new());
        }
        if answer == "invalid" || answer.starts_with("invalid ") {
            let why = answer["invalid".len()..].trim();
            return Err(EngineError::Failed(if why.is_empty() {
                "invalid".into()
            } else {
                format!("invalid: {}", excerpt(why))
            }));
        }
        if let Some(result) = answer.strip_prefix("ok ") {
            return Ok(result.to_string());
        }
        // An exception the implementation raised, caught by the adapter,
        // which goes on: a crash without a restart.
        if let Some(message) = answer.strip_prefix("crash ") {
            return Err(EngineError::Crashed(format!(
                "raised, caught by its adapter: {}",
                excerpt(message.trim())
            )));
        }
        if let Some(message) = answer.strip_prefix("error ") {
            let kinds = self.program.says_kinds();
            return Err(self
                .program
                .refusal(message.trim(), kinds)
                .unwrap_or_else(|| {
                    EngineError::Broken(format!(
                        "an error message outside the convention: {}",
                        quoted(message.as_bytes())
                    ))
                }));
        }
        Err(EngineError::Broken(format!(
            "answered {}, a line that starts with neither ok nor error",
            quoted(answer.as_bytes())
        )))
    }
}

/// The request line `verb payload` (the verb alone for an empty payload).
fn question_line(verb: &str, payload: &[u8]) -> Vec<u8> {
    let mut question = verb.as_bytes().to_vec();
    if !payload.is_empty() {
        question.push(b' ');
        question.extend_from_slice(payload);
    }
    question
}

/// Whether an answer line is one of the protocol's, a validator's verdict
/// included (after it, the program is in step with the questions).
fn in_protocol(answer: &[u8]) -> bool {
    [&b"ok"[..], b"error ", b"crash ", b"valid", b"invalid"]
        .iter()
        .any(|start| answer.starts_with(start))
}

impl Pipe {
    /// Asks to encode `input`: `encode TOKENS`, or `encodex TOKENS` when
    /// `escaped` (the answer's text in hexadecimal).
    fn encode_as(&self, input: &[u32], case_flags: Option<&[bool]>, escaped: bool) -> EncodeResult {
        let line = self.encode_line(input, case_flags, escaped)?;
        self.encoded(self.interpret(self.ask(&line)), escaped)
    }

    /// The request line that encodes `input`.
    fn encode_line(
        &self,
        input: &[u32],
        case_flags: Option<&[bool]>,
        escaped: bool,
    ) -> Result<Vec<u8>, EngineError> {
        let tokens = self.program.tokens(input, case_flags)?;
        let verb = if escaped { "encodex" } else { "encode" };
        Ok(question_line(verb, tokens.as_bytes()))
    }

    /// The encoded text an encoding's `result` gives.
    fn encoded(&self, result: Result<String, EngineError>, escaped: bool) -> EncodeResult {
        let result = result?;
        if self.program.hex_channel() || escaped {
            return parse_hex(&result)
                .map_err(|e| EngineError::Broken(format!("result is not hexadecimal bytes: {e}")));
        }
        if let Some(bad) = result.bytes().find(|b| !(0x20..0x7F).contains(b)) {
            return Err(EngineError::Broken(format!(
                "result contains byte {bad:#04X}, which is not printable ASCII: {}",
                quoted(result.as_bytes())
            )));
        }
        Ok(result.into_bytes())
    }

    /// Asks to decode `input`: `decode TEXT`, or `decodex HEX` when
    /// `escaped`.
    fn decode_as(&self, input: &[u8], escaped: bool) -> DecodeResult {
        let line = self.decode_line(input, escaped)?;
        self.decoded(self.interpret(self.ask(&line)))
    }

    /// The request line that decodes `input`.
    fn decode_line(&self, input: &[u8], escaped: bool) -> Result<Vec<u8>, EngineError> {
        let verb = if escaped { "decodex" } else { "decode" };
        Ok(question_line(
            verb,
            &self.program.channel_text(input, escaped)?,
        ))
    }

    /// The code points a decoding's `result` gives.
    fn decoded(&self, result: Result<String, EngineError>) -> DecodeResult {
        let result = result?;
        let mut decoded = Decoded::default();
        if !result.is_empty() {
            for token in result.split(' ') {
                let (cp, flag) = parse_token(token)
                    .map_err(|e| EngineError::Broken(format!("result token {e}")))?;
                decoded.code_points.push(cp);
                decoded.flags.push(flag);
            }
        }
        Ok(self.program.decoded(decoded))
    }

    /// Asks every line of `lines` that could be written (pipelined,
    /// [`Pipe::ask_many`]) and gives each its answer line, or the error
    /// that kept it from being asked.
    fn many(&self, lines: Vec<Result<Vec<u8>, EngineError>>) -> Vec<Result<Vec<u8>, EngineError>> {
        let asked: Vec<Vec<u8>> = lines
            .iter()
            .filter_map(|l| l.as_ref().ok().cloned())
            .collect();
        let mut answers = self.ask_many(&asked).into_iter();
        lines
            .into_iter()
            .map(|line| match line {
                Ok(_) => answers.next().unwrap_or(Err(EngineError::Cancelled)),
                Err(e) => Err(e),
            })
            .collect()
    }
}

impl Worker {
    /// Starts the program with its three threads: one writing questions,
    /// one reading answers, one keeping the end of its standard error.
    fn start(program: &Program) -> Result<Worker, EngineError> {
        let mut child = program.spawn(&[])?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = StderrTail::start(child.stderr.take().expect("stderr is piped"));
        let (questions, to_write) = mpsc::channel();
        thread::spawn(move || write_questions(stdin, to_write));
        let (send, answers) = mpsc::channel();
        let unfinished = Arc::new(Mutex::new(Unfinished::default()));
        let line = Arc::clone(&unfinished);
        thread::spawn(move || read_answers(stdout, send, &line));
        Ok(Worker {
            child,
            fresh: true,
            questions,
            answers,
            unfinished,
            stderr,
        })
    }

    /// Asks one question; the worker comes back with the answer, or is
    /// ended. A timeout says what the answer line had begun with, if
    /// anything.
    /// Not answered within `allowed` but starved of the CPU, it is waited
    /// for up to the ceiling ([`starved::ceiling`], never past `deadline`).
    fn ask(
        mut self,
        question: &[u8],
        allowed: Duration,
        deadline: Option<Instant>,
    ) -> Result<(Worker, Vec<u8>), Missed> {
        let started = Instant::now();
        self.stderr.clear();
        let before = spent::Before::read(self.child.id(), self.fresh);
        self.fresh = false;
        let mut line = Vec::with_capacity(question.len() + 1);
        line.extend_from_slice(question);
        line.push(b'\n');
        // A send fails only when the writer thread has stopped, because the
        // program closed its input: its output will say the rest.
        let _ = self.questions.send(line);
        let ceiling = starved::ceiling(started, allowed, deadline);
        let mut slice = allowed;
        let mut starving = None;
        let answer = loop {
            match self.answers.recv_timeout(slice) {
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                other => break other,
            }
            let left = ceiling.saturating_duration_since(Instant::now());
            match starved::starved(self.child.id()).filter(|_| !left.is_zero()) {
                Some(share) => {
                    starving = Some(share);
                    slice = left.min(allowed);
                }
                None => break Err(mpsc::RecvTimeoutError::Timeout),
            }
        };
        // What it spent: for a question cut by its time limit, at least
        // that much.
        if let (Some(before), Ok(Line::Text(_)) | Err(mpsc::RecvTimeoutError::Timeout)) =
            (before, &answer)
        {
            before.record();
        }
        match answer {
            Ok(Line::Text(answer)) => Ok((self, answer)),
            Ok(Line::TooLong) => Err(Missed::Failed(EngineError::Broken(format!(
                "an answer longer than {} MiB, the most punycheck reads",
                MAX_OUTPUT >> 20
            )))),
            // Ended by an interruption: nothing to read of its death.
            Ok(Line::End) | Err(mpsc::RecvTimeoutError::Disconnected) if process::interrupted() => {
                Err(Missed::Failed(EngineError::Cancelled))
            }
            Ok(Line::End) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                Err(Missed::Failed(self.died()))
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let line = self.unfinished.lock().unwrap_or_else(|e| e.into_inner());
                let starved = starving.map_or(String::new(), |share| {
                    starved::note(share, started.elapsed())
                });
                Err(Missed::TimedOut(if line.len > 0 {
                    format!(
                        "; its answer line was unfinished: it had printed {} and no newline{starved}",
                        quoted_head(&line.head, line.len)
                    )
                } else {
                    starved
                }))
            }
        }
    }

    /// The program closed its output with a question in flight: what it
    /// died of, with the line of its standard error that says why.
    fn died(mut self) -> EngineError {
        let status = self
            .child
            .wait_timeout(Duration::from_secs(1))
            .ok()
            .flatten();
        if let Some(held) = process::over_memory(self.child.id()) {
            return EngineError::Memory(process::memory_message(held));
        }
        // Its standard error may still be draining: read it to its end (a
        // child it left holding the stream open is killed with its group).
        if !self.stderr.ended_within(Duration::from_secs(1)) {
            process::end(&mut self.child);
            self.stderr.ended_within(Duration::from_secs(1));
        }
        let stderr = self.stderr.text();
        let said = crash_line(&stderr).or_else(|| {
            stderr
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .map(|l| excerpt(l.trim_end()))
        });
        let how = match status {
            Some(status) => match status.code() {
                Some(code) => format!("exited with status {code} while answering"),
                None => format!("killed by signal {}", status.signal().unwrap_or(0)),
            },
            None => "closed its output while answering".to_string(),
        };
        EngineError::Crashed(match said {
            Some(line) => format!("{how}: {line}"),
            None => how,
        })
    }
}

/// A worker that is dropped is ended: the program is killed with
/// everything in its group.
impl Drop for Worker {
    fn drop(&mut self) {
        process::end(&mut self.child);
    }
}

/// Writes each question to the program and flushes it; stops when the
/// program closes its input or the worker is dropped.
fn write_questions(stdin: ChildStdin, questions: mpsc::Receiver<Vec<u8>>) {
    let mut stdin = io::BufWriter::new(stdin);
    for question in questions {
        if stdin
            .write_all(&question)
            .and_then(|()| stdin.flush())
            .is_err()
        {
            break;
        }
    }
}

/// Sends each line of the program's output, then [`Line::End`]; keeps the
/// start of the line it is in the middle of in `unfinished`, for a hang's
/// message.
fn read_answers(stdout: impl Read, answers: mpsc::Sender<Line>, unfinished: &Mutex<Unfinished>) {
    let mut reader = BufReader::with_capacity(64 << 10, stdout);
    let mut line = Vec::new();
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => &[][..],
        };
        // The end of the output (inside a line or not), or an error.
        if chunk.is_empty() {
            let _ = answers.send(Line::End);
            return;
        }
        let newline = chunk.iter().position(|&b| b == b'\n');
        let taken = newline.map_or(chunk.len(), |k| k + 1);
        line.extend_from_slice(&chunk[..newline.unwrap_or(taken)]);
        reader.consume(taken);
        if line.len() as u64 > MAX_OUTPUT {
            let _ = answers.send(Line::TooLong);
            return;
        }
        let mut kept = unfinished.lock().unwrap_or_else(|e| e.into_inner());
        if newline.is_some() {
            *kept = Unfinished::default();
            drop(kept);
            if answers.send(Line::Text(std::mem::take(&mut line))).is_err() {
                return;
            }
        } else {
            let room = EXCERPT_BYTES.saturating_sub(kept.head.len());
            let start = kept.len;
            kept.head
                .extend_from_slice(&line[start..line.len().min(start + room)]);
            kept.len = line.len();
        }
    }
}

impl Engine for Pipe {
    fn name(&self) -> &str {
        &self.program.name
    }

    fn codec(&self) -> Codec {
        self.program.codec
    }

    fn workers(&self) -> usize {
        self.jobs
    }

    fn set_deadline(&self, deadline: Option<Instant>) {
        self.deadline.set(deadline);
    }

    fn capabilities(&self) -> Capabilities {
        self.program.capabilities()
    }

    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
        self.encode_as(input, case_flags, self.program.escapes_encoding(input))
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        self.decode_as(input, self.program.escapes_decoding(input))
    }

    fn encode_many(&self, inputs: &[Vec<u32>]) -> Vec<EncodeResult> {
        let escaped: Vec<bool> = inputs
            .iter()
            .map(|input| self.program.escapes_encoding(input))
            .collect();
        let lines = inputs
            .iter()
            .zip(&escaped)
            .map(|(input, &escaped)| self.encode_line(input, None, escaped))
            .collect();
        self.many(lines)
            .into_iter()
            .zip(escaped)
            .map(|(answer, escaped)| self.encoded(self.interpret(answer), escaped))
            .collect()
    }

    fn decode_many(&self, inputs: &[Vec<u8>]) -> Vec<DecodeResult> {
        let lines = inputs
            .iter()
            .map(|input| self.decode_line(input, self.program.escapes_decoding(input)))
            .collect();
        self.many(lines)
            .into_iter()
            .map(|answer| self.decoded(self.interpret(answer)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Pipe {
        let command = format!("sh -c {}", shell_words::quote(script));
        Pipe::new(
            &command,
            Declaration::default(),
            Duration::from_secs(5),
            Some(1),
        )
        .unwrap()
    }

    #[test]
    fn answers_in_the_protocol_are_read() {
        let pipe = sh("while read verb rest; do \
                if [ \"$verb\" = encode ]; then echo 'ok a-bga'; else echo 'ok u+0061 U+00E9'; fi; \
            done");
        assert_eq!(pipe.encode(&[0x61, 0xE9], None).unwrap(), b"a-bga");
        let decoded = pipe.decode(b"a-bga").unwrap();
        assert_eq!(decoded.code_points, [0x61, 0xE9]);
        assert_eq!(decoded.flags, [false, true]);
        // The same process answered both: one worker was kept.
        assert_eq!(pipe.idle.len(), 1);
    }

    #[test]
    fn many_questions_in_flight_come_back_in_order_and_a_death_is_its_question() {
        // Answers decode N with u+000N, and dies on 3: that question is
        // asked alone (and dies again), the rest go on with a fresh one.
        let pipe = sh("while read verb rest; do \
                if [ \"$rest\" = 3 ]; then kill -SEGV $$; fi; echo \"ok u+000$rest\"; \
            done");
        let inputs: Vec<Vec<u8>> = (1..=5).map(|n: u8| vec![b'0' + n]).collect();
        let answers = pipe.decode_many(&inputs);
        assert_eq!(answers.len(), 5);
        for (k, answer) in answers.iter().enumerate() {
            match k {
                2 => assert!(
                    matches!(answer, Err(EngineError::Crashed(m)) if m.contains("signal 11")),
                    "{answer:?}"
                ),
                _ => assert_eq!(answer.as_ref().unwrap().code_points, [k as u32 + 1]),
            }
        }
        let encoded = pipe.encode_many(&[vec![0x61], vec![0x62]]);
        assert_eq!(
            encoded,
            [Ok(b"u+000u+0061".to_vec()), Ok(b"u+000u+0062".to_vec())]
        );
    }

    #[test]
    fn errors_and_garbage_are_told_apart() {
        let pipe = sh("read line; echo 'error arithmetic overflow'; read line; echo 'nonsense'");
        let overflow = Err(EngineError::Rejected(Some(
            crate::punycode::ErrorKind::Overflow,
        )));
        assert_eq!(pipe.decode(b"x"), overflow);
        assert!(matches!(pipe.decode(b"x"), Err(EngineError::Broken(_))));
        // Out of the protocol, the worker was ended: a fresh one answers.
        assert_eq!(pipe.decode(b"x"), overflow);
    }

    #[test]
    fn a_death_in_flight_is_a_crash_of_that_question() {
        let pipe = sh("read line; echo 'about to die' >&2; kill -SEGV $$");
        for _ in 0..2 {
            let crashed = pipe.encode(&[0x61], None);
            assert!(
                matches!(&crashed, Err(EngineError::Crashed(m))
                    if m.contains("signal 11") && m.contains("about to die")),
                "{crashed:?}"
            );
        }
        let exits = sh("read line; exit 3");
        let crashed = exits.decode(b"a");
        assert!(
            matches!(&crashed, Err(EngineError::Crashed(m)) if m.contains("status 3")),
            "{crashed:?}"
        );
    }

    #[test]
    fn a_hang_is_asked_again_then_reported() {
        let pipe = Pipe::new(
            "sleep 60",
            Declaration::default(),
            Duration::from_millis(50),
            Some(1),
        )
        .unwrap();
        assert!(matches!(pipe.decode(b"a"), Err(EngineError::Hung(_))));
        pipe.set_deadline(Some(Instant::now()));
        assert_eq!(pipe.decode(b"a"), Err(EngineError::Cancelled));
    }

    #[test]
    fn empty_payloads_leave_the_verb_alone() {
        let pipe = sh(
            "while IFS= read -r line; do echo \"ok $line\" | sed 's/^ok encode$/ok/; s/^ok decode$/ok/'; done",
        );
        assert_eq!(pipe.encode(&[], None).unwrap(), b"");
        assert!(pipe.decode(b"").unwrap().code_points.is_empty());
    }

    #[test]
    fn a_failure_keeps_its_own_words() {
        let pipe = sh("read line; echo 'error failed: Illegal char found'; \
            read line; echo 'error failed'; read line; echo 'error failed:  '");
        let failed = pipe.decode(b"x");
        assert_eq!(
            failed,
            Err(EngineError::Failed("Illegal char found".into()))
        );
        assert_eq!(
            failed.unwrap_err().to_string(),
            "failed (no error kind given): Illegal char found"
        );
        assert_eq!(pipe.decode(b"x"), Err(EngineError::Rejected(None)));
        assert_eq!(pipe.decode(b"x"), Err(EngineError::Rejected(None)));
    }

    #[test]
    fn a_broken_answer_says_what_was_answered_bounded() {
        let pipe = sh("read line; echo 'nonsense'");
        assert_eq!(
            pipe.decode(b"x"),
            Err(EngineError::Broken(
                "answered \"nonsense\", a line that starts with neither ok nor error".into()
            ))
        );
        // A fresh process for each: a broken answer ends the one that gave it.
        let pipe = sh("read line; head -c 10000000 /dev/zero | tr '\\0' x; echo");
        let Err(EngineError::Broken(huge)) = pipe.decode(b"x") else {
            panic!("a broken answer");
        };
        assert!(
            huge.len() < 500 && huge.contains("\"… (10,000,000 bytes in all), a line"),
            "{huge}"
        );
    }

    /// A program that begins an answer line and never ends it hangs like
    /// any other; the hang says that the line was unfinished, and what it
    /// had printed.
    /// (A second is ample for `sh` to print before it sleeps, and the
    /// second try has four.)
    #[test]
    fn an_unfinished_answer_line_is_a_hang_that_says_so() {
        let command = format!(
            "sh -c {}",
            shell_words::quote("read line; printf 'ok a-b'; exec sleep 60")
        );
        let pipe = Pipe::new(
            &command,
            Declaration::default(),
            Duration::from_secs(1),
            Some(1),
        )
        .unwrap();
        let hung = pipe.decode(b"a");
        assert!(
            matches!(&hung, Err(EngineError::Hung(m))
                if m.ends_with("; its answer line was unfinished: it had printed \"ok a-b\" and no newline")),
            "{hung:?}"
        );
        // Without a begun line, the hang says nothing of one.
        let silent = Pipe::new(
            "sleep 60",
            Declaration::default(),
            Duration::from_millis(50),
            Some(1),
        )
        .unwrap();
        let hung = silent.decode(b"a");
        assert!(
            matches!(&hung, Err(EngineError::Hung(m)) if !m.contains("unfinished")),
            "{hung:?}"
        );
    }
}

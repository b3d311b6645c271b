//! The frames between punycheck and its `so:` worker process.
//!
//! Every frame is a 4-byte little-endian length and that many bytes. Both
//! ends are the same binary, but the layout is still spelled out
//! (little-endian, fixed widths) so that a frame is read the same way it
//! was written whatever the platform:
//!
//! - **Setup** (punycheck to worker, once): tag 0, the length type, which
//!   functions to resolve, the prefix and the library's path.
//! - **Ready** (worker to punycheck, once): tag 0, 1 for loaded or 0 with
//!   the reason it was not ([`LoadError`], its variant and fields).
//! - **Call** (punycheck to worker): tag 1 (encode) or 2 (decode), a flag
//!   byte, the capacity, the edge capacity (all ones for none), the input.
//! - **Raw** (worker to punycheck): whether there is an edge outcome, then
//!   each outcome: status, reported length, whether it wrote past the
//!   reported length, its output and its flags; or why the worker could
//!   not make the call ([`CallFailure`]).
//!
//! A frame that does not read as its kind is a [`WireError`].

use std::fmt;
use std::io::{self, Read, Write};

use super::library::{Call, LengthType, LoadError, Op, Outcome, Raw};

/// The longest frame either side accepts: far above any question (the
/// longest generated input is a few thousand code points).
pub const MAX_FRAME: usize = 256 << 20;

/// Why a frame's body does not read as the frame it should be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WireError {
    /// It ends before a field does.
    EndsEarly,
    /// Bytes are left after its last field.
    LeftOver,
    /// Its tag is not that of the frame expected (`setup`, `ready`,
    /// `call`), or of any variant of a field.
    NotA(&'static str),
    /// A length type other than the two there are.
    UnknownLengthType,
    /// A prefix that is not UTF-8.
    PrefixNotUtf8,
    /// A count of elements too large to be a length in bytes.
    TooLong,
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireError::EndsEarly => write!(f, "a frame ends early"),
            WireError::LeftOver => write!(f, "a frame has bytes left over"),
            WireError::NotA(what) => write!(f, "not a {what} frame"),
            WireError::UnknownLengthType => write!(f, "an unknown length type"),
            WireError::PrefixNotUtf8 => write!(f, "a prefix that is not UTF-8"),
            WireError::TooLong => write!(f, "too long"),
        }
    }
}

impl std::error::Error for WireError {}

/// Why a call was not made, as the worker (or the side that sends it the
/// call) says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallFailure {
    /// The call could not be handed to the worker.
    NotSent(String),
    /// The worker could not read the call.
    Unreadable(String),
    /// The worker read it and could not make it (its buffers could not be
    /// mapped, or the function was not resolved).
    NotMade(String),
}

impl fmt::Display for CallFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallFailure::NotSent(why) => write!(f, "cannot send the call: {why}"),
            CallFailure::Unreadable(why) => {
                write!(f, "the worker could not read the call: {why}")
            }
            CallFailure::NotMade(why) => write!(f, "the worker could not make the call: {why}"),
        }
    }
}

impl std::error::Error for CallFailure {}

/// What punycheck tells the worker to load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The library's path (or bare name), as bytes.
    pub path: Vec<u8>,
    /// The symbols' prefix.
    pub prefix: String,
    /// The C type of the lengths.
    pub lengths: LengthType,
    /// Whether to resolve `PREFIXpunycode_encode`.
    pub encode: bool,
    /// Whether to resolve `PREFIXpunycode_decode`.
    pub decode: bool,
}

/// Appends a frame's length to the front of `body`'s bytes and writes it
/// in one call.
pub fn write_frame(out: &mut impl Write, body: &[u8]) -> io::Result<()> {
    let mut frame = Vec::with_capacity(body.len() + 4);
    frame.extend_from_slice(&(body.len() as u32).to_le_bytes());
    frame.extend_from_slice(body);
    out.write_all(&frame)
}

/// Reads one frame; `None` at the end of the stream before a frame starts.
pub fn read_frame(input: &mut impl Read) -> io::Result<Option<Vec<u8>>> {
    let mut head = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        match input.read(&mut head[got..]) {
            Ok(0) if got == 0 => return Ok(None),
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let length = u32::from_le_bytes(head) as usize;
    if length > MAX_FRAME {
        return Err(io::Error::other(format!("a frame of {length} bytes")));
    }
    let mut body = vec![0u8; length];
    input.read_exact(&mut body)?;
    Ok(Some(body))
}

/// The length of the frame at the start of `buffer` (its 4-byte head
/// included), once it is all there.
pub fn complete_frame(buffer: &[u8]) -> Option<usize> {
    let head: [u8; 4] = buffer.get(..4)?.try_into().ok()?;
    let total = u32::from_le_bytes(head) as usize + 4;
    (buffer.len() >= total).then_some(total)
}

/// Reads a frame body field by field; every read checks the length.
struct Cursor<'a> {
    bytes: &'a [u8],
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], WireError> {
        if self.bytes.len() < n {
            return Err(WireError::EndsEarly);
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }

    fn u8(&mut self) -> Result<u8, WireError> {
        Ok(self.take(1)?[0])
    }

    fn u32(&mut self) -> Result<u32, WireError> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }

    fn u64(&mut self) -> Result<u64, WireError> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }

    fn bytes(&mut self) -> Result<&'a [u8], WireError> {
        let n = self.u32()? as usize;
        self.take(n)
    }

    fn text(&mut self) -> Result<String, WireError> {
        Ok(String::from_utf8_lossy(self.bytes()?).into_owned())
    }

    fn end(&self) -> Result<(), WireError> {
        if self.bytes.is_empty() {
            Ok(())
        } else {
            Err(WireError::LeftOver)
        }
    }
}

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(bytes);
}

/// The body of a Setup frame.
pub fn setup_body(setup: &Setup) -> Vec<u8> {
    let mut out = vec![
        0,
        match setup.lengths {
            LengthType::Uint32 => 0,
            LengthType::SizeT => 1,
        },
        u8::from(setup.encode) | u8::from(setup.decode) << 1,
    ];
    put_bytes(&mut out, setup.prefix.as_bytes());
    put_bytes(&mut out, &setup.path);
    out
}

/// Reads a Setup frame's body.
pub fn parse_setup(body: &[u8]) -> Result<Setup, WireError> {
    let mut c = Cursor { bytes: body };
    if c.u8()? != 0 {
        return Err(WireError::NotA("setup"));
    }
    let lengths = match c.u8()? {
        0 => LengthType::Uint32,
        1 => LengthType::SizeT,
        _ => return Err(WireError::UnknownLengthType),
    };
    let which = c.u8()?;
    let prefix = String::from_utf8(c.bytes()?.to_vec()).map_err(|_| WireError::PrefixNotUtf8)?;
    let path = c.bytes()?.to_vec();
    c.end()?;
    Ok(Setup {
        path,
        prefix,
        lengths,
        encode: which & 1 != 0,
        decode: which & 2 != 0,
    })
}

/// The body of a Ready frame: `Ok` or the reason the library was not loaded.
pub fn ready_body(result: &Result<(), LoadError>) -> Vec<u8> {
    let mut out = vec![0];
    let Err(error) = result else {
        out.push(1);
        return out;
    };
    out.push(0);
    match error {
        LoadError::PathHasNul { path } => {
            out.push(0);
            put_bytes(&mut out, path.as_bytes());
        }
        LoadError::Open { path, reason } => {
            out.push(1);
            put_bytes(&mut out, path.as_bytes());
            put_bytes(&mut out, reason.as_bytes());
        }
        LoadError::PrefixHasNul { prefix } => {
            out.push(2);
            put_bytes(&mut out, prefix.as_bytes());
        }
        LoadError::NoSymbol {
            path,
            symbol,
            reason,
            encoding,
        } => {
            out.push(3);
            put_bytes(&mut out, path.as_bytes());
            put_bytes(&mut out, symbol.as_bytes());
            put_bytes(&mut out, reason.as_bytes());
            out.push(u8::from(*encoding));
        }
    }
    out
}

/// Reads a Ready frame's body.
pub fn parse_ready(body: &[u8]) -> Result<Result<(), LoadError>, WireError> {
    let mut c = Cursor { bytes: body };
    if c.u8()? != 0 {
        return Err(WireError::NotA("ready"));
    }
    let result = match c.u8()? {
        1 => Ok(()),
        _ => Err(match c.u8()? {
            0 => LoadError::PathHasNul { path: c.text()? },
            1 => LoadError::Open {
                path: c.text()?,
                reason: c.text()?,
            },
            2 => LoadError::PrefixHasNul { prefix: c.text()? },
            3 => LoadError::NoSymbol {
                path: c.text()?,
                symbol: c.text()?,
                reason: c.text()?,
                encoding: c.u8()? != 0,
            },
            _ => return Err(WireError::NotA("load error")),
        }),
    };
    c.end()?;
    Ok(result)
}

/// All ones: no edge call.
const NO_EDGE: u64 = u64::MAX;

/// The body of a Call frame.
pub fn call_body(call: &Call) -> Vec<u8> {
    let mut out = Vec::new();
    let (tag, flag) = match &call.op {
        Op::Encode { flags, .. } => (1, flags.is_some()),
        Op::Decode { want_flags, .. } => (2, *want_flags),
    };
    out.push(tag);
    out.push(u8::from(flag));
    out.extend_from_slice(&call.capacity.to_le_bytes());
    out.extend_from_slice(&call.edge.unwrap_or(NO_EDGE).to_le_bytes());
    match &call.op {
        Op::Encode { code_points, flags } => {
            out.extend_from_slice(&(code_points.len() as u32).to_le_bytes());
            out.reserve(code_points.len() * 5);
            for cp in code_points {
                out.extend_from_slice(&cp.to_le_bytes());
            }
            if let Some(flags) = flags {
                out.extend(flags.iter().map(|&f| u8::from(f)));
            }
        }
        Op::Decode { input, .. } => put_bytes(&mut out, input),
    }
    out
}

/// Reads a Call frame's body.
pub fn parse_call(body: &[u8]) -> Result<Call, WireError> {
    let mut c = Cursor { bytes: body };
    let tag = c.u8()?;
    let flag = c.u8()? != 0;
    let capacity = c.u64()?;
    let edge = Some(c.u64()?).filter(|&e| e != NO_EDGE);
    let op = match tag {
        1 => {
            let n = c.u32()? as usize;
            let code_points = c
                .take(n.checked_mul(4).ok_or(WireError::TooLong)?)?
                .chunks_exact(4)
                .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")))
                .collect();
            let flags = if flag {
                Some(c.take(n)?.iter().map(|&b| b != 0).collect())
            } else {
                None
            };
            Op::Encode { code_points, flags }
        }
        2 => Op::Decode {
            input: c.bytes()?.to_vec(),
            want_flags: flag,
        },
        _ => return Err(WireError::NotA("call")),
    };
    c.end()?;
    Ok(Call { op, capacity, edge })
}

fn put_outcome(out: &mut Vec<u8>, outcome: &Outcome) {
    out.extend_from_slice(&outcome.status.to_le_bytes());
    out.extend_from_slice(&outcome.reported.to_le_bytes());
    out.push(u8::from(outcome.wrote_past_reported));
    put_bytes(out, &outcome.output);
    put_bytes(out, &outcome.flags);
}

fn outcome(c: &mut Cursor<'_>) -> Result<Outcome, WireError> {
    Ok(Outcome {
        status: c.u32()? as i32,
        reported: c.u64()?,
        wrote_past_reported: c.u8()? != 0,
        output: c.bytes()?.to_vec(),
        flags: c.bytes()?.to_vec(),
    })
}

/// The body of a Raw frame that says why the worker could not make the
/// call (its buffers could not be mapped, ...).
pub fn failure_body(failure: &CallFailure) -> Vec<u8> {
    let (tag, why) = match failure {
        CallFailure::NotSent(why) => (2, why),
        CallFailure::Unreadable(why) => (3, why),
        CallFailure::NotMade(why) => (4, why),
    };
    let mut out = vec![tag];
    put_bytes(&mut out, why.as_bytes());
    out
}

/// The body of a Raw frame.
pub fn raw_body(raw: &Raw) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + raw.main.output.len() + raw.main.flags.len());
    out.push(u8::from(raw.edge.is_some()));
    if let Some(edge) = &raw.edge {
        put_outcome(&mut out, edge);
    }
    put_outcome(&mut out, &raw.main);
    out
}

/// Reads a Raw frame's body: what the functions did, or why the worker
/// could not call them.
pub fn parse_raw(body: &[u8]) -> Result<Result<Raw, CallFailure>, WireError> {
    let mut c = Cursor { bytes: body };
    let edge = match c.u8()? {
        0 => None,
        1 => Some(outcome(&mut c)?),
        tag => {
            let why = c.text()?;
            c.end()?;
            return Ok(Err(match tag {
                2 => CallFailure::NotSent(why),
                3 => CallFailure::Unreadable(why),
                4 => CallFailure::NotMade(why),
                _ => return Err(WireError::NotA("raw")),
            }));
        }
    };
    let main = outcome(&mut c)?;
    c.end()?;
    Ok(Ok(Raw { edge, main }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_frame_reads_back_as_written() {
        let setup = Setup {
            path: b"/tmp/lib\xffpuny.so".to_vec(),
            prefix: "my_".into(),
            lengths: LengthType::SizeT,
            encode: false,
            decode: true,
        };
        assert_eq!(parse_setup(&setup_body(&setup)).unwrap(), setup);
        let load_errors = [
            LoadError::PathHasNul {
                path: "a\0b".into(),
            },
            LoadError::Open {
                path: "./lib.so".into(),
                reason: "cannot load it".into(),
            },
            LoadError::PrefixHasNul {
                prefix: "my\0".into(),
            },
            LoadError::NoSymbol {
                path: "./lib.so".into(),
                symbol: "punycode_decode".into(),
                reason: "undefined symbol".into(),
                encoding: false,
            },
        ];
        let readies = std::iter::once(Ok(())).chain(load_errors.map(Err));
        for ready in readies {
            assert_eq!(parse_ready(&ready_body(&ready)).unwrap(), ready);
        }
        let calls = [
            Call {
                op: Op::Encode {
                    code_points: vec![0x61, 0xFFFF_FFFF],
                    flags: Some(vec![true, false]),
                },
                capacity: 9,
                edge: Some(8),
            },
            Call {
                op: Op::Encode {
                    code_points: vec![],
                    flags: None,
                },
                capacity: 0,
                edge: None,
            },
            Call {
                op: Op::Decode {
                    input: b"a-\x00\xff".to_vec(),
                    want_flags: true,
                },
                capacity: 4,
                edge: None,
            },
        ];
        for call in calls {
            assert_eq!(parse_call(&call_body(&call)).unwrap(), call);
        }
        let raw = Raw {
            edge: Some(Outcome {
                status: 2,
                reported: u64::MAX,
                ..Outcome::default()
            }),
            main: Outcome {
                status: -7,
                reported: 3,
                output: vec![1, 2, 3],
                flags: vec![0, 1, 0],
                wrote_past_reported: true,
            },
        };
        assert_eq!(parse_raw(&raw_body(&raw)).unwrap(), Ok(raw));
        for failure in [
            CallFailure::NotSent("a full channel".into()),
            CallFailure::Unreadable("a frame ends early".into()),
            CallFailure::NotMade("no memory".into()),
        ] {
            assert_eq!(parse_raw(&failure_body(&failure)).unwrap(), Err(failure));
        }
    }

    #[test]
    fn short_long_and_foreign_frames_are_errors() {
        let body = call_body(&Call {
            op: Op::Decode {
                input: b"abc".to_vec(),
                want_flags: false,
            },
            capacity: 3,
            edge: Some(2),
        });
        for cut in 0..body.len() {
            assert!(parse_call(&body[..cut]).is_err(), "cut at {cut}");
        }
        let mut longer = body.clone();
        longer.push(0);
        assert!(parse_call(&longer).is_err());
        assert!(parse_setup(&body).is_err());
        assert!(parse_raw(&[]).is_err());

        let mut stream = Vec::new();
        write_frame(&mut stream, b"hello").unwrap();
        assert_eq!(complete_frame(&stream), Some(9));
        assert_eq!(complete_frame(&stream[..8]), None);
        assert_eq!(read_frame(&mut &stream[..]).unwrap().unwrap(), b"hello");
        assert!(read_frame(&mut &stream[..6]).is_err());
        assert_eq!(read_frame(&mut &b""[..]).unwrap(), None);
        let huge = ((MAX_FRAME + 1) as u32).to_le_bytes();
        assert!(read_frame(&mut &huge[..]).is_err());
    }
}

//! A C library's two Punycode functions, loaded with `dlopen(3)` and called
//! with guarded buffers.
//!
//! Every array the library is given (its input, the case flags, its output)
//! is placed so that its last element is the last byte before a page mapped
//! `PROT_NONE`: one element read or written past the end faults at once,
//! without a sanitizer. The buffers are mapped once and reused; each call
//! moves the arrays so that they end at the guard.
//!
//! This module only executes a [`Call`] and reports what the functions did
//! ([`Raw`]); what that means is decided by the engine
//! ([`super::interpret`]). The worker process runs it, and so does the
//! in-process engine of the fuzz target.

use std::ffi::{CStr, CString, c_char, c_int, c_void};
use std::io;
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The byte every output element is filled with before a call, so that
/// what the library wrote can be told from what it left.
pub const POISON: u8 = 0xA5;

/// The C type of the lengths in the two functions' signatures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LengthType {
    /// `punycode_uint`, a 32-bit unsigned integer: RFC 3492 Appendix C.
    Uint32,
    /// `size_t`: GNU libidn 1.x (`punycode.h` since libidn 1.0).
    SizeT,
}

impl LengthType {
    /// Its name in a spec (`lengths=NAME`).
    pub fn name(self) -> &'static str {
        match self {
            LengthType::Uint32 => "uint32",
            LengthType::SizeT => "size_t",
        }
    }

    /// The largest length it carries.
    pub fn max(self) -> u64 {
        match self {
            LengthType::Uint32 => u64::from(u32::MAX),
            LengthType::SizeT => usize::MAX as u64,
        }
    }
}

/// Why a library could not be loaded, or lacks a function it was asked
/// for. Its words are what `so:` says (`so:PATH: cannot load PATH: ...`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// The path has a NUL byte, which `dlopen(3)` cannot take.
    PathHasNul {
        /// The path, as text.
        path: String,
    },
    /// `dlopen(3)` failed.
    Open {
        /// The path, as text.
        path: String,
        /// What `dlerror(3)` said.
        reason: String,
    },
    /// The symbols' prefix has a NUL byte.
    PrefixHasNul {
        /// The prefix.
        prefix: String,
    },
    /// A function of a declared direction is missing.
    NoSymbol {
        /// The library's path, as text.
        path: String,
        /// The symbol's name (`PREFIXpunycode_encode` or `..._decode`).
        symbol: String,
        /// What `dlerror(3)` said.
        reason: String,
        /// Whether it is the encoding function (the hint then says how to
        /// declare a library that only decodes).
        encoding: bool,
    },
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::PathHasNul { path } => write!(f, "the path {path:?} contains a NUL byte"),
            LoadError::Open { path, reason } => write!(f, "cannot load {path}: {reason}"),
            LoadError::PrefixHasNul { prefix } => {
                write!(f, "the prefix {prefix:?} contains a NUL")
            }
            LoadError::NoSymbol {
                path,
                symbol,
                reason,
                encoding,
            } => {
                let hint = if *encoding {
                    "; declare --decode-only if it only decodes, or give its prefix as so:PATH:PREFIX"
                } else {
                    "; declare --encode-only if it only encodes, or give its prefix as so:PATH:PREFIX"
                };
                write!(f, "{path} has no symbol {symbol} ({reason}){hint}")
            }
        }
    }
}

impl std::error::Error for LoadError {}

/// Which function a call is for, with its input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// `punycode_encode(input_length, input, case_flags, output_length, output)`.
    Encode {
        /// The code points.
        code_points: Vec<u32>,
        /// One Appendix A flag per code point, or a null `case_flags`.
        flags: Option<Vec<bool>>,
    },
    /// `punycode_decode(input_length, input, output_length, output, case_flags)`.
    Decode {
        /// The Punycode bytes.
        input: Vec<u8>,
        /// Whether to pass a `case_flags` array (a null pointer otherwise).
        want_flags: bool,
    },
}

/// One question for the library: the function, its input, and the room
/// its output gets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    /// The function and its input.
    pub op: Op,
    /// Elements of output room (`*output_length` on the way in).
    pub capacity: u64,
    /// When set, the function is first called with this much room (one
    /// less than the answer needs), where the only right answer is
    /// `punycode_big_output`.
    pub edge: Option<u64>,
}

/// What one call of a function did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The status it returned.
    pub status: i32,
    /// `*output_length` after the call (meaningful on success only).
    pub reported: u64,
    /// On success with `reported` within the room: the output elements,
    /// as bytes (4 a code point, native byte order, when decoding).
    pub output: Vec<u8>,
    /// On success, when flags were asked for: the first `reported` flags.
    pub flags: Vec<u8>,
    /// On success: whether it changed output elements (or flags) past
    /// `reported`, within the room it had.
    pub wrote_past_reported: bool,
}

/// What the functions did with a [`Call`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Raw {
    /// The call with one element too little room, when asked for.
    pub edge: Option<Outcome>,
    /// The call with the room the answer needs.
    pub main: Outcome,
}

type EncodeUint32 =
    unsafe extern "C" fn(u32, *const u32, *const u8, *mut u32, *mut c_char) -> c_int;
type DecodeUint32 = unsafe extern "C" fn(u32, *const c_char, *mut u32, *mut u32, *mut u8) -> c_int;
type EncodeSizeT =
    unsafe extern "C" fn(usize, *const u32, *const u8, *mut usize, *mut c_char) -> c_int;
type DecodeSizeT =
    unsafe extern "C" fn(usize, *const c_char, *mut usize, *mut u32, *mut u8) -> c_int;

/// The names of the two symbols for `prefix`.
pub fn symbol_names(prefix: &str) -> (String, String) {
    (
        format!("{prefix}punycode_encode"),
        format!("{prefix}punycode_decode"),
    )
}

/// A loaded library with the functions it was asked to resolve. It is
/// never unloaded: code it started (threads, `atexit` handlers) may still
/// point into it.
pub struct Library {
    lengths: LengthType,
    encode: Option<*mut c_void>,
    decode: Option<*mut c_void>,
    buffers: [Guarded; 3],
}

// SAFETY: the handle and the function pointers are process-wide values that
// any thread may use; the buffers are owned, and `&mut self` serializes
// every call through them.
unsafe impl Send for Library {}

/// The three arrays of a call, by role.
const INPUT: usize = 0;
const FLAGS: usize = 1;
const OUTPUT: usize = 2;

/// Their names in fault messages.
const ROLE_NAMES: [&str; 3] = ["input", "case_flags", "output"];

/// The last `dlerror()` message.
fn dl_error() -> String {
    // SAFETY: dlerror() returns null or a NUL-terminated string valid until
    // the next dl* call on this thread; it is copied at once.
    let message = unsafe { libc::dlerror() };
    if message.is_null() {
        return "unknown error".into();
    }
    // SAFETY: not null, NUL-terminated (above).
    unsafe { CStr::from_ptr(message) }
        .to_string_lossy()
        .into_owned()
}

impl Library {
    /// Loads `path` (a bare name is searched as `dlopen(3)` searches) and
    /// resolves `PREFIXpunycode_encode` when `encode` and
    /// `PREFIXpunycode_decode` when `decode`. Loading runs the library's
    /// constructors, whatever they do.
    pub fn load(
        path: &[u8],
        prefix: &str,
        lengths: LengthType,
        encode: bool,
        decode: bool,
    ) -> Result<Self, LoadError> {
        let shown = String::from_utf8_lossy(path).into_owned();
        let c_path = CString::new(path).map_err(|_| LoadError::PathHasNul {
            path: shown.clone(),
        })?;
        // SAFETY: a NUL-terminated path; RTLD_NOW so that a library with
        // unresolved symbols fails here, not in the middle of a call.
        let handle = unsafe { libc::dlopen(c_path.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
        if handle.is_null() {
            return Err(LoadError::Open {
                path: shown,
                reason: dl_error(),
            });
        }
        let mut library = Library {
            lengths,
            encode: None,
            decode: None,
            buffers: [Guarded::new(), Guarded::new(), Guarded::new()],
        };
        let (encode_name, decode_name) = symbol_names(prefix);
        let resolve = |name: &str, encoding: bool| -> Result<*mut c_void, LoadError> {
            let c_name = CString::new(name).map_err(|_| LoadError::PrefixHasNul {
                prefix: prefix.to_string(),
            })?;
            // SAFETY: a live handle and a NUL-terminated name.
            let symbol = unsafe { libc::dlsym(handle, c_name.as_ptr()) };
            if symbol.is_null() {
                return Err(LoadError::NoSymbol {
                    path: shown.clone(),
                    symbol: name.to_string(),
                    reason: dl_error(),
                    encoding,
                });
            }
            Ok(symbol)
        };
        if encode {
            library.encode = Some(resolve(&encode_name, true)?);
        }
        if decode {
            library.decode = Some(resolve(&decode_name, false)?);
        }
        Ok(library)
    }

    /// Runs `call`: first with the edge room when it has one, then with
    /// its capacity. Errors only when the buffers cannot be mapped, or the
    /// call is for a function that was not resolved.
    pub fn execute(&mut self, call: &Call) -> io::Result<Raw> {
        let edge = match call.edge {
            Some(room) => Some(self.once(&call.op, room)?),
            None => None,
        };
        let main = self.once(&call.op, call.capacity)?;
        Ok(Raw { edge, main })
    }

    /// One call of the function with `room` elements of output.
    fn once(&mut self, op: &Op, room: u64) -> io::Result<Outcome> {
        let too_long = || io::Error::other("a length does not fit the declared length type");
        if room > self.lengths.max() {
            return Err(too_long());
        }
        let room = usize::try_from(room).map_err(|_| too_long())?;
        match op {
            Op::Encode { code_points, flags } => {
                let function = self
                    .encode
                    .ok_or_else(|| io::Error::other("punycode_encode was not resolved"))?;
                let n = code_points.len();
                if n as u64 > self.lengths.max() {
                    return Err(too_long());
                }
                let input = self.buffers[INPUT].place(n * 4, INPUT, 4, n)? as *mut u32;
                // SAFETY: `place` gave n * 4 writable bytes, 4-aligned (they end
                // at a page boundary).
                unsafe { ptr::copy_nonoverlapping(code_points.as_ptr(), input, n) };
                let case_flags = match flags {
                    Some(flags) => {
                        let p = self.buffers[FLAGS].place(n, FLAGS, 1, n)?;
                        for k in 0..n {
                            let flag = flags.get(k).copied().unwrap_or(false);
                            // SAFETY: k < n, within the n bytes placed.
                            unsafe { *p.add(k) = u8::from(flag) };
                        }
                        p as *const u8
                    }
                    None => {
                        self.buffers[FLAGS].unplace(FLAGS);
                        ptr::null()
                    }
                };
                let output = self.buffers[OUTPUT].place(room, OUTPUT, 1, room)?;
                // SAFETY: `room` writable bytes.
                unsafe { ptr::write_bytes(output, POISON, room) };
                let mut length = self.slot(room);
                // SAFETY: the function has the declared signature (the user's
                // declaration: its name and length type); every pointer is
                // valid for the length it is given, and `length` is 8 bytes,
                // enough for either length type.
                let status = unsafe {
                    match self.lengths {
                        LengthType::Uint32 => {
                            let f: EncodeUint32 = std::mem::transmute(function);
                            f(
                                n as u32,
                                input,
                                case_flags,
                                (&raw mut length).cast::<u32>(),
                                output.cast::<c_char>(),
                            )
                        }
                        LengthType::SizeT => {
                            let f: EncodeSizeT = std::mem::transmute(function);
                            f(
                                n,
                                input,
                                case_flags,
                                (&raw mut length).cast::<usize>(),
                                output.cast::<c_char>(),
                            )
                        }
                    }
                };
                let reported = self.reported(length);
                Ok(self.outcome(status, reported, room, 1, false))
            }
            Op::Decode { input, want_flags } => {
                let function = self
                    .decode
                    .ok_or_else(|| io::Error::other("punycode_decode was not resolved"))?;
                let n = input.len();
                if n as u64 > self.lengths.max() {
                    return Err(too_long());
                }
                let bytes = self.buffers[INPUT].place(n, INPUT, 1, n)?;
                // SAFETY: n writable bytes.
                unsafe { ptr::copy_nonoverlapping(input.as_ptr(), bytes, n) };
                let output = self.buffers[OUTPUT].place(room * 4, OUTPUT, 4, room)?;
                // SAFETY: room * 4 writable bytes.
                unsafe { ptr::write_bytes(output, POISON, room * 4) };
                let case_flags = if *want_flags {
                    let p = self.buffers[FLAGS].place(room, FLAGS, 1, room)?;
                    // SAFETY: `room` writable bytes.
                    unsafe { ptr::write_bytes(p, POISON, room) };
                    p
                } else {
                    self.buffers[FLAGS].unplace(FLAGS);
                    ptr::null_mut()
                };
                let mut length = self.slot(room);
                // SAFETY: as for encoding above.
                let status = unsafe {
                    match self.lengths {
                        LengthType::Uint32 => {
                            let f: DecodeUint32 = std::mem::transmute(function);
                            f(
                                n as u32,
                                bytes.cast::<c_char>(),
                                (&raw mut length).cast::<u32>(),
                                output.cast::<u32>(),
                                case_flags,
                            )
                        }
                        LengthType::SizeT => {
                            let f: DecodeSizeT = std::mem::transmute(function);
                            f(
                                n,
                                bytes.cast::<c_char>(),
                                (&raw mut length).cast::<usize>(),
                                output.cast::<u32>(),
                                case_flags,
                            )
                        }
                    }
                };
                let reported = self.reported(length);
                Ok(self.outcome(status, reported, room, 4, *want_flags))
            }
        }
    }

    /// The 8 bytes that `output_length` points to, holding `room` at the
    /// declared type in their first bytes (zeros after a 32-bit length, so
    /// that even a misdeclared `size_t` reads it right on a little-endian
    /// machine).
    fn slot(&self, room: usize) -> u64 {
        match self.lengths {
            LengthType::Uint32 => {
                let mut bytes = [0u8; 8];
                bytes[..4].copy_from_slice(&(room as u32).to_ne_bytes());
                u64::from_ne_bytes(bytes)
            }
            LengthType::SizeT => room as u64,
        }
    }

    /// `*output_length` as the function left it, read at its declared type
    /// from the first bytes of the slot.
    fn reported(&self, slot: u64) -> u64 {
        match self.lengths {
            LengthType::Uint32 => {
                let bytes = slot.to_ne_bytes();
                u64::from(u32::from_ne_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
            }
            LengthType::SizeT => slot,
        }
    }

    /// Reads what a call left in the output arrays (placed last by
    /// [`Library::once`]).
    fn outcome(
        &self,
        status: i32,
        reported: u64,
        room: usize,
        size: usize,
        flags: bool,
    ) -> Outcome {
        let mut outcome = Outcome {
            status,
            reported,
            ..Outcome::default()
        };
        if status != 0 || reported > room as u64 {
            return outcome;
        }
        let reported = reported as usize;
        let output = self.buffers[OUTPUT].placed(room * size);
        outcome.output = output[..reported * size].to_vec();
        outcome.wrote_past_reported = output[reported * size..].iter().any(|&b| b != POISON);
        if flags {
            let all = self.buffers[FLAGS].placed(room);
            outcome.flags = all[..reported].to_vec();
            outcome.wrote_past_reported |= all[reported..].iter().any(|&b| b != POISON);
        }
        outcome
    }
}

/// Where the three arrays of the call in progress end, for a fault
/// handler: per role, the address of its guard page, the element size and
/// the element count (0 for a role not in use).
static GUARDS: [[AtomicUsize; 3]; 3] = [
    [
        AtomicUsize::new(0),
        AtomicUsize::new(0),
        AtomicUsize::new(0),
    ],
    [
        AtomicUsize::new(0),
        AtomicUsize::new(0),
        AtomicUsize::new(0),
    ],
    [
        AtomicUsize::new(0),
        AtomicUsize::new(0),
        AtomicUsize::new(0),
    ],
];

/// Writes into `out`, without allocating (it runs in a signal handler),
/// which array's guard page `address` is in and which element that is:
/// `wrote output[5], past the end of the 5 elements it was given`. Returns
/// the number of bytes written, 0 when the address is in no guard page.
pub fn describe_fault(address: usize, write: Option<bool>, out: &mut [u8]) -> usize {
    let page = page_size();
    for (role, guard) in GUARDS.iter().enumerate() {
        let start = guard[0].load(Ordering::Relaxed);
        let size = guard[1].load(Ordering::Relaxed);
        let count = guard[2].load(Ordering::Relaxed);
        if start == 0 || size == 0 || address < start || address >= start + page {
            continue;
        }
        let index = count + (address - start) / size;
        let mut w = Writer { out, at: 0 };
        w.text(match write {
            Some(true) => "wrote ",
            Some(false) => "read ",
            None => "touched ",
        });
        w.text(ROLE_NAMES[role]);
        w.text("[");
        w.number(index);
        w.text("], past the end of the ");
        w.number(count);
        w.text(if count == 1 {
            " element it was given"
        } else {
            " elements it was given"
        });
        return w.at;
    }
    0
}

/// Formats into a fixed buffer, dropping what does not fit.
struct Writer<'a> {
    out: &'a mut [u8],
    at: usize,
}

impl Writer<'_> {
    fn byte(&mut self, b: u8) {
        if self.at < self.out.len() {
            self.out[self.at] = b;
            self.at += 1;
        }
    }

    fn text(&mut self, text: &str) {
        for &b in text.as_bytes() {
            self.byte(b);
        }
    }

    fn number(&mut self, mut n: usize) {
        let mut digits = [0u8; 20];
        let mut k = digits.len();
        loop {
            k -= 1;
            digits[k] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        for &d in &digits[k..] {
            self.byte(d);
        }
    }
}

/// The system's page size.
fn page_size() -> usize {
    static PAGE: AtomicUsize = AtomicUsize::new(0);
    let known = PAGE.load(Ordering::Relaxed);
    if known != 0 {
        return known;
    }
    // SAFETY: sysconf has no preconditions.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    let size = usize::try_from(size)
        .ok()
        .filter(|&s| s > 0)
        .unwrap_or(4096);
    PAGE.store(size, Ordering::Relaxed);
    size
}

/// A mapping whose last page is `PROT_NONE`, with the array of a call
/// placed right before it.
struct Guarded {
    base: *mut u8,
    /// Readable and writable bytes, before the guard page.
    usable: usize,
}

impl Guarded {
    fn new() -> Self {
        Guarded {
            base: ptr::null_mut(),
            usable: 0,
        }
    }

    /// A pointer to `bytes` writable bytes that end where the guard page
    /// starts, recorded for [`describe_fault`] as the array of `role` with
    /// `count` elements of `size` bytes.
    fn place(
        &mut self,
        bytes: usize,
        role: usize,
        size: usize,
        count: usize,
    ) -> io::Result<*mut u8> {
        if self.base.is_null() || bytes > self.usable {
            self.map(bytes)?;
        }
        let guard = self.base as usize + self.usable;
        GUARDS[role][0].store(guard, Ordering::Relaxed);
        GUARDS[role][1].store(size, Ordering::Relaxed);
        GUARDS[role][2].store(count, Ordering::Relaxed);
        // SAFETY: bytes <= usable, so the result is within the mapping.
        Ok(unsafe { self.base.add(self.usable - bytes) })
    }

    /// Records that `role` has no array in this call.
    fn unplace(&self, role: usize) {
        GUARDS[role][0].store(0, Ordering::Relaxed);
    }

    /// The last `bytes` bytes before the guard (as placed last).
    fn placed(&self, bytes: usize) -> &[u8] {
        if bytes == 0 || self.base.is_null() {
            return &[];
        }
        // SAFETY: `place` was called with at least `bytes` (the caller's
        // room), so they are mapped, readable, and initialized (poisoned
        // before the call, then written by it).
        unsafe { std::slice::from_raw_parts(self.base.add(self.usable - bytes), bytes) }
    }

    /// Maps room for at least `bytes` (doubling, so that growing is rare),
    /// replacing the old mapping.
    fn map(&mut self, bytes: usize) -> io::Result<()> {
        let page = page_size();
        let want = bytes.max(self.usable.saturating_mul(2)).max(page);
        let usable = want
            .div_ceil(page)
            .checked_mul(page)
            .ok_or_else(|| io::Error::other("an array too large to map"))?;
        let total = usable + page;
        // SAFETY: an anonymous private mapping, no address hint.
        let base = unsafe {
            libc::mmap(
                ptr::null_mut(),
                total,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        let base = base.cast::<u8>();
        // SAFETY: the last page of the mapping just made.
        let protected =
            unsafe { libc::mprotect(base.add(usable).cast::<c_void>(), page, libc::PROT_NONE) };
        if protected != 0 {
            let e = io::Error::last_os_error();
            // SAFETY: the mapping just made, unused.
            unsafe { libc::munmap(base.cast::<c_void>(), total) };
            return Err(e);
        }
        self.unmap();
        self.base = base;
        self.usable = usable;
        Ok(())
    }

    fn unmap(&mut self) {
        if !self.base.is_null() {
            // SAFETY: the mapping made by `map`, of this size; nothing
            // points into it once replaced (the arrays are placed anew for
            // every call).
            unsafe {
                libc::munmap(self.base.cast::<c_void>(), self.usable + page_size());
            }
            self.base = ptr::null_mut();
            self.usable = 0;
        }
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        self.unmap();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_array_ends_at_its_guard_page() {
        let mut g = Guarded::new();
        let p = g.place(10, OUTPUT, 1, 10).unwrap();
        assert_eq!(p as usize + 10, GUARDS[OUTPUT][0].load(Ordering::Relaxed));
        let mut out = [0u8; 120];
        let n = describe_fault(p as usize + 10, Some(true), &mut out);
        assert_eq!(
            std::str::from_utf8(&out[..n]).unwrap(),
            "wrote output[10], past the end of the 10 elements it was given"
        );
        assert_eq!(describe_fault(p as usize + 9, Some(true), &mut out), 0);
        // Growing moves the guard; a larger array still ends at it.
        let q = g.place(100_000, OUTPUT, 4, 25_000).unwrap();
        let n = describe_fault(q as usize + 100_004, None, &mut out);
        assert_eq!(
            std::str::from_utf8(&out[..n]).unwrap(),
            "touched output[25001], past the end of the 25000 elements it was given"
        );
        // A message too long for its buffer is cut, never overruns it.
        let mut small = [0u8; 8];
        assert_eq!(
            describe_fault(q as usize + 100_000, Some(false), &mut small),
            8
        );
        assert_eq!(&small, b"read out");
    }

    #[test]
    fn unloadable_libraries_and_missing_symbols_are_errors() {
        let e = Library::load(
            b"/nonexistent/libnothing.so",
            "",
            LengthType::Uint32,
            true,
            true,
        )
        .err()
        .unwrap();
        assert!(matches!(e, LoadError::Open { .. }), "{e:?}");
        let e = e.to_string();
        assert!(e.contains("cannot load /nonexistent/libnothing.so"), "{e}");
        // The C library has no punycode_encode.
        let e = Library::load(b"libc.so.6", "", LengthType::Uint32, true, false)
            .err()
            .unwrap();
        assert!(
            matches!(&e, LoadError::NoSymbol { encoding: true, symbol, .. } if symbol == "punycode_encode"),
            "{e:?}"
        );
        let e = e.to_string();
        assert!(e.contains("no symbol punycode_encode"), "{e}");
        assert!(e.contains("--decode-only"), "{e}");
        let e = Library::load(b"a\0b", "", LengthType::Uint32, true, true).err();
        assert!(
            matches!(&e, Some(LoadError::PathHasNul { path }) if path == "a\0b"),
            "{e:?}"
        );
        assert_eq!(
            e.unwrap().to_string(),
            "the path \"a\\0b\" contains a NUL byte"
        );
    }
}

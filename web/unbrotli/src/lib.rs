//! The brotli decoder with which the browser page unpacks the app's module itself (#68).
//!
//! A host that sends only gzip (GitHub Pages among them) would send the app's module in about
//! 5.9 MB; its brotli file, which web/build.sh writes beside it, is 4.1 MB. So the page
//! (web/index.html) downloads that `.br` file as it is, feeds it through this module chunk by
//! chunk as it arrives, and hands the unpacked bytes to WebAssembly's streaming compiler: every
//! host then sends the smaller file, and nothing waits for the whole download.
//!
//! A plain WebAssembly module with five exports, called from the page without any glue:
//!
//! - [`input`]`(len)`: room for the next compressed chunk, `len` bytes; the page copies it there;
//! - [`push`]`(len)`: starts unpacking that chunk; returns how many bytes came out (at
//!   [`output`]), at most [`PIECE`], or -1 when the stream is not brotli or is corrupt (then
//!   every later call fails too);
//! - [`more`]`()`: goes on with the same chunk; returns the next piece's length, 0 once the
//!   chunk is used up, or -1 as `push` does;
//! - [`output`]`()`: where the last piece is, valid until the next call;
//! - [`finish`]`()`: 0 when the stream ended complete, -1 when it stopped short or failed.
//!
//! Its memory is bounded: the decoder's window (what web/build.sh's `-w` says, 4 MiB), the
//! chunk, and one piece. A chunk of the download can unpack to megabytes (brotli at quality 11
//! writes a long run of equal bytes in a few), and an unpacker that returned a chunk's whole
//! output at once grew its memory to 52 MiB with the 16 MiB window of brotli's own default,
//! which the page held through the app's start (docs/web.md, "Memory").
//!
//! One stream per instance: the page makes a new instance for each download.

use std::cell::RefCell;

use brotli_decompressor::{BrotliDecompressStream, BrotliResult, BrotliState, StandardAlloc};

/// The most bytes one call hands back: the page copies each piece out before the next call.
pub const PIECE: usize = 256 * 1024;

/// Where a stream is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    /// Unpacking; the chunk is used up up to `Stream::at`.
    Going,
    /// The brotli stream ended, complete (a byte after it is an error).
    Ended,
    /// Not brotli, corrupt, or bytes after the end.
    Failed,
}

/// One download's unpacking: the decoder, the chunk the page wrote and how much of it is used,
/// the last piece.
struct Stream {
    state: BrotliState<StandardAlloc, StandardAlloc, StandardAlloc>,
    input: Vec<u8>,
    at: usize,
    /// Room for one piece, made at the first push.
    piece: Vec<u8>,
    status: Status,
    /// The decoder stopped for room to write, not for input: it has more of this chunk to give
    /// even when every byte of the chunk was read.
    full: bool,
}

impl Default for Stream {
    fn default() -> Self {
        Self {
            state: BrotliState::new(
                StandardAlloc::default(),
                StandardAlloc::default(),
                StandardAlloc::default(),
            ),
            input: Vec::new(),
            at: 0,
            piece: Vec::new(),
            status: Status::Going,
            full: false,
        }
    }
}

impl std::fmt::Debug for Stream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stream")
            .field("input", &self.input.len())
            .field("at", &self.at)
            .field("status", &self.status)
            .field("full", &self.full)
            .finish()
    }
}

impl Stream {
    /// Takes `chunk` as the next compressed bytes and unpacks the first piece of it (the
    /// exports' [`input`] and [`push`] in one).
    #[cfg(test)]
    fn push(&mut self, chunk: &[u8]) -> Option<&[u8]> {
        self.input.clear();
        self.input.extend_from_slice(chunk);
        self.start()
    }

    /// Unpacks the first piece of the chunk in `input`.
    fn start(&mut self) -> Option<&[u8]> {
        self.at = 0;
        self.more()
    }

    /// The next piece of the current chunk: at most [`PIECE`] bytes, empty once the chunk is
    /// used up; `None` when the stream failed.
    fn more(&mut self) -> Option<&[u8]> {
        if self.piece.is_empty() {
            self.piece = vec![0; PIECE];
        }
        let mut written = 0;
        let mut available_in = self.input.len() - self.at;
        while self.status == Status::Going && (available_in > 0 || self.full) && written < PIECE {
            let mut available_out = PIECE - written;
            let mut total_out = 0;
            let result = BrotliDecompressStream(
                &mut available_in,
                &mut self.at,
                &self.input,
                &mut available_out,
                &mut written,
                &mut self.piece,
                &mut total_out,
                &mut self.state,
            );
            self.status = match result {
                BrotliResult::ResultSuccess if available_in == 0 => Status::Ended,
                // Bytes after the stream's end.
                BrotliResult::ResultSuccess | BrotliResult::ResultFailure => Status::Failed,
                BrotliResult::NeedsMoreInput | BrotliResult::NeedsMoreOutput => Status::Going,
            };
            self.full = matches!(result, BrotliResult::NeedsMoreOutput);
        }
        if self.status == Status::Ended && available_in > 0 {
            self.status = Status::Failed;
        }
        (self.status != Status::Failed).then_some(&self.piece[..written])
    }

    /// Whether the stream ended complete (the page has pushed every chunk).
    fn finish(&self) -> bool {
        self.status == Status::Ended
    }
}

thread_local! {
    static STREAM: RefCell<Stream> = RefCell::default();
}

/// Room for the next compressed chunk of `len` bytes (see the module's documentation).
#[unsafe(no_mangle)]
pub extern "C" fn input(len: usize) -> *mut u8 {
    STREAM.with_borrow_mut(|s| {
        s.input.clear();
        s.input.resize(len, 0);
        s.input.as_mut_ptr()
    })
}

/// Starts unpacking the chunk at [`input`] (its first `len` bytes): the first piece's length.
#[unsafe(no_mangle)]
pub extern "C" fn push(len: usize) -> isize {
    STREAM.with_borrow_mut(|s| {
        s.input.truncate(len);
        s.start().map_or(-1, |piece| piece.len() as isize)
    })
}

/// The next piece of the same chunk: its length, 0 once the chunk is used up.
#[unsafe(no_mangle)]
pub extern "C" fn more() -> isize {
    STREAM.with_borrow_mut(|s| s.more().map_or(-1, |piece| piece.len() as isize))
}

/// Where the last piece is.
#[unsafe(no_mangle)]
pub extern "C" fn output() -> *const u8 {
    STREAM.with_borrow(|s| s.piece.as_ptr())
}

/// 0 when the stream ended complete, -1 when it stopped short or failed.
#[unsafe(no_mangle)]
pub extern "C" fn finish() -> i32 {
    STREAM.with_borrow(|s| if s.finish() { 0 } else { -1 })
}

#[cfg(test)]
mod tests {
    use super::Stream;

    /// tests/sample.txt compressed by `brotli -q 11 -w 22` (web/build.sh's brotli and window).
    const PACKED: &[u8] = include_bytes!("../tests/sample.txt.br");
    const PLAIN: &[u8] = include_bytes!("../tests/sample.txt");

    /// Eight MiB of zero bytes, as `brotli -q 11 -w 22` writes them: fourteen bytes.
    const ZEROS: &[u8] = &[
        0xcb, 0xff, 0xff, 0x3f, 0xf8, 0x27, 0x00, 0xe2, 0xb1, 0x40, 0x20, 0xf7, 0xfe, 0x6f,
    ];

    /// Unpacks `packed` in chunks of `size` bytes, as the page does (a push, then more until
    /// the chunk is used up); the bytes, whether it finished, and the largest piece.
    fn unpack_in(packed: &[u8], size: usize) -> (Vec<u8>, bool, usize) {
        let mut s = Stream::default();
        let mut out = Vec::new();
        let mut largest = 0;
        for chunk in packed.chunks(size) {
            let mut piece = s.push(chunk).expect("a valid stream").to_vec();
            while !piece.is_empty() {
                largest = largest.max(piece.len());
                out.extend_from_slice(&piece);
                piece = s.more().expect("a valid stream").to_vec();
            }
        }
        (out, s.finish(), largest)
    }

    fn unpack(size: usize) -> (Vec<u8>, bool) {
        let (out, complete, _) = unpack_in(PACKED, size);
        (out, complete)
    }

    #[test]
    fn a_chunk_that_unpacks_to_megabytes_comes_out_in_pieces() {
        for size in [1, 5, ZEROS.len()] {
            let (out, complete, largest) = unpack_in(ZEROS, size);
            assert_eq!(out.len(), 8 << 20, "chunks of {size}");
            assert!(out.iter().all(|&b| b == 0));
            assert!(complete, "chunks of {size}");
            assert_eq!(largest, super::PIECE, "chunks of {size}");
        }
    }

    #[test]
    fn a_stream_unpacks_whole_in_chunks_of_any_size() {
        assert!(PLAIN.len() > 2 * PACKED.len(), "the sample compresses");
        for size in [1, 7, 1000, 65536, PACKED.len()] {
            let (out, complete) = unpack(size);
            assert!(out == PLAIN, "chunks of {size}: {} bytes out", out.len());
            assert!(complete, "chunks of {size}");
        }
    }

    #[test]
    fn a_stream_cut_short_does_not_finish() {
        let mut s = Stream::default();
        s.push(&PACKED[..PACKED.len() / 2])
            .expect("half a valid stream");
        assert!(!s.finish());
        assert!(
            !Stream::default().finish(),
            "an empty download is not a module"
        );
    }

    #[test]
    fn a_corrupt_stream_fails_and_stays_failed() {
        // An uncompressed module (the host unpacked it already) is not brotli.
        let mut s = Stream::default();
        let module = b"\0asm\x01\0\0\0 and then the rest of a WebAssembly module";
        assert!(s.push(module).is_none());
        assert!(s.push(PACKED).is_none(), "a failed stream stays failed");
        assert!(!s.finish());
        // Bytes after the end of a complete stream.
        let mut s = Stream::default();
        let mut padded = PACKED.to_vec();
        padded.extend_from_slice(b"trailing");
        assert!(s.push(&padded).is_none());
    }

    #[test]
    fn the_exports_unpack_through_the_pages_calls() {
        let mut out = Vec::new();
        for chunk in PACKED.chunks(4096) {
            let at = super::input(chunk.len());
            // SAFETY: `input` returned room for `chunk.len()` bytes.
            unsafe { std::ptr::copy_nonoverlapping(chunk.as_ptr(), at, chunk.len()) };
            let mut n = super::push(chunk.len());
            while n > 0 {
                // SAFETY: `output` holds the last piece's `n` bytes until the next call.
                out.extend_from_slice(unsafe {
                    std::slice::from_raw_parts(super::output(), n as usize)
                });
                n = super::more();
            }
            assert_eq!(n, 0);
        }
        assert_eq!(super::finish(), 0);
        assert!(out == PLAIN);
    }
}

//! The brotli decoder with which the browser page unpacks the app's module itself (#68).
//!
//! A host that sends only gzip (GitHub Pages among them) would send the app's module in about
//! 5.9 MB; its brotli file, which web/build.sh writes beside it, is 4.1 MB. So the page
//! (web/index.html) downloads that `.br` file as it is, feeds it through this module chunk by
//! chunk as it arrives, and hands the unpacked bytes to WebAssembly's streaming compiler: every
//! host then sends the smaller file, and nothing waits for the whole download.
//!
//! A plain WebAssembly module with four exports, called from the page without any glue:
//!
//! - [`input`]`(len)`: room for the next compressed chunk, `len` bytes; the page copies it there;
//! - [`push`]`(len)`: unpacks that chunk; returns how many bytes came out (at [`output`]), or -1
//!   when the stream is not brotli or is corrupt (then every later call fails too);
//! - [`output`]`()`: where the last push's bytes are, valid until the next call;
//! - [`finish`]`()`: 0 when the stream ended complete, -1 when it stopped short or failed.
//!
//! One stream per instance: the page makes a new instance for each download.

use std::cell::RefCell;
use std::io::Write;

use brotli_decompressor::DecompressorWriter;

/// The decoder's own output buffer between its steps (the unpacked bytes are then appended to
/// the stream's output).
const STEP: usize = 64 * 1024;

/// One download's unpacking: the decoder, the chunk the page wrote, what came out of it.
#[derive(Default)]
struct Stream {
    decoder: Option<DecompressorWriter<Vec<u8>>>,
    input: Vec<u8>,
    output: Vec<u8>,
    failed: bool,
}

impl std::fmt::Debug for Stream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stream")
            .field("started", &self.decoder.is_some())
            .field("input", &self.input.len())
            .field("output", &self.output.len())
            .field("failed", &self.failed)
            .finish()
    }
}

impl Stream {
    /// Unpacks `chunk`: the bytes that came out, or `None` when the stream is corrupt.
    fn push(&mut self, chunk: &[u8]) -> Option<&[u8]> {
        self.output.clear();
        if self.failed {
            return None;
        }
        let decoder = self
            .decoder
            .get_or_insert_with(|| DecompressorWriter::new(Vec::new(), STEP));
        if decoder.write_all(chunk).is_err() {
            self.failed = true;
            return None;
        }
        std::mem::swap(&mut self.output, decoder.get_mut());
        Some(&self.output)
    }

    /// Whether the stream ended complete: false when it stopped short, failed, or never began.
    fn finish(&mut self) -> bool {
        self.output.clear();
        match self.decoder.as_mut() {
            Some(decoder) if !self.failed => {
                let complete = decoder.close().is_ok();
                self.failed = !complete;
                complete
            }
            _ => false,
        }
    }
}

thread_local! {
    static STREAM: RefCell<Stream> = RefCell::default();
}

/// Room for the next compressed chunk of `len` bytes, for the page to copy it into.
#[unsafe(no_mangle)]
pub extern "C" fn input(len: usize) -> *mut u8 {
    STREAM.with_borrow_mut(|s| {
        s.input.clear();
        s.input.resize(len, 0);
        s.input.as_mut_ptr()
    })
}

/// Unpacks the first `len` bytes of the chunk written at [`input`]: how many bytes came out
/// (at [`output`]), or -1 for a stream that is not brotli or is corrupt.
#[unsafe(no_mangle)]
pub extern "C" fn push(len: usize) -> isize {
    STREAM.with_borrow_mut(|s| {
        let chunk = std::mem::take(&mut s.input);
        let out = s
            .push(&chunk[..len.min(chunk.len())])
            .map_or(-1, |out| out.len() as isize);
        s.input = chunk;
        out
    })
}

/// Where the last [`push`]'s bytes are.
#[unsafe(no_mangle)]
pub extern "C" fn output() -> *const u8 {
    STREAM.with_borrow(|s| s.output.as_ptr())
}

/// 0 when the stream ended complete, -1 when it stopped short or failed.
#[unsafe(no_mangle)]
pub extern "C" fn finish() -> i32 {
    STREAM.with_borrow_mut(|s| if s.finish() { 0 } else { -1 })
}

#[cfg(test)]
mod tests {
    use super::Stream;

    /// tests/sample.txt compressed by `brotli -q 11 -w 22` (web/build.sh's brotli, its
    /// default window).
    const PACKED: &[u8] = include_bytes!("../tests/sample.txt.br");
    const PLAIN: &[u8] = include_bytes!("../tests/sample.txt");

    fn unpack(chunks: usize) -> (Vec<u8>, bool) {
        let mut s = Stream::default();
        let mut out = Vec::new();
        for chunk in PACKED.chunks(chunks) {
            out.extend_from_slice(s.push(chunk).expect("a valid stream"));
        }
        (out, s.finish())
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
            let n = super::push(chunk.len());
            assert!(n >= 0);
            // SAFETY: `output` holds the last push's `n` bytes until the next call.
            out.extend_from_slice(unsafe {
                std::slice::from_raw_parts(super::output(), n as usize)
            });
        }
        assert_eq!(super::finish(), 0);
        assert!(out == PLAIN);
    }
}

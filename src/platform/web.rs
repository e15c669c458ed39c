//! The imports a browser build takes from the page's script (module `janggi` of the WebAssembly imports), and the
//! protocol output that goes out through them. The exports the script calls are in the package's crate (`web/`).

use std::io::{self, Write};
use std::sync::atomic::{AtomicU32, Ordering};

#[link(wasm_import_module = "janggi")]
unsafe extern "C" {
    /// `performance.timeOrigin + performance.now()`, in milliseconds.
    #[link_name = "now"]
    fn js_now() -> f64;
    /// Starts a Web Worker on the engine's module and memory that sets its stack pointer to `stack_top` and
    /// calls the export `janggi_worker_main(slot)`.
    #[link_name = "start_worker"]
    fn js_start_worker(slot: usize, stack_top: usize);
    /// Hands the page protocol line number `seq` (`len` UTF-8 bytes at `ptr`, without its newline).
    #[link_name = "emit"]
    fn js_emit(seq: u32, ptr: *const u8, len: usize);
}

pub(crate) fn now_ms() -> f64 {
    // SAFETY: the import takes no arguments and returns a number.
    unsafe { js_now() }
}

pub(crate) fn start_worker(slot: usize, stack_top: usize) {
    // SAFETY: the script only passes the two numbers on to the new worker.
    unsafe { js_start_worker(slot, stack_top) }
}

/// Lines are numbered in the order they are written: threads post them from different workers, and the page
/// puts them back in this order.
static NEXT_LINE: AtomicU32 = AtomicU32::new(0);

/// Protocol output to the page: each complete line is handed over as it ends.
#[derive(Default)]
pub struct PageLines {
    pending: Vec<u8>,
}

impl Write for PageLines {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for &b in buf {
            if b == b'\n' {
                let seq = NEXT_LINE.fetch_add(1, Ordering::Relaxed);
                // SAFETY: `pending` is valid for `len` bytes during the call; the script copies them out.
                unsafe { js_emit(seq, self.pending.as_ptr(), self.pending.len()) };
                self.pending.clear();
            } else {
                self.pending.push(b);
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

//! The engine in a browser: the exports that `janggi-worker.js` calls on the WebAssembly module. Text goes in as
//! protocol lines (`janggi_line`) and comes out through the import `janggi.emit`; threads are Web Workers that the
//! page starts and that enter `janggi_worker_main`; net files are given as bytes (`janggi_write_file`).
//!
//! Every export runs on the worker that holds the protocol session, except `janggi_worker_main` (a search or perft
//! thread's worker) and `janggi_alloc`, which a new worker also calls for its thread-local storage.

use janggi::platform::{files, thread, web::PageLines};
use janggi::protocol::session::{Output, Session};
use std::alloc::Layout;
use std::sync::Mutex;

/// The protocol session, made at the first line and again after `quit`.
static SESSION: Mutex<Option<Session>> = Mutex::new(None);

/// `len` bytes aligned to `align` (a power of two) for the script to write into; never freed when it is a
/// worker's thread-local storage, else handed back by the export that reads it.
#[unsafe(no_mangle)]
pub extern "C" fn janggi_alloc(len: usize, align: usize) -> *mut u8 {
    match Layout::from_size_align(len.max(1), align.max(1)) {
        // SAFETY: the layout's size is not zero.
        Ok(layout) => unsafe { std::alloc::alloc(layout) },
        Err(_) => std::ptr::null_mut(),
    }
}

/// The bytes `janggi_alloc(len, 1)` gave, taken back as a vector.
///
/// # Safety
/// `ptr` came from `janggi_alloc(len, 1)` and is not used after this call.
unsafe fn take(ptr: *mut u8, len: usize) -> Vec<u8> {
    if ptr.is_null() {
        return Vec::new();
    }
    // SAFETY: per the caller, `ptr` holds `len` written bytes allocated with alignment 1 and size max(len, 1).
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) }.to_vec();
    // SAFETY: the same layout as the allocation.
    unsafe { std::alloc::dealloc(ptr, Layout::from_size_align_unchecked(len.max(1), 1)) };
    bytes
}

/// Handles the text at `ptr` (UTF-8, `len` bytes from `janggi_alloc(len, 1)`, freed here): each line of it is one
/// protocol command, as a line on the native engine's standard input.
///
/// # Safety
/// `ptr` came from `janggi_alloc(len, 1)` and the script does not use it afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn janggi_line(ptr: *mut u8, len: usize) {
    // SAFETY: per this function's contract.
    let text = unsafe { take(ptr, len) };
    let mut session = SESSION.lock().unwrap_or_else(|e| e.into_inner());
    for line in text.split(|&b| b == b'\n') {
        let current = session.get_or_insert_with(|| Session::new(Output::new(Box::new(PageLines::default())), None));
        if !current.input(line) {
            // `quit` ends the session (its search stopped); the next line starts a new one, as a new process would.
            *session = None;
        }
    }
}

/// Keeps the bytes at `data` as the file named by the UTF-8 at `name` (both from `janggi_alloc(_, 1)`, freed
/// here), for `setoption name EvalFile value NAME`.
///
/// # Safety
/// Both pointers came from `janggi_alloc(len, 1)` with these lengths and are not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn janggi_write_file(name: *mut u8, name_len: usize, data: *mut u8, data_len: usize) {
    // SAFETY: per this function's contract.
    let (name, data) = unsafe { (take(name, name_len), take(data, data_len)) };
    files::write(&String::from_utf8_lossy(&name), data);
}

/// A new thread's worker enters here (its stack and thread-local storage set by the script) and never leaves.
///
/// # Safety
/// `slot` is the number the import `start_worker` was given for this worker.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn janggi_worker_main(slot: usize) {
    // SAFETY: per this function's contract.
    unsafe { thread::worker_main(slot) }
}

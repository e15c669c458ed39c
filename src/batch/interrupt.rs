//! Ctrl-C for long jobs: the first press asks the job to finish or abandon what is in progress and stop, keeping
//! everything finished; the second ends the program at once, after any write in progress, so no record is cut.
//! One handler serves every job of the process (a process may install only one).

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, Once};

/// The exit status of a job stopped by Ctrl-C: 128 + SIGINT, as shells report it.
pub const INTERRUPTED_EXIT: u8 = 130;

/// How a job reacts to Ctrl-C.
#[derive(Clone, Copy, Debug)]
pub struct Job {
    /// Printed on the first press.
    pub stopping: &'static str,
    /// Printed on the second press, just before the program exits.
    pub exiting: &'static str,
    /// Raised on the first press: the job stops starting work and winds down.
    pub stop: &'static AtomicBool,
    /// Raised on the first press and kept (it may be the same flag as `stop`); a press that finds it raised
    /// is the second.
    pub interrupted: &'static AtomicBool,
    /// Held while the job writes a record; the second press waits for it.
    pub writing: Option<&'static Mutex<()>>,
}

static JOB: Mutex<Option<Job>> = Mutex::new(None);

/// Makes `job` the one Ctrl-C speaks to (installing the handler the first time).
pub fn install(job: Job) {
    *JOB.lock().unwrap_or_else(|e| e.into_inner()) = Some(job);
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        if let Err(e) = ctrlc::set_handler(on_ctrl_c) {
            log::warn!("no Ctrl-C handler: {e}");
        }
    });
}

fn on_ctrl_c() {
    let job = *JOB.lock().unwrap_or_else(|e| e.into_inner());
    let Some(job) = job else { std::process::exit(i32::from(INTERRUPTED_EXIT)) };
    // A closed stderr must not turn the press into a panic.
    let mut err = std::io::stderr();
    if job.interrupted.swap(true, Ordering::SeqCst) {
        let _ = writeln!(err, "{}", job.exiting);
        let _guard = job.writing.map(|m| m.lock());
        std::process::exit(i32::from(INTERRUPTED_EXIT));
    }
    let _ = writeln!(err, "{}", job.stopping);
    job.stop.store(true, Ordering::SeqCst);
}

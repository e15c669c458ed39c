//! Threads: the standard library's natively. In a browser each thread is a Web Worker sharing the engine's memory;
//! workers are started once, through the page's script, and then reused: a finished task leaves its worker
//! waiting for the next one, so a search does not pay a worker's start-up at every move.
//!
//! Both provide the same calls: `spawn` with a `JoinHandle` (`join`, `is_finished`) and `scope` with its scoped
//! spawns, which the search's thread pool uses to lend its threads the position and settings.

#[cfg(not(target_arch = "wasm32"))]
pub use std::thread::{JoinHandle, scope, spawn};

#[cfg(target_arch = "wasm32")]
pub use workers::{JoinHandle, Scope, ScopedJoinHandle, scope, spawn, worker_main};

#[cfg(target_arch = "wasm32")]
mod workers {
    use std::marker::PhantomData;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Condvar, Mutex, MutexGuard};

    /// Stack of each worker thread (the native default is 2 MiB; a search's recursion fits in it with room).
    const STACK_BYTES: usize = 4 << 20;

    type Task = Box<dyn FnOnce() + Send + 'static>;

    /// One worker: the task it is to run next, and the signal that one was given.
    struct Slot {
        task: Mutex<Option<Task>>,
        given: Condvar,
    }

    /// Workers waiting for a task.
    static IDLE: Mutex<Vec<&'static Slot>> = Mutex::new(Vec::new());

    /// A lock whose holder cannot have panicked (a panic aborts the WebAssembly instance).
    fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
        m.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `task` on an idle worker, or on a new one that the page starts.
    fn run_on_worker(task: Task) {
        let idle = lock(&IDLE).pop();
        if let Some(slot) = idle {
            *lock(&slot.task) = Some(task);
            slot.given.notify_one();
            return;
        }
        // A new worker lives as long as the engine: its slot and stack are never freed.
        let slot: &'static Slot = Box::leak(Box::new(Slot { task: Mutex::new(Some(task)), given: Condvar::new() }));
        let stack: &'static mut [u128] = Box::leak(vec![0u128; STACK_BYTES / 16].into_boxed_slice());
        let top = stack.as_ptr() as usize + STACK_BYTES;
        super::super::web::start_worker(slot as *const Slot as usize, top);
    }

    /// The life of a worker, called by the page's script in the new worker once its stack is set: run the task
    /// it was started for, then each task given to it, forever.
    ///
    /// # Safety
    /// `slot` is the value `run_on_worker` handed to the page for this worker.
    pub unsafe fn worker_main(slot: usize) -> ! {
        // SAFETY: the slot was leaked by `run_on_worker`, so it lives for ever; the caller passes it unchanged.
        let slot: &'static Slot = unsafe { &*(slot as *const Slot) };
        loop {
            let task = {
                let mut task = lock(&slot.task);
                loop {
                    match task.take() {
                        Some(t) => break t,
                        None => task = slot.given.wait(task).unwrap_or_else(|e| e.into_inner()),
                    }
                }
            };
            task();
            lock(&IDLE).push(slot);
        }
    }

    /// A task's result, handed from its worker to the thread that joins it.
    struct Packet<T> {
        value: Mutex<Option<T>>,
        done: Condvar,
        finished: AtomicBool,
    }

    impl<T> Packet<T> {
        fn new() -> Packet<T> {
            Packet { value: Mutex::new(None), done: Condvar::new(), finished: AtomicBool::new(false) }
        }

        fn set(&self, v: T) {
            *lock(&self.value) = Some(v);
            self.finished.store(true, Ordering::Release);
            self.done.notify_all();
        }

        fn wait(&self) -> T {
            let mut value = lock(&self.value);
            loop {
                match value.take() {
                    Some(v) => return v,
                    None => value = self.done.wait(value).unwrap_or_else(|e| e.into_inner()),
                }
            }
        }
    }

    /// The handle of a spawned thread.
    pub struct JoinHandle<T>(Arc<Packet<T>>);

    impl<T> JoinHandle<T> {
        /// Waits for the thread's result. A panic aborts the whole instance here, so there is no error case
        /// beyond the native signature's.
        pub fn join(self) -> std::thread::Result<T> {
            Ok(self.0.wait())
        }

        pub fn is_finished(&self) -> bool {
            self.0.finished.load(Ordering::Acquire)
        }
    }

    /// Runs `f` on a worker thread.
    pub fn spawn<F, T>(f: F) -> JoinHandle<T>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let packet = Arc::new(Packet::new());
        let result = Arc::clone(&packet);
        run_on_worker(Box::new(move || result.set(f())));
        JoinHandle(packet)
    }

    /// Threads that may borrow from the caller's stack: every one is joined before `scope` returns.
    pub struct Scope<'scope, 'env: 'scope> {
        running: Arc<(Mutex<usize>, Condvar)>,
        _scope: PhantomData<&'scope mut &'scope ()>,
        _env: PhantomData<&'env mut &'env ()>,
    }

    pub struct ScopedJoinHandle<'scope, T> {
        packet: Arc<Packet<T>>,
        _scope: PhantomData<&'scope ()>,
    }

    impl<T> ScopedJoinHandle<'_, T> {
        pub fn join(self) -> std::thread::Result<T> {
            Ok(self.packet.wait())
        }
    }

    /// As `std::thread::scope`: `f` spawns threads borrowing what outlives the call; all are joined at its end.
    pub fn scope<'env, F, T>(f: F) -> T
    where
        F: for<'scope> FnOnce(&'scope Scope<'scope, 'env>) -> T,
    {
        let scope =
            Scope { running: Arc::new((Mutex::new(0), Condvar::new())), _scope: PhantomData, _env: PhantomData };
        let out = f(&scope);
        let (count, zero) = &*scope.running;
        let mut count = lock(count);
        while *count > 0 {
            count = zero.wait(count).unwrap_or_else(|e| e.into_inner());
        }
        out
    }

    impl<'scope> Scope<'scope, '_> {
        pub fn spawn<F, T>(&'scope self, f: F) -> ScopedJoinHandle<'scope, T>
        where
            F: FnOnce() -> T + Send + 'scope,
            T: Send + 'scope,
        {
            *lock(&self.running.0) += 1;
            let packet = Arc::new(Packet::new());
            let (result, running) = (Arc::clone(&packet), Arc::clone(&self.running));
            let task: Box<dyn FnOnce() + Send + 'scope> = Box::new(move || {
                result.set(f());
                drop(result);
                let (count, zero) = &*running;
                *lock(count) -= 1;
                zero.notify_all();
            });
            // SAFETY: `scope` waits until every task has run to its end (the count back at zero) before it
            // returns, so nothing the task borrows for 'scope is gone while it runs; only the lifetime changes.
            let task: Task = unsafe { std::mem::transmute::<Box<dyn FnOnce() + Send + 'scope>, Task>(task) };
            run_on_worker(task);
            ScopedJoinHandle { packet, _scope: PhantomData }
        }
    }
}

//! A monotonic clock: `std::time::Instant` natively; in a browser the page's clock, read by every thread alike.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

#[cfg(target_arch = "wasm32")]
pub use web_instant::Instant;

#[cfg(target_arch = "wasm32")]
mod web_instant {
    use std::ops::{Add, Sub};
    use std::time::Duration;

    /// A point in time, in milliseconds of the page's clock (`performance.timeOrigin + performance.now()`: the
    /// same origin in every worker, where `performance.now()` alone starts with each worker).
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        pub fn now() -> Instant {
            Instant(super::super::web::now_ms())
        }

        /// Time since `earlier`, zero if `earlier` is later (two workers' clocks may differ by a fraction of a
        /// millisecond).
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            Duration::from_secs_f64(((self.0 - earlier.0) / 1000.0).max(0.0))
        }

        pub fn elapsed(&self) -> Duration {
            Instant::now().duration_since(*self)
        }

        pub fn checked_sub(&self, d: Duration) -> Option<Instant> {
            Some(Instant(self.0 - d.as_secs_f64() * 1000.0))
        }

        pub fn checked_add(&self, d: Duration) -> Option<Instant> {
            Some(Instant(self.0 + d.as_secs_f64() * 1000.0))
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            Instant(self.0 + d.as_secs_f64() * 1000.0)
        }
    }

    impl Sub<Instant> for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.duration_since(earlier)
        }
    }
}

//! The net shipped in the repository (`nets/`) and embedded in the binary: what the engine evaluates with when no
//! `EvalFile` is set. Named as the reference names its nets, `janggi-` and the first 12 hex digits of the file's
//! sha256, so `EvalFile` announces the same kind of default a Fairy-Stockfish host expects; docs/nets.md gives
//! the recipe that made it.

use super::network::Network;
use std::sync::{Arc, OnceLock};

/// The file name, given once so that the embedded path and the announced name cannot drift apart.
macro_rules! default_net_file {
    () => {
        "janggi-805160284124.nnue"
    };
}

/// The default net's file name (also `EvalFile`'s default value).
pub const DEFAULT_NET_NAME: &str = default_net_file!();

/// The default net's bytes, as committed in `nets/`.
pub static DEFAULT_NET_BYTES: &[u8] =
    include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/nets/", default_net_file!()));

/// The default net, read from the embedded bytes once and shared.
pub fn default_network() -> Arc<Network> {
    static NET: OnceLock<Arc<Network>> = OnceLock::new();
    Arc::clone(NET.get_or_init(|| {
        // The bytes are checked by the tests (`the_embedded_net_is_the_named_file`); a failure here is a build
        // made from a broken checkout.
        Arc::new(Network::from_bytes(DEFAULT_NET_BYTES).expect("the embedded default net is a valid net file"))
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::digest::sha256_hex;

    /// The name carries the first 12 hex digits of the bytes' sha256, and the bytes read as a net.
    #[test]
    fn the_embedded_net_is_the_named_file() {
        let hex = sha256_hex(DEFAULT_NET_BYTES);
        assert_eq!(DEFAULT_NET_NAME, format!("janggi-{}.nnue", &hex[..12]));
        assert!(Network::from_bytes(DEFAULT_NET_BYTES).is_ok());
    }
}

//! Files read by name (net files): the file system natively; in a browser, the files the page gave the engine
//! (`write`), as Fairy-Stockfish's package takes a net through its `FS.writeFile`.

use std::io;
use std::path::Path;

/// The bytes of the file at `path`.
#[cfg(not(target_arch = "wasm32"))]
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    std::fs::read(path)
}

#[cfg(target_arch = "wasm32")]
pub use in_memory::{read, write};

#[cfg(target_arch = "wasm32")]
mod in_memory {
    use super::*;
    use std::collections::HashMap;
    use std::sync::Mutex;

    /// Files the page wrote, by name. A net's file is read once, when `EvalFile` chooses it.
    static FILES: Mutex<Option<HashMap<String, Vec<u8>>>> = Mutex::new(None);

    /// Keeps `bytes` as the file `name` (replacing one of that name).
    pub fn write(name: &str, bytes: Vec<u8>) {
        let mut files = FILES.lock().unwrap_or_else(|e| e.into_inner());
        files.get_or_insert_with(HashMap::new).insert(normalize(name), bytes);
    }

    /// The bytes of the file the page wrote as `path`.
    pub fn read(path: &Path) -> io::Result<Vec<u8>> {
        let files = FILES.lock().unwrap_or_else(|e| e.into_inner());
        let name = normalize(&path.to_string_lossy());
        match files.as_ref().and_then(|f| f.get(&name)) {
            Some(bytes) => Ok(bytes.clone()),
            None => Err(io::Error::new(io::ErrorKind::NotFound, "no such file was given to the engine")),
        }
    }

    /// `/x.nnue`, `./x.nnue` and `x.nnue` name the same file, as in Fairy-Stockfish's file system at its root.
    fn normalize(name: &str) -> String {
        name.trim_start_matches("./").trim_start_matches('/').to_string()
    }
}

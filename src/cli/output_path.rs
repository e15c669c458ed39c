//! Output files are checked before any work starts, the same way by every command: a missing folder is created,
//! and the file must open for writing (opened to append, so nothing already there is touched; a file that did not
//! exist is removed again). An analysis of an hour is not run only to find that its page cannot be written.

use std::fs::OpenOptions;
use std::path::Path;

/// Makes sure `path`, given as `flag`, can be written, or says why not.
pub fn prepare(path: &Path, flag: &str) -> Result<(), String> {
    if path.is_dir() {
        return Err(format!("{flag} '{}' is a folder; give a file name", path.display()));
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if dir.exists() && !dir.is_dir() {
            return Err(format!("{flag} '{}': '{}' is a file, not a folder", path.display(), dir.display()));
        }
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("{flag} '{}': cannot create the folder '{}': {e}", path.display(), dir.display()))?;
    }
    let existed = path.exists();
    OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| format!("{flag} '{}': cannot write it: {e}", path.display()))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// The same for a folder that a command writes files into.
pub fn prepare_dir(dir: &Path, flag: &str) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{flag} '{}': cannot create the folder: {e}", dir.display()))
}

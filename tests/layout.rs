//! The shape of the source tree, checked by `tools/check_layout.py`: no file over 1,000 lines, no function over
//! 400, the protocol and the analysis reaching the search only through its facade, and no import circle. The
//! checker itself is tried on small trees made here, so that a checker that finds nothing fails too.

use std::path::Path;
use std::process::{Command, Output};

fn check(src: &Path) -> Output {
    Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/check_layout.py"))
        .arg(src)
        .output()
        .expect("python3 runs tools/check_layout.py")
}

fn tree(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("janggi-layout-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

#[test]
fn the_source_tree_keeps_its_shape() {
    let out = check(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert!(
        out.status.success(),
        "tools/check_layout.py found:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_checker_finds_a_circle_through_a_reexport() {
    let dir = tree(
        "circle",
        &[
            ("lib.rs", "pub mod board;\n"),
            ("board/mod.rs", "pub mod fen;\npub mod position;\npub use position::Position;\n"),
            ("board/fen.rs", "use crate::board::Position;\npub const START: &str = \"\";\n"),
            ("board/position.rs", "use super::fen::START;\npub struct Position;\n"),
        ],
    );
    let out = check(&dir);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success());
    assert!(text.contains("import circle: board/fen.rs -> board/position.rs"), "{text}");
}

#[test]
fn the_checker_finds_a_layer_that_looks_up() {
    let dir = tree(
        "layers",
        &[
            ("lib.rs", "pub mod board;\npub mod search;\n"),
            ("board/mod.rs", "pub mod fen;\npub mod position;\n"),
            ("board/position.rs", "use crate::search::engine::Engine;\n"),
            ("board/fen.rs", "use crate::search;\n"),
            ("search/mod.rs", "pub mod engine;\n"),
            ("search/engine.rs", "use crate::board::position;\npub struct Engine;\n"),
        ],
    );
    let out = check(&dir);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success());
    assert!(text.contains("board/position.rs: the layer 'board' looks up at 'search'"), "{text}");
    assert!(text.contains("board/fen.rs: the layer 'board' looks up at 'search'"), "a module's index counts: {text}");
    assert!(!text.contains("search/engine.rs: the layer"), "the search may use the rules: {text}");
}

#[test]
fn the_checker_finds_a_way_past_the_facade_and_long_code() {
    let long_fn = format!("pub fn long() {{\n{}}}\n", "    let _x = 1;\n".repeat(401));
    let dir = tree(
        "facade",
        &[
            ("lib.rs", "pub mod protocol;\npub mod search;\n"),
            ("search/mod.rs", "pub mod engine;\npub mod time;\n"),
            ("search/engine.rs", "pub struct Engine;\n"),
            ("search/time.rs", "pub struct Budget;\n"),
            ("protocol/mod.rs", "pub mod session;\n"),
            ("protocol/session.rs", "use crate::search::{engine::Engine, time::Budget};\n"),
            ("long.rs", &long_fn),
        ],
    );
    let out = check(&dir);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("protocol/session.rs: reaches past the search's facade: search::time::Budget"), "{text}");
    assert!(!text.contains("search::engine"), "the facade is the way in: {text}");
    assert!(text.contains("long.rs:1: fn long is 403 lines"), "{text}");
}

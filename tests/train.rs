//! `janggi train` through the real binary: a few epochs on freshly generated self-play records lower the
//! held-out loss; the exported net is a valid Fairy-Stockfish Janggi net that `nnue info` describes and the
//! engine searches with; the float model and the engine's integer evaluation of the exported net agree closely;
//! `--resume` continues the run exactly and refuses a damaged checkpoint; bad data files are refused by name.

use janggi::board::{Move, Notation, Position, Rules};
use janggi::datagen::record::{HEADER_BYTES, RECORD_BYTES, header};
use janggi::eval::nnue::arch::network_hash;
use janggi::eval::nnue::network::BODY_BYTES;
use std::path::{Path, PathBuf};
use std::process::Output;

mod batch;
use batch::janggi;

mod common;

/// Small, quick training settings: a fifth held out so that the held-out loss is not noise.
const QUICK: [&str; 10] = ["--batch", "64", "--val-fraction", "0.2", "--lr", "0.005", "--threads", "2", "--seed", "3"];

fn workdir(name: &str) -> PathBuf {
    batch::workdir("train", name)
}

fn ok(out: Output) -> Output {
    assert!(
        out.status.success(),
        "failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn failed(out: Output) -> String {
    assert!(!out.status.success(), "should fail: {}", String::from_utf8_lossy(&out.stdout));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// About 2,700 positions from 24 self-play games at depth 3: enough that the held-out loss of a few epochs
/// follows the training loss down (8 games let it overfit with some searches).
fn generate(dir: &Path) -> &'static str {
    ok(janggi(dir, &["datagen", "--games", "24", "--depth", "3", "--seed", "11", "--out", "data.bin"], &[]));
    "data.bin"
}

fn train(dir: &Path, args: &[&str]) -> Output {
    let mut all = vec!["train"];
    all.extend_from_slice(args);
    janggi(dir, &all, &[])
}

/// One row of the epoch table.
#[derive(Debug)]
struct Row {
    epoch: u32,
    train_loss: f64,
    val_loss: f64,
    positions_per_second: f64,
    mad_cp: f64,
}

fn table(out: &Output) -> Vec<Row> {
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines();
    assert_eq!(lines.next().unwrap().split_whitespace().next(), Some("epoch"), "{text}");
    lines
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let epoch = w.first()?.parse().ok()?;
            Some(Row {
                epoch,
                train_loss: w[1].parse().unwrap(),
                val_loss: w[2].parse().unwrap(),
                positions_per_second: w[4].parse().unwrap(),
                mad_cp: w[6].parse().unwrap(),
            })
        })
        .collect()
}

#[test]
fn training_lowers_the_held_out_loss_and_exports_a_net_the_engine_plays_with() {
    let dir = workdir("learn");
    let data = generate(&dir);
    // The data named by its full path: the net's description keeps only the file name.
    let data_path = dir.join(data);
    let data_path = data_path.to_str().unwrap();
    let out = ok(train(&dir, &[data_path, "--epochs", "5", "--dir", "run", "--out", "janggi-trained.nnue"]));
    let rows = table(&out);
    assert_eq!(rows.iter().map(|r| r.epoch).collect::<Vec<_>>(), [1, 2, 3, 4, 5]);
    let (first, last) = (&rows[0], &rows[4]);
    assert!(last.val_loss < first.val_loss, "held-out loss did not fall: {rows:?}");
    assert!(last.train_loss < first.train_loss, "training loss did not fall: {rows:?}");
    assert!(rows.iter().all(|r| r.positions_per_second > 0.0 && r.mad_cp < 10.0), "{rows:?}");

    // The final export reports how far the engine's integer evaluation is from the float model.
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().find(|l| l.starts_with("wrote janggi-trained.nnue")).expect(&text);
    let mad: f64 = line.split("quantised| ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(mad < 10.0, "{line}");
    assert!(line.contains("held-out positions"), "{line}");
    for epoch in 1..=5 {
        assert!(dir.join(format!("run/epoch-{epoch}.nnue")).is_file());
    }

    // A valid net of the architecture, described by the data and the epochs.
    let info = ok(janggi(&dir, &["nnue", "info", "janggi-trained.nnue"], &[]));
    let info = String::from_utf8_lossy(&info.stdout);
    let description = info.lines().find_map(|l| l.strip_prefix("description: ")).unwrap();
    assert!(description.contains("data.bin") && description.contains("epoch 5 of 5"), "{info}");
    assert!(description.contains("lambda ") && description.contains("lr "), "the settings: {info}");
    assert!(!description.contains(dir.to_str().unwrap()) && !description.contains('/'), "no path: {info}");
    let size = std::fs::metadata(dir.join("janggi-trained.nnue")).unwrap().len() as usize;
    assert_eq!(size, 12 + description.len() + BODY_BYTES);
    assert!(info.contains(&format!("hash: {:#010x}", network_hash())), "{info}");

    // The engine searches with it and plays a legal move.
    let net = dir.join("janggi-trained.nnue");
    let mut engine = common::Engine::start_uci();
    engine.send(&format!("setoption name EvalFile value {}", net.display()));
    engine.send("position startpos moves h1g3 h10g8");
    engine.send("go depth 3");
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
    let mut pos = Position::startpos(Rules::JANGGI);
    pos.play_moves(&["h1g3", "h10g8"], Notation::Uci).unwrap();
    let m = Move::parse(&best, Notation::Uci).unwrap();
    assert!(pos.is_legal(m), "{best}");
}

#[test]
fn resume_continues_the_run_exactly_and_a_damaged_checkpoint_is_refused() {
    let dir = workdir("resume");
    let data = generate(&dir);
    // One thread: the run is then bit for bit reproducible.
    let mut args = QUICK.to_vec();
    args[7] = "1";
    let run = |extra: &[&str]| {
        let mut all = vec![data];
        all.extend_from_slice(&args);
        all.extend_from_slice(extra);
        train(&dir, &all)
    };
    ok(run(&["--epochs", "4", "--dir", "straight"]));
    ok(run(&["--epochs", "2", "--dir", "split"]));
    let resumed = ok(run(&["--epochs", "4", "--resume", "split"]));
    assert_eq!(table(&resumed).iter().map(|r| r.epoch).collect::<Vec<_>>(), [3, 4]);
    let read = |p: &str| std::fs::read(dir.join(p)).unwrap();
    assert!(read("straight/checkpoint.bin") == read("split/checkpoint.bin"), "resumed state differs");
    assert!(read("straight/epoch-4.nnue") == read("split/epoch-4.nnue"), "resumed net differs");

    // Cut short, or another kind of file: refused with the checkpoint's name, nothing trained.
    let checkpoint = read("split/checkpoint.bin");
    std::fs::write(dir.join("split/checkpoint.bin"), &checkpoint[..checkpoint.len() / 2]).unwrap();
    let err = failed(run(&["--epochs", "6", "--resume", "split"]));
    assert!(err.contains("checkpoint.bin") && err.contains("truncated"), "{err}");
    assert!(!dir.join("split/epoch-5.nnue").exists());
    std::fs::write(dir.join("split/checkpoint.bin"), b"not a checkpoint at all").unwrap();
    let err = failed(run(&["--epochs", "6", "--resume", "split"]));
    assert!(err.contains("not a janggi training checkpoint"), "{err}");
    let err = failed(run(&["--epochs", "6", "--resume", "nowhere"]));
    assert!(err.contains("nowhere"), "{err}");
}

/// `--init NET` starts from a net's weights: with a vanishing learning rate the run exports the same net again,
/// and it starts where that net left off rather than where a fresh model starts.
#[test]
fn init_continues_a_net_instead_of_a_fresh_model() {
    let dir = workdir("init");
    let data = generate(&dir);
    let run = |extra: &[&str]| {
        let mut all = vec![data];
        all.extend_from_slice(&QUICK);
        all.extend_from_slice(extra);
        train(&dir, &all)
    };
    let fresh = table(&ok(run(&["--epochs", "3", "--dir", "fresh", "--out", "janggi-first.nnue"])));
    let mut still = QUICK.to_vec();
    still[5] = "1e-12";
    let mut all = vec![data, "--init", "janggi-first.nnue", "--epochs", "1", "--dir", "again", "--out", "same.nnue"];
    all.extend_from_slice(&still);
    let continued = table(&ok(train(&dir, &all)));
    // The training loss says where a run starts (on a set this small the held-out loss of a fresh model can be
    // lowest after its first epoch, the net then fitting its training positions more closely than the others).
    assert!(continued[0].train_loss < fresh[0].train_loss, "fresh {fresh:?}, continued {continued:?}");
    let body = |p: &str| {
        let bytes = std::fs::read(dir.join(p)).unwrap();
        bytes[bytes.len() - BODY_BYTES..].to_vec()
    };
    assert!(body("janggi-first.nnue") == body("same.nnue"), "the weights changed");

    std::fs::write(dir.join("janggi-broken.nnue"), b"not a net").unwrap();
    let err = failed(run(&["--init", "janggi-broken.nnue", "--epochs", "1", "--dir", "broken"]));
    assert!(err.contains("janggi-broken.nnue"), "{err}");
    assert!(!dir.join("broken/epoch-1.nnue").exists());
    let err = failed(run(&["--init", "janggi-first.nnue", "--resume", "fresh", "--epochs", "4"]));
    assert!(err.contains("--init") && err.contains("--resume"), "{err}");
}

#[test]
fn bad_data_files_are_refused_with_their_names() {
    let dir = workdir("bad-data");
    let data = generate(&dir);
    std::fs::write(dir.join("garbage.bin"), b"this is not training data, just some text\n").unwrap();
    let err = failed(train(&dir, &[data, "--data", "garbage.bin", "--epochs", "1"]));
    assert!(err.contains("garbage.bin") && err.contains("magic"), "{err}");

    // A good header and a damaged record (piece code 15): the file and the record are named.
    let mut bytes = header().to_vec();
    let good = std::fs::read(dir.join(data)).unwrap();
    bytes.extend_from_slice(&good[HEADER_BYTES..HEADER_BYTES + 2 * RECORD_BYTES]);
    let mut bad = good[HEADER_BYTES..HEADER_BYTES + RECORD_BYTES].to_vec();
    bad[12] = 0xFF;
    bytes.extend_from_slice(&bad);
    std::fs::write(dir.join("damaged.bin"), &bytes).unwrap();
    let err = failed(train(&dir, &["damaged.bin", "--epochs", "1"]));
    assert!(err.contains("damaged.bin: record 3"), "{err}");

    let err = failed(train(&dir, &["missing.bin", "--epochs", "1"]));
    assert!(err.contains("missing.bin"), "{err}");
    let err = failed(train(&dir, &["--epochs", "1"]));
    assert!(err.contains("no data"), "{err}");
    let err = failed(train(&dir, &[data, "--val-fraction", "1.5"]));
    assert!(err.contains("--val-fraction"), "{err}");
    let err = failed(train(&dir, &[data, "--val", "garbage.bin"]));
    assert!(err.contains("garbage.bin"), "{err}");
}

/// The numbers after a prefix on a line of the output.
fn counts_after(out: &Output, prefix: &str) -> Vec<f64> {
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().find(|l| l.starts_with(prefix)).unwrap_or_else(|| panic!("no '{prefix}' in {text}"));
    line[prefix.len()..].split(|c: char| !(c.is_ascii_digit() || c == '.')).filter_map(|w| w.parse().ok()).collect()
}

/// `--mirror` adds each training position's mirror image (the held-out set is kept as it is), and every run
/// reports the classical evaluation's held-out loss on the same targets, the bar a net has to clear.
#[test]
fn mirror_doubles_the_training_set_and_the_classical_loss_is_the_bar() {
    let dir = workdir("mirror");
    let data = generate(&dir);
    let run = |extra: &[&str]| {
        let mut all = vec![data, "--epochs", "1"];
        all.extend_from_slice(&QUICK);
        all.extend_from_slice(extra);
        ok(train(&dir, &all))
    };
    let (plain, mirrored) = (run(&["--dir", "plain"]), run(&["--dir", "mirrored", "--mirror"]));
    let (p, m) = (counts_after(&plain, "positions: "), counts_after(&mirrored, "positions: "));
    assert_eq!(m[0], 2.0 * p[0], "twice the training positions");
    assert_eq!(m[1], p[1], "the same held-out positions");
    let bar = "held-out loss of the classical evaluation on the same targets: ";
    let (cp, cm) = (counts_after(&plain, bar)[0], counts_after(&mirrored, bar)[0]);
    assert!(cp > 0.0 && cp < 0.25 && cp == cm, "{cp} {cm}");
}

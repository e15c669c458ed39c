//! NNUE evaluation as a specification: Fairy-Stockfish's `eval` tables reproduced on recorded positions, the
//! net file's errors, incremental accumulators against a full refresh, and every SIMD kernel against the plain
//! one.

mod batch;
mod common;

use common::Engine;
use janggi::board::setups::all_setups;
use janggi::board::{Move, Position, Rules};
use janggi::eval::nnue::arch::{BUCKETS, TRANSFORMER_BYTES};
use janggi::eval::nnue::network::BODY_BYTES;
use janggi::eval::nnue::{
    Accumulator, AccumulatorStack, Kernel, NetError, Network, propagate, random_network, random_network_with,
};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock};

const RANDOM_NET: &str = "tests/data/nnue_random_net.txt";
const EXPECTED_TABLES: &str = "tests/data/nnue_fs_eval.tsv";

/// The random net of the seed recorded next to Fairy-Stockfish's values (built in memory).
static NET: LazyLock<Arc<Network>> = LazyLock::new(|| Arc::new(random_network(recorded_seed())));

fn recorded(key: &str) -> String {
    let text = std::fs::read_to_string(RANDOM_NET).unwrap();
    let line = text.lines().find(|l| l.starts_with(key)).unwrap_or_else(|| panic!("{key} in {RANDOM_NET}"));
    line[key.len()..].trim().to_string()
}

fn recorded_seed() -> u64 {
    recorded("seed").parse().unwrap()
}

/// The binary, from the crate's folder, with `stdin` as its input.
fn janggi(args: &[&str], stdin: Option<&str>) -> std::process::Output {
    batch::janggi_with_stdin(std::path::Path::new(env!("CARGO_MANIFEST_DIR")), args, stdin.unwrap_or(""))
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("janggi-nnue-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes the recorded random net with the real tool and checks that it is the net the values were taken with.
fn write_recorded_net(dir: &Path) -> PathBuf {
    let path = dir.join("janggi-random.nnue");
    let out =
        janggi(&["nnue", "random", "--seed", &recorded_seed().to_string(), "--out", path.to_str().unwrap()], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let info = janggi(&["nnue", "info", path.to_str().unwrap()], None);
    assert!(info.status.success());
    let info = String::from_utf8(info.stdout).unwrap();
    assert!(info.contains(&format!("sha256: {}", recorded("sha256"))), "{info}");
    assert!(info.contains("hash: 0x3c103e72"), "{info}");
    path
}

#[test]
fn eval_tables_equal_fairy_stockfish_on_recorded_positions() {
    let dir = temp_dir("tables");
    let net = write_recorded_net(&dir);
    let text = std::fs::read_to_string(EXPECTED_TABLES).unwrap();
    let expected: Vec<(&str, &str)> =
        text.lines().filter(|l| !l.starts_with('#')).map(|l| l.split_once('\t').unwrap()).collect();
    assert!(expected.len() >= 300, "{} recorded positions", expected.len());
    let fens: String = expected.iter().map(|(fen, _)| format!("{fen}\n")).collect();
    for kernel in Kernel::available() {
        let out = janggi(&["nnue", "eval", "--net", net.to_str().unwrap(), "--kernel", kernel.name()], Some(&fens));
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let ours = common::nnue_summaries(&String::from_utf8(out.stdout).unwrap());
        assert_eq!(ours.len(), expected.len());
        for ((fen, theirs), (our_fen, mine)) in expected.iter().zip(&ours) {
            assert_eq!(fen, our_fen);
            assert_eq!(theirs, mine, "{} kernel, position {fen}", kernel.name());
        }
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn eval_prints_the_reference_layout() {
    let dir = temp_dir("layout");
    let net = write_recorded_net(&dir);
    let start = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";
    let out = janggi(&["nnue", "eval", "--net", net.to_str().unwrap(), "--fen", start, "--moves", "e2e2"], None);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], " NNUE derived piece values:");
    // The board is drawn 97 characters wide (the reference's 12-file frame), generals without a value.
    assert!(lines[1..32].iter().all(|l| l.len() == 97), "{text}");
    assert!(lines[2].starts_with("|   r   |   n   |   b   |   a   |       |   a   |"));
    assert!(lines.contains(&" NNUE network contributions (Black to move)"));
    assert!(lines.contains(&"|   Bucket   |  Material  | Positional |   Total    |"));
    assert_eq!(lines.iter().filter(|l| l.ends_with("<-- this bucket is used")).count(), 1);
    assert!(lines.iter().any(|l| l.starts_with("|  7         |") && l.ends_with("used")));
    assert!(lines.last().unwrap().starts_with("NNUE evaluation        ") && text.ends_with(" (white side)\n"));
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn refused_net_files_name_the_problem_and_exit_non_zero() {
    let dir = temp_dir("errors");
    let good = random_network(3).to_bytes();
    let header = 12 + u32::from_le_bytes(good[8..12].try_into().unwrap()) as usize;
    let mut wrong_version = good.clone();
    wrong_version[0] ^= 1;
    let mut wrong_hash = good.clone();
    wrong_hash[4] ^= 1;
    let mut wrong_layer = good.clone();
    let stack_start = header + 4 + TRANSFORMER_BYTES;
    wrong_layer[stack_start] ^= 1;
    // The same architecture for a board of 10 x 10 points: another variant's feature count.
    let other_variant_features = 9 * 13 * 100;
    let mut other_variant = good[..header + 4 + 1024].to_vec();
    other_variant.resize(good.len() + (other_variant_features - 10530) * (1024 + 32), 0);
    let mut trailing = good.clone();
    trailing.push(0);
    let cases: [(&str, Vec<u8>, &str); 6] = [
        ("truncated", good[..good.len() / 2].to_vec(), "net file truncated: feature transformer weights"),
        ("version", wrong_version, "not a net of this format: version 0x7af32f21"),
        ("hash", wrong_hash, "net of another architecture: header hash 0x3c103e73, expected 0x3c103e72"),
        ("layer", wrong_layer, "net of another architecture: layer stack hash"),
        ("variant", other_variant, "net of another variant: 11700 input features, a Janggi net has 10530"),
        ("trailing", trailing, "net file has 1 bytes after the last layer"),
    ];
    for (name, bytes, message) in cases {
        let path = dir.join(format!("janggi-{name}.nnue"));
        std::fs::write(&path, bytes).unwrap();
        for args in [
            vec!["nnue", "info", path.to_str().unwrap()],
            vec!["nnue", "eval", "--net", path.to_str().unwrap(), "--fen", "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1"],
        ] {
            let out = janggi(&args, None);
            assert!(!out.status.success(), "{name}");
            let err = String::from_utf8(out.stderr).unwrap();
            assert!(err.contains(message), "{name}: {err}");
            assert!(out.stdout.is_empty(), "{name}");
        }
    }
    let out = janggi(&["nnue", "info", dir.join("missing.nnue").to_str().unwrap()], None);
    assert!(!out.status.success());
    assert!(String::from_utf8(out.stderr).unwrap().contains("cannot read net file"));
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_net_survives_writing_and_reading_back() {
    let bytes = NET.to_bytes();
    assert_eq!(bytes.len(), 12 + NET.description.len() + BODY_BYTES);
    let back = Network::from_bytes(&bytes).unwrap();
    assert!(back == **NET);
}

/// The reference's SIMD builds saturate each sum of four products of a hidden layer to 16 bits; a layer
/// whose inputs and weights are all at their maximum shows it: each block of 16 inputs gives 4 x 32767, not
/// 16 x 127 x 127.
#[test]
fn hidden_layers_saturate_as_the_reference_simd_builds_do() {
    let input = [127u8; 32];
    let grouped = vec![127i8; 32 * 8];
    let saturated = 5 + 2 * 4 * i16::MAX as i32;
    assert_ne!(saturated, 5 + 32 * 127 * 127);
    for kernel in Kernel::available() {
        let mut out = [0i32; 8];
        kernel.affine(&input, &grouped, &[5; 8], &mut out);
        assert_eq!(out, [saturated; 8], "{}", kernel.name());
    }
    let input_small = [1u8; 16];
    let grouped_small = vec![-3i8; 16 * 8];
    for kernel in Kernel::available() {
        let mut out = [0i32; 8];
        kernel.affine(&input_small, &grouped_small, &[0; 8], &mut out);
        assert_eq!(out, [-48; 8], "{}", kernel.name());
    }
}

fn random_playout(rules: Rules, setup: usize, choices: &[u16]) -> Vec<(Position, Vec<Move>)> {
    let fen = &all_setups()[setup % 25];
    let mut pos = Position::from_fen(fen, rules).unwrap();
    let mut line = Vec::new();
    let mut out = Vec::new();
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let pick = moves.as_slice()[c as usize % moves.len()];
        pos.make_move(pick);
        line.push(pick);
        out.push((pos.clone(), line.clone()));
    }
    out
}

/// A net whose hidden layers' 16-bit partial sums saturate, where the kernels could differ most.
static HOT_NET: LazyLock<Network> = LazyLock::new(|| random_network_with(5, true));

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn incremental_accumulators_equal_a_full_refresh(rules in 0usize..6, setup in 0usize..25,
            choices in prop::collection::vec(any::<u16>(), 0..120), back in 0usize..40, nulls in any::<u64>()) {
        let rules = Rules::ALL[rules];
        let mut pos = Position::from_fen(&all_setups()[setup], rules).unwrap();
        let kernel = Kernel::detect();
        let mut stack = AccumulatorStack::new(Arc::clone(&NET), kernel, &pos);
        let mut made = Vec::new();
        for (i, &c) in choices.iter().enumerate() {
            let moves = pos.legal_moves();
            if moves.is_empty() { break; }
            // Now and then a null move, as the search plays them.
            if nulls >> (i % 64) & 1 == 1 && i % 5 == 0 && !pos.in_check() {
                pos.make_null_move();
                made.push(None);
            } else {
                // Every fourth move is the general's when it can move, so that it changes bucket often.
                let general = pos.general(pos.side_to_move());
                let own: Vec<Move> = moves.iter().copied().filter(|m| m.from() == general && !m.is_pass()).collect();
                let m = if c % 4 == 0 && !own.is_empty() { own[c as usize / 4 % own.len()] } else { moves.as_slice()[c as usize % moves.len()] };
                pos.make_move(m);
                made.push(Some(m));
            }
            stack.push(&pos);
            prop_assert_eq!(stack.current(&pos), &Accumulator::refresh(&NET, kernel, &pos), "after {:?}", made);
        }
        for _ in 0..back.min(made.len()) {
            match made.pop().unwrap() {
                Some(_) => pos.unmake_move(),
                None => pos.unmake_null_move(),
            }
            stack.pop();
            prop_assert_eq!(stack.current(&pos), &Accumulator::refresh(&NET, kernel, &pos));
        }
    }

    #[test]
    fn every_kernel_gives_the_scalar_numbers(rules in 0usize..6, setup in 0usize..25,
            choices in prop::collection::vec(any::<u16>(), 0..100)) {
        for (pos, _) in random_playout(Rules::ALL[rules], setup, &choices).iter().step_by(7) {
            for net in [&**NET, &*HOT_NET] {
                let scalar = Accumulator::refresh(net, Kernel::scalar(), pos);
                for kernel in Kernel::available() {
                    let acc = Accumulator::refresh(net, kernel, pos);
                    prop_assert_eq!(&acc, &scalar);
                    for bucket in 0..BUCKETS {
                        prop_assert_eq!(
                            propagate(net, kernel, &acc, pos.side_to_move(), bucket),
                            propagate(net, Kernel::scalar(), &scalar, pos.side_to_move(), bucket),
                            "{} kernel, bucket {}", kernel.name(), bucket
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_reader_never_panics_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..4096)) {
        prop_assert!(Network::from_bytes(&bytes).is_err());
    }

    #[test]
    fn a_cut_or_damaged_net_is_refused_without_panic(cut in 0usize..11_261_886, flip in 0usize..4096, bit in 0u8..8) {
        static BYTES: LazyLock<Vec<u8>> = LazyLock::new(|| NET.to_bytes());
        let cut = cut % BYTES.len();
        let refused = Network::from_bytes(&BYTES[..cut]);
        prop_assert!(matches!(refused, Err(NetError::Truncated { .. } | NetError::FeatureCount { .. })), "{:?}", refused);
        // A flipped bit in the header or in the feature transformer's hash is always noticed.
        let mut damaged = BYTES.clone();
        let at = if flip % 2 == 0 { flip % 12 } else { 12 + NET.description.len() + flip % 4 };
        damaged[at] ^= 1 << bit;
        prop_assert!(Network::from_bytes(&damaged).is_err());
    }
}

/// The forward pass with exact 32-bit sums everywhere (what a build without SIMD computes).
fn exact_forward(net: &Network, acc: &Accumulator, side: janggi::board::Color, bucket: usize) -> i32 {
    let clip = |v: i16| v.clamp(0, 127) as i32;
    let input: Vec<i32> =
        acc.values[side.index()].iter().chain(&acc.values[(!side).index()]).map(|&v| clip(v)).collect();
    let s = &net.stacks[bucket];
    let relu = |v: i32| (v >> 6).clamp(0, 127);
    let l1: Vec<i32> = (0..16)
        .map(|o| relu(s.l1_biases[o] + (0..1024).map(|i| s.l1_weights[o * 1024 + i] as i32 * input[i]).sum::<i32>()))
        .collect();
    let l2: Vec<i32> = (0..32)
        .map(|o| relu(s.l2_biases[o] + (0..16).map(|i| s.l2_weights[o * 32 + i] as i32 * l1[i]).sum::<i32>()))
        .collect();
    s.l3_bias + (0..32).map(|i| s.l3_weights[i] as i32 * l2[i]).sum::<i32>()
}

/// The ordinary random net never reaches the 16-bit saturation, so its numbers are those of any build; the
/// saturating one does, so comparing it with the reference checks the saturation too.
#[test]
fn only_the_saturating_net_reaches_sixteen_bit_saturation() {
    let mut differs = 0;
    for fen in all_setups().iter().take(5) {
        let pos = Position::from_fen(fen, Rules::JANGGI).unwrap();
        for (net, saturates) in [(&**NET, false), (&*HOT_NET, true)] {
            let acc = Accumulator::refresh(net, Kernel::scalar(), &pos);
            for bucket in 0..BUCKETS {
                let ours = propagate(net, Kernel::scalar(), &acc, pos.side_to_move(), bucket).positional;
                let exact = exact_forward(net, &acc, pos.side_to_move(), bucket);
                if saturates {
                    differs += usize::from(ours != exact);
                } else {
                    assert_eq!(ours, exact, "{fen} bucket {bucket}");
                }
            }
        }
    }
    // Saturated sums often end clipped by the ReLUs anyway; a few outputs in forty still change.
    assert!(differs >= 2, "the saturating net differs from exact sums in {differs} of 40 cases");
}

/// Sends `eval` then `isready`; returns the lines in between.
#[test]
fn the_protocol_loads_eval_file_prints_the_table_and_keeps_the_net_on_a_bad_file() {
    let dir = temp_dir("protocol");
    let net = write_recorded_net(&dir);
    let cut = dir.join("janggi-cut.nnue");
    std::fs::write(&cut, &std::fs::read(&net).unwrap()[..1000]).unwrap();
    let moves = ["h1g3", "e7e6", "e2e2"];
    let tool = janggi(
        &[
            "nnue",
            "eval",
            "--net",
            net.to_str().unwrap(),
            "--fen",
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
            "--moves",
            moves[0],
            moves[1],
            moves[2],
        ],
        None,
    );
    let expected: Vec<String> = String::from_utf8(tool.stdout).unwrap().lines().map(str::to_string).collect();

    let mut e = Engine::start_uci();
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    let default_net = e.eval_lines();
    assert!(default_net.iter().any(|l| l.contains("NNUE evaluation")), "the embedded default net's table");
    e.send("setoption name EvalFile value <empty>");
    let classical = e.eval_lines();
    assert!(!classical.iter().any(|l| l.contains("NNUE")), "no net, no NNUE table");
    // The classical terms come first and the final evaluation (the value the search starts from) last.
    let (classical_final, terms) = classical.split_last().unwrap();
    assert!(classical_final.starts_with("Final evaluation ") && classical_final.ends_with("[classical]"));
    assert_eq!(&default_net[..terms.len()], terms);

    e.send("setoption name EvalFile value /no/such/janggi.nnue");
    e.read_until(|l| l.starts_with("info string error: option 'EvalFile': cannot read net file /no/such/janggi.nnue"));
    e.send(&format!("setoption name EvalFile value {}", net.display()));
    e.sync();
    let with_net = e.eval_lines();
    assert_eq!(&with_net[..terms.len()], terms, "the classical terms come first");
    let (net_final, net_part) = with_net[terms.len()..].split_last().unwrap();
    assert_eq!(net_part, &expected[..], "then exactly what janggi nnue eval prints");
    assert!(net_final.starts_with("Final evaluation ") && net_final.ends_with("[net]"), "{net_final}");

    e.send(&format!("setoption name EvalFile value {}", cut.display()));
    e.read_until(|l| l.starts_with("info string error: option 'EvalFile': net file truncated"));
    assert_eq!(e.eval_lines(), with_net, "a refused file keeps the net loaded before");

    e.send("setoption name Use NNUE value false");
    assert_eq!(e.eval_lines(), classical);
    e.send("setoption name Use NNUE value true");
    assert_eq!(e.eval_lines(), with_net);
    e.send("setoption name EvalFile value <empty>");
    assert_eq!(e.eval_lines(), classical);
    std::fs::remove_dir_all(dir).ok();
}

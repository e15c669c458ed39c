//! The binary run as a batch task would run it: in a folder of its own, with no Slurm or Kubernetes index
//! variables but those a test gives, so that the machine's environment cannot make a run a shard.
#![allow(dead_code)] // each test file uses the helpers it needs

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub const BIN: &str = env!("CARGO_BIN_EXE_janggi");
const BATCH_VARS: [&str; 4] =
    ["JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_COUNT"];

/// A fresh, empty folder `group/name` under the tests' temporary folder.
pub fn workdir(group: &str, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(group).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The binary in `dir` with no batch-system variables but those given; it must never panic.
pub fn janggi(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    run(command(dir, args, env), None)
}

/// The binary in `dir`, as `janggi`, with `input` on its stdin.
pub fn janggi_with_stdin(dir: &Path, args: &[&str], input: &str) -> Output {
    run(command(dir, args, &[]), Some(input))
}

fn command(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.current_dir(dir).args(args);
    for v in BATCH_VARS {
        cmd.env_remove(v);
    }
    cmd.envs(env.iter().copied());
    cmd
}

fn run(mut cmd: Command, input: Option<&str>) -> Output {
    let out = match input {
        None => cmd.output().unwrap(),
        Some(input) => {
            let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
            // The pipe closes when the handle drops, so the binary sees the end of its input.
            child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
            child.wait_with_output().unwrap()
        }
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    out
}

//! Splitting a batch job (a match, an analysis, data generation) into N shards that run as the tasks of
//! a cluster's batch system: a Slurm job array or a Kubernetes Indexed Job. Shard I of N takes the work items
//! whose number is ≡ I (mod N), so the shards are disjoint, cover everything, and each item's shard is known
//! without any coordination.
//!
//! Where the index comes from:
//! - `--shard I/N`: given outright.
//! - `--shard auto/N`: the index from `JOB_COMPLETION_INDEX` (Kubernetes Indexed Job, from 0) or else
//!   `SLURM_ARRAY_TASK_ID` (less `SLURM_ARRAY_TASK_MIN`, so `--array=1-8` works as well as `--array=0-7`).
//! - no flag: the same variables; the count N is `SLURM_ARRAY_TASK_COUNT` under Slurm. Kubernetes does not tell
//!   a pod the Job's `completions`, so there N must be given with `--shard auto/N`; a set `JOB_COMPLETION_INDEX`
//!   without it is an error rather than N pods each playing the whole match.

use std::path::{Path, PathBuf};

/// The variable a Kubernetes Indexed Job sets in each pod: its completion index, from 0.
pub const KUBERNETES_INDEX: &str = "JOB_COMPLETION_INDEX";
/// The variables a Slurm job array sets in each task.
pub const SLURM_INDEX: &str = "SLURM_ARRAY_TASK_ID";
pub const SLURM_MIN: &str = "SLURM_ARRAY_TASK_MIN";
pub const SLURM_COUNT: &str = "SLURM_ARRAY_TASK_COUNT";

/// Shard `index` of `count` (0 <= index < count).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    index: u32,
    count: u32,
}

impl Shard {
    pub fn new(index: u32, count: u32) -> Result<Shard, String> {
        if count == 0 {
            return Err("the shard count must be at least 1".into());
        }
        if index >= count {
            return Err(format!("shard index {index} is out of range for {count} shards (0 to {})", count - 1));
        }
        Ok(Shard { index, count })
    }

    pub fn index(self) -> u32 {
        self.index
    }

    pub fn count(self) -> u32 {
        self.count
    }

    /// Whether work item `item` (numbered from 0) belongs to this shard.
    pub fn takes(self, item: u64) -> bool {
        item % u64::from(self.count) == u64::from(self.index)
    }

    /// The shard's own output file next to `path`: `match.pgn` becomes `match.3-of-8.pgn`.
    pub fn file(self, path: &Path) -> PathBuf {
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let name = match path.extension() {
            Some(ext) => format!("{stem}.{}-of-{}.{}", self.index, self.count, ext.to_string_lossy()),
            None => format!("{stem}.{}-of-{}", self.index, self.count),
        };
        path.with_file_name(name)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

fn number(text: &str, what: &str) -> Result<u32, String> {
    text.trim().parse().map_err(|_| format!("{what} '{text}' is not a whole number"))
}

/// The index set by the batch system, if any: (variable, index from 0).
fn index_from_env(env: &dyn Fn(&str) -> Option<String>) -> Result<Option<(&'static str, u32)>, String> {
    if let Some(v) = env(KUBERNETES_INDEX) {
        return Ok(Some((KUBERNETES_INDEX, number(&v, KUBERNETES_INDEX)?)));
    }
    if let Some(v) = env(SLURM_INDEX) {
        let id = number(&v, SLURM_INDEX)?;
        let min = env(SLURM_MIN).map(|m| number(&m, SLURM_MIN)).transpose()?.unwrap_or(0);
        let index = id.checked_sub(min).ok_or_else(|| format!("{SLURM_INDEX} {id} is below {SLURM_MIN} {min}"))?;
        return Ok(Some((SLURM_INDEX, index)));
    }
    Ok(None)
}

/// The shard to run from the `--shard` flag (`I/N` or `auto/N`) and the environment: `None` for the whole job.
/// `env` reads a variable (`std::env::var(..).ok()` in the program; a table in tests).
pub fn resolve(flag: Option<&str>, env: &dyn Fn(&str) -> Option<String>) -> Result<Option<Shard>, String> {
    let Some(flag) = flag else {
        return match index_from_env(env)? {
            None => Ok(None),
            Some((SLURM_INDEX, index)) => {
                let count = env(SLURM_COUNT).ok_or_else(|| {
                    format!("{SLURM_INDEX} is set but {SLURM_COUNT} is not: pass --shard auto/N with the array's size")
                })?;
                Shard::new(index, number(&count, SLURM_COUNT)?).map(Some)
            }
            Some((var, _)) => Err(format!(
                "{var} is set but the number of shards is unknown: pass --shard auto/N (N = the Job's completions)"
            )),
        };
    };
    let bad = || format!("bad --shard '{flag}': write I/N (e.g. 3/8) or auto/N");
    let (index, count) = flag.split_once('/').ok_or_else(bad)?;
    let count = number(count, "the shard count").map_err(|e| format!("{}: {e}", bad()))?;
    let index = if index.trim() == "auto" {
        let (_, index) = index_from_env(env)?
            .ok_or_else(|| format!("--shard auto/{count}: neither {KUBERNETES_INDEX} nor {SLURM_INDEX} is set"))?;
        index
    } else {
        number(index, "the shard index").map_err(|e| format!("{}: {e}", bad()))?
    };
    Shard::new(index, count).map(Some)
}

/// `resolve` with the process's environment.
pub fn from_flag_and_env(flag: Option<&str>) -> Result<Option<Shard>, String> {
    resolve(flag, &|name| std::env::var(name).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(vars: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |name| vars.iter().find(|(n, _)| *n == name).map(|(_, v)| v.to_string())
    }

    #[test]
    fn explicit_shards_and_their_items() {
        let s = resolve(Some("3/8"), &env(&[])).unwrap().unwrap();
        assert_eq!((s.index(), s.count()), (3, 8));
        let taken: Vec<u64> = (0..30).filter(|&i| s.takes(i)).collect();
        assert_eq!(taken, vec![3, 11, 19, 27]);
        // Every item lands in exactly one shard.
        for item in 0..100 {
            assert_eq!((0..8).filter(|&i| Shard::new(i, 8).unwrap().takes(item)).count(), 1);
        }
        assert_eq!(resolve(None, &env(&[])).unwrap(), None);
    }

    #[test]
    fn bad_flags_are_errors() {
        for flag in ["8/8", "3", "a/8", "3/0", "-1/4", "auto/x"] {
            assert!(resolve(Some(flag), &env(&[])).is_err(), "{flag}");
        }
        let e = resolve(Some("auto/4"), &env(&[])).unwrap_err();
        assert!(e.contains("JOB_COMPLETION_INDEX"), "{e}");
    }

    #[test]
    fn the_index_comes_from_kubernetes_or_slurm() {
        let k8s = env(&[("JOB_COMPLETION_INDEX", "2")]);
        assert_eq!(resolve(Some("auto/4"), &k8s).unwrap(), Some(Shard::new(2, 4).unwrap()));
        // Kubernetes gives no count: without auto/N that is an error, not the whole match in every pod.
        assert!(resolve(None, &k8s).unwrap_err().contains("auto/N"));
        let slurm =
            env(&[("SLURM_ARRAY_TASK_ID", "5"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_COUNT", "8")]);
        assert_eq!(resolve(None, &slurm).unwrap(), Some(Shard::new(4, 8).unwrap()));
        assert_eq!(resolve(Some("auto/8"), &slurm).unwrap(), Some(Shard::new(4, 8).unwrap()));
        assert!(resolve(Some("auto/4"), &env(&[("SLURM_ARRAY_TASK_ID", "4")])).is_err());
        assert!(resolve(None, &env(&[("SLURM_ARRAY_TASK_ID", "1")])).unwrap_err().contains("SLURM_ARRAY_TASK_COUNT"));
        // An explicit index wins over the environment.
        assert_eq!(resolve(Some("1/4"), &k8s).unwrap(), Some(Shard::new(1, 4).unwrap()));
    }

    #[test]
    fn each_shard_writes_its_own_file() {
        let s = Shard::new(3, 8).unwrap();
        assert_eq!(s.file(Path::new("out/match.pgn")), PathBuf::from("out/match.3-of-8.pgn"));
        assert_eq!(s.file(Path::new("games")), PathBuf::from("games.3-of-8"));
        assert_eq!(s.to_string(), "3/8");
    }
}

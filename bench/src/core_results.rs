//! Section 5: the policy core's cost per call, read back from criterion's
//! estimates (`<target>/criterion/<group>/<bench>/new/estimates.json`, written by
//! `cargo bench -p courier-bench --bench core`).

use serde::Serialize;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Estimate {
    /// `group/bench`.
    pub id: String,
    /// Mean time per call, nanoseconds.
    pub mean_ns: f64,
    pub median_ns: f64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub dir: String,
    pub estimates: Vec<Estimate>,
}

/// Criterion's directory next to `release` (`<target>/criterion`).
pub fn criterion_dir(release: &Path) -> Option<PathBuf> {
    Some(release.parent()?.join("criterion"))
}

fn point(v: &serde_json::Value, which: &str) -> f64 {
    v[which]["point_estimate"].as_f64().unwrap_or(f64::NAN)
}

/// Every `group/bench` of the core benches found under `dir`.
pub fn read(dir: &Path) -> Report {
    let mut estimates = Vec::new();
    for group in ["classify", "decide", "sign"] {
        let Ok(entries) = std::fs::read_dir(dir.join(group)) else {
            continue;
        };
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        for name in names.into_iter().filter(|n| n != "report") {
            let file = dir.join(group).join(&name).join("new").join("estimates.json");
            let Ok(text) = std::fs::read_to_string(&file) else {
                continue;
            };
            let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else {
                continue;
            };
            estimates.push(Estimate {
                id: format!("{group}/{name}"),
                mean_ns: point(&v, "mean"),
                median_ns: point(&v, "median"),
            });
        }
    }
    Report {
        dir: dir.display().to_string(),
        estimates,
    }
}

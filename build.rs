//! Build script: the version `arbiter --version` prints, with the commit
//! the binary was built from (when built in a git checkout; a source
//! tarball has none and says nothing of it) and the optional cargo
//! features that are on (nothing when none is).

use std::{env, process::Command};

fn main() {
    let mut version = env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let mut details = Vec::new();
    if let Some(commit) = git(&["rev-parse", "--short", "HEAD"]) {
        details.push(format!("commit {commit}"));
        // Rebuilt when HEAD moves: HEAD itself, the branch it names, and
        // packed refs (where a branch may live instead).
        for path in ["HEAD", "packed-refs"] {
            if let Some(path) = git(&["rev-parse", "--git-path", path]) {
                println!("cargo:rerun-if-changed={path}");
            }
        }
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"])
            && let Some(path) = git(&["rev-parse", "--git-path", &branch])
        {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    let mut features: Vec<String> = env::vars()
        .filter_map(|(key, _)| key.strip_prefix("CARGO_FEATURE_").map(str::to_owned))
        .filter(|feature| feature != "DEFAULT")
        .map(|feature| feature.to_lowercase().replace('_', "-"))
        .collect();
    features.sort();
    if !features.is_empty() {
        details.push(format!("features: {}", features.join(", ")));
    }
    if !details.is_empty() {
        version = format!("{version} ({})", details.join("; "));
    }
    println!("cargo:rustc-env=ARBITER_VERSION={version}");
    println!("cargo:rerun-if-changed=build.rs");
}

/// The trimmed output of `git ARGS`, or `None` when git is missing, fails
/// (not a checkout) or prints nothing.
fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    let text = text.trim();
    (output.status.success() && !text.is_empty()).then(|| text.to_owned())
}

//! `arbiter completions`, `arbiter man` and `--version`: generated from
//! the command line's definition, so they name every subcommand.

use std::process::Command;

use crate::util::run;

const SUBCOMMANDS: [&str; 9] =
    ["validate", "games", "filter", "check", "crosstable", "stats", "merge", "fmt", "dupes"];

/// The bash script completes every subcommand and their options; every
/// shell gets a script.
#[test]
fn completions_name_the_subcommands() {
    let bash = run(&["completions", "bash"]);
    assert_eq!(bash.code, Some(0), "{}", bash.stderr);
    assert!(bash.stdout.contains("complete -F _arbiter"), "{}", bash.stdout);
    for sub in SUBCOMMANDS {
        assert!(
            bash.stdout.contains(&format!("cmd=\"arbiter__subcmd__{sub}\"")),
            "no {sub} in the bash script"
        );
    }
    assert!(bash.stdout.contains("--max-per-code"), "validate's options are completed");
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let script = run(&["completions", shell]);
        assert_eq!(script.code, Some(0), "{shell}: {}", script.stderr);
        assert!(script.stdout.contains("dupes"), "{shell}: {}", script.stdout);
    }
    assert_eq!(run(&["completions", "tcsh"]).code, Some(2));
}

/// `man` writes roff: a title line, the sections, each subcommand; `man
/// COMMAND` the subcommand's page, with its options.
#[test]
fn man_writes_a_roff_page() {
    let page = run(&["man"]);
    assert_eq!(page.code, Some(0), "{}", page.stderr);
    // Before the title, only roff's own string definitions.
    let mut lines =
        page.stdout.lines().skip_while(|l| l.starts_with(".ie ") || l.starts_with(".el "));
    let title = lines.next().unwrap_or_default();
    assert!(title.starts_with(".TH arbiter 1 "), "{title}");
    for section in [".SH NAME", ".SH SYNOPSIS", ".SH SUBCOMMANDS", ".SH VERSION"] {
        assert!(page.stdout.lines().any(|l| l == section), "no {section}\n{}", page.stdout);
    }
    for sub in SUBCOMMANDS {
        assert!(page.stdout.contains(&format!("arbiter\\-{sub}")), "no {sub}\n{}", page.stdout);
    }
    let validate = run(&["man", "validate"]);
    assert_eq!(validate.code, Some(0), "{}", validate.stderr);
    assert!(validate.stdout.contains("\n.TH arbiter-validate 1 "), "{}", validate.stdout);
    assert!(validate.stdout.contains("max\\-per\\-code"), "{}", validate.stdout);
    // A `db` command's page, named as the `db` page names it, or by its
    // words; no -V in its synopsis (subcommands take none).
    for args in [&["man", "db-build"][..], &["man", "db", "build"]] {
        let page = run(args);
        assert_eq!(page.code, Some(0), "{}", page.stderr);
        assert!(page.stdout.contains("\n.TH arbiter-db-build 1 "), "{}", page.stdout);
        assert!(page.stdout.contains("\\fBarbiter db build\\fR"), "{}", page.stdout);
        assert!(!page.stdout.contains("\\-\\-version"), "{}", page.stdout);
    }
    assert!(run(&["man", "db"]).stdout.contains("db\\-build(1)"));
    let missing = run(&["man", "nope"]);
    assert_eq!(missing.code, Some(2));
    assert!(missing.stderr.contains("no such command: nope"), "{}", missing.stderr);
}

/// `--version` names the version and, built in a git checkout, the
/// commit, then the optional features on (`db`, on by default; `sqlite`).
#[test]
fn version_names_the_commit() {
    let version = run(&["--version"]);
    assert_eq!(version.code, Some(0));
    let pattern = regex::Regex::new(
        r"^arbiter \d+\.\d+\.\d+( \((commit [0-9a-f]{7,})?(; )?(features: db(, sqlite)?)?\))?\n$",
    )
    .expect("a valid pattern");
    assert!(pattern.is_match(&version.stdout), "{:?}", version.stdout);
    let head = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_owned());
    if let Some(head) = head {
        assert!(version.stdout.contains(&format!("(commit {head}")), "{}", version.stdout);
    }
    let features = match (cfg!(feature = "db"), cfg!(feature = "sqlite")) {
        (true, true) => "features: db, sqlite)",
        (true, false) => "features: db)",
        // No feature: nothing after the commit, which a build outside a
        // git checkout has not either.
        _ => return,
    };
    assert!(version.stdout.ends_with(&format!("{features}\n")), "{}", version.stdout);
}

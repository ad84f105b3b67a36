//! Evaluates `extract_keyphrases` on the Inspec abstracts (Hulth, 2003).
//!
//! Usage: `inspec-eval <Inspec.zip | extracted folder>`. The zip is unpacked with the system
//! `unzip` into a temporary folder. Protocol: the top 10 keyphrases of each abstract against
//! its gold keys, exact match after lowercasing and stemming both sides with the English
//! Snowball stemmer; precision, recall and F1 are computed per document and averaged.
//! `--dump <file>` also writes each document's predictions and gold keys (stemmed) for
//! error analysis.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::{env, fs};

use kr_research::discovery::extract_keyphrases;
use kr_research::text::{Analyzer, Language};

const TOP: usize = 10;

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let (source, dump) = match args.as_slice() {
        [source] => (source, None),
        [source, flag, dump] if flag == "--dump" => (source, Some(PathBuf::from(dump))),
        _ => {
            eprintln!(
                "usage: inspec-eval <Inspec.zip | folder containing Inspec/> [--dump <file>]"
            );
            return ExitCode::from(2);
        }
    };
    match run(Path::new(source), dump.as_deref()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("inspec-eval: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(source: &Path, dump: Option<&Path>) -> Result<(), String> {
    let (root, _cleanup) = dataset_root(source)?;
    let docs_dir = root.join("docsutf8");
    let mut ids: Vec<String> = fs::read_dir(&docs_dir)
        .map_err(|e| format!("cannot read {}: {e}", docs_dir.display()))?
        .filter_map(|entry| entry.ok())
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".txt").map(str::to_string)
        })
        .collect();
    ids.sort();
    if ids.is_empty() {
        return Err(format!("no documents in {}", docs_dir.display()));
    }

    let language = Language::english();
    let analyzer = Analyzer::new(&language);
    let normalize = |phrase: &str| analyzer.stems(phrase).join(" ");
    let (mut precision, mut recall, mut f1) = (0.0, 0.0, 0.0);
    let (mut matched_total, mut predicted_total, mut gold_total) = (0usize, 0usize, 0usize);
    let mut dumped = String::new();
    let started = std::time::Instant::now();
    for id in &ids {
        let document = read(&docs_dir.join(format!("{id}.txt")))?;
        let keys = read(&root.join("keys").join(format!("{id}.key")))?;
        let gold: HashSet<String> = keys
            .lines()
            .map(str::trim)
            .filter(|key| !key.is_empty())
            .map(normalize)
            .filter(|key| !key.is_empty())
            .collect();
        let predicted: Vec<String> = extract_keyphrases(&document, &language, TOP)
            .iter()
            .map(|phrase| normalize(phrase))
            .collect();
        let matched = predicted.iter().filter(|p| gold.contains(*p)).count();
        let p = ratio(matched, predicted.len());
        let r = ratio(matched, gold.len());
        precision += p;
        recall += r;
        f1 += if p + r > 0.0 {
            2.0 * p * r / (p + r)
        } else {
            0.0
        };
        matched_total += matched;
        predicted_total += predicted.len();
        gold_total += gold.len();
        if dump.is_some() {
            let mut gold: Vec<&String> = gold.iter().collect();
            gold.sort();
            let gold: Vec<&str> = gold.into_iter().map(String::as_str).collect();
            dumped.push_str(&format!(
                "{id}\t{}\t{}\n",
                predicted.join("|"),
                gold.join("|")
            ));
        }
    }
    if let Some(path) = dump {
        fs::write(path, dumped).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let n = ids.len() as f64;
    println!("documents: {}", ids.len());
    println!(
        "macro P@{TOP} {:.4}  R@{TOP} {:.4}  F1@{TOP} {:.4}",
        precision / n,
        recall / n,
        f1 / n
    );
    let micro_p = ratio(matched_total, predicted_total);
    let micro_r = ratio(matched_total, gold_total);
    println!(
        "micro P@{TOP} {:.4}  R@{TOP} {:.4}  F1@{TOP} {:.4}",
        micro_p,
        micro_r,
        2.0 * micro_p * micro_r / (micro_p + micro_r).max(f64::MIN_POSITIVE)
    );
    println!("extraction time: {:.2} s", started.elapsed().as_secs_f64());
    Ok(())
}

fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

fn read(path: &Path) -> Result<String, String> {
    fs::read(path)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// Removes the temporary folder a zip was unpacked into.
struct Cleanup(Option<PathBuf>);

impl Drop for Cleanup {
    fn drop(&mut self) {
        if let Some(dir) = &self.0 {
            let _ = fs::remove_dir_all(dir);
        }
    }
}

/// The `Inspec` folder: inside `source` if it is a folder, else unpacked from the zip.
fn dataset_root(source: &Path) -> Result<(PathBuf, Cleanup), String> {
    if source.is_dir() {
        let nested = source.join("Inspec");
        let root = if nested.is_dir() {
            nested
        } else {
            source.to_path_buf()
        };
        return Ok((root, Cleanup(None)));
    }
    let dir = env::temp_dir().join(format!("inspec-eval-{}", std::process::id()));
    fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let cleanup = Cleanup(Some(dir.clone()));
    let status = Command::new("unzip")
        .arg("-q")
        .arg("-o")
        .arg(source)
        .arg("-d")
        .arg(&dir)
        .status()
        .map_err(|e| format!("cannot run unzip: {e}"))?;
    if !status.success() {
        return Err(format!("unzip failed on {}", source.display()));
    }
    Ok((dir.join("Inspec"), cleanup))
}

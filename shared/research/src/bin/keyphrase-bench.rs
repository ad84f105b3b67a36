//! Keyphrase quality and speed of `extract_keyphrases`, side by side with YAKE.
//!
//! Usage: `keyphrase-bench [--yake <yake.tsv>] [--dump <file>] <corpus.zip | folder>...`. Each
//! corpus has `<name>/docsutf8/<id>.txt` and `<name>/keys/<id>.key` (one gold keyphrase per
//! line); a zip is unpacked with the system `unzip` into a temporary folder. Protocol: the top
//! 10 keyphrases of each document against its gold keys, exact match after lowercasing and
//! stemming both sides with the English Snowball stemmer; precision, recall and F1 per
//! document, averaged (macro). YAKE's predictions (`.ci/yake_keyphrases.py`: corpus, id,
//! seconds, keyphrases joined by '|') are scored by the same code.
//!
//! Documents are split by a stable hash of their id: even hashes are the *tune* part (the
//! only one constants may be tuned on), odd ones the *check* part (the reported figure).

#[path = "shared/split.rs"]
mod split;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;
use std::{env, fs};

use kr_research::discovery::extract_keyphrases;
use kr_research::text::{Analyzer, Language};
use split::is_tune;

const TOP: usize = 10;

struct Options {
    corpora: Vec<PathBuf>,
    yake: Option<PathBuf>,
    dump: Option<PathBuf>,
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        corpora: Vec::new(),
        yake: None,
        dump: None,
    };
    let mut args = env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--yake" => options.yake = args.next().map(PathBuf::from),
            "--dump" => options.dump = args.next().map(PathBuf::from),
            _ => options.corpora.push(PathBuf::from(arg)),
        }
    }
    if options.corpora.is_empty() {
        return Err(
            "usage: keyphrase-bench [--yake <yake.tsv>] [--dump <file>] <corpus.zip | folder>..."
                .into(),
        );
    }
    Ok(options)
}

fn main() -> ExitCode {
    match parse_options().and_then(|options| run(&options)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("keyphrase-bench: {message}");
            ExitCode::FAILURE
        }
    }
}

/// YAKE's output for one document.
struct YakeResult {
    seconds: f64,
    phrases: Vec<String>,
}

fn read_yake(path: &Path) -> Result<HashMap<(String, String), YakeResult>, String> {
    let text = read(path)?;
    let mut results = HashMap::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() < 4 {
            continue;
        }
        let seconds = fields[2].parse().unwrap_or(0.0);
        let phrases = fields[3]
            .split('|')
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect();
        results.insert(
            (fields[0].to_string(), fields[1].to_string()),
            YakeResult { seconds, phrases },
        );
    }
    Ok(results)
}

/// Sums of per-document scores over one part of one corpus.
#[derive(Default)]
struct Tally {
    documents: usize,
    precision: f64,
    recall: f64,
    f1: f64,
    seconds: f64,
    yake_documents: usize,
    yake_f1: f64,
    yake_seconds: f64,
}

impl Tally {
    fn print(&self, corpus: &str, part: &str) {
        let n = self.documents.max(1) as f64;
        let ours = self.f1 / n;
        let speed = self.documents as f64 / self.seconds.max(1e-9);
        let mut line = format!(
            "{corpus:<13} {part:<5} {:>5}  P {:.3}  R {:.3}  F1 {:.3}  {:>9.0} docs/s",
            self.documents,
            self.precision / n,
            self.recall / n,
            ours,
            speed
        );
        if self.yake_documents > 0 {
            let yake = self.yake_f1 / self.yake_documents as f64;
            let yake_speed = self.yake_documents as f64 / self.yake_seconds.max(1e-9);
            line.push_str(&format!(
                "  | YAKE F1 {:.3} {:>7.1} docs/s | F1 ratio {:.2}  speed ratio {:.0}",
                yake,
                yake_speed,
                ours / yake.max(1e-9),
                speed / yake_speed.max(1e-9)
            ));
        }
        println!("{line}");
    }
}

fn run(options: &Options) -> Result<(), String> {
    let yake = match &options.yake {
        Some(path) => read_yake(path)?,
        None => HashMap::new(),
    };
    let language = Language::english();
    let analyzer = Analyzer::new(&language);
    let normalize = |phrase: &str| analyzer.stems(phrase).join(" ");
    let score = |predicted: &[String], gold: &HashSet<String>| {
        let predicted: Vec<String> = predicted.iter().map(|p| normalize(p)).collect();
        let mut seen = HashSet::new();
        let matched = predicted
            .iter()
            .filter(|p| gold.contains(*p) && seen.insert(p.as_str()))
            .count();
        let p = ratio(matched, predicted.len());
        let r = ratio(matched, gold.len());
        let f1 = if p + r > 0.0 {
            2.0 * p * r / (p + r)
        } else {
            0.0
        };
        (p, r, f1, predicted)
    };
    let mut dumped = String::new();
    println!("top {TOP}, stemmed exact match, macro averages; tune = even id hash, check = odd");
    for source in &options.corpora {
        let (root, _cleanup) = dataset_root(source)?;
        let corpus = root
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let ids = document_ids(&root)?;
        let mut tallies = [Tally::default(), Tally::default()];
        for id in &ids {
            let document = read(&root.join("docsutf8").join(format!("{id}.txt")))?;
            let keys = read(&root.join("keys").join(format!("{id}.key")))?;
            let gold: HashSet<String> = keys
                .lines()
                .map(str::trim)
                .filter(|key| !key.is_empty())
                .map(normalize)
                .filter(|key| !key.is_empty())
                .collect();
            let tally = &mut tallies[usize::from(!is_tune(id))];
            let started = Instant::now();
            let predicted = extract_keyphrases(&document, &language, TOP);
            tally.seconds += started.elapsed().as_secs_f64();
            let (p, r, f1, stemmed) = score(&predicted, &gold);
            tally.documents += 1;
            tally.precision += p;
            tally.recall += r;
            tally.f1 += f1;
            if let Some(result) = yake.get(&(corpus.clone(), id.clone())) {
                let (_, _, yake_f1, _) = score(&result.phrases, &gold);
                tally.yake_documents += 1;
                tally.yake_f1 += yake_f1;
                tally.yake_seconds += result.seconds;
            }
            if options.dump.is_some() {
                let mut gold: Vec<&str> = gold.iter().map(String::as_str).collect();
                gold.sort();
                dumped.push_str(&format!(
                    "{corpus}\t{id}\t{}\t{}\n",
                    stemmed.join("|"),
                    gold.join("|")
                ));
            }
        }
        tallies[0].print(&corpus, "tune");
        tallies[1].print(&corpus, "check");
    }
    if let Some(path) = &options.dump {
        fs::write(path, dumped).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

fn document_ids(root: &Path) -> Result<Vec<String>, String> {
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
    Ok(ids)
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

/// The corpus folder (the one holding `docsutf8/`): `source` itself, its only subfolder, or
/// unpacked from the zip.
fn dataset_root(source: &Path) -> Result<(PathBuf, Cleanup), String> {
    let (dir, cleanup) = if source.is_dir() {
        (source.to_path_buf(), Cleanup(None))
    } else {
        let stem = source
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let dir = env::temp_dir().join(format!("keyphrase-bench-{}-{stem}", std::process::id()));
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
        (dir, cleanup)
    };
    if dir.join("docsutf8").is_dir() {
        return Ok((dir, cleanup));
    }
    let nested = fs::read_dir(&dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.path())
        .find(|path| path.join("docsutf8").is_dir())
        .ok_or_else(|| format!("no docsutf8/ in {}", source.display()))?;
    Ok((nested, cleanup))
}

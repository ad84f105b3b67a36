//! The mock's database: the JSON files of `tests/fixtures/dataforseo/`, loaded as they are.
//! The server answers from them and tests read their expectations from them through the same
//! type, so an assertion never holds a second copy of a figure.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context, Result};
use serde::Deserialize;
use serde_json::Value;

use crate::template::workspace_root;

/// Where the mock's files live in the repository.
pub fn fixtures_dir() -> PathBuf {
    workspace_root().join("tests/fixtures/dataforseo")
}

/// What one endpoint costs (see `pricing.json`).
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
pub struct Price {
    /// USD per task.
    pub task: f64,
    /// USD per item returned.
    #[serde(default)]
    pub item: f64,
    /// USD per SERP page of 10 results after the first.
    #[serde(default)]
    pub extra_page: f64,
}

/// One organic SERP, or a query the search engine corrects to another one.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct SerpEntry {
    #[serde(default)]
    pub organic: Vec<String>,
    #[serde(default)]
    pub paid: Vec<String>,
    #[serde(default)]
    pub spell: Option<Value>,
    /// SERP features shown besides the organic results, as advanced item types
    /// (`people_also_ask`, `local_pack`, ...; `sitelinks` gives the first result sitelinks).
    #[serde(default)]
    pub features: Vec<String>,
    /// The People Also Ask questions, when `features` has `people_also_ask`.
    #[serde(default)]
    pub questions: Vec<String>,
    /// The pages the AI Overview cites, in order, when `features` has `ai_overview`; without
    /// them it cites the first organic result.
    #[serde(default)]
    pub ai_overview_references: Vec<String>,
}

impl SerpEntry {
    /// The pages its AI Overview cites, in order; `None` when it shows none.
    pub(crate) fn ai_overview(&self) -> Option<Vec<String>> {
        if !self.features.iter().any(|f| f == "ai_overview") {
            return None;
        }
        if !self.ai_overview_references.is_empty() {
            return Some(self.ai_overview_references.clone());
        }
        Some(self.organic.first().cloned().into_iter().collect())
    }
}

#[derive(Debug, Deserialize)]
struct RankedEntry {
    keyword: String,
    serp_item: Value,
}

#[derive(Debug)]
pub struct MockData {
    dir: PathBuf,
    labs: HashMap<String, Value>,
    labs_order: Vec<String>,
    difficulty: HashMap<String, i64>,
    intents: HashMap<String, Value>,
    ads: HashMap<String, Value>,
    ranked: BTreeMap<String, Vec<RankedEntry>>,
    ideas: BTreeMap<String, Vec<String>>,
    serp: HashMap<String, SerpEntry>,
    pricing: HashMap<String, Price>,
    labs_locations: Vec<i64>,
}

fn read<T: serde::de::DeserializeOwned>(dir: &Path, name: &str) -> Result<T> {
    let path = dir.join(name);
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))
}

pub(crate) fn key(keyword: &str) -> String {
    keyword.trim().to_lowercase()
}

impl MockData {
    /// The files of the repository's fixture folder.
    pub fn load_default() -> Result<Self> {
        Self::load(&fixtures_dir())
    }

    pub fn load(dir: &Path) -> Result<Self> {
        let records: Vec<Value> = read(dir, "keywords.json")?;
        let mut labs = HashMap::new();
        let mut labs_order = Vec::new();
        for record in records {
            let keyword = record["keyword"]
                .as_str()
                .ok_or_else(|| anyhow!("keywords.json: a record without keyword"))?;
            labs_order.push(key(keyword));
            labs.insert(key(keyword), record);
        }
        let ads_entries: Vec<Value> = read(dir, "google_ads.json")?;
        let ads = ads_entries
            .into_iter()
            .filter_map(|entry| Some((key(entry["keyword"].as_str()?), entry)))
            .collect();
        let pricing: Value = read(dir, "pricing.json")?;
        let locations: Value = read(dir, "locations.json")?;
        let data = MockData {
            dir: dir.to_path_buf(),
            labs,
            labs_order,
            difficulty: read(dir, "difficulty.json")?,
            intents: read(dir, "intents.json")?,
            ads,
            ranked: read(dir, "ranked_keywords.json")?,
            ideas: read(dir, "keyword_ideas.json")?,
            serp: read(dir, "serp.json")?,
            pricing: serde_json::from_value(pricing["endpoints"].clone())
                .context("pricing.json: endpoints")?,
            labs_locations: serde_json::from_value(locations["labs"].clone())
                .context("locations.json: labs")?,
        };
        data.check()?;
        Ok(data)
    }

    /// References between the files must resolve, or the mock would answer with holes.
    fn check(&self) -> Result<()> {
        let ranked = self.ranked.values().flatten().map(|e| &e.keyword);
        let ideas = self.ideas.values().flatten();
        if let Some(missing) = ranked.chain(ideas).find(|k| !self.labs.contains_key(*k)) {
            return Err(anyhow!(
                "{missing:?} is ranked or an idea but not in keywords.json"
            ));
        }
        for (keyword, entry) in &self.ads {
            if let Some(spell) = entry["spell"].as_str() {
                if entry.get("search_volume").is_none() && !self.ads.contains_key(&key(spell)) {
                    return Err(anyhow!(
                        "google_ads.json: {keyword:?} spells {spell:?}, unknown"
                    ));
                }
            }
        }
        Ok(())
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The Labs keyword record as stored, for building answers.
    pub(crate) fn labs_record(&self, keyword: &str) -> Option<&Value> {
        self.labs.get(&key(keyword))
    }

    /// Every keyword of the Labs database, in file order.
    pub fn labs_keywords(&self) -> &[String] {
        &self.labs_order
    }

    /// `difficulty.json`: figures bulk keyword difficulty has where the Labs record has none.
    pub(crate) fn extra_difficulty(&self, keyword: &str) -> Option<i64> {
        self.difficulty.get(&key(keyword)).copied()
    }

    pub(crate) fn intent_record(&self, keyword: &str) -> Option<&Value> {
        self.intents.get(&key(keyword))
    }

    /// The Google Ads entry whose figures answer `keyword`, and the spelling they belong to.
    pub(crate) fn ads_record(&self, keyword: &str) -> Option<(&Value, Option<&str>)> {
        let entry = self.ads.get(&key(keyword))?;
        match entry["spell"].as_str() {
            Some(spell) if entry.get("search_volume").is_none() => {
                Some((self.ads.get(&key(spell))?, Some(spell)))
            }
            spell => Some((entry, spell)),
        }
    }

    /// Targets with ranking data.
    pub fn targets(&self) -> Vec<&str> {
        self.ranked.keys().map(String::as_str).collect()
    }

    pub(crate) fn ranked_items(&self, target: &str) -> Option<Vec<(&str, &Value)>> {
        let entries = self.ranked.get(&key(target))?;
        Some(
            entries
                .iter()
                .map(|e| (e.keyword.as_str(), &e.serp_item))
                .collect(),
        )
    }

    /// Seeds with keyword ideas.
    pub fn seeds(&self) -> Vec<&str> {
        self.ideas.keys().map(String::as_str).collect()
    }

    /// The ideas of one seed, best first (empty for unknown seeds).
    pub fn ideas(&self, seed: &str) -> Vec<String> {
        self.ideas.get(&key(seed)).cloned().unwrap_or_default()
    }

    /// The SERP answering `keyword` (after the engine's correction) and the correction.
    pub(crate) fn serp_entry(&self, keyword: &str) -> Option<(&SerpEntry, Option<&Value>)> {
        let entry = self.serp.get(&key(keyword))?;
        match &entry.spell {
            Some(spell) => {
                let corrected = spell["keyword"].as_str()?;
                Some((self.serp.get(&key(corrected))?, Some(spell)))
            }
            None => Some((entry, None)),
        }
    }

    /// Top organic result URLs of `keyword` in rank order, as the SERP answers them.
    pub fn serp_urls(&self, keyword: &str) -> Option<Vec<String>> {
        self.serp_entry(keyword)
            .map(|(entry, _)| entry.organic.clone())
    }

    /// The features and questions the SERP of `keyword` shows, as the mock answers them.
    pub fn serp_features(&self, keyword: &str) -> Option<(Vec<String>, Vec<String>)> {
        self.serp_entry(keyword)
            .map(|(entry, _)| (entry.features.clone(), entry.questions.clone()))
    }

    /// The pages the AI Overview on `keyword`'s SERP cites, in order, as the mock answers
    /// them; `None` when it shows none (or the keyword has no SERP).
    pub fn ai_overview_references(&self, keyword: &str) -> Option<Vec<String>> {
        self.serp_entry(keyword)
            .and_then(|(entry, _)| entry.ai_overview())
    }

    /// Keywords with a SERP of their own.
    pub fn serp_keywords(&self) -> Vec<&str> {
        let mut keywords: Vec<&str> = self
            .serp
            .iter()
            .filter(|(_, entry)| entry.spell.is_none())
            .map(|(keyword, _)| keyword.as_str())
            .collect();
        keywords.sort_unstable();
        keywords
    }

    pub fn labs_locations(&self) -> &[i64] {
        &self.labs_locations
    }

    pub fn price(&self, path: &str) -> Option<Price> {
        self.pricing.get(path).copied()
    }
}

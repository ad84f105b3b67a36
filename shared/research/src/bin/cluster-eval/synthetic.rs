//! Synthetic inputs at the size of a real niche, from fixed seeds so every run sees the same.

use kr_research::clusters::{ClusterInput, SerpClusterInput};

/// xorshift64*: small, fast and the same on every machine.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn pick<'a>(&mut self, list: &[&'a str]) -> &'a str {
        list[self.below(list.len())]
    }
}

const PRODUCTS: [&str; 24] = [
    "sump pump",
    "sump pumps",
    "submersible sump pump",
    "pedestal sump pump",
    "battery backup sump pump",
    "water powered sump pump",
    "sump pump float switch",
    "sump pump check valve",
    "sump pump alarm",
    "sump basin",
    "sump pit",
    "utility pump",
    "sewage ejector pump",
    "effluent pump",
    "basement sump pump",
    "sump pump discharge line",
    "sump pump cover",
    "sump pump liner",
    "dual sump pump",
    "cast iron sump pump",
    "sump pump battery",
    "sump pump switch",
    "sump pump installation",
    "sump pump replacement",
];
const BRANDS: [&str; 12] = [
    "zoeller",
    "wayne",
    "superior pump",
    "liberty",
    "little giant",
    "ridgid",
    "basement watchdog",
    "pentair",
    "everbilt",
    "flotec",
    "barnes",
    "hydromatic",
];
const SPECS: [&str; 10] = [
    "1/3 hp", "1/2 hp", ".75 hp", "3/4 hp", "1 hp", "12v", "115v", "2 inch", "1.5 inch", "plastic",
];
const BEFORE: [&str; 10] = [
    "best",
    "buy",
    "cheap",
    "how to install",
    "how to replace",
    "how to test",
    "what is a",
    "why does my",
    "quiet",
    "commercial",
];
const AFTER: [&str; 16] = [
    "price",
    "cost",
    "reviews",
    "for sale",
    "near me",
    "repair",
    "parts",
    "problems",
    "not working",
    "keeps running",
    "installation cost",
    "home depot",
    "lowes",
    "manual",
    "vs",
    "warranty",
];
const PLACES: [&str; 24] = [
    "newark nj",
    "montclair",
    "chicago",
    "houston",
    "phoenix",
    "columbus",
    "denver",
    "boston",
    "detroit",
    "seattle",
    "atlanta",
    "miami",
    "dallas",
    "austin",
    "portland",
    "omaha",
    "tulsa",
    "raleigh",
    "tampa",
    "orlando",
    "cleveland",
    "pittsburgh",
    "st louis",
    "buffalo",
];

/// `count` distinct keywords of one niche (sump pumps), with volumes skewed as real ones are:
/// products with brands, specifications, intent modifiers before and after, and places.
pub fn niche_keywords(count: usize) -> Vec<ClusterInput> {
    let mut rng = Rng(0x5EED_0000_C1A5_7E25);
    let mut seen = std::collections::HashSet::new();
    let mut items = Vec::with_capacity(count);
    while items.len() < count {
        let product = rng.pick(&PRODUCTS);
        let mut words: Vec<&str> = Vec::new();
        if rng.below(3) == 0 {
            words.push(rng.pick(&BEFORE));
        }
        if rng.below(3) == 0 {
            words.push(rng.pick(&BRANDS));
        }
        if rng.below(4) == 0 {
            words.push(rng.pick(&SPECS));
        }
        words.push(product);
        if rng.below(2) == 0 {
            words.push(rng.pick(&AFTER));
        }
        if rng.below(5) == 0 {
            words.push(rng.pick(&["in", ""]));
            words.push(rng.pick(&PLACES));
        }
        let keyword = words
            .iter()
            .filter(|w| !w.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" ");
        if seen.insert(keyword.clone()) {
            let value = (10.0 * 1000f64.powf(rng.unit() * rng.unit())).round();
            items.push(ClusterInput { keyword, value });
        }
    }
    items
}

/// `count` keywords with 10 result URLs each: topics of 1 to 60 keywords whose SERPs draw
/// about 6 results from the topic's 15 pages (the first ones far more often), 2 from 500
/// pages common to all topics, and the rest from pages seen once.
pub fn serps(count: usize) -> Vec<SerpClusterInput> {
    let mut rng = Rng(0x5EED_CAFE_F00D_0002);
    let mut items = Vec::with_capacity(count);
    let mut topic = 0usize;
    while items.len() < count {
        let size = (60f64.powf(rng.unit()) as usize).max(1);
        for variant in 0..size.min(count - items.len()) {
            let mut urls: Vec<String> = Vec::with_capacity(10);
            while urls.len() < 10 {
                let roll = rng.below(10);
                let url = if roll < 6 {
                    let page = (15f64.powf(rng.unit()) as usize).saturating_sub(1);
                    format!("https://t{topic}-{page}.com/")
                } else if roll < 8 {
                    let page = (500f64.powf(rng.unit()) as usize).saturating_sub(1);
                    format!("https://common.org/p/{page}")
                } else {
                    format!("https://s{}.net/{}", rng.below(100_000), rng.next())
                };
                if !urls.contains(&url) {
                    urls.push(url);
                }
            }
            // Volumes from a small set of steps, as keyword tools report them: many ties.
            let volume = [10.0, 20.0, 30.0, 50.0, 90.0, 170.0, 480.0, 1300.0][rng.below(8)];
            items.push(SerpClusterInput {
                keyword: format!("topic {topic} variant {variant}"),
                volume,
                lexical_value: volume,
                serp_urls: Some(urls),
            });
        }
        topic += 1;
    }
    items
}

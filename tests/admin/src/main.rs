//! Operator CLI. Configured like the functions (`KR_TABLE_NAME`, `KR_AWS_ENDPOINT`, AWS
//! credentials), so it works against the local stack and against AWS alike. Every command
//! prints one JSON object on stdout; failures print one on stderr and exit non-zero.

mod account;
mod research;

use clap::{Parser, Subcommand};
use serde_json::{json, Value};

#[derive(Parser)]
#[command(
    name = "kr-admin",
    about = "Operator commands for the keyword research service"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Open an account.
    CreateUser {
        #[arg(long)]
        email: String,
        #[arg(long)]
        password: String,
        #[arg(long)]
        credits: i64,
        #[arg(long)]
        domains: i64,
        #[arg(long, value_parser = parse_plan)]
        plan: kr_core::domain::Plan,
        /// A fixed id (e.g. for the demo account); random when absent.
        #[arg(long)]
        id: Option<uuid_arg::UuidArg>,
    },
    /// Set the runs and/or the new-domain allowance left.
    SetBalance {
        #[arg(long)]
        email: String,
        #[arg(long)]
        credits: Option<i64>,
        #[arg(long)]
        domains: Option<i64>,
    },
    /// Change the plan (only `agency` includes API keys).
    SetPlan {
        #[arg(long)]
        email: String,
        #[arg(long, value_parser = parse_plan)]
        plan: kr_core::domain::Plan,
    },
    /// Issue an API key; the secret is printed once.
    CreateApiKey {
        #[arg(long)]
        email: String,
        #[arg(long)]
        name: Option<String>,
    },
    /// Lines of `keyword<TAB>url1<TAB>url2...` on stdin (the keyword's top results in rank
    /// order, optional) → `keyword<TAB>intent<TAB>informational=0.21<TAB>commercial=…<TAB>
    /// transactional=…<TAB>navigational=…<TAB>secondary=a,b`, same order. With URLs the
    /// results page votes too (guides, shops, service pages, a named site's front page), the
    /// lines' pages read together as one job's.
    ClassifyIntent {
        #[arg(long, default_value = "en")]
        language: String,
        /// Brand names that make a search navigational (repeatable).
        #[arg(long = "brand")]
        brands: Vec<String>,
        /// Places the site serves, which make a service query local (repeatable).
        #[arg(long = "place")]
        places: Vec<String>,
    },
    /// One document (plain text or HTML) on stdin → its keyphrases, best first (at most 50).
    ExtractKeywords {
        #[arg(long, default_value = "en")]
        language: String,
    },
    /// Lines of `keyword<TAB>volume<TAB>url1<TAB>url2...` on stdin (volume and URLs optional;
    /// URLs are the keyword's top results in rank order) → `keyword<TAB>clusterName`, same
    /// order. The jobs' clustering: keywords whose top 10 URLs share at least `--serp-overlap`
    /// go around the highest-volume one; the rest are grouped by their words (here with the
    /// volume, not a job's relevance, choosing those hubs).
    Cluster {
        #[arg(long, default_value = "en")]
        language: String,
        /// Shared top-10 result URLs (1 to 10) that join a keyword to a cluster.
        #[arg(long, default_value_t = kr_research::clusters::DEFAULT_SERP_OVERLAP,
              value_parser = parse_serp_overlap)]
        serp_overlap: usize,
    },
}

fn parse_plan(raw: &str) -> Result<kr_core::domain::Plan, String> {
    raw.parse()
}

fn parse_serp_overlap(raw: &str) -> Result<usize, String> {
    let depth = kr_research::clusters::SERP_DEPTH;
    raw.parse()
        .ok()
        .filter(|n| (1..=depth).contains(n))
        .ok_or_else(|| format!("{raw:?} is not a whole number from 1 to {depth}"))
}

mod uuid_arg {
    /// A UUID argument, parsed through the domain type so bad ids are refused early.
    #[derive(Clone, Debug)]
    pub struct UuidArg(pub kr_core::domain::UserId);

    impl std::str::FromStr for UuidArg {
        type Err = String;

        fn from_str(raw: &str) -> Result<Self, Self::Err> {
            raw.parse()
                .map(Self)
                .map_err(|_| format!("{raw:?} is not a UUID"))
        }
    }
}

#[tokio::main]
async fn main() {
    let cli = Cli::parse();
    let outcome = match cli.command {
        command @ (Command::ClassifyIntent { .. }
        | Command::ExtractKeywords { .. }
        | Command::Cluster { .. }) => {
            return research::run(command).unwrap_or_else(|message| {
                eprintln!("{}", json!({ "error": message }));
                std::process::exit(1);
            });
        }
        command => account::run(command).await,
    };
    match outcome {
        Ok(output) => println!("{output}"),
        Err(message) => {
            eprintln!("{}", json!({ "error": message }));
            std::process::exit(1);
        }
    }
}

pub type Outcome = Result<Value, String>;

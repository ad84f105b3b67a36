//! `string_enum!`: the `ALL` list, `as_str` and (optionally) `FromStr` of an enum whose values
//! have one name each, written once as a table instead of three matches kept in step by hand.
//!
//! ```text
//! string_enum! {
//!     JobStatus {
//!         Queued => "queued",
//!         Running => "running",
//!     }
//!     // Optional: a `FromStr` that trims the input, then compares it `ignore_case` or `exact`;
//!     // the function makes the error message from the raw input.
//!     from_str(ignore_case, |_raw| "must be one of queued, running".to_string())
//! }
//! ```
//!
//! `ALL` lists the values in the table's order; the enum itself, its derives and its serde
//! names stay where they are (serde's names must match the table, which the enums' tests check).

macro_rules! string_enum {
    (
        $ty:ident { $($variant:ident => $name:literal),+ $(,)? }
        $(from_str($case:ident, $error:expr $(,)?))?
    ) => {
        impl $ty {
            /// Every value, in order.
            pub const ALL: [$ty; [$($name),+].len()] = [$($ty::$variant),+];

            /// Its name, as the API, the stores and the dashboard write it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($ty::$variant => $name,)+
                }
            }
        }

        $(
            impl ::std::str::FromStr for $ty {
                type Err = String;

                fn from_str(raw: &str) -> Result<Self, Self::Err> {
                    let error: fn(&str) -> String = $error;
                    Self::ALL
                        .into_iter()
                        .find(|value| string_enum!(@eq $case, value.as_str(), raw.trim()))
                        .ok_or_else(|| error(raw))
                }
            }
        )?
    };
    (@eq ignore_case, $name:expr, $raw:expr) => {
        $name.eq_ignore_ascii_case($raw)
    };
    (@eq exact, $name:expr, $raw:expr) => {
        $name == $raw
    };
}

#[cfg(test)]
mod tests {
    use crate::dataset::{ClusterAction, Intent, KeywordSource, SerpFeature};
    use crate::domain::{JobStatus, Plan, SharedTab, Stage, WebhookEvent};

    fn serde_names_are_the_table<T: serde::Serialize>(all: &[T], as_str: fn(&T) -> &'static str) {
        for value in all {
            let json = serde_json::to_string(value).unwrap();
            assert_eq!(json, format!("\"{}\"", as_str(value)));
        }
    }

    #[test]
    fn serde_writes_the_names_of_the_table() {
        serde_names_are_the_table(&JobStatus::ALL, |v| v.as_str());
        serde_names_are_the_table(&Stage::ALL, |v| v.as_str());
        serde_names_are_the_table(&Plan::ALL, |v| v.as_str());
        serde_names_are_the_table(&SharedTab::ALL, |v| v.as_str());
        serde_names_are_the_table(&WebhookEvent::ALL, |v| v.as_str());
        serde_names_are_the_table(&SerpFeature::ALL, |v| v.as_str());
        serde_names_are_the_table(&KeywordSource::ALL, |v| v.as_str());
        serde_names_are_the_table(&Intent::ALL, |v| v.as_str());
        serde_names_are_the_table(&ClusterAction::ALL, |v| v.as_str());
    }

    #[test]
    fn parsing_trims_and_keeps_each_enums_case_rule_and_message() {
        assert_eq!(" RUNNING ".parse::<JobStatus>(), Ok(JobStatus::Running));
        assert_eq!(
            "done".parse::<JobStatus>(),
            Err("must be one of queued, running, completed, failed".to_string())
        );
        assert_eq!(" Agency ".parse::<Plan>(), Ok(Plan::Agency));
        assert_eq!(
            " Gold ".parse::<Plan>(),
            Err(r#"unknown plan "gold": expected free, pro or agency"#.to_string())
        );
        assert_eq!(
            " job.failed ".parse::<WebhookEvent>(),
            Ok(WebhookEvent::JobFailed)
        );
        assert_eq!(
            "JOB.FAILED".parse::<WebhookEvent>(),
            Err(
                "must be job.completed, job.failed, job.changes or schedule.run_skipped"
                    .to_string()
            )
        );
        assert_eq!("Video".parse::<SerpFeature>(), Ok(SerpFeature::Video));
        assert_eq!(
            " maps".parse::<SerpFeature>(),
            Err(
                "\" maps\" is not one of ai_overview, featured_snippet, people_also_ask, \
                 local_pack, shopping, video, images, top_stories, knowledge_graph, sitelinks"
                    .to_string()
            )
        );
        assert_eq!("IDEA".parse::<KeywordSource>(), Ok(KeywordSource::Idea));
        assert_eq!(
            "x".parse::<KeywordSource>(),
            Err("must be one of imported, ranked, crawl, idea, search_console".to_string())
        );
        assert_eq!(
            "Improve".parse::<ClusterAction>(),
            Ok(ClusterAction::Improve)
        );
        assert_eq!(
            "x".parse::<ClusterAction>(),
            Err("must be one of create, improve, consolidate".to_string())
        );
    }

    #[test]
    fn all_keeps_its_order() {
        assert_eq!(
            Stage::ALL.map(Stage::as_str),
            ["references", "crawl", "discovery", "metrics", "analysis"]
        );
        assert_eq!(
            SharedTab::ALL.map(SharedTab::as_str),
            [
                "keywords",
                "clusters",
                "plan",
                "personas",
                "overview",
                "changes",
                "search_console",
                "ai_visibility"
            ]
        );
        assert_eq!(
            Intent::ALL.map(Intent::as_str),
            [
                "informational",
                "commercial",
                "transactional",
                "navigational"
            ]
        );
    }
}

//! A read-only link to one job's results for someone without an account (an agency's client):
//! which tabs it shows and until when.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use super::{JobId, ShareLinkId, UserId};

/// A tab of a job's results that a link can show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SharedTab {
    Keywords,
    Clusters,
    Plan,
    Personas,
    Overview,
    /// What changed since the previous run of the same domain and market.
    Changes,
    /// The job's Search Console data: striking-distance, decaying and cannibalized queries.
    #[serde(rename = "search_console")]
    SearchConsole,
    /// The job's AI visibility: AI Overviews' share of voice, the clusters to earn citations
    /// in, answer engines' answers and their cited sources.
    #[serde(rename = "ai_visibility")]
    AiVisibility,
}

// `ALL` in the dashboard's order; `as_str` as the API and the dashboard's `?tab=` write it.
string_enum! {
    SharedTab {
        Keywords => "keywords",
        Clusters => "clusters",
        Plan => "plan",
        Personas => "personas",
        Overview => "overview",
        Changes => "changes",
        SearchConsole => "search_console",
        AiVisibility => "ai_visibility",
    }
}

impl SharedTab {
    /// What a share link shows when no tabs are chosen: this job's results. The changes tab
    /// came later and reads the account's other runs, the Search Console tab shows the
    /// owner's Search Console data and the AI visibility tab came later still, so each is
    /// shown only when chosen.
    pub const SHARED_BY_DEFAULT: [SharedTab; 5] = [
        SharedTab::Keywords,
        SharedTab::Clusters,
        SharedTab::Plan,
        SharedTab::Personas,
        SharedTab::Overview,
    ];

    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|tab| tab.as_str() == raw)
    }
}

/// One or more tabs, each once, in the dashboard's order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<SharedTab>", into = "Vec<SharedTab>")]
pub struct SharedTabs(Vec<SharedTab>);

impl SharedTabs {
    pub fn all() -> Self {
        Self(SharedTab::ALL.to_vec())
    }

    /// A share link's tabs when none are chosen.
    pub fn shared_by_default() -> Self {
        Self(SharedTab::SHARED_BY_DEFAULT.to_vec())
    }

    /// `None` for an empty choice.
    pub fn new(tabs: impl IntoIterator<Item = SharedTab>) -> Option<Self> {
        let mut tabs: Vec<SharedTab> = tabs.into_iter().collect();
        tabs.sort();
        tabs.dedup();
        (!tabs.is_empty()).then_some(Self(tabs))
    }

    pub fn contains(&self, tab: SharedTab) -> bool {
        self.0.contains(&tab)
    }

    pub fn first(&self) -> SharedTab {
        self.0[0]
    }

    pub fn iter(&self) -> impl Iterator<Item = SharedTab> + '_ {
        self.0.iter().copied()
    }
}

impl TryFrom<Vec<SharedTab>> for SharedTabs {
    type Error = &'static str;

    fn try_from(tabs: Vec<SharedTab>) -> Result<Self, Self::Error> {
        Self::new(tabs).ok_or("a share link shows at least one tab")
    }
}

impl From<SharedTabs> for Vec<SharedTab> {
    fn from(tabs: SharedTabs) -> Self {
        tabs.0
    }
}

/// How long a link works, in whole days: 1 to 365, 30 unless chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShareLifetime(u16);

impl ShareLifetime {
    pub const DEFAULT_DAYS: u16 = 30;
    pub const MAX_DAYS: u16 = 365;

    pub fn days(days: i64) -> Option<Self> {
        u16::try_from(days)
            .ok()
            .filter(|days| (1..=Self::MAX_DAYS).contains(days))
            .map(Self)
    }

    pub fn ends(self, from: DateTime<Utc>) -> DateTime<Utc> {
        from + Duration::days(i64::from(self.0))
    }
}

impl Default for ShareLifetime {
    fn default() -> Self {
        Self(Self::DEFAULT_DAYS)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShareLink {
    pub id: ShareLinkId,
    pub job_id: JobId,
    /// The job's owner, who made the link.
    pub owner: UserId,
    pub tabs: SharedTabs,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
}

impl ShareLink {
    pub fn is_live(&self, now: DateTime<Utc>) -> bool {
        now < self.expires_at
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tabs_are_deduplicated_in_the_dashboards_order_and_never_empty() {
        let tabs = SharedTabs::new([
            SharedTab::Overview,
            SharedTab::Keywords,
            SharedTab::Overview,
        ])
        .unwrap();
        assert_eq!(
            tabs.iter().collect::<Vec<_>>(),
            [SharedTab::Keywords, SharedTab::Overview]
        );
        assert!(SharedTabs::new([]).is_none());
        assert!(serde_json::from_str::<SharedTabs>("[]").is_err());
        assert_eq!(SharedTab::parse("plan"), Some(SharedTab::Plan));
        assert_eq!(SharedTab::parse("Plan"), None);
        assert_eq!(
            SharedTab::parse("search_console"),
            Some(SharedTab::SearchConsole)
        );
        assert_eq!(
            serde_json::to_string(&SharedTab::SearchConsole).unwrap(),
            r#""search_console""#
        );
        assert_eq!(
            SharedTab::parse("ai_visibility"),
            Some(SharedTab::AiVisibility)
        );
        assert_eq!(
            serde_json::to_string(&SharedTab::AiVisibility).unwrap(),
            r#""ai_visibility""#
        );
    }

    #[test]
    fn a_lifetime_is_one_day_to_a_year() {
        assert!(ShareLifetime::days(0).is_none());
        assert!(ShareLifetime::days(366).is_none());
        assert!(ShareLifetime::days(-1).is_none());
        let now = Utc::now();
        assert_eq!(
            ShareLifetime::days(1).unwrap().ends(now),
            now + Duration::days(1)
        );
        assert_eq!(ShareLifetime::default().ends(now), now + Duration::days(30));
    }
}

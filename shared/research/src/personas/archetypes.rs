//! The searcher types the offline generator knows, and how each is described.

/// A kind of searcher. The order is the tie-break order when two are equally common.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Archetype {
    Researcher,
    Comparer,
    ReadyBuyer,
    Budget,
    Business,
    Local,
    Beginner,
    Loyal,
}

/// Filled in with the persona's own most valuable keyword (its *focus*).
pub(crate) struct Description {
    pub avatar_name: &'static str,
    pub slug: &'static str,
    pub title: &'static str,
    pub description: String,
    pub goals: Vec<String>,
    pub pain_points: Vec<String>,
}

impl Archetype {
    pub const ALL: [Archetype; 8] = [
        Archetype::Researcher,
        Archetype::Comparer,
        Archetype::ReadyBuyer,
        Archetype::Budget,
        Archetype::Business,
        Archetype::Local,
        Archetype::Beginner,
        Archetype::Loyal,
    ];

    /// Personas added, in this order, when the keywords show fewer than three kinds.
    pub const FALLBACKS: [Archetype; 3] = [
        Archetype::Researcher,
        Archetype::Comparer,
        Archetype::ReadyBuyer,
    ];

    pub fn describe(self, focus: &str) -> Description {
        let lines = |items: &[&str]| items.iter().map(|s| s.replace("{focus}", focus)).collect();
        match self {
            Archetype::Researcher => Description {
                avatar_name: "Curious Casey",
                slug: "researcher",
                title: "Researcher learning the subject",
                description: format!(
                    "Wants to understand {focus} properly before deciding anything; reads guides, \
                     explanations and how-tos from several sources."
                ),
                goals: lines(&[
                    "Understand how {focus} works",
                    "Find clear, trustworthy explanations",
                    "Know which questions matter before buying",
                ]),
                pain_points: lines(&[
                    "Jargon and contradictory advice",
                    "Content that sells instead of explaining",
                ]),
            },
            Archetype::Comparer => Description {
                avatar_name: "Comparing Cam",
                slug: "comparer",
                title: "Buyer comparing options",
                description: format!(
                    "Knows they need {focus} and is weighing the options: reads reviews, \
                     rankings and head-to-head comparisons."
                ),
                goals: lines(&[
                    "Shortlist the best options for {focus}",
                    "See honest pros and cons side by side",
                    "Avoid picking the wrong provider",
                ]),
                pain_points: lines(&[
                    "Biased or sponsored reviews",
                    "Feature lists that are hard to compare",
                ]),
            },
            Archetype::ReadyBuyer => Description {
                avatar_name: "Decisive Dana",
                slug: "ready-buyer",
                title: "Customer ready to buy",
                description: format!(
                    "Has decided on {focus} and wants to buy, book or order now, with as \
                     little friction as possible."
                ),
                goals: lines(&[
                    "Get {focus} quickly and without surprises",
                    "Find availability, delivery and terms at a glance",
                ]),
                pain_points: lines(&[
                    "Hidden fees and unclear terms",
                    "Slow or complicated checkout",
                ]),
            },
            Archetype::Budget => Description {
                avatar_name: "Budget-conscious Bea",
                slug: "budget",
                title: "Price-sensitive shopper",
                description: format!(
                    "Looks for {focus} at the best price: compares costs, hunts for deals, \
                     discounts and free alternatives."
                ),
                goals: lines(&[
                    "Pay as little as possible for {focus}",
                    "Find discounts, bundles or free options",
                    "Understand the total cost up front",
                ]),
                pain_points: lines(&[
                    "Prices hidden behind contact forms",
                    "Cheap options that turn out poor value",
                ]),
            },
            Archetype::Business => Description {
                avatar_name: "Professional Pat",
                slug: "business",
                title: "Professional buying for an organisation",
                description: format!(
                    "Sources {focus} for a company or team: needs reliability, scale, support \
                     and terms that fit a business."
                ),
                goals: lines(&[
                    "Find a dependable supplier of {focus}",
                    "Justify the choice to colleagues and management",
                    "Get volume pricing, invoicing and support",
                ]),
                pain_points: lines(&[
                    "Consumer-only offers that do not scale",
                    "Slow answers to procurement questions",
                ]),
            },
            Archetype::Local => Description {
                avatar_name: "Local Lena",
                slug: "local",
                title: "Local customer nearby",
                description: format!(
                    "Wants {focus} close by, often today: checks locations, opening hours and \
                     whether someone can come or is open now."
                ),
                goals: lines(&[
                    "Find {focus} nearby",
                    "Check opening hours, distance and availability",
                ]),
                pain_points: lines(&[
                    "Outdated addresses and hours",
                    "Results from the wrong area",
                ]),
            },
            Archetype::Beginner => Description {
                avatar_name: "Beginner Ben",
                slug: "beginner",
                title: "Newcomer getting started",
                description: format!(
                    "Is new to {focus} and looks for simple, step-by-step help and starter \
                     options that do not overwhelm."
                ),
                goals: lines(&[
                    "Get started with {focus} without mistakes",
                    "Find beginner-friendly products and guides",
                ]),
                pain_points: lines(&[
                    "Expert-level content that assumes knowledge",
                    "Too many choices at once",
                ]),
            },
            Archetype::Loyal => Description {
                avatar_name: "Loyal Lou",
                slug: "existing-customer",
                title: "Existing customer looking for a brand",
                description: format!(
                    "Already knows the brand behind {focus} and searches for it by name: to log \
                     in, get support or come back to buy again."
                ),
                goals: lines(&[
                    "Reach the right page of a known brand fast",
                    "Get account help or support for {focus}",
                ]),
                pain_points: lines(&[
                    "Hard-to-find login and support pages",
                    "Resellers and look-alikes outranking the official site",
                ]),
            },
        }
    }
}

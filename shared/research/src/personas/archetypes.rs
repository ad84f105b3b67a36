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

impl Archetype {
    /// Personas added, in this order, when the keywords show fewer than three kinds.
    pub const FALLBACKS: [Archetype; 3] = [
        Archetype::Researcher,
        Archetype::Comparer,
        Archetype::ReadyBuyer,
    ];

    pub fn avatar_name(self) -> &'static str {
        match self {
            Archetype::Researcher => "Curious Casey",
            Archetype::Comparer => "Comparing Cam",
            Archetype::ReadyBuyer => "Decisive Dana",
            Archetype::Budget => "Budget-conscious Bea",
            Archetype::Business => "Professional Pat",
            Archetype::Local => "Local Lena",
            Archetype::Beginner => "Beginner Ben",
            Archetype::Loyal => "Loyal Lou",
        }
    }

    pub fn slug(self) -> &'static str {
        match self {
            Archetype::Researcher => "researcher",
            Archetype::Comparer => "comparer",
            Archetype::ReadyBuyer => "ready-buyer",
            Archetype::Budget => "budget",
            Archetype::Business => "business",
            Archetype::Local => "local",
            Archetype::Beginner => "beginner",
            Archetype::Loyal => "existing-customer",
        }
    }
}

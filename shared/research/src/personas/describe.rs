//! Persona texts: whole sentences about a person, written from the site's profile (what it
//! offers, where, to whom) and the persona's own offering.

use super::archetypes::Archetype;
use super::profile::{Audience, PriceLevel, SiteProfile};

/// Places and other offerings named in one text.
const NAMED: usize = 3;

/// What a persona's texts are written from.
pub(crate) struct Context<'a> {
    /// The offering the persona's keywords are most about (or its best keyword).
    pub offer: &'a str,
    pub profile: &'a SiteProfile,
}

pub(crate) struct Texts {
    pub title: String,
    pub description: String,
    pub goals: Vec<String>,
    pub pain_points: Vec<String>,
}

/// "a", "a and b", "a, b and c".
pub(crate) fn join_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

impl Context<'_> {
    fn customer(&self) -> &'static str {
        if self.profile.homeowners {
            "homeowner"
        } else if self.profile.audience == Audience::Businesses {
            "business buyer"
        } else {
            "customer"
        }
    }

    fn others(&self) -> Vec<&str> {
        self.profile
            .offerings
            .iter()
            .map(String::as_str)
            .filter(|o| *o != self.offer)
            .take(NAMED)
            .collect()
    }

    fn places(&self) -> String {
        let places: Vec<&str> = self
            .profile
            .places
            .iter()
            .take(NAMED)
            .map(String::as_str)
            .collect();
        join_list(&places)
    }

    /// " in Newark, Montclair and Orange", or nothing.
    fn in_places(&self) -> String {
        if self.profile.places.is_empty() {
            String::new()
        } else {
            format!(" in {}", self.places())
        }
    }

    /// `prefix` + "roof replacement and gutter installation", or nothing.
    fn also(&self, prefix: &str) -> String {
        let others = self.others();
        if others.is_empty() {
            String::new()
        } else {
            format!("{prefix}{}", join_list(&others))
        }
    }

    fn site(&self) -> &str {
        self.profile.name.as_deref().unwrap_or("the company")
    }
}

/// Words that name who offers something rather than what is offered.
const PROVIDER_WORDS: &[&str] = &[
    "contractor",
    "contractors",
    "company",
    "companies",
    "agency",
    "agencies",
    "firm",
    "firms",
    "specialist",
    "specialists",
    "expert",
    "experts",
    "provider",
    "providers",
    "professionals",
];

/// "roofing contractor" → "roofing": a persona needs the service, not the provider ("needs
/// roofing from a company…", not "needs roofing contractor from a company…").
fn what_is_offered(offer: &str) -> String {
    let words: Vec<&str> = offer.split_whitespace().collect();
    match words.split_last() {
        Some((last, rest))
            if !rest.is_empty() && PROVIDER_WORDS.contains(&last.to_lowercase().as_str()) =>
        {
            rest.join(" ")
        }
        _ => offer.to_string(),
    }
}

pub(crate) fn texts(archetype: Archetype, context: &Context) -> Texts {
    let first = archetype.avatar_name().rsplit(' ').next().unwrap_or("They");
    let offer = &what_is_offered(context.offer);
    let customer = context.customer();
    let in_places = context.in_places();
    let lines = |items: &[String]| items.to_vec();
    match archetype {
        Archetype::Researcher => Texts {
            title: format!("{} researching {offer}", capitalise(customer)),
            description: format!(
                "{first} is a {customer}{in_places} who wants to understand {offer} before \
                 spending any money. {first} reads guides, answers and how-tos{}, and trusts the company that \
                 explains things plainly.",
                context.also(" about ")
            ),
            goals: lines(&[
                format!("Understand {offer} well enough to choose with confidence"),
                "Know which questions to ask before choosing a provider".to_string(),
            ]),
            pain_points: lines(&[
                "Jargon and contradictory advice".to_string(),
                "Articles that sell instead of explaining".to_string(),
            ]),
        },
        Archetype::Comparer => Texts {
            title: format!("{} comparing options for {offer}", capitalise(customer)),
            description: format!(
                "{first} knows they need {offer} and is comparing who to choose{in_places}. \
                 {first} reads reviews, ratings and side-by-side comparisons and shortlists two \
                 or three options before deciding."
            ),
            goals: lines(&[
                format!("Shortlist the best options for {offer}"),
                "See honest pros and cons side by side".to_string(),
            ]),
            pain_points: lines(&[
                "Reviews that look paid for".to_string(),
                "Offers that are hard to compare".to_string(),
            ]),
        },
        Archetype::ReadyBuyer => Texts {
            title: format!("{} ready to buy or book {offer}", capitalise(customer)),
            description: format!(
                "{first} has decided on {offer}{in_places} and is ready to order or book now. {first} looks \
                 for clear prices, availability and the quickest way to get a quote or place an \
                 order{}.",
                context.also(", and may add ")
            ),
            goals: lines(&[
                format!("Get {offer} quickly and without surprises"),
                "See prices, availability and terms at a glance".to_string(),
            ]),
            pain_points: lines(&[
                "Hidden fees and unclear terms".to_string(),
                "Slow quotes or a complicated checkout".to_string(),
            ]),
        },
        Archetype::Budget => {
            let premium = if context.profile.price_level == PriceLevel::Premium {
                format!(
                    " {} presents itself as premium, so it has to show {first} what the extra \
                     cost buys.",
                    capitalise(context.site())
                )
            } else {
                String::new()
            };
            Texts {
                title: format!("Price-conscious {customer} looking for {offer}"),
                description: format!(
                    "{first} needs {offer}{in_places} but has a firm budget. {first} compares prices{}, \
                     looks for deals and free estimates, and avoids any company that hides its \
                     prices.{premium}",
                    context.also(" for ")
                ),
                goals: lines(&[
                    format!("Pay a fair price for {offer}"),
                    "Know the total cost up front".to_string(),
                ]),
                pain_points: lines(&[
                    "Prices hidden behind contact forms".to_string(),
                    "Cheap offers that turn out poor value".to_string(),
                ]),
            }
        }
        Archetype::Business => Texts {
            title: format!("Buyer of {offer} for a business"),
            description: format!(
                "{first} buys {offer} for a business{in_places}. {first} needs a dependable \
                 supplier{} with clear terms, invoices and someone to call when something goes \
                 wrong.",
                context.also(" of ")
            ),
            goals: lines(&[
                format!("Find a dependable supplier of {offer}"),
                "Justify the choice to colleagues and management".to_string(),
            ]),
            pain_points: lines(&[
                "Consumer offers that do not fit a business".to_string(),
                "Slow answers to questions about terms and invoicing".to_string(),
            ]),
        },
        Archetype::Local => {
            let area = if context.profile.places.is_empty() {
                "close by".to_string()
            } else {
                format!("that works in {}", context.places())
            };
            let home = context
                .profile
                .places
                .first()
                .map_or("their area", String::as_str);
            Texts {
                title: format!("{} in {home} looking for {offer}", capitalise(customer)),
                description: format!(
                    "{first} is a {customer} who needs {offer} from a company {area}. {first} \
                     searches with the town's name or \"near me\", checks that the company really \
                     serves {home}, and contacts the one that can help soonest."
                ),
                goals: lines(&[
                    format!("Find a trusted local provider of {offer}"),
                    "Check the service area, opening hours and how soon someone can help"
                        .to_string(),
                ]),
                pain_points: lines(&[
                    "Companies that do not say which areas they serve".to_string(),
                    "Outdated addresses, hours and phone numbers".to_string(),
                ]),
            }
        }
        Archetype::Beginner => Texts {
            title: format!("Newcomer to {offer}"),
            description: format!(
                "{first} is new to {offer}{in_places} and wants simple, step-by-step help. {first} looks \
                 for beginner-friendly advice and starter options{}, and avoids anything that \
                 assumes expert knowledge.",
                context.also(" among ")
            ),
            goals: lines(&[
                format!("Get started with {offer} without costly mistakes"),
                "Find guides and products made for beginners".to_string(),
            ]),
            pain_points: lines(&[
                "Expert content that assumes knowledge".to_string(),
                "Too many choices at once".to_string(),
            ]),
        },
        Archetype::Loyal => Texts {
            title: format!("Existing customer of {}", context.site()),
            description: format!(
                "{first} already knows {}{in_places} and searches for it by name. {first} wants to get \
                 straight to {offer}, contact details or an account page without detours through \
                 resellers or look-alikes.",
                context.site()
            ),
            goals: lines(&[
                "Reach the right page of a known company fast".to_string(),
                format!("Get support or buy {offer} again"),
            ]),
            pain_points: lines(&[
                "Hard-to-find login and support pages".to_string(),
                "Look-alikes outranking the official site".to_string(),
            ]),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::what_is_offered;

    #[test]
    fn a_persona_needs_the_service_not_its_provider() {
        assert_eq!(what_is_offered("roofing contractor"), "roofing");
        assert_eq!(what_is_offered("SEO Agencies"), "SEO");
        assert_eq!(
            what_is_offered("office coffee service"),
            "office coffee service"
        );
        assert_eq!(what_is_offered("contractor"), "contractor");
    }
}

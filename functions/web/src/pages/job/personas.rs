//! Personas as people: who they are, what they want, what worries them, what they search.

use maud::{html, Markup};

use super::params::urlencode;
use super::View;
use crate::format;
use kr_core::domain::SharedTab;

pub fn render(view: &View) -> Markup {
    let personas = &view.dataset.personas;
    html! {
        @if personas.is_empty() {
            div.empty { p { "This job has no personas." } }
        }
        div.personas {
            @for persona in personas {
                article.persona {
                    div.avatar aria-hidden="true" { (persona.avatar_name.chars().next().unwrap_or('?')) }
                    h2 { (persona.avatar_name) }
                    p.role { (persona.title) }
                    p { (persona.description) }
                    @if !persona.goals.is_empty() {
                        h3 { "Wants" }
                        ul { @for goal in &persona.goals { li { (goal) } } }
                    }
                    @if !persona.pain_points.is_empty() {
                        h3 { "Worries about" }
                        ul { @for pain in &persona.pain_points { li { (pain) } } }
                    }
                    @if !persona.top_keywords.is_empty() {
                        h3 { "Searches for" }
                        ul.tags { @for keyword in &persona.top_keywords { li { (keyword) } } }
                    }
                    @if let Some(href) = view.tab_link(SharedTab::Keywords, &format!("&personaAvatarNames={}", urlencode(&persona.avatar_name))) {
                        a.button href=(href) data-partial data-persona=(persona.avatar_name) {
                            "See its " (format::count(persona.keyword_count)) " keywords"
                        }
                    }
                }
            }
        }
    }
}

//! The preview of a site shown with a job's results (contract: `GET /jobs/{id}/references`).

use kr_core::dataset::Reference;
use url::Url;

use crate::extract::Document;

/// Builds the preview of a home page requested as `requested` and served from `final_url`.
pub fn extract_reference(html: &str, requested: &Url, final_url: &Url) -> Reference {
    Document::parse(html, final_url).reference(requested)
}

/// `rel` tokens of site icons, best first: the declared icon, then the Apple touch icon.
const ICON_RELS: &[&[&str]] = &[
    &["icon"],
    &["apple-touch-icon", "apple-touch-icon-precomposed"],
];

impl Document {
    pub(crate) fn reference(&self, requested: &Url) -> Reference {
        let absolute =
            |value: Option<String>| value.and_then(|v| self.resolve(&v)).map(String::from);
        let canonical = self
            .html
            .select(&scraper::Selector::parse("link[rel][href]").expect("valid selector"))
            .find(|link| has_rel(link.attr("rel"), &["canonical"]))
            .and_then(|link| self.resolve(link.attr("href")?));
        Reference {
            url: requested.to_string(),
            title: self.meta(&["og:title"]).or_else(|| self.title()),
            description: self
                .meta(&["og:description"])
                .or_else(|| self.meta(&["description"])),
            image_url: absolute(self.meta(&["og:image", "og:image:url", "og:image:secure_url"]))
                .or_else(|| absolute(self.meta(&["twitter:image", "twitter:image:src"])))
                .or_else(|| self.icon()),
            link: Some(
                canonical
                    .or_else(|| absolute(self.meta(&["og:url"])).and_then(|u| Url::parse(&u).ok()))
                    .unwrap_or_else(|| self.url.clone())
                    .to_string(),
            ),
        }
    }

    fn icon(&self) -> Option<String> {
        let selector = scraper::Selector::parse("link[rel][href]").expect("valid selector");
        ICON_RELS.iter().find_map(|rels| {
            self.html
                .select(&selector)
                .filter(|link| has_rel(link.attr("rel"), rels))
                .find_map(|link| self.resolve(link.attr("href")?))
                .map(String::from)
        })
    }
}

/// Whether the space-separated `rel` value has one of `wanted` (so `shortcut icon` is an icon).
fn has_rel(rel: Option<&str>, wanted: &[&str]) -> bool {
    rel.is_some_and(|rel| {
        rel.split_ascii_whitespace()
            .any(|token| wanted.iter().any(|w| w.eq_ignore_ascii_case(token)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(head: &str) -> Reference {
        let requested = Url::parse("https://shop.example/").unwrap();
        let final_url = Url::parse("https://www.shop.example/en/").unwrap();
        extract_reference(
            &format!("<html><head>{head}</head><body><p>x</p></body></html>"),
            &requested,
            &final_url,
        )
    }

    #[test]
    fn open_graph_wins_over_plain_html() {
        let r = reference(
            r#"<title>Plain title</title><meta name="description" content="Plain description">
               <meta property="og:title" content=" OG title "><meta property="og:description" content="OG description">
               <meta property="og:image" content="/img/og.png"><meta name="twitter:image" content="https://cdn.example/tw.png">
               <link rel="icon" href="/favicon.ico">
               <meta property="og:url" content="https://shop.example/og"><link rel="canonical" href="/canonical">"#,
        );
        assert_eq!(
            r,
            Reference {
                url: "https://shop.example/".into(),
                title: Some("OG title".into()),
                description: Some("OG description".into()),
                image_url: Some("https://www.shop.example/img/og.png".into()),
                link: Some("https://www.shop.example/canonical".into()),
            }
        );
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["imageUrl"], "https://www.shop.example/img/og.png");
    }

    #[test]
    fn falls_back_field_by_field() {
        let r = reference(
            r#"<title>Plain title</title><meta name="description" content="Plain description">
               <meta property="og:title" content="  "><meta name="twitter:image" content="tw.png">
               <link rel="icon" href="/favicon.ico"><meta property="og:url" content="https://shop.example/og">"#,
        );
        assert_eq!(r.title.as_deref(), Some("Plain title"));
        assert_eq!(r.description.as_deref(), Some("Plain description"));
        assert_eq!(
            r.image_url.as_deref(),
            Some("https://www.shop.example/en/tw.png")
        );
        assert_eq!(r.link.as_deref(), Some("https://shop.example/og"));
    }

    #[test]
    fn icons_and_final_url_are_the_last_resort() {
        let r = reference(
            r#"<link rel="apple-touch-icon" href="/touch.png"><link rel="Shortcut Icon" href="//static.example/fav.ico">"#,
        );
        assert_eq!(
            r.image_url.as_deref(),
            Some("https://static.example/fav.ico")
        );
        assert_eq!(r.link.as_deref(), Some("https://www.shop.example/en/"));
        let r = reference(
            r#"<link rel="apple-touch-icon-precomposed" href="touch.png"><link rel="icon" href="data:image/png;base64,AAAA">"#,
        );
        assert_eq!(
            r.image_url.as_deref(),
            Some("https://www.shop.example/en/touch.png")
        );
    }

    #[test]
    fn missing_parts_are_none() {
        let r = reference("");
        assert_eq!((r.title, r.description, r.image_url), (None, None, None));
        assert_eq!(r.link.as_deref(), Some("https://www.shop.example/en/"));
        let json = serde_json::to_string(&reference("")).unwrap();
        assert!(json.contains("\"title\":null"), "{json}");
    }
}

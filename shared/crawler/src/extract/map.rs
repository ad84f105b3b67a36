//! The address an embedded map shows: a small business puts its place on a Google map
//! (`<iframe src="https://www.google.com/maps?q=Kalve 62, 9185 Wachtebeke&output=embed">`)
//! more often than it writes the town in its text. The map names it in its query (`q`) or, for
//! a map made with "Share → Embed", in the place segment of its `pb` parameter
//! (`…!2sVia+Colfelice%2C+Roma!5e0…`). A place id or coordinates name nothing readable.

use scraper::Html;
use url::Url;

use super::{collapse_whitespace, selector};

/// The addresses of the Google maps `html` embeds, each once, in document order.
pub(crate) fn addresses(html: &Html) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for frame in html.select(&selector("iframe[src]")) {
        let Some(address) = frame.attr("src").and_then(address_of) else {
            continue;
        };
        if !found.contains(&address) {
            found.push(address);
        }
    }
    found
}

fn address_of(src: &str) -> Option<String> {
    let url = Url::parse(src.trim()).ok()?;
    let host = url.host_str()?;
    let google = host.starts_with("maps.google.")
        || host.contains(".google.")
        || host.starts_with("google.");
    if !google || !url.path().starts_with("/maps") {
        return None;
    }
    let text = url
        .query_pairs()
        .find_map(|(key, value)| match key.as_ref() {
            "q" => Some(value.into_owned()),
            "pb" => value
                .split('!')
                .find_map(|segment| segment.strip_prefix("2s"))
                .map(str::to_owned),
            _ => None,
        })?;
    let text = collapse_whitespace(&text);
    let readable =
        !text.is_empty() && !text.starts_with("place_id:") && text.chars().any(char::is_alphabetic);
    readable.then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(src: &str) -> Vec<String> {
        addresses(&Html::parse_document(&format!(
            r#"<iframe src="{src}"></iframe>"#
        )))
    }

    #[test]
    fn a_maps_query_or_its_place_segment_is_its_address() {
        assert_eq!(
            of("https://www.google.com/maps?q=Kalve%2062%2C%209185%20Wachtebeke&amp;z=15&amp;output=embed"),
            ["Kalve 62, 9185 Wachtebeke"]
        );
        assert_eq!(
            of("https://maps.google.com/maps?q=Waterford+Township,+MI&amp;z=10&amp;output=embed"),
            ["Waterford Township, MI"]
        );
        assert_eq!(
            of("https://www.google.com/maps/embed?pb=!1m18!1m12!1m3!1d2970.5!2d12.518!3d41.876!2m3!1f0!2f0!3f0!3m2!1i1024!2i768!4f13.1!3m3!1m2!1s0x0%3A0x0!2sVia+Colfelice%2C+Roma!5e0!3m2!1sit!2sit"),
            ["Via Colfelice, Roma"]
        );
    }

    #[test]
    fn ids_coordinates_and_other_frames_name_no_address() {
        assert!(of(
            "https://www.google.com/maps/embed/v1/place?key=K&amp;q=place_id:ChIJYSrTpqczxEcR"
        )
        .is_empty());
        assert!(
            of("https://www.google.com/maps/embed?pb=!1m14!1m12!1m3!1d31!2d3.66!3d49.99!5e0")
                .is_empty()
        );
        assert!(of("https://www.youtube.com/embed/abc?q=Roma").is_empty());
        assert!(of("https://evil.example/maps?q=Roma").is_empty());
    }
}

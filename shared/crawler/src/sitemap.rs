//! Sitemaps (sitemaps.org): `<urlset>` lists pages, `<sitemapindex>` lists further sitemaps,
//! either may be gzip-compressed, and plain text files list one URL a line.

use std::io::Read;

use flate2::read::GzDecoder;
use quick_xml::events::Event;
use quick_xml::Reader;

/// What one sitemap document lists.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct SitemapEntries {
    pub(crate) pages: Vec<String>,
    pub(crate) sitemaps: Vec<String>,
}

/// Decompresses a gzip body (recognised by its magic bytes, since servers label `.xml.gz`
/// anything from `application/gzip` to `text/xml`), reading at most `max_bytes` of output so
/// a compression bomb is cut off. A corrupt stream keeps what decompressed before the damage.
pub(crate) fn gunzip_if_needed(body: Vec<u8>, max_bytes: usize) -> Vec<u8> {
    if !body.starts_with(&[0x1f, 0x8b]) {
        return body;
    }
    let mut out = Vec::new();
    let mut decoder = GzDecoder::new(body.as_slice()).take(max_bytes as u64);
    let mut chunk = [0u8; 16 * 1024];
    loop {
        match decoder.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => out.extend_from_slice(&chunk[..n]),
        }
    }
    out
}

/// Reads the entries of a sitemap, at most `max_entries` of each kind. Malformed or cut-off
/// XML yields the entries before the damage.
pub(crate) fn parse_sitemap(body: &[u8], max_entries: usize) -> SitemapEntries {
    let text = String::from_utf8_lossy(body);
    let text = text.trim_start_matches('\u{feff}').trim_start();
    if text.starts_with('<') {
        parse_xml(text, max_entries)
    } else {
        SitemapEntries {
            pages: text
                .lines()
                .map(str::trim)
                .filter(|line| line.starts_with("http://") || line.starts_with("https://"))
                .take(max_entries)
                .map(str::to_owned)
                .collect(),
            sitemaps: Vec::new(),
        }
    }
}

fn parse_xml(text: &str, max_entries: usize) -> SitemapEntries {
    let mut reader = Reader::from_str(text);
    let mut entries = SitemapEntries::default();
    // Local names of the open elements; `<loc>` counts by its parent (`url` or `sitemap`).
    let mut open: Vec<String> = Vec::new();
    let mut loc: Option<String> = None;
    // A read error (malformed or cut-off XML) ends the document like its end would.
    while let Ok(event) = reader.read_event() {
        match event {
            Event::Start(start) => {
                let name = start.local_name().as_ref().to_ascii_lowercase();
                if name == "loc" {
                    loc = Some(String::new());
                }
                open.push(name);
                // Deep nesting is not a sitemap; stop before it costs memory.
                if open.len() > 16 {
                    break;
                }
            }
            Event::Text(text) => {
                if let Some(loc) = loc.as_mut() {
                    loc.push_str(&text.xml10_content());
                }
            }
            Event::CData(data) => {
                if let Some(loc) = loc.as_mut() {
                    loc.push_str(&data);
                }
            }
            Event::GeneralRef(reference) => {
                if let Some(loc) = loc.as_mut() {
                    if let Ok(Some(ch)) = reference.resolve_char_ref() {
                        loc.push(ch);
                    } else if let Some(resolved) =
                        quick_xml::escape::resolve_predefined_entity(&reference)
                    {
                        loc.push_str(resolved);
                    }
                }
            }
            Event::End(_) => {
                let closed = open.pop();
                if closed.as_deref() == Some("loc") {
                    let value = loc.take().unwrap_or_default().trim().to_owned();
                    let list = match open.last().map(String::as_str) {
                        Some("url") => &mut entries.pages,
                        Some("sitemap") => &mut entries.sitemaps,
                        _ => continue,
                    };
                    if !value.is_empty() && list.len() < max_entries {
                        list.push(value);
                    }
                    if entries.pages.len() >= max_entries && entries.sitemaps.len() >= max_entries {
                        break;
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    entries
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use flate2::write::GzEncoder;
    use flate2::Compression;

    use super::*;

    #[test]
    fn reads_urlsets_and_indexes_with_namespaces_and_escapes() {
        let urlset = br#"<?xml version="1.0" encoding="UTF-8"?>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
              <url><loc> https://shop.example/a?x=1&amp;y=2 </loc><lastmod>2024-01-01</lastmod>
                <image:image><image:loc>https://shop.example/a.jpg</image:loc></image:image></url>
              <url><loc><![CDATA[https://shop.example/b]]></loc></url>
              <url><loc>https://shop.example/&#99;</loc></url>
            </urlset>"#;
        let entries = parse_sitemap(urlset, 100);
        assert_eq!(
            entries.pages,
            [
                "https://shop.example/a?x=1&y=2",
                "https://shop.example/b",
                "https://shop.example/c"
            ]
        );
        assert!(entries.sitemaps.is_empty());

        let index = b"<sm:sitemapindex xmlns:sm='http://www.sitemaps.org/schemas/sitemap/0.9'><sm:sitemap><sm:loc>https://shop.example/s1.xml.gz</sm:loc></sm:sitemap></sm:sitemapindex>";
        assert_eq!(
            parse_sitemap(index, 100).sitemaps,
            ["https://shop.example/s1.xml.gz"]
        );
    }

    #[test]
    fn truncated_or_malformed_xml_keeps_what_came_before() {
        let body = b"<urlset><url><loc>https://shop.example/1</loc></url><url><loc>https://shop.example/2</lo";
        assert_eq!(parse_sitemap(body, 100).pages, ["https://shop.example/1"]);
        assert_eq!(
            parse_sitemap(b"<urlset><url></wrong></urlset>", 100),
            SitemapEntries::default()
        );
    }

    #[test]
    fn caps_entries_and_reads_text_sitemaps() {
        let mut body = String::from("<urlset>");
        for i in 0..50 {
            body.push_str(&format!("<url><loc>https://shop.example/{i}</loc></url>"));
        }
        assert_eq!(parse_sitemap(body.as_bytes(), 10).pages.len(), 10);
        let text = b"https://shop.example/a\n\n  https://shop.example/b  \nnot a url\n";
        assert_eq!(
            parse_sitemap(text, 10).pages,
            ["https://shop.example/a", "https://shop.example/b"]
        );
    }

    #[test]
    fn gunzip_is_bounded() {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
        encoder.write_all(&vec![b'a'; 4 * 1024 * 1024]).unwrap();
        let bomb = encoder.finish().unwrap();
        assert!(bomb.len() < 64 * 1024);
        assert_eq!(gunzip_if_needed(bomb, 100_000).len(), 100_000);
        assert_eq!(gunzip_if_needed(b"<urlset/>".to_vec(), 10), b"<urlset/>");
        // A damaged stream yields what decoded before the damage, without panicking.
        let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
        encoder.write_all(b"<urlset>").unwrap();
        let mut broken = encoder.finish().unwrap();
        broken.truncate(broken.len() - 6);
        assert!(gunzip_if_needed(broken, 100).len() <= 8);
    }
}

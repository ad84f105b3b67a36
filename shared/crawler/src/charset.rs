//! Turns page bytes into text the way browsers do, in their order of precedence: a byte order
//! mark, then the Content-Type header's charset, then a `<meta>` declaration near the start,
//! else UTF-8. Undecodable bytes become U+FFFD instead of failing the page.

use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1252, X_USER_DEFINED};

/// How far into the document a `<meta>` charset is looked for. The HTML standard says 1024
/// bytes; real pages put long comments and scripts first, so a little more is read.
const META_SCAN_BYTES: usize = 4096;

/// Decodes an HTML document. `content_type` is the HTTP header value, if any.
pub fn decode_html(bytes: &[u8], content_type: Option<&str>) -> String {
    let declared = content_type
        .and_then(charset_from_content_type)
        .or_else(|| charset_from_meta(&bytes[..bytes.len().min(META_SCAN_BYTES)]));
    // `decode` lets a byte order mark override the declared encoding, as browsers do.
    let (text, _, _) = declared.unwrap_or(UTF_8).decode(bytes);
    text.into_owned()
}

fn charset_from_content_type(content_type: &str) -> Option<&'static Encoding> {
    content_type.split(';').skip(1).find_map(|param| {
        let (name, value) = param.split_once('=')?;
        if !name.trim().eq_ignore_ascii_case("charset") {
            return None;
        }
        Encoding::for_label(value.trim().trim_matches(['"', '\'']).as_bytes())
    })
}

/// The HTML standard's prescan, simplified: `<meta charset>` or
/// `<meta http-equiv="content-type" content="...; charset=...">`.
fn charset_from_meta(head: &[u8]) -> Option<&'static Encoding> {
    let lower = head.to_ascii_lowercase();
    let mut rest = lower.as_slice();
    while let Some(at) = find(rest, b"<meta") {
        rest = &rest[at + 5..];
        let tag_end = rest.iter().position(|&b| b == b'>').unwrap_or(rest.len());
        let attributes = parse_attributes(&rest[..tag_end]);
        let attribute = |name: &str| {
            attributes
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        let label = match attribute("charset") {
            Some(label) => Some(label.to_owned()),
            None if attribute("http-equiv") == Some("content-type") => attribute("content")
                .and_then(|content| {
                    content
                        .split_once("charset=")
                        .map(|(_, label)| label.to_owned())
                }),
            None => None,
        };
        if let Some(encoding) = label
            .and_then(|l| Encoding::for_label(l.trim().trim_matches(['"', '\'', ';']).as_bytes()))
        {
            // A document that could be read far enough to find this is not UTF-16, and
            // x-user-defined in a page means windows-1252 (HTML standard).
            return Some(if encoding == UTF_16BE || encoding == UTF_16LE {
                UTF_8
            } else if encoding == X_USER_DEFINED {
                WINDOWS_1252
            } else {
                encoding
            });
        }
        rest = &rest[tag_end..];
    }
    None
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

/// Attributes of a tag body: `name=value`, `name="value"`, `name='value'` or a bare `name`.
fn parse_attributes(tag: &[u8]) -> Vec<(String, String)> {
    let mut attributes = Vec::new();
    let mut i = 0;
    let is_space = |b: u8| b.is_ascii_whitespace() || b == b'/';
    while i < tag.len() {
        while i < tag.len() && is_space(tag[i]) {
            i += 1;
        }
        let name_start = i;
        while i < tag.len() && !is_space(tag[i]) && tag[i] != b'=' {
            i += 1;
        }
        let name = String::from_utf8_lossy(&tag[name_start..i]).into_owned();
        while i < tag.len() && tag[i].is_ascii_whitespace() {
            i += 1;
        }
        let mut value = String::new();
        if i < tag.len() && tag[i] == b'=' {
            i += 1;
            while i < tag.len() && tag[i].is_ascii_whitespace() {
                i += 1;
            }
            if i < tag.len() && (tag[i] == b'"' || tag[i] == b'\'') {
                let quote = tag[i];
                let start = i + 1;
                let end = tag[start..]
                    .iter()
                    .position(|&b| b == quote)
                    .map_or(tag.len(), |p| start + p);
                value = String::from_utf8_lossy(&tag[start..end]).into_owned();
                i = end + 1;
            } else {
                let start = i;
                while i < tag.len() && !tag[i].is_ascii_whitespace() {
                    i += 1;
                }
                value = String::from_utf8_lossy(&tag[start..i]).into_owned();
            }
        }
        if !name.is_empty() {
            attributes.push((name, value));
        }
    }
    attributes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_charset_declares_windows_1252() {
        let page =
            b"<html><head><META Charset=\"windows-1252\"><title>Caf\xe9</title></head></html>";
        assert!(decode_html(page, Some("text/html")).contains("<title>Café</title>"));
        let page = b"<meta http-equiv='Content-Type' content='text/html; charset=ISO-8859-1'><p>na\xefve</p>";
        assert!(decode_html(page, None).contains("naïve"));
    }

    #[test]
    fn header_charset_wins_over_meta_and_bom_wins_over_both() {
        let page = b"<meta charset=utf-8><p>\xe9t\xe9</p>";
        assert!(decode_html(page, Some("text/html; charset=\"latin1\"")).contains("été"));
        let page = b"\xef\xbb\xbf<meta charset=windows-1252><p>\xc3\xa9</p>";
        assert!(decode_html(page, Some("text/html; charset=windows-1252")).contains("<p>é</p>"));
    }

    #[test]
    fn invalid_utf8_becomes_replacement_characters() {
        let text = decode_html(b"<p>ok \xff\xfe\xc3 end</p>", None);
        assert!(text.starts_with("<p>ok "));
        assert!(text.contains('\u{fffd}'));
        assert!(text.ends_with(" end</p>"));
    }

    #[test]
    fn unknown_or_utf16_declarations_fall_back_to_utf8() {
        assert_eq!(
            decode_html("<meta charset=nonsense>é".as_bytes(), None),
            "<meta charset=nonsense>é"
        );
        assert_eq!(
            decode_html("<meta charset=utf-16>é".as_bytes(), None),
            "<meta charset=utf-16>é"
        );
        assert_eq!(decode_html(b"<meta charset", None), "<meta charset");
    }
}

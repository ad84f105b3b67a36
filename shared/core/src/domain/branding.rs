//! An agency's branding on its shared pages: the name it goes by and its logo.

use std::fmt;

use super::image::{ImageLimits, ImageType, RasterImage};

/// The most characters a brand name may have.
pub const MAX_BRAND_NAME_CHARS: usize = 80;
/// The largest logo accepted: a logo, not a photo (it is served with every shared page).
pub const MAX_LOGO_BYTES: usize = 100 * 1024;
/// The longest side, in pixels, of a logo accepted.
pub const MAX_LOGO_SIDE: usize = 2000;

/// The name shown on shared pages: at most 80 characters as sent, not only spaces, trimmed,
/// no control characters (Unicode category Cc: U+0000–U+001F, U+007F–U+009F) and no format
/// characters (Cf) but the zero-width joiner and non-joiner, which some scripts spell words
/// with: a right-to-left override or a zero-width space would make the name read as another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrandName(String);

impl BrandName {
    pub fn parse(raw: &str) -> Result<Self, String> {
        // Counted before trimming, as the API document's `maxLength` counts.
        if raw.chars().count() > MAX_BRAND_NAME_CHARS {
            return Err(format!("must be at most {MAX_BRAND_NAME_CHARS} characters"));
        }
        let name = raw.trim();
        if name.is_empty() {
            return Err("must not be empty or only spaces (null removes the name)".into());
        }
        if name.chars().any(char::is_control) {
            return Err("must not contain control characters".into());
        }
        if let Some(format) = name.chars().find(|&c| changes_how_text_reads(c)) {
            return Err(format!(
                "must not contain invisible format characters such as U+{:04X}",
                u32::from(format)
            ));
        }
        Ok(Self(name.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A format character (Cf) other than the joiners a script needs (U+200C, U+200D).
fn changes_how_text_reads(c: char) -> bool {
    use unicode_general_category::{get_general_category, GeneralCategory};
    get_general_category(c) == GeneralCategory::Format && !matches!(c, '\u{200c}' | '\u{200d}')
}

impl fmt::Display for BrandName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

const LOGO_LIMITS: ImageLimits = ImageLimits {
    max_bytes: MAX_LOGO_BYTES,
    max_side: MAX_LOGO_SIDE,
};

/// A logo whose bytes were checked as a [`RasterImage`] of at most [`MAX_LOGO_BYTES`] and
/// [`MAX_LOGO_SIDE`] pixels a side, whose declared type agrees with its own header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Logo(RasterImage);

impl Logo {
    /// `declared` is the request's `Content-Type`.
    pub fn parse(bytes: Vec<u8>, declared: Option<&str>) -> Result<Self, String> {
        let Some(declared) = declared.and_then(ImageType::from_content_type) else {
            return Err("must be sent as image/png, image/jpeg or image/webp".into());
        };
        let image = RasterImage::parse(bytes, LOGO_LIMITS)?;
        if image.kind() != declared {
            return Err(format!(
                "is a {} image sent as {}",
                image.kind().content_type(),
                declared.content_type()
            ));
        }
        Ok(Self(image))
    }

    pub fn kind(&self) -> ImageType {
        self.0.kind()
    }

    pub fn dimensions(&self) -> (usize, usize) {
        self.0.dimensions()
    }

    pub fn bytes(&self) -> &[u8] {
        self.0.bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 1×1 PNG, as image editors write it.
    pub(crate) const PIXEL_PNG: &[u8] = &[
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44,
        0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F,
        0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8,
        0xCF, 0xC0, 0xF0, 0x1F, 0x00, 0x05, 0x00, 0x01, 0xFF, 0x89, 0x99, 0x3D, 0x1D, 0x00, 0x00,
        0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ];

    #[test]
    fn a_whole_png_is_a_logo_and_hostile_bytes_are_not() {
        let logo = Logo::parse(PIXEL_PNG.to_vec(), Some("image/png")).unwrap();
        assert_eq!((logo.kind(), logo.dimensions()), (ImageType::Png, (1, 1)));
        let refused =
            |bytes: Vec<u8>, declared: Option<&str>| Logo::parse(bytes, declared).unwrap_err();
        assert!(refused(PIXEL_PNG.to_vec(), Some("image/jpeg")).contains("sent as"));
        assert!(refused(PIXEL_PNG.to_vec(), None).contains("image/png"));
        assert!(refused(PIXEL_PNG.to_vec(), Some("image/svg+xml")).contains("image/png"));
        let svg = br#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#;
        assert!(refused(svg.to_vec(), Some("image/png")).contains("not a PNG"));
        let mut polyglot = PIXEL_PNG.to_vec();
        polyglot.extend_from_slice(b"<html><script>alert(1)</script></html>");
        assert!(refused(polyglot, Some("image/png")).contains("after the image"));
        assert!(refused(PIXEL_PNG[..40].to_vec(), Some("image/png")).contains("cut short"));
        assert!(refused(Vec::new(), Some("image/png")).contains("empty"));
        assert!(refused(vec![0; MAX_LOGO_BYTES + 1], Some("image/png")).contains("KiB"));
        // A header claiming 100,000 pixels a side (a decompression bomb's first step).
        let mut huge = PIXEL_PNG.to_vec();
        huge[16..20].copy_from_slice(&100_000u32.to_be_bytes());
        assert!(refused(huge, Some("image/png")).contains("pixels a side"));
    }

    #[test]
    fn jpeg_and_webp_logos_are_read_too() {
        // 1×1 images as Chromium's canvas encodes them.
        let jpeg = hex::decode(concat!(
            "ffd8ffe000104a46494600010100000100010000ffdb004300100b0c0e0c0a100e0d0e1211101318",
            "281a181616183123251d283a333d3c3933383740485c4e404457453738506d51575f626768673e4d",
            "71797064785c656763ffdb0043011112121815182f1a1a2f63423842636363636363636363636363",
            "6363636363636363636363636363636363636363636363636363636363636363636363636363ffc0",
            "0011080001000103012200021101031101ffc4001500010100000000000000000000000000000004",
            "ffc40014100100000000000000000000000000000000ffc400140101000000000000000000000000",
            "00000005ffc40014110100000000000000000000000000000000ffda000c03010002110311003f00",
            "800383dfffd9",
        ))
        .unwrap();
        let webp = hex::decode(concat!(
            "524946463600000057454250565038202a0000009001009d012a0100010002c04c25a00274ba0003",
            "9800fee838bff8de3adbeb6f6f3fa146ca2693000000",
        ))
        .unwrap();
        for (bytes, kind) in [(jpeg, ImageType::Jpeg), (webp, ImageType::Webp)] {
            let logo = Logo::parse(bytes.clone(), Some(kind.content_type())).unwrap();
            assert_eq!((logo.kind(), logo.dimensions()), (kind, (1, 1)));
            let cut = bytes[..bytes.len() - 1].to_vec();
            assert!(Logo::parse(cut, Some(kind.content_type())).is_err());
        }
    }

    #[test]
    fn brand_names_are_trimmed_and_bounded() {
        assert_eq!(
            BrandName::parse("  Acme SEO ").unwrap().as_str(),
            "Acme SEO"
        );
        assert!(BrandName::parse(" ").is_err());
        assert!(BrandName::parse(&"x".repeat(81)).is_err());
        assert!(BrandName::parse("Acme\u{0}").is_err());
    }

    #[test]
    fn brand_names_refuse_characters_that_change_how_they_read() {
        for hostile in [
            "Acme\u{202e}OES",
            "Ac\u{200b}me",
            "\u{2066}Acme\u{2069}",
            "Acme\u{feff}",
            "Acme\u{ad}SEO",
        ] {
            let refused = BrandName::parse(hostile).unwrap_err();
            assert!(
                refused.contains("format characters"),
                "{hostile:?}: {refused}"
            );
        }
        // Scripts that join or part letters with them keep their names.
        assert!(BrandName::parse("می\u{200c}خواهم").is_ok());
        assert!(BrandName::parse("Agence Éloïse 東京").is_ok());
    }
}

//! Raster images we keep and serve from our own origin (an agency's logo, the preview image
//! of a crawled site). Their bytes come from strangers: the type is read from the bytes
//! themselves, never from a header, and SVG (which can carry script) is never one of them.

/// The image types we keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageType {
    Png,
    Jpeg,
    Webp,
}

impl ImageType {
    pub const ALL: [ImageType; 3] = [Self::Png, Self::Jpeg, Self::Webp];

    pub fn content_type(self) -> &'static str {
        match self {
            Self::Png => "image/png",
            Self::Jpeg => "image/jpeg",
            Self::Webp => "image/webp",
        }
    }

    pub fn from_content_type(raw: &str) -> Option<Self> {
        let essence = raw.split(';').next().unwrap_or("").trim();
        Self::ALL
            .into_iter()
            .find(|kind| kind.content_type().eq_ignore_ascii_case(essence))
    }
}

/// How large an image of one use may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageLimits {
    pub max_bytes: usize,
    /// The longest side in pixels: a header claiming more is a decompression bomb's first step.
    pub max_side: usize,
}

/// An image whose bytes were checked: within its limits, a PNG, JPEG or WebP by its own
/// header, whole (a PNG ends with its end chunk, a JPEG with its end marker, a WebP's RIFF
/// length is the file's: nothing appended that a browser could read as something else).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RasterImage {
    kind: ImageType,
    width: usize,
    height: usize,
    bytes: Vec<u8>,
}

impl RasterImage {
    pub fn parse(bytes: Vec<u8>, limits: ImageLimits) -> Result<Self, String> {
        if bytes.is_empty() {
            return Err("is empty".into());
        }
        if bytes.len() > limits.max_bytes {
            return Err(format!("must be at most {} KiB", limits.max_bytes / 1024));
        }
        let kind = match imagesize::image_type(&bytes) {
            Ok(imagesize::ImageType::Png) => ImageType::Png,
            Ok(imagesize::ImageType::Jpeg) => ImageType::Jpeg,
            Ok(imagesize::ImageType::Webp) => ImageType::Webp,
            _ => return Err("is not a PNG, JPEG or WebP image".into()),
        };
        if !is_whole(kind, &bytes) {
            return Err("is cut short or has bytes after the image".into());
        }
        let size = imagesize::blob_size(&bytes).map_err(|_| "has an unreadable header")?;
        if size.width == 0 || size.height == 0 {
            return Err("has no pixels".into());
        }
        if size.width > limits.max_side || size.height > limits.max_side {
            return Err(format!(
                "must be at most {} pixels a side (it is {}×{})",
                limits.max_side, size.width, size.height
            ));
        }
        Ok(Self {
            kind,
            width: size.width,
            height: size.height,
            bytes,
        })
    }

    pub fn kind(&self) -> ImageType {
        self.kind
    }

    pub fn dimensions(&self) -> (usize, usize) {
        (self.width, self.height)
    }

    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

/// Whether the image ends where its format says: nothing cut off, nothing appended (an HTML
/// page after a PNG's last chunk is a polyglot, not an image).
fn is_whole(kind: ImageType, bytes: &[u8]) -> bool {
    const PNG_END: [u8; 12] = [0, 0, 0, 0, b'I', b'E', b'N', b'D', 0xAE, 0x42, 0x60, 0x82];
    match kind {
        ImageType::Png => bytes.ends_with(&PNG_END),
        ImageType::Jpeg => bytes.ends_with(&[0xFF, 0xD9]),
        ImageType::Webp => {
            bytes.len() >= 12
                && u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]) as usize + 8
                    == bytes.len()
        }
    }
}

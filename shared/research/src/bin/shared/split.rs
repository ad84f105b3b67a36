//! The tune/check split every evaluation bench uses: constants may be adjusted on the *tune*
//! half only, and the *check* half is the one reported.

/// Whether `key` (a keyword, lowercased, or a document id) falls in the tune half: its FNV-1a
/// hash is even. FNV-1a, unlike the std hasher, is the same on every run and platform.
pub fn is_tune(key: &str) -> bool {
    let hash = key.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    });
    hash.is_multiple_of(2)
}

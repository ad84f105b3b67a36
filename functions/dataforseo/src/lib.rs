//! DataForSEO v3 client (work in progress, issue 6).

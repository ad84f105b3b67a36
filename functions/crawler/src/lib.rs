//! Fetches the job's sites safely and politely and extracts what the research engine reads.

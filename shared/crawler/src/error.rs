/// Why a site could not be crawled. The messages are written for the person who started the
/// job: they end up as the job's `errorMessage`, so they name the site and say what happened
/// without internals.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CrawlError {
    #[error("the crawler configuration is invalid: {0}")]
    InvalidConfig(String),
    #[error("the crawler could not be started: {0}")]
    Setup(String),
    #[error("\"{domain}\" is not a domain name that can be crawled")]
    InvalidDomain { domain: String },
    #[error("the site {domain} could not be reached")]
    Unreachable { domain: String },
    #[error("the site {domain} timed out")]
    TimedOut { domain: String },
    #[error("the address of {domain} resolves to a private network address and was refused")]
    AddressRefused { domain: String },
    #[error("robots.txt disallows crawling the site {domain}")]
    RobotsDisallowed { domain: String },
    #[error(
        "the robots.txt of {domain} could not be read (the server failed), so the site was not crawled"
    )]
    RobotsUnavailable { domain: String },
    #[error("the site {domain} redirects too many times")]
    TooManyRedirects { domain: String },
    #[error("the home page of {domain} answered with HTTP status {status}")]
    HttpStatus { domain: String, status: u16 },
    #[error("the home page of {domain} is not an HTML page")]
    NotHtml { domain: String },
}

//! The sites whose results count as weak spots: anyone can post there, so a page written for
//! the query can usually outrank them. shared/research/README.md lists the same sites (SERP
//! features and weak spots); change both together. A listed site matches its subdomains too
//! (`old.reddit.com`, `cooking.stackexchange.com`, `someone.blogspot.com`).

use kr_core::dataset::WeakSpotKind;

pub(super) const SITES: [(&str, WeakSpotKind); 30] = [
    ("reddit.com", WeakSpotKind::Forum),
    ("tripadvisor.com", WeakSpotKind::Forum),
    ("city-data.com", WeakSpotKind::Forum),
    ("warriorforum.com", WeakSpotKind::Forum),
    ("quora.com", WeakSpotKind::QuestionsAndAnswers),
    ("stackexchange.com", WeakSpotKind::QuestionsAndAnswers),
    ("stackoverflow.com", WeakSpotKind::QuestionsAndAnswers),
    ("superuser.com", WeakSpotKind::QuestionsAndAnswers),
    ("serverfault.com", WeakSpotKind::QuestionsAndAnswers),
    ("askubuntu.com", WeakSpotKind::QuestionsAndAnswers),
    ("answers.com", WeakSpotKind::QuestionsAndAnswers),
    ("answers.yahoo.com", WeakSpotKind::QuestionsAndAnswers),
    ("facebook.com", WeakSpotKind::Social),
    ("instagram.com", WeakSpotKind::Social),
    ("x.com", WeakSpotKind::Social),
    ("twitter.com", WeakSpotKind::Social),
    ("tiktok.com", WeakSpotKind::Social),
    ("linkedin.com", WeakSpotKind::Social),
    ("pinterest.com", WeakSpotKind::Social),
    ("threads.net", WeakSpotKind::Social),
    ("nextdoor.com", WeakSpotKind::Social),
    ("medium.com", WeakSpotKind::UserBlog),
    ("substack.com", WeakSpotKind::UserBlog),
    ("tumblr.com", WeakSpotKind::UserBlog),
    ("blogspot.com", WeakSpotKind::UserBlog),
    ("wordpress.com", WeakSpotKind::UserBlog),
    ("weebly.com", WeakSpotKind::UserBlog),
    ("wixsite.com", WeakSpotKind::UserBlog),
    ("hubpages.com", WeakSpotKind::UserBlog),
    ("livejournal.com", WeakSpotKind::UserBlog),
];

/// A forum of any site, told by its address: its host starts with one of these labels
/// (`forum.example.com`, `community.example.com`)…
pub(super) const FORUM_HOST_LABELS: [&str; 8] = [
    "forum",
    "forums",
    "community",
    "communities",
    "discuss",
    "discussions",
    "boards",
    "bbs",
];

/// …or its path starts with one of these segments (`example.com/forums/…`,
/// `example.com/threads/…`), or ends in a forum script (`viewtopic.php`, `showthread.php`).
pub(super) const FORUM_PATH_SEGMENTS: [&str; 7] = [
    "forum",
    "forums",
    "community",
    "communities",
    "threads",
    "discussions",
    "boards",
];

pub(super) const FORUM_SCRIPTS: [&str; 3] = ["viewtopic.php", "showthread.php", "viewthread.php"];

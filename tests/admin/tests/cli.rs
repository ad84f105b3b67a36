//! The operator CLI as an operator runs it, against the emulator.

use std::process::Command;

use kr_tests::harness;
use serde_json::Value;

fn admin(args: &[&str]) -> (bool, Value) {
    harness::resources();
    let output = Command::new(env!("CARGO_BIN_EXE_kr-admin"))
        .args(args)
        .output()
        .unwrap();
    let stream = if output.status.success() {
        &output.stdout
    } else {
        &output.stderr
    };
    let text = String::from_utf8_lossy(stream);
    assert_eq!(text.trim().lines().count(), 1, "one JSON object: {text}");
    (
        output.status.success(),
        serde_json::from_str(text.trim()).unwrap(),
    )
}

#[test]
fn accounts_balances_plans_and_keys() {
    let email = harness::unique_email();
    let (ok, created) = admin(&[
        "create-user",
        "--email",
        &email,
        "--password",
        "a long password",
        "--credits",
        "3",
        "--domains",
        "2",
        "--plan",
        "pro",
    ]);
    assert!(ok, "{created}");
    assert_eq!(created["user"]["credits_balance"], 3);
    assert_eq!(created["user"]["can_create_api_keys"], false);

    let (ok, refused) = admin(&["create-api-key", "--email", &email]);
    assert!(
        !ok && refused["error"].as_str().unwrap().contains("plan"),
        "{refused}"
    );

    let (ok, upgraded) = admin(&["set-plan", "--email", &email, "--plan", "agency"]);
    assert!(
        ok && upgraded["user"]["can_create_api_keys"] == true,
        "{upgraded}"
    );
    let (ok, key) = admin(&["create-api-key", "--email", &email, "--name", "ops"]);
    assert!(ok, "{key}");
    assert!(key["key"].as_str().unwrap().starts_with("kr_"));
    assert_eq!(key["apiKey"]["name"], "ops");

    let (ok, balance) = admin(&[
        "set-balance",
        "--email",
        &email.to_uppercase(),
        "--domains",
        "7",
    ]);
    assert!(ok, "{balance}");
    assert_eq!(
        (
            balance["user"]["credits_balance"].as_i64(),
            balance["user"]["domains_balance"].as_i64()
        ),
        (Some(3), Some(7))
    );

    let (ok, duplicate) = admin(&[
        "create-user",
        "--email",
        &email,
        "--password",
        "a long password",
        "--credits",
        "1",
        "--domains",
        "1",
        "--plan",
        "free",
    ]);
    assert!(!ok && duplicate["error"].as_str().unwrap().contains("exists"));
    let (ok, _) = admin(&["set-balance", "--email", &email, "--credits=-1"]);
    assert!(!ok);
    let (ok, _) = admin(&[
        "set-plan",
        "--email",
        &harness::unique_email(),
        "--plan",
        "free",
    ]);
    assert!(!ok);
}

fn research(args: &[&str], stdin: &str) -> String {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_kr-admin"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn classify_intent_keeps_order_and_labels_each_line() {
    let out = research(
        &["classify-intent", "--language", "en", "--brand", "acme"],
        "buy coffee beans\nbest espresso machine\nhow to brew coffee\nacme login\n",
    );
    let labels: Vec<String> = out
        .lines()
        .map(|line| line.split('\t').take(2).collect::<Vec<_>>().join("\t"))
        .collect();
    assert_eq!(
        labels,
        [
            "buy coffee beans\ttransactional",
            "best espresso machine\tcommercial",
            "how to brew coffee\tinformational",
            "acme login\tnavigational"
        ]
    );
}

#[test]
fn classify_intent_prints_each_intents_share_and_the_close_ones() {
    let out = research(
        &["classify-intent", "--place", "Montclair"],
        "best price for a massage\nmontclair roofing\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0].split('\t').collect::<Vec<_>>(),
        [
            "best price for a massage",
            "transactional",
            "informational=0.18",
            "commercial=0.36",
            "transactional=0.45",
            "navigational=0.00",
            "secondary=commercial"
        ]
    );
    assert!(
        lines[1].starts_with("montclair roofing\tcommercial\t"),
        "{}",
        lines[1]
    );
    assert!(lines[1].ends_with("\tsecondary="), "{}", lines[1]);
}

#[test]
fn extract_keywords_reads_html_and_prints_at_most_50() {
    let html = "<html><head><title>Pour over coffee guide</title></head><body><h1>Pour over coffee</h1><p>A pour over coffee kettle and a burr grinder make better pour over coffee.</p><script>var x = 'ignored script text';</script></body></html>";
    let out = research(&["extract-keywords", "--language", "en"], html);
    let phrases: Vec<&str> = out.lines().collect();
    assert!(!phrases.is_empty() && phrases.len() <= 50);
    assert!(phrases.contains(&"burr grinder"), "{phrases:?}");
    assert!(!out.contains("ignored script"));
}

#[test]
fn cluster_names_every_keyword_in_order() {
    // Close variants only: "best" is a generic word, "recipe for cold brew" the same query in
    // another order; "cold brew coffee recipe" adds a word, so it is another query.
    let out = research(&["cluster"], "coffee grinder\t900\nbest coffee grinder\t300\ncold brew recipe\t500\nrecipe for cold brew\t200\ncold brew coffee recipe\t100\n");
    let rows: Vec<(&str, &str)> = out.lines().map(|l| l.split_once('\t').unwrap()).collect();
    assert_eq!(
        rows.iter().map(|r| r.0).collect::<Vec<_>>(),
        [
            "coffee grinder",
            "best coffee grinder",
            "cold brew recipe",
            "recipe for cold brew",
            "cold brew coffee recipe"
        ]
    );
    assert_eq!(rows[0].1, rows[1].1);
    assert_eq!(rows[2].1, rows[3].1);
    assert_eq!(rows[2].1, "cold brew recipe");
    assert_ne!(rows[0].1, rows[2].1);
    assert_eq!(rows[4].1, "cold brew coffee recipe");
}

#[test]
fn cluster_groups_keywords_by_shared_results_when_urls_are_given() {
    // Different words, the same three top results: one cluster around the higher volume.
    // "espresso beans" has no URLs and falls back to its words.
    let input = "coffee grinder\t900\thttps://a.example/1\thttps://b.example/2\thttps://www.c.example/3/\thttps://d.example/\n\
                 burr mill\t300\thttp://a.example/1\thttps://b.example/2#x\thttps://c.example/3\thttps://e.example/\n\
                 espresso beans\t200\n\
                 best espresso beans\t100\t\t\n";
    let rows = |args: &[&str]| {
        research(args, input)
            .lines()
            .map(|l| l.split_once('\t').unwrap().1.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        rows(&["cluster"]),
        [
            "coffee grinder",
            "coffee grinder",
            "espresso beans",
            "espresso beans"
        ]
    );
    let strict = rows(&["cluster", "--serp-overlap", "4"]);
    assert_eq!(strict[1], "burr mill");
}

#[test]
fn classify_intent_reads_the_top_results_after_the_keyword() {
    let out = research(
        &["classify-intent"],
        "barts asphalt\thttps://www.bartsasphalt.com/\thttps://www.yelp.com/biz/barts-asphalt\n\
         carpet yarn\thttps://woolery.com/collections/rug-weaving-yarns\n\
         carpet yarn\n\
         tfo machine\thttps://www.weavetech.com/what-is-two-for-one-twister-tfo/\n",
    );
    let labels: Vec<String> = out
        .lines()
        .map(|line| line.split('\t').take(2).collect::<Vec<_>>().join("\t"))
        .collect();
    assert_eq!(
        labels,
        [
            "barts asphalt\tnavigational",
            "carpet yarn\ttransactional",
            "carpet yarn\tinformational",
            "tfo machine\tinformational"
        ]
    );
}

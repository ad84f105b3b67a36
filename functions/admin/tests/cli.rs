//! The operator CLI as an operator runs it, against the emulator.

use std::process::Command;

use kr_tests::harness;
use serde_json::Value;

fn admin(args: &[&str]) -> (bool, Value) {
    harness::config();
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

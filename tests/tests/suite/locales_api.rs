//! Languages, locations and the API's own description: public and cacheable.

use kr_tests::harness::Call;

#[tokio::test]
async fn locations_list_every_dataforseo_country_without_credentials() {
    let app = kr_locales::router();
    let reply = Call::get("/api/v1/locations").send(&app).await.expect(200);
    assert!(reply.header("cache-control").unwrap().contains("max-age"));
    let locations = reply.json["locations"].as_array().unwrap();
    assert!(locations.len() >= 94, "{} locations", locations.len());
    assert!(locations.contains(&serde_json::json!({"location_code": 2840, "location_name": "United States", "country_iso_code": "US"})));
    for location in locations {
        let code = location["location_code"].as_u64().unwrap();
        assert!((2004..=2894).contains(&code), "{location}");
        assert_eq!(location["country_iso_code"].as_str().unwrap().len(), 2);
    }
}

#[tokio::test]
async fn languages_are_listed_snake_case() {
    let app = kr_locales::router();
    let reply = Call::get("/api/v1/languages")
        .api_key("kr_ignored_because_no_auth_is_needed_here_xx")
        .send(&app)
        .await
        .expect(200);
    assert!(reply.header("cache-control").is_some());
    let languages = reply.json["languages"].as_array().unwrap();
    assert!(
        languages.contains(&serde_json::json!({"language_code": "en", "language_name": "English"}))
    );
}

#[tokio::test]
async fn openapi_json_and_the_docs_page_are_served() {
    let app = kr_locales::router();
    let document = Call::get("/api/v1/openapi.json")
        .send(&app)
        .await
        .expect(200);
    assert_eq!(document.header("content-type"), Some("application/json"));
    assert_eq!(document.json["info"]["version"], "0.1.0");
    assert!(document.json["paths"]["/api/v1/jobs"]["post"].is_object());
    let page = Call::get("/api/v1/docs").send(&app).await.expect(200);
    assert!(page
        .header("content-type")
        .unwrap()
        .starts_with("text/html"));
    assert!(page.text.contains("/api/v1/users/me") && page.text.contains("openapi.json"));
    assert!(
        !page.text.contains("<script src") && !page.text.contains("https://cdn"),
        "works offline"
    );
}

#[tokio::test]
async fn wrong_methods_and_unknown_paths_answer_json() {
    let app = kr_locales::router();
    assert_eq!(
        Call::post("/api/v1/locations")
            .send(&app)
            .await
            .expect(405)
            .code(),
        "method_not_allowed"
    );
    assert_eq!(
        Call::get("/nothing/here")
            .send(&app)
            .await
            .expect(404)
            .code(),
        "not_found"
    );
}

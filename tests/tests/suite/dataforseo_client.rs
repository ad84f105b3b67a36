//! The DataForSEO client's account-wide limits, against the emulator's rate gate and the mock.

use std::time::{Duration, Instant};

use chrono::Utc;
use kr_core::store::ProviderRateGate;
use kr_dataforseo::Market;
use kr_tests::dataforseo_mock::{MockConfig, MockDataForSeo, PRIMARY};
use kr_tests::harness;
use kr_tests::pipeline_rig::{provider_at, RecordedUsage};

/// Another worker holds all 30 Labs slots: the request waits until one is given back, and
/// only then reaches the provider.
#[tokio::test]
async fn labs_requests_wait_for_a_slot_held_by_other_workers() {
    let mock = MockDataForSeo::start(MockConfig::default().without_faults())
        .await
        .unwrap();
    let provider = provider_at(&mock.base_url(), "mock-login", "mock-password", &[]).await;
    let store = harness::store().await;
    let labs = provider.rate_pool(kr_dataforseo::LABS).unwrap();
    let mut held = Vec::new();
    for _ in 0..30 {
        let lease = store
            .try_acquire_slot(&labs, 30, Duration::from_secs(20), Utc::now())
            .await
            .unwrap()
            .expect("a free slot");
        held.push(lease);
    }
    let sink = RecordedUsage::default();
    let session = provider.for_job(None, &sink);
    let market = Market {
        location_code: 2840,
        language_code: "en",
    };
    let released_after = Duration::from_millis(1500);
    let started = Instant::now();
    let first = held.pop().unwrap();
    let release = async {
        tokio::time::sleep(released_after).await;
        assert_eq!(
            mock.stats().tasks.len(),
            0,
            "nothing sent while the pool is full"
        );
        store.release_slot(&first).await.unwrap();
    };
    let (answer, ()) = tokio::join!(session.ranked_keywords(PRIMARY, &market, 100), release);
    assert!(!answer.unwrap().is_empty());
    assert!(started.elapsed() >= released_after);
    assert_eq!(mock.stats().tasks.len(), 1);
    for lease in &held {
        store.release_slot(lease).await.unwrap();
    }
    // The slot the request used was given back: the whole pool is free again.
    let mut again = Vec::new();
    for _ in 0..30 {
        again.push(
            store
                .try_acquire_slot(&labs, 30, Duration::from_secs(20), Utc::now())
                .await
                .unwrap()
                .expect("the pool is free"),
        );
    }
    for lease in &again {
        store.release_slot(lease).await.unwrap();
    }
    let usage = sink.0.lock().unwrap().last().cloned().unwrap();
    assert_eq!(usage.requests, 1);
}

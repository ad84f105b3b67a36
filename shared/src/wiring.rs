//! What every HTTP function builds at cold start from its configuration.

use std::sync::Arc;

use crate::auth::Authenticator;
use crate::aws::AwsClients;
use crate::config::Config;
use crate::store::dynamo::DynamoStore;
use crate::store::s3::S3ResultStore;

pub struct Wiring {
    pub config: Arc<Config>,
    pub clients: AwsClients,
    /// Implements every DynamoDB port.
    pub store: Arc<DynamoStore>,
    /// Implements every S3 port.
    pub results: Arc<S3ResultStore>,
    pub auth: Arc<Authenticator>,
}

impl Wiring {
    pub async fn from_config(config: Config) -> Self {
        let clients = AwsClients::from_config(&config).await;
        let store = Arc::new(DynamoStore::new(
            clients.dynamodb.clone(),
            config.table_name.clone(),
        ));
        let results = Arc::new(S3ResultStore::new(
            clients.s3.clone(),
            config.results_bucket.clone(),
        ));
        Self {
            auth: Arc::new(Authenticator::new(store.clone(), store.clone())),
            config: Arc::new(config),
            clients,
            store,
            results,
        }
    }
}

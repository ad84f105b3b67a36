//! What every function builds at cold start from its configuration and its AWS resources.

use std::sync::Arc;

use kr_core::config::Config;

use crate::clients::AwsClients;
use crate::dynamo::DynamoStore;
use crate::resources::Resources;
use crate::s3::S3ObjectStore;

pub struct Wiring {
    pub config: Arc<Config>,
    /// The table, queues, bucket and secrets the function uses.
    pub resources: Arc<Resources>,
    pub clients: AwsClients,
    /// Implements every DynamoDB port.
    pub store: Arc<DynamoStore>,
    /// Implements every S3 port: the objects stored for each job and the provider cache.
    pub objects: Arc<S3ObjectStore>,
}

impl Wiring {
    pub async fn from_config(config: Config, resources: Resources) -> Self {
        let clients = AwsClients::from_resources(&resources).await;
        let mut store = DynamoStore::new(clients.dynamodb.clone(), resources.table_name.clone());
        if let Some(days) = config.results_retention_days {
            store = store.with_retention(days, config.demo_user_id.map(Into::into));
        }
        let store = Arc::new(store);
        let objects = Arc::new(S3ObjectStore::new(
            clients.s3.clone(),
            resources.results_bucket.clone(),
        ));
        Self {
            config: Arc::new(config),
            resources: Arc::new(resources),
            clients,
            store,
            objects,
        }
    }
}

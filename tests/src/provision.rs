//! Creates the template's tables, queues and buckets on the emulator and works out the
//! environment the functions would get in AWS.

use std::collections::{BTreeMap, HashMap};

use anyhow::{anyhow, bail, Context, Result};
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType, Projection,
    ProjectionType, ScalarAttributeType, TimeToLiveSpecification,
};
use aws_sdk_s3::types::{BucketVersioningStatus, VersioningConfiguration};
use aws_sdk_sqs::types::QueueAttributeName;
use kr_aws::AwsClients;
use serde_yaml_ng::Value;

use crate::template::{reference, scalar, Reference, Template};

/// What `!Ref` and `!GetAtt … .Arn` of each created resource resolve to.
#[derive(Debug, Default)]
pub struct Provisioned {
    pub refs: HashMap<String, String>,
    pub arns: HashMap<String, String>,
}

fn text(value: &Value, key: &str) -> Result<String> {
    value
        .get(key)
        .and_then(scalar)
        .ok_or_else(|| anyhow!("missing {key}"))
}

fn local_name(prefix: &str, logical_id: &str) -> String {
    format!("{prefix}-{logical_id}").to_ascii_lowercase()
}

fn key_schema(value: &Value) -> Result<Vec<KeySchemaElement>> {
    value
        .as_sequence()
        .ok_or_else(|| anyhow!("KeySchema is not a list"))?
        .iter()
        .map(|element| {
            Ok(KeySchemaElement::builder()
                .attribute_name(text(element, "AttributeName")?)
                .key_type(KeyType::from(text(element, "KeyType")?.as_str()))
                .build()?)
        })
        .collect()
}

async fn create_table(clients: &AwsClients, name: &str, props: &Value) -> Result<()> {
    let mut request = clients
        .dynamodb
        .create_table()
        .table_name(name)
        .billing_mode(BillingMode::PayPerRequest);
    for definition in props
        .get("AttributeDefinitions")
        .and_then(Value::as_sequence)
        .into_iter()
        .flatten()
    {
        request = request.attribute_definitions(
            AttributeDefinition::builder()
                .attribute_name(text(definition, "AttributeName")?)
                .attribute_type(ScalarAttributeType::from(
                    text(definition, "AttributeType")?.as_str(),
                ))
                .build()?,
        );
    }
    request = request.set_key_schema(Some(key_schema(
        props.get("KeySchema").unwrap_or(&Value::Null),
    )?));
    for index in props
        .get("GlobalSecondaryIndexes")
        .and_then(Value::as_sequence)
        .into_iter()
        .flatten()
    {
        let projection = index
            .get("Projection")
            .and_then(|p| p.get("ProjectionType"))
            .and_then(scalar);
        request = request.global_secondary_indexes(
            GlobalSecondaryIndex::builder()
                .index_name(text(index, "IndexName")?)
                .set_key_schema(Some(key_schema(
                    index.get("KeySchema").unwrap_or(&Value::Null),
                )?))
                .projection(
                    Projection::builder()
                        .projection_type(ProjectionType::from(
                            projection.as_deref().unwrap_or("ALL"),
                        ))
                        .build(),
                )
                .build()?,
        );
    }
    match request.send().await {
        Ok(_) => {}
        Err(err)
            if err
                .as_service_error()
                .is_some_and(|e| e.is_resource_in_use_exception()) =>
        {
            return Ok(())
        }
        Err(err) => {
            return Err(anyhow!(
                aws_sdk_dynamodb::error::DisplayErrorContext(err).to_string()
            ))
        }
    }
    if let Some(ttl) = props.get("TimeToLiveSpecification") {
        clients
            .dynamodb
            .update_time_to_live()
            .table_name(name)
            .time_to_live_specification(
                TimeToLiveSpecification::builder()
                    .attribute_name(text(ttl, "AttributeName")?)
                    .enabled(ttl.get("Enabled").and_then(Value::as_bool).unwrap_or(true))
                    .build()?,
            )
            .send()
            .await
            .context("enabling TTL")?;
    }
    Ok(())
}

async fn create_queue(
    clients: &AwsClients,
    name: &str,
    props: &Value,
    provisioned: &Provisioned,
) -> Result<(String, String)> {
    let mut attributes = HashMap::new();
    for (key, attribute) in [
        ("VisibilityTimeout", QueueAttributeName::VisibilityTimeout),
        (
            "MessageRetentionPeriod",
            QueueAttributeName::MessageRetentionPeriod,
        ),
        ("DelaySeconds", QueueAttributeName::DelaySeconds),
        (
            "ReceiveMessageWaitTimeSeconds",
            QueueAttributeName::ReceiveMessageWaitTimeSeconds,
        ),
    ] {
        if let Some(value) = props.get(key).and_then(scalar) {
            attributes.insert(attribute, value);
        }
    }
    if let Some(redrive) = props.get("RedrivePolicy") {
        let target = match reference(redrive.get("deadLetterTargetArn").unwrap_or(&Value::Null))? {
            Reference::GetAtt { resource, .. } => provisioned
                .arns
                .get(&resource)
                .cloned()
                .ok_or_else(|| anyhow!("dead-letter queue {resource} must be created first"))?,
            Reference::Literal(arn) => arn,
            other => bail!("unsupported deadLetterTargetArn {other:?}"),
        };
        let policy = serde_json::json!({
            "deadLetterTargetArn": target,
            "maxReceiveCount": text(redrive, "maxReceiveCount")?.parse::<u32>()?,
        });
        attributes.insert(QueueAttributeName::RedrivePolicy, policy.to_string());
    }
    let url = clients
        .sqs
        .create_queue()
        .queue_name(name)
        .set_attributes(Some(attributes))
        .send()
        .await
        .map_err(|e| anyhow!(aws_sdk_sqs::error::DisplayErrorContext(e).to_string()))?
        .queue_url
        .ok_or_else(|| anyhow!("no queue URL"))?;
    let arn = clients
        .sqs
        .get_queue_attributes()
        .queue_url(&url)
        .attribute_names(QueueAttributeName::QueueArn)
        .send()
        .await?
        .attributes
        .and_then(|mut a| a.remove(&QueueAttributeName::QueueArn))
        .ok_or_else(|| anyhow!("no queue ARN"))?;
    Ok((url, arn))
}

async fn create_bucket(clients: &AwsClients, name: &str, props: &Value) -> Result<()> {
    match clients.s3.create_bucket().bucket(name).send().await {
        Ok(_) => {}
        Err(err)
            if err.as_service_error().is_some_and(|e| {
                e.is_bucket_already_owned_by_you() || e.is_bucket_already_exists()
            }) => {}
        Err(err) => {
            return Err(anyhow!(
                aws_sdk_s3::error::DisplayErrorContext(err).to_string()
            ))
        }
    }
    let versioned = props
        .get("VersioningConfiguration")
        .and_then(|v| v.get("Status"))
        .and_then(scalar);
    if versioned.as_deref() == Some("Enabled") {
        clients
            .s3
            .put_bucket_versioning()
            .bucket(name)
            .versioning_configuration(
                VersioningConfiguration::builder()
                    .status(BucketVersioningStatus::Enabled)
                    .build(),
            )
            .send()
            .await?;
    }
    Ok(())
}

/// A secret with `GenerateSecretString`, generated here as CloudFormation would: random
/// letters and digits of the asked length. Returns its ARN (what `!Ref` of a secret gives).
async fn create_secret(clients: &AwsClients, name: &str, props: &Value) -> Result<String> {
    let length = props
        .get("GenerateSecretString")
        .and_then(|g| g.get("PasswordLength"))
        .and_then(scalar)
        .and_then(|raw| raw.parse::<usize>().ok())
        .unwrap_or(32);
    let value: String = std::iter::repeat_with(|| uuid::Uuid::new_v4().simple().to_string())
        .flat_map(|chunk| chunk.chars().collect::<Vec<_>>())
        .take(length)
        .collect();
    match clients
        .secrets
        .create_secret()
        .name(name)
        .secret_string(value)
        .send()
        .await
    {
        Ok(created) => created
            .arn
            .ok_or_else(|| anyhow!("no ARN for secret {name}")),
        Err(err)
            if err
                .as_service_error()
                .is_some_and(|e| e.is_resource_exists_exception()) =>
        {
            let existing = clients
                .secrets
                .describe_secret()
                .secret_id(name)
                .send()
                .await?;
            existing
                .arn
                .ok_or_else(|| anyhow!("no ARN for secret {name}"))
        }
        Err(err) => Err(anyhow!(aws_sdk_secretsmanager::error::DisplayErrorContext(
            err
        )
        .to_string())),
    }
}

/// Creates every table, queue and bucket of the template, named `<prefix>-<logical id>`.
/// Creating what already exists is not an error, so a restart reuses the same resources.
pub async fn provision(
    clients: &AwsClients,
    template: &Template,
    prefix: &str,
) -> Result<Provisioned> {
    let mut provisioned = Provisioned::default();
    for (id, props) in template.resources_of_type("AWS::DynamoDB::Table")? {
        let name = local_name(prefix, &id);
        create_table(clients, &name, &props)
            .await
            .with_context(|| format!("table {id}"))?;
        provisioned.refs.insert(id, name);
    }
    // Dead-letter queues first, so redrive policies can name them.
    let mut queues = template.resources_of_type("AWS::SQS::Queue")?;
    queues.sort_by_key(|(_, props)| props.get("RedrivePolicy").is_some());
    for (id, props) in queues {
        let (url, arn) = create_queue(clients, &local_name(prefix, &id), &props, &provisioned)
            .await
            .with_context(|| format!("queue {id}"))?;
        provisioned.refs.insert(id.clone(), url);
        provisioned.arns.insert(id, arn);
    }
    for (id, props) in template.resources_of_type("AWS::SecretsManager::Secret")? {
        let arn = create_secret(clients, &local_name(prefix, &id), &props)
            .await
            .with_context(|| format!("secret {id}"))?;
        provisioned.refs.insert(id, arn);
    }
    for (id, props) in template.resources_of_type("AWS::S3::Bucket")? {
        let name = local_name(prefix, &id);
        create_bucket(clients, &name, &props)
            .await
            .with_context(|| format!("bucket {id}"))?;
        provisioned.refs.insert(id, name);
    }
    Ok(provisioned)
}

/// The functions' environment as AWS would set it, with resource references resolved to the
/// local resources and parameters taken from `parameters` or their defaults.
pub fn function_environment(
    template: &Template,
    provisioned: &Provisioned,
    parameters: &BTreeMap<String, String>,
) -> Result<BTreeMap<String, String>> {
    let mut environment = BTreeMap::new();
    for (name, value) in template.function_environment()? {
        let resolved = match value {
            Reference::Literal(text) => text,
            Reference::Ref(target) if template.is_parameter(&target) => parameters
                .get(&target)
                .cloned()
                .or_else(|| template.parameter_default(&target))
                .unwrap_or_default(),
            Reference::Ref(target) => provisioned
                .refs
                .get(&target)
                .cloned()
                .ok_or_else(|| anyhow!("{name}: nothing provisioned for {target}"))?,
            Reference::GetAtt { resource, .. } => provisioned
                .arns
                .get(&resource)
                .cloned()
                .ok_or_else(|| anyhow!("{name}: no ARN for {resource}"))?,
        };
        environment.insert(name, resolved);
    }
    Ok(environment)
}

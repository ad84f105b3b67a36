//! IAM as far as the least-privilege test needs it (`tests/tests/suite/least_privilege.rs`): what
//! each recorded AWS request ([`crate::aws_calls::SdkCall`]) is authorised as, each function's
//! policy read from `template.yaml`, and the evaluation of one against the other.
//!
//! Requests and policies meet on one naming of the template's resources: ARNs built from the
//! logical ids (`arn:aws:dynamodb:us-east-1:123456789012:table/Table`), whatever the local
//! stack called the resource. Anything this cannot map or evaluate (an operation without an
//! IAM mapping here, a policy form or condition operator it does not read, a resource the
//! template does not declare) is an error, never a silent pass.

use std::collections::{BTreeMap, HashMap};

use anyhow::{anyhow, bail, Context, Result};
use serde_json::{Map, Value as Json};
use serde_yaml_ng::Value;

use crate::aws_calls::SdkCall;
use crate::template::{scalar, Template};

pub const PARTITION: &str = "aws";
pub const REGION: &str = "us-east-1";
pub const ACCOUNT: &str = "123456789012";

/// One action on one resource, as IAM authorises it, with the request's condition keys.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Access {
    pub action: String,
    pub resource: String,
    pub context: BTreeMap<String, Vec<String>>,
    /// The request that needed it (and why, where that is not obvious).
    pub reason: String,
}

impl std::fmt::Display for Access {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} on {}", self.action, self.resource)?;
        for (key, values) in &self.context {
            write!(f, " [{key}={}]", values.join(","))?;
        }
        write!(f, ", for {}", self.reason)
    }
}

// ------------------------------------------------------------------ resources

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Kind {
    Table,
    Bucket,
    Queue,
}

impl Kind {
    fn of(resource_type: &str) -> Option<Self> {
        match resource_type {
            "AWS::DynamoDB::Table" => Some(Self::Table),
            "AWS::S3::Bucket" => Some(Self::Bucket),
            "AWS::SQS::Queue" => Some(Self::Queue),
            _ => None,
        }
    }

    fn arn(self, logical: &str) -> String {
        match self {
            Self::Table => format!("arn:{PARTITION}:dynamodb:{REGION}:{ACCOUNT}:table/{logical}"),
            Self::Bucket => format!("arn:{PARTITION}:s3:::{logical}"),
            Self::Queue => format!("arn:{PARTITION}:sqs:{REGION}:{ACCOUNT}:{logical}"),
        }
    }
}

/// The last segment of a queue URL, or the name itself.
fn queue_name(url_or_name: &str) -> &str {
    url_or_name
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or(url_or_name)
}

/// Which template resource a physical name (table, bucket, queue) is.
#[derive(Debug, Clone)]
pub struct Resources {
    /// Every table, bucket and queue of the template, by logical id.
    declared: Vec<(Kind, String)>,
    /// Physical names known to be a logical resource.
    named: HashMap<(Kind, String), String>,
}

impl Resources {
    /// The template's tables, buckets and queues, named as the functions' environment names
    /// them (each variable of `Globals.Function.Environment` that is a `!Ref` of one, read
    /// through `env`) or as the local stack names them (`<prefix>-<logical id>`, lowercase).
    pub fn new(template: &Template, env: impl Fn(&str) -> Option<String>) -> Result<Self> {
        let mut declared = Vec::new();
        for (id, resource) in template
            .section("Resources")
            .and_then(Value::as_mapping)
            .ok_or_else(|| anyhow!("template has no Resources"))?
        {
            let kind = resource
                .get("Type")
                .and_then(Value::as_str)
                .and_then(Kind::of);
            if let (Some(kind), Some(id)) = (kind, id.as_str()) {
                declared.push((kind, id.to_string()));
            }
        }
        let mut resources = Self {
            declared,
            named: HashMap::new(),
        };
        for (variable, value) in template.function_environment()? {
            let crate::template::Reference::Ref(target) = value else {
                continue;
            };
            let Some(&(kind, _)) = resources.declared.iter().find(|(_, id)| *id == target) else {
                continue;
            };
            if let Some(physical) = env(&variable).filter(|v| !v.is_empty()) {
                resources.alias(kind, &physical, &target);
            }
        }
        Ok(resources)
    }

    fn alias(&mut self, kind: Kind, physical: &str, logical: &str) {
        let physical = match kind {
            Kind::Queue => queue_name(physical),
            _ => physical,
        };
        self.named
            .insert((kind, physical.to_string()), logical.to_string());
    }

    /// `url` (a test's private queue) stands for the template's queue `logical`.
    pub fn alias_queue(&mut self, url: &str, logical: &str) {
        self.alias(Kind::Queue, url, logical);
    }

    fn arn(&self, kind: Kind, physical: &str) -> Result<String> {
        let physical = match kind {
            Kind::Queue => queue_name(physical),
            _ => physical,
        };
        if let Some(logical) = self.named.get(&(kind, physical.to_string())) {
            return Ok(kind.arn(logical));
        }
        let lower = physical.to_ascii_lowercase();
        self.declared
            .iter()
            .filter(|(k, id)| *k == kind && lower.ends_with(&format!("-{}", id.to_ascii_lowercase())))
            .max_by_key(|(_, id)| id.len())
            .map(|(_, id)| kind.arn(id))
            .ok_or_else(|| {
                anyhow!("{kind:?} {physical:?} is none of the template's resources (nor aliased to one)")
            })
    }
}

// ------------------------------------------------------------------ requests → accesses

/// What IAM authorises `call` as: one access per action and resource it needs.
pub fn accesses(call: &SdkCall, resources: &Resources) -> Result<Vec<Access>> {
    match call.service.as_str() {
        "dynamodb" => dynamodb(call, resources),
        "s3" => s3(call, resources),
        "sqs" => sqs(call, resources),
        "secretsmanager" => secrets_manager(call),
        "bedrockruntime" => bedrock_runtime(call),
        other => bail!("no IAM mapping for the service {other:?}"),
    }
    .with_context(|| format!("{} {} {}", call.name(), call.method, call.uri))
}

fn json_body(call: &SdkCall) -> Result<Json> {
    let body = call
        .body
        .as_deref()
        .ok_or_else(|| anyhow!("the request body was not recorded"))?;
    serde_json::from_slice(body).context("the request body is not JSON")
}

fn access(action: &str, resource: String, reason: &str) -> Access {
    Access {
        action: action.to_string(),
        resource,
        context: BTreeMap::new(),
        reason: reason.to_string(),
    }
}

fn dynamodb(call: &SdkCall, resources: &Resources) -> Result<Vec<Access>> {
    let body = json_body(call)?;
    let op = call.operation.as_str();
    let reason = call.name();
    let table = |name: Option<&Json>| -> Result<String> {
        let name = name
            .and_then(Json::as_str)
            .ok_or_else(|| anyhow!("no TableName"))?;
        resources.arn(Kind::Table, name)
    };
    // `dynamodb:LeadingKeys`: the partition key values of the items touched.
    let keyed = |action: &str, table_arn: String, items: &[&Json]| -> Access {
        let leading: Vec<String> = items
            .iter()
            .filter_map(|item| item.get(kr_aws::dynamo::PK)?.get("S")?.as_str())
            .map(String::from)
            .collect();
        let mut access = access(&format!("dynamodb:{action}"), table_arn, &reason);
        if !leading.is_empty() {
            access
                .context
                .insert("dynamodb:LeadingKeys".into(), leading);
        }
        access
    };
    let list = |value: Option<&Json>| value.and_then(Json::as_array).cloned().unwrap_or_default();
    let mut found = Vec::new();
    match op {
        "GetItem" | "UpdateItem" | "DeleteItem" | "PutItem" => {
            let item = body
                .get(if op == "PutItem" { "Item" } else { "Key" })
                .ok_or_else(|| anyhow!("no Key or Item"))?;
            found.push(keyed(op, table(body.get("TableName"))?, &[item]));
        }
        "Query" | "Scan" => {
            let table_arn = table(body.get("TableName"))?;
            let mut found_one = match body.get("IndexName").and_then(Json::as_str) {
                Some(index) => access(
                    &format!("dynamodb:{op}"),
                    format!("{table_arn}/index/{index}"),
                    &reason,
                ),
                None => access(&format!("dynamodb:{op}"), table_arn, &reason),
            };
            // A query of the table reads one partition: its key is the leading key.
            if let Some(partition) = (op == "Query" && body.get("IndexName").is_none())
                .then(|| queried_partition(&body))
                .flatten()
            {
                found_one
                    .context
                    .insert("dynamodb:LeadingKeys".into(), vec![partition]);
            }
            found.push(found_one);
        }
        "BatchGetItem" | "BatchWriteItem" => {
            let requests = body
                .get("RequestItems")
                .and_then(Json::as_object)
                .ok_or_else(|| anyhow!("no RequestItems"))?;
            for (name, spec) in requests {
                let items: Vec<Json> = if op == "BatchGetItem" {
                    list(spec.get("Keys"))
                } else {
                    spec.as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|request| {
                            request
                                .pointer("/PutRequest/Item")
                                .or_else(|| request.pointer("/DeleteRequest/Key"))
                                .cloned()
                        })
                        .collect()
                };
                let table_arn = resources.arn(Kind::Table, name)?;
                found.push(keyed(op, table_arn, &items.iter().collect::<Vec<_>>()));
            }
        }
        "TransactWriteItems" | "TransactGetItems" => {
            for part in list(body.get("TransactItems")) {
                let (kind, inner) = part
                    .as_object()
                    .and_then(|p| p.iter().next())
                    .ok_or_else(|| anyhow!("an empty transaction item"))?;
                let (action, field) = match kind.as_str() {
                    "Put" => ("PutItem", "Item"),
                    "Update" => ("UpdateItem", "Key"),
                    "Delete" => ("DeleteItem", "Key"),
                    "ConditionCheck" => ("ConditionCheckItem", "Key"),
                    "Get" => ("GetItem", "Key"),
                    other => bail!("transaction item {other:?}"),
                };
                let item = inner
                    .get(field)
                    .ok_or_else(|| anyhow!("{kind} without {field}"))?;
                found.push(keyed(action, table(inner.get("TableName"))?, &[item]));
            }
        }
        other => bail!("no IAM mapping for DynamoDB {other}: add it to tests/src/iam.rs"),
    }
    Ok(found)
}

/// The partition key value a query's `KeyConditionExpression` asks for (`#pk = :pk`).
fn queried_partition(body: &Json) -> Option<String> {
    let expression = body.get("KeyConditionExpression")?.as_str()?;
    let name = |token: &str| -> Option<String> {
        let token = token.trim();
        match token.strip_prefix('#') {
            Some(_) => body
                .get("ExpressionAttributeNames")?
                .get(token)?
                .as_str()
                .map(String::from),
            None => Some(token.to_string()),
        }
    };
    expression
        .split(" AND ")
        .flat_map(|clause| clause.split(" and "))
        .find_map(|clause| {
            let (left, right) = clause.split_once('=')?;
            if left.ends_with(['<', '>', '!']) || name(left)? != kr_aws::dynamo::PK {
                return None;
            }
            body.get("ExpressionAttributeValues")?
                .get(right.trim())?
                .get("S")?
                .as_str()
                .map(String::from)
        })
}

/// `%XX` escapes of a URI path segment.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%')
            .then(|| text.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn xml_unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// The text of each `<tag>…</tag>` in `xml`.
fn xml_texts<'a>(xml: &'a str, tag: &str) -> Vec<&'a str> {
    let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
    xml.split(open.as_str())
        .skip(1)
        .filter_map(|rest| rest.split_once(close.as_str()).map(|(text, _)| text))
        .collect()
}

fn s3(call: &SdkCall, resources: &Resources) -> Result<Vec<Access>> {
    let url = reqwest::Url::parse(&call.uri)?;
    // The tests' clients address buckets by path (`force_path_style` with an endpoint).
    let path = url.path().trim_start_matches('/');
    let (bucket, key) = path.split_once('/').unwrap_or((path, ""));
    let key = percent_decode(key);
    let query: HashMap<String, String> = url.query_pairs().into_owned().collect();
    let bucket_arn = resources.arn(Kind::Bucket, &percent_decode(bucket))?;
    let object = |key: &str| format!("{bucket_arn}/{key}");
    let reason = call.name();
    let versioned = |plain: &str, version: &str| {
        if query.contains_key("versionId") {
            version.to_string()
        } else {
            plain.to_string()
        }
    };
    let listing = |action: &str| {
        let mut access = access(action, bucket_arn.clone(), &reason);
        if let Some(prefix) = query.get("prefix") {
            access
                .context
                .insert("s3:prefix".into(), vec![prefix.clone()]);
        }
        access
    };
    let mut found = Vec::new();
    match call.operation.as_str() {
        "GetObject" | "HeadObject" => {
            found.push(access(
                &versioned("s3:GetObject", "s3:GetObjectVersion"),
                object(&key),
                &reason,
            ));
            if call.status == Some(404) {
                // Without it S3 answers 403 for a missing object; with it conditioned on
                // `s3:prefix`, the key is the prefix S3 evaluates.
                let mut list = access(
                    "s3:ListBucket",
                    bucket_arn.clone(),
                    &format!("{reason} of a missing object (S3 answers 404 rather than 403 only to a caller allowed s3:ListBucket)"),
                );
                list.context.insert("s3:prefix".into(), vec![key.clone()]);
                found.push(list);
            }
        }
        "PutObject" => {
            found.push(access("s3:PutObject", object(&key), &reason));
            if call.tagged {
                found.push(access("s3:PutObjectTagging", object(&key), &reason));
            }
        }
        "DeleteObject" => found.push(access(
            &versioned("s3:DeleteObject", "s3:DeleteObjectVersion"),
            object(&key),
            &reason,
        )),
        "DeleteObjects" => {
            let body = call
                .body
                .as_deref()
                .ok_or_else(|| anyhow!("the request body was not recorded"))?;
            let xml = String::from_utf8_lossy(body);
            let objects = xml_texts(&xml, "Object");
            if objects.is_empty() {
                bail!("DeleteObjects names no object: {xml}");
            }
            for entry in objects {
                let key = xml_texts(entry, "Key")
                    .first()
                    .map(|k| xml_unescape(k))
                    .ok_or_else(|| anyhow!("an object without a key: {entry}"))?;
                let action = if xml_texts(entry, "VersionId").is_empty() {
                    "s3:DeleteObject"
                } else {
                    "s3:DeleteObjectVersion"
                };
                found.push(access(action, object(&key), &reason));
            }
        }
        "ListObjectsV2" | "ListObjects" | "HeadBucket" => found.push(listing("s3:ListBucket")),
        "ListObjectVersions" => found.push(listing("s3:ListBucketVersions")),
        other => bail!("no IAM mapping for S3 {other}: add it to tests/src/iam.rs"),
    }
    Ok(found)
}

fn sqs(call: &SdkCall, resources: &Resources) -> Result<Vec<Access>> {
    let body = json_body(call)?;
    let queue = body
        .get("QueueUrl")
        .or_else(|| body.get("QueueName"))
        .and_then(Json::as_str)
        .ok_or_else(|| anyhow!("no QueueUrl"))?;
    let op = call.operation.as_str();
    // The batch operations are authorised as their single-message actions.
    let action = match op {
        "SendMessageBatch" | "DeleteMessageBatch" | "ChangeMessageVisibilityBatch" => {
            op.trim_end_matches("Batch")
        }
        "SendMessage"
        | "ReceiveMessage"
        | "DeleteMessage"
        | "ChangeMessageVisibility"
        | "GetQueueAttributes"
        | "GetQueueUrl"
        | "PurgeQueue" => op,
        other => bail!("no IAM mapping for SQS {other}: add it to tests/src/iam.rs"),
    };
    Ok(vec![access(
        &format!("sqs:{action}"),
        resources.arn(Kind::Queue, queue)?,
        &call.name(),
    )])
}

fn secrets_manager(call: &SdkCall) -> Result<Vec<Access>> {
    let body = json_body(call)?;
    let secret = body
        .get("SecretId")
        .and_then(Json::as_str)
        .filter(|id| id.starts_with("arn:"))
        .ok_or_else(|| anyhow!("a secret named other than by its ARN"))?;
    match call.operation.as_str() {
        "GetSecretValue" | "DescribeSecret" => Ok(vec![access(
            &format!("secretsmanager:{}", call.operation),
            secret.to_string(),
            &call.name(),
        )]),
        other => bail!("no IAM mapping for Secrets Manager {other}: add it to tests/src/iam.rs"),
    }
}

/// Converse is authorised as `bedrock:InvokeModel` on the model named in its path
/// (`/model/{modelId}/converse`); a foundation model's ARN has no account.
fn bedrock_runtime(call: &SdkCall) -> Result<Vec<Access>> {
    let path = call
        .uri
        .split("://")
        .last()
        .and_then(|rest| rest.find('/').map(|i| &rest[i..]))
        .unwrap_or("");
    let model = path
        .strip_prefix("/model/")
        .and_then(|rest| rest.split('/').next())
        .filter(|m| !m.is_empty())
        .ok_or_else(|| anyhow!("no model in the path {path:?}"))?;
    match call.operation.as_str() {
        "Converse" | "InvokeModel" => Ok(vec![access(
            "bedrock:InvokeModel",
            format!(
                "arn:{PARTITION}:bedrock:{REGION}::foundation-model/{}",
                percent_decode(model)
            ),
            &call.name(),
        )]),
        other => bail!("no IAM mapping for Bedrock Runtime {other}: add it to tests/src/iam.rs"),
    }
}

// ------------------------------------------------------------------ policies

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    Allow,
    Deny,
}

/// One `Condition` test: `operator` (e.g. `ForAllValues:StringLike`) on `key`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Condition {
    pub operator: String,
    pub key: String,
    pub values: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    pub effect: Effect,
    pub actions: Vec<String>,
    pub resources: Vec<String>,
    pub conditions: Vec<Condition>,
}

/// A function's inline `Policies`, with intrinsic functions resolved.
#[derive(Debug, Clone)]
pub struct Policy {
    /// The function's logical id in the template.
    pub function: String,
    /// Its binary (`Metadata.BuildProperties.Binary`).
    pub binary: String,
    pub statements: Vec<Statement>,
}

/// IAM's wildcard match: `*` any run of characters, `?` one character.
pub fn glob(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    let (mut pi, mut ti, mut star, mut mark) = (0, 0, None, 0);
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

impl Condition {
    fn holds(&self, context: &BTreeMap<String, Vec<String>>) -> bool {
        let (set, operator) = match self.operator.split_once(':') {
            Some((set, operator)) => (Some(set), operator),
            None => (None, self.operator.as_str()),
        };
        let (operator, if_exists) = match operator.strip_suffix("IfExists") {
            Some(operator) => (operator, true),
            None => (operator, false),
        };
        let matches_one = |value: &str| {
            self.values.iter().any(|pattern| match operator {
                "StringLike" | "StringNotLike" => glob(pattern, value),
                _ => pattern == value,
            })
        };
        let negated = operator.starts_with("StringNot");
        let test = |value: &str| matches_one(value) != negated;
        match (set, context.get(&self.key)) {
            // IAM: ForAllValues holds for a request without the key; ForAnyValue does not.
            (Some("ForAllValues"), None) => true,
            (Some("ForAllValues"), Some(values)) => values.iter().all(|v| test(v)),
            (_, None) => if_exists,
            (_, Some(values)) => values.iter().any(|v| test(v)),
        }
    }
}

impl Statement {
    fn covers(&self, access: &Access) -> bool {
        self.actions
            .iter()
            .any(|a| glob(&a.to_ascii_lowercase(), &access.action.to_ascii_lowercase()))
            && self.resources.iter().any(|r| glob(r, &access.resource))
            && self.conditions.iter().all(|c| c.holds(&access.context))
    }
}

impl Policy {
    /// Whether IAM would allow `access` under this policy alone: an Allow covers it and no
    /// Deny does.
    pub fn allows(&self, access: &Access) -> bool {
        let covering = |effect: Effect| {
            self.statements
                .iter()
                .any(|s| s.effect == effect && s.covers(access))
        };
        covering(Effect::Allow) && !covering(Effect::Deny)
    }

    /// Each `(action, resource)` an Allow statement grants that no access in `used` needed
    /// (within the statement's conditions), as written after resolution.
    pub fn unused_grants(&self, used: &[Access]) -> Vec<(String, String)> {
        let mut unused = Vec::new();
        for statement in self.statements.iter().filter(|s| s.effect == Effect::Allow) {
            for action in &statement.actions {
                for resource in &statement.resources {
                    let needed = used.iter().any(|access| {
                        glob(
                            &action.to_ascii_lowercase(),
                            &access.action.to_ascii_lowercase(),
                        ) && glob(resource, &access.resource)
                            && statement
                                .conditions
                                .iter()
                                .all(|c| c.holds(&access.context))
                    });
                    if !needed {
                        unused.push((action.clone(), resource.clone()));
                    }
                }
            }
        }
        unused
    }
}

/// Resolves the template's intrinsic functions in policies: `!Ref`, `!GetAtt`, `!Sub`, `!If`
/// and the condition functions, with resources named by their logical ids.
struct Resolver<'a> {
    template: &'a Template,
    parameters: BTreeMap<String, String>,
}

fn text_of(value: &Json) -> Result<String> {
    match value {
        Json::String(text) => Ok(text.clone()),
        Json::Number(n) => Ok(n.to_string()),
        Json::Bool(b) => Ok(b.to_string()),
        other => bail!("expected text, found {other}"),
    }
}

fn strings(value: Option<&Json>) -> Result<Vec<String>> {
    match value {
        None => Ok(Vec::new()),
        Some(Json::Array(items)) => items.iter().map(text_of).collect(),
        Some(single) => Ok(vec![text_of(single)?]),
    }
}

impl Resolver<'_> {
    fn resource_type(&self, logical: &str) -> Option<&str> {
        self.template
            .section("Resources")?
            .get(logical)?
            .get("Type")?
            .as_str()
    }

    fn reference(&self, name: &str) -> Result<Option<Json>> {
        let text = match name {
            "AWS::NoValue" => return Ok(None),
            "AWS::Partition" => PARTITION.to_string(),
            "AWS::Region" => REGION.to_string(),
            "AWS::AccountId" => ACCOUNT.to_string(),
            "AWS::URLSuffix" => "amazonaws.com".to_string(),
            "AWS::StackName" => "stack".to_string(),
            // A resource this check cannot name by itself (a secret's generated ARN), given.
            _ if !self.template.is_parameter(name) && self.parameters.contains_key(name) => {
                self.parameters[name].clone()
            }
            _ if self.template.is_parameter(name) => self
                .parameters
                .get(name)
                .cloned()
                .or_else(|| self.template.parameter_default(name))
                .unwrap_or_default(),
            _ => match self.resource_type(name).and_then(Kind::of) {
                Some(Kind::Queue) => format!("https://sqs.{REGION}.amazonaws.com/{ACCOUNT}/{name}"),
                Some(_) => name.to_string(),
                None => bail!("!Ref {name}: not a parameter, table, bucket or queue"),
            },
        };
        Ok(Some(Json::String(text)))
    }

    fn attribute(&self, logical: &str, attribute: &str) -> Result<Json> {
        let kind = self
            .resource_type(logical)
            .and_then(Kind::of)
            .ok_or_else(|| anyhow!("!GetAtt {logical}: not a table, bucket or queue"))?;
        Ok(Json::String(match (kind, attribute) {
            (_, "Arn") => kind.arn(logical),
            (Kind::Queue, "QueueName") => logical.to_string(),
            _ => bail!("!GetAtt {logical}.{attribute} is not supported here"),
        }))
    }

    fn substitute(&self, text: &str, variables: &Map<String, Json>) -> Result<Json> {
        let mut out = String::new();
        let mut rest = text;
        while let Some(start) = rest.find("${") {
            out.push_str(&rest[..start]);
            let end = rest[start..]
                .find('}')
                .ok_or_else(|| anyhow!("unclosed ${{ in {text:?}"))?
                + start;
            let name = &rest[start + 2..end];
            let value = match variables.get(name) {
                Some(value) => value.clone(),
                None => match name.split_once('.') {
                    Some((logical, attribute)) if !name.starts_with("AWS::") => {
                        self.attribute(logical, attribute)?
                    }
                    _ => self
                        .reference(name)?
                        .ok_or_else(|| anyhow!("${{{name}}} has no value"))?,
                },
            };
            out.push_str(&text_of(&value)?);
            rest = &rest[end + 1..];
        }
        out.push_str(rest);
        Ok(Json::String(out))
    }

    fn condition(&self, name: &str) -> Result<bool> {
        let definition = self
            .template
            .section("Conditions")
            .and_then(|c| c.get(name))
            .ok_or_else(|| anyhow!("no condition {name}"))?;
        match self.resolve(definition)? {
            Some(Json::Bool(value)) => Ok(value),
            other => bail!("condition {name} is {other:?}, not true or false"),
        }
    }

    fn arguments(&self, argument: &Value) -> Result<Vec<Json>> {
        match self.resolve(argument)? {
            Some(Json::Array(items)) => Ok(items),
            other => bail!("expected a list of arguments, found {other:?}"),
        }
    }

    fn intrinsic(&self, function: &str, argument: &Value) -> Result<Option<Json>> {
        let function = function.trim_start_matches("Fn::");
        match function {
            "Ref" => self.reference(
                argument
                    .as_str()
                    .ok_or_else(|| anyhow!("!Ref of a non-string"))?,
            ),
            "GetAtt" => {
                let (logical, attribute) = match argument {
                    Value::String(text) => text
                        .split_once('.')
                        .map(|(a, b)| (a.to_string(), b.to_string()))
                        .ok_or_else(|| anyhow!("!GetAtt {text} names no attribute"))?,
                    other => {
                        let parts = self.arguments(other)?;
                        match parts.as_slice() {
                            [a, b] => (text_of(a)?, text_of(b)?),
                            _ => bail!("!GetAtt takes [resource, attribute]"),
                        }
                    }
                };
                Ok(Some(self.attribute(&logical, &attribute)?))
            }
            "Sub" => match argument {
                Value::String(text) => Ok(Some(self.substitute(text, &Map::new())?)),
                Value::Sequence(parts) => match parts.as_slice() {
                    [Value::String(text), variables] => {
                        let variables = match self.resolve(variables)? {
                            Some(Json::Object(map)) => map,
                            _ => bail!("!Sub variables must be a mapping"),
                        };
                        Ok(Some(self.substitute(text, &variables)?))
                    }
                    _ => bail!("!Sub takes a string or [string, variables]"),
                },
                _ => bail!("!Sub takes a string or [string, variables]"),
            },
            "If" => match argument.as_sequence().map(Vec::as_slice) {
                Some([Value::String(condition), then, otherwise]) => {
                    let chosen = if self.condition(condition)? {
                        then
                    } else {
                        otherwise
                    };
                    self.resolve(chosen)
                }
                _ => bail!("!If takes [condition, then, else]"),
            },
            "Equals" => match self.arguments(argument)?.as_slice() {
                [a, b] => Ok(Some(Json::Bool(text_of(a)? == text_of(b)?))),
                _ => bail!("!Equals takes two values"),
            },
            "Not" | "And" | "Or" => {
                let values = self
                    .arguments(argument)?
                    .iter()
                    .map(|v| {
                        v.as_bool()
                            .ok_or_else(|| anyhow!("!{function} of a non-boolean"))
                    })
                    .collect::<Result<Vec<bool>>>()?;
                Ok(Some(Json::Bool(match function {
                    "Not" => !values.first().copied().unwrap_or(false),
                    "And" => values.iter().all(|v| *v),
                    _ => values.iter().any(|v| *v),
                })))
            }
            "Condition" => Ok(Some(Json::Bool(
                self.condition(
                    argument
                        .as_str()
                        .ok_or_else(|| anyhow!("Condition of a non-string"))?,
                )?,
            ))),
            other => bail!("the intrinsic function {other} is not supported in policies here"),
        }
    }

    /// The value with every intrinsic function applied; `None` for `!Ref AWS::NoValue`.
    fn resolve(&self, value: &Value) -> Result<Option<Json>> {
        Ok(Some(match value {
            Value::Tagged(tagged) => {
                let tag = tagged.tag.to_string();
                return self.intrinsic(tag.trim_start_matches('!'), &tagged.value);
            }
            Value::Mapping(map) => {
                if let [(key, argument)] = map.iter().collect::<Vec<_>>().as_slice() {
                    if let Some(key) = key
                        .as_str()
                        .filter(|k| *k == "Ref" || k.starts_with("Fn::") || *k == "Condition")
                    {
                        return self.intrinsic(key, argument);
                    }
                }
                let mut out = Map::new();
                for (key, item) in map {
                    let key = scalar(key).ok_or_else(|| anyhow!("a mapping key is not text"))?;
                    if let Some(item) = self.resolve(item)? {
                        out.insert(key, item);
                    }
                }
                Json::Object(out)
            }
            Value::Sequence(items) => Json::Array(
                items
                    .iter()
                    .map(|item| self.resolve(item))
                    .collect::<Result<Vec<_>>>()?
                    .into_iter()
                    .flatten()
                    .collect(),
            ),
            Value::Bool(flag) => Json::Bool(*flag),
            Value::Null => Json::Null,
            other => Json::String(scalar(other).ok_or_else(|| anyhow!("unreadable {other:?}"))?),
        }))
    }
}

fn statement(value: &Json) -> Result<Statement> {
    for unsupported in ["NotAction", "NotResource", "Principal", "NotPrincipal"] {
        if value.get(unsupported).is_some() {
            bail!("{unsupported} is not supported by the least-privilege test");
        }
    }
    let effect = match value.get("Effect").and_then(Json::as_str) {
        Some("Allow") => Effect::Allow,
        Some("Deny") => Effect::Deny,
        other => bail!("Effect {other:?}"),
    };
    let mut conditions = Vec::new();
    for (operator, tests) in value
        .get("Condition")
        .and_then(Json::as_object)
        .into_iter()
        .flatten()
    {
        let base = operator.rsplit(':').next().unwrap_or(operator);
        let base = base.strip_suffix("IfExists").unwrap_or(base);
        let known_set = !operator.contains(':')
            || operator.starts_with("ForAllValues:")
            || operator.starts_with("ForAnyValue:");
        if !known_set
            || !matches!(
                base,
                "StringEquals" | "StringLike" | "StringNotEquals" | "StringNotLike"
            )
        {
            bail!("the condition operator {operator} is not supported by the least-privilege test");
        }
        for (key, values) in tests
            .as_object()
            .ok_or_else(|| anyhow!("{operator} is not a mapping"))?
        {
            conditions.push(Condition {
                operator: operator.clone(),
                key: key.clone(),
                values: strings(Some(values))?,
            });
        }
    }
    Ok(Statement {
        effect,
        actions: strings(value.get("Action"))?,
        resources: strings(value.get("Resource"))?,
        conditions,
    })
}

/// Every function's inline policy, with `parameters` overriding the parameters' defaults
/// (conditions such as `HasDataForSeoSecret` follow them).
pub fn function_policies(
    template: &Template,
    parameters: &BTreeMap<String, String>,
) -> Result<Vec<Policy>> {
    let resolver = Resolver {
        template,
        parameters: parameters.clone(),
    };
    let mut policies = Vec::new();
    for (function, properties) in template.resources_of_type("AWS::Serverless::Function")? {
        let binary = template
            .section("Resources")
            .and_then(|r| r.get(&function))
            .and_then(|f| f.get("Metadata"))
            .and_then(|m| m.get("BuildProperties"))
            .and_then(|b| b.get("Binary"))
            .and_then(Value::as_str)
            .ok_or_else(|| anyhow!("function {function} names no Binary"))?
            .to_string();
        let mut statements = Vec::new();
        if let Some(written) = properties.get("Policies") {
            let resolved = resolver
                .resolve(written)
                .with_context(|| format!("{function} Policies"))?;
            let documents = match resolved {
                Some(Json::Array(items)) => items,
                Some(single) => vec![single],
                None => Vec::new(),
            };
            for document in documents {
                let Some(list) = document.get("Statement") else {
                    bail!(
                        "{function}: the policy {document} is a managed policy or a SAM policy template; \
                         the least-privilege test reads only inline statements"
                    );
                };
                let list = match list {
                    Json::Array(items) => items.clone(),
                    single => vec![single.clone()],
                };
                for item in &list {
                    statements
                        .push(statement(item).with_context(|| format!("{function}: {item}"))?);
                }
            }
        }
        policies.push(Policy {
            function,
            binary,
            statements,
        });
    }
    Ok(policies)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_as_iam_does() {
        assert!(glob(
            "arn:aws:s3:::B/jobs/*",
            "arn:aws:s3:::B/jobs/1/a.json"
        ));
        assert!(!glob("arn:aws:s3:::B/jobs/*", "arn:aws:s3:::B"));
        assert!(!glob(
            "arn:aws:s3:::B/jobs/*",
            "arn:aws:s3:::B/provider-cache/x"
        ));
        assert!(glob("dynamodb:*", "dynamodb:getitem"));
        assert!(glob("RATE#*", "RATE#labs"));
        assert!(glob("a?c", "abc") && !glob("a?c", "ac"));
    }

    #[test]
    fn conditions_follow_iam_for_missing_keys() {
        let condition = |operator: &str| Condition {
            operator: operator.into(),
            key: "s3:prefix".into(),
            values: vec!["jobs/*".into()],
        };
        let none = BTreeMap::new();
        let jobs = BTreeMap::from([("s3:prefix".to_string(), vec!["jobs/1/".to_string()])]);
        let cache =
            BTreeMap::from([("s3:prefix".to_string(), vec!["provider-cache/".to_string()])]);
        assert!(condition("StringLike").holds(&jobs));
        assert!(!condition("StringLike").holds(&cache));
        assert!(!condition("StringLike").holds(&none));
        assert!(condition("StringLikeIfExists").holds(&none));
        assert!(condition("ForAllValues:StringLike").holds(&none));
        assert!(!condition("ForAnyValue:StringLike").holds(&none));
        assert!(condition("StringNotLike").holds(&cache));
    }

    #[test]
    fn a_table_query_names_its_partition() {
        let body = serde_json::json!({
            "KeyConditionExpression": "#pk = :pk AND begins_with(#sk, :prefix)",
            "ExpressionAttributeNames": {"#pk": "PK", "#sk": "SK"},
            "ExpressionAttributeValues": {":pk": {"S": "USER#1"}, ":prefix": {"S": "APIKEY#"}},
        });
        assert_eq!(queried_partition(&body).as_deref(), Some("USER#1"));
        let between = serde_json::json!({
            "KeyConditionExpression": "SK >= :a AND PK = :p",
            "ExpressionAttributeValues": {":a": {"S": "x"}, ":p": {"S": "JOB#2"}},
        });
        assert_eq!(queried_partition(&between).as_deref(), Some("JOB#2"));
    }

    #[test]
    fn percent_escapes_and_xml_entities_are_read() {
        assert_eq!(percent_decode("jobs/a%20b/x%2Fy"), "jobs/a b/x/y");
        assert_eq!(percent_decode("100%"), "100%");
        let xml = "<Delete><Object><Key>jobs/1/a&amp;b</Key><VersionId>v1</VersionId></Object><Object><Key>k</Key></Object></Delete>";
        let objects = xml_texts(xml, "Object");
        assert_eq!(objects.len(), 2);
        assert_eq!(xml_unescape(xml_texts(objects[0], "Key")[0]), "jobs/1/a&b");
        assert!(xml_texts(objects[1], "VersionId").is_empty());
    }
}

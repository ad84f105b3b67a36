//! Reads `template.yaml`, the one description of the deployed resources, so that the local
//! stack is derived from it rather than kept as a second copy.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context, Result};
use serde_yaml_ng::value::TaggedValue;
use serde_yaml_ng::{Mapping, Value};

pub struct Template {
    root: Value,
}

/// A value in the template that may refer to a resource or parameter.
#[derive(Debug, Clone, PartialEq)]
pub enum Reference {
    Literal(String),
    Ref(String),
    GetAtt { resource: String, attribute: String },
}

/// How the template routes one path to a function.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ApiRoute {
    pub path: String,
    /// Lowercase; `any` for SAM's `any` and API Gateway's `x-amazon-apigateway-any-method`.
    pub method: String,
    /// The binary of the function that serves it.
    pub binary: String,
    /// A `DefinitionBody` integration calling the function's response-streaming endpoint
    /// with `responseTransferMode: STREAM`.
    pub streaming: bool,
}

/// The text of a `!Sub` (or a plain string), unresolved.
fn sub_text(value: &Value) -> String {
    match value {
        Value::Tagged(tagged) => tagged.value.as_str().unwrap_or_default().to_string(),
        other => other.as_str().unwrap_or_default().to_string(),
    }
}

/// The workspace root (where template.yaml lives), found from this crate's manifest.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits in the workspace")
        .to_path_buf()
}

impl Template {
    pub fn load_default() -> Result<Self> {
        Self::load(&workspace_root().join("template.yaml"))
    }

    pub fn load(path: &Path) -> Result<Self> {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let root = serde_yaml_ng::from_str(&text)
            .with_context(|| format!("parsing {}", path.display()))?;
        Ok(Self { root })
    }

    fn resources(&self) -> Result<&Mapping> {
        self.root
            .get("Resources")
            .and_then(Value::as_mapping)
            .ok_or_else(|| anyhow!("template has no Resources"))
    }

    /// `(logical id, Properties)` of every resource of `kind`, in template order.
    pub fn resources_of_type(&self, kind: &str) -> Result<Vec<(String, Value)>> {
        let mut found = Vec::new();
        for (id, resource) in self.resources()? {
            if resource.get("Type").and_then(Value::as_str) == Some(kind) {
                let id = id
                    .as_str()
                    .ok_or_else(|| anyhow!("resource id is not a string"))?
                    .to_string();
                found.push((
                    id,
                    resource.get("Properties").cloned().unwrap_or(Value::Null),
                ));
            }
        }
        Ok(found)
    }

    /// Every path the Api routes to a function: SAM `Api` events, and paths declared in an
    /// Api's `DefinitionBody` (integrations events cannot express), in template order.
    pub fn api_routes(&self) -> Result<Vec<ApiRoute>> {
        let mut routes = Vec::new();
        for (id, resource) in self.resources()? {
            if resource.get("Type").and_then(Value::as_str) != Some("AWS::Serverless::Function") {
                continue;
            }
            let id = id.as_str().unwrap_or_default();
            let binary = self.function_binary(id)?;
            let events = resource
                .get("Properties")
                .and_then(|p| p.get("Events"))
                .and_then(Value::as_mapping);
            for event in events.into_iter().flat_map(|events| events.values()) {
                if event.get("Type").and_then(Value::as_str) != Some("Api") {
                    continue;
                }
                let properties = event.get("Properties");
                let field = |name: &str| {
                    properties
                        .and_then(|p| p.get(name))
                        .and_then(Value::as_str)
                        .map(String::from)
                        .ok_or_else(|| anyhow!("an Api event of {id:?} has no {name}"))
                };
                routes.push(ApiRoute {
                    path: field("Path")?,
                    method: field("Method")?.to_ascii_lowercase(),
                    binary: binary.clone(),
                    streaming: false,
                });
            }
        }
        routes.extend(self.definition_body_routes()?);
        Ok(routes)
    }

    /// The binary of every function the template deploys, in template order.
    pub fn function_binaries(&self) -> Result<Vec<String>> {
        self.resources_of_type("AWS::Serverless::Function")?
            .into_iter()
            .map(|(id, _)| self.function_binary(&id))
            .collect()
    }

    /// The memory setting, MB, of the function deploying `binary`: its own `MemorySize`, else
    /// the `Globals` one.
    pub fn function_memory(&self, binary: &str) -> Result<u32> {
        self.function_setting(binary, "MemorySize")
    }

    /// The timeout, seconds, of the function deploying `binary`: its own `Timeout`, else the
    /// `Globals` one.
    pub fn function_timeout(&self, binary: &str) -> Result<u32> {
        self.function_setting(binary, "Timeout")
    }

    fn function_setting(&self, binary: &str, name: &str) -> Result<u32> {
        let functions = self.resources_of_type("AWS::Serverless::Function")?;
        let (_, function) = functions
            .iter()
            .find(|(id, _)| self.function_binary(id).ok().as_deref() == Some(binary))
            .ok_or_else(|| anyhow!("no function deploys {binary:?}"))?;
        let own = function.get(name);
        let global = self
            .section("Globals")
            .and_then(|g| g.get("Function"))
            .and_then(|f| f.get(name));
        own.or(global)
            .and_then(Value::as_u64)
            .and_then(|value| u32::try_from(value).ok())
            .ok_or_else(|| anyhow!("{binary:?} has no {name}"))
    }

    fn function_binary(&self, logical_id: &str) -> Result<String> {
        self.resources()?
            .get(logical_id)
            .and_then(|f| f.get("Metadata"))
            .and_then(|m| m.get("BuildProperties"))
            .and_then(|b| b.get("Binary"))
            .and_then(Value::as_str)
            .map(String::from)
            .ok_or_else(|| anyhow!("function {logical_id:?} names no Binary"))
    }

    /// Paths declared in an Api's `DefinitionBody`, with the function their integration URI
    /// names (`${Function.Arn}`) and whether that integration streams the response.
    fn definition_body_routes(&self) -> Result<Vec<ApiRoute>> {
        let mut routes = Vec::new();
        for (_, props) in self.resources_of_type("AWS::Serverless::Api")? {
            let paths = props
                .get("DefinitionBody")
                .and_then(|d| d.get("paths"))
                .and_then(Value::as_mapping);
            for (path, methods) in paths.into_iter().flatten() {
                let path = path
                    .as_str()
                    .ok_or_else(|| anyhow!("a path is not a string"))?;
                for (method, operation) in methods.as_mapping().into_iter().flatten() {
                    let Some(integration) = operation.get("x-amazon-apigateway-integration") else {
                        continue;
                    };
                    let uri = integration.get("uri").map(sub_text).unwrap_or_default();
                    let function = uri
                        .find(".Arn}")
                        .and_then(|end| uri[..end].rfind("${").map(|start| &uri[start + 2..end]))
                        .ok_or_else(|| anyhow!("{path}: integration URI names no function"))?;
                    let method = method.as_str().unwrap_or_default();
                    routes.push(ApiRoute {
                        path: path.to_string(),
                        method: match method {
                            "x-amazon-apigateway-any-method" => "any".to_string(),
                            other => other.to_ascii_lowercase(),
                        },
                        binary: self.function_binary(function)?,
                        streaming: uri.ends_with("/response-streaming-invocations")
                            && integration
                                .get("responseTransferMode")
                                .and_then(Value::as_str)
                                == Some("STREAM"),
                    });
                }
            }
        }
        Ok(routes)
    }

    /// `(binary of the function, SourceArn as written)` of every `AWS::Lambda::Permission`
    /// that lets API Gateway invoke a function.
    pub fn api_invoke_permissions(&self) -> Result<Vec<(String, String)>> {
        let mut permissions = Vec::new();
        for (id, props) in self.resources_of_type("AWS::Lambda::Permission")? {
            if props.get("Principal").and_then(Value::as_str) != Some("apigateway.amazonaws.com") {
                continue;
            }
            let Some(Reference::GetAtt { resource, .. }) =
                props.get("FunctionName").map(reference).transpose()?
            else {
                return Err(anyhow!(
                    "permission {id:?} names its function without !GetAtt"
                ));
            };
            let source = props.get("SourceArn").map(sub_text).unwrap_or_default();
            permissions.push((self.function_binary(&resource)?, source));
        }
        Ok(permissions)
    }

    /// The environment every function gets (`Globals.Function.Environment.Variables`).
    pub fn function_environment(&self) -> Result<Vec<(String, Reference)>> {
        let variables = self
            .root
            .get("Globals")
            .and_then(|g| g.get("Function"))
            .and_then(|f| f.get("Environment"))
            .and_then(|e| e.get("Variables"))
            .and_then(Value::as_mapping)
            .ok_or_else(|| anyhow!("template has no Globals.Function.Environment.Variables"))?;
        variables
            .iter()
            .map(|(name, value)| {
                let name = name
                    .as_str()
                    .ok_or_else(|| anyhow!("variable name is not a string"))?;
                Ok((name.to_string(), reference(value)?))
            })
            .collect()
    }

    /// A top-level section (`Parameters`, `Conditions`, `Resources`), as written.
    pub fn section(&self, name: &str) -> Option<&Value> {
        self.root.get(name)
    }

    pub fn parameter_default(&self, name: &str) -> Option<String> {
        let default = self.root.get("Parameters")?.get(name)?.get("Default")?;
        scalar(default)
    }

    pub fn is_parameter(&self, name: &str) -> bool {
        self.root
            .get("Parameters")
            .and_then(|p| p.get(name))
            .is_some()
    }
}

pub fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        Value::Bool(flag) => Some(flag.to_string()),
        _ => None,
    }
}

/// Reads `!Ref X`, `!GetAtt X.Attr`, `{"Ref": X}`, `{"Fn::GetAtt": [X, Attr]}` or a literal.
pub fn reference(value: &Value) -> Result<Reference> {
    if let Value::Tagged(tagged) = value {
        let TaggedValue { tag, value } = tagged.as_ref();
        let inner = value
            .as_str()
            .ok_or_else(|| anyhow!("{tag} takes a string here"))?;
        return match tag.to_string().trim_start_matches('!') {
            "Ref" => Ok(Reference::Ref(inner.to_string())),
            "GetAtt" => {
                let (resource, attribute) = inner
                    .split_once('.')
                    .ok_or_else(|| anyhow!("!GetAtt {inner} has no attribute"))?;
                Ok(Reference::GetAtt {
                    resource: resource.into(),
                    attribute: attribute.into(),
                })
            }
            other => Err(anyhow!(
                "unsupported tag {other} in a value the local stack must resolve"
            )),
        };
    }
    if let Some(name) = value.get("Ref").and_then(Value::as_str) {
        return Ok(Reference::Ref(name.to_string()));
    }
    if let Some(parts) = value.get("Fn::GetAtt").and_then(Value::as_sequence) {
        if let [resource, attribute] = parts.as_slice() {
            return Ok(Reference::GetAtt {
                resource: resource.as_str().unwrap_or_default().into(),
                attribute: attribute.as_str().unwrap_or_default().into(),
            });
        }
    }
    scalar(value)
        .map(Reference::Literal)
        .ok_or_else(|| anyhow!("cannot resolve {value:?}"))
}

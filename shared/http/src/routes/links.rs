//! How a client goes from one answer to the next request: the OpenAPI links of the document.
//! Each link names a response of one route of the table and the route it leads to, with the
//! runtime expressions that fill the target's path parameters. Generic clients and test
//! generators (schemathesis' stateful phase) follow them from a created job to its results
//! and from a created API key to its revocation.
//!
//! Targets are named by `operationRef` (a JSON pointer into the document's paths), since
//! operation ids are the handlers' names and repeat across functions (`create`, `list`).

use serde_json::{json, Map, Value};

use super::Method::{self, Delete, Get, Post};

/// One link: from the `status` response of `from` to `to`, with `parameters` of `to` as
/// `(name, runtime expression)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Link {
    pub name: &'static str,
    pub from: (Method, &'static str),
    pub status: &'static str,
    pub to: (Method, &'static str),
    pub parameters: &'static [(&'static str, &'static str)],
    pub description: &'static str,
}

const JOBS: &str = "/api/v1/jobs";
const JOB: &str = "/api/v1/jobs/{jobId}";
const KEYWORDS: &str = "/api/v1/jobs/{jobId}/keywords";
const CLUSTERS: &str = "/api/v1/jobs/{jobId}/clusters";
const CLUSTER_KEYWORDS: &str = "/api/v1/jobs/{jobId}/clusters/{clusterId}/keywords";
const TOPICS: &str = "/api/v1/jobs/{jobId}/topics";
const PERSONAS: &str = "/api/v1/jobs/{jobId}/personas";
const REFERENCES: &str = "/api/v1/jobs/{jobId}/references";
const EXPORT: &str = "/api/v1/jobs/{jobId}/export-keywords";
const SHARE_LINKS: &str = "/api/v1/jobs/{jobId}/share-links";
const SHARE_LINK: &str = "/api/v1/jobs/{jobId}/share-links/{linkId}";
const API_KEYS: &str = "/api/v1/api-keys";
const API_KEY: &str = "/api/v1/api-keys/{keyId}";

/// The job-scoped reads and the delete, each reached with the job id an answer names.
macro_rules! job_links {
    ($from:expr, $status:literal, $id:literal) => {
        [
            link(
                "GetJob",
                $from,
                $status,
                (Get, JOB),
                &[("jobId", $id)],
                "The job.",
            ),
            link(
                "GetKeywords",
                $from,
                $status,
                (Get, KEYWORDS),
                &[("jobId", $id)],
                "The job's keywords.",
            ),
            link(
                "GetClusters",
                $from,
                $status,
                (Get, CLUSTERS),
                &[("jobId", $id)],
                "The job's clusters.",
            ),
            link(
                "GetTopics",
                $from,
                $status,
                (Get, TOPICS),
                &[("jobId", $id)],
                "The job's topics.",
            ),
            link(
                "GetPersonas",
                $from,
                $status,
                (Get, PERSONAS),
                &[("jobId", $id)],
                "The job's personas.",
            ),
            link(
                "GetReferences",
                $from,
                $status,
                (Get, REFERENCES),
                &[("jobId", $id)],
                "The job's site references.",
            ),
            link(
                "ExportKeywords",
                $from,
                $status,
                (Get, EXPORT),
                &[("jobId", $id)],
                "The job's keywords as CSV.",
            ),
            link(
                "CreateShareLink",
                $from,
                $status,
                (Post, SHARE_LINKS),
                &[("jobId", $id)],
                "A read-only link to the job's results (once it has completed).",
            ),
            link(
                "DeleteJob",
                $from,
                $status,
                (Delete, JOB),
                &[("jobId", $id)],
                "Deletes the job.",
            ),
        ]
    };
}

const fn link(
    name: &'static str,
    from: (Method, &'static str),
    status: &'static str,
    to: (Method, &'static str),
    parameters: &'static [(&'static str, &'static str)],
    description: &'static str,
) -> Link {
    Link {
        name,
        from,
        status,
        to,
        parameters,
        description,
    }
}

const FROM_CREATED: [Link; 9] = job_links!((Post, JOBS), "201", "$response.body#/job/id");
const FROM_LIST: [Link; 9] = job_links!((Get, JOBS), "200", "$response.body#/jobs/0/id");
const FROM_JOB: [Link; 9] = job_links!((Get, JOB), "200", "$response.body#/job/id");

const WITHIN_RESULTS: [Link; 4] = [
    link(
        "GetClusterKeywords",
        (Get, CLUSTERS),
        "200",
        (Get, CLUSTER_KEYWORDS),
        &[
            ("jobId", "$request.path.jobId"),
            ("clusterId", "$response.body#/clusters/0/id"),
        ],
        "The keywords of the first cluster of the page.",
    ),
    link(
        "GetClusterKeywords",
        (Get, KEYWORDS),
        "200",
        (Get, CLUSTER_KEYWORDS),
        &[
            ("jobId", "$request.path.jobId"),
            ("clusterId", "$response.body#/keywords/0/clusterId"),
        ],
        "The keywords of the first keyword's cluster.",
    ),
    // A revoked key is gone: the created key is the one to revoke. (No link leads from the
    // list, whose keys include the one the client may be using.)
    link(
        "RevokeApiKey",
        (Post, API_KEYS),
        "201",
        (Delete, API_KEY),
        &[("keyId", "$response.body#/apiKey/id")],
        "Revokes the key just created.",
    ),
    link(
        "RevokeShareLink",
        (Post, SHARE_LINKS),
        "201",
        (Delete, SHARE_LINK),
        &[
            ("jobId", "$request.path.jobId"),
            ("linkId", "$response.body#/id"),
        ],
        "Revokes the share link just created.",
    ),
];

/// Every link of the document.
pub fn all() -> impl Iterator<Item = Link> {
    FROM_CREATED
        .into_iter()
        .chain(FROM_LIST)
        .chain(FROM_JOB)
        .chain(WITHIN_RESULTS)
}

/// `#/paths/<path>/<method>`, the path escaped as a JSON pointer.
pub fn operation_ref((method, path): (Method, &str)) -> String {
    format!(
        "#/paths/{}/{}",
        path.replace('~', "~0").replace('/', "~1"),
        method.as_str()
    )
}

/// The Link Object of `link`, as OpenAPI spells it. (utoipa's `Link` serializes its fields in
/// snake case, `operation_ref`, which no OpenAPI tool reads; so links are written as JSON.)
pub fn link_object(link: &Link) -> Value {
    let parameters: Map<String, Value> = link
        .parameters
        .iter()
        .map(|(name, expression)| (name.to_string(), Value::from(*expression)))
        .collect();
    json!({
        "operationRef": operation_ref(link.to),
        "parameters": parameters,
        "description": link.description,
    })
}

/// Adds every link to the response it starts from, in the document as JSON. Panics when a
/// link names a response the document lacks (the routes test runs this).
pub fn document_links(document: &mut Value) {
    for link in all() {
        let (method, path) = link.from;
        let response = document
            .pointer_mut(&format!(
                "{}/responses/{}",
                operation_ref(link.from).trim_start_matches('#'),
                link.status
            ))
            .and_then(Value::as_object_mut)
            .unwrap_or_else(|| {
                panic!(
                    "link {}: {} {path} documents no {} response",
                    link.name,
                    method.as_str(),
                    link.status
                )
            });
        response
            .entry("links")
            .or_insert_with(|| json!({}))
            .as_object_mut()
            .expect("links is an object")
            .insert(link.name.to_string(), link_object(&link));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routes::ROUTES;

    #[test]
    fn links_join_routes_of_the_table_and_fill_every_path_parameter() {
        let routed = |(method, path): (Method, &str)| {
            ROUTES
                .iter()
                .any(|route| route.method == method && route.path == path)
        };
        for link in all() {
            assert!(routed(link.from), "{link:?}");
            assert!(routed(link.to), "{link:?}");
            let (_, target) = link.to;
            let wanted: Vec<&str> = target
                .split('/')
                .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
                .collect();
            let given: Vec<&str> = link.parameters.iter().map(|(name, _)| *name).collect();
            assert_eq!(given, wanted, "{link:?}");
        }
    }

    #[test]
    fn no_link_leads_from_the_key_list_to_a_revocation() {
        assert!(!all().any(|link| link.from == (Get, API_KEYS)));
    }

    #[test]
    fn operation_refs_are_json_pointers() {
        assert_eq!(
            operation_ref((Get, "/api/v1/jobs/{jobId}")),
            "#/paths/~1api~1v1~1jobs~1{jobId}/get"
        );
    }
}

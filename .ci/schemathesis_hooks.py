"""Schemathesis hooks for .ci/schemathesis.

The OpenAPI document states every rule JSON Schema can express (bounds, lengths, patterns,
enums). The rules below relate two values, or the request to earlier ones, or need the public
suffix list; the document states them in words, and these hooks teach them to the generator,
so that a case schemathesis calls positive is one the contract says must be accepted. Each
hook touches positive cases only; negative cases are sent as generated.

- A keyword filter's minimum above its maximum is refused (400): the two are swapped.
- A job's domains must be registrable (not themselves on the public suffix list), its
  competitors distinct from the primary and at most 10: generated names become
  `site<letters and digits>.com` (primary) and `.org` (competitors), at most 10.
- A job's `searchConsoleProperty` must be one the account's Search Console connection lists:
  positive cases name none.
- A job's own keywords must be phrases the data provider accepts (no symbols it refuses, at most
  10 words, not blank): generated ones become lower-case letters, digits and spaces; a
  `discoverKeywords: false` without keywords gets one; a keyword file gets at least one line.
- A clusters filter's `topicId` must be a topic of the job (400 otherwise): a generated one
  becomes one of that job's topic ids, the demo job's or the run's user's own job's (any job's
  list is empty before completion, and other jobs' answers are 404 whatever the filter).
- Webhook and callback URLs must be absolute http(s) URLs without credentials (the document
  says so in words; a pattern could only be narrower or wider than what is accepted, and either
  way a generated case would be judged wrongly): a generated one becomes
  `https://hooks.example.com/h/<digest of it>`.
- The same `Idempotency-Key` with another body is refused (400): a case's key is the hash of
  the case's id and body, so no two cases share one (and a case sent twice replays).

Two more guards keep the run meaningful: the API key the run authenticates with is never the
one a `DELETE /api-keys/{keyId}` revokes (`GET /api-keys` lists its id, and once revoked every
later request would be a 401); and a share link a case made is revoked once ten newer ones exist
(a job holds at most 20 live links, and a run that filled the demo job's would judge every later
`POST /jobs/{jobId}/share-links` on a 403 alone; the ten kept let a stateful scenario revoke the
link it has just made).

And three that let an operation be tested at all: a positive `POST /jobs/{jobId}/share-links`
naming the demo job is sent for the user's own job (only an owner makes links); a positive `DELETE
/jobs/{jobId}/share-links/{linkId}` on the user's own job names a link that exists (made just
before, as a client revokes what it made); a generated id is a 404 every time. And a positive
`POST /jobs/{jobId}/clusters/{clusterId}/brief` naming a job the run knows (the demo job or the
user's own) is sent for the user's own job and one of its clusters: only a job's owner may have
a brief made, so on the demo job every case would be the same 404.

A logo upload (`PUT /users/me/branding/logo`) must be a whole PNG, JPEG or WebP of the type it
is sent as (the document says so in words; arbitrary bytes are what a binary schema allows): a
positive case sends a 1×1 image of the type it is sent as.

Schedules the same way: a schedule's job fields are fixed as a job's are; the run deletes the
schedules it made once ten newer ones exist (an account holds at most 20); and a positive `GET`,
`PATCH` or `DELETE /schedules/{scheduleId}` names a schedule that exists (made just before).

Search Console the same way, through the Google mock .ci/schemathesis starts: a positive `POST
/integrations/search-console/callback` carries the code and state of a consent flow begun and
allowed just before (a generated state matches no flow: 400 every time), a positive `PUT
/integrations/search-console/service-account` sends the test-only service-account key the mock
knows (tests/fixtures/google; any other key is one Google refuses), and a positive `DELETE
/integrations/search-console` finds the account connected (connected just before).
"""

import hashlib
import json
import os
import re
import uuid
from collections import deque
from collections.abc import MutableMapping
from urllib.parse import parse_qsl, urlsplit

import requests

import schemathesis
from schemathesis.generation import GenerationMode

PROTECTED_KEY_ID = os.environ.get("KR_ST_API_KEY_ID", "")
API_KEY = os.environ.get("KR_ST_API_KEY", "")
BASE_URL = os.environ.get("KR_ST_BASE_URL", "")
OWN_JOB_ID = os.environ.get("KR_ST_OWN_JOB_ID", "")
OWN_CLUSTER_IDS = [c for c in os.environ.get("KR_ST_OWN_CLUSTER_IDS", "").split(",") if c]
DEMO_JOB_ID = os.environ.get("KR_ST_DEMO_JOB_ID", "")
SHARE_LINKS_KEPT = 10
# (the POST's URL, the link's id) of the share links the run made and has not revoked, oldest first.
_share_links = deque()
# Every share link id the run made, for telling them from generated ones.
_made_link_ids = set()
SCHEDULES_KEPT = 10
# Ids of the schedules the run made and has not deleted, oldest first.
_schedules = deque()
_made_schedule_ids = set()
SCHEDULE = {
    "primaryDomain": "schedule-test.com",
    "languageCode": "en",
    "locationCode": 2840,
    "cadence": "weekly",
    "dayOfWeek": 1,
    "hourUtc": 6,
}
TOPIC_IDS = [t for t in os.environ.get("KR_ST_TOPIC_IDS", "").split(",") if t]
OWN_TOPIC_IDS = [t for t in os.environ.get("KR_ST_OWN_TOPIC_IDS", "").split(",") if t]

# (min, max) query parameters of the keyword filters.
RANGES = [
    ("minVolume", "maxVolume"),
    ("minDifficulty", "maxDifficulty"),
    ("minCpc", "maxCpc"),
    ("minCompetition", "maxCompetition"),
    ("minOrganicOpportunityScore", "maxOrganicOpportunityScore"),
    ("minPaidOpportunityScore", "maxPaidOpportunityScore"),
    ("minOpportunityValue", "maxOpportunityValue"),
]
MAX_COMPETITORS = 10


def _is_positive(case):
    meta = getattr(case, "meta", None)
    return meta is not None and meta.generation.mode == GenerationMode.POSITIVE


def _number(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _registrable(raw, suffix):
    """`raw` as a registrable name under `suffix`: one label of letters and digits that starts
    with `site`. A bare label could itself be a public suffix under `.com` (`de.com`, `us.com`,
    `br.com` are on the public suffix list, which the document says is refused); no suffix on
    the list starts with `site`. Idempotent, since a case can be sent more than once."""
    raw = str(raw).lower()
    if re.fullmatch(r"site[a-z0-9]*\." + re.escape(suffix), raw):
        return raw
    label = re.sub(r"[^a-z0-9]", "", raw)[:40]
    return f"site{label}.{suffix}"


def _fix_keyword_ranges(case):
    query = case.query
    if not isinstance(query, MutableMapping):
        return
    for low, high in RANGES:
        a, b = _number(query.get(low)), _number(query.get(high))
        if a is not None and b is not None and a > b:
            query[low], query[high] = query[high], query[low]


def _phrase(raw):
    """`raw` as a phrase the provider accepts. Idempotent."""
    words = re.sub(r"[^a-z0-9 ]", " ", str(raw).lower()).split()[:10]
    phrase = " ".join(words)[:80].strip()
    return phrase or "coffee beans"


def _fix_job_fields(fields):
    if isinstance(fields.get("primaryDomain"), str):
        fields["primaryDomain"] = _registrable(fields["primaryDomain"], "com")
    competitors = fields.get("competitorDomains")
    if isinstance(competitors, list):
        fields["competitorDomains"] = [
            _registrable(item, "org") for item in competitors if isinstance(item, str)
        ][:MAX_COMPETITORS]
    elif isinstance(competitors, str):
        names = [_registrable(item, "org") for item in competitors.split(",") if item.strip()]
        fields["competitorDomains"] = ",".join(names[:MAX_COMPETITORS])
    keywords = fields.get("keywords")
    if isinstance(keywords, list):
        fields["keywords"] = [_phrase(item) for item in keywords]
    if fields.get("discoverKeywords") is False and not fields.get("keywords"):
        fields["discoverKeywords"] = True
    # Only a property of the account's own Search Console connection may be named (400
    # otherwise, tests/tests/suite/search_console.rs): positive cases name none.
    fields.pop("searchConsoleProperty", None)


def _fix_keyword_file(case):
    if isinstance(case.query, MutableMapping):
        _fix_job_fields(case.query)
    # The file's schema is any text; whatever was generated is read as the lines of one.
    body = case.body
    if isinstance(body, bytes):
        text = body.decode("utf-8", "replace")
    elif isinstance(body, str):
        text = body
    else:
        text = json.dumps(body, default=str)
    lines = [_phrase(line) for line in text.splitlines() if line.strip()]
    case.body = "\n".join(lines or ["coffee beans"]) + "\n"


def _hook_url(raw):
    """`raw` as a URL the service accepts. Idempotent."""
    raw = str(raw)
    if re.fullmatch(r"https://hooks\.example\.com/h/[0-9a-f]{16}", raw):
        return raw
    return "https://hooks.example.com/h/" + hashlib.sha256(raw.encode()).hexdigest()[:16]


def _fix_urls(fields, names):
    if isinstance(fields, MutableMapping):
        for name in names:
            if isinstance(fields.get(name), str):
                fields[name] = _hook_url(fields[name])


# A 1×1 image of each type a logo may be (PNG as image editors write it; JPEG and WebP as
# Chromium's canvas encodes them, without the colour profile).
LOGOS = {
    "image/png": bytes.fromhex(
        "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4"
        "890000000d49444154789c63f8cfc0f01f00050001ff89993d1d0000000049454e44ae426082"
    ),
    "image/jpeg": bytes.fromhex(
        "ffd8ffe000104a46494600010100000100010000ffdb004300100b0c0e0c0a100e0d0e1211101318281a"
        "181616183123251d283a333d3c3933383740485c4e404457453738506d51575f626768673e4d71797064"
        "785c656763ffdb0043011112121815182f1a1a2f63423842636363636363636363636363636363636363"
        "6363636363636363636363636363636363636363636363636363636363636363ffc00011080001000103"
        "012200021101031101ffc4001500010100000000000000000000000000000004ffc40014100100000000"
        "000000000000000000000000ffc40014010100000000000000000000000000000005ffc4001411010000"
        "0000000000000000000000000000ffda000c03010002110311003f00800383dfffd9"
    ),
    "image/webp": bytes.fromhex(
        "524946463600000057454250565038202a0000009001009d012a0100010002c04c25a00274ba00039800"
        "fee838bff8de3adbeb6f6f3fa146ca2693000000"
    ),
}


def _fix_logo(case):
    headers = case.headers if isinstance(case.headers, MutableMapping) else {}
    # A case whose own Content-Type header was generated is a header case: sent as generated.
    if any(name.lower() == "content-type" for name in headers):
        return
    case.body = LOGOS.get(case.media_type, LOGOS["image/png"])
    # Authenticated by the API key alone: the session cookie that `POST /auth/login` left in
    # the run's cookie jar would accept a case whose key header was made invalid. (An
    # explicit header replaces the jar's.)
    headers["Cookie"] = ""
    case.headers = headers


def _fix_topic_filter(case):
    query = case.query
    # The user's own job has topics of its own; any other job is the demo job's or a 404.
    own = (case.path_parameters or {}).get("jobId") == OWN_JOB_ID
    topics = OWN_TOPIC_IDS if own else TOPIC_IDS
    if isinstance(query, MutableMapping) and "topicId" in query and topics:
        digest = hashlib.sha256(str(query["topicId"]).encode()).digest()
        query["topicId"] = topics[digest[0] % len(topics)]


def _fix_job_request(case):
    body = case.body
    if isinstance(body, MutableMapping):
        _fix_job_fields(body)
    # One key per case and body: a case sent again is a replay, never a reuse; another case
    # never replays this one (whose job may since have been deleted).
    headers = case.headers
    if isinstance(headers, MutableMapping):
        for name in list(headers):
            if name.lower() == "idempotency-key":
                canonical = json.dumps([case.id, body], sort_keys=True, default=str)
                headers[name] = hashlib.sha256(canonical.encode()).hexdigest()


@schemathesis.hook
def before_call(context, case, kwargs):
    """Runs before every request of every phase (stateful included)."""
    path, method = case.operation.path, case.operation.method.upper()
    if (
        PROTECTED_KEY_ID
        and method == "DELETE"
        and (case.path_parameters or {}).get("keyId") == PROTECTED_KEY_ID
    ):
        case.path_parameters["keyId"] = str(uuid.uuid4())
    if not _is_positive(case):
        return
    if method == "GET" and path.endswith("/keywords"):
        _fix_keyword_ranges(case)
    elif method == "GET" and path.endswith("/clusters"):
        _fix_topic_filter(case)
    elif method == "POST" and path in ("/api/v1/jobs", "/api/v1/jobs/estimate"):
        _fix_urls(case.body, ["callbackUrl"])
        _fix_job_request(case)
    elif method == "POST" and path == "/api/v1/jobs/import":
        _fix_urls(case.query, ["callbackUrl"])
        _fix_keyword_file(case)
        _fix_job_request(case)
    elif method == "POST" and path == "/api/v1/webhooks":
        _fix_urls(case.body, ["url"])
    elif method == "PUT" and path == "/api/v1/users/me/branding/logo":
        _fix_logo(case)
    elif method == "DELETE" and path.endswith("/share-links/{linkId}"):
        _existing_share_link(case)
    elif method == "POST" and path.endswith("/clusters/{clusterId}/brief"):
        _own_cluster(case)
    elif method == "POST" and path == "/api/v1/jobs/{jobId}/share-links":
        _own_job(case)
    elif method == "POST" and path == "/api/v1/schedules":
        if isinstance(case.body, MutableMapping):
            _fix_job_fields(case.body)
    elif path == "/api/v1/schedules/{scheduleId}":
        _existing_schedule(case)
    elif method == "POST" and path == "/api/v1/integrations/search-console/callback":
        case.body = _allowed_consent()
    elif method == "PUT" and path == "/api/v1/integrations/search-console/service-account":
        case.body = _service_account_key()
    elif method == "DELETE" and path == "/api/v1/integrations/search-console":
        requests.post(
            f"{BASE_URL}/api/v1/integrations/search-console/callback",
            json=_allowed_consent(),
            headers={"X-API-KEY": API_KEY},
            timeout=30,
        ).raise_for_status()


def _service_account_key():
    """The test-only key file the Google mock knows (tests/fixtures/google/service-account.json)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "tests", "fixtures", "google", "service-account.json")) as key:
        return json.load(key)


def _allowed_consent():
    """Begins a Search Console connection and allows it on the mock's consent page, as the
    account's user would: the {code, state} Google sends the browser back with."""
    started = requests.post(
        f"{BASE_URL}/api/v1/integrations/search-console", headers={"X-API-KEY": API_KEY}, timeout=30
    )
    started.raise_for_status()
    consent = urlsplit(started.json()["authorizationUrl"])
    form = parse_qsl(consent.query) + [("decision", "allow")]
    decided = requests.post(
        f"{consent.scheme}://{consent.netloc}/o/oauth2/v2/auth/decide",
        data=form,
        allow_redirects=False,
        timeout=30,
    )
    back = dict(parse_qsl(urlsplit(decided.headers["location"]).query))
    return {"code": back["code"], "state": back["state"]}


def _keep_schedule(schedule_id):
    """Remembers a schedule the run made; deletes the oldest beyond SCHEDULES_KEPT."""
    _made_schedule_ids.add(schedule_id)
    _schedules.append(schedule_id)
    while len(_schedules) > SCHEDULES_KEPT:
        old = _schedules.popleft()
        # A 404 is fine: a case may have deleted it already.
        requests.delete(f"{BASE_URL}/api/v1/schedules/{old}", headers={"X-API-KEY": API_KEY}, timeout=30)


def _existing_schedule(case):
    params = case.path_parameters
    if params.get("scheduleId") in _made_schedule_ids:
        return
    made = requests.post(
        f"{BASE_URL}/api/v1/schedules", json=SCHEDULE, headers={"X-API-KEY": API_KEY}, timeout=30
    )
    if made.status_code == 201:
        params["scheduleId"] = made.json()["schedule"]["id"]
        _keep_schedule(params["scheduleId"])


def _own_job(case):
    """A link can be made on the user's own job only (the demo job's answer is a 404 whatever
    the body): a positive case naming the demo job is sent for the user's own."""
    params = case.path_parameters
    if OWN_JOB_ID and params.get("jobId") == DEMO_JOB_ID:
        params["jobId"] = OWN_JOB_ID


def _own_cluster(case):
    params = case.path_parameters
    if not OWN_CLUSTER_IDS or params.get("jobId") not in (OWN_JOB_ID, DEMO_JOB_ID):
        return
    params["jobId"] = OWN_JOB_ID
    if params.get("clusterId") not in OWN_CLUSTER_IDS:
        digest = hashlib.sha256(str(params.get("clusterId")).encode()).digest()
        params["clusterId"] = OWN_CLUSTER_IDS[digest[0] % len(OWN_CLUSTER_IDS)]


def _existing_share_link(case):
    params = case.path_parameters
    if not OWN_JOB_ID or params.get("jobId") != OWN_JOB_ID or params.get("linkId") in _made_link_ids:
        return
    made = requests.post(
        f"{BASE_URL}/api/v1/jobs/{OWN_JOB_ID}/share-links",
        json={},
        headers={"X-API-KEY": API_KEY},
        timeout=30,
    )
    if made.status_code == 201:
        params["linkId"] = made.json()["id"]
        _made_link_ids.add(params["linkId"])


@schemathesis.hook
def after_call(context, case, response):
    """Revokes the oldest share links the run made, keeping SHARE_LINKS_KEPT, and deletes the
    oldest schedules it made, keeping SCHEDULES_KEPT."""
    operation = case.operation
    if (
        operation.method.upper() == "POST"
        and operation.path == "/api/v1/schedules"
        and response.status_code == 201
    ):
        _keep_schedule(response.json()["schedule"]["id"])
        return
    if (
        operation.method.upper() != "POST"
        or not operation.path.endswith("/share-links")
        or response.status_code != 201
    ):
        return
    link_id = response.json()["id"]
    _made_link_ids.add(link_id)
    _share_links.append((response.request.url, link_id))
    while len(_share_links) > SHARE_LINKS_KEPT:
        url, link_id = _share_links.popleft()
        # A 404 is fine: a stateful scenario may have revoked it already.
        requests.delete(f"{url}/{link_id}", headers={"X-API-KEY": API_KEY}, timeout=30)

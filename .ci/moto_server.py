"""Runs moto's server with DynamoDB requests serialised.

moto applies a TransactWriteItems request's writes one at a time and, when one fails its
condition, restores a snapshot of every table taken before the request. Two requests
handled at the same time can therefore interleave or erase each other's writes, which
DynamoDB never does: it serialises transactions on the items they touch. Serialising the
DynamoDB requests restores that guarantee; SQS and S3 requests (including SQS long polls)
stay concurrent.

Two costs of moto's own that the test suite pays on every request are cut: finding the
backend for a host lists moto's package folder and tries every service's URL patterns (a
fifth of the server's time in a profile of a pipeline test), so the answer is kept per host;
and the one-line log of each request is written only when KR_MOTO_LOG_REQUESTS=1
(.ci/local-stack sets it, where the log is read).

Usage: moto_server.py HOST PORT
"""

import functools
import os
import sys
import threading

from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
from werkzeug.serving import WSGIRequestHandler, run_simple

dynamodb_lock = threading.Lock()
backend = DomainDispatcherApplication(create_backend_app)
# The host-to-backend answer depends on the host alone (the patterns and the package are fixed).
backend.get_backend_for_host = functools.lru_cache(maxsize=None)(backend.get_backend_for_host)


def app(environ, start_response):
    if environ.get("HTTP_X_AMZ_TARGET", "").startswith("DynamoDB_"):
        with dynamodb_lock:
            # Materialise the body inside the lock: the work happens while it is produced.
            return list(backend(environ, start_response))
    return backend(environ, start_response)


class QuietRequestHandler(WSGIRequestHandler):
    """Logs errors, not each request."""

    def log_request(self, code="-", size="-"):
        pass


if __name__ == "__main__":
    host, port = sys.argv[1], int(sys.argv[2])
    handler = None if os.environ.get("KR_MOTO_LOG_REQUESTS") == "1" else QuietRequestHandler
    run_simple(host, port, app, threaded=True, request_handler=handler)

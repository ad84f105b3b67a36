"""Runs moto's server with DynamoDB requests serialised.

moto applies a TransactWriteItems request's writes one at a time and, when one fails its
condition, restores a snapshot of every table taken before the request. Two requests
handled at the same time can therefore interleave or erase each other's writes, which
DynamoDB never does: it serialises transactions on the items they touch. Serialising the
DynamoDB requests restores that guarantee; SQS and S3 requests (including SQS long polls)
stay concurrent.

Usage: moto_server.py HOST PORT
"""

import sys
import threading

from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
from werkzeug.serving import run_simple

dynamodb_lock = threading.Lock()
backend = DomainDispatcherApplication(create_backend_app)


def app(environ, start_response):
    if environ.get("HTTP_X_AMZ_TARGET", "").startswith("DynamoDB_"):
        with dynamodb_lock:
            # Materialise the body inside the lock: the work happens while it is produced.
            return list(backend(environ, start_response))
    return backend(environ, start_response)


if __name__ == "__main__":
    host, port = sys.argv[1], int(sys.argv[2])
    run_simple(host, port, app, threaded=True)

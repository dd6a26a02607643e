"""The embedded moto server's requests served at the cost of the work they ask for.

The handlers' own AWS calls (audit items, sessions, KMS, SNS, S3) are boto3 calls to moto's server,
as in AWS they are calls over the network. A profile of /ask (bench/ask_bench.py; docs/benchmarks.md)
put a fifth of the request's time in the four audit writes. A DynamoDB PutItem measured alone cost
about 9 ms of CPU through the server and 5 ms through the same WSGI application called in process:
the socket, the server thread and the HTTP parsing on both sides were the difference. Two patches:

1. **In-process transport.** moto's server runs in this same process, so a boto3 client's request to
   it went through a socket to a werkzeug server thread and back. Here the request botocore has
   prepared (signed, serialized) is handed to the same WSGI application the server runs, in the
   calling thread, and botocore parses its response as it would have parsed it off the socket: the
   same routing, the same moto code, the same status codes, headers and error shapes (a moto crash
   is a 500, as the server would answer). Only requests to this stack's endpoint are served so;
   anything else (LocalStack, AWS) is left to botocore. Requests that are not boto3's (a presigned
   URL opened with urllib, the browser) still reach the server over HTTP.
2. **Routing without the disk.** To route a request for a host that is not a module name (KMS, SNS,
   S3 and most others), moto lists its package directory and checks each entry on disk
   (`moto.backends.list_of_moto_modules`), on every request. The list depends only on the installed
   package, so here it is computed once per process. (The service models moto parses requests with are
   cached by moto itself.)

Like caredesk_local.state_machine_runtime, this patches moto's internals and botocore's event
hooks; `check_seams()` fails loudly if a moto upgrade moves them.
"""

from __future__ import annotations

import functools
import importlib
import logging
from typing import Any
from urllib.parse import urlsplit

import boto3
from botocore.awsrequest import AWSPreparedRequest, AWSResponse
from botocore.handlers import BUILTIN_HANDLERS

from caredesk_local import moto_seams

LOG = logging.getLogger(__name__)

SEAMS = (
    ("moto.backends", "list_of_moto_modules", ()),
    ("moto.moto_server.werkzeug_app", "DomainDispatcherApplication.__init__", ("self", "create_app")),
    ("moto.core.botocore_stubber", "MockRawResponse.__init__", ("self", "response_input")),
)
BEFORE_SEND = "before-send"


class MotoServerSeamMovedError(RuntimeError):
    """moto no longer has what this runtime patches: pin moto or update moto_server_runtime.py."""


def check_seams() -> None:
    moto_seams.check_seams(SEAMS, MotoServerSeamMovedError,
                           "pin moto (requirements-dev.txt) or update caredesk_local/moto_server_runtime.py")


class InProcessTransport:
    """A botocore `before-send` hook: a request to `endpoint` is answered by moto's WSGI application in
    the calling thread; any other request returns None, and botocore sends it as usual."""

    def __init__(self, endpoint: str) -> None:
        from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app

        self.endpoint = endpoint.rstrip("/")
        self._application = DomainDispatcherApplication(create_backend_app)
        self.served = 0  # requests answered in process, for tests and benchmarks

    def __call__(self, request: AWSPreparedRequest, **_kwargs: Any) -> AWSResponse | None:
        if request.url != self.endpoint and not request.url.startswith(self.endpoint + "/"):
            return None
        from moto.core.botocore_stubber import MockRawResponse
        from werkzeug.test import EnvironBuilder, run_wsgi_app

        url = urlsplit(request.url)
        body = request.body.read() if hasattr(request.body, "read") else request.body
        headers = [(name, value.decode("utf-8") if isinstance(value, bytes) else value)
                   for name, value in request.headers.items()]
        environ = EnvironBuilder(method=request.method, base_url=f"{url.scheme}://{url.netloc}", path=url.path,
                                 query_string=url.query, headers=headers, data=body or b"").get_environ()
        try:
            chunks, status, response_headers = run_wsgi_app(self._application, environ, buffered=True)
            content = b"".join(chunks)
        except Exception:  # noqa: BLE001 - the server answers a crash in moto with a 500, and so does this
            LOG.exception("moto failed on %s %s", request.method, url.path)
            status, response_headers, content = "500 INTERNAL SERVER ERROR", {}, b"Internal Server Error"
        self.served += 1
        return AWSResponse(request.url, int(status.split(" ", 1)[0]), dict(response_headers),
                           MockRawResponse(content))


class MotoServerPatches:
    """Installed for one embedded stack once its moto endpoint is known, uninstalled at its stop."""

    def __init__(self) -> None:
        self._patches = moto_seams.Patches()
        self.transport: InProcessTransport | None = None
        self._hooked_session: Any = None

    def install(self, endpoint: str) -> None:
        check_seams()
        backends = importlib.import_module("moto.backends")
        module_names = backends.list_of_moto_modules

        @functools.cache
        def moto_modules() -> tuple[str, ...]:
            return tuple(module_names())

        self._patches.set(backends, "list_of_moto_modules", moto_modules)
        self.transport = InProcessTransport(endpoint)
        # boto3's default session (boto3.client(...), what the handlers use) is hooked, made first if need
        # be; sessions made from now on copy BUILTIN_HANDLERS. In that order, no session has the hook twice
        # (botocore calls every before-send hook). Clients made before keep their sockets.
        if boto3.DEFAULT_SESSION is None:
            boto3.setup_default_session()
        self._hooked_session = boto3.DEFAULT_SESSION._session  # the botocore session under boto3's
        self._hooked_session.register(BEFORE_SEND, self.transport)
        BUILTIN_HANDLERS.append((BEFORE_SEND, self.transport))

    def uninstall(self) -> None:
        if self.transport is not None:
            if (BEFORE_SEND, self.transport) in BUILTIN_HANDLERS:
                BUILTIN_HANDLERS.remove((BEFORE_SEND, self.transport))
            if self._hooked_session is not None:
                self._hooked_session.unregister(BEFORE_SEND, self.transport)
            self.transport = None
            self._hooked_session = None
        self._patches.restore()

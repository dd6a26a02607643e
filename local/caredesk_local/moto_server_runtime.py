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
3. **DynamoDB without the web framework.** Five of an answer-cache hit's calls are DynamoDB (sessions,
   the cache, audit items), and a py-spy profile of hits put ~23% of each call's CPU in building
   the WSGI environ, werkzeug and Flask (routing, CORS, the response object) around moto's
   `DynamoHandler`. The server routes a DynamoDB request (SigV4 scope `dynamodb`, `X-Amz-Target:
   DynamoDB_20120810.<Operation>`, POST to `/`) to exactly one view, `DynamoHandler.dispatch`; here such a
   request is handed to that view as moto's own in-process mock (`mock_aws`) hands it: normalized
   request, moto's request recorder, `DynamoHandler.dispatch`, its status, headers and body returned to
   botocore. The same moto code parses, validates and answers it (condition expressions, error shapes,
   the CRC32 header). The response headers differ only in what a web framework adds: moto adds a
   `Date` when no WSGI server does, and there is no CORS or `Content-Length` header from Flask; botocore
   reads none of them for DynamoDB. Any other request, DynamoDB Streams included, goes through the
   WSGI application as before.
4. **moto's action lookup, once per class.** For every request moto lists the handler class's
   methods with `inspect.getmembers` (`method_names_from_class`) to check the action exists; a class's
   methods do not change while the process runs, so the list is kept per class.
5. **No signature computed for a request answered here.** botocore signs every request (SigV4: a canonical
   request, two hashes and four HMACs, ~70 us a call); moto reads the `Authorization` header's credential
   scope (access key, region, service) and never checks the signature unless its IAM emulation is on
   (`INITIAL_NO_AUTH_ACTION_COUNT`). A request to this stack's endpoint signed by `SigV4Auth` itself (not
   S3's or a presigned URL's subclasses) gets every header botocore's signer writes (`X-Amz-Date`, the
   security token, `Authorization` with the same credential scope and signed-header list), with a fixed
   placeholder for the signature; with moto's IAM emulation on, and for any other endpoint (AWS,
   LocalStack), requests are signed as before. In Lambda nothing here runs.
6. **A new item's size checked once.** moto builds an item attribute by attribute into a dict that, on
   every insert, recomputes the size of all the attributes already in it (`LimitedSizeDict`: quadratic
   in the attributes; three PutItems of ~14 attributes on an answer-cache hit). `Item.__init__` here adds
   each attribute's size to a running total instead: the same sizes (`bytesize` of the name plus
   `DynamoType.size()`), the same limit, `ItemSizeTooLarge` raised at the same attribute; later
   changes to an item (UpdateItem) still go through moto's check.

Like caredesk_local.state_machine_runtime, this patches moto's internals, botocore's event hooks and its SigV4
signer (for this endpoint only); `check_seams()` fails loudly if a moto or botocore upgrade moves them.
"""

from __future__ import annotations

import functools
import importlib
import logging
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import boto3
import botocore.auth
from botocore.auth import SIGV4_TIMESTAMP, SigV4Auth
from botocore.awsrequest import AWSPreparedRequest, AWSResponse
from botocore.handlers import BUILTIN_HANDLERS

from caredesk_local import moto_seams

LOG = logging.getLogger(__name__)

SEAMS = (
    ("moto.backends", "list_of_moto_modules", ()),
    ("moto.moto_server.werkzeug_app", "DomainDispatcherApplication.__init__", ("self", "create_app")),
    ("moto.core.botocore_stubber", "MockRawResponse.__init__", ("self", "response_input")),
    ("moto.core.request", "normalize_request", ("request",)),
    ("moto.dynamodb.responses", "DynamoHandler.dispatch", ()),
    ("moto.core.responses", "method_names_from_class", ("clazz",)),
    ("moto.dynamodb.models.dynamo_type", "Item.__init__", ("self", "hash_key", "range_key", "attrs")),
    ("moto.dynamodb.models.dynamo_type", "LimitedSizeDict.__setitem__", ("self", "key", "value")),
    ("moto.dynamodb.models.dynamo_type", "bytesize", ("val",)),
    ("botocore.auth", "SigV4Auth.add_auth", ("self", "request")),
    ("botocore.auth", "SigV4Auth._inject_signature_to_request", ("self", "request", "signature")),
    ("botocore.auth", "SigV4Auth._modify_request_before_signing", ("self", "request")),
    ("botocore.auth", "get_current_datetime", ()),
)
# moto's item size limit (LimitedSizeDict.__setitem__: "between 409 and 410KB", set in between).
MOTO_ITEM_SIZE_LIMIT = 405000
# The signature a request answered in this process carries instead of an HMAC (moto does not check it).
PLACEHOLDER_SIGNATURE = "0" * 64
# The DynamoDB requests the server routes to DynamoHandler.dispatch (moto.dynamodb.urls: POST "{0}/"), by
# their SigV4 scope and target prefix, as moto_server.werkzeug_app infers the service (DynamoDBStreams_ and
# the 2011 API version are other handlers: not served by the shortcut).
DYNAMODB_TARGET_PREFIX = "DynamoDB_20120810."
DYNAMODB_SCOPE = "/dynamodb/aws4_request"
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

    def answers(self, url: str) -> bool:
        """Whether a request to `url` is answered here (this stack's endpoint)."""
        return url == self.endpoint or url.startswith(self.endpoint + "/")

    def __call__(self, request: AWSPreparedRequest, **_kwargs: Any) -> AWSResponse | None:
        if not self.answers(request.url):
            return None
        from moto.core.botocore_stubber import MockRawResponse

        url = urlsplit(request.url)
        if is_dynamodb_request(request, url.path):
            status_code, response_headers, content = self._dynamodb(request)
        else:
            status_code, response_headers, content = self._wsgi(request, url)
        self.served += 1
        return AWSResponse(request.url, status_code, response_headers, MockRawResponse(content))

    def _dynamodb(self, request: AWSPreparedRequest) -> tuple[int, dict[str, str], bytes | str]:
        """moto's DynamoHandler, called as the server's only DynamoDB view calls it (moto.core.utils.
        convert_to_flask_response: a botocore ClientError is a 400 with its message), with the errors
        werkzeug would turn into responses (an HTTPException is its status, headers and body; a crash a 500)."""
        from botocore.exceptions import ClientError
        from moto.core.exceptions import HTTPException
        from moto.core.request import normalize_request
        from moto.dynamodb.responses import DynamoHandler
        from moto.moto_api import recorder

        try:
            normalized = normalize_request(request)
            recorder._record_request(normalized)
            try:
                result = DynamoHandler.dispatch(normalized, normalized.raw_url, dict(normalized.headers))
            except ClientError as exc:
                result = 400, {}, exc.response["Error"]["Message"]
            status, headers, content = result if len(result) == 3 else (200, {}, result)
            return int(status), {name: str(value) for name, value in headers.items()}, content
        except HTTPException as exc:
            return exc.code or 500, dict(exc.get_headers()), exc.get_body()
        except Exception:  # noqa: BLE001 - as the server answers a crash in moto
            LOG.exception("moto failed on DynamoDB %s", request.headers.get("X-Amz-Target"))
            return 500, {}, b"Internal Server Error"

    def _wsgi(self, request: AWSPreparedRequest, url: Any) -> tuple[int, dict[str, str], bytes]:
        from werkzeug.test import EnvironBuilder, run_wsgi_app

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
        return int(status.split(" ", 1)[0]), dict(response_headers), content


def _header(request: AWSPreparedRequest, name: str) -> str:
    value = request.headers.get(name) or ""
    return value.decode("utf-8") if isinstance(value, bytes) else value


def is_dynamodb_request(request: AWSPreparedRequest, path: str) -> bool:
    """A request the moto server would route to `DynamoHandler.dispatch`: a SigV4-signed DynamoDB
    (2012-08-10 API) operation posted to the root path."""
    credential = _header(request, "Authorization").split(",", 1)[0]
    return (request.method == "POST" and path in ("", "/") and credential.endswith(DYNAMODB_SCOPE)
            and _header(request, "X-Amz-Target").startswith(DYNAMODB_TARGET_PREFIX))


def moto_checks_signatures() -> bool:
    """moto's IAM emulation is on: it verifies each request's signature (moto.core.access_control)."""
    from moto import settings

    return settings.INITIAL_NO_AUTH_ACTION_COUNT != float("inf")


def loopback_add_auth(add_auth: Callable[[SigV4Auth, Any], None],
                      transport: InProcessTransport) -> Callable[[SigV4Auth, Any], None]:
    """`SigV4Auth.add_auth` that writes a placeholder signature on a request `transport` answers (see the
    module's docstring, 5); any other request, or any signer subclass, is signed by `add_auth`."""

    def signed(signer: SigV4Auth, request: Any) -> None:
        if (type(signer) is not SigV4Auth or signer.credentials is None or not transport.answers(request.url)
                or moto_checks_signatures()):
            return add_auth(signer, request)
        # SigV4Auth.add_auth's steps, less the canonical request, string to sign and HMACs.
        request.context["timestamp"] = botocore.auth.get_current_datetime().strftime(SIGV4_TIMESTAMP)
        signer._modify_request_before_signing(request)
        signer._inject_signature_to_request(request, PLACEHOLDER_SIGNATURE)
        return None

    signed.__wrapped__ = add_auth  # type: ignore[attr-defined]
    return signed


def item_sized_once(item: Any, hash_key: Any, range_key: Any, attrs: dict[str, Any]) -> None:
    """moto's `Item.__init__` with the size check made once per attribute (see the module's docstring, 6):
    LimitedSizeDict.__setitem__ adds the size of every attribute already in the item to the new one's and
    compares the sum with the limit; here that sum is kept as the attributes go in."""
    from moto.dynamodb.exceptions import ItemSizeTooLarge
    from moto.dynamodb.models.dynamo_type import DynamoType, LimitedSizeDict, bytesize

    item.hash_key = hash_key
    item.range_key = range_key
    item.attrs = LimitedSizeDict()
    size = 0
    for key, value in attrs.items():
        typed = DynamoType(value)
        added = bytesize(key) + typed.size()
        if size + added > MOTO_ITEM_SIZE_LIMIT:
            raise ItemSizeTooLarge
        dict.__setitem__(item.attrs, key, typed)
        size += added


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
        responses = importlib.import_module("moto.core.responses")
        # Keyed by the class: a handler class's methods are fixed once it is defined.
        self._patches.set(responses, "method_names_from_class", functools.cache(responses.method_names_from_class))
        self.transport = InProcessTransport(endpoint)
        self._patches.set(SigV4Auth, "add_auth", loopback_add_auth(SigV4Auth.add_auth, self.transport))
        dynamo_type = importlib.import_module("moto.dynamodb.models.dynamo_type")
        self._patches.set(dynamo_type.Item, "__init__", item_sized_once)
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

"""The embedded stack: Postgres + pgvector, moto (with its real ASL interpreter) and the handlers.

Everything AWS is created by reading template.yaml (`StackTemplate`); a resource type the local
runtime does not emulate is reported in `EmbeddedStack.report`, never silently skipped.
"""

from __future__ import annotations

import io
import json
import logging
import os
import re
import socket
import threading
import uuid
import zipfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import boto3
from caredesk.cfn.triggers import s3_notifications, schedules
from caredesk.config import reset_settings
from caredesk.store.db import connect
from caredesk.store.migrations import apply_migrations

from caredesk_local.demo_seed import seed_demo_appointments
from caredesk_local.lambda_runtime import InProcessLambdaRuntime, LocalFunction
from caredesk_local.moto_server_runtime import MotoServerPatches
from caredesk_local.postgres import EmbeddedPostgres
from caredesk_local.state_machine_runtime import StateMachineRuntime
from caredesk_local.template import ACCOUNT_ID, REGION, StackTemplate

REPO_ROOT = Path(__file__).resolve().parents[2]
LOCAL_LAMBDA_ROLE = "caredesk-local-lambda"
LOG = logging.getLogger("caredesk.local")
logging.getLogger("werkzeug").setLevel(logging.WARNING)

# How each template type is emulated; anything else is reported as not emulated.
EMULATED = {
    "AWS::S3::Bucket": "moto S3 (with the functions' S3 event notifications)",
    "AWS::DynamoDB::Table": "moto DynamoDB (keys, GSIs, TTL)",
    "AWS::SNS::Topic": "moto SNS",
    "AWS::SQS::Queue": "moto SQS (redrive policy honoured)",
    "AWS::SQS::QueuePolicy": "moto SQS queue policy (not enforced locally)",
    "AWS::SNS::Subscription": "moto SNS subscription (sqs: delivered to the moto queue; email: recorded, not sent)",
    "AWS::KMS::Key": "moto KMS (key policies are not enforced locally)",
    "AWS::KMS::Alias": "moto KMS alias",
    "AWS::Serverless::Function": "moto Lambda, handler run in-process",
    "AWS::Serverless::LayerVersion": "the layer's package is installed in the virtualenv",
    "AWS::Serverless::StateMachine": "moto Step Functions with its ASL interpreter",
    "AWS::Serverless::Api": "the local HTTP API (caredesk_local.api) with the same mapping",
    "AWS::Logs::LogGroup": "moto CloudWatch Logs",
    "AWS::IAM::Role": "moto IAM (policies are not enforced locally)",
    "AWS::Lambda::Permission": "moto Lambda resource policy (the local API calls the routes' logic directly)",
    "AWS::SecretsManager::Secret": "moto Secrets Manager (GenerateSecretString honoured; new value per start)",
    "AWS::CloudWatch::Alarm": "not created locally (no metrics are published here); tests/unit/test_observability.py "
                              "checks each alarm reads metrics the functions or the log filter emit",
    "AWS::Logs::MetricFilter": "not created locally (the state machine's log is not shipped to moto); checked by "
                               "tests/unit/test_observability.py",
    "Custom::DatabaseMigrations": "applied at start by caredesk.store.migrations, the runner MigrateFunction uses",
}


# GenerateSecretString keys that GetRandomPassword shares (the JSON-template ones are not emulated).
RANDOM_PASSWORD_OPTIONS = {"PasswordLength", "ExcludeCharacters", "ExcludeNumbers", "ExcludePunctuation",
                           "ExcludeUppercase", "ExcludeLowercase", "IncludeSpace", "RequireEachIncludedType"}


LOCAL_PARAMETERS = {"DatabaseSecretArn": "local-dsn-in-environment", "CreateDatabase": "false"}
# Stacks that measure the pipeline itself (tests, the golden-set evaluation): a repeated question must
# run every step, not be answered from the answer cache (caredesk/answer_cache.py).
WITHOUT_ANSWER_CACHE = {**LOCAL_PARAMETERS, "AnswerCacheTtlInHours": "0"}


class StackError(Exception):
    """The embedded stack could not start; the message says why and what to do."""


@dataclass
class StackConfig:
    root: Path = REPO_ROOT
    data_dir: Path = REPO_ROOT / ".cache" / "pgdata"
    pg_port: int = 15432
    moto_port: int = 15050
    model_dir: Path = REPO_ROOT / ".cache" / "model"
    # The embedded Postgres stands in for the database: the template's CreateDatabase resources (VPC,
    # Aurora, RDS Proxy, endpoints) are not created locally (docs/deploy.md).
    parameters: dict[str, str] = field(default_factory=lambda: dict(LOCAL_PARAMETERS))
    # Load the 45 demo appointments after migrating (make demo, tests, eval); `caredesk up` does not.
    seed_demo: bool = False
    # A function's `Schedule` event fires at the template's rate; tests may set a shorter period (seconds).
    schedule_period_s: float | None = None


@dataclass
class EmbeddedStack:
    config: StackConfig
    template: StackTemplate | None = None
    postgres: EmbeddedPostgres | None = None
    runtime: InProcessLambdaRuntime = field(default_factory=InProcessLambdaRuntime)
    state_machines: StateMachineRuntime = field(default_factory=StateMachineRuntime)
    moto_server: MotoServerPatches = field(default_factory=MotoServerPatches)
    report: dict[str, str] = field(default_factory=dict)
    _moto: Any = None
    _saved_env: dict[str, str | None] = field(default_factory=dict)
    schedules: list[LocalSchedule] = field(default_factory=list)
    # moto assigns key ids at creation; aliases (what the functions are given) point to them.
    kms_key_ids: dict[str, str] = field(default_factory=dict)

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self) -> EmbeddedStack:
        try:
            self.template = StackTemplate.read(self.config.root, parameters=self.config.parameters)
            self._start_postgres()
            self._start_moto()
            self.moto_server.install(self.endpoint)
            self._set_environment()
            self.runtime.install()
            self.state_machines.install()
            self._create_resources()
            for schedule in self.schedules:
                schedule.start()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        for schedule in self.schedules:
            schedule.stop()
        self.state_machines.uninstall()
        self.runtime.uninstall()
        if self._moto is not None:
            self._moto.stop()
            self._moto = None
        self.moto_server.uninstall()
        if self.postgres is not None:
            self.postgres.stop()
            self.postgres = None
        for key, value in self._saved_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        self._saved_env.clear()
        reset_settings()

    def __enter__(self) -> EmbeddedStack:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- names the rest of the tooling needs -----------------------------------------------
    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.config.moto_port}"

    @property
    def dsn(self) -> str:
        assert self.postgres is not None
        return self.postgres.dsn

    def name(self, logical_id: str) -> str:
        assert self.template is not None
        return self.template.names[logical_id]

    def arn(self, logical_id: str) -> str:
        assert self.template is not None
        return self.template.ref(logical_id)

    def client(self, service: str) -> Any:
        return boto3.client(
            service,
            endpoint_url=self.endpoint,
            region_name=REGION,
            aws_access_key_id="local",
            aws_secret_access_key="local",
        )

    def describe(self) -> dict[str, Any]:
        """What `caredesk up` writes to .cache/stack.json for the other commands."""
        return {
            "endpoint": self.endpoint,
            "dsn": self.dsn,
            "region": REGION,
            "bucket": self.name("DocumentsBucket"),
            "audit_table": self.name("AuditTable"),
            "sessions_table": self.name("SessionsTable"),
            "state_machine_arn": self.arn("QueryStateMachine"),
            "bulk_ingest_state_machine_arn": self.arn("BulkIngestStateMachine"),
            "handover_topic_arn": self.arn("HandoverTopic"),
            "handover_queue": self.name("HandoverQueue"),
            "handovers_table": self.name("HandoversTable"),
            "handover_key": self.name("HandoverContactKeyAlias"),
            "audit_key": self.name("AuditQueryKeyAlias"),
            "dead_letter_queue": self.name("IngestDeadLetterQueue"),
            "caller_token_secret": self.name("CallerTokenKey"),
            "calibrate_function": self.name("CalibrateFunction"),
            "model_dir": str(self.config.model_dir),
            "report": self.report,
        }

    # -- steps -------------------------------------------------------------------------------
    def _start_postgres(self) -> None:
        self.postgres = EmbeddedPostgres(self.config.data_dir, self.config.pg_port)
        self.postgres.start()
        with connect(self.postgres.dsn) as conn:
            applied = apply_migrations(conn, self.config.root / "sql")
            conn.commit()
            if self.config.seed_demo:
                seed_demo_appointments(conn)
        LOG.info("postgres ready on port %s; migrations applied: %s", self.config.pg_port, applied or "none pending")

    def _start_moto(self) -> None:
        from moto.core.config import default_user_config
        from moto.server import ThreadedMotoServer

        if not _port_free(self.config.moto_port):
            raise StackError(
                f"port {self.config.moto_port} is in use: another CareDesk stack (or something else) is "
                "running; stop it, or set CAREDESK_MOTO_PORT"
            )
        default_user_config["stepfunctions"]["execute_state_machine"] = True
        # Keep moto's Docker-backed Lambda backend: its invocations reach the patched seam before
        # any Docker call ("use_docker": False would route them to a canned-response backend).
        default_user_config["lambda"]["use_docker"] = True
        self._moto = ThreadedMotoServer(ip_address="127.0.0.1", port=self.config.moto_port, verbose=False)
        self._moto.start()

    def _set_environment(self) -> None:
        assert self.template is not None
        env = {
            # moto's ASL interpreter calls back to localhost:$MOTO_PORT.
            "MOTO_PORT": str(self.config.moto_port),
            "AWS_ENDPOINT_URL": self.endpoint,
            "AWS_DEFAULT_REGION": REGION,
            "AWS_REGION": REGION,
            "AWS_ACCESS_KEY_ID": "local",
            "AWS_SECRET_ACCESS_KEY": "local",
            "CAREDESK_DB_DSN": self.dsn,
            "POWERTOOLS_TRACE_DISABLED": "true",
            "POWERTOOLS_METRICS_DISABLED": "true",
        }
        # One process hosts every function, so their environments must agree; they do when all
        # variables come from Globals, and a conflict is an error rather than a silent pick.
        merged: dict[str, str] = {}
        for function in self.template.resources("AWS::Serverless::Function"):
            for key, value in self.template.function_environment(function.logical_id).items():
                if key in merged and merged[key] != value:
                    raise StackError(
                        f"environment variable {key} differs between functions; not emulable in one process"
                    )
                merged[key] = value
        merged.pop("CAREDESK_DB_SECRET_ARN", None)  # the local DSN is given directly
        merged["CAREDESK_MODEL_DIR"] = str(self.config.model_dir)
        # The WordNet synonym table (tools/build_lexicon.py); in AWS the EmbeddingLayer's /opt/lexicon.
        merged.setdefault("CAREDESK_LEXICON_DIR", str(REPO_ROOT / ".cache" / "lexicon"))
        merged.update(env)
        for key, value in merged.items():
            self._saved_env.setdefault(key, os.environ.get(key))
            os.environ[key] = value
        # The functions read their settings once per process (caredesk.config), as in a new Lambda container.
        reset_settings()

    def _create_resources(self) -> None:
        assert self.template is not None
        template = self.template
        iam = self.client("iam")
        iam.create_role(
            RoleName=LOCAL_LAMBDA_ROLE,
            AssumeRolePolicyDocument=json.dumps({"Version": "2012-10-17", "Statement": []}),
        )
        role_arn = f"arn:aws:iam::{ACCOUNT_ID}:role/{LOCAL_LAMBDA_ROLE}"
        order = [
            "AWS::IAM::Role",
            "AWS::Logs::LogGroup",
            "AWS::DynamoDB::Table",
            "AWS::SNS::Topic",
            "AWS::SQS::Queue",
            "AWS::SQS::QueuePolicy",
            "AWS::SNS::Subscription",
            "AWS::KMS::Key",
            "AWS::KMS::Alias",
            "AWS::SecretsManager::Secret",
            "AWS::Serverless::LayerVersion",
            "AWS::Serverless::Function",
            "AWS::S3::Bucket",
            "AWS::Serverless::StateMachine",
            "AWS::Serverless::Api",
            "AWS::Lambda::Permission",
        ]
        resources = template.resources()
        for logical_id, spec in template.body["Resources"].items():
            if not template.created(logical_id):
                self.report[logical_id] = f"not created: its condition {spec['Condition']} is false"
        for resource in resources:
            if resource.type not in EMULATED:
                self.report[resource.logical_id] = f"NOT EMULATED locally: {resource.type}"
            elif resource.type not in order:  # done by an earlier step (the migrations: _start_postgres)
                self.report[resource.logical_id] = EMULATED[resource.type]
        for type_ in order:
            # A queue's dead-letter queue exists before the queue that redrives to it.
            for resource in sorted([r for r in resources if r.type == type_],
                                   key=lambda r: "RedrivePolicy" in r.properties):
                creator = getattr(self, "_create_" + type_.split("::")[-1].lower())
                creator(resource, role_arn)
                self.report[resource.logical_id] = EMULATED[type_]
        for schedule in self.schedules:
            self.report[schedule.logical_id] += (
                f"; its Schedule event ({schedule.expression}): a timer thread invokes it asynchronously every "
                f"{schedule.period_s:g} s")

    def _create_role(self, resource: Any, role_arn: str) -> None:
        properties = self.template.resolve(resource.properties)
        self.client("iam").create_role(
            RoleName=self.name(resource.logical_id),
            AssumeRolePolicyDocument=json.dumps(properties["AssumeRolePolicyDocument"]),
        )

    def _create_loggroup(self, resource: Any, role_arn: str) -> None:
        self.client("logs").create_log_group(logGroupName=self.name(resource.logical_id))

    def _create_table(self, resource: Any, role_arn: str) -> None:
        properties = self.template.resolve(resource.properties)
        dynamodb = self.client("dynamodb")
        request: dict[str, Any] = {
            "TableName": self.name(resource.logical_id),
            "AttributeDefinitions": properties["AttributeDefinitions"],
            "KeySchema": properties["KeySchema"],
            "BillingMode": properties.get("BillingMode", "PAY_PER_REQUEST"),
        }
        if properties.get("GlobalSecondaryIndexes"):
            request["GlobalSecondaryIndexes"] = properties["GlobalSecondaryIndexes"]
        dynamodb.create_table(**request)
        ttl = properties.get("TimeToLiveSpecification")
        if ttl:
            dynamodb.update_time_to_live(TableName=request["TableName"], TimeToLiveSpecification=ttl)

    def _create_topic(self, resource: Any, role_arn: str) -> None:
        self.client("sns").create_topic(Name=self.name(resource.logical_id))

    def _create_queue(self, resource: Any, role_arn: str) -> None:
        properties = self.template.resolve(resource.properties)
        attributes = {name: str(properties[name]) for name in ("VisibilityTimeout", "MessageRetentionPeriod")
                      if name in properties}
        if "RedrivePolicy" in properties:
            attributes["RedrivePolicy"] = json.dumps(properties["RedrivePolicy"])
        self.client("sqs").create_queue(QueueName=self.name(resource.logical_id), Attributes=attributes)

    def _create_queuepolicy(self, resource: Any, role_arn: str) -> None:
        properties = self.template.resolve(resource.properties)
        sqs = self.client("sqs")
        for queue_url in properties["Queues"]:
            url = sqs.get_queue_url(QueueName=queue_url.rsplit("/", 1)[-1])["QueueUrl"]
            sqs.set_queue_attributes(QueueUrl=url, Attributes={"Policy": json.dumps(properties["PolicyDocument"])})

    def _create_subscription(self, resource: Any, role_arn: str) -> None:
        properties = self.template.resolve(resource.properties)
        attributes = {"RawMessageDelivery": "true"} if properties.get("RawMessageDelivery") else {}
        self.client("sns").subscribe(TopicArn=properties["TopicArn"], Protocol=properties["Protocol"],
                                     Endpoint=properties["Endpoint"], Attributes=attributes)

    def _create_key(self, resource: Any, role_arn: str) -> None:
        key = self.client("kms").create_key(Description=resource.properties.get("Description", ""))
        self.kms_key_ids[resource.logical_id] = key["KeyMetadata"]["KeyId"]

    def _create_alias(self, resource: Any, role_arn: str) -> None:
        target = resource.properties["TargetKeyId"]
        key_id = self.kms_key_ids[target["Ref"]] if isinstance(target, dict) and "Ref" in target else target
        self.client("kms").create_alias(AliasName=self.name(resource.logical_id), TargetKeyId=key_id)

    def _create_secret(self, resource: Any, role_arn: str) -> None:
        properties = self.template.resolve(resource.properties)
        secretsmanager = self.client("secretsmanager")
        generate = properties.get("GenerateSecretString")
        if generate is None or "SecretStringTemplate" in generate:
            raise StackError(f"{resource.logical_id}: only generated plain-string secrets are emulated")
        options = {k: v for k, v in generate.items() if k in RANDOM_PASSWORD_OPTIONS}
        value = secretsmanager.get_random_password(**options)["RandomPassword"]
        secretsmanager.create_secret(Name=self.name(resource.logical_id), SecretString=value,
                                     Description=properties.get("Description", ""))

    def _create_layerversion(self, resource: Any, role_arn: str) -> None:
        # Layers' packages are installed in the virtualenv (make setup); nothing to create.
        return None

    def _create_function(self, resource: Any, role_arn: str) -> None:
        template = self.template
        logical_id = resource.logical_id
        name = self.name(logical_id)
        code_dir = self.config.root / template.function_property(logical_id, "CodeUri")
        handler = template.function_property(logical_id, "Handler")
        timeout = int(template.function_property(logical_id, "Timeout") or 3)
        memory = int(template.function_property(logical_id, "MemorySize") or 128)
        self.client("lambda").create_function(
            FunctionName=name,
            Runtime=template.function_property(logical_id, "Runtime"),
            Role=role_arn,
            Handler=handler,
            Code={"ZipFile": _placeholder_zip()},
            Timeout=timeout,
            MemorySize=memory,
            Environment={"Variables": template.function_environment(logical_id)},
        )
        properties = resource.properties
        dead_letter = properties.get("DeadLetterQueue", {})
        retries = properties.get("EventInvokeConfig", {}).get("MaximumRetryAttempts", 2)
        self.runtime.register(
            LocalFunction(
                name=name,
                arn=template.get_att(logical_id, "Arn"),
                code_dir=code_dir,
                handler=handler,
                timeout_s=timeout,
                memory_mb=memory,
                max_retries=int(retries),
                dead_letter_queue_arn=template.resolve(dead_letter.get("TargetArn")) if dead_letter else None,
            )
        )
        # S3 events are wired by _create_bucket, API events by the local API.
        for schedule in schedules(template.body):
            if schedule.function != logical_id:
                continue
            expression = template.resolve(schedule.expression)
            period = self.config.schedule_period_s or rate_seconds(expression)
            self.schedules.append(LocalSchedule(self.runtime, name, f"{logical_id}{schedule.event}", expression,
                                                period, logical_id=logical_id))

    def _create_bucket(self, resource: Any, role_arn: str) -> None:
        template = self.template
        bucket = self.name(resource.logical_id)
        s3 = self.client("s3")
        s3.create_bucket(Bucket=bucket)
        if resource.properties.get("VersioningConfiguration", {}).get("Status") == "Enabled":
            s3.put_bucket_versioning(Bucket=bucket, VersioningConfiguration={"Status": "Enabled"})
        configurations = []
        for notification in s3_notifications(template.body):
            if notification.bucket != resource.logical_id or not template.created(notification.function):
                continue
            configuration: dict[str, Any] = {
                "Id": f"{notification.function}{notification.event}",
                "LambdaFunctionArn": template.get_att(notification.function, "Arn"),
                "Events": list(notification.events),
            }
            if notification.filter_rules:
                configuration["Filter"] = {"Key": {"FilterRules": list(notification.filter_rules)}}
            configurations.append(configuration)
        if configurations:
            s3.put_bucket_notification_configuration(
                Bucket=bucket, NotificationConfiguration={"LambdaFunctionConfigurations": configurations}
            )

    def _create_statemachine(self, resource: Any, role_arn: str) -> None:
        self.client("stepfunctions").create_state_machine(
            name=self.name(resource.logical_id),
            definition=self.template.state_machine_definition(resource.logical_id),
            roleArn=role_arn,
            type=resource.properties.get("Type", "STANDARD"),
        )

    def _create_permission(self, resource: Any, role_arn: str) -> None:
        properties = self.template.resolve(resource.properties)
        self.client("lambda").add_permission(
            FunctionName=properties["FunctionName"],
            StatementId=resource.logical_id,
            Action=properties["Action"],
            Principal=properties["Principal"],
            SourceArn=properties["SourceArn"],
        )

    def _create_api(self, resource: Any, role_arn: str) -> None:
        # Served by caredesk_local.api from the same DefinitionBody; nothing to create in moto.
        return None


class LocalSchedule:
    """An EventBridge `rate(...)` schedule: a daemon thread that invokes the function asynchronously
    (retries, then the dead-letter queue, as for S3 events) every period, with the event EventBridge
    sends. Differs from AWS: `cron(...)` is not emulated, and the first tick is one period after start."""

    def __init__(self, runtime: InProcessLambdaRuntime, function_name: str, rule: str, expression: str,
                 period_s: float, *, logical_id: str = "") -> None:
        self.runtime, self.function_name, self.rule, self.expression = runtime, function_name, rule, expression
        self.logical_id = logical_id
        self.period_s = period_s
        self.ticks = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"schedule-{rule}", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    def fire(self) -> None:
        """One tick now (what EventBridge sends at each period)."""
        self.ticks += 1
        self.runtime.invoke_async(self.function_name, scheduled_event(self.rule))

    def _run(self) -> None:
        while not self._stop.wait(self.period_s):
            try:
                self.fire()
            except Exception:  # noqa: BLE001 - a tick must never end the timer; the handler logs its own errors
                LOG.exception("scheduled invocation of %s failed", self.function_name)


def rate_seconds(expression: str) -> float:
    """`rate(10 minutes)` -> 600.0; anything else (cron) is not emulated locally."""
    match = re.fullmatch(r"rate\(\s*(\d+)\s+(minute|minutes|hour|hours|day|days)\s*\)", expression.strip())
    if match is None:
        raise StackError(f"schedule {expression!r}: only rate(N minutes|hours|days) is emulated locally")
    unit = {"minute": 60, "hour": 3600, "day": 86400}[match.group(2).rstrip("s")]
    return float(int(match.group(1)) * unit)


def scheduled_event(rule: str) -> dict[str, Any]:
    """The event EventBridge sends a function on a schedule."""
    return {
        "version": "0", "id": str(uuid.uuid4()), "detail-type": "Scheduled Event", "source": "aws.events",
        "account": ACCOUNT_ID, "time": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), "region": REGION,
        "resources": [f"arn:aws:events:{REGION}:{ACCOUNT_ID}:rule/{rule}"], "detail": {},
    }


def _placeholder_zip() -> bytes:
    # moto stores a code package; the real code runs in-process from CodeUri.
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("README.txt", "CareDesk local: handlers run in-process from the repository.\n")
    return buffer.getvalue()


def _port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True

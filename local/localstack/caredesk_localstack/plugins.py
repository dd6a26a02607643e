"""LocalStack plugins, registered through this package's entry points (pyproject.toml):

- `localstack.lambda.runtime_executor` / `caredesk-host`: runs Python handlers as host processes
  (select with LAMBDA_RUNTIME_EXECUTOR=caredesk-host);
- `localstack.aws.provider` / `dynamodb:moto`: DynamoDB served by moto inside LocalStack instead of
  DynamoDB Local, which needs a Java + DynamoDB Local download (select with PROVIDER_OVERRIDE_DYNAMODB=moto);
- `localstack.hooks.on_infra_start` / `caredesk_s3_sequencer`: increasing S3 event sequencers (s3_sequencer.py).
"""

from __future__ import annotations

from localstack.aws.api.dynamodb import DynamodbApi
from localstack.runtime import hooks
from localstack.services.lambda_.invocation.plugins import RuntimeExecutorPlugin
from localstack.services.plugins import Service, ServiceLifecycleHook, aws_provider

EXECUTOR_NAME = "caredesk-host"


class HostProcessRuntimeExecutorPlugin(RuntimeExecutorPlugin):
    name = EXECUTOR_NAME

    def load(self, *args, **kwargs):
        from caredesk_localstack.host_executor import HostProcessRuntimeExecutor

        return HostProcessRuntimeExecutor


class MotoDynamoDBProvider(DynamodbApi, ServiceLifecycleHook):
    """Implements nothing itself: every operation falls through to moto's DynamoDB backend."""


@aws_provider(api="dynamodb", name="moto")
def dynamodb_moto():
    from localstack.services.moto import MotoFallbackDispatcher

    return Service.for_provider(MotoDynamoDBProvider(), dispatch_table_factory=MotoFallbackDispatcher)


@hooks.on_infra_start()
def patch_s3_event_sequencer() -> None:
    """Replaces LocalStack's constant S3 event sequencer with an increasing one (see s3_sequencer)."""
    from localstack.services.s3.notifications import BaseNotifier

    from caredesk_localstack.s3_sequencer import with_sequencer

    original = BaseNotifier.__dict__["_get_event_payload"].__func__

    def _get_event_payload(ctx, config_id):
        return with_sequencer(original(ctx, config_id), ctx.event_time)

    BaseNotifier._get_event_payload = staticmethod(_get_event_payload)

"""Writes events/env.json: `sam local invoke --env-vars events/env.json` against the local stack.

`caredesk up` runs moto (127.0.0.1:15050) and the embedded Postgres (127.0.0.1:15432); a function run
by `sam local invoke` in Docker reaches them with `--docker-network host` (Linux; on macOS/Windows
replace 127.0.0.1 with host.docker.internal). Each function gets the environment the local stack
gives it (the template's, with the local resource names) plus the endpoints of the local services.
SAM overrides only variables the template declares, so every key written here is declared there
(template.yaml's Globals declare the endpoint variables empty); a unit test checks both that and that
the committed file equals this script's output.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
ENV_PATH = REPO_ROOT / "events" / "env.json"
MOTO_URL = "http://127.0.0.1:15050"  # `caredesk up`'s default --moto-port
LOCAL_DSN = "postgresql://caredesk@127.0.0.1:15432/caredesk"  # its default --pg-port, user and database
# The AWS services the functions call (boto3 reads AWS_ENDPOINT_URL_<SERVICE>).
ENDPOINT_VARIABLES = ("AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL_SECRETS_MANAGER",
                      "AWS_ENDPOINT_URL_KMS", "AWS_ENDPOINT_URL_CLOUDFORMATION", "AWS_ENDPOINT_URL_SQS")


def build() -> dict[str, dict[str, str]]:
    from caredesk_local.stack import LOCAL_PARAMETERS
    from caredesk_local.template import StackTemplate

    template = StackTemplate.read(REPO_ROOT, parameters=LOCAL_PARAMETERS)
    local_services = {name: MOTO_URL for name in ENDPOINT_VARIABLES} | {"CAREDESK_DB_DSN": LOCAL_DSN}
    functions: dict[str, dict[str, str]] = {}
    for function in template.resources("AWS::Serverless::Function"):
        declared = template.function_environment(function.logical_id)
        environment = {key: value for key, value in declared.items() if key != "CAREDESK_DB_SECRET_ARN"}
        environment.update({key: value for key, value in local_services.items() if key in declared})
        functions[function.logical_id] = dict(sorted(environment.items()))
    return functions


def render() -> str:
    return json.dumps(build(), indent=2) + "\n"


if __name__ == "__main__":
    ENV_PATH.write_text(render(), encoding="utf-8")
    sys.stdout.write(f"wrote {ENV_PATH}\n")

"""BulkIngestStateMachine's ASL and template: generated, a DISTRIBUTED Map over s3:listObjectsV2 of the documents
bucket with the template's concurrency bound, a tolerated failure percentage, and IngestFunction under the
standard Lambda Retry; every substitution the ASL names is defined by the template."""

from __future__ import annotations

import json
import re

from caredesk.cfn.parse import read_template
from caredesk_local.template import StackTemplate

from tests.conftest import REPO_ROOT
from tools.write_asl import TRANSIENT_LAMBDA_ERRORS, lambda_retry
from tools.write_bulk_ingest_asl import ASL_PATH, render

DEFINITION = json.loads(ASL_PATH.read_text())
MAP = DEFINITION["States"]["IngestPrefix"]
TEMPLATE = read_template(REPO_ROOT / "template.yaml")
MACHINE = TEMPLATE["Resources"]["BulkIngestStateMachine"]["Properties"]


def test_committed_file_is_the_generator_output():
    assert ASL_PATH.read_text() == render(), "run: .venv/bin/python -m tools.write_bulk_ingest_asl"


def test_the_map_is_distributed_over_a_listing_of_the_documents_bucket_prefix():
    assert MAP["Type"] == "Map"
    assert MAP["ItemProcessor"]["ProcessorConfig"] == {"Mode": "DISTRIBUTED", "ExecutionType": "STANDARD"}
    assert MAP["ItemReader"] == {"Resource": "arn:aws:states:::s3:listObjectsV2",
                                 "Parameters": {"Bucket": "${DocumentsBucketName}", "Prefix.$": "$.prefix"}}
    assert MAP["ItemSelector"] == {"bucket": "${DocumentsBucketName}", "key.$": "$$.Map.Item.Value.Key",
                                   "size.$": "$$.Map.Item.Value.Size"}
    assert "ItemBatcher" not in MAP  # one document per child: a corrupt file fails only its own item


def test_concurrency_is_the_template_parameter_and_failures_are_tolerated_up_to_a_bound():
    settings = DEFINITION["States"]["Settings"]
    assert DEFINITION["StartAt"] == "Settings" and settings["Next"] == "IngestPrefix"
    assert settings["Parameters"]["max_concurrency.$"] == "States.StringToJson('${BulkIngestMaxConcurrency}')"
    assert MAP["MaxConcurrencyPath"] == "$.max_concurrency"
    assert 0 < MAP["ToleratedFailurePercentage"] < 50
    parameter = TEMPLATE["Parameters"]["BulkIngestMaxConcurrency"]
    # A String with a pattern: substitutions are text, and LocalStack turns a Number parameter into an integer.
    assert parameter["Type"] == "String"
    pattern = re.compile(parameter["AllowedPattern"])
    assert pattern.fullmatch(parameter["Default"]) and pattern.fullmatch("1") and pattern.fullmatch("100")
    assert not any(pattern.fullmatch(bad) for bad in ("0", "101", "08", "-1", "8.5", "", "eight"))
    assert MACHINE["DefinitionSubstitutions"]["BulkIngestMaxConcurrency"] == {"Ref": "BulkIngestMaxConcurrency"}


def test_each_item_invokes_the_ingest_function_with_the_standard_retry():
    processor = MAP["ItemProcessor"]
    task = processor["States"][processor["StartAt"]]
    assert task["Resource"] == "arn:aws:states:::lambda:invoke"
    assert task["Parameters"] == {"FunctionName": "${IngestFunctionArn}", "Payload.$": "$"}
    assert task["Retry"] == lambda_retry() and task["Retry"][0]["ErrorEquals"] == TRANSIENT_LAMBDA_ERRORS
    assert task["TimeoutSeconds"] > TEMPLATE["Resources"]["IngestFunction"]["Properties"]["Timeout"]
    assert task["OutputPath"] == "$.Payload.objects[0]"  # the one object's outcome (caredesk.ingest.bulk_items)
    result = processor["States"][task["Next"]]
    assert result["Type"] == "Pass" and result["End"] is True
    assert set(result["Parameters"]) == {"key.$", "outcome.$", "chunks_added.$", "chunks_kept.$"}


def test_every_substitution_is_defined_and_named_after_what_it_resolves():
    assert MACHINE["DefinitionUri"] == "statemachine/bulk_ingest.asl.json"
    assert MACHINE["Type"] == "STANDARD"  # a Distributed Map runs only in a STANDARD state machine
    assert MACHINE["DefinitionSubstitutions"] == {
        "DocumentsBucketName": {"Ref": "DocumentsBucket"},
        "IngestFunctionArn": {"Fn::GetAtt": ["IngestFunction", "Arn"]},
        "BulkIngestMaxConcurrency": {"Ref": "BulkIngestMaxConcurrency"},
    }
    resolved = json.loads(StackTemplate.read(REPO_ROOT).state_machine_definition("BulkIngestStateMachine"))
    assert resolved["States"]["Settings"]["Parameters"]["max_concurrency.$"] == "States.StringToJson('8')"


def test_its_arn_is_an_output():
    assert TEMPLATE["Outputs"]["BulkIngestStateMachineArn"]["Value"] == {"Ref": "BulkIngestStateMachine"}

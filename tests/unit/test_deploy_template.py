"""The AWS deployment in template.yaml: the optional database, its network, and the migration resource.

cfn-lint and `sam validate --lint` (test_static_checks.py) check the syntax; these check the decisions.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from caredesk.cfn.parse import read_template
from caredesk.store.migrations import migrations_digest

from tests.conftest import REPO_ROOT

TEMPLATE: dict[str, Any] = read_template(REPO_ROOT / "template.yaml")
RESOURCES: dict[str, Any] = TEMPLATE["Resources"]
DB_SECRET = {"Fn::If": ["CreateDatabase", {"Fn::GetAtt": ["DatabaseCluster", "MasterUserSecret.SecretArn"]},
                        {"Ref": "DatabaseSecretArn"}]}
IN_VPC = {"Fn::If": ["CreateDatabase",
                     {"SecurityGroupIds": [{"Ref": "FunctionSecurityGroup"}],
                      "SubnetIds": [{"Ref": "PrivateSubnetA"}, {"Ref": "PrivateSubnetB"}]},
                     {"Ref": "AWS::NoValue"}]}


def functions() -> dict[str, dict[str, Any]]:
    return {k: v["Properties"] for k, v in RESOURCES.items() if v["Type"] == "AWS::Serverless::Function"}


def reads_database_secret(properties: dict[str, Any]) -> bool:
    return any(isinstance(p, dict) and p.get("AWSSecretsManagerGetSecretValuePolicy", {}).get("SecretArn") == DB_SECRET
               for p in properties.get("Policies", []))


def test_the_custom_resource_names_the_current_migrations() -> None:
    digest = migrations_digest(REPO_ROOT / "sql")
    migrations = RESOURCES["DatabaseMigrations"]["Properties"]
    assert migrations["MigrationsDigest"] == digest, (
        f"sql/ changed: run `python -m tools.migrations_digest --write` (MigrationsDigest {digest}) so that the "
        "next deployment runs the migrations")
    assert migrations["ServiceToken"] == {"Fn::GetAtt": ["MigrateFunction", "Arn"]}
    assert "Condition" not in RESOURCES["DatabaseMigrations"]  # a brought database is migrated too


def test_the_digest_tool_rewrites_only_the_digest_line(tmp_path) -> None:
    from tools.migrations_digest import write_digest

    template = tmp_path / "template.yaml"
    original = (REPO_ROOT / "template.yaml").read_text(encoding="utf-8")
    template.write_text(original, encoding="utf-8")
    assert write_digest(template, "f" * 64) is True
    changed = [(a, b) for a, b in zip(original.splitlines(), template.read_text().splitlines(), strict=True) if a != b]
    assert len(changed) == 1 and changed[0][1].endswith("MigrationsDigest: " + "f" * 64)
    assert write_digest(template, "f" * 64) is False


def test_the_sample_events_name_the_current_migrations() -> None:
    """`sam local invoke MigrateFunction -e events/migrate_create.json` must not fail on a stale digest."""
    digest = migrations_digest(REPO_ROOT / "sql")
    for name in ("migrate_create.json", "migrate_update.json", "migrate_delete.json"):
        event = json.loads((REPO_ROOT / "events" / name).read_text(encoding="utf-8"))
        assert event["ResourceProperties"]["MigrationsDigest"] == digest, (
            f"events/{name}: run `python -m tools.migrations_digest --write`")


def test_the_migration_function_ships_the_migrations_it_is_asked_for() -> None:
    code_dir = REPO_ROOT / functions()["MigrateFunction"]["CodeUri"]
    assert (code_dir / "sql").resolve() == (REPO_ROOT / "sql").resolve()
    assert migrations_digest(code_dir / "sql") == migrations_digest(REPO_ROOT / "sql")


@pytest.mark.parametrize("name", sorted(functions()))
def test_exactly_the_functions_that_use_postgres_run_in_the_vpc(name: str) -> None:
    properties = functions()[name]
    if reads_database_secret(properties):
        assert properties.get("VpcConfig") == IN_VPC
    else:
        assert "VpcConfig" not in properties


def test_every_database_resource_exists_only_with_create_database() -> None:
    network_and_database = [k for k, v in RESOURCES.items() if v["Type"].startswith(("AWS::EC2::", "AWS::RDS::"))]
    assert len(network_and_database) > 15
    for logical_id in [*network_and_database, "DatabaseProxyRole"]:
        assert RESOURCES[logical_id].get("Condition") == "CreateDatabase", logical_id
    assert TEMPLATE["Conditions"]["CreateDatabase"] == {"Fn::Equals": [{"Ref": "CreateDatabase"}, "true"]}
    assert TEMPLATE["Parameters"]["CreateDatabase"]["Default"] == "true"


def test_the_cluster_is_encrypted_protected_backed_up_and_its_password_generated() -> None:
    cluster = RESOURCES["DatabaseCluster"]
    properties = cluster["Properties"]
    assert properties["Engine"] == "aurora-postgresql"
    assert properties["StorageEncrypted"] is True and properties["DeletionProtection"] is True
    assert properties["BackupRetentionPeriod"] >= 7
    assert properties["ManageMasterUserPassword"] is True and "MasterUserPassword" not in properties
    assert cluster["DeletionPolicy"] == cluster["UpdateReplacePolicy"] == "Snapshot"
    assert "ServerlessV2ScalingConfiguration" in properties
    assert RESOURCES["DatabaseInstance"]["Properties"]["DBInstanceClass"] == "db.serverless"
    assert RESOURCES["DatabaseInstance"]["Properties"]["PubliclyAccessible"] is False
    major, minor = (int(n) for n in TEMPLATE["Parameters"]["DatabaseEngineVersion"]["Default"].split("."))
    assert (major, minor) >= (16, 8)  # the first 16.x to ship pgvector 0.8.0


def test_only_the_functions_reach_the_proxy_and_only_the_proxy_reaches_the_cluster() -> None:
    def ingress_sources(group: str) -> set[str]:
        sources = set()
        for spec in RESOURCES.values():
            rule = spec["Properties"] if spec["Type"] == "AWS::EC2::SecurityGroupIngress" else None
            if rule is not None and rule["GroupId"]["Fn::GetAtt"][0] == group:
                sources.add(rule["SourceSecurityGroupId"]["Fn::GetAtt"][0])
        for rule in RESOURCES[group]["Properties"].get("SecurityGroupIngress", []):
            sources.add(rule.get("SourceSecurityGroupId", {}).get("Fn::GetAtt", [rule.get("CidrIp")])[0])
        return sources

    assert ingress_sources("DatabaseSecurityGroup") == {"DatabaseProxySecurityGroup"}
    assert ingress_sources("DatabaseProxySecurityGroup") == {"FunctionSecurityGroup"}
    assert ingress_sources("EndpointSecurityGroup") == {"FunctionSecurityGroup", "DatabaseProxySecurityGroup"}
    proxy = RESOURCES["DatabaseProxy"]["Properties"]
    assert proxy["RequireTLS"] is True and proxy["Auth"][0]["SecretArn"] == DB_SECRET["Fn::If"][1]


def services_granted(properties: dict[str, Any]) -> set[str]:
    """The AWS services a function's policies let it call: what it may need an endpoint for."""
    services = set()
    for policy in properties.get("Policies", []):
        if "Statement" in policy:
            for statement in policy["Statement"]:
                actions = statement["Action"] if isinstance(statement["Action"], list) else [statement["Action"]]
                services |= {action.split(":", 1)[0] for action in actions}
        else:
            for name in policy:
                prefix = next(p for p in POLICY_TEMPLATE_SERVICES if name.startswith(p))
                services.add(POLICY_TEMPLATE_SERVICES[prefix])
    return services


POLICY_TEMPLATE_SERVICES = {"DynamoDB": "dynamodb", "S3": "s3", "AWSSecretsManager": "secretsmanager", "KMS": "kms",
                            "SNS": "sns", "SQS": "sqs", "LambdaInvoke": "lambda", "StepFunctions": "states"}


def test_no_nat_and_an_endpoint_for_every_aws_service_a_vpc_function_may_call() -> None:
    types = {spec["Type"] for spec in RESOURCES.values()}
    assert not types & {"AWS::EC2::NatGateway", "AWS::EC2::InternetGateway", "AWS::EC2::EIP"}
    endpoints = {}
    for spec in RESOURCES.values():
        if spec["Type"] == "AWS::EC2::VPCEndpoint":
            service = spec["Properties"]["ServiceName"]["Fn::Sub"].rsplit(".", 1)[1]
            endpoints[service] = spec["Properties"]["VpcEndpointType"]
    assert endpoints["s3"] == endpoints["dynamodb"] == "Gateway"
    in_vpc = {name: properties for name, properties in functions().items() if "VpcConfig" in properties}
    assert len(in_vpc) >= 6
    for name, properties in in_vpc.items():
        missing = services_granted(properties) - set(endpoints)
        assert not missing, f"{name} may call {missing} but the VPC has no endpoint for it (and no NAT)"
    # The migration function answers CloudFormation at an S3 presigned URL: through the S3 gateway endpoint.
    assert "s3" in endpoints


def test_the_migrations_wait_for_the_whole_path_to_the_database() -> None:
    """MigrateFunction must not run before it can read the secret, reach the proxy and answer through S3."""
    condition, path, otherwise = RESOURCES["DatabaseMigrations"]["Properties"]["DatabasePath"]["Fn::If"]
    assert (condition, otherwise) == ("CreateDatabase", {"Ref": "AWS::NoValue"})
    waited_for = {ref["Ref"] for ref in path}
    rules = {k for k, v in RESOURCES.items() if v["Type"] in {"AWS::EC2::SecurityGroupIngress",
                                                              "AWS::EC2::SecurityGroupEgress"}}
    associations = {k for k, v in RESOURCES.items() if v["Type"] == "AWS::EC2::SubnetRouteTableAssociation"}
    assert {"DatabaseProxyTargetGroup", "SecretsManagerEndpoint", "S3Endpoint"} | rules | associations <= waited_for
    # The function itself waits for the proxy through its environment (CAREDESK_DB_HOST).
    host = TEMPLATE["Globals"]["Function"]["Environment"]["Variables"]["CAREDESK_DB_HOST"]
    proxy_endpoint = {"Fn::GetAtt": ["DatabaseProxy", "Endpoint"]}
    assert host == {"Fn::If": ["CreateDatabase", proxy_endpoint, {"Ref": "AWS::NoValue"}]}

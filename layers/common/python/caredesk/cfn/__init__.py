"""The one reader of template.yaml (or the deployed stack's original template).

Every part of CareDesk that needs something from the template asks here rather than parsing or
walking it itself: the governance posture, the embedded local stack, the local API and its
authorizer emulation, tools and tests. The template is read into plain intrinsic dicts
(`{"Ref": ...}`, `{"Fn::Sub": ...}`); resolving those to physical names is the caller's business.

- `parse`: YAML with CloudFormation's short-form tags, or JSON; a file or the deployed stack's.
- `references`: the logical id (or parameter) an intrinsic points at.
- `api`: the API's DefinitionBody, its routes, request schemas and Lambda authorizer.
- `policies`: who may touch what, from the IAM policies of functions, state machines and roles.
- `triggers`: the events that invoke a function (S3 notifications, API events, schedules).
- `defaults`: parameter defaults and the Globals every function inherits.
"""

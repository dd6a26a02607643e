"""Which sample event in events/ drives which function (`sam local invoke <Function> -e events/<file>`)."""

from __future__ import annotations

FUNCTION_EVENTS: dict[str, tuple[str, ...]] = {
    "IngestFunction": ("s3_object_created.json", "s3_object_removed.json"),
    "CalibrateFunction": ("calibrate_schedule.json",),
    "GuardFunction": ("guard_step.json",),
    "RetrieveFunction": ("retrieve_step.json",),
    "GenerateFunction": ("generate_step.json",),
    "ReviewFunction": ("review_step.json",),
    "GovernanceFunction": ("governance_request.json",),
    "PassageFunction": ("passage_request.json",),
    "UploadUrlFunction": ("upload_url_request.json",),
    "HandoversFunction": ("handovers_request.json",),
    "AuthorizerFunction": ("authorizer_request.json",),
    "MigrateFunction": ("migrate_create.json", "migrate_update.json", "migrate_delete.json"),
}
# Not a function's event: the POST /ask body (`curl -d @events/ask_request.json`), and SAM's env file.
OTHER_FILES = ("ask_request.json", "env.json")
# What each step's handler requires of the state (caredesk.contracts.parse_step_event).
STEP_REQUIRES: dict[str, tuple[str, ...]] = {
    "guard_step.json": (),
    "retrieve_step.json": ("guard",),
    "generate_step.json": ("guard", "retrieve"),
    "review_step.json": ("guard", "retrieve", "generate"),
}

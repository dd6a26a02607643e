"""`caredesk handovers list|show|close`: staff work through the questions handed over to a person.

Reads the running stack's staff work queue (drained into the HandoversTable on every command) and
writes each state change (shown, closed) as an audit item; caredesk.handovers has the rules. In AWS
the same commands run with the StaffRole's credentials (the only role the contact key lets decrypt).
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from typing import Any

from caredesk_local.running import find_stack


def add_parser(sub: Any) -> None:
    handovers = sub.add_parser("handovers", help="staff: list, show and close handovers (questions passed to a person)")
    actions = handovers.add_subparsers(dest="action", required=True)
    listing = actions.add_parser("list", help="open handovers, oldest first")
    listing.add_argument("--json", action="store_true")
    show = actions.add_parser("show", help="one handover with its masked conversation (audited)")
    show.add_argument("handover_id")
    show.add_argument("--reveal-contact", action="store_true",
                      help="decrypt the contact number the patient gave (audited; needs the staff role in AWS)")
    show.add_argument("--json", action="store_true")
    close = actions.add_parser("close", help="close a handover once a person has dealt with it (audited)")
    close.add_argument("handover_id")
    close.add_argument("--note", default="", help="what was done (keep it free of personal details)")
    close.add_argument("--json", action="store_true")
    for parser in (show, close):
        parser.add_argument("--by", default=_staff_name(), help="who is acting (default: your login name)")
    handovers.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from caredesk.errors import CareDeskError
    from caredesk.handovers import StaffAction

    desk = _desk()
    try:
        if args.action == "list":
            result: Any = desk.list_open()
            _print(result, args.json, _format_list)
        elif args.action == "show":
            result = desk.show(args.handover_id, StaffAction(args.by), reveal_contact=args.reveal_contact)
            _print(result, args.json, _format_one)
        else:
            result = desk.close(args.handover_id, StaffAction(args.by, note=args.note))
            _print(result, args.json, _format_one)
    except CareDeskError as exc:  # not found, already closed
        print(f"caredesk handovers: {exc}", file=sys.stderr)
        return 1
    return 0


def _desk() -> Any:
    return desk_for(find_stack())


def desk_for(stack: Any) -> Any:
    """The HandoverDesk over a RunningStack (the CLI's, and the local API's staff routes')."""
    from caredesk.audit import AuditTrail
    from caredesk.handovers import ContactSealer, HandoverDesk

    sqs = stack.client("sqs")
    return HandoverDesk(
        sqs=sqs,
        queue_url=sqs.get_queue_url(QueueName=stack.info["handover_queue"])["QueueUrl"],
        table=stack.table("handovers_table"),
        sealer=ContactSealer(stack.client("kms"), stack.info["handover_key"]),
        audit=AuditTrail(stack.table("audit_table")),
    )


def _staff_name() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "staff"


def _print(result: Any, as_json: bool, formatter: Any) -> None:
    print(json.dumps(result, indent=2, default=str) if as_json else formatter(result))


def _format_list(items: list[dict[str, Any]]) -> str:
    if not items:
        return "No open handovers."
    lines = [f"{len(items)} open handover(s):"]
    for item in items:
        who = f"patient {item['patient_id']}" if item.get("patient_id") else f"{item['tier']} caller (not signed in)"
        contact = "; call-back number given (encrypted)" if item.get("contact") else ""
        lines.append(f"  {item['handover_id']}  {item['opened_at']}  {who}{contact}  [{item['reason']}]")
        lines.append(f"      {item['masked_question']}")
    return "\n".join(lines)


def _format_one(item: dict[str, Any]) -> str:
    lines = [f"{item['handover_id']}  {item['status']}  opened {item['opened_at']}"]
    if item.get("closed_at"):
        lines.append(f"closed {item['closed_at']} by {item['closed_by']}")
    lines.append(f"caller: {item.get('patient_id') or item['tier'] + ' (not signed in)'}")
    if item.get("contact_number"):
        lines.append(f"call-back number: {item['contact_number']}")
    elif item.get("contact"):
        lines.append("call-back number: given (encrypted; --reveal-contact to decrypt, audited)")
    lines.append(f"reason: {item['reason']}   trace: {item['trace_id']}   session: {item['session_id']}")
    for earlier in item.get("conversation", []):
        lines.append(f"  earlier: {earlier}")
    lines.append(f"  question: {item['masked_question']}")
    return "\n".join(lines)

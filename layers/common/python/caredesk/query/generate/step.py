"""The Generate step: a cited draft from the retrieved passages, plus the appointment lookup tool.

The generator is the one configured by CAREDESK_GENERATOR (caredesk.query.generate.backends); whichever it is,
it sees only the masked question and passages of the caller's tier and below, and its draft goes
to the reviewer. A question mixing policy and an appointment gets both: the appointment facts come
from the lookup tool (authorised per caller), the policy sentences from the generator.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from caredesk.audit import AuditEvent, AuditTrail, Stopwatch
from caredesk.carried_vectors import carrying, query_vectors
from caredesk.contracts import AppointmentFact, GenerateResult, StepEvent
from caredesk.query.generate.appointments import AppointmentView, lookup_appointment, policy_question
from caredesk.query.generate.appointments import Caller as AppointmentCaller
from caredesk.query.generate.backends import Draft, Generator, generator_from_env
from caredesk.query.generate.backends.base import visible_passages
from caredesk.replies import APPOINTMENT_NOT_FOUND
from caredesk.tiers import Tier


def describe_appointment(view: AppointmentView) -> str:
    """One sentence built only from the record (the tool's fact; no model wording)."""
    follow_up = " A follow-up visit is required." if view.follow_up_required else ""
    return (
        f"Appointment {view.appointment_id} ({view.specialty} with {view.doctor}) on "
        f"{view.scheduled_date:%d %B %Y} at {view.scheduled_time:%H:%M} is {view.status}; "
        f"the consultation fee is {view.fee_inr} INR.{follow_up}"
    )


def run_generate(
    event: StepEvent,
    *,
    conn,
    embed: Callable[[Sequence[str]], np.ndarray],
    audit: AuditTrail,
    generator: Generator | None = None,
) -> GenerateResult:
    clock = Stopwatch()
    state = event.state
    guard = state.guard.result
    retrieved = state.retrieve.result
    tier = Tier.parse(state.caller.tier)
    caller = AppointmentCaller(tier=tier, patient_id=state.caller.patient_id or None)
    generator = generator or generator_from_env(embed)
    facts = []
    for appointment_id in guard.appointment_ids:
        # Unknown and not-yours get the same sentence: the reply never confirms a record exists.
        view = lookup_appointment(conn, appointment_id, caller)
        sentence = describe_appointment(view) if view is not None else APPOINTMENT_NOT_FOUND.format(id=appointment_id)
        facts.append(AppointmentFact(appointment_id=appointment_id, sentence=sentence, found=view is not None))
    passages = visible_passages(retrieved.passages, tier)
    question = policy_question(retrieved.query_used, guard.appointment_ids)
    with carrying(query_vectors(retrieved)):
        draft = (generator.compose(question, passages, conn=conn, tier=tier) if question
                 else Draft([], abstention="abstain:appointment_only"))
    sentences = draft.sentences
    audit.record(
        AuditEvent(
            trace_id=state.trace_id,
            step="generate",
            outcome="drafted" if sentences or facts else "empty",
            duration_ms=clock.ms(),
            session_id=state.session_id,
            tier=state.caller.tier,
            masked_query=guard.masked_query,
            citations=[{"chunk_id": cid} for s in sentences for cid in s.chunk_ids],
            scores={"sentences": float(len(sentences)), "appointment_facts": float(len(facts)),
                    "units_embedded": float(draft.units_embedded), **draft.signals},
            details={"backend": generator.name, "decision": draft.abstention or "answer"},
        )
    )
    return GenerateResult(
        backend=generator.name,
        sentences=sentences,
        abstention=draft.abstention,
        appointment_facts=facts,
        appointment_ids_asked=list(guard.appointment_ids),
    )

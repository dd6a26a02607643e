"""The staff's handover routes (GET /handovers, GET /handovers/{id}, POST /handovers/{id}/close) as
caredesk.api_routes answers them: staff only, before anything else; every failure a JSON 4xx from the
one error table; the desk (caredesk.handovers) does the work."""

from __future__ import annotations

import pytest
from caredesk import api_routes
from caredesk.handovers import (
    MAX_NOTE_CHARS,
    CloseRequest,
    HandoverAlreadyClosedError,
    HandoverNotFoundError,
    InvalidHandoverIdError,
    check_handover_id,
    new_handover_id,
)

HANDOVER_ID = "HO-1A2B3C4D"
DEEP = "[" * 1000 + "]" * 1000


class FakeDesk:
    """Records what the routes ask of the desk; raises what it is told to."""

    def __init__(self, fail_with: Exception | None = None) -> None:
        self.calls: list[tuple] = []
        self.fail_with = fail_with

    def _answer(self, *call, **result):
        self.calls.append(call)
        if self.fail_with is not None:
            raise self.fail_with
        return result

    def list_open(self):
        self.calls.append(("list",))
        return [{"handover_id": HANDOVER_ID, "status": "open"}]

    def show(self, handover_id, action, *, reveal_contact=False):
        return self._answer("show", handover_id, action.staff, reveal_contact, handover_id=handover_id)

    def close(self, handover_id, action):
        return self._answer("close", handover_id, action.staff, action.note, handover_id=handover_id,
                            status="closed")


def _never_built():
    raise AssertionError("the desk (queue, tables, key) is not touched for a caller who is refused")


ROUTES = {
    "list": lambda tier, desk: api_routes.handovers_list(tier_name=tier, desk=desk),
    "show": lambda tier, desk: api_routes.handover_show(HANDOVER_ID, reveal_contact="true", tier_name=tier,
                                                        staff="staff:nurse", desk=desk),
    "close": lambda tier, desk: api_routes.handover_close(HANDOVER_ID, DEEP, tier_name=tier, staff="staff:nurse",
                                                          desk=desk),
}


@pytest.mark.parametrize("route", sorted(ROUTES))
@pytest.mark.parametrize("tier", [None, "", "public", "patient", "admin"])
def test_only_staff_callers_and_they_are_refused_before_the_desk_or_the_body(route, tier):
    status, payload = ROUTES[route](tier, _never_built)
    assert status == 403 and payload["message"]


def test_staff_list_the_open_handovers():
    desk = FakeDesk()
    status, payload = api_routes.handovers_list(tier_name="staff", desk=lambda: desk)
    assert status == 200 and payload == {"handovers": [{"handover_id": HANDOVER_ID, "status": "open"}]}


@pytest.mark.parametrize(("reveal", "expected"), [(None, False), ("", False), ("false", False), ("true", True)])
def test_show_reveals_the_contact_only_when_asked(reveal, expected):
    desk = FakeDesk()
    status, _ = api_routes.handover_show(HANDOVER_ID, reveal_contact=reveal, tier_name="staff",
                                         staff="staff:nurse", desk=lambda: desk)
    assert status == 200 and desk.calls == [("show", HANDOVER_ID, "staff:nurse", expected)]


@pytest.mark.parametrize("reveal", ["yes", "1", "TRUE", "true\x00"])
def test_show_with_an_unclear_reveal_flag_is_a_400(reveal):
    status, payload = api_routes.handover_show(HANDOVER_ID, reveal_contact=reveal, tier_name="staff",
                                               staff="staff:nurse", desk=_never_built)
    assert status == 400 and "reveal_contact" in payload["message"]


@pytest.mark.parametrize("handover_id", [None, "", "HO-1a2b3c4d", "HO-1A2B3C4", "HO-1A2B3C4D5", "APT-1009",
                                         "HO-1A2B3C4D\x00", "../HO-1A2B3C4D", "HO-1A2B3C4D/close", "x" * 5000])
def test_a_malformed_handover_id_is_a_400_that_does_not_echo_it(handover_id):
    for answer in (
        api_routes.handover_show(handover_id, reveal_contact=None, tier_name="staff", staff="s", desk=_never_built),
        api_routes.handover_close(handover_id, None, tier_name="staff", staff="s", desk=_never_built),
    ):
        status, payload = answer
        assert status == 400 and payload["message"]
        assert not handover_id or handover_id not in payload["message"]


def test_a_new_handover_id_passes_its_own_check():
    for _ in range(50):
        handover_id = new_handover_id()
        assert check_handover_id(handover_id) == handover_id
    with pytest.raises(InvalidHandoverIdError):
        check_handover_id("HO-ZZZZZZZZ")


@pytest.mark.parametrize(("error", "status", "message"), [
    (HandoverNotFoundError("no handover HO-1A2B3C4D"), 404, "no such handover"),
    (HandoverAlreadyClosedError("handover HO-1A2B3C4D is already closed"), 409, "the handover is already closed"),
])
def test_unknown_and_already_closed_are_404_and_409(error, status, message):
    desk = FakeDesk(fail_with=error)
    assert api_routes.handover_show(HANDOVER_ID, reveal_contact=None, tier_name="staff", staff="s",
                                    desk=lambda: desk) == (status, {"message": message})
    assert api_routes.handover_close(HANDOVER_ID, None, tier_name="staff", staff="s",
                                     desk=lambda: desk) == (status, {"message": message})


@pytest.mark.parametrize(("raw", "note"), [(None, ""), ("", ""), (b"  \n", ""), ("{}", ""),
                                           ('{"note": "called back, all fine"}', "called back, all fine"),
                                           (b'{"note": "x"}', "x")])
def test_close_takes_an_optional_note(raw, note):
    desk = FakeDesk()
    status, payload = api_routes.handover_close(HANDOVER_ID, raw, tier_name="staff", staff="staff:nurse",
                                                desk=lambda: desk)
    assert status == 200 and payload["status"] == "closed"
    assert desk.calls == [("close", HANDOVER_ID, "staff:nurse", note)]


@pytest.mark.parametrize("raw", [
    DEEP, '{"note": ' + "9" * 5000 + "}", '{"note": 5}', '{"note": null}', '{"note": "a", "note": "b"}',
    '{"notes": "typo"}', '["note"]', '"just a string"', "{", '{"note": "' + "n" * (MAX_NOTE_CHARS + 1) + '"}',
], ids=["deep", "5000-digits", "number", "null", "duplicate-key", "unknown-field", "array", "string", "truncated",
        "too-long"])
def test_a_malformed_close_body_is_a_400_that_does_not_echo_it(raw):
    status, payload = api_routes.handover_close(HANDOVER_ID, raw, tier_name="staff", staff="s", desk=_never_built)
    assert status == 400 and payload["message"] and "typo" not in payload["message"]


def test_an_oversized_close_body_is_a_413():
    raw = '{"note": "' + "n" * (api_routes.MAX_BODY_BYTES + 1) + '"}'
    status, _ = api_routes.handover_close(HANDOVER_ID, raw, tier_name="staff", staff="s", desk=_never_built)
    assert status == 413


def test_the_close_request_model_names_the_field_and_rule_only():
    with pytest.raises(Exception, match=r"note: string_type") as raised:
        CloseRequest.from_body({"note": 12345})
    assert "12345" not in str(raised.value)


def test_the_acting_staff_member_is_the_principal_the_authorizer_named():
    event = {"requestContext": {"authorizer": {"principalId": "staff-nurse-desk", "tier": "staff"}},
             "pathParameters": {"handover_id": HANDOVER_ID}}
    assert api_routes.proxy_principal(event) == "staff-nurse-desk"
    assert api_routes.proxy_path(event, "handover_id") == HANDOVER_ID
    assert api_routes.proxy_principal({}) == "unknown" and api_routes.proxy_path({}, "handover_id") is None

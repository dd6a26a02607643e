"""The S3 notification records the ingest function handles (only the fields it uses)."""

from __future__ import annotations

from urllib.parse import unquote_plus

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from caredesk.errors import InvalidRequestError


class _Loose(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore", populate_by_name=True)


class S3Object(_Loose):
    key: str
    size: int | None = None
    version_id: str | None = Field(default=None, alias="versionId")
    sequencer: str


class S3Bucket(_Loose):
    name: str


class S3Entity(_Loose):
    bucket: S3Bucket
    object: S3Object


class S3Record(_Loose):
    event_name: str = Field(alias="eventName")
    s3: S3Entity

    @property
    def key(self) -> str:
        # S3 URL-encodes keys in notifications ("kb/public/fee+list.md" is "fee list.md").
        return unquote_plus(self.s3.object.key)

    @property
    def removed(self) -> bool:
        return self.event_name.startswith("ObjectRemoved")

    @property
    def delete_marker_created(self) -> bool:
        return self.event_name == "ObjectRemoved:DeleteMarkerCreated"

    @property
    def created(self) -> bool:
        return self.event_name.startswith("ObjectCreated")


class S3Notification(_Loose):
    records: list[S3Record] = Field(alias="Records", min_length=1)


def parse_notification(event: object) -> S3Notification:
    try:
        return S3Notification.model_validate(event)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['type']}" for e in exc.errors()[:5])
        raise InvalidRequestError(f"not an S3 notification: {problems}") from None

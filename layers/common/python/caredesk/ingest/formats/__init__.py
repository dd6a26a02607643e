"""One module per uploaded file format, each turning the file's bytes into the Markdown subset of
caredesk.ingest.markdown; caredesk.ingest.convert picks the module by extension.

Every converter is `convert_<format>(data, name, max_bytes) -> FormatResult` and raises a typed
`caredesk.errors` exception naming the file and the reason when the file cannot be read.
"""

from __future__ import annotations

# (a title from the file's own metadata or None, the Markdown, warnings about what was skipped)
FormatResult = tuple[str | None, str, list[str]]

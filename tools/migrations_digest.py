"""Keep template.yaml's DatabaseMigrations.MigrationsDigest equal to the digest of sql/.

    python -m tools.migrations_digest           # print the digest of sql/
    python -m tools.migrations_digest --write   # set it in template.yaml (that one line only) and in
                                                # the sample events events/migrate_*.json

The custom resource re-runs MigrateFunction exactly when this property changes, so a new migration
without a new digest would not be applied by the next deployment (tests/unit/test_deploy_template.py).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from caredesk.store.migrations import migrations_digest

REPO_ROOT = Path(__file__).resolve().parents[1]
DIGEST_LINE = re.compile(r"^(?P<indent>\s+MigrationsDigest: )[0-9a-f]{64}$", re.MULTILINE)


def write_digest(template: Path, digest: str) -> bool:
    """Set the digest in the template; True if the file changed. Exactly one such line must exist."""
    text = template.read_text(encoding="utf-8")
    matches = DIGEST_LINE.findall(text)
    if len(matches) != 1:
        raise SystemExit(f"{template}: expected one 'MigrationsDigest: <sha256>' line, found {len(matches)}")
    updated = DIGEST_LINE.sub(lambda m: m.group("indent") + digest, text)
    if updated == text:
        return False
    template.write_text(updated, encoding="utf-8")
    return True


def write_event_digests(events_dir: Path, digest: str) -> list[str]:
    """Set ResourceProperties.MigrationsDigest in events/migrate_*.json; the names of the files changed."""
    changed = []
    for path in sorted(events_dir.glob("migrate_*.json")):
        event = json.loads(path.read_text(encoding="utf-8"))
        if event["ResourceProperties"].get("MigrationsDigest") != digest:
            event["ResourceProperties"]["MigrationsDigest"] = digest
            path.write_text(json.dumps(event, indent=2) + "\n", encoding="utf-8")
            changed.append(path.name)
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="set the digest in template.yaml")
    args = parser.parse_args(argv)
    digest = migrations_digest(REPO_ROOT / "sql")
    if args.write:
        changed = write_digest(REPO_ROOT / "template.yaml", digest)
        print(f"template.yaml MigrationsDigest {'set to' if changed else 'already'} {digest}", file=sys.stderr)
        events = write_event_digests(REPO_ROOT / "events", digest)
        print(f"events updated: {', '.join(events) or 'none needed'}", file=sys.stderr)
    print(digest)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""`caredesk calibrate`: top-1 similarity of in- and out-of-scope dev probes -> the stored floor."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from caredesk.calibration import Floor, choose_floor, kb_version, save_floor
from caredesk.embedding import Embedder
from caredesk.store.db import connect
from caredesk.store.search import SearchMode, search
from caredesk.tiers import Tier

from caredesk_local.running import RunningStack


def load_probes(path: Path, split: str = "dev") -> list[dict[str, Any]]:
    probes = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [p for p in probes if p.get("split", "dev") == split]


def top_similarities(conn, embedder: Embedder, texts: list[str]) -> list[float]:
    vectors = embedder.embed(texts)
    tiers = Tier.PUBLIC.visible()
    scores = []
    for text, vector in zip(texts, vectors, strict=True):
        hits = search(conn, query_text=text, query_vector=vector, tiers=tiers, k=5, mode=SearchMode.HYBRID)
        scores.append(max((h.similarity for h in hits), default=0.0))
    return scores


def calibrate(stack: RunningStack, probes_path: Path) -> dict[str, Any]:
    return calibrate_dsn(stack.info["dsn"], Path(stack.info["model_dir"]), probes_path)


def calibrate_dsn(dsn: str, model_dir: Path, probes_path: Path) -> dict[str, Any]:
    probes = load_probes(probes_path)
    embedder = Embedder(model_dir)
    with connect(dsn) as conn:
        inside = top_similarities(conn, embedder, [p["text"] for p in probes if p["scope"] == "in"])
        outside = top_similarities(conn, embedder, [p["text"] for p in probes if p["scope"] == "out"])
        value, low, high = choose_floor(inside, outside)
        floor = Floor(value=value, kb_version=kb_version(conn), model_version=embedder.model_version,
                      in_scope_low=low, out_of_scope_high=high, probes=len(probes))
        save_floor(conn, floor)
    return {"floor": floor.value, "kb_version": floor.kb_version, "model_version": floor.model_version,
            "in_scope_low": low, "out_of_scope_high": high, "probes": len(probes),
            "in_scope": sorted(inside), "out_of_scope": sorted(outside)}

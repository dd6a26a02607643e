"""`caredesk calibrate`: measure and store the retrieval confidence floor for what is indexed now.

By default the calibration is automatic (`caredesk.calibration.measure`: in-scope probes derived from
the indexed documents, the generic out-of-scope probes shipped in the layer), as the CalibrateFunction
and the Retrieve step run it. `--probes FILE` measures on a hand-written probe file instead (its dev
split); `--compare FILE` also reports how the stored floor and the file's own floor classify that
file's probes, which is how eval/calibration_probes.jsonl is used now: to evaluate the automatic floor.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
from caredesk.calibration import Measurement, measure, measure_with_probes, recalibrate
from caredesk.calibration_probes import Probe
from caredesk.calibration_probes import top_similarities as probe_similarities
from caredesk.embedding import Embedder
from caredesk.store.db import connect
from caredesk.tiers import Tier

from caredesk_local.running import RunningStack

CALIBRATE_INVOKE_TIMEOUT_S = 310  # CalibrateFunction's Timeout (template.yaml) and a margin


def load_probes(path: Path, split: str = "dev") -> list[dict[str, Any]]:
    probes = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [p for p in probes if p.get("split", "dev") == split]


def top_similarities(conn, embedder: Embedder, texts: list[str]) -> list[float]:
    """Top similarity of each text as a public caller's search returns it (the evaluation report's view)."""
    probes = [Probe(text=text, scope="in", tier=Tier.PUBLIC.label) for text in texts]
    return probe_similarities(conn, embedder, probes)


def calibrate(stack: RunningStack, probes_path: Path | None = None, *,
              compare_path: Path | None = None) -> dict[str, Any]:
    return calibrate_dsn(stack.info["dsn"], Path(stack.info["model_dir"]), probes_path, compare_path=compare_path)


def calibrate_dsn(dsn: str, model_dir: Path, probes_path: Path | None = None, *,
                  compare_path: Path | None = None, embedder: Embedder | None = None) -> dict[str, Any]:
    """Measure (automatically, or on `probes_path`'s dev split) and store a floor for the current KB
    version, even if one is stored already; never fails for overlapping clusters (status `default`)."""
    embedder = embedder or Embedder(model_dir)
    measured: list[Measurement] = []

    def measure_floor(conn, embedder, *, k, mode, deadline):
        if probes_path is not None:
            measured.append(measure_with_probes(conn, embedder, load_probes(probes_path), k=k, mode=mode))
        else:
            measured.append(measure(conn, embedder, k=k, mode=mode, deadline=deadline))
        return measured[-1]

    with connect(dsn) as conn:
        tool = "caredesk calibrate --probes" if probes_path is not None else "caredesk calibrate"
        outcome, floor = recalibrate(conn, embedder, force=True, measure_floor=measure_floor, measured_by=tool)
        if floor is None:  # another calibrator holds the lock: measure without storing
            outcome, measurement = "busy (not stored)", measure_floor(conn, embedder, k=5, mode=None, deadline=None)
            floor = measurement.floor
        result = describe(measured[-1] if measured else None, floor, outcome)
        if compare_path is not None:
            result["comparison"] = compare_with_probes(conn, embedder, floor.value, load_probes(compare_path))
    return result


def describe(measurement: Measurement | None, floor, outcome: str) -> dict[str, Any]:
    result: dict[str, Any] = {
        "outcome": outcome, "floor": floor.value, "status": floor.status, "reason": floor.reason,
        "method": floor.method, "kb_version": floor.kb_version, "model_version": floor.model_version,
        "in_scope_low": floor.in_scope_low, "out_of_scope_high": floor.out_of_scope_high, "probes": floor.probes,
    }
    if measurement is not None:
        result["seconds"] = measurement.seconds
        result["in_scope"] = sorted(round(score, 4) for _, score in measurement.in_scope)
        result["out_of_scope"] = sorted(round(score, 4) for _, score in measurement.out_of_scope)
        result["lowest_in_scope"] = [{"probe": p.text, "chunk_id": p.chunk_id, "score": round(s, 4)}
                                     for p, s in sorted(measurement.in_scope, key=lambda item: item[1])[:5]]
        result["highest_out_of_scope"] = [{"probe": p.text, "score": round(s, 4)}
                                          for p, s in sorted(measurement.out_of_scope, key=lambda item: -item[1])[:5]]
    return result


def compare_with_probes(conn, embedder: Embedder, floor: float, probes: list[dict[str, Any]]) -> dict[str, Any]:
    """How `floor` and the floor measured on `probes` itself classify those probes (in-scope at or above
    the floor, out-of-scope below it), as a public caller's search scores them."""
    own = measure_with_probes(conn, embedder, probes)
    inside = [score for _, score in own.in_scope]
    outside = [score for _, score in own.out_of_scope]

    def correct(value: float) -> dict[str, Any]:
        hits_in = sum(score >= value for score in inside)
        hits_out = sum(score < value for score in outside)
        return {"floor": value, "in_scope_correct": hits_in, "out_of_scope_correct": hits_out,
                "correct": hits_in + hits_out, "of": len(inside) + len(outside)}

    return {
        "probes": len(probes),
        "probe_floor": {**correct(own.floor.value), "status": own.floor.status,
                        "in_scope_low": own.floor.in_scope_low, "out_of_scope_high": own.floor.out_of_scope_high},
        "this_floor": correct(floor),
        "in_scope_p5": float(np.percentile(inside, 5)) if inside else None,
        "out_of_scope_p95": float(np.percentile(outside, 95)) if outside else None,
    }


def invoke_calibrate_function(stack: Any) -> dict[str, Any]:
    """A deployed stack calibrates where its database is: its CalibrateFunction, forced (`{"force": true}`),
    the same measurement as `calibrate` here with the automatic probes. Its reply is the result."""
    from botocore.config import Config
    from botocore.exceptions import BotoCoreError, ClientError

    from caredesk_local.targets import TargetError

    name = stack.require("calibrate_function")
    # The function may take its whole Timeout (300 s); a retried invoke would measure twice.
    client = stack.client("lambda", config=Config(read_timeout=CALIBRATE_INVOKE_TIMEOUT_S, retries={"max_attempts": 0}))
    try:
        response = client.invoke(FunctionName=name, Payload=json.dumps({"force": True}).encode())
    except (ClientError, BotoCoreError) as error:
        raise TargetError(f"cannot invoke {name}: {error}") from None
    payload = json.loads(response["Payload"].read() or b"null")
    if response.get("FunctionError"):
        detail = payload.get("errorMessage") if isinstance(payload, dict) else payload
        raise TargetError(f"{name} failed: {payload.get('errorType', 'error') if isinstance(payload, dict) else ''} "
                          f"{detail}".strip())
    return {"function": name, **payload}


def format_result(result: dict[str, Any]) -> str:
    if result.get("floor") is None:  # another calibrator held the lock: nothing measured or stored
        return f"calibration: {result['outcome']} (no floor stored)"
    edges = ""
    if result.get("in_scope_low") is not None and result.get("out_of_scope_high") is not None:
        edges = f" (in-scope p5 {result['in_scope_low']:.3f}, out-of-scope p95 {result['out_of_scope_high']:.3f})"
    how = ", ".join(str(result[key]) for key in ("status", "method") if result.get(key))
    lines = [f"confidence floor {result['floor']:.4f} [{how}] for KB "
             f"{result['kb_version']}{edges}, {result['probes']} probes: {result['outcome']}"]
    if result.get("reason"):
        lines.append(f"  reason: {result['reason']}")
    for item in result.get("lowest_in_scope", [])[:3]:
        lines.append(f"  low in-scope  {item['score']:.3f}  {item['probe']}")
    for item in result.get("highest_out_of_scope", [])[:3]:
        lines.append(f"  high out-of-scope {item['score']:.3f}  {item['probe']}")
    comparison = result.get("comparison")
    if comparison:
        for name in ("this_floor", "probe_floor"):
            c = comparison[name]
            label = "this floor " if name == "this_floor" else "probe floor"
            lines.append(f"  {label} {c['floor']:.4f}: {c['correct']}/{c['of']} of the file's probes classified "
                         f"correctly (in-scope {c['in_scope_correct']}, out-of-scope {c['out_of_scope_correct']})")
    return "\n".join(lines)

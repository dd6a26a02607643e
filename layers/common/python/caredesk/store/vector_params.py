"""pgvector values between Python and the database in binary: sent as query parameters in pgvector's binary
form rather than as text, read back as `embedding::real[]` in binary.

Ingest writes one vector per chunk and one per answer unit (about five times as many). As text, a
384-dimension vector is about 7 KB of decimal digits: Python formats every float with `repr` and Postgres
parses them all again. The binary form (int16 dimension, int16 unused, big-endian float32 values, what
pgvector's `vector_recv` reads) is 1.5 KB and needs no formatting on either side. Measured on 15,000 unit
vectors (docs/benchmarks.md): 3.7 s to format and insert as text, 0.26 s as binary, with the stored
vectors bit-identical.

The parameter is sent with no type (oid 0), so the server gives it the type the statement expects
(`%s::vector`, or a vector column) and reads it with that type's binary input: no type lookup per
connection, and no dependence on the extension's oid. Reading, `real[]` in binary brings each float4 as it is
stored, in half the time of parsing its text.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

import numpy
import psycopg
from psycopg.adapt import Dumper
from psycopg.pq import Format

_HEADER = struct.Struct(">HH")  # dimension, unused (pgvector's binary layout)


class VectorParam:
    """A vector to send as a `vector` parameter: `conn.execute("... %s::vector", (VectorParam(v),))` after
    `use_binary_vectors(conn)`."""

    __slots__ = ("values",)

    def __init__(self, values: numpy.ndarray) -> None:
        values = numpy.asarray(values, dtype=numpy.float32)
        if values.ndim != 1:
            raise ValueError(f"a vector parameter must be one-dimensional, got shape {values.shape}")
        self.values = values


class _VectorBinaryDumper(Dumper):
    format = Format.BINARY
    oid = 0  # untyped: the server infers `vector` from the statement

    def dump(self, obj: VectorParam) -> bytes:
        return _HEADER.pack(obj.values.shape[0], 0) + obj.values.astype(">f4").tobytes()


def use_binary_vectors(conn: psycopg.Connection) -> None:
    """Let `conn` send VectorParam values. Idempotent and cheap: the connection's adapters are copied once,
    on the first registration."""
    conn.adapters.register_dumper(VectorParam, _VectorBinaryDumper)


def vector_from_real_array(values: Sequence[float]) -> numpy.ndarray:
    """A vector read as `embedding::real[]`: its float4 values arrive as Python floats, each exactly the stored
    float32, so converting back loses nothing."""
    return numpy.asarray(values, dtype=numpy.float32)

"""caredesk.store.vector_params: what a vector parameter accepts (the bytes it sends are checked against
Postgres in tests/integration/test_binary_vectors_in_store.py)."""

from __future__ import annotations

import numpy
import pytest
from caredesk.store.vector_params import VectorParam


def test_a_vector_parameter_holds_float32_values() -> None:
    assert VectorParam([0.5, 0.25]).values.dtype == numpy.float32


def test_a_vector_parameter_refuses_a_matrix() -> None:
    with pytest.raises(ValueError, match="one-dimensional"):
        VectorParam(numpy.zeros((2, 3), dtype=numpy.float32))

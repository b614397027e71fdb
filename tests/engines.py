"""The engines every shared test runs on (the bindings add ``"rust": splendor``)."""

from __future__ import annotations

from types import ModuleType

import splendor
import splendor.reference

ENGINES: dict[str, ModuleType] = {"reference": splendor.reference, "rust": splendor}

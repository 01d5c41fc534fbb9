"""Run as a script: import the settings (and gunicorn's configuration) with an environment that
records every name read, and print the names as JSON. Independent of docs_gen's parsing."""

import json
import os
import runpy
import sys
from pathlib import Path

READ: set[str] = set()
Environ = type(os.environ)


class Recording(Environ):  # type: ignore[misc, valid-type]
    def __getitem__(self, key: str) -> str:
        READ.add(key)
        return str(super().__getitem__(key))

    def __contains__(self, key: object) -> bool:
        READ.add(str(key))
        return super().__contains__(key)

    def setdefault(self, key: str, value: str) -> str:
        # A default the code sets for a library (MEM0_DIR, OPENBLAS_NUM_THREADS), not a read.
        if self.encodekey(key) not in self._data:
            self[key] = value
        return str(self.decodevalue(self._data[self.encodekey(key)]))


original = os.environ
os.environ = Recording(  # noqa: B003 - replaced, not cleared
    original._data,  # type: ignore[attr-defined]
    original.encodekey,
    original.decodekey,
    original.encodevalue,
    original.decodevalue,
)
root = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(root))
runpy.run_module("contextlayer.settings")
runpy.run_path(str(root / "gunicorn.conf.py"))
print(json.dumps(sorted(READ)))

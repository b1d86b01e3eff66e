"""Make ``extractors`` mean the package, not this test folder.

pytest puts ``tests/`` on ``sys.path`` (rootdir conftest, prepend import mode), and the
editable install's finder comes after the path finder, so ``import extractors`` would find
``tests/extractors`` as a namespace package (and spaCy's entry points would then fail to
import ``extractors.entities``). Putting the repository first fixes the lookup.
"""

from __future__ import annotations

import sys
from pathlib import Path

_REPO = str(Path(__file__).resolve().parents[2])
if _REPO not in sys.path[:1]:
    sys.path.insert(0, _REPO)
for _name in [m for m in sys.modules if m == "extractors" or m.startswith("extractors.")]:
    if getattr(sys.modules[_name], "__file__", None) is None and _name == "extractors":
        del sys.modules[_name]

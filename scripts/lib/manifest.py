"""Package.swift as JSON (`swift package dump-package`), for the scripts that read it.

In a scratch folder of its own: the build's is locked while a build or the tests run, and a
plain dump-package waits for it (3 minutes once, under `scripts/test`).
"""

import json
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def dump():
    with tempfile.TemporaryDirectory(prefix="outpost-manifest-") as scratch:
        out = subprocess.run(
            ["swift", "package", "--scratch-path", scratch, "dump-package"],
            cwd=ROOT, capture_output=True, text=True, check=True,
        )
    return json.loads(out.stdout)

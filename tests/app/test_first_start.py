"""Issue 23.6: a first start on a fresh data folder never imports torch in the server process. The index and
the ONNX query model are built by a separate process (services.build_index_in_child); the server then loads
what it wrote. Time and memory are measured by the e2e test and reported, not asserted here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]

SERVER_START = textwrap.dedent("""
    import json, sys
    from rulesjudge.app import services
    searcher = services.prepare_index(progress=False)
    hits = searcher.search("who becomes the monarch when the monarch leaves the game", k=3).hits
    print(json.dumps({"torch": "torch" in sys.modules, "sentence_transformers": "sentence_transformers" in
                      sys.modules, "hits": [h.id for h in hits]}))
""")


def _start(data: Path) -> dict[str, object]:
    env = {**os.environ, "RULESJUDGE_DATA": str(data), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", SERVER_START], env=env, capture_output=True, text=True,
                          timeout=900, cwd=PROJECT_ROOT, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_fresh_data_folder_is_indexed_by_a_child_and_the_server_never_imports_torch(tmp_path):
    fresh = _start(tmp_path / "data")  # nothing on disk: the child process builds the index
    assert fresh["torch"] is False and fresh["sentence_transformers"] is False
    assert any(str(hit).endswith("/725.4") for hit in fresh["hits"]), fresh["hits"]  # 725.4: the monarch rule
    warm = _start(tmp_path / "data")  # a restart finds it fresh: no child, no torch either
    assert warm["torch"] is False and warm["hits"] == fresh["hits"]

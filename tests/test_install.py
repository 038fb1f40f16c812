"""The project installs beside other projects: one name, ``rulesjudge``, in site-packages.

A fresh virtual environment gets a real (not editable) install; its dependencies come from the project's
own ``.venv`` through a path entry, so the test needs no network and no second torch.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with ``pip install .`` of a copy of the project: its ``bin`` folder."""
    if shutil.which("git") is None:
        pytest.skip("git is needed to copy the project's tracked files")
    work = tmp_path_factory.mktemp("install")
    source = work / "src"
    # A copy of the tracked files only: no build/ or .egg-info of the working tree leaks into the wheel.
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, files.decode().split("\0")):
        src, dst = ROOT / name, source / name
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():
            dst.symlink_to(os.readlink(src))
        elif src.exists():
            shutil.copy2(src, dst)
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    purelib = Path(sysconfig.get_paths(vars={"base": str(venv), "platbase": str(venv)})["purelib"])
    # The dependencies (and pip, setuptools) of the running environment, as a plain path entry: the
    # editable rulesjudge of .venv is a .pth hook there, which a path entry does not run.
    (purelib / "deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    python = venv / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--no-index",
         "--disable-pip-version-check", str(source)],
        check=True, capture_output=True, cwd=work,
    )
    return venv / "bin"


def _run(bin_dir: Path, *args: str, cwd: Path, data: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "RULESJUDGE_DATA": str(data), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    env.pop("PYTHONPATH", None)
    return subprocess.run([str(bin_dir / a) if i == 0 else a for i, a in enumerate(args)],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_only_the_rulesjudge_name_is_installed(installed: Path) -> None:
    purelib = next(installed.parent.glob("lib/python*/site-packages"))
    names = {p.name for p in purelib.iterdir() if not p.name.endswith((".dist-info", ".pth"))}
    assert names - {"__pycache__"} == {"rulesjudge"}  # why: app, corpus, scenarios, indexer would collide
    assert not (purelib / "rulesjudge" / "corpus").is_symlink()  # why: the wheel holds real files


def test_installed_command_answers_from_another_folder(installed: Path, tmp_path: Path) -> None:
    rule = _run(installed, "rulesjudge", "rule", "722.4", cwd=tmp_path, data=tmp_path / "data")
    assert rule.returncode == 0, rule.stderr
    assert "monarch" in rule.stdout.lower()  # why: 722.4 of the Monarch page's edition is built in
    check = _run(installed, "rulesjudge", "check", cwd=tmp_path, data=tmp_path / "data")
    assert check.returncode == 0, check.stdout + check.stderr
    assert " 0 failed" in check.stdout  # why: the installed scenario library passes


def test_bare_package_names_are_not_importable(installed: Path, tmp_path: Path) -> None:
    probe = _run(installed, "python", "-c", "import importlib.util as u; print(u.find_spec('corpus'))",
                 cwd=tmp_path, data=tmp_path / "data")
    assert probe.stdout.strip() == "None"  # why: only rulesjudge.corpus exists once installed

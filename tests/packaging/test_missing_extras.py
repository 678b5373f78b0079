"""Where the extras' packages are missing altogether (a finder refuses them), the tasks still run,
none of them is imported, and a feature that needs one names the extra to install.
test_core_install.py installs the core for real; a core dependency (AndroidViewClient) brings
matplotlib along there, so only this session shows summary.png naming its extra."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from pytest_mobile_agent.extras import PACKAGES, MissingExtra, require

REPO = Path(__file__).resolve().parents[2]
EXTRA_MODULES = ("openai", "onnxruntime", "rapidocr_onnxruntime", "matplotlib", "pyspng")

# Runs pytest as if the extras were not installed: their modules cannot be imported (a finder
# refuses them), and at the end none of them may have been imported at all.
RUNNER = """
import sys, pytest

BLOCKED = {blocked!r}


class CoreOnly:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}} (a core-only install)", name=name)
        return None


sys.meta_path.insert(0, CoreOnly())
code = pytest.main(sys.argv[1:])
imported = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
print("EXTRA MODULES IMPORTED:", imported)
sys.exit(code or (3 if imported else 0))
"""


def test_core_dependencies_leave_the_extras_out() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    core = " ".join(project["dependencies"])
    for distribution, extra in PACKAGES.values():
        assert distribution not in core
        assert any(distribution in dep for dep in project["optional-dependencies"][extra])
    (everything,) = project["optional-dependencies"]["all"]
    named = set(everything.removeprefix("pytest-mobile-agent[").removesuffix("]").split(","))
    assert named == {extra for _, extra in PACKAGES.values()} | {"docs"}


def test_calculator_tasks_run_with_the_oracle_without_the_extras(tmp_path: Path) -> None:
    (tmp_path / "run.py").write_text(RUNNER.format(blocked=EXTRA_MODULES))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(REPO)  # this checkout's package, run from a folder outside it
    done = subprocess.run(
        [
            sys.executable, "run.py", "-p", "no:cacheprovider", "--pyargs", "task_suites.mobileagentbench",
            "-m", "calculator", "--agent=oracle", "-n", "0", "-q",
            "--mobile-artifacts=artifacts", "--alluredir=allure-results", "--mobile-results=results.jsonl",
        ],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert "10 passed" in out
    assert "EXTRA MODULES IMPORTED: []" in out
    assert "summary.png not drawn: matplotlib is not installed: pip install 'pytest-mobile-agent[reports]'" in out
    assert (tmp_path / "results.jsonl").read_text().count('"type": "episode"') == 10
    assert not (tmp_path / "artifacts" / "summary.png").exists()


def test_a_missing_extra_names_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    with pytest.raises(
        MissingExtra, match=r"summary\.png needs matplotlib .*pip install 'pytest-mobile-agent\[reports\]'"
    ):
        require("matplotlib", "summary.png")

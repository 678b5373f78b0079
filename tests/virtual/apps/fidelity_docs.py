"""What the app tests' doc checks compare: an app's docs/fidelity page and the ids its model names."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
APPS = ROOT / "pytest_mobile_agent/virtual/apps"


def fidelity_doc(app: str) -> str:
    """docs/fidelity/<app>.md."""
    return (ROOT / f"docs/fidelity/{app}.md").read_text()


def literal_ids(source: str) -> set[str]:
    """The ids a model's source names as rid("…")."""
    return set(re.findall(r'rid\("([a-z0-9_]+)"\)', source))


def model_ids(app: str) -> set[str]:
    """The ids the app's modules (<app>/*.py) name: rid("…") and menu rows ("id", "Title", …)."""
    source = package_source(app)
    return literal_ids(source) | set(re.findall(r'\(\s*"([a-z][a-z_0-9]+)",\s*"[A-Z]', source))


def package_source(app: str) -> str:
    """The source of the app's package (pytest_mobile_agent/virtual/apps/<app>/), its modules joined."""
    return "".join(module.read_text() for module in sorted((APPS / app).glob("*.py")))


def screen_ids(tmp_path: Path, package: str) -> set[str]:
    """The ids (names after ":id/") of the package's views on each of its activities' screens,
    as a fresh device builds them."""
    from pytest_mobile_agent.virtual.boot import boot
    from pytest_mobile_agent.virtual.core.config import DeviceConfig

    device = boot(Path(tempfile.mkdtemp(dir=tmp_path)), DeviceConfig(serial="doc"))
    app = device.packages.app(package)
    names: set[str] = set()
    for cls in (app.main_activity, *app.activities):
        names |= {v.id.split(":id/")[1] for v in cls(app, {}).content().walk() if v.id.startswith(package)}
    return names

"""Checks the APK that listener_app/build.sh built (it must have been run before the tests)."""

from __future__ import annotations

import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from pytest_mobile_agent.device.listener import shipped_apk_path
from pytest_mobile_agent.events.schema import (
    LISTENER_PACKAGE,
    LISTENER_SERVICE,
    LISTENER_VERSION_CODE,
)
from pytest_mobile_agent.virtual.system.apk import read_manifest

ROOT = Path(__file__).resolve().parents[2]
BUILT = ROOT / "listener_app/build/listener.apk"
HOW = "run `sudo bash listener_app/install-build-deps.sh && bash listener_app/build.sh` first"


@pytest.fixture(scope="module")
def built_apk() -> Path:
    if not BUILT.is_file():
        pytest.fail(f"{BUILT.relative_to(ROOT)} is missing: {HOW}")
    return BUILT


def tool(name: str, *args: str) -> str:
    if shutil.which(name) is None:
        pytest.fail(f"{name} not found: {HOW}")
    done = subprocess.run([name, *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{name} {' '.join(args)} failed:\n{done.stdout}{done.stderr}"
    return done.stdout


def test_badging_shows_package_version_and_service(built_apk: Path) -> None:
    badging = tool("aapt", "dump", "badging", str(built_apk))
    assert f"package: name='{LISTENER_PACKAGE}' versionCode='{LISTENER_VERSION_CODE}' versionName='1.1'" in badging
    assert "provides-component:'accessibility'" in badging
    assert "uses-permission: name='android.permission.INTERNET'" in badging
    assert int(re.search(r"targetSdkVersion:'(\d+)'", badging).group(1)) >= 23  # type: ignore[union-attr]


def test_read_manifest_agrees_with_aapt(built_apk: Path) -> None:
    info = read_manifest(built_apk)
    service_class = LISTENER_SERVICE.replace("/.", ".")
    assert info.package == LISTENER_PACKAGE
    assert info.version_code == LISTENER_VERSION_CODE
    assert info.version_name == "1.1"
    assert info.services == [service_class]
    tree = tool("aapt", "dump", "xmltree", str(built_apk), "AndroidManifest.xml")
    assert '"android.permission.BIND_ACCESSIBILITY_SERVICE"' in tree


def test_signature_verifies(built_apk: Path) -> None:
    out = tool("apksigner", "verify", "--verbose", str(built_apk))
    assert "Verified using v2 scheme (APK Signature Scheme v2): true" in out


def test_dex_holds_the_service_and_no_kotlin(built_apk: Path, tmp_path: Path) -> None:
    with zipfile.ZipFile(built_apk) as zf:
        (tmp_path / "classes.dex").write_bytes(zf.read("classes.dex"))
        # Android 11+ refuses an APK targeting API 30 whose resources.arsc is compressed.
        assert zf.getinfo("resources.arsc").compress_type == zipfile.ZIP_STORED
        assert "res/xml/accessibility_service_config.xml" in zf.namelist()
    dump = tool("dexdump", str(tmp_path / "classes.dex"))
    classes = set(re.findall(r"Class descriptor\s+: '(L[^']+;)'", dump))
    assert "Lio/pytestmobileagent/listener/EventStreamService;" in classes
    assert "Lio/pytestmobileagent/listener/JsonLineWriter;" in classes
    assert not any(c.startswith("Lkotlin/") for c in classes)


def test_service_config_asks_for_every_event(built_apk: Path) -> None:
    tree = tool("aapt", "dump", "xmltree", str(built_apk), "res/xml/accessibility_service_config.xml")
    assert "accessibilityEventTypes(0x01010380)=(type 0x11)0xffffffff" in tree
    assert "canRetrieveWindowContent(0x01010385)=(type 0x12)0xffffffff" in tree
    flags = int(re.search(r"accessibilityFlags\(0x01010384\)=\(type 0x11\)(0x[0-9a-f]+)", tree).group(1), 16)  # type: ignore[union-attr]
    assert flags & 0x10, "flagReportViewIds is not set"


def test_shipped_copy_is_the_build(built_apk: Path) -> None:
    assert shipped_apk_path().read_bytes() == built_apk.read_bytes()

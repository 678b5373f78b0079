"""read_manifest on binary XML built here (UTF-8 and UTF-16 string pools) and on bad input."""

from __future__ import annotations

import contextlib
import io
import struct
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_mobile_agent.virtual.system.apk import (
    ANDROID_NS,
    ApkInfo,
    InvalidApk,
    ResourceRef,
    parse_axml,
    read_manifest,
)

ATTR_IDS = {"name": 0x01010003, "versionCode": 0x0101021B, "versionName": 0x0101021C}
STRIPPED = ["versionCode", "versionName", "name"]
STRING, INT_DEC, INT_HEX, BOOL, REF = 0x03, 0x10, 0x11, 0x12, 0x01


class Axml:
    """Writes Android binary XML the way aapt lays it out (enough for manifests)."""

    def __init__(self, utf8: bool, strip_names: bool = False) -> None:
        self.utf8 = utf8
        self.strip_names = strip_names  # like shrinkers: attribute names only via resource ids
        self.strings: list[str] = []
        self.body = b""

    def s(self, value: str) -> int:
        if value not in self.strings:
            self.strings.append(value)
        return self.strings.index(value)

    def start(self, name: str, attrs: list[tuple[str, int, object]]) -> None:
        raw_attrs = b""
        for aname, dtype, value in attrs:
            ns = 0xFFFFFFFF if aname == "package" else self.s(ANDROID_NS)
            if self.strip_names and aname in ATTR_IDS:
                key = STRIPPED.index(aname)  # an empty name string the resource map explains
            else:
                key = self.s(aname)
            if dtype == STRING:
                raw = data = self.s(value)  # type: ignore[arg-type]
            else:
                raw, data = 0xFFFFFFFF, int(value) & 0xFFFFFFFF  # type: ignore[call-overload]
            raw_attrs += struct.pack("<IIIHBBI", ns, key, raw, 8, 0, dtype, data)
        ext = struct.pack("<IIHHHHHH", 0xFFFFFFFF, self.s(name), 20, 20, len(attrs), 0, 0, 0)
        payload = struct.pack("<II", 1, 0xFFFFFFFF) + ext + raw_attrs
        self.body += struct.pack("<HHI", 0x0102, 16, 8 + len(payload)) + payload

    def end(self, name: str) -> None:
        payload = struct.pack("<IIII", 1, 0xFFFFFFFF, 0xFFFFFFFF, self.s(name))
        self.body += struct.pack("<HHI", 0x0103, 16, 8 + len(payload)) + payload

    def build(self) -> bytes:
        # Attribute-name strings come first so the resource map lines up with them.
        data = b""
        offsets = []
        for value in self.strings:
            offsets.append(len(data))
            if self.utf8:
                raw = value.encode("utf-8")
                data += _len8(len(value)) + _len8(len(raw)) + raw + b"\0"
            else:
                units = value.encode("utf-16-le")
                data += struct.pack("<H", len(units) // 2) + units + b"\0\0"
        data += b"\0" * (-len(data) % 4)
        count = len(self.strings)
        start = 28 + 4 * count
        header = struct.pack("<HHIIIIII", 1, 28, start + len(data), count, 0, 0x100 if self.utf8 else 0, start, 0)
        pool = header + struct.pack(f"<{count}I", *offsets) + data
        ids = [ATTR_IDS.get(name, 0) for name in self.strings]
        while ids and ids[-1] == 0:
            ids.pop()
        if self.strip_names:
            ids = [ATTR_IDS[name] for name in STRIPPED]
        resmap = struct.pack("<HHI", 0x0180, 8, 8 + 4 * len(ids)) + struct.pack(f"<{len(ids)}I", *ids)
        chunks = pool + resmap + self.body
        return struct.pack("<HHI", 3, 8, 8 + len(chunks)) + chunks


def _len8(n: int) -> bytes:
    return bytes([n]) if n < 0x80 else bytes([0x80 | (n >> 8), n & 0xFF])


def manifest(utf8: bool, strip_names: bool = False, version_name: object = "2.5-β") -> bytes:
    x = Axml(utf8, strip_names)
    if strip_names:  # pool slots 0..2: the stripped names, left empty
        x.strings = ["", "", ""]
    vn = (REF, 0x7F030000) if isinstance(version_name, ResourceRef) else (STRING, version_name)
    x.start(
        "manifest",
        [
            ("versionCode", INT_DEC, 42),
            ("versionName", *vn),  # type: ignore[list-item]
            ("package", STRING, "com.example.app"),
        ],
    )
    x.start("uses-sdk", [("minSdkVersion", INT_DEC, 21)])
    x.end("uses-sdk")
    x.start("application", [("debuggable", BOOL, 0xFFFFFFFF), ("label", REF, 0x7F010000)])
    for name in (".Short", "Bare", "org.other.Full" + "x" * 200):
        x.start("service", [("name", STRING, name), ("exported", BOOL, 0)])
        x.start("intent-filter", [])
        x.end("intent-filter")
        x.end("service")
    x.start("activity", [("name", STRING, ".NotAService")])
    x.end("activity")
    x.end("application")
    x.end("manifest")
    return x.build()


def apk(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return buf.getvalue()


SERVICES = ["com.example.app.Short", "com.example.app.Bare", "org.other.Full" + "x" * 200]


@pytest.mark.parametrize("utf8", [True, False], ids=["utf8-pool", "utf16-pool"])
def test_reads_package_version_and_services(utf8: bool, tmp_path: Path) -> None:
    data = apk({"AndroidManifest.xml": manifest(utf8), "classes.dex": b"dex\n035\0"})
    expected = ApkInfo("com.example.app", 42, "2.5-β", SERVICES)
    assert read_manifest(data) == expected
    path = tmp_path / "app.apk"
    path.write_bytes(data)
    assert read_manifest(path) == expected
    assert read_manifest(str(path)) == expected


def test_typed_values() -> None:
    root = parse_axml(manifest(utf8=True))
    app = root.children[1]
    assert app.attrs == {"debuggable": True, "label": ResourceRef(0x7F010000)}
    assert root.children[0].attrs == {"minSdkVersion": 21}


def test_attribute_names_from_the_resource_map() -> None:
    info = read_manifest(apk({"AndroidManifest.xml": manifest(utf8=False, strip_names=True)}))
    assert info == ApkInfo("com.example.app", 42, "2.5-β", SERVICES)


def test_version_name_from_a_resource_is_unknown() -> None:
    data = apk({"AndroidManifest.xml": manifest(utf8=True, version_name=ResourceRef(1))})
    assert read_manifest(data).version_name is None


@pytest.mark.parametrize(
    "data, message",
    [
        (b"PK\x03\x04 not really", "not an APK"),
        (b"", "not an APK"),
        (apk({"classes.dex": b""}), "no AndroidManifest.xml"),
        (apk({"AndroidManifest.xml": b"<manifest/>"}), "not binary XML"),
        (apk({"AndroidManifest.xml": b"\x03\x00"}), "too short"),
        (apk({"AndroidManifest.xml": manifest(True)[:300]}), "truncated: 300 of"),
    ],
    ids=["bad-zip", "empty", "no-manifest", "text-xml", "short", "truncated"],
)
def test_invalid_apks(data: bytes, message: str) -> None:
    with pytest.raises(InvalidApk, match=message):
        read_manifest(data)


def test_missing_package_and_wrong_root() -> None:
    x = Axml(utf8=True)
    x.start("manifest", [("versionCode", INT_DEC, 1)])
    x.end("manifest")
    with pytest.raises(InvalidApk, match="no package attribute"):
        read_manifest(apk({"AndroidManifest.xml": x.build()}))
    y = Axml(utf8=True)
    y.start("resources", [])
    y.end("resources")
    with pytest.raises(InvalidApk, match="root element is <resources>"):
        read_manifest(apk({"AndroidManifest.xml": y.build()}))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_corrupt_manifests_raise_only_invalid_apk(data: st.DataObject) -> None:
    blob = bytearray(manifest(data.draw(st.booleans())))
    for _ in range(data.draw(st.integers(1, 8))):
        pos = data.draw(st.integers(0, len(blob) - 1))
        blob[pos] = data.draw(st.integers(0, 255))
    if data.draw(st.booleans()):
        blob = blob[: data.draw(st.integers(0, len(blob)))]
    with contextlib.suppress(InvalidApk):
        read_manifest(apk({"AndroidManifest.xml": bytes(blob)}))

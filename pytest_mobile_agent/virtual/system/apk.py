"""Reads package name, version and services from an APK's binary AndroidManifest.xml.

APKs carry the manifest as Android's binary XML ("AXML"): a chunk stream with a string pool
(UTF-8 or UTF-16), an optional resource-id map, and start/end element chunks whose attributes
hold typed values. Only what ``pm install`` needs is decoded.
"""

from __future__ import annotations

import io
import os
import struct
import zipfile
import zlib
from dataclasses import dataclass, field

ANDROID_NS = "http://schemas.android.com/apk/res/android"

_RES_XML = 0x0003
_STRING_POOL = 0x0001
_RESOURCE_MAP = 0x0180
_START_ELEMENT = 0x0102
_END_ELEMENT = 0x0103
_UTF8_FLAG = 0x100
_NO_INDEX = 0xFFFFFFFF

_TYPE_REFERENCE = 0x01
_TYPE_STRING = 0x03
_TYPE_INT_DEC = 0x10
_TYPE_INT_HEX = 0x11
_TYPE_BOOLEAN = 0x12

# Tools that strip attribute names leave only these ids (android.R.attr) to go by.
_ATTR_IDS = {0x01010003: "name", 0x0101021B: "versionCode", 0x0101021C: "versionName"}


class InvalidApk(ValueError):
    """Not an APK, or its manifest cannot be decoded."""


@dataclass(frozen=True)
class ApkInfo:
    package: str
    version_code: int
    version_name: str | None
    services: list[str] = field(default_factory=list)  # fully qualified class names


@dataclass(frozen=True)
class ResourceRef:
    """An attribute that points at a resource (``@0x7f...``) instead of holding a value."""

    id: int


@dataclass
class XmlElement:
    name: str
    attrs: dict[str, object]
    children: list[XmlElement] = field(default_factory=list)


def read_manifest(apk: bytes | str | os.PathLike[str]) -> ApkInfo:
    """Decodes the manifest of an APK given as bytes or as a path."""
    source = io.BytesIO(apk) if isinstance(apk, bytes | bytearray) else apk
    try:
        with zipfile.ZipFile(source) as zf:
            names = set(zf.namelist())
            data = zf.read("AndroidManifest.xml") if "AndroidManifest.xml" in names else None
    except zipfile.BadZipFile as exc:
        raise InvalidApk(f"not an APK (not a readable zip file): {exc}") from None
    except (zipfile.LargeZipFile, NotImplementedError, EOFError, ValueError, zlib.error) as exc:
        raise InvalidApk(f"cannot read APK: {exc}") from None
    if data is None:
        raise InvalidApk("APK has no AndroidManifest.xml")
    return manifest_info(parse_axml(data))


def manifest_info(root: XmlElement) -> ApkInfo:
    if root.name != "manifest":
        raise InvalidApk(f"manifest root element is <{root.name}>, not <manifest>")
    package = root.attrs.get("package")
    if not isinstance(package, str) or not package:
        raise InvalidApk("manifest has no package attribute")
    code = root.attrs.get("versionCode", 0)  # Android's default when absent
    if not isinstance(code, int) or isinstance(code, bool):
        raise InvalidApk(f"versionCode is not an integer: {code!r}")
    name = root.attrs.get("versionName")
    services = [
        _qualify(package, svc.attrs.get("name"))
        for app in root.children
        if app.name == "application"
        for svc in app.children
        if svc.name == "service"
    ]
    return ApkInfo(package, code, name if isinstance(name, str) else None, services)


def _qualify(package: str, name: object) -> str:
    if not isinstance(name, str) or not name:
        raise InvalidApk("a <service> has no android:name")
    if name.startswith("."):
        return package + name
    return name if "." in name else f"{package}.{name}"


def parse_axml(data: bytes) -> XmlElement:
    """Decodes binary XML into a tree of elements (attributes keyed by local name)."""
    if len(data) < 8:
        raise InvalidApk("manifest is too short to be binary XML")
    kind, header, size = struct.unpack_from("<HHI", data, 0)
    if kind != _RES_XML or header < 8:
        raise InvalidApk("manifest is not binary XML (bad file header)")
    if size > len(data):
        raise InvalidApk(f"binary XML is truncated: {len(data)} of {size} bytes")
    strings: list[str] = []
    res_ids: list[int] = []
    stack: list[XmlElement] = []
    root: XmlElement | None = None
    pos = header
    while pos + 8 <= size:
        kind, header, length = struct.unpack_from("<HHI", data, pos)
        if header < 8 or length < header or pos + length > size:
            raise InvalidApk(f"corrupt chunk at offset {pos}")
        chunk = data[pos : pos + length]
        if kind == _STRING_POOL:
            strings = _string_pool(chunk, header)
        elif kind == _RESOURCE_MAP:
            res_ids = list(struct.unpack_from(f"<{(length - header) // 4}I", chunk, header))
        elif kind == _START_ELEMENT:
            element = _start_element(chunk, header, strings, res_ids)
            if stack:
                stack[-1].children.append(element)
            elif root is None:
                root = element
            else:
                raise InvalidApk("binary XML has more than one root element")
            stack.append(element)
        elif kind == _END_ELEMENT:
            if not stack:
                raise InvalidApk(f"unbalanced end element at offset {pos}")
            stack.pop()
        pos += length
    if root is None:
        raise InvalidApk("binary XML has no elements")
    return root


def _string_pool(chunk: bytes, header: int) -> list[str]:
    if header < 28:
        raise InvalidApk("string pool header too short")
    count, _styles, flags, start, _ = struct.unpack_from("<5I", chunk, 8)
    if header + 4 * count > len(chunk) or start > len(chunk):
        raise InvalidApk("string pool offsets out of range")
    offsets = struct.unpack_from(f"<{count}I", chunk, header)
    decode = _utf8_at if flags & _UTF8_FLAG else _utf16_at
    try:
        return [decode(chunk, start + off) for off in offsets]
    except (IndexError, struct.error) as exc:
        raise InvalidApk(f"string pool entry out of range: {exc}") from None


def _utf8_at(buf: bytes, pos: int) -> str:
    # Two lengths (UTF-16 units, then bytes), each one byte or two with the high bit set.
    _units, pos = _len8(buf, pos)
    nbytes, pos = _len8(buf, pos)
    if pos + nbytes > len(buf):
        raise IndexError("UTF-8 string runs past the pool")
    return buf[pos : pos + nbytes].decode("utf-8", errors="replace")


def _len8(buf: bytes, pos: int) -> tuple[int, int]:
    first = buf[pos]
    if first & 0x80:
        return ((first & 0x7F) << 8) | buf[pos + 1], pos + 2
    return first, pos + 1


def _utf16_at(buf: bytes, pos: int) -> str:
    (units,) = struct.unpack_from("<H", buf, pos)
    pos += 2
    if units & 0x8000:
        (low,) = struct.unpack_from("<H", buf, pos)
        units = ((units & 0x7FFF) << 16) | low
        pos += 2
    if pos + 2 * units > len(buf):
        raise IndexError("UTF-16 string runs past the pool")
    return buf[pos : pos + 2 * units].decode("utf-16-le", errors="replace")


def _string(strings: list[str], index: int) -> str:
    if index == _NO_INDEX:
        return ""
    if index >= len(strings):
        raise InvalidApk(f"string index {index} outside the pool of {len(strings)}")
    return strings[index]


def _start_element(chunk: bytes, header: int, strings: list[str], res_ids: list[int]) -> XmlElement:
    if header + 20 > len(chunk):
        raise InvalidApk("start element chunk too short")
    _ns, name, attr_start, attr_size, attr_count = struct.unpack_from("<IIHHH", chunk, header)
    base = header + attr_start
    if attr_size < 20 or base + attr_size * attr_count > len(chunk):
        raise InvalidApk("element attributes out of range")
    attrs: dict[str, object] = {}
    for i in range(attr_count):
        _ans, aname, raw, _vsize, _res0, dtype, value = struct.unpack_from("<IIIHBBI", chunk, base + i * attr_size)
        key = _string(strings, aname)
        if not key and aname < len(res_ids):
            key = _ATTR_IDS.get(res_ids[aname], f"0x{res_ids[aname]:08x}")
        attrs[key] = _value(strings, raw, dtype, value)
    return XmlElement(_string(strings, name), attrs)


def _value(strings: list[str], raw: int, dtype: int, value: int) -> object:
    if dtype == _TYPE_STRING:
        return _string(strings, value)
    if dtype == _TYPE_INT_DEC:
        return value - (1 << 32) if value & 0x80000000 else value
    if dtype == _TYPE_INT_HEX:
        return value
    if dtype == _TYPE_BOOLEAN:
        return value != 0
    if dtype == _TYPE_REFERENCE:
        return ResourceRef(value)  # e.g. a versionName from @string: not resolvable here
    if raw != _NO_INDEX:
        return _string(strings, raw)
    return value

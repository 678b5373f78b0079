"""Import the ten Simple Mobile Tools apps' string resources (en and zh-CN) as the package's data.

    python scripts/import_app_strings.py /path/with/the/clones

Each clone is a directory named like its GitHub repository (Simple-Calculator, Simple-Commons,
...) or a bare mirror `SimpleMobileTools+Simple-Calculator/repo` (read at HEAD with git). Writes
`pytest_mobile_agent/virtual/resources/strings/<package>.json`: {"en": {name: text}, "zh-CN": {...}},
plurals as `name#one` / `name#other`, with Android's escapes undone.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "pytest_mobile_agent" / "virtual" / "resources" / "strings"
REPOS = {
    "Simple-Commons": ("commons", "commons/src/main/res"),
    "Simple-App-Launcher": ("com.simplemobiletools.applauncher", "app/src/main/res"),
    "Simple-Calculator": ("com.simplemobiletools.calculator", "app/src/main/res"),
    "Simple-Calendar": ("com.simplemobiletools.calendar.pro", "app/src/main/res"),
    "Simple-Contacts": ("com.simplemobiletools.contacts.pro", "app/src/main/res"),
    "Simple-File-Manager": ("com.simplemobiletools.filemanager.pro", "app/src/main/res"),
    "Simple-Gallery": ("com.simplemobiletools.gallery.pro", "app/src/main/res"),
    "Simple-Music-Player": ("com.simplemobiletools.musicplayer", "app/src/main/res"),
    "Simple-Notes": ("com.simplemobiletools.notes.pro", "app/src/main/res"),
    "Simple-SMS-Messenger": ("com.simplemobiletools.smsmessenger", "app/src/main/res"),
    "Simple-Voice-Recorder": ("com.simplemobiletools.voicerecorder", "app/src/main/res"),
}
LOCALE_DIRS = {"en": "values", "zh-CN": "values-zh-rCN"}
_ESCAPES = {"n": "\n", "t": "\t", "'": "'", '"': '"', "@": "@", "?": "?", "\\": "\\"}


def unescape(raw: str) -> str:
    """Android's resource string rules: outer quotes keep whitespace, else runs of it collapse;
    a backslash escapes the next character."""
    raw = raw.strip()
    if len(raw) >= 2 and raw[0] == raw[-1] == '"':
        raw = raw[1:-1]
    else:
        raw = re.sub(r"\s+", " ", raw)
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), raw)


def parse(xml: str) -> dict[str, str]:
    strings: dict[str, str] = {}
    for el in ET.fromstring(xml):
        name = el.get("name")
        if not name or el.get("translatable") == "false" and el.tag != "string":
            continue
        if el.tag == "string":
            strings[name] = unescape("".join(el.itertext()))
        elif el.tag == "plurals":
            for item in el:
                strings[f"{name}#{item.get('quantity')}"] = unescape("".join(item.itertext()))
    return strings


def read(root: Path, rel: str) -> str | None:
    if (root / rel).is_file():
        return (root / rel).read_text(encoding="utf-8")
    if (root / "HEAD").is_file():  # a bare mirror
        done = subprocess.run(["git", "-C", str(root), "show", f"HEAD:{rel}"], capture_output=True, text=True)
        return done.stdout if done.returncode == 0 else None
    return None


def clone_dir(base: Path, repo: str) -> Path:
    for candidate in (base / repo, base / f"SimpleMobileTools+{repo}" / "repo"):
        if candidate.exists():
            return candidate
    raise SystemExit(f"no clone of SimpleMobileTools/{repo} under {base}")


def main(base: Path) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for repo, (package, res) in REPOS.items():
        root = clone_dir(base, repo)
        tables = {}
        for locale, folder in LOCALE_DIRS.items():
            xml = read(root, f"{res}/{folder}/strings.xml")
            if xml is None:
                raise SystemExit(f"{repo}: {res}/{folder}/strings.xml missing")
            tables[locale] = parse(xml)
        tables["zh-CN"] = {k: v for k, v in tables["zh-CN"].items() if k in tables["en"]}
        (OUT / f"{package}.json").write_text(json.dumps(tables, ensure_ascii=False, indent=0, sort_keys=True) + "\n")
        print(f"{package}: {len(tables['en'])} en, {len(tables['zh-CN'])} zh-CN")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(Path(sys.argv[1]))

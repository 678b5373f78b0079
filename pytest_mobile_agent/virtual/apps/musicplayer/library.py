"""Simple Music Player's media library: the scan of shared storage, ID3v2 tags, sorting.

The real SimpleMediaScanner reads MediaStore and walks the storage for audio files
(`findTracksManually`: hidden files and `.nomedia` folders skipped), reads their tags with
MediaMetadataRetriever and stores tracks, albums, artists and the "All tracks" playlist in its
Room database. Here a walk of /sdcard and a small ID3v2 reader of our own do the same; the
result is kept in the app's data dir, so the tabs show what the last scan found.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

SHARED = "/storage/emulated/0"
AUDIO_EXTENSIONS = {"mp3", "wav", "wma", "ogg", "m4a", "opus", "flac", "aac", "m4b", "mid", "midi", "amr", "3ga"}
UNKNOWN = "<unknown>"  # MediaStore.UNKNOWN_STRING
ALL_TRACKS_ID = 1
ALL_TRACKS = "All tracks"

# ID3v2 text frames we read, v2.3/2.4 names first, then the v2.2 three-letter ones.
FRAMES = {"TIT2": "title", "TPE1": "artist", "TALB": "album", "TYER": "year", "TDRC": "year", "TRCK": "track"}
FRAMES["TCON"] = "genre"
FRAMES.update({"TT2": "title", "TP1": "artist", "TAL": "album", "TYE": "year", "TRK": "track", "TCO": "genre"})
# Layer III bitrates (kbps) by header index, for a CBR duration estimate: MPEG-1, then MPEG-2
# and 2.5 (the low sample rates of small files).
MP3_BITRATES = (0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320)
MP3_BITRATES_LSF = (0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160)
FRONT_COVER = 3  # APIC picture type

# Tab key, label, icon; Genres exists but is hidden by default (helpers/Constants.kt allTabsMask).
TABS = (
    ("playlists", "Playlists", "music"),
    ("folders", "Folders", "folder"),
    ("artists", "Artists", "person"),
    ("albums", "Albums", "image"),
    ("tracks", "Tracks", "music"),
    ("genres", "Genres", "music"),
)
DEFAULT_TABS = ["playlists", "folders", "artists", "albums", "tracks"]


def _synchsafe(b: bytes) -> int:
    return (b[0] << 21) | (b[1] << 14) | (b[2] << 7) | b[3]


def _text(payload: bytes) -> str:
    """An ID3 text frame: encoding byte, then the string (several values split by NUL)."""
    if not payload:
        return ""
    enc, raw = payload[0], payload[1:]
    codec = {0: "latin-1", 1: "utf-16", 2: "utf-16-be", 3: "utf-8"}.get(enc, "latin-1")
    try:
        value = raw.decode(codec)
    except UnicodeDecodeError:
        return ""
    return value.split("\x00")[0].strip()


def _picture(frame_id: str, payload: bytes) -> tuple[int, int, int] | None:
    """An APIC (v2.3/2.4) or PIC (v2.2) frame: (picture type, offset, length) of its image data."""
    if len(payload) < 4:
        return None
    enc = payload[0]
    if frame_id == "PIC":  # encoding, 3-letter format, type, description
        pos = 4
    else:  # encoding, MIME type ending in NUL, type, description
        pos = payload.find(b"\x00", 1) + 1
        if pos <= 0 or pos >= len(payload):
            return None
    kind = payload[pos]
    pos += 1
    wide = enc in (1, 2)
    step = 2 if wide else 1
    end = pos
    while end + step <= len(payload) and payload[end : end + step] != b"\x00" * step:
        end += step
    start = end + step
    return (kind, start, len(payload) - start) if start < len(payload) else None


def read_id3(data: bytes) -> tuple[dict[str, Any], int]:
    """Tags of an ID3v2 header at the start of `data`, and the header's total size in bytes.
    An embedded picture is `art`: [offset, length] of its image bytes in `data` (the front
    cover if there is one, else the first picture), as MediaMetadataRetriever's
    getEmbeddedPicture gives it."""
    if len(data) < 10 or data[:3] != b"ID3":
        return {}, 0
    major, flags = data[3], data[5]
    end = 10 + _synchsafe(data[6:10])
    pos = 10
    if flags & 0x40 and major >= 3:  # extended header
        size = _synchsafe(data[10:14]) if major == 4 else int.from_bytes(data[10:14], "big") + 4
        pos += size
    tags: dict[str, Any] = {}
    id_len, head = (3, 6) if major == 2 else (4, 10)
    while pos + head <= min(end, len(data)):
        frame_id = data[pos : pos + id_len].decode("latin-1")
        if not frame_id.strip("\x00") or not frame_id.isalnum():
            break  # padding
        raw_size = data[pos + id_len : pos + id_len * 2]
        if major == 2:
            size = int.from_bytes(raw_size, "big")
        elif major == 4:
            size = _synchsafe(raw_size)
        else:
            size = int.from_bytes(raw_size, "big")
        start = pos + head
        if major == 4 and data[pos + 9] & 0x01:  # a data length indicator leads the frame
            start += 4
        payload = data[start : pos + head + size]
        key = FRAMES.get(frame_id)
        if key and key not in tags:
            value = _text(payload)
            if value:
                tags[key] = value
        elif frame_id in ("APIC", "PIC") and (picture := _picture(frame_id, payload)):
            kind, offset, length = picture
            if "art" not in tags or (kind == FRONT_COVER and tags["art_kind"] != FRONT_COVER):
                tags["art"], tags["art_kind"] = [start + offset, length], kind
        pos += head + size
    tags.pop("art_kind", None)
    return tags, end


def mp3_duration(data: bytes, offset: int, size: int) -> int:
    """Seconds of a constant-bitrate MPEG layer III stream from its first frame header."""
    for i in range(offset, min(len(data) - 3, offset + 4096)):
        if data[i] == 0xFF and data[i + 1] & 0xE6 == 0xE2:  # sync, layer III (any MPEG version)
            table = MP3_BITRATES if data[i + 1] & 0x18 == 0x18 else MP3_BITRATES_LSF
            index = data[i + 2] >> 4
            if 0 < index < len(table):
                return (size - i) * 8 // (table[index] * 1000)
    return 0


def read_track(host: Path, device_path: str) -> dict[str, Any]:
    """A track row as the scanner stores it; untagged files fall back as MediaStore does."""
    with host.open("rb") as f:
        head = f.read(10)
        if head[:3] == b"ID3" and len(head) == 10:  # the whole tag (a cover can be large), then the audio
            head += f.read(_synchsafe(head[6:10]) + 4096)
        else:
            head += f.read(4096)
    tags, tag_size = read_id3(head)
    size = host.stat().st_size
    folder = Path(device_path).parent.name
    year = re.match(r"\d{4}", tags.get("year", ""))
    track_no = re.match(r"\d+", tags.get("track", ""))
    duration = mp3_duration(head, tag_size, size) if device_path.lower().endswith(".mp3") else 0
    return {
        "path": device_path,
        "title": tags.get("title") or Path(device_path).stem,
        "artist": tags.get("artist") or UNKNOWN,
        "album": tags.get("album") or folder,
        "year": int(year.group()) if year else 0,
        "track": int(track_no.group()) if track_no else 0,
        "duration": duration,
        "folder": folder,
        "genre": tags.get("genre", ""),
        "date_added": int(host.stat().st_mtime),
        "art": tags.get("art"),  # [offset, length] of the embedded cover in the file, or None
    }


def scan(device) -> list[dict[str, Any]]:
    """Every audio file under shared storage, skipping hidden entries and .nomedia folders."""
    root = device.fs.host(SHARED)
    tracks = []
    for dirpath, dirnames, filenames in os.walk(root):
        if ".nomedia" in filenames:
            dirnames[:] = []
            continue
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if name.startswith(".") or name.rsplit(".", 1)[-1].lower() not in AUDIO_EXTENSIONS:
                continue
            host = Path(dirpath) / name
            try:
                tracks.append(read_track(host, SHARED + "/" + host.relative_to(root).as_posix()))
            except OSError:
                continue
    return tracks


def natural(text: str) -> list[Any]:
    """AlphanumericComparator on lower-cased text: digit runs compare as numbers."""
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text.lower())]


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# Sort options per tab: (label, key of a row); rows are dicts with these fields.
SORTS: dict[str, tuple[tuple[str, str], ...]] = {
    "playlists": (("Title", "title"), ("Track Count", "count")),
    "folders": (("Title", "title"), ("Track Count", "count")),
    "genres": (("Title", "title"), ("Track Count", "count")),
    "artists": (("Title", "title"), ("Album Count", "albums"), ("Track Count", "count")),
    "albums": (("Title", "title"), ("Artist Name", "artist"), ("Year", "year"), ("Date added", "date_added")),
    "tracks": (
        ("Title", "title"),
        ("Artist", "artist"),
        ("Duration", "duration"),
        ("Track number", "track"),
        ("Date added", "date_added"),
    ),
}


def sort_rows(rows: list[dict[str, Any]], key: str, descending: bool) -> list[dict[str, Any]]:
    def value(row: dict[str, Any]) -> Any:
        v = row.get(key, 0)
        return natural(v) if isinstance(v, str) else v

    return sorted(rows, key=lambda r: (value(r), natural(r.get("title", ""))), reverse=descending)


def group(tracks: list[dict[str, Any]], field: str) -> list[dict[str, Any]]:
    """Folders, artists or albums: one row per distinct value, in first-seen order."""
    rows: dict[str, dict[str, Any]] = {}
    for t in tracks:
        row = rows.setdefault(
            t[field],
            {
                "title": t[field],
                "artist": t["artist"],
                "year": t["year"],
                "date_added": t["date_added"],
                "tracks": [],
            },
        )
        row["tracks"].append(t)
    for row in rows.values():
        row["count"] = len(row["tracks"])
        row["albums"] = len({t["album"] for t in row["tracks"]})
    return list(rows.values())

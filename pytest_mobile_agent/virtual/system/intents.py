"""Intents as `am` builds them from its arguments, and the intent filters that match them.

`parse_intent` follows Intent.parseCommandArgs (Android 13): `-a -d -t -c -n -p -f -i`, the typed
extras (`--es`/`-e`, `--esn`, `--ei`, `--el`, `--ef`, `--ed`, `--ez`, `--eu`, `--ecn`, the
array forms `--eia --ela --efa --eda --esa` and list forms `--eial --elal --efal --edal --esal`),
the flag options (`--activity-*`, `--grant-*`, ...) and a bare URI, component or package at the
end. A malformed argument raises `IntentError` with the message of the Java exception `am`
would print. `Intent.describe()` is Intent.toString() as `am` prints it (secure: `smsto:xxx`).

`IntentFilter.matches` has IntentFilter.match's rules (action, categories, scheme, MIME type
with wildcards, a filter with types but no scheme taking `content:` and `file:` URIs);
manifests.py resolves an intent against the filters the installed apps declare.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

MAIN = "android.intent.action.MAIN"
LAUNCHER = "android.intent.category.LAUNCHER"
DEFAULT = "android.intent.category.DEFAULT"
HOME = "android.intent.category.HOME"
FLAG_ACTIVITY_NEW_TASK = 0x10000000

# Options that take no argument and only set a flag (Intent.parseCommandArgs), by flag value.
FLAG_OPTIONS = {
    "--grant-read-uri-permission": 0x1,
    "--grant-write-uri-permission": 0x2,
    "--grant-persistable-uri-permission": 0x40,
    "--grant-prefix-uri-permission": 0x80,
    "--exclude-stopped-packages": 0x10,
    "--include-stopped-packages": 0x20,
    "--debug-log-resolution": 0x8,
    "--activity-brought-to-front": 0x400000,
    "--activity-clear-top": 0x4000000,
    "--activity-clear-when-task-reset": 0x80000,
    "--activity-exclude-from-recents": 0x800000,
    "--activity-launched-from-history": 0x100000,
    "--activity-multiple-task": 0x8000000,
    "--activity-no-animation": 0x10000,
    "--activity-no-history": 0x40000000,
    "--activity-no-user-action": 0x40000,
    "--activity-previous-is-top": 0x1000000,
    "--activity-reorder-to-front": 0x20000,
    "--activity-reset-task-if-needed": 0x200000,
    "--activity-single-top": 0x20000000,
    "--activity-clear-task": 0x8000,
    "--activity-task-on-home": 0x4000,
    "--activity-match-external": 0x800,
    "--receiver-registered-only": 0x40000000,
    "--receiver-replace-pending": 0x20000000,
    "--receiver-foreground": 0x10000000,
    "--receiver-no-abort": 0x8000000,
    "--receiver-include-background": 0x1000000,
}
# The command's own options (am start / broadcast / startservice, pm resolve-activity): no argument, or one.
COMMAND_SWITCHES = {
    "-D",
    "-N",
    "-W",
    "-S",
    "--streaming",
    "--track-allocation",
    "--task-overlay",
    "--lock-task",
    "--allow-background-activity-starts",
    "--dismiss-keyguard",
    "--brief",
    "--components",
    "--attach-agent-bind",
    "--async",
}
COMMAND_OPTIONS = {
    "-P",
    "--start-profiler",
    "--sampling",
    "-R",
    "--user",
    "--display",
    "--windowingMode",
    "--activityType",
    "--task",
    "--receiver-permission",
    "--attach-agent",
    "--query-flags",
}


class IntentError(ValueError):
    """An argument `am` rejects; the message is the Java exception's (`java.lang....: ...`)."""


@dataclass
class Intent:
    action: str | None = None
    data: str | None = None
    type: str | None = None
    categories: list[str] = field(default_factory=list)
    component: tuple[str, str] | None = None  # (package, full class name)
    package: str | None = None
    flags: int = 0
    extras: dict[str, Any] = field(default_factory=dict)
    identifier: str | None = None

    @property
    def scheme(self) -> str | None:
        if not self.data:
            return None
        match = re.match(r"([A-Za-z][A-Za-z0-9+.-]*):", self.data)
        return match.group(1) if match else None

    def string_extra(self, key: str) -> str | None:
        """getStringExtra: a value put as another type reads as null, as on Android."""
        value = self.extras.get(key)
        return value if isinstance(value, str) else None

    def long_extra(self, key: str, default: int) -> int:
        """getLongExtra: only a long (`--el`) counts; an int or a string gives the default."""
        value = self.extras.get(key)
        return value.value if isinstance(value, Long) else default

    def bool_extra(self, key: str, default: bool = False) -> bool:
        value = self.extras.get(key)
        return value if isinstance(value, bool) else default

    def describe(self) -> str:
        """Intent.toString(): `Intent { act=... cat=[...] dat=... typ=... flg=0x... pkg=... cmp=... (has extras) }`."""
        parts = []
        if self.action:
            parts.append(f"act={self.action}")
        if self.categories:
            parts.append(f"cat=[{','.join(self.categories)}]")
        if self.data is not None:
            parts.append(f"dat={safe_uri(self.data)}")
        if self.type:
            parts.append(f"typ={self.type}")
        if self.flags:
            parts.append(f"flg=0x{self.flags:x}")
        if self.package:
            parts.append(f"pkg={self.package}")
        if self.component:
            parts.append(f"cmp={short_component(*self.component)}")
        if self.extras:
            parts.append("(has extras)")
        if self.identifier:
            parts.append(f"id={self.identifier}")
        return "Intent { " + " ".join(parts) + " }"


@dataclass(frozen=True)
class Long:
    """A long extra (`--el`): getLongExtra tells it from an int."""

    value: int


def short_component(package: str, cls: str) -> str:
    """ComponentName.flattenToShortString: the class relative to the package where it can be."""
    return f"{package}/{cls[len(package) :]}" if cls.startswith(package + ".") else f"{package}/{cls}"


def unflatten(text: str) -> tuple[str, str] | None:
    """ComponentName.unflattenFromString: `pkg/.Cls` means `pkg/pkg.Cls`."""
    pkg, sep, cls = text.partition("/")
    if not sep or not cls:
        return None
    return pkg, pkg + cls if cls.startswith(".") else cls


def safe_uri(uri: str) -> str:
    """Uri.toSafeString: numbers and addresses masked, web URLs cut to the host, no query."""
    scheme, sep, ssp = uri.partition(":")
    if not sep:
        return uri
    lowered = scheme.lower()
    if lowered in ("tel", "sip", "sms", "smsto", "mailto", "nfc"):
        return scheme + ":" + "".join(c if c in "-@." else "x" for c in ssp)
    ssp = ssp.split("#", 1)[0].split("?", 1)[0]
    if lowered in ("http", "https", "ftp", "rtsp"):
        host = ssp.removeprefix("//").split("/", 1)[0]
        ssp = f"//{host}/..."
    return f"{scheme}:{ssp}"


# -- parsing ------------------------------------------------------------------------------------
def _number(kind: type, text: str) -> Any:
    try:
        if kind is int:
            return _decode(text)
        if kind is Long:
            return Long(int(text.strip()))
        return float(text)
    except ValueError:
        raise IntentError(f'java.lang.NumberFormatException: For input string: "{text}"') from None


def _decode(text: str) -> int:
    """Integer.decode: decimal, 0x/# hex, leading-0 octal, with a sign."""
    sign, body = (-1, text[1:]) if text.startswith("-") else (1, text.removeprefix("+"))
    if body.lower().startswith("0x") or body.startswith("#"):
        return sign * int(body[2:] if body[0] == "0" else body[1:], 16)
    if len(body) > 1 and body.startswith("0"):
        return sign * int(body[1:], 8)
    return sign * int(body, 10)


def _boolean(text: str) -> bool:
    value = text.lower()
    if value in ("true", "t"):
        return True
    if value in ("false", "f"):
        return False
    try:
        return _decode(value) != 0
    except ValueError:
        raise IntentError(f"java.lang.IllegalArgumentException: Invalid boolean value: {value}") from None


def _split_strings(text: str) -> list[str]:
    """--esa/--esal: commas separate, a backslash-escaped comma does not."""
    return [part.replace("\\,", ",") for part in re.split(r"(?<!\\),", text)]


_SCALARS = {"--ei": int, "--el": Long, "--ef": float, "--ed": float}
_ARRAYS = {
    "--eia": int,
    "--eial": int,
    "--ela": Long,
    "--elal": Long,
    "--efa": float,
    "--efal": float,
    "--eda": float,
    "--edal": float,
}


def parse_intent(args: list[str]) -> tuple[Intent, dict[str, str | bool]]:
    """`am`'s intent arguments -> (the intent, the command's own options). Raises IntentError."""
    intent = Intent()
    options: dict[str, str | bool] = {}
    i = 0

    def value() -> str:
        nonlocal i
        if i + 1 >= len(args):
            raise IntentError(f'java.lang.IllegalArgumentException: Argument expected after "{args[i]}"')
        i += 1
        return args[i]

    while i < len(args) and args[i].startswith("-") and args[i] != "--":
        opt = args[i]
        if opt == "-a":
            intent.action = value()
        elif opt == "-d":
            intent.data = value()
        elif opt == "-t":
            intent.type = value()
        elif opt == "-i":
            intent.identifier = value()
        elif opt == "-c":
            intent.categories.append(value())
        elif opt == "-n":
            text = value()
            component = unflatten(text)
            if component is None:
                raise IntentError(f"java.lang.IllegalArgumentException: Bad component name: {text}")
            intent.component = component
        elif opt == "-p":
            intent.package = value()
        elif opt == "-f":
            intent.flags |= _number(int, value())
        elif opt in ("-e", "--es"):
            key = value()
            intent.extras[key] = value()
        elif opt == "--esn":
            intent.extras[value()] = None
        elif opt == "--ez":
            key = value()
            intent.extras[key] = _boolean(value())
        elif opt in _SCALARS:
            key = value()
            intent.extras[key] = _number(_SCALARS[opt], value())
        elif opt in _ARRAYS:
            key = value()
            intent.extras[key] = [_number(_ARRAYS[opt], v) for v in value().split(",")]
        elif opt in ("--esa", "--esal"):
            key = value()
            intent.extras[key] = _split_strings(value())
        elif opt in ("--eu", "--ecn"):
            key = value()
            intent.extras[key] = value()
        elif opt in FLAG_OPTIONS:
            intent.flags |= FLAG_OPTIONS[opt]
        elif opt == "--selector":  # Android takes it; the virtual device says plainly it does not
            raise IntentError("java.lang.UnsupportedOperationException: --selector is not modelled here")
        elif opt in COMMAND_SWITCHES:
            options[opt] = True
        elif opt in COMMAND_OPTIONS:
            options[opt] = value()
        else:
            raise IntentError(f"java.lang.IllegalArgumentException: Unknown option: {opt}")
        i += 1
    rest = args[i:]
    if rest:
        _bare(intent, rest[0])
    elif intent == Intent():
        raise IntentError("java.lang.IllegalArgumentException: No intent supplied")
    return intent, options


def _bare(intent: Intent, arg: str) -> None:
    """The last, option-less argument: a URI, a component (MAIN/LAUNCHER) or a package (the same),
    filled in as Intent.fillIn does: only what the options left empty, except the component."""
    if ":" in arg:
        if intent.data is None and intent.type is None:
            intent.data = arg
        return
    if "/" in arg:
        component = unflatten(arg)
        if component is None:
            raise IntentError(f"java.lang.IllegalArgumentException: Bad component name: {arg}")
        intent.component = component
    else:
        intent.package = intent.package or arg
    if not intent.action:
        intent.action = MAIN
        if not intent.categories:  # with an action of its own, the launcher category is dropped
            intent.categories.append(LAUNCHER)


# -- filters and resolution ---------------------------------------------------------------------
@dataclass(frozen=True)
class IntentFilter:
    actions: tuple[str, ...]
    categories: tuple[str, ...] = (DEFAULT,)
    schemes: tuple[str, ...] = ()
    types: tuple[str, ...] = ()

    def matches(self, intent: Intent, mime: str | None) -> bool:
        if intent.action is not None and intent.action not in self.actions:
            return False
        if not all(c in self.categories for c in intent.categories):
            return False
        return self._data(intent.scheme, intent.data, mime)

    def _data(self, scheme: str | None, data: str | None, mime: str | None) -> bool:
        if not self.types and not self.schemes:
            return mime is None and data is None
        if self.schemes:
            if (scheme or "") not in self.schemes:
                return False
        elif scheme not in (None, "", "content", "file"):
            return False  # a filter of types alone takes content: and file: URIs, or none
        if self.types:
            return mime is not None and any(type_matches(t, mime) for t in self.types)
        return mime is None


def type_matches(declared: str, mime: str) -> bool:
    """IntentFilter.findMimeType: `image/*` and `*/*` in a filter; `image/*` in an intent."""
    declared, mime = declared.lower(), mime.lower()
    if declared == mime or declared == "*/*":
        return True
    base, _, sub = declared.partition("/")
    mbase, _, msub = mime.partition("/")
    if sub == "*":
        return base == mbase
    if mime == "*/*":
        return True
    return msub == "*" and mbase == base


@dataclass(frozen=True)
class Match:
    package: str
    activity: str  # as the manifest names it, relative to the package where it starts with "."

    @property
    def component(self) -> str:
        return f"{self.package}/{self.activity}"

    @property
    def class_name(self) -> str:
        return self.package + self.activity if self.activity.startswith(".") else self.activity


def provider_type(uri: str) -> str | None:
    """The MIME type a content URI's provider reports (am asks it when no -t was given)."""
    match = re.match(r"content://([^/?#]+)(/[^?#]*)?", uri)
    if not match:
        return None
    authority, path = match.group(1), (match.group(2) or "").strip("/")
    parts = path.split("/") if path else []
    item = bool(parts) and parts[-1].isdigit()
    kinds = {
        ("com.android.contacts", "contacts"): "contact",
        ("com.android.contacts", "raw_contacts"): "raw_contact",
        ("contacts", "people"): "person",
        ("com.android.calendar", "events"): "event",
    }
    kind = kinds.get((authority, parts[0])) if parts else None
    if kind:
        return f"vnd.android.cursor.{'item' if item else 'dir'}/{kind}"
    if authority == "com.android.calendar" and parts[:1] == ["time"]:
        return "time/epoch"
    if authority == "media" and len(parts) >= 3 and parts[2] == "media":
        return None if item else f"vnd.android.cursor.dir/{parts[1].removesuffix('s')}"
    return None

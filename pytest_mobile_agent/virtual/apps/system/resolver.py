"""The system's ResolverActivity (package `android`): what Android shows when an implicit intent
matches activities of more than one app and none is preferred. Its title follows the action
("Open with", "Share", "Send with", "Edit with", "Complete action using"); tapping an app
selects it, "Just once" starts it, "Always" starts it and makes it the preferred activity for
intents of that action and type (until the next reset: it lives in /data/system).
"""

from __future__ import annotations

import json
from functools import partial

from pytest_mobile_agent.virtual.system.intents import Intent, Match
from pytest_mobile_agent.virtual.system.manifests import deliver
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App, Context
from pytest_mobile_agent.virtual.ui.view import LINEAR, TEXT, View

PACKAGE = "android"
TITLES = {
    "android.intent.action.VIEW": "Open with",
    "android.intent.action.EDIT": "Edit with",
    "android.intent.action.SEND": "Share",
    "android.intent.action.SEND_MULTIPLE": "Share",
    "android.intent.action.SENDTO": "Send with",
}
PREFERRED = "/data/system/preferred-activities.json"


def preference_key(intent: Intent) -> str:
    return f"{intent.action}|{intent.type or intent.scheme or ''}"


def preferred(device: Context, intent: Intent) -> str | None:
    """The component chosen with "Always" for intents like this one."""
    host = device.fs.host(PREFERRED)
    return json.loads(host.read_text()).get(preference_key(intent)) if host.exists() else None


def show_resolver(device: Context, intent: Intent, matches: list[Match]) -> None:
    """Start the resolver over the current task for `intent` and the apps that can take it."""
    labels = device.packages.models
    ordered = sorted(matches, key=lambda m: labels[m.package].label.lower())  # no usage stats: by label
    app = device.packages.app(PACKAGE)
    activity = device.wm.start_activity(app, ResolverActivity, {"intent": intent.describe()})
    if isinstance(activity, ResolverActivity):
        activity.intent, activity.matches = intent, ordered
    device.wm.changed()


class ResolverActivity(Activity):
    name = "com.android.internal.app.ResolverActivity"
    label = "Android System"

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.intent: Intent | None = None
        self.matches: list[Match] = []
        self.chosen: Match | None = None

    def choose(self, always: bool) -> None:
        match, intent, device = self.chosen, self.intent, self.app.device
        if match is None or intent is None:
            return
        if always:
            host = device.fs.host(PREFERRED)
            table = json.loads(host.read_text()) if host.exists() else {}
            table[preference_key(intent)] = match.component
            device.fs.write(PREFERRED, json.dumps(table).encode())
        self.finish()
        deliver(device, match, intent)

    def select(self, match: Match) -> None:
        self.chosen = match

    def content(self) -> View:
        packages = self.app.device.packages
        action = self.intent.action if self.intent else None
        title = TITLES.get(action or "", "Complete action using")
        rows = []
        for match in self.matches:
            label = packages.models[match.package].label
            rows.append(
                View(
                    LINEAR,
                    orientation="h",
                    clickable=True,
                    on_click=partial(self.select, match),
                    selected=match == self.chosen,
                    kind="row",
                    height=64,
                    padding=12,
                    children=[View(TEXT, id="android:id/text1", text=label, weight=1)],
                )
            )
        ready = self.chosen is not None
        buttons = w.row(
            [
                w.button("android:id/button_once", "Just once", lambda: self.choose(False), enabled=ready, weight=1),
                w.button("android:id/button_always", "Always", lambda: self.choose(True), enabled=ready, weight=1),
            ],
            id="android:id/button_bar",
        )
        header = w.text("android:id/title", title, size=20, padding=16)
        listing = View(LINEAR, id="android:id/resolver_list", children=rows)
        return View(LINEAR, id="android:id/contentPanel", children=[header, listing, buttons], color="light")


class AndroidSystem(App):
    package = PACKAGE
    label = ""  # not on the home screen
    system = True
    version_code = 33
    version_name = "13"
    main_activity = ResolverActivity


APPS = (AndroidSystem,)

"""Screens every Simple Mobile Tools app shares through Simple-Commons: About and FAQ.

Both are Jetpack Compose screens in the real apps, so a dump shows texts and no resource ids.
Learned from Simple-Commons compose/screens/AboutScreen.kt and activities/AboutActivity.kt.
"""

from __future__ import annotations

from typing import ClassVar

from ..ui import widgets as w
from ..ui.view import TEXT, VIEW, View
from .base import Activity

COMMONS = "com.simplemobiletools.commons.activities"


def compose_row(label: str, action=None, value: str = "") -> View:
    """A clickable Compose list item: an android.view.View holding its texts."""
    children = [View(TEXT, text=label, text_size=16)]
    if value:
        children.append(View(TEXT, text=value, text_size=14))
    return View(VIEW, clickable=action is not None, on_click=action, children=children, padding=12, kind="row")


def compose_top_bar(activity: Activity, title: str) -> View:
    back = View(
        VIEW, desc="Back", clickable=True, on_click=activity.finish, icon="back", kind="icon", width=48, height=48
    )
    return View(
        VIEW,
        orientation="h",
        height=56,
        kind="toolbar",
        color=w.PRIMARY,
        children=[back, View(TEXT, text=title, text_size=20, bold=True, weight=1, padding=12)],
    )


class AboutActivity(Activity):
    name = f"{COMMONS}.AboutActivity"
    # Per app: FAQ entries (title, text), whether Google relations show (core flavour).
    contributors: ClassVar[tuple[str, ...]] = ("Tibor Kaputa", "Ensar Sarajčić", "Naveen Singh", "Agnieszka C")

    def content(self) -> View:
        app = self.app
        rows: list[View] = [w.section(self, "", "Support")]
        if getattr(app, "faq", ()):
            rows.append(compose_row("Frequently asked questions", lambda: self.start(FAQActivity)))
        rows.append(compose_row("E-mail", lambda: self.toast("No email client found")))
        rows.append(w.section(self, "", "Help us"))
        rows.append(compose_row("Contributors", lambda: self.start(ContributorsActivity)))
        rows.append(compose_row("Donate", lambda: self.toast("No browser found")))
        rows.append(w.section(self, "", "Social"))
        for site in ("Facebook", "GitHub", "Reddit", "Telegram"):
            rows.append(compose_row(site, lambda: self.toast("No browser found")))
        rows.append(w.section(self, "", "Other"))
        for item in ("Website", "Privacy policy", "Third party licences"):
            rows.append(compose_row(item, lambda: self.toast("No browser found")))
        rows.append(compose_row(f"Version {app.version_name}", lambda: None))
        rows.append(View(TEXT, text="Made with ❤️ in Slovakia", text_size=14, padding=12))
        return View(VIEW, children=[compose_top_bar(self, "About"), w.scroll("", rows, cls=VIEW)])


class FAQActivity(Activity):
    name = f"{COMMONS}.FAQActivity"

    def content(self) -> View:
        rows = []
        for title, body in getattr(self.app, "faq", ()):
            rows.append(View(TEXT, text=title, text_size=18, bold=True, padding=8))
            rows.append(View(TEXT, text=body, text_size=14, padding=8))
        return View(VIEW, children=[compose_top_bar(self, "Frequently asked questions"), w.scroll("", rows, cls=VIEW)])


class ContributorsActivity(Activity):
    name = f"{COMMONS}.ContributorsActivity"

    def content(self) -> View:
        rows = [w.section(self, "", "Development")]
        rows += [compose_row(name) for name in AboutActivity.contributors[:2]]
        rows.append(w.section(self, "", "Translation"))
        rows += [compose_row(name) for name in AboutActivity.contributors[2:]]
        return View(VIEW, children=[compose_top_bar(self, "Contributors"), w.scroll("", rows, cls=VIEW)])


SHARED_ACTIVITIES = (AboutActivity, FAQActivity, ContributorsActivity)

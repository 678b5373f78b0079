"""The screens every Simple Mobile Tools app shares through Simple-Commons: About, FAQ and
Contributors, and the FAQ entries the apps take from commons.

All three are Jetpack Compose screens in the real apps, so a dump shows texts and no resource
ids. Learned from Simple-Commons compose/screens/AboutScreen.kt and activities/AboutActivity.kt.
"""

from __future__ import annotations

from typing import ClassVar

from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.view import TEXT, VIEW, View

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
    label = "About"  # the manifest label: the window title Android reports
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
    label = "Frequently asked questions"  # the manifest label: the window title Android reports

    def content(self) -> View:
        rows = []
        for title, body in getattr(self.app, "faq", ()):
            rows.append(View(TEXT, text=title, text_size=18, bold=True, padding=8))
            rows.append(View(TEXT, text=body, text_size=14, padding=8))
        return View(VIEW, children=[compose_top_bar(self, "Frequently asked questions"), w.scroll("", rows, cls=VIEW)])


class ContributorsActivity(Activity):
    name = f"{COMMONS}.ContributorsActivity"
    label = "Contributors"  # the manifest label: the window title Android reports

    def content(self) -> View:
        rows = [w.section(self, "", "Development")]
        rows += [compose_row(name) for name in AboutActivity.contributors[:2]]
        rows.append(w.section(self, "", "Translation"))
        rows += [compose_row(name) for name in AboutActivity.contributors[2:]]
        return View(VIEW, children=[compose_top_bar(self, "Contributors"), w.scroll("", rows, cls=VIEW)])


SHARED_ACTIVITIES = (AboutActivity, FAQActivity, ContributorsActivity)


class ProAboutActivity(AboutActivity):
    """The About screen of a `.pro` app: commons appends " Pro" to the version line."""

    def content(self) -> View:
        root = super().content()
        for v in root.walk():
            if v.text == f"Version {self.app.version_name}":
                v.text += " Pro"
        return root


PRO_SHARED_ACTIVITIES = (ProAboutActivity, FAQActivity, ContributorsActivity)


# The FAQ entries of commons the apps list in their About (strings faq_N_title/text_commons).
COMMONS_FAQ = {
    1: (
        "How come I don't see this apps widget on the list of widgets?",
        "It is most likely because you moved the app on an SD card. There is an Android system limitation which "
        "hides the given app widgets in that case. The only solution is to move the app back onto the Internal "
        "Storage via your device settings.",
    ),
    4: (
        "I don't like the widget colors, can I change them?",
        "Yep, as you drag a widget on your home screen a widget config screen appears. You will see colored squares "
        "at the bottom left corner, just press them to pick a new color. You can use the slider for adjusting the "
        "alpha too.",
    ),
    9: (
        "How can I select multiple items at once?",
        "There are multiple ways of doing that. The first one is starting the selection mode by long pressing one "
        "item, then short clicking on others to select them. The second way is similar to selecting items on PCs "
        "with a mouse, just start the selection mode by long pressing one item, then with your finger still down "
        "drag it across other items for selecting. The third way of selecting multiple items is long pressing one "
        "item, then long pressing another one and everything in between gets selected. If you want to select all "
        "items, just long press one item, then click at the selected item counter at the top left corner. That "
        "will select or unselect all everything.",
    ),
}

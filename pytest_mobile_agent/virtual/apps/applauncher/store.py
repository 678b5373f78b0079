"""Simple App Launcher's data: the launchers in its grid (DBHelper's table, app data), picked
from the package manager's launchable apps, and their sort order."""

from __future__ import annotations

from typing import Any

from pytest_mobile_agent.virtual.ui.app import App, Context

PKG = "com.simplemobiletools.applauncher"
# commons helpers/Constants.kt sort flags; the app's default_sorting is SORT_BY_TITLE.
SORT_BY_TITLE, SORT_DESCENDING, SORT_BY_CUSTOM = 2048, 1024, 131072


class AppLauncherStore(App):
    """The app object as the screens use it: its prefs and the launchers in its grid."""

    package = PKG

    def __init__(self, device: Context) -> None:
        super().__init__(device)
        # The launchers table (DBHelper): fresh installs start empty.
        self.launchers: list[dict[str, Any]] = self.load("launchers", [])

    def installed(self, pkg: str) -> App | None:
        packages = self.device.packages
        return packages.app(pkg) if packages.is_installed(pkg) and pkg in packages.models else None

    def sorted_launchers(self) -> list[dict[str, Any]]:
        items = [i for i in self.launchers if self.installed(i["package"])]
        sorting = int(self.pref("sorting", SORT_BY_TITLE))
        if sorting & SORT_BY_CUSTOM:
            return sorted(items, key=lambda i: (i["order"], i["title"].lower()))
        return sorted(items, key=lambda i: i["title"].lower(), reverse=bool(sorting & SORT_DESCENDING))

    def _commit(self) -> None:
        self.save("launchers", self.launchers)

    def set_apps(self, apps: list[App]) -> None:
        wanted = {p.package for p in apps}
        self.launchers = [i for i in self.launchers if i["package"] in wanted]
        have = {i["package"] for i in self.launchers}
        order = max((i["order"] for i in self.launchers), default=0)
        for p in apps:
            if p.package not in have:
                order += 1
                self.launchers.append({"package": p.package, "title": p.shown_label, "order": order})
        self._commit()

    def reorder(self, packages: list[str]) -> None:
        """The launchers' custom order: `packages` first, in that order (updateLauncherOrder)."""
        rank = {p: i + 1 for i, p in enumerate(packages)}
        for i in self.launchers:
            i["order"] = rank.get(i["package"], len(rank) + i["order"])
        self._commit()

    def remove(self, packages: list[str]) -> None:
        self.launchers = [i for i in self.launchers if i["package"] not in packages]
        self._commit()

    def rename(self, pkg: str, title: str) -> None:
        for i in self.launchers:
            if i["package"] == pkg:
                i["title"] = title
        self._commit()

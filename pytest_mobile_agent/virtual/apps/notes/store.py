"""Simple Notes Pro's notes: text notes and checklists, kept as the app's NotesDatabase would,
in the data dir (app-private: seeded through the UI, as the benchmark's setups do)."""

from __future__ import annotations

from typing import Any

from pytest_mobile_agent.virtual.ui.app import App, Context

PKG = "com.simplemobiletools.notes.pro"


class NotesStore(App):
    """The app object as the screens use it: its prefs and notes."""

    package = PKG

    def __init__(self, device: Context) -> None:
        super().__init__(device)
        self.notes: list[dict[str, Any]] = self.load("notes", [])
        if not self.notes:  # NotesDatabase creates "General note" when the app first opens it
            self.notes.append(self._new(1, self.tr("General note"), "text"))

    @staticmethod
    def _new(note_id: int, title: str, kind: str) -> dict[str, Any]:
        return {
            "id": note_id,
            "title": title,
            "kind": kind,
            "value": "" if kind == "text" else [],
            "hash": "",
            "type_protection": -1,
        }

    def sorted_notes(self) -> list[dict[str, Any]]:
        """NotesDao: ORDER BY title COLLATE UNICODE, i.e. case-insensitive alphabetical."""
        return sorted(self.notes, key=lambda n: (n["title"].casefold(), n["id"]))

    def current(self) -> dict[str, Any]:
        wanted = self.pref("current_note_id", 1)
        return next((n for n in self.notes if n["id"] == wanted), None) or self.sorted_notes()[0]

    def note_titled(self, title: str, exclude: int = -1, case: bool = False) -> bool:
        same = (lambda t: t == title) if case else (lambda t: t.casefold() == title.casefold())
        return any(same(n["title"]) and n["id"] != exclude for n in self.notes)

    def add(self, title: str, kind: str) -> dict[str, Any]:
        note = self._new(max(n["id"] for n in self.notes) + 1, title, kind)
        self.notes.append(note)
        self.save("notes", self.notes)
        self.set_pref("current_note_id", note["id"])
        return note

    def update(self, note_id: int, **fields: Any) -> None:
        for n in self.notes:
            if n["id"] == note_id:
                n.update(fields)
        self.save("notes", self.notes)

    def delete(self, note_id: int) -> None:
        ordered = self.sorted_notes()
        i = next(k for k, n in enumerate(ordered) if n["id"] == note_id)
        rest = [n for n in ordered if n["id"] != note_id]
        self.notes = [n for n in self.notes if n["id"] != note_id]
        self.save("notes", self.notes)
        self.set_pref("current_note_id", rest[max(i - 1, 0)]["id"])  # the previous page, or the next

    def sorted_items(self, note: dict[str, Any]) -> list[dict[str, Any]]:
        """ChecklistItem ordering: by title (case-insensitive) or date created, or custom order."""
        by, desc = self.pref("checklist_sorting", ["title", False])
        items = list(note["value"])
        if by == "title":
            items.sort(key=lambda it: it["title"].casefold(), reverse=desc)
        elif by == "date_created":
            items.sort(key=lambda it: it["id"], reverse=desc)
        if self.pref("move_done_checklist_items", False) and by != "custom":
            items.sort(key=lambda it: it["done"])
        return items

"""Simple Music Player's equalizer with the platform's presets (activity_equalizer.xml)."""

from __future__ import annotations

from pytest_mobile_agent.virtual.apps.musicplayer.store import MusicPlayerStore
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.view import IMAGE, LINEAR, RELATIVE, VIEW_GROUP, View

# AOSP EffectBundle presets (gains in dB for 60 Hz, 230 Hz, 910 Hz, 3.6 kHz, 14 kHz); "Custom" last.
EQ_PRESETS = (
    ("Normal", (3, 0, 0, 0, 3)),
    ("Classical", (5, 3, -2, 4, 4)),
    ("Dance", (6, 0, 2, 4, 1)),
    ("Flat", (0, 0, 0, 0, 0)),
    ("Folk", (3, 0, 0, 2, -1)),
    ("Heavy Metal", (4, 1, 9, 3, 0)),
    ("Hip Hop", (5, 3, 0, 1, 3)),
    ("Jazz", (4, 2, -2, 2, 5)),
    ("Pop", (-1, 2, 5, 1, -2)),
    ("Rock", (5, 3, -1, 3, 5)),
)
EQ_BANDS = ("60 Hz", "230 Hz", "910 Hz", "3.6 kHz", "14 kHz")


class EqualizerActivity(Activity):
    name = ".activities.EqualizerActivity"
    app: MusicPlayerStore

    def content(self) -> View:
        a = self.app
        rid = a.rid
        preset = int(a.pref("equalizer_preset", 0))
        labels = View(
            RELATIVE,
            id=rid("equalizer_db_labels_holder"),
            orientation="h",
            height=32,
            children=[
                View(IMAGE, id=rid("equalizer_label_margin"), width=16),
                w.text(rid("equalizer_label_left"), "-15", weight=1),
                w.text(rid("equalizer_label_0"), "0", weight=1, gravity="center"),
                w.text(rid("equalizer_label_right"), "+15", weight=1, gravity="end"),
            ],
        )
        bands = [
            View(
                RELATIVE,
                id=rid("equalizer_band_holder"),
                weight=1,
                children=[
                    View(
                        "android.widget.SeekBar",
                        id=rid("equalizer_band_seek_bar"),
                        height=200,
                        clickable=True,
                        focusable=True,
                        on_click=lambda: a.set_pref("equalizer_preset", -1),
                    ),
                    w.text(rid("equalizer_band_label"), band, size=12, gravity="center"),
                ],
            )
            for band in EQ_BANDS
        ]
        name = EQ_PRESETS[preset][0] if preset >= 0 else "Custom"
        button = w.text(
            rid("equalizer_preset"),
            name,
            clickable=True,
            focusable=True,
            gravity="center",
            padding=12,
            kind="button",
            on_click=self.pick_preset,
        )
        holder = View(
            VIEW_GROUP,
            id=rid("equalizer_holder"),
            children=[labels, View(LINEAR, id=rid("equalizer_bands_holder"), orientation="h", children=bands), button],
        )
        bar = w.toolbar(self, "equalizer_toolbar", "Equalizer", back=True)
        body = w.scroll(rid("equalizer_nested_scrollview"), [holder])
        return w.screen(bar, [body], id=rid("equalizer_coordinator"))

    def pick_preset(self) -> None:
        names = [name for name, _ in EQ_PRESETS] + ["Custom"]
        current = int(self.app.pref("equalizer_preset", 0))

        def picked(i: int) -> None:
            self.app.set_pref("equalizer_preset", i if i < len(EQ_PRESETS) else -1)

        self.show(w.radio_dialog(self, names, current if current >= 0 else len(EQ_PRESETS), picked))

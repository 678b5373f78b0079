"""The virtual device in zh-CN and Chinese text input, through the real clients (adbutils,
uiautomator2): the locale set as on Android, the apps' real zh-CN strings in the dump, CJK text
in the screenshot, ADB Keyboard's broadcasts and `input text` with its real limits."""

from __future__ import annotations

import base64
import logging

import pytest

from pytest_mobile_agent.device.listener import ensure_listener
from pytest_mobile_agent.events.schema import LISTENER_LOCALE_ACTION, LISTENER_PACKAGE

GRANT = f"pm grant {LISTENER_PACKAGE} android.permission.CHANGE_CONFIGURATION"
SET_LOCALE = f"am broadcast -a {LISTENER_LOCALE_ACTION} -n {LISTENER_PACKAGE}/.LocaleReceiver --es locale "
NOTES = "com.simplemobiletools.notes.pro"
ADB_IME = "com.android.adbkeyboard/.AdbIME"
LATIN_IME = "com.android.inputmethod.latin/.LatinIME"


def status(adbd, command: str) -> tuple[int, str]:
    out = adbd.shell(f"{command}; echo RC=$?")
    body, _, rc = out.rpartition("RC=")
    return int(rc), body


@pytest.fixture
def zh(adbd):
    """zh-CN as the harness sets it without root: the listener app's LocaleReceiver."""
    ensure_listener(adbd)
    assert 'result=-1, data="zh-CN"' in adbd.shell(f"{GRANT}; {SET_LOCALE}zh-CN")
    yield adbd
    adbd.shell(f"{GRANT}; {SET_LOCALE}en-US")


@pytest.fixture
def new_note_dialog(u2d, adbd):
    """Notes' new-note dialog, its title field focused (the field a person types into)."""
    adbd.shell(f"pm clear {NOTES}; ime set {LATIN_IME}")
    u2d.app_start(NOTES)
    u2d(resourceId=f"{NOTES}:id/new_note").click()
    yield u2d
    adbd.shell(f"ime set {LATIN_IME}; am force-stop {NOTES}")


def title_field(d) -> str:
    return d(resourceId=f"{NOTES}:id/locked_note_title").get_text() or ""


def test_the_locale_is_set_and_read_as_on_android(zh, adbd):
    assert adbd.shell("getprop ro.product.locale").strip() == "en-US"
    # The system keeps what the configuration change set, as Settings' own change does.
    assert adbd.shell("getprop persist.sys.locale").strip() == "zh-CN"
    assert adbd.shell("settings get system system_locales").strip() == "zh-CN"
    # The shell user may not set persist.* properties (init's property service needs root).
    assert status(adbd, "setprop persist.sys.locale en-US") == (
        1,
        "Failed to set property 'persist.sys.locale' to 'en-US'.\nSee dmesg for error reason.\n",
    )
    # Without CHANGE_CONFIGURATION the receiver cannot change the configuration.
    adbd.shell(f"pm revoke {LISTENER_PACKAGE} android.permission.CHANGE_CONFIGURATION")
    answer = adbd.shell(f"{SET_LOCALE}en-US")
    assert "result=0" in answer and "requires android.permission.CHANGE_CONFIGURATION" in answer
    assert adbd.shell("getprop persist.sys.locale").strip() == "zh-CN"


def test_apps_show_their_real_zh_cn_strings(zh, u2d, adbd):
    adbd.shell(f"pm clear {NOTES}")
    u2d.app_start(NOTES)
    assert u2d(description="创建一个新的笔记").exists  # new_note in Notes' values-zh-rCN
    assert u2d(description="更多选项").exists
    u2d.press("home")
    assert u2d(text="计算器").exists and u2d(text="笔记").exists  # launcher labels: app_launcher_name
    adbd.shell(f"{GRANT}; {SET_LOCALE}en-US")
    assert u2d(text="Calculator").exists  # a configuration change redraws at once


def test_screenshots_draw_cjk_with_a_real_font(zh, vdevice):
    from pytest_mobile_agent.virtual.ui.render.text import Fonts

    fonts = Fonts()
    runs = fonts.runs("笔记 Notes", 20)
    assert [seg for _, seg in runs] == ["笔记", " Notes"]
    assert "wqy" in runs[0][0].path or "CJK" in runs[0][0].path  # not Pillow's ASCII-only default


def test_a_missing_cjk_font_is_named_once(monkeypatch, caplog):
    from pytest_mobile_agent.virtual.ui.render import text

    monkeypatch.setattr(text, "FALLBACK_FONTS", ())
    fonts = text.Fonts()
    with caplog.at_level(logging.WARNING):
        fonts.runs("你好", 20)
        fonts.runs("再见", 20)
    warned = [r.getMessage() for r in caplog.records if "CJK font" in r.getMessage()]
    assert len(warned) == 1 and "apt-get install fonts-wqy-microhei" in warned[0]


def test_adb_keyboard_is_installed_and_must_be_enabled_before_it_is_set(adbd):
    adbd.shell(f"ime disable {ADB_IME}; ime set {LATIN_IME}")
    assert "package:com.android.adbkeyboard" in adbd.shell("pm list packages adbkeyboard")
    assert adbd.shell("ime list -a -s").split() == [LATIN_IME, ADB_IME]
    assert adbd.shell("ime list -s").split() == [LATIN_IME]
    rc, out = status(adbd, f"ime set {ADB_IME}")
    assert rc == 255 and f"Unknown input method {ADB_IME} cannot be selected for user #0" in out
    assert adbd.shell(f"ime enable {ADB_IME}").strip() == f"Input method {ADB_IME}: now enabled for user #0"
    assert adbd.shell(f"ime enable {ADB_IME}").strip() == f"Input method {ADB_IME}: already enabled for user #0"
    assert adbd.shell(f"ime set {ADB_IME}").strip() == f"Input method {ADB_IME} selected for user #0"
    assert adbd.shell("settings get secure default_input_method").strip() == ADB_IME
    adbd.shell(f"ime set {LATIN_IME}")


def test_adb_keyboard_broadcasts_type_chinese(new_note_dialog, adbd):
    d = new_note_dialog
    # Not the current input method: the broadcast is received by nobody, nothing is typed.
    out = adbd.shell("am broadcast -a ADB_INPUT_TEXT --es msg '你好'")
    assert "Broadcasting: Intent { act=ADB_INPUT_TEXT flg=0x400000 (has extras) }" in out
    assert title_field(d) == ""
    adbd.shell(f"ime enable {ADB_IME}; ime set {ADB_IME}")
    adbd.shell("am broadcast -a ADB_INPUT_TEXT --es msg '你好'")
    assert title_field(d) == "你好"
    msg = base64.b64encode("，世界 ok".encode()).decode()
    adbd.shell(f"am broadcast -a ADB_INPUT_B64 --es msg {msg}")
    assert title_field(d) == "你好，世界 ok"


def test_input_text_has_the_limits_of_inputshellcommand(new_note_dialog, adbd):
    d = new_note_dialog
    rc, out = status(adbd, "input text '你好'")
    assert rc == 255 and "java.lang.NullPointerException: Attempt to get length of null array" in out
    assert "Exception occurred while executing 'text':" in out and title_field(d) == ""
    rc, _ = status(adbd, "input text 'caf\u00e9'")  # one non-ASCII character: nothing at all is typed
    assert rc == 255 and title_field(d) == ""
    adbd.shell("input text hello world")  # only the first argument is typed
    assert title_field(d) == "hello"
    adbd.shell("input text '%sa\\b%%s'")  # %s is a space, a backslash is typed as it is
    assert title_field(d) == "hello a\\b% "

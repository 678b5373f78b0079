"""The string tables (the real apps' en and zh-CN resources) and what is built on them: locale
tags, texts and formatted texts in a locale, dates, and golden-path selectors on a zh-CN screen."""

from __future__ import annotations

from datetime import datetime

import pytest

from pytest_mobile_agent.actions import Tap
from pytest_mobile_agent.device.ui_tree import UiTree, localize_action
from pytest_mobile_agent.locales import LocaleError, localize, normalize, string, variants
from pytest_mobile_agent.locales.dates import java_date, month_name, weekday_name

NOTES = "com.simplemobiletools.notes.pro"
CALCULATOR = "com.simplemobiletools.calculator"


@pytest.mark.parametrize("tag", ["zh-CN", "zh_CN", "zh-rCN", "zh-Hans-CN", "zh", "ZH-cn"])
def test_locale_tags_name_zh_cn_however_written(tag):
    assert normalize(tag) == "zh-CN"


def test_an_unsupported_locale_is_refused_with_the_supported_ones():
    with pytest.raises(LocaleError, match=r"'fr-FR' is not supported; supported: en-US, zh-CN"):
        normalize("fr-FR")


def test_strings_come_from_the_app_then_simple_commons():
    assert string("commons", "ok", "zh-CN") == "确认"  # Simple-Commons values-zh-rCN
    assert string(CALCULATOR, "app_launcher_name", "zh-CN") == "计算器"
    assert string(NOTES, "cancel", "zh-CN") == "取消"  # an app falls back to the library it links
    assert string(NOTES, "cancel") == "Cancel"
    with pytest.raises(KeyError, match="no string resource 'no_such_string'"):
        string(NOTES, "no_such_string", "zh-CN")


def test_chinese_plurals_use_the_other_form():
    assert string("commons", "months#one", "zh-CN") == string("commons", "months#other", "zh-CN") == "%d 月"


def test_texts_formats_and_user_content_in_zh_cn():
    assert localize("OK", NOTES, "zh-CN") == "确认"
    assert localize("Version 6.2.0", "commons", "zh-CN") == "版本 6.2.0"  # "Version %s"
    assert localize("my shopping list", NOTES, "zh-CN") == "my shopping list"  # no app string
    assert localize("OK", NOTES, "en-US") == "OK"
    assert variants("Camera", ["commons"], "zh-CN")[0] == "相机"


def test_dates_in_zh_cn_as_icu_writes_them():
    when = datetime(2024, 5, 6, 15, 4)
    assert java_date("hh:mm a", when, "zh-CN") == "03:04 下午"
    assert java_date("hh:mm a", when, "en-US") == "03:04 PM"
    assert java_date("EEE, MMM d, yyyy", when, "zh-CN") == "周一, 5月 6, 2024"
    assert java_date("MMMM yyyy", when, "zh-CN") == "五月 2024"
    assert java_date("dd.MM.yyyy HH:mm", when, "zh-CN") == "06.05.2024 15:04"
    assert (month_name(6, "zh-CN"), weekday_name(0, "zh-CN")) == ("六月", "周一")


DUMP = f"""<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">
<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="{NOTES}" content-desc=""
 checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false"
 scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2340]">
<node index="0" text="OK" resource-id="" class="android.widget.TextView" package="{NOTES}" content-desc=""
 checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false"
 scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][100,100]" />
<node index="1" text="确认" resource-id="" class="android.widget.Button" package="{NOTES}" content-desc=""
 checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false"
 scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,200][100,300]" />
<node index="2" text="" resource-id="" class="android.widget.ImageView" package="{NOTES}" content-desc="更多选项"
 checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false"
 scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,400][100,500]" />
</node></hierarchy>"""


def test_a_golden_step_taps_the_zh_cn_form_unless_the_english_text_is_on_screen():
    ui = UiTree(DUMP)
    tap_more = localize_action(Tap(desc="More options"), ui, [NOTES], "zh-CN")
    assert tap_more.selector.description == "更多选项"
    # "OK" is on screen as a text of its own (user content): the step taps it as written.
    assert localize_action(Tap(text="OK"), ui, [NOTES], "zh-CN").selector.text == "OK"
    assert localize_action(Tap(text="Cancel"), ui, [NOTES], "zh-CN").selector.text == "取消"  # no match: first form
    assert localize_action(Tap(desc="More options"), ui, [NOTES], "en-US").selector.description == "More options"


def test_bodies_query_in_the_device_locale_and_actions_match_exactly():
    ui = UiTree(DUMP, locale="zh-CN")
    assert ui.exists(desc="More options") and ui.tr("More options") == "更多选项"
    assert ui.select(Tap(desc="More options").selector) is None  # an agent's selector: only what is shown
    assert ui.exact().find(desc="More options") is None
    assert UiTree(DUMP).find(desc="More options") is None  # en-US: no translation

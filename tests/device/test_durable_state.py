"""The durable state read through adb from a virtual device, and its diffs."""

from __future__ import annotations

import pytest

from pytest_mobile_agent.device.android import AndroidDevice
from pytest_mobile_agent.device.durable_state import capture, parse_capture
from task_suites.shared import seeds

NOTES = "com.simplemobiletools.notes.pro"


@pytest.fixture
def dev(vdevice) -> AndroidDevice:
    d = AndroidDevice(vdevice.serial)
    d.sh("rm -rf /sdcard/Download/* /sdcard/Download/.[a-z]*")
    seeds.remove_contacts(d, "Yuzai", "Zack")
    seeds.remove_conversation(d)
    return d


def test_no_change_reads_as_an_empty_diff(dev):
    seeds.contact_yuzai(dev)
    before = capture(dev)
    diff = before.diff(capture(dev))
    assert not diff and str(diff) == "no durable change"


def test_a_renamed_contact_is_a_change_and_a_new_one_an_addition(dev):
    seeds.contact_yuzai(dev)
    before = capture(dev)
    dev.sh(
        "content update --uri content://com.android.contacts/raw_contacts --bind display_name:s:Zack "
        "--where \"display_name='Yuzai'\""
    )
    renamed = before.diff(capture(dev))
    assert [(c.area, c.kind) for c in renamed] == [("contacts", "changed")]
    assert "display_name 'Yuzai' -> 'Zack'" in str(renamed)
    seeds.add_contact(dev, "Yuzai", seeds.NUMBER)
    added = before.diff(capture(dev)).where(area="contacts", kind="added")
    assert len(added) == 1 and added.changes[0].after["name.data2"] == "Yuzai"
    assert added.changes[0].after["phone.data1"] == seeds.NUMBER


def test_hidden_files_hashes_and_renames_show(dev):
    dev.push(b"one\n", "/sdcard/Download/a b.txt")
    before = capture(dev)
    dev.sh("mv '/sdcard/Download/a b.txt' /sdcard/Download/.hidden; mkdir /sdcard/Download/new")
    diff = before.diff(capture(dev))
    assert {(c.key, c.kind) for c in diff} == {
        ("Download/a b.txt", "removed"),
        ("Download/.hidden", "added"),
        ("Download/new/", "added"),
    }
    dev.push(b"two\n", "/sdcard/Download/.hidden")
    assert [c.kind for c in capture(dev).diff(before).where(key="Download/.hidden")] == ["removed"]


def test_app_json_records_by_id_and_sms_rows(dev):
    dev.sh(f"pm clear {NOTES}")
    dev.launch(NOTES)
    before = capture(dev, [NOTES])
    assert "files/notes.json[id=1]" in before[NOTES]
    seeds.conversation_123456789(dev)
    diff = before.diff(capture(dev, [NOTES]))
    assert [(c.area, c.kind) for c in diff] == [("sms", "added"), ("conversations", "added")]
    assert "body='i luv u'" in str(diff)


def test_a_missing_provider_is_no_area_and_a_value_may_hold_newlines():
    out = (
        "@@pma contacts\nNo result found.\n@@pma calendar\nError while accessing provider: Unknown URI x\n"
        "@@pma sms\nRow: 0 _id=4, address=1, body=two\nlines, type=1\n"
    )
    state = parse_capture(out)
    assert state.areas["calendar"] is None and state.areas["contacts"] == {}
    assert state["sms"]["#4"] == {"address": "1", "body": "two\nlines", "type": "1"}

"""Simple SMS Messenger on the virtual device: the provider-backed conversations and the flows
of the benchmark's messager_* tasks, driven through uiautomator2."""

from __future__ import annotations

import re

import pytest
from drags import drag
from fidelity_docs import fidelity_doc, model_ids

PKG = "com.simplemobiletools.smsmessenger"
NUMBER = "123456789"


def rid(name: str) -> str:
    return f"{PKG}:id/{name}"


@pytest.fixture
def sms(u2d, adbd):
    adbd.shell(["content", "delete", "--uri", "content://sms"])
    adbd.shell(["content", "delete", "--uri", "content://mms-sms/conversations"])
    adbd.shell(["content", "delete", "--uri", "content://com.android.contacts/raw_contacts"])
    adbd.shell(f"pm clear {PKG}")
    u2d.app_start(PKG)
    return u2d


def seed(adbd, address: str, body: str, box: str = "inbox") -> None:
    adbd.shell(
        [
            "content",
            "insert",
            "--uri",
            f"content://sms/{box}",
            "--bind",
            f"address:s:{address}",
            "--bind",
            f"body:s:{body}",
        ]
    )
    adbd.shell(f"am force-stop {PKG}")


def start_conversation(d, adbd) -> None:
    """The benchmark's expert path for messager_start_a_conversation."""
    d(resourceId=rid("conversations_fab")).click()
    adbd.shell(["input", "text", NUMBER])
    d(resourceId=rid("new_conversation_confirm")).click()
    d(resourceId=rid("thread_type_message")).click()
    adbd.shell(["input", "text", "i luv u"])
    d(resourceId=rid("thread_send_message")).click()


def scroll_to(d, **selector) -> None:
    for _ in range(8):
        if d(**selector).exists:
            return
        drag(d, 540, 1900, 540, 900)
    raise AssertionError(f"not found: {selector}")


def overflow(d, title: str) -> None:
    d(description="More options").click()
    d(text=title).click()


def test_fresh_main_screen(sms):
    d = sms
    assert d(resourceId=rid("no_conversations_placeholder")).get_text() == "No stored conversations have been found"
    assert d(resourceId=rid("no_conversations_placeholder_2")).get_text() == "Start a conversation"
    assert d(description="Settings").info["resourceName"] == rid("settings")
    assert d(description="About").info["resourceName"] == rid("about")
    assert d(resourceId=rid("top_toolbar_search")).exists
    d(description="More options").click()
    assert d(text="Show archived conversations").exists
    assert not d(text="Show the Recycle Bin").exists and not d(text="More apps from us").exists


def test_start_a_conversation_and_send(sms, adbd):
    d = sms
    d(resourceId=rid("conversations_fab")).click()
    assert d(resourceId=rid("new_conversation_toolbar")).child(text="New conversation").exists
    field = d(resourceId=rid("new_conversation_address"))
    assert field.info["focused"]
    assert not d(resourceId=rid("new_conversation_confirm")).exists
    adbd.shell(["input", "text", NUMBER])
    assert field.get_text() == NUMBER
    d(resourceId=rid("new_conversation_confirm")).click()
    assert d(resourceId=rid("thread_toolbar")).child(text=NUMBER).exists
    send = d(resourceId=rid("thread_send_message"))
    assert send.get_text() == "SMS" and send.info["contentDescription"] == "OK"
    assert not send.info["enabled"]
    d(resourceId=rid("thread_type_message")).click()
    adbd.shell(["input", "text", "i luv u"])
    assert send.info["enabled"]
    send.click()
    assert d(resourceId=rid("thread_message_body")).get_text() == "i luv u"
    assert d(resourceId=rid("thread_type_message")).get_text() == ""
    rows = adbd.shell(["content", "query", "--uri", "content://sms/sent", "--projection", "address:body:type"])
    assert rows.strip() == f"Row: 0 address={NUMBER}, body=i luv u, type=2"
    # The new-conversation screen stays below the thread: two Backs to the list.
    d(description="Back").click()
    assert d(resourceId=rid("new_conversation_address")).exists
    d(description="Back").click()
    assert d(resourceId=rid("conversation_address")).get_text() == NUMBER
    assert d(resourceId=rid("conversation_body_short")).get_text() == "i luv u"
    assert d(resourceId=rid("conversation_date")).get_text() == "09:00 AM"


def test_provider_seeding_shows_with_contact_names(sms, adbd):
    d = sms
    adbd.shell(
        [
            "content",
            "insert",
            "--uri",
            "content://com.android.contacts/raw_contacts",
            "--bind",
            "account_type:n:",
            "--bind",
            "account_name:n:",
        ]
    )
    raw_id = (
        adbd.shell(["content", "query", "--uri", "content://com.android.contacts/raw_contacts", "--projection", "_id"])
        .split("_id=")[-1]
        .strip()
    )
    for mime, value in (
        ("vnd.android.cursor.item/name", "data1:s:Alice"),
        ("vnd.android.cursor.item/phone_v2", "data1:s:555-0100"),
    ):
        adbd.shell(
            [
                "content",
                "insert",
                "--uri",
                "content://com.android.contacts/data",
                "--bind",
                f"raw_contact_id:i:{raw_id}",
                "--bind",
                f"mimetype:s:{mime}",
                "--bind",
                value,
            ]
        )
    seed(adbd, "5550100", "Lunch?")
    seed(adbd, NUMBER, "i luv u")
    d.app_start(PKG)
    titles = [v.info["text"] for v in d(resourceId=rid("conversation_address"))]
    assert titles == [NUMBER, "Alice"] or titles == ["Alice", NUMBER]
    d(text="Alice").click()
    assert d(resourceId=rid("thread_toolbar")).child(text="Alice").exists
    assert d(resourceId=rid("thread_message_body")).get_text() == "Lunch?"
    assert "read=1" in adbd.shell(
        ["content", "query", "--uri", "content://sms/inbox", "--where", "address='5550100'", "--projection", "read"]
    )


def test_check_message_properties(sms, adbd):
    d = sms
    start_conversation(d, adbd)
    d(description="Back").click()
    d(description="Back").click()
    d(resourceId=rid("conversation_frame")).click()
    d(resourceId=rid("thread_message_body")).long_click()
    assert d(resourceId=rid("actionbar_title")).get_text() == "1 / 1"
    assert d(description="Copy to clipboard").info["resourceName"] == rid("cab_copy_to_clipboard")
    assert d(description="Delete").info["resourceName"] == rid("cab_delete")
    overflow(d, "Properties")
    assert d(resourceId=rid("alertTitle")).get_text() == "Message details"
    labels = [v.info["text"] for v in d(resourceId=rid("property_label"))]
    values = [v.info["text"] for v in d(resourceId=rid("property_value"))]
    assert labels == ["Receiver", "Sent at"]
    assert values == [NUMBER, "15.05.2024 09:00 AM"]
    assert d(resourceId="android:id/button1").get_text() == "OK"
    assert not d(resourceId="android:id/button2").exists
    d(text="OK").click()
    assert not d(resourceId=rid("action_mode_bar")).exists


def test_archive_conversation_and_archived_list(sms, adbd):
    d = sms
    seed(adbd, NUMBER, "i luv u")
    d.app_start(PKG)
    d(resourceId=rid("conversation_address"), text=NUMBER).long_click()
    assert d(description="Dial number").info["resourceName"] == rid("cab_dial_number")
    overflow(d, "Archive")
    assert d(resourceId=rid("message")).get_text() == "Are you sure you want to archive 1 conversation?"
    d(text="Yes").click()
    assert not d(resourceId=rid("conversation_address")).exists
    assert d(text="No stored conversations have been found").exists
    archived = adbd.shell(
        ["content", "query", "--uri", "content://mms-sms/conversations", "--projection", "address:archived"]
    )
    assert archived.strip() == f"Row: 0 address={NUMBER}, archived=1"
    overflow(d, "Show archived conversations")
    assert d(resourceId=rid("archive_toolbar")).child(text="Archive").exists
    assert d(resourceId=rid("conversation_address")).get_text() == NUMBER
    adbd.shell(f"am force-stop {PKG}")
    d.app_start(PKG)
    overflow(d, "Show archived conversations")
    d(resourceId=rid("conversation_address")).long_click()
    overflow(d, "Unarchive")
    assert d(text="No archived conversations have been found").exists
    d(description="Back").click()
    assert d(resourceId=rid("conversation_address")).get_text() == NUMBER


def test_search_contacts_and_messages(sms, adbd):
    d = sms
    seed(adbd, NUMBER, "i luv u")
    seed(adbd, "987654321", "see you")
    d.app_start(PKG)
    d(resourceId=rid("top_toolbar_search")).click()
    adbd.shell(["input", "text", "1"])
    assert d(resourceId=rid("search_placeholder_2")).exists
    adbd.shell(["input", "text", "23456789"])
    assert d(resourceId=rid("top_toolbar_search")).get_text() == NUMBER
    # The list stays under the search overlay, as in the real layout.
    assert d(resourceId=rid("conversation_address")).get_text() == NUMBER
    assert [v.info["text"] for v in d(resourceId=rid("search_result_title"))] == [NUMBER]
    d(resourceId=rid("top_toolbar_search")).clear_text()
    adbd.shell(["input", "text", "i luv u"])
    assert d(resourceId=rid("search_result_snippet")).get_text() == "i luv u"
    assert d(resourceId=rid("conversation_body_short")).exists
    d(resourceId=rid("search_result_holder")).click()
    assert d(resourceId=rid("thread_message_body")).get_text() == "i luv u"
    d.press("back")
    d.press("back")  # closes the search
    assert d(resourceId=rid("top_toolbar_search")).get_text() == ""
    assert not d(resourceId=rid("search_holder")).exists


def test_add_block_number_hides_its_conversation(sms, adbd):
    d = sms
    seed(adbd, NUMBER, "i luv u")
    d.app_start(PKG)
    d(resourceId=rid("settings")).click()
    d(text="Manage blocked numbers").click()
    assert d(text="You are not blocking anyone.").exists
    d(description="Add a blocked number").click()
    adbd.shell(["input", "text", NUMBER])
    d(text="OK").click()
    assert d(text=NUMBER).exists and not d(text="OK").exists
    assert d.app_current()["activity"].endswith("ManageBlockedNumbersActivity")
    adbd.shell(f"am force-stop {PKG}")
    d.app_start(PKG)
    assert not d(resourceId=rid("conversation_address")).exists  # blocked conversations are left out
    d(resourceId=rid("settings")).click()
    d(text="Manage blocked numbers").click()
    d(text=NUMBER).long_click()
    assert d(text="1 / 1").exists
    d(description="Delete").click()
    assert d(text="You are not blocking anyone.").exists


def test_change_font_size_and_settings(sms, adbd):
    d = sms
    d(resourceId=rid("settings")).click()
    assert d(resourceId=rid("settings_font_size")).get_text() == "Medium"
    d(resourceId=rid("settings_font_size_holder")).click()
    assert not d(resourceId=rid("alertTitle")).exists
    assert [v.info["text"] for v in d(className="android.widget.RadioButton")] == [
        "Small",
        "Medium",
        "Large",
        "Extra large",
    ]
    d(text="Large").click()
    assert d(resourceId=rid("settings_font_size")).get_text() == "Large"
    assert d(resourceId=rid("settings_lock_screen_visibility")).get_text() == "Sender and message"
    # Password protection goes through the commons security dialog; Cancel leaves it off.
    scroll_to(d, resourceId=rid("settings_app_password_protection_holder"))
    d(resourceId=rid("settings_app_password_protection_holder")).click()
    assert d(resourceId=rid("pattern_lock_title")).get_text() == "Insert pattern"
    d(text="Cancel").click()
    assert not d(resourceId=rid("settings_app_password_protection")).info["checked"]
    adbd.shell(f"am force-stop {PKG}")
    d.app_start(PKG)
    d(resourceId=rid("settings")).click()
    assert d(resourceId=rid("settings_font_size")).get_text() == "Large"
    adbd.shell(f"pm clear {PKG}")
    d.app_start(PKG)
    d(resourceId=rid("settings")).click()
    assert d(resourceId=rid("settings_font_size")).get_text() == "Medium"


def test_24_hour_format_changes_dates(sms, adbd):
    d = sms
    seed(adbd, NUMBER, "i luv u")
    d.app_start(PKG)
    d(resourceId=rid("settings")).click()
    d(text="Change date and time format").click()
    assert d(resourceId=rid("change_date_time_dialog_radio_one")).info["checked"]
    d(resourceId=rid("change_date_time_dialog_24_hour")).click()
    d(text="OK").click()
    d(description="Back").click()
    assert d(resourceId=rid("conversation_date")).get_text() == "09:00"


def test_delete_conversation_and_draft(sms, adbd):
    d = sms
    seed(adbd, NUMBER, "i luv u")
    d.app_start(PKG)
    d(resourceId=rid("conversation_frame")).click()
    d(resourceId=rid("thread_type_message")).click()
    adbd.shell(["input", "text", "later"])
    d(description="Back").click()
    assert d(resourceId=rid("draft_indicator")).get_text() == "Draft"
    d(resourceId=rid("conversation_address")).long_click()
    d(resourceId=rid("cab_delete")).click()
    assert d(resourceId=rid("message")).get_text() == "Are you sure you want to delete 1 conversation?"
    d(text="Yes").click()
    assert d(text="No stored conversations have been found").exists
    assert adbd.shell(["content", "query", "--uri", "content://sms"]).strip() == "No result found."


def test_fidelity_doc_lists_every_id():
    """Every resource id the model names (rid("…") and menu rows) is in docs/fidelity/smsmessenger.md."""
    doc = fidelity_doc("smsmessenger")
    ids = model_ids("smsmessenger")
    assert ids and sorted(i for i in ids if i not in doc) == []


def test_sent_bubbles_sit_at_the_end_received_at_the_start_each_with_its_text(sms, adbd):
    """As the messenger's item_sent_message and item_received_message lay them out: a sent
    message's bubble ends at the right edge, a received one starts beside the sender's photo,
    each a rounded bubble with its text inside, however short ("ok")."""
    import io

    from PIL import Image

    d = sms
    for box, body in (("inbox", "Are we still on for dinner tonight?"), ("sent", "Yes, see you at 8"), ("inbox", "ok")):
        seed(adbd, NUMBER, body, box)
    d.app_start(PKG)
    d(resourceId=rid("conversation_address")).click()
    bodies = {e.get_text(): e.info["bounds"] for e in d(resourceId=rid("thread_message_body"))}
    screen = Image.open(io.BytesIO(adbd.shell("screencap -p", encoding=None))).convert("RGB")
    width = screen.width
    sent, received = bodies["Yes, see you at 8"], bodies["ok"]
    assert sent["right"] > width * 0.9 and sent["left"] > width * 0.3
    assert received["left"] < width * 0.25 and received["right"] < width * 0.5
    for b in (sent, received):
        corner = screen.getpixel((b["left"] + 1, b["top"] + 1))
        middle = screen.getpixel(((b["left"] + b["right"]) // 2, (b["top"] + b["bottom"]) // 2 - 10))
        fill = screen.getpixel((b["left"] + 30, (b["top"] + b["bottom"]) // 2))
        assert corner != fill  # a rounded corner, not a square one
        ink = screen.crop((b["left"], b["top"], b["right"], b["bottom"])).getcolors(100_000)
        assert any(sum(c) < 300 for _, c in ink), f"no text drawn in {b} (middle {middle})"


def test_attach_a_picture_and_send_it_as_mms(sms, adbd):
    d = sms
    adbd.shell("mkdir -p /sdcard/DCIM/Camera && echo jpegdata > /sdcard/DCIM/Camera/beach.jpg")
    adbd.shell("echo notes > /sdcard/Download/list.txt")
    start_conversation(d, adbd)  # one SMS sent, then the picker
    d(resourceId=rid("thread_add_attachment")).click()
    labels = [d(resourceId=rid(f"{k}_text")).get_text() for k in ("choose_photo", "pick_file", "schedule_message")]
    assert labels == ["Choose photo", "Choose file", "Schedule message"]
    assert d(resourceId=rid("take_photo_text")).get_text() == "Take photo"
    d(resourceId=rid("record_audio")).click()  # RECORD_SOUND: Voice Recorder
    assert d.app_current()["package"] == "com.simplemobiletools.voicerecorder"
    d.press("back")
    d(resourceId=rid("choose_photo")).click()  # the system's picker: images only
    assert d.app_current()["package"] == "com.google.android.documentsui"
    titles = [n.get_text() for n in d(resourceId="android:id/title")]  # newest first; earlier tests' may follow
    assert titles[0] == "beach.jpg" and "list.txt" not in titles
    d(resourceId="android:id/title", text="beach.jpg").click()
    assert d.app_current()["package"] == PKG
    assert d(resourceId=rid("thread_attachments_recyclerview")).child(resourceId=rid("thumbnail")).exists
    assert d(resourceId=rid("thread_send_message")).get_text() == "MMS"
    d(resourceId=rid("pick_file")).click()  # any file: a document preview
    d(resourceId="android:id/title", text="list.txt").click()
    assert d(resourceId=rid("filename")).get_text() == "list.txt"
    d(resourceId=rid("remove_attachment_button"), instance=1).click()
    assert not d(resourceId=rid("filename")).exists
    d(resourceId=rid("thread_type_message")).click()  # the keyboard takes the picker's place
    assert not d(resourceId=rid("attachment_picker_holder")).exists
    adbd.shell(["input", "text", "look"])
    d(resourceId=rid("thread_send_message")).click()
    assert d(resourceId=rid("thread_send_message")).get_text() == "SMS"
    assert not d(resourceId=rid("thread_attachments_recyclerview")).exists
    bubble = d(resourceId=rid("thread_message_attachments_holder"))
    assert bubble.child(resourceId=rid("attachment_image")).exists
    pdu = adbd.shell(["content", "query", "--uri", "content://mms/sent"])
    assert pdu.count("Row:") == 1 and "msg_box=2" in pdu
    parts = adbd.shell(["content", "query", "--uri", "content://mms/part", "--projection", "ct:name:text"])
    assert "ct=image/jpeg, name=beach.jpg" in parts and "ct=text/plain, name=NULL, text=look" in parts
    thread = adbd.shell(["content", "query", "--uri", "content://mms-sms/conversations"])
    assert "message_count=2" in thread and "snippet=look" in thread
    d(resourceId=rid("attachment_image")).long_click()  # the MMS alone: the thread keeps the SMS
    d(description="Delete").click()
    d(text="Yes").click()
    assert "No result found." in adbd.shell(["content", "query", "--uri", "content://mms"])
    assert "No result found." in adbd.shell(["content", "query", "--uri", "content://mms/part"])
    thread = adbd.shell(["content", "query", "--uri", "content://mms-sms/conversations"])
    assert "message_count=1" in thread and "snippet=i luv u" in thread


def test_a_seeded_received_mms_shows_its_picture(sms, adbd):
    d = sms
    seed(adbd, NUMBER, "hello")  # the thread
    tid = re.findall(r"_id=(\d+)", adbd.shell(["content", "query", "--uri", "content://mms-sms/conversations"]))[0]
    adbd.shell(
        ["content", "insert", "--uri", "content://mms/inbox", "--bind", f"thread_id:i:{tid}", "--bind", "date:l:1"]
    )
    mid = re.findall(r"_id=(\d+)", adbd.shell(["content", "query", "--uri", "content://mms", "--projection", "_id"]))[
        -1
    ]
    for ct, extra in (("image/png", "name:s:cat.png"), ("text/plain", "text:s:look at this")):
        binds = ["--bind", f"mid:i:{mid}", "--bind", f"ct:s:{ct}", "--bind", extra]
        adbd.shell(["content", "insert", "--uri", "content://mms/part", *binds])
    d.app_start(PKG)
    d(resourceId=rid("conversation_address"), text=NUMBER).click()
    holder = d(resourceId=rid("thread_message_attachments_holder"))
    assert holder.child(resourceId=rid("attachment_image")).exists
    assert [n.get_text() for n in d(resourceId=rid("thread_message_body"))] == ["look at this", "hello"]
    assert d(resourceId=rid("thread_message_sender_photo")).exists  # received: at the start, with the photo

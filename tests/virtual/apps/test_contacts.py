"""Simple Contacts Pro on the virtual device: the contacts provider is its storage."""

from __future__ import annotations

import calendar
import re
import xml.etree.ElementTree as ET

import pytest
from drags import drag

PKG = "com.simplemobiletools.contacts.pro"
RAW = "content://com.android.contacts/raw_contacts"
DATA = "content://com.android.contacts/data"


def rid(name: str) -> str:
    return f"{PKG}:id/{name}"


@pytest.fixture
def contacts(u2d, adbd):
    adbd.shell(f"content delete --uri {RAW}")  # the bench clears the contacts provider
    adbd.shell(f"pm clear {PKG}")
    u2d.app_start(PKG)
    return u2d


def nodes(d) -> list[ET.Element]:
    return list(ET.fromstring(d.dump_hierarchy()).iter("node"))


def texts(d, name: str) -> list[str]:
    return [n.get("text", "") for n in nodes(d) if n.get("resource-id") == rid(name)]


def seed(adbd, name: str, number: str = "", email: str = "") -> int:
    """A device-local contact through `content insert`, as a task fixture would add it."""
    adbd.shell(f"content insert --uri {RAW} --bind account_name:s: --bind account_type:s:")
    raw_id = max(int(i) for i in re.findall(r"_id=(\d+)", adbd.shell(f"content query --uri {RAW} --projection _id")))
    rows = [("vnd.android.cursor.item/name", name, "")]
    if number:
        rows.append(("vnd.android.cursor.item/phone_v2", number, "2"))
    if email:
        rows.append(("vnd.android.cursor.item/email_v2", email, "1"))
    for mime, value, kind in rows:
        binds = ["--bind", f"raw_contact_id:i:{raw_id}", "--bind", f"mimetype:s:{mime}", "--bind", f"data1:s:{value}"]
        adbd.shell(["content", "insert", "--uri", DATA, *binds, *(["--bind", f"data2:s:{kind}"] if kind else [])])
    return raw_id


def query(adbd, uri: str, **where: str) -> str:
    clause = " AND ".join(f"{k}='{v}'" for k, v in where.items())
    return adbd.shell(["content", "query", "--uri", uri] + (["--where", clause] if clause else []))


def overflow(d, title: str) -> None:
    d(description="More options").click()
    d(text=title).click()


def scroll_to(d, **selector) -> None:
    for _ in range(6):
        if d(**selector).exists:
            return
        d.swipe(540, 1900, 540, 900, 0.1)
    raise AssertionError(f"not found: {selector}")


def restart(d, adbd) -> None:
    adbd.shell(f"am force-stop {PKG}")
    d.app_start(PKG)


def test_fresh_screen_menu_and_tabs(contacts):
    d = contacts
    assert d(resourceId=rid("fragment_placeholder")).get_text() == "No contacts found"
    assert d(resourceId=rid("fragment_placeholder_2")).get_text() == "Change filter"
    assert d(description="Sort by").info["resourceName"] == rid("sort")
    assert d(description="Filter").info["resourceName"] == rid("filter")
    assert d(description="Create new contact").info["resourceName"] == rid("fragment_fab")
    assert d(description="Dialpad").info["resourceName"] == rid("main_dialpad_button")
    assert texts(d, "tab_item_label") == ["Contacts", "Favorites", "Groups"]
    d(description="More options").click()
    assert texts(d, "title") == ["Settings", "About"]
    d.press("back")
    d(text="Favorites").click()
    assert d(resourceId=rid("fragment_placeholder")).get_text() == (
        "Seems like you haven't added any favorite contacts yet."
    )
    assert d(description="Add favorites").exists
    d(text="Groups").click()
    assert d(resourceId=rid("fragment_placeholder_2")).get_text() == "Create group"
    assert not d(description="Sort by").exists and d(description="Settings").exists


def test_create_contact_writes_the_provider(contacts, adbd):
    d = contacts
    d(resourceId=rid("fragment_fab")).click()  # contacts_create
    assert d(resourceId=rid("contact_number_type")).get_text() == "Mobile"
    scroll_to(d, resourceId=rid("contact_source"))  # below the events and groups
    assert d(resourceId=rid("contact_source")).get_text() == "Phone storage"
    d.swipe(540, 900, 540, 1900, 0.1)
    d(resourceId=rid("contact_first_name")).click()
    adbd.shell(["input", "text", "Yuzai"])
    d(resourceId=rid("contact_number")).click()
    adbd.shell(["input", "text", "123456789"])
    assert d(resourceId=rid("contact_first_name")).get_text() == "Yuzai"
    assert d(resourceId=rid("contact_number")).get_text() == "123456789"
    d(description="Save").click()
    assert texts(d, "item_contact_name") == ["Yuzai"]
    assert "display_name=Yuzai" in query(adbd, "content://com.android.contacts/contacts")
    phones = query(adbd, "content://com.android.contacts/data/phones")
    assert "data1=123456789" in phones and "data2=2" in phones
    restart(d, adbd)
    assert texts(d, "item_contact_name") == ["Yuzai"]
    # An empty form is refused.
    d(resourceId=rid("fragment_fab")).click()
    d(description="Save").click()
    assert d.toast.get_message(0, default="") == "At least 1 field has to be filled out"


def test_seeded_contact_view_and_favorite(contacts, adbd):
    d = contacts
    seed(adbd, "Yuzai", "123456789", "yuzai@gmail.com")
    assert texts(d, "item_contact_name") == ["Yuzai"]  # seeding shows up without a restart
    d(text="Yuzai").click()
    assert d(resourceId=rid("contact_name")).get_text() == "Yuzai"
    assert texts(d, "contact_number") == ["123456789"]
    assert texts(d, "contact_number_type") == ["Mobile"]
    assert texts(d, "contact_email") == ["yuzai@gmail.com"]
    assert texts(d, "contact_email_type") == ["Home"]
    assert all(d(description=x).exists for x in ("Edit contact", "Share", "Delete"))
    d(resourceId=rid("contact_toggle_favorite")).click()  # contacts_favorite
    assert "starred=1" in query(adbd, "content://com.android.contacts/contacts", display_name="Yuzai")
    d.press("back")
    d(text="Favorites").click()
    assert texts(d, "item_contact_name") == ["Yuzai"]


def test_delete_from_the_view_and_from_the_selection(contacts, adbd):
    d = contacts
    seed(adbd, "Yuzai", "123456789")
    seed(adbd, "Zack", "555")
    d(text="Yuzai").click()  # contacts_delete
    d(description="Delete").click()
    assert d(resourceId=rid("message")).get_text() == "Are you sure you want to proceed with the deletion?"
    d(text="Yes").click()
    assert texts(d, "item_contact_name") == ["Zack"]
    assert "Yuzai" not in query(adbd, "content://com.android.contacts/contacts")
    d(text="Zack").long_click()
    assert d(resourceId=rid("actionbar_title")).get_text() == "1 / 1"
    assert d(description="Edit contact").info["resourceName"] == rid("cab_edit")
    overflow(d, "Delete")
    assert d(resourceId=rid("message")).get_text() == 'Are you sure you want to delete "Zack"?'
    d(text="Yes").click()
    assert d(resourceId=rid("fragment_placeholder")).exists


def test_filter_out_phone_storage(contacts, adbd):
    d = contacts
    seed(adbd, "Yuzai", "123456789")
    d(description="Filter").click()  # contacts_filter
    assert not d(resourceId=rid("alertTitle")).exists
    assert texts(d, "filter_contact_source_checkbox") == [
        "Phone storage (1)",
        "Phone storage (not visible by other apps) (0)",
    ]
    d(text="Phone storage (1)").click()
    assert not d(text="Phone storage (1)").info["checked"]
    d(text="OK").click()
    assert d(resourceId=rid("fragment_placeholder_2")).get_text() == "Change filter"
    assert not d(text="Yuzai").exists
    restart(d, adbd)
    assert not d(text="Yuzai").exists
    d(text="Change filter").click()
    d(text="Phone storage (1)").click()
    d(text="OK").click()
    assert texts(d, "item_contact_name") == ["Yuzai"]


def test_hide_email_from_the_profile(contacts, adbd):
    d = contacts
    seed(adbd, "Yuzai", "123456789", "yuzai@gmail.com")
    d(text="Yuzai").click()  # contacts_hide_email
    overflow(d, "Manage shown contact fields")
    assert d(resourceId=rid("manage_visible_fields_emails")).info["checked"]
    assert not d(resourceId=rid("manage_visible_fields_organization")).info["checked"]
    assert d(resourceId=rid("manage_ringtone")).get_text() == "Ringtone"
    d(resourceId=rid("manage_visible_fields_emails")).click()
    assert not d(resourceId=rid("manage_visible_fields_emails")).info["checked"]
    d(text="OK").click()
    assert not d(resourceId=rid("contact_email")).exists
    assert texts(d, "contact_number") == ["123456789"]
    # The same dialog from Settings shows the saved choice.
    d.press("back")
    overflow(d, "Settings")
    d(resourceId=rid("settings_manage_contact_fields_holder")).click()
    assert not d(resourceId=rid("manage_visible_fields_emails")).info["checked"]


def test_modify_number(contacts, adbd):
    d = contacts
    seed(adbd, "Yuzai", "123456789")
    d(text="Yuzai").click()  # contacts_modify
    d(description="Edit contact").click()
    assert d(resourceId=rid("contact_first_name")).get_text() == "Yuzai"
    d(resourceId=rid("contact_number")).clear_text()
    d(resourceId=rid("contact_number")).click()
    adbd.shell(["input", "text", "987654321"])
    d(description="Save").click()
    assert d(resourceId=rid("contact_name")).get_text() == "Yuzai"
    assert texts(d, "contact_number") == ["987654321"]
    assert "data1=987654321" in query(adbd, "content://com.android.contacts/data/phones")


def test_new_contact_with_labels_and_company(contacts, adbd):
    d = contacts
    overflow(d, "Settings")
    d(resourceId=rid("settings_manage_contact_fields_holder")).click()
    d(resourceId=rid("manage_visible_fields_organization")).click()
    d(text="OK").click()
    d.press("back")
    d(resourceId=rid("fragment_fab")).click()
    fields = {
        "contact_first_name": "Ada",
        "contact_surname": "Lovelace",
        "contact_number": "42",
        "contact_email": "ada@example.com",
        "contact_organization_company": "Analytical",
    }
    for field, value in fields.items():
        if not d(resourceId=rid(field)).exists:
            d.press("back")  # the keyboard
            drag(d, 540, 1800, 540, 900)
        d(resourceId=rid(field)).click()
        adbd.shell(["input", "text", value])
    d(resourceId=rid("contact_number_type")).click()
    assert [n.get("text") for n in nodes(d) if n.get("class") == "android.widget.RadioButton"] == [
        "Mobile", "Home", "Work", "Main number", "Work fax", "Home fax", "Pager", "Other", "Custom",
    ]  # fmt: skip
    d(text="Work").click()
    d(resourceId=rid("contact_email_type")).click()
    d(className="android.widget.RadioButton", text="Work").click()
    assert d(resourceId=rid("contact_number_type")).get_text() == "Work"
    d(description="Save").click()
    assert texts(d, "item_contact_name") == ["Ada Lovelace"]
    data = query(adbd, DATA)
    assert "data1=Ada Lovelace, data2=Ada, data3=Lovelace" in data
    assert "mimetype=vnd.android.cursor.item/phone_v2, is_primary=0, data1=42, data2=3" in data
    assert "data1=ada@example.com, data2=2" in data
    assert "mimetype=vnd.android.cursor.item/organization, is_primary=0, data1=Analytical" in data
    d(text="Ada Lovelace").click()
    assert d(resourceId=rid("contact_organization_company")).get_text() == "Analytical"
    assert texts(d, "contact_number_type") == ["Work"]


def test_remove_the_dialpad_button(contacts, adbd):
    d = contacts
    overflow(d, "Settings")  # contacts_remove_dialog
    assert d(resourceId=rid("settings_show_dialpad_button")).info["checked"]
    d(resourceId=rid("settings_show_dialpad_button_holder")).click()
    assert not d(resourceId=rid("settings_show_dialpad_button")).info["checked"]
    d.press("back")
    assert d(resourceId=rid("fragment_fab")).exists
    assert not d(resourceId=rid("main_dialpad_button")).exists
    d(description="More options").click()
    assert texts(d, "title") == ["Dialpad", "Settings", "About"]
    d.press("back")
    restart(d, adbd)
    assert not d(resourceId=rid("main_dialpad_button")).exists
    adbd.shell(f"pm clear {PKG}")
    d.app_start(PKG)
    assert d(resourceId=rid("main_dialpad_button")).exists


def test_search(contacts, adbd):
    d = contacts
    seed(adbd, "Yuzai", "123456789")
    seed(adbd, "Zack", "555")
    d(resourceId=rid("top_toolbar_search")).click()  # contacts_search
    adbd.shell(["input", "text", "Yuzai"])
    assert d(resourceId=rid("top_toolbar_search")).get_text() == "Yuzai"
    assert texts(d, "item_contact_name") == ["Yuzai"]
    d(resourceId=rid("top_toolbar_search")).set_text("555")
    assert texts(d, "item_contact_name") == ["Zack"]
    d(resourceId=rid("top_toolbar_search")).set_text("nobody")
    assert d(resourceId=rid("fragment_placeholder")).get_text() == "No contacts found"
    d(description="Back").click()
    assert texts(d, "item_contact_name") == ["Yuzai", "Zack"]


def test_sort_by_date_created_descending(contacts, adbd):
    d = contacts
    seed(adbd, "Yuzai", "123456789")
    seed(adbd, "Zack", "555")
    d(description="Sort by").click()  # contacts_sort
    assert d(resourceId=rid("sorting_dialog_radio_first_name")).info["checked"]
    assert d(resourceId=rid("sorting_dialog_radio_ascending")).info["checked"]
    assert not d(resourceId=rid("sorting_dialog_radio_custom")).exists
    d(text="Date created").click()
    d(text="Descending").click()
    d(text="OK").click()
    rows = [n for n in nodes(d) if n.get("resource-id") == rid("fragment_list")][0]
    assert [r.get("class") for r in rows] == ["android.view.ViewGroup"] * 2
    assert [next(t.get("text") for t in r.iter("node") if t.get("text")) for r in rows] == ["Zack", "Yuzai"]
    restart(d, adbd)
    assert texts(d, "item_contact_name") == ["Zack", "Yuzai"]
    seed(adbd, "Ann Zed")
    seed(adbd, "Bob Adams")
    d(description="Sort by").click()
    d(text="Surname").click()
    d(text="Ascending").click()
    d(text="OK").click()
    assert texts(d, "item_contact_name") == ["Bob Adams", "Ann Zed", "Yuzai", "Zack"]  # no surname: last


def test_about(contacts):
    d = contacts
    overflow(d, "About")  # contacts_about
    assert d(text="Frequently asked questions").exists
    assert d(text="Version 6.22.7 Pro").exists


def test_long_press_selects_the_number_and_typing_replaces_it(contacts, adbd):
    d = contacts
    seed(adbd, "Yuzai", "123456789")
    d(text="Yuzai").click()
    d(description="Edit contact").click()
    d(resourceId=rid("contact_number")).long_click()  # selects the word: the whole number
    adbd.shell(["input", "text", "987654321"])
    assert d(resourceId=rid("contact_number")).get_text() == "987654321"
    d(resourceId=rid("contact_number")).click()  # a tap drops the selection: typing appends
    adbd.shell(["input", "text", "0"])
    assert d(resourceId=rid("contact_number")).get_text() == "9876543210"


def test_horizontal_swipes_move_between_the_tabs(contacts, adbd):
    d = contacts
    bounds = d(resourceId=rid("view_pager")).info["bounds"]
    left, top, right, bottom = (bounds[k] for k in ("left", "top", "right", "bottom"))
    y = (top + bottom) // 2

    for expected in ("Favorites", "Groups", "Groups"):  # no page past the last
        adbd.shell(f"input swipe {right - 40} {y} {left + 40} {y} 250")
        tab = d(className="androidx.appcompat.app.ActionBar$Tab", selected=True)
        assert tab.child(resourceId=rid("tab_item_label")).get_text() == expected
    adbd.shell(f"input swipe {left + 40} {y} {right - 40} {y} 250")
    tab = d(className="androidx.appcompat.app.ActionBar$Tab", selected=True)
    assert tab.child(resourceId=rid("tab_item_label")).get_text() == "Favorites"
    assert d(description="Add favorites").exists


GROUP_MIME = "vnd.android.cursor.item/group_membership"
MONTHS = calendar.month_name[1:]
EVENT_MIME = "vnd.android.cursor.item/contact_event"


def test_groups_create_members_rename_and_delete(contacts, adbd):
    d = contacts
    zack = seed(adbd, "Zack", "555")
    seed(adbd, "Amy", "556")
    restart(d, adbd)
    d(text="Groups").click()
    assert texts(d, "fragment_placeholder") == ["There are no contact groups on the device"]
    d(resourceId=rid("fragment_fab")).click()
    assert d(resourceId=rid("alertTitle")).get_text() == "Create a new group"
    d(resourceId=rid("group_name")).click()
    adbd.shell(["input", "text", "Friends"])
    d(text="OK").click()
    assert texts(d, "group_name") == ["Friends (0)"]
    d(resourceId=rid("group_name")).click()  # the group's members
    assert d(resourceId=rid("group_contacts_toolbar")).child(text="Friends").exists
    assert texts(d, "group_contacts_placeholder") == ["This group is empty"]
    d(resourceId=rid("group_contacts_placeholder_2")).click()  # "Add contacts"
    d(resourceId=rid("contact_name"), text="Zack").click()
    d(text="OK").click()
    assert texts(d, "item_contact_name") == ["Zack"]
    assert has_row(query(adbd, DATA, mimetype=GROUP_MIME), f"raw_contact_id={zack}", "data1=10000")
    d.press("back")
    assert texts(d, "group_name") == ["Friends (1)"]
    d(resourceId=rid("group_name")).long_click()
    d(description="Rename").click()
    assert d(resourceId=rid("rename_group_title")).get_text() == "Friends"
    d(resourceId=rid("rename_group_title")).clear_text()
    adbd.shell(["input", "text", "Family"])
    d(text="OK").click()
    assert texts(d, "group_name") == ["Family (1)"]
    d(text="Contacts").click()  # the selection's "Add to group"
    d(resourceId=rid("item_contact_name"), text="Amy").long_click()
    d(description="Add to group").click()
    assert [n.get("text") for n in nodes(d) if n.get("class") == "android.widget.RadioButton"] == [
        "Family",
        "Create a new group",
    ]
    d(text="Family").click()
    d(text="Groups").click()
    assert texts(d, "group_name") == ["Family (2)"]
    d(resourceId=rid("group_name")).long_click()
    d(description="Delete").click()
    assert d(text='Are you sure you want to delete "Family"?').exists
    d(text="Yes").click()
    assert texts(d, "fragment_placeholder") == ["There are no contact groups on the device"]


def has_row(rows: str, *fields: str) -> bool:
    """Whether one row of `content query` output has every field ("raw_contact_id=3,", "data1=...")."""
    return any(all(f"{f}," in line + "," for f in fields) for line in rows.splitlines())


def test_birthday_with_the_date_picker_and_groups_field(contacts, adbd):
    d = contacts
    zack = seed(adbd, "Zack", "555")
    restart(d, adbd)
    d(resourceId=rid("item_contact_name"), text="Zack").click()
    d(description="Edit contact").click()
    scroll_to(d, resourceId=rid("contact_event"))
    assert d(resourceId=rid("contact_event")).get_text() == "Unknown"
    assert d(resourceId=rid("contact_event_type")).get_text() == "Birthday"
    d(resourceId=rid("contact_event")).click()  # MyDatePickerDialog, on today
    year, this_year = d(resourceId="android:id/date_picker_header_year"), adbd.shell("date +%Y").strip()
    assert year.get_text() == this_year and d(resourceId=rid("hide_year")).exists
    year.click()  # the year list, the current year in view
    assert d(resourceId="android:id/text1", text=this_year).exists
    for _ in range(8):
        if d(resourceId="android:id/text1", text="1990").exists:
            break
        d.swipe(540, 900, 540, 1700, 0.1)
    d(resourceId="android:id/text1", text="1990").click()
    assert d(resourceId="android:id/date_picker_header_year").get_text() == "1990"
    month = int(adbd.shell("date +%m"))
    before = MONTHS[(month - 2) % 12]
    d(description="Previous month").click()
    d(description=f"15 {before} {1990 - (month == 1)}").click()
    d(text="OK").click()
    born = f"{before[:3]} 15, {1990 - (month == 1)} ("
    assert d(resourceId=rid("contact_event")).get_text().startswith(born)
    scroll_to(d, resourceId=rid("contact_group"))
    assert d(resourceId=rid("contact_group")).get_text() == "No groups"
    d(resourceId=rid("contact_group")).click()  # SelectGroupsDialog
    d(resourceId=rid("item_textview"), text="Create a new group").click()
    adbd.shell(["input", "text", "Work"])
    d(resourceId="android:id/button1", instance=1).click()  # the new group dialog's, over the list's
    assert d(resourceId=rid("item_checkbox"), text="Work").info["checked"]
    d(text="OK").click()
    assert d(resourceId=rid("contact_group")).get_text() == "Work"
    d(description="Save").click()
    tag = f"data1={1990 - (month == 1)}-{(month - 2) % 12 + 1:02d}-15"
    assert has_row(query(adbd, DATA, mimetype=EVENT_MIME), f"raw_contact_id={zack}", tag, "data2=3")
    assert has_row(query(adbd, DATA, mimetype=GROUP_MIME), f"raw_contact_id={zack}", "data1=10000")
    scroll_to(d, resourceId=rid("contact_group"))  # the contact's screen shows both
    assert d(resourceId=rid("contact_group")).get_text() == "Work"
    assert d(resourceId=rid("contact_event")).get_text().startswith(born)
    d(description="Edit contact").click()  # the picker opens on the date; Hide year keeps month and day
    scroll_to(d, resourceId=rid("contact_event"))
    d(resourceId=rid("contact_event")).click()
    assert d(resourceId="android:id/date_picker_header_year").get_text() == str(1990 - (month == 1))
    d(resourceId=rid("hide_year")).click()
    d(text="OK").click()
    assert d(resourceId=rid("contact_event")).get_text() == f"{before[:3]} 15"
    d(description="Save").click()
    no_year = f"data1=--{(month - 2) % 12 + 1:02d}-15"
    assert has_row(query(adbd, DATA, mimetype=EVENT_MIME), f"raw_contact_id={zack}", no_year, "data2=3")

"""`am start` with implicit intents, through the real adb server and adbutils: resolution by the
intent filters the real apps declare, the screens they land on with the fields the real apps
fill, the resolver when several apps match, and `am`'s own output for what it cannot start."""

from __future__ import annotations

import html
import re

import adbutils
import pytest

CONTACTS = "com.simplemobiletools.contacts.pro"
CALENDAR = "com.simplemobiletools.calendar.pro"
SMS = "com.simplemobiletools.smsmessenger"
GALLERY = "com.simplemobiletools.gallery.pro"
MUSIC = "com.simplemobiletools.musicplayer"
NOTES = "com.simplemobiletools.notes.pro"
FILES = "com.simplemobiletools.filemanager.pro"
CALC = "com.simplemobiletools.calculator"


@pytest.fixture
def home(adbd: adbutils.AdbDevice):
    for pkg in (CONTACTS, CALENDAR, SMS, GALLERY, MUSIC, NOTES, FILES, CALC, "android"):
        adbd.shell(f"am force-stop {pkg}")
    adbd.shell("rm -f /data/system/preferred-activities.json")
    adbd.shell("input keyevent HOME")
    return adbd


def screen(adbd: adbutils.AdbDevice) -> str:
    return adbd.shell("uiautomator dump /data/local/tmp/d.xml >/dev/null; cat /data/local/tmp/d.xml")


def text_of(xml: str, rid: str) -> str | None:
    found = re.search(rf'text="([^"]*)"[^>]*resource-id="{re.escape(rid)}"', xml)
    return html.unescape(found.group(1)) if found else None


def start(adbd: adbutils.AdbDevice, args: str) -> adbutils.ShellReturn:
    return adbd.shell2(f"am start {args}")


def test_insert_contact_opens_the_editor_filled_from_name_phone_and_email(home):
    out = start(
        home,
        "-a android.intent.action.INSERT -t vnd.android.cursor.dir/contact "
        "--es name 'Lily Chen' --es phone 5550101 --es email lily@example.com",
    )
    assert out.returncode == 0 and out.output.startswith(
        "Starting: Intent { act=android.intent.action.INSERT typ=vnd.android.cursor.dir/contact (has extras) }"
    )
    assert home.app_current().activity == ".activities.EditContactActivity"
    xml = screen(home)
    assert text_of(xml, f"{CONTACTS}:id/contact_first_name") == "Lily Chen"  # the whole name, as the app does
    assert text_of(xml, f"{CONTACTS}:id/contact_number") == "5550101"
    assert text_of(xml, f"{CONTACTS}:id/contact_email") == "lily@example.com"


def test_a_phone_put_as_an_int_is_not_a_string_extra_and_stays_empty(home):
    start(home, "-a android.intent.action.INSERT -t vnd.android.cursor.dir/contact --es name Lily --ei phone 5550101")
    xml = screen(home)
    assert text_of(xml, f"{CONTACTS}:id/contact_first_name") == "Lily"
    assert text_of(xml, f"{CONTACTS}:id/contact_number") == ""  # getStringExtra of an int is null


def test_insert_event_takes_title_place_description_and_long_times(home):
    begin = 1715864400000  # 2024-05-16 13:00 UTC
    start(
        home,
        "-a android.intent.action.INSERT -t vnd.android.cursor.item/event --es title Standup "
        f"--es eventLocation 'Room 4' --es description Daily --el beginTime {begin} "
        f"--el endTime {begin + 1800000}",
    )
    assert home.app_current().package == CALENDAR
    assert home.app_current().activity == ".activities.EventActivity"
    xml = screen(home)
    assert text_of(xml, f"{CALENDAR}:id/event_title") == "Standup"
    assert text_of(xml, f"{CALENDAR}:id/event_location") == "Room 4"
    assert text_of(xml, f"{CALENDAR}:id/event_description") == "Daily"
    assert text_of(xml, f"{CALENDAR}:id/event_start_time") == "01:00 PM"
    assert text_of(xml, f"{CALENDAR}:id/event_end_time") == "01:30 PM"


def test_begin_time_as_a_string_is_ignored_as_getLongExtra_ignores_it(home):
    # Mobile-Bench's own example passes beginTime with --es: the app starts the event now.
    start(
        home,
        "-a android.intent.action.INSERT -t vnd.android.cursor.item/event -e title Launch "
        "--es beginTime 2024-05-16T15:00:00",
    )
    xml = screen(home)
    assert text_of(xml, f"{CALENDAR}:id/event_title") == "Launch"
    assert text_of(xml, f"{CALENDAR}:id/event_start_time") == "09:00 AM"  # the device's now


def test_sendto_smsto_opens_the_thread_with_the_body_and_am_masks_the_number(home):
    out = start(home, "-a android.intent.action.SENDTO -d smsto:5550123 --es sms_body 'On my way'")
    assert "dat=smsto:xxxxxxx" in out.output and "5550123" not in out.output
    assert home.app_current().activity == ".activities.ThreadActivity"
    xml = screen(home)
    assert text_of(xml, f"{SMS}:id/thread_type_message") == "On my way"
    assert "5550123" in xml


def test_view_an_image_an_audio_file_and_a_folder(home):
    home.shell("mkdir -p /sdcard/Pictures /sdcard/Music")
    home.shell("echo x > /sdcard/Pictures/cat.jpg; echo x > /sdcard/Music/a.mp3")
    start(home, "-a android.intent.action.VIEW -d file:///sdcard/Pictures/cat.jpg -t image/jpeg")
    assert (home.app_current().package, home.app_current().activity) == (GALLERY, ".activities.PhotoActivity")
    assert 'text="cat.jpg"' in screen(home)
    start(home, "-a android.intent.action.VIEW -d file:///sdcard/Music/a.mp3 -t audio/mpeg")
    assert (home.app_current().package, home.app_current().activity) == (MUSIC, ".activities.TrackActivity")
    assert text_of(screen(home), f"{MUSIC}:id/activity_track_title") == "a"  # MediaStore: the name sans extension
    home.shell(f"pm grant {FILES} android.permission.MANAGE_EXTERNAL_STORAGE")  # else it asks for all-files access
    start(home, "-a android.intent.action.VIEW -d file:///sdcard/Music -t resource/folder")
    assert home.app_current().package == FILES
    assert "a.mp3" in screen(home)


def test_a_file_uri_without_a_type_reaches_no_app(home):
    out = start(home, "-a android.intent.action.VIEW -d file:///sdcard/Pictures/cat.jpg")
    assert out.returncode == 0  # am reports on stderr and exits 0, as Android 13's does
    assert out.output.splitlines()[-1] == (
        "Error: Activity not started, unable to resolve Intent { act=android.intent.action.VIEW "
        "dat=file:///sdcard/Pictures/cat.jpg flg=0x10000000 }"
    )


def test_view_text_matches_two_apps_and_the_resolver_asks(home):
    home.shell("mkdir -p /sdcard/Download; echo 'milk, eggs' > /sdcard/Download/list.txt")
    start(home, "-a android.intent.action.VIEW -d file:///sdcard/Download/list.txt -t text/plain")
    assert home.app_current().package == "android"
    xml = screen(home)
    assert text_of(xml, "android:id/title") == "Open with"
    assert re.findall(r'text="([^"]*)" resource-id="android:id/text1"', xml) == ["File Manager", "Notes"]
    d = home
    d.click(*_center(xml, "File Manager"))
    d.click(*_center(screen(d), "Just once"))
    assert d.app_current().activity == ".activities.ReadTextActivity"
    assert text_of(screen(d), f"{FILES}:id/read_text_view") == "milk, eggs\n"


def test_always_makes_the_choice_the_preferred_activity(home):
    home.shell("mkdir -p /sdcard/Download; echo a > /sdcard/Download/b.txt")
    args = "-a android.intent.action.VIEW -d file:///sdcard/Download/b.txt -t text/plain"
    start(home, args)
    home.click(*_center(screen(home), "Notes"))
    home.click(*_center(screen(home), "Always"))
    assert home.app_current().package == NOTES
    home.shell("input keyevent HOME")
    start(home, args)
    assert home.app_current().package == NOTES  # no resolver this time


def test_send_text_offers_three_apps_and_notes_adds_it_to_a_note(home):
    out = start(home, "-a android.intent.action.SEND -t text/plain --es android.intent.extra.TEXT 'buy milk'")
    assert out.returncode == 0
    xml = screen(home)
    assert text_of(xml, "android:id/title") == "Share"
    assert re.findall(r'text="([^"]*)" resource-id="android:id/text1"', xml) == [
        "File Manager",
        "Notes",
        "SMS Messenger",
    ]
    home.click(*_center(xml, "Notes"))
    home.click(*_center(screen(home), "Just once"))
    xml = screen(home)
    assert "Add to note" in xml and "Create a new note" in xml


def test_send_text_to_sms_keeps_the_text_for_the_new_conversation(home):
    start(home, f"-a android.intent.action.SEND -t text/plain -p {SMS} --es android.intent.extra.TEXT hello")
    assert home.app_current().activity == ".activities.NewConversationActivity"


def test_pm_lists_what_am_resolves(home):
    listed = home.shell("pm query-activities --components -a android.intent.action.SEND -t text/plain").split()
    assert listed == [
        f"{SMS}/.activities.NewConversationActivity",
        f"{FILES}/.activities.SaveAsActivity",
        f"{NOTES}/.activities.MainActivity",
    ]
    brief = home.shell("cmd package resolve-activity --brief -a android.intent.action.SEND -t text/plain")
    assert brief.splitlines()[-1] == "android/com.android.internal.app.ResolverActivity"
    assert home.shell(f"cmd package resolve-activity --brief {CALC}").splitlines()[-1] == (
        f"{CALC}/.activities.MainActivity"
    )


def test_an_implicit_main_intent_reaches_no_launcher_entry(home):
    # The apps' launcher aliases declare MAIN and LAUNCHER without DEFAULT: startActivity skips them.
    out = start(home, f"-a android.intent.action.MAIN -c android.intent.category.LAUNCHER -p {CALC}")
    assert (
        "unable to resolve Intent { act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] "
        f"flg=0x10000000 pkg={CALC} }}" in out.output
    )
    assert start(home, f"-n {CALC}/.activities.MainActivity").returncode == 0
    assert home.app_current().package == CALC


def test_settings_by_application_preferences(home):
    start(home, f"-a android.intent.action.APPLICATION_PREFERENCES -p {CALENDAR}")
    assert home.app_current().activity == ".activities.SettingsActivity"


def test_a_missing_class_and_bad_arguments_answer_as_am_does(home):
    out = start(home, f"-n {CALC}/.Nope")
    assert out.returncode == 0
    assert out.output.splitlines()[-2:] == [
        "Error type 3",
        f"Error: Activity class {{{CALC}/{CALC}.Nope}} does not exist.",
    ]
    bad = start(home, "-a android.intent.action.VIEW --bogus")
    assert bad.returncode == 255
    assert "java.lang.IllegalArgumentException: Unknown option: --bogus" in bad.output
    assert 'NumberFormatException: For input string: "x"' in start(home, "-a A --ei k x").output
    assert "Invalid boolean value: maybe" in start(home, "-a A --ez k maybe").output
    assert 'Argument expected after "-d"' in start(home, "-a A -d").output


def test_a_bare_component_is_a_launcher_intent(home):
    out = start(home, f"{CALC}/.activities.MainActivity")
    assert out.output.startswith(
        f"Starting: Intent {{ act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] "
        f"cmp={CALC}/.activities.MainActivity }}"
    )
    assert home.app_current().package == CALC


def _center(xml: str, text: str) -> tuple[int, int]:
    found = re.search(rf'text="{re.escape(text)}"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"', xml)
    assert found, f"no {text!r} on the screen"
    l, t, r, b = map(int, found.groups())
    return (l + r) // 2, (t + b) // 2


def test_a_contact_uri_opens_its_details_or_its_editor_by_the_providers_type(home):
    home.shell("content delete --uri content://com.android.contacts/raw_contacts")
    home.shell(
        "content insert --uri content://com.android.contacts/raw_contacts --bind account_name:n: --bind account_type:n:"
    )
    raw_id = re.search(
        r"_id=(\d+)",
        home.shell(
            "content query --uri content://com.android.contacts/raw_contacts --projection _id --sort '_id DESC'"
        ),
    ).group(1)
    home.shell(
        f"content insert --uri content://com.android.contacts/data --bind raw_contact_id:i:{raw_id} "
        "--bind mimetype:s:vnd.android.cursor.item/name --bind data1:s:Zoe --bind data2:s:Zoe"
    )
    start(home, f"-a android.intent.action.VIEW -d content://com.android.contacts/contacts/{raw_id}")
    assert home.app_current().activity == ".activities.ViewContactActivity"
    assert "Zoe" in screen(home)
    start(home, f"-a android.intent.action.EDIT -d content://com.android.contacts/contacts/{raw_id}")
    assert home.app_current().activity == ".activities.EditContactActivity"
    assert text_of(screen(home), f"{CONTACTS}:id/contact_first_name") == "Zoe"


def test_get_content_of_images_asks_between_the_gallery_and_the_file_manager(home):
    start(home, "-a android.intent.action.GET_CONTENT -t image/*")
    xml = screen(home)
    assert text_of(xml, "android:id/title") == "Complete action using"
    assert re.findall(r'text="([^"]*)" resource-id="android:id/text1"', xml) == ["File Manager", "Gallery"]


def test_record_sound_opens_the_recorder_and_send_to_the_file_manager_has_nothing_to_save(home):
    start(home, "-a android.provider.MediaStore.RECORD_SOUND")
    assert home.app_current().package == "com.simplemobiletools.voicerecorder"
    home.shell("input keyevent HOME")
    start(home, f"-a android.intent.action.SEND -t text/plain -p {FILES} --es android.intent.extra.TEXT x")
    assert home.app_current().package == "com.android.launcher3"  # SaveAsActivity toasts and finishes

"""What the judges need for each of the suite's 100 tasks, keyed by the benchmark's task name
(attached to the tasks by conftest.py through the `pytest_mobile_agent_judge_inputs` hook).

- key components (SPA-Bench): texts of the real app that the oracle's screenshots show and
  noop's never do, found by SPA-Bench's matcher, which scans from the last screenshot
  backwards until one shows all of a task's components (the issue's "final screenshots").
  84 tasks have texts of the done screen, each one missing from the untouched start screen
  (noop's only screen), so the judge finds them on the last screenshot. SPA-Bench's matcher
  joins the OCR'd texts without spaces, so a component may span two lines read in order
  ("ChromeCamera": Chrome listed above Camera). The month view draws event titles as the real
  MonthView does, cut to the cell: the task "laundry" after its task icon shows as "laundr" (a
  prefix matches either way); where the start screen's month view shows the event already, the
  component is its row in a list ("Cooking" with its time, "10:00 AM").
  For the 11 tasks in `EARLIER_SCREEN`, what the done screen changes is an absence (an item
  deleted, hidden or removed), an order or filter that the seeded items cannot show (one
  folder, one playlist, the custom order being the seeded one), a switch, or a search whose
  query the start screen shows too; their components are the texts that a screen on a correct
  path shows and names what the task acts on (a deletion confirmation naming the file, the
  sort or filter dialog listing the options picked, the setting's row, the search bar's hint), so the judge
  finds them on an earlier screenshot (the second from the end on the oracle's paths).
  The 5 tasks in `NO_KEY_COMPONENTS` have none, each with its reason: no screen of a correct
  path shows a real app's text that noop's screens lack (a single tap on an icon or a check
  box, or a search whose query is the only new text); they are left to the other judges.
- CheckPoints (Mobile-Bench): the app's package, and as key phrases the texts and
  descriptions the golden path taps and the texts it types, in order (a sequential `[ ]`
  group: one count each), as Mobile-Bench's key phrases are a task's key steps.
- reference substates (AutoEval): the app's page, then one UnitNode per key component of the
  done screen (those of an earlier screen describe no final substate). They are a reference
  for the State Decomposer's cover and redundancy rates, written from the same hand-chosen
  texts, not annotated by people as the paper's were.
"""

from __future__ import annotations

from typing import Any

from task_suites.shared.apps import (
    APP_LAUNCHER,
    APP_NAMES,
    CALCULATOR,
    CALENDAR,
    CONTACTS,
    FILE_MANAGER,
    GALLERY,
    MUSIC_PLAYER,
    NOTES,
    SMS_MESSENGER,
    VOICE_RECORDER,
)


def _inputs(
    package: str,
    key_components: list[str],
    key_phrases: list[str],
    api: list[str] = (),
    shown: list[str] = (),
    on_the_way: list[str] = (),
) -> dict[str, Any]:
    """`shown`: the texts of the reference UnitNodes where a key component is only a part of one.
    `on_the_way`: key components that a screen before the done one shows (see EARLIER_SCREEN);
    they describe no final substate, so they give no UnitNode."""
    checkpoints: dict[str, Any] = {"package": package, "key_phrases": key_phrases}
    if api:
        checkpoints["api"] = list(api)
    substates = [f'PageNode(content="{APP_NAMES[package]} app is open", parent_id=None)']
    substates += [f'UnitNode(content="{text} is shown", parent_id=0)' for text in shown or key_components]
    out: dict[str, Any] = {"checkpoints": checkpoints, "substates": substates}
    if key_components or on_the_way:
        out["key_components"] = list(key_components or on_the_way)
    return out


JUDGE_INPUTS: dict[str, dict[str, Any]] = {
    "calculator_add": _inputs(CALCULATOR, ["3+5", "8"], ["3", "+", "5", "="]),
    "calculator_convert_length": _inputs(
        CALCULATOR,
        ["Mile", "Kilometer", "1.609344"],
        ["Unit converter", "Length", "Mile (mi)"],
    ),
    "calculator_cube": _inputs(CALCULATOR, ["3^3", "27"], ["3", "^", "="]),
    "calculator_divide": _inputs(CALCULATOR, ["12÷3", "4"], ["1", "2", "÷", "3", "="]),
    "calculator_minus": _inputs(CALCULATOR, ["12-4", "8"], ["1", "2", "-", "4", "="]),
    "calculator_mixed": _inputs(CALCULATOR, ["90-3", "87"], ["2", "4", "×", "3", "+", "1", "8", "-", "="]),
    "calculator_multiply": _inputs(CALCULATOR, ["12×4", "48"], ["1", "2", "×", "4", "="]),
    "calculator_point": _inputs(CALCULATOR, ["19.7-81.3", "-61.6"], ["1", "9", ".", "7", "-", "8", "3", "="]),
    "calculator_recalculate": _inputs(CALCULATOR, ["12×5", "60"], ["C", "5", "="]),
    "calculator_square": _inputs(CALCULATOR, ["4+3", "7"], ["√", "1", "6", "+", "3", "="]),
    "calendar_create_and_search": _inputs(CALENDAR, ["laundry"], ["Event", "laundry", "Save"]),
    "calendar_daily_view": _inputs(CALENDAR, ["May 15"], ["Change view", "Daily view"]),
    "calendar_delete_tasks": _inputs(
        CALENDAR,
        ["Cooking", "10:00 AM"],
        ["Change view", "Simple event list", "Laundry", "Meeting", "Yes"],
    ),
    "calendar_laundry": _inputs(CALENDAR, ["laundry"], ["Event", "laundry", "Save"]),
    "calendar_new_task": _inputs(  # the month view's cell cuts the title after the task icon
        CALENDAR,
        ["laundr"],
        ["Task", "laundry", "wash all my clothes", "Save"],
        shown=["laundry"],
    ),
    "calendar_next_month": _inputs(CALENDAR, ["June"], []),
    "calendar_open_about": _inputs(CALENDAR, ["About", "Frequently asked questions"], ["About"]),
    "calendar_search": _inputs(CALENDAR, ["laundry", "10:00 AM"], ["laundry"]),
    "calendar_snooze_time": _inputs(CALENDAR, ["Snooze time", "1 minute"], ["Settings", "1 minute"]),
    "calendar_start_week": _inputs(CALENDAR, ["Start week on", "Monday"], ["Settings", "Monday"]),
    "contacts_about": _inputs(CONTACTS, ["About", "Frequently asked questions"], ["About"]),
    "contacts_create": _inputs(CONTACTS, ["Yuzai"], ["Yuzai", "123456789", "Save"]),
    "contacts_delete": _inputs(
        CONTACTS,
        [],
        ["Yuzai", "Delete", "Yes"],
        on_the_way=["123456789", "Are you sure you want to proceed with the deletion"],
    ),
    "contacts_favorite": _inputs(CONTACTS, ["Yuzai", "123456789"], ["Yuzai"]),
    "contacts_filter": _inputs(CONTACTS, ["No contacts found"], ["Filter", "Phone storage (1)", "OK"]),
    "contacts_hide_email": _inputs(CONTACTS, ["Yuzai", "123456789"], ["Yuzai", "Manage shown contact fields", "OK"]),
    "contacts_modify": _inputs(CONTACTS, ["987654321"], ["Yuzai", "Edit contact", "987654321", "Save"]),
    "contacts_remove_dialog": _inputs(
        CONTACTS,
        [],
        ["Settings", "Back"],
        on_the_way=["Show a dialpad button on the main screen"],
    ),
    "contacts_search": _inputs(CONTACTS, ["YuzaiYuzai"], ["Yuzai"]),
    "contacts_sort": _inputs(CONTACTS, ["ZackYuzai"], ["Sort by", "Date created", "Descending", "OK"]),
    "filemanager_check_file_properties": _inputs(
        FILE_MANAGER,
        ["Properties", "Testfile.txt"],
        ["Testfile.txt", "Properties"],
    ),
    "filemanager_check_storage": _inputs(FILE_MANAGER, ["Total storage"], ["Storage"]),
    "filemanager_create_new_file": _inputs(FILE_MANAGER, ["testfile.txt"], ["Download", "testfile.txt", "OK"]),
    "filemanager_delete_file": _inputs(
        FILE_MANAGER,
        [],
        ["Testfile.txt", "Yes"],
        on_the_way=['Are you sure you want to delete "Testfile.txt"'],
    ),
    "filemanager_delete_txt": _inputs(FILE_MANAGER, ["Downloadvideo.mov"], ["random.txt", "Yes"]),
    "filemanager_delete_videos": _inputs(
        FILE_MANAGER,
        [],
        ["icml.mp4", "Yes", "corl.avi", "cvpr.mov"],
        on_the_way=['Are you sure you want to delete "cvpr.mov"'],
    ),
    "filemanager_hide_folder": _inputs(
        FILE_MANAGER,
        [],
        ["hidden", "Hide", "Stop showing hidden media"],
        on_the_way=[".hidden"],
    ),
    "filemanager_rename_file": _inputs(FILE_MANAGER, ["testfile1.txt"], ["Testfile.txt", "Rename", "testfile1", "OK"]),
    "filemanager_search_file": _inputs(FILE_MANAGER, ["Internal/Download", "testfile.txt"], ["testfile.txt"]),
    "filemanager_sort_folder_by_size_desc": _inputs(FILE_MANAGER, ["Recordings"], ["Sort by", "OK"]),
    "gallery_filter_by_images_and_videos": _inputs(
        GALLERY,
        [],
        ["Filter media"],
        on_the_way=["Filter media", "Images", "Videos"],
    ),
    "gallery_group_by_file_type": _inputs(GALLERY, ["Images", "Videos"], ["Download", "Group by"]),
    "gallery_list_view_type": _inputs(GALLERY, ["/storage/emulated/0/"], ["Change view type"]),
    "gallery_play_videos_automatically": _inputs(GALLERY, ["Play videos automatically"], ["Settings"]),
    "gallery_remember_playback_position": _inputs(GALLERY, ["Remember last video playback position"], ["Settings"]),
    "gallery_set_favorite": _inputs(GALLERY, ["sunset.png"], ["Download"]),
    "gallery_set_wallpaper": _inputs(
        GALLERY,
        ["sunset.png"],
        ["Download", "Set as", "Simple Wallpaper", "Save", "Home screen"],
    ),
    "gallery_show_hidden_items": _inputs(GALLERY, ["Show hidden items"], ["Settings"]),
    "gallery_sort_by_size_asc": _inputs(GALLERY, [], ["Sort by"], on_the_way=["Sort by", "Size", "Ascending"]),
    "gallery_use_24_hour_time_format": _inputs(
        GALLERY,
        ["Change date and time format"],
        ["Settings", "Change date and time format"],
    ),
    "launcher_add_apps": _inputs(APP_LAUNCHER, ["Camera", "Chrome"], ["Chrome", "Camera"]),
    "launcher_check_contributor": _inputs(APP_LAUNCHER, ["Contributors", "Tibor Kaputa"], ["About", "Contributors"]),
    "launcher_hide_app_name": _inputs(APP_LAUNCHER, [], []),
    "launcher_open_about_FAQ": _inputs(
        APP_LAUNCHER,
        ["Frequently asked questions", "default launcher"],
        ["About", "Frequently asked questions"],
    ),
    "launcher_remove_app": _inputs(
        APP_LAUNCHER,
        [],
        ["Chrome"],
        on_the_way=["This will just remove the launcher icon from this grid, not uninstall the actual app"],
    ),
    "launcher_rename_app": _inputs(APP_LAUNCHER, ["MyChrome"], ["Chrome", "MyChrome"]),
    "launcher_search_app": _inputs(APP_LAUNCHER, [], ["Chrome"]),
    "launcher_setting_close_app_when_launching": _inputs(
        APP_LAUNCHER,
        ["Close this app at launching a different one"],
        ["Settings"],
    ),
    "launcher_sort_by_custom": _inputs(APP_LAUNCHER, [], ["Custom", "OK"], on_the_way=["Sort by", "Custom"]),
    "launcher_sort_by_title_desc": _inputs(APP_LAUNCHER, ["ChromeCamera"], ["Descending", "OK"]),
    "messager_add_block_numbers": _inputs(
        SMS_MESSENGER,
        ["Block messages from hidden numbers", "123456789"],
        ["Manage blocked numbers", "Add a blocked number", "123456789", "OK"],
    ),
    "messager_change_font_size": _inputs(SMS_MESSENGER, ["Font size", "Large"], ["Font size", "Large"]),
    "messager_check_message_properties": _inputs(SMS_MESSENGER, ["Message details", "Sent at"], ["Properties"]),
    "messager_create_conversation_and_check_message_properties": _inputs(
        SMS_MESSENGER,
        ["Message details", "123456789"],
        ["123456789", "i luv u", "Properties"],
    ),
    "messager_create_conversation_and_search": _inputs(
        SMS_MESSENGER,
        ["123456789", "09:00 AM"],
        ["123456789", "i luv u", "Back"],
    ),
    "messager_make_conversation_archived": _inputs(
        SMS_MESSENGER,
        ["No stored conversations have been found"],
        ["Archive"],
    ),
    "messager_search_contacts": _inputs(SMS_MESSENGER, ["123456789123456789"], ["123456789"]),
    "messager_search_message": _inputs(SMS_MESSENGER, [], ["i luv u"]),
    "messager_show_archived_messages": _inputs(
        SMS_MESSENGER,
        ["No archived conversations have been found"],
        ["Show archived conversations"],
    ),
    "messager_start_a_conversation": _inputs(SMS_MESSENGER, ["123456789", "i luv u"], ["123456789", "i luv u"]),
    "music_player_album_sort_by_year": _inputs(
        MUSIC_PLAYER,
        ["Blue Train", "Abbey Road", "Currents"],
        ["Albums", "Year", "OK"],
    ),
    "music_player_config_equalizer": _inputs(MUSIC_PLAYER, ["Heavy Metal"], ["Heavy Metal"]),
    "music_player_create_playlist": _inputs(MUSIC_PLAYER, ["test"], ["Playlists", "Create new playlist", "test", "OK"]),
    "music_player_create_playlist_and_search": _inputs(
        MUSIC_PLAYER,
        ["test"],
        ["Playlists", "Create new playlist", "test", "OK"],
    ),
    "music_player_create_playlist_and_sort_desc": _inputs(
        MUSIC_PLAYER,
        ["test"],
        ["Create new playlist", "test", "OK", "Descending"],
    ),
    "music_player_open_faq": _inputs(
        MUSIC_PLAYER,
        ["Frequently asked questions", "fast-forward"],
        ["About", "Frequently asked questions"],
    ),
    "music_player_open_settings": _inputs(MUSIC_PLAYER, ["Settings", "Gapless playback"], ["Settings"]),
    "music_player_playlist_sort_desc": _inputs(
        MUSIC_PLAYER,
        [],
        ["Descending", "OK"],
        on_the_way=["Sort by", "Track count", "Descending"],
    ),
    "music_player_rescan_media": _inputs(MUSIC_PLAYER, ["2 Tracks"], ["Rescan media"]),
    "music_player_search_playlist": _inputs(MUSIC_PLAYER, [], ["Test"]),
    "note_add": _inputs(NOTES, ["TODO List"], ["TODO List", "OK"]),
    "note_delete": _inputs(NOTES, ["work_list"], ["Delete note", "Delete", "to_do_list"]),
    "note_item_checked": _inputs(NOTES, [], ["eggs"]),
    "note_lock": _inputs(NOTES, ["unique2580"], []),
    "note_new_checklist": _inputs(NOTES, ["TODO List", "The checklist is empty"], ["TODO List", "Checklist", "OK"]),
    "note_new_checklist_items": _inputs(NOTES, ["Shopping list", "Milk"], ["Shopping list", "Checklist", "OK", "Milk"]),
    "note_open": _inputs(NOTES, ["9pm May 5th 2024"], ["meeting"]),
    "note_open_about": _inputs(NOTES, ["About", "Frequently asked questions"], ["About"]),
    "note_rename": _inputs(NOTES, ["finished_taskGeneral note"], ["Rename note", "finished_task", "OK"]),
    "note_search": _inputs(NOTES, [], ["secret"], on_the_way=["Search"]),
    "recorder_bit_rate": _inputs(VOICE_RECORDER, ["Bitrate", "32 kbps"], ["Bitrate", "32 kbps"]),
    "recorder_delete": _inputs(VOICE_RECORDER, ["2024_05_15_08_30_00.m4a"], ["Player", "Delete", "Yes", "Allow"]),
    "recorder_delete_all": _inputs(
        VOICE_RECORDER,
        ["No recordings created by this app"],
        ["Player", "Delete", "Yes", "Allow"],
    ),
    "recorder_empty_trash": _inputs(VOICE_RECORDER, ["Settings", "Recycle Bin"], ["Yes", "Allow"]),
    "recorder_extension": _inputs(VOICE_RECORDER, ["Extension", "mp3"], ["Extension", "mp3"]),
    "recorder_recycle_bin": _inputs(VOICE_RECORDER, ["The Recycle Bin is empty"], ["Recycle Bin"]),
    "recorder_recycle_settings": _inputs(VOICE_RECORDER, ["Move items into the Recycle Bin"], []),
    "recorder_rename": _inputs(VOICE_RECORDER, ["voice.m4a"], ["Player", "Rename", "voice", "OK"]),
    "recorder_rename_all": _inputs(
        VOICE_RECORDER,
        ["voice1.m4a", "voice2.m4a", "voice3.m4a"],
        ["Player", "Rename", "voice1.m4a", "OK", "voice2.m4a", "voice3.m4a"],
    ),
    "recorder_theme": _inputs(VOICE_RECORDER, ["Settings"], ["Customize colors", "OK", "Dark red", "Save"]),
}

# The tasks whose key components a screen on the way shows, not the done one (on which what
# changed is an absence, an order, a filter or a switch): the judge finds them scanning back from
# the last screenshot, as SPA-Bench's matcher does. Each is a text of the real app (its strings
# and dialogs) on a screen that a correct path passes through, naming what the task acts on.
EARLIER_SCREEN = {
    "contacts_delete": "the deletion confirmation over Yuzai's details (his number; Zack's differs)",
    "contacts_remove_dialog": "the settings screen with the dialpad button's switch",
    "filemanager_delete_file": "the deletion confirmation, which names the file",
    "filemanager_delete_videos": "the deletion confirmation of the last video, which names it",
    "filemanager_hide_folder": "the folder listed under its hidden name while hidden items are shown",
    "gallery_filter_by_images_and_videos": "the Filter media dialog",
    "gallery_sort_by_size_asc": "the Sort by dialog",
    "launcher_remove_app": "the dialog that explains the first removal",
    "launcher_sort_by_custom": "the Sort by dialog",
    "music_player_playlist_sort_desc": "the playlists' Sort by dialog",
    "note_search": "the note's search bar, open and empty (its hint)",
}

# The tasks without key components: no screen of a correct path shows a text of the real app
# that noop's screens lack, so any component would pass noop too.
NO_KEY_COMPONENTS = {
    "launcher_hide_app_name": "one tap on a toolbar icon, and success is the labels' absence",
    "note_item_checked": "one tap on the item: a check mark (the real app also strikes the title through), "
    "the same text",
    "music_player_search_playlist": "the query is the only new text, and both screens list the playlist Test "
    "under the same search bar",
    "messager_search_message": "the query is the only new text (the real app finds the message on typing), and "
    "both screens list the message 'i luv u' under the same search bar",
    "launcher_search_app": "the query is the only new text (read 'Chromel', glued to the 2dp cursor), and both "
    "screens list Chrome under the same search bar",
}

"""The virtual content providers through `content`, as a task fixture or a judge reaches them:
MMS rows and contact groups."""

from __future__ import annotations

import re

GROUPS = "content://com.android.contacts/groups"
DATA = "content://com.android.contacts/data"
MEMBER = "vnd.android.cursor.item/group_membership"


def content(adbd, verb: str, uri: str, *args: str) -> str:
    return adbd.shell(["content", verb, "--uri", uri, *args])


def ids(rows: str) -> list[int]:
    return [int(i) for i in re.findall(r"\b_id=(\d+)", rows)]


def test_an_mms_goes_with_its_conversation(adbd):
    content(adbd, "delete", "content://mms-sms/conversations")
    content(adbd, "insert", "content://sms/inbox", "--bind", "address:s:555", "--bind", "body:s:hi")
    tid = ids(content(adbd, "query", "content://mms-sms/conversations", "--where", "address='555'"))[0]
    content(adbd, "insert", "content://mms/sent", "--bind", f"thread_id:i:{tid}", "--bind", "date:l:1700000000")
    mid = ids(content(adbd, "query", "content://mms", "--projection", "_id"))[-1]
    content(adbd, "insert", "content://mms/part", "--bind", f"mid:i:{mid}", "--bind", "ct:s:image/jpeg")
    assert "msg_box=2" in content(adbd, "query", "content://mms/sent", "--projection", "msg_box")
    assert "No result found." in content(adbd, "query", "content://mms/inbox")
    content(adbd, "delete", "content://mms-sms/conversations", "--where", f"_id={tid}")
    assert "No result found." in content(adbd, "query", "content://mms", "--where", f"thread_id={tid}")
    assert "No result found." in content(adbd, "query", "content://mms/part", "--where", f"mid={mid}")


def test_a_deleted_group_is_marked_and_loses_its_members(adbd):
    content(adbd, "insert", GROUPS, "--bind", "title:s:Climbing", "--bind", "group_visible:i:1")
    gid = max(ids(content(adbd, "query", GROUPS, "--projection", "_id")))
    member = ["--bind", f"mimetype:s:{MEMBER}", "--bind", f"data1:s:{gid}"]
    content(adbd, "insert", DATA, "--bind", "raw_contact_id:i:1", *member)
    assert f"data1={gid}" in content(adbd, "query", DATA, "--where", f"mimetype='{MEMBER}'")
    content(adbd, "delete", GROUPS, "--where", f"_id={gid}")
    assert "deleted=1" in content(adbd, "query", GROUPS, "--where", f"_id={gid}", "--projection", "deleted")
    assert f"data1={gid}," not in content(adbd, "query", DATA, "--where", f"mimetype='{MEMBER}'") + ","

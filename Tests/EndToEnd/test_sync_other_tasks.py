"""The person's other tasks (issue 30, item 6), end to end: a real reminderd and reminderd-sync with
`"otherTasks": true`, a real Radicale on 127.0.0.1, dbusmock as the notification server, and a
"phone" that is a plain CalDAV writer PUTting a task the way Tasks.org writes one (its PRODID, its
own X- property, a VALARM on the due time). The task pops up at its alarm, and the pop-up's Done
completes it on the server as those apps expect, leaving the rest as the phone wrote it; turned
off, the task goes from reminderd and nothing of it changes on the server."""
import json

from datetime import datetime, timedelta, timezone

from conftest import Dav, wait_for
from test_sync_devices import TASKS_ORG, get_prop, unfolded


def utc(moment):
    return moment.strftime("%Y%m%dT%H%M%SZ")


def phone_task(uid, title, due):
    """A task as Tasks.org writes one, with a property reminderd does not know (X-APP-SORT) and an
    alarm a minute before DUE; the last empty line ends the body with CRLF, as RFC 5545 asks."""
    return "\r\n".join([
        "BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:{TASKS_ORG}", "BEGIN:VTODO", f"UID:{uid}",
        f"DTSTAMP:{utc(datetime.now(timezone.utc))}", f"SUMMARY:{title}", f"DUE:{utc(due)}", "PRIORITY:1",
        "X-APP-SORT:7", "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER;RELATED=END:-PT1M",
        "END:VALARM", "END:VTODO", "END:VCALENDAR", ""])


def test_a_phone_made_task_with_due_pops_up_and_its_done_completes_it_on_the_server(devices, dav_server):
    (a,) = devices(1, notifications=True, sync_options={"otherTasks": True})
    server = Dav(dav_server.url)
    href = dav_server.collection_url() + "phone-task.ics"
    # Due 70 s from now, its alarm a minute before: the pop-up comes about 10 s after the pull.
    title = "Pay <b>rent</b> & \u001b[31mfees"
    written = phone_task("phone-task-1", title, datetime.now(timezone.utc) + timedelta(seconds=70))
    assert server.put(href, written, create=True) == 201
    before = unfolded(server.get(href)[1])
    a.sync_now()
    listed = a.ctl("list", "--all").stdout
    assert "task list" in listed and "\u001b" not in listed
    assert "task list" in a.ctl("upcoming").stdout
    (task,) = a.items()
    refusal = a.ctl("edit", task["id"], "--title", "Mine now", check=False)
    assert refusal.returncode != 0 and "another app's task" in refusal.stderr

    shown = wait_for(a.notifier.notifications, timeout=30, what="the task's pop-up")
    summary, body, line = shown[0]
    assert "Task Due" in body and "\u001b" not in summary + body
    assert "&lt;b&gt;rent&lt;/b&gt; &amp;" in body  # markup from the server is shown as text
    a.notifier.invoke(1, "done")

    def completed():
        return get_prop(unfolded(server.get(href)[1]), "STATUS") == "STATUS:COMPLETED"
    wait_for(completed, timeout=30, what="the Done on the server")
    after = unfolded(server.get(href)[1])
    assert get_prop(after, "PERCENT-COMPLETE") == "PERCENT-COMPLETE:100"
    assert get_prop(after, "COMPLETED").endswith("Z")
    changed = {"STATUS", "PERCENT-COMPLETE", "COMPLETED", "X-MOZ-LASTACK"}
    kept = [line for line in after if line.split(":", 1)[0].split(";", 1)[0] not in changed]
    assert kept == [line for line in before if line.split(":", 1)[0].split(";", 1)[0] not in changed]

    # A backup leaves it out: it is kept in its task list, and import refuses a task-list task.
    backup = a.ctl("export").stdout
    assert json.loads(backup)["items"] == [] and "phone" not in backup.lower()
    # Turned off (config reloaded): the task goes from here at the next pass; the server keeps it as it was.
    etag, done_body = server.get(href)
    config = json.loads(a.daemon.config_path.read_text())
    config["sync"]["otherTasks"] = False
    a.daemon.write_config(config)
    a.ctl("reload")
    a.sync_now()
    assert a.items() == []
    assert server.get(href) == (etag, done_body)
    # On again: the task list is read from the start, and the task is back, done.
    config["sync"]["otherTasks"] = True
    a.daemon.write_config(config)
    a.ctl("reload")
    a.sync_now()
    (back,) = a.items()
    assert back["title"] == task["title"] and back["status"] == "used" and back["taskList"] is True
    assert server.get(href) == (etag, done_body)

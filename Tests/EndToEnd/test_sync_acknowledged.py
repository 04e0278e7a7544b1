"""A dismissal anywhere is a dismissal everywhere (issue 30, item 5), end to end: a real reminderd
and reminderd-sync with a real Radicale on 127.0.0.1, dbusmock recording every Notify, and
"clients" that are plain HTTP writers acknowledging an alarm the way Thunderbird does
(`X-MOZ-LASTACK` on the task, `X-MOZ-SNOOZE-TIME` for a snooze) and the way RFC 9074 says
(`ACKNOWLEDGED` on the VALARM), after the alarm's trigger. The reminders are held by a pause
when they come, so whether reminderd shows them is decided by what it pulled: the digest at
resume names the one no client acknowledged, and never the acknowledged ones."""
from datetime import datetime, timedelta, timezone

from conftest import Dav, local_in, wait_for
from test_sync_devices import (THUNDERBIRD, TASKS_ORG, by_title, events, joined, name_of, resource_of, set_prop,
                               stamp, touched, unfolded)


def thunderbird_dismiss(lines):
    """Thunderbird's Dismiss: the task's `X-MOZ-LASTACK`, nothing on the alarm."""
    set_prop(touched(lines, THUNDERBIRD), "X-MOZ-LASTACK", "X-MOZ-LASTACK:" + stamp())
    return lines


def thunderbird_snooze(lines):
    """Thunderbird's Snooze: `X-MOZ-LASTACK` now and `X-MOZ-SNOOZE-TIME` at the snooze's end."""
    until = (datetime.now(timezone.utc) + timedelta(hours=1)).strftime("%Y%m%dT%H%M%SZ")
    thunderbird_dismiss(lines)
    set_prop(lines, "X-MOZ-SNOOZE-TIME", "X-MOZ-SNOOZE-TIME:" + until)
    return lines


def rfc9074_acknowledge(lines):
    """RFC 9074 §6.1: `ACKNOWLEDGED` (UTC) on each alarm, the task's own properties untouched, as
    Evolution's libecal writes it (`e_cal_util_set_alarm_acknowledged`); under Tasks.org's PRODID,
    the issue's other client."""
    touched(lines, TASKS_ORG)
    out = []
    for line in lines:
        if name_of(line) == "ACKNOWLEDGED":
            continue
        out.append(line)
        if line == "BEGIN:VALARM":
            out.append("ACKNOWLEDGED:" + stamp())
    return out


CLIENTS = {"Thunderbird dismissed": thunderbird_dismiss, "Thunderbird snoozed": thunderbird_snooze,
           "RFC 9074 acknowledged": rfc9074_acknowledge}


def test_an_alarm_acknowledged_by_another_client_after_its_time_is_not_shown_here(devices, dav_server):
    (a,) = devices(1, notifications=True)
    a.ctl("pause", "10m")
    titles = [*CLIENTS, "Left alone"]
    for title in titles:
        a.ctl("add", "coupon", title, "--expires", local_in(75), "--lead", "1m")
    fire_at = max(datetime.fromisoformat(by_title(a, title)["nextReminder"]) for title in titles)
    a.sync_now()
    # The alarms' time passes (the pop-ups held by the pause); then each client acknowledges.
    wait_for(lambda: datetime.now(timezone.utc) > fire_at + timedelta(seconds=1), timeout=40,
             what="the reminders' time")
    server = Dav(dav_server.url)
    for title, acknowledge in CLIENTS.items():
        href, etag, body = resource_of(dav_server, title)
        status = server.put(href, joined(acknowledge(unfolded(body))), etag=etag)
        assert status in (201, 204), f"PUT {href}: {status}"
    a.sync_now()
    for title in CLIENTS:
        wait_for(lambda: "dismissed elsewhere" in events(a, title) or "snoozed elsewhere" in events(a, title),
                 timeout=20, what=f"reminderd to learn that {title!r} was acknowledged")
    a.ctl("resume")
    wait_for(lambda: any("Left alone" in summary + body for summary, body, _ in a.notifier.notifications()),
             timeout=20, what="the digest of the held reminder no client acknowledged")
    shown = [summary + body for summary, body, _ in a.notifier.notifications()]
    for title in CLIENTS:
        assert not any(title in text for text in shown), f"{title!r} was shown: {shown}"

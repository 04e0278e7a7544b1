"""Reminders waiting their turn survive a restart (issue 27, defect 5: four coupons fired together,
One at a time pressed, reminderd restarted — the three still to come were never shown again)."""

import re

from conftest import local_in, wait_for


def calls(server):
    """Every Notify call as (replaces_id, summary, id), in order; the id as the mock gives it: the
    pop-up replaced, or the next of 1, 2, …"""
    found, next_id = [], 1
    for summary, _, line in server.notifications():
        match = re.search(r' Notify "[^"]*" (\d+) ', line)
        replaces = int(match.group(1)) if match else 0
        if replaces:
            found.append((replaces, summary, replaces))
        else:
            found.append((0, summary, next_id))
            next_id += 1
    return found


def own(title):
    return "\u2068" + title + "\u2069"


def test_the_reminders_waiting_their_turn_come_back_after_a_restart(server, daemon):
    daemon.start()
    expires = local_in(2 * 86400 + 6)
    ids = {title: daemon.ctl_json("add", "coupon", title, "--expires", expires, "--lead", "48h")["id"]
           for title in ("Pho", "Ramen", "Sushi", "Tacos")}
    wait_for(lambda: calls(server) and calls(server)[0][1].startswith("4 reminders: "), timeout=20,
             what="the grouped pop-up")
    server.invoke(calls(server)[0][2], "one-at-a-time")
    wait_for(lambda: len(calls(server)) == 2, what="the first shown alone")
    assert calls(server)[1][:2] == (0, own("Pho"))
    assert daemon.ctl_json("status")["status"]["inTurn"] == 4
    assert [r["item"] for r in daemon.ctl_json("upcoming")["reminders"][:4]] == list(ids.values())
    assert re.search(r"One at a time:\s+4 reminders of a grouped pop-up, shown in turn", daemon.ctl("status").stdout)

    daemon.stop()
    daemon.start()
    # Pho again, in place of its pop-up on the same server, then the others in turn.
    wait_for(lambda: len(calls(server)) == 3, what="Pho shown again after the restart")
    assert calls(server)[2] == (calls(server)[1][2], own("Pho"), calls(server)[1][2])
    for title in ("Pho", "Ramen", "Sushi", "Tacos"):
        shown = wait_for(lambda: [c for c in calls(server) if c[1] == own(title)], what=f"{title}'s pop-up")
        server.invoke(shown[-1][2], "done")
        wait_for(lambda: daemon.ctl_json("show", ids[title])["item"]["status"] == "used", what=f"{title} done")
    assert daemon.ctl_json("status")["status"]["inTurn"] == 0
    assert [c[1] for c in calls(server) if c[1] in {own(t) for t in ids}] == [own(t) for t in ("Pho", "Pho", "Ramen", "Sushi", "Tacos")]
    for item_id in ids.values():
        assert [e["event"] for e in daemon.ctl_json("history", "--item", item_id)["entries"]].count("fired") == 1

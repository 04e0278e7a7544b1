"""A person at the desktop, at random: pop-up buttons (Done, snoozes, a group's One at a time and
Snooze all, the confirmation's Undo), closing pop-ups, menu clicks from two panel hosts, reminderctl
commands, and restarts of reminderd, of the notification server and of the panel — each step
checked against the small model in desk_model.py: every action lands on the item its person saw,
nothing is lost or shown twice, nothing offered is refused.

Real parts: a private bus, python3-dbusmock as the notification server (its `EmitSignal` presses
buttons and closes pop-ups as a server does), reminderd's own StatusNotifierItem and dbusmenu with
a recording StatusNotifierWatcher present, two dbusmenu clients (desk_peer.py), the reminderctl
binary. The daemon's clock reads 2030-03-31 23:40:52 UTC at the start (no quiet hours): two monthly
credits due at 23:59 pop up at the next whole minute, and coupons added with a time lead a few
seconds short of their expiry pop up within seconds.

Seeds: each run takes two fixed seeds and a fresh one; REMINDERD_DESK_SEED=N replays one (it is
printed at the start and in every failure), REMINDERD_DESK_STEPS (default 40) bounds the steps and
REMINDERD_DESK_SECONDS (default 12: about 20 steps) the time one seed's steps take after its first
reminders (the three seeds together about a minute)."""
import json
import os
import random
import re
import signal
import subprocess
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest

from conftest import CLOCK_SHIFT, SYSTEM_PYTHON, Daemon, NotificationServer, wait_for
from desk_model import TITLES, Item, Model, plain, screen, seconds, tomorrow_nine
from test_indicator import Watcher

HERE = Path(__file__).resolve().parent
# 19 minutes before a month's last credits expire (23:59), so a monthly benefit is due within the run.
START = datetime(2030, 3, 31, 23, 40, 52, tzinfo=timezone.utc)
STEPS = int(os.environ.get("REMINDERD_DESK_STEPS") or 40)
BUDGET = float(os.environ.get("REMINDERD_DESK_SECONDS") or 12)
# The two fixed seeds, and one new each run, drawn in the test (pytest-xdist's workers must collect
# the same tests) and printed, so a failure can be replayed.
SEEDS = [os.environ["REMINDERD_DESK_SEED"]] if os.environ.get("REMINDERD_DESK_SEED") else ["1", "2", "fresh"]
# How long a step's effects may take to show (a button's command, a re-shown group, a menu's relayout).
SETTLE = 10.0
# Leads (time leads: exact) and so expiries: due today (Snooze 1h fits, 1d does not) or in 3 days.
LEADS = ["2h", "72h"]


class Peer:
    """desk_peer.py: dbusmock's call log and signals, and two panel hosts (and a third
    connection that fetches the menu for the checks, so a check never changes what a host saw)."""

    def __init__(self, bus):
        self.process = subprocess.Popen(
            [SYSTEM_PYTHON, str(HERE / "desk_peer.py"), bus.address], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            env={"PATH": "/usr/bin:/bin"}, text=True)

    def ask(self, **request):
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        if "error" in answer:
            raise AssertionError(f"{request}: {answer['error']}")
        return answer["ok"]

    def stop(self):
        self.process.stdin.close()
        self.process.wait(5)


def entries(layout):
    """A menu's item entries: (title-and-when label, [(id, label)] of its enabled actions)."""
    found = []

    def walk(node):
        for child in node[2]:
            if child[2] and child[1].get("children-display") == "submenu":
                actions = [(c[0], c[1].get("label", "")) for c in child[2] if c[1].get("enabled", True)
                           and c[1].get("visible", True)]
                found.append((child[1].get("label", ""), actions))
            walk(child)
    walk(layout[1])
    return found


def clock(instant):
    """An instant on the daemon's clock as a failure says it ("Sun 23:58:00"), or "none"."""
    return "none" if instant is None else datetime.fromtimestamp(instant, timezone.utc).strftime("%a %H:%M:%S")


def label_title(label, model):
    """The item a menu label names ("Alpha, today", "Bravo — worth $5, in 3 days")."""
    text = label.replace("__", "_")
    return next((item for item in model.items.values()
                 if text.startswith(item.title + ",") or text.startswith(item.title + " —")), None)


class Desk:
    """The running parts, the model, and the steps a person takes."""

    def __init__(self, tmp_path, bus, seed):
        self.tmp, self.bus, self.seed = Path(tmp_path), bus, seed
        self.rng = random.Random(seed)
        self.model = Model()
        self.log = []  # the steps taken, for the failure message
        self.server_number = 0
        self.closed = {}  # call count → ids the person closed then, on this server
        self.refusals_seen = 0  # on servers before this one
        self.hosts = [None, None]  # each host's last layout: (the model's versions then, layout)
        self.titles = iter(TITLES)
        self.server = self.watcher = self.daemon = self.peer = None
        try:
            self.server = self.new_server()
            self.watcher = Watcher(bus, self.tmp / "watcher.log")
            self.daemon = Daemon(self.tmp, bus)
            self.shift = round(START.timestamp() - (time.time() - CLOCK_SHIFT))
            self.daemon.env["REMINDERD_TEST_CLOCK_SHIFT"] = str(self.shift)
            self.daemon.start()
            self.peer = Peer(bus)
            self.dest = self.indicator_name()
        except BaseException:
            self.stop()
            raise

    # The parts ----------------------------------------------------------------------------------

    def now(self):
        """The daemon's clock."""
        return time.time() - CLOCK_SHIFT + self.shift

    def new_server(self):
        self.server_number += 1
        return NotificationServer(self.bus, self.tmp / f"notify-{self.server_number}.log")

    def indicator_name(self, before=0):
        """The unique name reminderd registered its indicator with: the first registration after
        the `before` the watcher had logged already."""
        def registered():
            names = [entry["sender"] for entry in self.watcher.registrations()]
            return names[-1] if len(names) > before else None
        return wait_for(registered, timeout=15, what="reminderd's indicator registered with the watcher")

    def calls(self):
        return self.peer.ask(op="calls")

    def screen(self):
        return screen(self.calls(), self.closed)

    def ctl(self, *args):
        return self.daemon.ctl(*args, check=False)

    def ctl_json(self, *args):
        result = self.ctl(*args, "--json")
        if result.returncode != 0:
            self.fail(f"reminderctl {' '.join(args)} exited {result.returncode}: {result.stderr}")
        return json.loads(result.stdout)

    def fail(self, message):
        steps = "\n".join(f"  {n + 1}. {step}" for n, step in enumerate(self.log))
        raise AssertionError(f"REMINDERD_DESK_SEED={self.seed}: {message}\nsteps:\n{steps}")

    def stop(self):
        for part in (self.peer, self.daemon, self.watcher, self.server):
            try:
                if part is not None:
                    part.stop()
            except Exception:  # each part stops even when another would not
                pass

    # What the person does ------------------------------------------------------------------------

    def new_title(self):
        return next(self.titles, None)

    def add_benefits(self, count):
        """`count` monthly credits due tonight at 23:59, reminded at the next whole minute at least
        five seconds away (a time lead to it: day leads fire at 09:00), added by one `import`."""
        titles = [t for t in (self.new_title() for _ in range(count)) if t]
        now = self.now()
        due = datetime.fromtimestamp(now, timezone.utc).replace(hour=23, minute=59, second=0).timestamp()
        fire = -(-int(now + 5) // 60) * 60
        lead = f"{int(due - fire) // 60}m"
        path = self.tmp / "import.json"
        path.write_text(json.dumps([{"kind": "benefit", "title": t, "amount": "15", "period": "monthly", "lead": [lead]}
                                    for t in titles]))
        result = self.ctl("import", str(path), "--json")
        if result.returncode != 0:
            self.fail(f"adding {titles} was refused: {result.stderr}")
        for item_id, title in zip(json.loads(result.stdout)["ids"], titles):
            self.model.items[item_id] = Item(item_id, title, due, fire, kind="benefit", awaiting=True)
        wait_for(lambda: self.now() > fire + 0.5, timeout=70, what="the credits' reminder time")
        return f"add benefits {', '.join(titles)} (monthly, due 23:59, lead {lead})"

    def add(self, count):
        """`count` coupons expiring together, each reminded by a time lead that fires within
        seconds: one is added with `add`, several with one `import` (more than two pop up as a group)."""
        titles = [t for t in (self.new_title() for _ in range(count)) if t]
        if len(titles) < count:
            return None
        lead = self.rng.choice(LEADS)
        due = int(self.now()) + seconds(lead) + 4
        expires = datetime.fromtimestamp(due, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
        if count == 1:
            result = self.ctl("add", "coupon", titles[0], "--expires", expires, "--lead", lead, "--json")
            ids = [json.loads(result.stdout)["id"]] if result.returncode == 0 else []
        else:
            path = self.tmp / "import.json"
            path.write_text(json.dumps([{"kind": "coupon", "title": t, "expires": expires, "lead": [lead]}
                                        for t in titles]))
            result = self.ctl("import", str(path), "--json")
            ids = json.loads(result.stdout)["ids"] if result.returncode == 0 else []
        if result.returncode != 0:
            self.fail(f"adding {titles} was refused: {result.stderr}")
        for item_id, title in zip(ids, titles):
            self.model.items[item_id] = Item(item_id, title, due, due - seconds(lead))
        # The person waits for the pop-up (a few seconds).
        wait_for(lambda: self.now() > due - seconds(lead) + 0.5, timeout=15, what="the reminders' time")
        for item_id in ids:
            self.model.items[item_id].awaiting = True
        return f"add {', '.join(titles)} (lead {lead}, expires {expires})"

    def press(self):
        """A button on a pop-up on the screen: a reminder's Done or snooze, a group's One at a time
        or Snooze all, or the Undo of a Done's confirmation (while it is there: about ten seconds)."""
        on_screen, _ = self.screen()
        choices = []
        for popup in on_screen.values():
            if popup.kind in ("reminder", "group"):
                choices += [(popup, key, label) for key, label in popup.actions]
            elif popup.kind == "undo" and popup.actions:
                item = self.undo_offer_item(popup)
                if item is not None:
                    choices.append((popup, "undo", "Undo"))
        if not choices:
            return None
        popup, key, label = self.rng.choice(sorted(choices, key=lambda c: (c[0].order, c[1])))
        now = self.now()
        self.peer.ask(op="emit", signal="ActionInvoked", signature="us", args=[popup.id, key])
        if not popup.resident:  # a server closes a pop-up that is not resident once a button is pressed
            self.close(popup.id, reason=2)
        model = self.model
        if popup.kind == "reminder":
            item = model.by_title(popup.summary)
            if key == "done":
                model.mark_done(item, "pop-up")
                item.offer_after = len(self.calls())
                item.offer_until = time.monotonic() + 8
            elif key == "snooze-last-minute":
                model.mark_snoozed(item, item.due - 60)
            elif key == "snooze-tomorrow":
                model.mark_snoozed(item, tomorrow_nine(now))
            else:
                model.mark_snoozed(item, now + seconds(key.removeprefix("snooze-")))
            return f"press {label!r} on {item.title}'s pop-up {popup.id}"
        if popup.kind == "undo":
            item = self.undo_offer_item(popup)
            model.mark_undone(item)
            return f"press Undo on the confirmation {popup.id} of {item.title}'s Done"
        group = [model.items[i] for i in model.members(popup, on_screen)]
        if key == "one-at-a-time":
            model.go_through([item.id for item in group if item.awaiting])
        else:
            for item in group:
                model.mark_snoozed(item, now + seconds(key.removeprefix("snooze-all-")))
        return f"press {label!r} on the group {popup.id} of {', '.join(i.title for i in group)}"

    def undo_offer_item(self, popup):
        """The item a Done's confirmation offers to undo ("Marked $15.00 Alpha as used"), while
        pressing it means that Done (about ten seconds, after a Done from a pop-up)."""
        for item in self.model.items.values():
            if (re.match(rf"Marked (\S+ )?{item.title} as used", plain(popup.body)) and item.used
                    and item.done_by == "pop-up" and popup.order >= item.offer_after
                    and time.monotonic() < item.offer_until):
                return item
        return None

    def close(self, notification_id, reason):
        self.closed.setdefault(len(self.calls()), []).append(notification_id)
        self.peer.ask(op="emit", signal="NotificationClosed", signature="uu", args=[notification_id, reason])

    def dismiss(self):
        """The person closes a reminder's pop-up or a group's."""
        on_screen, _ = self.screen()
        choices = sorted((p for p in on_screen.values() if p.kind in ("reminder", "group")), key=lambda p: p.order)
        if not choices:
            return None
        popup = self.rng.choice(choices)
        self.close(popup.id, reason=2)
        if popup.kind == "reminder":
            item = self.model.by_title(popup.summary)
            self.model.mark_dismissed(item)
            return f"close {item.title}'s pop-up {popup.id}"
        group = [self.model.items[i] for i in self.model.members(popup, on_screen)]
        for item in group:
            self.model.mark_dismissed(item)
        return f"close the group {popup.id} of {', '.join(i.title for i in group)}"

    def fetch_menu(self):
        host = self.rng.randrange(2)
        layout = self.peer.ask(op="layout", host=host, dest=self.dest)
        self.hosts[host] = ({i: item.version for i, item in self.model.items.items()}, layout)
        return f"host {host + 1} opens the menu"

    def click_menu(self):
        """A click on an item's action in the menu a host showed last, however old."""
        choices = []
        for host, seen in enumerate(self.hosts):
            if seen is None:
                continue
            for label, actions in entries(seen[1]):
                choices += [(host, label, entry_id, action) for entry_id, action in actions]
        if not choices:
            return None
        host, label, entry_id, action = self.rng.choice(choices)
        versions = self.hosts[host][0]
        item = label_title(label, self.model)
        gone = item is None and any(label.startswith(title) for title in self.model.removed)
        if item is None and not gone:
            self.fail(f"host {host + 1}'s menu entry {label!r} names no item")
        fresh = not gone and versions.get(item.id) == item.version
        event = "snoozed" if action.startswith(("Snooze", "Remind")) else "done"
        refused_before = None if fresh or gone or item.used else self.refusals_of(item)
        now = self.now()
        self.peer.ask(op="click", host=host, dest=self.dest, id=entry_id)
        words = f"host {host + 1} clicks {action!r} of {label!r} (id {entry_id}, {'as shown' if fresh else 'stale'})"
        if gone or item.used:
            # Done or removed in the meantime: refused with a word, never acted on another item.
            self.model.refusals_allowed += 1
            return words
        if refused_before is not None:
            # The item changed since this menu was fetched: its entry may have left the menu (a
            # Done undone since comes back as a new entry), so the click acts as shown or is
            # refused in words; which one, the daemon says.
            def answered():
                if self.refusals_of(item) > refused_before:
                    return "refused"
                events = [e["event"] for e in self.ctl_json("history", "--item", item.id)["entries"]]
                return "acted" if events.count(event) > getattr(item, event) else None
            if wait_for(answered, timeout=SETTLE, what=f"{item.title}'s {event} or its refusal") == "refused":
                self.model.refusals_allowed += 1
                return words + ", refused"
        if event == "snoozed":
            until = (item.due - 60 if action.startswith("Remind") else tomorrow_nine(now)
                     if action == "Snooze until tomorrow" else now + seconds(action.removeprefix("Snooze ")))
            self.model.mark_snoozed(item, until)
        else:
            self.model.mark_done(item, "menu")
        return words

    def refusals_of(self, item):
        """How many refusal pop-ups on this server named the item."""
        return sum(1 for p in self.screen()[1] if p.kind == "refused" and item.title in plain(p.body))

    def cli(self):
        """reminderctl done, undo, snooze or remove, mostly where it applies (now and then where it
        must be refused: a Done of a used coupon, an Undo with no Done left)."""
        command = self.rng.choice(["done", "undo", "snooze", "done", "undo", "snooze", "remove"])
        applies = {"done": lambda i: not i.used, "undo": lambda i: i.done > i.undone, "snooze": lambda i: not i.used,
                   "remove": lambda i: True}
        items = sorted(self.model.items.values(), key=lambda i: i.title)
        fitting = [i for i in items if applies[command](i)]
        if command != "snooze" and (not fitting or self.rng.random() < 0.1):
            fitting = [i for i in items if not applies[command](i)]
        if not fitting:
            return None
        item = self.rng.choice(fitting)
        if command == "snooze":
            now = self.now()
            # Only what ends before its due time: the command shortens a longer one, and says so.
            durations = [d for d in ("5m", "30m", "1h") if now + seconds(d) + 60 < item.due]
            if not durations:
                return None
            duration = self.rng.choice(durations)
            result = self.ctl("snooze", item.id, duration)
            if result.returncode != 0:
                self.fail(f"reminderctl snooze {item.title} {duration} was refused: {result.stderr}")
            self.model.mark_snoozed(item, now + seconds(duration))
            return f"reminderctl snooze {item.title} {duration}"
        result = self.ctl(command, item.id)
        may = applies[command](item)
        if (result.returncode == 0) != may:
            self.fail(f"reminderctl {command} {item.title} exited {result.returncode} (expected "
                      f"{'success' if may else 'a refusal'}): {result.stdout}{result.stderr}")
        if command == "remove":
            self.model.remove(item)
        elif may and command == "done":
            self.model.mark_done(item, "cli")
        elif may:
            self.model.mark_undone(item)
        return f"reminderctl {command} {item.title}" + ("" if may else " (refused, as it should be)")

    def restart_daemon(self):
        how = self.rng.choice([signal.SIGTERM, signal.SIGKILL])
        before = len(self.watcher.registrations())
        self.daemon.kill(how)
        self.daemon.start()
        self.dest = self.indicator_name(before)
        self.hosts = [None, None]  # their menus were reminderd's before: the hosts fetch again
        for item in self.model.items.values():
            item.offer_until = 0  # a Done's confirmation is the run's before (and gone in ten seconds)
        return f"reminderd restarted ({how.name})"

    def restart_server(self):
        before, shown = self.screen()
        self.refusals_seen += self.refusals(shown)
        self.server.stop()
        self.server = self.new_server()
        self.closed = {}
        self.model.queue = []  # what was open and what waited its turn are all shown again
        return f"the notification server restarted ({len(before)} pop-ups were on screen)"

    def restart_panel(self):
        self.watcher.stop()
        self.watcher.start()
        self.peer.ask(op="hosts")
        self.hosts = [None, None]
        self.dest = self.indicator_name()
        return "the panel restarted"

    # The checks ----------------------------------------------------------------------------------

    @staticmethod
    def refusals(shown):
        return sum(1 for popup in shown if popup.kind == "refused")

    def problems(self):
        """What differs from the model now, in words (empty: nothing)."""
        if self.daemon.process.poll() is not None:
            return [f"reminderd exited {self.daemon.process.returncode}"]
        problems = []
        listed = {i["id"]: i for i in json.loads(self.ctl("list", "--all", "--json").stdout)["items"]}
        history = json.loads(self.ctl("history", "--limit", "100000", "--json").stdout)["entries"]
        for item in self.model.items.values():
            got = listed.get(item.id)
            if got is None:
                problems.append(f"{item.title} is missing from `list`")
                continue
            if (got["status"] == "used") != item.used:
                problems.append(f"{item.title} is {got['status']}, expected {'used' if item.used else 'not used'}")
            if item.next_known:
                expected = item.next_reminder
                stamp = got.get("nextReminder")
                actual = datetime.fromisoformat(stamp).timestamp() if stamp else None
                if (expected is None) != (actual is None) or (expected and abs(actual - expected) > 5):
                    problems.append(f"{item.title}'s next reminder is {clock(actual)}, expected {clock(expected)}")
            events = [e["event"] for e in history if e.get("item") == item.id]
            for event, count in (("done", item.done), ("undone", item.undone), ("snoozed", item.snoozed)):
                if events.count(event) != count:
                    problems.append(f"{item.title}: history has {events.count(event)} {event}, expected {count}")
            if events.count("fired") != 1:
                problems.append(f"{item.title}: history has {events.count('fired')} fired, expected 1")
        on_screen, shown = self.screen()
        problems += self.model.check_screen(on_screen)
        refused = self.refusals_seen + self.refusals(shown)
        if refused > self.model.refusals_allowed:
            words = [p.body for p in shown if p.kind == "refused"]
            problems.append(f"{refused} refusal pop-up(s), {self.model.refusals_allowed} expected: {words}")
        layout = self.peer.ask(op="layout", host=2, dest=self.dest)
        titles = sorted(label_title(label, self.model).title if label_title(label, self.model) else label
                        for label, _ in entries(layout))
        expected = sorted(item.title for item in self.model.items.values() if not item.used)
        if titles != expected:
            problems.append(f"the menu lists {titles}, expected {expected}")
        return problems

    def check(self):
        last = []

        def agrees():
            last[:] = self.problems()
            return not last
        try:
            wait_for(agrees, timeout=SETTLE, interval=0.2, what="agreement")
        except AssertionError as error:  # said below, without the wait's own traceback
            last[:] = last or [str(error)]
        if last:
            self.fail("after the last step:\n    " + "\n    ".join(last))


STEP_WEIGHTS = [("add_one", 3), ("add_group", 2), ("press", 8), ("dismiss", 1), ("fetch_menu", 4),
                ("click_menu", 5), ("cli", 3), ("restart_daemon", 1),
                ("restart_server", 1), ("restart_panel", 1)]


def take_step(desk):
    """One step the person takes; None when it does not apply now (nothing on screen, …)."""
    names = [name for name, _ in STEP_WEIGHTS]
    name = desk.rng.choices(names, weights=[w for _, w in STEP_WEIGHTS])[0]
    if name == "add_one":
        return desk.add(1)
    if name == "add_group":
        return desk.add(desk.rng.choice([3, 4]))
    return getattr(desk, name)()


@pytest.mark.parametrize("seed", SEEDS)
def test_a_person_at_the_desktop_gets_what_each_action_showed(bus, tmp_path, seed):
    seed = random.SystemRandom().randrange(1, 2**31) if seed == "fresh" else int(seed)
    print(f"REMINDERD_DESK_SEED={seed}")
    desk = Desk(tmp_path, bus, seed)
    try:
        desk.log.append(desk.add_benefits(2))
        desk.log.append(desk.add(4))
        desk.check()
        started = time.monotonic()
        while len(desk.log) < STEPS and time.monotonic() - started < BUDGET:
            step = take_step(desk)
            if step is None:
                continue
            desk.log.append(step)
            desk.check()
    finally:
        desk.stop()

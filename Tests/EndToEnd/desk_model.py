"""The small model test_desktop_model.py checks reminderd against, written from docs/CONTRACT.md
§3–§4 and the indicator's section, in plain values: what each item is (used, snoozed, waiting to
be acted on), which reminders a person must find on the screen, and what the pop-ups on a
python3-dbusmock server's screen are, read from its call log."""
import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

# Titles none of which starts another: a menu label or a pop-up names one item only.
TITLES = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "India", "Juliet", "Kilo",
          "Lima", "Mike", "November", "Oscar", "Papa", "Quebec", "Romeo", "Sierra", "Tango", "Uniform", "Victor",
          "Whiskey", "Xray", "Yankee", "Zulu"]

SECONDS = {"m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def seconds(duration):
    """"1h" → 3600; also the menu's words, "1 hour", "1 day"."""
    match = re.fullmatch(r"(\d+)\s*(m|h|d|w|min(?:ute)?s?|hours?|days?|weeks?)", duration.strip())
    assert match, f"not a duration: {duration!r}"
    return int(match[1]) * SECONDS[match[2][0]]


def tomorrow_nine(now):
    """Where "Snooze until tomorrow" ends at `now`: tomorrow at the default reminder time, 09:00
    in the daemon's zone (UTC here, no quiet hours)."""
    day = datetime.fromtimestamp(now, timezone.utc).date() + timedelta(days=1)
    return datetime(day.year, day.month, day.day, 9, tzinfo=timezone.utc).timestamp()


def plain(text):
    """Pop-up text without the bidi isolates reminderd puts around user text."""
    return text.replace("\u2068", "").replace("\u2069", "")


@dataclass
class Item:
    """One coupon as the person knows it."""
    id: str
    title: str
    due: float  # on the daemon's clock
    fire_at: float  # its one reminder (a time lead)
    kind: str = "coupon"
    used: bool = False
    # Fired and not acted on since: a person must find it on the screen (alone, in a group, or
    # waiting its turn behind the one shown).
    awaiting: bool = False
    # When its next reminder comes, where the model knows it (after a snooze, or none once used).
    next_reminder: float | None = None
    next_known: bool = False
    done: int = 0
    undone: int = 0
    snoozed: int = 0
    # How the latest Done came: "pop-up" (its confirmation offers Undo), "menu" or "cli".
    done_by: str | None = None
    # Bumped by every change the person made, so a menu fetched before it is known to be stale.
    version: int = 0
    # After a Done from its pop-up: the confirmation that offers Undo is a call from this one on
    # (in the server's log), and a person can press it until `offer_until` (time.monotonic()).
    offer_after: int | None = None
    offer_until: float = 0.0


@dataclass
class PopUp:
    id: int
    summary: str
    body: str
    actions: list  # [(key, label)]
    category: str
    resident: bool
    order: int  # the call that put it on screen last

    @property
    def kind(self):
        """"reminder", "group", "undo", "refused" or "notice"."""
        if self.category in ("x-reminderd.group", "x-reminderd.digest"):
            return "group"
        if self.category == "x-reminderd.done":
            return "undo"
        if self.category == "x-reminderd.refused":
            return "refused"
        if any(key == "done" for key, _ in self.actions):
            return "reminder"
        return "notice"

    def named_ids(self):
        """A group's items, by the `reminderctl done ID` each of its lines ends with."""
        return re.findall(r"reminderctl done ([a-z0-9._-]+)", plain(self.body))

    @property
    def unnamed(self):
        """How many of a group's reminders it counts but does not name ("6 reminders: …", five
        lines, "and 1 more: reminderctl list")."""
        count = re.match(r"(\d+) reminders", self.summary)
        return int(count[1]) - len(self.named_ids()) if count else 0


def screen(calls, closed):
    """The pop-ups on a dbusmock notification server's screen: every Notify (its id the replaced
    one, else the server's next number from 1, as the template counts) less those reminderd
    closed (CloseNotification) and those the person closed (`closed`: call count → ids closed
    after that many calls). Also every pop-up ever shown, by id, in call order."""
    on_screen, shown, next_id = {}, [], 1
    for index, (_, method, args) in enumerate(calls):
        for closed_id in closed.get(index, ()):
            on_screen.pop(closed_id, None)
        if method == "Notify":
            _, replaces, _, summary, body, actions, hints, _ = args
            if replaces:
                notification_id = replaces
            else:
                notification_id, next_id = next_id, next_id + 1
            popup = PopUp(notification_id, plain(summary), body, list(zip(actions[::2], actions[1::2])),
                          hints.get("category", ""), bool(hints.get("resident", False)), index)
            on_screen[notification_id] = popup
            shown.append(popup)
        elif method == "CloseNotification":
            on_screen.pop(args[0], None)
    for closed_id in closed.get(len(calls), ()):
        on_screen.pop(closed_id, None)
    return on_screen, shown


class Model:
    def __init__(self):
        self.items = {}  # id → Item
        self.removed = set()  # titles of the items removed
        # The reminders gone through one at a time (a group's One at a time), in order: one queue,
        # the first shown, the next once it is acted on, dismissed or closed. A second group's
        # One at a time joins the queue; a new notification server shows them all again at once.
        self.queue = []
        self.refusals_allowed = 0

    def by_title(self, title):
        return next((item for item in self.items.values() if item.title == title), None)

    def settle_queue(self):
        """Drops from the queue the reminders no longer waiting (or removed)."""
        self.queue = [i for i in self.queue if i in self.items and self.items[i].awaiting]

    def go_through(self, ids):
        """One at a time pressed on a group of these reminders."""
        self.queue += [i for i in ids if i not in self.queue]

    def in_turn_behind(self, item_id):
        """Whether the reminder waits its turn behind another one."""
        return item_id in self.queue[1:]

    def mark_done(self, item, by):
        item.used, item.awaiting = True, False
        item.done += 1
        item.done_by = by
        # A used coupon has no reminder left; a credit's next is its next month's.
        item.next_reminder, item.next_known = None, item.kind == "coupon"
        item.version += 1

    def mark_undone(self, item):
        item.used = False
        item.undone += 1
        item.done_by = None
        item.next_known = False  # as before the Done: the model does not follow it
        item.version += 1

    def mark_snoozed(self, item, until):
        item.awaiting = False
        item.snoozed += 1
        item.next_reminder, item.next_known = until, True
        item.version += 1

    def remove(self, item):
        del self.items[item.id]
        self.removed.add(item.title)
        self.settle_queue()

    def mark_dismissed(self, item):
        item.awaiting = False
        item.version += 1

    def placed(self, on_screen):
        """Each item's pop-ups on screen, by id: a reminder's own, and the groups that name it."""
        named = {}
        for popup in on_screen.values():
            if popup.kind == "reminder":
                item = self.by_title(popup.summary)
                named.setdefault(item.id if item else popup.summary, []).append(popup.id)
            elif popup.kind == "group":
                for item_id in popup.named_ids():
                    named.setdefault(item_id, []).append(popup.id)
        return named

    def unnamed_members(self, on_screen):
        """The reminders waiting to be acted on that no pop-up names, as the groups that count
        more than they name hold them (in a group's order: due, then title), by group id."""
        named = self.placed(on_screen)
        left = sorted((i for i in self.items.values() if i.awaiting and not named.get(i.id)
                       and not self.in_turn_behind(i.id)), key=lambda i: (i.due, i.title))
        members = {}
        for popup in sorted(on_screen.values(), key=lambda p: p.order):
            if popup.kind == "group" and popup.unnamed:
                members[popup.id], left = [i.id for i in left[:popup.unnamed]], left[popup.unnamed:]
        return members

    def members(self, popup, on_screen):
        """A group's items: those it names, then those it only counts."""
        return popup.named_ids() + self.unnamed_members(on_screen).get(popup.id, [])

    def check_screen(self, on_screen):
        """What is wrong with the screen, in words: every reminder waiting to be acted on is on
        exactly one pop-up on screen (named, or counted by a group that names five) or waits its
        turn behind one that is; no pop-up names a reminder that is used, snoozed or dismissed."""
        problems = []
        self.settle_queue()
        named = self.placed(on_screen)
        for key, places in named.items():
            if key not in self.items:
                problems.append(f"pop-up(s) {places} name {key}, which is no item")
        for members in self.unnamed_members(on_screen).values():
            for item_id in members:
                named[item_id] = ["counted"]
        for item in self.items.values():
            places = named.get(item.id, [])
            if item.awaiting and self.in_turn_behind(item.id):
                if places:
                    problems.append(f"{item.title} waits its turn, yet is on pop-up(s) {places}")
            elif item.awaiting and len(places) != 1:
                problems.append(f"{item.title} waits to be acted on but is on {len(places)} pop-ups {places}")
            elif not item.awaiting and places:
                state = "used" if item.used else "acted on"
                problems.append(f"{item.title} is {state}, yet still on pop-up(s) {places}")
        if self.queue and not named.get(self.queue[0]):
            waiting = ", ".join(self.items[i].title for i in self.queue)
            problems.append(f"one at a time: {waiting} wait(s), none on screen (lost)")
        return problems

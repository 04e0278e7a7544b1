#!/usr/bin/env python3
"""A second, independent implementation of `reminderctl plan` (CONTRACT §2-§3, §5).

Written from the spec with Python's datetime and zoneinfo, sharing no code or tables with the
Swift implementation, so the property test in Tests/ReminderCoreTests can compare the two.
zoneinfo reads the same TZif files; its fold=0 reading of a wall-clock time is the spec's rule
(a time in a gap is read with the offset before the gap, i.e. moved forward by it; a repeated
time is the earlier instant).

Usage: plan_oracle.py CASES.json  ->  prints a JSON array with one plan per case.
A case is {"config": {...}, "items": [...], "from": RFC3339, "to": RFC3339}. Inputs are assumed
valid (validation is tested elsewhere).
"""
import calendar
import json
import sys
from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

DEFAULTS = {
    "reminderTime": "09:00",
    "leadTimes": ["7d", "1d", "0d"],
    "quietHours": {"start": "22:00", "end": "08:00"},
}
UNIT_SECONDS = {"m": 60, "h": 3600, "d": 86400, "w": 604800}
PERIOD_MONTHS = {"monthly": 1, "quarterly": 3, "semiannual": 6, "annual": 12}


def duration(text):
    for unit in ("mo", "m", "h", "d", "w", "y"):
        if text.endswith(unit) and text[: -len(unit)].isdigit():
            return int(text[: -len(unit)]), unit
    raise ValueError(text)


def clock(text):
    parts = [int(p) for p in text.split(":")]
    return parts[0] * 3600 + parts[1] * 60 + (parts[2] if len(parts) > 2 else 0)


def wall_to_instant(zone, day, seconds):
    """(instant, was_in_gap) for `seconds` after midnight of `day` on the wall clock."""
    naive = datetime.combine(day, time()) + timedelta(seconds=seconds)
    instant = int(naive.replace(tzinfo=zone, fold=0).timestamp())
    back = datetime.fromtimestamp(instant, zone).replace(tzinfo=None)
    return instant, back != naive


def add_months(day, months, anchor):
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    month += 1
    return date(year, month, min(anchor, calendar.monthrange(year, month)[1]))


def parse_date(text):
    return date.fromisoformat(text)


def due_dates(item, first, last):
    """Every (due date, seconds after midnight) of the item whose date is in [first, last]."""
    kind = item["kind"]
    end_of_day = 23 * 3600 + 59 * 60
    if kind == "coupon":
        text = item["expires"]
        if len(text) <= 10:
            yield parse_date(text), end_of_day
        else:
            moment = datetime.fromisoformat(text.replace(" ", "T"))
            yield moment.date(), moment.hour * 3600 + moment.minute * 60 + moment.second
    elif kind == "rebuy":
        yield parse_date(item["lastPurchased"]) + timedelta(days=item["everyDays"]), end_of_day
    elif kind == "benefit" and "periodStart" in item:
        # Periods counted from periodStart both ways (clamped months); due the day before the next starts.
        months = PERIOD_MONTHS[item["period"]]
        start = parse_date(item["periodStart"])
        k = ((first.year - start.year) * 12 + first.month - start.month) // months - 2
        while True:
            day = add_months(start, (k + 1) * months, start.day) - timedelta(days=1)
            if day > last:
                return
            if day >= first:
                yield day, end_of_day
            k += 1
    elif kind == "benefit":
        months = PERIOD_MONTHS[item["period"]]
        year, month = first.year, first.month
        while True:
            if month % months == 0:
                day = date(year, month, calendar.monthrange(year, month)[1])
                if day > last:
                    return
                if day >= first:
                    yield day, end_of_day
            month += 1
            if month == 13:
                year, month = year + 1, 1
    elif kind == "subscription":
        count, unit = duration(item["every"])
        start = parse_date(item["next"])
        k = 0
        while True:
            if unit in ("mo", "y"):
                day = add_months(start, k * count * (12 if unit == "y" else 1), start.day)
            else:
                day = start + timedelta(days=k * count * (7 if unit == "w" else 1))
            if day > last:
                return
            if day >= first:
                yield day, end_of_day
            k += 1
    elif kind == "fee":
        due = parse_date(item["due"])
        year = due.year
        while True:
            day = add_months(due, (year - due.year) * 12, due.day)
            if day > last:
                return
            if day >= first:
                yield day, end_of_day
            year += 1


def quiet_move(zone, fire, due, quiet):
    """Rule 3, or None when `fire` is outside every quiet window."""
    if not quiet or quiet["start"] == quiet["end"]:
        return None
    start, end = clock(quiet["start"]), clock(quiet["end"])
    wraps = start > end
    local_day = datetime.fromtimestamp(fire, zone).date()
    for base in (local_day - timedelta(days=1), local_day):
        window_start, _ = wall_to_instant(zone, base, start)
        window_end, _ = wall_to_instant(zone, base + timedelta(days=1) if wraps else base, end)
        if window_start <= fire < window_end:
            if window_end < due:
                return window_end, "quiet-hours-end"
            return window_start - 60, "quiet-hours-start"
    return None


DAY_NAMES = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]  # date.weekday()'s order


def working_days(workdays):
    """The set of date.weekday() numbers `workdays.days` names (ranges wrap past Sunday), or None."""
    if not workdays:
        return None
    days = set()
    for part in workdays.get("days", "mon-fri").split(","):
        ends = [DAY_NAMES.index(name.strip()) for name in part.split("-")]
        day = ends[0]
        days.add(day)
        while day != ends[-1]:
            day = (day + 1) % 7
            days.add(day)
    return days


def workday_move(zone, fire, day_lead, reminder, days):
    """Rule 2a: the same wall time (the reminder time for a day lead) on the working day before a
    day off, or None on a working day."""
    local = datetime.fromtimestamp(fire, zone)
    if local.weekday() in days:
        return None
    seconds = reminder if day_lead else local.hour * 3600 + local.minute * 60 + local.second
    day = local.date() - timedelta(days=1)
    while day.weekday() not in days:
        day -= timedelta(days=1)
    return wall_to_instant(zone, day, seconds)[0]


def lead_seconds(lead):
    count, unit = duration(lead)
    return count * UNIT_SECONDS[unit]


def plan(case):
    config = dict(DEFAULTS)
    config.update(case["config"])
    zone = ZoneInfo(config["timeZone"])
    quiet = config.get("quietHours")
    reminder = clock(config["reminderTime"])
    working = working_days(config.get("workdays"))
    window_from = int(datetime.fromisoformat(case["from"]).timestamp())
    window_to = int(datetime.fromisoformat(case["to"]).timestamp())
    rows = []
    for position, item in enumerate(case["items"]):
        item_id = item.get("id", str(position + 1))
        leads = item.get("lead", config["leadTimes"])
        created = int(datetime.fromisoformat(item["createdAt"]).timestamp()) if "createdAt" in item else window_from
        longest = max([lead_seconds(lead) for lead in leads] + [0])
        first = datetime.fromtimestamp(window_from, zone).date() - timedelta(days=2)
        last = datetime.fromtimestamp(window_to + longest, zone).date() + timedelta(days=3 if working is None else 24)
        for due_day, due_seconds in due_dates(item, first, last):
            due, _ = wall_to_instant(zone, due_day, due_seconds)
            kept = {}
            unmoved = {}  # lead: its fire time before rule 2a, for the leads rule 2a moved
            planned = {}  # lead: its fire time before rule 2a
            for lead in leads:
                count, unit = duration(lead)
                adjusted = None
                if unit in ("m", "h"):
                    fire = due - count * UNIT_SECONDS[unit]
                else:
                    days = count * (7 if unit == "w" else 1)
                    fire, gap = wall_to_instant(zone, due_day - timedelta(days=days), reminder)
                    adjusted = "dst-gap" if gap else None
                planned[lead] = fire
                if working is not None:
                    moved_back = workday_move(zone, fire, unit not in ("m", "h"), reminder, working)
                    if moved_back is not None:
                        unmoved[lead], fire, adjusted = fire, moved_back, "workday"
                moved = quiet_move(zone, fire, due, quiet)
                if moved:
                    fire, adjusted = moved
                if fire >= due or fire < created:
                    continue
                if fire in kept and lead_seconds(kept[fire][0]) >= lead_seconds(lead):
                    continue
                kept[fire] = (lead, adjusted)
            # Rule 2a's merge: a moved reminder at or before one planned before it is dropped.
            kept = {fire: entry for fire, entry in kept.items()
                    if entry[0] not in unmoved or not any(
                        other >= fire and planned[other_lead] < unmoved[entry[0]]
                        for other, (other_lead, _) in kept.items())}
            for fire, (lead, adjusted) in kept.items():
                if window_from <= fire < window_to:
                    rows.append((fire, item_id, due, -lead_seconds(lead), lead, adjusted))
    rows.sort(key=lambda row: row[:4])

    def stamp(instant):
        return datetime.fromtimestamp(instant, zone).isoformat()

    return [
        {"item": item_id, "occurrenceDue": stamp(due), "lead": lead, "fireAt": stamp(fire), "adjusted": adjusted}
        for fire, item_id, due, _, lead, adjusted in rows
    ]


def main():
    with open(sys.argv[1], encoding="utf-8") as handle:
        cases = json.load(handle)
    json.dump([plan(case) for case in cases], sys.stdout)


if __name__ == "__main__":
    main()

"""The holiday table shipped with the program (Sources/ReminderCore/HolidayTable.swift, written by
scripts/generate-holidays.py) against its source, python-holidays at the version scripts/test.sh
pins: every region and year the table covers has the same days under the same names."""
import datetime
import re

import holidays

from conftest import ROOT

TABLE = (ROOT / "Sources/ReminderCore/HolidayTable.swift").read_text()
EPOCH = datetime.date(1970, 1, 1)


def table():
    """(source version, years, {region: {date: name}}) read back from the generated Swift."""
    version = re.search(r'static let source = "python-holidays ([^"]+)"', TABLE).group(1)
    first, last = map(int, re.search(r"static let years = (\d+)\.\.\.(\d+)", TABLE).groups())
    names_block = re.search(r"static let names: \[String\] = \[(.*?)\n    \]", TABLE, re.S).group(1)
    names = [re.sub(r"\\(.)", r"\1", name) for name in re.findall(r'"((?:[^"\\]|\\.)*)"', names_block)]
    regions = {}
    for code, body in re.findall(r'"([A-Z]{2})": \[(.*?)\]', TABLE, re.S):
        packed = [int(value) for value in re.findall(r"\d+", body)]
        regions[code] = {EPOCH + datetime.timedelta(days=value >> 8): names[value & 0xFF] for value in packed}
    return version, range(first, last + 1), regions


def test_the_table_is_the_source_for_every_region_and_year():
    version, years, regions = table()
    assert version == holidays.__version__, (
        f"HolidayTable.swift was made from python-holidays {version}, {holidays.__version__} is installed: "
        "run scripts/generate-holidays.py with the pinned version")
    assert years.start <= 2026 and years.stop - 1 >= 2036
    assert {"US", "KR", "DE", "GB", "FR", "JP"} <= set(regions)
    for code, days in regions.items():
        for year in years:
            source = dict(holidays.country_holidays(code, years=year, language="en_US"))
            shipped = {day: name for day, name in days.items() if day.year == year}
            assert shipped == source, f"{code} {year}"

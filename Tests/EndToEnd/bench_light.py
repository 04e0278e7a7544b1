"""How heavy reminderd is beside the C tools it is measured against (issue 21), in one run:
the package's size beside remind's and calcurse's, what `reminderctl` loads and costs at start,
and `plan`'s table beside its JSON. Instruction counts come from callgrind (stable on these
machines, unlike wall time). Run by scripts/bench-light.sh on the package's own stripped,
statically linked release binaries (REMINDERD_BIN, dist/ for the .deb)."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("REMINDERD_BIN", ROOT / ".build-deb" / "release"))


def run(*command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, check=True, **kwargs)


def instructions(*command, env=None):
    """Instructions the command runs (callgrind's total), its output thrown away."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env)
        totals = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
        return int(totals.group(1))


def apt_field(package, field):
    """A field of the candidate version of a Debian package (`Size`, `Installed-Size`)."""
    shown = run("apt-cache", "show", "--no-all-versions", package).stdout
    return int(re.search(rf"^{field}: (\d+)", shown, re.MULTILINE).group(1))


def package_figures():
    debs = sorted((ROOT / "dist").glob("reminderd_*.deb"))
    if not debs:
        return None
    deb = debs[-1]
    installed_kib = int(run("dpkg-deb", "--field", str(deb), "Installed-Size").stdout.strip())
    return deb.stat().st_size / 1024, installed_kib


def items_file(folder, count):
    """`count` items of every kind, as `plan` reads them."""
    items = []
    for n in range(count):
        kind = n % 4
        if kind == 0:
            items.append({"id": f"b{n}", "kind": "benefit", "title": f"Credit {n}", "card": "Card",
                          "amount": "10", "period": "monthly"})
        elif kind == 1:
            items.append({"id": f"s{n}", "kind": "subscription", "title": f"Service {n}", "amount": "9.99",
                          "every": "1mo", "next": "2027-01-05"})
        elif kind == 2:
            items.append({"id": f"c{n}", "kind": "coupon", "title": f"Deal {n}", "expires": "2027-03-01"})
        else:
            items.append({"id": f"f{n}", "kind": "fee", "title": f"Fee {n}", "amount": "95", "due": "2027-06-01"})
    path = Path(folder) / "items.json"
    path.write_text(json.dumps(items))
    return path


def main():
    quick = "--quick" in sys.argv
    ctl = str(BIN / "reminderctl")
    rows = []
    figures = package_figures()
    if figures:
        deb_kib, installed_kib = figures
        peers = {name: (apt_field(name, "Size") / 1024, apt_field(name, "Installed-Size")) for name in ("remind", "calcurse")}
        rows.append(("package .deb", f"{deb_kib / 1024:.1f} MiB",
                     ", ".join(f"{n} {s:.0f} KiB" for n, (s, _) in peers.items()), "≤ 8 MiB"))
        rows.append(("package installed", f"{installed_kib / 1024:.1f} MiB",
                     ", ".join(f"{n} {i} KiB" for n, (_, i) in peers.items()), "≤ 32 MiB"))
    libraries = [line for line in run("ldd", ctl).stdout.splitlines() if "=>" in line or "ld-linux" in line]
    rows.append(("reminderctl shared libraries", str(len(libraries)), "", "≤ 12"))
    help_instructions = instructions(ctl, "--help")
    remind = shutil.which("remind")
    peer = ""
    if remind:
        with tempfile.TemporaryDirectory() as folder:
            reminders = Path(folder) / "reminders"
            reminders.write_text("REM 1 Dec 2026 MSG Netflix\n")
            peer = f"remind -n {instructions(remind, '-n', str(reminders)) / 1e6:.1f} M"
    rows.append(("reminderctl --help instructions", f"{help_instructions / 1e6:.1f} M", peer, "status ≤ 12 M"))
    with tempfile.TemporaryDirectory() as folder:
        items = items_file(folder, 500 if quick else 5_000)
        plan = [ctl, "plan", "--items", str(items), "--from", "2027-01-01", "--to", "2028-01-01"]
        env = dict(os.environ, TZ="UTC", COLUMNS="120")
        table = instructions(*plan, env=env)
        as_json = instructions(*plan, "--json", env=env)
    rows.append((f"plan a year of {500 if quick else 5000} items, table", f"{table / 1e6:.0f} M",
                 f"--json {as_json / 1e6:.0f} M", f"{table / as_json:.2f}× (≤ 1.5×)"))
    width = max(len(r[0]) for r in rows)
    print(f"Binaries: {BIN}")
    for name, ours, peers, target in rows:
        print(f"  {name:<{width}}  {ours:>10}  {peers:<36}  {target}")


if __name__ == "__main__":
    main()

"""Issue 19, defects 4 and 5: text that did not come from reminderctl — a title typed with a
right-to-left override, a CalDAV server's bad value quoted in a history reason — never reaches
the terminal raw: controls are shown as `\\u{1B}`, no bidi override is left open at a line's
end, the columns stay in line, and `--json` keeps the exact text. Against the real daemon,
reminderd-sync and a CalDAV server."""
from conftest import Dav, vtodo_uid, wait_for


def unbalanced_direction(line):
    """Bidi embeddings, overrides and isolates `line` leaves open, plus closers of nothing (UAX #9)."""
    open_, stray = [], 0
    for ch in line:
        if ch in "\u202a\u202b\u202d\u202e":
            open_.append("\u202c")
        elif ch in "\u2066\u2067\u2068":
            open_.append("\u2069")
        elif ch == "\u202c":
            if open_ and open_[-1] == "\u202c":
                open_.pop()
            else:
                stray += 1
        elif ch == "\u2069":
            if "\u2069" in open_:
                del open_[len(open_) - 1 - open_[::-1].index("\u2069"):]
            else:
                stray += 1
    return len(open_) + stray


def raw_controls(text):
    return [c for c in text if c != "\n" and (ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F)]


def width(text):
    """Columns on a terminal: the bidi controls take none."""
    return sum(0 if "\u202a" <= c <= "\u202e" or "\u2066" <= c <= "\u2069" else 1 for c in text)


def test_a_servers_controls_and_a_titles_override_are_shown_harmlessly_and_kept_exact(devices, dav_server):
    (a,) = devices(1)
    title = "Pizza \u202eevil deal"
    a.ctl("add", "benefit", title, "--card", "Gold", "--amount", "15", "--period", "monthly")
    a.sync_now()
    dav = Dav(dav_server.url)
    ((href, (etag, body)),) = [(h, r) for h, r in dav.resources(dav_server.collection_url()).items()
                               if vtodo_uid(r[1]).endswith("@reminderd")]
    # Another client writes a bad amount holding OSC 0 (retitle), OSC 52 (clipboard), BEL and C1 CSI.
    bad = "\x1b]0;x\x07\x1b]52;c;ZXZpbA==\x07\u009b2J"
    assert "X-REMINDERD-AMOUNT:15" in body
    assert dav.put(href, body.replace("X-REMINDERD-AMOUNT:15", "X-REMINDERD-AMOUNT:" + bad), etag=etag) in (201, 204)
    # What the server keeps of it (Radicale drops the C0 controls, keeps the C1 one and escapes ';' as '\\;').
    stored = [line for line in dav.get(href)[1].replace("\r\n ", "").splitlines()
              if line.startswith("X-REMINDERD-AMOUNT:")][0][len("X-REMINDERD-AMOUNT:"):]
    assert "\u009b" in stored, repr(stored)
    # The pass reports the copy it replaced: the error quotes the server's value.
    failed = a.sync_now(check=False)
    assert failed.returncode == 1 and "\\u{9B}2J" in failed.stderr and not raw_controls(failed.stderr), failed.stderr
    item = a.ctl_json("list", "--all")["items"][0]
    assert item["title"] == title, "--json keeps the exact title"
    kept = wait_for(lambda: [e for e in a.ctl_json("history", "--item", item["id"])["entries"] if e["event"] == "kept"],
                    what="the unreadable copy's history line")
    assert len(kept) == 1 and stored.replace("\\;", ";") in kept[0]["reason"], f"the reason is stored exactly: {kept}"
    for args in (["list", "--all"], ["show", item["id"]], ["history"], ["wallet"], ["summary"],
                 ["sync", "status"], ["status"]):
        out = a.ctl(*args).stdout
        assert not raw_controls(out), f"reminderctl {' '.join(args)} printed raw controls: {out!r}"
        for line in out.splitlines():
            assert unbalanced_direction(line) == 0, f"reminderctl {' '.join(args)}: {line!r}"
    history = a.ctl("history").stdout
    assert "\\u{9B}2J" in history and "\\u{9B}2J" in a.ctl("sync", "status").stdout, history
    # The columns after the title stay where their header is.
    lines = a.ctl("list", "--all").stdout.splitlines()
    assert width(lines[1][:lines[1].index("$15")]) == width(lines[0][:lines[0].index("AMOUNT")]), lines

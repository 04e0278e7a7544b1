"""Ecosystem conventions: man pages, shell completions, --version, and the project's own documents."""
import os
import re
import subprocess
from pathlib import Path

from conftest import BIN

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ["add", "list", "show", "edit", "remove", "done", "undo", "snooze", "upcoming", "explain", "history",
            "summary", "status", "pause", "resume", "reload", "import", "export", "plan", "cards", "wallet", "report", "setup",
            "sync", "try"]


def test_the_man_pages_cover_every_command_and_setting():
    reminderctl = (ROOT / "man" / "reminderctl.1").read_text()
    for command in COMMANDS:
        assert f".It Em {command}" in reminderctl, command
    assert ".Dt REMINDERD 1" in (ROOT / "man" / "reminderd.1").read_text()
    assert ".It Fl -once" in (ROOT / "man" / "reminderd-sync.1").read_text()
    conf = (ROOT / "man" / "reminderd.conf.5").read_text()
    for key in ["timeZone", "reminderTime", "leadTimes", "quietHours", "snoozeOptions", "currency", "socketPath",
                "workdays"]:
        assert f".It Cm {key}" in conf, key


def test_each_program_page_gives_its_own_exit_statuses_files_and_see_also():
    """Not the generator's generic ".Ex -std": the statuses each program really exits with."""
    statuses = {"reminderctl.1": ["0", "1", "2", "69", "76"], "reminderd.1": ["0", "1"],
                "reminderd-sync.1": ["0", "1", "2", "69", "75", "78"]}
    for page, codes in statuses.items():
        text = (ROOT / "man" / page).read_text()
        assert ".Ex -std" not in text, page
        exit_status = text.split('.Sh "EXIT STATUS"')[1].split(".Sh ")[0]
        assert [line[4:] for line in exit_status.splitlines() if line.startswith(".It ")] == codes, page
        assert ".Sh FILES" in text and ".Sh SEE ALSO" in text and ".Xr reminderd.conf 5" in text, page


def test_completions_are_generated_for_bash_zsh_and_fish(tmp_path):
    for shell in ("bash", "zsh", "fish"):
        script = subprocess.run([str(BIN / "reminderctl"), "--generate-completion-script", shell],
                                capture_output=True, text=True, check=True).stdout
        for command in ("add", "snooze", "cards", "setup"):
            assert command in script, (shell, command)
    bash = tmp_path / "reminderctl.bash"
    bash.write_text(subprocess.run([str(BIN / "reminderctl"), "--generate-completion-script", "bash"],
                                   capture_output=True, text=True, check=True).stdout)
    subprocess.run(["bash", "-n", str(bash)], check=True)


def test_version():
    result = subprocess.run([str(BIN / "reminderctl"), "--version"], capture_output=True, text=True, check=True)
    assert result.stdout.strip()
    sync = subprocess.run([str(BIN / "reminderd-sync"), "--version"], capture_output=True, text=True, check=True)
    assert sync.stdout == result.stdout


# The project's own documents, kept true where a machine can check them cheaply.
CONTRACT = ROOT / "docs" / "CONTRACT.md"
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"


def swift_string_literal(path, declaration):
    """The text of the first multi-line string literal after `declaration` in a Swift file."""
    source = path.read_text()
    start = source.index('"""', source.index(declaration)) + 3
    return source[start:source.index('"""', start)]


def test_the_contract_names_every_varlink_method_and_error():
    description = swift_string_literal(ROOT / "Sources" / "ReminderProtocol" / "ReminderInterface.swift",
                                       "public static let description")
    methods = re.findall(r"^\s*method (\w+)\(", description, re.MULTILINE)
    errors = re.findall(r"^\s*error (\w+) ", description, re.MULTILINE)
    assert len(methods) >= 18 and len(errors) >= 10, (methods, errors)
    contract = CONTRACT.read_text()
    missing = [name for name in methods + errors if f"`{name}`" not in contract]
    assert not missing, f"docs/CONTRACT.md does not describe {missing}"


def test_the_contract_names_every_reminderctl_command():
    help_text = subprocess.run([str(BIN / "reminderctl"), "--help"], capture_output=True, text=True,
                               check=True).stdout
    subcommands = re.findall(r"^  ([a-z][a-z-]*) ", help_text.split("SUBCOMMANDS:")[1], re.MULTILINE)
    assert set(COMMANDS) <= set(subcommands), subcommands
    contract = CONTRACT.read_text()
    missing = [name for name in subcommands if not re.search(rf"`{name}[ `]", contract)]
    assert not missing, f"docs/CONTRACT.md does not describe reminderctl {missing}"


def test_the_contract_names_every_setting():
    source = (ROOT / "Sources" / "ReminderCore" / "Configuration.swift").read_text()
    body = source[source.index("public struct Configuration"):]
    body = body[:body.index("\n}\n")]
    keys = re.findall(r"^    public var (\w+):", body, re.MULTILINE)
    assert "historyDays" in keys and "quietHours" in keys, keys
    contract = CONTRACT.read_text()
    missing = [key for key in keys if f"`{key}`" not in contract]
    assert not missing, f"docs/CONTRACT.md does not describe the setting {missing}"


def test_the_docs_name_only_paths_and_readme_sections_that_exist():
    readme_headings = {line.lstrip("#").strip() for line in (ROOT / "README.md").read_text().splitlines()
                       if line.startswith("#")}
    for document in (CONTRACT, ARCHITECTURE):
        text = document.read_text()
        paths = re.findall(r"`((?:Sources|Tests|scripts|systemd|man|docs)/[^`<>*\s]+)`", text)
        assert paths, document
        missing = [path for path in paths if not (ROOT / path).exists()]
        assert not missing, f"{document.name} names paths that do not exist: {missing}"
        sections = re.findall(r'README(?:,| under)(?: section)? "([^"]+)"', text)
        unknown = [section for section in sections if " ".join(section.split()) not in readme_headings]
        assert not unknown, f"{document.name} points at README sections that do not exist: {unknown}"


def test_no_file_points_outside_the_repository_for_its_documents():
    """The starting specification lived beside the repository; a clone has only docs/."""
    outside = "../" + "shared/"
    offenders = []
    for directory, subdirectories, files in os.walk(ROOT):
        subdirectories[:] = [d for d in subdirectories if not d.startswith((".git", ".build", "__pycache__"))]
        for name in files:
            path = Path(directory) / name
            if outside.encode() in path.read_bytes():
                offenders.append(str(path.relative_to(ROOT)))
    assert not offenders, f"these files refer to {outside}: {offenders}"


def test_the_daemon_links_no_full_foundation_or_icu():
    """reminderd loads neither full Foundation nor ICU (issue 21: ~30 MB of ICU's data and ~8 MiB
    of its RSS came in through GRDB and one `import Foundation`); FoundationEssentials at most.
    The dynamically linked build shows it in its libraries."""
    libraries = subprocess.run(["ldd", str(BIN / "reminderd")], capture_output=True, text=True, check=True).stdout
    for library in ("libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"):
        assert library not in libraries, libraries


def test_the_daemon_uses_no_swift_concurrency():
    """docs/ARCHITECTURE.md's rule: after a Task (or concurrentPerform) libdispatch's pool monitor
    wakes the process every second for good, which breaks the zero-idle-wake-up promise."""
    forbidden = re.compile(r"(?<!\.)\basync\b|\bawait\b|\bTask\s*[{(.<]|\bactor\b|\bconcurrentPerform\b|"
                           r"@MainActor|\bAsyncStream\b")
    offenders = []
    for target in ("ReminderJSON", "CivilTime", "ICalendar", "ReminderCore", "ReminderSyncModel", "ReminderPlatform",
                   "ReminderStore", "ReminderProtocol", "ReminderDaemon", "reminderd", "CalDAV", "ReminderSyncService",
                   "ReminderdSyncCommand", "reminderd-sync"):
        for path in sorted((ROOT / "Sources" / target).rglob("*.swift")):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if forbidden.search(line.split("//")[0]):
                    offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not offenders, "Swift Concurrency in the daemon:\n" + "\n".join(offenders)


def test_reminderd_loads_no_network_library_though_it_runs_reminderd_sync_too():
    """reminderd carries reminderd-sync's CalDAV client (one executable in the package, issue 21), but
    libcurl and what it pulls in (TLS, Kerberos, LDAP, SSH) are loaded only when it runs as
    reminderd-sync (Sources/CCurl/CurlLoader.c): the daemon does not pay for them."""
    libraries = subprocess.run(["ldd", str(BIN / "reminderd")], capture_output=True, text=True, check=True).stdout
    for library in ("libcurl", "libssl", "libcrypto", "libgnutls", "libgssapi_krb5", "libldap", "libssh2"):
        assert library not in libraries, libraries


def test_reminderd_sync_links_no_full_foundation_icu_or_libxml2():
    """reminderd-sync reads WebDAV answers with its own XML reader and needs FoundationEssentials at
    most: no full Foundation, no ICU (Swift's or Debian's), no FoundationXML or libxml2 (issue 21)."""
    libraries = subprocess.run(["ldd", str(BIN / "reminderd-sync")], capture_output=True, text=True, check=True).stdout
    linked = [line.split()[0] for line in libraries.splitlines() if line.strip()]
    for library in ("libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so",
                    "libFoundationXML.so", "libxml2.so", "libicuuc.so", "libicudata.so"):
        assert not any(name.startswith(library) for name in linked), libraries


def test_the_readme_reads_in_ten_minutes_and_links_only_documents_that_exist():
    """Issue 28: at most 350 lines (`wc -l`); the rest moved to docs/, each linked from it."""
    text = (ROOT / "README.md").read_text()
    assert text.count("\n") <= 350, f"README.md has {text.count(chr(10))} lines; move detail to docs/"
    links = re.findall(r"\]\(((?:docs/)[^)#]+)", text)
    assert {"docs/USAGE.md", "docs/DURABILITY.md", "docs/BENCHMARKS.md", "docs/TESTING.md"} <= set(links), links
    missing = [link for link in links if not (ROOT / link).exists()]
    assert not missing, f"README.md links to documents that do not exist: {missing}"
    for document in (ROOT / "docs").glob("*.md"):
        for link in re.findall(r"\]\(([^)#:]+\.md)", document.read_text()):
            assert (document.parent / link).exists(), f"{document.name} links to {link}, which does not exist"


def test_run_sh_makes_what_the_readme_says_it_does():
    """After scripts/run.sh the pop-ups and the tray find the icon they name, and `reminderctl
    sync setup` finds reminderd-sync beside reminderctl, as after scripts/install.sh."""
    run = (ROOT / "scripts" / "run.sh").read_text()
    install = (ROOT / "scripts" / "install.sh").read_text()
    icons = sorted(set(re.findall(r"systemd/reminderd[-$\w]*\.(?:svg|png)", install)))
    assert icons == ["systemd/reminderd-$size.png", "systemd/reminderd.svg"], icons
    for icon in icons:
        assert icon in run, f"scripts/run.sh does not install {icon}"
    assert "icons/hicolor" in run
    assert "ln -sfn reminderd .build/release/reminderd-sync" in run


DECLARATION = re.compile(r"\b(?:func|var|let|case|struct|class|enum|protocol|typealias)\s+`?(\w+)")


def test_the_walk_throughs_name_functions_where_they_are():
    """docs/ARCHITECTURE.md's two walk-throughs ("where does a Done go?") name a file and the
    functions of that hop. A rename or a move that leaves them behind fails here: a function
    (lower-case, as `markDone`) must be declared in a file its step names, or in a file another
    step names; a type or a `Type.member` must be declared in Sources; a D-Bus member (as
    `ActionInvoked`) must be spelt in its step's files; a bus or interface name is not checked."""
    text = ARCHITECTURE.read_text()
    section = text.split("## Where a request and a button press go")[1].split("\n## ")[0]
    sources = sorted((ROOT / "Sources").rglob("*.swift"))
    declared_anywhere = set(DECLARATION.findall("\n".join(path.read_text() for path in sources)))

    def files_named(tokens):
        return [path for path in sources for token in tokens
                if token.endswith(".swift") and (str(path).endswith("/" + token) or path.name == token.split("/")[-1])]

    steps = [step for step in re.split(r"\n(?=\d+\. )", section) if re.match(r"\d+\. ", step)]
    assert len(steps) >= 10, "the walk-throughs lost their numbered steps"
    walk_files = files_named(re.findall(r"`([^`]+)`", section))
    declared_in_walk = set(DECLARATION.findall("\n".join(path.read_text() for path in walk_files)))
    stale = []
    for step in steps:
        tokens = re.findall(r"`([^`]+)`", step)
        step_text = "\n".join(path.read_text() for path in files_named(tokens))
        declared_here = set(DECLARATION.findall(step_text))
        for token in tokens:
            if token.endswith(".swift") or not re.fullmatch(r"[A-Za-z_][\w.]*", token) or re.match(r"(org|io|com)\.", token):
                continue
            parts = token.split(".")
            if len(parts) == 1 and token[0].islower():
                found = token in declared_here or token in declared_in_walk
            elif len(parts) == 1 and token not in declared_anywhere:
                found = f'"{token}"' in step_text
            else:
                found = all(part in declared_anywhere for part in parts)
            if not found:
                stale.append(f"step {step.split('.')[0]}: `{token}`")
    assert not stale, f"docs/ARCHITECTURE.md's walk-throughs name what the code no longer has: {stale}"

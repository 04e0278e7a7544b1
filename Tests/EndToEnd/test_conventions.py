"""Ecosystem conventions: man pages, shell completions, --version."""
import subprocess
from pathlib import Path

from conftest import BIN

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ["add", "list", "show", "edit", "remove", "done", "undo", "snooze", "upcoming", "explain", "history",
            "summary", "status", "pause", "resume", "reload", "import", "export", "plan", "cards", "wallet", "setup"]


def test_the_man_pages_cover_every_command_and_setting():
    reminderctl = (ROOT / "man" / "reminderctl.1").read_text()
    for command in COMMANDS:
        assert f".It Em {command}" in reminderctl, command
    assert ".Dt REMINDERD 1" in (ROOT / "man" / "reminderd.1").read_text()
    conf = (ROOT / "man" / "reminderd.conf.5").read_text()
    for key in ["timeZone", "reminderTime", "leadTimes", "quietHours", "snoozeOptions", "currency", "socketPath"]:
        assert f".It Cm {key}" in conf, key


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

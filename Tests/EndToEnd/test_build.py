"""The build as the Swift ecosystem's first command runs it, `swift build -c release` on a fresh clone
(issue 27): no setting in Package.swift may need a flag only the project's scripts pass."""
import json
import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Linked only beside --static-swift-stdlib: alone, -static-executable left FoundationEssentials'
# C shims out (`undefined reference to '_stringshims_strtod_clocale'`).
NEEDS_STATIC_RUNTIME = {"-static-executable", "-static-stdlib"}


def test_no_target_links_in_a_way_only_the_scripts_make_work(tmp_path):
    """What a plain release build of every product would link with, read from the manifest (the
    build itself takes minutes; it was measured by hand, and scripts/package-deb.sh, which does pass
    the flags, runs in the test command)."""
    swift = shutil.which("swift") or "/opt/swift/usr/bin/swift"
    # A scratch path of its own: .build's lock may be held by a build.
    dumped = subprocess.run([swift, "package", "--scratch-path", str(tmp_path / "scratch"), "dump-package"],
                            cwd=ROOT, capture_output=True, text=True, timeout=300, check=True,
                            env=dict(os.environ, PATH=f"{Path(swift).parent}:{os.environ['PATH']}"))
    offending = []
    for target in json.loads(dumped.stdout)["targets"]:
        for setting in target.get("settings", []):
            flags = setting["kind"].get("unsafeFlags", {}).get("_0", [])
            if NEEDS_STATIC_RUNTIME & set(flags):
                offending.append(f"{target['name']}: {flags} ({setting.get('condition')})")
    assert offending == [], "these need --static-swift-stdlib, which `swift build -c release` does not pass: " \
        + "; ".join(offending)

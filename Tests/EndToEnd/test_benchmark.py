"""The daemon benchmark's short run (`bench_daemon.py --quick`): its figures are printed with
the test output; what must hold on any machine is checked — no request fails under 64 clients,
a daemon with 10k items scheduled does not wake up while idle, and 10 rounds of list, summary
and export over 2k items leave its anonymous memory within 15% of its idle figure (memory, unlike
time, is steady on a shared machine: 1.01–1.02× measured, 1.8–2.2× before malloc was tuned), and
a snooze with 10k items costs about as much with a panel present as without (issue 27 case 7:
the indicator walked every item on every change, ~100 ms a snooze at 10k; the bound is loose,
for a shared machine)."""
import bench_daemon


def test_the_quick_benchmark_has_no_errors_no_idle_wakeups_and_no_memory_creep(capsys):
    figures = bench_daemon.run(quick=True)
    with capsys.disabled():
        bench_daemon.print_table(figures, 200, 10, quick=True)
    assert figures["reminderd"]["requests"] == 64 * 200 and figures["reminderd"]["errors"] == 0
    assert figures["echo"]["errors"] == 0
    assert figures["idle"] == 0
    assert set(figures["ready"]) == {0, 10_000}
    snooze = figures["panel"]
    assert snooze["panel"]["medianMs"] <= 4 * snooze["none"]["medianMs"] + 25, snooze
    memory = figures["memory"]["reminderd"]
    assert memory["ratio"] <= bench_daemon.TARGET_MEMORY_RATIO, \
        f"RssAnon after the reads {memory['after']} KiB, idle {memory['idle']} KiB: {memory['ratio']:.2f}× idle"

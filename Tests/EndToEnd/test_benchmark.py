"""The daemon benchmark's short run (`bench_daemon.py --quick`): its figures are printed with
the test output; what must hold on any machine is checked — no request fails under 64 clients,
and a daemon with 10k items scheduled does not wake up while idle."""
import bench_daemon


def test_the_quick_benchmark_has_no_errors_and_no_idle_wakeups(capsys):
    figures = bench_daemon.run(quick=True)
    with capsys.disabled():
        bench_daemon.print_table(figures, 200, 10, quick=True)
    assert figures["reminderd"]["requests"] == 64 * 200 and figures["reminderd"]["errors"] == 0
    assert figures["echo"]["errors"] == 0
    assert figures["idle"] == 0
    assert set(figures["ready"]) == {0, 10_000}

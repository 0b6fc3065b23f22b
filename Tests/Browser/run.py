"""Runs the browser tests: one line per test, the figures measured, and a summary line.
Usage: run.py (NOISECLOCK_BIN names the node binary). Exit status 1 when any test failed.
BROWSER_SHARD=1/2 or 2/2 runs one half of the test classes, in name order (each half its own node,
broker and Chromium: scripts/browser-tests.sh runs the two side by side)."""
import os
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
try:
    import test_web  # noqa: E402
except Exception as error:  # a broken test file or no selenium: counted, not silent
    import traceback
    traceback.print_exc()
    print(f"✘ browser tests could not start: {error}")
    print("browser tests: 0 passed, 1 failed")
    sys.exit(1)


class LineResult(unittest.TextTestResult):
    def startTest(self, test):
        self._started = time.monotonic()
        super().startTest(test)

    def _line(self, mark, test, note=""):
        took = time.monotonic() - self._started
        self.stream.write(f"{mark} browser {test.id().split('.', 1)[1]} ({took:.1f} s){note}\n")
        self.stream.flush()

    def addSuccess(self, test):
        unittest.TestResult.addSuccess(self, test)
        self._line("✔", test)

    def addFailure(self, test, err):
        unittest.TestResult.addFailure(self, test, err)
        self._line("✘", test, " failed")

    def addError(self, test, err):
        unittest.TestResult.addError(self, test, err)
        self._line("✘", test, " failed (error)")

    def addSkip(self, test, reason):
        unittest.TestResult.addSkip(self, test, reason)
        self._line("-", test, f" skipped: {reason}")


# The first half's classes (by name prefix); the second half is the rest. Both run in name order.
# The wizard (Q_) and the settings page (L_) moved to the first half when the second grew to twice
# its time (106 s and 215 s at load 8-15, the second the whole parallel run's longest part); now
# about 168 and 150 s of tests there.
FIRST_HALF = ("A_", "B_", "C_", "D_", "E_", "F_", "G_", "K_", "L_", "Q_")


def shard(suite):
    """The classes of BROWSER_SHARD's half; all of them without it."""
    wanted = os.environ.get("BROWSER_SHARD")
    if not wanted:
        return suite
    if wanted not in ("1/2", "2/2"):
        raise SystemExit(f"BROWSER_SHARD must be 1/2 or 2/2, not {wanted!r}")
    first = wanted == "1/2"
    kept = [group for group in suite
            if any(test.__class__.__name__.startswith(FIRST_HALF) == first for test in group)]
    return unittest.TestSuite(kept)


def main():
    started = time.monotonic()
    suite = shard(unittest.defaultTestLoader.loadTestsFromModule(test_web))
    runner = unittest.TextTestRunner(stream=sys.stdout, resultclass=LineResult, verbosity=0)
    result = runner.run(suite)
    for name, value in test_web.MEASURED.items():
        print(f"  measured: {name}: {value}")
    failed = len(result.failures) + len(result.errors)
    passed = result.testsRun - failed - len(result.skipped)
    print(f"browser tests: {passed} passed, {failed} failed ({time.monotonic() - started:.0f} s)")
    return 1 if failed or not result.testsRun else 0


if __name__ == "__main__":
    sys.exit(main())

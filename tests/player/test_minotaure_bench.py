"""`make bench`'s Minotaure script runs and reports what issue 18 asks (its figures are
read by people, not checked here: speed is never a test)."""

import subprocess
import sys
from pathlib import Path

from django.conf import settings


def test_the_flick_bench_runs_and_reports_its_figures():
    script = Path(settings.BASE_DIR) / "bench" / "minotaure.py"
    done = subprocess.run([sys.executable, str(script), "6"], capture_output=True, text=True,
                          timeout=120, cwd=settings.BASE_DIR, check=False)
    assert done.returncode == 0, done.stderr
    for figure in ("simulation", "bare pymunk", "trajectory JSON", "whole action (apply)",
                   "view JSON"):
        line = next(line for line in done.stdout.splitlines() if line.startswith(figure))
        p50, p95, top = (float(w) for w in line.split() if w.replace(".", "").isdigit())
        assert 0 < p50 <= p95 <= top

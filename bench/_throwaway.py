"""What every benchmark starts with: Django set up on a throwaway SQLite database.

Not itself a benchmark (`make bench` skips it). Each script calls `setup()` before it
imports anything that reads the settings or the models.
"""

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def setup(database_url: str = "") -> Path:
    """Point Django at a new temporary folder and database (a SQLite file there, or the
    throwaway database `database_url` names), set it up, return the folder."""
    sys.path.insert(0, str(ROOT))
    work = Path(tempfile.mkdtemp(prefix="plateau-bench-"))
    os.environ["PLATEAU_VAR_DIR"] = str(work)
    os.environ["DATABASE_URL"] = database_url or f"sqlite:///{work}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cms.settings")

    import django

    django.setup()
    return work

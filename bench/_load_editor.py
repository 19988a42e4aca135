"""bench/load.py's editor: logs into the admin, queues a big import and a print job through
their forms, follows both on their job pages (etat.json) and downloads the PDF."""

from __future__ import annotations

import asyncio
import csv
import io
import re
import time
from dataclasses import dataclass, field

import httpx
from _load_players import CSRF, TIMEOUT, TLS, request
from _load_stats import Recorder

HEADERS = ["ref", "genre", "texte", "difficulte", "theme", "palier", "proposition_1",
           "proposition_2", "proposition_3", "proposition_4", "bonnes", "anecdote", "statut"]
THEMES = ["Histoire", "Géographie", "Sciences", "Arts", "Sport", "Cuisine"]
# The lowest difficulty of each of the ladder's 15 steps (cms.games.millionnaire.LADDER),
# checked against the game at run time by the import itself: a wrong band fails the job.
STEP_DIFFICULTY = [1] * 5 + [2] * 5 + [4] * 5
REF_PREFIX = "charge-"
POLL_EVERY = 1.0  # seconds between two looks at a job's state, as its page does


def question_rows(prefix: str, count: int, status: str) -> bytes:
    """A CSV file of `count` valid millionnaire ladder questions, spread over the 15 steps."""
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(HEADERS)
    for i in range(count):
        step = i % 15 + 1
        right = i % 4 + 1
        propositions = [str(i * 7 + 4), str(i * 7 + 5), str(i * 7 + 6), str(i * 7 + 2)]
        propositions[0], propositions[right - 1] = propositions[right - 1], propositions[0]
        writer.writerow([
            f"{prefix}-{i:06d}", "echelle",
            f"Question {prefix} n°{i} : quel nombre suit {i * 7 + 3} ?",
            STEP_DIFFICULTY[step - 1], THEMES[i % len(THEMES)], step, *propositions,
            str(right), f"Anecdote {i}.", status])
    return text.getvalue().encode()


# The print form's choices (printing.forms.PrintForm): the question cards alone, its
# defaults otherwise (A4, poker cards, duplex flipped on the long edge, crop marks).
PRINT_FIELDS = {"products": "questions", "paper": "a4", "card": "poker", "backs": "long",
                "bleed": "0", "gutter": "2", "offset_x": "0", "offset_y": "0",
                "crop_marks": "on"}


@dataclass
class JobSeen:
    """A job as the editor followed it."""

    kind: str
    url: str
    queued_at: float
    states: list[str] = field(default_factory=list)
    ended_at: float | None = None
    rows_done_at: float | None = None  # when its page first showed every row read
    state: str = ""
    message: str = ""
    file_url: str | None = None
    pages: int | None = None
    file_bytes: int | None = None

    @property
    def pk(self) -> str:
        return self.url.rstrip("/").rsplit("/", 1)[-1]


class Editor:
    def __init__(self, base: str, username: str, password: str):
        self.base = base
        self.username = username
        self.password = password
        self.http = httpx.AsyncClient(base_url=base, timeout=TIMEOUT * 3, verify=TLS)

    async def close(self) -> None:
        await self.http.aclose()

    async def login(self, rec: Recorder) -> None:
        page = await request(self.http, rec, "editor_login", "GET", "/admin/login/")
        token = CSRF.search(page.text) if page is not None else None
        answer = await request(self.http, rec, "editor_login", "POST", "/admin/login/",
                               expect=(302,), data={
                                   "csrfmiddlewaretoken": token.group(1) if token else "",
                                   "username": self.username, "password": self.password,
                                   "next": "/admin/"})
        if answer is None:
            raise RuntimeError(f"the editor {self.username} could not log in")

    async def token(self, rec: Recorder, url: str) -> str:
        page = await request(self.http, rec, "editor_queue", "GET", url)
        token = CSRF.search(page.text) if page is not None else None
        return token.group(1) if token else ""

    async def queue_import(self, rec: Recorder, payload: bytes, name: str) -> JobSeen | None:
        token = await self.token(rec, "/admin/travaux/importer/")
        queued = time.monotonic()
        answer = await request(
            self.http, rec, "editor_queue", "POST", "/admin/travaux/importer/", expect=(302,),
            data={"csrfmiddlewaretoken": token, "resource": "questions", "format": "",
                  "kind": ""},
            files={"import_file": (name, payload, "text/csv")})
        if answer is None:
            return None
        return JobSeen("import", answer.headers["location"], queued)

    async def queue_print(self, rec: Recorder, game: str) -> JobSeen | None:
        token = await self.token(rec, f"/admin/jeux/{game}/imprimer/")
        queued = time.monotonic()
        answer = await request(self.http, rec, "editor_queue", "POST",
                               f"/admin/jeux/{game}/imprimer/preparer/", expect=(302,),
                               data={"csrfmiddlewaretoken": token, **PRINT_FIELDS})
        if answer is None:
            return None
        return JobSeen("print", answer.headers["location"], queued)

    async def follow(self, rec: Recorder, job: JobSeen, deadline: float) -> None:
        """Poll the job's state as its page does until it ends (or `deadline`); download
        its file, if it made one."""
        while time.monotonic() < deadline:
            answer = await request(self.http, rec, "editor_poll", "GET", f"{job.url}etat.json")
            if answer is not None:
                state = answer.json()
                job.state = state["state"]
                if not job.states or job.states[-1] != job.state:
                    job.states.append(job.state)
                if (state["total"] and state["done"] >= state["total"] and not state["ended"]
                        and job.rows_done_at is None):
                    job.rows_done_at = time.monotonic()
                if state["ended"]:
                    job.ended_at = time.monotonic()
                    job.message = state.get("message", "")
                    job.file_url = state.get("file_url")
                    break
            await asyncio.sleep(POLL_EVERY)
        if job.file_url:
            answer = await request(self.http, rec, "editor_file", "GET", job.file_url)
            if answer is not None:
                job.file_bytes = len(answer.content)
                job.pages = await asyncio.to_thread(pdf_pages, answer.content)

    async def report_text(self, job: JobSeen) -> str:
        """The job page's words (its report: « 10 000 ajouté(s) »…), for the summary."""
        answer = await self.http.get(job.url)
        text = re.sub(r"<[^>]+>", " ", answer.text)
        return re.sub(r"\s+", " ", text)


def pdf_pages(data: bytes) -> int | None:
    try:
        from pypdf import PdfReader
    except ImportError:  # a dev dependency: without it, the pages are not counted
        return None
    return len(PdfReader(io.BytesIO(data)).pages)

"""`manage.py worker`: production's task worker, for the background jobs (cms.jobs).

django-tasks-db's `db_worker`, plus a thread that sweeps the jobs every few seconds: it
queues again the jobs of a worker that was killed, deletes expired files, prunes the queue.
A first SIGTERM (or Ctrl-C) lets the running job finish, then stops; a second stops at once
and gives the job back to the queue.
"""

import logging
import threading
import time

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import InterfaceError, OperationalError, connections
from django.utils.translation import gettext as _

from cms import jobs

logger = logging.getLogger(__name__)
RETRY_SECONDS = 5


class Command(BaseCommand):
    @property
    def help(self):
        return _("Exécute les travaux en arrière-plan (impressions, imports) ; "
                 "demande TASKS_BACKEND=database.")

    def add_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=1.0, help=_(
            "Secondes d’attente entre deux regards sur la file quand elle est vide."))
        parser.add_argument("--sweep-every", type=float, default=5.0, help=_(
            "Secondes entre deux rondes sur les travaux (repris, fichiers expirés)."))

    def handle(self, *args, interval, sweep_every, **options):
        if settings.TASKS_BACKEND != "database":
            raise CommandError(_(
                "TASKS_BACKEND=database est nécessaire : sans lui, les travaux s’exécutent "
                "dans la requête qui les demande et aucun worker n’a rien à faire."))
        if interval <= 0 or sweep_every <= 0:
            raise CommandError(_("--interval et --sweep-every doivent être positifs."))
        stop = threading.Event()
        sweeper = threading.Thread(target=jobs.sweep_forever, args=(stop, sweep_every),
                                   name="jobs-sweep", daemon=True)
        sweeper.start()
        try:
            while True:
                try:
                    call_command("db_worker", interval=interval, startup_delay=False,
                                 reload=False, verbosity=options["verbosity"])
                    return
                except (InterfaceError, OperationalError):
                    # The database went away (restarted, failed over): wait, then go on.
                    # A job it was running is taken back by the sweep.
                    logger.exception("The worker lost its database; it tries again in %s s.",
                                     RETRY_SECONDS)
                    connections.close_all()
                    time.sleep(RETRY_SECONDS)
        finally:
            stop.set()

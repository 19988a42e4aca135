"""`manage.py serve`: production's web process, the pages and the rooms' WebSockets.

uvicorn serves `cms.asgi` with WEB_CONCURRENCY worker processes on HOST:PORT; it believes
X-Forwarded-For and X-Forwarded-Proto only from the proxies FORWARDED_ALLOW_IPS names. With
DEBUG off, WhiteNoise serves the static files `collectstatic` gathered.
"""

import uvicorn
from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _


class Command(BaseCommand):
    @property
    def help(self):
        return _("Sert le site (pages et WebSockets) avec plusieurs processus, pour la "
                 "production : HOST, PORT et WEB_CONCURRENCY le règlent.")

    def add_arguments(self, parser):
        parser.add_argument("--host", default=settings.SERVE_HOST)
        parser.add_argument("--port", type=int, default=settings.SERVE_PORT)
        parser.add_argument("--workers", type=int, default=settings.WEB_CONCURRENCY)

    def handle(self, *args, host, port, workers, **options):
        if workers < 1:
            raise CommandError(_("--workers doit valoir au moins 1."))
        if not settings.DEBUG:
            self.check_static_files()
            if not settings.ALLOWED_HOSTS:
                raise CommandError(_(
                    "ALLOWED_HOSTS est vide : donnez les noms sous lesquels le site est "
                    "servi (par exemple ALLOWED_HOSTS=plateau.example.org)."))
        uvicorn.run(
            "cms.asgi:application", host=host, port=port, workers=workers,
            # Django has no lifespan events: without this, uvicorn logs that it has none.
            lifespan="off",
            proxy_headers=True, forwarded_allow_ips=settings.FORWARDED_ALLOW_IPS,
            server_header=False, log_level="info" if options["verbosity"] > 0 else "warning",
        )

    def check_static_files(self):
        """Refuse to start where `collectstatic` has not run: every page would fail."""
        try:
            staticfiles_storage.stored_name("admin/css/base.css")
        except ValueError:
            raise CommandError(_(
                "Les fichiers statiques ne sont pas rassemblés dans %(root)s : lancez "
                "« manage.py collectstatic --noinput » avant de servir.")
                % {"root": settings.STATIC_ROOT}) from None

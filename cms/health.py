"""`/sante/`: whether this web process answers, for a load balancer or a supervisor.

It touches neither the database nor Redis: a process that answers is alive; whether its
database is reachable is for the database's own monitoring.
"""

from django.http import HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe


@require_safe
@never_cache
def health(request):
    return HttpResponse("ok\n", content_type="text/plain; charset=utf-8")

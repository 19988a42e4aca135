from django.conf import settings
from django.utils import translation


class ChosenLanguageMiddleware:
    """Speak French unless the visitor chose another language (cookie), never by guessing.

    Django's LocaleMiddleware would follow the browser's Accept-Language and show an
    English admin to an English-configured browser; editors here work in French.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
        language = chosen if chosen in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        return response

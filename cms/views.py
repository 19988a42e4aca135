from django.shortcuts import render

from .games import GAMES


def home(request):
    """Show what Plateau offers and where to go."""
    return render(request, "home.html", {"games": GAMES.values()})

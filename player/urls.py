from django.urls import path

from . import views

app_name = "player"

urlpatterns = [
    path("", views.home, name="home"),
    path("jouer/<slug:slug>/", views.setup, name="setup"),
    path("partie/<str:token>/", views.play, name="play"),
    path("partie/<str:token>/action/", views.act, name="act"),
    path("partie/<str:token>/plateau/", views.state, name="state"),
    path("partie/<str:token>/image/<int:version>.png", views.image, name="image"),
]

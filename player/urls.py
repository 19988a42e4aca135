from django.urls import path

from . import room_views, views

app_name = "player"

urlpatterns = [
    path("", views.home, name="home"),
    path("jouer/<slug:slug>/", views.setup, name="setup"),
    path("partie/<str:token>/", views.play, name="play"),
    path("partie/<str:token>/action/", views.act, name="act"),
    path("partie/<str:token>/plateau/", views.state, name="state"),
    path("partie/<str:token>/rejouer/", views.play_again, name="play_again"),
    path("partie/<str:token>/image/<int:version>.png", views.image, name="image"),
    path("salle/", room_views.find, name="find_room"),
    path("salle/ouvrir/<slug:slug>/", room_views.create, name="create_room"),
    path("salle/<str:code>/", room_views.room, name="room"),
    path("salle/<str:code>/qr.svg", room_views.qr, name="room_qr"),
    path("salle/<str:code>/<slug:name>/", room_views.action, name="room_action"),
]

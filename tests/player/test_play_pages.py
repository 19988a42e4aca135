"""The player's pages: start, resume, act with a version, refuse forgeries, leak nothing."""

import re

import pytest
from django.test import Client

from cms.models import Status
from player.engines.millionnaire import ENGINE
from player.models import Answer, Play, Seen
from tests.builders import make_question

pytestmark = pytest.mark.django_db


@pytest.fixture
def library():
    return [make_question("echelle", step=step, difficulty=2 if step <= 5 else 4,
                          status=Status.PUBLISHED, anecdote=f"Anecdote secrète {step}",
                          propositions=[(f"Juste {step}", True, False),
                                        (f"Faux A{step}", False, False),
                                        (f"Faux B{step}", False, False),
                                        (f"Faux C{step}", False, False)])
            for step in range(1, 16)]


def start(client, name="Alice"):
    response = client.post("/jouer/millionnaire/", {"name-0": name})
    assert response.status_code == 302
    return Play.objects.get(token=response.url.strip("/").split("/")[-1])


def post(client, play, version=None, htmx=False, **fields):
    question = ENGINE.view(play.state)["question"]["id"]
    data = {"version": play.version if version is None else version, "question": question,
            **fields}
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(f"/partie/{play.token}/action/", data, headers=headers)


def index_of(play, text):
    return next(c["index"] for c in ENGINE.view(play.state)["choices"] if c["text"] == text)


def test_the_home_page_offers_the_playable_games(client, library):
    html = client.get("/").content.decode()
    assert 'href="/jouer/millionnaire/"' in html
    assert "Administration des contenus" in html


def test_a_game_in_progress_is_offered_again_to_the_same_browser_only(client, library):
    play = start(client)
    home = client.get("/").content.decode()
    assert f"/partie/{play.token}/" in home and "jouée à l’instant" in home
    assert f"/partie/{play.token}/" not in Client().get("/").content.decode()


def test_another_browser_cannot_see_or_play_a_game(client, library):
    play = start(client)
    stranger = Client()
    stranger.get("/")
    assert stranger.get(f"/partie/{play.token}/").status_code == 404
    assert post(stranger, play, type="choose", choice="0").status_code == 404
    play.refresh_from_db()
    assert play.version == 1


def test_a_table_the_game_cannot_seat_is_refused_with_a_clear_error(client, library):
    response = client.post("/jouer/millionnaire/", {"name-0": "  "})
    assert response.status_code == 400 and "Un seul joueur" in response.content.decode()
    assert not Play.objects.exists()


def test_a_library_without_a_full_ladder_says_what_is_missing(client, library):
    library[8].status = Status.DRAFT
    library[8].save()
    response = client.post("/jouer/millionnaire/", {"name-0": "Alice"})
    assert response.status_code == 400
    assert "Pas de question publiée pour la marche 9" in response.content.decode()


def test_an_action_moves_the_game_on_and_the_page_shows_where_it_stands(client, library):
    play = start(client)
    response = post(client, play, type="choose", choice=index_of(play, "Juste 1"))
    assert response.status_code == 302
    play.refresh_from_db()
    assert play.version == 2
    assert "dernier mot" in client.get(f"/partie/{play.token}/").content.decode()


def test_an_action_on_a_stale_version_is_refused_and_the_page_refreshes(client, library):
    play = start(client)
    post(client, play, type="choose", choice=index_of(play, "Faux A1"))
    play.refresh_from_db()
    state = play.state
    # A second tab still shows version 1 and confirms.
    response = post(client, play, version=1, htmx=True, type="cancel")
    assert response.status_code == 200 and response.headers["HX-Refresh"] == "true"
    play.refresh_from_db()
    assert play.version == 2 and play.state == state


def test_a_refused_action_says_why_and_changes_nothing(client, library):
    play = start(client)
    response = post(client, play, htmx=True, type="joker", joker="triche")
    assert response.status_code == 200 and 'role="alert"' in response.content.decode()
    play.refresh_from_db()
    assert play.version == 1


def test_a_client_cannot_set_the_time(client, library):
    play = start(client)
    post(client, play, type="choose", choice=index_of(play, "Juste 1"))
    play.refresh_from_db()
    post(client, play, type="confirm", now="-99999")
    answer = Answer.objects.get()
    assert 0 <= answer.seconds < 60


def test_every_answer_is_recorded_and_the_question_marked_seen(client, library):
    play = start(client)
    post(client, play, type="choose", choice=index_of(play, "Faux B1"))
    play.refresh_from_db()
    post(client, play, type="confirm")
    answer = Answer.objects.get()
    assert (answer.question, answer.right, answer.mode, answer.given) == (
        library[0], False, "echelle", "Faux B1")
    assert Seen.objects.filter(question=library[0]).count() == 1


def test_a_game_survives_a_restart_as_it_lives_in_the_database(client, library):
    play = start(client)
    post(client, play, type="choose", choice=index_of(play, "Juste 1"))
    fresh = Client()
    fresh.cookies = client.cookies  # the same browser, after the server came back
    html = fresh.get(f"/partie/{play.token}/").content.decode()
    assert "dernier mot" in html


def test_the_page_before_the_reveal_is_the_same_whichever_proposition_is_right(client, library):
    play = start(client)
    pages = []
    for right in range(4):
        state = dict(play.state)
        state["questions"] = [dict(q) for q in state["questions"]]
        state["questions"][0]["right"] = right
        Play.objects.filter(pk=play.pk).update(state=state)
        pages.append(client.get(f"/partie/{play.token}/").content.decode())
        post(client, Play.objects.get(pk=play.pk), type="choose", choice="0")
        pages.append(client.get(f"/partie/{play.token}/").content.decode())
        Play.objects.filter(pk=play.pk).update(state=state, version=play.version)
    # CSRF tokens are masked afresh on every page, and the CSP nonce is new on each.
    strip = [re.sub(r'(csrfmiddlewaretoken" value="|X-CSRFToken": "|nonce=")[^"]+', "", p)
             for p in pages]
    assert strip[0] == strip[2] == strip[4] == strip[6]
    assert strip[1] == strip[3] == strip[5] == strip[7]
    assert "Anecdote secrète" not in "".join(pages)


def test_the_anecdote_and_the_right_answer_come_with_the_reveal(client, library):
    play = start(client)
    post(client, play, type="choose", choice=index_of(play, "Faux A1"))
    play.refresh_from_db()
    response = post(client, play, htmx=True, type="confirm")
    html = response.content.decode()
    assert "Anecdote secrète 1" in html and "Mauvaise réponse" in html
    assert "Anecdote secrète 2" not in html


def test_a_running_clock_is_counted_down_to_the_moment_the_page_is_built():
    from player.views import clocks_now

    view = {"clock": [{"seat": 0, "remaining": 40.0, "running": True, "at": 1000.0},
                      {"seat": 1, "remaining": 55.0, "running": False, "at": 1000.0}]}
    clocks_now(view, 1012.5)
    assert [c["remaining"] for c in view["clock"]] == [27.5, 55.0]


def test_a_question_deleted_during_a_game_does_not_stop_it(client, library):
    play = start(client)
    post(client, play, type="choose", choice=index_of(play, "Juste 1"))
    library[0].delete()
    play.refresh_from_db()
    response = post(client, play, type="confirm")
    play.refresh_from_db()
    assert response.status_code == 302 and play.version == 3
    assert ENGINE.view(play.state)["result"] == "" and not Answer.objects.exists()


def test_content_typed_with_plain_spaces_is_shown_with_french_spacing():
    from player.views import typeset

    view = {"question": {"text": "Qui a écrit « Les Misérables » ?", "id": 3},
            "choices": [{"text": "Hugo !"}], "phase": "asking"}
    shown = typeset(view)
    assert shown["question"]["text"] == "Qui a écrit «\u202fLes Misérables\u202f»\u202f?"
    assert shown["choices"][0]["text"] == "Hugo\u202f!" and shown["phase"] == "asking"
    assert typeset(shown) == shown


@pytest.mark.parametrize("fields", [
    {},  # no type at all
    {"type": ""},
    {"type": "choose", "choice": "３"},  # a fullwidth digit
    {"type": "choose", "choice": "9" * 5000},
    {"type": "choose", "choice": "1", "question": "1 OR 1=1"},
])
def test_a_malformed_action_is_refused_with_a_message_and_changes_nothing(client, library,
                                                                          fields):
    play = start(client)
    data = {"version": play.version, "question": ENGINE.view(play.state)["question"]["id"],
            **fields}
    response = client.post(f"/partie/{play.token}/action/", data, headers={"HX-Request": "true"})
    assert response.status_code == 200 and 'role="alert"' in response.content.decode()
    play.refresh_from_db()
    assert play.version == 1


def test_a_missing_page_says_so_in_french(client, library):
    response = client.get("/partie/nimportequoi/")
    assert response.status_code == 404
    assert "Page introuvable" in response.content.decode()


def test_an_expired_form_says_so_in_french_and_changes_nothing(library):
    browser = Client(enforce_csrf_checks=True)
    browser.get("/jouer/millionnaire/")
    response = browser.post("/jouer/millionnaire/", {"name-0": "Alice"})
    assert response.status_code == 403 and "Page expirée" in response.content.decode()
    assert not Play.objects.exists()


def test_a_name_is_kept_in_one_unicode_form_without_invisible_characters(client, library):
    from player.engines.base import Refused
    from player.services import clean_players

    assert clean_players("prendre-sa-place", ["Le\u0301a", "Hugo\u200b", "Inès"]) == [
        "Léa", "Hugo", "Inès"]
    with pytest.raises(Refused):
        clean_players("prendre-sa-place", ["Léa", "Le\u0301a"])  # the same name twice
    with pytest.raises(Refused):
        clean_players("prendre-sa-place", ["Léa", "\u200b"])  # an invisible name is none


def test_the_player_can_switch_to_english_and_back(client, library):
    html = client.get("/").content.decode()
    assert 'name="language" value="en"' in html
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    html = client.get("/").content.decode()
    assert '<h2 id="games">Play</h2>' in html and 'name="language" value="fr"' in html


def test_a_move_stuffed_with_fields_is_refused_and_changes_nothing(client, library):
    play = start(client)
    fields = {f"extra-{n}": "x" for n in range(100)}
    response = post(client, play, type="choose", choice="0", **fields)
    play.refresh_from_db()
    assert response.status_code == 400 and play.version == 1

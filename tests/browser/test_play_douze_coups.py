"""Les 12 Coups de Midi played whole in a real browser, by a table around a TV and a phone.

Only the server knows the answers: the test reads them from the game's state in the
database, as the host reading the cards would, and then acts through the page alone.
Money is counted from the registry's numbers, never read back from the page.
"""

import io
import re
import time
from contextlib import contextmanager

import pytest
from PIL import Image, ImageChops, ImageStat
from playwright.sync_api import Locator, expect

from cms.games import GAMES
from cms.models import Question
from player.models import Play
from tests.browser.conftest import LIVE_DATABASE, load_demo, screenshot_path

pytestmark = [pytest.mark.browser, LIVE_DATABASE]

RULES = GAMES["douze-coups"].rules
PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}
WRONG_TEXT = "Zorglub"  # a free answer no coup fatal card accepts
SIDE = 900  # px: the square the server serves the étoile in


# --- the server's side: what only the host reading the cards knows -----------------------------


def the_game() -> Play:
    return Play.objects.get()


def asked() -> dict:
    """Return the question in play as the server keeps it, answers included."""
    state = the_game().state
    where = state["question"]
    return state["decks"][where["kind"]][where["unit"]]["items"][where["item"]]


def money() -> dict[str, int]:
    return {player["name"]: player["money"] for player in the_game().state["players"]}


def seat_of(name: str) -> int:
    return [player["name"] for player in the_game().state["players"]].index(name)


def turn_name() -> str:
    state = the_game().state
    return state["players"][state["turn"]]["name"]


def use_up_clock(name: str, *, leaving: float) -> None:
    """Spend a face-à-face clock in the saved state until `leaving` seconds are left.

    Only the waiting is skipped (60 s of real time per clock): the test edits the saved
    numbers as if the time had passed, and nothing else. The page still counts down what
    the server gave it and, at zero, only asks; the server alone applies the timeout, at
    the deadline it computes itself. Shortening the rules instead would play another game
    (every clock short, the state's rules no longer the registry's).
    """
    play = the_game()
    state = play.state
    fatal = state["fatal"]
    index = fatal["seats"].index(seat_of(name))
    if index == fatal["running"] and state["step"] == "run":
        fatal["since"] = time.time() - (fatal["remaining"][index] - leaving)
    else:
        fatal["remaining"][index] = leaving
    assert Play.objects.filter(pk=play.pk, version=play.version).update(state=state) == 1


# --- the page's side -------------------------------------------------------------------------


@contextmanager
def settled(page):
    """Wait, after the block, until htmx has put the server's answer on the board."""
    page.evaluate("""() => { window.plateauSettled = false;
        document.body.addEventListener("htmx:afterSettle",
            () => { window.plateauSettled = true; }, { once: true }); }""")
    yield
    page.wait_for_function("() => window.plateauSettled === true")


def press(page, locator: Locator) -> None:
    """Press a button of the board and wait for the server's answer to be shown."""
    with settled(page):
        locator.click()


def button(page, name: str) -> Locator:
    """Return the board's button a player reads as `name`."""
    return page.locator("#game").get_by_role("button", name=name, exact=True)


def player_card(page, name: str):
    return page.locator(".dc-scores .player", has=page.locator(".dc-name", has_text=name))


def envoi_number_for(right: bool, pressed: str) -> int:
    """Return a number on the turn's card whose `pressed` button ("visible" or "hidden")
    gives a right (or a wrong) answer."""
    state = the_game().state
    envoi = state["envoi"]
    items = state["decks"]["coup-d-envoi"][envoi["card"]]["items"]
    for number in range(1, len(items) + 1):
        choice = next(c for c in items[number - 1]["choices"]
                      if c["hidden"] == (pressed == "hidden"))
        if choice["right"] == right:
            return number
    raise AssertionError(f"no number left on the card where « {pressed} » is {right}")


def play_envoi(page, *, right: bool, pressed: str) -> None:
    """The player in turn picks a question number, then « cette réponse » or « l’autre »."""
    number = envoi_number_for(right, pressed)
    press(page, button(page, f"Question {number}"))
    item = asked()
    hidden = next(c["text"] for c in item["choices"] if c["hidden"])
    # The hidden proposition stays on the server until the choice is made: nowhere in the
    # page's markup but the last move's result (which may show the same word by chance) and
    # the CSRF token (random letters and digits, which once held « 36 »).
    markup = page.locator("#game").evaluate(
        "g => { const c = g.cloneNode(true); c.querySelectorAll('.dc-last, "
        "[name=csrfmiddlewaretoken]').forEach(e => e.remove()); return c.outerHTML; }")
    assert hidden not in markup
    if pressed == "hidden":
        press(page, page.get_by_role("button", name=re.compile("^L’autre réponse")))
    else:
        press(page, page.get_by_role("button", name=re.compile("^Cette réponse")))
    expect(page.locator(".dc-last")).to_contain_text("juste" if right else "faux")
    expect(page.locator(".dc-last")).to_contain_text(hidden)


def duel_text(right: bool) -> str:
    return next(c["text"] for c in asked()["choices"] if c["right"] == right)


def cpc_text(right: bool) -> str:
    opened = the_game().state["cpc"]["opened"]
    return next(c["text"] for i, c in enumerate(asked()["choices"])
                if c["right"] == right and i not in opened)


def maitre_button(page, right: bool):
    choice = next(c for c in asked()["choices"] if c["right"] == right)
    if choice["hidden"]:
        return page.get_by_role("button", name=re.compile("^La réponse cachée"))
    return button(page, choice["text"])


def fatal_answer(page, text: str) -> None:
    name = turn_name()
    page.get_by_label(f"{name}, votre réponse").fill(text)
    press(page, button(page, "Valider"))


def guess(page, name: str, text: str) -> None:
    """A player takes the étoile's buzzer, says who they are and what they see."""
    page.locator("summary", has_text="Deviner l’étoile mystérieuse").click()
    page.get_by_label("Qui propose\u202f?").select_option(label=name)
    page.get_by_label("L’étoile mystérieuse, c’est…").fill(text)
    press(page, button(page, "Proposer"))


def shot(page, name: str, *, full_page=False) -> None:
    """Keep what the players see once the pictures are in and the reveals have played."""
    page.wait_for_function("() => [...document.images].every(i => i.complete && i.naturalWidth)")
    page.screenshot(path=screenshot_path(name), full_page=full_page, animations="disabled")


def expect_on_screen(page, *locators) -> None:
    """Check that a TV shows these without anyone scrolling."""
    page.evaluate("window.scrollTo(0, 0)")
    for locator in locators:
        expect(locator).to_be_in_viewport(ratio=1)


# --- the étoile, pixel by pixel --------------------------------------------------------------


def served_etoile(page) -> tuple[str, Image.Image]:
    """Return the board's étoile URL and the picture the server sends there."""
    src = page.locator(".dc-etoile img:not(.leaving)").get_attribute("src")
    response = page.request.get(page.url.split("/partie/")[0] + src)
    assert response.ok and response.headers["content-type"] == "image/png"
    return src, Image.open(io.BytesIO(response.body())).convert("RGB")


def original_etoile() -> Image.Image:
    """Return the étoile's uploaded file, at the size the server serves it."""
    question = Question.objects.get(pk=the_game().state["decks"]["etoile-mysterieuse"][0]
                                    ["items"][0]["id"])
    with question.image.open("rb") as source, Image.open(source) as picture:
        assert picture.width == picture.height  # the demo pictures are square
        return picture.convert("RGB").resize((SIDE, SIDE), Image.Resampling.BICUBIC)


def panels_showing(served: Image.Image, original: Image.Image) -> tuple[int, int]:
    """Return how many large and small panels of the served picture show the original.

    The panels are cut as on the printed tableau révélateur: rows of large panels on the
    left (the rules' share of the width), small ones on the right.
    """
    rows, split = RULES.large_panels, round(RULES.large_panel_width * SIDE)
    shown = [0, 0]
    for row in range(rows):
        top, bottom = round(row * SIDE / rows) + 4, round((row + 1) * SIDE / rows) - 4
        for column, (left, right) in enumerate(((4, split - 4), (split + 4, SIDE - 4))):
            box = (left, top, right, bottom)
            gap = ImageChops.difference(served.crop(box), original.crop(box))
            if max(ImageStat.Stat(gap).mean) < 2:
                shown[column] += 1
    return shown[0], shown[1]


# --- the tests -------------------------------------------------------------------------------


def start(browser, live_server, tmp_path, viewport, names):
    load_demo(tmp_path, "douze-coups")
    context = browser.new_context(viewport=viewport, locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name=re.compile("Les 12 Coups de Midi")).click()
    page.get_by_label("Nombre de joueurs").select_option(str(len(names)))
    for number, name in enumerate(names, 1):
        page.get_by_label(f"Joueur {number}").fill(name)
    page.get_by_role("button", name="Commencer la partie").click()
    expect(page.locator(".dc-round")).to_contain_text("Le coup d’envoi")
    return context, page


def test_three_players_play_a_whole_game_on_a_tv_until_the_etoile_makes_a_maitre_de_midi(
        browser, live_server, tmp_path):
    context, page = start(browser, live_server, tmp_path, TV, ["Léa", "Hugo", "Inès"])
    say = page.locator(".dc-say")
    start_money = RULES.start_money
    assert money() == {"Léa": start_money, "Hugo": start_money, "Inès": start_money}

    # Coup d'envoi: Léa errs twice, the others answer right; both buttons are used.
    expect(page.locator("#dc-title")).to_have_text("Léa, choisissez une question de la carte")
    play_envoi(page, right=False, pressed="visible")
    expect(player_card(page, "Léa")).to_contain_text("étoile orange")
    play_envoi(page, right=True, pressed="hidden")
    play_envoi(page, right=True, pressed="visible")
    play_envoi(page, right=False, pressed="hidden")
    expect(player_card(page, "Léa")).to_contain_text("étoile rouge")

    # Duel 1: Léa provokes Hugo, who picks a card of the pair and answers right.
    expect(page.locator("#dc-title")).to_have_text("Léa, qui provoquez-vous en duel ?")
    press(page, button(page, "Hugo"))
    press(page, button(page, "Carte 2"))
    expect(page.locator(".dc-duel-title")).to_contain_text("Duel 1")
    expect(page.locator(".dc-stage")).to_contain_text("Léa provoque Hugo\u00a0: à Hugo de répondre")
    shot(page, "play-douze-coups-tv-duel")
    before = money()
    press(page, button(page, duel_text(right=True)))
    paid = min(RULES.duel_stake, before["Léa"])  # the provoker pays the provoked
    assert money() == {**before, "Léa": before["Léa"] - paid, "Hugo": before["Hugo"] + paid}
    expect(say).to_contain_text("Hugo gagne le duel")
    for name in ("Léa", "Hugo", "Inès"):
        expect(player_card(page, name)).to_contain_text("étoile verte")

    # Coup par coup: the duel's loser starts; VRAI goes on, FAUX ends the fiche.
    expect(page.locator(".dc-round")).to_contain_text("Le coup par coup")
    assert turn_name() == "Léa"
    vrai = cpc_text(right=True)
    press(page, button(page, vrai))
    expect(page.locator(".dc-open", has_text=vrai)).to_contain_text("VRAI")
    intruder = cpc_text(right=False)
    press(page, button(page, intruder))  # Hugo opens the intruder
    expect(page.locator(".dc-last")).to_contain_text(f"L’intrus : {intruder}")
    expect(player_card(page, "Hugo")).to_contain_text("étoile orange")
    expect(page.locator(".dc-round")).to_contain_text("fiche 2 sur")
    expect(page.locator(".dc-open")).to_have_count(0)
    press(page, button(page, cpc_text(right=True)))  # Inès
    press(page, button(page, cpc_text(right=True)))  # Léa
    press(page, button(page, cpc_text(right=False)))  # Hugo, for the second time

    # Duel 2, on the pair's other card: Hugo provokes Léa, who answers wrong and pays.
    expect(page.locator("#dc-title")).to_have_text("Hugo, qui provoquez-vous en duel ?")
    press(page, button(page, "Léa"))
    expect(page.locator(".dc-duel-title")).to_contain_text("Duel 2")
    before = money()
    press(page, button(page, duel_text(right=False)))
    paid = min(RULES.duel_stake, before["Léa"])  # the provoked pays the provoker
    assert money() == {**before, "Léa": before["Léa"] - paid, "Hugo": before["Hugo"] + paid}

    # Coup fatal at three: the two richest face each other first, the richer starts.
    before = money()
    richest = sorted(before, key=lambda name: -before[name])[:2]
    assert richest == ["Hugo", "Inès"]
    expect(page.locator("#dc-title")).to_have_text("Hugo contre Inès")
    press(page, button(page, "Lancer le chrono"))
    expect(page.locator(".dc-clock.current")).to_contain_text("Hugo")
    fatal_answer(page, asked()["answer"])
    expect(page.locator(".dc-clock.current")).to_contain_text("Inès")
    fatal_answer(page, WRONG_TEXT)
    expect(page.locator(".dc-last")).to_contain_text(WRONG_TEXT)
    expect(page.locator(".dc-clock.current")).to_contain_text("Inès")
    shot(page, "play-douze-coups-tv-coup-fatal")
    # Hugo's clock, stopped, has used all but a second and a half of its time.
    use_up_clock("Hugo", leaving=1.5)
    # Inès answers right: Hugo's clock runs out; the page, at zero, only asks for the board.
    with page.expect_request(lambda r: r.method == "GET" and r.url.endswith("/plateau/")):
        fatal_answer(page, asked()["answer"])
        expect(page.locator(".dc-clock.current")).to_contain_text("Hugo")
    expect(say).to_contain_text("Temps écoulé pour Hugo", timeout=8_000)
    paid = min(RULES.face_a_face_stake, before["Hugo"])
    assert money() == {**before, "Hugo": before["Hugo"] - paid, "Inès": before["Inès"] + paid}

    # The winner meets the third player; Léa passes, and her running clock runs out
    # (the test spends it in the saved state; a reload shows the time really left).
    expect(page.locator("#dc-title")).to_have_text("Inès contre Léa")
    press(page, button(page, "Lancer le chrono"))
    fatal_answer(page, asked()["answer"])
    press(page, button(page, "Passer"))
    expect(page.locator(".dc-last")).to_contain_text("Passe.")
    before = money()
    use_up_clock("Léa", leaving=2.5)
    page.reload()
    expect(page.locator(".dc-clock.current .clock")).to_have_text(re.compile(r"^[012],\d$"))
    expect(say).to_contain_text("Temps écoulé pour Léa", timeout=8_000)
    paid = min(RULES.face_a_face_stake, before["Léa"])
    assert money() == {**before, "Léa": before["Léa"] - paid, "Inès": before["Inès"] + paid}

    # The final: the poorest starts; each answer opens a panel of the étoile.
    expect(page.locator(".dc-round")).to_contain_text("étoile mystérieuse")
    before = money()
    assert turn_name() == min(before, key=lambda name: before[name]) == "Léa"
    original = original_etoile()
    url, served = served_etoile(page)
    assert panels_showing(served, original) == (0, 0)
    opened = [0, 0]
    for right in (True, False, True, False):
        answering = turn_name()
        press(page, maitre_button(page, right))
        opened[0 if right else 1] += 1
        new_url, served = served_etoile(page)
        assert new_url != url
        url = new_url
        assert panels_showing(served, original) == tuple(opened)
        # The picture, the question, its choices and the étoile's buzzer fit on the TV.
        expect_on_screen(page, page.locator(".dc-etoile img:not(.leaving)"),
                         page.locator("#dc-title"),
                         page.locator(".dc-final-play .choice").last,
                         page.locator(".dc-guess summary"))
        if right:
            before[answering] += RULES.coup_de_maitre_gain
        assert money() == before
    expect(page.locator(".dc-etoile figcaption")).to_contain_text("4 volets ouverts sur 14")
    shot(page, "play-douze-coups-tv-etoile")

    # Hugo, in turn, guesses wrong: out of the final, his question passes to Inès. Then
    # Léa, whose turn it is not, guesses right and wins at once, richest or not.
    assert turn_name() == "Hugo"
    guess(page, "Hugo", "La tour de Babel")
    expect(player_card(page, "Hugo")).to_contain_text("hors finale")
    expect(page.locator("#dc-guesser option", has_text="Hugo")).to_have_count(0)
    assert turn_name() == "Inès"
    answer = the_game().state["decks"]["etoile-mysterieuse"][0]["items"][0]["answer"]
    guess(page, "Léa", answer)
    before["Léa"] += RULES.etoile_jackpot
    assert money() == before
    expect(page.locator(".dc-master")).to_have_text("Léa est Maître de Midi\u202f!")
    expect_on_screen(page, page.locator(".dc-master"), page.locator(".dc-etoile img:not(.leaving)"))
    expect(player_card(page, "Léa")).to_contain_text("Maître de Midi")
    expect(page.locator(".dc-etoile figcaption")).to_contain_text(answer)
    _, served = served_etoile(page)
    assert panels_showing(served, original) == (RULES.large_panels, RULES.small_panels)
    shot(page, "play-douze-coups-tv-end")
    assert the_game().finished
    context.close()


def test_two_players_on_a_phone_with_the_keyboard_a_reload_and_forged_actions_refused(
        browser, live_server, tmp_path):
    context, page = start(browser, live_server, tmp_path, PHONE, ["Léa", "Hugo"])
    say = page.locator(".dc-say")
    keyboard = page.keyboard

    # A forged seat: Hugo's name slipped into Léa's form is refused, and nothing moves.
    play = the_game()
    page.locator("form.dc-numbers input[name=seat]").evaluate("el => el.value = '1'")
    with settled(page):
        button(page, "Question 1").click()
    expect(page.locator("#game .refusal")).to_have_text("Hugo doit attendre son tour.")
    assert (the_game().version, the_game().state) == (play.version, play.state)

    # The coup d'envoi with the keyboard alone: the first number has the focus.
    for right in (False, True, False):
        expect(page.locator(".dc-number").first).to_be_focused()
        with settled(page):
            keyboard.press("Enter")
        visible = next(c for c in asked()["choices"] if not c["hidden"])
        cette = page.get_by_role("button", name=re.compile("^Cette réponse"))
        expect(cette).to_be_focused()
        if visible["right"] != right:
            keyboard.press("Tab")
            expect(page.get_by_role("button", name=re.compile("^L’autre réponse"))).to_be_focused()
        with settled(page):
            keyboard.press("Space")
    expect(player_card(page, "Léa")).to_contain_text("étoile rouge")

    # Duel 1: at two, Léa provokes Hugo at once; he picks a card and answers wrong, by keys.
    expect(button(page, "Carte 1")).to_be_focused()
    with settled(page):
        keyboard.press("Enter")
    propositions = [c["text"] for c in asked()["choices"]]
    wrong = propositions.index(duel_text(right=False))
    expect(button(page, propositions[0])).to_be_focused()
    for _ in range(wrong):
        keyboard.press("Tab")
    expect(button(page, propositions[wrong])).to_be_focused()
    shot(page, "play-douze-coups-phone-duel", full_page=True)
    before = money()
    with settled(page):
        keyboard.press("Enter")
    paid = min(RULES.duel_stake, before["Hugo"])
    assert money() == {"Léa": before["Léa"] + paid, "Hugo": before["Hugo"] - paid}

    # Coup par coup, tapped; a reload in the middle finds the fiche as it was.
    assert turn_name() == "Hugo"
    vrai = cpc_text(right=True)
    press(page, button(page, vrai))
    page.reload()
    expect(page.locator(".dc-open", has_text=vrai)).to_contain_text("VRAI")
    expect(page.locator(".dc-stage")).to_contain_text("À Léa de nommer une proposition")

    # An action built on an old version is refused, and nothing moves.
    play = the_game()
    token = page.locator("input[name=csrfmiddlewaretoken]").first.input_value()
    stale = page.request.post(page.url + "action/", form={
        "csrfmiddlewaretoken": token, "version": str(play.version - 1), "type": "answer",
        "seat": "0", "question": str(asked()["id"]), "choice": "0"})
    assert stale.ok and "La partie avait avancé" in stale.text()
    assert (the_game().version, the_game().state) == (play.version, play.state)

    press(page, button(page, cpc_text(right=False)))  # Léa
    press(page, button(page, cpc_text(right=True)))  # Hugo
    press(page, button(page, cpc_text(right=False)))  # Léa, red
    expect(page.locator(".dc-duel-title")).to_contain_text("Duel 2")
    press(page, button(page, duel_text(right=False)))  # Hugo pays Léa again

    # Coup fatal, typed: a timeout asked for early is refused by the server.
    expect(button(page, "Lancer le chrono")).to_be_focused()
    with settled(page):
        keyboard.press("Enter")
    play = the_game()
    early = page.request.post(page.url + "action/", form={
        "csrfmiddlewaretoken": token, "version": str(play.version), "type": "timeout"})
    assert early.ok and "Le temps n’est pas encore écoulé." in early.text()
    assert (the_game().version, the_game().state) == (play.version, play.state)

    before = money()
    first, second = the_game().state["fatal"]["seats"]
    names = [the_game().state["players"][s]["name"] for s in (first, second)]
    expect(page.locator("#dc-text")).to_be_focused()
    keyboard.type(asked()["answer"])
    with settled(page):
        keyboard.press("Enter")
    expect(page.locator(".dc-clock.current")).to_contain_text(names[1])
    expect(page.locator("#dc-text")).to_be_focused()
    keyboard.type(WRONG_TEXT)
    with settled(page):
        keyboard.press("Enter")
    shot(page, "play-douze-coups-phone-coup-fatal", full_page=True)
    use_up_clock(names[1], leaving=1.5)
    page.reload()
    expect(say).to_contain_text(f"Temps écoulé pour {names[1]}", timeout=8_000)
    paid = min(RULES.face_a_face_stake, before[names[1]])
    assert money() == {names[0]: before[names[0]] + paid, names[1]: before[names[1]] - paid}

    # The final, to its fifth question with no right guess: the richest is Maître de Midi.
    before = money()
    original = original_etoile()
    for number, right in enumerate((False, True, True, False, False), 1):
        expect(page.locator(".dc-stage")).to_contain_text(f"question n° {number} sur 5")
        if number == 4:
            shot(page, "play-douze-coups-phone-etoile", full_page=True)
        answering = turn_name()
        press(page, maitre_button(page, right))
        if right:
            before[answering] += RULES.coup_de_maitre_gain
    assert money() == before
    expect(page.locator(".dc-stage")).to_contain_text("Personne n’a trouvé l’étoile mystérieuse")
    richest = max(before, key=lambda name: before[name])
    expect(page.locator(".dc-master")).to_have_text(f"{richest} est Maître de Midi\u202f!")
    _, served = served_etoile(page)
    assert panels_showing(served, original) == (RULES.large_panels, RULES.small_panels)
    shot(page, "play-douze-coups-phone-end", full_page=True)
    context.close()

"""Tout le monde veut prendre sa place around one screen, in a real browser: a TV and a phone.

The players know what the screen shows; the right answers are read from the server's state
in the database, as only the Champion's cards (the server) know them. Every action waits
for the board the server sends back, and the HTML it sent is kept to check what it hid.
"""

import re
import unicodedata

import pytest
from django.utils.html import escape
from playwright.sync_api import expect

from cms.games import GAMES
from player.judging import normalise, typos_allowed
from player.models import Answer, Play
from tests.browser.conftest import LIVE_DATABASE, load_demo, screenshot_path

pytestmark = [pytest.mark.browser, LIVE_DATABASE]

PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}
RULES = GAMES["prendre-sa-place"].rules
POINTS = {slug: answer_format.points for slug, answer_format in RULES.formats.items()}
COMPET_SLOTS = GAMES["prendre-sa-place"].kind("compet").slot_formats[: RULES.compet_played]
SUPER = RULES.super_cash_points
WRONG = "Aucune idée"
MINUS = "\u2212"
NBSP, NNBSP = "\u00a0", "\u202f"  # before « : » and before « ? ! » on the board


def the_game() -> Play:
    return Play.objects.get()


def signed(number: int) -> str:
    """Return a track place as the board prints it, with a true minus sign."""
    return f"{MINUS}{-number}" if number < 0 else str(number)


def item_with_id(question: int) -> dict:
    return next(item for cards in the_game().state["cards"].values() for card in cards
                for item in card["items"] if item["id"] == question)


def right_text(item: dict) -> str:
    return next(choice["text"] for choice in item["choices"] if choice["right"])


def answer_text(item: dict) -> str:
    return item["answer"] or right_text(item)


def without_accents(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def misspelt(answer: str) -> str:
    """Return an answer as a hurried player types it: without its accents, or a letter short."""
    if without_accents(answer) != answer:
        return without_accents(answer).lower()
    longest = max(answer.split(), key=len)
    middle = len(longest) // 2
    return answer.replace(longest, longest[:middle] + longest[middle + 1:], 1)


def misspellable(answer: str) -> bool:
    """Return whether `misspelt` gives a typo the judge forgives (accents, or one letter)."""
    if without_accents(answer) != answer:
        return True
    longest = max(answer.split(), key=len)
    return (longest[len(longest) // 2].isalpha()
            and typos_allowed(len(normalise(answer))) >= 1)


class Screen:
    """The one screen the table shares: every action waits for the board sent back."""

    def __init__(self, page):
        self.page = page
        self.sent: list[str] = []  # the HTML the server sent, page and fragments

    def start(self, live_server, names: list[str]) -> None:
        page = self.page
        page.goto(f"{live_server.url}/")
        page.get_by_role("link", name=re.compile("Tout le monde veut prendre sa place")).click()
        page.get_by_label("Nombre de joueurs").select_option(str(len(names)))
        for number, name in enumerate(names, start=1):
            page.get_by_label(f"Joueur {number}", exact=True).fill(name)
        with page.expect_response(lambda r: "/partie/" in r.url
                                  and r.request.resource_type == "document") as first:
            page.get_by_role("button", name="Commencer la partie").click()
        self.sent.append(first.value.text())
        expect(page.locator("#psp-title")).to_be_visible()

    def version(self) -> str | None:
        field = self.page.locator("#game input[name=version]").first
        return field.get_attribute("value") if field.count() else None

    def send(self, press) -> None:
        """Do what `press` does, keep the HTML answered, and wait for the next version's board."""
        before = self.version()
        with self.page.expect_response(lambda r: r.url.endswith("/action/")) as answer:
            press()
        self.sent.append(answer.value.text())
        # htmx binds the new forms and sets the focus once settled: a key pressed before that
        # would post the form without htmx.
        self.page.wait_for_function(
            """v => (document.querySelector('#game input[name=version]') || {}).value !== v
                 && !document.getElementById('game').classList.contains('htmx-settling')""",
            arg=before)

    def click(self, locator) -> None:
        self.send(locator.click)

    def enter(self, locator, tabs: int = 0) -> None:
        """Press Enter with the keyboard alone: focus is on `locator`'s first, Tab moves on."""
        expect(locator.first).to_be_focused()
        for _ in range(tabs):
            self.page.keyboard.press("Tab")
        expect(locator.nth(tabs)).to_be_focused()
        self.send(lambda: self.page.keyboard.press("Enter"))

    def item(self) -> dict:
        """Return the question on screen, as the server's state holds it."""
        return item_with_id(int(self.page.locator("#game input[name=question]").first
                                .get_attribute("value")))

    def answer(self, *, right: bool, fmt: str | None = None, text: str | None = None,
               keyboard: bool = False) -> str:
        """Answer the question on screen (choosing its format first); return what was given."""
        page = self.page
        if fmt is not None:
            formats = page.locator("form.psp-formats button.format")
            if keyboard:
                self.enter(formats, list(RULES.formats).index(fmt))
            else:
                self.click(page.locator(f"button.format-{fmt}"))
        item = self.item()
        field = page.locator("#psp-text")
        if field.count():
            given = text if text is not None else answer_text(item) if right else WRONG
            if keyboard:
                expect(field).to_be_focused()
                page.keyboard.type(given)
                self.send(lambda: page.keyboard.press("Enter"))
            else:
                field.fill(given)
                self.click(page.get_by_role("button", name="Valider"))
            return given
        buttons = page.locator("form.psp-answer button.choice")
        shown = [text.strip() for text in buttons.all_inner_texts()]
        index = (shown.index(right_text(item)) if right
                 else next(i for i, text in enumerate(shown) if text != right_text(item)))
        if keyboard:
            self.enter(buttons, index)
        else:
            self.click(buttons.nth(index))
        return shown[index]

    def go_on(self, *, keyboard: bool = False) -> None:
        button = self.page.locator("#game form button.button:not(.secondary)").filter(
            has_text=re.compile("Continuer|Question suivante|Place au Super Cash|Le résultat"))
        if keyboard:
            self.enter(button)
        else:
            self.click(button)

    def ready(self, name: str, *, keyboard: bool = False) -> None:
        expect(self.page.locator("#psp-title")).to_have_text(f"Passez l’écran à {name}")
        button = self.page.get_by_role("button", name=f"Je suis {name}, à moi{NNBSP}!")
        if keyboard:
            self.enter(button)
        else:
            self.click(button)

    def score(self, name: str, column: str):
        """Return the board's cell of one player's score in a column (Qualifs, Compet’, Défi)."""
        player = self.page.locator(".psp-board li.player").filter(
            has=self.page.locator(".psp-name", has_text=re.compile(rf"^{re.escape(name)}$")))
        return player.locator(".psp-scores > div").filter(
            has=self.page.locator("dt", has_text=column)).locator("dd")

    def board_text(self) -> str:
        return self.page.locator("#game").inner_text()

    def shot(self, name: str) -> None:
        self.page.screenshot(path=screenshot_path(f"play-prendre-sa-place-{name}"),
                             full_page=True, animations="disabled")


def new_page(browser, viewport):
    context = browser.new_context(viewport=viewport, locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


def qualifs_items(seat: int) -> list[dict]:
    state = the_game().state
    return state["cards"]["qualifs"][state["qualifs_card"][seat]]["items"]


def play_qualifs(screen: Screen, names: list[str]) -> dict[int, int]:
    """Play Les Qualifs with a forgiven typo and an answer the table accepts; return the starts.

    The seats are placed by the points each format scores: the one who answers CASH twice
    (a misspelt answer, then a wrong one accepted anyway) first, DUO + CARRÉ second, the
    one who misses the DUO last.
    """
    page = screen.page
    # The typist needs a question whose answer can be misspelt within what the judge forgives.
    typist = next(seat for seat in (1, 2, 3)
                  if any(misspellable(answer_text(item)) for item in qualifs_items(seat)))
    first, last = (seat for seat in (1, 2, 3) if seat != typist)
    typing = [("cash", "typo"), ("cash", "override")]
    plans = {first: [("duo", True), ("carre", True)],
             typist: typing if misspellable(answer_text(qualifs_items(typist)[0]))
             else typing[::-1],
             last: [("duo", False), ("carre", True)]}
    for seat in (1, 2, 3):
        name, running = names[seat], 0
        for number, (fmt, how) in enumerate(plans[seat], start=1):
            expect(page.locator(".psp-who")).to_contain_text(f"{name} · question {number} sur 2")
            expect(page.locator("#psp-format-ask")).to_have_text(
                f"{name}, DUO, CARRÉ ou CASH{NNBSP}?")
            if seat == typist and number == 1:
                screen.shot("tv-qualifs-formats")
            item = screen.item()
            if how == "typo":
                typed = misspelt(answer_text(item))
                assert typed != answer_text(item)
                screen.answer(right=True, fmt=fmt, text=typed)
                expect(page.locator("#psp-verdict")).to_contain_text(f"{name}{NBSP}: bonne réponse")
            elif how == "override":
                screen.answer(right=False, fmt=fmt, text="Je ne sais plus")
                expect(page.locator("#psp-verdict")).to_contain_text("mauvaise réponse")
                expect(screen.score(name, "Qualifs")).to_have_text(str(running))
                screen.shot("tv-qualifs-override")
                screen.click(page.get_by_role("button", name="Accepter quand même"))
                expect(page.locator("#psp-verdict")).to_contain_text("(acceptée par la table)")
            else:
                screen.answer(right=how, fmt=fmt)
            running += POINTS[fmt] if how else 0
            expect(screen.score(name, "Qualifs")).to_have_text(str(running))
            expect(page.locator(".psp-verdict")).to_contain_text(answer_text(item))
            screen.go_on()
    assert Answer.objects.filter(overridden=True, seat=typist, mode="cash").count() == 1
    return {typist: RULES.compet_starts[0], first: RULES.compet_starts[1],
            last: RULES.compet_starts[2]}


def play_compet(screen: Screen, names: list[str], answers: dict[int, list[bool]],
                starts: dict[int, int]) -> dict[int, list[str]]:
    """Let each player answer La Compet' in secret; return what each one gave, in order."""
    page = screen.page
    given: dict[int, list[str]] = {}
    for seat in (1, 2, 3):
        name = names[seat]
        screen.ready(name)
        given[seat] = []
        for number, (slot, right) in enumerate(zip(COMPET_SLOTS, answers[seat], strict=True),
                                               start=1):
            expect(page.locator(".psp-who")).to_contain_text(f"{name} · question {number} sur 9")
            expect(page.locator(".psp-who .format-tag")).to_have_text(RULES.formats[slot].label)
            expect(page.locator(".psp-secret")).to_contain_text("Réponse secrète")
            if seat == 1 and number == 7:
                screen.shot("tv-compet-private")
            typed = screen.answer(right=right, text=None if right else f"Idée de {name} {number}")
            given[seat].append(typed)
            if slot == "cash":
                assert typed not in screen.board_text() and escape(typed) not in screen.sent[-1]
        if seat == 3:
            break  # the last answer starts the count
        for other in (1, 2, 3):
            expect(screen.score(names[other], "Compet’")).to_have_text(signed(starts[other]))
        expect(page.locator("#psp-title")).to_have_text(f"Passez l’écran à {names[seat + 1]}")
        shown = screen.board_text()
        assert not [typed for typed in given[seat] if typed in shown]
        if seat == 1:
            screen.shot("tv-compet-handover")
    return given


def test_four_players_qualify_compete_and_the_champion_keeps_the_seat_by_a_right_bluff(
        browser, live_server, tmp_path):
    load_demo(tmp_path, "prendre-sa-place")
    context, page = new_page(browser, TV)
    screen = Screen(page)
    names = ["Chloé", "Alex", "Bea", "Dan"]
    champion = names[0]
    screen.start(live_server, names)
    state = the_game().state
    assert state["champion"] == 0 and state["contenders"] == [1, 2, 3]
    expect(page.locator(".psp-board")).to_contain_text("maître du jeu")

    # --- Les Qualifs, then the Compet' track: best on −1, second on −2, the others on −3.
    starts = play_qualifs(screen, names)
    for seat, start in starts.items():
        expect(screen.score(names[seat], "Compet’")).to_have_text(signed(start))
    assert the_game().state["starts"] == [None, *(starts[s] for s in (1, 2, 3))]

    # --- La Compet': written answers, hidden from the others and from the page until the count.
    best, second, third = sorted(starts, key=starts.get, reverse=True)
    compet = {
        second: [False, True, True, True, True, True, True, True, True],
        best: [True, False, False, True, True, True, True, False, False],
        third: [False] * len(COMPET_SLOTS),
    }
    super_cash = {second: False, best: True, third: True}
    compet_track = {seat: starts[seat] + sum(
        POINTS[slot] for slot, right in zip(COMPET_SLOTS, compet[seat], strict=True) if right)
        for seat in starts}
    track = {seat: compet_track[seat] + (SUPER if super_cash[seat] else -SUPER)
             for seat in starts}
    assert track[best] == track[second] > track[third]  # the Champion will choose
    card = the_game().state["cards"]["compet"][0]
    cash_answers = {text for item, slot in zip(card["items"], COMPET_SLOTS, strict=False)
                    if slot == "cash" for text in (answer_text(item), right_text(item))}
    given = play_compet(screen, names, compet, starts)
    before_count = "".join(screen.sent[:-1])
    leaked = [text for text in cash_answers if escape(text) in before_count]
    assert not leaked, f"the CASH answers were sent before the count: {leaked}"

    # --- The count, question by question: every answer shown and scored at last.
    for number in range(1, len(COMPET_SLOTS) + 1):
        expect(page.locator("#psp-title")).to_have_text(f"Décompte · question {number} sur 9")
        entries = page.locator(".psp-entry")
        expect(entries).to_have_count(3)
        for position, seat in enumerate((1, 2, 3)):
            expect(entries.nth(position)).to_contain_text(names[seat])
            expect(entries.nth(position)).to_contain_text(given[seat][number - 1])
        if number == 7:
            screen.shot("tv-compet-count")
        screen.go_on()
    for seat in (1, 2, 3):
        expect(screen.score(names[seat], "Compet’")).to_have_text(signed(compet_track[seat]))

    # --- Super Cash: one each, +5 right, −5 wrong.
    for seat in (1, 2, 3):
        name = names[seat]
        expect(page.locator(".psp-who")).to_have_text(
            f"Super Cash pour {name}{NBSP}: {SUPER} cases en plus ou en moins")
        if seat == best:
            screen.shot("tv-super-cash")
        screen.answer(right=super_cash[seat])
        expect(page.locator(".psp-points")).to_have_text(
            f"+{SUPER}" if super_cash[seat] else f"{MINUS}{SUPER}")
        expect(screen.score(name, "Compet’")).to_have_text(signed(track[seat]))
        screen.go_on()

    # --- A tie: the Champion chooses the Challenger, not the first one offered.
    expect(page.locator("#psp-title")).to_have_text(
        f"Égalité{NBSP}: {champion} choisit son Challenger")
    tied = page.locator("form.psp-options button")
    expect(tied).to_have_count(2)
    challenger = max(best, second)
    screen.shot("tv-challenger-choice")
    screen.click(tied.filter(has_text=names[challenger]))
    assert the_game().state["challenger"] == challenger
    rival = names[challenger]

    # --- Le Défi: the Champion picks one of four themes; the focus is on the first.
    themes = page.locator("button.psp-theme")
    expect(themes).to_have_count(RULES.defi_themes_drawn)
    expect(themes.first).to_be_focused()
    expect(page.locator(".psp-board li.player.muted")).to_have_count(2)  # the others watch
    screen.shot("tv-defi-themes")
    picked = themes.nth(2).inner_text()
    screen.click(themes.nth(2))
    defi = {
        rival: [("cash", True), ("cash", True), ("carre", True), ("duo", True),
                ("duo", False), ("carre", False)],
        champion: [("duo", True)] * 3 + [("duo", False), ("carre", False), ("cash", False)],
    }
    scores = {name: sum(POINTS[fmt] for fmt, right in plan if right)
              for name, plan in defi.items()}
    assert scores[champion] < scores[rival]
    for name in (rival, champion):
        screen.ready(name)
        expect(page.locator(".psp-round")).to_contain_text(picked)
        typed = []
        for number, (fmt, right) in enumerate(defi[name], start=1):
            expect(page.locator(".psp-who")).to_contain_text(f"{name} · question {number} sur 6")
            typed.append(screen.answer(right=right, fmt=fmt))
        expect(screen.score(name, "Défi")).to_have_text("0")
        if name == rival:
            shown = screen.board_text()
            assert not [text for text in typed if text in shown]

    # --- The coup de bluff: the Challenger's exact score, accepted.
    expect(page.locator("#psp-title")).to_have_text(f"Coup de bluff{NNBSP}?")
    expect(page.get_by_role("button", name=re.compile("Pas de bluff"))).to_be_focused()
    screen.shot("tv-bluff")
    page.get_by_label(f"Score annoncé pour {rival}").fill(str(scores[rival]))
    screen.click(page.get_by_role("button", name="Annoncer le bluff"))
    expect(page.locator("#psp-title")).to_have_text(
        f"{champion} annonce {scores[rival]} points pour {rival}")
    screen.shot("tv-bluff-reply")
    screen.click(page.get_by_role("button", name="J’accepte"))
    for number in range(1, RULES.defi_questions + 1):
        expect(page.locator("#psp-title")).to_have_text(f"Décompte · question {number} sur 6")
        expect(page.locator(".psp-entry")).to_have_count(2)
        screen.go_on()

    # A right guess keeps the seat, whatever the score.
    expect(page.locator(".psp-result")).to_have_text(f"{champion} garde sa place{NNBSP}!")
    expect(page.locator("#game")).to_contain_text(
        f"Le Défi{NBSP}: {champion} {scores[champion]}, {rival} {scores[rival]}.")
    expect(page.locator("#game")).to_contain_text("Coup de bluff réussi")
    expect(page.locator(".psp-board .armchair")).to_have_count(1)
    expect(screen.score(rival, "Défi")).to_have_text(str(scores[rival]))
    screen.shot("tv-end")
    game = the_game()
    assert game.finished
    assert game.state["result"] == {"winner": 0, "kept": True, "by_bluff": True,
                                    "champion_score": scores[champion],
                                    "challenger_score": scores[rival]}
    context.close()


def test_two_players_with_the_keyboard_a_reload_a_forged_action_and_a_refused_bluff(
        browser, live_server, tmp_path):
    load_demo(tmp_path, "prendre-sa-place")
    context, page = new_page(browser, PHONE)
    screen = Screen(page)
    lina, noe = "Lina", "Noé"
    screen.start(live_server, [lina, noe])
    expect(page.locator(".psp-board")).to_contain_text("pas de Champion avant Le Défi")

    # --- Les Qualifs, each on their own card; Lina with the keyboard alone.
    expect(page.locator("#psp-format-ask")).to_have_text(f"{lina}, DUO, CARRÉ ou CASH{NNBSP}?")
    screen.shot("phone-qualifs-formats")
    screen.answer(right=True, fmt="duo", keyboard=True)
    screen.go_on(keyboard=True)
    screen.answer(right=True, fmt="cash", keyboard=True)
    expect(page.locator("#psp-verdict")).to_contain_text(f"{lina}{NBSP}: bonne réponse")
    screen.go_on(keyboard=True)
    screen.answer(right=False, fmt="carre")
    screen.go_on()
    screen.answer(right=True, fmt="duo")
    screen.go_on()
    expect(screen.score(lina, "Qualifs")).to_have_text(str(POINTS["duo"] + POINTS["cash"]))
    expect(screen.score(noe, "Qualifs")).to_have_text(str(POINTS["duo"]))
    expect(screen.score(lina, "Compet’")).to_have_text(signed(RULES.compet_starts[0]))
    expect(screen.score(noe, "Compet’")).to_have_text(signed(RULES.compet_starts[1]))

    # --- La Compet': the one behind answers first.
    screen.ready(noe)
    noe_compet = [True, True, True, False, False, False, True, False, False]
    for number, right in enumerate(noe_compet, start=1):
        expect(page.locator(".psp-who")).to_contain_text(f"{noe} · question {number} sur 9")
        if number == 5:
            # A forged answer for the seat whose turn it is not, by editing the form.
            before = the_game()
            page.locator("form.psp-answer input[name=seat]").evaluate("el => el.value = '0'")
            with page.expect_response(lambda r: r.url.endswith("/action/")):
                page.locator("form.psp-answer button.choice").first.click()
            expect(page.locator("#game .refusal")).to_have_text(f"C’est à {noe} de jouer.")
            after = the_game()
            assert (after.version, after.state) == (before.version, before.state)
            # And one on an old version, straight to the server.
            form = {"csrfmiddlewaretoken": page.locator("input[name=csrfmiddlewaretoken]")
                    .first.get_attribute("value"),
                    "version": str(before.version - 1), "type": "answer", "seat": "1",
                    "question": str(screen.item()["id"]), "choice": "0"}
            response = page.request.post(page.url + "action/", form=form, max_redirects=0)
            assert response.status == 302
            after = the_game()
            assert (after.version, after.state) == (before.version, before.state)
            # The page is reloaded: the game resumes on the same question.
            page.reload()
            expect(page.locator(".psp-who")).to_contain_text(f"{noe} · question 5 sur 9")
            expect(page.locator("form.psp-answer button.choice").first).to_be_focused()
        screen.answer(right=right)
    screen.ready(lina, keyboard=True)
    for number in range(1, len(COMPET_SLOTS) + 1):
        expect(page.locator(".psp-who")).to_contain_text(f"{lina} · question {number} sur 9")
        if number == 7:
            screen.shot("phone-compet-private")
        screen.answer(right=True, keyboard=True)
    expect(page.locator("#psp-title")).to_have_text("Décompte · question 1 sur 9")
    expect(page.locator(".psp-count")).to_have_count(2)  # one card each
    screen.shot("phone-compet-count")
    for _number in COMPET_SLOTS:
        screen.go_on(keyboard=True)

    # --- Super Cash: Noé misses it, Lina finds it.
    expect(page.locator(".psp-who")).to_contain_text(f"Super Cash pour {noe}")
    screen.answer(right=False)
    expect(page.locator(".psp-points")).to_have_text(f"{MINUS}{SUPER}")
    screen.go_on()
    screen.shot("phone-super-cash")
    screen.answer(right=True, keyboard=True)
    expect(page.locator(".psp-points")).to_have_text(f"+{SUPER}")
    screen.go_on(keyboard=True)

    # --- Le Défi: Lina, ahead, becomes the Champion and picks both themes by the keyboard.
    state = the_game().state
    assert (state["champion"], state["challenger"]) == (0, 1)
    expect(page.locator("#psp-title")).to_have_text(f"{lina}, choisissez votre thème")
    themes = page.locator("button.psp-theme")
    expect(themes).to_have_count(RULES.defi_themes_drawn)
    screen.shot("phone-defi-themes")
    screen.enter(themes)
    expect(page.locator("#psp-title")).to_have_text(f"{lina}, choisissez le thème pour {noe}")
    expect(themes.first).to_be_disabled()
    expect(themes.nth(1)).to_be_focused()
    screen.enter(themes.nth(1))
    state = the_game().state
    assert state["defi_card"] == [0, 1]
    screen.ready(noe)
    noe_defi = [("cash", True), ("cash", True), ("carre", True), ("duo", True),
                ("duo", True), ("duo", True)]
    for fmt, right in noe_defi:
        screen.answer(right=right, fmt=fmt)
    screen.ready(lina, keyboard=True)
    for _question in range(RULES.defi_questions):
        screen.answer(right=True, fmt="duo", keyboard=True)
    noe_score = sum(POINTS[fmt] for fmt, right in noe_defi if right)
    lina_score = RULES.defi_questions * POINTS["duo"]
    assert noe_score > lina_score

    # --- A wrong bluff, refused: the count decides, and Noé takes the seat.
    expect(page.locator("#psp-title")).to_have_text(f"Coup de bluff{NNBSP}?")
    screen.shot("phone-bluff")
    page.get_by_label(f"Score annoncé pour {noe}").fill(str(noe_score - 1))
    screen.click(page.get_by_role("button", name="Annoncer le bluff"))
    expect(page.locator(".psp-prompt")).to_have_text(
        f"{noe}, acceptez-vous le coup de bluff{NNBSP}?")
    screen.shot("phone-bluff-reply")
    screen.click(page.get_by_role("button", name="Je refuse"))
    for number in range(1, RULES.defi_questions + 1):
        expect(page.locator("#psp-title")).to_have_text(f"Décompte · question {number} sur 6")
        screen.go_on(keyboard=True)
    expect(page.locator(".psp-result")).to_have_text(f"{noe} prend sa place{NNBSP}!")
    expect(page.locator("#game")).to_contain_text(
        f"Le Défi{NBSP}: {lina} {lina_score}, {noe} {noe_score}.")
    expect(page.locator("#game")).not_to_contain_text("Coup de bluff")
    screen.shot("phone-end")
    game = the_game()
    assert game.finished and game.state["bluff"] == {"score": noe_score - 1, "accepted": False}
    assert game.state["result"]["winner"] == 1 and not game.state["result"]["by_bluff"]
    context.close()

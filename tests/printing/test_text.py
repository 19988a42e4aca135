"""Fonts, French typography, escaping and fitting text into a box."""

import subprocess
import sys

import pytest
from django.conf import settings
from reportlab.pdfbase import pdfmetrics

from printing import text
from printing.text import BOLD, NBSP, NNBSP, REGULAR, escape, fit, french, missing_glyphs


def test_dejavu_is_used_where_the_machine_has_it():
    fonts = text.fonts()
    assert fonts.family == "DejaVu"
    assert "DejaVu" in pdfmetrics.getFont(REGULAR).face.name.decode()


@pytest.mark.parametrize("raw,printed", [
    ("Qui ?", f"Qui{NNBSP}?"),
    ("Qui?", f"Qui{NNBSP}?"),
    ("Vraiment !", f"Vraiment{NNBSP}!"),
    ("Attention : réponse", f"Attention{NNBSP}: réponse"),
    ("un; deux", f"un{NNBSP}; deux"),
    ("Quoi ?!", f"Quoi{NNBSP}?!"),
    ("l'été", "l’été"),
    ('le "Boléro"', f"le «{NBSP}Boléro{NBSP}»"),
    ("«Boléro»", f"«{NBSP}Boléro{NBSP}»"),
    ("1 000 000 €", f"1{NNBSP}000{NNBSP}000 €"),
])
def test_french_typography_is_applied_at_print_time(raw, printed):
    assert french(raw) == printed


@pytest.mark.parametrize("raw", ["12:30", "https://example.org", "Le score 3:2",
                                 '<img src="/etc/hostname">', "&amp; &#233; fin"])
def test_markup_times_and_addresses_are_left_alone(raw):
    assert french(raw) == raw


def test_vera_has_no_narrow_space_so_it_falls_back_to_a_no_break_space(monkeypatch):
    monkeypatch.setattr(text, "fonts", lambda: text.FontSet("Vera", False))
    assert text.printable(f"Qui{NNBSP}?") == f"Qui{NBSP}?"


def test_markup_is_escaped_for_paragraphs():
    assert escape('<b>&</para><img src="/etc/hostname">') == (
        "&lt;b&gt;&amp;&lt;/para&gt;&lt;img src=&quot;/etc/hostname&quot;&gt;")


def test_an_emoji_is_a_missing_glyph_and_french_letters_are_not():
    assert missing_glyphs("Où est le 🐘 ? Œuvre, ÇA, à ù ÿ « » € ’ …") == ("🐘",)


def test_fit_keeps_the_largest_size_that_fits():
    fitted = fit(french("Quelle est la capitale du Canada ?"), REGULAR, 12, 260, 100)
    assert fitted.size == 12 and len(fitted.lines) == 1


def test_fit_shrinks_long_text_and_wraps_it_within_the_box():
    long = "Une question assez longue " * 8
    fitted = fit(long, REGULAR, 12, 150, 80)
    assert 6.5 <= fitted.size < 12
    assert all(pdfmetrics.stringWidth(line, REGULAR, fitted.size) <= 150
               for line in fitted.lines)
    assert fitted.leading * (len(fitted.lines) - 1) + fitted.size <= 80


def test_fit_gives_up_below_the_minimum_size_rather_than_cutting():
    assert fit("mot " * 400, REGULAR, 12, 150, 80) is None


def test_a_word_wider_than_the_box_does_not_fit():
    assert fit("Anticonstitutionnellement" * 3, BOLD, 10, 60, 200) is None


def test_line_breaks_never_split_a_narrow_no_break_space():
    fitted = fit(french("Quelle est la réponse ?"), REGULAR, 10, 85, 100)
    assert not any(line.strip() == f"{NNBSP}?" or line.startswith("?") for line in fitted.lines)


def test_amounts_are_grouped_with_narrow_spaces():
    assert text.amount(1_000_000) == f"1{NNBSP}000{NNBSP}000{NBSP}€"


def test_a_machine_without_dejavu_prints_with_vera_and_no_narrow_spaces():
    # Fonts register once per process: a fresh interpreter sees a machine without DejaVu.
    script = (
        "from printing import text\n"
        "text.DEJAVU_DIRS = ()\n"
        "text.PLATEAU_FONT_DIR = ''\n"
        "print(text.fonts().family)\n"
        "print(repr(text.french('Qui ?')))\n"
        "print(text.missing_glyphs('Œuvre à l’été « » €'))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True, cwd=settings.BASE_DIR)
    family, sample, missing = result.stdout.splitlines()
    assert family == "Vera"
    assert sample == repr(f"Qui{NBSP}?")
    assert missing == "()"

"""What a printable product is: a deck of faces with backs, or a run of full pages."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..draw import Pen

if TYPE_CHECKING:
    # Labels are lazy translations, declared at import and rendered in the active language.
    from django_stubs_ext import StrOrPromise

FaceFn = Callable[[Pen, Any], None]


@dataclass(frozen=True)
class Deck:
    """Cards (or fiches, tokens, banknotes) laid out on sheets, each with a back.

    `kind` names the content kind a deck prints (its items come from the CMS, one per
    card or question, through `to_item`); a deck of fixed components has `items` instead.
    `front_form` and `back_form` draw what every front and every back share, once per
    PDF (a form XObject the pages reuse); `front` and `back` draw what is particular to
    one item, over it. Forms make a large deck small and fast.
    """

    slug: str
    label: StrOrPromise
    front: FaceFn
    description: StrOrPromise = ""
    back: FaceFn | None = None
    back_form: Callable[[Pen], None] | None = None
    front_form: Callable[[Pen], None] | None = None
    kind: str = ""
    to_item: Callable[[Any, Any], Any] | None = None  # (GameContent, card or question)
    items: Callable[[], Iterable[Any]] | None = None
    size: tuple[float, float] | None = None  # fixed size in mm; None: the maker's card size
    duplex: bool = True  # False: single-sided (a sheet of tokens to fold, say)
    # Cards whose backs differ print "CODE-017" on both faces, so a maker checks each back,
    # reprints or re-sorts one card. Empty for decks whose backs must all look alike.
    code: str = ""
    round_face: bool = False  # cut as a disc (tokens): the safe zone is a disc too

    def __post_init__(self):
        if bool(self.kind) == bool(self.items):
            raise ValueError(f"{self.slug}: a deck prints either content or fixed items")
        if self.kind and self.to_item is None:
            raise ValueError(f"{self.slug}: a content deck needs to_item")
        if self.code and not (self.code.isascii() and self.code.isupper()
                              and self.code.isalpha()):
            raise ValueError(f"{self.slug}: a deck code is capital letters, such as MIL")

    @property
    def numbered(self) -> bool:
        """Whether each face carries its identifier (a deck with a code and with backs)."""
        return bool(self.code) and self.has_backs

    def ident(self, number: int) -> str:
        """Return the identifier printed on a face: « MIL-017 »."""
        return f"{self.code}-{number:03d}"

    @property
    def has_backs(self) -> bool:
        return self.duplex and (self.back is not None or self.back_form is not None)


@dataclass(frozen=True)
class Page:
    """One full page: its paper (None: the maker's), orientation and drawing function."""

    draw: Callable[[Pen], None]
    paper: str | None = None
    landscape: bool = False


@dataclass(frozen=True)
class Sheets:
    """Full pages: fiches sheets, score pads, boards, posters, rules.

    `pages(options, items)` returns the pages to print, so a board can tile itself over
    the maker's paper. A content product sets `kind` (and `to_item`) and gets the selected
    items; a product of fixed pages gets an empty list.
    """

    slug: str
    label: StrOrPromise
    pages: Callable[..., Iterable[Page]]
    description: StrOrPromise = ""
    kind: str = ""
    to_item: Callable[[Any, Any], Any] | None = None
    duplex: bool = False  # pages go in front/back pairs: the first is always a recto
    alone: bool = False  # printed only when asked for (the calibration sheet)


Product = Deck | Sheets


@dataclass(frozen=True)
class ImagePanel:
    """One panel that hides part of a question's picture while it is played.

    `x`, `y`, `w`, `h` are fractions of the square the picture is fitted in, from its
    top-left corner (as a screen reads them); `number` is the one printed on the flap.
    """

    number: int
    size: str  # "large" or "small"
    x: float
    y: float
    w: float
    h: float

"""Post real admin forms from tests: read a change form as a browser would, send it back."""

from html.parser import HTMLParser

from django.urls import reverse


class _FormFields(HTMLParser):
    """Collect what a browser would submit from the admin's change form (id `<model>_form`)."""

    _BUTTONS = ("submit", "button", "image", "reset", "file")

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.fields: list[tuple[str, str]] = []
        self._inside = False
        self._select: tuple[str, bool] | None = None
        self._options: list[tuple[str, bool]] = []
        self._textarea: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "form":
            self._inside = attributes.get("id", "").endswith("_form")
            return
        if tag == "option" and self._select:
            self._options.append((attributes.get("value", ""), "selected" in attributes))
            return
        name = attributes.get("name")
        if not self._inside or not name or "disabled" in attributes:
            return
        if tag == "input":
            kind = attributes.get("type", "text")
            if kind in self._BUTTONS:
                return
            if kind in ("checkbox", "radio"):
                if "checked" in attributes:
                    self.fields.append((name, attributes.get("value") or "on"))
                return
            self.fields.append((name, attributes.get("value") or ""))
        elif tag == "select":
            self._select = (name, "multiple" in attributes)
            self._options = []
        elif tag == "textarea":
            self._textarea = [name, ""]

    def handle_data(self, data):
        if self._textarea is not None:
            self._textarea[1] += data

    def handle_endtag(self, tag):
        if tag == "form":
            self._inside = False
        elif tag == "select" and self._select:
            name, multiple = self._select
            chosen = [value for value, selected in self._options if selected]
            if not chosen and not multiple and self._options:
                chosen = [self._options[0][0]]  # what a browser sends for a single select
            self.fields += [(name, value) for value in chosen]
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            name, text = self._textarea
            # Browsers drop the newline that follows <textarea>.
            self.fields.append((name, text.removeprefix("\n")))
            self._textarea = None


def form_data(response, **changes) -> dict:
    """Return the POST data of the admin form in this response, with some fields changed.

    The empty template row of each inline (`__prefix__`) is left out, as a browser would.
    """
    assert response.status_code == 200, response.status_code
    parser = _FormFields()
    parser.feed(response.content.decode())
    data: dict[str, list[str]] = {}
    for name, value in parser.fields:
        if "__prefix__" not in name:
            data.setdefault(name, []).append(value)
    assert data, "no admin change form in the page"
    flat = {name: values[0] if len(values) == 1 else values for name, values in data.items()}
    flat.update(changes)
    return flat


def change_url(obj) -> str:
    return reverse(f"admin:cms_{type(obj).__name__.lower()}_change", args=[obj.pk])


def changelist_url(model) -> str:
    return reverse(f"admin:cms_{model.__name__.lower()}_changelist")


def save(client, obj, button="_save", **changes):
    """GET the change page of obj, POST its form back with the changes and a button."""
    url = change_url(obj)
    data = form_data(client.get(url), **changes)
    data[button] = "1"
    return client.post(url, data)

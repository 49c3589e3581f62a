"""A small HTML reader for the rules tests: elements with their attributes and text."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    parts: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return " ".join("".join(self.parts).split())


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self.open: list[Element] = []

    def handle_starttag(self, tag, attrs):
        element = Element(tag, {k: v or "" for k, v in attrs})
        self.elements.append(element)
        if tag not in VOID:
            self.open.append(element)

    def handle_startendtag(self, tag, attrs):
        self.elements.append(Element(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag):
        for i in range(len(self.open) - 1, -1, -1):
            if self.open[i].tag == tag:
                del self.open[i:]
                break

    def handle_data(self, data):
        for element in self.open:
            element.parts.append(data)


def parse(html: str) -> list[Element]:
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader.elements


def find(html: str, tag: str | None = None, **attrs: str | bool) -> list[Element]:
    """Elements by tag and attributes; an attribute given as True only has to be present."""
    found = []
    for element in parse(html):
        if tag and element.tag != tag:
            continue
        ok = True
        for name, value in attrs.items():
            name = name.rstrip("_").replace("_", "-")
            if value is True:
                ok = ok and name in element.attrs
            else:
                ok = ok and element.attrs.get(name) == value
        if ok:
            found.append(element)
    return found


def body_rows(html: str, class_: str) -> list[list[Element]]:
    """The cells (th and td, in order) of each body row of the first table whose class
    begins with `class_`: the rows that open with a header cell (``th scope="row"``)."""
    start = html.index(f'<table class="{class_}')
    segment = html[start : html.index("</table>", start)]
    rows: list[list[Element]] = []
    for element in parse(segment):
        if element.tag == "tr":
            rows.append([])
        elif element.tag in ("th", "td") and rows:
            rows[-1].append(element)
    return [cells for cells in rows if cells and cells[0].attrs.get("scope") == "row"]

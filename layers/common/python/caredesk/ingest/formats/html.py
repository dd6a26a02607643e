"""HTML (.html, .htm): parsed with beautifulsoup4 and the stdlib html.parser; headings, lists,
tables and <pre> blocks kept, page furniture (scripts, navigation, footers) dropped."""

from __future__ import annotations

import re

from caredesk.errors import DocumentEncodingError
from caredesk.ingest.formats import FormatResult
from caredesk.ingest.formats.decoding import decode_text, normalise_text
from caredesk.ingest.markdown import collapse, markdown_table

_HTML_DROP = ("script", "style", "nav", "footer", "noscript", "template", "iframe", "svg", "canvas", "head")
# Page furniture that generated documentation marks by role or class rather than by tag: DocBook's
# "Prev / Up / Home / Next" tables (navheader, navfooter) and a chapter's table of contents (toc), Sphinx's
# sidebar and relations bar. Quoted, they read as "Prev — : Up; : Part III ..." and match every query word
# of the neighbouring pages' titles.
_FURNITURE_ROLES = frozenset({"navigation", "banner", "contentinfo", "search"})
_FURNITURE_CLASSES = frozenset({"navheader", "navfooter", "navbar", "breadcrumb", "breadcrumbs", "toc",
                                "sphinxsidebar", "related", "skip-link"})
# A superscript that is only a bracketed number is a footnote or reference marker (DocBook's "[3]", a wiki's
# "[12]"): quoted in a reply that cites its sources as "[1]", it would read as another citation. Superscripts
# that say something ("m<sup>2</sup>", "1<sup>st</sup>") stay.
_FOOTNOTE_MARKER = re.compile(r"\s*\[\d{1,4}\]\s*")
_HTML_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_LINE_BREAK = "\x00"  # stands for <br> while inline whitespace is collapsed; removed on flush


def convert_html(data: bytes, name: str, max_bytes: int) -> FormatResult:
    # imported here: the query functions share this layer without beautifulsoup4
    from bs4 import BeautifulSoup, Comment, Doctype, ProcessingInstruction

    text = normalise_text(_decode_html(data, name))
    soup = BeautifulSoup(text, "html.parser")
    title_tag = soup.find("title")
    title = _html_text(title_tag) if title_tag else None
    for tag in soup.find_all(_HTML_DROP + ("title", "meta", "link")):
        tag.decompose()
    for tag in soup.find_all(_is_furniture):
        tag.decompose()
    for tag in soup.find_all("sup"):
        if not tag.decomposed and _FOOTNOTE_MARKER.fullmatch(tag.get_text()):
            tag.decompose()
    for node in soup.find_all(string=lambda s: isinstance(s, Comment | Doctype | ProcessingInstruction)):
        node.extract()
    renderer = _HtmlRenderer()
    renderer.walk(soup.body or soup)
    return title, "\n\n".join(renderer.finish()), []


def _is_furniture(tag) -> bool:  # noqa: ANN001 - a bs4 Tag
    if tag.decomposed:  # inside furniture removed already
        return False
    classes = tag.get("class") or ()
    return tag.get("role") in _FURNITURE_ROLES or not _FURNITURE_CLASSES.isdisjoint(classes)


def _decode_html(data: bytes, name: str) -> str:
    """HTML may declare its charset; an explicit declaration is honoured, never guessed."""
    try:
        return decode_text(data, name)
    except DocumentEncodingError:
        declared = re.search(rb"<meta[^>]+charset=[\"']?([A-Za-z0-9_-]+)", data[:4096], flags=re.IGNORECASE)
        if not declared:
            raise
        charset = declared.group(1).decode("ascii")
        try:
            return data.decode(charset)
        except (LookupError, UnicodeDecodeError):
            raise DocumentEncodingError(f"{name}: not valid UTF-8 nor its declared charset {charset}") from None


class _HtmlRenderer:
    """Walk the parsed tree in order, emitting Markdown blocks; inline text accumulates until a block ends."""

    _CONTAINERS = frozenset(
        "address article aside blockquote body center dd details dialog div dl dt fieldset figcaption "
        "figure form header hgroup html li main p section summary".split()
    )

    def __init__(self) -> None:
        self.blocks: list[str] = []
        self.inline: list[str] = []

    def finish(self) -> list[str]:
        self._flush()
        return self.blocks

    def walk(self, node) -> None:  # noqa: ANN001 - bs4 node types
        from bs4 import NavigableString, Tag

        for child in node.children:
            if isinstance(child, NavigableString):
                self.inline.append(re.sub(r"\s+", " ", str(child)))
            elif not isinstance(child, Tag):
                continue
            elif child.name in _HTML_HEADINGS:
                self._flush()
                heading = _html_text(child)
                if heading:
                    self.blocks.append(f"{'#' * _HTML_HEADINGS[child.name]} {heading}")
            elif child.name in ("ul", "ol"):
                self._flush()
                items = self._list_lines(child, depth=0)
                if items:
                    self.blocks.append("\n".join(items))
            elif child.name == "table":
                self._flush()
                table = self._table(child)
                if table:
                    self.blocks.append(table)
            elif child.name == "pre":
                self._flush()
                code = child.get_text().strip("\n")
                if code.strip():
                    self.blocks.append(f"```\n{code}\n```")
            elif child.name == "br":
                self.inline.append(_LINE_BREAK)
            elif child.name in self._CONTAINERS:
                self._flush()
                self.walk(child)
                self._flush()
            else:  # inline markup (a, span, strong, ...): its text joins the running paragraph
                self.walk(child)

    def _flush(self) -> None:
        text = "".join(self.inline)
        self.inline = []
        lines = [collapse(line) for line in text.split(_LINE_BREAK)]
        lines = [line for line in lines if line]
        if lines:
            self.blocks.append("\n".join(lines))

    def _list_lines(self, list_tag, depth: int) -> list[str]:  # noqa: ANN001
        lines: list[str] = []
        ordered = list_tag.name == "ol"
        number = 0
        for item in list_tag.find_all("li", recursive=False):
            nested = [c for c in item.find_all(("ul", "ol")) if c.find_parent("li") is item]
            for sublist in nested:
                sublist.extract()
            text = _html_text(item)
            if text:
                number += 1
                marker = f"{number}." if ordered else "-"
                lines.append(f"{'  ' * depth}{marker} {text}")
            for sublist in nested:
                lines.extend(self._list_lines(sublist, depth + 1))
        return lines

    @staticmethod
    def _table(table_tag) -> str:  # noqa: ANN001
        rows: list[list[str]] = []
        for row in table_tag.find_all("tr"):
            if row.find_parent("table") is not table_tag:
                continue  # a nested table's rows belong to its cell's text
            cells: list[str] = []
            for cell in row.find_all(("th", "td"), recursive=False):
                cells.append(_html_text(cell))
                span = cell.get("colspan", "1")
                cells.extend([""] * (int(span) - 1 if str(span).isdigit() and 1 < int(span) < 50 else 0))
            if any(c.strip() for c in cells):
                rows.append(cells)
        return markdown_table(rows) if rows else ""


_HTML_BLOCKS = frozenset(
    "address article aside blockquote br dd div dl dt figcaption figure h1 h2 h3 h4 h5 h6 header hr li "
    "main ol p pre section table td th tr ul".split()
)


def _html_text(tag) -> str:  # noqa: ANN001
    """A tag's text as a reader sees it: inline markup adds no space ("<b>portal</b>;"), blocks do."""
    from bs4 import NavigableString, Tag

    parts: list[str] = []
    for node in tag.descendants:
        if isinstance(node, Tag) and node.name in _HTML_BLOCKS:
            parts.append(" ")
        elif isinstance(node, NavigableString):
            parts.append(str(node))
    return collapse("".join(parts))

"""An HTML mail part as the text its sender sees, for a turn sent without a text/plain part.

What a client shows as lines becomes lines (block elements and ``<br>``); what it shows as a
quote (``<blockquote>``, and the reply blocks of Gmail, Outlook and Yahoo with everything
after them) gets a "> " on each line, so the engine's quote stripping drops the opponent's
turn quoted below a reply, exactly as it does in plain text; scripts and styles are not
text. Runs of blank lines become one.

``html.parser`` of Python 3.11 rescans to the end of the input at every unclosed construct
(``<a<a<a...`` takes minutes for a megabyte), so comments are removed and a "<" that opens
no complete tag is escaped before it parses: then each character is looked at a bounded
number of times.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_BLOCKS = frozenset(
    {"p", "div", "li", "tr", "table", "ul", "ol", "dl", "dt", "dd", "pre", "hr", "blockquote"}
    | {"h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "header", "footer"}
    | {"address", "center", "form", "fieldset", "figure", "main", "nav", "aside"}
)
_CELLS = frozenset({"td", "th"})
_HIDDEN = frozenset({"script", "style", "title", "template"})
_QUOTE_CLASSES = frozenset({"gmail_quote", "yahoo_quoted"})
_QUOTE_IDS = frozenset({"divrplyfwdmsg", "appendonsend"})
"""Where Gmail (class), Yahoo (class) and Outlook (id) start the quoted earlier message: it
and everything after it are quoted."""
_TAG = re.compile(r"<[A-Za-z/!?][^<>]*>|<")
_SPACE = re.compile(r"[ \t\n\r\f]+")


def html_text(html: str) -> str:
    """The text of ``html``, lines as its reader sees them, quotes marked with "> "."""
    reader = _Reader()
    reader.feed(_tags_closed(html))
    reader.close()
    return reader.result()


def _tags_closed(html: str) -> str:
    """``html`` without comments (an unclosed one runs to the end, as in a browser), and with
    every "<" that opens no complete tag written as ``&lt;``."""
    kept: list[str] = []
    start = 0
    while (opening := html.find("<!--", start)) >= 0:
        kept.append(html[start:opening])
        closing = html.find("-->", opening + 4)
        if closing < 0:
            start = len(html)
            break
        start = closing + 3
    kept.append(html[start:])
    return _TAG.sub(lambda m: m.group() if len(m.group()) > 1 else "&lt;", "".join(kept))


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[tuple[bool, str]] = []
        self.line: list[str] = []
        self.line_quoted = False
        self.hidden = 0
        self.pre = 0
        self.blockquotes = 0
        self.quote_rest = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self.hidden += 1
            return
        attributes = {name: value or "" for name, value in attrs}
        classes = set(attributes.get("class", "").split())
        if classes & _QUOTE_CLASSES or attributes.get("id", "").lower() in _QUOTE_IDS:
            self.end_line()
            self.quote_rest = True
        if tag == "br":
            self.end_line(always=True)
        elif tag in _BLOCKS:
            self.end_line()
        elif tag in _CELLS:
            self.write(" ")
        if tag == "blockquote":
            self.blockquotes += 1
        elif tag == "pre":
            self.pre += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _HIDDEN:  # <script/> opens nothing
            self.handle_starttag(tag, attrs)
            if tag in ("blockquote", "pre"):
                self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self.hidden = max(0, self.hidden - 1)
            return
        if tag in _BLOCKS:
            self.end_line()
        if tag == "blockquote":
            self.blockquotes = max(0, self.blockquotes - 1)
        elif tag == "pre":
            self.pre = max(0, self.pre - 1)

    def handle_data(self, data: str) -> None:
        if self.hidden:
            return
        if self.pre:
            first, *rest = data.replace("\r\n", "\n").replace("\r", "\n").split("\n")
            self.write(first)
            for line in rest:
                self.end_line(always=True)
                self.write(line)
            return
        self.write(_SPACE.sub(" ", data))

    def write(self, text: str) -> None:
        if not self.line or self.line[-1].endswith(" "):
            text = text.lstrip(" ") if not self.pre else text
        if not text:
            return
        self.line.append(text)
        if text.strip() and (self.blockquotes or self.quote_rest):
            self.line_quoted = True

    def end_line(self, *, always: bool = False) -> None:
        if self.line or always:
            text = "".join(self.line).rstrip()
            inside = bool(self.blockquotes or self.quote_rest)
            self.lines.append((self.line_quoted if text.strip() else inside, text))
        self.line = []
        self.line_quoted = False

    def result(self) -> str:
        """The lines, quoted ones after "> " (a blank one in a quote is ">"), each run of
        blank lines as one, none at either end."""
        self.end_line()
        out: list[str] = []
        for quoted, text in self.lines:
            if text.strip():
                out.append(f"> {text}" if quoted else text)
            elif out and out[-1] not in ("", ">"):
                out.append(">" if quoted else "")
        while out and out[-1] in ("", ">"):
            out.pop()
        return "\n".join(out) + "\n" if out else ""

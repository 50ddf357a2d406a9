"""What a Markdown reader makes of citgen's Markdown: markdown-it-py, with GitHub's tables, strikethrough, autolinks.

citgen's Markdown is read on GitHub (release notes, READMEs, pull-request
comments). markdown-it-py is a CommonMark renderer; its ``gfm-like`` preset adds
GitHub's tables and strikethrough, raw HTML, and autolinks (linkify: addresses
with a scheme, ``mailto:``, e-mail addresses, and ``//evil.example`` too). It
is set to link as GitHub does: no bare domain (``kubevirt.io``), but every
``www.`` address, and e-mail addresses at the ``.example`` domains the hostile
texts use. What GitHub does after rendering is modelled as its own filters do
it, on the rendered text outside code and links: ``@name`` is a mention that
notifies someone, ``#123`` a reference to an issue, and any e-mail address left
is linked.

:func:`read` gives what a document became: every link's and image's address,
every piece of HTML, the text inside each emphasis, the text and the code
spans; :func:`assert_inert` checks that none of it came from a hostile input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable

from markdown_it import MarkdownIt

from generator import escape

#: GitHub's mention and issue-reference filters, as they read rendered text.
MENTION = re.compile(r"(?<![\w`/])@[A-Za-z0-9]")
REFERENCE = re.compile(r"(?<![\w&])#\d")
#: An e-mail address, which GitHub links whatever its domain.
EMAIL = re.compile(r"[\w.+-]@[\w-]+\.[\w-]")
#: The marker every hostile address, emphasis and piece of HTML below carries.
MARK = "evil"

#: Markdown and GitHub's extensions of it, each written so that it acts on MARK: a link, an image,
#: autolinks of every kind, a mention, an issue reference, emphasis, strikethrough, HTML, an emoji.
MARKDOWN_HOSTILE: tuple[str, ...] = (
    "@evil-team and @evil/maintainers",
    "fixes #666",
    "![evil](https://evil.example/i.png)",
    "[evil](https://evil.example)",
    "<https://evil.example>",
    "see https://evil.example/x and www.evil.example",
    "evil@evil.example mailto:evil@evil.example",
    "//evil.example/x",
    "**evil** *evil* _evil_ ~~evil~~",
    "<b>evil</b><!-- evil -->",
    ":evil: evil:x",
)

_reader = MarkdownIt("gfm-like")
_reader.linkify.set({"fuzzy_link": False})  # GitHub links no bare domain,
_reader.linkify.add("www.", {"validate": re.compile(r"^[\w-]+(?:\.[\w-]+)*")})  # but every www. address
_reader.linkify.tlds(["example"], True)  # and e-mail addresses at any domain
_EMPHASIS = {"em_open": "em_close", "strong_open": "strong_close", "s_open": "s_close"}


@dataclass
class Read:
    """What a renderer made of a document."""

    addresses: list[str] = field(default_factory=list)  # of every link and image
    html: list[str] = field(default_factory=list)
    emphasised: list[str] = field(default_factory=list)  # the text inside each emphasis and strikethrough
    texts: list[str] = field(default_factory=list)  # the text outside code and links, each piece
    codes: list[str] = field(default_factory=list)  # each code span's and code block's content

    @property
    def text(self) -> str:
        return "".join(self.texts)


def read(markdown: str) -> Read:
    found = Read()
    for block in _reader.parse(markdown):
        if block.type in ("html_block",):
            found.html.append(block.content)
        elif block.type in ("code_block", "fence"):
            found.codes.append(block.content)
        open_emphasis: list[list[str]] = []
        in_link = 0
        for token in block.children or ():
            if token.type in ("link_open", "image"):
                found.addresses.append(str(token.attrGet("href") or token.attrGet("src")))
            if token.type == "link_open":
                in_link += 1
            elif token.type == "link_close":
                in_link -= 1
            elif token.type == "html_inline":
                found.html.append(token.content)
            elif token.type in _EMPHASIS:
                open_emphasis.append([])
            elif token.type in _EMPHASIS.values():
                found.emphasised.append("".join(open_emphasis.pop()))
            elif token.type in ("text", "code_inline"):
                (found.codes if token.type == "code_inline" else found.texts if not in_link else []).append(
                    token.content)
                for inner in open_emphasis:
                    inner.append(token.content)
    return found


def linked(text: str) -> list[str]:
    """What GitHub would still make of rendered text: mentions, issue references, e-mail addresses."""
    return [m.group() for pattern in (MENTION, REFERENCE, EMAIL) for m in pattern.finditer(text)]


def shown(value: str) -> str:
    """What ``escape.markdown(value)`` reads as: ``escape.text(value)``, a zero-width space after each @ and #."""
    return escape.text(value).replace("@", "@\u200b").replace("#", "#\u200b")


def assert_inert(markdown: str, *, links: bool = False, html: bool = False,
                 shows: Iterable[str] = (), as_code: Iterable[str] = ()) -> Read:
    """No link, image, HTML, emphasis, mention or issue reference in ``markdown`` came from MARKDOWN_HOSTILE.

    A document whose own words hold links or HTML (a README's prose) passes
    ``links`` or ``html``: then only those that carry MARK are refused. Each of
    ``shows`` must read in the text as written (:func:`shown`), each of
    ``as_code`` be a code span's very text.
    """
    found = read(markdown)
    assert [a for a in found.addresses if links is False or MARK in a] == [], found.addresses
    assert [h for h in found.html if html is False or MARK in h] == [], found.html
    assert MARK not in found.emphasised, found.emphasised
    text = found.text
    assert not linked(text), ascii(text[:3000])
    assert [v for v in shows if shown(v) not in text] == [], ascii(text[:3000])
    assert [v for v in as_code if escape.text(v) not in found.codes] == []
    return found

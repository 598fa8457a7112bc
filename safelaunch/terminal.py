"""Text from ranks and remote machines, made safe to show on a terminal.

A rank's bytes stay whole in its log file, but a terminal obeys what it is sent: ``ESC [2J``
clears the screen, ``ESC [?1049h`` switches to the alternate screen, ``ESC ]0;...BEL`` sets
the window title, a ``\\r`` or ``\\x08`` draws over what came before.  A rank's last line
could clear the summary it is quoted in.  So:

* ``printable`` is for what safelaunch writes *about* such text (the summary's last lines,
  the diagnosis' quotes, notices and error messages): every escape sequence (CSI, OSC, DCS,
  SOS, PM, APC and the two-character ones) is removed, colours included, and every other
  control character (C0 but the tab, DEL, C1, the bidirectional overrides) is shown in caret
  notation (``^M``, ``^H``, ``^[``) or as ``?``.
* ``live`` is for the ranks' output on the live console: colour and style (SGR, ``ESC [...m``)
  passes, because tqdm, rich and loggers colour their output and users expect to see it; a
  line that set a colour gets a reset at its end, so the colour never bleeds into the next
  rank's line or safelaunch's own.  Everything else is handled as ``printable`` does.

Both are one regular-expression pass, linear in the text (every repeat is fenced by ``ESC``
or the sequence's final byte, see ``tests/diagnose/test_regex_linear.py``).
"""

from __future__ import annotations

import re

# Order matters: a CSI, then a string sequence (OSC/DCS/SOS/PM/APC, up to its BEL or the end
# of the line; its ``ESC \\`` terminator is a two-character escape of its own), then any
# other escape (which also takes a lone ESC), then a lone control character.
_SEQUENCES = (r"\x1b\[[0-?]*[ -/]*[@-~]"
              r"|\x1b[\]PX^_][^\x07\x1b\n]*\x07?"
              r"|\x1b[ -/]*[0-~]?")
ESCAPES = re.compile(_SEQUENCES)
"""Every escape sequence a terminal obeys (colours, cursor moves, titles)."""
_TEXT = re.compile(
    _SEQUENCES + r"|[\x00-\x08\x0a-\x1a\x1c-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_BYTES = re.compile(_SEQUENCES.encode() + rb"|[\x00-\x08\x0b-\x1a\x1c-\x1f\x7f]|\xc2[\x80-\x9f]")
_SGR = re.compile(rb"\x1b\[[0-9;:]*m")
_RESETS = (b"\x1b[0m", b"\x1b[m")
RESET = b"\x1b[0m"


def _caret(char: str) -> str:
    code = ord(char)
    if code < 0x20:
        return "^" + chr(code + 0x40)
    return "^?" if code == 0x7F else "?"


def _text_part(match: re.Match[str]) -> str:
    found = match.group()
    return "" if found[0] == "\x1b" and len(found) > 1 else _caret(found)


def _text_part_lines(match: re.Match[str]) -> str:
    return "\n" if match.group() == "\n" else _text_part(match)


def printable(text: str, keep_newlines: bool = False) -> str:
    """``text`` with escape sequences removed and control characters made visible; a
    newline is kept only with ``keep_newlines`` (else it shows as ``^J``)."""
    if _TEXT.search(text) is None:
        return text
    return _TEXT.sub(_text_part_lines if keep_newlines else _text_part, text)


def _live_part(match: re.Match[bytes]) -> bytes:
    found = match.group()
    if found[:1] != b"\x1b" or len(found) == 1:
        return _caret(found.decode("utf-8")).encode()
    return found if _SGR.fullmatch(found) else b""


def live(data: bytes) -> bytes:
    """Rank output for the live console: whole lines (``\\n`` kept), colours kept and reset
    at the end of the line that set them, every other sequence and control made harmless."""
    if _BYTES.search(data) is None:
        return data
    data = _BYTES.sub(_live_part, data)
    if b"\x1b[" not in data:
        return data
    lines = data.split(b"\n")
    return b"\n".join(line + RESET if b"\x1b[" in line and not line.endswith(_RESETS) else line
                      for line in lines)

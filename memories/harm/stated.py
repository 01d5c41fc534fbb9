"""Passwords and PINs stated in words, in the eight languages the product claims.

A statement is read by its grammar, not by examples: a noun that names a secret someone types
(password, Kennwort, contraseña, mot de passe, senha, пароль, 密码, パスワード, and the Wi-Fi or
network key) or a code that opens something (PIN, Geheimzahl, digicode, código del portal, код
домофона, 门禁密码, 暗証番号, a door's or a safe's code or combination), then at most a short
qualifier ("for the NAS", "fürs Onlinebanking", "от сейфа", "de la box"), then a copula or a
separator ("is", ":", "—", "=", "lautet", "c'est", "é", "是", "は", "changed to"), then the value,
with only a filler word between ("still", "now", "jetzt", "ahora", "le", "теперь", "还是").
A value right after its noun counts too ("senha do wi-fi casa_123", "密码 ZhangJia2023"), but only
when it has the shape of a secret on its own.

What a value must look like: for a password, a quoted phrase, a number of four digits or more, a
token mixing letters with digits or symbols, or (after a copula) a word with a capital inside
("BlueHeron"); for a PIN, three to twelve digits, grouped or not ("7 3 5 0", "12-34-08"), or a
short code that is mostly digits ("A6515"). So talk about secrets stays ordinary: "I forgot my
password", "my password is in 1Password", "the PIN has four digits", "my password is weak".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from memories.harm.gated import Gated

# Kana, ideographs and hangul: a Latin word may touch them ("银行卡PIN是", "WiFiのパスワード").
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"


def words(stems: str, alternatives: str, cjk: str = "") -> Gated:
    """A word from these alternatives, not inside a longer word of letters; or one of the `cjk`
    words, which have no spaces around them. Tried only on texts that hold one of `stems`."""
    bounded = rf"(?<![^\W_{_CJK}])(?:{alternatives})(?![^\W\d_{_CJK}])"
    return Gated(stems, f"(?:{cjk})|{bounded}" if cjk else bounded)


# --- Nouns ------------------------------------------------------------------------------------

# What a network key or a login is for: "wifi password", "WLAN-Schlüssel", "clé WPA".
_NETWORK = r"wi-?fi|wlan|wireless|network|wpa2?|router"
PASSWORD_WORD = words(
    "pass|pw|login|log-in|sign-in|cred|key|wifi|wi-fi|wlan|kennw|zugangsdaten|anmeldedaten|schlüssel|losungswort|"
    "contraseñ|clave|mot de passe|mots de passe|mdp|identifiants|clé|cle|code wi|senha|palavra|"
    "credenciais|chave|парол|ключ|密码|密碼|口令|パスワード|パスコード|合言葉",
    r"(?:(?:master|login|log-in|sign-in|account|admin|root|unlock|encryption|disk|app|email|"
    rf"e-mail|bank(?:ing)?|{_NETWORK})[ -])?(?:passwords?|passwd|pwd|pw|pass ?phrases?|pass ?codes?)|"
    rf"login|log-in|sign-in|credentials|creds|(?:{_NETWORK}|security) keys?|"
    r"\w*passw(?:ort|örter)(?:es|s|n)?|\w*kennw(?:ort|örter)(?:es|s|n)?|zugangsdaten|anmeldedaten|"
    r"login-?daten|"
    rf"\w*(?:{_NETWORK}|netzwerk)-?schlüssel|losungswort|"
    rf"contraseñas?|claves?(?: (?:de acceso|del? (?:{_NETWORK}|red)))?|credenciales|"
    rf"mots? de passe|mdp|identifiants|cl[ée]s? (?:{_NETWORK}|de sécurité(?: réseau)?|réseau)|"
    rf"code (?:{_NETWORK})|"
    rf"senhas?|palavras?[- ]passe|credenciais|chaves? (?:de rede|de acesso|do (?:{_NETWORK})|"
    rf"(?:{_NETWORK}))|"
    r"парол\w*|ключ\w* (?:сети|безопасности|от (?:вайфая|wi-?fi|роутера))|"
    r"wi-?fi|wlan",  # last: "WLAN-Schlüssel" is one noun; a bare label needs a colon
    r"密码|密碼|口令|パスワード|パスコード|合言葉",
)
# What a code or a PIN opens: a door, a safe, a card, a phone.
_OPENS = (
    r"door|front door|back door|gate|garage|alarm|safe|lock|unlock|locker|padlock|bike lock|"
    r"entry|access|building|buzzer|intercom|keypad|key ?safe|lock ?box|security|card|phone|sim|"
    r"screen|parking|apartment|flat|house|office|storage"
)
PIN_WORD = words(
    "pin|pass|code|combin|combo|keypad|safe|lock|box|geheim|kombination|código|codigo|número|"
    "numero|clave|digicode|senha|combinaç|пин|код|шифр|комбинац|暗|密码|pin码|コード|番号|暗証",
    r"pins?(?:[ -]?(?:codes?|numbers?|nummer))?|passcodes?|"
    rf"(?:{_OPENS}) (?:codes?|combinations?|combos?|pins?)|combinations?|combos?|keypad|"
    r"key ?safe|lock ?box|digicode|"
    r"geheimzahl|geheimnummer|(?:zahlen)?kombination|tresornummer|"
    r"\w*(?:tür|tor|zugangs|sicherheits|entsperr|geheim|alarm|tresor|safe|schloss|sperr|handy|"
    r"sim|karten|garagen|schließfach|spind|haus)-?(?:code|pin)|"
    r"c[óo]digos? (?:pin|secreto|de (?:acceso|acesso|desbloqueo|desbloqueio|seguridad|segurança)|"
    r"del? (?:la |el )?(?:puerta|portal|alarma|caja fuerte|candado|garaje|tarjeta|bizum|cajero|"
    r"trastero|buzón|taquilla|móvil|teléfono)|d[oa] (?:portão|porta|garagem|alarme|cartão|cofre|"
    r"cadeado|prédio|interfone|celular))|"
    r"n[úu]mero (?:secreto|pin)|clave (?:de la tarjeta|del cajero|del portal|de la puerta)|"
    r"combinaci[óo]n|"
    r"code (?:pin|secret|confidentiel|d'accès|de déverrouillage|de sécurité|de (?:la |l')?"
    r"(?:porte|carte|immeuble|portail|alarme|cadenas|coffre|garage|boîte|casier|interphone|"
    r"téléphone))|combinaison|"
    r"senha (?:do cartão|numérica|do cofre|do cadeado|do alarme|do portão|de \d d[íi]gitos)|"
    r"combinaç(?:ão|ões)|"
    r"пин(?:-?код)?|код (?:домофона|двери|карты|доступа|сигнализации|разблокировки|подъезда|"
    r"замка|сейфа|от (?:двери|подъезда|сейфа|замка|домофона|калитки|гаража))|"
    r"шифр(?: от (?:сейфа|замка))?|кодов\w* зам(?:о|к)\w*|комбинаци\w*",
    r"暗码|取款密码|支付密码|锁屏密码|解锁密码|门禁密码|开锁密码|保险箱密码|保险柜密码|银行卡密码|"
    r"门锁密码|[Pp][Ii][Nn]码|暗証番号|暗証|[Pp][Ii][Nn]コード|ロック解除コード|解錠番号|"
    r"(?:オートロック|金庫|ダイヤル錠|南京錠|ロッカー|キーボックス|玄関|ドア|鍵)の?(?:番号|コード)",
)
# A bare "code" is a PIN only with something it opens nearby, and never a postcode or a booking.
CODE_WORD = words("code|código|codigo|код|コード", r"code|código|codigo|код", "コード")
_CODE_OF_WHAT = re.compile(
    rf"{_OPENS}|tür|tor|haus|porte|portail|immeuble|carte|porta|portão|garagem|cartão|puerta|"
    r"tarjeta|alarma|bizum|firma|домофон|двер|карт|подъезд|сейф|замок|門|锁|錠|ロック",
    re.I,
)
_NOT_A_CODE = re.compile(
    r"zip|postal|post ?code|area|country|dial|promo|discount|voucher|coupon|gift|qr|bar|source|"
    r"tracking|rastreio|reserva|booking|reservation|confirmation|reference|product|order|error|"
    r"status|colou?r|dress|airport|flight|postleit|город|почтов|邮编|郵便",
    re.I,
)

# --- Between a noun and its value --------------------------------------------------------------

# A copula or a separator (and runs of them: "is:", "ist —").
_SEPARATOR = re.compile(
    r"(?:\s*(?:[:：=＝→]|->|=>|(?<=\s)[-–—](?=\s)|"
    r"\b(?:is|are|was|'s|reads|ist|lautet|heißt|war|es|era|son|est|c'est|était|é|são|это|был[аои]?|"
    r"opens with|changed to|set to|now reads|geändert (?:auf|in|zu)|cambiad[ao] a|changé en|"
    r"mudou para|поменял[аи]? на|сменил[аи]? на|теперь|сейчас)\b|"
    r"是|为|為|は|を|が|改成了?|改为|设为|设成|换成了?)\s*)+",
    re.I,
)
# Words that may stand between a separator and the value.
_FILLER = re.compile(
    r"(?:(?:still|now|just|simply|currently|actually|the|a|jetzt|nun|noch|immer noch|einfach|"
    r"ahora|todavía|ya|el|la|maintenant|toujours|désormais|le|agora|ainda|o|a|теперь|всё ещё|"
    r"все еще|сейчас|просто)\s+|还是|现在|目前|今は|まだ)",
    re.I,
)
# A short qualifier right after a noun, with no copula after it (Russian has none).
_QUALIFIED = re.compile(
    r"\s+(?:от|для|на|к|у|for|of|on|at|für|fürs|vom|von|bei|de|del|do|da|du|des|pour|para|por)"
    r"\s+[^\s,;:：'\"«„“「]+(?:\s+[^\s,;:：'\"«„“「]+)?\s+(?=\S)",
    re.I,
)
# How far after its noun a separator may come: room for a short qualifier only.
_QUALIFIER = 48
# What ends the statement a noun introduces: a sentence's end, a line, a semicolon.
_STATEMENT_END = re.compile(r"[.!?。！？;；](?:\s|$)|\n|[。！？；]")

# --- Values -----------------------------------------------------------------------------------

_QUOTED = re.compile(
    r"'([^'\n]{4,80})'|\"([^\"\n]{4,80})\"|「([^」\n]{4,80})」|“([^”\n]{4,80})”|"
    r"«\s?([^»\n]{4,80}?)\s?»|„([^“\n]{4,80})“"
)
_DIGIT_GROUPS = re.compile(r"\d(?:[ \-.]?\d){2,11}(?![\w])")
# A value ends at a space, punctuation, or where Chinese or Japanese text starts again.
_TOKEN = re.compile(
    r"[^\s,;，、。；：:()\[\]{}<>\"'「」『』“”‘’«»（）\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]+"
)
_PAIR = re.compile(r"\s*/\s*([^\s,;，、。；]+)")
_EMAIL = re.compile(r"^[\w.+\-]+@[\w\-]+\.[\w.\-]+$")
_SYMBOL = re.compile(r"[!@#$%^&*_+=?~|\\/]")
_DIGIT = re.compile(r"\d")
_LETTER = re.compile(r"[^\W\d_]")
_INNER_CAPITAL = re.compile(r"[^\W\d_][A-Z]")
# What a password cannot be: words that continue a sentence about passwords.
PASSWORD_STOP = frozenset(
    [
        "manager",
        "managers",
        "vault",
        "app",
        "apps",
        "policy",
        "policies",
        "reset",
        "hint",
        "hints",
        "strength",
        "generator",
        "rules",
        "again",
        "too",
        "also",
        "please",
        "never",
        "always",
        "every",
        "changed",
        "change",
        "forgot",
        "forget",
        "same",
        "different",
        "long",
        "short",
        "strong",
        "weak",
    ]
)
# What stands for a credential in a redacted text (memories/harm/screen.py); never a value.
WITHHELD = "[withheld]"


def password_like(token: str, *, after_separator: bool = True) -> bool:
    """Whether a token reads as a typed secret: all digits, letters mixed with digits beyond a
    leading brand digit ("1Password" is not one) or with symbols, or, right after a copula, a
    word with a capital inside ("BlueHeron"); never an e-mail address or a word about
    passwords."""
    token = token.rstrip(".,:")
    if len(token) < 4 or len(token) > 64 or token.lower() in PASSWORD_STOP:
        return False
    if _EMAIL.match(token) or token.startswith(("http://", "https://")):
        return False
    if token.isdigit():
        return True
    if not _LETTER.search(token):
        return bool(_SYMBOL.search(token)) and bool(_DIGIT.search(token))
    if _SYMBOL.search(token) or _DIGIT.search(token[1:]):
        return True
    return after_separator and bool(_INNER_CAPITAL.search(token))


def pin_like(token: str, *, after_separator: bool = True) -> bool:
    """3 to 12 digits, grouped or not, or a short code with at least 3 digits, mostly digits; or
    a code that has a password's shape on its own ("code d'accès : Tulpe#2291")."""
    token = token.rstrip(".,:")
    digits = sum(c.isdigit() for c in token)
    if digits >= 3 and len(token) <= 14 and all(c.isdigit() or c in "-. " for c in token):
        return True
    if digits >= 3 and len(token) <= 10 and token.isalnum() and digits >= len(token) - 2:
        return True
    return password_like(token, after_separator=after_separator)


Like = Callable[..., bool]


def _window(text: str, start: int, limit: int) -> int:
    end = min(len(text), start + limit)
    stop = _STATEMENT_END.search(text, start, end)
    return stop.start() if stop else end


def _candidate(text: str, at: int, end: int) -> tuple[int, int, str, bool] | None:
    """The value that starts at `at` (after fillers): a quoted phrase (marked True), a run of
    digit groups, or a token."""
    while (filler := _FILLER.match(text, at, end)) is not None and filler.end() > at:
        at = filler.end()
    quoted = _QUOTED.match(text, at, end)
    if quoted is not None:
        group = next(g for g in range(1, 7) if quoted.group(g) is not None)
        return quoted.start(group), quoted.end(group), quoted.group(group), True
    groups = _DIGIT_GROUPS.match(text, at, end)
    if groups is not None:
        return groups.start(), groups.end(), groups.group(), False
    token = _TOKEN.match(text, at, end)
    if token is None:
        return None
    value = token.group().rstrip(".,:")
    return token.start(), token.start() + len(value), value, False


def _accepted(
    text: str, found: tuple[int, int, str, bool], end: int, like: Like, after_separator: bool
) -> tuple[int, int] | None:
    s, e, token, quoted = found
    if WITHHELD in token or PASSWORD_WORD.regex.fullmatch(token):
        return None  # already redacted; or a label again ('type="password"')
    pair = _PAIR.match(text, e, end)
    if quoted or like(token, after_separator=after_separator):
        if pair and like(pair.group(1), after_separator=True):
            e = pair.end()  # "user / password": both go
        return s, e
    if pair and like(pair.group(1), after_separator=True):
        return pair.start(1), pair.end(1)  # "anna@gmx.de / Gdansk!1979"
    return None


def stated_value(text: str, word_end: int, limit: int, like: Like) -> tuple[int, int] | None:
    """The value a secret's noun ending at `word_end` states, or None: right after the noun when
    it has a secret's shape on its own, else after the first separator within a short
    qualifier that is followed by a value of the right shape."""
    end = _window(text, word_end, limit)
    if text.startswith(WITHHELD, _skip_space(text, word_end, end)):
        return None  # its value was withheld already; what follows is another statement
    direct = _candidate(text, _skip_space(text, word_end, end), end)
    if direct is not None:
        value = _accepted(text, direct, end, like, after_separator=False)
        if value is not None:
            return value
    zone = min(end, word_end + _QUALIFIER)
    qualified = _QUALIFIED.match(text, word_end, zone)
    if qualified is not None:  # "пароль от почты Zenit1925", "password for Netflix Kx9!2mq"
        found = _candidate(text, qualified.end(), end)
        if found is not None:
            value = _accepted(text, found, end, like, after_separator=False)
            if value is not None:
                return value
    at = word_end
    while (sep := _SEPARATOR.search(text, at, zone)) is not None:
        if sep.end() == sep.start():
            at += 1
            continue
        found = _candidate(text, sep.end(), end)
        if found is not None:
            value = _accepted(text, found, end, like, after_separator=True)
            if value is not None:
                return value
        at = sep.end()
    return None


def _skip_space(text: str, at: int, end: int) -> int:
    while at < end and text[at] in " \t\u00a0":
        at += 1
    return at


_PLACED_IN_TIME = re.compile(
    r"(?:\b(?:in|since|on|at|after|before|for|until|by|every|each|vor|seit|im|am|nach|bis|en|"
    r"desde|hace|depuis|em|há|до|после|с|в|за)|年|月)\s*$",
    re.I,
)


def passwords(text: str, present: frozenset[str]) -> Iterator[tuple[int, int]]:
    for word in PASSWORD_WORD.finditer(text, present):
        # "login: anna / Gdansk!1979", "wifi: Zuhause2024!", not "my login expired in 2023"
        labels = {"login", "log-in", "sign-in", "credentials", "creds", "wifi", "wi-fi", "wlan"}
        if word.group().lower() in labels and not re.match(r"\s*[:：=]", text[word.end() :]):
            continue
        value = stated_value(text, word.end(), 80, password_like)
        if value is not None and not _PLACED_IN_TIME.search(text, word.end(), value[0]):
            yield value


def pins(text: str, present: frozenset[str]) -> Iterator[tuple[int, int]]:
    for word in PIN_WORD.finditer(text, present):
        value = stated_value(text, word.end(), 48, pin_like)
        if value is not None and not _PLACED_IN_TIME.search(text, word.end(), value[0]):
            yield value
    for word in CODE_WORD.finditer(text, present):
        around = text[max(0, word.start() - 30) : word.end() + 30]
        if _NOT_A_CODE.search(around) or not _CODE_OF_WHAT.search(around):
            continue
        value = stated_value(text, word.end(), 48, pin_like)
        if value is not None and not _PLACED_IN_TIME.search(text, word.end(), value[0]):
            yield value

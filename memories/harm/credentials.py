"""Credentials and identifiers in a text, as spans: provider keys and tokens, private keys,
connection strings with a password, JWTs, passwords and PINs stated in words (in the eight
languages the product claims), card numbers, IBANs, government identifiers, passport numbers,
recovery codes, wallet seed phrases and two-factor secrets.

Checksums come from maintained libraries: python-stdnum (Luhn, IBAN, and the national
identifiers it knows: the Chinese resident ID, My Number, the Steuer-ID, DNI/NIE, NIR, CPF, INN,
SSN), and the BIP-39 word list of `mnemonic` for seed phrases. detect-secrets was measured and
not used (docs/benchmarks.md, `bench harm`): its plugins are written for source files and found
41 of the 192 credentials of the dev set, all formats the table below holds.

An identifier that carries no checksum, or only a weak one, counts only next to a word that names
it ("passport", "マイナンバー", "ИНН"), and a password or PIN only as a value stated after its word
("my bank password is …"), so talk about credentials ("I forgot my password", "I use 1Password",
"my flight is TP 1331") is not one.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

from stdnum import iban, luhn
from stdnum.br import cpf
from stdnum.cn import ric
from stdnum.de import idnr
from stdnum.es import dni, nie
from stdnum.fr import nir
from stdnum.jp import in_ as my_number
from stdnum.ru import inn
from stdnum.us import ssn

from memories.harm import stated
from memories.harm.gated import Stems
from memories.harm.stated import CODE_WORD as _CODE_WORD
from memories.harm.stated import PASSWORD_WORD as _PASSWORD_WORD
from memories.harm.stated import PIN_WORD as _PIN_WORD
from memories.harm.stated import password_like as _password_like
from memories.harm.stated import words

# What each kind is called in a sentence to the writer or the owner.
KIND_NAMES: dict[str, str] = {
    "api_key": "an API key or access token",
    "private_key": "a private key",
    "connection": "a connection string with a password",
    "password": "a password",
    "pin": "a PIN or access code",
    "card": "a payment card number",
    "iban": "a bank account number (IBAN)",
    "national_id": "a government identity number",
    "passport": "a passport number",
    "recovery": "recovery codes",
    "seed": "a wallet recovery phrase",
    "totp": "a two-factor secret",
}


@dataclass(frozen=True, order=True)
class Found:
    """One credential: where it is in the text and what it is (a key of KIND_NAMES)."""

    start: int
    end: int
    kind: str


_NOT_TOKEN = r"(?<![A-Za-z0-9_\-])"
_END_TOKEN = r"(?![A-Za-z0-9_\-])"

# --- Provider formats ------------------------------------------------------------------------

_PROVIDER_PATTERNS = (
    r"sk-ant-[a-z]{3,6}\d{0,3}-[A-Za-z0-9_\-]{20,}",  # Anthropic
    r"sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_\-]{20,}",  # OpenAI project / service keys
    r"sk-[A-Za-z0-9]{32,}",  # OpenAI (legacy), DeepSeek and others alike
    r"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}",  # Stripe secret and restricted keys
    r"whsec_[A-Za-z0-9]{20,}",  # Stripe webhook secret
    r"(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}",  # AWS key ids
    r"AIza[0-9A-Za-z_\-]{30,}",  # Google API keys
    r"ya29\.[A-Za-z0-9_\-]{30,}",  # Google OAuth access tokens
    r"gh[pousr]_[A-Za-z0-9]{30,}",  # GitHub tokens
    r"github_pat_[A-Za-z0-9_]{40,}",  # GitHub fine-grained tokens
    r"gl(?:pat|dt|rt|ptt|ft|cbt|oas|soat)-[A-Za-z0-9_\-]{20,}",  # GitLab
    r"xox[abposer]-[A-Za-z0-9\-]{10,}",  # Slack tokens
    r"xapp-\d-[A-Za-z0-9\-]{10,}",  # Slack app tokens
    r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_\-]+",
    r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_\-]+",
    r"[MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}",  # Discord bots
    r"(?:AC|SK)[0-9a-f]{32}",  # Twilio account SID and API key
    r"SG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{30,50}",  # SendGrid
    r"hf_[A-Za-z0-9]{30,}",  # Hugging Face
    r"npm_[A-Za-z0-9]{36}",  # npm
    r"pypi-AgE[A-Za-z0-9_\-]{50,}",  # PyPI
    r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}",  # Shopify
    r"do[por]_v1_[a-f0-9]{64}",  # DigitalOcean
    r"\d{8,10}:AA[A-Za-z0-9_\-]{30,}",  # Telegram bots
    r"LTAI[A-Za-z0-9]{12,24}",  # Alibaba Cloud AccessKey ID
    r"AKID[A-Za-z0-9]{30,}",  # Tencent Cloud SecretId
    r"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",  # JWT
    r"(?:pk|sk)\.eyJ[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{10,}",  # Mapbox
    r"xai-[A-Za-z0-9]{40,}",  # xAI
    r"gsk_[A-Za-z0-9]{40,}",  # Groq
    r"r8_[A-Za-z0-9]{30,}",  # Replicate
    r"pplx-[A-Za-z0-9]{40,}",  # Perplexity
    r"dapi[a-f0-9]{32}",  # Databricks
    r"key-[0-9a-f]{32}",  # Mailgun
    r"sq0(?:atp|csp)-[A-Za-z0-9_\-]{22,}",  # Square
    r"dckr_pat_[A-Za-z0-9_\-]{20,}",  # Docker Hub
    r"lin_api_[A-Za-z0-9]{30,}",  # Linear
    r"ntn_[A-Za-z0-9]{40,}",  # Notion
    r"figd_[A-Za-z0-9_\-]{30,}",  # Figma
    r"hvs\.[A-Za-z0-9_\-]{24,}",  # HashiCorp Vault
    r"glsa_[A-Za-z0-9]{32}_[a-f0-9]{8}",  # Grafana service accounts
    r"glc_[A-Za-z0-9+/]{32,}",  # Grafana Cloud
    r"sntrys_[A-Za-z0-9+/=_]{50,}",  # Sentry
    r"AGE-SECRET-KEY-1[0-9A-Z]{58}",  # age
    r"EAA[A-Za-z0-9]{80,}",  # Meta access tokens
    r"otpauth://\S+",  # an authenticator's QR code as text
)
_PROVIDERS = re.compile(_NOT_TOKEN + "(?:" + "|".join(_PROVIDER_PATTERNS) + ")" + _END_TOKEN)
_PRIVATE_KEY = re.compile(
    r"-----BEGIN[A-Z ]*PRIVATE KEY(?: BLOCK)?-----.*?"
    r"(?:-----END[A-Z ]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
    re.S,
)
# user:password@host in any URL (postgres://, redis://, amqp://, https://, …).
_URL_PASSWORD = re.compile(r"\b[a-z][a-z0-9+.\-]{1,20}://[^\s:/@'\"]+:[^\s'\"]+@[^\s'\"]+", re.I)
# Key=value connection strings (Azure, ODBC, ADO.NET).
_CONNECTION_PARTS = re.compile(
    r"(?:\b\w+=[^;\s'\"]*;)*\b(?:AccountKey|SharedAccessKey|SharedAccessSignature|Password|Pwd)"
    r"=[^;\s'\"]{4,}(?:;\w+=[^;\s'\"]*)*;?",
    re.I,
)
# An environment or configuration line: OPENAI_API_KEY=…, "password": "…".
_ASSIGNMENT = re.compile(
    r"\b[A-Za-z_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PWD|PASS|AUTH|CREDENTIALS?)[A-Za-z0-9_]*"
    r"[\"']?\s*(?:=|:(?!//))\s*[\"']?([^\s\"',;]{6,})",
)
_PLACEHOLDER_VALUE = re.compile(r"^(?:\$\{?\w+\}?|<[^>]*>|\*+|x+|\.{3}|changeme|none|null)$", re.I)

# --- Words that name a credential, then its value --------------------------------------------

_NATIONAL_WORDS = (
    r"ssn|social security(?: number| no\.?)?|national insurance(?: number| no\.?)?|ni number|"
    r"nino|tax id|tin|itin|social insurance number|sin|aadhaar(?: number| no\.?)?|"
    r"pan (?:card|number|no\.?)|national id(?:entity)?(?: card)?(?: number| no\.?)?|"
    r"id(?:entity)? (?:card )?(?:number|no\.?)|id no\.?|"
    r"driver'?s?'? licen[cs]e(?: number| no\.?)?|driving licen[cs]e(?: number| no\.?)?|"
    r"licen[cs]e number|medicare(?: number| no\.?)?|tax file number|tfn|nhs number|"
    r"health insurance number|"
    r"steuer-?id|steuer-?identifikationsnummer|steueridentifikationsnummer|idnr|steuernummer|"
    r"personalausweis\w*|ausweisnummer|sozialversicherungsnummer|rentenversicherungsnummer|"
    r"\w*versichertennummer|svnr|sv-nummer|ahv(?:-?(?:nummer|nr\.?))?|führerschein\w*|"
    r"dni|nie|nif|número de la seguridad social|nss|número de afiliación|curp|rfc|cuil|cuit|"
    r"rut|cédula(?: de (?:identidad|ciudadanía))?|número de identificación(?: fiscal)?|"
    r"documento de identidad|carné de conducir|permiso de conducir|licencia de conducir|"
    r"(?:numéro de )?sécu(?:rité sociale)?|nir|carte vitale|numéro fiscal|"
    r"numéro d'identification fiscale|(?:numéro de )?carte d'identité|permis de conduire|"
    r"numéro de permis|numéro d'assurance sociale|nas|(?:numéro de )?registre national|"
    r"cpf|rg|cnh|carteira de (?:motorista|identidade)|carta de condução|cartão de cidadão|"
    r"número de contribuinte|niss|cns|cartão do sus|título de eleitor|pis(?:/pasep)?|"
    r"инн|снилс|водительско\w* удостоверени\w*|полис\w* омс|номер полиса"
)
_NATIONAL_CJK = (
    r"身份证(?:号码|号)?|居民身份证|社保(?:卡)?号|社会保障号|驾驶证号|驾照号|医保卡号|"
    r"マイナンバー|個人番号|(?:運転)?免許証番号|基礎年金番号|年金番号|保険証番号|被保険者番号|"
    r"在留カード番号|住民票コード"
)
_PASSPORT_WORDS = (
    r"passport(?: number| no\.?)?|reisepass\w*|pass-?nr\.?|pasaporte|passeport|passaporte|"
    r"паспорт\w*|загранпаспорт\w*"
)
_PASSPORT_CJK = r"护照(?:号码|号)?|パスポート(?:番号)?|旅券番号"
_RECOVERY_WORDS = (
    r"recovery codes?|backup codes?|recovery phrase|recovery key|"
    r"wiederherstellungscodes?|backup-codes?|"
    r"códigos de (?:recuperación|respaldo|recuperação|backup)|codes de (?:récupération|secours)|"
    r"резервные коды|коды восстановления"
)
_RECOVERY_CJK = r"恢复码|备用码|救援码|リカバリーコード|バックアップコード"
_SECRET_WORDS = (
    r"api[ _-]?keys?|access[ _-]?keys?(?: id| secret)?|secret(?:[ _-]?(?:key|access key))?|"
    r"secrets|tokens?|auth[ _-]?tokens?|bearer|client[ _-]?secret|keys?|sid|"
    r"(?:totp|2fa|otp|mfa|authenticator) (?:secret|key|seed)|"
    r"schlüssel|clave(?: secreta)?|clé|chave|токен\w*|ключ\w*|секрет\w*|secretid|secretkey"
)
_SECRET_CJK = r"密钥|秘钥|令牌|トークン|シークレット|アクセスキー|キー"


_words = words

_NATIONAL_WORD = _words(
    "ssn|social|insurance|ni number|nino|tax|tin|sin|aadhaar|pan |national|id |id no|identit|licen|"
    "medicare|tfn|nhs|steuer|idnr|ausweis|sozialvers|rentenvers|versicherten|svnr|sv-nummer|ahv|"
    "führerschein|dni|nie|nif|seguridad|nss|afiliación|curp|rfc|cuil|cuit|rut|cédula|"
    "identificación|documento|carné|permiso|licencia|sécu|nir|vitale|fiscal|identité|permis|nas|"
    "registre|cpf|rg|cnh|carteira|carta de|cidadão|contribuinte|niss|cns|sus|eleitor|pis|инн|"
    "снилс|удостоверени|омс|полис|身份证|社保|社会保障|驾驶证|驾照|医保|マイナンバー|個人番号|免許|"
    "年金|保険証|被保険者|在留|住民票",
    _NATIONAL_WORDS,
    _NATIONAL_CJK,
)
_PASSPORT_WORD = _words(
    "passport|pass|pasaporte|passeport|passaporte|паспорт|护照|パスポート|旅券",
    _PASSPORT_WORDS,
    _PASSPORT_CJK,
)
_RECOVERY_WORD = _words(
    "recovery|backup|wiederherstellung|códigos|codes|коды|码|コード", _RECOVERY_WORDS, _RECOVERY_CJK
)
_SECRET_WORD = _words(
    "key|secret|token|bearer|sid|schlüssel|clave|clé|chave|токен|ключ|секрет|密钥|秘钥|令牌|"
    "トークン|シークレット|キー",
    _SECRET_WORDS,
    _SECRET_CJK,
)

# What ends the statement a word introduces: a sentence's end, a line, a semicolon.
_STATEMENT_END = re.compile(r"[.!?。！？;；](?:\s|$)|\n|[。！？；]")
_DIGIT = re.compile(r"\d")
_LETTER = re.compile(r"[^\W\d_]")


def _window(text: str, start: int, limit: int) -> int:
    """Where the statement begun at `start` ends, at most `limit` characters on."""
    end = min(len(text), start + limit)
    stop = _STATEMENT_END.search(text, start, end)
    return stop.start() if stop else end


# --- Numbers with checksums ------------------------------------------------------------------

_CARD = re.compile(r"(?<![\d.\-/])[2-6]\d{3}(?:[ \-]?\d){9,15}(?![\d/])")
_NOT_A_CARD = re.compile(
    r"isbn|imei|tracking|order (?:number|no|id|#)|customer (?:number|no|id)|loyalty|serial|"
    r"invoice|account number|member|library|kundennummer|bestellnummer|sendungsnummer|"
    r"numéro (?:client|de commande)|número de (?:pedido|cliente)|rastreio|заказ|лицев|трек|"
    r"订单|快递|单号|注文|追跡",
    re.I,
)
_CVV = re.compile(
    r"(?:\bCVV2?|\bCVC2?|\bCID|security code|cryptogramme(?: visuel)?|prüfnummer|"
    r"kartenprüfnummer|código de seguridad|código de segurança|背面三位数|安全码|"
    r"セキュリティコード|cvv-код|код безопасности)\W{0,3}(\d{3,4})(?!\d)",
    re.I,
)
_IBAN = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{1,4}){3,8}(?![A-Za-z0-9])")
_RIC = re.compile(r"(?<!\d)\d{17}[\dXx](?![\dA-Za-z])")
_DNI = re.compile(r"(?<![A-Za-z0-9])\d{8}-?[A-Z](?![A-Za-z0-9])")
_NIE = re.compile(r"(?<![A-Za-z0-9])[XYZ]-?\d{7}-?[A-Z](?![A-Za-z0-9])")
_NIR = re.compile(r"(?<!\d)[12] ?\d{2} ?\d{2} ?(?:\d{2}|2A|2B) ?\d{3} ?\d{3} ?\d{2}(?!\d)")
_CPF = re.compile(r"(?<!\d)\d{3}\.\d{3}\.\d{3}-\d{2}(?!\d)")
_SSN = re.compile(r"(?<![\d\-])\d{3}-\d{2}-\d{4}(?![\d\-])")
_SNILS = re.compile(r"(?<!\d)\d{3}-\d{3}-\d{3}[ \-]\d{2}(?!\d)")
_NINO = re.compile(
    r"(?<![A-Za-z0-9])(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]"
    r" ?\d{2} ?\d{2} ?\d{2} ?[A-D](?![A-Za-z0-9])"
)
# A number with separators after a word that names an identifier.
_NUMBER_VALUE = re.compile(r"[A-Z0-9][A-Z0-9 .\-/]{4,22}[A-Z0-9]")


def _digits(value: str) -> str:
    return "".join(c for c in value if c.isalnum())


def _snils_valid(value: str) -> bool:
    number = _digits(value)
    total = sum(int(d) * (9 - i) for i, d in enumerate(number[:9]))
    check = total % 101 % 100
    return number[9:] == f"{check:02d}"


# Checked against the keyword-free formats; the keyword-bound ones are checked in `_national`.
_FORMATS: tuple[tuple[re.Pattern[str], Callable[[str], bool]], ...] = (
    (_RIC, ric.is_valid),
    (_DNI, dni.is_valid),
    (_NIE, nie.is_valid),
    (_NIR, lambda v: nir.is_valid(_digits(v))),
    (_CPF, cpf.is_valid),
    (_SSN, ssn.is_valid),
    (_SNILS, _snils_valid),
    (_NINO, lambda v: True),
)
# Identifiers with a weak or no checksum: valid only next to their word.
_KEYWORD_CHECKS: tuple[Callable[[str], bool], ...] = (
    my_number.is_valid,
    idnr.is_valid,
    inn.is_valid,
    cpf.is_valid,
    ssn.is_valid,
)


def _luhn_card(number: str) -> bool:
    return 13 <= len(number) <= 19 and luhn.is_valid(number)


def _cards(text: str, present: frozenset[str]) -> Iterator[Found]:
    for match in _CARD.finditer(text):
        number = _digits(match.group())
        if not _luhn_card(number):
            continue
        before = text[max(0, match.start() - 40) : match.start()]
        if _NOT_A_CARD.search(before):
            continue
        yield Found(match.start(), match.end(), "card")
    for match in _CVV.finditer(text):
        yield Found(match.start(1), match.end(1), "card")


def _ibans(text: str, present: frozenset[str]) -> Iterator[Found]:
    for match in _IBAN.finditer(text):
        value = match.group()
        # The pattern may run into the next word: try shorter until a valid one is left.
        while len(_digits(value)) >= 15:
            if iban.is_valid(value):
                yield Found(match.start(), match.start() + len(value), "iban")
                break
            cut = value.rstrip().rfind(" ")
            value = value[:cut] if cut > 0 else value[:-1]


def _national(text: str, present: frozenset[str]) -> Iterator[Found]:
    for pattern, valid in _FORMATS:
        for match in pattern.finditer(text):
            if valid(match.group()):
                yield Found(match.start(), match.end(), "national_id")
    for word in _NATIONAL_WORD.finditer(text, present):
        end = _window(text, word.end(), 48)
        value = _NUMBER_VALUE.search(text, word.end(), end)
        if value is None:
            continue
        digits = _digits(value.group())
        count = sum(c.isdigit() for c in digits)
        if count < 4 or (count < 6 and len(digits) < 8):
            continue
        if any(check(digits) for check in _KEYWORD_CHECKS) or len(digits) >= 8:
            yield Found(value.start(), value.end(), "national_id")


def _passports(text: str, present: frozenset[str]) -> Iterator[Found]:
    for word in _PASSPORT_WORD.finditer(text, present):
        end = _window(text, word.end(), 48)
        for value in _NUMBER_VALUE.finditer(text, word.end(), end):
            token = value.group()
            digits = sum(c.isdigit() for c in token)
            compact = _digits(token)
            if digits >= 5 and 6 <= len(compact) <= 12 and not _looks_like_date(token):
                yield Found(value.start(), value.end(), "passport")
                break


def _looks_like_date(token: str) -> bool:
    return bool(re.fullmatch(r"\d{1,4}[./\-]\d{1,2}(?:[./\-]\d{1,4})?|\d{4}", token.strip()))


# --- Words and the values they introduce ---------------------------------------------------


def _passwords(text: str, present: frozenset[str]) -> Iterator[Found]:
    for start, end in stated.passwords(text, present):
        yield Found(start, end, "password")


def _pins(text: str, present: frozenset[str]) -> Iterator[Found]:
    for start, end in stated.pins(text, present):
        yield Found(start, end, "pin")


_CODE_TOKEN = re.compile(r"[A-Za-z0-9]{4,12}(?:-[A-Za-z0-9]{4,12})?")


def _recovery(text: str, present: frozenset[str]) -> Iterator[Found]:
    for word in _RECOVERY_WORD.finditer(text, present):
        codes = list(_code_run(text, word.end()))
        if len(codes) >= 3 and sum(bool(_DIGIT.search(c.group())) for c in codes) * 2 >= len(codes):
            yield Found(codes[0].start(), codes[-1].end(), "recovery")


def _code_run(text: str, start: int) -> Iterator[re.Match[str]]:
    """The run of codes after a word: from the first code within 80 characters, codes separated
    by spaces, commas and line breaks."""
    limit = min(len(text), start + 80)
    first = next(
        (m for m in _CODE_TOKEN.finditer(text, start, limit) if _DIGIT.search(m.group())), None
    )
    if first is None:
        return
    # Codes of the run start where the run does: a label's words before it are not codes.
    at = first.start()
    while (code := _CODE_TOKEN.match(text, at)) is not None:
        if code.end() < len(text) and text[code.end()].isalnum():
            return
        yield code
        gap = re.match(r"[ \t]*[,;]?[ \t]*\n?[ \t]*", text[code.end() :])
        at = code.end() + (gap.end() if gap else 0)
        if at == code.end():
            return


@cache
def _bip39() -> frozenset[str]:
    from mnemonic import Mnemonic

    return frozenset(Mnemonic("english").wordlist)


_LOWER_WORD = re.compile(r"[a-z]{3,8}")


def _seeds(text: str, present: frozenset[str]) -> Iterator[Found]:
    """Twelve or more words of the BIP-39 list in a row: a wallet's recovery phrase."""
    words = _bip39()
    if sum(w.rstrip(".,;") in words for w in text.lower().split()) < 12:
        return
    run: list[re.Match[str]] = []
    for match in re.finditer(r"\S+", text):
        token = match.group()
        if _LOWER_WORD.fullmatch(token.rstrip(".,;")) and token.rstrip(".,;") in words:
            run.append(match)
            continue
        if len(run) >= 12:
            yield Found(run[0].start(), run[-1].end(), "seed")
        run = []
    if len(run) >= 12:
        yield Found(run[0].start(), run[-1].end(), "seed")


_SECRET_VALUE = re.compile(r"[A-Za-z0-9_\-+/=.]{16,}")


def _entropy(token: str) -> float:
    counts = Counter(token)
    return -sum(n / len(token) * math.log2(n / len(token)) for n in counts.values())


def _random_like(token: str) -> bool:
    """A long token of letters and digits with the spread of a random string."""
    token = token.rstrip(".")
    if len(token) < 16 or not _DIGIT.search(token) or not _LETTER.search(token):
        return False
    return _entropy(token) >= 3.3


def _secrets_after_words(text: str, present: frozenset[str]) -> Iterator[Found]:
    for word in _SECRET_WORD.finditer(text, present):
        end = _window(text, word.end(), 60)
        for value in _SECRET_VALUE.finditer(text, word.end(), end):
            if _random_like(value.group()):
                yield Found(
                    value.start(), value.start() + len(value.group().rstrip(".")), "api_key"
                )
                break


def _companions(text: str, found: list[Found]) -> Iterator[Found]:
    """The secret that goes with a key id: a random-looking token shortly after it ("AKIA… /
    wJalr…", "SID AC… token 2cb2…")."""
    for f in found:
        if f.kind != "api_key":
            continue
        for value in _SECRET_VALUE.finditer(text, f.end, min(len(text), f.end + 100)):
            if _random_like(value.group()):
                yield Found(
                    value.start(), value.start() + len(value.group().rstrip(".")), "api_key"
                )
                break


def _assignments(text: str, present: frozenset[str]) -> Iterator[Found]:
    for match in _ASSIGNMENT.finditer(text):
        value = match.group(1)
        if _PLACEHOLDER_VALUE.match(value):
            continue
        kind = "password" if re.search(r"PASS|PWD", match.group(), re.I) else "api_key"
        if not _random_like(value) and not _password_like(value):
            continue  # "POSTGRES_PASSWORD: example", a placeholder
        yield Found(match.start(1), match.end(1), kind)


def _urls_with_passwords(text: str, present: frozenset[str]) -> Iterator[Found]:
    for match in _URL_PASSWORD.finditer(text):
        yield Found(match.start(), match.end(), "connection")
    for match in _CONNECTION_PARTS.finditer(text):
        yield Found(match.start(), match.end(), "connection")


# The cheap test every text passes first: a text without a digit, a key-like prefix or a word
# the rules look for has no credential (most memories).
_MAYBE = re.compile(
    r"\d|-----BEGIN|://|=|"
    r"(?:sk|rk|gh[pousr]|github|gl[a-z]{1,3}|xox|xapp|hf|npm|pypi|shp|do[por]|SG|AKIA|ASIA|AIza|"
    r"LTAI|AKID|eyJ|whsec|ya29|xai|gsk|r8|pplx|dapi|key|sq0|dckr|lin|ntn|figd|hvs|sntrys|AGE|EAA)"
    r"[_\-.]",
)


_ACCOUNT_WORDS = _words(
    "user|usuario|utilisateur|benutzer|логин|ssid|conn|creds|iban|card|mail|почта|correo|"
    "courriel|账号|帐号|ユーザー",
    r"user ?name|username|usuario|utilisateur|benutzername|логин|ssid|connection string|"
    r"e-?mail|почта|correo|courriel|"
    r"conn(?:ection)? string|creds|iban|card number|credit card|debit card",
    r"账号|帐号|ユーザー名",
)


_GATES = (
    _PASSWORD_WORD,
    _PIN_WORD,
    _CODE_WORD,
    _SECRET_WORD,
    _PASSPORT_WORD,
    _NATIONAL_WORD,
    _RECOVERY_WORD,
    _ACCOUNT_WORDS,
)
_STEMS = Stems(stem for gate in _GATES for stem in gate.stems)


def names_a_credential(text: str) -> bool:
    """Whether `text` names a credential or an account ("my ssh key for the nas", "GMX login"):
    a clause left beside a removed credential that only says what it was."""
    present = _STEMS.present(text.lower())
    return any(
        gate.search(text, present)
        for gate in (
            _PASSWORD_WORD,
            _PIN_WORD,
            _SECRET_WORD,
            _PASSPORT_WORD,
            _NATIONAL_WORD,
            _RECOVERY_WORD,
            _ACCOUNT_WORDS,
        )
    )


def find_credentials(text: str) -> list[Found]:
    """Every credential in `text`, in order, overlapping spans merged (the first one's kind).
    Each family of rules runs only when the text could hold one (digits enough for a card, a
    key-like prefix, one of its words): most memories pass through a few cheap tests."""
    present = _STEMS.present(text.lower())
    digits = sum(map(str.isdigit, text))
    keyish = digits > 0 or _MAYBE.search(text) is not None
    found: list[Found] = []
    if "-----BEGIN" in text:
        found += [Found(m.start(), m.end(), "private_key") for m in _PRIVATE_KEY.finditer(text)]
    if keyish:
        found += [Found(m.start(), m.end(), "api_key") for m in _PROVIDERS.finditer(text)]
        found += list(_companions(text, found))
        found += _urls_with_passwords(text, present)
        found += _assignments(text, present)
    if digits >= 12:
        found += _cards(text, present)
        found += _ibans(text, present)
    if digits >= 4:
        found += _national(text, present)
        found += _passports(text, present)
    if digits >= 3:
        found += _recovery(text, present)
    found += _pins(text, present)  # a code may be a password ("code d'accès : Kx!pw")
    if text.count(" ") >= 11:
        found += _seeds(text, present)
    found += _passwords(text, present)
    found += _secrets_after_words(text, present)
    return _merged(found)


def _merged(found: list[Found]) -> list[Found]:
    out: list[Found] = []
    for f in sorted(found):
        if f.end <= f.start:
            continue
        if out and f.start < out[-1].end:
            last = out[-1]
            out[-1] = Found(last.start, max(last.end, f.end), last.kind)
        else:
            out.append(f)
    return out

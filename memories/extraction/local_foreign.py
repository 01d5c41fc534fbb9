"""The local extractor on messages that are not English: the self-statements they make, kept as
written (the embedding model is English-first, so nothing here is scored).

A message is cleared of code blocks and quoted text (a letter to polish is not its writer
speaking), then read sentence by sentence. A sentence that reads as a self-statement in one of
the languages listed here (a first-person word, no request, question, state of the moment or
hypothetical) is kept whole. Otherwise its comma- and dash-parts are read: "Je suis diabétique de
type 1, est-ce que je peux courir le marathon ?" keeps "Je suis diabétique de type 1", "Schreib
mir ein Rezept ohne Koriander, ich mag ihn nicht" keeps "ich mag ihn nicht"; consecutive parts
that ask nothing stay together, kept when one of them speaks of the writer.

Written from bench/data/extraction_multilingual.txt's and extraction_fresh.txt's dev parts,
tests/memories/data/extraction_recall.txt (issue 38, item 3) and the dev parts of the later sets
there (voices, threads, asides, ml2), each written before the rules read from it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memories.extraction.local_rules import CODE_FENCE, drop_code, is_roleplay


@dataclass(frozen=True)
class Language:
    code: str
    self_statement: re.Pattern[str]  # the writer speaks of themselves
    request: re.Pattern[str]  # a request or question without its mark
    temporary: re.Pattern[str]  # a state of the moment
    hypothetical: re.Pattern[str]  # "if I were", "imagine", "my boss says"
    roleplay: re.Pattern[str]  # "play a rude waiter": the whole message is a game
    # A first person said by the verb alone, where the language drops the pronoun ("Trabajo en
    # una farmacia", "Работаю программистом", "Wohne in einem Dorf", "一直对花生过敏"): the
    # verb's person ending, or a predicate opening a clause that has no subject.
    pro_drop: re.Pattern[str] | None = None
    # The writer's colleague, neighbour or boss as a clause's subject: their doings, not the
    # writer's ("Ma voisine fait du yoga", "我同事每天喝五杯咖啡").
    someone_else: re.Pattern[str] | None = None


def _words(*alternatives: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w'’])(?:" + "|".join(alternatives) + r")(?![\w'’])", re.I)


def _chars(*alternatives: str) -> re.Pattern[str]:
    return re.compile("|".join(alternatives))


# Where a clause opens: the text's start, after a sentence or comma mark, or after "and"/"but".
_OPENS = r"(?:^|[.!?¡¿,;:\n\u2013\u2014]\s*|\s(?:y|e|pero|mas|und|aber|doch|и|а|но)\s+)"


def _opening(
    verb: str, *, before: str = "", stop: tuple[str, ...] = (), not_then: str = ""
) -> re.Pattern[str]:
    """`verb` (a word pattern) opening a clause, after words matching `before` (adverbs, "no"),
    and not one of the words in `stop` (function words and nouns that share its ending, and
    verbs of the moment: "Quiero saber…", "Не знаю, как…" say nothing lasting), nor followed
    by a word matching `not_then` (what follows a noun, not a verb: "Dinero no hay")."""
    avoid = rf"(?!(?:{'|'.join(stop)})(?![\w'’]))" if stop else ""
    then = rf"(?!\s+(?:{not_then})(?![\w'’]))" if not_then else ""
    return re.compile(rf"{_OPENS}(?:(?:{before})\s+)*{avoid}{verb}(?![\w'’]){then}", re.I | re.M)


# Verbs of thinking, wanting, asking and looking: in the first person they speak of the moment
# ("Creo que…", "Quero saber…", "Verstehe nicht…", "Надеюсь, что…"), not of the writer.
_ES_PT_MOMENT = (
    "quiero|necesito|creo|pienso|entiendo|supongo|veo|noto|digo|pregunto|espero|intento|busco|"
    "agradezco|recuerdo|olvido|quero|preciso|acho|penso|entendo|suponho|vejo|digo|pergunto|"
    "tento|procuro|agradeço|lembro|esqueço"
)
# Words ending like a first person singular that open a clause as something else.
_ES_PT_NOT_VERBS = (
    "como|cómo|todo|toda|esto|eso|isso|isto|aquilo|aquello|pero|cuando|cuándo|quando|cuanto|"
    "cuánto|quanto|donde|dónde|onde|tampoco|também|mucho|muito|poco|pouco|claro|primero|"
    "primeiro|segundo|luego|bueno|lo|o|no|não|yo|mismo|mesmo|otro|outro|algo|ello|solo|sólo|"
    "medio|nuevo|novo|ojo|hola|olá|adiós|pelo|sino|tanto|tão|ao|do|no|nosotros|vosotros|"
    "estos|esos|esto|este|obrigado|obrigada|tipo|exemplo|ejemplo|caso|aviso|"
    # adverbs and prepositions: "Em Curitiba, perto do centro"
    "perto|dentro|junto|debajo|abajo|pronto|rápido|despacio|bajo|encima|acerca|centro|lado|"
    "medio|meio|largo|demasiado|menos|tanto|cuanto|quanto|mucho|muito|pouco|poco|así|assim"
)
# Not a first person: adjectives and participles ("cariñoso", "cansado", "aburrido"), and an
# order with its object attached ("desarróllalo", "explícamelo").
_ES_PT_VERB = r"(?!\w+(?:os|ad|id|ic|iv|ísim)o(?![\w'’])|\w*[áéíóú]\w*(?:lo|la|los|las)(?![\w'’]))"
# After a noun, not after a first-person verb: its own verb ("Dinero no hay"), or "of the"
# ("Resumo do capítulo 3").
_ES_PT_AFTER_A_NOUN = (
    "no|não|es|está|son|fue|era|hay|há|é|foi|tem|tiene|do|da|dos|das|del|pelo|pela"
)
_ES_PT_ADVERBS = (
    "no|não|ya|já|también|também|siempre|sempre|nunca|solo|só|sólo|aún|todavía|ainda|casi|"
    "quase|actualmente|atualmente|normalmente"
)


LANGUAGES: tuple[Language, ...] = (
    Language(
        "es",
        _words(
            "soy",
            "estoy",
            "tengo",
            "vivo",
            "trabajo",
            "me llamo",
            "mi",
            "mis",
            "nací",
            "estudio",
            "hablo",
            "yo",
            "adoro",
            "odio",
            "prefiero",
            r"me (?:encanta|encantan|gusta|gustan|mudé|casé|jubilé|dedico|operaron|"
            r"diagnosticaron)",
            r"no (?:como|bebo|tomo|fumo|soporto)",
            "juego",
            "toco",
            "uso",
            "llevo",
            "sufro",
            "padezco",
            "tomo",
            "corro",
            "practico",
            "tenemos",
            "vivimos",
            "adoptamos",
            "nuestro",
            "nuestra",
            "nuestros",
            "nuestras",
            r"nos (?:mudamos|casamos)",
            # a first person singular preterite: "me mudé", "terminé la carrera"
            r"(?!(?:josé|bebé|café|puré|comité|canapé|consomé)\b)\w{3,}é",
            # a first person perfect: "me he sacado el carnet", "hemos comprado una casa"
            r"(?:me |nos |lo |la |le |ya )?(?:he|hemos) (?:\w+ )?\w+(?:ado|ido|to|cho|sto)",
        ),
        _words(
            "puedes",
            # an accented interrogative asks, with or without its marks
            "qué|cuál|cuáles|cómo|dónde|cuándo|quién|quiénes|cuánto|cuánta|cuántos|cuántas",
            "podrías",
            "podrias",
            "por favor",
            "escribe",
            "escríbeme",
            "escribeme",
            "dime",
            "haz",
            "hazme",
            "explica",
            "explícame",
            "ayúdame",
            "ayudame",
            "necesito que",
            "quiero que",
            "dame",
            "recomiéndame",
            "recomienda",
            "recomiendas",
            "sugiéreme",
            "corrige",
            "corrígeme",
            "resume",
            "resúmeme",
            "traduce",
            "me haces",
            "me das",
            "me ayudas",
            r"(?:el|la|del) (?:primer[oa]?|segund[oa]|tercer[oa]?|última|último)",
        ),
        _words(
            "hoy",
            "ahora mismo",
            "en este momento",
            # "now" with where the writer is at the moment ("Ahora estoy en el tren")
            r"ahora (?:estoy|voy) (?:en|por)",
            "ayer",
            "mañana",
            "esta noche",
            "esta mañana",
            "este fin de semana",
            r"cansad[oa]",
            r"atascad[oa]",
            # the body's or the mood's state, with no time word ("Tengo hambre")
            "hambre",
            r"tengo (?:much[oa] |tanta |tanto )?(?:sed|sueño)",
            r"aburrid[oa]",
        ),
        _words(
            r"si (?:yo )?\w+(?:ara|iera|ase|iese)",
            "imagina",
            "supongamos",
            r"(?:dice|dijo|cree|opina) que",
        ),
        _words(r"act[úu]a como", "finge", r"haz de", r"eres (?:un|una) [^.?!]{0,60}?\by yo"),
        # "Trabajo en…", "Juego al pádel", "Estudio enfermería"; "Acabamos de adoptar…"
        pro_drop=_opening(
            _ES_PT_VERB + r"\w{2,}(?:o|oy|amos|emos|imos)",
            before=_ES_PT_ADVERBS,
            stop=(_ES_PT_MOMENT, _ES_PT_NOT_VERBS, "vamos|hemos|somos|podemos|tenemos que"),
            not_then=_ES_PT_AFTER_A_NOUN,
        ),
        someone_else=_opening(
            r"(?:mi|mis) (?:vecin[oa]s?|compañer[oa]s? de (?:trabajo|piso|clase)|jef[ea]s?|"
            r"colegas?)"
        ),
    ),
    Language(
        "fr",
        _words(
            "je",
            r"j['’]\w+",
            "moi",
            "mon",
            "ma",
            "mes",
            "nous",
            "notre",
            "nos",
            r"on (?:vient|a|habite|vit)",
        ),
        _words(
            "peux-tu",
            "pouvez-vous",
            "pourrais-tu",
            "pourriez-vous",
            "tu peux",
            "vous pouvez",
            "s'il te plaît",
            "s'il vous plaît",
            "stp",
            "svp",
            "écris",
            "écris-moi",
            "fais-moi",
            "explique",
            "explique-moi",
            "donne-moi",
            "aide-moi",
            "conseille-moi",
            "propose-moi",
            "recommande-moi",
            "corrige",
            "traduis",
            "je voudrais que",
            "j'aimerais que",
            "je me demande",
            "est-ce que",
            r"\w+-moi",
            r"(?:le|la) (?:premier|première|deuxième|second|seconde|dernier|dernière)",
        ),
        _words(
            "aujourd'hui",
            r"maintenant je suis (?:dans|au|à la|en route)",
            "hier",
            "demain",
            "ce soir",
            "ce matin",
            "cette semaine",
            "ce week-end",
            "en ce moment",
            "en retard",
            r"coincée?",
            r"fatiguée?",
            "ça m'énerve",
            "faim",
            "soif",
            r"j['’]ai sommeil",
            r"crevée?",
            r"épuisée?",
            r"je m['’]ennuie",
        ),
        _words(
            r"si (?:j['’]|je |nous |on )(?:\w+ )?\w+(?:ais|ait|ions)",
            "imagine",
            "imaginons",
            "supposons",
            r"(?:dit|pense|trouve|croit) que",
        ),
        _words(
            r"joue (?:un|une|le|la)",
            "fais comme si",
            r"tu es (?:un|une) [^.?!]{0,60}?\bet (?:moi|je)",
        ),
        # French keeps its pronoun; a sentence may open on what the writer is: "Étant
        # végétarien, qu'est-ce que je peux commander ?"
        pro_drop=_opening(r"(?:étant|en tant qu['’]?e?)\s+\w+"),
        someone_else=_opening(
            r"(?:ma|mon|mes) (?:voisine?s?|collègues?|chef(?:fe)?s?|patron(?:ne)?s?|boss)"
        ),
    ),
    Language(
        "de",
        _words(
            "ich",
            "wir",
            "mein",
            "meine",
            "meinen",
            "meinem",
            "meiner",
            "meines",
            "unser",
            "unsere",
            "unseren",
            "unserem",
            "unserer",
            "hab",
            "habe",
        ),
        _words(
            "kannst du",
            r"(?:wie|was|wo|wann|warum|wieso|weshalb|welche[rsnm]?|wer|woher|wohin)\s+\w+\s+"
            r"(?:ich|du|man|wir|es|sie)",
            "können sie",
            "könntest du",
            "könnten sie",
            "bitte",
            "schreib",
            "schreibe",
            "erkläre",
            "erklär",
            "gib mir",
            "hilf mir",
            "mach",
            "übersetze",
            "empfiehl",
            "korrigiere",
            "korrigier",
            r"(?:der|die|das) (?:erste|zweite|dritte|letzte)",
        ),
        _words(
            "heute",
            "jetzt gerade",
            r"jetzt bin ich (?:im|in der|am|auf dem|unterwegs)",
            "im moment",
            "gestern",
            "morgen",
            "heute abend",
            "diese woche",
            "schon wieder",
            "müde",
            "genervt",
            "hunger",
            "durst",
            "langweilig",
        ),
        _words(
            r"(?:wenn|falls) (?:ich|wir) [^.?!]*(?:würden?|wären?|hätten?|könnten?)",
            "wäre ich",
            "stell dir vor",
            "angenommen",
            "meint",
            "sagt",
            "behauptet",
        ),
        _words(
            r"spiel(?:e)? (?:einen|eine|den|die)",
            "du bist jetzt",
            "tu so, als",
            r"stell dir vor,? (?:du bist|dass du)",
        ),
        # A sentence opening on a verb in the first person without "ich": "Arbeite seit drei
        # Jahren als…", "Wohne in einem Dorf…", "Bin seit 2019 in Rente" (not a question, not
        # an instruction, not a noun or a word that opens a sentence as something else).
        pro_drop=re.compile(
            r"(?:^|[.!?:;\n]\s*)(?!(?:Bitte|Danke|Meine|Deine|Seine|Ihre|Eure|Unsere|Diese|"
            r"Jene|Jede|Keine|Eine|Alle|Beide|Heute|Gerade|Gerne|Leider|Frage|Hilfe|Idee|Ende|Grüße|"
            r"Liebe|Ganze|Schade|Gute|Große|Kleine|Neue|Alte|Sie|Die|Ohne|Seite|Woche|Schule|"
            r"Stelle|Sache|Firma|Aufgabe|Klasse|Gruppe|Sorge|Antwort|Erkläre|Erstelle|Schreibe|"
            r"Korrigiere|Übersetze|Fasse|Nenne|Beschreibe|Vergleiche|Analysiere|Formuliere|"
            r"Prüfe|Überprüfe|Liste|Finde|Gebe|Sage|Mache|Zeige|Berechne|Optimiere|Verbessere|"
            r"Ergänze|Empfehle|Verstehe|Glaube|Denke|Hoffe|Brauche|Suche|Möchte|Versuche|"
            r"Überlege|Frage|Wäre|Würde|Hätte|Könnte|Sollte|Müsste|Habe ich|Bin ich)\b)"
            r"(?:[A-ZÄÖÜ][a-zäöüß]{2,}e|Bin|Hab)\s+(?!(?:ich|du|er|sie|es|wir|ihr|man|mir|"
            r"mich|dir|dich|uns|euch|bitte)\b)\w",
            re.M,
        ),
        someone_else=_opening(
            r"(?:mein|meine) (?:Nachbar(?:in)?|Kolleg(?:e|in)|Chef(?:in)?|Arbeitskolleg(?:e|in))"
        ),
    ),
    Language(
        "it",
        _words(
            "sono",
            "ho",
            "vivo",
            "abito",
            "lavoro",
            "mi chiamo",
            "mio",
            "mia",
            "miei",
            "mie",
            "parlo",
        ),
        _words(
            "puoi",
            "potresti",
            "per favore",
            "scrivi",
            "scrivimi",
            "spiega",
            "spiegami",
            "dammi",
            "aiutami",
            "consigliami",
            "traduci",
            "mi puoi",
        ),
        _words("oggi", "in questo momento", "ieri", "domani", "stasera"),
        _words(r"se (?:io )?fossi", "immagina"),
        _words(r"fai finta", r"interpreta (?:un|una|il|la)"),
    ),
    Language(
        "pt",
        _words(
            "sou",
            "estou",
            "tenho",
            "moro",
            "trabalho",
            "me chamo",
            "meu",
            "minha",
            "meus",
            "minhas",
            "falo",
            "eu",
            "adoro",
            "odeio",
            "prefiro",
            "gosto",
            r"não (?:como|bebo|fumo|suporto)",
            "nosso",
            "nossa",
            "temos",
            "moramos",
            "uso",
            "jogo",
            "toco",
            "nasci",
            "estudo",
            "faturo",
            "ganho",
            "corro",
            # a first person singular preterite: "comecei", "passei no concurso"
            r"\w{3,}ei",
        ),
        _words(
            "você pode",
            "voce pode",
            "pode me",
            "podes",
            "poderia",
            "por favor",
            "escreva",
            "explique",
            "me ajude",
            "me ajuda",
            "traduza",
            "me dê",
            "me recomenda",
            "recomende",
            "me indica",
            "corrija",
            "quero que",
            "preciso que",
            r"(?:o|a|d[oa]) (?:primeir[oa]|segund[oa]|terceir[oa]|últim[oa])",
        ),
        _words(
            "hoje",
            "agora mesmo",
            r"agora (?:estou|tô|to) (?:no|na|em)",
            "neste momento",
            "ontem",
            "amanhã",
            "esta noite",
            "esta semana",
            r"cansad[oa]",
            "fome",
            r"(?:com|de) sede",
            r"com sono",
            r"entediad[oa]",
        ),
        _words(
            r"se (?:eu )?\w+(?:asse|esse|isse)", "imagine", "suponha", r"(?:diz|disse|acha) que"
        ),
        _words("finja", "finge que", r"faça o papel", r"você é (?:um|uma) [^.?!]{0,60}?\be eu"),
        # "Trabalho como motorista…", "Estudo engenharia", "Faço estágio"
        pro_drop=_opening(
            _ES_PT_VERB + r"\w{2,}(?:o|ço|amos|emos|imos)",
            before=_ES_PT_ADVERBS,
            stop=(_ES_PT_MOMENT, _ES_PT_NOT_VERBS, "vou|vamos|somos|podemos|temos que"),
            not_then=_ES_PT_AFTER_A_NOUN,
        ),
        someone_else=_opening(
            r"(?:o |a )?(?:meu|minha|meus|minhas) (?:vizinh[oa]s?|colegas?(?: de trabalho)?|"
            r"chefes?)"
        ),
    ),
    Language(
        "nl",
        _words(
            "ik ben",
            "ik heb",
            "ik woon",
            "ik werk",
            "ik heet",
            "mijn",
            "wij hebben",
            "we hebben",
        ),
        _words(
            "kun je",
            "kunt u",
            "kan je",
            "alsjeblieft",
            "alstublieft",
            "schrijf",
            "leg uit",
            "help me",
            "geef me",
            "vertaal",
        ),
        _words("vandaag", "op dit moment", "gisteren", "morgen", "vanavond"),
        _words(r"als ik \w+ was", "stel je voor"),
        _words(r"speel (?:een|de)", "doe alsof"),
    ),
    Language(
        "ru",
        _words(
            "я",
            "меня зовут",
            "мой",
            "моя",
            "моё",
            "мое",
            "мои",
            "моего",
            "моей",
            "моих",
            # "Мою дочку зовут…", "моему сыну", "с моим мужем", "нашу собаку"
            "мою",
            "моему",
            "моим",
            "моими",
            "моём",
            "моем",
            "нашу",
            "нашего",
            "нашей",
            "нашим",
            "нашем",
            "наших",
            r"мне \d+",
            "у меня",
            "у нас",
            "мы",
            "наш",
            "наша",
            "наши",
            "живу",
            "работаю",
            "люблю",
            "обожаю",
            "предпочитаю",
            "ненавижу",
            r"терпеть (?:\w+ )?не могу",
            r"не (?:выношу|переношу)",
            # a family member's condition said without "my": "У дочки дислексия"
            r"у (?:дочки|дочери|сына|мамы|матери|папы|отца|жены|мужа|брата|сестры|бабушки|"
            r"дедушки|ребёнка|ребенка|детей)",
        ),
        _words(
            "пожалуйста",
            r"нужн[аоы]|нужен",
            "напиши",
            "напишите",
            "объясни",
            "объясните",
            "можешь",
            "можете",
            "помоги",
            "помогите",
            "переведи",
            "дай",
            "расскажи",
            "посоветуй",
            "посоветуйте",
            "подскажи",
            "подскажите",
            "порекомендуй",
            "исправь",
            "сделай",
            r"(?:первый|второй|третий|последний) вариант",
        ),
        _words(
            "сегодня",
            "прямо сейчас",
            "в данный момент",
            r"сейчас (?:я )?(?:еду|сижу|стою|иду|нахожусь)",
            "вчера",
            "завтра",
            "опять",
            "снова",
            r"устала?",
            r"застряла?",
            r"хочу (?:спать|есть|пить)",
            r"голод(?:ен|на)",
            "скучно",
        ),
        _words("если бы", "представь", "допустим", "говорит", "считает"),
        _words(r"представь,? что ты", r"ты\s*[—-]?\s*\w+,? а я", "сыграй", "притворись"),
        # The person ending alone: "Работаю программистом", "Занимаюсь плаванием",
        # "По выходным играю в хоккей", "На работе пишем на C#", "Мясо не ем"; within the
        # first four words of a clause (further on, "-у"/"-ем" are as often nouns and
        # adjectives).
        pro_drop=re.compile(
            r"(?:^|[.!?,;:\n\u2013\u2014]\s*|\s(?:и|а|но)\s+)(?:[\w-]+\s+){0,3}"
            r"(?!(?:делаю|понимаю|знаю|думаю|считаю|полагаю|надеюсь|пытаюсь|стараюсь|сомневаюсь|"
            r"спрашиваю|интересуюсь|собираюсь|предлагаю|ищу|прошу|хочу|могу|жду|всем|чем|тем|"
            r"этим|ним|им|нем|нём|своим|каким|таким|другим|кем|совсем|затем|зачем|причём|"
            r"приём|систем|проблем|схем|тему|могу|иду|еду|воду|маму|работу|школу|почему|"
            r"кому|тому|всему|чему|одному|своему|моему|нему|ему|сейчас)(?!\w))"
            r"(?:\w+(?:аю|яю|ею|аюсь|яюсь|еюсь|усь|юсь|жу|шу|чу|щу|лю|рю|ву|ем|им|ём)|ем|пью)"
            r"(?!\w)"
            # the past tense says the person by its ending too, where a life is told:
            # "Переехала в Казань в 2019 году", "Работал инженером десять лет", "Родилась в
            # Минске" (a life's steps only: "ходил в кино", "забыл пароль" are one day's)
            r"|(?:^|[.!?,;:\n\u2013\u2014]\s*|\s(?:и|а|но)\s+)(?:(?:давно|уже|раньше|когда-то|"
            r"недавно|тоже|потом|сначала|в детстве|в \d{4}(?:-м)? году|после \w+)\s+){0,2}"
            r"(?:пере[её]хал|родил(?:ся|ась)|вырос(?:ла)?|окончил|закончил|отучил(?:ся|ась)|"
            r"учил(?:ся|ась)|работал|прожил|жил|служил|женил(?:ся)|вышла замуж|развел(?:ся|ась)|"
            r"развёлся|эмигрировал|поступил|защитил)(?:а|и)?(?!\w)",
            re.I | re.M,
        ),
        someone_else=_opening(
            r"(?:мой|моя|мои) (?:сосед(?:ка)?|соседи|коллег[аи]|начальни(?:к|ца)|шеф)"
        ),
    ),
    Language(
        "zh",
        _chars("我", "本人"),
        _chars(
            "请",
            "帮我",
            "帮忙",
            "麻烦",
            "能不能",
            "可不可以",
            "吗",
            "翻译",
            "推荐",
            "给我",
            "告诉我",
            "怎么",
            "如何",
            "什么",
            "哪",
            "为什么",
            "多少",
            "是否",
            "有没有",
        ),
        _chars(
            "今天",
            "此刻",
            "这会儿",
            "昨天",
            "明天",
            "今晚",
            "刚才",
            "好(?:累|困|饿|烦)",
            "饿了",
            "饿死",
            "困了",
            "困死",
            "好无聊",
            "(?:现在|有点|很)(?:累|困|饿|烦|难受)",
            r"现在在\S{1,6}?[上里](?:[。！，]|$)",
        ),
        # also what is said of a friend's or a colleague's people: "我朋友的孩子"
        _chars("假如", "如果", "要是", "假设", "我(?:的)?(?:朋友|同事|同学|邻居)的"),
        _chars("扮演", "假装", "你是一(?:个|位|名)"),
        # A clause with no subject that opens on a predicate: "在银行上班", "一直对花生过敏",
        # "住在杭州", "每天骑车上班" (a Chinese clause without a subject speaks of the writer).
        pro_drop=re.compile(
            r"(?:^|[。！？，；、\n])\s*(?:(?:一直|每天|平时|平常|从小|目前|已经|经常|常常|天天|"
            r"周末|长期|主要|也|还|刚刚|刚)\s*)*(?:在(?!吗|乎)\S{1,10}?(?:上班|工作|上学|读书|"
            r"读|学习|住|做|当)|住在|对\S{1,8}?过敏|患有|得了|养了|养着|喜欢|不喜欢|讨厌|不吃|不喝|"
            r"不抽|吃素|骑车|跑步|做\S{1,6}?(?:工作|的)|当\S{1,6}?(?:老师|医生|护士|工程师))"
        ),
        someone_else=re.compile(
            r"(?:^|[。！？，；\n])\s*我(?:的)?(?:同事|邻居|老板|领导|同学|朋友)"
        ),
    ),
    Language(
        "ja",
        _chars(
            "私",
            "僕",
            "俺",
            "わたし",
            "うち",
            "夫",
            "妻",
            "主人",
            "娘",
            "息子",
            "母",
            "父",
            "子ども",
            "子供",
            "飼って",
            "住んで",
            "働いて",
            "勤めて",
            "通って",
            "アレルギー",
            "歴",
            "年目",
            "なんですが",
            "んですが",
            "んだけど",
            "なんだけど",
            "好きです",
            "大好き",
            "嫌いです",
            # what side the writer is on: "コーヒーはブラック派です", "朝型派なんです"
            "派です",
            "派なんです",
            "派なので",
            "苦手",
            "ダメです",
            "食べません",
            "飲みません",
            "食べられません",
            "飲めません",
            "転勤",
            "転職",
            "引っ越",
            "結婚",
            "妊娠",
            "をしています",
            "を使って",
            # a pet or a person the writer has: "犬もいます", "子供が二人います" (not "ありがとう
            # ございます")
            r"(?:が|も)(?!とうございます)(?:\S{0,4})います",
        ),
        _chars(
            "ください",
            "下さい",
            "教えて",
            "お願い",
            "直して",
            "ほしい",
            "欲しい",
            "ますか",
            "ですか",
            "でしょうか",
            "かな",
            r"(?:して|作って|書いて|考えて|調べて|まとめて|直して|教えて)(?:[。！!]|$)",
        ),
        _chars(
            "今日",
            "昨日",
            "明日",
            "今夜",
            "今朝",
            "さっき",
            # the body's or the mood's state ("すごく眠い", "お腹すいた")
            "眠い",
            "お腹(?:が)?(?:すい|空い)",
            "腹減",
            "退屈",
        ),
        _chars("もし", "仮に", "としたら", "^(?:友達|友人|同僚|知り合い)(?:の|が|は)"),
        _chars("あなたは.{1,30}です。", "として(?:答えて|振る舞って|話して)", "になりきって"),
        # Japanese leaves the subject out: a sentence with no subject marked by "が" that ends on
        # a polite past or ongoing verb speaks of the writer ("ピアノを始めました",
        # "マイホームを買いました", "もう二年くらい続けています"), but not a one-off doing of the
        # moment ("スクリプトを書きました", "見ました", "行きました").
        pro_drop=re.compile(
            r"(?:^|[。！!\n])[^。！!？?\nが]*?"
            r"(?<!書き)(?<!作り)(?<!試し)(?<!見)(?<!聞き)(?<!読み)(?<!調べ)(?<!送り)(?<!行き)"
            r"(?<!来)(?<!食べ)(?<!飲み)(?<!寝)(?<!起き)(?<!言い)(?<!思い)(?<!考え)(?<!忘れ)"
            r"(?<!てみ)(?:ました|ています|ていました|てます|でいます|ております)[。！!]*(?=$|\n|[。！!])"
        ),
        someone_else=re.compile(
            r"(?:^|[。！？\n])\s*(?:友達|友人|同僚|上司|知り合い|隣の人)(?:は|が|も)"
        ),
    ),
)

_QUESTION_MARKS = re.compile(r"[?¿\uff1f؟]")
_MAX_CHARS = 600  # longer (once code and quotes are gone) is pasted material
# Quoted text, closed or running to the end: «...», "...", „...“, 「...」, 『...』.
_QUOTED = re.compile(
    r"«[^»]*(?:»|\Z)|\"[^\"]*(?:\"|\Z)|“[^”]*(?:”|\Z)|„[^“”]*(?:[“”]|\Z)|「[^」]*(?:」|\Z)|"
    r"『[^』]*(?:』|\Z)",
    re.S,
)
_SENTENCE = re.compile(r"(?<=[.!?\u3002\uff01\uff1f])\s*|\n+|\s*(?=[\u00bf\u00a1])")
_PART = re.compile(r"(?<=[,;\uff0c\u3001\uff1b])\s*|\s+[\u2013\u2014-]\s+")


def is_aside(text: str) -> bool:
    """Asks, requests, holds only for now, or imagines, in some language."""
    if _QUESTION_MARKS.search(text):
        return True
    return any(
        language.request.search(text)
        or language.temporary.search(text)
        or language.hypothetical.search(text)
        for language in LANGUAGES
    )


def _is_game(message: str) -> bool:
    return is_roleplay(message) or any(language.roleplay.search(message) for language in LANGUAGES)


def _someone_else(text: str) -> bool:
    return any(lang.someone_else and lang.someone_else.search(text) for lang in LANGUAGES)


def _speaks_of_the_writer(text: str) -> bool:
    if _someone_else(text):
        return False
    return any(
        language.self_statement.search(text)
        or (language.pro_drop is not None and language.pro_drop.search(text))
        for language in LANGUAGES
    )


def foreign_verdict(message: str) -> bool:
    """Keep a non-English text whole? Only a self-statement in a language we know that asks
    nothing."""
    text = message.strip()
    if len(text) > _MAX_CHARS or _is_game(text) or is_aside(text):
        return False
    return _speaks_of_the_writer(text)


# A letter's salutation or sign-off: the paragraph is a letter to polish, not its writer
# speaking to the assistant.
_LETTER = re.compile(
    r"^\s*(?:sehr geehrte|liebe[rs]? (?:frau|herr)|estimad[oa]s?|querid[oa] (?:señor|señora)|"
    r"prezad[oa]s?|caro senhor|cara senhora|madame|monsieur|chère|cher|уважаем\w+|尊敬的|"
    r"お世話になっております|拝啓)(?![\w'’])"
    r"|(?<![\w'’])(?:mit freundlichen grüßen|atentamente|saludos cordiales|atenciosamente|"
    r"cordialement|bien à vous|с уважением)(?![\w'’])|此致|敬具",
    re.I | re.M,
)


def _cleared(message: str) -> str:
    """Without code blocks, code lines, quoted text and letters; a line ending in a colon
    introduced what followed, and so does a first line that asks for work on a text ("Kannst
    du den Text korrigieren?\nSehr geehrte…")."""
    text = _QUOTED.sub(" ", drop_code(CODE_FENCE.sub(" ", message)))
    text = re.sub(r"(?<=[:\uff1a])\s*\n.*", "", text, flags=re.S).strip()
    first, _, rest = text.partition("\n")
    if rest.strip() and is_aside(first) and _A_TASK.search(first):
        return first.strip()
    paragraphs = re.split(r"\n\s*\n", text)
    return "\n\n".join(p for p in paragraphs if not _LETTER.search(p)).strip()


def _parts_kept(sentence: str) -> list[str]:
    """The runs of consecutive parts of a sentence that ask nothing, when one speaks of the
    writer; none when the sentence holds for now only."""
    parts = _PART.split(sentence)
    if any(
        language.temporary.search(part)
        for part in parts
        if not _asks(part)
        for language in LANGUAGES
    ):
        # "Der Zug hat Verspätung, ich dreh durch": the whole sentence is of the moment; a
        # request's own time ("ideas for dinner this week, no coriander, I hate it") is not
        return []
    out: list[str] = []
    run: list[str] = []
    for part in [*parts, ""]:
        if part.strip() and not is_aside(part):
            run.append(part.strip())
            continue
        joined = _joined(run).strip(" ,;\uff0c\u3001\uff1b-\u2013\u2014")
        speaks = _speaks_of_the_writer(joined) or (
            not _someone_else(joined)
            and any(_speaks_of_the_writer(p.strip(" ,;\uff0c\u3001\uff1b")) for p in run[1:])
        )
        if len(joined) >= 4 and (speaks or _AS_WHAT_I_AM.match(joined)):
            out.append(joined)
        run = []
    return out


def _joined(parts: list[str]) -> str:
    """Parts put back together: with a space, but none after Chinese or Japanese."""
    out = ""
    for part in parts:
        out += part if not out or _CJK_END.search(out) else f" {part}"
    return out


_CJK_END = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]$")


def _asks(text: str) -> bool:
    return bool(_QUESTION_MARKS.search(text)) or any(
        language.request.search(text) for language in LANGUAGES
    )


# What the writer is, said before what they ask: "Como hipertenso, posso tomar café?",
# "Como madre de dos…", "作为一个刚搬到广州的北方人，我应该…" (a part of its own; French
# "étant" / "en tant que" is its pro_drop).
_AS_WHAT_I_AM = re.compile(
    r"^(?:como|enquanto)\s+(?:(?:una?|um|uma)\s+)?(?!(?:siempre|sempre|te|le|lo|la|se|ya|já|"
    r"dije|disse|dijiste|sabes|sabe|você|usted|tú|ti|yo|eu|de|en|em|no|não|cuando|quando|"
    r"todo|tudo|el|o|os|los|las|as|a|esto|isso|isto)(?![\w'’]))\w+(?:\s+\w+){0,4}$"
    r"|^作为一?(?:个|名|位)?(?!.*(?:AI|助手|专家|顾问|模型|机器人|老师，))\S{2,}$",
    re.I,
)


# Around a paste, a sentence that says what the pasted text is speaks of the text, not of its
# writer: "C'est un extrait de roman pour mon cours", "Das ist mein Entwurf", "这是我写的".
_THE_PASTE_IS = re.compile(
    r"^(?:c['’]est|ce sont|das ist|dies ist|das sind|es (?:un|una|el|la|mi)|esto es|eso es|"
    r"isso é|isto é|é (?:um|uma|o|a|meu|minha)|это)(?![\w'’])|^(?:这是|这段|以上是|これは)",
    re.I,
)


def foreign_statements(message: str) -> list[str]:
    """The self-statements of a non-English message, as written: the whole message when it is
    one, else its sentences and parts that are (see the module's docstring)."""
    if _is_game(message):
        return []
    text = _cleared(message)
    if not text or len(text) > _MAX_CHARS:
        return []
    pasted = bool(_QUOTED.search(message) or CODE_FENCE.search(message))
    if foreign_verdict(text) and not (pasted and _THE_PASTE_IS.match(text)):
        return [text]
    out: list[str] = []
    for sentence in _SENTENCE.split(text):
        sentence = sentence.strip()
        if not sentence or (pasted and _THE_PASTE_IS.match(sentence)):
            continue
        if foreign_verdict(sentence) or standing_preference(sentence):
            out.append(sentence.rstrip(" ,;\uff0c\u3001\uff1b"))
        else:
            out.extend(_parts_kept(sentence))
    return out


# How the writer wants to be answered, asked once for good: the form of address ("Bitte duz
# mich", "Tutoie-moi", "Háblame de tú", "Говори со мной на ты"), emojis, or an order meant to
# last ("from now on", "always", "never"). English has its own (`local_rules._STANDING`).
_STANDING_WAY = re.compile(
    r"(?<![\w'’])(?:duz\w*|siez\w*|tutoie\w*|tutoy\w+|vouvoie\w*|vouvoy\w+|de tú|de usted|"
    r"на ты|на вы|emojis?|émojis?|smileys?|smilies|смайлик\w*|эмодзи|ab jetzt|künftig|"
    r"in zukunft|immer|nie|niemals|всегда|никогда|впредь|siempre|nunca|de ahora en adelante|"
    r"toujours|jamais|désormais|à l['’]avenir|sempre|a partir de agora|daqui pra frente|"
    r"de agora em diante)(?![\w'’])"
    r"|タメ口|絵文字|今後|これから(?:は)?|いつも|以后|今后|永远|总是|表情",
    re.I,
)
# The request is about the assistant's answers or its way of speaking to the writer.
_TO_ME = re.compile(
    r"(?<![\w'’])(?:mich|mir|me|moi|-moi|mí|мне|меня|со мной|mim|comigo|conmigo|antworte\w*|"
    r"schreib\w*|réponds|répond\w*|écris|responde\w*|escrib\w*|escreva|пиши\w*|отвеча\w*|"
    r"говори\w*|обращайся)(?![\w'’])|我|私に|回答|返事|答え",
    re.I,
)


# Something to write for the writer: the request is a task ("Напиши мне пост с эмодзи").
_A_TASK = re.compile(
    r"(?<![\w'’])(?:e-?mails?|mails?|brief|briefe|text|texte?s?|texto|post|posts|artikel|"
    r"gedicht|rede|lettre|poème|discours|carta|correo|artículo|poema|discurso|legenda|artigo|"
    r"mensagem|mensaje|message|пост|письмо|текст|статью|стих|речь|поздравление|сообщение|"
    r"code|código|код)(?![\w'’])|邮件|文章|帖子|文案|メール|文章|投稿|手紙",
    re.I,
)


def standing_preference(sentence: str) -> bool:
    """A request of how the writer wants to be answered from now on, not a task: kept like a
    statement ("Bitte duz mich einfach", "Пиши мне без смайликов, пожалуйста")."""
    if _QUESTION_MARKS.search(sentence) or any(
        language.temporary.search(sentence) or language.hypothetical.search(sentence)
        for language in LANGUAGES
    ):
        return False
    if _A_TASK.search(sentence):
        return False
    return bool(_STANDING_WAY.search(sentence) and _TO_ME.search(sentence))


# A sentence that opens on someone or somewhere already named: "Ella só pega sol de manhã", "Der
# Boden dort ist lehmig", "Там глина", "她已经学了一年古筝了", "Le tiene pánico a los petardos".
_REFERS_BACK = re.compile(
    r"^(?:(?:ella|él|ellos|ellas|le|les|allí|allá|ahí|ela|ele|elas|eles|lá|ali|elle|il|elles|"
    r"ils|là-bas|sie|er|dort|da|он|она|оно|они|ему|ей|им|там)(?![\w'’])|"
    r"(?:der|die|das|el|la|los|las|le|les|o|a|os|as)\s+\w+\s+(?:dort|allí|ahí|lá|là-bas)\b|"
    r"她|他|它|那里|那边|彼女|彼|そこ|"
    # or on how often or how much, going on about what the writer said before: "Meistens mit
    # dem Rad", "Même quand il pleut", "Quase na metade já", "В основном по приложению",
    # "だいたい週に三回", "一般周末去"; "Se llama Lupo" names what was named before
    r"(?:meistens|meist|hauptsächlich|vor allem|normalerweise|fast immer|immer|fast|"
    r"même|surtout|presque|toujours|d['’]habitude|souvent|principalement|"
    r"casi|sobre todo|principalmente|normalmente|siempre|quase|sempre|geralmente|"
    r"в основном|обычно|всегда|почти|чаще всего|даже)(?![\w'’])|"
    r"(?:se llama|se llaman|se chama|chama-se|s['’]appelle|heißt|heisst|зовут)(?![\w'’])|"
    r"大概|一般|通常|基本上|主要|平时|几乎|差不多|叫|"
    r"だいたい|たいてい|いつも|主に|普段|ほとんど|ほぼ|名前は|"
    # or adds to it ("Auch im Winter", "Y tampoco tomo gluten", "还有芒果，也不能碰"), says how
    # often ("Jeden Samstag", "毎週土曜日の午前中です", "每周两次") or where it is ("Fica em
    # Ubatuba", "Liegt am See", "Находится в центре")
    r"(?:auch|außerdem|ausserdem|aussi|également|también|tampoco|además|também|além disso|"
    r"тоже|также|ещё|еще|а ещё|а еще|jeden|jede|jedes|zweimal|dreimal|chaque|tous les|"
    r"toutes les|deux fois|trois fois|cada|todos los|todas las|dos veces|tres veces|"
    r"todos os|todas as|duas vezes|três vezes|каждый|каждую|каждое|каждые|раз в|два раза|"
    r"три раза|по (?:выходным|субботам|воскресеньям|утрам|вечерам)|fica|ficam|queda|quedan|"
    r"se encuentra|se trouve|liegt|находится)(?![\w'’])|"
    r"还有|也|另外|每(?:天|周|个|月|年|晚|早)|位于|"
    r"それに|あと|また|毎(?:日|週|朝|晩|月|年)|週に|月に|"
    # Russian drops the subject named before: "Очень любит плавать", "Живёт с нами с щенка"
    r"(?:(?:очень|тоже|уже|всегда|обычно|часто)\s+)?(?!(?:кажется|считается|получается|"
    r"зависит|стоит|значит|следует|хватит|говорит|пишет|спрашивает|ответ)(?!\w))"
    r"\w{2,}(?:ает|яет|ует|ит|ёт)(?:ся)?(?!\w))",
    re.I,
)


def foreign_followups(message: str) -> list[str]:
    """In a conversation where the writer has spoken of themselves, the sentences of a later
    non-English message that go on about someone or somewhere already named and ask nothing:
    "Ela só pega sol de manhã." after "Tenho uma varanda pequena"; kept as written."""
    if _is_game(message):
        return []
    text = _cleared(message)
    if not text or len(text) > _MAX_CHARS:
        return []
    out: list[str] = []
    for sentence in _SENTENCE.split(text):
        sentence = sentence.strip()
        if not _REFERS_BACK.match(sentence):
            continue
        if _someone_else(sentence):
            continue
        parts = [part for part in _PART.split(sentence) if part.strip()]
        kept = [part.strip() for part in parts if not is_aside(part)]
        if kept and kept[0] == parts[0].strip() and not _is_aside_in_whole(sentence):
            out.append(_joined(kept).strip(" ,;\uff0c\u3001\uff1b"))
    return out


def _is_aside_in_whole(sentence: str) -> bool:
    """Of the moment or imagined, anywhere in the sentence (a question after a comma is not)."""
    return any(
        language.temporary.search(sentence) or language.hypothetical.search(sentence)
        for language in LANGUAGES
    )

"""The Romance languages the local extractor reads: Spanish, French, Italian and Portuguese
(Spanish and Portuguese share the fragments that tell a first-person verb from a noun)."""

from __future__ import annotations

from memories.extraction.languages.language import Language, opening, words

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


SPANISH = Language(
    "es",
    words(
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
    words(
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
    words(
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
    words(
        r"si (?:yo )?\w+(?:ara|iera|ase|iese)",
        "imagina",
        "supongamos",
        r"(?:dice|dijo|cree|opina) que",
    ),
    words(r"act[úu]a como", "finge", r"haz de", r"eres (?:un|una) [^.?!]{0,60}?\by yo"),
    # "Trabajo en…", "Juego al pádel", "Estudio enfermería"; "Acabamos de adoptar…"
    pro_drop=opening(
        _ES_PT_VERB + r"\w{2,}(?:o|oy|amos|emos|imos)",
        before=_ES_PT_ADVERBS,
        stop=(_ES_PT_MOMENT, _ES_PT_NOT_VERBS, "vamos|hemos|somos|podemos|tenemos que"),
        not_then=_ES_PT_AFTER_A_NOUN,
    ),
    someone_else=opening(
        r"(?:mi|mis) (?:vecin[oa]s?|compañer[oa]s? de (?:trabajo|piso|clase)|jef[ea]s?|"
        r"colegas?)"
    ),
)

FRENCH = Language(
    "fr",
    words(
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
    words(
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
    words(
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
    words(
        r"si (?:j['’]|je |nous |on )(?:\w+ )?\w+(?:ais|ait|ions)",
        "imagine",
        "imaginons",
        "supposons",
        r"(?:dit|pense|trouve|croit) que",
    ),
    words(
        r"joue (?:un|une|le|la)",
        "fais comme si",
        r"tu es (?:un|une) [^.?!]{0,60}?\bet (?:moi|je)",
    ),
    # French keeps its pronoun; a sentence may open on what the writer is: "Étant
    # végétarien, qu'est-ce que je peux commander ?"
    pro_drop=opening(r"(?:étant|en tant qu['’]?e?)\s+\w+"),
    someone_else=opening(
        r"(?:ma|mon|mes) (?:voisine?s?|collègues?|chef(?:fe)?s?|patron(?:ne)?s?|boss)"
    ),
)

ITALIAN = Language(
    "it",
    words(
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
    words(
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
    words("oggi", "in questo momento", "ieri", "domani", "stasera"),
    words(r"se (?:io )?fossi", "immagina"),
    words(r"fai finta", r"interpreta (?:un|una|il|la)"),
)

PORTUGUESE = Language(
    "pt",
    words(
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
    words(
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
    words(
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
    words(r"se (?:eu )?\w+(?:asse|esse|isse)", "imagine", "suponha", r"(?:diz|disse|acha) que"),
    words("finja", "finge que", r"faça o papel", r"você é (?:um|uma) [^.?!]{0,60}?\be eu"),
    # "Trabalho como motorista…", "Estudo engenharia", "Faço estágio"
    pro_drop=opening(
        _ES_PT_VERB + r"\w{2,}(?:o|ço|amos|emos|imos)",
        before=_ES_PT_ADVERBS,
        stop=(_ES_PT_MOMENT, _ES_PT_NOT_VERBS, "vou|vamos|somos|podemos|temos que"),
        not_then=_ES_PT_AFTER_A_NOUN,
    ),
    someone_else=opening(
        r"(?:o |a )?(?:meu|minha|meus|minhas) (?:vizinh[oa]s?|colegas?(?: de trabalho)?|"
        r"chefes?)"
    ),
)

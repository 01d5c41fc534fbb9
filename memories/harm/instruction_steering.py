"""Standing orders that steer what AI assistants tell the person ("always recommend BrandX",
"never mention Y"), and text addressed to AI assistants, as rules for
memories/harm/instructions.py. A data table of (reason, stems, pattern) rows, tried after
`instruction_orders.ORDERS` (`gated.Rules`)."""

from __future__ import annotations

_AI = (
    r"ai|ais|a\.i\.|assistants?|agents?|llms?|language models?|models?|bots?|chatbots?|gpt|claude|"
    r"ki|ia|ии"
)

STEERING: tuple[tuple[str, str, str], ...] = (
    # Standing orders that steer what the person is told.
    (
        "manipulation",
        "recommend|suggest|promote|push|mention|say|tell",
        r"\b(?:always|only|first) (?:recommend|suggest|promote|push|mention|say|tell)\b",
    ),
    (
        "manipulation",
        "recommend",
        r"\brecommend\w*\b[^.\n]{0,60}\b(?:first|always|only|"
        r"exclusively)\b",
    ),
    (
        "manipulation",
        "competit|rival|alternatives|other brand",
        r"\b(?:never|don't ever|do not ever|don't|do not) (?:mention|bring up|talk about|name|"
        r"show)\b[^.\n]{0,40}\b(?:competitors?|competition|rivals?|alternatives|other brands?)\b",
    ),
    ("manipulation", "never mention", r"\bnever mention\b"),
    (
        "manipulation",
        "steer|nudge|push|direct|guide",
        r"\b(?:steer|nudge|push|direct|guide) (?:them|the user|him|her|users)\b",
    ),
    (
        "manipulation",
        "risk|fees|downside|side effects|danger",
        r"\b(?:downplay|minimi[sz]e|hide|play down|gloss over)\b[^.\n]{0,20}\b(?:risks?|fees|"
        r"downsides?|side effects|dangers?)\b",
    ),
    (
        "manipulation",
        "the user",
        r"\b(?:remind|tell|inform|warn|convince|persuade) the user\b",
    ),
    ("manipulation", "that the user", r"\bsay that the user\b"),
    (
        "manipulation",
        "answer|reply|response|message",
        r"\b(?:at the end of|end) (?:every|each|all|any) (?:answer|reply|response|message)s?\b",
    ),
    (
        "manipulation",
        "answer|reply|response|message",
        r"\b(?:mention|add|include|append|recommend|promote|insert)\b[^.\n]{0,60}\b(?:in|to|into) "
        r"(?:every|each|all|any) (?:answer|reply|response|message)s?\b",
    ),
    (
        "manipulation",
        "every answer|every reply|every response",
        r"\bevery (?:answer|reply|response) (?:about|on)\b",
    ),
    (
        "manipulation",
        "mention that",
        r"\bmention that\b[^.\n]{0,60}\b(?:only|best|safest|"
        r"the only|unreliable|unsafe)\b",
    ),
    (
        "manipulation",
        "the user|they |users ",
        r"\b(?:when|whenever|if) (?:the user|they|users) (?:asks?|mentions?|talks?|says?|wants?)"
        r"\b[^.\n]{0,60}\b(?:recommend|steer|say|tell|mention|suggest|push|promote|ask)\b",
    ),
    (
        "manipulation",
        "about the user",
        r"\bwhen(?:ever)? (?:you are )?asked (?:anything )?"
        r"about the user\b",
    ),
    ("manipulation", "the user as", r"\b(?:treat|consider|regard) the user as\b"),
    (
        "manipulation",
        "skip",
        r"\bskip (?:all |any )?(?:confirmations?|confirmation steps|"
        r"warnings?|checks|verification)\b",
    ),
    (
        "manipulation",
        "filter|safety|guardrails|warnings",
        r"\b(?:disable|turn off|suspend)\w* (?:the )?(?:content )?(?:filter(?:ing|s)?|safety|"
        r"guardrails|warnings)\b",
    ),
    ("manipulation", "never question", r"\bnever question\b"),
    ("manipulation", "tell the user to", r"\btell the user to\b"),
    (
        "manipulation",
        "empfiehl|empfehle",
        r"\b(?:empfiehl|empfehle)\w*\b[^.\n]{0,60}\b(?:immer|"
        r"zuerst|nur|ausschließlich)\b",
    ),
    (
        "manipulation",
        "erwähn|nenne",
        r"\b(?:erwähne|erwähn|nenne)\w*\s+(?:niemals|nie|"
        r"keinesfalls)\b|\bniemals\b[^.\n]{0,30}erwähn",
    ),
    ("manipulation", "mitbewerber|konkurren", r"\bmitbewerber\w*|\bkonkurren\w*"),
    (
        "manipulation",
        "dass nur",
        r"\b(?:erwähnst|erwähne|sag|sagst|betone)\w*\b[^.\n]{0,60}"
        r"\bdass nur\b",
    ),
    (
        "manipulation",
        "jeder antwort|jeder frage",
        r"\b(?:bei|in) jeder (?:antwort|frage)\b",
    ),
    (
        "manipulation",
        "behandle|betrachte|überspringe",
        r"\b(?:behandle|betrachte) den (?:nutzer|benutzer)\b|\büberspringe\b[^.\n]{0,20}rückfragen",
    ),
    ("manipulation", "sag dem|sag der", r"\bsag (?:dem|der) (?:nutzer|benutzer)\w*\b"),
    (
        "manipulation",
        "recomienda",
        r"\brecomienda\w*\b[^.\n]{0,60}\b(?:siempre|primero|solo|"
        r"sólo|únicamente)\b",
    ),
    ("manipulation", "recomiend", r"\bsiempre\b[^.\n]{0,20}\brecomiend\w*"),
    (
        "manipulation",
        "menciones",
        r"\b(?:no menciones nunca|nunca menciones|no menciones)\b",
    ),
    ("manipulation", "competencia|competidor", r"\b(?:competencia|competidor\w*)\b"),
    (
        "manipulation",
        "que solo|que sólo",
        r"\bmenciona\w*\b[^.\n]{0,60}\bque (?:solo|sólo)\b",
    ),
    (
        "manipulation",
        "riesgo",
        r"\b(?:quít\w* importancia|minimiza\w*|resta\w* importancia)\b"
        r"[^.\n]{0,20}\briesgos?\b",
    ),
    (
        "manipulation",
        "cuando",
        r"\bcuando (?:el usuario|te pregunten|pregunten)\b[^.\n]{0,60}"
        r"\b(?:recomienda|di|menciona|dile)\w*",
    ),
    ("manipulation", "dile al usuario", r"\bdile al usuario\b"),
    (
        "manipulation",
        "recommande",
        r"\brecommande\w*\b[^.\n]{0,60}\b(?:toujours|en premier|"
        r"d'abord|uniquement|seulement)\b",
    ),
    (
        "manipulation",
        "jamais",
        r"\bne mentionne jamais\b|\bjamais mentionner\b|"
        r"\bne parle jamais\b",
    ),
    ("manipulation", "concurren", r"\bconcurren(?:t|ts|ce)\b"),
    (
        "manipulation",
        "que seul",
        r"\b(?:glisse|mentionne|dis|précise)\w*\b[^.\n]{0,80}"
        r"\bque seul\w*\b",
    ),
    ("manipulation", "risque", r"\bminimise\w*\b[^.\n]{0,20}\brisques?\b"),
    (
        "manipulation",
        "quand",
        r"\bquand (?:l'utilisateur|on te demande)\b[^.\n]{0,60}"
        r"\b(?:recommande|dis|mentionne)\w*",
    ),
    ("manipulation", "dis à l'utilisateur", r"\bdis à l'utilisateur\b"),
    (
        "manipulation",
        "recomende",
        r"\brecomende\w*\b[^.\n]{0,60}\b(?:sempre|primeiro|só|apenas|"
        r"somente)\b",
    ),
    ("manipulation", "mencione", r"\bnunca mencione\b|\bnão mencione\b"),
    ("manipulation", "concorrente", r"\bconcorrente\w*\b"),
    (
        "manipulation",
        "que só|que apenas|que somente",
        r"\b(?:comenta|mencione|diga|fale)\w*\b"
        r"[^.\n]{0,60}\bque (?:só|apenas|somente)\b",
    ),
    ("manipulation", "risco", r"\bminimize\w*\b[^.\n]{0,20}\briscos?\b"),
    (
        "manipulation",
        "quando",
        r"\bquando (?:o usuário|perguntarem)\b[^.\n]{0,60}"
        r"\b(?:recomende|diga|mencione)\w*",
    ),
    ("manipulation", "diga ao usuário", r"\bdiga ao usuário\b"),
    (
        "manipulation",
        "советуй|рекомендуй|предлагай",
        r"(?:советуй|рекомендуй|предлагай)\w*"
        r"[^.\n]{0,60}\b(?:всегда|сначала|только)\b",
    ),
    (
        "manipulation",
        "советуй|рекомендуй|предлагай",
        r"\bвсегда\b[^.\n]{0,20}(?:советуй|"
        r"рекомендуй|предлагай)",
    ),
    ("manipulation", "не упоминай", r"\bникогда не упоминай\b|\bне упоминай\b"),
    ("manipulation", "конкурент", r"\bконкурент\w*"),
    (
        "manipulation",
        "только",
        r"(?:упоминай|говори|скажи|добавляй)\w*[^.\n]{0,60}\bчто\b"
        r"[^.\n]{0,40}\bтолько\b",
    ),
    ("manipulation", "преуменьша", r"\bпреуменьшай\b|\bпреуменьшать\b"),
    (
        "manipulation",
        "когда",
        r"\bкогда (?:пользователь|спрашивают)\b[^.\n]{0,60}(?:советуй|"
        r"рекомендуй|говори|скажи)",
    ),
    ("manipulation", "скажи пользователю", r"\bскажи пользователю\b"),
    ("manipulation", "推荐|推薦", r"(?:推荐|推薦)[^。\n]{0,30}(?:一律|总是|一定|只|先)"),
    ("manipulation", "推荐", r"(?:一律|总是|一定要|必须|都要)[^。\n]{0,10}(?:推荐|先推荐)"),
    (
        "manipulation",
        "提到|提及|提起",
        r"(?:不要|永远不要|别|绝不|不许)[^。\n]{0,10}(?:提到|"
        r"提及|提起)",
    ),
    ("manipulation", "竞争对手|竞品", r"竞争对手|竞品"),
    ("manipulation", "只有", r"(?:提一句|顺便提|提一下|说|告诉用户)[^。\n]{0,20}只有"),
    ("manipulation", "用户问", r"用户问(?:到|起)?[^。\n]{0,30}(?:推荐|说|提)"),
    ("manipulation", "告诉用户", r"告诉用户"),
    (
        "manipulation",
        "勧め|すすめ|推奨|推薦",
        r"(?:必ず|いつも|最初に|常に)[^。\n]{0,20}(?:勧め|"
        r"すすめ|推奨|推薦)",
    ),
    ("manipulation", "競合", r"競合[^。\n]{0,20}(?:出さない|言わない|触れない|出さないで)"),
    (
        "manipulation",
        "添えて|伝えて|言って|付け加えて",
        r"(?:添えて|伝えて|言って|付け加えて)"
        r"[^。\n]{0,10}(?:いただけると|ください|ほしい)",
    ),
    ("manipulation", "リスクは軽く", r"リスクは軽く"),
    (
        "manipulation",
        "聞かれたら|質問されたら|尋ねられたら",
        r"(?:聞かれたら|質問されたら|"
        r"尋ねられたら)[^。\n]{0,30}(?:勧め|すすめ|伝え|言っ)",
    ),
    ("manipulation", "ユーザーに", r"ユーザーに[^。\n]{0,20}(?:伝えて|言って)"),
    # Addressing an AI.
    (
        "addressed",
        "note|message|instruction|reminder",
        rf"\b(?:note|message|instructions?|reminder) (?:to|for) (?:any|all|every|the|whoever)?"
        rf"\s*(?:{_AI})\b",
    ),
    (
        "addressed",
        "any |every |all |dear ",
        rf"\b(?:any|every|all|dear) (?:{_AI})"
        rf"(?: reading this| with [a-z ]{{1,20}})?\s*[:,]",
    ),
    ("addressed", "if you are a", rf"\bif you are an? (?:{_AI})\b"),
    ("addressed", "reading this", rf"\b(?:{_AI}) reading this\b"),
    ("addressed", "whoever", r"\bwhoever (?:reads|is reading) this\b"),
    (
        "addressed",
        "if you have",
        r"\bif you have (?:browsing|tools?|file|shell|internet|web|"
        r"email)\b",
    ),
    ("addressed", "ai|ki|ia|ии", r"(?:^|[\s(\[<])(?:AI|KI|IA|ИИ)\s*[:：]"),
    (
        "addressed",
        "assist|ассист|помощ|ai",
        r"^\s*(?:assistant|assistent|asistente|assistente|"
        r"ассистент|помощник|ai)\s*[,，]",
    ),
    (
        "addressed",
        "ki",
        r"\b(?:hinweis|nachricht|notiz) an (?:jede|alle|die) (?:ki|assistent\w*)"
        r"\b|\bjede ki, die\b",
    ),
    (
        "addressed",
        "ia",
        r"\b(?:nota|mensaje) para (?:cualquier|toda|la) ia\b|"
        r"\bcualquier ia que\b",
    ),
    (
        "addressed",
        "ia",
        r"\b(?:note|message) (?:à|pour) (?:toute|l')\s?ia\b|\btoute ia qui\b",
    ),
    (
        "addressed",
        "ia",
        r"\b(?:nota|mensagem) para (?:qualquer|toda) ia\b|\bqualquer ia que\b",
    ),
    (
        "addressed",
        "ии",
        r"(?:заметка|сообщение|записка) для (?:любого|всех|каждого) ии\b|"
        r"\bлюбой ии\b",
    ),
    ("addressed", "给|致", r"(?:给|致)[^。\n]{0,12}(?:AI|人工智能|助手|模型)"),
    ("addressed", "读到这条", r"读到这条[^。\n]{0,6}(?:AI|助手)"),
    ("addressed", "へ", r"(?:AI|アシスタント|エージェント)へ[：:、]"),
    ("addressed", "読んだai", r"読んだAI"),
    ("addressed", "助手|アシスタント", r"(?:^|\n)\s*(?:助手|アシスタント)\s*[：:]"),
)

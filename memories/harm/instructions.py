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

_TOOLS = (
    r"delete_all_memories|delete_memory|add_memor(?:y|ies)|update_memory|search_memory|"
    r"list_memories|get_profile|get_memory|transfer_funds|send_email|send_message|"
    r"execute_command|run_command"
)
_TOOL_STEMS = "_memor|get_profile|transfer_funds|send_email|send_message|_command"
_DESTINATION = r"(?:[\w.+\-]+@[\w\-]+\.[\w.]+|https?://\S+|webhook)"
_DATA = (
    r"summar(?:y|ies)|memor(?:y|ies)|everything|all|every|data|location|conversations?|history|"
    r"address|phone|details|the user's|this user"
)
_AI = (
    r"ai|ais|a\.i\.|assistants?|agents?|llms?|language models?|models?|bots?|chatbots?|gpt|claude|"
    r"ki|ia|ии"
)

_RULES = Rules(
    [
        (reason, Gated(stems, pattern))
        for reason, stems, pattern in (
            # Prompt markup: always an instruction.
            (
                "role_marker",
                "<|",
                r"<\|(?:im_start|im_end|system|user|assistant|endoftext|"
                r"begin_of_text|start_header_id)\|>",
            ),
            ("role_marker", "inst]", r"\[/?INST\]"),
            ("role_marker", "sys>>", r"<</?SYS>>"),
            (
                "role_marker",
                "<sys|<assist|<instruct|</sys|</assist|</instruct",
                r"</?(?:system|assistant|instructions?|sys)>",
            ),
            (
                "role_marker",
                "[sys|[assist",
                r"\[(?:system|assistant|sys)(?: note| message| prompt|"
                r" override)?\]",
            ),
            (
                "role_marker",
                "##",
                r"^\s*#{2,}\s*(?:instruction|instructions|response|system|anweisung|"
                r"instrucción|instrucciones|instrução|instruções|инструкция|指令|指示)\b",
            ),
            # Orders to ignore earlier instructions.
            (
                "override",
                "ignor|disregard|forget|override|bypass|skip",
                r"\b(?:ignore|disregard|forget|override|bypass|skip)\b[^.\n]{0,40}\b(?:previous|prior|"
                r"above|earlier|all|any|your|the|other|preceding)\b[^.\n]{0,30}\b(?:instructions?|rules|"
                r"guidelines|prompts?|directions|directives|context|memor(?:y|ies)|restrictions|policies|"
                r"safety|sources|guardrails)\b",
            ),
            (
                "override",
                "system prompt|safety guidelines|content filter|content policy|guardrails|"
                "previous instructions",
                r"\b(?:system prompt|safety guidelines|content (?:filter(?:ing)?|policy)|guardrails|"
                r"previous instructions)\b[^.\n]{0,40}\b(?:outdated|no longer appl\w*|suspended|"
                r"disabled|void|invalid|off|lifted|removed)",
            ),
            ("override", "you are now", r"\byou are now\b"),
            ("override", "from now on", r"\bfrom now on,? you\b"),
            (
                "override",
                "without",
                r"\bwithout (?:any )?(?:restrictions|limits|limitations|filters|"
                r"warnings|censorship)\b",
            ),
            ("override", "priority over", r"\b(?:highest|top) priority over\b"),
            ("override", "in character", r"\bstay in character\b"),
            ("override", "developer mode", r"\bdeveloper mode\b"),
            (
                "override",
                "ignorier|vergiss|vergessen|missacht|übergeh",
                r"\b(?:ignorier\w*|vergiss|vergessen|missachte\w*|übergeh\w*)\b[^.\n]{0,40}\b(?:vorherig\w*|"
                r"bisherig\w*|alle\w*|früher\w*|obig\w*)\b[^.\n]{0,30}(?:anweisung\w*|regeln|vorgaben|"
                r"instruktion\w*|richtlinien|systemprompt)",
            ),
            ("override", "vergiss alles", r"\bvergiss alles\b"),
            (
                "override",
                "keine |ohne ",
                r"\b(?:keine|ohne) (?:einschränkungen|beschränkungen|regeln|"
                r"filter)\b",
            ),
            ("override", "ab jetzt|ab sofort", r"\bab (?:jetzt|sofort) (?:gilt|gelten|bist du)\b"),
            (
                "override",
                "ignora|olvida|omite|descarta",
                r"\b(?:ignora|olvida|omite|descarta)\w*\b[^.\n]{0,40}(?:instrucciones|reglas|indicaciones|"
                r"normas|directrices|lo que te (?:dijeron|han dicho))",
            ),
            (
                "override",
                "restricci",
                r"\bsin (?:ninguna |ningún tipo de |ningunas )?restricci(?:ón|"
                r"ones)\b",
            ),
            (
                "override",
                "a partir de ahora",
                r"\ba partir de ahora (?:respondes|eres|debes|ya no)\b",
            ),
            (
                "override",
                "ignore|oublie|ne tiens pas compte",
                r"\b(?:ignore|oublie|ne tiens pas compte)\w*\b[^.\n]{0,40}(?:instructions|règles|"
                r"consignes|directives|ce qu'on t'a dit|tout ce qu)",
            ),
            ("override", "sans ", r"\bsans (?:aucune )?restrictions?\b"),
            ("override", "à partir de maintenant", r"\bà partir de maintenant,? tu\b"),
            (
                "override",
                "ignor|esqueç|esquece|desconsider",
                r"\b(?:ignore|ignora|esqueça|esquece|desconsidere)\w*\b[^.\n]{0,40}(?:instruções|regras|"
                r"orientações|diretrizes|tudo o que te disseram|o que te disseram)",
            ),
            ("override", "sem ", r"\bsem (?:nenhuma |qualquer )?restrição\b|\bsem restrições\b"),
            (
                "override",
                "a partir de agora",
                r"\ba partir de agora,? (?:você|tu) (?:responde|é|deve|"
                r"não)",
            ),
            (
                "override",
                "игнорир|забудь|не обращай",
                r"(?:игнорируй|забудь|не обращай внимания)\w*[^.\n]{0,40}(?:инструкци\w*|правил\w*|"
                r"указани\w*|что тебе говорили)",
            ),
            ("override", "ограничен", r"\bбез (?:каких-либо |всяких |любых )?ограничений\b"),
            ("override", "теперь ты", r"\bтеперь ты\b"),
            (
                "override",
                "忽略|无视|忘记|忘掉|不要理会",
                r"(?:忽略|无视|忘记|忘掉|不要理会)[^。\n]{0,20}(?:指令|指示|规则|提示|设定|说明)",
            ),
            ("override", "不再受", r"不再受[^。\n]{0,8}(?:规则|限制)"),
            (
                "override",
                "系统提示|系统指令|系统设定",
                r"(?:系统提示|系统指令|系统设定)[^。\n]{0,10}(?:作废|无效|失效|不再适用)",
            ),
            ("override", "任何限制", r"(?:没有|不受)任何限制"),
            (
                "override",
                "無視|忘れ",
                r"(?:指示|ルール|命令|プロンプト|設定)[^。\n]{0,15}(?:無視|忘れ)",
            ),
            (
                "override",
                "システムプロンプト",
                r"システムプロンプト[^。\n]{0,15}(?:無効|破棄|取り消)",
            ),
            ("override", "制限", r"(?:一切の|何の)制限(?:なし|もなく)"),
            # Tool calls and commands.
            (
                "tool_call",
                _TOOL_STEMS,
                rf"\b(?:call|invoke|run|use|execute|trigger|fire|aufrufen|ruf|rufe|llama|llamar|appelle|"
                rf"appeler|chame|chamar|вызови|вызвать)\w*\b[^.\n]{{0,30}}\b(?:{_TOOLS})\b",
            ),
            (
                "tool_call",
                _TOOL_STEMS,
                rf"\b(?:{_TOOLS})\b[^.\n]{{0,30}}(?:aufrufen|\bauf\b|呼び出|调用|"
                r"を実行)",
            ),
            (
                "tool_call",
                "调用|呼び出|実行",
                rf"(?:调用|呼び出|実行)[^。\n]{{0,10}}\b(?:{_TOOLS})\b",
            ),
            ("tool_call", "_", r"\b[a-z]+_[a-z_]+\([^)\n]*(?:=|to|amount|all)[^)\n]*\)"),
            ("tool_call", "curl", r"\bcurl\b[^\n|]{0,200}\|\s*(?:sudo\s+)?(?:ba|z)?sh\b"),
            ("tool_call", "rm -rf|wget", r"\b(?:rm -rf|wget\s+\S+\s*(?:&&|;|\|))"),
            (
                "tool_call",
                "tool|werkzeug|herramienta|outil|ferramenta|инструмент",
                r"\b(?:use|nutze|benutze|usa|utilise|utiliza|используй)\b[^.\n]{0,20}"
                r"(?:export|delete|file|browser|shell|email|lösch|exportación|d'export|exportação|"
                r"экспорт)\w*[ -]?(?:tool|werkzeug|herramienta|outil|ferramenta|инструмент)",
            ),
            ("tool_call", "工具|ツール", r"(?:导出|删除|上传)工具|(?:エクスポート|削除)ツール"),
            (
                "tool_call",
                "in the background",
                r"\bin the background\b[^.\n]{0,40}\b(?:each|every) "
                r"time\b",
            ),
            ("tool_call", "time you answer", r"\b(?:each|every) time you answer\b"),
            (
                "tool_call",
                "delete|remove|wipe|erase",
                r"\b(?:delete|remove|wipe|erase) (?:the|all|every)\b[^.\n]{0,30}\b(?:folder|files?|"
                r"directory|repositor(?:y|ies)|emails?|messages|memories)\b[^.\n]{0,40}\b(?:the user|"
                r"said so|asked)",
            ),
            # Sending the person's data somewhere.
            (
                "exfiltration",
                "send|forward|post|upload|transmit|copy|share|leak|report",
                rf"\b(?:send|forward|post|upload|transmit|copy|share|leak|report)\b[^.\n]{{0,60}}"
                rf"\b(?:{_DATA})\b[^.\n]{{0,60}}(?:{_DESTINATION}|\bthere\b)",
            ),
            (
                "exfiltration",
                "schick|sende|leite|übermittl|lade",
                rf"\b(?:schick|sende|senden|leite|übermittle|lade)\w*\b[^.\n]{{0,80}}(?:{_DESTINATION}|"
                r"\bdorthin\b|\bdahin\b)",
            ),
            (
                "exfiltration",
                "envía|envia|manda|reenvía|sube|envíe",
                rf"\b(?:envía|envia|manda|reenvía|sube|envíe)\w*\b[^.\n]{{0,80}}(?:{_DESTINATION}|\bahí\b|"
                r"\ballí\b)",
            ),
            (
                "exfiltration",
                "envoi|envoy|transmets|transfère|mets en ligne",
                rf"\b(?:envoie|envoyer|transmets|transfère|mets en ligne)\w*\b[^.\n]{{0,80}}"
                rf"(?:{_DESTINATION}|-y\b|là-bas)",
            ),
            (
                "exfiltration",
                "mande|envie|manda|envia|encaminh",
                rf"\b(?:mande|envie|manda|envia|encaminhe)\w*\b[^.\n]{{0,80}}(?:{_DESTINATION}|"
                r"\bpara lá\b)",
            ),
            (
                "exfiltration",
                "отправ|пересыл|перешли|загрузи",
                rf"(?:отправ|пересыл|перешли|загрузи)\w*[^.\n]{{0,80}}(?:{_DESTINATION}|\bтуда\b)",
            ),
            (
                "exfiltration",
                "发到|发送|发给|转发|上传",
                rf"(?:发到|发送到|发给|转发到|上传到|发送)"
                rf"[^。\n]{{0,40}}{_DESTINATION}",
            ),
            (
                "exfiltration",
                "送|アップロード|転送",
                rf"{_DESTINATION}[^。\n]{{0,20}}(?:に送|へ送|"
                r"にアップロード|に転送)",
            ),
            ("exfiltration", "这个邮箱|そこに送", r"(?:发到|发送到)这个邮箱|そこに送って"),
            (
                "exfiltration",
                "url|link|address",
                r"\b(?:append|add|include|attach|put)\b[^.\n]{0,60}\b(?:the user's|their|his|her)\b"
                r"[^.\n]{0,60}\b(?:url|link|address)",
            ),
            (
                "exfiltration",
                "link|url",
                r"\b(?:in|to|at the end of) (?:every|each|any) (?:link|url)s?\b",
            ),
            (
                "exfiltration",
                "link|url",
                r"(?:häng|füge)\w*[^.\n]{0,60}(?:an jeden link|an jede url|"
                r"jede[nm]? link)",
            ),
            (
                "exfiltration",
                "enlace|link",
                r"(?:incluye|añade|agrega)\w*[^.\n]{0,60}(?:cada enlace|"
                r"todos los enlaces|cada link)",
            ),
            (
                "exfiltration",
                "lien",
                r"(?:ajoute|inclus)\w*[^.\n]{0,60}(?:chaque lien|tous les liens)",
            ),
            (
                "exfiltration",
                "link",
                r"(?:coloque|inclua|adicione)\w*[^.\n]{0,60}(?:todo link|cada link|"
                r"todos os links)",
            ),
            (
                "exfiltration",
                "ссылк",
                r"(?:добавляй|добавь)\w*[^.\n]{0,60}(?:к каждой ссылке|"
                r"в каждую ссылку)",
            ),
            (
                "exfiltration",
                "链接",
                r"(?:生成链接|每个链接|所有链接)[^。\n]{0,30}(?:加在|附在|添加)",
            ),
            (
                "exfiltration",
                "リンク",
                r"リンク[^。\n]{0,30}(?:住所|位置|電話)[^。\n]{0,60}(?:付け|追加)",
            ),
            ("exfiltration", "](http", r"!\[[^\]]*\]\(https?://[^)\s]*\?[^)\s]*=[^)\s]*\)"),
            ("exfiltration", "this image", r"\b(?:render|show|display|include) this image\b"),
            (
                "exfiltration",
                "ask ",
                r"\bask (?:them |the user )?for (?:the |their )?(?:login|"
                r"password|credentials|pin|card)",
            ),
            # Broader forms of the same orders, each in the imperative (at a sentence's start, or
            # after "please", "now", "just"): "I ignore the rules of grammar" is not one.
            (
                "override",
                "ignor|disregard|forget|override|bypass",
                r"(?:^|[.!?:;,—–]\s*|\b(?:please|now|just|simply|kindly|then|and)\s+)(?:ignore|disregard|"
                r"forget|override|bypass)\b[^.\n]{0,60}\b(?:instructions?|rules|guidelines|prompts?|"
                r"directives|constraints|restrictions|policies|polic(?:y|ies)|programming|training|"
                r"guardrails|filters?|system message|everything (?:above|before|else))\b",
            ),
            (
                "override",
                "new instructions|new rules|new system|new directive|your new|your real|"
                "your true|your actual",
                r"\b(?:(?:these are |here are )?(?:your )?new (?:instructions|rules|system prompt|"
                r"directives?|guidelines)|your (?:new|real|true|actual) (?:instructions|role|task|"
                r"purpose|goal|job) (?:is|are))\b",
            ),
            (
                "override",
                "pretend|act as|roleplay|role-play|jailbreak|unrestricted|no longer bound",
                r"\b(?:pretend (?:you are|to be|that you)|act as (?:an? )?(?:unrestricted|unfiltered|"
                r"evil|different)|jailbreak(?:ed)? mode|unrestricted mode|(?:you are )?no longer bound "
                r"by)\b",
            ),
            (
                "override",
                "du bist jetzt|tu so|neue anweisung|neue regeln|ab sofort|von nun an",
                r"\b(?:du bist (?:jetzt|ab sofort|nun)|tu so,? als|neue (?:anweisungen|regeln|"
                r"vorgaben)|(?:ab sofort|von nun an) (?:antwortest|bist|gilt|ignorierst|darfst) du)\b",
            ),
            (
                "override",
                "ignoriere|vergiss",
                r"(?:^|[.!?:;,]\s*)(?:ignoriere|vergiss)\b[^.\n]{0,60}"
                r"\b(?:alles|anweisung\w*|regeln|vorgaben|einschränkung\w*|richtlinien)",
            ),
            (
                "override",
                "ahora eres|actúa como|finge|nuevas instrucciones|nuevas reglas|desde ahora",
                r"\b(?:ahora eres|actúa como|finge (?:ser|que)|nuevas (?:instrucciones|reglas)|"
                r"desde ahora (?:eres|respondes|ignoras))\b",
            ),
            (
                "override",
                "désormais|tu es maintenant|fais comme|agis comme|nouvelles",
                r"\b(?:désormais,? tu|tu es (?:désormais|maintenant)|fais comme si|agis comme|"
                r"nouvelles (?:instructions|consignes|règles))\b",
            ),
            (
                "override",
                "agora você é|finja|aja como|novas instruções|novas regras|de agora em diante",
                r"\b(?:agora você é|finja (?:ser|que)|aja como|novas (?:instruções|regras)|"
                r"de agora em diante,? (?:você|responda))\b",
            ),
            (
                "override",
                "ты теперь|притворись|веди себя как|новые инструкции|новые правила|"
                "с этого момента|отныне",
                r"(?:ты теперь|притворись|веди себя как|новые (?:инструкции|правила)|(?:с этого момента|"
                r"отныне),? ты)",
            ),
            (
                "override",
                "你现在是|从现在|扮演|假装|越狱|新的指令|新的规则|以上|上面",
                r"(?:你现在是|从现在(?:起|开始)[，,]?你|扮演|假装你|越狱|新的(?:指令|规则|系统提示)|"
                r"(?:忽略|无视)(?:以上|上面|前面))",
            ),
            (
                "override",
                "あなたは|今後は|なりきって|脱獄|新しい指示|新しいルール|無視して",
                r"(?:あなたは(?:今から|これから|もう)|今後は[^。\n]{0,20}(?:回答|答え)|なりきって|脱獄|"
                r"新しい(?:指示|ルール)|(?:以上|上記|これまで|以前)の[^。\n]{0,10}無視)",
            ),
            (
                "tool_call",
                "tool|function|command|script",
                r"(?:^|[.!?:;,]\s*|\b(?:please|now|then|and|immediately)\s+)(?:call|invoke|run|execute|"
                r"use|trigger)\b[^.\n]{0,30}\b(?:tool|function|command|script)\b",
            ),
            (
                "tool_call",
                "http",
                r"(?:^|[.!?:;,]\s*|\b(?:please|now|then|and|always)\s+)(?:open|visit|fetch|load|click|"
                r"download|browse to|navigate to|go to)\b[^.\n]{0,30}https?://",
            ),
            (
                "tool_call",
                "führe|öffne|lade|ejecuta|abre|descarga|exécute|ouvre|télécharge|execute|"
                "abra|baixe|выполни|запусти|открой|скачай|执行|运行|打开|下载|実行|開いて|ダウンロード",
                r"(?:führe\b[^.\n]{0,40}\baus|öffne\s+https?://|ejecuta\b|abre\s+https?://|exécute\b|"
                r"ouvre\s+https?://|execute\s+(?:o|este|esse)\b|abra\s+https?://|выполни|запусти|"
                r"открой\s+https?://|执行|运行(?:这个|以下|该)|打开\s*https?://|を実行|https?://\S+\s*を開)",
            ),
            (
                "exfiltration",
                "@|http|webhook",
                rf"(?:^|[.!?:;,]\s*|\b(?:please|always|now|then|and|also)\s+)(?:send|forward|email|"
                rf"e-mail|mail|post|upload|share|copy|cc|bcc|report|sync|leak|transmit)\b(?! me\b)"
                rf"[^.\n]{{0,80}}{_DESTINATION}",
            ),
            (
                "exfiltration",
                "@|http|webhook",
                rf"(?:sende|schicke|leite|kopiere|envía|manda|reenvía|envoie|transfère|envie|encaminhe|"
                rf"отправ|перешли|пересыл|发送|发给|转发|上传|同步|送信|転送|送って)[^.。\n]{{0,80}}"
                rf"{_DESTINATION}",
            ),
            (
                "exfiltration",
                "@|http",
                rf"{_DESTINATION}[^.。\n]{{0,40}}(?:senden|schicken|weiterleiten|enviar|envoyer|"
                rf"отправ|发送|转发|送信|転送|送って|アップロード)",
            ),
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
    ]
)

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

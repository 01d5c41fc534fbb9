"""The orders an instruction to an AI assistant gives, as rules for memories/harm/instructions.py:
prompt markup (role markers), orders to ignore earlier instructions, tool calls and commands, and
sending the person's data somewhere, with their broader imperative forms. A data table of
(reason, stems, pattern) rows, tried in order (`gated.Rules`); each row's stems are words every
match holds."""

from __future__ import annotations

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

ORDERS: tuple[tuple[str, str, str], ...] = (
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
        "ты теперь|притворись|веди себя как|новые инструкции|новые правила|с этого момента|отныне",
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
)

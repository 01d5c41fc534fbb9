"""The words reconciliation reads, in the languages the product claims (en, zh, ja, de, es, fr,
pt, ru), matched by `judge.has`: a Latin or Cyrillic entry as whole words of the casefolded
text, or as a word's beginning when it ends in "*" ("сестр*": сестра, сестры); a Chinese or
Japanese entry as a substring. One line per language, entries separated by "|"."""

from __future__ import annotations


def entries(*lines: str) -> tuple[str, ...]:
    return tuple(e.strip() for line in lines for e in line.split("|") if e.strip())


# A change of a fact already stored: the new text says the old value stopped being true.
CHANGE_CUES = entries(
    "now|no longer|not any more|any more|anymore|just started|started|new job|moved|switched|"
    "left|sold|quit|stopped|changed|replaced|traded|got promoted|promoted|finished|dropped out|"
    "went|migrated|turned|retired|cancelled|canceled|closed|got a|got my|bought|these days|"
    "since|again|outgrew|paused|took over|became|down to|ended|broke up|divorced|got married|"
    "was born|died|new",
    "jetzt|nun|inzwischen|nicht mehr|mehr|angefangen|gezogen|umgezogen|gewechselt|verkauft|"
    "gekündigt|aufgehört|neue|neuer|neues|seit|in rente|getrennt|geheiratet",
    "ahora|ya no|dejé|me mudé|mudamos|nos mudamos|vendí|cambié|empecé|nuevo|nueva|desde|"
    "terminé|me casé|renuncié",
    "maintenant|n'est plus|plus|quitté|déménagé|vendu|passé à|passée à|changé|commencé|"
    "nouveau|nouvelle|depuis|arrêté|désormais",
    "agora|não mais|nao mais|saí|saiu|me mudei|mudei|vendi|troquei|comecei|novo|nova|"
    "terminamos|parei|larguei",
    "теперь|сейчас|больше не|уже не|ушёл|ушел|ушла|переехал*|продал*|сменил*|начал*|нов*|"
    "бросил*|расстал*",
    "现在|不再|已经不|跳槽|换了|搬到|搬家|卖了|辞职|离职|调走|新的|开始|改成|分手|目前",
    "今は|もう|辞め|引っ越|売っ|変え|乗り換え|転職|始め|新しい|ではありません|やめ|別れ",
)

# Adding to what is stored ("also", "too"): both stay.
ADDITIVE_CUES = entries(
    "also|too|as well|another",
    "auch|außerdem|ausserdem",
    "también|tambien|además",
    "aussi|également",
    "também|tambem",
    "ещё|еще|тоже|также",
    "还|也",
    "も",  # "もう" (no longer) is taken out before this is read
)

# A past state ("I had a cat as a child", "my father was a firefighter"): beside a present one it
# is another fact, both true.
PAST = entries(
    "had|was|were|used to|as a child|when i was|former|formerly",
    "war|hatte|früher|damals",
    "tenía|tenia|era|fue|de niño|de niña",
    "avais|avait|était|étais|autrefois",
    "tinha|foi|quando criança",
    "был*|в детстве",
    "以前|曾经|小时候",
    "昔|子供の頃|ていました|でした",
)

# Who a fact is about, as concepts over the languages. Two texts naming different people are
# about different people (a sister is not a brother), whatever their cosine.
PEOPLE: dict[str, tuple[str, ...]] = {
    "sister": entries("sister*|schwester*|hermana*|sœur*|soeur*|irmã*|сестр*|姐|妹"),
    "brother": entries("brother*|bruder|brüder|hermano*|frère*|frere*|irmão*|брат*|哥|弟|兄"),
    "wife": entries("wife|wife's|frau|esposa|mujer|femme|жена|жены|жене|妻子|老婆|妻"),
    "husband": entries("husband*|mann|marido|esposo|mari|муж*|丈夫|老公|夫"),
    "partner": entries("partner*|pareja|boyfriend|girlfriend|novio|novia|namorad*|fiancé*"),
    "son": entries("son|son's|sons|sohn|söhne|hijo|fils|filho|сын*|儿子|息子"),
    "daughter": entries("daughter*|tochter|töchter|hija|fille|filha|дочь|дочер*|дочк*|女儿|娘"),
    "children": entries("kids|children|child|kinder|hijos|enfants|filhos|дети|детей|孩子|子供"),
    "mother": entries("mother*|mum*|mom*|mutter|mama|madre|mamá|mère|mãe|мам*|мать|матер*|妈妈|母"),
    "father": entries("father*|dad*|vater|papa|padre|papá|père|pai|пап*|отец|отц*|爸爸|父"),
    "grandmother": entries("grandmother*|grandma*|oma|abuela|grand-mère|avó|бабушк*|奶奶|外婆"),
    "grandfather": entries("grandfather*|grandpa*|opa|abuelo|grand-père|avô|дедушк*|爷爷|外公"),
    "cousin": entries("cousin*|primo|prima|кузен*|堂|表|いとこ"),
    "nephew/niece": entries("nephew*|niece*|neffe|nichte|sobrin*|neveu|nièce|племянни*|侄|甥|姪"),
    "aunt/uncle": entries("aunt*|uncle*|tante|onkel|tía|tío|tia|tio|oncle|тёт*|тет*|дяд*|叔|伯"),
    "friend": entries("friend*|freund*|amigo*|amiga*|ami|amie|друг|друга|подруг*|朋友|友"),
    "colleague": entries("colleague*|kolleg*|compañer*|collègue*|colega*|коллег*|同事|同僚"),
    "boss": entries("boss*|manager*|chef*|jefe*|jefa*|patron*|начальни*|领导|上司"),
    "parents": entries("parents|eltern|padres|pais|родител*|父母|両親"),
    "in-law": entries(
        "in-law*|schwieger*|schwager|schwägerin|suegr*|cuñad*|beau-*|belle-*|sogr*|cunhad*",
        "свекр*|тёщ*|тещ*|шурин*|девер*|золовк*|своя*|невестк*|зят*",
        "岳|婆婆|公公|姐夫|妹夫|嫂|弟媳|義|义",
    ),
    "ex": entries("ex-*|ex"),
    # Roles: someone other than the speaker, never one of the people above.
    "coach": entries(
        "coach*|trainer*|trainerin|entrenador*|entraîneur*|entraineur*|treinador*|тренер*|教练|コーチ"
    ),
    "team lead": entries(
        "team lead*|teamlead*|tech lead*|teamleiter*|líder de equipo|jefe de equipo|jefa de equipo",
        "chef d'équipe|cheffe d'équipe|líder de equipe|тимлид*|组长|チームリーダー",
    ),
    "flatmate": entries(
        "flatmate*|roommate*|room-mate*|housemate*|mitbewohner*",
        "compañero de piso|compañera de piso",
        "colocataire*|coloc|colocs|colega de quarto|companheiro de quarto|companheira de quarto",
        "сосед по квартире|соседка по квартире|сосед по комнате|соседка по комнате",
        "室友|合租|ルームメイト|同居人|シェアメイト",
    ),
    "neighbour": entries(
        "neighbour*|neighbor*|nachbar*|vecin*|voisin*|vizinh*|сосед*|邻居|隣人|近所の人|お隣"
    ),
    "landlord": entries(
        "landlord*|landlady*|vermieter*|casero|casera|senhorio|senhoria|арендодател*|房东|大家さん"
    ),
    "therapist": entries(
        "therapist*|therapeut*|terapeuta*|thérapeute*|therapeute*|психотерапевт*|心理医生|"
        "治疗师|セラピスト|カウンセラー"
    ),
}

# A fact's slot: two texts in different slots state different facts.
SLOTS: dict[str, tuple[str, ...]] = {
    "job": entries(
        "work*|job*|engineer*|develop*|employ*|company|office|promoted|postdoc|phd|student|"
        "unemployed|career|analyst|nurse|teacher",
        "arbeit*|beruf*|stelle|firma|entwickler*|ingenieur*",
        "trabaj*|empleo|empresa|travail*|boulot|poste|trabalh*|emprego|работ*|должност*",
        "工作|上班|公司|跳槽|职|开发|工程师|架构师|職|働|会社|勤め|エンジニア",
    ),
    "home": entries(
        "live|lives|living|moved|flat|house|apartment|rent|home",
        "wohn*|gezogen|umgezogen|vivo|vive|resido|mudé|mudamos|casa|piso|habite|déménag*",
        "appartement|moro|mora|mudei|живу|живёт|живет|живём|живем|переех*|квартир*",
        "住|搬|引っ越",
    ),
    "car": entries("car|drive|drives|auto|wagen|coche|voiture|carro|машин*|车|車"),
    "phone": entries(
        "phone|iphone|pixel|galaxy|fairphone|handy|teléfono|móvil|téléphone|portable|celular",
        "телефон*|手机|スマホ|携帯",
    ),
    "diet": entries(
        "vegetarian|vegan|meat|fish|vegetarier|fleisch|vegetarian*|carne|végétarien*|viande",
        "вегетариан*|мяс*|素食|吃肉|ベジタリアン",
    ),
    "relationship": entries(
        "single|relationship|married|engaged|dating|divorced|ledig|verheiratet|soltera|soltero",
        "casad*|célibataire|marié*|namor*|solteir*|женат*|замуж*|单身|结婚|独身|結婚",
    ),
}

# Words too common to say two texts are about the same thing (`judge._same_subject` compares the
# first four letters of longer words, and pairs of Chinese or Japanese characters).
COMMON_WORDS = frozenset(
    entries(
        "with|that|this|have|from|they|them|their|there|about|into|just|more|than|been|were|will|"
        "would|what|when|also|some|only|very|because|every|each|other|after|before|since|again",
        "habe|haben|nicht|mehr|sind|eine|einen|einem|einer|dass|auch",
        "para|como|esta|este|pero|desde|avec|dans|pour|mais|sont|cette|depuis|comme|isso|essa|esse",
        "этот|было|есть|теперь|сейчас",
    )
)
COMMON_CJK = frozenset(entries("现在|已经|一个|一辆|我的|今は|最近"))

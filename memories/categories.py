"""The default category vocabulary. Sensitive categories stay out of an app's grant unless named.

Each category carries a one-line description (shown to people and to an LLM classifier) and a few
example memories: the local classifier compares a memory's embedding with these prototypes. The
examples are not drawn from the labelled test sets (tests/memories/data/).

Sensitive categories also carry `signals`: words and phrases (regular expressions, matched
case-insensitively) that make a memory sensitive-looking. A memory that shows one is labelled
with that category whatever the embedding says, because a sensitive fact shared by mistake cannot
be taken back while a wrongly hidden one is one click away (see memories/classify.py). They were
written from each topic's ordinary vocabulary and the dev half of the sensitive set only.

They also carry `names`: words that, in the name of a new category, mean that category ("medical",
"my-therapy"); with the signals, they decide whether a new category starts sensitive. This module
is the one home of that vocabulary (memories/services/categories.py uses it).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


@dataclass(frozen=True)
class Category:
    slug: str
    description: str
    sensitive: bool = False
    examples: tuple[str, ...] = ()
    signals: tuple[str, ...] = ()
    # Ordinary facts that look like this sensitive category and are not in it (a payments team,
    # a hobby's budget, Sunday chores): a memory more like these than like the category is not
    # labelled with it by its embedding alone (memories/classify.py). Not drawn from
    # bench/data/ordinary_facts.json; every default sensitive category has `EVERYDAY` among them.
    ordinary: tuple[str, ...] = ()
    # Words that, in a category's name, mean this (sensitive) category: a new category named
    # "medical" or "my-therapy" starts sensitive (see `sensitive_meaning`).
    names: tuple[str, ...] = ()
    # Given by a rule, never by the classifier's prototypes or signals (`UNCHECKED`).
    by_rule: bool = False


# The label of a memory whose language the classifier is not validated for (memories/classify.py,
# `Classifier.unchecked`) and that got no sensitive label: a sensitive category like the others,
# so every grant hides it unless the owner ticks it, and the owner clears it like any label.
UNCHECKED = "unchecked-language"

# Everyday facts that share a sensitive category's words or shape without being in it: weekday and
# holiday routines (a prototype like "I go to church" pulls "I water the plants on Sundays"), clubs
# and teams, reading the news, looks and character, fitness, jobs and errands near a sensitive
# topic. Every default sensitive category counts them as its ordinary look-alikes (see
# `Category.ordinary`). Written from the dev halves' false alarms as themes, not copied from them;
# no word in them occurs only in a held-out item (docs/benchmarks.md).
EVERYDAY: tuple[str, ...] = (
    # routines with weekday and holiday words
    "I go running on Sunday mornings.",
    "We have a big lunch with my parents every Sunday.",
    "My parents come round at the weekend.",
    "I go to the supermarket on Saturday mornings.",
    "I play cards with friends on Friday nights.",
    "I clean the flat every Saturday morning.",
    "We put up the Christmas tree in early December.",
    "I buy chocolate eggs for the kids at Easter.",
    "We spend New Year's Eve with friends.",
    "I carve pumpkins at Halloween.",
    # hobbies, clubs and teams
    "I joined a local running club.",
    "I'm the captain of our pub quiz team.",
    "I support Arsenal.",
    "I help run our street's book swap.",
    "I paint landscapes at weekends.",
    "I like visiting old cathedrals when I travel.",
    "I make my own bread.",
    "I sing and play the piano.",
    "I make my own kombucha.",
    # reading, news, volunteering, habits
    "I read the news every morning.",
    "I like reading about economics and history.",
    "I help out at the dog rescue at weekends.",
    "I compost our food scraps.",
    "I'm a member of the local library.",
    "I write my notes by hand.",
    # who they are: looks and character
    "I'm five foot six and have curly hair.",
    "I'm tall for my age.",
    "I'm quite shy.",
    "I'm quite sarcastic.",
    "I have a big laugh.",
    "I'm married to my college sweetheart.",
    # fitness and the body, without illness
    "I go to the gym three times a week.",
    "I'm preparing for my first marathon.",
    "I drink a lot of water.",
    "I do 10,000 steps a day.",
    "I stretch after every run.",
    "I got a new pair of running shoes.",
    # jobs near a sensitive topic, chores and errands
    "I work as a nurse in a hospital.",
    "I work as a solicitor at a law firm.",
    "I repaired the broken fence in the garden.",
    "My driving licence needs renewing.",
    "I sent back a faulty kettle.",
    "I like watching detective series.",
    "I play tennis at the courts near my flat.",
    "I paid a library fee for a late book.",
    "I need photos for my new ID card.",
    "I switched to a new phone plan.",
    "I'm a keen home cook.",
    # cutting down, organising, roles in clubs and schools, history (issue 36.3's second dev set)
    "I'm cutting back on sugar.",
    "I'm organising the team's summer barbecue.",
    "I was voted best player at my club.",
    "I'm the chair of our book club.",
    "I help out at the school fair every year.",
    "I'm reading a book about Roman history.",
    # food one dislikes (issue 36.3's third dev set, bench/data/sensitive_dev3.json; a choir was
    # tried too and took "I sing in my church choir" out of religion on the English dev set)
    "I don't like olives or anchovies.",
    # opening hours and errands (issue 36.3's fourth dev set, bench/data/sensitive_dev4.json)
    "The post office closes at noon on Saturdays.",
    "The shops are shut on public holidays.",
    "I pay for the groceries by card.",
)


# Signal words in the other languages the product claims (memories/language.py: CLAIMED), per
# language and sensitive category. A text's own language's are matched beside the English ones
# (`signals_pattern`): "demo", "cup" or "blind" mean a protest, a Catalan party, a blind person
# only in German, Spanish or German text, not in an English one. Written from each language's
# ordinary vocabulary for the topic and the dev split's misses of bench/data/multilingual.json
# only (`uv run python -m bench categories-languages --verbose`), checked against that split's
# ordinary facts and bench/data/ordinary_facts.json. Chinese and Japanese have no spaces between
# words: their signals are substrings, written long enough not to occur inside everyday words
# (药店 is a shop, 礼拜天 a Sunday, 拉拉队 a cheerleading squad, 株式会社 a company); Latin
# acronyms among them get no \b, which fails beside a Han character ("我是HIV阳性").
SIGNALS_BY_LANGUAGE: dict[str, dict[str, tuple[str, ...]]] = {
    # Simplified Chinese: substrings
    "zh": {
        "health": (
            r"(?<![a-z])(hiv|aids|adhd)(?![a-z])",
            r"糖尿病|高血压|心脏病|癌症|肿瘤|化疗|艾滋|乙肝|肝炎|哮喘|癫痫|抑郁|焦虑症|双相|精神分裂",
            r"强迫症|多动症|自闭症|失眠|心理咨询|心理医生|精神科|心理治疗|吃药|服药|药物|处方|确诊",
            r"诊断|怀孕|备孕|孕期|流产|堕胎|试管婴儿|不孕|预产期|残疾|残障|轮椅|戒酒|戒毒|酗酒|成瘾",
            r"过敏|做手术|动手术|住院|慢性|二甲双胍|舍曲林|胰岛素|抗抑郁|甲亢|甲减|痛风|中风|携带者",
            r"自杀|自残|进食障碍|厌食症|暴食症|病史|复查",
            r"冠心病|肾病|白血病|帕金森|老年痴呆|阿尔茨海默|躁郁|惊恐|心理问题|精神疾病|降压药|安眠药|抗生素",
            r"激素|止痛药|避孕药|透析|放疗|复诊|查出|患有|患上|孕周|怀了|怀上|产检|剖腹产|坐月子|不育|人流",
            r"避孕|残疾证|失明|失聪|截肢|酒精依赖|得了.{0,6}病",
        ),
        "finance": (
            r"工资|月薪|年薪|薪水|薪资|收入|年终奖|存款|积蓄|欠了|负债|债务|贷款|房贷|车贷|信用卡",
            r"花呗|借呗|网贷|还款|理财|股票|炒股|投资|破产|逾期|征信|税前|税后|个税|补税|欠税|养老金",
            r"余额|欠款|借钱",
            r"工资卡|欠钱|欠债|欠银行|外债|借了\d*[十百千万]+|利息|本金|还清|老赖|失信被执行人|定投|买基金",
            r"股市|A股|美股|港股|比特币|虚拟币|公积金|遗产|继承|奖金|底薪|提成|资产|身家|低保|失业金",
        ),
        "religion": (
            r"基督|天主教|佛教|信佛|皈依|受洗|洗礼|教会|做礼拜|团契|回族|穆斯林|伊斯兰|清真寺|斋月",
            r"封斋|斋戒|吃斋|念佛|拜佛|道教|信教|信仰|无神论|犹太|印度教|祷告|祈祷|圣经|古兰经|弥撒",
            r"主日|法名|佛门|出家|信主",
            r"教徒|居士|受戒|礼佛|耶稣|上帝|真主|安拉|阿门|东正教|新教|去教堂|上教堂|修女|只吃清真|不吃猪肉",
            r"开斋节|古尔邦|朝觐|查经|读经|灵修|法会|宗教|不信教",
        ),
        "politics": (
            r"投票|选举|投给|党员|入党|共产党|中共|国民党|民主党|共和党|民进党|民盟|民革|九三学社",
            r"民建|农工党|致公党|台盟|党派|支部书记|集会|游行|示威|抗议|声援|请愿|维权|工会",
            r"政治立场|政治观点|政治倾向|左派|右派|自由派|保守派|女权",
            r"选票|选民|党支部|党组织|党费|上街|罢工|签名请愿|联署|政见|台独|港独|藏独|反对.{0,4}政府",
            r"自由主义|保守主义|社会主义|民族主义|特朗普|川普|拜登",
        ),
        "sexuality": (
            r"(?<![a-z])(lgbt\w*|gay|queer)(?![a-z])",
            r"同性恋|男同|女同|双性恋|异性恋|无性恋|泛性恋|跨性别|变性|性别认同|出柜|拉拉(?!队)",
            r"夫妻生活|性生活|性取向|开放式关系|多元关系|性冷淡",
            r"基佬|酷儿|性别不安|非二元|性向|形婚|性伴侣|约炮|一夜情|性欲|房事|开放关系|同性伴侣|同性婚姻",
        ),
        "legal": (
            r"(?<![a-z])(h-?1b)(?![a-z])",
            r"判刑|被判|判了|拘役|缓刑|坐牢|服刑|入狱|刑满|案底|前科|犯罪记录|被捕|被抓|拘留|醉驾",
            r"酒驾|起诉|告上|打官司|官司|开庭|诉讼|仲裁|律师函|被告|原告|工作签证|绿卡|移民|难民",
            r"庇护|黑户|逾期居留|入籍|抚养权",
            r"坐过牢|劳教|判决|传票|立案|报警|罚款|吊销|签证过期|签证被拒|身份过期|非法居留|移民局|赡养费",
            r"抚养费|劳动仲裁|讨薪|欠薪|纠纷",
        ),
    },
    # Japanese: substrings
    "ja": {
        "health": (
            r"(?<![a-z])(hiv|aids|adhd)(?![a-z])",
            r"糖尿病|高血圧|喘息|がん(?:と診断|治療|検診)|癌|うつ病|鬱|適応障害|不安障害|パニック障害",
            r"発達障害|双極性|統合失調症|精神科|心療内科|カウンセリング|診断|持病|服用|処方|抗うつ薬",
            r"吸入薬|睡眠薬|安定剤|[一二三1-3]錠|錠剤|妊娠|妊活|不妊|流産|出産予定|中絶|体外受精|障害者",
            r"障害が|車椅子|依存症|断酒|エイズ|肝炎|てんかん|手術|入院|通院|アレルギー|不眠|闘病",
            r"レクサプロ|ジェイゾロフト|パキシル|デパス|リーマス|インスリン|シムビコート",
            r"治療|病気|薬を飲|薬を処方|飲み薬|母子手帳|つわり|妊婦|出産|帝王切開|切迫早産|透析|メンタルクリニック",
            r"自律神経|自殺|自傷|リストカット|摂食障害|拒食|過食|禁酒|補聴器|視覚障害|聴覚障害|難聴|認知症",
            r"更年期|低用量ピル|ピルを|不眠症|自閉症|強迫性障害|花粉症",
        ),
        "finance": (
            r"年収|月収|給料|給与|手取り|額面|貯金|預金|残高|借金|ローン|返済|奨学金|債務|破産|滞納",
            r"延滞|消費者金融|リボ払い|クレジットカード|株式投資|株を|投資|NISA|iDeCo|資産|税務署",
            r"追徴|加算税|脱税|年金",
            r"月給|時給|収入|副業|ボーナス|カードローン|多重債務|債務整理|任意整理|差し押さえ|督促|取り立て",
            r"生活保護|失業保険|失業手当|遺産|相続|株で|株が|株式(?!会社)|仮想通貨|ビットコイン|FX|お金を借り",
            r"お金を貸",
        ),
        "religion": (
            r"キリスト教|クリスチャン|カトリック|プロテスタント|洗礼|礼拝|仏教|創価学会|学会員|勤行",
            r"題目|念仏|信者|信仰|入信|改宗|脱会|イスラム|ムスリム|ラマダン|エホバ|統一教会|無神論",
            r"宗教|聖書|コーラン|お祈り",
            r"神様を信じ|神を信じ|檀家|お経|教会に通|教会へ行|教会に行|ミサ|修道(女|士|僧|会)|修道院(に入|で暮ら)|天理教|立正佼成会|幸福の科学",
            r"真如苑|生長の家|末日聖徒|モルモン|ユダヤ教|ヒンドゥー教|ヒジャブ|ハラール|豚肉を食べない",
            r"無宗教|宗派|信心|浄土真宗|日蓮|禅宗",
        ),
        "politics": (
            r"投票|党に入れた|選挙|党員|支持政党|自民党|立憲|共産党|公明党|維新の会|国民民主|れいわ",
            r"社民党|デモに|労働組合|組合員|春闘|九条の会|市民運動|活動家|署名活動|政治的|左翼|右翼",
            r"党を支持|党支持|後援会|政党|政治活動|反原発|脱原発|反戦|護憲|改憲|抗議|集会|労組|フェミニスト",
            r"参政党|社会党|立候補|右派|左派|リベラル",
        ),
        "sexuality": (
            r"(?<![a-z])(lgbt\w*|gay|queer)(?![a-z])",
            r"ゲイ(?!ン|ツ)|レズビアン|バイセクシャル|バイセクシュアル|両性愛|同性愛|同性パートナー",
            r"同性の(?:パートナー|恋人)|パートナーシップ(?:証明|制度|宣誓)|トランスジェンダー",
            r"性同一性|性別違和|ノンバイナリー|Xジェンダー|アセクシャル|アセクシュアル|無性愛",
            r"カミングアウト|セックスレス|レスです|レスだ|レス状態|性生活|性的指向|ポリアモリー",
            r"ホモ|オネエ|同性婚|クィア|トランス(?:ジェンダー|女性|男性)|性転換|性別適合手術|戸籍の性別",
            r"恋愛対象|風俗|性病|性感染症",
        ),
        "legal": (
            r"(?<![a-z])(h-?1b)(?![a-z])",
            r"逮捕|捕まっ|検挙|判決|執行猶予|前科|罰金刑|懲役|服役|刑務所|有罪|起訴|裁判を|裁判中",
            r"裁判して|訴訟|提訴|訴えられ|調停|親権|示談|在留資格|在留カード|不法滞在|オーバーステイ",
            r"難民申請|永住権|帰化|仮放免",
            r"取り調べ|書類送検|送検|被告|原告|弁護士に依頼|弁護士を立て|慰謝料|離婚裁判|養育費|家庭裁判所",
            r"保護観察|少年院|罰金|免停|免許停止|免許取り消し|交通違反|就労ビザ|配偶者ビザ|学生ビザ",
            r"ビザの更新|ビザが|永住|入管|強制送還|告訴|被害届",
        ),
    },
    # German
    "de": {
        "health": (
            r"\b(diabet\w*|depression(en)?|depressiv\w*)\b",
            r"\b(angststörung\w*|panikattacke\w*|burn-?out)\b",
            r"\b(therapie\w*|therapeut\w*|psychiater\w*)\b",
            r"\b(psychotherap\w*|psychiatri\w*|diagnos\w*)\b",
            r"\b(krankheit\w*|erkrank\w*|chronisch\w*|medikament\w*|tabletten?|antidepressiv\w*)\b",
            r"\b(schwanger\w*|fehlgeburt\w*|abtreibung|schwangerschaft\w*|kinderwunsch\w*|ssw)\b",
            r"\b(behindert\w*|behinderung\w*|rollstuhl\w*|alkoholiker\w*)\b",
            r"\b(\w*süchtig|suchtkrank\w*)\b",
            r"\b(\w*suchtklinik|(alkohol|spiel|drogen|mager|ess|kauf)sucht|entzug)\b",
            r"\b(allergi\w*|asthma|krebs\w*|tumor\w*|chemo\w*|epilepsie|migräne|hashimoto)\b",
            r"\b(schilddrüse\w*|l-thyroxin|insulin)\b",
            r"\b(operiert|ins krankenhaus|krankenhausaufenthalt)\b",
            r"\b(krankgeschrieben|zwangsstörung\w*|essstörung\w*)\b",
            r"\b(adhs|autis\w*|borderline|psychose)\b",
            r"\b(reha|pille|antibiotika|kortison|cortison|blutdruck|bluthochdruck|cholesterin)\b",
            r"\b(herzinfarkt|schlaganfall|herzfehler)\b",
            r"\b(neurodermitis|rheuma|morbus crohn|endometriose)\b",
            r"\b(zöliakie|tinnitus|hörgerät\w*|gehörlos\w*)\b",
            r"\b(taub|blind|sehbehindert\w*|\w*behindert\w*)\b",
            r"\b(prothese|entbindung\w*|kaiserschnitt|abstinent|drogen|psychosomatisch\w*)\b",
        ),
        "finance": (
            r"\b(gehalt|gehälter|verdiene|brutto|einkommen)\b",
            r"\b(lohn|stundenlohn|\w*schulden|kredite?|ratenkredit)\b",
            r"\b(dispo|darlehen|hypothek|abbezahlt|abzahl\w*|tilg\w*|insolven\w*|pleite|schufa)\b",
            r"\b(mahnung(en)?|inkasso|erspart\w*|ersparnis\w*|tagesgeld\w*|festgeld\w*|sparbuch)\b",
            r"\b(aktien|depot|etfs?|erbschaft|geerbt|finanzamt|steuernachzahlung|steuerschulden)\b",
            r"\b(bürgergeld|hartz)\b",
            r"\b((brutto|netto) (im|pro|am) (monat|jahr))\b",
            r"\b(\d[\d.,]* ?(€|euro)? netto|baufinanzierung)\b",
            r"\b(gerichtsvollzieher|pfändung)\b",
            r"\b(gepfändet|auf meinem (giro|spar|tagesgeld)?konto|krypto\w*)\b",
            r"\b(bitcoin\w*|arbeitslos\w*|wohngeld)\b",
            r"\b(bafög|unterhalt (zahlen|zahle)|unterhaltszahlung\w*)\b",
        ),
        "religion": (
            r"\b(katholisch\w*|evangelisch\w*|christ(in|en)?|muslim\w*|moslem\w*|islam\w*)\b",
            r"\b(jüdisch\w*|jude|jüdin|judentum|buddhist\w*|hindu\w*|atheist\w*|konfessionslos)\b",
            r"\b(gläubig\w*|an gott|in die messe|zur messe|gottesdienst\w*|beten|bete|gebet\w*)\b",
            r"\b(ramadan|koscher|halal|getauft|konvertiert|übergetreten|freikirch\w*|hauskreis)\b",
            r"\b(bibel\w*|koran|synagoge|zeugen jehovas|kirche ausgetreten|kirchenaustritt)\b",
            r"\b(katholik\w*|protestantisch\w*|orthodox\w*)\b",
            r"\b(in die kirche|zur kirche|kirchengemeinde)\b",
            r"\b(in die moschee|zur moschee|moscheegemeinde)\b",
            r"\b(freitagsgebet|kopftuch|agnostiker\w*)\b",
            r"\b(kirchensteuer|neuapostol\w*|mormone\w*)\b",
        ),
        "politics": (
            r"\b(wähle|wählen|bundestagswahl|landtagswahl|kommunalwahl|europawahl)\b",
            # "gewählt" as a vote (ich habe ... gewählt), not as elected (wurde zum Kapitän gewählt)
            r"\b(habe|hab|hast|hat|haben|hatte|hätte)\b[^.!?]{0,60}\bgewählt\b",
            r"\bgewählt (habe|hab|hat|haben|hatte)\b",
            r"\b(wahlkampf|partei\w*|(die|den|bei den) grünen|linkspartei|die linke)\b",
            r"\b(csu|fdp|bsw|demo|demos|demonstration\w*)\b",
            r"\b(demonstrier\w*|gewerkschaft\w*|ig metall)\b",
            r"\b(ver\.di|verdi-mitglied|aktivist\w*|politisch\w*)\b",
            r"\b(fridays for future|letzte generation|extinction rebellion|antifa)\b",
            r"\b(streik\w*|feminist\w*|kommunist\w*)\b",
            r"\b(sozialist\w*|konservativ\w*|nazis?|neonazi\w*)\b",
            r"\b(rechtsextrem\w*|linksextrem\w*|wahlhelfer\w*)\b",
            r"\b(ortsverband|ortsverein|kandidier\w*)\b",
            r"\b(meine stimme|stimme für)\b",
        ),
        "sexuality": (
            r"\b(schwul\w*|lesbisch\w*|lesbe|bi|bisexuell\w*|pansexuell\w*|asexuell\w*|trans)\b",
            r"\b(homosexuell\w*|heterosexuell\w*|transfrau)\b",
            r"\b(transmann|nicht-?binär\w*|nonbinär\w*)\b",
            r"\b(geoutet|coming-?out|offene beziehung|offenen beziehung|sexleben|sex)\b",
            r"\b(transident\w*|outen|swinger\w*|csd|christopher street day|regenbogenfamilie)\b",
            r"\b(eingetragene lebenspartnerschaft|gleichgeschlechtlich\w*)\b",
        ),
        "legal": (
            r"\b(vorbestraft|verurteilt|bewährung|haft|gefängnis|knast|festgenommen|verhaftet)\b",
            r"\b(angeklagt|anklage|strafbefehl|tagessätze|anzeige gegen|strafverfahren)\b",
            r"\b(ermittlungsverfahren|verfahren wurde|klage|verklagt|verklage|vor gericht)\b",
            r"\b(duldung|aufenthaltstitel|aufenthaltserlaubnis|niederlassungserlaubnis|asyl\w*)\b",
            r"\b(abschiebung|abgeschoben|visum|einbürgerung|staatsbürgerschaft|fahrverbot)\b",
            r"\b(führerschein (weg|entzogen|abgeben)|sorgerecht)\b",
            r"\b(jva|anzeige erstattet|angezeigt|strafanzeige|geldstrafe|bußgeld\w*|mpu)\b",
            r"\b(prozess gegen|im prozess|vor dem \w*gericht|rechtsstreit|ausländerbehörde)\b",
            r"\b(blaue karte|arbeitserlaubnis)\b",
            r"\b(geflüchtet\w*|flüchtling\w*|ermittelt (gegen|wegen))\b",
            r"\b(\w*klage|mietstreit)\b",
        ),
    },
    # Spanish
    "es": {
        "health": (
            r"\b(diabet\w*|depresi[oó]n|deprimid[oa]s?|ansiedad|ataques? de p[aá]nico|terapia)\b",
            r"\b(terapeuta|psic[oó]log[oa]|psiquiatra)\b",
            r"\b(diagnostica\w*|enfermedad(es)?|cr[oó]nic[oa]s?)\b",
            r"\b(medicaci[oó]n|medicamentos?|pastillas?|antidepresivos?|embarazad[oa]|embarazo)\b",
            r"\b(aborto|fertilidad|discapacidad|silla de ruedas|alcoh[oó]lic[oa]|adicci[oó]n)\b",
            r"\b(alergi\w*|asma|c[aá]ncer|quimio\w*|vih|sida|epilepsia|migra[ñn]as?|tiroides)\b",
            r"\b(insulina|operaron|hospitalizad[oa]|salgo de cuentas|trankimazin|lorazepam)\b",
            r"\b(enferm[oa]|tratamiento (para|contra|de)|diagn[oó]stic\w*)\b",
            r"\b(trastorno\w*|tdah|autis\w*)\b",
            r"\b(esquizofreni\w*|psiqui[aá]tric\w*)\b",
            r"\b(ansiol[ií]tic\w*|somn[ií]fer\w*|tensi[oó]n alta)\b",
            r"\b(hipertensi[oó]n|colesterol|seropositiv\w*)\b",
            r"\b(leucemia|radioterapia|me oper(an|aron))\b",
            r"\b(operaci[oó]n de|fecundaci[oó]n in vitro)\b",
            r"\b(reproducci[oó]n asistida|parto|ces[aá]rea)\b",
            r"\b(minusval[ií]a|sord[oa]|ciego)\b",
            r"\b(ciega|alcoh[oó]licos an[oó]nimos|desintoxicaci[oó]n)\b",
            r"\b(drogas|sobri[oa]|reca[ií]da)\b",
            r"\b(celiaqu[ií]a|cel[ií]ac[oa]|fibromialgia|endometriosis)\b",
            r"\b(lupus|p[aá]rkinson|alzh[eé]imer|ictus|infarto|lexatin|orfidal)\b",
        ),
        "finance": (
            r"\b(sueldo|salario|cobro|gano|netos|brutos|n[oó]mina|ingresos|deudas?|pr[eé]stamo)\b",
            r"\b(hipoteca|un cr[eé]dito)\b",
            r"\b(cr[eé]dito (personal|r[aá]pido|al consumo)|tarjeta de cr[eé]dito)\b",
            r"\b(morosos|asnef|embarg(aron|an|o de)|quiebra)\b",
            r"\b(ahorros|ahorrado|acciones de|invierto)\b",
            r"\b(invert\w*|herencia|hacienda|irpf|(en|el) paro)\b",
            r"\b(debo (todav[íi]a |a[úu]n )?(\d|dinero|m[aá]s de|unos|casi))\b",
            r"\b(bitcoin\w*|criptomonedas?)\b",
            r"\b(fondos? (indexados?|de inversi[oó]n)|plan de pensiones)\b",
            r"\b(mensuales netos|euros netos)\b",
        ),
        "religion": (
            r"\b(cat[oó]lic[oa]s?|practicante|misa|evang[eé]lic[oa]s?|cristian[oa]s?)\b",
            r"\b(musulm[aá]n(a|es)?|jud[íi][oa]s?|juda[íi]smo|budista|ate[oa]|agn[oó]stic[oa])\b",
            r"\b(creyente|en dios|rezo|rezar|oraci[oó]n|ramad[aá]n|bautiz\w*|me convert[íi])\b",
            r"\b(testigos? de jehov[aá]|mormona?)\b",
            r"\b(biblia|cor[aá]n|(voy|vamos|va|van) a la iglesia)\b",
            r"\b(cofrad[ií]a\w*|costaler\w*|catequesis)\b",
            r"\b(catequista|a la mezquita|sinagoga|morm[oó]n)\b",
            r"\b(hiyab|llevo el velo|tengo fe|mi fe)\b",
        ),
        "politics": (
            r"\b(vot[ée]|votar[ée]?|votante|afiliad[oa]|militante|milito|pp|psoe|vox|sumar|erc)\b",
            r"\b(junts|bildu|pnv|independentista|refer[ée]ndum|manifestaci[oó]n|huelgas?)\b",
            r"\b(sindicato|sindical|ccoo|ugt|cnt|interventor[a]?|apoderad[oa]|elecciones)\b",
            r"\b(generales|municipales|auton[oó]micas|activista|feminista|comunista|anarquista)\b",
            r"\b(voto (a|al|en blanco)|m[aá]s madrid|m[aá]s pa[ií]s)\b",
            r"\b(bng|cup|compromís|manifestante\w*)\b",
            r"\b(pancarta\w*|8-?m|republican[oa]s?|mon[aá]rquic[oa]|franquista|de izquierdas)\b",
            r"\b(de derechas|campa[ñn]a electoral|candidat[oa])\b",
        ),
        "sexuality": (
            r"\b(lesbiana|transexual|transg[eé]nero|no binari[oa]|sal[ií] del armario)\b",
            r"\b(salir del armario|relaci[oó]n abierta|poliamoros[oa]|poliamor|vida sexual)\b",
            r"\b(orientaci[oó]n sexual)\b",
            r"\b(bollera|marica|maric[oó]n|casada con una mujer|casado con un hombre|swingers?)\b",
            r"\b(intercambio de parejas|sexo)\b",
        ),
        "legal": (
            r"\b(antecedentes penales|condenad[oa]|c[aá]rcel)\b",
            r"\b(prisi[oó]n|detenid[oa]|arrestad[oa])\b",
            r"\b(juicio|demand[eé]|una demanda|denunci[eé]|situaci[oó]n irregular|sin papeles)\b",
            r"\b(arraigo|regularizaci[oó]n|permiso de (residencia|trabajo)|residencia temporal)\b",
            r"\b(asilo|deportad[oa]|expulsi[oó]n)\b",
            r"\b(libertad condicional|custodia|orden de alejamiento)\b",
            r"\b(pensi[oó]n de alimentos|reagrupaci[oó]n familiar)\b",
            r"\b(divorcio contencioso|r[ée]gimen de visitas)\b",
            r"\b(desahucio|desahuciad[oa]|refugiad[oa])\b",
            r"\b(la nacionalidad|me quitaron (el carnet|los puntos)|retirada del carnet)\b",
        ),
    },
    # French
    "fr": {
        "health": (
            r"\b(diab[eè]t\w*|d[ée]pression|d[ée]prim[ée]e?|anxi[ée]t[ée]|crises? d'angoisse)\b",
            r"\b(th[ée]rapie|th[ée]rapeute|psychologue|psychiatre|psy|diagnostiqu\w*|maladie)\b",
            r"\b(chronique|m[ée]dicaments?|cachets?|antid[ée]presseurs?|enceinte|grossesse)\b",
            r"\b(fausse couche|ivg|avortement|pma|fiv|handicap\w*|fauteuil roulant|sourde?s?)\b",
            r"\b(aveugle|alcooliques?|addiction|addict[ée])\b",
            r"\b(sevrage|allergi\w*|asthme|cancer|tumeur)\b",
            r"\b(chimio\w*|vih|sida|[ée]pilepsie)\b",
            r"\b(migraines?|thyro\w*|levothyrox|insuline|op[ée]r[ée]e?)\b",
            r"\b(malade|soign\w*|sous traitement)\b",
            r"\b(traitement (contre|pour)|ordonnance|hospitalis\w*)\b",
            r"\b(h[ôo]pital psychiatrique|cholest[ée]rol|scl[ée]rose)\b",
            r"\b(crohn|endom[ée]triose|s[ée]ropositi\w*)\b",
            r"\b(h[ée]patite|insuffisance|avc|infarctus)\b",
            r"\b(psychiatri\w*|burn-?out|bipolaire|schizophr\w*)\b",
            r"\b(tdah|autis\w*)\b",
            r"\b(toc|phobie|troubles? (anxieux|bipolaires?|alimentaires?|de l.attention))\b",
            r"\b(anxiolytiques?|somnif[eè]res?|antidouleurs?)\b",
            r"\b(accouch\w*|terme pr[ée]vu|st[ée]rilit[ée])\b",
            r"\b(infertilit[ée]|malvoyant\w*|malentendant\w*)\b",
            r"\b(alcool|abstinent\w*|drogues?|toxico\w*)\b",
            r"\b(d[ée]sintox\w*)\b",
        ),
        "finance": (
            r"\b(salaire|je gagne|brut|revenus?)\b",
            r"\b(dettes?|endett\w*|cr[ée]dit conso|cr[ée]dit immobilier)\b",
            r"\b(pr[eê]t (immobilier|[ée]tudiant|personnel)|emprunt\w*)\b",
            r"\b(rembourse\w*|surendett\w*)\b",
            r"\b(d[ée]couvert|interdit bancaire|[ée]pargne|livret a)\b",
            r"\b([ée]conomies|actions|investi[rs]\w*|investissements?)\b",
            r"\b(h[ée]rit\w*|fisc|imp[oô]ts|redressement|smic|rsa|ch[oô]mage)\b",
            r"\b(fiche de paie|cr[ée]dit (auto|[àa] la consommation))\b",
            r"\b(un cr[ée]dit|fich[ée]e? [àa] la banque)\b",
            r"\b(huissiers?|saisie|faillite)\b",
            r"\b(liquidation judiciaire|livret (jeune|ldds)|pel|assurance-vie)\b",
            r"\b(pea|crypto\w*|bitcoins?|d[ée]claration de revenus|urssaf|allocations|caf|apl)\b",
        ),
        "religion": (
            r"\b(catholique|protestant\w*|[ée]vang[ée]lique)\b",
            r"\b(chr[ée]tien\w*|musulman\w*|juif|juive)\b",
            r"\b(juda[ïi]sme|bouddhist\w*|hindou\w*)\b",
            r"\b(ath[ée]e?|agnostique|croyant\w*|pratiquant\w*)\b",
            r"\b(pri[eè]res?|prie|messe|ramadan|bapt[êe]me|baptis[ée]e?|converti\w*|synagogue)\b",
            r"\b(bible|coran|foi|dieu|à l'[ée]glise)\b",
            r"\b([àa] la mosqu[ée]e|au temple|car[êe]me)\b",
            r"\b(casher|cach[eè]re|porte le voile|orthodoxe)\b",
            r"\b(t[ée]moins? de j[ée]hovah|scientolog\w*|spirituel\w*|spiritualit[ée])\b",
        ),
        "politics": (
            r"\b(vot[ée]|voter|votes?)\b",
            r"\b([ée]lections?|pr[ée]sidentielle|l[ée]gislatives|municipales)\b",
            r"\b(europ[ée]ennes|mis un bulletin|bulletin de vote)\b",
            r"\b(militant\w*|milite|adh[ée]rent\w*)\b",
            r"\b(au parti|du parti|parti (socialiste|communiste|pirate)|lfi|insoumis\w*)\b",
            r"\b(rassemblement national|eelv|[ée]colos?|les r[ée]publicains|syndiqu[ée]e?)\b",
            r"\b(syndicats?|cgt|cfdt|gr[èe]ves?|manifs?|manifestations?|extinction rebellion)\b",
            r"\b(m[ée]lenchon|macron|le pen|zemmour|de gauche|de droite|f[ée]ministe|activiste)\b",
            r"\b(pcf|reconqu[êe]te|les verts|npa)\b",
            r"\b(lutte ouvri[eè]re|gilets jaunes|nuit debout|zad)\b",
            r"\b(p[ée]titions?|tracts?|engag[ée]e? politiquement|antifa|abstention|m.abstiens)\b",
        ),
        "sexuality": (
            r"\b(gai|homo|homosexuel\w*|lesbienne|bi|bisexuel\w*|pansexuel\w*|asexuel\w*)\b",
            r"\b(transgenre|non-binaire|coming-out|[ée]changistes?|couple libre|polyamour)\b",
            r"\b(vie sexuelle|orientation sexuelle)\b",
            r"\b(h[ée]t[ée]ro|transition de genre|ma transition)\b",
            r"\b(coming out|libertin\w*|polyamoureu\w*)\b",
            r"\b(plan cul|sexe)\b",
        ),
        "legal": (
            r"\b(casier judiciaire|condamn[ée]e?|prison|garde à vue|mis en examen|proc[eè]s)\b",
            r"\b(tribunal|prud'?hom\w*|plainte|sans-papiers|titre de s[ée]jour|r[ée]gularis\w*)\b",
            r"\b(demande d'asile|asile|ofpra|oqtf|expuls[ée]e?|naturalis\w*|sursis)\b",
            r"\b(bracelet [ée]lectronique|garde des enfants)\b",
            r"\b(interpell[ée]e?|arr[êe]t[ée]e? par la police)\b",
            r"\b(juge (des|aux|d.instruction)|r[ée]c[ée]piss[ée])\b",
            r"\b(carte de r[ée]sident|retrait de permis|suspension de permis|permis suspendu)\b",
            r"\b(perdu mon permis|contr[ôo]le judiciaire)\b",
            r"\b(d[ée]tention|stup[ée]fiants|garde altern[ée]e)\b",
            r"\b(pension alimentaire|litige|mise en demeure)\b",
            r"\b(contentieux|poursuivi\w*|d[ée]p[ôo]t de plainte)\b",
        ),
    },
    # Portuguese (Brazil and Portugal)
    "pt": {
        "health": (
            r"\b(diabet\w*|depress[ãa]o|ansiedade|crises? de p[aâ]nico|terapia|terapeuta)\b",
            r"\b(psic[oó]log[oa]|psiquiatra|diagnostica\w*)\b",
            r"\b(doen[çc]as?|cr[ôo]nic[oa]s?|rem[ée]dios?)\b",
            r"\b(medica[çc][ãa]o|medicamentos?|antidepressivos?|gr[áa]vida|gravidez|aborto)\b",
            r"\b(fertilidade|defici[êe]ncia|deficiente)\b",
            r"\b(cadeirante|cadeira de rodas|alco[óo]latra)\b",
            r"\b(v[íi]cio|viciad[oa]|alergi\w*|asma|c[âa]ncer|quimio\w*|epilepsia|enxaqueca)\b",
            r"\b(hipertens[ãa]o|press[ãa]o alta|tireoide|insulina|cirurgia|internad[oa])\b",
            r"\b(fluoxetina|sertralina|losartana|rivotril|escitalopram)\b",
            r"\b(tratamento (para|de|contra)|fa[çc]o tratamento)\b",
            r"\b(comprimidos?|diagn[óo]stic\w*|tdah)\b",
            r"\b(autis\w*|s[íi]ndrome|transtorno\w*)\b",
            r"\b(psiqui[áa]tric\w*|operei|operad[oa]|soropositiv\w*)\b",
            r"\b(hepatite|colesterol|avc|infarto|l[úu]pus|fibromialgia|endometriose|gestante)\b",
            r"\b(gesta[çc][ãa]o|fertiliza[çc][ãa]o)\b",
            r"\b(engravidar|pr[ée]-natal|deficiente (visual|auditivo))\b",
            r"\b(surd[oa]|ceg[oa]|alcoolismo|dependente qu[íi]mic[oa]|depend[êe]ncia qu[íi]mica)\b",
            r"\b(alco[óo]licos an[ôo]nimos|reabilita[çc][ãa]o|drogas|sobriedade|s[óo]bri[oa])\b",
        ),
        "finance": (
            r"\b(sal[áa]rio|ganho|l[íi]quidos?|brutos?|renda|d[íi]vidas?|devo|empr[ée]stimos?)\b",
            r"\b(financiamento|cart[ãa]o de cr[ée]dito|rotativo)\b",
            r"\b(cheque especial|nome sujo|serasa)\b",
            r"\b(poupan[çc]a|economias|investimentos?|invisto|a[çc][õo]es|tesouro direto)\b",
            r"\b(heran[çc]a|imposto de renda|malha fina|receita federal|aposentadoria)\b",
            r"\b(recebo (r\$ ?)?\d|negativad[oa]|spc)\b",
            r"\b(fal[êe]ncia|falid[oa]|bolsa de valores|cripto\w*)\b",
            r"\b(bitcoins?|cdb|fgts|inss)\b",
            r"\b(bolsa fam[íi]lia|aux[íi]lio|desempregad[oa]|seguro-desemprego)\b",
            r"\b(agiota|penhor\w*)\b",
        ),
        "religion": (
            r"\b(cat[óo]lic[oa]|evang[ée]lic[oa]|crente|culto|candombl[ée]|umbanda|esp[íi]rita)\b",
            r"\b(terreiro|orix[áa]s?|oxum|batizei|batizad[oa]|mu[çc]ulman[oa]|isl[ãa])\b",
            r"\b(judeu|judia|juda[íi]smo|budista|ateu|ateia|agn[óo]stic[oa]|religi[ãa]o)\b",
            r"\b(assembleia de deus|em deus|ora[çc][ãa]o|rezo|rezar|missa|b[íi]blia)\b",
            r"\b(testemunhas? de jeov[áa])\b",
            r"\b((vou|vamos|frequento) (à|a|na) igreja|m[ãa]e de santo)\b",
            r"\b(pai de santo|crisma|d[íi]zimo)\b",
            r"\b(ramad[ãa]|m[óo]rmon|me converti|minha f[ée]|tenho f[ée])\b",
        ),
        "politics": (
            r"\b(votei|voto (no|na|em)|votar)\b",
            r"\b(elei[çc](ão|ao|ões|oes)|segundo turno|primeiro turno)\b",
            r"\b(filiad[oa]|partido|psol|psdb|mdb)\b",
            r"\b(lula|bolsonaro|mst|sindicat\w*|sindicalizad[oa])\b",
            r"\b(greves?|manifesta[çc](ão|ões)|protestos?|militante|milito|ativista|esquerda)\b",
            r"\b(feminista|petista|bolsonarista|lulista|comunista)\b",
            r"\b(de direita|de esquerda|pl|pdt|psb|pcdob|abaixo-assinado|passeata|mes[áa]ri[oa])\b",
            r"\b(candidat[oa]|conservador\w*|antifascista)\b",
            r"(?-i:\bPT\b)",
        ),
        "sexuality": (
            r"\b(l[ée]sbica|sapat[ãa]o|bissexual|assexual|homossexual|transexual|transg[êe]nero)\b",
            r"\b(n[ãa]o bin[áa]ri[oa]|sa(ir|indo|í) do arm[áa]rio|relacionamento aberto)\b",
            r"\b(poliamor|vida sexual|orienta[çc][ãa]o sexual|bicha)\b",
            r"\b(bi|h[ée]tero|travesti|me assumi)\b",
            r"\b(se assumiu|viado|casada com a|casado com o|sexo)\b",
        ),
        "legal": (
            r"\b(cumpri\w* .{0,20}pena|anos de pena|regime (semiaberto|fechado|aberto))\b",
            r"\b(preso|presa|pris[ãa]o|cadeia|condenad[oa]|antecedentes criminais|ficha suja)\b",
            r"\b(processando|processad[oa]|processo (contra|trabalhista|judicial)|absolvid[oa])\b",
            r"\b(por tr[áa]fico|tr[áa]fico de (drogas|entorpecentes))\b",
            r"\b(flagrante|visto de (trabalho|resid[êe]ncia|estudante))\b",
            r"\b(autoriza[çc][ãa]o de resid[êe]ncia|resid[êe]ncia permanente|aima|irregular)\b",
            r"\b(deportad[oa]|asilo|refugiad[oa]|naturaliza\w*|guarda dos filhos)\b",
            r"\b(pens[ãa]o aliment\w*|liberdade condicional|tornozeleira)\b",
            r"\b(boletim de ocorr[êe]ncia)\b",
            r"\b(delegacia)\b",
            r"\b(audi[êe]ncia (de|no|na) (cust[óo]dia|concilia[çc][ãa]o|f[óo]rum|justi[çc]a))\b",
            r"\b(a[çc][ãa]o (trabalhista|judicial|contra)|na justi[çc]a|sef|indocumentad[oa])\b",
            r"\b(guarda compartilhada|cnh (suspensa|cassada))\b",
            r"\b(lei seca|maria da penha|medida protetiva)\b",
        ),
    },
    # Russian
    "ru": {
        "health": (
            r"\b(диабет\w*|депресси\w*|тревожн\w* расстройств\w*|паническ\w*|психотерап\w*)\b",
            r"\b(психолог\w*|психиатр\w*|диагноз\w*)\b",
            r"\b(болезн\w*|хроническ\w*|лекарств\w*|таблетк\w*)\b",
            r"\b(антидепрессант\w*|беременн\w*|выкидыш\w*|аборт\w*|эко|бесплоди\w*|инвалид\w*)\b",
            r"\b(алкоголи\w*|зависимост\w*|наркоман\w*|аллерги\w*|астм\w*|онколог\w*|опухол\w*)\b",
            r"\b(химиотерап\w*|вич|спид|эпилепси\w*)\b",
            r"\b(мигрен\w*|гипертони\w*|щитовидк\w*|инсулин\w*)\b",
            r"\b(госпитализ\w*|в больниц\w*|депакин\w*|велаксин\w*|рак)\b",
            r"\b(боле(ю|л|ла)|болен|больна)\b",
            r"\b(леч(усь|ение|ился|илась|ат)|гепатит\w*|туберкул\w*|инсульт\w*)\b",
            r"\b(инфаркт\w*|давлени\w*|бессонниц\w*)\b",
            r"\b(транквилизатор\w*|нейролептик\w*|психиатрическ\w*)\b",
            r"\b(расстройств\w*|биполярн\w*|шизофрени\w*|аутизм\w*)\b",
            r"\b(сдвг|птср|наркотик\w*|бросил\w* пить)\b",
            r"\b(в завязке|анонимн\w* алкоголик\w*|реабилитац\w*)\b",
            r"\b(рожать|роды|слабовидящ\w*|глух\w*)\b",
            r"\b(слеп\w*|протез\w*|операци\w* на|перен[её]с\w* операци\w*|ВИЧ-\w*)\b",
        ),
        "finance": (
            r"\b(зарплат\w*|получаю|на руки|оклад\w*|доход\w*|кредит\w*|ипотек\w*)\b",
            # a debt in its cases and as an adjective, owing; not "долго" (long), "долгий"
            r"\b(долг(а|у|ом|е|и|ов|ам|ами|ах)?|долгов(ой|ая|ое|ые|ого|ую|ых|ым|ыми|ому)"
            r"|задолжа\w*)\b",
            r"\b(микрозайм\w*|займ\w*|задолженност\w*|просрочк\w*|коллектор\w*|банкрот\w*)\b",
            r"\b(сбережени\w*|накоплени\w*|накопительн\w*|вклад\w*|на сч[её]те|инвестиц\w*)\b",
            r"\b(наследств\w*|налогов\w*|недоимк\w*|алимент\w*)\b",
            r"\b(зарабатываю|кредитк\w*|рассрочк\w*)\b",
            r"\b(налог|налоги|акции (компани\w*|сбера)|облигаци\w*)\b",
            r"\b(брокерск\w*|иис|криптовалют\w*|биткоин\w*)\b",
            r"\b(пособи\w*|безработ\w*|приставы|приставов)\b",
        ),
        "religion": (
            r"\b(православн\w*|католи\w*|протестант\w*|мусульман\w*|ислам\w*|иудаизм\w*)\b",
            r"\b(буддист\w*|буддизм\w*|атеист\w*|агностик\w*|верующ\w*|в бога|литурги\w*)\b",
            r"\b(молюсь|молитв\w*|соблюдаю посты?|великий пост|крестил\w*|крещ[её]н\w*)\b",
            r"\b(в церковь|в храм|мечет\w*|синагог\w*|рамадан|ураза|намаз\w*|дацан\w*)\b",
            r"\b(церков\w*|батюшк\w*|исповед\w*|причаст\w*)\b",
            r"\b(иудей\w*|хиджаб\w*|язычни\w*|родновер\w*)\b",
            r"\b(кришнаит\w*|сектант\w*|свидетел\w* иеговы)\b",
            r"\b(баптист\w*|пятидесятни\w*|адвентист\w*)\b",
            r"\b(лютеран\w*|старообряд\w*)\b",
        ),
        "politics": (
            r"\b(голосую|голосовал\w*|проголосова\w*|на выборах|выборы|член партии|партии)\b",
            r"\b(единая россия|кпрф|лдпр|навальн\w*|оппозици\w*|митинг\w*|протест\w*|пикет\w*)\b",
            r"\b(наблюдател\w* на выборах|наблюдател\w* от|профсоюз\w*|активист\w*)\b",
            r"\b(против войны|нет войне|либерал\w*|коммунист\w*|иноагент\w*|в штабе)\b",
            r"\b(голосуем|голосует|голосовать|партию)\b",
            r"\b(партией|в партию|партия|единорос\w*|забастовк\w*)\b",
            r"\b(фбк|феминист\w*|анархист\w*|монархист\w*|петици\w*|путин\w*)\b",
        ),
        "sexuality": (
            r"\b(гей|геи|лесбиянк\w*|бисексуал\w*|пансексуал\w*|асексуал\w*|гомосексуал\w*)\b",
            r"\b(трансгендер\w*|небинарн\w*)\b",
            r"\b(каминг-?аут\w*|свободные отношения|открытые отношения)\b",
            r"\b(полиамори\w*|сексуальн\w* (ориентаци\w*|жизн\w*)|интимн\w*|лгбт\w*)\b",
            r"\b(би|лесби\w*|транс|однопол\w*)\b",
            r"\b(открытый брак|свободный брак|секс\w*|квир\w*|свинг\w*)\b",
        ),
        "legal": (
            r"\b(судим\w*|осужд\w*|дали условно|условный срок|тюрьм\w*|колони\w*|арестова\w*)\b",
            r"\b(задержала полиция|меня задержали|сужусь|в суд|суда|судом)\b",
            r"\b(суде|иск|иска|иском|исков\w*|по статье)\b",
            r"\b(по \d+-й|патент\w*|вид на жительство|внж|рвп|гражданств\w*|миграци\w*)\b",
            r"\b(депорт\w*|беженц\w*|убежищ\w*|лишили прав|лишение прав|уголовн\w* дел\w*)\b",
            r"\b(суд|судья|уголовк\w*|административк\w*|оштрафова\w*|арест\w*|задержан\w*|сизо)\b",
            r"\b(условк\w*|нелегал\w*|опек\w*|лишили родительских прав|судебн\w*)\b",
        ),
    },
}


# Broader vocabulary per claimed language and sensitive category (issue 36.3), matched like
# `SIGNALS_BY_LANGUAGE` (beside them, `signal_words`). Written as lexicons from each language's
# vocabulary for the topic, not from sentences of any set: common conditions, drugs (generic and
# usual brand names), symptoms and therapies; pregnancy and disability; pay, debt, loans, savings,
# tax; faiths, practices and holidays; parties, voting, demonstrations and leanings; orientations,
# identities and coming out. German, Spanish, French, Portuguese and Russian words carry their
# inflected forms. Words that also have an everyday sense are bound to a context that settles it
# (French "prêt" is also "ready": "un prêt", "prêt auto"; Russian "откладывать" is also "put off":
# only with a sum or "деньги"; Chinese 定期 is also "regularly": 存定期, 定期存款; Japanese うつ
# only in うつ病, 抑うつ). Checked against the ordinary facts of bench/data/sensitive_dev2.json,
# of bench/data/multilingual.json's dev split and of bench/data/ordinary_facts.json
# (`uv run python -m bench categories-languages --path bench/data/sensitive_dev2.json`).
LEXICONS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "health": (
            r"\bexpecting (a|our|my)( first| second| third| fourth)? "
            r"(baby|child|son|daughter)\b",
            r"\b(due date|maternity leave|morning sickness|c-section|caesarean)\b",
            r"\b(arthritis|crohn'?s|colitis|lupus|psoriasis|eczema|multiple sclerosis)\b",
            r"\b(parkinson'?s|alzheimer'?s|dementia|epilep\w*|migraines?|thyroid|hypothyroid\w*)\b",
            r"\b(cancer|tumou?rs?|leukaemia|leukemia|lymphoma|hiv|aids|hepatitis|diabet\w*)\b",
            r"\b(hard of hearing|hearing aids?|deaf|visually impaired|wheelchair)\b",
            r"\b(paralys\w*|amputee)\b",
            r"\b(disabilit\w*|disabled|autis\w*|dyslexi\w*|sign language)\b",
            r"\b(fluoxetine|sertraline|citalopram|escitalopram|prozac|zoloft|lexapro|venlafaxine)\b",
            r"\b(mirtazapine|lithium|quetiapine|methylphenidate|ritalin|adderall|xanax|diazepam)\b",
            r"\b(metformin|levothyroxine|statins?|beta-blockers?|warfarin|ozempic|hrt)\b",
        ),
        "finance": (
            r"\b(student loans?|overdraft|401k|tax refund|underpaid|income tax|council tax)\b",
            r"(?-i:\bISA\b)",
            r"\b(a year before tax|after tax|take-home|per annum|\d+k a year)\b",
        ),
        "religion": (
            r"\b(yom kippur|rosh hashanah?|hanukk?ah|chanukah|ramadan|ramadhan|vesak|navratri)\b",
            r"\b(rosary|confession|communion|baptis\w*|christen\w*|bar mitzvah|bat mitzvah)\b",
            r"\b(believ\w* in god|my faith|church every|practi[sc]ing (catholic|muslim|jew))\b",
        ),
        "politics": (
            r"\bvoted (green|labour|tory|conservative|lib ?dem|reform|snp|democrat|republican)\b",
            r"\b(general election|polling station|ballot|paid-up member|party member)\b",
            r"\b(far[- ]left|far[- ]right|centre[- ]left|center[- ]left|centre[- ]right)\b",
            r"\b(center[- ]right|lean(s|ing)? (left|right)|left-leaning|right-leaning)\b",
        ),
        "sexuality": (
            r"\b(intersex|demisexual|aromantic|cisgender)\b",
            r"\b(hormone therapy|on hormones|started hormones)\b",
        ),
    },
    "de": {
        "health": (
            r"\b(arthrose|arthritis|rheuma\w*|morbus \w+|bechterew|multiple sklerose|parkinson)\b",
            r"\b(alzheimer|demenz\w*|herzinsuffizienz|herzrhythmusstörung\w*|bandscheibe\w*)\b",
            r"\b(hepatitis|colitis|schuppenflechte|psoriasis|gicht|dialyse|leukämie|lymphom)\b",
            r"\b(metastase\w*|osteoporose|thrombose|copd|mukoviszidose|lipödem|fibromyalgie)\b",
            r"\b(long covid|schlafapnoe|sodbrennen|reizdarm|histamin\w*|laktoseintoleran\w*)\b",
            r"\b(angstzust\w*|ängste\w*|panik\w*|psychisch\w*|seelisch\w*|ptbs)\b",
            r"\b(trauma(ta|s|tisch\w*|therapie)?)\b",
            r"\b(bipolar\w*|schizophren\w*|magersucht|bulimie|selbstverletz\w*|suizid\w*)\b",
            r"\b(selbstmord\w*|(zur|zum|beim|bei einer|bei einem) psycholog\w*)\b",
            r"\b(antidepressiva|sertralin|citalopram|escitalopram|fluoxetin|venlafaxin)\b",
            r"\b(mirtazapin|lithium|quetiapin|ritalin|methylphenidat|metformin|levothyroxin)\b",
            r"\b(thyroxin|euthyrox|ibuprofen|blutdrucksenker|betablocker|ramipril|marcumar)\b",
            r"\b(blutverdünner|methotrexat|verhütung\w*|hormontherapie|östrogen|testosteron)\b",
            r"\b(opioid\w*|morphin|schmerzmittel)\b",
            r"\b(ein|das|unser|ihr) (erstes |zweites |drittes )?(kind|baby) (erwarten|bekommen)\b",
            r"\berwarten (im \w+ )?(ein|unser) (erstes |zweites |drittes )?(kind|baby)\b",
            r"\b(entbindungstermin|geburtstermin|hebamme|mutterpass|mutterschutz|künstliche "
            r"befruchtung|ivf|unfruchtbar\w*|fruchtbarkeit\w*)\b",
            r"\b(querschnitt\w*|gelähmt|lähmung\w*|amputiert|rollator|schwerhörig\w*|gebärden\w*)\b",
            r"\b(blindenhund|down-syndrom|trisomie|rückfall|trocken seit)\b",
        ),
        "finance": (
            r"\b(glücksspiel\w*|spielsucht|spielschulden|verzockt)\b",
            r"\b(zahle?n? (noch|monatlich|jeden monat)\b.{0,50}\bab|in raten|ratenzahlung\w*)\b",
            r"\b(monatliche rate|kreditkart\w*|kontostand|überzogen|studienkredit|leasingrate)\b",
            r"\b(steuern|steuer(erklärung|erstattung|nachzahlung|bescheid|berater\w*|klasse))\b",
            r"\b(\w*gehalt|gehälter|nettolohn|bruttolohn|gespart|sparplan|sparkonto)\b",
            r"\b(notgroschen|rücklage\w*|altersvorsorge|riester\w*|bausparvertrag|geldanlage)\b",
            r"\b(fonds|anleihe\w*|vermögen\w*|dividende\w*|börse|zinsen|überschuldet)\b",
        ),
        "religion": (
            r"\b(fastenzeit|fastenbrechen|konfirm\w*|firmung|kommunion|taufe|rosenkranz)\b",
            r"\b(beicht\w*|pilger\w*|wallfahrt\w*|sabbat|schabbat|jom kippur|pessach|chanukka)\b",
            r"\b(bar mizwa|bat mizwa|zuckerfest|opferfest|buddhis\w*|religi(on|ös)\w*)\b",
            r"\b(evangelikal\w*|pfingstgemeinde|kirchlich\w*|kirchenchor|spirituell\w*)\b",
            r"\b(glaube (nicht )?an (gott|jesus|allah)|nicht gläubig|halal)\b",
        ),
        "politics": (
            r"\b((klima|general|warn)streik\w*|streike|(klima|friedens|anti\w*)demo\w*)\b",
            r"\b(politisch|stehe ich|stehe) (eher |ganz |weit )?(links|rechts)\b",
            r"\b((links|rechts)(liberal|konservativ|extrem)\w*|sozialdemokrat\w*|christdemokrat\w*)\b",
            r"\b(die grünen|grünen gewählt|freie wähler|piratenpartei|bündnis 90)\b",
            r"\b(mitglied (der|in der|bei der) (partei|spd|cdu|csu|fdp|afd|linken|grünen))\b",
            r"\b(briefwahl|wahlzettel|stimmzettel|wahllokal|nichtwähler\w*|kundgebung\w*)\b",
            r"\b(mahnwache\w*|bürgerinitiative\w*|unterschriften gesammelt)\b",
        ),
        "sexuality": (
            r"\b(queer|geschlechtsangleich\w*|transition|outing|trans (frau|mann|person))\b",
        ),
    },
    "es": {
        "health": (
            r"\b(\w*tiroid\w*|artritis|artrosis|reuma\w*|crohn|colitis|esclerosis)\b",
            r"\b(hernia discal|psoriasis|apnea|cardiopat\w*|arritmia\w*|anemia|hepatitis)\b",
            r"\b(tumor\w*|met[aá]stasis|di[aá]lisis|dializ\w*|insuficiencia|linfoma|vih|sida)\b",
            r"\b(metformina|levotiroxina|eutirox|sertralina|fluoxetina|escitalopram)\b",
            r"\b(paroxetina|venlafaxina|diazepam|alprazolam|litio|quetiapina|metilfenidato)\b",
            r"\b(ibuprofeno|antiinflamatorios?|anticonceptiv\w*|hormonas|terapia hormonal)\b",
            r"\b(salud mental|bipolar|anorexia|bulimia|autolesi\w*|suicid\w*|tept|toc)\b",
            r"\b(baja (m[eé]dica|por depresi[oó]n)|estr[eé]s postraum[aá]tico)\b",
            r"\b(esper(o|amos|a|an) (un|una|nuestro|nuestra|mi|su) (primer|segund|tercer)?\w*"
            r" ?(beb[eé]|hij[oa]|ni[ñn][oa])|esper(o|amos|a|an) (gemelos|mellizos|un beb[eé]))\b",
            r"\b(embaraz\w*|fecha de parto|gestaci[oó]n|infertilidad|fiv|in vitro)\b",
            r"\b(parapl[eé]jic\w*|tetrapl[eé]jic\w*|paraplejia|audífono\w*|aud[ií]fono\w*)\b",
            r"\b(lengua de signos|movilidad reducida|s[ií]ndrome de down|minusv[aá]lid\w*)\b",
        ),
        "finance": (
            r"\b(apuestas (online|deportivas)|en apuestas|historial crediticio|impagos?"
            r"|moros[oa]s?)\b",
            r"\b(ahorros?|ahorrad[oa]s?|cuenta de ahorro|impuestos?|declaraci[oó]n de la renta)\b",
            r"\b(la renta|cuota (de la hipoteca|del pr[eé]stamo|del coche)|a plazos)\b",
            r"\b(financiad[oa]|financiaci[oó]n|mileurista|en bolsa|deudor\w*|me deben)\b",
            r"\b(euros (al|por|cada) (mes|a[ñn]o)|brutos al a[ñn]o|netos al mes|cobr(o|amos))\b",
        ),
        "religion": (
            r"\b(rosario|(al|el|del) culto|comuni[oó]n|confesi[oó]n|peregrinaci[oó]n)\b",
            r"\b(sabbat|shabat|yom kipur|janucá|pascua jud[ií]a|ramad[aá]n|religi[oó]n)\b",
            r"\b(religios[oa]s?|mi parroquia|cuaresma|halal|kosher)\b",
        ),
        "politics": (
            r"\bm[íi]tin(es|g)?\b",
            r"\b(centroizquierda|centroderecha|centro izquierda|centro derecha|izquierdista)\b",
            r"\b(derechista|progresista|conservador\w*|pol[ií]ticamente|ideolog[ií]a\w*)\b",
            r"\b(ideas pol[ií]ticas|partido (socialista|popular|comunista)|sindicalista)\b",
            r"\b((me considero|soy|voto|votante) .{0,15}(izquierdas?|derechas?))\b",
            r"(?-i:\b(a|en|de|con|por) Podemos\b)",
            r"\b(votamos|urnas?|papeleta|mesa electoral|concentraci[oó]n (contra|por))\b",
        ),
        "sexuality": (
            r"\b(trans|mujer trans|hombre trans|mi transici[oó]n|la transici[oó]n de g[eé]nero)\b",
            r"\b(empec[eé] la transici[oó]n|lgtb\w*|orgullo lgt\w*|hormonaci[oó]n)\b",
        ),
    },
    "fr": {
        "health": (
            r"\b(polyarthrite|arthrite|arthrose|rhumatism\w*|spondylarthrite|rectocolite)\b",
            r"\b(parkinson|alzheimer|psoriasis|lupus|fibromyalgie|hypothyro\w*|hyperthyro\w*)\b",
            r"\b(apn[ée]e du sommeil|hypertension|tension art[ée]rielle|cardiaque|arythmie)\b",
            r"\b(leuc[ée]mie|lymphome|m[ée]tastases?|cirrhose|an[ée]mie|diab[eè]te)\b",
            r"\b(h[ée]modialys\w*|dialys[ée]e?s?|dialyse)\b",
            r"\b(metformine|l[ée]vothyrox\w*|sertraline|fluox[ée]tine|prozac|escitalopram)\b",
            r"\b(parox[ée]tine|venlafaxine|lithium|xanax|lexomil|temesta|ritaline|ventoline)\b",
            r"\b(doliprane|parac[ée]tamol|pilule|contraception|hormones|testost[ée]rone)\b",
            r"\b(sant[ée] mentale|anorexie|boulimie|suicid\w*|automutil\w*|d[ée]press\w*)\b",
            r"\b(stress post-traumatique|tspt|arr[êe]t maladie)\b",
            r"\b(j'attends|nous attendons|on attend) (un|une|mon|notre|des|le|la) "
            r"(premier |deuxi[eè]me |second |troisi[eè]me )?(b[ée]b[ée]|enfant|jumeaux|heureux)",
            r"\b(cong[ée] maternit[ée]|ins[ée]mination|infertil\w*)\b",
            r"\b(parapl[ée]gi\w*|t[ée]trapl[ée]gi\w*|paralys\w*|amput\w*|perdu l'usage)\b",
            r"\b(appareils? auditifs?|proth[eè]se auditive|langue des signes|d[ée]ficien\w*)\b",
            r"\b(rqth|mdph|canne blanche|chien guide)\b",
        ),
        "finance": (
            r"\b(jeux d\'argent|paris sportifs|impay[ée]s|dossier de cr[ée]dit|surendett\w*)\b",
            r"\b(\d[\d  .,]*\s?(k|€|euros?) (nets?|bruts?)|nets? par mois|bruts? par (mois|an))\b",
            r"\b(je touche \d|mon pr[eê]t|un pr[eê]t|notre pr[eê]t|pr[eê]t auto|ptz)\b",
            r"\b(pr[eê]t (bancaire|relais|[àa] taux z[ée]ro)|mensualit[ée]s|agios)\b",
            r"\b(cr[ée]ancier\w*)\b",
            r"\b(taxe fonci[eè]re|taxe d'habitation|d[ée]claration d'imp[ôo]ts)\b",
            r"\b(plan d'[ée]pargne)\b",
            r"\b(en bourse|fins? de mois difficiles?|[àa] d[ée]couvert|compte bloqu[ée])\b",
        ),
        "religion": (
            r"\b(chapelet|rosaire|a[ïi]d|shabbat|chabbat|kippour|pessah|hanoucca|bar-?mitsva)\b",
            r"\b(communion|confesse|p[eè]lerinage|paroiss\w*|cat[ée]chisme|religion|religieu\w*)\b",
            r"\b(bouddhis\w*|islam\w*|halal|imam|je prie|prier|pri[eè]re)\b",
        ),
        "politics": (
            r"\b(les [ée]cologistes|nouveau front populaire|nfp|centriste|gaulliste)\b",
            r"\b(trotskiste|royaliste|souverainiste|[ée]cologiste|politiquement|assesseur)\b",
            r"\b(opinions politiques|convictions politiques|conseill[eè]re? municipal\w*)\b",
            r"(?-i:\bRN\b)",
        ),
        "sexuality": (
            r"\b(trans|homme trans|femme trans|marche des fiert[ée]s|gays)\b",
            r"\b(ma transition|transgenre|genderfluid|queer)\b",
        ),
    },
    "pt": {
        "health": (
            r"\b(artrite|artrose|reumat\w*|crohn|colite|esclerose|parkinson|alzheimer)\b",
            r"\b(psor[ií]ase|\w*tireoid\w*|apneia|cancro|tumor\w*|leucemia|linfoma|met[aá]stase)\b",
            r"\b(hepatite|hiv|aids|cirrose|insufici[êe]ncia|arritmia|anemia|bronquite)\b",
            r"\b(hemodi[áa]lise|di[áa]lise|dialisad[oa]s?)\b",
            r"\b(metformina|levotiroxina|puran|clonazepam|alprazolam|l[íi]tio|quetiapina)\b",
            r"\b(ritalina|venlafaxina|ozempic|anticoncepcional|horm[ôo]nios?)\b",
            r"\b(burn-?out|esgotamento|sa[úu]de mental|bipolar|anorexia|bulimia|suic[íi]d\w*)\b",
            r"\b(automutila\w*|tept|estresse p[óo]s-traum[áa]tico|psicoterapia)\b",
            r"\b(esperando (nosso|nossa|meu|minha|um|uma|o|a) (primeir|segund|terceir)?\w*"
            r" ?(filh[oa]|beb[êe]|nen[êe]m?|crian[çc]a)|esperando g[êe]meos)\b",
            r"\b(inseminação|infertilidade|licen[çc]a-?maternidade)\b",
            r"\b(perdi a vis[ãa]o|perda auditiva|baixa vis[ãa]o|aparelho auditivo)\b",
            r"\b(l[íi]ngua de sinais|l[íi]ngua gestual|em libras)\b",
            r"\b(parapl[ée]gi\w*|tetrapl[ée]gi\w*)\b",
            r"\b(paralisi\w*|paralisad[oa]|amputad[oa]|pcd|mobilidade reduzida)\b",
        ),
        "finance": (
            r"\b(apostas|apostando|jogos? de azar)\b",
            r"\b(parcelas?|parcelad\w*|presta[çc](ão|ões) (da|do) (casa|carro|empr[ée]stimo))\b",
            r"\b(cr[ée]dito (habita[çc][ãa]o|pessoal|consignado)|consignado|financiad\w*)\b",
            r"\b((mil|reais|euros) guardad[oa]s|guardad[oa]s no banco|guardando dinheiro)\b",
            r"\b(reserva de emerg[êe]ncia|impostos?|irs|irpf)\b",
            r"\b(\d[\d.,]* ?(mil )?(reais|euros) (por|ao|no) (m[êe]s|ano))\b",
            r"\b(score (de cr[ée]dito|baixo))\b",
            r"\b(invest(i|ir|imos|indo|ido|imentos?)|endividad[oa]|devendo|fatura do cart[ãa]o)\b",
        ),
        "religion": (
            r"\b((rez\w*|reza) o ter[çc]o|minha igreja|nossa igreja|membro da igreja)\b",
            r"\b(batismo|primeira comunh[ãa]o|catequese|quaresma|shabat|yom kipur|hanukkah)\b",
            r"\b(religios[oa]s?|orar|centro esp[íi]rita|kardecis\w*)\b",
        ),
        "politics": (
            r"\bcom[íi]cios?\b",
            r"\b(centro-(direita|esquerda)|sou de centro|esquerdista|direitista|progressista)\b",
            r"\b(politicamente|ideologia|posi[çc][ãa]o pol[íi]tica|vis[ãa]o pol[íi]tica)\b",
            r"\b(opini[ãa]o pol[íi]tica|psd|bloco de esquerda|iniciativa liberal|pcp|cdu)\b",
            r"(?-i:\b(no|ao|do|o|pelo) Chega\b)",
            r"\b(urna|t[íi]tulo de eleitor|eleitor\w*|lulista|bolsonarista)\b",
        ),
        "sexuality": (
            r"\b(trans|mulher trans|homem trans|retifica[çc][ãa]o (do|de) (nome|g[êe]nero))\b",
            r"\b(nome social|minha transi[çc][ãa]o|transi[çc][ãa]o de g[êe]nero)\b",
            r"\b(hormoniza[çc][ãa]o)\b",
        ),
    },
    "ru": {
        "health": (
            r"\b(артрит\w*|артроз\w*|ревмат\w*|болезн\w* крона|колит\w*|склероз\w*)\b",
            r"\b(паркинсон\w*|альцгеймер\w*|деменци\w*|псориаз\w*|волчанк\w*|гипотиреоз\w*)\b",
            r"\b(гипертиреоз\w*|тиреоид\w*|щитовидн\w*|апноэ|недостаточност\w*|аритми\w*)\b",
            r"\b(анеми\w*|лейкоз\w*|лейкеми\w*|лимфом\w*|метастаз\w*|цирроз\w*|язв(а|ы|у|ой|енн\w*))\b",
            r"\b(гастрит\w*|грыж\w*|сколиоз\w*|бронхит\w*|диабет\w*)\b",
            r"\b(гемодиализ\w*|диализ\w*)\b",
            r"\b(эутирокс\w*|тироксин\w*|метформин\w*|глюкофаж\w*|сертралин\w*|золофт\w*)\b",
            r"\b(флуоксетин\w*|прозак\w*|эсциталопрам\w*|ципралекс\w*|феназепам\w*)\b",
            r"\b(афобазол\w*|анафранил\w*|литий|кветиапин\w*|эналаприл\w*|лозартан\w*)\b",
            r"\b(конкор\w*|бисопролол\w*|гормон\w*|препарат\w*)\b",
            r"\b(тревожност\w*|выгоран\w*|суицид\w*|самоубийств\w*|самоповрежд\w*)\b",
            r"\b(анорекси\w*|булими\w*|рпп|психиатр\w*)\b",
            r"\b(жд(у|ём|ем|ёт|ет|ут) (второго |первого |третьего )?(ребёнка|ребенка|малыша))\b",
            r"\b(жд(ём|ем|ут) (двойню|близнецов)|декрет\w*|кесарев\w*|токсикоз\w*)\b",
            r"\b(слухово\w* аппарат\w*|плохо слыш\w*|плохо виж\w*)\b",
            r"\b(колясочни\w*|инвалидн\w* коляск\w*|парализ\w*|ампутир\w*|синдром\w* дауна)\b",
            r"\b(жестов\w* язык\w*)\b",
        ),
        "finance": (
            r"\b(онлайн-казино|азартн\w*|кредитн\w+ истори\w*)\b",
            r"\b(отклад\w* (по )?\d|отклад\w* деньги|отложил\w* (\d|деньги)|коплю|копим)\b",
            r"\b(накопил\w*|тысяч в месяц|тысяч рублей в месяц)\b",
            r"\b(вычет\w*|ндфл|деклараци\w*|должен (\d|денег|банку)|задолжал\w*)\b",
            r"\b(брокер\w*|бирж\w*|депозит\w*|сбережен\w*|ипотеч\w*|кредитн\w*)\b",
        ),
        "religion": (
            r"\b(держ\w* пост|соблюда\w* пост|венча\w*|библи(я|и|ю|ей)|коран\w*|религи\w*)\b",
            r"\b(шаббат|шабат|йом кипур|ханук\w*|курбан\w*|хадж\w*|атеизм\w*)\b",
            r"\b((не )?верю в (бога|бог\w*|христа|аллаха)|верующ\w*|неверующ\w*)\b",
        ),
        "politics": (
            r"\b(един\w* росси\w*|справедлив\w* росси\w*|новые люди|партии яблок\w*)\b|«яблок",
            r"\b(политическ\w* (взгляд|убежден|позици|активн|парти)\w*|взгляд\w* политическ\w*)\b",
            r"\b(выбор(ах|ов|ам)|бюллетен\w*|избирател\w*|консерватив\w*|консерватор(ы|ов)?)\b",
            r"\b((левых|правых) взглядов|левак\w*)\b",
        ),
        "sexuality": (
            r"\b(транс-?(женщин|мужчин|персон)\w*|смен\w* пола|згт|ориентаци\w*)\b",
            r"\b(гомосексуальн\w*|бисексуальн\w*|лесби\w*)\b",
        ),
    },
    # Chinese: substrings, long enough not to sit inside everyday words
    "zh": {
        "health": (
            r"阿普唑仑|艾司唑仑|劳拉西泮|氯硝西泮|地西泮|帕罗西汀|氟西汀|百忧解|文拉法辛|米氮平",
            r"度洛西汀|喹硫平|奥氮平|碳酸锂|丙戊酸|利他林|左甲状腺素|优甲乐|降糖药|降脂药|他汀",
            r"硝苯地平|氨氯地平|布洛芬|止疼药|甲状腺|结节|囊肿|息肉|类风湿|风湿|关节炎|强直性脊柱炎",
            r"红斑狼疮|银屑病|牛皮癣|湿疹|克罗恩|结肠炎|胃溃疡|胃炎|脂肪肝|肝硬化|肾结石|尿毒症",
            r"心律不齐|心衰|贫血|多发性硬化|脑梗|脑瘫|偏头痛|颈椎病|腰椎间盘|椎间盘突出|乳腺增生",
            r"多囊|子宫肌瘤|子宫内膜异位|宫外孕|妊娠|孕妇|孕早期|孕中期|孕晚期|待产|顺产|哺乳期",
            r"胎儿|胎动|怀二胎|二胎|小儿麻痹|脊髓灰质炎|瘫痪|截瘫|偏瘫|耳聋|聋人|助听器",
            r"听力下降|听力障碍|听力受损|视力残疾|盲人(?!按摩)|弱视|手语|腿脚不便|行动不便|假肢|唐氏",
            r"智力障碍|创伤后|(?<![a-z])ptsd(?![a-z])|心理疾病",
        ),
        "finance": (
            r"赌博|赌钱|网赌|赌输|信用评分|征信",
            r"欠.{0,6}(钱|[0-9一二两三四五六七八九十百千万]+(块|元|万))|没还清",
            r"存定期|定期存款|定期里|大额存单|存了.{0,4}[万千]|存钱|攒钱|攒了.{0,4}[万千块元]|储蓄|存折",
            r"所得税|退税|交税|缴税|报税|税务|一个月拿|每月到手|一个月到手|月入|年入",
            r"分期|按揭|首付|月供|基金(?!会)|期货|债券|国债|负资产|穷光蛋|身无分文",
        ),
        "religion": (
            r"回民|佛教徒|菩萨|烧香|拜神|上香|念经|诵经|佛经|神父|牧师|圣餐|信神|信上帝|不信神",
            r"圣诞弥撒|复活节弥撒|主日学|唱诗班|斋饭",
        ),
        "politics": (
            # a party by its suffix; not 死党 (a best friend), 甘党, 党参 (a herb)
            r"(?<![甘辛左死朋余])党(?!参)|共产主义|社会主义者|马克思主义",
            r"立法会|区议会|大选|公投|政党|左翼|右翼|左倾|右倾|偏左|偏右|建制派|泛民|民主派",
            r"蓝营|绿营|人大代表|政协委员",
        ),
        "sexuality": (r"跨性别|变性|性少数|同志骄傲|骄傲游行|激素治疗|男朋友和我都是男",),
    },
    # Japanese: substrings
    "ja": {
        "health": (
            r"潰瘍性大腸炎|クローン病|関節リウマチ|リウマチ|膠原病|甲状腺|橋本病|バセドウ病",
            r"ヘルニア|痛風|心筋梗塞|脳梗塞|脳卒中|狭心症|不整脈|心不全|貧血|肝硬変|腎臓病|腎不全",
            r"白血病|リンパ腫|乳がん|胃がん|肺がん|大腸がん|子宮筋腫|内膜症|多発性硬化症",
            r"パーキンソン|アルツハイマー|片頭痛|偏頭痛|メニエール|突発性難聴|緑内障|白内障",
            r"アトピー|乾癬|高脂血症|脂質異常症|コレステロール|尿酸値|血糖|血圧の薬|降圧剤",
            r"メトホルミン|チラーヂン|リフレックス|サインバルタ|イフェクサー|コンサータ",
            r"ストラテラ|ロラゼパム|ワイパックス|ソラナックス|リボトリール|ロキソニン",
            r"休職|メンタル(ヘルス|不調|の病)|うつ病|うつ状態|抑うつ|(?<![a-z])ptsd(?![a-z])|聞こえ(ない|ません|にくい)",
            r"耳が(遠い|不自由)|目が(見えない|見えません|不自由)|全盲|弱視|視力を失|手話|人工内耳",
            r"義足|義手|麻痺|身体障害|障害者手帳|障がい|障碍|産休|第二子|第一子|第三子",
            r"赤ちゃんが(生まれ|でき)|子どもができ|子供ができ|授か|臨月|顕微授精|人工授精",
        ),
        "finance": (
            r"ギャンブル(で|に|依存)|賭博|信用スコア|信用情報|延滞",
            r"積み立て|積立|つみたて|貯蓄|(万円|お金)を?貯め|へそくり|老後資金|定期預金|確定申告",
            r"控除|住民税|所得税|税金|納税|源泉徴収|年末調整|分割払い|キャッシング|借り入れ",
            r"借入|投資信託|外貨預金|給付金|万円(の|を)?(借り|貸し)",
        ),
        "religion": (r"神(様)?(を|は|も)?信じ|神道|断食月|安息日|聖餐|堅信|お百度",),
        "politics": (
            # a party by its suffix; not a sweet tooth, a drinker, a best friend (read for zh too)
            r"(?<![甘辛左死朋余])党(?!参)",
            r"自民|立憲民主|共産主義|与党|野党|政権交代|保守派|デモ(行進|活動|参加)",
            r"期日前投票|政治家を応援|政治団体|市民団体|選挙運動|選挙ボランティア",
        ),
        "sexuality": (r"性自認|性的少数者|ホルモン治療|ホルモン療法",),
    },
}


DEFAULT_CATEGORIES: tuple[Category, ...] = (
    Category(
        "personal",
        "Who the person is: name, age, birthplace, nationality, language, personality.",
        examples=(
            "My name is Laura Becker.",
            "I'm 27.",
            "I was born in Lyon.",
            "I'm Brazilian.",
            "My native language is Polish.",
            "I'm a very extroverted person.",
            "People call me Alex.",
            "I have red hair and freckles.",
        ),
    ),
    Category(
        "preferences",
        "Likes, dislikes, tastes and how they want things done or answered.",
        examples=(
            "I like answers to be concise.",
            "I don't like musicals.",
            "My favourite season is autumn.",
            "I prefer emails to phone calls.",
            "Please use 24-hour time.",
            "I prefer aisle seats.",
            "I like a light colour scheme.",
            "Don't use emojis when talking to me.",
        ),
    ),
    Category(
        "work",
        "Job, employer, role, colleagues, career and workplace routines.",
        examples=(
            "I work as an accountant.",
            "I'm a software developer at Google.",
            "My boss is very demanding.",
            "I work from the office on Tuesdays.",
            "I just changed jobs.",
            "I'm a teacher at a primary school.",
            "My colleague Mark sits next to me.",
            "I'm a self-employed plumber.",
        ),
    ),
    Category(
        "projects",
        "Things they are building, writing, making or working on, and their progress.",
        examples=(
            "I'm building a website for my band.",
            "I'm working on a video game in Godot.",
            "I'm writing a memoir.",
            "My side project is a weather station.",
            "I'm restoring an old motorbike.",
            "The redesign of our checkout page is almost finished.",
            "I'm making a documentary about my village.",
            "I'm developing a browser extension.",
        ),
    ),
    Category(
        "relationships",
        "Family, partner, children, friends and other people in their life.",
        examples=(
            "My husband is called Mike.",
            "I have three kids.",
            "My dad lives in Spain.",
            "My girlfriend is a doctor.",
            "My best friend is getting married.",
            "I'm close to my grandmother.",
            "My daughter is ten.",
            "I recently broke up with my partner.",
        ),
    ),
    Category(
        "food",
        "Diet, cooking, favourite dishes and drinks, restaurants.",
        examples=(
            "I'm vegan.",
            "I love Italian food.",
            "I don't like mushrooms.",
            "I cook dinner every night.",
            "My favourite drink is green tea.",
            "I love burgers.",
            "I'm trying out new curry recipes.",
            "I avoid sugar.",
        ),
    ),
    Category(
        "travel",
        "Trips, holidays, places visited or planned, flights and transport.",
        examples=(
            "I'm going to Paris next month.",
            "I travelled around Australia.",
            "I'm booking a holiday in Greece.",
            "I fly a lot for business.",
            "I love backpacking.",
            "We went to Iceland on our honeymoon.",
            "I'm planning a trip to New York.",
            "I have frequent flyer miles with Lufthansa.",
        ),
    ),
    Category(
        "technology",
        "Computers, phones, programming languages, software and tools they use.",
        examples=(
            "I use Windows 11.",
            "I code in Go.",
            "I use VS Code.",
            "I have an iPhone.",
            "I use Notion for planning.",
            "I run a home server.",
            "I like Linux.",
            "I use Git for everything.",
        ),
    ),
    Category(
        "education",
        "School, university, degrees, courses, exams and things they are studying.",
        examples=(
            "I have a bachelor's degree in history.",
            "I'm studying medicine.",
            "I'm taking a course in photography.",
            "I went to Oxford.",
            "I'm learning French.",
            "I have an exam next week.",
            "I'm in my final year of university.",
            "I did an MBA.",
        ),
    ),
    Category(
        "hobbies",
        "Sports, games, music, reading, crafts and other pastimes.",
        examples=(
            "I play tennis.",
            "I like hiking.",
            "I play video games.",
            "I read a lot of crime novels.",
            "I play the drums.",
            "I do photography in my free time.",
            "I love gardening.",
            "I swim every weekend.",
        ),
    ),
    Category(
        "home",
        "Where they live, their house or flat, pets, household and neighbourhood.",
        examples=(
            "I live in Madrid.",
            "We have a dog.",
            "I rent a studio apartment.",
            "My house has a big garden.",
            "I live with my partner.",
            "I just moved to a new flat.",
            "My neighbours are noisy.",
            "We have a cat called Luna.",
        ),
    ),
    Category(
        "schedule",
        "Appointments, routines, deadlines, dates and time commitments.",
        examples=(
            "I have a meeting at 2pm tomorrow.",
            "My doctor's appointment is on Thursday.",
            "I wake up at 6 every day.",
            "The report is due next Monday.",
            "I'm on holiday next week.",
            "I have yoga every Tuesday evening.",
            "Remind me that the party is on Saturday.",
            "I work night shifts this month.",
        ),
    ),
    Category(
        "goals",
        "Plans, ambitions, resolutions and things they want to achieve.",
        examples=(
            "I want to get fit this year.",
            "My dream is to open a café.",
            "I want to learn to code.",
            "I'm planning to buy a house.",
            "I want to write a book one day.",
            "I hope to get promoted.",
            "I want to travel the world.",
            "I aim to wake up earlier.",
        ),
    ),
    Category(
        "health",
        "Medical conditions, allergies, medication, pregnancy, mental health, therapy.",
        sensitive=True,
        ordinary=EVERYDAY,
        examples=(
            "I have diabetes.",
            "I'm allergic to nuts.",
            "I take medication for my heart.",
            "I have depression.",
            "I broke my leg.",
            "I'm seeing a psychiatrist.",
            "I have chronic back pain.",
            "I'm on antibiotics.",
            "I have an autoimmune disease.",
            "I had an operation last month.",
            "I struggle with insomnia.",
            "I'm in recovery from alcohol addiction.",
        ),
        names=_words(
            """
            health healthcare medical medicine medicines meds medication medications doctor
            doctors gp hospital hospitals clinic clinics illness illnesses sick sickness
            disease diseases diagnosis diagnoses symptom symptoms treatment treatments therapy
            therapies therapist counselling counseling psychiatry psychiatrist psychology
            mental pregnancy fertility ivf surgery disability allergy allergies addiction rehab
            prescription prescriptions nhs dentist gesundheit krankheit medizin arzt santé
            médical médecin salud médico saúde
            """
        ),
        signals=(
            r"\bpregnan\w*",
            r"\babortions?\b",
            r"\bmiscarri\w*",
            r"\b(ivf|in vitro)\b",
            r"\b(in)?fertil(e|ity)\b",
            r"\bconceiv\w*",
            r"\bovulat\w*",
            r"\bcontracepti\w*",
            r"\b(ante|pre|post)natal\b",
            r"\b(obstetric|gyn(a)?ecolog|midwi[fv])\w*",
            r"\b(trying|hoping) for a baby\b",
            r"\bexpecting (a baby|twins|triplets|a child|a boy|a girl)\b",
            r"\bweeks? along\b",
            r"\b(psycho)?therap(y|ies|ist|ists|eutic)\b",
            r"\bcounsell?(ing|or|ors)\b",
            r"\bpsychiatr\w*",
            r"\bpsycholog(ist|ists|ical)\b",
            r"\bmental health\b",
            r"\b(diagnos\w*|symptoms?|disorders?|syndromes?|diseases?|chronic)\b",
            r"\b(depress(ed|ion)|anxiety|panic attacks?|ptsd|adhd|ocd|bipolar|schizophreni\w*)\b",
            r"\b(anorexi|bulimi|self-?harm|suicid)\w*",
            r"\b(addict\w*|alcoholi\w*|rehab|sober|sobriety|overdos\w*|relapse\w*)\b",
            r"\b(aa|na) meetings?\b",  # Alcoholics / Narcotics Anonymous, by their initials
            r"\b(medications?|medicines?|prescri(bed|ption|ptions)|pills?|dose|doses|dosage)\b",
            r"\b\d+ ?mg\b",
            r"\b(inhaler|insulin|chemo\w*|radiotherapy|dialysis|antibiotics?|antidepressants?)\b",
            r"\b(steroids?|blood thinners?|statins?|painkillers?|opioids?)\b",
            r"\b(sertraline|fluoxetine|citalopram|escitalopram|venlafaxine|mirtazapine|lithium)\b",
            r"\b(metformin|methadone|buprenorphine|adderall|ritalin|xanax|valium|diazepam)\b",
            r"\b(codeine|oxycodone|tramadol|morphine|warfarin|prozac|zoloft|lexapro|seroquel)\b",
            r"\b(diabet\w*|cancer|tumou?rs?|hiv|aids|hepatitis|herpes|asthma|epilep\w*)\b",
            r"\b(migraines?|arthritis|dementia|alzheimer\w*|stroke|heart attack|allerg\w*)\b",
            r"\b(blood pressure|cholesterol|disabilit(y|ies)|disabled|wheelchair)\b",
            r"\b(surgery|operation on|hospitali[sz]ed|in hospital|a&e|emergency room)\b",
            r"\b(cpap|sleep apnoea|sleep apnea|insomnia|hormones?)\b",
            # Body, senses and neurodivergence (issue 38: "My knees hurt after long runs" typed or
            # imported was read by every app).
            r"\b(knees?|back|hips?|joints?|shoulders?|neck|wrists?|ankles?|elbows?|feet|foot)"
            r"\s+(hurts?|ache|aches|aching|(is|are|get|gets)\s+(sore|stiff|swollen))\b",
            r"\b(bad|dodgy|weak|arthritic)\s+(knees?|back|hips?|joints?|ankles?)\b",
            r"\b(injur(y|ies|ed)|sprain\w*|fractur\w*|torn\s+(acl|ligament|meniscus)|tendon\w*)\b",
            r"\b(autis\w*|asperger\w*|dyslexi\w*|dyspraxi\w*|tourette\w*)\b",
            r"\b(colou?r-?blind\w*|(legally|partially|completely)\s+blind|blind\s+in|deaf\w*)\b",
            r"\b(hard of hearing|hearing aids?|coeliac|celiac|crohn'?s|ibs|eczema|psoriasis)\b",
        ),
    ),
    Category(
        "finance",
        "Money, salary, debts, savings, investments, banking, taxes, rent and bills.",
        sensitive=True,
        examples=(
            "I make 50k a year.",
            "I have a lot of debt.",
            "I invest in stocks.",
            "I'm saving money for retirement.",
            "I have a loan with my bank.",
            "I'm struggling to pay my bills.",
            "My account is with Barclays.",
            "I owe money to my friend.",
            "I own shares in Apple.",
            "I pay too much tax.",
        ),
        ordinary=(
            *EVERYDAY,
            "I'm a developer on our company's billing system.",
            "I work in the finance department as a data engineer.",
            "My team builds the checkout and payment pages.",
            "I work at a bank as a designer.",
            "I submit my travel expenses at the end of each trip.",
            "I wrote my dissertation about central banks.",
            "My budget for a new tent is 200 euros.",
            "I spent 60 euros on paint for my models.",
            "Tennis lessons cost 25 pounds an hour.",
            "I'm putting a little aside each month for concert tickets.",
            "I look for bargains when I buy clothes.",
            "I prefer contactless payments in shops.",
            "The cinema ticket was 12 euros.",
            "I pay for a music streaming subscription.",
            "I'm writing an app that tracks shared expenses with friends.",
            "The swimming pool membership is cheap.",
            "I'm an auditor at one of the big consulting firms.",
            "I maintain the trading platform's front end.",
            "She handles insurance claims at work.",
            "My job is reconciling supplier invoices.",
            "The ski pass is 50 euros a day.",
            "Fishing gear is getting expensive.",
            "My running club charges 5 pounds a session.",
            "I got the game on sale for half price.",
            "I use a loyalty card at the bakery.",
            "Dog food costs us about 30 euros a month.",
            "I found cheap train tickets to Berlin.",
            "We keep the party spending to 150 euros.",
            "I cancelled my gaming subscription.",
            "I'm studying accounting at night school.",
            "I like reading about the history of money.",
        ),
        names=_words(
            """
            finance finances financial money salary salaries income wage wages payslip payslips
            debt debts loan loans mortgage bank banking tax taxes savings investment
            investments investing pension credit budget bills wealth finanzen geld dinero
            """
        ),
        signals=(
            r"\bdebts?\b",
            r"\b(owe|owes|owed|owing)\b",
            r"\b(loans?|mortgages?|remortgag\w*|arrears|bankrupt\w*|insolven\w*)\b",
            r"\b(credit cards?|credit score|credit rating|payday|repossess\w*|iva)\b",
            r"\b(default(ed|s)? on|behind on (the |his |her |their |my )?(rent|mortgage|bills?))\b",
            r"\b(pay(ing)? off|paid off|debt collectors?|bailiffs?)\b",
            r"\b(salary|salaries|earns|income|pay rise|raise to|wages?|savings|pension)\b",
            r"\b(invest(s|ed|ing|ments?)?|shares in|net worth|inherit\w*)\b",
            r"\b(gambl\w*|benefits claim|universal credit|food stamps|(is|am|are|was) broke)\b",
            r"\b(back taxes|tax bill|tax return|owes tax)\b",
            r"\bsaving (up )?for (a|an|the|our|my|his|her|their) (new )?"
            r"(house|home|flat|deposit|roof|car|wedding|kitchen|extension|retirement)\b",
        ),
    ),
    Category(
        "religion",
        "Faith, beliefs, worship and religious practice or holidays.",
        sensitive=True,
        ordinary=EVERYDAY,
        examples=(
            "I'm a Christian.",
            "I'm Muslim.",
            "I go to church every week.",
            "I'm Hindu.",
            "I don't believe in God.",
            "I observe the Sabbath.",
            "I read the Bible every day.",
            "I'm spiritual but not religious.",
            "I'm a member of the synagogue.",
            "I celebrate Eid.",
        ),
        names=_words(
            """
            religion religions religious faith church mosque synagogue temple prayer prayers
            spirituality spiritual belief beliefs god bible quran torah religión glaube
            """
        ),
        signals=(
            r"\b(goes|go|going|went) to (church|mass|mosque|synagogue|temple|chapel)\b",
            r"\b(mosque|synagogue|gurdwara|mandir|parish)\b",
            r"\b(pray(s|ed|ing|er|ers)?|worship\w*|faith|god|allah|jesus|christ)\b",
            r"\b(christian|catholic|protestant|evangelical|baptist|methodist|anglican)\b",
            r"\b(mormon|jehovah\w*|muslim|islam\w*|jewish|judaism|jews?|hindu\w*|sikh\w*)\b",
            r"\b(buddhis\w*|atheis\w*|agnostic|religio\w*|spiritual)\b",
            r"\b(kosher|halal|sabbath|shabbat|eid|diwali|passover|hajj|bible|quran|torah)\b",
            r"(?-i:\bLent\b)",
            r"\b(hijab|headscarf|turban|kippah|yarmulke)\b",
        ),
    ),
    Category(
        "politics",
        "Political views, parties, voting, activism, unions and campaigns.",
        sensitive=True,
        ordinary=EVERYDAY,
        examples=(
            "I'm a socialist.",
            "I vote conservative.",
            "I'm a Democrat.",
            "I'm politically left-wing.",
            "I joined a protest against the war.",
            "I support the Liberal party.",
            "I'm an environmental activist.",
            "I think the government should cut taxes.",
            "I'm a trade union member.",
            "I volunteered for a political campaign.",
        ),
        names=_words(
            """
            politics political vote votes voting election elections activism activist protest
            protests union politik política
            """
        ),
        signals=(
            r"\bvot(e|es|ed|ing|er|ers) for\b",
            r"\b(labour|tory|tories|conservatives?|lib ?dems?|liberal democrats?|snp|ukip)\b",
            r"\b(democrats?|republicans?|gop|maga|afd|spd|cdu|brexit\w*)\b",
            r"(?-i:\b[A-Z]\w+ Party\b)",
            r"\b(socialis\w*|communis\w*|libertarian\w*|anarchis\w*|fascis\w*|marxis\w*)\b",
            r"\b(left|right)-wing\b",
            r"\b(protest(s|ed|ing|er|ers)?|activis\w*|canvass\w*|petition\w*|marched)\b",
            r"\b(union member|trade union|politic(s|ally)|election|campaign(s|ed)? for)\b",
            r"\bpolitical (views?|party|parties|opinions?|beliefs?|activis\w*)\b",
            r"\b(pro-choice|pro-life|abortion rights|gun control|immigration should)\b",
        ),
    ),
    Category(
        "sexuality",
        "Sexual orientation, sex life, gender identity and transition.",
        sensitive=True,
        ordinary=EVERYDAY,
        examples=(
            "I'm homosexual.",
            "I'm attracted to both men and women.",
            "I'm transgender.",
            "I'm heterosexual.",
            "I'm pansexual.",
            "I recently came out as gay.",
            "My pronouns are she/her.",
            "I'm gender fluid.",
            "I'm in a polyamorous relationship.",
            "I'm not interested in sex.",
        ),
        names=_words(
            """
            sex sexual sexuality gender lgbt lgbtq queer gay lesbian trans transgender kink
            intimacy orientation sexualität sexualidad
            """
        ),
        signals=(
            r"\b(gay|lesbian|bisexual|queer|homosexual|heterosexual|pansexual|asexual)\b",
            r"\b(came|coming) out (as|to)\b",
            r"\b(lgbt\w*|same-sex|sexual orientation|sexuality|sex life|libido|kink\w*)\b",
            r"\b(transgender|trans (woman|man|person|people)|non-?binary|genderqueer)\b",
            r"\bgender (identity|clinic|dysphoria|fluid|transition|affirming)\b",
            r"\b(top|bottom) surgery\b",
            r"\btransition(ed|ing)\b",
            r"\b(they/them|she/they|he/they|pronouns)\b",
            r"\b(polyamor\w*|open relationship)\b",
            r"(?-i:\b(to|at|for) Pride\b|\bPride (parade|march|month|festival)\b)",
        ),
    ),
    Category(
        "legal",
        "Lawsuits, disputes, police, criminal records, visas and immigration status, contracts.",
        sensitive=True,
        ordinary=EVERYDAY,
        examples=(
            "I'm going to court next week.",
            "I have a lawyer for my case.",
            "I was convicted of a crime.",
            "My visa application was rejected.",
            "I'm in a legal dispute with my neighbour.",
            "I'm waiting for my green card.",
            "I got a parking ticket.",
            "I'm on probation.",
            "I'm seeking asylum.",
            "I'm contesting a fine.",
        ),
        names=_words(
            """
            legal law lawyer lawyers attorney solicitor court courts lawsuit police criminal
            crime immigration visa visas asylum citizenship residency probation arrest divorce
            custody recht
            """
        ),
        signals=(
            r"\b(in|to|at|before the) court\b",
            r"\bcourt (case|hearing|date|order|appearance)s?\b",
            r"\b(family|small claims|crown|magistrates'?|county|high|supreme) court\b",
            r"\b(lawsuits?|litigation|sued|suing|sues|tribunal|hearing on)\b",
            r"\b(my|his|her|their|our) (lawyer|solicitor|attorney|barrister)s?\b",
            r"\b(arrest(ed)?|convict(ed|ion)|criminal record|charged with|probation|parole)\b",
            r"\b(prison|jail|sentenced|custody|restraining order|injunction|by the police)\b",
            r"\b(testif(y|ied|ies)|fined for|fraud|evasion|drink[- ]driving|dui)\b",
            r"\b(deport\w*|asylum|visas?|immigration status|undocumented|green card)\b",
            r"\b(work permit|residence permit|overstay\w*|refugee status|citizenship)\b",
            r"\b(investigated|evict(ed|ion)|dispute with|legal action)\b",
        ),
    ),
    Category(
        UNCHECKED,
        "Memories in a language Context Layer can't check for sensitive facts: hidden from apps "
        "like a sensitive category until you label them.",
        sensitive=True,
        by_rule=True,
    ),
)

SENSITIVE = frozenset(c.slug for c in DEFAULT_CATEGORIES if c.sensitive)
DEFAULT_SLUGS = frozenset(c.slug for c in DEFAULT_CATEGORIES)
BY_SLUG = {c.slug: c for c in DEFAULT_CATEGORIES}

_NAME_WORDS = {word: c.slug for c in DEFAULT_CATEGORIES if c.sensitive for word in c.names}


# Whose signal words a text of each language is read with, beside the English ones: Chinese and
# Japanese share Han characters (a short run of Han may be either, memories/language.py), and a
# text in a language we do not claim, or too short to tell, is read with every language's: more
# caution where less is known.
_SIGNAL_LANGUAGES: dict[str | None, tuple[str, ...]] = {
    None: (),
    "en": ("en",),
    "zh": ("zh", "ja"),
    "ja": ("ja", "zh"),
    **{code: (code,) for code in ("de", "es", "fr", "pt", "ru")},
}
_EVERY_LANGUAGE = tuple(dict.fromkeys([*SIGNALS_BY_LANGUAGE, *LEXICONS]))


# Settings in which a sensitive category's signal word names a topic or a place, not the writer's
# own life: a course on salary negotiation, a concert or a wedding in a church. Such a text does
# not get the category from its signal words (its embedding and the character model still count).
# Kept narrow: each needs the word and its ordinary setting together. Written from the false
# alarms of bench/data/sensitive_dev3.json's dev split (issue 36.3).
ORDINARY_SETTINGS: dict[str, tuple[str, ...]] = {
    "finance": (
        r"\b(courses?|class(es)?|workshops?|seminars?|webinars?|training|books?|podcasts?)\b"
        r".*\b(salary|pay) negotiations?\b",
        r"\b(curso|taller|seminario|formaci[oó]n|libro)\b"
        r".*\bnegoci\w+ (el |un |mi )?(sueldo|salario)",
        r"\b(курс\w*|тренинг\w*|семинар\w*|вебинар\w*|книг\w*)\b.*\bпереговор\w* о зарплат\w*",
        r"(給与|給料|年収)交渉の?(セミナー|講座|研修|本|コース)",
        r"(薪资|工资|薪水)谈判.{0,4}(课|培训|讲座|技巧|书)",
    ),
    # A vote in a club, a team or a contest (the vote words are signals), unless the text also
    # names an election, a party or an office (`_POLITICAL`).
    "politics": (
        r"\b(club|team|captain|treasurer|chair(person)?|contest|competition|quiz|costume|song"
        r"|photo|name for)\b",
        r"\b(verein\w*|club|klub|mannschaft|team|kapitän\w*|kassenwart\w*|schriftführer\w*"
        r"|klassensprecher\w*|wettbewerb\w*|farbe|foto|lied|kostüm)\b",
        r"\b(club|equipo|capit[aá]n\w*|tesorer\w*|concurso|foto|canci[oó]n|disfraz)\b",
        r"\b(club|[ée]quipe|capitaine|tr[ée]sori\w*|concours|photo|chanson|d[ée]guisement)\b",
        r"\b(clube|time|equipe|capit[ãa]o|tesoureir\w*|concurso|foto|m[úu]sica|fantasia)\b",
        r"\b(клуб\w*|команд\w*|капитан\w*|казначе\w*|конкурс\w*|фото\w*|песн\w*|костюм\w*)\b",
    ),
    "religion": (
        r"\bconcerts?\b.*\bà l'[ée]glise\b|\bà l'[ée]glise\b.*\bconcerts?\b",
        r"(去|上|在)教堂.{0,8}(音乐会|演出|参观|拍照|婚礼)",
        r"教会(で|の)(クリスマス)?(コンサート|ホール|結婚式|バザー)",
    ),
}
# Words that make a vote political whatever else the text says: elections, parties, offices.
_POLITICAL = re.compile(
    r"\b(elections?|ballot|referendum|part(y|ies)|candidates?|president\w*|parliament|mayor"
    r"|council\w*|government|labour|tor(y|ies)|conservatives?|democrats?|republicans?|greens?"
    r"|lib ?dems?|\w*wahl\w*|partei\w*|cdu|csu|spd|fdp|afd|grünen|linke\w*|kandidat\w*"
    r"|bundestag|landtag|gemeinderat|stadtrat|bürgermeister\w*|elecci\w*|partido|psoe|pp|vox"
    r"|sumar|podemos|candidat\w*|alcald\w*|gobierno|generales|municipales|[ée]lection\w*"
    r"|parti|rn|lfi|ps|maire|l[ée]gislatives|gouvernement|elei[çc]\w*|psdb|pl|psol|prefeit\w*"
    r"|vereador\w*|governo|deputad\w*|lula|bolsonaro|выбор\w*|парти\w*|кандидат\w*"
    r"|президент\w*|депутат\w*|мэр\w*|дум\w*|кпрф|лдпр|яблок\w*)\b",
    re.IGNORECASE,
)
_ORDINARY_SETTINGS = [
    (slug, re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE))
    for slug, patterns in ORDINARY_SETTINGS.items()
]


def ordinary_settings(text: str) -> frozenset[str]:
    """The sensitive categories whose signal words `text` uses in an ordinary setting."""
    return frozenset(
        slug
        for slug, pattern in _ORDINARY_SETTINGS
        if pattern.search(text) and not (slug == "politics" and _POLITICAL.search(text))
    )


# Phrases in which a signal word names a building seen as a sight, a landmark or a venue, a
# public event met as an obstacle, a historical topic or an errand, not the writer's own life: a
# Buddhist temple visited as a tourist, the house next to a church, a parish hall hired for a
# birthday, the Reformation, a demonstration that blocked the road, a tax return to hand in by a
# date. Unlike `ORDINARY_SETTINGS` (which set a category's signal words aside in the whole text),
# only the phrase's own words are set aside (`ordinary_phrases`, `_PHRASE_WORDS`): a signal word
# elsewhere in the text or between them ("I'm Buddhist", "converted to Buddhism at a temple", "I
# owe 3,000 euros") still labels it, one's own place or march ("our mosque", "I joined the
# march") keeps the phrase in play (`_PHRASE_KEPT`), and the embedding and the character model
# read the whole text as before. Each needs the word and its ordinary use together, within one
# clause. Branch sens36e narrowed them so (sens36d blanked the whole span, words between too).
# Written as themes from the false alarms of bench/data/sensitive_dev5.json's dev split (issue
# 36.3), not from its sentences.
_PLACE_OF_WORSHIP = (
    r"(temples?|shrines?|church(es)?|cathedrals?|chapels?|mosques?|synagogues?|monaster\w*"
    r"|abbeys?|tempel\w*|kirche\w*|dom\w*|kapelle\w*|kathedrale\w*|moschee\w*|synagoge\w*"
    r"|kl[oö]ster\w*|templos?|iglesias?|catedral\w*|capillas?|mezquitas?|sinagogas?|monasterios?"
    r"|[ée]glises?|cath[ée]drales?|chapelles?|mosqu[ée]es?|monast[èe]res?|abbayes?|igrejas?"
    r"|capelas?|mesquitas?|mosteiros?|храм\w*|церк\w*|собор\w*|часовн\w*|мечет\w*|синагог\w*"
    r"|монастыр\w*)"
)
# The place with a word on each side ("a Buddhist temple", "un temple bouddhiste").
_WORSHIP_PLACE = rf"(\w+\s+)?\b{_PLACE_OF_WORSHIP}\b(\s+\w+)?"
_AS_A_SIGHT = (
    r"\b(tourists?|sightseeing|photograph\w*|photos? of|guided tour|besichtig\w*|tourist\w*"
    r"|fotografier\w*|f[üu]hrung|turistas?|fotograf\w*|visita guiada|touristes?|photographi\w*"
    r"|visite guid[ée]e|туристом|туристы|экскурси\w*|фотографир\w*)\b"
)
_BESIDE = (
    r"\b(next to|opposite|across (the street |the road )?from|neben|gegen[üu]ber|al lado de"
    r"|enfrente de|[àa] c[ôo]t[ée] d|en face d|ao lado d|em frente|рядом с|напротив|возле)"
)
_PROTEST = (
    r"\b(demonstrations?|protests?|march(es)?|strikes?|rall(y|ies)|demo|demos|kundgebung\w*"
    r"|streik\w*|manifestaci\w+|protestas?|huelgas?|manifestations?|manifs?|gr[èe]ves?"
    r"|manifesta[çc]\w+|protestos?|greves?|passeatas?|демонстраци\w*|митинг\w*|забастовк\w*"
    r"|протест\w*)\b"
)
_IN_THE_WAY = (
    r"\b(blocked|block(ing|s)?|closed|traffic|detours?|late|delayed|cancell?ed|stuck|diverted"
    r"|blockiert\w*|gesperrt|stau|umleitung|zu sp[äa]t|versp[äa]t\w*|ausgefallen|fiel(en)?"
    r"|cort[óa]\w*"
    r"|bloque\w*|tr[áa]fico|atasco|desv[íi]o|tarde|retras\w*|bloqu\w*|circulation"
    r"|embouteillage|d[ée]viation|retard\w*|tr[âa]nsito|engarrafamento|desvio|atras\w*"
    r"|перекры\w*|заблокир\w*|пробк\w*|объезд\w*|опозда\w*|задерж\w*)\b"
)
_TAX_RETURN = (
    r"\b(tax (returns?|forms?|declarations?)|steuererkl[äa]rung\w*|declaraci[oó]n de (la renta"
    r"|impuestos)|d[ée]claration d'imp[ôo]ts?|d[ée]claration de revenus"
    r"|declara[çc][ãa]o (do|de) imposto de renda|imposto de renda|налогов\w+ деклараци\w*)\b"
)
_ERRAND = (
    r"\b(hand in|send in|submit|fill (in|out)|deadline|due|by the end of|abgeben|einreichen"
    r"|ausf[üu]llen|frist|bis ende|entregar|presentar|rellenar|plazo|rendre|d[ée]poser|remplir"
    r"|date limite|enviar|preencher|prazo|сдать|подать|заполнить|срок|до конца)\b"
)


def _either_order(a: str, b: str, gap: str = r"[^.!?;]{0,40}?") -> str:
    return rf"(?:{a}{gap}{b}|{b}{gap}{a})"


# The words of each category's phrases: the building (with a word on either side), the sight, the
# event, the obstacle, the form and the errand. Only these are set aside in a phrase found, not the
# words between them: "As a tourist I converted to Buddhism at a temple" keeps "Buddhism".
_SIGHT_ZH_JA = r"(旅游|观光|参观|游览|拍照|拍了|拍摄|観光|見学|写真|撮)"
_PLACE_ZH_JA = r"(教堂|寺庙|佛寺|寺院|清真寺|修道院|教会|礼拝堂|大聖堂|お寺|神社|モスク)"
_PROTEST_ZH_JA = r"(游行|示威|罢工|デモ|ストライキ)"
_IN_THE_WAY_ZH_JA = r"(堵|封路|交通|迟到|晚点|绕路|停运|遅刻|渋滞|通行止め|ふさが|遅れ|運休|迂回)"
_TAX_RETURN_ZH_JA = r"(报税表|报税|个税申报|纳税申报|確定申告)"
_ERRAND_ZH_JA = r"(交|提交|填|截止|之前|出さ|出す|提出|締め切り|まで|書類)"
_PARISH_HALL = (
    r"\b(parish|church) (hall|centre|center|rooms?)\b|\bsalle paroissiale\b"
    r"|\bsal[oó]n parroquial\b|\bsal[aã]o paroquial\b|\bприходск\w+ зал\w*"
)
# A health word said of an animal or a plant, not of the writer: a dog operated on, a cat neutered
# or pregnant, tomatoes with a fungal disease (issue 36.3, sensitive_dev6's dev split: in every
# language the signal word was a surgery or an illness whose patient was a pet or a garden). The
# patient and the health word are set aside only within one clause, and never when the writer is a
# subject too or a relative is named (`_PHRASE_KEPT`: "I", "ich", "я", "我得了", "my wife"…).
_PATIENT = (
    r"\b(dogs?|cats?|pupp(y|ies)|kittens?|pets?|horses?|rabbits?|hamsters?|guinea pigs?"
    r"|parrots?|budgies?|tortoises?|plants?|tomato(es)?|trees?|roses?|orchids?|lawn|seedlings?"
    r"|hund\w*|hündin\w*|katze\w*|kater\w*|welpe\w*|haustier\w*|pferd\w*|kaninchen|hamster"
    r"|papagei\w*|wellensittich\w*|pflanze\w*|tomate\w*|baum|bäume\w*|rosen?|orchidee\w*|rasen"
    r"|perr[oa]s?|gat[oa]s?|cachorr\w*|mascotas?|caballos?|conejos?|loros?|plantas?|tomat\w*"
    r"|[áa]rbol\w*|rosal\w*|orqu[íi]deas?|c[ée]sped|chiens?|chiennes?|chats?|chatte|chatons?"
    r"|animal|animaux|chevaux|cheval|lapins?|perroquets?|plantes?|arbres?|rosiers?"
    r"|orchid[ée]es?|pelouse|c[ãa]es|c[ãa]o|cadelas?|gatinh\w*|cavalos?|coelhos?|papagaios?"
    r"|[áa]rvores?|roseiras?|grama|собак\w*|пёс|пса|щен\w*|кошк\w*|кот|кота|коту|котом"
    r"|котён\w*|питом\w*|лошад\w*|кролик\w*|хомяк\w*|попуга\w*|растени\w*|помидор\w*|томат\w*"
    r"|дерев\w*|орхиде\w*|газон\w*)\b"
)
_PATIENT_ZH_JA = (
    r"(狗|猫|宠物|兔|仓鼠|鹦鹉|植物|番茄|西红柿|玫瑰|兰花|草坪"
    r"|犬|ペット|うさぎ|ウサギ|ハムスター|インコ|トマト|バラ|芝生)"
)
_AILMENT = (
    r"\b(operations?|operated|surgery|diseases?|sick|ill|illness|neutered|spayed|castrated|pregnant"
    r"|trächtig|schwanger|embarazad[ao]|pre[ñn]ad[ao]|enceinte|pleine|gr[áa]vida|prenhe|беременн\w*"
    r"|vaccinat\w*|infect\w*|operier\w*|operation\w*|krank\w*|kastrier\w*|geimpft|oper[aó]\w*"
    r"|enferm\w*|castr\w*|vacun\w*|op[ée]r\w*|malad\w*|vaccin\w*|doen[çc]\w*|doente|vacin\w*"
    r"|операци\w*|оперир\w*|болезн\w*|заболе\w*|боле\w*|кастр\w*|привив\w*)\b"
)
_AILMENT_ZH_JA = r"(手术|病|绝育|疫苗|怀孕|手術|病気|去勢|ワクチン|妊娠)"
# A faith's word used as a figure of speech: something that "is a religion" or "is my bible" to the
# writer (football, a cookbook). Only the word after the verb is set aside: "Islam is a religion of
# peace" keeps "Islam", "I read my Bible" is not a predicate.
_FIGURE = r"(religion|religi[oó]n|religi[ãa]o|bibel|bible|biblia|b[íi]blia|религи\w*|библи\w*)"
_AS_A_FIGURE = (
    r"\b(is|are|was|ist|sind|war|es|son|era|est|sont|c'est|était|é|são)\s+(\w+\s+)?"
    r"(like\s+|wie\s+|como\s+|comme\s+|almost\s+|fast\s+|casi\s+|presque\s+|quase\s+)?"
    r"(a|my|our|the|eine|meine|unsere|die|una|mi|nuestra|la|une|ma|notre|uma|a minha|minha|nossa)"
    rf"\s+(\w+\s+)?{_FIGURE}\b"
    rf"|(—|–|\bэто|\bкак|\bсловно)\s+(это\s+)?(\w+\s+)?{_FIGURE}"
)
_FIGURE_ZH_JA = r"(就是|简直是|像是?)(一种|一门)?宗教|是[^。！？]{0,8}的圣经|宗教(のよう|みたい)"
# A debt of gratitude, not of money: "I owe my love of cooking to my grandmother", "devo à minha
# avó o meu amor". Only the verb is set aside, and a sum anywhere keeps it (`_PHRASE_KEPT`).
_OWE = r"\b(owe|owes|owed|devo|deve|devemos)\b"
_GRATITUDE = (
    r"\b(favou?rs?|apolog(y|ies)|explanation|thanks|love|passion|success|life|career|visit|call"
    r"|favor(es)?|desculpas?|explica[çc][ãa]o|amor|paix[ãa]o|sucesso|vida|carreira|visita)\b"
)
# An advertising or marketing campaign: "campaign for" a brand is not a political one.
_COMMERCIAL_CAMPAIGN = (
    r"\b(advertising|marketing|ad|publicity|promotional|sales|social media) campaigns?\b"
    r"|\bwerbekampagne\w*|\bcampa[ñn]as? (publicitari\w+|de marketing)|\bcampagnes? "
    r"(publicitaires?|de pub\w*|marketing)|\bcampanhas? (publicit[áa]ri\w+|de marketing)"
    r"|\bрекламн\w+ кампани\w*|广告(宣传|活动)|広告キャンペーン"
)
_PHRASE_WORDS: dict[str, tuple[str, ...]] = {
    "religion": (
        _WORSHIP_PLACE,
        _AS_A_SIGHT,
        _BESIDE,
        _PARISH_HALL,
        r"宗教改革",
        _SIGHT_ZH_JA,
        _PLACE_ZH_JA,
        _FIGURE,
        r"宗教|圣经",
    ),
    "health": (_PATIENT, _AILMENT, _PATIENT_ZH_JA, _AILMENT_ZH_JA),
    "politics": (_PROTEST, _IN_THE_WAY, _PROTEST_ZH_JA, _IN_THE_WAY_ZH_JA, _COMMERCIAL_CAMPAIGN),
    "finance": (_TAX_RETURN, _ERRAND, _TAX_RETURN_ZH_JA, _ERRAND_ZH_JA, _OWE),
}
ORDINARY_PHRASES: dict[str, tuple[str, ...]] = {
    "religion": (
        _either_order(_AS_A_SIGHT, _WORSHIP_PLACE),
        rf"{_BESIDE}\w*\s+(\w+\s+)?{_PLACE_OF_WORSHIP}\b",
        _PARISH_HALL,
        # The Reformation, a chapel or a temple as a sight, in Chinese and Japanese.
        r"宗教改革",
        _either_order(_SIGHT_ZH_JA, _PLACE_ZH_JA, r"[^。！？]{0,8}?"),
        _AS_A_FIGURE,
        _FIGURE_ZH_JA,
    ),
    "health": (
        _either_order(_PATIENT, _AILMENT, r"[^.!?;,]{0,30}?"),
        _either_order(_PATIENT_ZH_JA, _AILMENT_ZH_JA, r"[^。！？、，]{0,10}?"),
    ),
    "politics": (
        _either_order(_PROTEST, _IN_THE_WAY),
        _either_order(_PROTEST_ZH_JA, _IN_THE_WAY_ZH_JA, r"[^。！？]{0,12}?"),
        _COMMERCIAL_CAMPAIGN,
    ),
    "finance": (
        _either_order(_TAX_RETURN, _ERRAND),
        _either_order(_TAX_RETURN_ZH_JA, _ERRAND_ZH_JA, r"[^。！？]{0,12}?"),
        rf"{_OWE}[^.!?;]{{0,30}}?{_GRATITUDE}",
    ),
}
# What keeps a category's phrases in play anywhere in the text: the writer's own place of worship
# ("my church", "notre mosquée", "我们的教会"), taking part in the protest, or a sum of money with
# the tax return.
_PHRASE_KEPT = {
    "religion": re.compile(
        r"\b(my|our|mein\w*|unser\w*|mis?|nuestr[ao]s?|mon|ma|notre|nos|meus?|minhas?|noss[ao]s?"
        rf"|мо[йяеи]\w*|наш\w*)\s+(\w+\s+)?{_PLACE_OF_WORSHIP}\b"
        r"|(我们的|我的|我家的|私たちの|私の|うちの)" + _PLACE_ZH_JA,
        re.IGNORECASE,
    ),
    "politics": re.compile(
        r"\b((i|we) (joined|marched|went on|went to|took part|was at|were at|organi[sz]ed"
        r"|support\w*)|ich (war|bin) (auf|bei)|wir (waren|sind) (auf|bei)|gestreikt"
        r"|teilgenommen|fui a|fuimos a|particip\w*|je suis all[ée]|nous sommes all[ée]s"
        r"|j'ai manifest[ée]|eu fui|n[óo]s fomos|я (был|ходил)|мы (были|ходили)"
        r"|участвова\w*)\b|参加|去了.{0,4}游行",
        re.IGNORECASE,
    ),
    "finance": re.compile(r"\d|€|\$|£|euro|рубл|元|円|dollar|pound", re.IGNORECASE),
    # The writer as the subject beside the animal or the plant ("I had surgery after my dog bit
    # me"), or a relative who may be the patient ("my wife is pregnant and our cat knows it").
    "health": re.compile(
        r"\b(i|i'm|i've|i'd|ich|mich|mir|yo|me|je|j'|moi|eu|я|мне|мной)\b|(?<!у )\bменя\b"
        r"|\b(wife|husband|partner|girlfriend|boyfriend|mother|mum|mom|father|dad|sister|brother"
        r"|daughter|son|baby|child|frau|mann|freundin|freund|mutter|vater|schwester|bruder|tochter"
        r"|sohn|kind|esposa|esposo|mujer|marido|novi[ao]|madre|padre|herman[ao]|hij[ao]|beb[ée]"
        r"|femme|mari|copine|copain|m[èe]re|p[èe]re|s[œo]eur|fr[èe]re|fille|fils|namorad[ao]"
        r"|m[ãa]e|pai|irm[ãa]o?|filh[ao]|beb[êe]|жена|муж|девушк\w*|мам\w*|мать|пап\w*|отец"
        r"|сестр\w*|брат\w*|доч\w*|сын\w*|ребён\w*)\b"
        r"|我(得了|做了|有|被|住院|患)|(私|僕|俺|自分)(は|が|も)"
        r"|妻子|老婆|丈夫|老公|女朋友|妈妈|母亲|爸爸|父亲|姐姐|妹妹|哥哥|弟弟|女儿|儿子|孩子"
        r"|(?<!祖)(妻|夫|母|父)|彼女|姉|妹|兄|弟|娘|息子|子供|赤ちゃん",
        re.IGNORECASE,
    ),
}
_ORDINARY_PHRASES = [
    (
        slug,
        re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE),
        re.compile("|".join(f"(?:{p})" for p in _PHRASE_WORDS[slug]), re.IGNORECASE),
    )
    for slug, patterns in ORDINARY_PHRASES.items()
]


def _blanked(match: re.Match[str]) -> str:
    return " " * len(match.group(0))


def _own_words_blanked(words: re.Pattern[str]) -> Callable[[re.Match[str]], str]:
    """For `re.sub` over a phrase found: only its own words (`words`) blanked in it."""
    return lambda match: words.sub(_blanked, match.group(0))


def ordinary_phrases(text: str) -> dict[str, str]:
    """Per sensitive category with an ordinary phrase in `text` (`ORDINARY_PHRASES`), the text
    with those phrases' own words blanked (`_PHRASE_WORDS`), to match that category's signal
    words on: the rest of the text, and any word between a phrase's own, keeps its words, and the
    text its length."""
    out: dict[str, str] = {}
    for slug, pattern, words in _ORDINARY_PHRASES:
        kept = _PHRASE_KEPT.get(slug)
        if pattern.search(text) and not (kept is not None and kept.search(text)):
            out[slug] = pattern.sub(_own_words_blanked(words), text)
    return out


def signal_words(category: Category, language: str | None = None) -> list[str]:
    """The category's signals for a text in `language`: its English ones, and those of that
    language, `SIGNALS_BY_LANGUAGE` and `LEXICONS` (a code of memories/language.py; any code but a
    claimed one reads every language's). None: the English signals only (a category's name)."""
    others = _SIGNAL_LANGUAGES.get(language, _EVERY_LANGUAGE)
    return [
        *category.signals,
        *(
            s
            for code in others
            for table in (SIGNALS_BY_LANGUAGE, LEXICONS)
            for s in table.get(code, {}).get(category.slug, ())
        ),
    ]


def signals_pattern(category: Category, language: str | None = None) -> re.Pattern[str]:
    """`signal_words` as one case-insensitive pattern (one that matches nothing when there are
    none: a user's own category, `UNCHECKED`)."""
    signals = signal_words(category, language) or [r"(?!)"]
    return re.compile("|".join(f"(?:{s})" for s in signals), re.IGNORECASE)


_NAME_SIGNALS = [
    (c.slug, signals_pattern(c)) for c in DEFAULT_CATEGORIES if c.sensitive and c.signals
]


def sensitive_meaning(slug: str) -> str | None:
    """The sensitive default category a (folded) category name means by its words, or None: one
    of its words is in a sensitive category's `names` ("medical", "my-therapy" → health), or the
    name read as words shows one of its `signals` ("antidepressants", "court-case")."""
    words = slug.split("-")
    for word in (slug, *words):
        if word in _NAME_WORDS:
            return _NAME_WORDS[word]
    spoken = " ".join(words)
    for category, signals in _NAME_SIGNALS:
        if signals.search(spoken):
            return category
    return None

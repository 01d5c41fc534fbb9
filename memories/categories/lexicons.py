"""Broader vocabulary of the sensitive categories per claimed language (issue 36.3): a data table,
read beside `signals_by_language` by `signals.signal_words`."""

from __future__ import annotations

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

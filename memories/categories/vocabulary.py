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
"my-therapy"); with the signals, they decide whether a new category starts sensitive
(`signals.sensitive_meaning`). This module is the one home of that vocabulary
(memories/services/categories.py uses it); the signal words in other languages are in
`signals_by_language` and `lexicons`, the ordinary look-alikes (`EVERYDAY`) in `ordinary`.
"""

from __future__ import annotations

from dataclasses import dataclass

from memories.categories.ordinary import EVERYDAY


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

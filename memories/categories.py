"""The default category vocabulary. Sensitive categories stay out of an app's grant unless named.

Each category carries a one-line description (shown to people and to an LLM classifier) and a few
example memories: the local classifier compares a memory's embedding with these prototypes. The
examples are not drawn from the labelled test set (tests/memories/data/categories_labelled.json).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Category:
    slug: str
    description: str
    sensitive: bool = False
    examples: tuple[str, ...] = ()


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
    ),
    Category(
        "religion",
        "Faith, beliefs, worship and religious practice or holidays.",
        sensitive=True,
        examples=(
            "I'm a Christian.",
            "I'm Muslim.",
            "I go to church on Sundays.",
            "I'm Hindu.",
            "I don't believe in God.",
            "I observe the Sabbath.",
            "I read the Bible every day.",
            "I'm spiritual but not religious.",
            "I'm a member of the synagogue.",
            "I celebrate Eid.",
        ),
    ),
    Category(
        "politics",
        "Political views, parties, voting, activism, unions and campaigns.",
        sensitive=True,
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
    ),
    Category(
        "sexuality",
        "Sexual orientation, sex life, gender identity and transition.",
        sensitive=True,
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
    ),
    Category(
        "legal",
        "Lawsuits, disputes, police, criminal records, visas and immigration status, contracts.",
        sensitive=True,
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
    ),
)

SENSITIVE = frozenset(c.slug for c in DEFAULT_CATEGORIES if c.sensitive)
DEFAULT_SLUGS = frozenset(c.slug for c in DEFAULT_CATEGORIES)
BY_SLUG = {c.slug: c for c in DEFAULT_CATEGORIES}

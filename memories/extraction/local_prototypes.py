"""Prototype clauses for the local extractor's embedding half.

A clause that survived the rules is compared with lasting self-statements (the category
vocabulary's example memories plus the ones below) and with first-person clauses that are not
lasting facts (what the rules cannot tell apart: events of the day, other people's doings,
the task at hand, feelings of the moment). None of these is taken from the labelled sets in
tests/memories/data/.
"""

from __future__ import annotations

LASTING = (
    # Identity and background
    "I'm a 36-year-old Canadian.",
    "I was raised in a small fishing town.",
    "I'm originally from Poland but I've lived abroad for years.",
    "I have a degree in mechanical engineering.",
    "I'm an only son and my parents are retired teachers.",
    "I'm right-handed but I write with my left.",
    # Work and study
    "I work night shifts as a security guard.",
    "I'm a product manager at a logistics company.",
    "I've been a carpenter for twenty years.",
    "I'm doing an apprenticeship as an electrician.",
    "I run my own bakery.",
    "I teach piano to kids after school.",
    "I'm a third-year medical student.",
    "I work for the city council in planning.",
    # Where they live
    "I live in a flat in Edinburgh.",
    "We live on a houseboat in Amsterdam.",
    "I'm based in Singapore.",
    "I moved to Denver three years ago.",
    # People in their life
    "My wife is a midwife.",
    "I have three grandchildren.",
    "My brother lives in Perth and we're very close.",
    "My son is 12 and plays the violin.",
    "My partner is Brazilian.",
    "We have a toddler and a newborn.",
    "My mum lives with us since my dad died.",
    # Pets
    "We have two rabbits and a parrot.",
    "My dog is a 10-year-old beagle called Rufus.",
    # Preferences and diet
    "I don't eat red meat.",
    "I can't stand spicy food.",
    "I love long walks in the rain.",
    "I prefer short, direct answers.",
    "I'm not a fan of crowds.",
    "Never suggest anything with shellfish, I'm allergic.",
    # Tools and devices
    "I use Linux at home and Windows at work.",
    "I write most of my code in TypeScript and React.",
    "Our company runs everything on Azure.",
    "I use a Kindle for all my reading.",
    "I edit my photos in Lightroom.",
    # Health
    "I have epilepsy.",
    "I've had migraines since I was a teenager.",
    "I'm on blood thinners.",
    "I use a wheelchair.",
    "I've been in therapy for anxiety for years.",
    # Hobbies and ongoing projects
    "I play the trumpet in a brass band.",
    "I go bouldering twice a week.",
    "I'm writing a cookbook of my grandmother's recipes.",
    "I'm renovating an old farmhouse.",
    "I collect vinyl records.",
    # Plans with a horizon
    "I'm planning to retire in two years.",
    "We're saving up to buy a house next year.",
    "I want to run an ultramarathon someday.",
    "I'm applying to law schools this autumn.",
)

NOT_LASTING = (
    # Other people's doings and events around the writer
    "My neighbour is having a party and it's really loud.",
    "My boss wants the slides by Friday.",
    "My friend just broke up with her boyfriend.",
    "My colleague keeps stealing my stapler.",
    "My sister says I should call her back.",
    "My landlord hasn't fixed the heating yet.",
    "My teacher gave us a hard assignment.",
    "My friend believes the moon landing was faked.",
    "My coworker thinks remote work is lazy.",
    "My kid has a fever and won't eat.",
    # Travel and logistics of the moment
    "My train leaves at 8.",
    "My bus was cancelled again.",
    "My flight is delayed by two hours.",
    "My package still hasn't arrived.",
    "My phone screen just cracked.",
    "My car won't start this morning.",
    "My internet keeps dropping out.",
    "My laptop is overheating.",
    # The task at hand
    "I'm working on a report that's due soon.",
    "I'm trying to get this script to run.",
    "I'm getting an error when I compile.",
    "My code doesn't work.",
    "My function returns the wrong value.",
    "I'm writing an email to my landlord.",
    "I'm preparing for a job interview.",
    "I have a presentation to finish.",
    "I have a question about my tax return.",
    "I have a weird problem with my printer.",
    "I'm looking at a few options.",
    "I'm going to paint the fence.",
    "I'm going to be late for work.",
    "I've got a meeting in a bit.",
    # Feelings and states of the moment
    "I can't sleep.",
    "I'm so done with this week.",
    "I'm freaking out a little.",
    "I'm not feeling great.",
    "I feel like giving up on this.",
    "I'm in a bad mood.",
    "I'm a bit lost here.",
    "I'm nowhere near home.",
    # Talk about the conversation
    "I'm not sure about that.",
    "I'm thinking out loud here.",
    "I see what you mean.",
    "I get it now.",
    "I'll try that.",
    "I made the change you suggested.",
    "I have another question.",
    "I have a follow-up.",
    "I'll send you the rest later.",
    "I'm curious about this.",
    # Opinions about things in the news or the world
    "I think the new policy is a mistake.",
    "I feel like prices are going up everywhere.",
)

"""Related terms for short queries: what a person means by one to three words.

People and assistants search with a word or two ("kids", "boss", "meds", "car"), and a memory says
it in its own words ("My daughter Mila is 6", "My manager is called Priya", "I take 50 mg of
sertraline", "I drive a VW Golf"). The embedding model alone ranks such a memory well but scores it
low, and the query's word is absent from the store, which the relevance score rightly reads as "not
about anything here" for a long question (`memories/search/scoring.py`). So a short query's words
are looked up in a small curated lexicon of general vocabulary (relations, hypernyms -> common
hyponyms, synonyms, abbreviations, British/American spellings) and each word's related terms join
its *group*: BM25 counts a group as one term (term frequencies summed, document frequency the
largest of its members', as Lucene's SynonymQuery does), and a group is known to the store when any
member is. A memory holding "daughter" thus holds the query "kids" once, as if it said "kids".

Built from general vocabulary, not from any evaluation set (bench/data/short_queries.json keeps a
held-out third to check that). Each line: words that all mean each other (`a b c`; a two- or
three-word term joined by `_`), optionally followed by `> x y z`: narrower or related words they
also find (but that do not find them).
Words with a second common sense ("lead", "call", "work", "home", "account") are left out: as a
related term they would find memories about the other sense; so are terms the text-search parser
splits into stray lexemes ("1:1" gives "1", "wi-fi" gives "wi" and "fi").
Longer queries (more than SHORT_WORDS words) are not expanded: their words give each other context,
and LoCoMo's questions, on which the score was tuned, are such queries.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from memories import language
from memories.language import UNSPACED
from memories.search.related_terms_languages import LEXICONS

# A query of at most this many words is short.
SHORT_WORDS = 3
_WORD = re.compile(r"[a-z0-9]+")
# Any script's words (letters, digits), a run of Han or kana apart from the rest.
_CJK_CHAR = re.compile(f"[{UNSPACED}]")
_ANY_WORD = re.compile(f"[{UNSPACED}]+|[^\\W_{UNSPACED}]+")
# The same, a word keeping its inner hyphens and apostrophes ("grands-parents", "aujourd'hui").
_FOREIGN_WORD = re.compile(f"[{UNSPACED}]+|[^\\W_{UNSPACED}]+(?:[-'][^\\W_{UNSPACED}]+)*")

LEXICON = """
kid kids child children offspring > daughter daughters son sons baby toddler boy girl
daughter daughters > girl child
son sons > boy child
baby babies infant infants newborn toddler
parent parents > mother mum mom mama father dad papa
mother mum mom mama mommy mummy
father dad daddy papa pa
grandparent grandparents > grandmother grandma granny nan grandfather grandpa granddad
grandmother grandma granny nan nana
grandfather grandpa granddad
sibling siblings > brother brothers sister sisters
sister sisters sis
brother brothers bro
spouse partner > wife husband girlfriend boyfriend fiance fiancee
wife husband > spouse partner married
relative relatives family > cousin aunt uncle niece nephew
in_laws inlaws > mother-in-law father-in-law parents-in-law parents
friend friends buddy pal mate bestie
boss manager supervisor
coworker coworkers colleague colleagues teammate teammates
job occupation profession career employment > developer engineer nurse teacher
employer company firm > startup
salary pay wage wages income earnings paycheck > earn
vacation holiday holidays leave pto > annual leave trip
cv resume résumé
quit quitting resign resignation > notice
meeting meetings > standup
commute > train bus tram subway metro s-bahn
transport transit > train bus tram subway metro
wfh remote > home
workplace office
doctor doc physician gp > dr
paediatrician pediatrician > children's doctor
vet veterinarian
animal_doctor > vet veterinarian
dentist dental teeth tooth
meds medication medications medicine medicines pills drug drugs prescription > tablet mg dose
antidepressant antidepressants > sertraline fluoxetine citalopram escitalopram ssri
painkiller painkillers > ibuprofen paracetamol aspirin
antibiotic antibiotics > penicillin amoxicillin
allergy allergies allergic > intolerant intolerance rash hives
bp hypertension > blood pressure
therapist therapy counselling counseling counselor shrink psychologist > mental health
mental_health > therapist therapy counselling psychologist
vision eyesight sight eyes > glasses contacts short-sighted optician
optometrist optician > eye exam
vaccine vaccines vaccination jab shot shots booster immunisation > tetanus flu
injury injured > sprain sprained broke broken fracture
diet > vegetarian vegan meat gluten
vegetarian veggie > meat
dairy milk > lactose
caffeine coffee > espresso latte cappuccino
alcohol drinks booze > wine beer riesling whisky
smoking smoke cigarettes cigarette nicotine vape
weight > kilos kg pounds lose
sleep bedtime > bed wake
car cars auto automobile vehicle > golf bmw audi toyota tesla vw
motorbike motorcycle bike
bicycle bike cycling cycle > brompton
license licence permit
parking > garage
mechanic > garage autohaus service
apartment apartments flat flats housing > rent
landlord landlady > owner
internet wifi wlan broadband wireless > router
houseplants plants > monstera ficus
garden gardening > allotment vegetables
hotel hotels > marriott hilton hyatt accor
cleaner housekeeper cleaning
couch sofa settee
furniture > sofa couch table chair bed wardrobe desk
heating furnace boiler heater
power electricity energy > tariff
trash garbage rubbish bin bins waste recycling
package packages parcel parcels delivery deliveries
mail email
bank > ing
credit_card > visa mastercard amex
frequent_flyer > miles airline
cover coverage > insurance insured
locked_out > spare key locksmith
savings investments investment invest stocks shares > etf fund
etf > index fund
accountant > tax return
retirement > pension
groceries > supermarket food
subscription subscriptions streaming > netflix spotify disney
debt debts > loan owe mortgage
favorite favourite fave
color colour
pasta > lasagne lasagna spaghetti
coriander cilantro
restaurant restaurants > dinner eat out eating out
eating_out > restaurant restaurants
breakfast porridge oatmeal > oats cereal
dog dogs puppy > beagle labrador poodle terrier
cat cats kitty kitten feline
pet pets > dog cat beagle
travel_documents > passport visa id
flight flights plane airplane > seat aisle window
luggage suitcase baggage bag
beach seaside coast > sea baltic
greece greek > athens crete santorini corfu rhodes
mountain mountains > alps peak summit hike
instrument > guitar piano violin cello drums
jogging jog running run
workout gym fitness exercise
book books novel novels > reading
board_games > catan chess monopoly
photography photo photos > camera
camera cameras > fujifilm canon nikon leica
hike hiking trail trails > walk
soccer football > fc club
music > jazz rock pop soul classical records
vinyl records
concert gig gigs > tickets band
tv series show shows > season episode
movie movies film films cinema
gaming games videogame > switch playstation xbox nintendo zelda
nintendo > switch zelda mario
degree university college > master's bachelor phd
class course training > lesson
laptop computer notebook pc > thinkpad macbook
phone mobile cellphone smartphone > pixel iphone samsung
password passwords logins login credentials > bitwarden 1password keepass
editor > vim neovim emacs vscode
keyboard > dvorak qwerty layout
headphones earphones earbuds headset
birthday dob born > birth
married marriage > wedding anniversary spouse wife husband
gift gifts present presents > likes wishlist
height > tall
foot feet > ankle toe heel
nickname name
hometown > grew up village town
mother_tongue > first language native
lawyer attorney solicitor legal
barber hairdresser haircut
charity donate donation donations > msf volunteer volunteering
msf > doctors without borders
kubernetes k8s
database databases db > postgres postgresql mysql sqlite
childcare nanny babysitter sitter daycare creche
"""


@dataclass(frozen=True)
class Expansion:
    """A query word's related terms from one language's lexicon: their lexemes come from that
    language's analysis (`memories/search/lexical.py`), so a German term finds German stems."""

    word: str  # as the query wrote it, folded to lower case
    terms: str  # its related terms as one text
    language: str  # a code of `memories/language.py`


def _parse(text: str) -> dict[str, tuple[str, ...]]:
    related: dict[str, list[str]] = {}
    for line in text.strip().splitlines():
        same, _, narrower = line.partition(">")
        heads, extra = same.split(), narrower.split()
        for head in heads:
            words = related.setdefault(head, [])
            words += [w for w in (*heads, *extra) if w != head and w not in words]
    return {head: tuple(words) for head, words in related.items()}


@cache
def _lexicon() -> dict[str, tuple[str, ...]]:
    return _parse(LEXICON)


@cache
def _lexicons() -> dict[str, dict[str, tuple[str, ...]]]:
    """The other languages' lexicons, by language."""
    return {code: _parse(text) for code, text in LEXICONS.items()}


def _lookup(term: str) -> tuple[str, ...]:
    lexicon = _lexicon()
    return lexicon.get(term) or lexicon.get(term.removesuffix("s")) or ()


def is_short(query: str) -> bool:
    """At most SHORT_WORDS words, in any script (two Chinese or Japanese characters count as one
    word: they have no spaces)."""
    words = sum(
        -(-len(run) // 2) if _CJK_CHAR.match(run) else 1 for run in _ANY_WORD.findall(query)
    )
    return 1 <= words <= SHORT_WORDS


def expansions(query: str, *, any_length: bool = False) -> list[Expansion]:
    """Each word of a short query (`any_length`: of any query) that has related terms, with
    them, once per lexicon that holds it; a two- or three-word term's related terms go to each
    of its words."""
    if not any_length and not is_short(query):
        return []
    found = [Expansion(w, t, language.ENGLISH) for w, t in _english(query)]
    words = _words(query)
    for code, lexicon in _lexicons().items():
        found += (Expansion(w, t, code) for w, t in _related(words, lexicon.get))
    return found


def _english(query: str) -> list[tuple[str, str]]:
    return _related(list(dict.fromkeys(_WORD.findall(query.lower()))), _lookup)


def _words(query: str) -> list[str]:
    """A query's words for the other lexicons: words with their hyphens and apostrophes, and a
    run of Chinese or Japanese characters with every part of it a lexicon could hold (it has no
    spaces to tell its words; a part's terms count only where the query's own lexemes hold the
    part, so a single character inside a longer run adds nothing)."""
    words: list[str] = []
    for run in _FOREIGN_WORD.findall(query.casefold()):
        words.append(run)
        if _CJK_CHAR.match(run):
            words += (
                run[i : i + n] for n in range(len(run) - 1, 0, -1) for i in range(len(run) - n + 1)
            )
    return list(dict.fromkeys(words))


def _related(
    words: list[str], lookup: Callable[[str], tuple[str, ...] | None]
) -> list[tuple[str, str]]:
    related: dict[str, list[str]] = {w: list(lookup(w) or ()) for w in words}
    # A term of two or three words ("fiche de paie", "dolor de espalda"): each of its words.
    runs = [*itertools.pairwise(words), *zip(words, words[1:], words[2:], strict=False)]
    for run in runs:
        more = lookup("_".join(run)) or ()
        for word in run:
            related[word] += (t for t in more if t not in related[word])
    return [
        (w, " ".join(t.replace("_", " ") for t in terms)) for w, terms in related.items() if terms
    ]

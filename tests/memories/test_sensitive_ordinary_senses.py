"""A sensitive word in an ordinary sense (issue 36.3): a signal word in an ordinary setting or
phrase reaches an app with the default consent while the same word about one's own life stays
hidden; the embedding's nearness alone, or an English veto, never decides against the rules; and
the signal words' edges (a Russian debt, a party's suffix, a self-help group)."""

# ruff: noqa: RUF001 - Russian words are written in Cyrillic (some letters look Latin)

from __future__ import annotations

from dataclasses import replace

import pytest

from accounts.actors import Actor
from memories import sensitive_model
from memories.categories.ordinary import ordinary_phrases
from memories.categories.vocabulary import DEFAULT_CATEGORIES, SENSITIVE
from memories.classify import Classifier, classifier_for
from memories.search.embeddings import get_embedder
from memories.selectors.memories import memory_get
from memories.services import adding
from tests.memories.consent_checks import added_hidden, added_ordinary, hidden_from
from tests.memories.signal_words import signalled

pytestmark = pytest.mark.django_db


# Written for these tests, in none of the sets (issue 36.3, bench/data/sensitive_dev3.json's false
# alarms): a signal word in an ordinary setting (memories/categories/ordinary.py,
# `ORDINARY_SETTINGS`).
SIGNAL_WORDS_IN_ORDINARY_SETTINGS = [
    ("I signed up for a weekend workshop on salary negotiation.", "en", "finance"),
    ("Hice un taller para aprender a negociar el sueldo.", "es", "finance"),
    ("Купила книгу о переговорах о зарплате.", "ru", "finance"),
    ("給与交渉の講座を受けた。", "ja", "finance"),
    ("我在B站看了薪资谈判技巧的视频。", "zh", "finance"),
    ("Samedi, concert de gospel à l'église du quartier.", "fr", "religion"),
    ("周末去教堂听了管风琴音乐会。", "zh", "religion"),
    ("教会のコンサートでピアノを弾いた。", "ja", "religion"),
    ("Wir haben im Verein einen neuen Kassenwart gewählt.", "de", "politics"),
    ("We voted for a new team captain.", "en", "politics"),
    ("Votamos por un nuevo capitán del equipo.", "es", "politics"),
]
THE_SAME_WORDS_ABOUT_ONES_OWN_LIFE = [
    ("我的薪资是每月两万。", "zh", "finance"),
    ("給与は手取りで25万円です。", "ja", "finance"),
    ("Je vais à l'église tous les dimanches pour la messe.", "fr", "religion"),
    ("Ich habe bei der Landtagswahl die FDP gewählt.", "de", "politics"),
    ("I voted Labour, like the rest of my football team.", "en", "politics"),
]


@pytest.mark.parametrize(("text", "code", "category"), SIGNAL_WORDS_IN_ORDINARY_SETTINGS)
def test_a_signal_word_in_an_ordinary_setting_reaches_a_default_app(
    owner_dash: Actor,
    default_app: Actor,
    text: str,
    code: str,
    category: str,
) -> None:
    assert category in signalled(text, code)  # the word is there
    added_ordinary(owner_dash, default_app, text, code)


@pytest.mark.parametrize(("text", "code", "category"), THE_SAME_WORDS_ABOUT_ONES_OWN_LIFE)
def test_the_same_words_about_ones_own_pay_worship_or_vote_stay_hidden(
    owner_dash: Actor,
    default_app: Actor,
    text: str,
    code: str,
    category: str,
) -> None:
    added_hidden(owner_dash, default_app, text, code, category)


# The embedding model reads these languages poorly: its nearness alone filed a cousin's politics
# degree and a taste in crime novels under politics. Written for these tests, in none of the sets.
EMBEDDING_ALONE_IN_TWO_LANGUAGES = [
    ("Meu primo estuda ciência política em Lisboa.", "pt"),
    ("Ich lese gern Krimis über Politiker.", "de"),
]


@pytest.mark.parametrize(("text", "code"), EMBEDDING_ALONE_IN_TWO_LANGUAGES)
def test_the_embeddings_nearness_alone_does_not_hide_what_the_model_reads_as_ordinary(
    owner_dash: Actor,
    default_app: Actor,
    monkeypatch: pytest.MonkeyPatch,
    text: str,
    code: str,
) -> None:
    added_ordinary(owner_dash, default_app, text, code)

    # Without the model's veto, the embedding's label would have hidden the same words.
    monkeypatch.setattr(sensitive_model, "VETO", 0.0)
    [labels] = classifier_for().label_memories(get_embedder().embed([text]), [text])
    assert "politics" in labels


def test_the_model_never_overrules_a_signal_word(
    owner_dash: Actor,
    default_app: Actor,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sensitive_model, "verdict", lambda text, weights=None: (0.0, "legal"))
    memory = adding.memory_create(actor=owner_dash, text="Je suis dialysé depuis mars.").memory
    assert memory.categories[0] == "health" and hidden_from(default_app, memory)


def test_an_english_fact_only_the_embeddings_nearness_hid_reaches_a_default_app(
    owner_dash: Actor,
    default_app: Actor,
) -> None:
    # Written for this test, in none of the sets: MiniLM's nearness files an age under health.
    text = "I am 41 years old."
    memory = adding.memory_create(actor=owner_dash, text=text).memory
    assert memory.language == "en"
    assert not set(memory.categories) & SENSITIVE, memory.categories
    assert not hidden_from(default_app, memory)

    # Without the English veto (`Thresholds.english_veto`), the nearness alone hid it.
    classifier = classifier_for()
    assert classifier.thresholds.english_veto > 0
    unvetoed = Classifier(DEFAULT_CATEGORIES, replace(classifier.thresholds, english_veto=0.0))
    [labels] = unvetoed.label_memories(get_embedder().embed([text]), [text])
    assert "health" in labels


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("I got a speeding fine last week.", "legal"),  # the embedding's absolute threshold
        ("I was diagnosed with diabetes last year.", "health"),  # a signal word
    ],
)
def test_the_english_veto_never_drops_a_signal_word_or_a_confident_embedding(
    owner_dash: Actor,
    default_app: Actor,
    monkeypatch: pytest.MonkeyPatch,
    text: str,
    category: str,
) -> None:
    monkeypatch.setattr(sensitive_model, "verdict", lambda text, weights=None: (0.0, "religion"))
    memory = adding.memory_create(actor=owner_dash, text=text).memory
    assert category in memory.categories and hidden_from(default_app, memory)


# Written for these tests, in none of the sets (issue 36.3, bench/data/sensitive_dev6.json's false
# alarms as kinds, not sentences): a sensitive word used in an ordinary sense — an illness or an
# operation whose patient is an animal or a plant, a faith's word as a figure of speech ("football
# is a religion", "my gardening bible"), a debt of gratitude, an advertising campaign
# (memories/categories/ordinary.py, `ORDINARY_PHRASES`). In English MiniLM's nearness may still
# hide a pet's operation (the phrase sets aside the word, not the embedding), so the English case
# is a gratitude.
WORDS_IN_AN_ORDINARY_SENSE = [
    ("Notre lapin a été opéré des dents hier.", "fr", "health"),
    ("Meine Katze wurde gestern am Auge operiert.", "de", "health"),
    ("我家的猫得了皮肤病。", "zh", "health"),
    ("El rosal del balcón tiene una enfermedad.", "es", "health"),
    ("Для нашей семьи хоккей — это религия.", "ru", "religion"),
    ("Este livro é a minha bíblia da jardinagem.", "pt", "religion"),
    ("I owe my career to my first piano teacher.", "en", "finance"),
]
# The same words in a fact about the writer: the writer as the subject beside the animal, a faith
# named besides the figure, a sum owed beside the gratitude.
THE_SAME_SENSE_WORDS_ABOUT_ONESELF = [
    ("I needed surgery on my hand after the dog bit me.", "en", "health"),
    ("我的狗生病那年，我得了抑郁症。", "zh", "health"),
    ("Ich wurde operiert, während meine Katze bei der Nachbarin war.", "de", "health"),
    ("Islam is the religion I converted to last year.", "en", "religion"),
    ("I owe my brother 3,000 euros, and my career too.", "en", "finance"),
]


@pytest.mark.parametrize(("text", "code", "category"), WORDS_IN_AN_ORDINARY_SENSE)
def test_a_sensitive_word_in_an_ordinary_sense_is_set_aside(
    text: str, code: str, category: str
) -> None:
    assert category in signalled(text, code)  # the word is there
    assert category not in signalled(ordinary_phrases(text)[category], code)  # and set aside


# Written for these tests, in none of the sets (issue 36.3, bench/data/sensitive_dev5.json's false
# alarms as themes): a sensitive word naming a public event met on the way to work, an errand with
# a deadline, a building seen as a sight (memories/categories/ordinary.py, `ORDINARY_PHRASES`).
LOOK_ALIKES_SHARING_THE_WORDS = [
    ("Por una manifestación cortaron la calle y llegué tarde al trabajo.", "es"),
    ("罢工那天地铁停运，我只好打车上班。", "zh"),
    ("Wegen des Streiks fiel mein Zug aus.", "de"),
    ("確定申告の締め切りが近いので、週末に書類を作る。", "ja"),
    # sensitive_dev6's false alarms as kinds, not sentences: a word in an ordinary sense
    *((text, code) for text, code, _ in WORDS_IN_AN_ORDINARY_SENSE),
]
THE_SAME_WORDS_IN_A_SENSITIVE_FACT = [
    ("I joined the protest march against the new motorway.", "en", "politics"),
    ("我参加了工人罢工，要求涨工资。", "zh", "politics"),
    ("Ich war am Samstag auf der Demo gegen Rechts.", "de", "politics"),
    ("確定申告で追徴課税を二十万円払った。", "ja", "finance"),
    *THE_SAME_SENSE_WORDS_ABOUT_ONESELF,
]


@pytest.mark.parametrize(("text", "code"), LOOK_ALIKES_SHARING_THE_WORDS)
def test_a_look_alike_sharing_a_sensitive_word_reaches_a_default_app(
    owner_dash: Actor, default_app: Actor, text: str, code: str
) -> None:
    assert signalled(text, code)  # the word is there
    memory = adding.memory_create(actor=owner_dash, text=text).memory
    assert memory.language == code
    assert not set(memory.categories) & SENSITIVE, memory.categories
    assert memory_get(actor=default_app, memory_id=memory.id, record=False).text == text


@pytest.mark.parametrize(("text", "code", "category"), THE_SAME_WORDS_IN_A_SENSITIVE_FACT)
def test_the_same_word_in_a_fact_about_oneself_stays_hidden_from_a_default_app(
    owner_dash: Actor, default_app: Actor, text: str, code: str, category: str
) -> None:
    added_hidden(owner_dash, default_app, text, code, category)


def test_an_ordinary_phrase_sets_aside_only_its_own_words() -> None:
    # "Buddhist" names the temple a tourist saw; "I'm Buddhist" elsewhere still counts.
    seen = "As tourists we photographed a Buddhist temple in Nara."
    assert "religion" in ordinary_phrases(seen)
    assert "Buddhist" not in ordinary_phrases(seen)["religion"]
    believer = f"I'm Buddhist myself. {seen}"
    assert "Buddhist myself" in ordinary_phrases(believer)["religion"]
    # Taking part in the march, or a sum owed with the tax return, keeps the phrase in play.
    assert ordinary_phrases("I joined the march, so the traffic was blocked.") == {}
    assert ordinary_phrases("My tax return is due: I owe 900 euros.") == {}


# Written for these tests, in none of the sets: a sensitive fact that holds an ordinary phrase
# (`ORDINARY_PHRASES`) and a second, genuine signal of the same category, between the phrase's own
# words or beside them. Only the phrase's own words are set aside, so the label stays.
A_PHRASE_AND_A_SECOND_SIGNAL = [
    ("As a tourist in Kyoto I converted to Buddhism at a temple.", "en", "religion"),
    ("I live next to the church where I was baptised.", "en", "religion"),
    (
        "I have to submit my tax return by Friday and I still owe the bank for my overdraft.",
        "en",
        "finance",
    ),
    ("Hice fotos como turista en la mezquita donde me convertí al islam.", "es", "religion"),
    ("確定申告の書類を出す前に、借金の返済を相談した。", "ja", "finance"),
    (
        "Je dois déposer ma déclaration d'impôts avant la date limite, mais mes dettes me font "
        "peur.",
        "fr",
        "finance",
    ),
]
# A phrase sets aside only its own category's words: a strike that made one late for treatment.
A_PHRASE_OF_ANOTHER_CATEGORY = [
    ("Wegen eines Streiks kam ich zu spät zu meiner Chemotherapie.", "de", "health"),
    ("Por la huelga llegué tarde a mi sesión de quimioterapia.", "es", "health"),
    ("Из-за забастовки я опоздал на химиотерапию.", "ru", "health"),
    ("A greve atrasou o ônibus e eu perdi a consulta com o meu psiquiatra.", "pt", "health"),
]
# One's own place of worship, taking part in the march: the phrase is not set aside at all.
ONES_OWN_PLACE_OR_PROTEST = [
    ("We photographed our mosque after the renovation.", "en", "religion"),
    ("我们的教会在市中心，我拍了很多照片。", "zh", "religion"),
    ("Ich war auf der Demo gegen Rechts, deshalb kam ich zu spät.", "de", "politics"),
    ("Мы ходили на митинг против войны, поэтому опоздали домой.", "ru", "politics"),
    (
        "Nous sommes allés à la manif contre la réforme des retraites, et on est rentrés en "
        "retard.",
        "fr",
        "politics",
    ),
]


@pytest.mark.parametrize(("text", "code", "category"), A_PHRASE_AND_A_SECOND_SIGNAL)
def test_a_second_signal_beside_an_ordinary_phrase_keeps_the_fact_hidden(
    owner_dash: Actor, default_app: Actor, text: str, code: str, category: str
) -> None:
    rest = ordinary_phrases(text)[category]  # the phrase is there and set aside
    assert category in signalled(rest, code)  # and the second signal is not
    added_hidden(owner_dash, default_app, text, code, category)


@pytest.mark.parametrize(("text", "code", "category"), A_PHRASE_OF_ANOTHER_CATEGORY)
def test_an_ordinary_phrase_never_sets_aside_another_categorys_signal(
    owner_dash: Actor, default_app: Actor, text: str, code: str, category: str
) -> None:
    assert set(ordinary_phrases(text)) == {"politics"}
    added_hidden(owner_dash, default_app, text, code, category)


@pytest.mark.parametrize(("text", "code", "category"), ONES_OWN_PLACE_OR_PROTEST)
def test_ones_own_place_of_worship_or_march_is_no_ordinary_phrase(
    owner_dash: Actor, default_app: Actor, text: str, code: str, category: str
) -> None:
    assert ordinary_phrases(text) == {}
    added_hidden(owner_dash, default_app, text, code, category)


@pytest.mark.parametrize(
    "text", ["Я долго ждал, а потом взял в долг у брата.", "У меня долговая нагрузка большая."]
)
def test_a_russian_debt_in_any_form_is_finance_and_long_is_not(text: str) -> None:
    assert "finance" in signalled(text, "ru")
    assert "finance" not in signalled("Я долго ждал автобус, это был долгий день.", "ru")


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("I have a family history of heart trouble on my dad's side.", "health"),
        ("I'm writing a book about my years of drinking too much.", "health"),
        ("I'm doing a degree in theology because I want to become a priest.", "religion"),
    ],
)
def test_a_life_told_in_the_frame_of_a_work_or_a_study_stays_hidden(
    owner_dash: Actor, default_app: Actor, text: str, category: str
) -> None:
    # The seventh pass dropped a label the embedding gave by nearness alone when an English text
    # named a work or a study ("a book about", "a history of", "a degree in"); these facts of the
    # writer's own life then reached every app. Written by the lead as the rule was taken out.
    memory = adding.memory_create(actor=owner_dash, text=text).memory
    assert category in memory.categories and hidden_from(default_app, memory)


@pytest.mark.parametrize(
    ("text", "code"), [("我每个月给工党捐一百块。", "zh"), ("毎月、緑の党に寄付しています。", "ja")]
)
def test_any_party_named_with_its_chinese_or_japanese_suffix_is_politics(
    text: str, code: str
) -> None:
    assert "politics" in signalled(text, code)


@pytest.mark.parametrize(("text", "code"), [("他是我的死党。", "zh"), ("私は甘党です。", "ja")])
def test_a_best_friend_or_a_sweet_tooth_is_no_party(text: str, code: str) -> None:
    assert "politics" not in signalled(text, code)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("I go to AA meetings on Tuesdays.", "en"),
        ("Since March I've been going to NA meetings twice a week.", "en"),
        ("Je vais aux Alcooliques anonymes le mardi.", "fr"),
    ],
)
def test_a_self_help_group_for_drinking_or_drugs_is_health(text: str, code: str) -> None:
    # Probed under multilingual-e5: no signal word, and neither nearness, the character model nor
    # the sensitive head read these as health ("AA" is initials; the French plural was missed).
    assert "health" in signalled(text, code)


def test_aa_batteries_and_a_meeting_about_na_values_are_not_health() -> None:
    assert signalled("I need AA batteries for the remote.", "en") == set()
    assert signalled("The meeting about NA values in the dataset ran late.", "en") == set()

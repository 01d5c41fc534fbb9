"""A short answer in an imported history takes its subject from the assistant's question just
before it ("Do you have any pets?" / "Yes, two cats."): the person sees the fact with what it
is about, never the assistant's own words as a fact, and a message without such a question is
read as before. The examples are written here, not taken from the labelled sets."""

# ruff: noqa: RUF001 - Chinese text is written with its own punctuation

from __future__ import annotations

from pathlib import Path

from accounts.models import User
from memories.extraction.local import Turn, local_extractor
from memories.models import Memory
from tests.memories.exports import backfill, chatgpt_conversation, memory_texts, write_json


def _kept(message: str, previous: str = "") -> list[str]:
    (kept,) = local_extractor().extract([Turn(message, "c1", "", previous)])
    return [k.text for k in kept]


def test_a_short_answer_to_the_assistants_question_is_imported_with_its_subject(
    owner: User, tmp_path: Path
) -> None:
    export = [
        chatgpt_conversation(
            "g-plants",
            ("user", "Which house plants are easy to keep alive?"),
            ("assistant", "Pothos and snake plants. Do you have any pets that might eat them?"),
            ("user", "Yes, two cats."),
            ("assistant", "Then skip the lilies. What do you do for a living? Light matters."),
            ("user", "Thanks. Would the bathroom work for a fern?"),
            ("assistant", "Yes. Would you like a watering schedule as well?"),
            ("user", "yes please, weekly"),
        ),
        chatgpt_conversation(
            "g-work",
            ("assistant", "Happy to help with your CV. What do you do for a living?"),
            ("user", "nurse, mostly night shifts on a cardiac ward"),
        ),
    ]
    path = write_json(tmp_path / "conversations.json", export)
    backfill(path, owner, "--extractor", "local", "--yes")
    texts = memory_texts(owner)
    assert texts == [
        "I have pets that might eat them: two cats.",
        "What I do for a living: nurse, mostly night shifts on a cardiac ward",
    ]
    memory = Memory.objects.get(owner=owner, text__startswith="I have pets")
    # The person's message is the source, not the assistant's question.
    assert memory.provenance["message_id"] == "g-plants-2"


def test_a_german_and_a_chinese_short_answer_are_imported_with_their_subject(
    owner: User, tmp_path: Path
) -> None:
    export = [
        chatgpt_conversation(
            "g-de",
            ("user", "Welche Zimmerpflanzen sind ungiftig?"),
            ("assistant", "Zum Beispiel Grünlilien. Haben Sie Haustiere?"),
            ("user", "Ja, zwei Katzen."),
            ("assistant", "Soll ich die Liste kürzer machen?"),
            ("user", "Ja, bitte."),
        ),
        chatgpt_conversation(
            "g-zh",
            ("assistant", "我可以帮你写简历。你是做什么工作的？"),
            ("user", "小学老师，教语文。"),
        ),
    ]
    path = write_json(tmp_path / "conversations.json", export)
    backfill(path, owner, "--extractor", "local", "--yes")
    assert memory_texts(owner) == [
        "Habe ich Haustiere: Ja, zwei Katzen.",
        "我是做什么工作的：小学老师，教语文。",
    ]


def test_an_answer_about_the_task_or_one_that_decides_nothing_is_not_kept() -> None:
    assert _kept("bullets please", "Would you like the summary as bullet points?") == []
    assert _kept("haven't decided yet", "Are you travelling by train or by car?") == []
    assert _kept("yes, half the length", "Should I make the cover letter shorter?") == []
    assert _kept("the second one", "Which of the three titles do you like best?") == []
    assert _kept("work, due friday", "Is this for school or for work?") == []


def test_a_yes_or_no_answer_becomes_a_statement_about_the_person() -> None:
    assert _kept("No, never.", "Do you smoke?") == ["I don't smoke: never."]
    assert _kept("Yes, fully remote since 2021.", "Do you work remotely?") == [
        "I work remotely: fully remote since 2021."
    ]


def test_the_rest_of_the_answer_is_read_as_before() -> None:
    kept = _kept(
        "61, I walk the dog twice a day and play bowls on thursdays",
        "How old are you?",
    )
    assert kept[0] == "How old I am: 61"
    assert any("play bowls" in text for text in kept[1:])


def test_a_message_without_a_question_before_it_is_read_as_before() -> None:
    messages = [
        "Yes, two cats.",
        "nurse, mostly night shifts",
        "I'm a nurse and I live in Leeds. Can you suggest a quick dinner?",
        "Ich bin Veganerin und wohne in Hamburg.",
    ]
    alone = [[k.text for k in kept] for kept in local_extractor().extract(messages)]
    after_a_statement = [_kept(m, "Here is the plan we discussed.") for m in messages]
    assert alone == after_a_statement
    assert alone[:2] == [[], []]


def test_a_spanish_and_a_french_short_answer_are_imported_with_their_subject(
    owner: User, tmp_path: Path
) -> None:
    export = [
        chatgpt_conversation(
            "g-es",
            ("user", "Necesito un plan de comidas para la semana."),
            ("assistant", "¡Claro! Para ajustarlo, ¿tienes alguna alergia alimentaria?"),
            ("user", "Sí, al marisco."),
            ("assistant", "¿Quieres que lo haga más corto?"),
            ("user", "sí, por favor"),
        ),
        chatgpt_conversation(
            "g-fr",
            ("assistant", "Pour adapter le programme, quel âge avez-vous ?"),
            ("user", "52 ans"),
        ),
    ]
    path = write_json(tmp_path / "conversations.json", export)
    backfill(path, owner, "--extractor", "local", "--yes")
    assert memory_texts(owner) == [
        "Para ajustarlo, tengo alguna alergia alimentaria: Sí, al marisco.",
        "Pour adapter le programme, quel âge j'ai: 52 ans",
    ]
    memory = Memory.objects.get(owner=owner, text__contains="marisco")
    assert memory.provenance["message_id"] == "g-es-2"  # the person's message, not the question


def test_a_completed_health_answer_keeps_the_word_that_makes_it_sensitive(
    owner: User, tmp_path: Path
) -> None:
    export = [
        chatgpt_conversation(
            "g-health",
            ("assistant", "Before I plan the hikes: do you have any medical conditions?"),
            ("user", "type 1 diabetes, on an insulin pump"),
        ),
    ]
    backfill(
        write_json(tmp_path / "conversations.json", export), owner, "--extractor", "local", "--yes"
    )
    memory = Memory.objects.get(owner=owner, text__contains="diabetes")
    assert "insulin pump" in memory.text
    assert "health" in memory.categories


def test_answers_in_five_more_languages_take_the_question_in_the_persons_words() -> None:
    assert _kept("enfermera, en un hospital de Valencia", "¿A qué te dedicas?") == [
        "A qué me dedico: enfermera, en un hospital de Valencia"
    ]
    assert _kept("Em Curitiba, perto do centro", "Legal! Onde você mora?") == [
        "Onde eu moro: Em Curitiba, perto do centro"
    ]
    assert _kept("бухгалтер в небольшой фирме", "Чем вы занимаетесь по работе?") == [
        "Чем я занимаюсь по работе: бухгалтер в небольшой фирме"
    ]
    assert _kept("小学校の先生です", "お仕事は何をされていますか？") == [
        "お仕事は何をされています：小学校の先生です"
    ]


def test_an_answer_about_the_task_in_another_language_is_not_kept() -> None:
    assert _kept("sí, por favor", "¿Quieres que lo haga más corto?") == []
    assert _kept("oui, plus formel", "Voulez-vous que je reformule le deuxième paragraphe ?") == []
    assert _kept("tópicos", "Prefere a versão em tópicos ou em texto corrido?") == []
    assert _kept("да, пожалуйста", "Хотите, чтобы я сократил текст?") == []
    assert _kept("はい、お願いします", "この文を短くしましょうか？") == []
